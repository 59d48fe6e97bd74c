import Foundation
import LarderTestSupport
import Testing

import LarderCore
@testable import LarderEvaluation
@testable import LarderStages

/// Ingredient tables found from word geometry (``TableLayout``): detection, column typing and records on glyph boxes
/// built here, and the layout families of `scripts/data/make-layouts.py` made at test time.
@Suite("PDF tables")
struct PDFTableTests {
    static func glyphs(_ text: String, x: Double, y: Double, size: Double = 10) -> [ReadingOrder.Glyph] {
        PDFLayoutTests.glyphs(text, x: x, y: y, size: size)
    }

    static func cell(_ text: String, x: Double = 100, y: Double, size: Double = 10) -> PDFLine {
        PDFLine(text: text, x: x, y: y, width: Double(text.count) * 6, height: 12, fontSize: size, bold: false)
    }

    /// step | quantity | unit | name | method: the step number stands before the first row, a name wraps, the
    /// method stands beside each group.
    static func stepBesidePage() -> [ReadingOrder.Glyph] {
        var page = glyphs("Ham Soup", x: 60, y: 40, size: 18)
        let rows: [(String?, String, String?, String, String?, Double)] = [
            ("1", "1 1/2", "tbsp", "Ginger Paste", "Warm the paste in the pot,", 100),
            (nil, "3", nil, "Tomatoes, finely", "stirring all the while until it smells", 113),
            (nil, "", nil, "chopped", "sweet.", 126),
            (nil, "2", "cups", "Onion", nil, 139),
            ("2", "4", "cups", "Ham Broth", "Pour in the broth and let", 165),
            (nil, "1", "tsp", "Salt", "it simmer; do not stir them", 178),
            (nil, "", nil, "", "up with the broth.", 191),
        ]
        for (step, quantity, unit, name, method, y) in rows {
            if let step { page += glyphs(step, x: 60, y: y) }
            if !quantity.isEmpty { page += glyphs(quantity, x: 90, y: y) }
            if let unit { page += glyphs(unit, x: 140, y: y) }
            if !name.isEmpty { page += glyphs(name, x: 180, y: y) }
            if let method { page += glyphs(method, x: 300, y: y) }
        }
        return page
    }

