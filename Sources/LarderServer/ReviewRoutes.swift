import Foundation
import Hummingbird
import LarderCore
import LarderJSON

/// The review queue over HTTP: the same ``Reviewer`` calls as `larder review`, so an edit made here is kept as a
/// version exactly as the command keeps it.
enum ReviewRoutes {
    static func add(to router: Router<LarderRequestContext>, _ service: ServiceContext) {
        router.get("/v1/review") { _, _ in try await service.offload { JSONResponse.make(try service.reviewer.queue()) } }
        router.get("/v1/review/:id") { _, context in
            try await service.offload { JSONResponse.make(try detail(service.document(context).id, service)) }
        }
        router.patch("/v1/review/:id") { request, context in try await patch(request, context, service) }
        router.post("/v1/review/:id/accept") { _, context in try await service.offload { try accept(context, service) } }
        router.post("/v1/review/:id/reject") { request, context in try await reject(request, context, service) }
    }

    /// What a person needs to decide: the result they would edit, the two versions compared (as `review show`),
    /// the diff as JSON Patch and as lines, every version, the decision so far, and the queue's reasons.
    struct Detail: Encodable {
        struct VersionView: Encodable {
            var number: Int
            var origin: ResultVersion.Origin
            var createdAt: Double
            var note: String?
            var violations: [String]
        }

        var documentID: Int64
        var fileName: String
        var current: JSONValue
        var currentVersion: Int
        var from: Int?
        var to: Int
        var diff: JSONValue
        var changes: [String]
        var versions: [VersionView]
        var review: ReviewState
        var reasons: [DocumentResult.Reason]
    }

    static func detail(_ id: Int64, _ service: ServiceContext) throws -> Detail {
        let versions = try service.store.resultVersions(of: id)
        guard !versions.isEmpty, let document = try service.store.document(id: id) else {
            throw APIError(.notFound, "document \(id) has no result yet", hint: "wait for it to finish (GET /v1/documents/\(id))")
        }
        let (from, to) = try service.reviewer.comparison(for: id)
        let current = try service.reviewer.currentResult(for: id)
        let diff = try from.map { try ResultDiff(fromJSON: $0.json, toJSON: to.json) }
        let reasons = try service.reviewer.queue().first { $0.documentID == id }?.reasons ?? []
        return Detail(
            documentID: id, fileName: DocumentView.fileName(document.path), current: try JSONValue(parsing: current.json),
            currentVersion: current.number, from: from?.number, to: to.number, diff: diff?.patch ?? .array([]),
            changes: diff?.lines(colour: false) ?? [],
            versions: versions.map {
                .init(number: $0.number, origin: $0.origin, createdAt: $0.createdAt, note: $0.note, violations: $0.violations.map(\.description))
            },
            review: try service.store.reviewState(of: id), reasons: reasons)
    }

    struct Saved: Encodable {
        var documentID: Int64
        var version: Int
        var decision: ReviewState.Decision
    }

    static func patch(_ request: Request, _ context: LarderRequestContext, _ service: ServiceContext) async throws -> Response {
        let document = try await service.offload { try service.document(context) }
        let body = try await Body.json(
            request, limit: service.settings.maxJSONBytes, types: ["application/json-patch+json", "application/json"])
        guard body.arrayValue != nil else {
            throw APIError(.badRequest, "a JSON Patch is an array of operations", hint: "send [{\"op\": \"replace\", \"path\": …, \"value\": …}]")
        }
        let number = try await service.offload { try apply(body, to: document.id, service) }
        return JSONResponse.make(Saved(documentID: document.id, version: number, decision: .accepted))
    }

    /// Applies a patch through the reviewer: a patch that does not apply, or whose outcome breaks the schema, is
    /// 422 and saves nothing.
    static func apply(_ patch: JSONValue, to id: Int64, _ service: ServiceContext, source: String = "api") throws -> Int {
        do {
            return try service.reviewer.applyPatch(documentID: id, patch: patch.serialized(), source: source)
        } catch let error as LarderError where error.kind == .badInput {
            throw APIError(.invalidPatch, error.message, hint: error.hint)
        } catch let error as LarderError where error.kind == .configuration {
            throw APIError(.conflict, error.message, hint: "wait for the document to finish")
        }
    }

    static func accept(_ context: LarderRequestContext, _ service: ServiceContext) throws -> Response {
        let document = try service.document(context)
        do {
            let number = try service.reviewer.accept(documentID: document.id)
            return JSONResponse.make(Saved(documentID: document.id, version: number, decision: .accepted))
        } catch let error as LarderError where error.kind == .badInput || error.kind == .configuration {
            throw APIError(.conflict, error.message, hint: "fix it with PATCH /v1/review/\(document.id)")
        }
    }

