import Foundation
import LarderJSON
import LarderRecipes
import LarderTestSupport
import Testing

@testable import LarderCore
@testable import LarderStages

/// Issue 18: the `recipe` stage writes its output with the recipe contract's ``SortedJSONBuilder`` code
/// (`Contracts/RecipeSortedJSON.swift`) instead of `SortedJSONEncoder` over `Encodable`. The stored bytes, the tree
/// the result's schema check walks and the bytes the result reuses must all be the encoder's, so every test here
/// compares the two on real parser output (text, Markdown, PDFs and saved web pages through the real pipeline, scaled
/// recipes) and on values made to reach every member.
@Suite("recipe output: the builder writes what the encoder writes")
struct RecipeJSONTests {
    /// What a later stage encodes with the recipes inside (as the result does).
    struct Later: Codable, Sendable, Equatable {
        var kind: String
        var recipes: [Recipe]
    }

    /// Compares the builder's encoding of `output` with the encoder's: text, tree, and reuse by a later encoding.
    static func expectSame(_ output: RecipeStageOutput, _ name: String) throws {
        let built = try output.encoded()
        let encoded = try SortedJSONEncoder().encodeWithTree(output)
        #expect(built.text == encoded.text, "\(name)")
        #expect(built.jsonValue() == encoded.jsonValue(), "\(name)")
        let reuse = try #require(SortedJSONReuse(output.recipes, in: built, member: "recipes"), "\(name)")
        let later = Later(kind: "recipe", recipes: output.recipes)
        let reused = try SortedJSONEncoder().encodeWithTree(later, reusing: [reuse])
        let fresh = try SortedJSONEncoder().encodeWithTree(later)
        #expect(reused.text == fresh.text, "\(name)")
        #expect(reused.jsonValue() == fresh.jsonValue(), "\(name)")
    }

    /// Compares the stored form written in the builder's pass (``RecipeStageOutput/encodedAndStored(lines:)``) with
    /// the one-pass rewrite of the encoder's text and with the definition (parsing it); returns how many texts it
    /// replaced by line references.
    @discardableResult
    static func expectSameStored(_ output: RecipeStageOutput, lines: [SourceLine], _ name: String) throws -> Int {
        let made = try output.encodedAndStored(lines: lines)
        let text = try SortedJSONEncoder().encodeToString(output)
        #expect(made.encoding.text == text, "\(name)")
        #expect(made.stored == RecipeTextCompactor.compact(text, lines: lines), "\(name)")
        #expect(made.stored == (try LineReferences.compactRecipesByParsing(text, lines: lines)), "\(name)")
        return made.stored.components(separatedBy: "\"textAt\"").count - 1
    }

    /// Parses and enriches every text and Markdown recipe in `folder` as the stage does, and compares the builder
    /// with the encoder on each, and on each scaled to 7 servings (which sets `scaling` and `scaledFrom`).
    static func compareFolder(_ folder: String, limit: Int) throws -> (files: Int, recipes: Int, scaled: Int, references: Int) {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            .filter { $0.hasSuffix(".txt") || $0.hasSuffix(".md") }.prefix(limit)
        var recipeCount = 0
        var scaledCount = 0
        var references = 0
        for name in names {
            let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
            let lines = LineReferenceTests.lines(of: text)
            let source = RecipeSource(file: name, sha256: "00", format: name.hasSuffix(".md") ? "markdown" : "text", lines: lines)
            var recipes = RecipeParser().parse(source)
            try RecipeEnrichment.bundled().enrich(&recipes)
            try expectSame(RecipeStageOutput(recipes: recipes, skipped: nil), name)
            references += try expectSameStored(RecipeStageOutput(recipes: recipes, skipped: nil), lines: lines, name)
            let scaled = recipes.compactMap { try? RecipeScaler(servings: 7, units: .metric).scale($0) }
            if !scaled.isEmpty {
                try expectSame(RecipeStageOutput(recipes: scaled, skipped: nil), name + " scaled")
                try expectSameStored(RecipeStageOutput(recipes: scaled, skipped: nil), lines: lines, name + " scaled")
            }
            recipeCount += recipes.count
            scaledCount += scaled.count
        }
        return (names.count, recipeCount, scaledCount, references)
    }