    @Test func tableWithStepNumbersAndMethodBesideIsReadAsRecordsThenSteps() {
        let lines = ReadingOrder.lines(Self.stepBesidePage()).map(\.text)
        #expect(lines == [
            "Ham Soup", "1 1/2 tbsp Ginger Paste", "3 Tomatoes, finely chopped", "2 cups Onion", "4 cups Ham Broth",
            "1 tsp Salt", "1. Warm the paste in the pot, stirring all the while until it smells sweet.",
            "2. Pour in the broth and let it simmer; do not stir them up with the broth.",
        ])
    }

    @Test func columnsAreTypedByTheirContent() {
        func kind(_ texts: [String], first: Bool = false, last: Bool = false) -> TableLayout.ColumnKind {
            TableLayout.kind(of: texts.enumerated().map { Self.cell($1, y: Double($0) * 13) }, first: first, last: last)
        }
        #expect(kind(["1", "2", "3"], first: true) == .stepNumber)
        #expect(kind(["1", "1", "1"], first: true) == .quantity, "a column of 1s is quantities, not step numbers")
        #expect(kind(["1 1/2", "½", "2-3", "12 to 15"]) == .quantity)
        #expect(kind(["2 cups", "400 g", "1 tbsp"]) == .amount)
        #expect(kind(["tbsp", "Cups", "g", "teaspoons"]) == .unit)
        #expect(kind(["Ginger Paste", "Tomatoes, finely", "chopped"]) == .name)
        #expect(kind(["Pour in the broth and let", "it simmer; do not stir them", "up with the broth."], last: true) == .prose)
        #expect(kind(["Pour in the broth and let", "it simmer; do not stir them"]) == .name, "prose is the last column")
    }

    @Test func nameCellWrapsAreJoinedOnlyWhenTheLineAboveWasFull() {
        let column = 100.0 + 20 * 6  // the name column ends after 20 characters
        let full = Self.cell("Tomatoes, cut in big", y: 0), short = Self.cell("Salt", y: 0)
        #expect(TableLayout.isWrap(Self.cell("chunks", y: 13), after: full, columnEnd: column))
        #expect(!TableLayout.isWrap(Self.cell("pepper", y: 13), after: short, columnEnd: column), "'pepper' fitted above")
        #expect(TableLayout.isWrap(Self.cell("chopped", y: 13), after: Self.cell("Onion,", y: 0), columnEnd: column))
        #expect(!TableLayout.isWrap(Self.cell("Salt and pepper, to taste", y: 13), after: full, columnEnd: column))
    }

    @Test func twoTextColumnsWithoutQuantitiesAreNoTable() {
        var pieces: [PDFLine] = []
        for k in 0..<5 {
            pieces.append(Self.cell("Left column line \(k) of text", x: 60, y: 100 + Double(k) * 13))
            pieces.append(Self.cell("Right column line \(k) of text", x: 300, y: 100 + Double(k) * 13))
        }
        #expect(TableLayout.rows(of: pieces).count == 5)
        #expect(TableLayout.anchors(of: TableLayout.rows(of: pieces)) == [60, 300])
        #expect(TableLayout.find(pieces).isEmpty)
    }

    @Test func hyphenatedLineEndsAreJoinedWhole() {
        #expect(TableLayout.joinWrapped(["season generou-", "sly with salt"]) == "season generously with salt")
        #expect(TableLayout.joinWrapped(["medium-", "Low heat"]) == "medium- Low heat")
    }

    @Test func wrappedListItemsWithAHangingIndentAreOneItem() {
        let rows = [
            Self.cell("2 cups (450 g) cooked and", x: 60, y: 0), Self.cell("puréed pumpkin", x: 68, y: 13),
            Self.cell("1 tsp salt", x: 60, y: 26), Self.cell("1. Mix well", x: 60, y: 50),
            Self.cell("and rest.", x: 73, y: 63),
        ]
        #expect(ReadingOrder.joinHangingWraps(rows).map(\.text) == [
            "2 cups (450 g) cooked and puréed pumpkin", "1 tsp salt", "1. Mix well", "and rest.",
        ])
    }

    @Test func footnoteMarkerAfterAFullStopIsNotText() {
        var page = Self.glyphs("Serve at once.", x: 60, y: 100)
        page.removeLast()  // the line break
        page.append(ReadingOrder.Glyph(character: "1", x1: 60 + 14 * 6 + 0.3, y1: 96, x2: 60 + 14 * 6 + 4, y2: 102, size: 6, bold: false))
        page.append(ReadingOrder.Glyph(character: "\n", x1: 0, y1: 100, x2: 0, y2: 100, size: 10, bold: false))
        #expect(ReadingOrder.lines(page).map(\.text) == ["Serve at once."])
    }

    /// Two PDFs of each table family, made now by the layout generator, read through the PDF evaluation: every
    /// table family's ingredient lines are found (F1 ≥ 0.85 over the two; they were 0.43–0.94 before tables were
    /// read from geometry).
    @Test(.integration, .sharedData("recipes-scraped"))
    func generatedTableLayoutsAreRead() throws {
        let python = "/usr/bin/python3"
        let probe = try TestSupport.shell("\(python) -c 'import cairo'")
        try #require(probe.status == 0, "skipped: python3-cairo is missing (scripts/setup.sh installs it): \(probe.stderr)")
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let script = TestSupport.repoPath("scripts/data/make-layouts.py")
        let recipes = try #require(SharedData.path("recipes-scraped")) + "/expected_json"
        let made = try TestSupport.shell(
            "\(python) \(script) \(folder) --per-family 2 --seed 5 --recipes \(recipes) "
                + "--families table-qty-unit,table-step-beside,table-amount-box")
        try #require(made.status == 0, "make-layouts.py failed: \(made.stderr)")
        let report = try PDFRecipeEvaluation.run(folder: folder, runner: try DocumentRunner(config: PipelineConfig()))
        #expect(report.overall.documents == 6)
        for (family, totals) in report.perSource {
            #expect(totals.ingredients.f1 >= 0.85, "\(family): ingredient lines F1 \(totals.ingredients.f1)")
            #expect(totals.title >= 0.5, "\(family): titles \(totals.title)")
        }
    }
}
