import Foundation
import LarderTestSupport
import Testing
@testable import LarderEvaluation
@testable import LarderOCR
@testable import LarderReceipts

/// Rows rebuilt from word boxes (`WordRows`) on synthetic tilted receipts: every word is placed where a printed
/// row at a known slope puts it, then grouped into "tesseract lines" the wrong way.
@Suite("Rows from word boxes")
struct WordRowsTests {
    static let height = 20

    /// A word `text` whose left edge is at `x` on printed row `row` (rows 40 px apart) of a page tilted by `slope`.
    static func word(_ text: String, row: Int, x: Int, slope: Double, confidence: Double = 90) -> OCRWord {
        let width = 14 * text.count
        let y = 100 + 40 * row + Int((slope * Double(x + width / 2)).rounded())
        return OCRWord(text: text, confidence: confidence, box: OCRBox(x: x, y: y, width: width, height: height))
    }

    /// A tesseract line made of `words`, its text the words joined as tesseract joins them.
    static func line(_ words: [OCRWord]) -> OCRLine {
        WordRows.row(words, page: 1)
    }

    static let items = [("MILK", "2.49"), ("BREAD", "3.19"), ("EGGS", "4.99"), ("APPLES", "5.25"), ("RICE", "1.89")]

    /// The name words of item `k` and its price word, on row `k`.
    static func itemWords(_ k: Int, slope: Double) -> (name: [OCRWord], price: OCRWord) {
        let (name, price) = items[k]
        return ([word("FRESH", row: k, x: 20, slope: slope), word(name, row: k, x: 120, slope: slope)],
                word(price, row: k, x: 700, slope: slope))
    }

    @Test func namesAndPricesSplitByTiltComeBackTogether() {
        // Tilted 3° down to the right: each price sits 35 px (almost a row) below its name, and tesseract
        // read names and prices as separate lines.
        let slope = 0.05
        var lines: [OCRLine] = []
        for k in Self.items.indices {
            let (name, price) = Self.itemWords(k, slope: slope)
            lines.append(Self.line(name))
            lines.append(Self.line([price]))
        }
        let rows = WordRows.rebuild(lines)
        #expect(rows.map(\.text) == Self.items.map { "FRESH \($0.0) \($0.1)" })
        #expect(ReceiptParser().parse(lines: rows).items.map(\.description).count == Self.items.count)
    }

    @Test func aPriceJoinedToTheNextRowMovesToItsOwn() {
        // Rows 0, 3 and 4 are read whole (they set the slope); tesseract joined row 1's name with row 2's price
        // and read row 2's name with row 1's price.
        let slope = 0.04
        let w = (0..<Self.items.count).map { Self.itemWords($0, slope: slope) }
        let lines = [
            Self.line(w[0].name + [w[0].price]),
            Self.line(w[1].name + [w[2].price]),
            Self.line(w[2].name + [w[1].price]),
            Self.line(w[3].name + [w[3].price]),
            Self.line(w[4].name + [w[4].price]),
        ]
        let rows = WordRows.rebuild(lines)
        #expect(rows.map(\.text) == Self.items.map { "FRESH \($0.0) \($0.1)" })
    }

    @Test func straightLinesAreLeftAlone() {
        let lines = (0..<Self.items.count).map { k in
            let (name, price) = Self.itemWords(k, slope: 0)
            return Self.line(name + [price])
        } + [OCRLine(text: "TOTAL 17.81", box: OCRBox(x: 20, y: 320, width: 700, height: 20))]
        #expect(WordRows.rebuild(lines) == lines)
    }

    @Test func rebuildingTwiceChangesNothingMore() {
        let slope = -0.03
        var lines: [OCRLine] = []
        for k in Self.items.indices {
            let (name, price) = Self.itemWords(k, slope: slope)
            lines += [Self.line(name), Self.line([price])]
        }
        let once = WordRows.rebuild(lines)
        #expect(once.count == Self.items.count)
        #expect(WordRows.rebuild(once) == once)
    }

