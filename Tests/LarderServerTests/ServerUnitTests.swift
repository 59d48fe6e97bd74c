import Foundation
import LarderCore
import LarderJSON
import NIOCore
import Testing

@testable import LarderServer

/// The server's pieces without a server: escaping, form edits, multipart, upload sniffing, the token, the limits.
@Suite("larder serve: units")
struct ServerUnitTests {
    @Test func everyValueIsEscaped() {
        #expect(HTML.escape("<script>alert('x') & \"y\"</script>") == "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;")
        var html = HTML()
        html.element("td", ["data-x": "\"><img src=x onerror=alert(1)>"], text: "<b>")
        #expect(html.text == "<td data-x=\"&quot;&gt;&lt;img src=x onerror=alert(1)&gt;\">&lt;b&gt;</td>")
    }

    @Test func formFieldsBecomeAPatchOfWhatChanged() throws {
        let result = try JSONValue(
            parsing: #"{"kind": "receipt", "recipes": [], "receipt": {"store": {"name": "CORNER"}, "date": null, "items": [{"description": "OIL", "total": 10.99, "line": 6}], "totals": {"total": 21.36, "tax": 1.21}, "lines": []}}"#)
        let fields = FieldEdits.fields(of: result)
        #expect(fields.map(\.pointer).contains("/receipt/totals/total"))
        #expect(fields.first { $0.pointer == "/receipt/items/0/total" }?.lines == "6")
        let operations = try FieldEdits.patch(
            [("/receipt/totals/total", "22.50"), ("/receipt/totals/tax", "1.21"), ("/receipt/store/name", "CORNER GROCER"),
             ("/receipt/date", ""), ("/not/offered", "x")],
            against: result)
        #expect(operations.map { $0["path"]?.stringValue } == ["/receipt/totals/total", "/receipt/store/name"])
        #expect(["22.5", "22.50"].contains(operations.first?["value"]?.formText ?? ""))
        #expect(operations.last?["value"] == .string("CORNER GROCER"))
        #expect(throws: APIError.self) { try FieldEdits.patch([("/receipt/totals/total", "lots")], against: result) }
    }

    /// Accept sends every field; only those the person changed become edits: a value with spaces around it, a
    /// multi-line step (sent back with CRLF line ends) and a boolean left alone make none.
    @Test func onlyChangedFieldsBecomeEdits() throws {
        let result = try JSONValue(
            parsing: #"{"kind": "recipe", "recipes": [{"title": " Soup ", "yields": {"servings": 4}, "steps": [{"text": "Chop.\nSimmer."}]}]}"#)
        let fields = FieldEdits.fields(of: result)
        var html = HTML()
        for field in fields { FieldEdits.control(for: field, into: &html) }
        #expect(html.text.contains("<textarea"), "a multi-line step is a text area: \(html.text)")
        #expect(html.text.contains("type=\"hidden\" name=\"original:/recipes/0/title\" value=\" Soup \""), "\(html.text)")
        let unchanged: [(String, String)] = [
            ("/recipes/0/title", " Soup "), ("original:/recipes/0/title", " Soup "),
            ("/recipes/0/yields/servings", "4"), ("original:/recipes/0/yields/servings", "4"),
            ("/recipes/0/steps/0/text", "Chop.\r\nSimmer."), ("original:/recipes/0/steps/0/text", "Chop.\r\nSimmer."),
        ]
        #expect(try FieldEdits.patch(form: unchanged, against: result).isEmpty)
        var changed = unchanged
        changed[4].1 = "Chop.\r\nSimmer gently."
        changed[2].1 = " 6 "
        let operations = try FieldEdits.patch(form: changed, against: result)
        #expect(operations.map { $0["path"]?.stringValue } == ["/recipes/0/yields/servings", "/recipes/0/steps/0/text"])
        #expect(operations.last?["value"] == .string("Chop.\nSimmer gently."))
        // Someone else changed the title since the page was shown: the person did not, so it is not overwritten.
        let later = try JSONValue(parsing: #"{"kind": "recipe", "recipes": [{"title": "Tomato Soup", "yields": {"servings": 4}, "steps": []}]}"#)
        #expect(try FieldEdits.patch(form: Array(unchanged.prefix(2)), against: later).isEmpty)
    }

    /// Page renders: at most two at once, the rest wait their turn and all finish.
    @Test func theRenderLimiterLetsTwoThroughAtOnce() async {
        let limiter = AsyncLimiter(2)
        let counts = Locked((now: 0, most: 0, done: 0))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    await limiter.acquire()
                    counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                    try? await Task.sleep(nanoseconds: 20_000_000)
                    counts.withLock { $0.now -= 1; $0.done += 1 }
                    await limiter.release()
                }
            }
        }
        #expect(counts.withLock { $0.most } == 2)
        #expect(counts.withLock { $0.done } == 8)
    }

