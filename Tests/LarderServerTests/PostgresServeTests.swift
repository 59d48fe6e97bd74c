import Foundation
import LarderCore
import LarderTestSupport
import Testing

extension Trait where Self == ConditionTrait {
    /// Needs PostgreSQL 15's binaries (the test starts its own throwaway cluster).
    static var postgresInstalled: Self {
        .enabled(
            if: PostgresCluster.binariesPresent,
            "PostgreSQL is not installed: \(PostgresCluster.binaries)/initdb is missing (scripts/setup.sh installs postgresql)")
    }
}

/// Several `larder serve` processes and a `larder worker` on one PostgreSQL database, as real processes over
/// loopback: each server in a folder of its own (so neither can read the other's `larder.uploads`: what a server
/// shows of a document it did not take comes from the database's bytes).
@Suite("larder serve on PostgreSQL: two servers and a worker", .serialized)
struct PostgresServeTests {
    static func object(_ value: Any?) -> [String: Any] { value as? [String: Any] ?? [:] }

    /// An open `GET /v1/events` stream, read on a thread of its own into `received`.
    final class EventStream: @unchecked Sendable {
        let fd: Int32
        private let text = Locked("")
        private let reader: Thread

        init(port: Int) throws {
            fd = try HTTPClient.connect(port: port, timeoutSeconds: 1)
            HTTPClient.send(fd, Data("GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n".utf8))
            let fd = self.fd
            let text = self.text
            reader = Thread {
                var buffer = [UInt8](repeating: 0, count: 65536)
                let deadline = Date().addingTimeInterval(900)
                while Date() < deadline {
                    let count = recv(fd, &buffer, buffer.count, 0)
                    if count > 0 { text.withLock { $0 += String(decoding: buffer[0..<count], as: UTF8.self) } }
                    if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { break }
                }
            }
            reader.start()
        }

        var received: String { text.withLock { $0 } }

        /// The `data:` lines as JSON objects.
        var events: [[String: Any]] {
            received.components(separatedBy: "\n").filter { $0.hasPrefix("data: ") }.compactMap {
                PostgresServeTests.object(try? JSONSerialization.jsonObject(with: Data($0.dropFirst(6).utf8)))
            }
        }

        /// (document, stage) of every stage event with status done.
        var doneStages: [String] {
            events.filter { $0["type"] as? String == "stage" && $0["status"] as? String == "done" }.map {
                "\($0["documentID"] as? Int ?? 0)/\($0["stage"] as? String ?? "?")"
            }
        }

        func waitFor(seconds: Double, _ done: (String) -> Bool) {
            let deadline = Date().addingTimeInterval(seconds)
            while !done(received) && Date() < deadline { usleep(100_000) }
        }

