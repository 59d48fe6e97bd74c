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
    /// gap, so no price is changed by it.
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

    @Test func oneDigitApartCountsDigits() {
        #expect(ItemArithmetic.oneDigitApart(d("5.95"), d("5.35")))
        #expect(!ItemArithmetic.oneDigitApart(d("5.95"), d("6.03")))
        #expect(!ItemArithmetic.oneDigitApart(d("9.95"), d("10.95")))
    }
}
