import Foundation
import LarderCore
import LarderTestSupport
import Testing

/// `larder serve` over loopback with the real server, worker and pipeline: uploads, results, review edits that
/// `larder export` carries, and bad requests that each get a clear 4xx while the server keeps serving.
@Suite("larder serve: the API over loopback", .serialized)
struct APITests {
    static func sample(_ relative: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: Repository.path("samples/" + relative)))
    }

    static func object(_ value: Any?) -> [String: Any] { value as? [String: Any] ?? [:] }

    @Test(.integration) func uploadsAreProcessedReviewedAndExported() throws {
        let server = try ServerProcess()
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: server.folder)
        }
        // Raw body with the name in the query; multipart with the name in the part.
        let receipt = try Self.sample("receipts/corner-grocer.jpg")
        let (status, value) = try server.json(
            "POST", "/v1/documents?filename=corner-grocer.jpg", headers: ["Content-Type": "image/jpeg"], body: receipt)
        #expect(status == 201, "\(value)")
        let uploaded = Self.object(value)
        #expect(uploaded["sha256"] as? String == SHA256.hex(receipt))
        #expect(uploaded["duplicate"] as? Bool == false)
        let receiptID = try #require(uploaded["id"] as? Int)

        let (type, body) = HTTPClient.multipart(fileName: "banana-bread.txt", data: try Self.sample("recipes/banana-bread.txt"))
        let (recipeStatus, recipeValue) = try server.json("POST", "/v1/documents", headers: ["Content-Type": type], body: body)
        #expect(recipeStatus == 201, "\(recipeValue)")
        let recipeID = try #require(Self.object(recipeValue)["id"] as? Int)

        // The same bytes again: the same document, reported as a duplicate.
        let (againStatus, again) = try server.json(
            "POST", "/v1/documents", headers: ["Content-Type": "application/octet-stream"], body: receipt)
        #expect(againStatus == 200)
        #expect(Self.object(again)["duplicate"] as? Bool == true)
        #expect(Self.object(again)["id"] as? Int == receiptID)

        #expect(try server.waitSettled(recipeID) == "done")
        #expect(try server.waitSettled(receiptID) == "done")
        let (_, shown) = try server.json("GET", "/v1/documents/\(receiptID)")
        let stages = Self.object(shown)["stages"] as? [[String: Any]] ?? []
        #expect(Set(stages.compactMap { $0["stage"] as? String }) == Set(PipelineManifest.standardStageNames))
        #expect(stages.allSatisfy { $0["status"] as? String == "done" })
        #expect(Self.object(Self.object(shown)["result"])["kind"] as? String == "receipt")

        let result = try server.request("GET", "/v1/documents/\(recipeID)/result")
        #expect(result.status == 200)
        #expect(result.headers["content-type"]?.hasPrefix("application/json") == true)
        let recipe = Self.object(try JSONSerialization.jsonObject(with: result.body))
        #expect(recipe["kind"] as? String == "recipe")

        // Lists: by kind, and paginated.
        let (_, receipts) = try server.json("GET", "/v1/documents?kind=receipt")
        let listed = (Self.object(receipts)["documents"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
        #expect(listed == [receiptID])
        let (_, firstPage) = try server.json("GET", "/v1/documents?limit=1")
        #expect((Self.object(firstPage)["documents"] as? [Any])?.count == 1)
        let next = try #require(Self.object(firstPage)["next"] as? String)
        let (_, secondPage) = try server.json("GET", next)
        #expect((Self.object(secondPage)["documents"] as? [[String: Any]])?.first?["id"] as? Int == recipeID)

        // Review: change the total, which is kept as a human version and exported.
        let patch = Data(#"[{"op": "replace", "path": "/receipt/totals/total", "value": 99.99}]"#.utf8)
        let (patched, saved) = try server.json(
            "PATCH", "/v1/review/\(receiptID)", headers: ["Content-Type": "application/json-patch+json"], body: patch)
        #expect(patched == 200, "\(saved)")
        let (_, detail) = try server.json("GET", "/v1/review/\(receiptID)")
        let changes = Self.object(detail)["changes"] as? [String] ?? []
        #expect(changes.contains { $0.contains("/receipt/totals/total") && $0.contains("99.99") }, "\(changes)")
        let versions = Self.object(detail)["versions"] as? [[String: Any]] ?? []
        #expect(versions.map { $0["origin"] as? String } == ["machine", "human"])

        let out = server.folder + "/export"
        let export = try ServerProcess.larder(["export", "--db", server.database, "--out", out])
        #expect(export.status == 0, "\(export.output)")
        let exportedReceipts = try FileManager.default.contentsOfDirectory(atPath: out).compactMap { name -> [String: Any]? in
            let json = Self.object(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/" + name))))
            return json["kind"] as? String == "receipt" ? json : nil
        }
        #expect(exportedReceipts.count == 1)
        #expect(Self.object(Self.object(exportedReceipts.first?["receipt"])["totals"])["total"] as? Double == 99.99)

        // Metrics and health.
        let metrics = try server.request("GET", "/metrics")
        #expect(metrics.text.contains("larder_documents{state=\"done\"} 2"), "\(metrics.text)")
        #expect(metrics.text.contains("larder_uploads_total{outcome=\"duplicate\"} 1"))
        #expect(metrics.text.contains("larder_stage_duration_seconds_bucket{stage=\"ocr\",le=\"+Inf\"} 2"))
        #expect(try server.request("GET", "/healthz").status == 200)
        #expect(server.stop() == 0, "\(server.log)")
    }

    @Test(.integration) func badRequestsGetClearClientErrorsAndTheServerGoesOn() throws {
        let folder = try ServerProcess.temporaryFolder()
        try "limits:\n  max_file_bytes: 200000\n".write(toFile: folder + "/pipeline.yml", atomically: true, encoding: .utf8)
        let server = try ServerProcess(
            arguments: ["--config", folder + "/pipeline.yml", "--no-work", "--idle-timeout", "10"], folder: folder)
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: folder)
        }
        func error(_ reply: HTTPReply) -> String {
            Self.object(Self.object(try? JSONSerialization.jsonObject(with: reply.body))["error"])["code"] as? String ?? reply.text
        }
        // Unknown ids and routes.
        #expect(try server.request("GET", "/v1/documents/12345").status == 404)
        #expect(try server.request("GET", "/v1/documents/abc/result").status == 404)
        #expect(try server.request("GET", "/v1/nothing-here").status == 404)
        #expect(try server.request("POST", "/v1/review/999/accept").status == 404)
        // Wrong content types: a binary Larder does not read, a form, a patch sent as text.
        let elf = Data([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00] + [UInt8](repeating: 0, count: 64))
        let binary = try server.request("POST", "/v1/documents", headers: ["Content-Type": "application/octet-stream"], body: elf)
        #expect(binary.status == 415 && error(binary) == "unsupported-media-type", "\(binary.text)")
        let form = try server.request(
            "POST", "/v1/documents", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data("a=b".utf8))
        #expect(form.status == 415)
        #expect(try server.request("POST", "/v1/documents", headers: ["Content-Type": "text/plain"]).status == 400)

        // A document to patch.
        let text = try Self.sample("recipes/tomato-soup.txt")
        let (_, created) = try server.json("POST", "/v1/documents?filename=x.txt", headers: ["Content-Type": "text/plain"], body: text)
        let id = try #require(Self.object(created)["id"] as? Int)
        // No result yet (--no-work), and an id that names nothing: 404 both, each saying which.
        let pending = try server.request("GET", "/v1/documents/\(id)/result")
        #expect(pending.status == 404 && pending.text.contains("no result yet"), "\(pending.text)")
        let unknown = try server.request("GET", "/v1/documents/99999/result")
        #expect(unknown.status == 404 && unknown.text.contains("no document 99999"), "\(unknown.text)")
        #expect(try server.request("PATCH", "/v1/review/\(id)", headers: ["Content-Type": "text/plain"], body: Data("[]".utf8)).status == 415)
        let malformed = try server.request(
            "PATCH", "/v1/review/\(id)", headers: ["Content-Type": "application/json-patch+json"], body: Data("[{\"op\": ".utf8))
        #expect(malformed.status == 400 && error(malformed) == "bad-request", "\(malformed.text)")
        // (--no-work: it has no result yet, so a well-formed patch is a conflict, not a change.)
        let early = try server.request(
            "PATCH", "/v1/review/\(id)", headers: ["Content-Type": "application/json"],
            body: Data(#"[{"op": "replace", "path": "/kind", "value": "receipt"}]"#.utf8))
        #expect([409, 404].contains(early.status), "\(early.text)")

        // Over the size limit: a declared 2 GB body is refused before it is sent; so is a body that only grows.
        let fd = try HTTPClient.connect(port: server.port, timeoutSeconds: 20)
        HTTPClient.send(
            fd, Data("POST /v1/documents HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Type: application/octet-stream\r\nContent-Length: 2147483648\r\n\r\n".utf8))
        HTTPClient.send(fd, Data(repeating: 0x41, count: 65536))
        let huge = try HTTPClient.parse(HTTPClient.readAll(fd))
        close(fd)
        #expect(huge.status == 413 && error(huge) == "too-large", "\(huge.text)")
        let chunked = try HTTPClient.connect(port: server.port, timeoutSeconds: 20)
        HTTPClient.send(chunked, Data("POST /v1/documents HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
        for _ in 0..<8 { HTTPClient.send(chunked, Data("8000\r\n".utf8) + Data(repeating: 0x41, count: 0x8000) + Data("\r\n".utf8)) }
        let grown = try HTTPClient.parse(HTTPClient.readAll(chunked))
        close(chunked)
        #expect(grown.status == 413)

        // A slow client: headers sent a byte at a time and then nothing. Others are served while it is open, and
        // it gets 408 at the header deadline (10 s; 60 s is a generous bound on a loaded machine). SlowClientTests
        // has more.
        let slow = try HTTPClient.connect(port: server.port, timeoutSeconds: 90)
        for byte in "GET /v1/documents HTTP/1.1\r\nHost:".utf8 { HTTPClient.send(slow, Data([byte])) }
        let started = Date()
        var servedWhileOpen = 0
        for _ in 0..<5 {
            #expect(try server.request("GET", "/healthz").status == 200)
            var probe = pollfd(fd: slow, events: Int16(POLLIN), revents: 0)
            if poll(&probe, 1, 0) == 0 { servedWhileOpen += 1 }
        }
        #expect(servedWhileOpen > 0, "no request was served while the slow connection was open")
        let closedAfter = HTTPClient.readAll(slow)
        close(slow)
        #expect(Date().timeIntervalSince(started) < 60, "the idle connection was not closed")
        #expect(closedAfter.isEmpty || String(decoding: closedAfter, as: UTF8.self).hasPrefix("HTTP/1.1 4"))

        // Still serving, and nothing was registered by the refused requests.
        let (_, list) = try server.json("GET", "/v1/documents")
        #expect((Self.object(list)["documents"] as? [Any])?.count == 1)
        #expect(server.isRunning)
    }

    @Test(.integration) func theEventStreamTellsOfUploadsAndFinishedStages() throws {
        let server = try ServerProcess()
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: server.folder)
        }
        let stream = try HTTPClient.connect(port: server.port, timeoutSeconds: 2)
        defer { close(stream) }
        HTTPClient.send(stream, Data("GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nAccept: text/event-stream\r\n\r\n".utf8))
        var received = ""
        func read(until done: (String) -> Bool, seconds: Double) {
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 65536)
            while !done(received) && Date() < deadline {
                let count = recv(stream, &buffer, buffer.count, 0)
                if count > 0 { received += String(decoding: buffer[0..<count], as: UTF8.self) }
                if count == 0 { break }
            }
        }
        read(until: { $0.contains(": larder events") }, seconds: 20)
        #expect(received.contains("text/event-stream"), "\(received)")
        let (_, value) = try server.json(
            "POST", "/v1/documents?filename=oats.md", headers: ["Content-Type": "text/markdown"],
            body: try Self.sample("recipes/overnight-oats.md"))
        let id = try #require(Self.object(value)["id"] as? Int)
        read(until: { $0.contains("\"stage\":\"result\"") }, seconds: 120)
        let events = received.components(separatedBy: "\n").filter { $0.hasPrefix("data: ") }.compactMap {
            Self.object(try? JSONSerialization.jsonObject(with: Data($0.dropFirst(6).utf8)))
        }
        #expect(events.first?["type"] as? String == "registered" && events.first?["documentID"] as? Int == id, "\(received)")
        let stages = events.filter { $0["type"] as? String == "stage" && $0["documentID"] as? Int == id }
        #expect(Set(stages.compactMap { $0["stage"] as? String }) == Set(PipelineManifest.standardStageNames), "\(received)")
        #expect(stages.allSatisfy { $0["status"] as? String == "done" })
    }

    @Test(.integration) func theServerAndLarderIngestShareADatabase() throws {
        let server = try ServerProcess()
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: server.folder)
        }
        // An upload and an ingest of other files at once: one worker works, the other waits for its lock.
        let soup = try Self.sample("recipes/red-lentil-soup.txt")
        let (_, uploaded) = try server.json(
            "POST", "/v1/documents?filename=soup.txt", headers: ["Content-Type": "text/plain"], body: soup)
        let uploadedID = try #require(Self.object(uploaded)["id"] as? Int)
        let ingest = try ServerProcess.larder([
            "ingest", "--db", server.database, Repository.path("samples/recipes/tomato-soup.txt"),
            Repository.path("samples/recipes/red-lentil-soup.txt"),
        ])
        #expect(ingest.status == 0, "\(ingest.output)")
        #expect(try server.waitSettled(uploadedID) == "done")
        let (_, list) = try server.json("GET", "/v1/documents?status=done")
        let documents = Self.object(list)["documents"] as? [[String: Any]] ?? []
        #expect(documents.count == 2, "\(documents)")  // the lentil soup once, by its hash
        // What `larder ingest` registered is a duplicate when uploaded.
        let tomato = try Self.sample("recipes/tomato-soup.txt")
        let (status, again) = try server.json(
            "POST", "/v1/documents", headers: ["Content-Type": "text/plain"], body: tomato)
        #expect(status == 200 && Self.object(again)["duplicate"] as? Bool == true)
        let tomatoID = try #require(Self.object(again)["id"] as? Int)
        let served = try server.request("GET", "/v1/documents/\(tomatoID)/result")
        #expect(served.status == 200)
        // Stamped like an export: the contract's and the pipeline's versions.
        let stamped = Self.object(try JSONSerialization.jsonObject(with: served.body))
        #expect(stamped["schemaVersion"] != nil && (stamped["pipelineVersion"] as? String)?.isEmpty == false, "\(stamped)")
        // Rejected in review: no result is served, and the answer says why.
        let (rejected, _) = try server.json(
            "POST", "/v1/review/\(tomatoID)/reject", headers: ["Content-Type": "application/json"],
            body: Data(#"{"reason": "not a soup"}"#.utf8))
        #expect(rejected == 200)
        let refused = try server.request("GET", "/v1/documents/\(tomatoID)/result")
        #expect(refused.status == 409 && refused.text.contains("rejected"), "\(refused.text)")
        let (_, shown) = try server.json("GET", "/v1/documents/\(tomatoID)")
        #expect(Self.object(shown)["result"] == nil, "\(shown)")
    }

    @Test(.integration) func aTokenIsRequiredBeyondLoopbackAndChecked() throws {
        // Beyond loopback without a token: refused at start, exit 2.
        let refused = try ServerProcess.larder(["serve", "--db", NSTemporaryDirectory() + "never.sqlite", "--host", "0.0.0.0", "--port", "0"])
        #expect(refused.status == 2, "\(refused.output)")
        #expect(refused.output.contains("LARDER_API_TOKEN"))

        let token = "test-token-0123456789abcdef"
        let server = try ServerProcess(arguments: ["--no-work"], environment: ["LARDER_API_TOKEN": token])
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: server.folder)
        }
        #expect(try server.request("GET", "/healthz").status == 200)
        #expect(try server.request("GET", "/v1/documents").status == 401)
        #expect(try server.request("GET", "/v1/documents", headers: ["Authorization": "Bearer wrong-token-0123456789"]).status == 401)
        #expect(try server.request("GET", "/v1/documents", headers: ["Authorization": "Bearer \(token)"]).status == 200)
        // The review page: redirected to the login form, a wrong token is refused, the right one sets an HTTP-only
        // same-site cookie that then opens the page and the API.
        let page = try server.request("GET", "/review")
        #expect(page.status == 303 && page.headers["location"] == "/review/login", "\(page.status) \(page.headers)")
        let form = ["Content-Type": "application/x-www-form-urlencoded", "Origin": "http://127.0.0.1:\(server.port)"]
        let wrong = try server.request("POST", "/review/login", headers: form, body: Data("token=wrong-token-0123456789".utf8))
        #expect(wrong.status == 200 && wrong.headers["set-cookie"] == nil && wrong.text.contains("not the token"))
        let signedIn = try server.request("POST", "/review/login", headers: form, body: Data("token=\(token)".utf8))
        let cookie = try #require(signedIn.headers["set-cookie"], "\(signedIn.status) \(signedIn.headers)")
        #expect(signedIn.status == 303 && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "\(cookie)")
        let pair = String(cookie.prefix { $0 != ";" })
        #expect(try server.request("GET", "/review", headers: ["Cookie": pair]).status == 200)
        #expect(try server.request("GET", "/v1/documents", headers: ["Cookie": "other=1; " + pair]).status == 200)
        #expect(try server.request("GET", "/v1/documents", headers: ["Cookie": "larder_token=wrong-token-0123456789"]).status == 401)

        #expect(!server.log.contains(token), "the token reached the log")
        func holdsToken(_ path: String) throws -> Bool {
            guard let data = FileManager.default.contents(atPath: path) else { return false }
            return data.range(of: Data(token.utf8)) != nil
        }
        // Before and after the checkpoint at close: neither the database nor its write-ahead log holds it.
        #expect(try !holdsToken(server.database + "-wal"), "the token reached the -wal")
        #expect(try !holdsToken(server.database), "the token reached the database")
        #expect(server.stop() == 0)
        #expect(try !holdsToken(server.database + "-wal"), "the token reached the -wal")
        #expect(try !holdsToken(server.database), "the token reached the database")
    }

    /// A bucket of 5 that refills once in 1000 s: the first 5 requests pass and the next 5 get 429, however slowly
    /// a loaded machine sends them.
    @Test(.integration) func perClientRateLimitAnswers429() throws {
        let server = try ServerProcess(arguments: ["--no-work", "--rate-limit", "0.001", "--burst", "5"])
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: server.folder)
        }
        var replies: [HTTPReply] = []
        for _ in 0..<10 { replies.append(try server.request("GET", "/healthz")) }
        #expect(replies.prefix(5).allSatisfy { $0.status == 200 }, "\(replies.map(\.status))")
        #expect(replies.suffix(5).allSatisfy { $0.status == 429 }, "\(replies.map(\.status))")
        #expect(replies.last?.headers["retry-after"].flatMap(Int.init).map { $0 >= 1 } == true)
    }

    /// Cross-site request forgery and DNS rebinding: a request that changes something from another site is refused on
    /// every route, and without a token only the loopback names with the server's port are answered.
    @Test(.integration) func crossSiteWritesAndForeignHostsAreRefused() throws {
        let server = try ServerProcess(arguments: ["--no-work"])
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: server.folder)
        }
        let text = try Self.sample("recipes/tomato-soup.txt")
        func upload(_ headers: [String: String]) throws -> Int {
            try server.request(
                "POST", "/v1/documents?filename=soup.txt", headers: headers.merging(["Content-Type": "text/plain"]) { a, _ in a },
                body: text
            ).status
        }
        #expect(try upload(["Origin": "http://evil.example"]) == 403)
        #expect(try upload(["Origin": "null"]) == 403)
        #expect(try upload(["Origin": "http://127.0.0.1:\(server.port + 1)"]) == 403)
        #expect(try upload(["Sec-Fetch-Site": "cross-site"]) == 403)
        #expect(try upload(["Sec-Fetch-Site": "same-site"]) == 403)
        // A name re-pointed at 127.0.0.1 (DNS rebinding), or the right name with another port: refused, reads too.
        #expect(try upload(["Host": "evil.example:\(server.port)"]) == 403)
        #expect(try server.request("GET", "/v1/documents", headers: ["Host": "evil.example:\(server.port)"]).status == 403)
        #expect(try server.request("GET", "/v1/documents", headers: ["Host": "127.0.0.1:\(server.port + 1)"]).status == 403)
        #expect(try server.request("POST", "/review/1/accept", headers: ["Origin": "http://evil.example"]).status == 403)
        #expect(try server.request("POST", "/v1/documents/1/retry", headers: ["Sec-Fetch-Site": "cross-site"]).status == 403)
        let (_, list) = try server.json("GET", "/v1/documents")
        #expect((Self.object(list)["documents"] as? [Any])?.count == 0, "a refused upload was registered: \(list)")
        // The server's own names and origin are fine.
        #expect(try server.request("GET", "/v1/documents", headers: ["Host": "localhost:\(server.port)"]).status == 200)
        #expect(try server.request("GET", "/v1/documents", headers: ["Host": "[::1]:\(server.port)"]).status == 200)
        #expect(try upload(["Origin": "http://127.0.0.1:\(server.port)", "Sec-Fetch-Site": "same-origin"]) == 201)
    }

    /// With a token other host names are served (the token is the protection), but cross-site writes still are not.
    @Test(.integration) func withATokenOtherHostsAreServedButCrossSiteWritesAreNot() throws {
        let token = "test-token-0123456789abcdef"
        let server = try ServerProcess(arguments: ["--no-work"], environment: ["LARDER_API_TOKEN": token])
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: server.folder)
        }
        let auth = ["Authorization": "Bearer \(token)", "Host": "larder.example:\(server.port)"]
        #expect(try server.request("GET", "/v1/documents", headers: auth).status == 200)
        let crossSite = auth.merging(["Origin": "http://evil.example", "Content-Type": "text/plain"]) { a, _ in a }
        #expect(try server.request("POST", "/v1/documents", headers: crossSite, body: Data("x".utf8)).status == 403)
    }

    /// A failure of the server's own is a generic 500 (the detail, with the path, goes to the log); a review form
    /// that cannot be saved comes back to the page with a message, not JSON.
    @Test(.integration) func serverFailuresAreGenericAndFormErrorsComeBackToThePage() throws {
        let folder = try ServerProcess.temporaryFolder()
        // The uploads folder's name is taken by a file: storing an upload fails.
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: folder + "/larder.sqlite.uploads"))
        let server = try ServerProcess(arguments: ["--no-work"], folder: folder)
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: folder)
        }
        let failed = try server.request(
            "POST", "/v1/documents?filename=soup.txt", headers: ["Content-Type": "text/plain"],
            body: try Self.sample("recipes/tomato-soup.txt"))
        #expect(failed.status == 500, "\(failed.text)")
        #expect(failed.text.contains("server's log") && !failed.text.contains(folder), "\(failed.text)")
        let deadline = Date().addingTimeInterval(10)
        while !server.log.contains("failed:") && Date() < deadline { usleep(100_000) }
        #expect(server.log.contains("larder.sqlite.uploads"), "the detail is not in the log: \(server.log)")

        // With the folder's name free again, an upload is stored; it has no result yet (--no-work), and the page's
        // forms say so on the page.
        try FileManager.default.removeItem(atPath: folder + "/larder.sqlite.uploads")
        let (status, created) = try server.json(
            "POST", "/v1/documents?filename=soup.txt", headers: ["Content-Type": "text/plain"],
            body: try Self.sample("recipes/tomato-soup.txt"))
        #expect(status == 201, "\(created)")
        let id = try #require(Self.object(created)["id"] as? Int)
        let form = ["Content-Type": "application/x-www-form-urlencoded"]
        for action in ["decide", "reject", "edit"] {
            let reply = try server.request("POST", "/review/\(id)/\(action)", headers: form, body: Data("json=%7B&reason=x".utf8))
            #expect(reply.status == 303, "\(action): \(reply.status) \(reply.text)")
            #expect(reply.headers["location"]?.hasPrefix("/review/\(id)?error=") == true, "\(action): \(reply.headers)")
        }
    }
}