    /// A file already at an upload's name is trusted only when it holds exactly the upload's bytes; anything else
    /// (other bytes of the same length, a planted symlink) is replaced through SafeFile.
    @Test func anExistingUploadIsTrustedOnlyWhenItsHashMatches() throws {
        let folder = NSTemporaryDirectory() + "larder-upload-unit-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let uploads = folder + "/db.uploads"
        try FileManager.default.createDirectory(atPath: uploads, withIntermediateDirectories: true)
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        let batch = try store.beginBatch(command: "serve", inputs: [])
        let upload = UploadStore(directory: uploads, store: store, stages: PipelineManifest.standardStageNames, batchID: batch)
        let data = Data("Tomato Soup\n\nIngredients\n- 4 tomatoes\n\nMethod\n1. Simmer.\n".utf8)
        let sha = SHA256.hex(data)
        let path = uploads + "/" + sha + ".txt"
        var tampered = data
        tampered[0] = UInt8(ascii: "X")
        try tampered.write(to: URL(fileURLWithPath: path))
        #expect(!UploadStore.holds(path, sha256: sha, byteCount: data.count))
        _ = try upload.accept(data, fileName: "soup.txt")
        #expect(FileManager.default.contents(atPath: path) == data, "the tampered file was trusted")
        #expect(UploadStore.holds(path, sha256: sha, byteCount: data.count))
        // A symlink planted at the name is replaced, and its target is left alone.
        try FileManager.default.removeItem(atPath: path)
        try tampered.write(to: URL(fileURLWithPath: folder + "/target.txt"))
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: folder + "/target.txt")
        #expect(!UploadStore.holds(path, sha256: sha, byteCount: data.count))
        _ = try upload.accept(data, fileName: "soup.txt")
        #expect(FileManager.default.contents(atPath: folder + "/target.txt") == tampered)
        #expect(UploadStore.holds(path, sha256: sha, byteCount: data.count))
    }

    @Test func multipartFindsTheFilePart() throws {
        let boundary = "XyZ"
        let body = Data(
            "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"soup.txt\"\r\nContent-Type: text/plain\r\n\r\nTomato\r\nsoup\r\n--XyZ--\r\n".utf8)
        #expect(Multipart.boundary(from: "multipart/form-data; boundary=\"XyZ\"") == boundary)
        let part = try Multipart.filePart(body, boundary: boundary)
        #expect(part.fileName == "soup.txt")
        #expect(String(decoding: part.data, as: UTF8.self) == "Tomato\r\nsoup")
        #expect(throws: APIError.self) { try Multipart.filePart(Data("--XyZ\r\nno end".utf8), boundary: boundary) }
    }

    @Test func uploadsAreSniffedAndNamedFromAFixedList() {
        #expect(UploadStore.sniff(Data("%PDF-1.7\n".utf8)) == .pdf)
        #expect(UploadStore.sniff(Data([0xFF, 0xD8, 0xFF, 0xE0])) == .jpeg)
        #expect(UploadStore.sniff(Data("1 cup flour\n".utf8)) == .text)
        #expect(UploadStore.sniff(Data([0x7F, 0x45, 0x4C, 0x46, 0, 0])) == nil)
        #expect(UploadStore.storedExtension(for: "Receipt.JPG") == "jpg")
        #expect(UploadStore.storedExtension(for: "../../etc/passwd") == nil)
        #expect(UploadStore.storedExtension(for: "x.pdf/../../y") == nil)
        #expect(UploadStore.storedExtension(for: nil) == nil)
    }

    @Test func theTokenIsNeverPrintedAndIsComparedWhole() throws {
        let token = try BearerToken("s3cret-token-0123456789")
        #expect("\(token)" == "<redacted>")
        #expect(String(reflecting: token) == "<redacted>")
        #expect(token.matches("s3cret-token-0123456789"))
        #expect(!token.matches("s3cret-token-012345678"))
        #expect(!token.matches("s3cret-token-01234567890"))
        #expect(throws: LarderError.self) { try BearerToken("short") }
    }

    @Test func beyondLoopbackNeedsAToken() throws {
        var settings = ServerSettings(uploadsDirectory: "/tmp/x")
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "::1"] {
            settings.host = host
            #expect(throws: Never.self) { try settings.check() }
        }
        for host in ["0.0.0.0", "192.0.2.1", "::", "example.org"] {
            settings.host = host
            #expect(throws: LarderError.self) { try settings.check() }
        }
        settings.token = try BearerToken("0123456789abcdef0123")
        #expect(throws: Never.self) { try settings.check() }
    }

    @Test func theRateLimiterAllowsABurstThenTheRate() {
        let limiter = RateLimiter(requestsPerSecond: 10, burst: 5)
        let allowed = (0..<8).filter { _ in limiter.take("a", now: 100) == nil }.count
        #expect(allowed == 5)
        #expect(limiter.take("b", now: 100) == nil)  // per client
        #expect(limiter.take("a", now: 100.15) == nil)  // one more after a tenth of a second and a bit
        #expect(limiter.take("a", now: 100.15) != nil)
        #expect(RateLimiter(requestsPerSecond: 0, burst: 1).take("a") == nil)
    }

    @Test func formBodiesDecode() {
        let pairs = FormBody.parse(Data("%2Freceipt%2Ftotals%2Ftotal=22.50&reason=too+dark%21".utf8))
        #expect(pairs.map(\.0) == ["/receipt/totals/total", "reason"])
        #expect(pairs.map(\.1) == ["22.50", "too dark!"])
    }

    /// The request clock: a head has `headerSeconds` from its first byte; a body `bodySeconds` from the head plus a
    /// second per `minBodyBytesPerSecond` bytes; nothing runs between requests or while one is answered.
    @Test func theRequestClockGivesHeadsAndBodiesTheirDeadlines() {
        let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
        var clock = RequestClock(limits: RequestDeadlines(headerSeconds: 2, bodySeconds: 3, minBodyBytesPerSecond: 100))
        #expect(clock.deadline == nil)
        clock.bytesArrived(at: start)
        #expect(clock.deadline == start + .seconds(2))
        clock.bytesArrived(at: start + .seconds(1))  // more of the same head: the deadline stays
        #expect(clock.deadline == start + .seconds(2))
        clock.headArrived(at: start + .seconds(1))
        #expect(clock.deadline == start + .seconds(4))
        clock.bodyArrived(250)
        #expect(clock.deadline == start + .milliseconds(6500))
        // An answer before the body has arrived (a refused upload): the connection is to close.
        var early = clock
        let closes = early.answerEnded(at: start + .seconds(2))
        #expect(closes)
        clock.requestEnded()
        #expect(clock.deadline == nil)
        clock.bytesArrived(at: start + .seconds(5))  // a pipelined next request: its clock starts after the answer
        #expect(clock.deadline == nil)
        let closesAfterAnswer = clock.answerEnded(at: start + .seconds(6))
        #expect(!closesAfterAnswer)
        #expect(clock.deadline == start + .seconds(8))
    }

    @Test func ifNoneMatchListsAndWeakTagsMatch() {
        #expect(ResultCache.matches("\"abc\"", "\"abc\""))
        #expect(ResultCache.matches("\"x\", W/\"abc\"", "\"abc\""))
        #expect(ResultCache.matches("*", "\"abc\""))
        #expect(!ResultCache.matches("\"abcd\"", "\"abc\""))
        #expect(!ResultCache.matches("", "\"abc\""))
    }

    /// The cache answers only for exactly the JSON and pipeline version an entry was made from, and keeps to its
    /// budget, oldest first.
    @Test func theResultCacheIsKeyedByContentAndBounded() throws {
        let cache = ResultCache(budgetBytes: 400)
        var encodes = 0
        func get(_ id: Int64, _ json: String, _ pipeline: String = "p1") throws -> Data {
            try cache.encoded(ExportableVersion(number: 1, json: json, pipelineVersion: pipeline), of: id) {
                encodes += 1
                return Data((json + pipeline).utf8)
            }.data
        }
        #expect(try get(1, #"{"a":1}"#) == Data(#"{"a":1}p1"#.utf8))
        #expect(try get(1, #"{"a":1}"#) == Data(#"{"a":1}p1"#.utf8))
        #expect(encodes == 1)
        #expect(try get(1, #"{"a":2}"#) == Data(#"{"a":2}p1"#.utf8))  // an edit: another JSON
        #expect(try get(1, #"{"a":2}"#, "p2") == Data(#"{"a":2}p2"#.utf8))  // remade by another pipeline
        #expect(encodes == 3)
        for id in 2...40 { _ = try get(Int64(id), String(repeating: "x", count: 30)) }
        #expect(cache.count < 10, "the cache holds \(cache.count) entries over its budget")
    }
}
