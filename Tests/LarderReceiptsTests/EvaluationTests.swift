import Foundation
import LarderCore
import LarderTestSupport
import Testing
@testable import LarderEvaluation
@testable import LarderOCR
@testable import LarderReceipts

@Suite("ReceiptEvaluation")
struct EvaluationTests {
    @Test func storeNamesMatchAfterNormalising() {
        #expect(ReceiptEvaluation.storesMatch("99 SPEED MART S/B (519537-X)", "99 SPEED MART S/B"))
        #expect(ReceiptEvaluation.storesMatch("AEON CO. (M) BHD", "AEON CO. (M) BHD."))
        #expect(ReceiptEvaluation.storesMatch("99 SPEED KART S/B (S19537-X)", "99 SPEED MART S/B"))
        #expect(ReceiptEvaluation.storesMatch("Yam Fresh", "YAM FRESH"))
        #expect(!ReceiptEvaluation.storesMatch("LOT P.T. 2811, JALAN ANGSA", "99 SPEED MART S/B"))
    }

    @Test func itemScoringCountsDiscountsAsNegativeItems() {
        let receipt = ReceiptParser().parse(text: "SHOP\nMILK 3.89\nCOUPON MILK -0.50\nEGGS 4.29\nTOTAL 7.68")
        let label = ReceiptLabel(store: "SHOP", total: 7.68, items: [.init(name: "MILK", price: 3.89),
                                                                       .init(name: "COUPON  milk", price: -0.5),
                                                                       .init(name: "BREAD", price: 2.00)])
        let d = ReceiptEvaluation.score(id: "x", receipt: receipt, label: label)
        #expect(d.itemsMatched == 2 && d.itemsPredicted == 3 && d.itemsLabelled == 3)
        let report = ReceiptEvaluation.summarize([d], includeDetails: false)
        #expect(abs((report.itemPrecision ?? 0) - 2.0 / 3) < 1e-9)
        #expect(report.store == 1 && report.total == 1 && report.date == nil)
    }

    @Test func reportEncodesSnakeCaseKeys() throws {
        let report = ReceiptEvaluation.summarize([], includeDetails: false)
        let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        #expect(json.contains("\"count\":0"))
        #expect(json.contains("seconds_per_image"))
    }

    @Test func dateMissesExplainedByADayMonthSwapOfTheLabelAreCountedBesideTheScore() throws {
        #expect(ReceiptEvaluation.isDayMonthSwap(predicted: "2016-06-07", label: "2016-07-06"))
        #expect(!ReceiptEvaluation.isDayMonthSwap(predicted: "2016-07-06", label: "2016-07-06"))
        #expect(!ReceiptEvaluation.isDayMonthSwap(predicted: "2017-06-07", label: "2016-07-06"))
        #expect(!ReceiptEvaluation.isDayMonthSwap(predicted: nil, label: "2016-07-06"))
        let parser = ReceiptParser()
        let details = [("06/07/2016", "2016-07-06"), ("06/07/2016", "2016-06-07"), ("01/02/2016", "2016-03-04")].enumerated().map { i, c in
            ReceiptEvaluation.score(id: "\(i)", receipt: parser.parse(text: "SHOP\n\(c.0)\nTOTAL $1.00"), label: ReceiptLabel(date: c.1))
        }
        let report = ReceiptEvaluation.summarize(details, includeDetails: false)
        // The primary score counts only the label as written; the swap is counted beside it.
        #expect(report.date == 1.0 / 3)
        #expect(report.dateLabelSwapped == 1)
        #expect(report.dateEitherOrder == 2.0 / 3)
        let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        #expect(json.contains("\"date_label_swapped\":1"))
    }

