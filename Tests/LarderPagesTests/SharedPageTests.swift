import Foundation
import LarderCore
import LarderEvaluation
import LarderStages
import LarderTestSupport
import Testing
@testable import LarderPages
@testable import LarderRecipes

/// `../shared/data/recipes-scraped` (found by LarderTestSupport) when it holds `html/`, or `nil`.
let scrapedPages: String? = SharedData.has("recipes-scraped/html") ? SharedData.path("recipes-scraped") : nil

@Suite(.sharedData("recipes-scraped/html"), .slow)
struct SharedPageTests {
    /// A handful of pages with different shapes: JSON-LD with HowToSections and ingredient groups
    /// (africanbites), a WordPress recipe plugin (acouplecooks, iamafoodblog), a German page (chefkoch), microdata
    /// only (cook-talk), no structured data at all (costco).
    @Test(arguments: ["africanbites.com/africanbites", "acouplecooks.com/acouplecooks_1", "iamafoodblog.com/iamafoodblog_1", "chefkoch.de/chefkoch", "cook-talk.com/cooktalk_1", "costco.com/costco", "recipeland.com/recipeland_1", "przepisy.pl/przepisy", "kfoods.com/kfoods"])
    func pageReadsLikeItsExpectedJSON(_ name: String) throws {
        let all = try PageEvaluation.cases(directory: scrapedPages!)
        let c = try #require(all.first { $0.name == name })
        let recipes = try DocumentRunner(config: PipelineConfig()).run(path: c.path).result?.recipes ?? []
        let result = PageEvaluation.score(name: name, got: PageEvaluation.values(recipes), expected: c.expected)
        #expect(recipes.count == 1)
        #expect(result.titleOK, "title \(result.got.title)")
        #expect(result.ingredientsF1 >= 0.8)
        #expect(result.stepsF1 >= 0.8)
        if name.hasPrefix("africanbites") {
            #expect(recipes.first?.source.url == "https://www.africanbites.com/ghana-jollof-rice/")
            #expect(recipes.first?.ingredientGroups.count == 3)
            #expect(recipes.first?.nutrition?["calories"] == "771 kcal")
        }
    }

    /// The baseline's figures on the 302 dev pages (`make measure`, benchmarks/baseline.json), with floors 0.005
    /// below them (a regression fails the test; a re-measured baseline moves the floors).
    @Test func floorsOnAllPages() throws {
        let cases = try PageEvaluation.cases(directory: scrapedPages!)
        #expect(cases.count >= 300)
        let s = PageEvaluation.summary(PageEvaluation.evaluate(cases, runner: try DocumentRunner(config: PipelineConfig())).results, seconds: nil)
        let margin = 0.005
        #expect(s.title >= Baseline.floor("pages", "title", margin: margin))
        #expect(s.ingredients_f1 >= Baseline.floor("pages", "ingredient lines F1", margin: margin))
        #expect(s.steps_f1 >= Baseline.floor("pages", "steps F1", margin: margin))
        #expect(s.exact >= Baseline.floor("pages", "exact (both F1s 1)", margin: margin))
        #expect(s.yields >= Baseline.floor("pages", "yields", margin: margin))
        #expect(s.total_time >= Baseline.floor("pages", "total time", margin: margin))
    }
}
