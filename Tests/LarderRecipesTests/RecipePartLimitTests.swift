import Foundation
import Testing

@testable import LarderRecipes

/// Issue 36: the recipe parser stops once a document's recipes hold more ingredients, steps and notes than it may
/// make (``RecipeParser/parse(_:maxParts:)``), for text and for JSON (counted before any item is mapped).
@Suite("recipe part limit")
struct RecipePartLimitTests {
    static let text = "Pancakes\n\nIngredients\n" + (1...10).map { "- \($0) g flour\n" }.joined()
        + "\nMethod\n1. Mix.\n2. Fry.\n"

    static let json = """
        {"@context": "https://schema.org", "@type": "Recipe", "name": "Pancakes",
         "recipeIngredient": [\((1...10).map { "\"\($0) g flour\"" }.joined(separator: ", "))],
         "recipeInstructions": ["Mix.", "Fry."]}
        """

    @Test(arguments: [("text", text), ("json", json)])
    func aDocumentOverTheLimitThrowsAndOneUnderItParses(format: String, body: String) throws {
        let source = RecipeSource(file: "p." + format, sha256: String(repeating: "0", count: 64), format: format, text: body)
        let recipes = try RecipeParser().parse(source, maxParts: 12)
        #expect(recipes.count == 1 && recipes[0].allIngredients.count == 10 && recipes[0].steps.count == 2)
        #expect(recipes == RecipeParser().parse(source))
        #expect(throws: RecipePartsOverLimit.self) { try RecipeParser().parse(source, maxParts: 11) }
    }
}
