import Foundation
import LarderCore
import LarderJSON
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
}
