import Foundation
import HTTPTypes
import Hummingbird
import LarderCore
import LarderJSON
import NIOPosix

/// What every route handler works with.
struct ServiceContext: Sendable {
    let store: any ServiceStore
    let reviewer: Reviewer
    let uploads: UploadStore
    let settings: ServerSettings
    let config: PipelineConfig
    let pipelineVersion: String
    let metrics: ServerMetrics
    let events: EventHub
    let runner: QueueRunner?
    let lexicon: FoodLexiconBox
    /// Where every store call and other blocking work of a request runs (see ``BlockingPool``).
    let blocking: BlockingPool
    /// Encoded results, checked against the store on every request (see ``ResultCache``).
    let results: ResultCache

    /// Runs blocking work (store calls, file reads and writes, hashing) off the event loops: see ``BlockingPool``.
    func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await blocking.run(work)
    }

    /// A document id from the path, or 404 when it names none.
    func document(_ context: LarderRequestContext) throws -> DocumentRecord {
        let text = context.parameters.get("id") ?? ""
        guard let id = Int64(text), id > 0, let document = try store.document(id: id) else {
            throw APIError.notFound(document: String(text.prefix(40)))
        }
        return document
    }

    /// A document's own bytes, for the review page's photo and PDF pages, checked against its SHA-256: from the
    /// store when it keeps them (PostgreSQL's blob table: any server shows any document, whichever host took it),
    /// else the registered file or its copy in the uploads folder. Every path is the store's, none the request's.
    /// nil when neither holds these bytes (a file moved or changed since it was registered).
    func sourceBytes(of document: DocumentRecord) throws -> Data? {
        guard document.byteCount <= settings.maxUploadBytes else { return nil }
        if let bytesStore = store as? any DocumentBytesStore, let bytes = try bytesStore.bytes(sha256: document.sha256) {
            let data = Data(bytes)
            return SHA256.hex(data) == document.sha256 ? data : nil
        }
        let ext = UploadStore.storedExtension(for: document.path).map { "." + $0 } ?? ""
        for path in [document.path, uploads.directory + "/" + document.sha256 + ext] {
            if let data = UploadStore.contents(path, sha256: document.sha256, byteCount: Int(document.byteCount)) {
                return data
            }
        }
        return nil
    }
}

/// The food lexicon `cook` needs, loaded once.
struct FoodLexiconBox: Sendable {
    let planner: @Sendable (String) -> CookPlanner
}

/// A document as the API shows it.
struct DocumentView: Encodable {
    struct StageView: Encodable {
        var stage: String
        var status: StageStatus
        var attempts: Int
        var version: String?
        var durationMilliseconds: Double?
        var error: LarderError.Record?
    }

    var id: Int64
    var sha256: String
    var state: DocumentState
    var kind: Route?
    var fileName: String
    var byteCount: Int64
    var registeredAt: Double
    var stages: [StageView]?
    var warnings: [String]?
    var result: JSONValue?
    var review: ReviewState?

    /// The file name without the folder: the server's upload path is its own business.
    static func fileName(_ path: String) -> String { URL(fileURLWithPath: path).lastPathComponent }

    /// How the page names a document: an upload (stored as `<sha256>.<ext>`) by its hash's first 12 digits.
    static func displayName(_ path: String) -> String {
        let name = fileName(path)
        let stem = name.prefix { $0 != "." }
        guard stem.count == 64, stem.allSatisfy(\.isHexDigit) else { return name }
        return "upload \(stem.prefix(12))…\(name.dropFirst(64))"
    }
}

