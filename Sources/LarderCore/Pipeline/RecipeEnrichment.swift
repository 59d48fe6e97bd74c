import Foundation
import LarderReceipts
import LarderRecipes

/// What the app adds to a parsed recipe from its own databases: allergens per ingredient (``AllergenTagger``),
/// the base ingredient per ingredient from the same normaliser and lexicon that turn receipt lines into pantry
/// items (``IngredientNormalizer``), and diet labels per recipe (``DietClassifier``). `Sendable`.
public struct RecipeEnrichment: Sendable {
    let normalizer: IngredientNormalizer
    let allergens: AllergenTagger
    let diets: DietClassifier
    /// Matches by lower-cased name: the normaliser's regular expressions, brand scan and fuzzy matching cost about
    /// a millisecond a name, and cookbooks repeat names (onion, garlic, flour) across recipes. Bounded.
    private let cache = Locked([String: IngredientMatch]())
    /// Allergen tags by exact name: the tagger scans every keyword of the 16 allergens per name (6 % of the ingest
    /// profile's instructions, 2026-11-24), and a batch of cookbooks repeats its names. Bounded like `cache`.
    /// The diet labels read the same cache (they tagged every name again: 7.7 M instructions per document).
    private let allergenCache: Locked<[String: [AllergenTag]]>
    static let cacheLimit = 50_000

    /// The normaliser as recipes need it: the receipt blocklist's generic terms but none of its rules (a
    /// recipe's "change the water" is no receipt total), and no receipt abbreviations ("pot" is no potato).
    public init(lexicon: FoodLexicon) {
        normalizer = IngredientNormalizer(
            lexicon: lexicon, blocklist: IngredientBlocklist(rules: [], genericTerms: IngredientBlocklist.default.genericTerms),
            abbreviations: ["EVOO": "extra virgin olive oil"])
        let allergens = AllergenTagger()
        let allergenCache = Locked([String: [AllergenTag]]())
        self.allergens = allergens
        self.allergenCache = allergenCache
        let judge = DietClassifier(allergens: allergens) { Self.tags(for: $0, allergens, allergenCache) }
        let judgementCache = Locked([String: [(DietStatus, String)]]())
        diets = DietClassifier(
            allergens: allergens, tags: { Self.tags(for: $0, allergens, allergenCache) },
            judgements: { name in Self.cached(name, in: judgementCache) { judge.judgements(of: $0) } })
    }

    /// `make(name)`, remembered in `cache` (bounded like the others).
    private static func cached<Value: Sendable>(_ name: String, in cache: Locked<[String: Value]>,
                                                make: (String) -> Value) -> Value {
        if let hit = cache.withLock({ $0[name] }) { return hit }
        let found = make(name)
        cache.withLock { cache in
            if cache.count >= cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[name] = found
        }
        return found
    }

    /// Over the bundled lexicon, built once.
    public static func bundled() throws -> RecipeEnrichment {
        if let shared { return shared }
        return RecipeEnrichment(lexicon: try FoodLexicon.bundled())
    }

    private static let shared: RecipeEnrichment? = try? RecipeEnrichment(lexicon: FoodLexicon.bundled())

    /// Fills in allergens and base ingredients on every ingredient and the diet labels of every recipe.
    public func enrich(_ recipes: inout [Recipe]) {
        for r in recipes.indices {
            for g in recipes[r].ingredientGroups.indices {
                for i in recipes[r].ingredientGroups[g].ingredients.indices {
                    let ingredient = recipes[r].ingredientGroups[g].ingredients[i]
                    let name = ingredient.name.isEmpty ? ingredient.text : ingredient.name
                    recipes[r].ingredientGroups[g].ingredients[i].allergens = allergenTags(for: name)
                    recipes[r].ingredientGroups[g].ingredients[i].base = base(of: ingredient)
                }
            }
            recipes[r].diets = dietLabels(of: recipes[r])
        }
    }

    /// The allergens a name contains (``AllergenTagger/tags(for:)``), remembered per name.
    func allergenTags(for name: String) -> [IngredientAllergen] {
        Self.tags(for: name, allergens, allergenCache).map { IngredientAllergen(allergen: $0.allergen.rawValue, keyword: $0.keyword) }
    }

