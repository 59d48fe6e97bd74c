import Foundation
import LarderArchives
import LarderJSON
import LarderRecipes
import LarderTestSupport
import Testing

@testable import LarderFormats

/// What a round trip must keep: titles, ingredient lines, steps, yields, times.
struct Essentials: Equatable, CustomStringConvertible {
    var title: String
    var ingredients: [String]
    var steps: [String]
    var yield: String?
    var times: [Double?]

    init(_ r: Recipe) {
        title = r.title
        ingredients = r.allIngredients.map(\.text)
        steps = r.steps.map(\.text)
        yield = r.yields?.text
        // The total as exports write it: given, else prep and cook together (schema.org's totalTime).
        times = [r.prepMinutes, r.cookMinutes, r.totalMinutes ?? r.prepMinutes.flatMap { p in r.cookMinutes.map { p + $0 } }]
    }

    var description: String { "\(title) | \(ingredients) | \(steps) | \(yield ?? "-") | \(times)" }
}

func recipe(_ draft: RecipeDraft) -> Recipe {
    draft.recipe(source: RecipeSourceInfo(file: "test", sha256: String(repeating: "0", count: 64), pages: [1], format: "text", member: draft.member, url: draft.url))
}

/// The project's own small samples (written for these tests).
enum OwnSamples {
    static let cooklang = """
        ---
        title: Weeknight Lentil Soup
        servings: 4
        prep time: 10 minutes
        tags: soup, vegetarian
        ---

        Warm the @olive oil{2%tbsp} in a #large pot{} and soften the @onion{1}(diced) for ~{8%minutes}.

        Add the @red lentils{1 1/2%cups}, @vegetable stock{1.5%l} and @cumin{1%tsp}. Simmer for ~{25%minutes}.

        -- blend half for a thicker soup
        Season with @salt and serve.
        """

    static let mealmaster = """
        MMMMM----- Recipe via Meal-Master (tm) v8.05

              Title: Oat Crumble Bars
         Categories: Baking, Snacks
              Yield: 16 bars

              1 c  Rolled oats                       1/2 c  Brown sugar
            3/4 c  Flour                             1/2 c  Butter; melted
        MMMMM-------------------------FILLING-------------------------------
              2 c  Chopped apples                      1 ts Cinnamon
                   -peeled

          Heat the oven to 180 C. Mix the oats, flour, sugar and butter.

          Press half into a tin, cover with the apples and cinnamon, top with
          the rest and bake 30 minutes.

        MMMMM
        """
}

@Suite struct RoundTripTests {
    @Test func ownCooklangSampleReadsAsWritten() throws {
        let parsed = CooklangReader.parse(OwnSamples.cooklang)
        let draft = parsed.draft(fileName: "lentil-soup.cook")
        #expect(draft.title == "Weeknight Lentil Soup")
        #expect(draft.ingredientLines == ["2 tbsp olive oil", "1 onion, diced", "1 1/2 cups red lentils", "1.5 l vegetable stock", "1 tsp cumin", "salt"])
        #expect(draft.steps.count == 3)
        #expect(draft.steps[0] == "Warm the olive oil in a large pot and soften the onion for 8 minutes.")
        #expect(draft.prepMinutes == 10)
        #expect(draft.tags == ["soup", "vegetarian"])
    }

    @Test func ownMealMasterSampleReadsAsWritten() throws {
        let recipes = MealMasterReader.parse(OwnSamples.mealmaster)
        #expect(recipes.count == 1)
        let d = try #require(recipes.first).draft
        #expect(d.title == "Oat Crumble Bars")
        #expect(d.categories == ["Baking", "Snacks"])
        #expect(d.yield == "16 bars")
        #expect(d.ingredientGroups.map(\.name) == [nil, "FILLING"])
        #expect(d.ingredientGroups[0].lines == ["1 c Rolled oats", "3/4 c Flour", "1/2 c Brown sugar", "1/2 c Butter; melted"])
        #expect(d.ingredientGroups[1].lines == ["2 c Chopped apples peeled", "1 ts Cinnamon"])
        #expect(d.steps.count == 2)
    }

