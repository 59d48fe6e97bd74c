import Foundation
import LarderReceipts
import LarderTestSupport
import Testing

@testable import LarderCore

/// Receipt photos through the real pipeline: tesseract OCR in the worker process, parsing, pantry, review.
@Suite("receipt photos", .serialized, .integration)
struct ReceiptStageTests {
    /// A batch of bad photos around one good receipt: a photo that is no receipt (shapes and noise), a blank white
    /// page, a black one, a 100-megapixel image and a truncated JPEG. The batch finishes; each bad file either fails
    /// with an error that names it and says what to do, or is read and sent to review with a valid result; the good
    /// receipt is read as usual.
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
            import random, struct, zlib
            from PIL import Image, ImageDraw
            random.seed(7)
            img = Image.new('RGB', (1200, 900), (120, 160, 90))
            d = ImageDraw.Draw(img)
            for _ in range(60):
                x, y, r = random.randrange(1200), random.randrange(900), random.randrange(20, 160)
                shape = d.ellipse if random.random() < 0.5 else d.rectangle
                shape([x, y, x + r, y + r], fill=tuple(random.randrange(256) for _ in range(3)))
            Image.blend(img, Image.effect_noise((1200, 900), 60).convert('RGB'), 0.35).save('shapes.jpg', quality=85)
            Image.new('L', (800, 1200), 255).save('blank.png')
            Image.new('L', (800, 1200), 0).save('black.png')
            # 10000 x 10000 white PNG, compressed row by row: ~120 KB on disk, ~10 KB of rows in memory.
            def chunk(kind, data):
                return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
            z = zlib.compressobj(9)
            row = bytes([0]) + bytes([255]) * 10000
            idat = b''.join(z.compress(row) for _ in range(10000)) + z.flush()
            header = struct.pack('>IIBBBBB', 10000, 10000, 8, 0, 0, 0, 0)
            open('huge.png', 'wb').write(bytes([137]) + b'PNG' + bytes([13, 10, 26, 10]) + chunk(b'IHDR', header) + chunk(b'IDAT', idat) + chunk(b'IEND', b''))
            data = open('\(TestSupport.repoPath("samples/receipts/corner-grocer.jpg"))', 'rb').read()
            open('corrupt.jpg', 'wb').write(data[:len(data) // 3])
            "
            """)
        #expect(made.status == 0, "\(made.stderr)")
        // The default limits (max_image_pixels 40,000,000).
        let run = try TestSupport.larder(["ingest", "--json", "--db", folder + "/db.sqlite", input])
        #expect(run.status == 1, "partial success exits 1\n\(run.stderr)")
        let summary = try TestSupport.decode(BatchSummary.self, from: run)
        #expect(summary.processed == 6, "the batch finished")
        // Every failure names its file and says what to do.
        for failure in summary.failures {
            #expect(failure.error?.path == failure.path)
            #expect(failure.error?.hint?.isEmpty == false, "\(failure.path): \(failure.error?.message ?? "")")
        }
        // The 100-megapixel image is refused from its header, before anything decodes it, with the key to raise.
        let huge = try #require(summary.failures.first { $0.path.hasSuffix("/huge.png") })
        #expect(huge.error?.kind == .overLimit)
        #expect(huge.error?.message.contains("10000×10000") == true)
        #expect(huge.error?.hint?.contains("max_image_pixels") == true)
        // A truncated JPEG is either read in part (and goes to review) or fails with a clear error.
        if let corrupt = summary.failures.first(where: { $0.path.hasSuffix("/corrupt.jpg") }) {
            #expect(corrupt.error?.kind == .badInput)
            #expect(corrupt.error?.message.contains("corrupt or truncated") == true)
        }
        #expect(summary.failures.allSatisfy { $0.path.hasSuffix("/huge.png") || $0.path.hasSuffix("/corrupt.jpg") })

        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        let queue = try Reviewer(store: store, schemas: SchemaCatalog.embedded.get()).queue()
        for name in ["blank.png", "black.png", "shapes.jpg"] {
            let item = try #require(queue.first { $0.path.hasSuffix("/" + name) }, "\(name) goes to review")
            #expect(item.reasons.contains { $0.message.contains("no items") || $0.message.contains("no total") })
            // An empty receipt is still a valid result: review says why, not that the output is broken.
            #expect(!item.reasons.contains { $0.code == .validation }, "\(name): \(item.reasons.map(\.message))")
            let document = try #require(try store.document(matching: input + "/" + name))
            #expect(try store.resultVersions(of: document.id).last?.isValid == true, "\(name) result is schema-valid")
        }
        #expect(!queue.contains { $0.path.hasSuffix("/good.png") })
        // The good receipt's pantry: base ingredients with allergens, from the real OCR.
        let good = try #require(try store.document(matching: input + "/good.png"))
        let result = try JSONDecoder().decode(
            DocumentResult.self, from: Data(try #require(store.resultVersions(of: good.id).last).json.utf8))
        #expect(result.receipt?.totals.total == Decimal(string: "30.96"))
        #expect(result.receipt?.check.addsUp == true)
        #expect(result.pantry.contains { $0.ingredient == "chicken breast" })
        #expect(result.pantry.contains { $0.ingredient == "milk" && $0.allergens.contains { $0.allergen == .dairy } })
        #expect(result.pantry.allSatisfy { $0.source.receipt == good.sha256 })
    }

    @Test func pantryListsAndExportsTheSampleReceipts() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let db = folder + "/db.sqlite"
        #expect(try TestSupport.larder(["ingest", "--db", db, TestSupport.repoPath("samples/receipts")]).status == 0)
        let json = try TestSupport.larder(["pantry", "--db", db, "--export", "json"])
        let items = try TestSupport.decode([PantryItem].self, from: json)
        #expect(items.count >= 20)
        #expect(items.map(\.ingredient) == items.map(\.ingredient).sorted())
        let chicken = try #require(items.first { $0.ingredient == "chicken breast" })
        #expect(chicken.quantity == Decimal(string: "2.134") && chicken.unit == "pound" && chicken.price == Decimal(string: "8.51"))
        // Packaged goods carry their pack size (issue 12): "WHOLE MILK 1 GAL" is 1 gallon of milk.
        let milk = try #require(items.first { $0.ingredient == "milk" })
        #expect(milk.quantity == 1 && milk.unit == "gallon")
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
