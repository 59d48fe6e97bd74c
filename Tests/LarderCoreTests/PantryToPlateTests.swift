import Foundation
import LarderJSON
import LarderStages
import LarderRecipes
import LarderTestSupport
import Testing

@testable import LarderCore

/// `larder cook`, `larder search` and scaled exports over the project's own samples (samples/recipes and
/// samples/receipts, ingested once with the real pipeline: OCR, parsers, the checkpoint store and its index).
@Suite("pantry to plate", .serialized, .integration)
struct PantryToPlateTests {
    /// One database with every sample ingested, shared by the tests that only read it.
    static let samples: Result<String, any Error> = Result {
        let folder = try TestSupport.temporaryFolder("pantryToPlate")
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        let config = PipelineConfig()
        _ = try Intake(store: store, manifest: .standard(for: config), config: config).ingest(
            paths: [TestSupport.repoPath("samples/recipes"), TestSupport.repoPath("samples/receipts")],
            batchID: store.beginBatch(command: "test", inputs: []))
        try WorkQueue(store: store, pipeline: try .standard(for: config), config: config, logger: TestSupport.logger).run()
        return folder + "/db.sqlite"
    }

    static func store() throws -> SQLiteCheckpointStore { try SQLiteCheckpointStore(path: samples.get()) }

    // MARK: cook

    /// The demo receipts, counted from three days after the corner grocer's (2026-11-02): its lentils,
    /// tomatoes, onion, garlic, oil and cilantro make the red lentil soup, short of cumin and stock.
    @Test func cookRanksTheLentilSoupFirstWithWhatToBuy() throws {
        let planner = CookPlanner(config: PantryConfig(), asOf: "2026-11-05")
        let suggestions = try planner.suggestions(store: Self.store(), limit: 10, missingAtMost: nil)
        let top = try #require(suggestions.first)
        #expect(top.title == "Red Lentil Soup")
        #expect(top.missing.map(\.ingredient) == ["2 tsp ground cumin", "4 cups vegetable stock"])
        #expect(top.missing.map(\.base) == ["cumin", "vegetable stock"])
        #expect(top.assumed == ["salt to taste"])
        #expect(top.coverage == 0.75)
        // 1 cup of lentils (192 g through the density table) against the 2 lb bag bought.
        let lentils = try #require(top.have.first { $0.base == "lentils" })
        #expect(lentils.pantryItem == "RED LENTILS 2LB")
        #expect(lentils.purchaseDate == "2026-11-02")
        #expect(lentils.quantity.status == "enough")
        // 1 kg of tomatoes for the roasted soup is more than the 28 oz can: short.
        let soup = try #require(suggestions.first { $0.title == "Roasted Tomato Soup" })
        #expect(soup.have.first { $0.base == "tomato" }?.quantity.status == "short")
        // A garlic clove is no measure Larder can weigh: it says so instead of guessing.
        #expect(top.have.first { $0.base == "garlic" }?.quantity.detail.hasPrefix("could not tell") == true)
    }

