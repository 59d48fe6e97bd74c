import Foundation
import LarderArchives
import LarderRecipes
import Testing

@testable import LarderCore
@testable import LarderStages

/// Recipe-app exports through the real pipeline (libzip, zlib, SQLite): one recipe per entry, each naming its
/// archive member, and a broken entry reported by name while the others import. The fixtures are written here.
@Suite("app exports in the pipeline")
struct AppExportPipelineTests {
    static func paprikaEntry(_ name: String, _ ingredients: [String], _ steps: [String]) throws -> Data {
        let object: [String: Any] = [
            "name": name, "ingredients": ingredients.joined(separator: "\n"), "directions": steps.joined(separator: "\n"),
            "servings": "2", "prep_time": "10 minutes", "categories": ["Breakfast"], "source_url": "https://example.org/\(name.count)",
        ]
        return Archives.gzip(try JSONSerialization.data(withJSONObject: object))
    }

    static let mealMaster = """
        ---------- Recipe via Meal-Master (tm) v8.05

              Title: Quick Flatbread
         Categories: Bread
              Yield: 4 servings

              2 c  Flour
              1 ts Salt
            3/4 c  Yogurt

          Mix everything into a soft dough and rest it 10 minutes.

          Roll thin and cook in a dry pan for 2 minutes a side.

        -----
        """

    @Test func aPaprikaArchiveAndAMealMasterFileImportEveryRecipe() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        try ZipWriter.write([
            ("Exports/Porridge.paprikarecipe", try Self.paprikaEntry("Porridge", ["1 cup oats", "2 cups milk"], ["Simmer the oats in the milk for 5 minutes."])),
            ("Exports/Omelette.paprikarecipe", try Self.paprikaEntry("Omelette", ["3 eggs", "1 tbsp butter"], ["Beat the eggs.", "Cook in the butter."])),
            ("Exports/Broken.paprikarecipe", Data([0x1F, 0x8B, 0x08, 0x00, 0x01, 0x02])),
            ("__MACOSX/Exports/._Porridge.paprikarecipe", Data([0x00, 0x05, 0x16, 0x07, 0x00])),
        ], to: folder + "/in/export.paprikarecipes")
        try Self.mealMaster.write(toFile: folder + "/in/flatbread.mmf", atomically: true, encoding: .utf8)
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        _ = try Intake(store: store, manifest: .standard(for: PipelineConfig()), config: PipelineConfig())
            .ingest(paths: [folder + "/in"], batchID: store.beginBatch(command: "t", inputs: []))
        try WorkQueue(store: store, pipeline: try .standard(for: PipelineConfig()), config: PipelineConfig(), logger: TestSupport.logger).run()
        var results: [String: DocumentResult] = [:]
        try store.forEachDocument(in: .done) { document in
            let version = try #require(try store.resultVersions(of: document.id).last)
            #expect(version.isValid, "\(version.violations)")
            results[URL(fileURLWithPath: document.path).lastPathComponent] = try JSONDecoder().decode(DocumentResult.self, from: Data(version.json.utf8))
        }
        let archive = try #require(results["export.paprikarecipes"])
        #expect(archive.document.format == .archive)
        #expect(archive.recipes.map(\.title).sorted() == ["Omelette", "Porridge"])
        #expect(Set(archive.recipes.compactMap(\.source.member)) == ["Exports/Porridge.paprikarecipe", "Exports/Omelette.paprikarecipe"])
        #expect(archive.recipes.first { $0.title == "Porridge" }?.allIngredients.map(\.text) == ["1 cup oats", "2 cups milk"])
        #expect(archive.warnings.count == 1)
        #expect(archive.warnings.first?.contains("Exports/Broken.paprikarecipe") == true)
        let flatbread = try #require(results["flatbread.mmf"]?.recipes.first)
        #expect(flatbread.title == "Quick Flatbread")
        #expect(flatbread.allIngredients.map(\.text) == ["2 c Flour", "1 ts Salt", "3/4 c Yogurt"])
        #expect(flatbread.yields?.servings == 4)
        #expect(flatbread.source.member == nil)