/// Slow clients (slowloris): headers or a body trickled a byte at a time never let the idle timeout fire, so the
/// server gives each request a deadline. Bounded: four slow clients, each at most 60 bytes 0.2 s apart.
@Suite("larder serve: slow clients", .serialized)
struct SlowClientTests {
    /// Sends `head`, then `trickle` a byte every 0.2 s until the server answers or closes; returns the reply (or the
    /// bytes there were) and the seconds it took.
    static func trickle(port: Int, head: String, trickle: String) throws -> (reply: Data, seconds: Double) {
        let fd = try HTTPClient.connect(port: port, timeoutSeconds: 30)
        defer { close(fd) }
        let started = Date()
        HTTPClient.send(fd, Data(head.utf8))
        for byte in trickle.utf8.prefix(60) {
            var probe = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&probe, 1, 200) != 0 { break }  // the server answered (or closed)
            if !HTTPClient.send(fd, Data([byte])) { break }
        }
        let reply = HTTPClient.readAll(fd)
        return (reply, Date().timeIntervalSince(started))
    }

    static func code(_ reply: HTTPReply) -> String? {
        ((try? JSONSerialization.jsonObject(with: reply.body)) as? [String: Any]).flatMap { $0["error"] as? [String: Any] }?["code"]
            as? String
    }

    @Test(.integration) func slowClientsGet408AndOthersAreServed() throws {
        let folder = try ServerProcess.temporaryFolder()
        try "limits:\n  max_file_bytes: 200000\n".write(toFile: folder + "/pipeline.yml", atomically: true, encoding: .utf8)
        let server = try ServerProcess(
            arguments: [
                "--config", folder + "/pipeline.yml", "--no-work", "--idle-timeout", "60", "--header-timeout", "1",
                "--body-timeout", "1",
            ], folder: folder)
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: folder)
        }
        let port = server.port
        let host = "Host: 127.0.0.1:\(port)\r\n"
        // Two trickle their headers, two their bodies (a 1,000-byte body at 5 bytes/s: 1 s plus 1 s per KiB).
        let clients: [(head: String, trickle: String)] = [
            ("G", "ET /v1/documents HTTP/1.1\r\n\(host)Accept: application/json\r\nX-Padding: aaaaaaaaaaaaaaaa\r\n"),
            ("GET /healthz HTTP/1.1\r\n", "\(host)X-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n"),
            (
                "POST /v1/documents?filename=a.txt HTTP/1.1\r\n\(host)Content-Type: text/plain\r\nContent-Length: 1000\r\n\r\n",
                String(repeating: "a", count: 60)
            ),
            (
                "POST /v1/documents HTTP/1.1\r\n\(host)Content-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n",
                String(repeating: "1\r\na\r\n", count: 10)
            ),
        ]
        let results = Locked<[(Data, Double)]>([])
        let group = DispatchGroup()
        for client in clients {
            DispatchQueue.global().async(group: group) {
                let outcome = (try? Self.trickle(port: port, head: client.head, trickle: client.trickle)) ?? (Data(), -1)
                results.withLock { $0.append(outcome) }
            }
        }
        // While they hang on, others are served promptly.
        usleep(300_000)
        var slowest = 0.0
        for _ in 0..<10 {
            let started = Date()
            #expect(try server.request("GET", "/healthz").status == 200)
            slowest = max(slowest, Date().timeIntervalSince(started))
        }
        #expect(slowest < 5, "a request took \(slowest) s while slow clients were connected")
        #expect(group.wait(timeout: .now() + 60) == .success)
        let all = results.withLock { $0 }
        #expect(all.count == clients.count)
        for (data, seconds) in all {
            let reply = try HTTPClient.parse(data)
            #expect(reply.status == 408 && Self.code(reply) == "request-timeout", "\(reply.status) \(reply.text)")
            #expect(reply.headers["connection"] == "close")
            // Answered near the 1 s deadline (or 1 s + 1 s per KiB), long before the 60 s idle timeout.
            #expect(seconds >= 0.9 && seconds < 15, "answered after \(seconds) s")
        }
        #expect(server.log.contains("408"), "the server did not log the slow clients")
        let metrics = try server.request("GET", "/metrics").text
        #expect(metrics.contains("larder_http_responses_total{status=\"408\"} 4"), "408s are not counted in /metrics")
    }

    @Test(.integration) func aHugeDeclaredUploadIsRefusedAndAnUnfinishedOneLeavesNothing() throws {
        let folder = try ServerProcess.temporaryFolder()
        try "limits:\n  max_file_bytes: 200000\n".write(toFile: folder + "/pipeline.yml", atomically: true, encoding: .utf8)
        let server = try ServerProcess(
            arguments: ["--config", folder + "/pipeline.yml", "--no-work", "--body-timeout", "1"], folder: folder)
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: folder)
        }
        let host = "Host: 127.0.0.1:\(server.port)\r\n"
        // A declared 2 GB body: 413 before it is read, and the connection closed (the body is not drained).
        let fd = try HTTPClient.connect(port: server.port, timeoutSeconds: 30)
        let started = Date()
        HTTPClient.send(fd, Data("POST /v1/documents HTTP/1.1\r\n\(host)Content-Type: text/plain\r\nContent-Length: 2147483648\r\n\r\n".utf8))
        let huge = try HTTPClient.parse(HTTPClient.readAll(fd))
        close(fd)
        #expect(huge.status == 413 && Self.code(huge) == "too-large", "\(huge.text)")
        #expect(huge.headers["connection"] == "close")
        #expect(Date().timeIntervalSince(started) < 10, "the connection was kept open for a body that was refused")

        // Bodies that stop half way: the client closes, or stalls until the deadline. Neither leaves an upload.
        let text = String(repeating: "2 cups flour\n", count: 400)
        let gone = try HTTPClient.connect(port: server.port)
        HTTPClient.send(gone, Data("POST /v1/documents?filename=a.txt HTTP/1.1\r\n\(host)Content-Type: text/plain\r\nContent-Length: \(text.utf8.count)\r\n\r\n".utf8))
        HTTPClient.send(gone, Data(text.utf8.prefix(1000)))
        usleep(200_000)
        close(gone)
        let stalled = try SlowClientTests.trickle(
            port: server.port,
            head: "POST /v1/documents?filename=b.txt HTTP/1.1\r\n\(host)Content-Type: text/plain\r\nContent-Length: \(text.utf8.count)\r\n\r\n"
                + text.prefix(2000),
            trickle: "")
        #expect(try HTTPClient.parse(stalled.reply).status == 408)
        usleep(300_000)
        let (_, list) = try server.json("GET", "/v1/documents")
        #expect(((list as? [String: Any])?["documents"] as? [Any])?.count == 0, "\(list)")
        let uploads = Intake.uploadsDirectory(forDatabase: server.database)
        let left = (try? FileManager.default.contentsOfDirectory(atPath: uploads)) ?? []
        #expect(left.isEmpty, "stray upload files: \(left)")
        // The whole body still works.
        #expect(try server.request("POST", "/v1/documents?filename=c.txt", headers: ["Content-Type": "text/plain"], body: Data(text.utf8)).status == 201)
        #expect(server.isRunning)
    }
}

