import Foundation
import LarderTestSupport
import Testing

@testable import LarderCore
@testable import LarderEvaluation
@testable import LarderStages
import LarderRecipes

/// Layout analysis of PDF pages (``ReadingOrder``, ``PageFurniture``) on glyph boxes laid out like real cookbook
/// pages, and `larder eval pdfs` on the shared recipe PDFs when they are present.
@Suite("PDF layout")
struct PDFLayoutTests {
    /// Glyphs of `text` from (x, y), 6 pt apart, `size` pt tall, ending with a line break.
    static func glyphs(_ text: String, x: Double, y: Double, size: Double = 10, width: Double = 6) -> [ReadingOrder.Glyph] {
        text.enumerated().map { offset, character in
            let x1 = x + Double(offset) * width
            return ReadingOrder.Glyph(
                character: character, x1: x1, y1: y, x2: x1 + width, y2: y + size * 1.2, size: size, bold: false)
        } + [ReadingOrder.Glyph(character: "\n", x1: 0, y1: y, x2: 0, y2: y, size: size, bold: false)]
    }

    @Test func ingredientColumnBesideStepsWithHangingNumbersIsReadApart() {
        // Ingredients on the left; steps on the right whose numbers hang 13 pt left of their wrapped lines.
        var page: [ReadingOrder.Glyph] = []
        page += Self.glyphs("Ingredients", x: 70, y: 90) + Self.glyphs("Instructions", x: 257, y: 90)
        page += Self.glyphs("2 onions", x: 70, y: 110) + Self.glyphs("1. Chop the onions and", x: 257, y: 110)
        page += Self.glyphs("mince the garlic.", x: 270, y: 122)
        page += Self.glyphs("1 tsp salt", x: 70, y: 130) + Self.glyphs("2. Fry the onions in", x: 257, y: 142)
        page += Self.glyphs("3 tbsp oil", x: 70, y: 150) + Self.glyphs("the oil until brown.", x: 270, y: 154)
        let lines = ReadingOrder.lines(page).map(\.text)
        #expect(lines == [
            "Ingredients", "2 onions", "1 tsp salt", "3 tbsp oil", "Instructions", "1. Chop the onions and",
            "mince the garlic.", "2. Fry the onions in", "the oil until brown.",
        ])
    }

    @Test func tableSetInTwoColumnsIsReadDownThenAcross() {
        // qty | unit | name, twice per row (a multicol ingredient table): left records first, then right ones.
        var page: [ReadingOrder.Glyph] = []
        let rows = [("1", "large", "eggplant", "1 tsp salt"), ("4", "clove", "garlic", "1 tsp cumin"), ("3", "Tbs", "olive oil", "")]
        for (k, row) in rows.enumerated() {
            let y = Double(100 + k * 12)
            page += Self.glyphs(row.0 + " ", x: 70, y: y).dropLast() + Self.glyphs(row.1 + " ", x: 90, y: y).dropLast()
            page += Self.glyphs(row.2 + " ", x: 140, y: y).dropLast()
            page += row.3.isEmpty ? Self.glyphs(" ", x: 230, y: y) : Self.glyphs(row.3, x: 230, y: y)
        }
        let lines = ReadingOrder.lines(page).map(\.text)
        #expect(lines == ["1 large  eggplant", "4 clove  garlic", "3 Tbs  olive oil", "1 tsp salt", "1 tsp cumin"])
    }

    @Test func dropCapitalStepNumberLabelsItsStep() {
        // A "1" set two lines tall beside a step: it labels the step and does not swallow the second line.
        var page: [ReadingOrder.Glyph] = []
        page += Self.glyphs("1", x: 72, y: 100, size: 30, width: 15)
        page += Self.glyphs("Am Vortag die Kichererbsen", x: 94, y: 101)
        page += Self.glyphs("in Wasser einweichen.", x: 94, y: 114)
        let lines = ReadingOrder.lines(page)
        #expect(lines.map(\.text) == ["1. Am Vortag die Kichererbsen", "in Wasser einweichen."])
        #expect(lines[0].fontSize == 10)
    }

    @Test func stackedFractionReadsWithASlash() {
        // "Baking powder, " then a small 1 set over a small 8, then "teaspoon".
        var page = Array(Self.glyphs("Baking powder, ", x: 50, y: 100).dropLast())
        page.append(ReadingOrder.Glyph(character: "1", x1: 140, y1: 97, x2: 144, y2: 103, size: 7, bold: false))
        page.append(ReadingOrder.Glyph(character: "8", x1: 140, y1: 104, x2: 144, y2: 110, size: 7, bold: false))
        page += Self.glyphs(" teaspoon", x: 146, y: 100)
        #expect(ReadingOrder.lines(page).map(\.text) == ["Baking powder, 1/8 teaspoon"])
    }

    @Test func layoutTreeSetsFurnitureApartAndMarksBoxes() {
        var page: [ReadingOrder.Glyph] = []
        page += Self.glyphs("Hummus", x: 72, y: 20)  // running header
        page += Self.glyphs("1. Soak the chickpeas overnight in", x: 72, y: 100)
        page += Self.glyphs("plenty of cold water.", x: 72, y: 112)
        page += Self.glyphs("2. Cook them for an hour until", x: 72, y: 124)
        page += Self.glyphs("they are soft.", x: 72, y: 136)
        page += Self.glyphs("200 g chickpeas", x: 320, y: 100) + Self.glyphs("1 lemon", x: 320, y: 118)
        page += Self.glyphs("3 Tbs olive oil", x: 320, y: 130)
        page += Self.glyphs("7", x: 290, y: 800)  // page number
        let (lines, blocks) = ReadingOrder.layout(page, pageHeight: 842)
        #expect(blocks.map(\.kind) == [.header, .body, .pageNumber])
        let body = blocks[1]
        #expect(body.children.map(\.kind) == [.column, .box])
        let boxLines = body.children[1].allLines.map { lines[$0].text }
        #expect(boxLines == ["200 g chickpeas", "1 lemon", "3 Tbs olive oil"])
        #expect(LayoutText.render(ExtractOutput(format: .pdf, pages: [
            PDFPageText(number: 1, width: 595, height: 842, text: "", spans: [], lines: lines, blocks: blocks),
        ], needsOCR: false)).contains("[box]"))
    }

    @Test func lettersSetApartByMathItalicsAreOneWord() {
        // "2 f l oz rum": poppler puts spaces between "f", "l" and "oz" (1 pt apart); a word space is 3+ pt.
        func g(_ c: Character, _ x1: Double, _ x2: Double) -> ReadingOrder.Glyph {
            ReadingOrder.Glyph(character: c, x1: x1, y1: 100, x2: x2, y2: 110, size: 10, bold: false)
        }
        let line = [g("2", 50, 55), g(" ", 55, 59), g("f", 59, 63), g(" ", 63, 64), g("l", 64, 66), g(" ", 66, 67),
                    g("o", 67, 72), g("z", 72, 76), g(" ", 76, 80), g("r", 80, 84), g("u", 84, 89), g("m", 89, 95)]
        #expect(ReadingOrder.lines(line + [g("\n", 0, 0)]).map(\.text) == ["2 floz rum"])
    }

    @Test func raisedFractionQuantityJoinsItsUnitAndName() {
        // "1 1/2" set 3 pt higher than "C chickpeas" (an \sfrac), 22 pt to its left; more rows below and beside.
        var page: [ReadingOrder.Glyph] = []
        page += Self.glyphs("1 1/2", x: 58, y: 140.7)
        page += Self.glyphs("C chickpeas", x: 110, y: 143.8)
        page += Self.glyphs("1 poblano", x: 72, y: 156) + Self.glyphs("2 tsp cumin", x: 200, y: 143.8)
        page += Self.glyphs("1 tsp sage", x: 200, y: 156)
        let lines = ReadingOrder.lines(page).map(\.text)
        #expect(lines.contains { $0.hasPrefix("1 1/2 C chickpeas") })
        #expect(!lines.contains("1 1/2"))
        #expect(!ReadingOrder.isRaisedQuantity("1/2 onion, white"))
        #expect(ReadingOrder.isRaisedQuantity("3/2 Tbs"))
    }

    @Test func citedReferencesAtTheFootAreFootnotesNotSteps() {
        var page: [ReadingOrder.Glyph] = []
        page += Self.glyphs("Daiquiri", x: 50, y: 35, size: 14)
        page += Self.glyphs("The Cocktail Seminars [1]", x: 80, y: 66)
        page += Self.glyphs("2 fl oz rum", x: 120, y: 112) + Self.glyphs("1 fl oz lime juice", x: 120, y: 124)
        page += Self.glyphs("0. Shake with ice, strain into a coupe.", x: 50, y: 150)
        page += Self.glyphs("[1] Brian D. Hoefling. The Cocktail Seminars. 2021.", x: 50, y: 196, size: 8)
        let (lines, blocks) = ReadingOrder.layout(page, pageHeight: 612)
        let footnotes = blocks.filter { $0.kind == .footnote }.flatMap(\.allLines).map { lines[$0].text }
        #expect(footnotes == ["[1] Brian D. Hoefling. The Cocktail Seminars. 2021."])
        let body = blocks.filter { $0.kind == .body }.flatMap(\.allLines).map { lines[$0].text }
        #expect(!body.contains { $0.contains("Hoefling") })
    }

    @Test func measuredListBesideRunningTextIsABox() {
        // Steps that wrap (lines opening in lower case) beside an equally wide list of "Name, amount" lines.
        var page: [ReadingOrder.Glyph] = []
        page += Self.glyphs("1. In your mug, mix", x: 40, y: 87) + Self.glyphs("Milk, 5 tablespoons", x: 200, y: 87)
        page += Self.glyphs("together the milk, egg", x: 54, y: 99) + Self.glyphs("Egg, 1", x: 200, y: 101)
        page += Self.glyphs("and the sugar until", x: 54, y: 111) + Self.glyphs("Sugar, 1 tablespoon", x: 200, y: 116)
        page += Self.glyphs("combined.", x: 54, y: 123)
        let (_, blocks) = ReadingOrder.layout(page, pageHeight: 612)
        #expect(blocks.first { $0.kind == .body }?.children.map(\.kind) == [.column, .box])
    }

    @Test func bulletedListInTwoColumnsIsReadDownThenAcross() {
        // "• Apples  • 1/2 cup Flour" on each row: two bulleted lists side by side.
        var page: [ReadingOrder.Glyph] = []
        let rows = [("• Apples (peeled)", "• 1/2 cup Flour"), ("• 1 cup Oatmeal", "• 1/2 tsp Cinnamon"),
                    ("• 3/4 cup Brown Sugar", "• 1/2 cup Butter")]
        for (k, row) in rows.enumerated() {
            page += Self.glyphs(row.0, x: 54, y: Double(250 + 20 * k)) + Self.glyphs(row.1, x: 300, y: Double(250 + 20 * k))
        }
        #expect(ReadingOrder.lines(page).map(\.text) == [
            "• Apples (peeled)", "• 1 cup Oatmeal", "• 3/4 cup Brown Sugar", "• 1/2 cup Flour", "• 1/2 tsp Cinnamon",
            "• 1/2 cup Butter",
        ])
    }

    /// A stacked fraction whose numerator poppler gives as a line of its own (before the line of its
    /// denominator) reads as one fraction; a whole number before a raised fraction stays apart from it.
    @Test func stackedAndRaisedFractionsReadAsFractions() {
        // "1" (small, raised) over the "16" of "Baking soda, 16 teaspoon", in a poppler line of its own.
        var page = Self.glyphs("1", x: 171, y: 96, size: 6, width: 4)
        page += Array(Self.glyphs("Baking soda, ", x: 100, y: 100).dropLast()) + Array(Self.glyphs("16", x: 168, y: 104, size: 6, width: 4).dropLast())
            + Self.glyphs(" teaspoon", x: 176, y: 100)
        #expect(ReadingOrder.lines(page).map(\.text) == ["Baking soda, 1/16 teaspoon"])
        // \sfrac: "1" then a smaller raised "1", "/", a smaller lowered "2".
        var raised = Array(Self.glyphs("1", x: 100, y: 100).dropLast())
        raised += Array(Self.glyphs("1", x: 106, y: 99, size: 6, width: 4).dropLast())
        raised += Array(Self.glyphs("/", x: 110, y: 99, size: 10, width: 4).dropLast())
        raised += Array(Self.glyphs("2", x: 114, y: 103, size: 6, width: 4).dropLast())
        raised += Self.glyphs(" cup milk", x: 118, y: 100)
        #expect(ReadingOrder.lines(raised).map(\.text) == ["1 1/2 cup milk"])
    }

    @Test func marginNotesSetFlushRightAreAColumnOfTheirOwn() {
        // Steps on the left; short notes ending at x = 380 (ragged on the left) beside them, on baselines of their own.
        var page: [ReadingOrder.Glyph] = []
        let steps = ["0. Add spices, salt and sugar to the jar.", "1. Slice the garlic and add it.",
                     "2. Slice the vegetables and pack them.", "3. Bring vinegar and water to a boil."]
        let notes = ["Prefer un-", "iodized salt", "to stop", "discoloration."]  // four different left edges
        for (k, (step, note)) in zip(steps, notes).enumerated() {
            let y = Double(100 + 14 * k)
            page += Self.glyphs(step, x: 50, y: y, width: 5) + Self.glyphs(note, x: 380 - Double(note.count) * 5, y: y + 6, width: 5)
        }
        let lines = ReadingOrder.lines(page).map(\.text)
        #expect(lines == steps + notes)
    }

    /// The PDFs of scripts/data/make-layout-fixtures.py (one per layout) with their truth files: every title, ingredient
    /// line and step read exactly.
    @Test(arguments: ["ingredient-table", "side-box", "box-per-step", "two-column-page", "running-header-title", "german"])
    func ownLayoutFixturesAreReadExactly(_ name: String) throws {
        let folder = TestSupport.repoPath("Tests/Fixtures/layout")
        let doc = try #require(try PDFEvaluation.loadDocuments(folder: folder).first { $0.name == name })
        let (recipes, routed, _) = PDFRecipeEvaluation.read(doc.pdfPath, runner: try DocumentRunner(config: PipelineConfig()))
        let result = PDFEvaluation.score(doc, recipes: recipes, routedAsRecipe: routed)
        #expect(result.mistakes.isEmpty, "\(name): \(result.mistakes.joined(separator: "; "))")
        #expect(result.ingredients.matched == result.ingredients.truth)
        #expect(result.steps.matched == result.steps.truth)
    }

    @Test(.integration) func showLayoutPrintsTheBlocksOfAnIngestedPDF() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let pdf = TestSupport.repoPath("Tests/Fixtures/layout/side-box.pdf")
        let ingest = try TestSupport.larder(["ingest", "--db", folder + "/db.sqlite", pdf])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let show = try TestSupport.larder(["show", "--layout", "--db", folder + "/db.sqlite", pdf])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains("[box]"))
        #expect(show.stdout.contains("1 onion, chopped"))
        #expect(show.stdout.contains("[column]"))
    }

    @Test(.sharedData("recipes-pdf"), .slow)
    func sharedRecipePDFsAreRead() throws {
        let report = try PDFRecipeEvaluation.run(
            folder: try #require(SharedData.path("recipes-pdf")), runner: try DocumentRunner(config: PipelineConfig()))
        #expect(report.overall.documents == 72)
        // Floors 0.01 below the baseline's figures (`make measure`, benchmarks/baseline.json): a regression on the
        // development set fails.
        #expect(report.overall.title >= Baseline.floor("pdfs", "title", margin: 0.01))
        #expect(report.overall.ingredients.f1 >= Baseline.floor("pdfs", "ingredient lines F1", margin: 0.01))
        #expect(report.overall.steps.f1 >= Baseline.floor("pdfs", "steps F1", margin: 0.01))
        let german = report.documents.filter { $0.language == "de" }
        #expect(german.filter(\.routedAsRecipe).count == 8, "German recipes are routed as recipes")
    }
}