    /// Ten months on, the dairy and fruit of January's receipt are stale and go on the shopping list.
    @Test func staleItemsAgeOutByKind() throws {
        let planner = CookPlanner(config: PantryConfig(), asOf: "2026-11-05")
        let oats = try #require(try planner.suggestions(store: Self.store(), limit: 20, missingAtMost: nil)
            .first { $0.title == "Honey Almond Overnight Oats" })
        #expect(Set(oats.have.map(\.base)) == ["oats", "honey", "almond butter"])
        let yogurt = try #require(oats.missing.first { $0.base == "yogurt" })
        #expect(yogurt.stale?.contains("dairy keeps 14 days") == true)
        // The day after the valley foods receipt, the same recipe lacks only the cinnamon and the milk (bought
        // later, in March).
        let fresh = CookPlanner(config: PantryConfig(), asOf: "2026-01-28")
        let morning = try #require(try fresh.suggestions(store: Self.store(), limit: 20, missingAtMost: 2).first)
        #expect(morning.title == "Honey Almond Overnight Oats")
        #expect(morning.missing.map(\.ingredient) == ["1 cup milk", "a pinch of ground cinnamon"])
        #expect(morning.missing.first?.stale == "bought 2026-03-14, after 2026-01-28")
    }

    /// `suggestions` counts coverage in SQL and reads only the recipes shown; ranking every indexed recipe in
    /// memory by `rank` must give the same list, whatever the day (stale items) and the missing limit.
    @Test(arguments: ["2026-01-28", "2026-03-15", "2026-11-05", "2027-06-01"])
    func rankingInSQLMatchesRankingEveryRecipe(asOf: String) throws {
        let store = try Self.store()
        let planner = CookPlanner(config: PantryConfig(), asOf: asOf)
        let pantry = try store.indexedPantry()
        let everything = try store.indexedRecipes(using: Array(Set(try store.indexedRecipeBases())))
        #expect(everything.count >= 10)
        for (limit, missing) in [(100, nil), (3, nil), (100, 2), (1, 0)] as [(Int, Int?)] {
            let expected = planner.rank(everything, pantry: pantry, limit: limit, missingAtMost: missing)
            #expect(try planner.suggestions(store: store, limit: limit, missingAtMost: missing) == expected,
                    "limit \(limit), missing at most \(missing.map(String.init) ?? "any")")
        }
    }

    /// "ground cumin" in a recipe meets "cumin seeds" in the pantry through the lexicon's parents.
    @Test func relatedFormsMeetThroughTheLexicon() throws {
        let planner = CookPlanner(config: PantryConfig(), asOf: "2026-11-05")
        let recipe = CookPlanner.RecipeEntry(
            documentID: 1, path: "x", recipe: 0, title: "Spiced",
            ingredients: [
                .init(text: "2 tsp ground cumin", base: "cumin", parent: nil, alternatives: [], quantity: 2, unit: "teaspoon", optional: false),
                .init(text: "1 tsp coriander seeds", base: "coriander seeds", parent: "coriander", alternatives: [], quantity: 1,
                      unit: "teaspoon", optional: false),
            ])
        let pantry = [
            CookPlanner.PantryEntry(ingredient: "cumin seeds", product: "CUMIN SEEDS 2OZ", quantity: nil, unit: nil,
                                    purchaseDate: "2026-11-01", receipt: "r", line: 3),
            CookPlanner.PantryEntry(ingredient: "coriander", product: "CORIANDER", quantity: nil, unit: nil,
                                    purchaseDate: "2026-11-01", receipt: "r", line: 4),
        ]
        let s = try #require(planner.rank([recipe], pantry: pantry, limit: 5, missingAtMost: nil).first)
        #expect(s.missing.isEmpty)
        #expect(s.have.map(\.match) == ["same food in another form (cumin)", "same food in another form (coriander)"])
    }

    // MARK: search

    @Test func searchFindsByTitleIngredientAndStepWords() throws {
        let store = try Self.store()
        func titles(_ text: String, _ change: (inout RecipeSearchQuery) -> Void = { _ in }) throws -> [String] {
            var q = RecipeSearchQuery()
            q.text = text
            change(&q)
            return try store.searchRecipes(q).map(\.title)
        }
        #expect(try titles("lentil").first == "Red Lentil Soup")
        #expect(try titles("drizzle").first == "Lemon Drizzle Cake", "a title word ranks its recipe first")
        // Porter stemming: "blending" finds "Blend until smooth" and "blend half of the soup".
        #expect(Set(try titles("blending")) == ["Roasted Tomato Soup", "Red Lentil Soup"])
        #expect(try titles("chickpeas").contains("Squash and Aubergine Traybake"))
        #expect(try titles("zzzunknown").isEmpty)
        // Base-ingredient filter: ground cumin, cumin seeds and the chili's and the saved shakshuka page's cumin all
        // count as cumin.
        #expect(Set(try titles("") { $0.ingredients = ["cumin"] })
                == ["Red Lentil Soup", "Squash and Aubergine Traybake", "Three Bean Chili", "Weeknight Shakshuka"])
        #expect(try titles("") { $0.ingredients = ["cumin", "lentils"] } == ["Red Lentil Soup"])
        #expect(try titles("") { $0.maxMinutes = 15 } == ["Green Salad", "Honey Almond Overnight Oats"])
        #expect(Set(try titles("") { $0.mealType = "breakfast" }) == ["Honey Almond Overnight Oats", "Weeknight Shakshuka"])
        #expect(try titles("") { $0.cuisine = "indian" } == ["Red Lentil Soup"])
        let vegan = try titles("") { $0.diets = ["vegan"] }
        #expect(vegan.contains("Red Lentil Soup") && !vegan.contains("Squash and Aubergine Traybake"))
        let noDairy = try titles("") { $0.without = ["dairy"] }
        #expect(noDairy.contains("Three Bean Chili") && !noDairy.contains("Buttermilk Pancakes"))
        #expect(throws: LarderError.self) { try titles("") { $0.diets = ["paleo"] } }
    }

    /// A short page is the start of a long one (the path is joined only for the page shown), with and without
    /// words and filters; and the read-only store for queries answers like the writer.
    @Test func pagesAreThePrefixOfTheWholeList() throws {
        let store = try Self.store()
        let reader = try SQLiteCheckpointStore.forQueries(path: try Self.samples.get())
        for (text, diet) in [("", nil), ("soup", nil), ("the", nil), ("", "vegetarian"), ("the", "vegetarian")] as [(String, String?)] {
            var q = RecipeSearchQuery()
            q.text = text
            q.diets = diet.map { [$0] } ?? []
            q.limit = 100
            let all = try store.searchRecipes(q)
            #expect(all.count >= 2, "'\(text)' \(diet ?? "")")
            q.limit = 2
            #expect(try store.searchRecipes(q) == Array(all.prefix(2)), "'\(text)' \(diet ?? "")")
            #expect(try reader.searchRecipes(q) == Array(all.prefix(2)))
        }
    }

    /// The index follows review edits, survives reopening, and rebuilds from the results.
    @Test func indexFollowsReviewEditsAndRebuilds() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        try FileManager.default.copyItem(atPath: try Self.samples.get(), toPath: folder + "/db.sqlite")
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        var q = RecipeSearchQuery()
        q.text = "lentil"
        let hit = try #require(try store.searchRecipes(q).first)
        var result = try #require(try Exporter(store: store).exportableResult(hit.documentID))
        result.recipes[0].title = "Masoor Dal"
        let json = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
        _ = try store.addHumanVersion(documentID: hit.documentID, json: json, note: "renamed")
        q.text = "masoor"
        #expect(try store.searchRecipes(q).map(\.title) == ["Masoor Dal"])
        let reopened = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        #expect(try reopened.searchRecipes(q).map(\.title) == ["Masoor Dal"])
        #expect(try reopened.reindexRecipes() == 12)  // the samples' recipes, the two saved pages' included
        #expect(try reopened.searchRecipes(q).map(\.title) == ["Masoor Dal"])
    }

    // MARK: scaling

    /// `export --servings 8 --units metric`: every recipe that states servings is scaled, and every file is
    /// still valid against result.schema.json.
    @Test func scaledExportsStaySchemaValid() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let store = try Self.store()
        let report = try Exporter(store: store, scaler: RecipeScaler(servings: 8, units: .metric)).export(to: folder)
        #expect(report.written == 14)  // every sample document, the two saved pages included
        let catalog = try SchemaCatalog.embedded.get()
        var scaled = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let json = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            #expect(try catalog.validate(json: json, against: "result.schema.json").isEmpty, "\(file)")
            let result = try JSONDecoder().decode(DocumentResult.self, from: Data(json.utf8))
            scaled += result.recipes.filter { $0.scaling?.servings == 8 }.count
        }
        #expect(scaled >= 8)
    }
}