/// `POST /v1/documents`, `GET /v1/documents[/{id}[/result]]`, `POST /v1/documents/{id}/retry`.
enum DocumentRoutes {
    static func add(to router: Router<LarderRequestContext>, _ service: ServiceContext) {
        router.post("/v1/documents") { request, context in try await upload(request, context, service) }
        router.get("/v1/documents") { request, _ in try await service.offload { try list(request, service) } }
        router.get("/v1/documents/:id") { _, context in try await service.offload { try show(context, service) } }
        router.get("/v1/documents/:id/result") { request, context in
            try await service.offload { try result(request, context, service) }
        }
        router.post("/v1/documents/:id/retry") { _, context in try await service.offload { try retry(context, service) } }
    }

    static func upload(_ request: Request, _ context: LarderRequestContext, _ service: ServiceContext) async throws
        -> Response
    {
        let contentType = request.headers[.contentType] ?? "application/octet-stream"
        let fileName: String?
        let data: Data
        do {
            if contentType.lowercased().hasPrefix("multipart/form-data") {
                guard let boundary = Multipart.boundary(from: contentType) else {
                    throw APIError(.badRequest, "multipart/form-data without a boundary", hint: "let the client library set the content type")
                }
                let body = try await Body.collect(request, limit: service.settings.maxUploadBytes + 64 * 1024)
                let part = try Multipart.filePart(body, boundary: boundary)
                guard Int64(part.data.count) <= service.settings.maxUploadBytes else { throw Body.tooLarge(service.settings.maxUploadBytes) }
                fileName = part.fileName
                data = part.data
            } else {
                guard Body.acceptsRaw(contentType) else {
                    throw APIError(
                        .unsupportedMediaType, "cannot upload a body of type \(contentType.prefix(80))",
                        hint: "send the file's bytes (application/octet-stream or its own type) or multipart/form-data")
                }
                data = try await Body.collect(request, limit: service.settings.maxUploadBytes)
                fileName = request.uri.queryParameters["filename"].map(String.init)
                    ?? request.headers[HTTPField.Name("X-File-Name")!]
            }
            // Hashing, the file write and the store's transaction block: off the event loops' async threads.
            let name = fileName.map { String($0.prefix(255)) }
            let uploads = service.uploads
            let outcome = try await service.offload { try uploads.accept(data, fileName: name) }
            service.metrics.countUpload(outcome.duplicate ? .duplicate : .new)
            if !outcome.duplicate {
                await service.events.publish(
                    ServerEvent(type: .registered, documentID: outcome.id, at: Date().timeIntervalSince1970))
            }
            service.runner?.poke()
            var response = JSONResponse.make(outcome, status: outcome.duplicate ? .ok : .created)
            response.headers[.location] = "/v1/documents/\(outcome.id)"
            return response
        } catch let error as APIError {
            service.metrics.countUpload(.rejected)
            throw error
        }
    }

    static func list(_ request: Request, _ service: ServiceContext) throws -> Response {
        let query = request.uri.queryParameters
        var state: DocumentState?
        if let text = query["status"] {
            guard let value = DocumentState(rawValue: String(text)) else {
                throw APIError(.badRequest, "unknown status '\(text.prefix(40))'", hint: "use pending, done, failed or quarantined")
            }
            state = value
        }
        var kind: Route?
        if let text = query["kind"] {
            guard let value = Route(rawValue: String(text)) else {
                throw APIError(.badRequest, "unknown kind '\(text.prefix(40))'", hint: "use recipe, receipt or unknown")
            }
            kind = value
        }
        let after = try Query.integer(query["after"], name: "after", range: 0...Int64.max) ?? 0
        let limit = Int(try Query.integer(query["limit"], name: "limit", range: 1...500) ?? 100)
        let page = try service.store.documentPage(state: state, kind: kind, after: after, limit: limit)
        struct Page: Encodable {
            var documents: [DocumentView]
            var next: String?
        }
        let views = page.map { listing in
            DocumentView(
                id: listing.document.id, sha256: listing.document.sha256, state: listing.document.state,
                kind: listing.kind, fileName: DocumentView.fileName(listing.document.path),
                byteCount: listing.document.byteCount, registeredAt: listing.document.registeredAt)
        }
        var next: String?
        if page.count == limit, let last = page.last {
            var parts = ["after=\(last.document.id)", "limit=\(limit)"]
            if let state { parts.append("status=\(state.rawValue)") }
            if let kind { parts.append("kind=\(kind.rawValue)") }
            next = "/v1/documents?" + parts.joined(separator: "&")
        }
        return JSONResponse.make(Page(documents: views, next: next))
    }

