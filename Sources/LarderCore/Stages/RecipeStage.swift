import Foundation
import LarderReceipts
import LarderRecipes

/// Stage 4, `recipe`: the recipes in a document routed as a recipe (`LarderRecipes`).
///
/// Input: `extract`'s lines — for PDFs the reading-order lines with their font sizes (titles stand out by size),
/// for text the normalised lines, for a scanned PDF the OCR lines (``DocumentText``) — each with its page and line
/// number, so every value keeps its provenance.
/// Output: ``RecipeStageOutput``, each ingredient tagged with the allergens its name contains. Documents routed
/// elsewhere pass through with no recipes.
public struct RecipeStage: Stage {
    public static let declaration = StageDeclaration(name: "recipe", version: "recipe@4")
    public let name = declaration.name
    public let version = declaration.version

    public init() {}

    private static let allergens = AllergenTagger()

    public func run(_ input: StageInput) throws -> StageOutput {
        let routed = try input.output(of: "route", as: RouteOutput.self)
        guard routed.route == .recipe else {
            return try StageOutput(RecipeStageOutput(recipes: [], skipped: "routed as \(routed.route.rawValue)"))
        }
        let detected = try input.output(of: "detect", as: DetectOutput.self)
        let extracted = try DocumentText.readable(input)  // a scanned page: its OCR lines
        let source = RecipeSource(
            file: URL(fileURLWithPath: input.document.path).lastPathComponent, sha256: input.document.sha256,
            format: detected.format.rawValue, lines: Self.lines(of: extracted))
        var recipes = RecipeParser().parse(source)
        // The 16 allergens, matched on the ingredient's name (whole words: "eggplant" is not egg).
        let tagger = Self.allergens
        for r in recipes.indices {
            for g in recipes[r].ingredientGroups.indices {
                for i in recipes[r].ingredientGroups[g].ingredients.indices {
                    let ingredient = recipes[r].ingredientGroups[g].ingredients[i]
                    recipes[r].ingredientGroups[g].ingredients[i].allergens =
                        tagger.tags(for: ingredient.name.isEmpty ? ingredient.text : ingredient.name).map {
                            IngredientAllergen(allergen: $0.allergen.rawValue, keyword: $0.keyword)
                        }
                }
            }
        }
        return try StageOutput(RecipeStageOutput(recipes: recipes, skipped: nil))
    }

    /// Every page's lines, numbered from 1 within the page.
    public static func lines(of extracted: ExtractOutput) -> [SourceLine] {
        extracted.pages.flatMap { page -> [SourceLine] in
            if !page.lines.isEmpty {
                return page.lines.enumerated().map { index, line in
                    SourceLine(page: page.number, number: index + 1, text: line.text, fontSize: line.fontSize, bold: line.bold)
                }
            }
            return page.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, text in
                SourceLine(page: page.number, number: index + 1, text: String(text))
            }
        }
    }
}

/// What `recipe` found.
public struct RecipeStageOutput: Codable, Sendable, Equatable {
    public var recipes: [Recipe]
    /// Why no recipes were looked for (the document was routed elsewhere).
    public var skipped: String?
}
