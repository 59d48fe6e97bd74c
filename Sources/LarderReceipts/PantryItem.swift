import Foundation

/// A pantry entry made from one receipt item.
public struct PantryItem: Sendable, Codable, Equatable {
    /// The base ingredient (`"chicken breast"`); `nil` when unmatched (then ``needsReview`` is true).
    public var baseIngredient: String?
    /// The product description as printed.
    public var productDescription: String
    /// How much was bought: the weight of a weighed item, the pack size printed in the description times
    /// the count (`RED LENTILS 2LB` → 2 pound), or the count.
    public var quantity: Decimal?
    /// A canonical unit as recipes use them: `"pound"`, `"ounce"`, `"gallon"`, `"gram"`, `"milliliter"`, …,
    /// or `"each"` for counts (see ``PackSize``).
    public var unit: String?
    /// What was paid for the line, after attached discounts.
    public var price: Decimal
    /// ISO 4217 currency of ``price``.
    public var currency: String
    /// `YYYY-MM-DD`, when the receipt showed a date.
    public var purchaseDate: String?
    /// The id of the source receipt (e.g. its file name).
    public var sourceReceipt: String
    /// 1-based line number(s) on the receipt.
    public var lineNumbers: [Int]
    /// Allergens of the base ingredient (or of the description when unmatched).
    public var allergens: [AllergenTag]
    /// 0–1: the normaliser's confidence times the OCR confidence.
    public var confidence: Double
    /// How the base ingredient was found (rules and lexicon entries).
    public var evidence: [String]
    /// `true` when a person should check it (unmatched, low confidence, receipt needs review).
    public var needsReview: Bool

    /// Creates a pantry item.
    public init(baseIngredient: String?, productDescription: String, quantity: Decimal?, unit: String?,
                price: Decimal, currency: String, purchaseDate: String?, sourceReceipt: String,
                lineNumbers: [Int], allergens: [AllergenTag], confidence: Double, evidence: [String], needsReview: Bool) {
        self.baseIngredient = baseIngredient
        self.productDescription = productDescription
        self.quantity = quantity
        self.unit = unit
        self.price = price
        self.currency = currency
        self.purchaseDate = purchaseDate
        self.sourceReceipt = sourceReceipt
        self.lineNumbers = lineNumbers
        self.allergens = allergens
        self.confidence = confidence
        self.evidence = evidence
        self.needsReview = needsReview
    }
}

/// A receipt line kept out of the pantry, with the rule that blocked it.
public struct BlockedReceiptLine: Sendable, Codable, Equatable {
    /// The description as printed.
    public var description: String
    /// 1-based line number(s).
    public var lineNumbers: [Int]
    /// `"household: PAPER TOWEL"`, `"generic-term: wood"`, …
    public var rule: String
}

/// Pantry items and blocked lines from one receipt.
public struct PantryExtraction: Sendable, Codable, Equatable {
    /// Food items (matched or flagged for review — never dropped).
    public var items: [PantryItem]
    /// Non-food lines with the rule that blocked each.
    public var blocked: [BlockedReceiptLine]

    /// Turns a parsed receipt into pantry items: each item is normalised, blocked lines are recorded with
    /// their rule, allergens are tagged, and anything unmatched or low-confidence is kept with
    /// `needsReview`.
    public init(receipt: Receipt, receiptID: String, normalizer: IngredientNormalizer,
                tagger: AllergenTagger = AllergenTagger()) {
        items = []
        blocked = []
        for item in receipt.items {
            let match = normalizer.normalize(item.description)
            if match.status == .blocked {
                blocked.append(BlockedReceiptLine(description: item.description, lineNumbers: item.lineNumbers,
                                                  rule: match.blockedBy ?? "blocked"))
                continue
            }
            let confidence = match.confidence * min(1, item.confidence)
            let amount = PantryItem.quantity(for: item)
            items.append(PantryItem(
                baseIngredient: match.baseIngredient, productDescription: item.description,
                quantity: amount.quantity, unit: amount.unit, price: item.total - item.discount,
                currency: receipt.currency, purchaseDate: receipt.date?.iso, sourceReceipt: receiptID,
                lineNumbers: item.lineNumbers, allergens: tagger.tags(for: match.baseIngredient ?? item.description),
                confidence: confidence, evidence: match.evidence + (amount.evidence.map { [$0] } ?? []),
                needsReview: match.status != .matched || receipt.needsReview))
        }
        for discount in receipt.discounts {
            blocked.append(BlockedReceiptLine(description: discount.description, lineNumbers: [discount.lineNumber],
                                              rule: "coupon: discount line"))
        }
    }
}