    static func show(_ context: LarderRequestContext, _ service: ServiceContext) throws -> Response {
        let document = try service.document(context)
        let stages = try service.store.stages(of: document.id)
        // The kind and warnings of the latest result; the result itself only when it is the one export writes.
        let latest = try service.store.resultVersions(of: document.id).last
        let value = try latest.map { try JSONValue(parsing: $0.json) }
        var exported: JSONValue?
        if document.state == .done, case .version(let version) = try Exporter(store: service.store).exportable(document.id) {
            exported = try JSONValue(parsing: version.json)
        }
        var warnings: [String] = []
        if let detect = stages.first(where: { $0.stage == StandardStage.detect.rawValue })?.output,
            let parsed = try? JSONValue(parsing: detect), let list = parsed["warnings"]?.arrayValue
        {
            warnings += list.compactMap(\.stringValue)
        }
        warnings += value?["warnings"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let view = DocumentView(
            id: document.id, sha256: document.sha256, state: document.state,
            kind: value?["kind"]?.stringValue.flatMap(Route.init(rawValue:)), fileName: DocumentView.fileName(document.path),
            byteCount: document.byteCount, registeredAt: document.registeredAt,
            stages: stages.map {
                .init(
                    stage: $0.stage, status: $0.status, attempts: $0.attempts, version: $0.version,
                    durationMilliseconds: $0.durationMilliseconds, error: $0.error)
            },
            warnings: warnings, result: exported,
            review: try service.store.reviewState(of: document.id))
        return JSONResponse.make(view)
    }

    /// The result `larder export` would write, stamped the same way; 404 or 409 saying why there is none. It carries
    /// an ETag: with a matching If-None-Match the answer is 304 without a body. Which version leaves Larder is asked
    /// of the store every time, in one read (``ServiceStore/exportableVersion(of:)``: the version and the pipeline
    /// version together), so an edit by any process changes the answer (and the ETag) at once; the encoding is
    /// cached against exactly what that read returned (``ResultCache``).
    static func result(_ request: Request, _ context: LarderRequestContext, _ service: ServiceContext) throws -> Response {
        // The document's record is read only when there is no result to send (for the error's words).
        let text = context.parameters.get("id") ?? ""
        guard let id = Int64(text), id > 0 else { throw APIError.notFound(document: String(text.prefix(40))) }
        guard let version = try service.store.exportableVersion(of: id) else {
            throw try noResult(Exporter(store: service.store).exportable(id), id, service)
        }
        let encoded = try service.results.encoded(version, of: id) {
            try Exporter.exported(version.json, pipelineVersion: version.pipelineVersion, options: [])
        }
        var response: Response
        if let header = request.headers[.ifNoneMatch], ResultCache.matches(header, encoded.etag) {
            response = Response(status: .notModified)
        } else {
            response = JSONResponse.raw(encoded.data)
        }
        response.headers[.eTag] = encoded.etag
        response.headers[.cacheControl] = "private, no-cache"
        response.headers[HTTPField.Name("X-Larder-Result-Version")!] = String(version.number)
        return response
    }

    /// Why document `id` has no result to send: 404 (unknown, not done yet, failed) or 409 (rejected, invalid).
    static func noResult(_ exportable: Exporter.Exportable, _ id: Int64, _ service: ServiceContext) throws -> APIError {
        guard let document = try service.store.document(id: id) else { return APIError.notFound(document: String(id)) }
        switch exportable {
        case .none where document.state == .failed || document.state == .quarantined:
            return APIError(
                .notFound, "document \(id) is \(document.state.rawValue): it has no result",
                hint: "see why with GET /v1/documents/\(id); retry it with POST /v1/documents/\(id)/retry")
        case .none, .version:
            return APIError(
                .notFound, "document \(id) has no result yet",
                hint: "wait for it (GET /v1/events), or see its stages with GET /v1/documents/\(id)")
        case .rejected:
            return APIError(
                .conflict, "document \(id)'s result was rejected in review",
                hint: "correct it with PATCH /v1/review/\(id), or see GET /v1/review/\(id)")
        case .invalid(let version):
            return APIError(
                .conflict,
                "document \(id)'s result breaks result.schema.json: \(version.violations.first?.description ?? "?")",
                hint: "fix it with PATCH /v1/review/\(id) or the review page")
        }
    }

    static func retry(_ context: LarderRequestContext, _ service: ServiceContext) throws -> Response {
        let document = try service.document(context)
        guard try service.store.requeue(documentID: document.id) else {
            throw APIError(
                .conflict, "document \(document.id) is \(document.state.rawValue), not failed or quarantined",
                hint: "only failed and quarantined documents are retried")
        }
        service.runner?.poke()
        struct Retried: Encodable {
            var id: Int64
            var state: DocumentState
        }
        return JSONResponse.make(Retried(id: document.id, state: .pending), status: .accepted)
    }
}

/// Reading request bodies with a limit: a declared length over it is refused before any byte is read, and a body
/// that grows past it is refused as soon as it does.
enum Body {
    static func tooLarge(_ limit: Int64) -> APIError {
        APIError(.tooLarge, "the body is over the limit of \(limit) bytes", hint: "send a smaller file, or raise limits.max_file_bytes")
    }

