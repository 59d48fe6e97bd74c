import Foundation
import Testing
@testable import LarderRecipes

/// A text recipe numbered past 99 becomes one huge step (the numbering reads as a list only up to 99); the duration
/// phrases used to copy the step's text before every duration and walk it by `Character`, so the recipe stage took
/// 1 s at 160 KB and 20 s at 385 KB (debug). Linear time is checked by the ratio of two sizes, not by seconds.
@Suite("Huge steps parse in linear time")
struct LinearStepTests {
    /// A text recipe whose method is `lines` numbered lines, each with a duration.
    static func recipe(lines: Int) -> String {
        var text = "Slow Sauce\n\nIngredients\n2 onions\n1 can tomatoes\n\nMethod\n"
        for i in 1...lines { text += "\(i). Stir the sauce and simmer for about \(i % 50 + 1) minutes.\n" }
        return text
    }

    static func parse(_ text: String) -> (steps: [RecipeStep], seconds: Double) {
        let source = RecipeSource(file: "huge.txt", sha256: String(repeating: "0", count: 64), format: "text", text: text)
        let clock = ContinuousClock()
        var recipes: [Recipe] = []
        let elapsed = clock.measure { recipes = RecipeParser().parse(source) }
        let c = elapsed.components
        return (recipes.flatMap(\.steps), Double(c.seconds) + Double(c.attoseconds) / 1e18)
    }

    @Test("a ~300 KB single-step recipe costs about 4x a ~75 KB one, not 16x")
    func linearInLength() throws {
        let small = Self.recipe(lines: 1_400), large = Self.recipe(lines: 5_600)
        #expect(large.utf8.count > 280_000)
        // The case is the one huge step: every duration past line 99 is in it, each with its phrase.
        let (steps, _) = Self.parse(large)
        let huge = try #require(steps.max { $0.text.utf8.count < $1.text.utf8.count })
        #expect(huge.text.utf8.count > 250_000)
        #expect(huge.durations.count > 5_000)
        #expect(huge.durations.allSatisfy { $0.text.hasPrefix("simmer for about ") })
        // Best of two runs each (the machine is shared); linear is ~4, the old quadratic cost ~16 and more.
        let t1 = min(Self.parse(small).seconds, Self.parse(small).seconds)
        let t4 = min(Self.parse(large).seconds, Self.parse(large).seconds)
        #expect(t4 / t1 < 8, "N: \(t1) s, 4N: \(t4) s")
    }
}
