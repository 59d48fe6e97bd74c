import Foundation
import LarderTestSupport
@testable import LarderRecipes

/// A fake SHA-256 for test sources.
let zeroSHA = String(repeating: "0", count: 64)

/// Parses `text` as a one-page document.
func parseText(_ text: String, format: String = "text", file: String = "test.txt") -> [Recipe] {
    RecipeParser().parse(RecipeSource(file: file, sha256: zeroSHA, format: format, text: text))
}

/// Builds a PDF-like source: pages of (text, font size, bold) lines, numbered from 1 within each page.
func pdfSource(_ pages: [[(String, Double, Bool)]], file: String = "book.pdf") -> RecipeSource {
    var lines: [SourceLine] = []
    for (p, page) in pages.enumerated() {
        for (n, l) in page.enumerated() {
            lines.append(SourceLine(page: p + 1, number: n + 1, text: l.0, fontSize: l.1, bold: l.2))
        }
    }
    return RecipeSource(file: file, sha256: zeroSHA, format: "pdf", lines: lines)
}

/// The project's recipe samples (`samples/recipes` in the repository).
let samplesDirectory = Repository.path("samples/recipes")

/// Reads a sample and parses it with the format its extension implies.
func parseSample(_ dir: String, _ name: String) throws -> [Recipe] {
    let text = try String(contentsOfFile: dir + "/" + name, encoding: .utf8)
    let format = name.hasSuffix(".md") ? "markdown" : "text"
    return RecipeParser().parse(RecipeSource(file: name, sha256: zeroSHA, format: format, text: text))
}

/// The texts of all ingredients of a recipe.
func ingredientTexts(_ r: Recipe) -> [String] { r.allIngredients.map(\.text) }
