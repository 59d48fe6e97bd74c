import Foundation
import HTTPTypes
import Hummingbird
import LarderCore
import LarderJSON
import NIOPosix

/// The review page: server-rendered HTML (readable, and every action usable, without JavaScript), with a small
/// script for the keyboard (j/k, a, r, e) and for linking the source's boxes to the fields.
///
/// - `/review`: the queue, most urgent first, then the other documents with a result.
/// - `/review/{id}`: the source beside the fields — a receipt photo with its OCR lines as boxes coloured by role, a
///   PDF or text page drawn from its extracted lines with those each ingredient and step came from marked, a saved
///   page's title, URL and JSON-LD — the diff to the previous version, and edit / accept / reject. Edits go through
///   ``Reviewer`` and are kept as versions exactly as `larder review edit` keeps them.
enum ReviewPages {
    static func add(to router: Router<LarderRequestContext>, _ service: ServiceContext) {
        router.get("/") { _, _ in Response(status: .seeOther, headers: [.location: "/review"]) }
        router.get("/favicon.ico") { _, _ in Response(status: .noContent) }
        router.get("/assets/review.css") { _, _ in asset(Assets.css, type: "text/css; charset=utf-8") }
        router.get("/assets/review.js") { _, _ in asset(Assets.javascript, type: "text/javascript; charset=utf-8") }
        router.get("/review") { request, _ in try await service.offload { try queuePage(request, service) } }
        router.get("/review/login") { _, _ in loginPage(failed: false) }
        router.post("/review/login") { request, _ in try await login(request, service) }
        router.get("/review/:id") { request, context in
            try await service.offload { try documentPage(request, context, service) }
        }
        router.get("/review/:id/source") { _, context in try await service.offload { try source(context, service) } }
        router.get("/review/:id/page/:page") { _, context in try await pageImage(context, service) }
        router.post("/review/:id/decide") { request, context in try await decide(request, context, service) }
        router.post("/review/:id/reject") { request, context in try await reject(request, context, service) }
        router.post("/review/:id/edit") { request, context in try await editJSON(request, context, service) }
    }

    static func asset(_ text: String, type: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "public, max-age=3600"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }

    // MARK: The queue

    static func queuePage(_ request: Request, _ service: ServiceContext) throws -> Response {
        let queue = try service.reviewer.queue()
        let queued = Set(queue.map(\.documentID))
        let others = try service.store.documentPage(state: nil, kind: nil, after: 0, limit: 500)
            .filter { $0.kind != nil && !queued.contains($0.document.id) }
        return HTML.page(title: "Larder review", data: ["page": "queue"]) { html in
            html.raw("<header><h1>Review queue</h1>")
            html.element("p", text: "\(queue.count) document(s) need a look, most urgent first.")
            html.raw("<p class=\"muted\"><kbd>j</kbd>/<kbd>k</kbd> move, <kbd>Enter</kbd> opens.</p></header><main>")
            html.raw("<section class=\"panel\"><table class=\"queue\"><thead><tr><th>Urgency</th><th>Document</th>")
            html.raw("<th>Why</th><th>Version</th></tr></thead><tbody>")
            for item in queue {
                html.open("tr", ["class": "row", "data-href": "/review/\(item.documentID)"])
                html.element("td", text: String(item.urgency))
                html.raw("<td>")
                html.element("a", ["href": "/review/\(item.documentID)"], text: DocumentView.displayName(item.path))
                html.raw("</td><td><ul class=\"reasons\">")
                for reason in item.reasons {
                    html.raw("<li>")
                    html.element("code", text: reason.code.rawValue)
                    html.put(" " + reason.message)
                    html.raw("</li>")
                }
                html.raw("</ul></td>")
                html.element("td", text: "v\(item.latestVersion)" + (item.acceptedVersion.map { " (accepted v\($0))" } ?? ""))
                html.raw("</tr>")
            }
            if queue.isEmpty { html.raw("<tr><td colspan=\"4\">Nothing to review.</td></tr>") }
            html.raw("</tbody></table></section>")
            otherDocuments(others, into: &html)
            html.raw("</main>")
        }
    }

    private static func otherDocuments(_ others: [DocumentListing], into html: inout HTML) {
        guard !others.isEmpty else { return }
        html.raw("<section class=\"panel\"><h2>Other documents with a result</h2><table><tbody>")
        for listing in others {
            html.open("tr", ["class": "row", "data-href": "/review/\(listing.document.id)"])
            html.raw("<td>")
            html.element(
                "a", ["href": "/review/\(listing.document.id)"], text: DocumentView.displayName(listing.document.path))
            html.raw("</td>")
            html.element("td", text: listing.kind?.rawValue ?? "")
            html.element("td", text: listing.document.state.rawValue)
            html.raw("</tr>")
        }
        html.raw("</tbody></table></section>")
    }