/// `GET /v1/documents/{id}/result` keeps encoded results and answers ETags: an edit, through the API or by another
/// process on the same database (`larder review edit`), changes the answer at once.
@Suite("larder serve: the result's cache and ETag", .serialized)
struct ResultCacheTests {
    @Test(.integration) func editsChangeTheResultAtOnceAndETagsRevalidate() throws {
        let server = try ServerProcess()
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: server.folder)
        }
        let text = try APITests.sample("recipes/tomato-soup.txt")
        let (_, created) = try server.json("POST", "/v1/documents?filename=soup.txt", headers: ["Content-Type": "text/plain"], body: text)
        let id = try #require(APITests.object(created)["id"] as? Int)
        #expect(try server.waitSettled(id) == "done")
        func title(_ reply: HTTPReply) -> String? {
            let recipes = APITests.object(try? JSONSerialization.jsonObject(with: reply.body))["recipes"] as? [[String: Any]]
            return recipes?.first?["title"] as? String
        }

        let first = try server.request("GET", "/v1/documents/\(id)/result")
        let etag = try #require(first.headers["etag"])
        #expect(first.status == 200 && title(first) != nil)
        let again = try server.request("GET", "/v1/documents/\(id)/result")
        #expect(again.body == first.body && again.headers["etag"] == etag)
        let unchanged = try server.request("GET", "/v1/documents/\(id)/result", headers: ["If-None-Match": etag])
        #expect(unchanged.status == 304 && unchanged.body.isEmpty && unchanged.headers["etag"] == etag)
        #expect(try server.request("GET", "/v1/documents/\(id)/result", headers: ["If-None-Match": "\"other\""]).status == 200)

        // An edit through the API: the next answer is the edited result, with another ETag.
        let patch = Data(#"[{"op": "replace", "path": "/recipes/0/title", "value": "Soup, edited"}]"#.utf8)
        #expect(try server.request("PATCH", "/v1/review/\(id)", headers: ["Content-Type": "application/json-patch+json"], body: patch).status == 200)
        let edited = try server.request("GET", "/v1/documents/\(id)/result", headers: ["If-None-Match": etag])
        #expect(edited.status == 200 && title(edited) == "Soup, edited", "\(edited.status) \(edited.text.prefix(300))")
        let editedTag = try #require(edited.headers["etag"])
        #expect(editedTag != etag)

        // An edit by another process on the same database.
        let patchFile = server.folder + "/patch.json"
        try Data(#"[{"op": "replace", "path": "/recipes/0/title", "value": "Soup, edited elsewhere"}]"#.utf8)
            .write(to: URL(fileURLWithPath: patchFile))
        let cli = try ServerProcess.larder(["review", "edit", "--db", server.database, "--patch", patchFile, String(id)])
        #expect(cli.status == 0, "\(cli.output)")
        let elsewhere = try server.request("GET", "/v1/documents/\(id)/result", headers: ["If-None-Match": editedTag])
        #expect(elsewhere.status == 200 && title(elsewhere) == "Soup, edited elsewhere", "\(elsewhere.text.prefix(300))")
    }
}
