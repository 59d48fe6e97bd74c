import Foundation
import LarderTestSupport
import Testing

@testable import LarderCore
@testable import LarderEvaluation
@testable import LarderStages

@Suite("eval formats scores what export writes")
struct ExportEvaluationTests {
    @Test func expectedIngredientNotation() {
        #expect(ExportEvaluation.expectedLine("{1/2} {c} {Melted margarine}") == "1/2 c Melted margarine")
        #expect(ExportEvaluation.expectedLine("{} {} {Salt and pepper to taste}") == "Salt and pepper to taste")
        #expect(ExportEvaluation.expectedLine("{1} {cup} {milk} {please}") == "1 cup milk please")
        #expect(ExportEvaluation.expectedLine("----- FILLING -----") == nil)
        #expect(ExportEvaluation.expectedLine("{} {} {} {}") == nil)
    }

    /// Every sample through the standard stages: no README-counted file fails, each such format gives at least its
    /// recipes in the exported results, and every expected parse with a recipe is scored (a failed file as none).
    @Test(.integration, .sharedData("recipe-app-exports"), .timeLimit(.minutes(5)))
    func samplesThroughTheRunner() throws {
        let folder = try #require(SharedData.path("recipe-app-exports"))
        let runner = try DocumentRunner(config: try PipelineConfig.load(path: Repository.path("eval/exports.yml")))
        let report = try ExportEvaluation.evaluate(folder: folder, runner: runner)
        print(ExportEvaluation.textReport(report))
        for row in report.rows where row.compared == 0 {
            #expect(row.failed == 0, "\(row.format)")
            #expect(row.found >= row.expected, "\(row.format): \(row.found) of \(row.expected)")
        }
        // The data's 11 MealMaster and 9 MasterCook cases with a recipe (the others are empty or header-only).
        #expect(report.compared == 20)
        #expect(report.recipes_found == 1)
    }
}
