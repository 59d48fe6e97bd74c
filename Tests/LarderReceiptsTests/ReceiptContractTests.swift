import Foundation
import LarderReceipts
import Testing

/// `Receipt` and `PantryItem` are the one Swift type each for `receipt.schema.json` and `pantry-item.schema.json`:
/// money is `Decimal`, written with exactly its digits and read back exactly from results stored when it was a
/// `Double`.
@Suite("receipt and pantry contracts")
struct ReceiptContractTests {
    private func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func sumsAreExactDecimals() throws {
        // 0.10 + 0.20 is 0.30000000000000004 in binary floating point; the check must say 0.3.
        let parsed = ReceiptParser().parse(
            text: """
                CORNER SHOP
                DATE 01/27/2026
                MINT 0.10
                BASIL 0.20
                TOTAL 0.30
                """)
        let receipt = Receipt(parsed, ocrLines: [])
        #expect(receipt.items.map(\.total) == [Decimal(string: "0.1"), Decimal(string: "0.2")])
        #expect(receipt.check.computed == Decimal(string: "0.3") && receipt.check.addsUp == true)
        let text = try json(receipt.check)
        #expect(text == #"{"addsUp":true,"computed":0.3,"printed":0.3}"#)
        #expect(try JSONDecoder().decode(Receipt.self, from: Data(json(receipt).utf8)) == receipt)
    }

    @Test func resultsStoredWithDoublesReadBackExactly() throws {
        // What ReceiptRecord (Double) wrote: the same digits come back, byte for byte.
        let stored = #"{"change":0.01,"subtotal":19.99,"tax":1.6,"tendered":40,"total":21.59}"#
        let totals = try JSONDecoder().decode(Receipt.Totals.self, from: Data(stored.utf8))
        #expect(totals.subtotal == Decimal(string: "19.99") && totals.total == Decimal(string: "21.59"))
        #expect(try json(totals) == stored)
    }

    @Test func pantryItemsRoundMoneyAndNameUnmatchedProducts() throws {
        let item = PantryItem(
            ingredient: nil, product: "XQZT FLRBNZ", quantity: 0, unit: nil, price: Decimal(string: "1.005"),
            purchaseDate: nil, source: PantryItem.Source(receipt: "r", line: 4), allergens: [], confidence: 1.5,
            evidence: [], needsReview: true)
        #expect(item.ingredient == "xqzt flrbnz" && item.evidence == "no lexicon match")
        #expect(item.price == Decimal(string: "1.01") && item.quantity == nil && item.confidence == 1)
        let text = try json(item)
        #expect(text.contains(#""price":1.01"#) && text.contains(#""quantity":null"#))
    }
}
