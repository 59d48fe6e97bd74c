import Foundation
import LarderOCR
import LarderReceipts
import LarderTestSupport
import Testing

@testable import LarderCore
@testable import LarderStages

/// `larder ingest` must give a receipt photo the fields `larder eval receipts` measures: the `ocr` stage stores the
/// lines with their words, whose confidences the parser weighs (a misread amount's word is less certain), so the
/// `receipt` stage parses exactly the lines the evaluation parses. Real OCR on real photos from `shared/data`.
@Suite("ingest reads receipts as evaluated", .serialized, .integration, .sharedData("receipts-photos"))
struct IngestReadsAsEvaluatedTests {
    /// Two photos whose total depends on the words' confidences (without them the parser picks another amount).
    static let photos = [
        "Image_66_4_6b8438773301606410b00a7c418ce8e8647457e3",
        "Image_74_6_185",
    ]

    @Test func theStoredReceiptIsTheEvaluatedParse() throws {
        let photos = try #require(SharedData.path("receipts-photos"))
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let input = folder + "/in"
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        for id in Self.photos {
            try FileManager.default.copyItem(atPath: "\(photos)/\(id).jpg", toPath: "\(input)/\(id).jpg")
        }
        let run = try TestSupport.larder(["ingest", "--json", "--db", folder + "/db.sqlite", input])
        #expect(run.status == 0 || run.status == 1, "\(run.stderr)")
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        for id in Self.photos {
            let path = "\(input)/\(id).jpg"
            let document = try #require(try store.document(matching: path))
            let stages = try store.stages(of: document.id)
            let ocrJSON = try #require(stages.first { $0.stage == "ocr" }?.output)
            let ocr = try JSONDecoder().decode(OCRStageOutput.self, from: Data(ocrJSON.utf8))
            #expect(ocr.lines.contains { $0.words?.isEmpty == false }, "\(id): the stored lines keep their words")

            let version = try #require(try store.resultVersions(of: document.id).last)
            let stored = try #require(
                try JSONDecoder().decode(DocumentResult.self, from: Data(version.json.utf8)).receipt, "\(id)")
            let evaluated = ReceiptParser().parse(lines: try OCREngine().recognize(imageAt: path).lines)
            #expect(stored.totals.total == evaluated.total, "\(id)")
            #expect(stored.date == evaluated.date?.iso, "\(id)")
            #expect(stored.items.map(\.total) == evaluated.items.map(\.total), "\(id)")
        }
    }
}