    @Test func theTextAndMarkdownSamples() throws {
        let compared = try Self.compareFolder(Repository.path("samples/recipes"), limit: 100)
        #expect(compared.files >= 6 && compared.recipes >= 6)
        #expect(compared.scaled >= 3, "scaling reaches `scaling` and `scaledFrom`")
        #expect(compared.references >= 40, "the samples' ingredients and steps refer to their lines")
    }

    @Test(.sharedData("recipes-markdown/content"), .slow)
    func theSharedMarkdownRecipes() throws {
        let compared = try Self.compareFolder(SharedData.path("recipes-markdown/content")!, limit: 400)
        #expect(compared.files >= 300 && compared.recipes >= 300)
        #expect(compared.scaled >= 100)
        #expect(compared.references >= 1000)
    }

    /// Runs `paths` through the real pipeline and compares, for each recipe document, the builder with the encoder
    /// on the stage's value, and the stored text with what the encoder's text stores.
    static func comparePipeline(_ paths: [String]) throws -> Int {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        let config = PipelineConfig()
        _ = try Intake(store: store, manifest: .standard(for: config), config: config).ingest(
            paths: paths, batchID: store.beginBatch(command: "t", inputs: []))
        try WorkQueue(store: store, pipeline: try .standard(for: config), config: config, logger: TestSupport.logger).run()
        var compared = 0
        var id: Int64 = 1
        while let document = try store.document(id: id) {
            id += 1
            var outputs: [String: String] = [:]
            for stage in try store.stages(of: document.id) { outputs[stage.stage] = stage.output }
            guard let stored = outputs["recipe"] else { continue }
            let input = StageInput(document: document, config: config, earlierOutputs: outputs, logger: TestSupport.logger)
            let value = try RecipeStage.output(from: input)
            try expectSame(value, document.path)
            let lines = RecipeStage.lines(of: try DocumentText.readable(input))
            let byEncoder = try LineReferences.compactRecipes(SortedJSONEncoder().encodeToString(value), lines: lines)
            #expect(byEncoder == stored, "\(document.path)")
            compared += 1
        }
        return compared
    }

    @Test(.integration, .slow) func theSamplesThroughThePipeline() throws {
        let compared = try Self.comparePipeline([TestSupport.repoPath("samples/recipes")])
        #expect(compared == 11, "PDFs, saved web pages, text and Markdown")
    }

    @Test(.integration, .slow, .sharedData("recipes-pdf"))
    func theSharedPDFsThroughThePipeline() throws {
        let compared = try Self.comparePipeline([SharedData.path("recipes-pdf")!])
        #expect(compared >= 70)
    }

