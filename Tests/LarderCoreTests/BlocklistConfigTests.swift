import Foundation
import LarderTestSupport
import Testing

@testable import LarderCore

/// `receipts.blocklist` in `pipeline.yml`, through the real command and worker.
@Suite("receipt blocklist from pipeline.yml", .integration)
struct BlocklistConfigTests {
    @Test func configuredRulesKeepLinesOutOfThePantryAndNameTheRule() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        try "FRESH MART\nLAGER BEER 6PK 8.99\nWHOLE MILK 3.49\nCANDLE 2.00\nTOTAL 14.48\nCASH 20.00\nCHANGE 5.52\n"
            .write(toFile: folder + "/in/receipt.txt", atomically: true, encoding: .utf8)
        func ingest(_ yaml: String) throws -> (blocked: [String], pantry: [String]) {
            try yaml.write(toFile: folder + "/pipeline.yml", atomically: true, encoding: .utf8)
            let run = try TestSupport.larder(["ingest", "--config", folder + "/pipeline.yml", folder + "/in"])
            #expect(run.status == 0, "\(run.stderr)")
            let shown = try TestSupport.larder(["show", "--config", folder + "/pipeline.yml", "--json", "1"])
            let stages = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
            let receipt = try #require((stages["stages"] as? [[String: Any]])?.first { $0["stage"] as? String == "receipt" })
            let output = try #require(receipt["output"] as? [String: Any])
            let blocked = (output["blocked"] as? [[String: Any]] ?? []).map { "\($0["description"] ?? ""): \($0["rule"] ?? "")" }
            let pantry = (output["pantry"] as? [[String: Any]] ?? []).compactMap { $0["product"] as? String }
            return (blocked, pantry)
        }
        let defaults = try ingest("database: larder.sqlite\n")
        #expect(defaults.blocked.contains("CANDLE: household: CANDLE"))
        #expect(defaults.pantry.contains("LAGER BEER 6PK"))
        // The same database: a changed blocklist reruns the receipt stage for documents already done.
        let custom = try ingest(
            "database: larder.sqlite\nreceipts:\n  blocklist:\n    rules:\n      alcohol: [BEER]\n    disable: [household]\n")
        #expect(custom.blocked.contains("LAGER BEER 6PK: alcohol: BEER"))
        #expect(!custom.pantry.contains("LAGER BEER 6PK") && custom.pantry.contains("CANDLE"))
        #expect(custom.pantry.contains("WHOLE MILK"))
    }
}
