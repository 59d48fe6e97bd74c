import Foundation

/// Pantry items and blocked lines from one receipt.
public struct PantryExtraction: Sendable, Codable, Equatable {
    /// Food items (matched or flagged for review — never dropped).
    public var items: [PantryItem]
    /// Non-food lines with the rule that blocked each.
    public var blocked: [BlockedLine]

    /// Turns a parsed receipt into pantry items: each item is normalised, blocked lines are recorded with
    /// their rule, allergens are tagged, and anything unmatched or low-confidence is kept with
    /// `needsReview`.
    public init(receipt: ParsedReceipt, receiptID: String, normalizer: IngredientNormalizer,
                tagger: AllergenTagger = AllergenTagger()) {
        items = []
        blocked = []
        for item in receipt.items {
            let match = normalizer.normalize(item.description)
            if match.status == .blocked {
                blocked.append(BlockedLine(description: item.description, line: item.lineNumbers.first ?? 0,
                                           rule: match.blockedBy ?? "blocked"))
                continue
            }
            let confidence = match.confidence * min(1, item.confidence)
            let amount = PantryItem.quantity(for: item)
            items.append(PantryItem(
                ingredient: match.baseIngredient, product: item.description,
                quantity: amount.quantity, unit: amount.unit, price: item.total - item.discount,
                purchaseDate: receipt.date?.iso, source: PantryItem.Source(receipt: receiptID, line: item.lineNumbers.first ?? 1),
                allergens: tagger.tags(for: match.baseIngredient ?? item.description),
                confidence: confidence, evidence: match.evidence + (amount.evidence.map { [$0] } ?? []),
                needsReview: match.status != .matched || receipt.needsReview))
        }
        for discount in receipt.discounts {
            blocked.append(BlockedLine(description: discount.description, line: discount.lineNumber,
                                       rule: "coupon: discount line"))
        }
    }
}