    @Test func cooklangExportReimportsTheSame() throws {
        var sources = [OwnSamples.cooklang]
        if hasAppExports {
            let folder = appExports! + "/tandoor/cooklang"
            for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where name.hasSuffix(".cook") {
                sources.append(try String(contentsOfFile: folder + "/" + name, encoding: .utf8))
            }
        }
        for source in sources {
            let first = recipe(CooklangReader.parse(source).draft(fileName: "x.cook"))
            let written = CooklangWriter.text(first)
            let again = recipe(CooklangReader.parse(written).draft(fileName: "x.cook"))
            #expect(Essentials(again) == Essentials(first), "\(written)")
        }
    }

    @Test func schemaOrgExportReadsBackThroughTheJSONReader() throws {
        var drafts = [CooklangReader.parse(OwnSamples.cooklang).draft(fileName: "x.cook")] + MealMasterReader.parse(OwnSamples.mealmaster).map(\.draft)
        if hasAppExports { drafts += try importFile(appExports! + "/mealie/paprika.zip").recipes.map(\.draft) }
        let schemaText = try String(contentsOfFile: Repository.root + "/schemas/schema-org-recipe.schema.json", encoding: .utf8)
        let schema = try JSONSchema(try JSONValue(parsing: Data(schemaText.utf8)), baseURI: "https://larder.example/schemas/schema-org-recipe.schema.json")
        for draft in drafts {
            let first = recipe(draft)
            let data = try SchemaOrgWriter.json(first)
            #expect(schema.validate(try JSONValue(parsing: data)).isEmpty, "\(String(decoding: data, as: UTF8.self))")
            let back = try #require(RecipeDraft.schemaOrg(json: String(decoding: data, as: UTF8.self))?.first)
            #expect(Essentials(recipe(back)) == Essentials(first), "\(Essentials(recipe(back)).steps.difference(from: Essentials(first).steps))")
        }
    }

    @Test func stepsWithSectionsAreWrittenAsHowToSections() throws {
        var r = recipe(CooklangReader.parse(OwnSamples.cooklang).draft(fileName: "x.cook"))
        try #require(r.steps.count >= 2)
        r.steps[0].section = "For the sauce"
        r.steps[1].section = "For the sauce"
        let instructions = try #require(SchemaOrgWriter.object(r)["recipeInstructions"] as? [[String: Any]])
        #expect(instructions.first?["@type"] as? String == "HowToSection")
        #expect(instructions.first?["name"] as? String == "For the sauce")
        #expect((instructions.first?["itemListElement"] as? [[String: Any]])?.count == 2)
        #expect(instructions.dropFirst().allSatisfy { $0["@type"] as? String == "HowToStep" })
        let schemaText = try String(contentsOfFile: Repository.root + "/schemas/schema-org-recipe.schema.json", encoding: .utf8)
        let schema = try JSONSchema(try JSONValue(parsing: Data(schemaText.utf8)), baseURI: "https://larder.example/schemas/schema-org-recipe.schema.json")
        let data = try SchemaOrgWriter.json(r)
        #expect(schema.validate(try JSONValue(parsing: data)).isEmpty)
        let back = try #require(RecipeDraft.schemaOrg(json: String(decoding: data, as: UTF8.self))?.first)
        #expect(back.steps == r.steps.map(\.text))
    }

    @Test func paprikaExportReimportsTheSame() throws {
        var recipes = [recipe(CooklangReader.parse(OwnSamples.cooklang).draft(fileName: "x.cook"))]
        if hasAppExports { recipes += try importFile(appExports! + "/mealie/paprika.zip").recipes.map { recipe($0.draft) } }
        let dir = try ArchiveLimitTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/out.paprikarecipes"
        try ZipWriter.write(recipes.enumerated().map { (PaprikaWriter.entryName($0.element, index: $0.offset), Archives.gzip(try! PaprikaWriter.json($0.element))) }, to: path)
        let back = try importFile(path)
        #expect(back.errors.isEmpty)
        #expect(back.recipes.map { Essentials(recipe($0.draft)) } == recipes.map(Essentials.init))
    }

    @Test func isoDurationsAreExact() {
        #expect(SchemaOrgWriter.iso8601(minutes: 90) == "PT1H30M")
        #expect(SchemaOrgWriter.iso8601(minutes: 1.5) == "PT1M30S")
        #expect(SchemaOrgWriter.iso8601(minutes: 1500) == "P1DT1H")
        #expect(SchemaOrgWriter.iso8601(minutes: 0) == "PT0M")
    }
}
