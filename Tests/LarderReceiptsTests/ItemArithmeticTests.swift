import Foundation
import Testing
@testable import LarderReceipts

/// Item prices checked against the receipt's own arithmetic (`ItemArithmetic`): a price misread by one digit is
/// repaired when a sum printed twice alike fixes it, and re-read prices are kept when they make the items add up.
@Suite("Item prices by the receipt's arithmetic")
struct ItemArithmeticTests {
    func d(_ s: String) -> Decimal { Decimal(string: s)! }

    /// A burger bar's lines as a photo reads them: "2.28" printed 2.29; subtotal and total − tax agree on 13.27.
    @Test func aPriceOneDigitOffASubtotalPrintedTwiceIsRepaired() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("SMASHBURGER", 90), ("Spinach & Goat Smash 6.69", 90), ("With Reg Smash Fry 2.28", 70), ("Vanilla Shake 4.29", 90),
            ("Subtotal 13.27", 90), ("Tax 0.93", 90), ("Total 14.20", 90),
        ]))
        #expect(receipt.items.map(\.total) == [d("6.69"), d("2.29"), d("4.29")])
        #expect(receipt.reviewReasons.contains { $0.hasPrefix("price repaired") }, "\(receipt.reviewReasons)")
    }

    /// The total alone is one printing: an untaxed total over a tax printed as "included" elsewhere may be the
    /// gap, so no price read as surely as the total is changed by it.
    @Test func aTotalPrintedOnceRepairsNothing() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("BURGER BAR", 90), ("COKE 2.95", 90), ("BEEF EGG 3.00", 90), ("FLURRY 5.95", 90), ("TOTAL 11.98", 90),
        ]))
        #expect(receipt.items.map(\.total) == [d("2.95"), d("3.00"), d("5.95")])
    }

    /// Two prices one digit from the gap: the arithmetic cannot tell which one was misread.
    @Test func twoCandidatesRepairNothing() {
        let targets = [ItemArithmetic.Target(value: d("10.00"), how: "subtotal"), ItemArithmetic.Target(value: d("10.00"), how: "total")]
        let fix = ItemArithmetic.singleDigitRepair(prices: [d("5.60"), d("4.90")], net: d("10.50"), targets: targets,
                                                   quantityPrices: [nil, nil])
        #expect(fix == nil)
        let one = ItemArithmetic.singleDigitRepair(prices: [d("5.60"), d("4.90")], net: d("10.50"), targets: targets,
                                                   quantityPrices: [d("5.60"), nil])
        #expect(one?.index == 1 && one?.value == d("4.40"))
    }

    /// Two equal prices, either of which one digit from the gap to a sum printed twice alike: the one whose word
    /// OCR read clearly less surely is the misread one; read about as surely, neither is changed.
    @Test func ofTwoCandidatesTheClearlyLessSureWordIsRepaired() {
        func parse(_ first: Double, _ second: Double) -> [Decimal] {
            ReceiptParser().parse(lines: [
                OCRLine(text: "CAFE ROMA"), wordLine([("WATER", 90), ("5.00", first)]), wordLine([("SIDE", 90), ("5.00", second)]),
                wordLine([("CAKE", 90), ("12.00", 90)]), wordLine([("SUBTOTAL", 90), ("20.00", 90)]),
                wordLine([("TAX", 90), ("2.00", 90)]), wordLine([("TOTAL", 90), ("22.00", 90)]),
            ]).items.map(\.total)
        }
        #expect(parse(40, 88) == [d("3.00"), d("5.00"), d("12.00")])
        #expect(parse(88, 40) == [d("5.00"), d("3.00"), d("12.00")])
        #expect(parse(85, 80) == [d("5.00"), d("5.00"), d("12.00")])
    }

    /// A subtotal printed once (no total read to confirm it) repairs the one price that closes the gap only when
    /// that price's word was read clearly less surely than the subtotal's amount; of two such prices, none (the
    /// confidences choose only against a sum printed twice).
    @Test func aSumPrintedOnceRepairsOnlyTheOnePriceReadLessSurelyThanIt() {
        func parse(subtotal: String, salad: Double, at confidence: Double) -> [Decimal] {
            ReceiptParser().parse(lines: [
                OCRLine(text: "CORNER BISTRO"), wordLine([("LEMONADE", 90), ("4.80", 85)]), wordLine([("SODA", 90), ("2.90", 45)]),
                wordLine([("SALAD", 90), ("6.20", salad)]), wordLine([("Subtotal:", 90), (subtotal, confidence)]),
            ]).items.map(\.total)
        }
        // 6.20 → 6.50 alone closes the gap to 14.20.
        #expect(parse(subtotal: "14.20", salad: 50, at: 90) == [d("4.80"), d("2.90"), d("6.50")])
        #expect(parse(subtotal: "14.20", salad: 50, at: 55) == [d("4.80"), d("2.90"), d("6.20")])
        #expect(parse(subtotal: "14.20", salad: 88, at: 90) == [d("4.80"), d("2.90"), d("6.20")])
        // 4.80 → 4.30 or 2.90 → 2.40 close the gap to 13.40: no choice against a sum printed once.
        #expect(parse(subtotal: "13.40", salad: 92, at: 95) == [d("4.80"), d("2.90"), d("6.20")])
    }

    @Test func leastSureNeedsAClearMargin() {
        let found: [(index: Int, value: Decimal, how: String)] = [(0, d("3.00"), "subtotal"), (1, d("3.00"), "subtotal")]
        #expect(ItemArithmetic.leastSure(found, confidences: [40, 60])?.index == 0)
        #expect(ItemArithmetic.leastSure(found, confidences: [60, 55]) == nil)
        // One price that could take two values: no choice.
        #expect(ItemArithmetic.leastSure([(0, d("3.00"), "subtotal"), (0, d("8.00"), "total")], confidences: [10]) == nil)
    }

    @Test func oneDigitApartCountsDigits() {
        #expect(ItemArithmetic.oneDigitApart(d("5.95"), d("5.35")))
        #expect(!ItemArithmetic.oneDigitApart(d("5.95"), d("6.03")))
        #expect(!ItemArithmetic.oneDigitApart(d("9.95"), d("10.95")))
    }

    @Test func oneDigitLostNeedsTheReadingToBeThePrintWithOneDigitLess() {
        #expect(ItemArithmetic.oneDigitLost(read: d("9.00"), printed: d("90.00")))
        #expect(ItemArithmetic.oneDigitLost(read: d("2.00"), printed: d("25.00")))
        #expect(ItemArithmetic.oneDigitLost(read: d("1.50"), printed: d("11.50")))
        #expect(!ItemArithmetic.oneDigitLost(read: d("9.00"), printed: d("91.50")))
        #expect(!ItemArithmetic.oneDigitLost(read: d("9.00"), printed: d("9.50")))
        #expect(!ItemArithmetic.oneDigitLost(read: d("9.00"), printed: d("900.00")))
    }

    /// "1 Spritz 9.00" printed 90.00 (OCR lost a 0, read less surely than the subtotal): the one price that, with
    /// the lost digit back, makes the items add up to the subtotal printed once; read as surely, nothing changes.
    @Test func aPriceThatLostADigitIsRestoredByTheSubtotal() {
        func parse(spritz: Double) -> [Decimal] {
            ReceiptParser().parse(lines: [
                OCRLine(text: "TRATTORIA"), wordLine([("1", 90), ("Burrata", 90), ("125.00", 90)]),
                wordLine([("1", 90), ("Spritz", 90), ("9.00", spritz)]), wordLine([("1", 90), ("Water", 90), ("22.00", 90)]),
                wordLine([("Subtotal", 90), ("237.00", 92)]),
            ]).items.map(\.total)
        }
        #expect(parse(spritz: 40) == [d("125.00"), d("90.00"), d("22.00")])
        #expect(parse(spritz: 90) == [d("125.00"), d("9.00"), d("22.00")])
    }
    /// A line with its words, each with a confidence (the boxes do not matter here).
    func wordLine(_ words: [(String, Double)]) -> OCRLine {
        OCRLine(text: words.map(\.0).joined(separator: " "), confidence: 80,
                words: words.map { OCRWord(text: $0.0, confidence: $0.1, box: OCRBox(x: 0, y: 0, width: 1, height: 1)) })
    }

    /// "2 Lunga 13.90 27.60" printed 27.80: the total's word was read less surely than the unit price's, and the
    /// count times the unit price is one digit from it. "KESARI BATH 1.00 85.00 88.00" the same with a count of one.
    @Test func aLineTotalOneDigitFromItsQuantityTimesUnitPriceIsTheProduct() {
        let receipt = ReceiptParser().parse(lines: [
            OCRLine(text: "PASTA DIVINA"), OCRLine(text: "1 Caprese 12.50"),
            wordLine([("2", 32), ("Lunga", 32), ("13.90", 85), ("27.60", 71)]),
            wordLine([("KESARI", 77), ("BATH", 97), ("1.00", 56), ("85.00", 79), ("88.00", 23)]),
        ])
        #expect(receipt.items.map(\.total) == [d("12.50"), d("27.80"), d("85.00")])
        #expect(receipt.items[1].unitPrice == d("13.90"))
        #expect(receipt.reviewReasons.contains { $0.contains("quantity × unit price") }, "\(receipt.reviewReasons)")
    }

    /// The total read as surely as the unit price, or the product far from it, or no words: nothing changes.
    @Test func aSurerTotalOrAFarProductIsKept() {
        #expect(ReceiptParser.totalByQuantity([w("2", 90), w("Lunga", 90), w("13.90", 70), w("27.60", 85)],
                                              total: d("27.60"), quantity: 2, wholeUnits: false) == nil)
        #expect(ReceiptParser.totalByQuantity([w("2", 90), w("Lunga", 90), w("13.90", 90), w("31.60", 50)],
                                              total: d("31.60"), quantity: 2, wholeUnits: false) == nil)
        #expect(ReceiptParser.totalByQuantity(nil, total: d("27.60"), quantity: 2, wholeUnits: false) == nil)
    }

    /// "FREYIN (4 @130.00) 20.00": a leading digit lost from the total (520.00) against a count of its own; with a
    /// count of one, "(313.00 13.00" ("(3 Pcs) 13.00" glued) may as well be a digit gained by the unit price.
    @Test func aLostLeadingDigitNeedsACountAboveOne() {
        let fix = ReceiptParser.totalByQuantity([w("FREYIN", 92), w("(4", 92), w("@130.00)", 86), w("20.00", 85)],
                                                total: d("20.00"), quantity: nil, wholeUnits: false)
        #expect(fix?.total == d("520.00") && fix?.unitPrice == d("130.00"))
        #expect(ReceiptParser.totalByQuantity([w("1", 90), w("Buffalo", 90), w(":", 40), w("(313.00", 80), w("13.00", 60)],
                                              total: d("13.00"), quantity: 1, wholeUnits: false) == nil)
    }

    func w(_ text: String, _ confidence: Double) -> OCRWord {
        OCRWord(text: text, confidence: confidence, box: OCRBox(x: 0, y: 0, width: 1, height: 1))
    }

    /// "130-00": a dot-matrix point read as a hyphen, below an item already read; above the items ("Meja : 4-08",
    /// a table number) it is no amount.
    @Test func aHyphenForTheDecimalPointBelowTheFirstItem() {
        let receipt = ReceiptParser().parse(text: """
            CARNATIC CAFE
            Meja 3 4-08
            PADDU 1.00 120.00 120.00
            MALLESHWARAM 18 1.00 130-00 130-00
            PALM TREE SKRT ST 12-50
            """)
        #expect(receipt.items.map(\.total) == [d("120.00"), d("130.00"), d("12.50")], "\(receipt.items)")
    }

    /// "1 CVS ALOE SANITIZER 2Z 1.997": the tax flag T glued to the price read as a 7, on two or more item lines;
    /// one such line alone is left as it is.
    @Test func aTaxFlagReadAsSevenOnSeveralLines() {
        let lines = ["CVS PHARMACY", "1 CONAIR LFT EACH 4,297", "1 CVS ALOE SANITIZER 2Z 1.997", "1 CVS TRVL TB 1CT 1.997.",
                     "PMPR SNSTV POUCH 18CT 1.57", "SUBTOTAL 9.84"]
        let receipt = ReceiptParser().parse(text: lines.joined(separator: "\n"))
        #expect(receipt.items.map(\.total) == [d("4.29"), d("1.99"), d("1.99"), d("1.57")], "\(receipt.items)")
        let one = ReceiptParser.taxFlagsReadAsSeven(["SHOP", "WEIGHT ITEM 1.997", "BREAD 2.49"])
        #expect(one == ["SHOP", "WEIGHT ITEM 1.997", "BREAD 2.49"])
    }

    /// A card's name, then its product code and price with a speck's letters read before the code.
    @Test func aCodeLineWithSpecksPricesThePendingName() {
        let receipt = ReceiptParser().parse(text: """
            SUE'S HALLMARK
            CARD THANKS CROWN 720473536751 5.99
            GARD. MDAY GRANDMOTHER
            bs 720873462272 4.99 T
            SUBTOTAL $10.98
            """)
        #expect(receipt.items.map(\.total) == [d("5.99"), d("4.99")], "\(receipt.items)")
        #expect(receipt.items.last?.description.contains("GRANDMOTHER") == true, "\(receipt.items)")
    }
    /// "DK BL 508 TWILL - 22.99 R": the name's hyphen read as a minus; as an item the lines add up to the subtotal
    /// and total. A real discount line, or a minus whose item would not make the sum, stays a discount.
    @Test func aMinusThatIsTheNamesHyphenIsAnItemWhenTheSumSaysSo() {
        let receipt = ReceiptParser().parse(text: """
            ROSS DRESS FOR LESS
            400111378515 PE CHARCOAL SMALL 24.99 R
            400110228446 X CK OPP GREY SOLI 29.99 R
            400102111190 DK BL 508 TWILL - 22.99 R
            Subtotal $77.97
            Total $77.97
            """)
        #expect(receipt.items.map(\.total) == [d("24.99"), d("29.99"), d("22.99")], "\(receipt.items)")
        #expect(receipt.discounts.isEmpty)
        let kept = ReceiptParser().parse(text: """
            ROSS DRESS FOR LESS
            PE CHARCOAL SMALL 24.99 R
            DK BL 508 TWILL - 2.00 R
            Subtotal $22.99
            Total $22.99
            """)
        #expect(kept.items.map(\.total) == [d("24.99")] && kept.discounts.map(\.amount) == [d("2.00")])
    }
}

