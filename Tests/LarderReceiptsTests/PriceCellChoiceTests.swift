import Foundation
import LarderTestSupport
import Testing
@testable import LarderOCR
@testable import LarderReceipts

/// Which item lines have their price cell read again, and which unsure readings are kept (PriceColumn.swift).
@Suite("Price cells read again: where the items start, and unsure readings the arithmetic confirms")
struct PriceCellChoiceTests {
    static func lines(_ texts: [String]) -> [OCRLine] { ReadingCheckTests.lines(texts) }

    static func reading(_ index: Int, _ text: String, confidence: Double) -> OCREngine.CellReading {
        OCREngine.CellReading(index: index, line: OCRLine(text: text, confidence: confidence,
                                                           box: OCRBox(x: 20, y: 40 + 30 * index, width: 400, height: 24)),
                              confidence: confidence)
    }

    /// Items whose prices were all garbled lie between the header and the subtotal, the first priced line: the body
    /// starts after the header the parser found, not at the subtotal.
    @Test func itemsAboveTheFirstPricedLineAreInTheBody() {
        let lines = Self.lines(["CORNER GROCER", "12 MAIN STREET", "11/02/2026", "WHOLE MILK 3,4%", "RYE BREAD $2",
                                "SUBTOTAL 5.99", "TOTAL 5.99"])
        let end = lines.firstIndex { ReceiptParser.isTotalLine($0.text) }!
        let start = OCREngine.bodyStart(lines, end: end, parsed: ReceiptParser().parse(lines: lines))
        #expect(start == 3)
        // With an item that kept its price, the body still starts after the header, not at that item.
        let priced = Self.lines(["CORNER GROCER", "12 MAIN STREET", "11/02/2026", "WHOLE MILK", "RYE BREAD 2.50",
                                 "TOTAL 5.99"])
        #expect(OCREngine.bodyStart(priced, end: 5, parsed: ReceiptParser().parse(lines: priced)) == 3)
        // Without a header found, the first priced line.
        let bare = Self.lines(["WHOLE MILK", "RYE BREAD 2.50", "TOTAL 5.99"])
        #expect(OCREngine.bodyStart(bare, end: 2, parsed: ReceiptParser().parse(lines: bare)) == 1)
    }

    /// An unsure reading is kept only when the items then add up to the total; of two, the set that adds up.
    @Test func unsureReadingsAreKeptOnlyWhenTheItemsThenAddUp() throws {
        let lines = Self.lines(["CORNER GROCER", "11/02/2026", "WHOLE MILK 3.49", "RYE BREAD", "OAT BAR", "TOTAL 7.49"])
        #expect(!ReadingCheck(lines).addsUp)
        let right = Self.reading(3, "RYE BREAD 2.50", confidence: 40)
        let other = Self.reading(4, "OAT BAR 1.50", confidence: 55)
        let chosen = try #require(OCREngine.readingsThatAddUp(lines, [right, other]))
        #expect(chosen.map(\.index).sorted() == [3, 4])
        // 3.49 + 2.50 alone does not reach 7.49; a wrong reading that does not add up is not kept.
        #expect(OCREngine.readingsThatAddUp(lines, [right]) == nil)
        #expect(OCREngine.readingsThatAddUp(lines, [Self.reading(3, "RYE BREAD 2.80", confidence: 90)]) == nil)
        // Lines that add up already take nothing.
        let sure = Self.lines(["CORNER GROCER", "11/02/2026", "WHOLE MILK 3.49", "TOTAL 3.49"])
        #expect(OCREngine.readingsThatAddUp(sure, [Self.reading(2, "WHOLE MILK 3.49", confidence: 40)]) == nil)
    }
}
