import Foundation
import Testing
@testable import LarderRecipes

@Suite struct PatternTests {
    @Test(arguments: [
        ("Serves 4", 4.0, nil as Double?, nil as String?),
        ("Serves 4-6", 4, 6, nil),
        ("Serves: 4 to 6", 4, 6, nil),
        ("Makes 12 cookies", 12, nil, "cookies"),
        ("Yield: 2 loaves", 2, nil, "loaves"),
        ("Servings: 4", 4, nil, nil),
        ("Makes about 24 (depending on size)", 24, nil, nil),
        ("4 servings", 4, nil, nil),
        ("Feeds 8", 8, nil, nil),
    ])
    func yields(_ text: String, _ servings: Double, _ max: Double?, _ unit: String?) throws {
        let y = try #require(Patterns.parseYield(text))
        #expect(y.servings == servings)
        #expect(y.maxServings == max)
        #expect(y.unit == unit)
        #expect(y.text == text)
    }

    @Test func notYields() {
        #expect(Patterns.parseYield("For the sauce:") == nil)
        #expect(Patterns.parseYield("Serve with rice and a green salad on the side, or with warm bread and butter for dipping.") == nil)
    }

    @Test(arguments: [
        ("Prep: 15 mins", Patterns.TimeKind.prep, 15.0),
        ("Prep time: 10 minutes", .prep, 10),
        ("Cook: 1 hr 20 min", .cook, 80),
        ("Ready in 1 hr 20 min", .total, 80),
        ("Total time: 45 minutes", .total, 45),
        ("Bake time: 1 hour", .cook, 60),
        ("Cooking time: 1 1/2 hours", .cook, 90),
        ("Preparation time: 20 mins", .prep, 20),
        ("Total: PT1H5M", .total, 65),
    ])
    func times(_ text: String, _ kind: Patterns.TimeKind, _ minutes: Double) throws {
        let t = try #require(Patterns.parseTime(text))
        #expect(t.0 == kind)
        #expect(t.1 == minutes)
    }

    @Test func isoDurationsAndCombinedLines() throws {
        #expect(Patterns.parseMinutes("PT30M")?.0 == 30)
        #expect(Patterns.parseMinutes("PT1H")?.0 == 60)
        #expect(Patterns.parseMinutes("P0DT1H30M")?.0 == 90)
        let items = try #require(Meta.parse("Prep: 10 mins / Cook: 30 mins"))
        #expect(items.count == 2)
        let items2 = try #require(Meta.parse("Prep: 20 mins | Cook: 1 hr 30 mins | Rest: 15 mins"))
        #expect(items2.count == 3)
        #expect(Meta.parse("- 🍳 Cook time: 15 min") != nil)
        #expect(Meta.parse("Heat the oven to 200C and cook for 20 minutes.") == nil)
    }

    @Test(arguments: [
        ("Heat the oven to 350°F.", 350.0, "F", nil as Double?),
        ("Bake at 180 °C until golden.", 180, "C", nil),
        ("Preheat to 180C.", 180, "C", nil),
        ("Roast at 400 degrees F for an hour.", 400, "F", nil),
        ("Bake at gas mark 4.", 180, "C", 4),
        ("Set the oven to 200ºC (fan 180ºC).", 200, "C", nil),
    ])
    func temperatures(_ text: String, _ value: Double, _ unit: String, _ gas: Double?) throws {
        let t = try #require(Patterns.temperatures(in: text).first)
        #expect(t.value == value)
        #expect(t.unit == unit)
        #expect(t.gasMark == gas)
    }

    @Test func noTemperatureInQuantities() {
        #expect(Patterns.temperatures(in: "Add 2 C of flour and 100 g sugar.").isEmpty)
    }

    @Test(arguments: [
        ("Simmer 10–12 minutes, stirring.", 10.0, 12.0 as Double?, "Simmer 10–12 minutes"),
        ("Chill for 1 hour.", 60, nil, "Chill for 1 hour"),
        ("Blitz for 30 seconds.", 0.5, nil, "for 30 seconds"),
        ("Roast for 1 hr 15 min until tender.", 75, nil, "Roast for 1 hr 15 min"),
        ("Cook for 1 to 2 minutes.", 1, 2, "Cook for 1 to 2 minutes"),
        ("Rest for half an hour.", 30, nil, "Rest for half an hour"),
    ])
    func durations(_ text: String, _ minutes: Double, _ max: Double?, _ phrase: String) throws {
        let d = try #require(Patterns.stepDurations(in: text).first)
        #expect(d.minutes == minutes)
        #expect(d.maxMinutes == max)
        #expect(d.text == phrase)
    }

    @Test func noDurations() {
        #expect(Patterns.stepDurations(in: "In a second bowl, mix the flour.").isEmpty)
        #expect(Patterns.stepDurations(in: "Leave overnight in the fridge.").isEmpty)
    }
}

@Suite("recipe language")
struct RecipeLanguageTests {
    @Test func germanAndEnglishRecipesAreTold() throws {
        let german = try #require(RecipeParser().parse(RecipeSource(
            file: "hummus.txt", sha256: "", format: "text",
            lines: "Hummus\n\nZutaten\n200 g Kichererbsen\n3 EL Olivenöl\n\nZubereitung\n1. Die Kichererbsen mit dem Öl und etwas Wasser pürieren.\n2. Mit Salz und Zitrone abschmecken, dann servieren.\n"
                .split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                .map { SourceLine(page: 1, number: $0.offset + 1, text: String($0.element)) })).first)
        #expect(german.language == "de")
        let english = try #require(RecipeParser().parse(RecipeSource(
            file: "eggs.txt", sha256: "", format: "text",
            lines: "Boiled Eggs\n\nIngredients\n2 eggs\n\nMethod\n1. Boil the eggs in a pan of water for 8 minutes.\n2. Cool them in cold water and peel.\n"
                .split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                .map { SourceLine(page: 1, number: $0.offset + 1, text: String($0.element)) })).first)
        #expect(english.language == "en")
    }
}