        // Export: schema.org (validated as it is written), Cooklang and Paprika, which reads back the same recipes.
        let out = folder + "/out"
        let exporter = RecipeExport(store: store)
        let schemaOrg = try exporter.export(.schemaOrg, to: out + "/s", gzip: Archives.gzip) { try ZipWriter.data($0) }
        #expect(schemaOrg.recipes == 3)
        #expect(schemaOrg.files.map { URL(fileURLWithPath: $0).lastPathComponent }.sorted() == ["omelette.json", "porridge.json", "quick-flatbread.json"])
        let cook = try exporter.export(.cooklang, to: out + "/c", gzip: Archives.gzip) { try ZipWriter.data($0) }
        let porridge = try String(contentsOfFile: try #require(cook.files.first { $0.hasSuffix("porridge.cook") }), encoding: .utf8)
        #expect(porridge.contains("@oats{1%cup}") && porridge.contains("~{5%minutes}"))
        let paprika = try exporter.export(.paprika, to: out + "/p", gzip: Archives.gzip) { try ZipWriter.data($0) }
        let back = try Archives.read(try Data(contentsOf: URL(fileURLWithPath: paprika.files[0])), name: "recipes.paprikarecipes")
        #expect(back.members.count == 3 && back.errors.isEmpty)
    }

    /// A Chowdown site kept as a folder, and a Paprika entry whose ingredients are null: every recipe is in a
    /// result, and what was kept otherwise is a warning of its document (issue 33).
    @Test func aChowdownFolderAndNullIngredientsAreKeptAndNamed() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let site = folder + "/in/site"
        for dir in ["_recipes", "_components"] { try FileManager.default.createDirectory(atPath: site + "/" + dir, withIntermediateDirectories: true) }
        try "---\nlayout: recipe\ntitle: Pizza\ncomponents:\n- Dough\ningredients:\n- 1 cup tomato sauce\ndirections:\n- Bake.\n---\n"
            .write(toFile: site + "/_recipes/pizza.md", atomically: true, encoding: .utf8)
        try "---\nlayout: recipe\ntitle: Dough\ningredients:\n- 500 g flour\ndirections:\n- Knead.\n---\n"
            .write(toFile: site + "/_components/dough.md", atomically: true, encoding: .utf8)
        let toast: [String: Any] = ["name": "Toast", "ingredients": NSNull(), "directions": "Toast the bread.", "uid": "T"]
        try ZipWriter.write([("Toast.paprikarecipe", Archives.gzip(try JSONSerialization.data(withJSONObject: toast)))], to: folder + "/in/toast.paprikarecipes")
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        _ = try Intake(store: store, manifest: .standard(for: PipelineConfig()), config: PipelineConfig())
            .ingest(paths: [folder + "/in"], batchID: store.beginBatch(command: "t", inputs: []))
        try WorkQueue(store: store, pipeline: try .standard(for: PipelineConfig()), config: PipelineConfig(), logger: TestSupport.logger).run()
        var results: [String: DocumentResult] = [:]
        try store.forEachDocument(in: .done) { document in
            let version = try #require(try store.resultVersions(of: document.id).last)
            #expect(version.isValid, "\(version.violations)")
            results[URL(fileURLWithPath: document.path).lastPathComponent] = try JSONDecoder().decode(DocumentResult.self, from: Data(version.json.utf8))
        }
        let pizza = try #require(results["pizza.md"])
        #expect(pizza.recipes.map(\.title) == ["Pizza"])
        #expect(pizza.warnings.contains { $0.contains("component 'Dough'") }, "\(pizza.warnings)")
        let dough = try #require(results["dough.md"])
        #expect(dough.recipes.isEmpty && dough.warnings.contains { $0.contains("Chowdown component") }, "\(dough.warnings)")
        let toastResult = try #require(results["toast.paprikarecipes"])
        #expect(toastResult.recipes.map(\.title) == ["Toast"])
        #expect(toastResult.warnings == ["Toast.paprikarecipe: recipe 'Toast' has no ingredients: kept with 0 ingredients"])
    }

    @Test func detectRecognisesExportsByContent() throws {
        let zip = try DetectStage.detect(Data([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00]), fileName: "backup.bin")
        #expect(zip.format == .archive && zip.appFormat == "zip")
        let gz = try DetectStage.detect(Archives.gzip(Data("{}".utf8)), fileName: "x.paprikarecipe")
        #expect(gz.format == .archive && gz.appFormat == "gzip")
        #expect(try DetectStage.detect(Data(Self.mealMaster.utf8), fileName: "flatbread.txt").appFormat == "mealmaster")
        #expect(try DetectStage.detect(Data("Tomato Soup\n\nIngredients\n2 tomatoes\n".utf8), fileName: "soup.txt").appFormat == nil)
    }
}
