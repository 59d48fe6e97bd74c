import Foundation

extension RecipeParser {
    /// A quantity as recipes print it (`"1 1/2"`, `"½"`, `"two"`, `"a couple"`) → its value; nil when the text is not
    /// one. The parser reads quantities with it; the PDF evaluation (LarderEvaluation) compares truths with it.
    public static func number(_ text: String) -> Double? { Patterns.parseNumber(text) }
}