    /// A recipe with every optional member set and strings that need escapes, numbers in every form the writer has.
    static func everyMember(_ seed: Int) -> Recipe {
        let texts = ["plain", "quote \" and \\ back", "tab\there\nnew line", "\u{1}\u{1F}\u{7F}", "slash / é ½ 😀", "\u{2028}", ""]
        let numbers: [Double] = [0, -0.0, 1, -3, 0.1, 1.5, 1e-7, 0.000012, 1e21, 123_456_789.25, 9_007_199_254_740_993, 2.5e-300]
        func text(_ n: Int) -> String { texts[(seed + n) % texts.count] }
        func number(_ n: Int) -> Double { numbers[(seed * 7 + n) % numbers.count] }
        let provenance = Provenance(page: 1 + seed % 3, lineStart: 2, lineEnd: 4)
        var ingredient = RecipeIngredient(
            text: text(0), quantity: .init(value: number(1), max: seed % 2 == 0 ? nil : number(2)), unit: text(3),
            unitText: seed % 3 == 0 ? nil : text(4), additionalAmounts: [.init(quantity: .init(value: number(5)), unit: nil)],
            name: text(6), size: text(7), preparation: nil, comment: text(8), optional: seed % 2 == 0, purpose: text(9),
            alternatives: [text(10), text(11)], confidence: number(12), provenance: provenance)
        ingredient.allergens = [.init(allergen: "milk", keyword: text(13))]
        ingredient.base = seed % 4 == 0
            ? nil : .init(ingredient: text(14), parent: nil, category: text(15), alternatives: [text(16)], confidence: number(17), evidence: [text(18)])
        if seed % 2 == 1 {
            ingredient.scaledFrom = .init(
                quantity: nil, unit: text(19), unitText: nil, additionalAmounts: [], note: seed % 3 == 0 ? nil : text(20))
        }
        let step = RecipeStep(
            number: seed, text: text(21), durations: [.init(minutes: number(22), maxMinutes: number(23), text: text(24))],
            temperatures: [.init(value: number(25), unit: "C", gasMark: seed % 2 == 0 ? nil : 4, text: text(26))],
            ingredients: [.init(group: 0, index: -1, name: text(27))], provenance: provenance,
            section: seed % 2 == 0 ? nil : text(28))
        var recipe = Recipe(
            title: text(29), description: seed % 2 == 0 ? nil : text(30), yields: seed % 3 == 0 ? nil : .init(servings: number(31), text: text(32)),
            prepMinutes: number(33), cookMinutes: nil, totalMinutes: number(34), cuisine: text(35), mealType: nil,
            tags: [text(36)], ingredientGroups: [.init(name: seed % 2 == 0 ? nil : text(37), ingredients: [ingredient]), .init()],
            steps: [step], notes: [text(38), text(39)],
            source: .init(
                file: text(40), sha256: "ab", pages: [1, 2], format: "pdf", member: seed % 2 == 0 ? nil : text(41),
                url: seed % 3 == 0 ? nil : "https://example.com/a/b", node: seed % 4 == 0 ? nil : text(42)),
            provenance: ["title": provenance, "Zeta": provenance, "yields": provenance, "é": provenance, "": provenance],
            confidence: number(43))
        recipe.language = seed % 2 == 0 ? nil : "de"
        if seed % 2 == 1 {
            recipe.author = text(44)
            recipe.image = text(45)
            recipe.nutrition = ["calories": text(46), "Fat": "1 g", "fatContent": "2 g", "ü": "x"]
            recipe.diets = [.init(diet: "vegan", status: "no", evidence: [text(47)])]
            recipe.scaling = .init(factor: number(48), servings: 7, originalServings: number(49), originalMaxServings: nil, units: "metric")
        }
        return recipe
    }

    @Test func everyMemberAndEveryNumberForm() throws {
        for seed in 0..<24 {
            let recipes = [Self.everyMember(seed), Self.everyMember(seed + 1)]
            try Self.expectSame(RecipeStageOutput(recipes: recipes, skipped: nil), "seed \(seed)")
            try Self.expectSame(RecipeStageOutput(recipes: recipes, skipped: text(seed), entryErrors: ["a: b", text(seed)]), "seed \(seed)+")
        }
        try Self.expectSame(RecipeStageOutput(recipes: [], skipped: "routed as receipt"), "empty")
        func text(_ n: Int) -> String { ["", "x/y", "\"q\""][n % 3] }
    }

    /// The stored form of values with every member, escapes in the texts, every number form (the stored form
    /// writes numbers as `JSONNumber` does: "1e-07" as "0.0000001") and texts found in their lines or not.
    @Test func everyMemberIsStoredAsTheRewriteStoresIt() throws {
        var references = 0
        for seed in 0..<24 {
            let lines = (1...3).flatMap { page in
                [
                    "title line", "  - quote \" and \\ back, then slash / é ½ 😀", "tab\there\nnew line, and more",
                    "\u{1}\u{1F}\u{7F}\u{2028} and plain text here",
                ].enumerated().map { SourceLine(page: page, number: $0.offset + 1, text: $0.element) }
            }
            let recipes = [Self.everyMember(seed), Self.everyMember(seed + 1)]
            references += try Self.expectSameStored(RecipeStageOutput(recipes: recipes, skipped: nil), lines: lines, "seed \(seed)")
        }
        #expect(references >= 24, "texts found in their lines are replaced")
    }

    @Test func aNonFiniteNumberIsAnErrorAsInTheEncoder() {
        var recipe = Self.everyMember(0)
        recipe.confidence = .nan
        let output = RecipeStageOutput(recipes: [recipe], skipped: nil)
        #expect(throws: EncodingError.self) { try SortedJSONEncoder().encodeWithTree(output) }
        #expect(throws: EncodingError.self) { try output.encoded() }
    }
}
