import Foundation
import LarderArchives
import LarderRecipes
import LarderTestSupport
import Testing

@testable import LarderFormats

/// Issue 36: every app-export reader charges the recipe-part budget (``PartBudget``) while it reads, so an export
/// that holds more ingredients, steps and notes than `limits.maxRecipeParts` stops there instead of being read and
/// parsed whole. The inputs are the hostile tier's shapes (`scripts/data/make-hostile-exports.py`), made small here.
@Suite("hostile: app-export readers stop at the part budget")
struct PartBudgetTests {
    /// One generated export of `kind`, `megabytes` MB, as the member named `name` (read from an archive for Paprika).
    static func member(_ kind: String, _ name: String, megabytes: Double = 0.2) throws -> [ExportMember] {
        let path = NSTemporaryDirectory() + "larder-parts-\(kind)-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Repository.path("scripts/data/make-hostile-exports.py"), kind, path, String(megabytes)]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "make-hostile-exports.py \(kind) failed")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard Archives.format(of: data) != nil else { return [ExportMember(path: name, data: data)] }
        return try Archives.read(data, name: name).members.map { ExportMember(path: $0.path, data: $0.data) }
    }

    static let kinds = [
        ("mealmaster", "big.mmf"), ("mealmasters", "many.mmf"), ("mastercook", "big.mxp"), ("mx2", "big.mx2"),
        ("cooklang", "big.cook"), ("csv", "many.csv"), ("csvcell", "cell.csv"), ("paprika", "big.paprikarecipes"),
        ("schemaorg", "many.json"), ("mealie", "recipe.json"),
    ]

    /// Read whole, each export holds more than 500 parts; with a budget of 500 the read stops, over the limit, and
    /// says what it counted.
    @Test(arguments: kinds) func eachReaderStopsAtTheBudget(kind: String, name: String) throws {
        let members = try Self.member(kind, name)
        let whole = RecipeImport.read(members)
        let parts = whole.recipes.reduce(0) { $0 + $1.draft.partCount }
        #expect(parts > 500, "\(kind): \(parts) parts, \(whole.errors)")
        // Stopped over the limit, having counted more than it (a JSON export's lists are counted from its bytes,
        // before it is parsed, so nothing is charged).
        var budget = PartBudget(limit: 500)
        do {
            _ = try RecipeImport.read(members, budget: &budget)
            Issue.record("\(kind): read past the budget")
        } catch {
            #expect(error.limit == 500 && error.parts > 500, "\(kind): \(error)")
        }
        // Under a budget it fits in, the read is the same as with none.
        var roomy = PartBudget(limit: parts + 1)
        let bounded = try RecipeImport.read(members, budget: &roomy)
        #expect(bounded.recipes.map(\.draft.title) == whole.recipes.map(\.draft.title))
        #expect(bounded.recipes.map(\.draft.partCount) == whole.recipes.map(\.draft.partCount))
    }

    /// In an export of several members, the member that passes the budget is skipped with an entry error naming it
    /// and the limit, its charge given back; the members before and after it are imported.
    @Test func aMemberPastTheBudgetIsSkippedAndTheOthersImported() throws {
        let good = "---\ntitle: Good Probe Soup\n---\nSimmer the @stock{1%l} with the @leeks{2} for ~{20%minutes}.\n"
        let members =
            [ExportMember(path: "a.cook", data: Data(good.utf8))] + (try Self.member("mealmaster", "big.mmf"))
            + [ExportMember(path: "z.cook", data: Data(good.replacingOccurrences(of: "Good", with: "Last").utf8))]
        var budget = PartBudget(limit: 500)
        let outcome = try RecipeImport.read(members, budget: &budget)
        #expect(outcome.recipes.map(\.draft.title) == ["Good Probe Soup", "Last Probe Soup"])
        #expect(outcome.errors.map(\.member) == ["big.mmf"])
        #expect(outcome.errors.first?.message.contains("past 500 ingredients, steps and notes") == true, "\(outcome.errors)")
        #expect(budget.used > 0 && budget.used < 20, "the skipped member's charge is given back: \(budget.used)")
    }

    /// A JSON export's listed parts are counted from its bytes before it is parsed: items of ingredient and step
    /// lists at any depth (not commas inside strings or other lists), lines of Paprika's strings.
    @Test func jsonPartsAreCountedFromTheBytes() {
        let schema = #"{"name": "a, b", "keywords": ["x", "y"], "recipeIngredient": ["1, 2", "b", "c"], "#
            + #""recipeInstructions": [{"@type": "HowToStep", "text": "x, \"y\""}, {"text": "z"}]}"#
        #expect(JSONPartScan.listedParts(Data(schema.utf8), limit: .max) == 5)
        let paprika = #"{"name": "P", "ingredients": "1 egg\n2 cups flour\nsalt", "directions": "Mix.\nBake."}"#
        #expect(JSONPartScan.listedParts(Data(paprika.utf8), limit: .max) == 5)
        #expect(JSONPartScan.listedParts(Data(#"{"recipe_ingredient": [], "steps": [ ]}"#.utf8), limit: .max) == 0)
        // Counting stops past the limit.
        #expect(JSONPartScan.listedParts(Data(schema.utf8), limit: 1) == 2)
    }

    /// MasterCook XML stops inside the recipe, at the element that passes the budget, not after the file.
    @Test func masterCookXMLStopsAtTheElementThatPassesTheBudget() throws {
        let data = try #require(try Self.member("mx2", "big.mx2").first).data
        var budget = PartBudget(limit: 100)
        do {
            _ = try MX2Reader.parse(data, budget: &budget)
            Issue.record("read past the budget")
        } catch let error as RecipePartsOverLimit {
            #expect(error.parts == 101 && error.limit == 100)
        }
    }
}
