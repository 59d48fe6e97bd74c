import Foundation
import Testing
@testable import LarderReceipts

/// What the rest of a receipt says about its store, total and currency when one line is misread: the name
/// printed again, the arithmetic of subtotal, tax and payment, the symbols printed most.
@Suite("Receipt evidence: store named again, total by arithmetic, majority currency")
struct ReceiptEvidenceTests {
    @Test func aThankYouLineNamesTheStoreOverATagline() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("1050 Hancock st", 90), ("Philadelphia, PA 19123", 92), ("Thank You for Visiting, PYT", 95),
            ("Americas Craaaziest Burgers!", 93), ("9/8/2014 3:13:08 PM", 90), ("Burger 12.00", 90), ("Total $12.00", 95),
        ]))
        #expect(receipt.store == "PYT")
        // A header line that contains the name the footer gives is kept whole.
        let caltex = ReceiptParser().parse(lines: ocrLines([
            ("Caltex Central Myrtleford", 88), ("158 Myrtle St.", 95), ("Total $77.43", 90),
            ("Thank you for shopping at Caltex", 90),
        ]))
        #expect(caltex.store == "Caltex Central Myrtleford")
        // "Welcome to the Family" is a slogan about FamilyMart, not another name.
        #expect(StoreEvidence.namedInPhrase("Welcome to the Family") == "Family")
        #expect(StoreEvidence.namedInPhrase("Thanks for visiting Subway. Please let") == "Subway")
        #expect(StoreEvidence.namedInPhrase("Thank you for dining with us") == nil)
        #expect(StoreEvidence.domainName("Order online at chipotle .com") == "chipotle")
    }

    @Test func aNameRepeatedBelowTheHeaderBeatsAConfidentCityLine() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("tuners CARREFOUR exeees", 43), ("SAN PABLO", 90), ("BOLSA CARREFOUR 0,05", 87), ("TOTAL 0,05", 90),
        ]))
        // The line wins over the city; read with confidence 43, it gives way to the chain it names (StoreChains).
        #expect(receipt.store == "Carrefour")
        // A label with its value ("Server: Marcos") or "Visit us at" names no business.
        #expect(StoreEvidence.isLabelOrHeading("Operator: Jamey Vance"))
        #expect(StoreEvidence.isLabelOrHeading("Visit us at"))
        #expect(StoreEvidence.isLabelOrHeading("Bill"))
        #expect(!StoreEvidence.isLabelOrHeading("Karan Beirut - DM"))
        // Only a contact line names the store when its logo was read as junk: the name before the phone.
        let subway = ReceiptParser().parse(lines: ocrLines([
            ("ayifife", 20), ("SUBWAY", 25), ("Subway#1926-0 Phone 858-673-8362", 77), ("11983 Bernardo Plaza Dr.", 90),
            ("1 6\" -Tuna Sub 4.49", 90), ("Total 4.49", 90),
        ]))
        #expect(subway.store == "Subway#1926-0")
        #expect(StoreEvidence.nameBeforeContact("TEL: 03-1234 5678") == nil)
    }

    @Test func theTotalThatSubtotalPlusTaxExplainsWins() {
        // "Balance Due 25,65" is a misread 28.65: subtotal 26.16 + tax 2.49 names the right one.
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("JOHNNY ROCKETS", 90), ("Smoke House 9.29", 90), ("Bacon Cheddar 9.19", 90), ("Chocolate Shake 4,99", 90),
            ("Coke 2.69", 90), ("Subtotal 26.16", 90), ("Tax 2.49", 90), ("Total 28.65", 90), ("Balance Due 25,65", 80),
        ]))
        #expect(receipt.total == Decimal(string: "28.65"))
        // A VAT note read as the total is outvoted by subtotal + service = the cash paid.
        let vat = ReceiptParser().parse(lines: ocrLines([
            ("2 x Coca-Cola £3.90", 90), ("Lunch £12.45", 90), ("Subtotal: £16.35", 90), ("Service (@ 10.00%): £1.64", 90),
            ("VAT Included in total: £2.72", 90), ("Cash: £17.99", 90),
        ]))
        #expect(vat.total == Decimal(string: "17.99"))
        // Items of a tax-inclusive receipt agree with the payment, not with the net total.
        let net = ReceiptParser().parse(lines: ocrLines([
            ("Cappuccino Small 2.30", 90), ("Cappuccino Small 2.30", 90), ("Pain Au Raisin 1.80", 90),
            ("Net Total GBP 5.33", 90), ("Payment 6.40", 90),
        ]))
        #expect(net.total == Decimal(string: "6.40"))
        #expect(TotalArithmetic.choose(total: 10, printedTotals: [10], payments: [12], subtotal: 9, tax: 1, rounding: nil,
                                       itemsNet: nil, tolerance: Decimal(2) / 100) == nil)
    }

    @Test func aTotalLineWithoutItsAmountIsSubtotalPlusTaxAndGoesToReview() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("1 6\" -Tuna Sub 4.49", 90), ("1 -Fresh Value Meal (21-1) 2.75", 90), ("Sub Total 7.24", 90),
            ("Sales Tax (7.75%) 0.47", 90), ("Total (Take Out)", 96), ("Credit Card", 97),
        ]))
        #expect(receipt.total == Decimal(string: "7.71"))
        #expect(receipt.needsReview)
        #expect(receipt.reviewReasons.contains { $0.hasPrefix("total inferred") })
        // Without a total line the subtotal and the charge under it make the total, flagged as inferred
        // (`inferTotalFromCharges`); a charge whose printed rate the arithmetic does not explain stops it.
        let noLine = ReceiptParser().parse(lines: ocrLines([("Sub Total 7.24", 90), ("Sales Tax 0.47", 90)]))
        #expect(noLine.total == Decimal(string: "7.71"))
        #expect(noLine.reviewReasons.contains { $0.hasPrefix("total inferred") })
        let badRate = ReceiptParser().parse(lines: ocrLines([("Sub Total 7.24", 90), ("Sales Tax (7.75%) 0.97", 90)]))
        #expect(badRate.total == nil)
    }

    @Test func garbledTotalWordsAndPrefixes() {
        #expect(ReceiptParser().parse(text: "QTAL: US 317.14").total == Decimal(string: "317.14"))
        #expect(ReceiptParser().parse(text: "gee otal: 12.36 Be").total == Decimal(string: "12.36"))
        #expect(ReceiptParser().parse(text: "Tota}: R288.40").total == Decimal(string: "288.40"))
        #expect(ReceiptParser().parse(text: "ince Due 108.84").total == Decimal(string: "108.84"))
    }

    @Test func itemLinesWithAVATColumnOrTableInsideAWord() {
        let greek = ReceiptParser().parse(text: """
            QTY DESCRIPTION PRICE AMOUNT VAT
            1 PATATES 3.00 3.00 3
            1 SOUVLAKI XOIRINO 2.00 2.00 9
            TOTAL 5.00
            """)
        #expect(greek.items.map(\.total) == [3, 2])
        let chowMein = ReceiptParser().parse(text: "Vegetable Chow Mein 29.00\nTABLE: 21\nTaxable Amount 29.00\nTotal 29.00")
        #expect(chowMein.items.map(\.description) == ["Vegetable Chow Mein"])
        #expect(ReceiptParser().parse(text: "Beef Chow Mein 33.00\n'Amount 33.00").total == 33)
        #expect(ReceiptParser().parse(text: "AMOUNT $85.58\nTIP $12.84\nTOTAL $98.42").total == Decimal(string: "98.42"))
    }

    @Test func theCurrencyIsTheSymbolPrintedMost() {
        // One smudge read as € among dollar prices: a US receipt, whose dates are month-first.
        let receipt = ReceiptParser().parse(text: """
            Rept# :A16000000538 02/08/2016 12:07
            Soup $4.00
            Salad $6.00
            Bread € 2.00
            Total $12.00
            """)
        #expect(receipt.currency == "USD")
        #expect(receipt.date?.iso == "2016-02-08")
        #expect(ReceiptParser().parse(text: "Tea £2.00\nTOTAL £2.00").currency == "GBP")
    }
}
