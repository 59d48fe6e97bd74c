import Foundation
import LarderReceipts
import LarderRecipes

/// What can I cook with what I bought (`larder cook`): recipes ranked by how much of them the pantry covers.
///
/// Each recipe ingredient (optional ones aside) is **on hand** when a fresh pantry item has its base ingredient —
/// or the base of one of its alternatives, or the same food in another form through the lexicon's parents
/// ("ground cumin" ↔ "cumin seeds") — **assumed** when its base is a staple (`pantry.staples`), else **missing**.
/// A pantry item older than its kind's `pantry.fresh_days` (counted to ``asOf``) is **stale** and does not count.
/// When the units are comparable (mass with mass, volume with volume, counts, or across the two through
/// ``KitchenUnits/densities``) the quantity is checked against what was bought (the receipt's quantity, else the
/// package size in the product name); otherwise the check says it could not tell. Recipes rank by coverage (on
/// hand ÷ needed), then fewer missing, then title.
public struct CookPlanner: Sendable {
    /// One recipe's standing against the pantry, as counted by ``RecipeIndexReader/cookCounts(fresh:forms:staples:)``.
    package struct CookCount: Sendable, Equatable {
        package var id: Int64
        package var documentID: Int64
        package var recipe: Int
        package var title: String
        /// Counted ingredients a fresh pantry item covers.
        package var have: Int
        /// Counted ingredients: neither optional nor staples.
        package var needed: Int

        package init(id: Int64, documentID: Int64, recipe: Int, title: String, have: Int, needed: Int) {
            (self.id, self.documentID, self.recipe, self.title, self.have, self.needed) = (id, documentID, recipe, title, have, needed)
        }
    }

    /// A pantry item as the index holds it.
    public struct PantryEntry: Codable, Sendable, Equatable {
        public var ingredient: String
        public var product: String
        public var quantity: Double?
        public var unit: String?
        public var purchaseDate: String?
        public var receipt: String
        public var line: Int

        package init(
            ingredient: String, product: String, quantity: Double?, unit: String?, purchaseDate: String?, receipt: String,
            line: Int
        ) {
            self.ingredient = ingredient
            self.product = product
            self.quantity = quantity
            self.unit = unit
            self.purchaseDate = purchaseDate
            self.receipt = receipt
            self.line = line
        }
    }

    public struct IngredientEntry: Sendable, Equatable {
        public var text: String
        public var base: String?
        public var parent: String?
        public var alternatives: [String]
        public var quantity: Double?
        public var unit: String?
        public var optional: Bool

        package init(
            text: String, base: String?, parent: String?, alternatives: [String], quantity: Double?, unit: String?,
            optional: Bool
        ) {
            self.text = text
            self.base = base
            self.parent = parent
            self.alternatives = alternatives
            self.quantity = quantity
            self.unit = unit
            self.optional = optional
        }
    }

    public struct RecipeEntry: Sendable, Equatable {
        public var documentID: Int64
        public var path: String
        public var recipe: Int
        public var title: String
        public var ingredients: [IngredientEntry]

        package init(documentID: Int64, path: String, recipe: Int, title: String, ingredients: [CookPlanner.IngredientEntry]) {
            self.documentID = documentID
            self.path = path
            self.recipe = recipe
            self.title = title
            self.ingredients = ingredients
        }
    }

    /// Whether what was bought is enough.
    public struct QuantityCheck: Codable, Sendable, Equatable {
        /// `enough`, `short`, or `unknown` (units not comparable, or no quantity on one side).
        public var status: String
        public var detail: String
    }

    public struct Have: Codable, Sendable, Equatable {
        public var ingredient: String
        public var base: String
        public var pantryItem: String
        public var purchaseDate: String?
        public var receipt: String
        /// How they met: `same ingredient`, `alternative`, or `same food in another form (…)`.
        public var match: String
        public var quantity: QuantityCheck
    }

    public struct Missing: Codable, Sendable, Equatable {
        public var ingredient: String
        /// The base ingredient to buy, or `nil` when the lexicon knew nothing in the line.
        public var base: String?
        /// Set when the pantry had it but too long ago (`"bought 2026-03-14; dairy keeps 14 days"`).
        public var stale: String?
    }

    public struct Suggestion: Codable, Sendable, Equatable {
        public var title: String
        public var documentID: Int64
        public var path: String
        public var recipe: Int
        /// On hand ÷ (on hand + missing), 0–1.
        public var coverage: Double
        public var have: [Have]
        public var missing: [Missing]
        public var assumed: [String]
        public var optional: [String]
    }

    public var config: PantryConfig
    /// The day freshness is counted to (`YYYY-MM-DD`).
    public var asOf: String
    let lexicon: FoodLexicon?

    public init(config: PantryConfig, asOf: String, lexicon: FoodLexicon? = try? FoodLexicon.bundled()) {
        self.config = config
        self.asOf = asOf
        self.lexicon = lexicon
    }

    /// The pantry split for matching: fresh items by base ingredient (and by `form:` + their lexicon parent, the
    /// same food in another form), and why each stale ingredient does not count.
    struct PantryState {
        var fresh: [String: [PantryEntry]] = [:]
        var stale: [String: String] = [:]

