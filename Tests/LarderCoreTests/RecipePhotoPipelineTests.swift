import Foundation
import LarderArchives
import LarderRecipes
import LarderTestSupport
import Testing

@testable import LarderCore
@testable import LarderStages

/// Recipe photos through the real pipeline (issue 33): a Paprika entry's `photo_data`, the `full.jpg` beside a
/// Nextcloud `recipe.json` (in a folder and in a zip), the image beside a `.cook` file: each kept once, by hash, in
/// `extract`'s output, referred to by the recipe, never a document (receipt) of its own, and written back by every
/// export format.
@Suite("recipe photos in the pipeline")
struct RecipePhotoPipelineTests {
    /// Image-like bytes: the format's signature, then seeded noise.
    static func image(_ signature: [UInt8], seed: UInt64, count: Int = 900) -> Data {
        var state = seed
        var bytes = signature
        while bytes.count < count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes.append(UInt8(truncatingIfNeeded: state >> 33))
        }
        return Data(bytes)
    }

    static let jpegA = image([0xFF, 0xD8, 0xFF, 0xE0], seed: 11)
    static let jpegB = image([0xFF, 0xD8, 0xFF, 0xE1], seed: 12)
    static let thumb = image([0xFF, 0xD8, 0xFF, 0xE0], seed: 13, count: 200)
    static let png = image([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], seed: 14)

    static func schemaOrg(_ name: String) -> Data {
        Data(#"{"@context": "https://schema.org", "@type": "Recipe", "name": "\#(name)", "recipeIngredient": ["2 eggs", "100 g flour"], "recipeInstructions": [{"@type": "HowToStep", "text": "Mix and bake."}]}"#.utf8)
    }

    static func write(_ data: Data, _ path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// Ingests `paths` into a new store and runs the queue; the done documents' results by file name.
    static func run(_ paths: [String], db: String) throws -> (SQLiteCheckpointStore, [String: DocumentResult]) {
        let store = try SQLiteCheckpointStore(path: db)
        _ = try Intake(store: store, manifest: .standard(for: PipelineConfig()), config: PipelineConfig())
            .ingest(paths: paths, batchID: store.beginBatch(command: "t", inputs: []))
        try WorkQueue(store: store, pipeline: try .standard(for: PipelineConfig()), config: PipelineConfig(), logger: TestSupport.logger).run()
        var results: [String: DocumentResult] = [:]
        for state in DocumentState.allCases {
            try store.forEachDocument(in: state) { document in
                guard let version = try store.resultVersions(of: document.id).last else { return }
                #expect(version.isValid, "\(version.violations)")
                results[URL(fileURLWithPath: document.path).lastPathComponent] = try JSONDecoder().decode(DocumentResult.self, from: Data(version.json.utf8))
            }
        }
        return (store, results)
    }

    static func photo(_ data: Data, _ type: String) -> RecipePhoto {
        RecipePhoto(sha256: SHA256.hex(data), mediaType: type, bytes: data.count)
    }

    @Test func photosAreKeptOnceByHashAndWrittenBackByEveryFormat() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let porridge: [String: Any] = [
            "name": "Porridge", "ingredients": "1 cup oats\n2 cups milk", "directions": "Simmer the oats.",
            "photo_data": Self.jpegA.base64EncodedString(), "uid": "P",
        ]
        let omelette: [String: Any] = ["name": "Omelette", "ingredients": "3 eggs", "directions": "Cook.", "uid": "O"]
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        try ZipWriter.write([
            ("Porridge.paprikarecipe", Archives.gzip(try JSONSerialization.data(withJSONObject: porridge))),
            ("Omelette.paprikarecipe", Archives.gzip(try JSONSerialization.data(withJSONObject: omelette))),
        ], to: folder + "/in/export.paprikarecipes")
        try Self.write(Self.schemaOrg("Quiche"), folder + "/in/Recipes/Quiche/recipe.json")
        try Self.write(Self.jpegB, folder + "/in/Recipes/Quiche/full.jpg")
        try Self.write(Self.thumb, folder + "/in/Recipes/Quiche/thumb.jpg")
        try ZipWriter.write([
            ("Recipes/Soup/recipe.json", Self.schemaOrg("Soup")), ("Recipes/Soup/full.jpg", Self.png),
            ("Recipes/Soup/thumb.jpg", Self.thumb), ("Recipes/Stew/recipe.json", Self.schemaOrg("Stew")),
        ], to: folder + "/in/nextcloud.zip")
        try Self.write(Data("---\ntitle: \"Pasta\"\n---\n\nBoil @pasta{200%g} for ~{10%minutes}.\n".utf8), folder + "/in/Pasta.cook")
        try Self.write(Self.jpegA, folder + "/in/Pasta.jpg")

        let (store, results) = try Self.run([folder + "/in"], db: folder + "/db.sqlite")
        // No photo became a document of its own.
        #expect(Set(results.keys) == ["export.paprikarecipes", "recipe.json", "nextcloud.zip", "Pasta.cook"], "\(results.keys)")
        let paprika = try #require(results["export.paprikarecipes"])
        #expect(paprika.recipes.first { $0.title == "Porridge" }?.photo == Self.photo(Self.jpegA, "image/jpeg"))
        #expect(paprika.recipes.first { $0.title == "Omelette" }?.photo == nil)
        #expect(results["recipe.json"]?.recipes.first?.photo == Self.photo(Self.jpegB, "image/jpeg"))
        let nextcloud = try #require(results["nextcloud.zip"])
        #expect(nextcloud.recipes.first { $0.title == "Soup" }?.photo == Self.photo(Self.png, "image/png"))
        #expect(nextcloud.recipes.first { $0.title == "Stew" }?.photo == nil)
        #expect(results["Pasta.cook"]?.recipes.first?.photo == Self.photo(Self.jpegA, "image/jpeg"))

        // The bytes once, in extract's output; none in any result.
        let base64 = String(Self.jpegA.base64EncodedString().prefix(40))
        try store.forEachDocument(in: .done) { document in
            let stages = try store.stages(of: document.id)
            let extract = try #require(stages.first { $0.stage == "extract" }?.output)
            let times = extract.components(separatedBy: base64).count - 1
            let name = URL(fileURLWithPath: document.path).lastPathComponent
            #expect(times == (["export.paprikarecipes", "Pasta.cook"].contains(name) ? 1 : 0), "\(name): \(times)")
            for stage in stages where stage.stage != "extract" { #expect(stage.output?.contains(base64) != true, "\(name) \(stage.stage)") }
        }

        // Written back: Paprika's photo_data, Cooklang's image beside the file, schema.org's image.
        let out = folder + "/out"
        let exporter = RecipeExport(store: store)
        let paprikaOut = try exporter.export(.paprika, to: out + "/p", gzip: Archives.gzip) { try ZipWriter.data($0) }
        let entries = try Archives.read(try Data(contentsOf: URL(fileURLWithPath: paprikaOut.files[0])), name: "recipes.paprikarecipes").members
        let porridgeEntry = try #require(entries.first { $0.path.hasPrefix("Porridge") })
        let porridgeJSON = try #require(try JSONSerialization.jsonObject(with: porridgeEntry.data) as? [String: Any])
        #expect((porridgeJSON["photo_data"] as? String).flatMap { Data(base64Encoded: $0) } == Self.jpegA)
        let cook = try exporter.export(.cooklang, to: out + "/c", gzip: Archives.gzip) { try ZipWriter.data($0) }
        let names = Set(cook.files.map { URL(fileURLWithPath: $0).lastPathComponent })
        #expect(names.isSuperset(of: ["porridge.cook", "porridge.jpg", "quiche.jpg", "soup.png", "pasta.jpg"]), "\(names)")
        #expect(FileManager.default.contents(atPath: out + "/c/soup.png") == Self.png)
        let schemaOrg = try exporter.export(.schemaOrg, to: out + "/s", gzip: Archives.gzip) { try ZipWriter.data($0) }
        let quiche = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/s/quiche.json"))) as? [String: Any])
        #expect(quiche["image"] as? String == "data:image/jpeg;base64," + Self.jpegB.base64EncodedString())
        #expect(schemaOrg.recipes == 6)

        // And read again: each format's export gives the photos back, by the same hash.
        let (_, again) = try Self.run([out + "/p", out + "/c", out + "/s"], db: folder + "/again.sqlite")
        let paprikaAgain = try #require(again["recipes.paprikarecipes"])
        #expect(paprikaAgain.recipes.first { $0.title == "Soup" }?.photo == Self.photo(Self.png, "image/png"))
        #expect(again["pasta.cook"]?.recipes.first?.photo == Self.photo(Self.jpegA, "image/jpeg"))
        #expect(again["quiche.json"]?.recipes.first?.photo == Self.photo(Self.jpegB, "image/jpeg"))
        #expect(again["quiche.json"]?.recipes.first?.allIngredients.map(\.text) == ["2 eggs", "100 g flour"])
        #expect(again.count == 1 + 6 + 6, "\(again.keys.sorted())")
    }
}

extension RecipePhotoPipelineTests {
    /// A Chowdown site kept as a folder: `image: okra.jpg` is `images/okra.jpg`, and the site's images are never
    /// documents of their own.
    @Test func aChowdownSiteFoldersImagesAreItsRecipesPhotos() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let site = folder + "/in/site"
        try Self.write(Data("---\nlayout: recipe\ntitle: Okra\nimage: okra.jpg\ningredients:\n- 1 bunch okra\ndirections:\n- Roast.\n---\n".utf8), site + "/_recipes/okra.md")
        try Self.write(Data("---\nlayout: recipe\ntitle: Plain\ningredients:\n- 1 egg\ndirections:\n- Boil.\n---\n".utf8), site + "/_recipes/plain.md")
        try Self.write(Self.jpegA, site + "/images/okra.jpg")
        try Self.write(Self.png, site + "/images/unused.png")
        let (_, results) = try Self.run([folder + "/in"], db: folder + "/db.sqlite")
        #expect(Set(results.keys) == ["okra.md", "plain.md"], "\(results.keys)")
        #expect(results["okra.md"]?.recipes.first?.photo == Self.photo(Self.jpegA, "image/jpeg"))
        #expect(results["plain.md"]?.recipes.first?.photo == nil)
    }

    /// Photos have a budget of their own (a quarter of `limits.max_stage_output_bytes`): one over it is a warning
    /// naming it, and its recipe is kept, without it.
    @Test func aPhotoOverItsBudgetIsNamedAndItsRecipeKept() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let big = Self.image([0xFF, 0xD8, 0xFF, 0xE0], seed: 21, count: 6000)
        try ZipWriter.write([("Soup/recipe.json", Self.schemaOrg("Soup")), ("Soup/full.jpg", big)], to: folder + "/soup.zip")
        var config = PipelineConfig()
        config.limits.maxStageOutputBytes = 16 * 1024  // photos: 4 KiB of base64; this one is 8,000
        let outcome = try DocumentRunner(config: config).run(path: folder + "/soup.zip")
        let result = try #require(outcome.result, "\(String(describing: outcome.failure))")
        #expect(result.recipes.map(\.title) == ["Soup"])
        #expect(result.recipes.first?.photo == nil)
        #expect(result.warnings.contains { $0.contains("Soup/full.jpg") && $0.contains("photo not kept") }, "\(result.warnings)")
    }
}

