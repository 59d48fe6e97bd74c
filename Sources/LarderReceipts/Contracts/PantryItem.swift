import Foundation
import LarderJSON

/// A food item bought on a receipt, as a pantry app reads it: the one Swift type for
/// `schemas/pantry-item.schema.json`. ``PantryExtraction`` makes them from a parsed receipt; the `llm` stage from
/// the items a model read.
public struct PantryItem: Codable, Sendable, Equatable {
    public struct Source: Codable, Sendable, Equatable {
        /// The receipt document's SHA-256 (or file name).
        public var receipt: String
        /// The 1-based line the item was read from.
        public var line: Int

        public init(receipt: String, line: Int) {
            self.receipt = receipt
            self.line = line
        }
    }

    /// The base ingredient (`"chicken breast"`); the product in lower case when no lexicon entry matched (then
    /// ``needsReview`` is true and ``evidence`` says so).
    public var ingredient: String
    /// The product as printed (`"BNLS SKNLS CHKN BRST"`).
    public var product: String
    /// How much was bought: the weight of a weighed item, the pack size printed in the description times the count
    /// (`RED LENTILS 2LB` → 2 pound), or the count (``quantity(for:)``); to the thousandth.
    @ExplicitNull public var quantity: Decimal?
    /// A canonical unit as recipes use them: `"pound"`, `"ounce"`, `"gram"`, …, or `"each"` for counts.
    @ExplicitNull public var unit: String?
    /// What was paid for the line after attached discounts, to the cent.
    @ExplicitNull public var price: Decimal?
    /// `YYYY-MM-DD`, when the receipt showed a date.
    @ExplicitNull public var purchaseDate: String?
    public var source: Source
    /// Allergens of the ingredient (of the product when unmatched).
    public var allergens: [AllergenTag]
    /// 0–1: the normaliser's confidence times the OCR confidence.
    public var confidence: Double
    /// The rules and lexicon entries the ingredient rests on, joined with "; ".
    public var evidence: String
    /// A person should confirm the ingredient (unmatched, low confidence, or the receipt needs review).
    public var needsReview: Bool

    /// Makes an item; `ingredient` nil (no lexicon match) becomes the product in lower case, and an empty
    /// `evidence` says "no lexicon match".
    public init(
        ingredient: String?, product: String, quantity: Decimal?, unit: String?, price: Decimal?,
        purchaseDate: String?, source: Source, allergens: [AllergenTag], confidence: Double, evidence: [String],
        needsReview: Bool
    ) {
        self.ingredient = ingredient ?? product.lowercased()
        self.product = product
        self.quantity = quantity?.rounded(places: 3).positive
        self.unit = unit
        self.price = price?.rounded(places: 2)
        self.purchaseDate = purchaseDate
        self.source = source
        self.allergens = allergens
        self.confidence = min(max(confidence, 0), 1)
        self.evidence = evidence.isEmpty ? "no lexicon match" : evidence.joined(separator: "; ")
        self.needsReview = needsReview
    }
}

/// A receipt line kept out of the pantry, with the rule that blocked it (in the `receipt` stage's output).
public struct BlockedLine: Codable, Sendable, Equatable {
    /// The description as printed.
    public var description: String
    /// The 1-based line it starts on.
    public var line: Int
    /// `"household: PAPER TOWEL"`, `"generic-term: wood"`, `"coupon: discount line"`, …
    public var rule: String

    public init(description: String, line: Int, rule: String) {
        self.description = description
        self.line = line
        self.rule = rule
    }
}
