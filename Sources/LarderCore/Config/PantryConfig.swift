import Foundation

/// What `larder cook` assumes about the kitchen (`pantry:` in `pipeline.yml`).
public struct PantryConfig: Sendable, Equatable {
    /// Base ingredients assumed on hand whatever the receipts say (`pantry.staples`).
    public var staples: [String] = ["salt", "pepper", "black pepper", "water", "ice", "oil", "vegetable oil", "cooking spray"]
    /// Days an item stays usable after its purchase date, per kind of food (`pantry.fresh_days`); kinds without an
    /// entry never age out. Kinds: produce, roots (onions, garlic, potatoes, squash, which keep for weeks), dairy,
    /// meat, fish, eggs, bakery, pantry.
    public var freshDays: [String: Int] = ["produce": 7, "roots": 30, "dairy": 14, "meat": 3, "fish": 2, "eggs": 28, "bakery": 5]

    public init() {}

    /// The kinds ``freshDays`` may name.
    public static let kinds = ["produce", "roots", "dairy", "meat", "fish", "eggs", "bakery", "pantry"]
    /// Vegetables that keep for weeks.
    static let roots: Set<String> = ["onion", "garlic", "potato", "sweet potato", "shallot", "squash", "butternut squash",
                                     "carrot", "ginger", "red onion", "pumpkin", "beetroot", "turnip", "parsnip"]

    /// The kind of food a lexicon category (and base ingredient) belongs to, for ``freshDays``.
    public static func kind(category: String?, ingredient: String) -> String {
        if roots.contains(ingredient.lowercased()) { return "roots" }
        if ingredient.lowercased() == "butter" { return "dairy" }
        let text = ((category ?? "") + " " + ingredient).lowercased()
        let rules: [(String, [String])] = [
            ("eggs", ["egg"]), ("fish", ["fish", "shellfish", "seafood", "salmon", "tuna", "shrimp"]),
            ("meat", ["meat", "poultry", "beef", "pork", "lamb", "sausage", "chicken", "turkey", "bacon", "ham"]),
            ("dairy", ["dairy", "milk", "cheese", "yogurt", "cream"]),
            ("bakery", ["bakery", "bread", "baked products", "tortilla", "bagel"]),
            ("produce", ["vegetable", "fruit", "herb", "salad", "berries", "spinach", "lettuce"]),
        ]
        let words = Set(text.split(whereSeparator: { !$0.isLetter }).map(String.init))
        for (kind, keys) in rules where keys.contains(where: { key in
            words.contains(key) || words.contains(key + "s") || (key.contains(" ") && text.contains(key))
        }) {
            // Shelf-stable forms of produce and dairy ("canned tomatoes", "milk powder", "dried fruit").
            if ["produce", "dairy"].contains(kind),
               !words.isDisjoint(with: ["canned", "dried", "powder", "frozen", "juice", "juices", "oil", "butter"]) {
                return "pantry"
            }
            return kind
        }
        return "pantry"
    }
}
