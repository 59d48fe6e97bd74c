import Foundation
import LarderJSON
import LarderReceipts
import Testing

@testable import LarderCore

/// The receipt contracts' Swift types (`Receipt`, `PantryItem`, `AllergenTag` in LarderReceipts/Contracts) checked
/// against their schemas: what the types encode validates, and the allergen enum is the schema's.
@Suite("receipt contracts against their schemas")
struct ContractSchemaTests {
    private func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    @Test func receiptsAndPantryItemsValidate() throws {
        let catalog = try SchemaCatalog.embedded.get()
        let parsed = ReceiptParser().parse(
            text: """
                VALLEY FOODS CO-OP
                12 MAIN ST
                DATE 01/27/2026 14:05
                ROLLED OATS BULK
                1.27 lb @ 2.50/lb 3.18
                PEANUT BUTTER 16OZ 3.50
                COUPON PEANUT BUTTER -0.50
                PAPER TOWELS 2PK 4.79
                SUBTOTAL 10.97
                TAX 0.40
                TOTAL 11.37
                CASH 20.00
                CHANGE 8.63
                """)
        let receipt = Receipt(parsed, ocrLines: [])
        #expect(!receipt.items.isEmpty && receipt.totals.total != nil)
        #expect(try catalog.validate(json: json(receipt), against: "receipt.schema.json").isEmpty)
        // A receipt OCR read nothing from still has the required keys (null).
        let blank = Receipt(ReceiptParser().parse(text: ""), ocrLines: [])
        #expect(try catalog.validate(json: json(blank), against: "receipt.schema.json").isEmpty)
        let pantry = PantryExtraction(receipt: parsed, receiptID: "valley", normalizer: try IngredientNormalizer())
        #expect(!pantry.items.isEmpty)
        for item in pantry.items {
            #expect(try catalog.validate(json: json(item), against: "pantry-item.schema.json").isEmpty, "\(item)")
        }
    }

    @Test func theAllergenEnumIsTheSchemas() throws {
        let schema = try JSONValue(parsing: SchemaCatalog.embedded.get().text(of: "allergen.schema.json"))
        let listed = schema["properties"]?["allergen"]?["enum"]?.arrayValue?.compactMap(\.stringValue)
        #expect(listed == Allergen.allCases.map(\.rawValue))
    }
}
