import Foundation
import Testing
@testable import LarderReceipts

/// Where the item block ends and which priced lines are no purchases (`ItemBlock.swift`): sums printed among the
/// items, discounts the prices already include, deal prices, times and foreign summary words.
@Suite("The item block told by the receipt's arithmetic")
struct ItemBlockTests {
    func d(_ s: String) -> Decimal { Decimal(string: s)! }

    /// A pub's bill: a category line and a previous balance, each the sum of the items above, are no purchases.
    @Test func linesRepeatingTheItemsSumAreNoItems() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("CHAPEL HOTEL", 90), ("3x SOUP 3.95 11.85", 90), ("Lasagne (V) 6.95", 90), ("MISC FOOD 6.95", 90),
            ("2x CHIPS / ONION RINGS 1.75 3.50", 90), ("-FOOD 29.25", 90), ("Prev Bal: 29.25", 90),
        ]))
        #expect(receipt.items.map(\.total) == [d("11.85"), d("6.95"), d("6.95"), d("3.50")])
    }

    /// The last line equal to the printed total, the items adding up to more than it with that line: a total line.
    @Test func aLastLineEqualToTheTotalIsNoItem() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("PANCAKE PARLOUR", 90), ("Bavarian Apple 18.90", 90), ("Chicken Tenders 24.90", 90), ("SALE AUD 43.80", 90),
            ("TOTAL 43.80", 90),
        ]))
        #expect(receipt.items.map(\.total) == [d("18.90"), d("24.90")])
    }

    /// A price that happens to equal the items above stays when dropping it takes the items further from the total.
    @Test func aPriceEqualToTheItemsAboveStaysWhenTheTotalSaysSo() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("BURGER BAR", 90), ("COKE 2.95", 90), ("BEEF EGG 3.00", 90), ("FLURRY 5.95", 90), ("TOTAL 11.98", 90),
        ]))
        #expect(receipt.items.count == 3)
    }

    /// The same purchase twice: the second is no sum even though it equals the total less the first.
    @Test func aNameBoughtTwiceIsNoSum() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("TEA HOUSE", 90), ("Cha Keaw 60.00", 90), ("Cha Keaw 60.00", 90), ("TOTAL 60.00", 90),
        ]))
        #expect(receipt.items.count == 2)
    }

    /// "6.98 Dsc -1.38" under "BURGER SINGLE 5.61": the items already add up to the subtotal, so the discounts
    /// are notes of what the prices took off, not discounts to take again.
    @Test func discountsThePricesIncludeAreNotTakenAgain() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("GAS AND DELI", 90), ("BURGER SINGLE 5.61", 90), ("6.98 Dsc -1.38", 90), ("LARGE SHAKE 9.98", 90),
            ("Subtotal 15.59", 90), ("Tax 0.90", 90), ("TOTAL 16.49", 90),
        ]))
        #expect(receipt.discounts.isEmpty)
        #expect(receipt.items.map(\.total) == [d("5.61"), d("9.98")])
        #expect(receipt.items.allSatisfy { $0.discount == 0 })
    }

    /// Discounts that the subtotal does take off stay discounts.
    @Test func discountsTheSubtotalTakesOffStay() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("CAFE", 90), ("1 BenSPECIAL 12.50", 90), ("Open $ Disc 2.05-", 90), ("1 Caprese 10.00", 90),
            ("Subtotal 20.45", 90), ("Tax 1.94", 90), ("Total 22.39", 90),
        ]))
        #expect(receipt.discounts.count == 1)
    }

    /// Deal prices and a time under the items: "0.20 EA 5 FOR 0.99" prices the oranges above; "4.45 PM" is a time.
    @Test func dealPricesAndTimesAreNoItems() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("SUPERMARKET", 90), ("3 ORANGES (FLORIDA) 0.59", 90), ("0.20 EA5 FOR 0.99", 90), ("2 TANGERINES 0.49", 90),
            ("0.25 GEA 4 FOR 0.99", 90), ("CARNITAS HOG 4.45 PM", 90), ("SUBTOTAL 1.08", 90),
        ]))
        #expect(receipt.items.map(\.total) == [d("0.59"), d("0.49")])
    }

    /// Summary words a till abroad prints: India's halves of GST, Estonian change, Spanish cash.
    @Test func foreignSummaryWordsAreNoItems() {
        #expect(ReceiptParser.summaryKind("SGST @ 9% 27.00") == .tax)
        #expect(ReceiptParser.summaryKind("CGST 9% 27.00") == .tax)
        #expect(ReceiptParser.summaryKind("TAGASI 37.00") == .change)
        #expect(ReceiptParser.summaryKind("CAMBIO 2.00") == .change)
        #expect(ReceiptParser.summaryKind("EFECTIVO 20.00") == .tender)
        #expect(ReceiptParser.summaryKind("PESTO GENOVESE 2.00") == nil)
    }

    /// Under a subtotal the items add up to, a priced line is no purchase; one whose printed rate of the subtotal is
    /// its amount is the tax ("Food - Bulk 6.625% + 0.44" under "Sub Total 6.58").
    @Test func theItemBlockEndsAtASubtotalTheItemsAddUpTo() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("IT SUGAR", 90), ("BULK CANDY 6.58", 90), ("Sub Total: 6.58", 90), ("Food - Bulk 6.625% + 0.44", 90),
            ("Fee 1.20", 90), ("Total 7.02", 90),
        ]))
        #expect(receipt.items.map(\.total) == [d("6.58")])
        #expect(receipt.tax == d("0.44"))
        #expect(receipt.total == d("7.02"))
    }

    /// A subtotal the items do not add up to (misread, or items lost) leaves the block open.
    @Test func aSubtotalTheItemsMissLeavesTheBlockOpen() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("SHOP", 90), ("SOAP 2.00", 90), ("SUBTOTAL 3.95", 90), ("SPONGE 1.50", 90),
        ]))
        #expect(receipt.items.map(\.total) == [d("2.00"), d("1.50")])
    }

    /// A tax line closes the block: the fee under it is no purchase.
    @Test func aTaxLineClosesTheItemBlock() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("SCALINI", 90), ("Burrata 125.00", 90), ("Still Water 22.00", 90), ("VAT 5% 7.35", 90),
            ("Munci Fee 138.54", 90), ("Amount Due 154.35", 90),
        ]))
        #expect(receipt.items.count == 2)
    }

    /// A surcharge under the subtotal that the printed total adds: no item, but part of the total's arithmetic.
    @Test func aSurchargeTheTotalAddsIsTakenAsTax() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("Panera Bread", 90), ("1 Coconut Macaroon 1.09", 90), ("SubTotal 1.09", 90), ("Living Wage 0.05", 90),
            ("Total Tax 0.11", 90), ("Total 1.25", 90),
        ]))
        #expect(receipt.items.map(\.total) == [d("1.09")])
        #expect(receipt.tax == d("0.16"))
        #expect(!receipt.reviewReasons.contains { $0.hasPrefix("total mismatch") }, "\(receipt.reviewReasons)")
    }
}
