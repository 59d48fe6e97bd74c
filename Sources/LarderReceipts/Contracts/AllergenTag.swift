import Foundation

// The one Swift type for `schemas/allergen.schema.json` (`AllergenTag`), with the allergens its enum lists.

/// The allergens Larder tags: the EU's 14 (with gluten split from wheat, and tree nuts, shellfish =
/// crustaceans, molluscs) plus corn.
public enum Allergen: String, Sendable, Codable, CaseIterable, Hashable {
    case dairy, eggs, peanuts, treeNuts = "tree nuts", wheat, gluten, soy, fish, shellfish, sesame, mustard,
        celery, lupin, molluscs, sulphites, corn
}

/// One allergen found in a name, with the keyword that matched.
public struct AllergenTag: Sendable, Codable, Equatable, Hashable {
    /// The allergen.
    public var allergen: Allergen
    /// The keyword or phrase that matched, lower case (`"peanut butter"`, `"whey"`).
    public var keyword: String

    /// Creates a tag.
    public init(allergen: Allergen, keyword: String) {
        self.allergen = allergen
        self.keyword = keyword
    }
}
