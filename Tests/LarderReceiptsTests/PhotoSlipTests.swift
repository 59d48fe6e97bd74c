import Foundation
import Testing
@testable import LarderOCR
@testable import LarderReceipts

/// OCR slips on phone photos that the parser reads generally: stray marks after an amount, a zero printed
/// "$.00", SUBTOTAL and TAX misread, French "à payer", savings lines, a row read twice, a stray pound sign.
@Suite("Photo OCR slips in summary lines")
struct PhotoSlipTests {
    @Test func strayMarksAfterTheClosingAmountAreDropped() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("PANDA KITCHEN", 90), ("6/25/2014 1:29 PM", 90), ("1 ENTREE PLATE 12.99", 90), ("2 LARGE SODA 8.58", 90),
            ("Subtotal 21.57 .", 80), ("TAX 1.83:", 80), ("Total: $23.40 )", 80),
        ]))
        #expect(receipt.subtotal == Decimal(string: "21.57"))
        #expect(receipt.tax == Decimal(string: "1.83"))
        #expect(receipt.total == Decimal(string: "23.40"))
        #expect(ReceiptParser.clean("Subtotal 46.00 +") == "Subtotal 46.00")
        #expect(ReceiptParser.clean("fit ht 14.95 =") == "fit ht 14.95")
    }

    @Test func aNegativeInBracketsAndARateKeepTheirMarks() {
        #expect(ReceiptParser.clean("COUPON ($3.29)") == "COUPON ($3.29)")
        #expect(ReceiptParser.clean("RETURN (3.29)") == "RETURN (3.29)")
        #expect(ReceiptParser.clean("TAX 6.00 %") == "TAX 6.00 %")
        #expect(ReceiptParser.clean("COUPON 1.00-") == "COUPON 1.00-")
        #expect(ReceiptParser.clean("KASE STICK 1,99.") == "KASE STICK 1,99")
    }

    @Test func aZeroPrintedWithoutItsLeadingDigitIsAnAmount() {
        #expect(ReceiptParser.parseAmountToken("$.00")?.value == 0)
        #expect(ReceiptParser.parseAmountToken(".00") == nil)  // without a currency sign, a stray mark
        #expect(ReceiptParser.parseAmountToken("+297.00")?.value == 297)  // a mark glued before the digits
        #expect(ReceiptParser.parseAmountToken("*2.99")?.value == Decimal(string: "2.99"))
        // The lone tender is then the amount paid: change $.00 is no change.
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("BURGER STAND", 90), ("Db1 Db1 3.60", 90), ("FF 1.65", 90), ("Sm Coke 1.50", 90),
            ("Amgunt Due $7.3)", 40), ("Visa Tender $7.31", 90), ("Change $.00", 90),
        ]))
        #expect(receipt.change == 0)
        #expect(receipt.total == Decimal(string: "7.31"))
    }

    @Test func subtotalAndTaxMisreadAreStillSummaryLines() {
        #expect(ReceiptParser.summaryKind("SUBTOTE! $43.70") == .subtotal)
        #expect(ReceiptParser.summaryKind("SOHTOTAL $ 14.92") == .subtotal)
        #expect(ReceiptParser.summaryKind("BTOTAL 14,30") == .subtotal)
        #expect(ReceiptParser.summaryKind("TAK 4.28") == .tax)
        // Not every word near SUBTOTAL: TOTAL itself stays the total, and TAK inside a line is no tax.
        #expect(ReceiptParser.summaryKind("TOTAL 47.31") == .total)
        #expect(ReceiptParser.summaryKind("KOPI TAK MANIS 4.50") == nil)
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("JAPAN GRILL", 90), ("2017-02-12", 90), ("1 Soft Drink $2.00", 90), ("1 Hibachi Chicken $13.95", 90),
            ("Subtote! $15.95.", 70), ("TAK $1.36", 70), ("Total: $17.31 )", 70),
        ]))
        #expect(receipt.items.count == 2)
        #expect(receipt.subtotal == Decimal(string: "15.95"))
        #expect(receipt.total == Decimal(string: "17.31"))
    }

    @Test func aRowReadTwiceIsOneItemButALineBoughtTwiceIsTwo() {
        func line(_ text: String, y: Int) -> OCRLine {
            OCRLine(text: text, confidence: 80, box: OCRBox(x: 20, y: y, width: 400, height: 30))
        }
        let twice = ReceiptParser().parse(lines: [
            line("CORNER GROCER", y: 0), line("MILK 1.99.", y: 100), line("MILK 1.99", y: 104), line("BREAD 2.50", y: 140),
            line("TOTAL 4.49", y: 180),
        ])
        #expect(twice.items.map(\.description) == ["MILK", "BREAD"])
        // On separate rows (and in plain text, without boxes) the same line is the same product bought twice.
        let bought = ReceiptParser().parse(lines: [
            line("CORNER GROCER", y: 0), line("MILK 1.99", y: 100), line("MILK 1.99", y: 140), line("TOTAL 3.98", y: 180),
        ])
        #expect(bought.items.count == 2)
        #expect(ReceiptParser().parse(text: "MILK 1.99\nMILK 1.99\nTOTAL 3.98").items.count == 2)
    }

    @Test func aPoundSignInsideANumberDoesNotMakeTheDatesDayFirst() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("IT SUGAR", 90), ("Atlantic City New Jersey 08401", 90), ("BULK CANDY 6.58", 90), ("Total 7.02", 90),
            ("A perator | £60927", 40), ("9/2/2018", 90),
        ]))
        #expect(receipt.currency != "GBP")
        #expect(receipt.date?.iso == "2018-09-02")
        // Beside amounts the pound sign still names the currency, and dates are day-first.
        let uk = ReceiptParser().parse(lines: ocrLines([("CORNER SHOP", 90), ("TEA £3.50", 90), ("Total £3.50", 90), ("9/2/2018", 90)]))
        #expect(uk.currency == "GBP")
        #expect(uk.date?.iso == "2018-02-09")
    }

    @Test func frenchAmountDueAndSavingsLines() {
        #expect(ReceiptParser.summaryKind("NET A PAYER 50,00") == .total)
        #expect(ReceiptParser.summaryKind("RESTE À PAYER 50,00") == .total)
        #expect(ReceiptParser.summaryKind("TOTAL COUPON SAVINGS: $18.00") == .ignored)
        #expect(OCREngine.isTotalLabel("RESTE A PAYER «B00"))
    }
}