    private static func tags(for name: String, _ allergens: AllergenTagger,
                             _ cache: Locked<[String: [AllergenTag]]>) -> [AllergenTag] {
        if let hit = cache.withLock({ $0[name] }) { return hit }
        let found = allergens.tags(for: name)
        cache.withLock { cache in
            if cache.count >= cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[name] = found
        }
        return found
    }

    /// Preparation words dropped from a name before matching, so "chopped tomatoes" is tomato and "canned
    /// chickpeas" chickpeas (a lexicon term such as OFF's "chopped tomatoes" would otherwise win as the longer one).
    public static let preparationWords: Set<String> = [
        "chopped", "diced", "sliced", "minced", "grated", "shredded", "crushed", "peeled", "halved", "quartered",
        "cubed", "mashed", "melted", "softened", "rinsed", "drained", "canned", "tinned", "fresh", "freshly", "ripe",
        "cooked", "uncooked", "finely", "roughly", "thinly", "toasted", "beaten", "boneless", "skinless",
    ]

    /// The normaliser's match for a recipe name: preparation words dropped first (kept when nothing else matches).
    func match(_ name: String) -> IngredientMatch {
        // Keyed by the name as written: the evidence quotes its words ("preparation words removed: Fresh"), so a
        // key folded to lower case gave a document the evidence of whichever spelling an earlier document of the
        // same process had (a result that depended on the batch: found by IngestEqualsEvalTests).
        let key = name
        if let hit = cache.withLock({ $0[key] }) { return hit }
        let found = uncachedMatch(name)
        cache.withLock { cache in
            if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[key] = found
        }
        return found
    }

    private func uncachedMatch(_ name: String) -> IngredientMatch {
        let words = name.split(separator: " ").map(String.init)
        let kept = words.filter { !Self.preparationWords.contains($0.lowercased().trimmingCharacters(in: .punctuationCharacters)) }
        if !kept.isEmpty, kept.count < words.count {
            var match = normalizer.normalize(kept.joined(separator: " "))
            if match.baseIngredient != nil {
                match.evidence.insert("preparation words removed: " + words.filter { !kept.contains($0) }.joined(separator: " "), at: 0)
                return match
            }
        }
        return normalizer.normalize(name)
    }

    /// The base ingredient of one recipe ingredient, or `nil` when the lexicon knows nothing in its name.
    public func base(of ingredient: RecipeIngredient) -> IngredientBase? {
        let names = Self.names(of: ingredient)
        let match = self.match(names[0])
        guard match.status != .blocked, let ingredientName = match.baseIngredient else { return nil }
        let alternatives = names.dropFirst().compactMap { alternative -> String? in
            let m = self.match(alternative)
            return m.status == .blocked || m.baseIngredient == ingredientName ? nil : m.baseIngredient
        }
        return IngredientBase(
            ingredient: ingredientName, parent: match.parent, category: match.category, alternatives: alternatives,
            confidence: (match.confidence * 100).rounded() / 100, evidence: match.evidence)
    }

    /// The names an ingredient line offers: its alternatives when it has them ("butter or margarine": butter,
    /// margarine), else its name (else its text).
    static func names(of ingredient: RecipeIngredient) -> [String] {
        let alternatives = ingredient.alternatives.filter { !$0.isEmpty }
        if alternatives.count > 1 { return alternatives }
        return [ingredient.name.isEmpty ? ingredient.text : ingredient.name] + alternatives.filter {
            $0.lowercased() != ingredient.name.lowercased()
        }
    }

    /// The five diet labels of a recipe, with evidence.
    public func dietLabels(of recipe: Recipe) -> [DietLabel] {
        let lexicon = normalizer.lexicon
        let ingredients = recipe.allIngredients.map { ingredient -> DietClassifier.Ingredient in
            let names = Self.names(of: ingredient)
            // The matched term's flags ("fish sauce", not its base "sauce").
            let entry = ingredient.base == nil ? nil : match(names[0]).matchedTerm.flatMap(lexicon.lookup)
            return DietClassifier.Ingredient(
                text: ingredient.text, names: names, optional: ingredient.optional,
                offVegan: entry?.vegan, offVegetarian: entry?.vegetarian)
        }
        return diets.classify(ingredients).map {
            DietLabel(diet: $0.diet.rawValue, status: $0.status.rawValue, evidence: $0.evidence)
        }
    }
}
