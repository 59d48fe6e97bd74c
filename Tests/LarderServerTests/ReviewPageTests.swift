import Foundation
import LarderCore
import LarderTestSupport
import Testing

/// The review page over loopback: escaping, the content security policy, forms that work without JavaScript, and
/// (slow tier) the whole review in headless Chromium.
@Suite("larder serve: the review page", .serialized)
struct ReviewPageTests {
    static func upload(_ server: ServerProcess, _ relative: String) throws -> Int {
        let data = try Data(contentsOf: URL(fileURLWithPath: Repository.path("samples/" + relative)))
        let name = URL(fileURLWithPath: relative).lastPathComponent
        let (_, value) = try server.json("POST", "/v1/documents?filename=\(name)", headers: ["Content-Type": "application/octet-stream"], body: data)
        return try #require((value as? [String: Any])?["id"] as? Int)
    }

    @Test(.integration) func thePageEscapesValuesAndWorksWithoutJavaScript() throws {
        let server = try ServerProcess()
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: server.folder)
        }
        let hostile = "<script>alert('x')</script> Soup\n\nServes 2\n\nIngredients\n\n- 1 onion\n- 2 cups stock\n\nMethod\n\n1. Cook the onion in the stock.\n"
        let (_, value) = try server.json(
            "POST", "/v1/documents?filename=hostile.md", headers: ["Content-Type": "text/markdown"], body: Data(hostile.utf8))
        let id = try #require((value as? [String: Any])?["id"] as? Int)
        let receipt = try Self.upload(server, "receipts/corner-grocer.jpg")
        let pdf = try Self.upload(server, "recipes/pancakes.pdf")
        #expect(try server.waitSettled(id) == "done")
        #expect(try server.waitSettled(receipt) == "done")
        #expect(try server.waitSettled(pdf) == "done")

        let queue = try server.request("GET", "/review")
        #expect(queue.status == 200)
        #expect(queue.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(queue.headers["content-security-policy"]?.contains("default-src 'none'") == true)
        let page = try server.request("GET", "/review/\(id)")
        #expect(page.status == 200)
        #expect(!page.text.contains("<script>alert"), "an unescaped value reached the page")
        #expect(page.text.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"))
        // No inline script or style: every script has a src, and no element has a style attribute.
        #expect(page.text.components(separatedBy: "<script").count - 1 == page.text.components(separatedBy: "<script src=\"/assets/review.js\"").count - 1)
        #expect(!page.text.contains(" style="))
        #expect(try server.request("GET", "/assets/review.js").status == 200)
        #expect(try server.request("GET", "/assets/review.css").headers["content-type"]?.hasPrefix("text/css") == true)

        // The receipt's page: the photo with its boxes, and a total field.
        let receiptPage = try server.request("GET", "/review/\(receipt)")
        #expect(receiptPage.text.contains("src=\"/review/\(receipt)/source\""))
        #expect(receiptPage.text.contains("class=\"box role-total\""))
        #expect(try server.request("GET", "/review/\(receipt)/source").headers["content-type"] == "image/jpeg")
        #expect(try server.request("GET", "/review/\(id)/source").status == 404)

        // A PDF page: rendered by pdftoppm (when installed) under the marked lines.
        let pdfPage = try server.request("GET", "/review/\(pdf)")
        #expect(pdfPage.text.contains("class=\"pline used\""))
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftoppm") {
            #expect(pdfPage.text.contains("src=\"/review/\(pdf)/page/1\""))
            let png = try server.request("GET", "/review/\(pdf)/page/1")
            #expect(png.status == 200 && png.headers["content-type"] == "image/png" && png.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        }
        #expect(try server.request("GET", "/review/\(pdf)/page/2").status == 404)
        #expect(try server.request("GET", "/review/\(receipt)/page/1").status == 404)

        // A plain form post (what a browser without JavaScript sends): the changed total becomes a new version.
        let form = "%2Freceipt%2Ftotals%2Ftotal=23.45&%2Freceipt%2Fstore%2Fname=CORNER+GROCER"
        let posted = try server.request(
            "POST", "/review/\(receipt)/decide",
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Origin": "http://127.0.0.1:\(server.port)"],
            body: Data(form.utf8))
        #expect(posted.status == 303, "\(posted.text)")
        #expect(posted.headers["location"] == "/review/\(receipt)?saved=2")
        let (_, result) = try server.json("GET", "/v1/documents/\(receipt)/result")
        let totals = ((result as? [String: Any])?["receipt"] as? [String: Any])?["totals"] as? [String: Any]
        #expect(totals?["total"] as? Double == 23.45)
        // A post from another site is refused.
        let forged = try server.request(
            "POST", "/review/\(receipt)/decide",
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Origin": "http://evil.example"], body: Data(form.utf8))
        #expect(forged.status == 403)
    }

    @Test(.slow, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"),
        "chromium and chromium-driver are not installed (scripts/setup.sh installs them)"))
    func aPersonReviewsAReceiptInABrowser() throws {
        let venv = Repository.path(".build/browser-venv")
        if !FileManager.default.fileExists(atPath: venv + "/bin/python") {
            let made = try ServerProcess.shell("python3 -m venv '\(venv)' && '\(venv)/bin/pip' install -q 'selenium>=4.20'")
            try #require(made.status == 0, "cannot make the selenium virtualenv: \(made.output)")
        }
        let server = try ServerProcess()
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: server.folder)
        }
        let receipt = try Self.upload(server, "receipts/corner-grocer.jpg")
        let pdf = try Self.upload(server, "recipes/pancakes.pdf")
        let page = try Self.upload(server, "recipes/chewy-oat-cookies.html")
        for id in [receipt, pdf, page] { #expect(try server.waitSettled(id) == "done") }
        let shots = Repository.path(".build/review-screenshots")
        let run = try ServerProcess.shell(
            "'\(venv)/bin/python' '\(Repository.path("Tests/LarderServerTests/review_browser.py"))' "
                + "http://127.0.0.1:\(server.port) \(receipt) 31.07 '\(shots)' \(pdf) \(page)")
        try #require(run.status == 0, "the browser run failed: \(run.output)")
        let line = run.output.split(separator: "\n").last.map(String.init) ?? "{}"
        let seen = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
        #expect((seen["photoWidth"] as? Int ?? 0) > 0, "\(seen)")
        #expect((seen["boxes"] as? Int ?? 0) >= 10, "\(seen)")
        #expect(seen["totalBoxes"] as? Int == 1)
        #expect(seen["totalFieldLit"] as? Bool == true)
        #expect((seen["notice"] as? String)?.contains("Saved version") == true, "\(seen)")
        #expect(seen["totalAfter"] as? String == "31.07")
        #expect((seen["pdfLines"] as? Int ?? 0) > 0)
        #expect((seen["pageLines"] as? Int ?? 0) > 0)
        #expect((seen["consoleErrors"] as? [Any])?.isEmpty == true, "\(seen)")
        for name in ["queue", "receipt", "receipt-accepted", "pdf", "page"] {
            #expect(FileManager.default.fileExists(atPath: shots + "/\(name).png"))
        }
        // `larder export` carries the edit.
        let out = server.folder + "/export"
        let export = try ServerProcess.larder(["export", "--db", server.database, "--out", out])
        #expect(export.status == 0, "\(export.output)")
        let exported = try FileManager.default.contentsOfDirectory(atPath: out).map { out + "/" + $0 }
        let totals = try exported.compactMap { path -> Double? in
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
            return ((json?["receipt"] as? [String: Any])?["totals"] as? [String: Any])?["total"] as? Double
        }
        #expect(totals.contains(31.07), "\(totals)")
    }
}

extension ServerProcess {
    static func shell(_ command: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