/// Where a missing date or total may still be printed (`DateLine.swift`, `SummaryBlock.swift`).
@Suite("Lines worth reading again when no date or no total was read")
struct MissingReadingTests {
    @Test func linesThatMayHoldADate() {
        #expect(OCREngine.mayHoldDate("56/2016 10:43:03 AM"))  // a slash lost, with a time
        #expect(OCREngine.mayHoldDate("FRI 23-19-92"))  // an invalid date shape
        #expect(OCREngine.mayHoldDate("3:12:39 PM"))  // a time: the date is often beside it
        #expect(OCREngine.mayHoldDate("Server: Yoko 9g/03/20"))
        #expect(!OCREngine.mayHoldDate("(386) 714-8625"))  // a phone number
        #expect(!OCREngine.mayHoldDate("916-419-6845"))
        #expect(!OCREngine.mayHoldDate("Tel: 02/511.06.66"))
        #expect(!OCREngine.mayHoldDate("1 Spicy Fish 12.00"))  // a priced line
        #expect(!OCREngine.mayHoldDate("THANK YOU"))
    }

    @Test func aFutureYearIsAMisreadDate() {
        let now = DateComponents(calendar: Calendar(identifier: .gregorian), year: 2026, month: 11, day: 24).date!
        #expect(OCREngine.isFutureYear(2044, now: now))
        #expect(!OCREngine.isFutureYear(2026, now: now) && !OCREngine.isFutureYear(2014, now: now))
        #expect(OCREngine.hasMisreadDate("Host: Gaye 11/10/2099"))
        #expect(!OCREngine.hasMisreadDate("Host: Gaye 11/10/2014"))
    }

    @Test func theSummaryBlockStartsAtTheFirstSummaryLabelAfterTheItems() {
        let lines = ocrLines([
            ("CAR WASH", 90), ("Full Service 24.99", 90), ("Wax 3.00", 90), ("Cashier Sale # 20", 60),
            ("Subtotal", 80), ("2.8", 40), ("21.93", 40),
        ])
        let kinds = ReceiptParser().parse(lines: lines).lines.map(\.kind)
        #expect(OCREngine.summaryBlockStart(lines, kinds: kinds) == 4)
        // Nothing names a summary line: no block to read.
        let none = ocrLines([("CAR WASH", 90), ("Full Service 24.99", 90), ("THANK YOU", 90)])
        #expect(OCREngine.summaryBlockStart(none, kinds: ReceiptParser().parse(lines: none).lines.map(\.kind)) == nil)
    }
}