    @Test func sroieLabelsAreNormalised() throws {
        let dir = NSTemporaryDirectory() + "larder-sroie-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cases = [("24-01-18", "RM2.50", "2018-01-24", 2.5), ("20180304", "3.20", "2018-03-04", 3.2),
                     ("OCT 3, 2016", "RM33.90", "2016-10-03", 33.9), ("05-AUG-2017", "40.00", "2017-08-05", 40.0),
                     ("12/03/18", "77.20", "2018-03-12", 77.2)]
        for (i, c) in cases.enumerated() {
            let path = "\(dir)/\(i).json"
            try #"{"company": "X", "date": "\#(c.0)", "total": "\#(c.1)"}"#.write(toFile: path, atomically: true, encoding: .utf8)
            let label = try ReceiptEvaluation.sroieLabel(at: path)
            #expect(label.date == c.2, "\(c.0)")
            #expect(label.total == c.3)
        }
    }

    /// SROIE grocery subset (55 receipts), read through the standard stages with `eval/sroie.yml`; floors from the
    /// baseline. About 30–40 s on one core.
    @Test(.integration, .sharedData("receipts-sroie"), .slow, .timeLimit(.minutes(6)))
    func sroieFloors() throws {
        let folder = try #require(TestData.sroieFolder)
        // SROIE's settings (MYR, day-first dates) as a user passes them: `--config eval/sroie.yml`.
        var options = ReceiptEvaluation.Options(config: try PipelineConfig.load(path: Repository.path("eval/sroie.yml")))
        options.strict = true  // the store figure below was measured with the strict rule
        let report = try ReceiptEvaluation.run(folder: folder, options: options)
        print("SROIE: count \(report.count) store \(report.store ?? -1) date \(report.date ?? -1) total \(report.total ?? -1) s/image \(report.secondsPerImage)")
        #expect(report.count == 55)
        #expect(report.failures == 0)
        // Floors 0.02 below the baseline's figures (`make measure`, benchmarks/baseline.json; one receipt is 0.018).
        #expect((report.store ?? 0) >= Baseline.floor("receipts-sroie", "store", margin: 0.02))
        #expect((report.date ?? 0) >= Baseline.floor("receipts-sroie", "date", margin: 0.02))
        #expect((report.total ?? 0) >= Baseline.floor("receipts-sroie", "total", margin: 0.02))
        #expect(report.itemF1 == nil)  // SROIE has no item labels
    }

}

@Suite("CORD line items (parser alone)")
struct CORDEvaluationTests {
    @Test(.sharedData("receipts-cord/json"))
    func floorsOnCORD() throws {
        let cord = try #require(TestData.cordFolder)
        let report = try CORDEvaluation.run(folder: cord)
        print("CORD: count \(report.count) total \(report.total ?? -1) item P/R/F1 \(report.itemPrecision ?? -1) \(report.itemRecall ?? -1) \(report.itemF1 ?? -1)")
        #expect(report.count == 100)
        // Floors 0.01 below the baseline's figures (`make measure`, benchmarks/baseline.json; one receipt is 0.01).
        #expect((report.total ?? 0) >= Baseline.floor("receipts-cord", "total", margin: 0.01))
        #expect((report.itemF1 ?? 0) >= Baseline.floor("receipts-cord", "item F1", margin: 0.01))
    }
}

@Suite("CORD labels and lines")
struct CORDLabelTests {
    @Test func rupiahPricesWithAndWithoutCents() {
        #expect(CORDEvaluation.rupiah("16,500") == 16_500)
        #expect(CORDEvaluation.rupiah("Rp 16.500") == 16_500)
        #expect(CORDEvaluation.rupiah("Rp 58000.00") == 58_000)
        #expect(CORDEvaluation.rupiah("58,000.00") == 58_000)
        #expect(CORDEvaluation.rupiah("-7,800") == -7_800)
    }

    @Test func rebuiltLinesCarryTheirBoxes() {
        let word = { (text: String, x: Int, row: Int) -> [String: Any] in
            ["text": text, "row_id": row, "quad": ["x1": x, "y1": 100 * row, "x3": x + 50, "y3": 100 * row + 30]]
        }
        let root: [String: Any] = ["valid_line": [["words": [word("TEA", 10, 1), word("1", 0, 1)]], ["words": [word("Ice", 40, 2)]]]]
        let lines = CORDEvaluation.lines(root)
        #expect(lines.map(\.text) == ["1 TEA", "Ice"])
        #expect(lines.first?.box == OCRBox(x: 0, y: 100, width: 60, height: 30))
    }
}