    // MARK: A document

    static func documentPage(_ request: Request, _ context: LarderRequestContext, _ service: ServiceContext) throws
        -> Response
    {
        let document = try service.document(context)
        let versions = try service.store.resultVersions(of: document.id)
        guard !versions.isEmpty else { return try pendingPage(document, service) }
        let view = try DocumentReview(document: document, service: service)
        let queue = try service.reviewer.queue().map(\.documentID)
        var data: KeyValuePairs<String, String> = ["page": "document"]
        if let index = queue.firstIndex(of: document.id) {
            let next = index + 1 < queue.count ? "/review/\(queue[index + 1])" : ""
            let previous = index > 0 ? "/review/\(queue[index - 1])" : ""
            data = ["page": "document", "next": next, "previous": previous]
        }
        let notice = request.uri.queryParameters["saved"].map { "Saved version \($0)." }
            ?? request.uri.queryParameters["error"].map { "Not saved: " + String($0) }
        return HTML.page(title: view.fileName + " · Larder review", data: data) { html in
            view.header(into: &html)
            html.raw("<main>")
            if let notice {
                html.element("div", ["class": request.uri.queryParameters["error"] == nil ? "notice" : "notice error"], text: notice)
            }
            html.raw("<div class=\"split\"><div>")
            view.sourcePanel(into: &html)
            html.raw("</div><div>")
            view.fieldsPanel(into: &html)
            view.diffPanel(into: &html)
            view.jsonPanel(into: &html)
            html.raw("</div></div></main>")
        }
    }

    private static func pendingPage(_ document: DocumentRecord, _ service: ServiceContext) throws -> Response {
        let stages = try service.store.stages(of: document.id)
        return HTML.page(title: "Larder review", data: ["page": "document"]) { html in
            html.raw("<header><nav><a href=\"/review\">← Queue</a></nav>")
            html.element("h1", text: DocumentView.displayName(document.path))
            html.element("p", text: "No result yet: the document is \(document.state.rawValue).")
            html.raw("</header><main><section class=\"panel\"><table><tbody>")
            for stage in stages {
                html.raw("<tr>")
                html.element("td", text: stage.stage)
                html.element("td", text: stage.status.rawValue)
                html.element("td", text: stage.error?.message ?? "")
                html.raw("</tr>")
            }
            html.raw("</tbody></table></section></main>")
        }
    }

