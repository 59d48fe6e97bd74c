import Foundation
import Testing

@testable import LarderCore

/// Receipt photos through the real pipeline: tesseract OCR in the worker process, parsing, pantry, review.
@Suite("receipt photos", .serialized)
struct ReceiptStageTests {
    @Test func badImagesGetAClearErrorOrGoToReview() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let input = folder + "/in"
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: TestSupport.repoPath("samples/receipts/freshway-market.png"), toPath: input + "/good.png")
        let made = try TestSupport.shell(
            """
            cd \(input) && /usr/bin/python3 -c "
            from PIL import Image
            Image.new('L', (800, 1200), 255).save('blank.png')
            Image.new('L', (800, 1200), 0).save('black.png')
            Image.new('L', (4000, 3000), 255).save('huge.png')
            " && head -c 3000 good.png > /dev/null && python3 -c "
            d=open('\(TestSupport.repoPath("samples/receipts/corner-grocer.jpg"))','rb').read(); open('corrupt.jpg','wb').write(d[:len(d)//3])
            "
            """)
        #expect(made.status == 0, "\(made.stderr)")
        try "limits:\n  max_image_pixels: 10000000\n".write(toFile: folder + "/p.yml", atomically: true, encoding: .utf8)
        let run = try TestSupport.larder(["ingest", "--json", "--config", folder + "/p.yml", "--db", folder + "/db.sqlite", input])
        #expect(run.status == 1, "\(run.stderr)")
        let summary = try TestSupport.decode(BatchSummary.self, from: run)
        // The batch finished: the good receipt is done, the huge one is over the limit with the key to raise.
        let huge = try #require(summary.failures.first { $0.path.hasSuffix("huge.png") })
        #expect(huge.error?.kind == .overLimit)
        #expect(huge.error?.hint?.contains("max_image_pixels") == true)
        // A truncated JPEG is either read in part (and goes to review) or fails with a clear error.
        if let corrupt = summary.failures.first(where: { $0.path.hasSuffix("corrupt.jpg") }) {
            #expect(corrupt.error?.hint?.isEmpty == false)
        }
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        let queue = try Reviewer(store: store, schemas: SchemaCatalog.embedded.get()).queue()
        for name in ["blank.png", "black.png"] {
            let item = try #require(queue.first { $0.path.hasSuffix(name) }, "\(name) goes to review")
            #expect(item.reasons.contains { $0.message.contains("no items") || $0.message.contains("no total") })
        }
        #expect(!queue.contains { $0.path.hasSuffix("good.png") })
        // The good receipt's pantry: base ingredients with allergens, from the real OCR.
        let good = try #require(try store.document(matching: input + "/good.png"))
        let result = try JSONDecoder().decode(
            DocumentResult.self, from: Data(try #require(store.resultVersions(of: good.id).last).json.utf8))
        #expect(result.receipt?.totals.total == 30.96)
        #expect(result.receipt?.check.adds_up == true)
        #expect(result.pantry.contains { $0.ingredient == "chicken breast" })
        #expect(result.pantry.contains { $0.ingredient == "milk" && $0.allergens.contains { $0.allergen == "dairy" } })
        #expect(result.pantry.allSatisfy { $0.source.receipt == good.sha256 })
    }

    @Test func pantryListsAndExportsTheSampleReceipts() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let db = folder + "/db.sqlite"
        #expect(try TestSupport.larder(["ingest", "--db", db, TestSupport.repoPath("samples/receipts")]).status == 0)
        let json = try TestSupport.larder(["pantry", "--db", db, "--export", "json"])
        let items = try TestSupport.decode([PantryRecord].self, from: json)
        #expect(items.count >= 20)
        #expect(items.map(\.ingredient) == items.map(\.ingredient).sorted())
        let chicken = try #require(items.first { $0.ingredient == "chicken breast" })
        #expect(chicken.quantity == 2.134 && chicken.unit == "lb" && chicken.price == 8.51)
        #expect(chicken.purchaseDate == "2026-03-14")
        // Non-food lines never enter the pantry.
        #expect(!items.contains { ["tax", "total", "cash", "change", "bag"].contains($0.ingredient) })
        let csv = try TestSupport.larder(["pantry", "--db", db, "--export", "csv", "--out", folder + "/pantry.csv"])
        #expect(csv.status == 0)
        let lines = try String(contentsOfFile: folder + "/pantry.csv", encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "ingredient,product,quantity,unit,price,purchase_date,receipt,line,allergens,confidence,needs_review")
        #expect(lines.count == items.count + 1)
        #expect(try TestSupport.larder(["pantry", "--db", db, "--export", "xml"]).status == 2)
    }
}