    static func reject(_ request: Request, _ context: LarderRequestContext, _ service: ServiceContext) async throws -> Response {
        let document = try await service.offload { try service.document(context) }
        var reason = "rejected in the review page"
        if request.headers[.contentType] != nil || (request.headers[.contentLength].flatMap { Int($0) } ?? 0) > 0 {
            let body = try await Body.json(request, limit: service.settings.maxJSONBytes)
            if let text = body["reason"]?.stringValue { reason = String(text.prefix(2000)) }
        }
        let rejected = reason
        return try await service.offload {
            do {
                try service.reviewer.reject(documentID: document.id, reason: rejected)
            } catch let error as LarderError where error.kind == .configuration {
                throw APIError(.conflict, error.message, hint: "wait for the document to finish")
            }
            let latest = try service.store.resultVersions(of: document.id).last { $0.origin == .machine }?.number ?? 0
            return JSONResponse.make(Saved(documentID: document.id, version: latest, decision: .rejected))
        }
    }
}

/// Pantry, cook, search, events, health and metrics.
enum ServiceRoutes {
    static func add(to router: Router<LarderRequestContext>, _ service: ServiceContext) {
        router.get("/healthz") { _, _ in
            struct Health: Encodable {
                var status = "ok"
                var version = LarderInfo.version
                var working: Bool
            }
            return JSONResponse.make(Health(working: service.runner?.isWorking ?? false))
        }
        router.get("/metrics") { _, _ in
            let streams = await service.events.openStreams
            let text = try await service.offload {
                try service.metrics.render(
                    store: service.store, pipelineVersion: service.pipelineVersion,
                    workerRunning: service.runner?.isWorking ?? false, eventStreams: streams)
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        router.get("/v1/pantry") { _, _ in
            try await service.offload { JSONResponse.make(try Pantry(store: service.store).items()) }
        }
        router.get("/v1/cook") { request, _ in try await service.offload { try cook(request, service) } }
        router.get("/v1/search") { request, _ in try await service.offload { try search(request, service) } }
        router.get("/v1/events") { _, _ in try await events(service) }
    }

    static func cook(_ request: Request, _ service: ServiceContext) throws -> Response {
        let query = request.uri.queryParameters
        let limit = Int(try Query.integer(query["limit"], name: "limit", range: 1...100) ?? 10)
        let missing = try Query.integer(query["missingAtMost"], name: "missingAtMost", range: 0...1000).map(Int.init)
        let today = query["asOf"].map(String.init)
            ?? ISO8601DateFormatter.string(from: Date(), timeZone: .current, formatOptions: [.withFullDate])
        guard CookPlanner.day(today) != nil else { throw APIError(.badRequest, "asOf must be a date, YYYY-MM-DD") }
        let planner = service.lexicon.planner(today)
        return JSONResponse.make(try service.store.cookSuggestions(planner, limit: limit, missingAtMost: missing))
    }

    static func search(_ request: Request, _ service: ServiceContext) throws -> Response {
        let parameters = request.uri.queryParameters
        var query = RecipeSearchQuery()
        query.text = parameters["q"].map { String($0.prefix(500)) } ?? ""
        query.ingredients = parameters[values: "ingredient"].map { String($0.prefix(100)) }
        query.without = parameters[values: "without"].map { String($0.prefix(100)) }
        query.diets = parameters[values: "diet"].map { String($0.prefix(100)) }
        query.maxMinutes = try Query.integer(parameters["maxMinutes"], name: "maxMinutes", range: 0...100_000).map(Double.init)
        query.limit = Int(try Query.integer(parameters["limit"], name: "limit", range: 1...200) ?? 20)
        guard !query.text.isEmpty || !query.ingredients.isEmpty else {
            throw APIError(.badRequest, "give q (words) or ingredient", hint: "GET /v1/search?q=lentil")
        }
        do {
            return JSONResponse.make(try service.store.searchRecipes(query))
        } catch let error as LarderError where error.kind == .configuration || error.kind == .badInput {
            throw APIError(.badRequest, error.message, hint: error.hint)
        }
    }

    /// Server-Sent Events: `registered` and `stage` events, with a comment every 15 s to keep proxies from
    /// closing an idle stream.
    static func events(_ service: ServiceContext) async throws -> Response {
        guard let (id, stream) = await service.events.subscribe() else {
            throw APIError(.unavailable, "too many event streams are open", hint: "close one, or try again later")
        }
        let hub = service.events
        let body = ResponseBody { writer in
            defer { Task { await hub.unsubscribe(id) } }
            try await writer.write(ByteBuffer(string: ": larder events\nretry: 2000\n\n"))
            for await message in stream {
                try await writer.write(ByteBuffer(string: message.sse))
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok, headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store"], body: body)
    }
}