    /// The uploaded photo itself, for the page's `<img>`: only images a browser shows (PNG, JPEG), by the type
    /// `detect` found, never by what the request says; the bytes are the store's (``ServiceContext/sourceBytes(of:)``).
    static func source(_ context: LarderRequestContext, _ service: ServiceContext) throws -> Response {
        let document = try service.document(context)
        let detect = try service.store.stages(of: document.id).first { $0.stage == StandardStage.detect.rawValue }?.output
        let format = detect.flatMap { try? JSONValue(parsing: $0) }?["format"]?.stringValue.flatMap(DocumentFormat.init(rawValue:))
        guard let format, format == .png || format == .jpeg, let data = try service.sourceBytes(of: document) else {
            throw APIError(.notFound, "document \(document.id) has no photo to show")
        }
        return Response(
            status: .ok, headers: [.contentType: format.mediaType, .cacheControl: "private, max-age=3600"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A PDF page as PNG (poppler's pdftoppm, in a child process), for the page view's background.
    static func pageImage(_ context: LarderRequestContext, _ service: ServiceContext) async throws -> Response {
        let (document, stages) = try await service.offload {
            let document = try service.document(context)
            return (document, try service.store.stages(of: document.id))
        }
        let detect = stages.first { $0.stage == StandardStage.detect.rawValue }?.output.flatMap { try? JSONValue(parsing: $0) }
        let pages = stages.first { $0.stage == StandardStage.extract.rawValue }?.output.flatMap { try? JSONValue(parsing: $0) }?["pages"]?
            .arrayValue?.count ?? 0
        guard detect?["format"]?.stringValue == DocumentFormat.pdf.rawValue, let page = context.parameters.get("page", as: Int.self),
            (1...max(1, pages)).contains(page)
        else { throw APIError(.notFound, "document \(document.id) has no such PDF page") }
        let data = try await PageImages(directory: service.settings.uploadsDirectory).png(of: document, page: page) {
            try await service.offload { try service.sourceBytes(of: document) }
        }
        return Response(
            status: .ok, headers: [.contentType: "image/png", .cacheControl: "private, max-age=3600"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    // MARK: Actions (plain forms)

    /// A form's action: what goes wrong (a body over the limit, a value of the wrong type, a document not finished,
    /// a patch the schema refuses) comes back to the document's page as a message, never as raw JSON. A server
    /// failure is a 500 like anywhere else.
    static func formAction(
        _ document: DocumentRecord, _ body: () async throws -> Response
    ) async throws -> Response {
        do {
            return try await body()
        } catch let error as APIError where error.code != .internalError {
            return redirect("/review/\(document.id)?error=" + percentEncoded(error.message))
        } catch let error as LarderError where APIError.from(error).code != .internalError {
            return redirect("/review/\(document.id)?error=" + percentEncoded(error.message))
        }
    }

    /// The fields form: any field changed is saved as one patch (a new human version, accepted); with nothing
    /// changed, "accept" accepts the latest machine version.
    static func decide(_ request: Request, _ context: LarderRequestContext, _ service: ServiceContext) async throws -> Response {
        let document = try await service.offload { try service.document(context) }
        return try await formAction(document) {
            let form = FormBody.parse(try await Body.collect(request, limit: Int64(service.settings.maxJSONBytes)))
            return try await service.offload {
                let current = try JSONValue(parsing: service.reviewer.currentResult(for: document.id).json)
                let operations = try FieldEdits.patch(form: form, against: current)
                let number: Int
                if !operations.isEmpty {
                    number = try ReviewRoutes.apply(.array(operations), to: document.id, service, source: "review page")
                } else {
                    number = try service.reviewer.accept(documentID: document.id)
                }
                return redirect("/review/\(document.id)?saved=\(number)")
            }
        }
    }

    static func reject(_ request: Request, _ context: LarderRequestContext, _ service: ServiceContext) async throws -> Response {
        let document = try await service.offload { try service.document(context) }
        return try await formAction(document) {
            let form = FormBody.parse(try await Body.collect(request, limit: Int64(service.settings.maxJSONBytes)))
            let reason = form.first { $0.0 == "reason" }?.1.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return try await service.offload {
                try service.reviewer.reject(
                    documentID: document.id, reason: reason.isEmpty ? "rejected in the review page" : String(reason.prefix(2000)))
                let next = try service.reviewer.queue().first?.documentID
                return redirect(next.map { "/review/\($0)" } ?? "/review")
            }
        }
    }

    /// The whole result as JSON, edited in the page's text area: `Reviewer.saveEdit`, as `larder review edit`.
    static func editJSON(_ request: Request, _ context: LarderRequestContext, _ service: ServiceContext) async throws -> Response {
        let document = try await service.offload { try service.document(context) }
        return try await formAction(document) {
            let form = FormBody.parse(try await Body.collect(request, limit: Int64(service.settings.maxJSONBytes) * 4))
            let json = form.first { $0.0 == "json" }?.1 ?? ""
            let number = try await service.offload {
                try service.reviewer.saveEdit(
                    documentID: document.id, json: json, source: "review page", note: "edited in the review page")
            }
            return redirect("/review/\(document.id)?saved=\(number)")
        }
    }

    static func percentEncoded(_ text: String) -> String {
        text.prefix(300).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }

    // MARK: Login (only with a token)

    static func loginPage(failed: Bool) -> Response {
        HTML.page(title: "Larder review: sign in", data: ["page": "login"]) { html in
            html.raw("<header><h1>Larder review</h1><p>This server needs its API token.</p></header><main>")
            html.raw("<section class=\"panel\">")
            if failed { html.raw("<div class=\"notice error\">That is not the token.</div>") }
            html.raw("<form method=\"post\" action=\"/review/login\"><div class=\"field\"><label for=\"token\">API token</label>")
            html.raw("<input id=\"token\" name=\"token\" type=\"password\" autocomplete=\"current-password\"></div>")
            html.raw("<div class=\"actions\"><button class=\"primary\">Sign in</button></div></form></section></main>")
        }
    }

    /// Sets the token as an HTTP-only, same-site cookie (the browser keeps it; the server stores nothing).
    static func login(_ request: Request, _ service: ServiceContext) async throws -> Response {
        guard let token = service.settings.token else { return redirect("/review") }
        let form = FormBody.parse(try await Body.collect(request, limit: 4096))
        let given = form.first { $0.0 == "token" }?.1 ?? ""
        guard token.matches(Substring(given)), !given.contains(";"), !given.contains("\r") else { return loginPage(failed: true) }
        var response = redirect("/review")
        response.headers[.setCookie] = "\(AuthMiddleware.cookieName)=\(given); Path=/; HttpOnly; SameSite=Strict"
        return response
    }
}