        /// The fresh base ingredients, and the parents their forms share (`fresh["form:" + parent]`).
        var freshNames: (ingredients: [String], forms: [String]) {
            let keys = fresh.keys.sorted()
            return (keys.filter { !$0.hasPrefix("form:") }, keys.filter { $0.hasPrefix("form:") }.map { String($0.dropFirst(5)) })
        }
    }

    func state(of pantry: [PantryEntry]) -> PantryState {
        var state = PantryState()
        for item in pantry {
            if let why = staleness(item) { state.stale[item.ingredient] = why; continue }
            state.fresh[item.ingredient, default: []].append(item)
            if let parent = lexicon?.lookup(item.ingredient)?.parent, parent != item.ingredient {
                state.fresh["form:" + parent, default: []].append(item)
            }
        }
        return state
    }

    /// Suggestions from the store's index, best first.
    ///
    /// The ranking is counted in SQL (``SQLiteCheckpointStore/cookCounts(fresh:forms:staples:)``: per recipe, how
    /// many of its counted ingredients a fresh pantry item covers, by the rules of ``match(_:_:)``), and only the
    /// recipes shown are read in full for the quantity checks and dates: over 17,000 recipes sharing the pantry's
    /// onions and garlic, building every recipe's details took seconds.
    public func suggestions(store: SQLiteCheckpointStore, limit: Int, missingAtMost: Int?) throws -> [Suggestion] {
        try suggestions(index: store, limit: limit, missingAtMost: missingAtMost)
    }

    /// ``suggestions(store:limit:missingAtMost:)`` over either store's recipe index.
    package func suggestions(index store: some RecipeIndexReader, limit: Int, missingAtMost: Int?) throws -> [Suggestion] {
        let pantry = try store.indexedPantry()
        let names = state(of: pantry).freshNames
        guard !names.ingredients.isEmpty, limit > 0 else { return [] }
        var counts = try store.cookCounts(fresh: names.ingredients, forms: names.forms, staples: config.staples)
        counts.removeAll { count in count.have == 0 || missingAtMost.map { count.needed - count.have > $0 } == true }
        // The same order as `rank` (coverage rounded as it is there, then fewer missing, more on hand, title).
        let keyed = counts.map { (count: $0, coverage: Self.coverage(have: $0.have, needed: $0.needed)) }
        let top = keyed.sorted { a, b in
            if a.coverage != b.coverage { return a.coverage > b.coverage }
            let (am, bm) = (a.count.needed - a.count.have, b.count.needed - b.count.have)
            if am != bm { return am < bm }
            if a.count.have != b.count.have { return a.count.have > b.count.have }
            return (a.count.title, a.count.documentID, a.count.recipe) < (b.count.title, b.count.documentID, b.count.recipe)
        }.prefix(limit)
        let recipes = try store.indexedRecipes(ids: top.map { $0.count.id })
        return rank(recipes, pantry: pantry, limit: limit, missingAtMost: missingAtMost)
    }

    /// On hand ÷ needed, to three decimals.
    static func coverage(have: Int, needed: Int) -> Double {
        (Double(have) / Double(needed) * 1000).rounded() / 1000
    }

    /// Ranks recipes against a pantry.
    public func rank(_ recipes: [RecipeEntry], pantry: [PantryEntry], limit: Int, missingAtMost: Int?) -> [Suggestion] {
        let state = state(of: pantry)
        let (fresh, stale) = (state.fresh, state.stale)
        let staples = Set(config.staples)
        var out: [Suggestion] = []
        for recipe in recipes {
            var s = Suggestion(title: recipe.title, documentID: recipe.documentID, path: recipe.path, recipe: recipe.recipe,
                               coverage: 0, have: [], missing: [], assumed: [], optional: [])
            for ingredient in recipe.ingredients {
                if ingredient.optional { s.optional.append(ingredient.text); continue }
                if let base = ingredient.base, staples.contains(base) { s.assumed.append(ingredient.text); continue }
                if let have = match(ingredient, fresh) { s.have.append(have); continue }
                let staleWhy = ([ingredient.base].compactMap { $0 } + ingredient.alternatives).lazy.compactMap { stale[$0] }.first
                s.missing.append(Missing(ingredient: ingredient.text, base: ingredient.base, stale: staleWhy))
            }
            let needed = s.have.count + s.missing.count
            guard !s.have.isEmpty, needed > 0 else { continue }
            if let k = missingAtMost, s.missing.count > k { continue }
            s.coverage = Self.coverage(have: s.have.count, needed: needed)
            out.append(s)
        }
        out.sort { a, b in
            if a.coverage != b.coverage { return a.coverage > b.coverage }
            if a.missing.count != b.missing.count { return a.missing.count < b.missing.count }
            if a.have.count != b.have.count { return a.have.count > b.have.count }
            return (a.title, a.documentID, a.recipe) < (b.title, b.documentID, b.recipe)
        }
        return Array(out.prefix(limit))
    }

