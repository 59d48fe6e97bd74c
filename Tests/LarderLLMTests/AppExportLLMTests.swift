import Foundation
import LarderTestSupport
import Testing

@testable import LarderCore

/// A recipe app's export keeps the app's structure: even with `llm.mode: always`, nothing is sent.
@Suite(.integration) struct AppExportLLMTests {
    @Test func anExportIsNeverSentToTheModel() throws {
        let scenario = FaultServer.scenario("app-export")
        try FaultServer.shared.script(scenario, [Fixtures.ok()])
        let cook = "---\ntitle: Green Tea\n---\nSteep the @tea leaves{1%tsp} in @water{250%ml} for ~{3%minutes}.\n"
        let batch = try PipelineStageTests.run(["tea.cook": cook]) {
            PipelineStageTests.config($0, providers: [Fixtures.provider("first", FaultServer.shared.baseURL(scenario))])
        }
        #expect(batch.counters.done == 1)
        #expect(try FaultServer.shared.log(scenario).isEmpty)
        let result = try #require(try batch.result("tea.cook"))
        #expect(result.llm == nil)
        #expect(result.recipes.map(\.title) == ["Green Tea"])
        #expect(result.recipes.first?.allIngredients.map(\.text) == ["1 tsp tea leaves", "250 ml water"])
    }
}
