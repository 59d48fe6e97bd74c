import Foundation
import LarderReceipts
import LarderTestSupport
import Testing

@testable import LarderCore
@testable import LarderStages

/// PDFs without a text layer through the real pipeline: poppler renders each page, tesseract reads it in the
/// worker process, and the recipe parser reads the OCR lines.
@Suite("scanned PDFs", .serialized, .integration)
struct ScannedPDFTests {
    /// Ingests one file with the real `larder` into `folder/db.sqlite`; returns the store, the document and its
    /// latest result.
    func ingest(_ path: String, in folder: String) throws -> (SQLiteCheckpointStore, DocumentRecord, DocumentResult) {
        let run = try TestSupport.larder(["ingest", "--json", "--db", folder + "/db.sqlite", path])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        let document = try #require(try store.document(matching: path))
        let version = try #require(try store.resultVersions(of: document.id).last)
        #expect(version.isValid, "valid against the schema")
        return (store, document, try JSONDecoder().decode(DocumentResult.self, from: Data(version.json.utf8)))
    }

    @Test func aScannedRecipePageBecomesARecipe() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let scan = folder + "/scanned-recipe.pdf"
        try FileManager.default.copyItem(atPath: TestSupport.repoPath("Tests/Fixtures/scanned-recipe.pdf"), toPath: scan)
        let (store, document, result) = try ingest(scan, in: folder)
        // The OCR stage read the rendered page: lines with their page, confidence and box.
        let stages = try store.stages(of: document.id)
        let ocrJSON = try #require(stages.first { $0.stage == "ocr" }?.output)
        let ocr = try JSONDecoder().decode(OCRStageOutput.self, from: Data(ocrJSON.utf8))
        #expect(ocr.skipped == nil)
        #expect(ocr.pages.map(\.number) == [1])
        #expect(ocr.pages.first?.resolution == 300)
        #expect(ocr.lines.count >= 15)
        #expect(ocr.lines.allSatisfy { $0.page == 1 && $0.box.width > 0 })
        #expect(ocr.meanConfidence > 80)

        #expect(result.kind == .recipe)
        let recipe = try #require(result.recipes.first)
        #expect(recipe.title == "Harvest Barley Soup")
        #expect(recipe.yields?.servings == 4)
        let ingredients = recipe.ingredientGroups.flatMap(\.ingredients)
        #expect(ingredients.count == 9, "\(ingredients.map(\.text))")
        #expect(ingredients.contains { $0.name == "pearl barley" && $0.quantity?.value == 150 && $0.unit == "gram" })
        #expect(ingredients.contains { $0.name == "olive oil" && $0.unit == "tablespoon" })
        #expect(recipe.steps.count == 4)
        // OCR read it with confidence: no `needs-ocr`, nothing to review.
        #expect(!result.review.reasons.contains { $0.code == .needsOCR })
        #expect(!result.review.needed, "\(result.review.reasons)")
    }

    /// A receipt scanned to PDF is read like a receipt photo: its page is read again as one block, so item names
    /// keep their prices.
    @Test func aScannedReceiptBecomesAReceipt() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let scan = folder + "/receipt-scan.pdf"
        let made = try TestSupport.shell(
            """
            /usr/bin/python3 -c "
            import cairo
            from PIL import Image
            im = Image.open('\(TestSupport.repoPath("samples/receipts/freshway-market.png"))').convert('RGB')
            w, h = im.size
            data = bytearray(im.tobytes('raw', 'BGRX'))
            surface = cairo.ImageSurface.create_for_data(data, cairo.FORMAT_RGB24, w, h, w * 4)
            pdf = cairo.PDFSurface('\(scan)', w * 72 / 300, h * 72 / 300)
            c = cairo.Context(pdf); c.scale(72 / 300, 72 / 300); c.set_source_surface(surface); c.paint(); pdf.finish()
            "
            """)
        #expect(made.status == 0, "\(made.stderr)")
        let (_, _, result) = try ingest(scan, in: folder)
        #expect(result.kind == .receipt)
        #expect(result.receipt?.totals.total == Decimal(string: "30.96"))
        #expect(result.receipt?.check.addsUp == true)
        #expect(result.pantry.contains { $0.ingredient == "chicken breast" })
        #expect(!result.review.needed, "\(result.review.reasons)")
    }

    /// A blank page scanned: OCR finds no text, so the document still goes to review as `needs-ocr`.
    @Test func aScanWithNoTextStillNeedsAPerson() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let scan = folder + "/blank-scan.pdf"
        let made = try TestSupport.shell(
            """
            /usr/bin/python3 -c "
            import cairo
            s = cairo.ImageSurface(cairo.FORMAT_RGB24, 400, 560)
            c = cairo.Context(s); c.set_source_rgb(1, 1, 1); c.paint()
            p = cairo.PDFSurface('\(scan)', 288, 403); pc = cairo.Context(p)
            pc.scale(0.72, 0.72); pc.set_source_surface(s); pc.paint(); p.finish()
            "
            """)
        #expect(made.status == 0, "\(made.stderr)")
        let (_, _, result) = try ingest(scan, in: folder)
        #expect(result.review.reasons.contains { $0.code == .needsOCR && $0.message.contains("OCR found no text") })
    }
}