    /// The pantry items that supply an ingredient, and how they met.
    func match(_ ingredient: IngredientEntry, _ fresh: [String: [PantryEntry]]) -> Have? {
        guard let base = ingredient.base else { return nil }
        var found: ([PantryEntry], String)?
        if let items = fresh[base] {
            found = (items, "same ingredient")
        } else if let alt = ingredient.alternatives.first(where: { fresh[$0] != nil }) {
            found = (fresh[alt]!, "alternative (\(alt))")
        } else if let parent = ingredient.parent, let items = fresh[parent] {
            found = (items, "same food in another form (\(parent))")
        } else if let items = fresh["form:" + base] ?? ingredient.parent.flatMap({ fresh["form:" + $0] }) {
            found = (items, "same food in another form (\(ingredient.parent ?? base))")
        }
        guard let (items, how) = found, let first = items.first else { return nil }
        return Have(ingredient: ingredient.text, base: base, pantryItem: first.product, purchaseDate: first.purchaseDate,
                    receipt: first.receipt, match: how, quantity: check(ingredient, items))
    }

    /// Needed against bought, when the units allow.
    func check(_ ingredient: IngredientEntry, _ items: [PantryEntry]) -> QuantityCheck {
        guard let needed = ingredient.quantity else {
            return QuantityCheck(status: "unknown", detail: "the recipe gives no quantity")
        }
        guard let dimension = KitchenUnits.dimension(ingredient.unit) else {
            return QuantityCheck(status: "unknown", detail: "could not tell: '\(ingredient.unit ?? "")' is not a measure Larder can compare")
        }
        var bought = 0.0
        var sources: [String] = []
        for item in items {
            let amount = item.quantity.map { ($0, item.unit) } ?? KitchenUnits.packageSize(in: item.product).map { ($0.value, Optional($0.unit)) }
            guard let (q, unit) = amount else {
                return QuantityCheck(status: "unknown", detail: "could not tell: the receipt shows no quantity for \(item.product)")
            }
            guard let v = KitchenUnits.amount(q, unit, in: dimension, ingredient: ingredient.base) else {
                return QuantityCheck(
                    status: "unknown",
                    detail: "could not tell: \(format(needed)) \(ingredient.unit ?? "(count)") needed, \(format(q)) \(unit ?? "(count)") bought (no conversion for \(ingredient.base ?? "it"))")
            }
            bought += v
            sources.append("\(format(q)) \(unit ?? "")".trimmingCharacters(in: .whitespaces))
        }
        guard let need = KitchenUnits.amount(needed, ingredient.unit, in: dimension, ingredient: ingredient.base) else {
            return QuantityCheck(status: "unknown", detail: "cannot convert the recipe's amount")
        }
        let symbol = dimension == .mass ? "g" : dimension == .volume ? "ml" : ""
        let detail = "needs \(format(need))\(symbol.isEmpty ? "" : " " + symbol), bought \(format(bought))\(symbol.isEmpty ? "" : " " + symbol) (\(sources.joined(separator: " + ")))"
        return QuantityCheck(status: bought + 1e-9 >= need ? "enough" : "short", detail: detail)
    }

    /// Why an item is too old to count, or `nil`.
    func staleness(_ item: PantryEntry) -> String? {
        guard let date = item.purchaseDate, let bought = Self.day(date), let today = Self.day(asOf) else { return nil }
        if bought > today { return "bought \(date), after \(asOf)" }
        let kind = PantryConfig.kind(category: lexicon?.lookup(item.ingredient)?.category, ingredient: item.ingredient)
        guard let days = config.freshDays[kind] else { return nil }
        let age = Int(((today - bought) / 86_400).rounded())
        return age > days ? "bought \(date), \(age) days before \(asOf); \(kind) keeps \(days) days" : nil
    }

    /// A `YYYY-MM-DD` day as seconds since 1970 (UTC), or `nil` when malformed or no such day (2026-02-30).
    /// Computed, not parsed by a `DateFormatter`: making one per pantry item was a tenth of `larder cook`.
    public static func day(_ text: String) -> Double? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month)
        else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...lengths[month - 1]).contains(day) else { return nil }
        // Days from 1970-01-01 to the date (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return Double(era * 146_097 + dayOfEra - 719_468) * 86_400
    }

    func format(_ v: Double) -> String { String(format: "%g", (v * 100).rounded() / 100) }
}

/// What ``CookPlanner`` reads from a store's recipe index (the SQLite store's and the PostgreSQL store's).
package protocol RecipeIndexReader {
    /// Every indexed pantry item.
    func indexedPantry() throws -> [CookPlanner.PantryEntry]
    /// Per indexed recipe, how many of its counted ingredients the pantry covers: an ingredient (optional ones and
    /// `staples` aside) is covered when its base or its parent is a `fresh` base ingredient or one of the `forms`
    /// (the parents of fresh items), or one of its alternatives is a `fresh` base ingredient. Recipes covering
    /// nothing are left out.
    func cookCounts(fresh: [String], forms: [String], staples: [String]) throws -> [CookPlanner.CookCount]
    /// The recipes with these index ids, with their ingredients (in id order).
    func indexedRecipes(ids: [Int64]) throws -> [CookPlanner.RecipeEntry]
}
