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

    @Test func aSubtotalAndTheChargesUnderItMakeTheTotalWhenNoTotalLineWasRead() {
        // A Singapore café: service charge, then the GST line whose label OCR lost, and the total's line unread.
        let lines = ocrLines([
            ("WAWAWA", 90), ("+ Carbonara $15. 80", 85), ("SUBTOTAL $16. 80", 86), ("Tos Svc CHG $1.68", 65),
            ("J $1.29", 62), ("08", 11), ("Close Bill", 49),
        ])
        let receipt = ReceiptParser().parse(lines: lines)
        #expect(receipt.total == Decimal(string: "19.77"), "\(receipt.totalEvidence ?? "-")")
        #expect(receipt.totalInferred)
        #expect(receipt.totalEvidence?.contains("without its label") == true, "\(receipt.totalEvidence ?? "-")")
        #expect(receipt.reviewReasons.contains { $0.hasPrefix(ParsedReceipt.inferredTotalReason) })
        // The charges alone when nothing follows them.
        let charges = ReceiptParser().parse(lines: Array(lines.prefix(4)))
        #expect(charges.total == Decimal(string: "18.48"))
        // A bare amount equal to the sum is the total itself, not one more charge.
        let printed = ReceiptParser().parse(lines: Array(lines.prefix(4)) + ocrLines([("$18.48", 70)]))
        #expect(printed.total == Decimal(string: "18.48"))
    }

    @Test func chargesOfAEuropeanReceiptAreNotAddedToItsSubtotal() {
        // The TVA of a French bill is included in its amounts: subtotal + TVA would count it twice.
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("BRASSERIE", 90), ("CAFE 2.50", 90), ("SOUS-TOTAL 2.50", 90), ("TVA A 0.25", 90),
        ]))
        #expect(receipt.total == nil)
    }

    @Test func amountWithItsMSplitInTwoIsTheTotalLabel() {
        // "Amount" read "Ainount" on a bus ticket: tesseract splits m into "in" or "rn".
        let receipt = ReceiptParser().parse(lines: ocrLines([("Co.Lt", 61), ("Ainount:$, 2.00", 64), ("Type? Adult", 63)]))
        #expect(receipt.total == Decimal(string: "2.00"))
        #expect(ReceiptParser.summaryKind("ARNOUNT 5.00") == .total)
        #expect(ReceiptParser.summaryKind("AINOUNT 5.00") == .total)
        // A word that is no AMOUNT after the join stays as printed.
        #expect(ReceiptParser.summaryKind("MAINSTREET 5.00") == nil)
    }

    @Test func aPaymentCoveringTheSubtotalIsTheTotalWhenNoTotalLineWasRead() {
        // A pharmacy slip: the tax's label and the total's word lost ("78", "Tote 5.35"), paid partly by gift card.
        let lines = ocrLines([
            ("PHARMACY", 90), ("MERCHANDISE 1.06", 45), ("1 BLINK TEARS 7.99", 41), ("? Itens ubtotal 8.57", 81),
            ("78", 90), ("Tote 5.35", 69), ("*GIFTCR* 3.00", 68), ("* CASH PAYMENT * 6.35", 81), ("Tendered 9.35", 64),
            ("Cash Change oo", 81),
        ])
        let receipt = ReceiptParser().parse(lines: lines)
        #expect(receipt.total == Decimal(string: "9.35"), "\(receipt.totalEvidence ?? "-")")
        #expect(receipt.totalInferred)
        // Two payments that could each be the total: nothing inferred.
        let two = ReceiptParser().parse(lines: lines + ocrLines([("VISA 9.80", 80)]))
        #expect(two.total == nil)
        // Cash far above the subtotal (its change unread) is no total.
        let cash = ReceiptParser().parse(lines: Array(lines.prefix(4)) + ocrLines([("CASH 20.00", 90), ("CHANGE", 80)]))
        #expect(cash.total == nil)
    }
}