        func close() { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    /// `larder worker` in the background over `url` (in `LARDER_DB`), in `folder`.
    static func startWorker(url: String, folder: String) throws -> Process {
        let worker = Process()
        worker.executableURL = URL(fileURLWithPath: try ServerProcess.larderExecutable)
        worker.arguments = ["worker", "--poll", "1", "--workers", "1"]
        worker.environment = ProcessInfo.processInfo.environment.merging(
            ["LARDER_DB": url, "LARDER_SKIP_LLM": "1", "LARDER_WORKER_ID": "serve-test-worker"]) { _, new in new }
        worker.currentDirectoryURL = URL(fileURLWithPath: folder)
        worker.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        worker.standardError = FileHandle(forWritingAtPath: "/dev/null")
        worker.standardInput = FileHandle.nullDevice
        try worker.run()
        return worker
    }

    /// What an upload was answered.
    struct Answer: Sendable, CustomStringConvertible {
        var status: Int
        var id: Int?
        var duplicate: Bool?
        var body: String
        var description: String { "\(status) \(body)" }
    }

    static func upload(_ server: ServerProcess, _ path: String) -> Answer {
        let name = URL(fileURLWithPath: path).lastPathComponent
        do {
            let reply = try server.request(
                "POST", "/v1/documents?filename=\(name)", headers: ["Content-Type": "application/octet-stream"],
                body: try Data(contentsOf: URL(fileURLWithPath: path)))
            let value = object(try? JSONSerialization.jsonObject(with: reply.body))
            return Answer(status: reply.status, id: value["id"] as? Int, duplicate: value["duplicate"] as? Bool, body: reply.text)
        } catch {
            return Answer(status: 0, body: "\(error)")
        }
    }

    static func metric(_ text: String, _ name: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    @Test(.postgresInstalled, .integration) func twoServersAndAWorkerShareOneDatabase() throws {
        let cluster = try #require(PostgresCluster.shared, "\(PostgresCluster.unavailableReason ?? "no cluster")")
        let url = cluster.url()
        let schema = try #require(url.components(separatedBy: "schema=").last)
        let root = try ServerProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for name in ["a", "b", "w"] { try FileManager.default.createDirectory(atPath: root + "/" + name, withIntermediateDirectories: true) }
        // A works the queue; B does not; the worker does. The worker starts first: it makes the schema.
        let worker = try Self.startWorker(url: url, folder: root + "/w")
        defer {
            if worker.isRunning { kill(worker.processIdentifier, SIGTERM) }
            worker.waitUntilExit()
        }
        let a = try ServerProcess(arguments: ["--rate-limit", "0"], folder: root + "/a", postgres: url)
        defer { a.stop() }
        let b = try ServerProcess(arguments: ["--rate-limit", "0", "--no-work"], folder: root + "/b", postgres: url)
        defer { b.stop() }
        let streamA = try EventStream(port: a.port)
        defer { streamA.close() }
        let streamB = try EventStream(port: b.port)
        defer { streamB.close() }
        streamA.waitFor(seconds: 20) { $0.contains(": larder events") }
        streamB.waitFor(seconds: 20) { $0.contains(": larder events") }
        #expect(streamA.received.contains("text/event-stream") && streamB.received.contains("text/event-stream"))

        // The samples: the even ones to A, the odd ones to B, then every third to the other server again, at once.
        let samples = try ["recipes", "receipts"].flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: Repository.path("samples/" + folder)).sorted().map {
                Repository.path("samples/\(folder)/\($0)")
            }
        }
        #expect(samples.count >= 10, "\(samples)")
        let first = Locked<[Int: Answer]>([:])
        DispatchQueue.concurrentPerform(iterations: samples.count) { index in
            let answer = Self.upload(index % 2 == 0 ? a : b, samples[index])
            first.withLock { $0[index] = answer }
        }
        let firsts = first.withLock { $0 }
        #expect(firsts.values.allSatisfy { $0.status == 201 && $0.duplicate == false }, "\(firsts)")
        let ids = firsts.compactMapValues(\.id)
        #expect(ids.count == samples.count && Set(ids.values).count == samples.count, "\(firsts)")
        // Every third sample again, to the other server, all at once.
        let again = Array(stride(from: 0, to: samples.count, by: 3))
        let second = Locked<[Int: Answer]>([:])
        DispatchQueue.concurrentPerform(iterations: again.count) { position in
            let index = again[position]
            let answer = Self.upload(index % 2 == 0 ? b : a, samples[index])
            second.withLock { $0[index] = answer }
        }
        for (index, answer) in second.withLock({ $0 }) {
            #expect(answer.status == 200 && answer.duplicate == true, "\(answer)")
            #expect(answer.id == ids[index], "a duplicate names the first document: \(answer)")
        }

        // Every document done, as both servers see it.
        for (index, id) in ids {
            #expect(try b.waitSettled(id, timeout: 600) == "done", "\(samples[index])")
            let (_, shown) = try a.json("GET", "/v1/documents/\(id)")
            #expect(Self.object(shown)["state"] as? String == "done")
        }
        // Done once: one `done` event per stage of each document (a stage run twice would finish twice).
        let doubled = try cluster.psql(
            "SELECT document_id, stage, COUNT(*) FROM \(schema).stage_event WHERE status = 'done' GROUP BY 1, 2 HAVING COUNT(*) > 1")
        #expect(doubled.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "stages done twice: \(doubled)")
        let stages = Set(PipelineManifest.standardStageNames)
        let expected = Set(ids.values.flatMap { id in stages.map { "\(id)/\($0)" } })

        // Each server's event stream told of every stage, whoever ran it, each once.
        for (name, stream) in [("A", streamA), ("B", streamB)] {
            stream.waitFor(seconds: 30) { _ in Set(stream.doneStages).isSuperset(of: expected) }
            let done = stream.doneStages
            #expect(Set(done) == expected, "server \(name): missing \(expected.subtracting(done).sorted().prefix(10))")
            #expect(done.count == Set(done).count, "server \(name) told of a stage twice")
            let registered = stream.events.filter { $0["type"] as? String == "registered" }.compactMap { $0["documentID"] as? Int }
            let took = ids.filter { ($0.key % 2 == 0) == (name == "A") }.map(\.value)
            #expect(Set(registered) == Set(took), "server \(name) tells of the uploads it registered")
        }
        // B works nothing, yet its stream had it all: the work was done by A's runner and the worker.
        let owners = try cluster.psql("SELECT COUNT(*) FROM \(schema).stage_event")
        #expect(Int(owners.trimmingCharacters(in: .whitespacesAndNewlines)) == expected.count)

        // As if on hosts of their own: neither server's uploads folder is left, so what they show of a document
        // (its photo, its PDF pages) must come from the bytes in the database.
        for name in ["a", "b"] {
            #expect(FileManager.default.fileExists(atPath: root + "/\(name)/larder.uploads"), "server \(name) kept its uploads")
            try FileManager.default.removeItem(atPath: root + "/\(name)/larder.uploads")
        }
        try resultsReviewAndImages(a, b, ids: ids, samples: samples)

        // Metrics: each server counts its own uploads; the documents and queue are the database's.
        for (name, server, took, duplicates) in [("A", a, (samples.count + 1) / 2, again.filter { $0 % 2 == 1 }.count),
            ("B", b, samples.count / 2, again.filter { $0 % 2 == 0 }.count)]
        {
            let text = try server.request("GET", "/metrics").text
            #expect(Self.metric(text, "larder_documents{state=\"done\"}") == Double(samples.count), "server \(name): \(text)")
            #expect(Self.metric(text, "larder_queue_depth") == 0, "server \(name)")
            #expect(Self.metric(text, "larder_uploads_total{outcome=\"new\"}") == Double(took), "server \(name): \(text)")
            #expect(Self.metric(text, "larder_uploads_total{outcome=\"duplicate\"}") == Double(duplicates), "server \(name)")
            #expect(
                Self.metric(text, "larder_stage_duration_seconds_count{stage=\"result\"}") == Double(samples.count),
                "server \(name): \(text)")
        }
        #expect(a.stop() == 0, "\(a.log.suffix(2000))")
        #expect(b.stop() == 0, "\(b.log.suffix(2000))")
        for folder in ["a", "b", "w"] {
            let pages = (try? FileManager.default.contentsOfDirectory(atPath: root + "/\(folder)/larder.uploads/pages")) ?? []
            #expect(!pages.contains { $0.hasPrefix(".") }, "a render's files were left: \(pages)")
        }
    }

