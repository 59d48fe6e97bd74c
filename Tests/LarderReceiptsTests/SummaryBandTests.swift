import Foundation
import Testing
@testable import LarderOCR
@testable import LarderReceipts

/// Where the summary band is found from the lines that were read (`SummaryBand.swift`), and which unconfirmed
/// totals a band reading may bring.
@Suite("The summary band found from the lines read")
struct SummaryBandTests {
    /// Item rows 30 px apart, 24 px high, the price column at x 400–480, then the summary lines given.
    static func receipt(_ summary: [(String, Int)]) -> [OCRLine] {
        let items = ["PERNIL LUNCH 8.59", "CHULETA LUNCH 8.59", "PARCHA 3.99"].enumerated().map { i, text in
            OCRLine(text: text, confidence: 90, box: OCRBox(x: 20, y: 100 + 30 * i, width: 460, height: 24))
        }
        return items + summary.map { text, y in OCRLine(text: text, confidence: 90, box: OCRBox(x: 20, y: y, width: text.count * 14, height: 24)) }
    }

    @Test func theBandRunsFromTheLastItemToThreeLinesUnderTheLastSummaryLine() throws {
        let lines = Self.receipt([("Bar Subtotal: 7.98", 220), ("Food Subtotal: 21.17", 250), ("Tax 1:", 280)])
        let kinds = ReceiptParser().parse(lines: lines).lines.map(\.kind)
        let plan = try #require(OCREngine.summaryBand(lines, kinds: kinds, imageWidth: 600, imageHeight: 1000))
        #expect(plan.rect.y == 184 - 12)                     // the last item's foot, half a line of margin
        #expect(plan.rect.y + plan.rect.height == 280 + 24 + 3 * 24)  // a double-height total and its gap below "Tax 1:"
        #expect(plan.replace == [3, 4, 5] && plan.insertAt == 3)  // the summary lines, not the items
        #expect(plan.rect.x == 0 && plan.rect.x + plan.rect.width >= 480)
    }

    @Test func withoutSummaryLinesTheBandIsUnderTheLastItem() throws {
        let lines = Self.receipt([])
        let kinds = ReceiptParser().parse(lines: lines).lines.map(\.kind)
        let plan = try #require(OCREngine.summaryBand(lines, kinds: kinds, imageWidth: 600, imageHeight: 1000))
        #expect(plan.rect.y == 184 - 12)
        #expect(plan.rect.y + plan.rect.height == 184 + 6 * 24)  // twice as far down without a summary line
        #expect(plan.replace.isEmpty && plan.insertAt == 3)  // the band's lines go after the items
    }

    @Test func aPaymentEndsTheBand() throws {
        let lines = Self.receipt([("Subtotal 21.17", 220), ("Tax 1.90", 250), ("VISA 23.07", 300), ("Thank you", 700)])
        let kinds = ReceiptParser().parse(lines: lines).lines.map(\.kind)
        let plan = try #require(OCREngine.summaryBand(lines, kinds: kinds, imageWidth: 600, imageHeight: 1000))
        #expect(plan.rect.y + plan.rect.height == 300 + 24 + 3 * 24)
        #expect(plan.replace == [3, 4, 5])  // "Thank you" stays
    }

    @Test func theBandsReadingTakesThePlaceOfTheLinesItReplaces() {
        let lines = ["A", "B", "C", "D"].map { OCRLine(text: $0) }
        let plan = OCREngine.SummaryBandPlan(rect: .init(x: 0, y: 0, width: 1, height: 1), replace: [1, 3], insertAt: 1, lineHeight: 1)
        #expect(plan.applied(to: lines, [OCRLine(text: "X")]).map(\.text) == ["A", "X", "C"])
        let end = OCREngine.SummaryBandPlan(rect: .init(x: 0, y: 0, width: 1, height: 1), replace: [], insertAt: 4, lineHeight: 1)
        #expect(end.applied(to: lines, [OCRLine(text: "X")]).map(\.text) == ["A", "B", "C", "D", "X"])
    }

    @Test func anUnconfirmedTotalMustPayForTheItemsAndAPlausibleSurcharge() {
        let receipt = ReceiptParser().parse(text: "CAFE\nSALADE 5.00\nCEVICHE 36.00\nVERRE 6.00\nSODA 3.00")
        #expect(OCREngine.coversItems(Decimal(string: "50.00")!, receipt))
        #expect(OCREngine.coversItems(Decimal(string: "58.50")!, receipt))
        #expect(!OCREngine.coversItems(Decimal(string: "9.00")!, receipt))   // "RESTE A PAYER $9.00": a misread 50.00
        #expect(!OCREngine.coversItems(Decimal(string: "90.00")!, receipt))
        #expect(OCREngine.coversItems(Decimal(string: "9.00")!, ReceiptParser().parse(text: "FUEL\nTOTAL 9.00")))
    }
}