    static func collect(_ request: Request, limit: Int64) async throws -> Data {
        if let declared = request.headers[.contentLength].flatMap({ Int64($0) }), declared > limit { throw tooLarge(limit) }
        var data = Data()
        do {
            for try await buffer in request.body {
                guard Int64(data.count + buffer.readableBytes) <= limit else { throw tooLarge(limit) }
                data.append(contentsOf: buffer.readableBytesView)
            }
        } catch let error as APIError {
            throw error
        } catch {
            // The connection ended (or was closed as too slow) before the body did: nothing of it is kept.
            throw APIError(.badRequest, "the request body ended before it was complete", hint: "send the whole body")
        }
        return data
    }

    /// Raw upload bodies: any type but the ones that say the body is something else (a form, JSON sent by mistake
    /// is fine: Larder reads JSON).
    static func acceptsRaw(_ contentType: String) -> Bool {
        let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return !["application/x-www-form-urlencoded", "multipart/mixed", "multipart/alternative"].contains(type)
            && !type.hasPrefix("video/") && !type.hasPrefix("audio/") && !type.hasPrefix("font/")
    }

    /// A JSON body, at most `limit` bytes, with the right content type.
    static func json(_ request: Request, limit: Int, types: [String] = ["application/json"]) async throws -> JSONValue {
        let type = request.headers[.contentType]?.split(separator: ";").first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard types.contains(type) else {
            throw APIError(.unsupportedMediaType, "expected \(types.joined(separator: " or ")), got \(type.isEmpty ? "no content type" : String(type.prefix(80)))")
        }
        let data = try await collect(request, limit: Int64(limit))
        do {
            return try JSONValue(parsing: data)
        } catch {
            let reason = (error as? JSONParseError).map { "\($0.message) (line \($0.line))" } ?? "\(error)"
            throw APIError(.badRequest, "the body is not valid JSON: \(reason)", hint: "check the JSON")
        }
    }
}

enum Query {
    static func integer(_ text: Substring?, name: String, range: ClosedRange<Int64>) throws -> Int64? {
        guard let text else { return nil }
        guard let value = Int64(text), range.contains(value) else {
            throw APIError(.badRequest, "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}
