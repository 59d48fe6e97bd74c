import Foundation
import Testing
@testable import LarderReceipts

/// The summary block's own arithmetic where the total line was lost or misplaced (`SummaryArithmetic.swift`):
/// taxes that print their rate of the subtotal, and a total line that repeats the tax.
@Suite("Totals from the summary block's arithmetic")
struct SummaryArithmeticTests {
    @Test func subtotalAndTaxesAtTheirPrintedRatesMakeTheTotalWhenItsLineIsUnread() {
        // An Indian café: the total line "BL.TOT ROUNDED 1039.00" unreadable, the service tax's point read as a dash.
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("CARNATIC CAFE", 90), ("PADDU 1.00 120.00 120.00", 80), ("FILTER COFFEE 1.00 60.00 60.00", 90),
            ("SUB.TOT. ITM2 8 210-00 885.00", 40), ("VAT @12.50% ON 885.00 110.63", 70),
            ("GRU-TAX @ 4.90% ON 85. oo 43-37", 50), ("BL.TOT | ROUNDED?", 3),
        ]))
        #expect(receipt.subtotal == Decimal(string: "885.00"))
        #expect(receipt.total == Decimal(string: "1039.00"))
        #expect(receipt.totalInferred)
        #expect(receipt.totalEvidence?.contains("12.5% 110.63") == true, "\(receipt.totalEvidence ?? "-")")
        #expect(receipt.reviewReasons.contains { $0.hasPrefix(ParsedReceipt.inferredTotalReason) })
    }

    @Test func aNetAmountAndItsVATMakeTheTotal() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("RESTAURANT", 90), ("1x Gyros 8,90 1", 90), ("1x Tee 2,10 1", 90), ("Netto(1) Eur 129,75", 75),
            ("+ 19,0% MwSt: 24,65", 75), ("tur 194,40", 47),
        ]))
        #expect(receipt.total == Decimal(string: "154.40"))
        #expect(receipt.totalInferred)
    }

    @Test func aTaxAtAnotherRateInfersNothing() {
        // 8 % of 50.00 is 4.00, not 4.50: the arithmetic does not explain the tax, so no total is made up.
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("DELI", 90), ("SANDWICH 20.00", 90), ("SALAD 30.00", 90), ("SUBTOTAL 50.00", 90), ("TAX 8% 4.50", 90),
        ]))
        #expect(receipt.total == nil)
    }

    @Test func aReadTotalIsNotReplacedByTheRates() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("DELI", 90), ("SANDWICH 20.00", 90), ("SALAD 30.00", 90), ("SUBTOTAL 50.00", 90), ("TAX 8% 4.00", 90),
            ("TOTAL 54.00", 90),
        ]))
        #expect(receipt.total == Decimal(string: "54.00"))
        #expect(!receipt.totalInferred)
    }

    @Test func aTotalRepeatingTheTaxAboveItGivesWayToTheCardPayment() {
        let lines = ocrLines([
            ("HARDWARE", 90), ("1103542 WINDOW CURT 21.99 A", 60), ("5805641 NM ARNTL 150 19.49", 65),
            ("1052587 STOSSEATLRG 69.99", 45), ("Visa 110.81", 86), ("CHANGE 0.00", 84), ("A 10.40% TAX 10.86", 91),
            ("TOTAL TAK 10.86", 90), ("COUPONS TENDERED $ 10.50", 83),
        ])
        let receipt = ReceiptParser().parse(lines: lines)
        #expect(receipt.total == Decimal(string: "110.81"))
        #expect(receipt.totalEvidence?.contains("repeats the tax") == true, "\(receipt.totalEvidence ?? "-")")
        // Without a card payment near the items' sum the total is kept.
        let noCard = ReceiptParser().parse(lines: lines.filter { !$0.text.hasPrefix("Visa") })
        #expect(noCard.total == Decimal(string: "10.86"))
    }

    @Test func printedRatesAndCents() {
        #expect(ReceiptParser.printedRate("VAT @12.50% ON 885.00 110.63") == Decimal(string: "12.50"))
        #expect(ReceiptParser.printedRate("+ 19,0% MwSt: 24,65") == Decimal(19))
        #expect(ReceiptParser.printedRate("TAX 1.21") == nil)
        #expect(ReceiptParser.cents(Decimal(string: "110.625")!) == Decimal(string: "110.63"))
        #expect(ReceiptParser.cents(Decimal(string: "43.365")!) == Decimal(string: "43.37"))
    }
}