/// `pantry:` in pipeline.yml.
@Suite struct PantryConfigTests {
    @Test func keysChangeTheDefaultsAndBadKindsAreNamed() throws {
        let config = try PipelineConfig.parse(yaml: "pantry:\n  staples: [Salt, flour]\n  fresh_days: {dairy: 30}\n")
        #expect(config.pantry.staples == ["salt", "flour"])
        #expect(config.pantry.freshDays["dairy"] == 30)
        #expect(config.pantry.freshDays["meat"] == 3, "other kinds keep their default")
        let error = #expect(throws: LarderError.self) {
            try PipelineConfig.parse(yaml: "pantry:\n  fresh_days: {snacks: 3}\n")
        }
        #expect(error?.description.contains("pantry.fresh_days") == true)
        #expect(throws: LarderError.self) { try PipelineConfig.parse(yaml: "pantry:\n  stapels: [salt]\n") }
        // The repository's pipeline.yml states the defaults.
        let file = try PipelineConfig.load(path: TestSupport.repoPath("pipeline.yml"))
        #expect(file.pantry == PantryConfig())
    }

    /// `--as-of` and purchase dates: days since 1970 computed, impossible days refused.
    @Test func daysAreCountedFrom1970() {
        #expect(CookPlanner.day("1970-01-01") == 0)
        #expect(CookPlanner.day("2026-11-05") == Double(20_762 * 86_400))
        #expect(CookPlanner.day("2024-02-29") == Double(19_782 * 86_400))
        for bad in ["2026-02-29", "2026-13-01", "2026-1-05", "05.11.2026", "2026-11-05x", ""] {
            #expect(CookPlanner.day(bad) == nil, "\(bad)")
        }
    }

    @Test func kindsComeFromTheLexiconCategory() {
        #expect(PantryConfig.kind(category: "dairy", ingredient: "yogurt") == "dairy")
        #expect(PantryConfig.kind(category: "nuts", ingredient: "almond butter") == "pantry")
        #expect(PantryConfig.kind(category: "vegetables", ingredient: "onion") == "roots")
        #expect(PantryConfig.kind(category: "vegetables", ingredient: "tomato") == "produce")
        #expect(PantryConfig.kind(category: "poultry", ingredient: "chicken breast") == "meat")
        #expect(PantryConfig.kind(category: "cereals", ingredient: "oats") == "pantry")
    }
}