/// The photos of the shared app-export samples, read by the stages (``DocumentRunner``, the user's path): Paprika's
/// `photo_data` (5), Nextcloud's `full.jpg` (2 of 3 recipes have one), Mealie's `images/original.webp` (3), Chowdown's
/// `image:` files (2), Copy Me That's `recipeImage` files (3), Tandoor's `image.jpeg` (1).
@Suite("recipe photos of the shared exports", .sharedData("recipe-app-exports/mealie"))
struct SharedRecipePhotoTests {
    @Test func everyPhotoAnExportCarriesIsKept() throws {
        let runner = try DocumentRunner(config: PipelineConfig())
        let expected = ["paprika.zip": 5, "nextcloud.zip": 2, "mealie.zip": 3, "chowdown.zip": 2, "copymethat.zip": 3, "tandoor.zip": 1]
        for (file, count) in expected.sorted(by: { $0.key < $1.key }) {
            let outcome = runner.run(path: SharedData.path("recipe-app-exports/mealie/" + file)!)
            let recipes = try #require(outcome.result?.recipes, "\(file): \(String(describing: outcome.failure))")
            let photos = recipes.compactMap(\.photo)
            #expect(photos.count == count, "\(file): \(photos.count) of \(recipes.count) recipes have a photo")
            #expect(Set(photos.map(\.sha256)).count == photos.count, "\(file): two recipes share a photo")
            // The bytes are in extract's output, once each, and only the photos (no thumbnails).
            let extract = try #require(outcome.outputs["extract"])
            let images = try JSONDecoder().decode(ExtractOutputImages.self, from: Data(extract.utf8)).images ?? []
            #expect(Set(images.map(\.photo)) == Set(photos), "\(file)")
            for image in images { #expect(image.bytes.map(SHA256.hex) == image.photo.sha256) }
        }
    }

    struct ExtractOutputImages: Decodable { var images: [ExtractedImage]? }
}
