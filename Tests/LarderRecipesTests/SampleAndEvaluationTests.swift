import Foundation
import LarderTestSupport
import Testing
@testable import LarderRecipes

@Suite struct SampleTests {
    @Test func tomatoSoup() throws {
        let recipes = try parseSample(samplesDirectory, "tomato-soup.txt")
        try #require(recipes.count == 1)
        let r = recipes[0]
        #expect(r.title == "Roasted Tomato Soup")
        #expect(r.yields?.servings == 4)
        #expect(r.prepMinutes == 10)
        #expect(r.cookMinutes == 30)
        #expect(r.description == "A thick, bright soup for the end of summer when tomatoes are cheap.")
        #expect(r.allIngredients.count == 9)
        #expect(r.steps.count == 5)
        #expect(r.steps[0].temperatures.map(\.value) == [200, 400])
        #expect(r.steps[0].durations.first?.minutes == 20)
        // "1 large onion, finely chopped" is used in step 2 by its head noun.
        #expect(r.steps[1].ingredients.map(\.name).contains("onion"))
        #expect(r.allIngredients[1].provenance == Provenance(page: 1, lineStart: 10, lineEnd: 10))
        #expect(r.steps[0].provenance == Provenance(page: 1, lineStart: 20, lineEnd: 22))
        #expect(try schemaProblems(jsonObject(r)).isEmpty)
    }

    @Test func bananaBread() throws {
        let recipes = try parseSample(samplesDirectory, "banana-bread.txt")
        try #require(recipes.count == 1)
        let r = recipes[0]
        #expect(r.title == "Brown Butter Banana Bread")
        #expect(r.yields?.servings == 1)
        #expect(r.yields?.unit == "loaf")
        #expect(r.prepMinutes == 15)
        #expect(r.cookMinutes == 60)
        #expect(r.allIngredients.count == 10)
        #expect(r.steps.count == 6)
        #expect(r.steps[1].durations.map(\.minutes) == [3, 10])
        #expect(r.steps[4].durations.first?.maxMinutes == 60)
        #expect(r.notes == ["keeps for 3 days wrapped at room temperature, or freeze in slices."])
        #expect(try schemaProblems(jsonObject(r)).isEmpty)
    }

    @Test func lemonDrizzleCake() throws {
        let recipes = try parseSample(samplesDirectory, "lemon-drizzle-cake.md")
        try #require(recipes.count == 1)
        let r = recipes[0]
        #expect(r.title == "Lemon Drizzle Cake")
        #expect(r.tags == ["baking", "cake", "lemon", "vegetarian"])
        #expect(r.yields?.servings == 8)
        #expect(r.prepMinutes == 20)
        #expect(r.cookMinutes == 50)
        #expect(r.description == "A soft loaf cake soaked in sharp lemon syrup, with a crunchy sugar top.")
        #expect(r.ingredientGroups.map(\.name) == [nil, "For the drizzle"])
        #expect(r.ingredientGroups.map { $0.ingredients.count } == [6, 2])
        #expect(r.steps.count == 7)
        #expect(r.steps[4].temperatures.first?.value == 180)
        // "the lemon juice" in step 6 is the drizzle's juice, not the zest.
        #expect(r.steps[5].ingredients.contains { $0.group == 1 && $0.index == 0 })
        #expect(!r.steps[5].ingredients.contains { $0.group == 0 && $0.index == 4 })
        #expect(try schemaProblems(jsonObject(r)).isEmpty)
    }
}

@Suite struct EvaluationTests {
    @Test func metrics() {
        #expect(RecipeEvaluation.lineF1(got: ["1 cup Flour", "2 eggs"], expected: ["1 cup flour.", "2 eggs"]) == 1)
        #expect(RecipeEvaluation.lineF1(got: [], expected: []) == 1)
        #expect(abs(RecipeEvaluation.lineF1(got: ["a", "b"], expected: ["a", "c", "d"]) - 0.4) < 1e-9)
        #expect(RecipeEvaluation.normalize("**Spaghetti** [aglio](/x) e olio!") == "spaghetti aglio e olio")
    }

    @Test func renderedTextParsesBack() throws {
        let json: [String: Any] = [
            "title": "Test Cake", "yields": "8 servings", "prep_time": 15, "total_time": 60,
            "ingredients": ["200 g flour", "2 eggs", "100 g sugar"],
            "ingredient_groups": [["ingredients": ["200 g flour", "2 eggs"], "purpose": "Cake"],
                                  ["ingredients": ["100 g sugar"], "purpose": "For the topping"]],
            "instructions_list": ["Mix the flour and eggs.", "Bake for 30 minutes.", "Sprinkle with the sugar."],
        ]
        for variant in [UInt64(0), 1 << 16, 0x10305] {
            let rendered = RecipeEvaluation.renderPlainText(json, variant: variant)
            #expect(rendered.text.contains("For the Cake:"))
            let r = try #require(parseText(rendered.text).first)
            #expect(r.title == "Test Cake")
            #expect(r.ingredientGroups.map(\.name) == ["For the Cake", "For the topping"])
            #expect(r.steps.map(\.text) == json["instructions_list"] as? [String])
            #expect(r.yields?.servings == 8)
            #expect(r.prepMinutes == 15)
            #expect(r.totalMinutes == 60)
        }
    }

    /// Runs the whole evaluation over the shared data and checks floors just below the measured figures.
    @Test(.sharedData("recipes-markdown", "recipes-scraped"), .slow)
    func sharedDataFloors() throws {
        let dir = try #require(SharedData.folder)
        let report = try RecipeEvaluation.evaluate(sharedData: dir)
        print(RecipeEvaluation.textReport(report))
        let per = Dictionary(uniqueKeysWithValues: report.perCorpus.map { ($0.corpus, $0.scores) })
        let md = try #require(per["markdown"])
        // Measured 2026-11-22: markdown title 1.000, ingredients F1 .998 / exact .977, steps F1 .979 / exact .951,
        // recipes 1.000; scraped (English, 413) title 1.000, ingredients .9995 / .990, steps .995 / .952, recipes 1.000.
        #expect(md.count >= 340)
        #expect(md.title >= 0.99)
        // The F1s' floors: 0.01 below the baseline's Markdown figures (`make measure`, benchmarks/baseline.json);
        // the baseline does not record the others yet.
        #expect(md.ingredients.f1 >= Baseline.floor("markdown", "Markdown files (349): ingredient lines F1", margin: 0.01))
        #expect(md.ingredients.exact >= 0.96)
        #expect(md.steps.f1 >= Baseline.floor("markdown", "Markdown files (349): steps F1", margin: 0.01))
        #expect(md.steps.exact >= 0.94)
        #expect(md.recipes >= 0.99)
        let scraped = try #require(per["scraped"])
        #expect(scraped.count >= 400)
        #expect(scraped.title >= 0.99)
        #expect(scraped.ingredients.f1 >= 0.99)
        #expect(scraped.ingredients.exact >= 0.98)
        #expect(scraped.steps.f1 >= 0.99)
        #expect(scraped.steps.exact >= 0.94)
        #expect(scraped.recipes >= 0.99)
    }
}
