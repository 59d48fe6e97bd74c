import Foundation
import LarderRecipes
import Testing

@testable import LarderCore
@testable import LarderStages

/// The recipe stage inside the real pipeline (real poppler, real SQLite).
@Suite("recipe stage")
struct RecipeStageTests {
    func results(_ files: [String: String]) throws -> [String: DocumentResult] {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: folder + "/in/" + name, atomically: true, encoding: .utf8) }
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        _ = try Intake(store: store, manifest: .standard(for: PipelineConfig()), config: PipelineConfig())
            .ingest(paths: [folder + "/in"], batchID: store.beginBatch(command: "t", inputs: []))
        try WorkQueue(store: store, pipeline: try .standard(for: PipelineConfig()), config: PipelineConfig(), logger: TestSupport.logger).run()
        var results: [String: DocumentResult] = [:]
        try store.forEachDocument(in: .done) { document in
            let json = try #require(try store.resultVersions(of: document.id).last).json
            #expect(try store.resultVersions(of: document.id).last?.isValid == true, "valid against the schema")
            results[URL(fileURLWithPath: document.path).lastPathComponent] =
                try JSONDecoder().decode(DocumentResult.self, from: Data(json.utf8))
        }
        return results
    }

    @Test func textThatIsNotARecipeIsNotForcedIntoOne() throws {
        let results = try results([
            "letter.txt": "Dear Sam,\n\nThank you for the lovely dinner on Saturday. See you next week.\n\nBest,\nAlex\n",
            "lorem.txt": "Lorem ipsum dolor sit amet, consectetur adipiscing elit. Sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.\n",
            "receipt.txt": "FRESH MART\nMILK 2% GAL 3.49\nBREAD 2.99\nEGGS 4.19\nSUBTOTAL 10.67\nTAX 0.00\nTOTAL 10.67\nCASH 20.00\nCHANGE 9.33\n",
            "soup.txt": "Tomato Soup\n\nServes 2\n\nIngredients\n2 tbsp olive oil\n1 onion, chopped\n400 g tinned tomatoes\n\nMethod\n1. Fry the onion in the oil for 5 minutes.\n2. Add the tomatoes and simmer for 20 minutes.\n",
        ])
        for name in ["letter.txt", "lorem.txt"] {
            let result = try #require(results[name])
            #expect(result.recipes.isEmpty, "\(name)")
            #expect(result.kind == .unknown)
            #expect(result.review.needed)
            #expect(result.review.reasons.first?.code == .notRecognised)
        }
        #expect(results["receipt.txt"]?.kind == .receipt)
        #expect(results["receipt.txt"]?.recipes.isEmpty == true)
        let soup = try #require(results["soup.txt"]?.recipes.first)
        #expect(soup.title == "Tomato Soup")
        #expect(soup.allIngredients.map(\.name).contains("onion"))
        #expect(soup.steps.count == 2)
        #expect(soup.steps[1].durations.first?.minutes == 20)
        // Provenance points at the lines the values came from.
        #expect(soup.allIngredients.first?.provenance == Provenance(page: 1, lineStart: 6, lineEnd: 6))
    }

    @Test func pdfTitlesComeFromFontSizesAndRecipesSpanPages() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        _ = try Intake(store: store, manifest: .standard(for: PipelineConfig()), config: PipelineConfig())
            .ingest(paths: [TestSupport.repoPath("samples/recipes/two-recipes.pdf")], batchID: store.beginBatch(command: "t", inputs: []))
        try WorkQueue(store: store, pipeline: try .standard(for: PipelineConfig()), config: PipelineConfig(), logger: TestSupport.logger).run()
        let json = try #require(try store.resultVersions(of: 1).last).json
        let recipes = try JSONDecoder().decode(DocumentResult.self, from: Data(json.utf8)).recipes
        #expect(recipes.map(\.title) == ["Garlic Roast Chicken", "Green Salad"])
        #expect(recipes[0].source.pages == [1, 2], "the chicken runs onto page 2")
        #expect(recipes[0].steps.last?.provenance.page == 2)
        #expect(recipes[1].provenance["title"]?.page == 2)
        #expect(recipes[0].steps.contains { $0.temperatures.contains { $0.value == 220 && $0.unit == "C" } })
    }
}
