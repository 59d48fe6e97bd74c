import Foundation
import Testing
@testable import LarderReceipts

/// Item structure across lines (`ItemBlock.swift`): a numbers-only line prices the name above it, a weight line is
/// the detail of its item, and product codes stay out of item names.
@Suite("Items across lines")
struct ItemLinesTests {
    func d(_ s: String) -> Decimal { Decimal(string: s)! }

    /// A name line, then a quantity × unit price line with its total and a tax-class mark: one item, named above.
    @Test func aQuantityLinePricesTheNameAbove() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("HARBOUR GRILL", 90), ("19.09.2014", 90), ("SEABREAM OR SEABASS", 90), ("1.00 x 125.00 G- 125,00", 90),
            ("OCTOPUS TERRINE", 90), ("1,000 x 10,00 G- 10,00", 90), ("TOTAL 135.00", 90),
        ]))
        #expect(receipt.items.map(\.description) == ["SEABREAM OR SEABASS", "OCTOPUS TERRINE"])
        #expect(receipt.items.map(\.total) == [d("125.00"), d("10.00")])
    }

    /// "Bx ( 0,43 ) 3.44": a pack count and unit price under the name, loose letters among the numbers.
    @Test func aPackLineWithLooseLettersPricesTheNameAbove() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("SUPERMERCADO", 90), ("PAN S/CORTEZA 1,97", 90), ("FANTA NARANJA LATA", 90), ("Bx ( 0,43 ) 3.44", 90),
            ("TOTAL 5.41", 90),
        ]))
        #expect(receipt.items.map(\.description) == ["PAN S/CORTEZA", "FANTA NARANJA LATA"])
    }

    /// A word on the second line is a name: "1 Tea 1.85" under a name line is an item of its own.
    @Test func aLineWithAWordIsNoNumbersLine() {
        #expect(ReceiptParser.isNumbersOnly("1,000 x 100,00 G-"))
        #expect(ReceiptParser.isNumbersOnly("0.44 Ibé 14.96"))
        #expect(ReceiptParser.isNumbersOnly("@ 10.00"))
        #expect(!ReceiptParser.isNumbersOnly("1 Tea"))
        #expect(!ReceiptParser.isNumbersOnly("SODA 2 x"))
        #expect(!ReceiptParser.isNumbersOnly("Bx"))
    }

    /// A weighed item: the name (after its PLU code) above, the weight line with the price under it.
    @Test func aWeightLinePricesTheNameAbove() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("CANDY SHOP", 90), ("1000028489 BULK CANDY", 90), ("0.44 Ibé 14.96 6.58*", 90), ("Sub Total: 6.58", 90),
        ]))
        #expect(receipt.items.map(\.description) == ["BULK CANDY"])
        #expect(receipt.items.map(\.total) == [d("6.58")])
    }

    /// A weight line under a priced item, its @ read as a 6: the item's detail, not an item.
    @Test func aWeightLineUnderAnItemIsItsDetail() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("SUPERMARKET", 90), ("1 YELLOW ONIONS 0.99", 90), ("1 PEPPER (GREEN) 0.56", 90),
            ("0.71 lbs 60.79 Ib TW 0.01", 90), ("SUBTOTAL 1.55", 90),
        ]))
        #expect(receipt.items.map(\.description) == ["YELLOW ONIONS", "PEPPER (GREEN)"])
        #expect(receipt.items[1].lineNumbers == [3, 4])
    }

    /// UPC/EAN/PLU codes are no part of a name; a name that is only a code keeps it.
    @Test func productCodesStayOutOfNames() {
        #expect(ReceiptParser.withoutProductCode("400168560758 8.5oz Dark Bag") == "8.5oz Dark Bag")
        #expect(ReceiptParser.withoutProductCode("TODD GRLS APPAR 400898406210 C") == "TODD GRLS APPAR")
        #expect(ReceiptParser.withoutProductCode("NEW BALANCE 1500 TRE") == "NEW BALANCE 1500 TRE")
        #expect(ReceiptParser.withoutProductCode("400898406210 C") == "400898406210 C")
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("SHOE STORE", 90), ("0884497634708 WMNS NIKE FLEX 59.99", 90), ("TOTAL 59.99", 90),
        ]))
        #expect(receipt.items.map(\.description) == ["WMNS NIKE FLEX"])
    }

    /// Fields printed as "Label: value" are no items, priced or not; an item with a colon in its name stays.
    @Test func fieldLinesAreNoItems() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("THE LOFT", 90), ("Date: Nov 11, 2014", 90), ("Current Term: touch3", 90), ("6,60", 90),
            ("GALLONS: 6.28", 90), ("1 Crostini 5.50", 90), ("BAEFRI.VOLLKORN: 50 1,19", 90), ("Total 6.69", 90),
        ]))
        #expect(receipt.items.map(\.total) == [d("5.50"), d("1.19")])
        #expect(ReceiptParser.isFieldLabel("Balance: 100.00"))
        #expect(!ReceiptParser.isFieldLabel("BAEFRI.VOLLKORN: 50 1,19"))
    }

    /// A line printing a rate under the subtotal is a charge on the items, also when the items read fall short of it.
    @Test func aRatedLineUnderTheSubtotalIsNoItem() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("MARINA BAY", 90), ("1 Sate Udang Jawa 2.00", 90), ("1 Angus Rendang 32.00", 90), ("Subtotal 57.00", 90),
            ("10% Svc Chg 5.70", 90),
        ]))
        #expect(receipt.items.map(\.description) == ["Sate Udang Jawa", "Angus Rendang"])
    }
}