    /// Results and review across servers: an edit on B is A's answer at once (a new ETag); a PDF page and a
    /// receipt photo uploaded to one server are shown by the other, from the database's bytes.
    func resultsReviewAndImages(_ a: ServerProcess, _ b: ServerProcess, ids: [Int: Int], samples: [String]) throws {
        let receiptIndex = try #require(samples.firstIndex { $0.hasSuffix("corner-grocer.jpg") })
        let receipt = try #require(ids[receiptIndex])
        let before = try a.request("GET", "/v1/documents/\(receipt)/result")
        #expect(before.status == 200)
        let fromB = try b.request("GET", "/v1/documents/\(receipt)/result")
        #expect(fromB.body == before.body && fromB.headers["etag"] == before.headers["etag"], "one answer on both servers")
        let patch = Data(#"[{"op": "replace", "path": "/receipt/totals/total", "value": 77.77}]"#.utf8)
        let (patched, saved) = try b.json(
            "PATCH", "/v1/review/\(receipt)", headers: ["Content-Type": "application/json-patch+json"], body: patch)
        #expect(patched == 200, "\(saved)")
        let after = try a.request("GET", "/v1/documents/\(receipt)/result")
        let total = Self.object(Self.object(Self.object(try JSONSerialization.jsonObject(with: after.body))["receipt"])["totals"])["total"]
        #expect(total as? Double == 77.77, "A serves B's edit: \(after.text.prefix(400))")
        #expect(after.headers["etag"] != before.headers["etag"])
        let revalidated = try a.request("GET", "/v1/documents/\(receipt)/result", headers: ["If-None-Match": before.headers["etag"] ?? ""])
        #expect(revalidated.status == 200, "the old ETag no longer matches")
        let (_, detail) = try a.json("GET", "/v1/review/\(receipt)")
        let versions = Self.object(detail)["versions"] as? [[String: Any]] ?? []
        #expect(versions.map { $0["origin"] as? String } == ["machine", "human"], "\(detail)")

        // The photo and a PDF page, each from the server that did not take the upload.
        let photoServer = receiptIndex % 2 == 0 ? b : a
        let photo = try photoServer.request("GET", "/review/\(receipt)/source")
        #expect(photo.status == 200 && photo.headers["content-type"] == "image/jpeg", "\(photo.status) \(photo.text.prefix(200))")
        #expect(photo.body == (try Data(contentsOf: URL(fileURLWithPath: samples[receiptIndex]))))
        let pdfIndex = try #require(samples.firstIndex { $0.hasSuffix("pancakes.pdf") })
        let pdfServer = pdfIndex % 2 == 0 ? b : a
        let pdf = try #require(ids[pdfIndex])
        let page = try pdfServer.request("GET", "/review/\(pdf)/page/1")
        #expect(page.status == 200 && page.body.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(page.status) \(page.text.prefix(300))")
        let missing = try pdfServer.request("GET", "/review/\(pdf)/page/99")
        #expect(missing.status == 404)
        let view = try pdfServer.request("GET", "/review/\(pdf)")
        #expect(view.status == 200 && view.text.contains("/review/\(pdf)/page/1"), "\(view.text.prefix(300))")
    }
}