    @Test func aLargeHeadingIsNotJoinedToBodyText() {
        // A heading twice the body height beside a small line at the same height stays a line of its own.
        let heading = OCRLine(text: "SUPERMARKET", confidence: 90, box: OCRBox(x: 20, y: 90, width: 300, height: 44),
                              words: [OCRWord(text: "SUPERMARKET", box: OCRBox(x: 20, y: 90, width: 300, height: 44))])
        let side = Self.line([Self.word("No.12", row: 0, x: 600, slope: 0)])
        let rest = (1..<Self.items.count).map { k in
            let (name, price) = Self.itemWords(k, slope: 0)
            return Self.line(name + [price])
        }
        let lines = [heading, side] + rest
        #expect(WordRows.rebuild(lines) == lines)
    }

    @Test func slopeIsFittedThroughTheWordCentres() throws {
        let words = [Self.word("A", row: 0, x: 0, slope: 0.1), Self.word("BB", row: 0, x: 200, slope: 0.1),
                     Self.word("CCC", row: 0, x: 500, slope: 0.1)]
        let fitted = try #require(WordRows.fittedSlope(words))
        #expect(abs(fitted.slope - 0.1) < 0.005)
        // Too short a line to say.
        #expect(WordRows.fittedSlope([Self.word("A", row: 0, x: 0, slope: 0), Self.word("B", row: 0, x: 20, slope: 0)]) == nil)
    }

    @Test func chooseKeepsTesseractLinesWhenTheRebuiltParseIsWorse() {
        // Nothing to gain: the lines are kept as they are.
        let lines = (0..<Self.items.count).map { k in
            let (name, price) = Self.itemWords(k, slope: 0)
            return Self.line(name + [price])
        }
        #expect(WordRows.chooseRows(lines, always: false) == lines)
    }

    @Test func aRowEndsAtThePriceInTheColumn() {
        // Rows 0-2 end in their price; row 3's price is followed by a tax flag and a smudge read as "the", row 4's
        // price has a mark glued before it and an arrow after it.
        var lines = (0..<3).map { k in
            let (name, price) = Self.itemWords(k, slope: 0)
            return Self.line(name + [price])
        }
        let (name3, price3) = Self.itemWords(3, slope: 0)
        lines.append(Self.line(name3 + [price3, Self.word("R", row: 3, x: 790, slope: 0), Self.word("the", row: 3, x: 830, slope: 0)]))
        let (name4, _) = Self.itemWords(4, slope: 0)
        lines.append(Self.line(name4 + [Self.word("p1.89", row: 4, x: 686, slope: 0), Self.word("->", row: 4, x: 790, slope: 0)]))
        let ended = WordRows.endedAtPriceColumn(lines)
        #expect(ended.map(\.text) == Self.items.map { "FRESH \($0.0) \($0.1)" })
        #expect(ReceiptParser().parse(lines: ended).items.map(\.total) == Self.items.map { Decimal(string: $0.1)! })
    }

    @Test func anAmountOutsideThePriceColumnIsNotTakenForThePrice() {
        // A weight in the middle of a row ("2.34 lb") is left of the column: the row stays as read.
        var lines = (0..<4).map { k in
            let (name, price) = Self.itemWords(k, slope: 0)
            return Self.line(name + [price])
        }
        lines.append(Self.line([Self.word("BANANAS", row: 4, x: 20, slope: 0), Self.word("2.34", row: 4, x: 300, slope: 0),
                                Self.word("lb", row: 4, x: 370, slope: 0)]))
        #expect(WordRows.endedAtPriceColumn(lines) == lines)
    }

    @Test func priceCellsKeepTheirMinusAndDropMarks() {
        #expect(WordRows.priceCell("«9.00") == "9.00")
        #expect(WordRows.priceCell("22,.00") == "22.00")
        #expect(WordRows.priceCell("2,42xB") == "2,42")
        #expect(WordRows.priceCell("$3.79") == "$3.79")
        #expect(WordRows.priceCell("33.99-A") == "33.99-")
        #expect(WordRows.priceCell("0.29-") == "0.29-")
        #expect(WordRows.priceCell("50.00->") == "50.00")
        #expect(WordRows.priceCell("CEREALE") == nil)
        #expect(WordRows.priceCell("12/03/16") == nil)
    }
}
