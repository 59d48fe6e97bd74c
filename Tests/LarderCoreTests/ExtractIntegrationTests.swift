import Foundation
import LarderTestSupport
import Testing

@testable import LarderCore
@testable import LarderStages

/// The extract stage against real poppler-glib and real PDFs (samples/ and Tests/Fixtures/).
@Suite("extract with poppler")
struct ExtractIntegrationTests {
    func extract(_ relative: String, maxPages: Int = 500) throws -> ExtractOutput {
        try ExtractStage.extractPDF(path: TestSupport.repoPath(relative), maxPages: maxPages)
    }

    @Test func titleHasTheLargestFont() throws {
        let output = try extract("samples/recipes/pancakes.pdf")
        #expect(output.pages.count == 1)
        let page = try #require(output.pages.first)
        let largest = try #require(page.spans.max { $0.size < $1.size })
        let scalars = Array(page.text.unicodeScalars)
        let title = String(String.UnicodeScalarView(scalars[largest.start..<min(largest.end, scalars.count)]))
        #expect(title.contains("Pancakes"))
        #expect(largest.size > 15)
        #expect(page.text.contains("Ingredients"))
        #expect(!output.needsOCR)
    }

    @Test(.integration) func matchesPdftotextWords() throws {
        // Same engine as the pdftotext CLI: the words must agree.
        let output = try extract("samples/recipes/two-recipes.pdf")
        #expect(output.pages.count == 2)
        let reference = try TestSupport.shell("pdftotext \(TestSupport.repoPath("samples/recipes/two-recipes.pdf")) -")
        #expect(reference.status == 0)
        let words = { (text: String) in text.split { $0.isWhitespace || $0 == "\u{0C}" } }
        #expect(words(output.text) == words(reference.stdout))
    }

    @Test func twoColumnsNeverInterleave() throws {
        // Ingredients on the left, Method on the right, starting at the same height: poppler alone joins the
        // two headers into one line ("IngredientsMethod") and mixes the columns.
        let lines = try #require(try extract("samples/recipes/two-column.pdf").pages.first).lines.map(\.text)
        let ingredients = try #require(lines.firstIndex(of: "Ingredients"))
        let method = try #require(lines.firstIndex(of: "Method"))
        let lastIngredient = try #require(lines.firstIndex { $0.contains("lime wedges, to serve") })
        let firstStep = try #require(lines.firstIndex { $0.hasPrefix("1. Heat the oil") })
        #expect(lines.first == "Three Bean Chili")
        #expect(ingredients < lastIngredient && lastIngredient < method && method < firstStep)
        // Every bullet comes before every numbered step, and the steps stay in order.
        let bullets = lines.indices.filter { lines[$0].hasPrefix("•") }
        let steps = lines.indices.filter { lines[$0].first?.isNumber == true && lines[$0].dropFirst().hasPrefix(".") }
        #expect(bullets.max()! < steps.min()!)
        #expect(steps.map { lines[$0].prefix(1) } == ["1", "2", "3", "4", "5"])
    }

    @Test func titleLinesCarryTheirFontSize() throws {
        let pages = try extract("samples/recipes/two-recipes.pdf").pages
        let titles = pages.flatMap { $0.lines.filter { $0.fontSize >= 20 }.map(\.text) }
        #expect(titles == ["Garlic Roast Chicken", "Green Salad"])
        #expect(pages[0].lines.first { $0.text == "Ingredients" }?.bold == true)
    }

    @Test func tableRowsStayWhole() {
        // "2 cups   flour" as a tab-aligned table: the wide gap must not make two columns of it.
        func glyphs(_ text: String, x: Double, y: Double) -> [ReadingOrder.Glyph] {
            text.enumerated().map { offset, character in
                let x1 = x + Double(offset) * 6
                return ReadingOrder.Glyph(character: character, x1: x1, y1: y, x2: x1 + 6, y2: y + 12, size: 11, bold: false)
            }
        }
        var page: [ReadingOrder.Glyph] = []
        for (row, (amount, name)) in [("2 cups", "flour"), ("1 tsp", "salt"), ("3", "eggs"), ("100 g", "butter")].enumerated() {
            page += glyphs(amount, x: 50, y: Double(100 + row * 16)) + glyphs(name, x: 150, y: Double(100 + row * 16))
            page += glyphs("\n", x: 200, y: Double(100 + row * 16))
        }
        // An amount | name table (TableLayout): each row rebuilt from its cells as one ingredient line.
        let lines = ReadingOrder.lines(page).map(\.text)
        #expect(lines == ["2 cups flour", "1 tsp salt", "3 eggs", "100 g butter"])
    }

    @Test func badPDFsFailWithWhatToDo() throws {
        let encrypted = #expect(throws: LarderError.self) { try extract("Tests/Fixtures/encrypted.pdf") }
        #expect(encrypted?.message.contains("encrypted") == true)
        #expect(encrypted?.hint?.contains("qpdf --decrypt") == true)
        let truncated = #expect(throws: LarderError.self) { try extract("Tests/Fixtures/truncated.pdf") }
        #expect(truncated?.message.contains("truncated") == true)
        let empty = #expect(throws: LarderError.self) { try extract("Tests/Fixtures/zero-pages.pdf") }
        #expect(empty?.message.contains("no pages") == true)
        let tooLong = #expect(throws: LarderError.self) { try extract("samples/recipes/two-recipes.pdf", maxPages: 1) }
        #expect(tooLong?.kind == .overLimit)
        #expect(tooLong?.hint?.contains("max_pdf_pages") == true)
        for error in [encrypted, truncated, empty, tooLong] {
            #expect(error?.path?.hasSuffix(".pdf") == true)
            #expect(error?.isRetryable == false)
        }
    }
}
