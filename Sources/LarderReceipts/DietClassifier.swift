import Foundation

/// The diets Larder labels recipes with.
public enum Diet: String, Sendable, Codable, CaseIterable, Hashable {
    case vegan, vegetarian, glutenFree = "gluten-free", dairyFree = "dairy-free", nutFree = "nut-free"
}

/// Whether something suits a diet.
public enum DietStatus: String, Sendable, Codable, Hashable, Comparable {
    case yes, maybe, no

    private var rank: Int { self == .yes ? 0 : self == .maybe ? 1 : 2 }
    public static func < (a: DietStatus, b: DietStatus) -> Bool { a.rank < b.rank }
}

/// Labels ingredients and recipes vegan / vegetarian / gluten-free / dairy-free / nut-free, with evidence.
///
/// Each ingredient name is read on whole words, like ``AllergenTagger`` (so "eggplant" is not egg and "butternut
/// squash" is not a nut): meat and seafood words (and the fish, shellfish and mollusc allergens) make it neither
/// vegetarian nor vegan; the dairy and egg allergens, honey, gelatin and similar make it not vegan; the wheat and
/// gluten allergens make it not gluten-free, dairy not dairy-free, peanuts and tree nuts not nut-free. Open Food
/// Facts' `vegan`/`vegetarian` flags (carried by the lexicon) add a "no" the words missed (`"anchovy paste"`).
///
/// **Maybe**: "stock", "broth", "bouillon" and "gravy" without a plant qualifier ("vegetable stock" is fine,
/// "chicken stock" is not) may be made from meat; margarine may hold whey. A line with alternatives ("butter or
/// margarine") is judged on its best choice: when one alternative fits the diet and another does not, the line is
/// "maybe". An optional ingredient that breaks a diet makes the recipe "maybe" (leave it out). A value type:
/// `Sendable`.
public struct DietClassifier: Sendable {
    /// One ingredient to judge.
    public struct Ingredient: Sendable {
        /// The line as written, for the evidence.
        public var text: String
        /// The names to judge: the ingredient's name first, then its alternatives.
        public var names: [String]
        /// Marked optional.
        public var optional: Bool
        /// Open Food Facts' flags for the base ingredient (`"yes"`, `"no"`, `"maybe"`), when known.
        public var offVegan: String?
        public var offVegetarian: String?

        public init(text: String, names: [String], optional: Bool = false, offVegan: String? = nil,
                    offVegetarian: String? = nil) {
            self.text = text
            self.names = names
            self.optional = optional
            self.offVegan = offVegan
            self.offVegetarian = offVegetarian
        }
    }

    /// One diet's verdict.
    public struct Verdict: Sendable, Equatable {
        public var diet: Diet
        public var status: DietStatus
        public var evidence: [String]
    }

    /// Words for meat and animal products that no vegetarian eats (fish and shellfish come from the allergens).
    public static let meatWords: [String] = [
        "meat", "beef", "veal", "pork", "lamb", "mutton", "goat", "chicken", "turkey", "duck", "goose", "venison",
        "rabbit", "bacon", "ham", "prosciutto", "pancetta", "guanciale", "chorizo", "salami", "pepperoni",
        "sausage", "sausages", "bratwurst", "hot dog", "meatballs", "mince", "steak", "brisket", "ribs", "oxtail",
        "liver", "gelatin", "gelatine", "lard", "suet", "tallow", "dripping", "bone marrow", "bone broth",
        "chicken fat", "schmaltz", "rennet", "foie gras", "pâté", "pate", "jerky", "spam", "quail", "pheasant",
    ]
    /// Animal products a vegetarian eats but a vegan does not (dairy and eggs come from the allergens).
    public static let nonVeganWords: [String] = ["honey", "beeswax", "royal jelly", "carmine", "cochineal", "shellac"]
    /// Words that may hide meat ("stock"), unless a plant word qualifies them.
    public static let ambiguousWords: [String] = ["stock", "broth", "bouillon", "gravy", "consomme", "demi glace"]
    /// Qualifiers that make an ambiguous word plant-based ("vegetable stock").
    public static let plantQualifiers: [String] = ["vegetable", "veggie", "vegan", "mushroom", "plant based",
                                                   "dashi kombu", "kombu", "miso", "vegetarian"]
    /// Phrases that make a name plant-based whatever else it says ("vegan sausage", "meatless crumbles").
    public static let plantBased: [String] = ["vegan", "plant based", "meatless", "meat free", "vegetarian",
                                              "meat substitute"]

    let allergens: AllergenTagger
    /// A name's allergen tags when the caller already has them (``RecipeEnrichment`` caches them per name);
    /// `nil` tags the name here. Must return what `allergens.tags(for:)` returns.
    let cachedTags: (@Sendable (String) -> [AllergenTag])?
    /// A name's verdicts for every diet when the caller keeps them (``RecipeEnrichment`` caches them per name: a
    /// batch of recipes names the same foods again and again, and judging a name reads every keyword list);
    /// `nil` judges the name here. Must return what ``judgements(of:)`` returns.
    let cachedJudgements: (@Sendable (String) -> [(DietStatus, String)])?

    public init(
        allergens: AllergenTagger = AllergenTagger(), tags: (@Sendable (String) -> [AllergenTag])? = nil,
        judgements: (@Sendable (String) -> [(DietStatus, String)])? = nil
    ) {
        self.allergens = allergens
        self.cachedTags = tags
        self.cachedJudgements = judgements
    }

    /// One name's verdict for each diet, in ``Diet`` order (``judge(name:for:)`` for every diet, its words and tags
    /// read once).
    public func judgements(of name: String) -> [(DietStatus, String)] {
        let facts = self.facts(name)
        return Diet.allCases.map { judge(facts, for: $0) }
    }

    /// A name's words and allergen tags, the tags from the caller's cache when it has one.
    func facts(_ name: String) -> Facts {
        Facts(words: AllergenTagger.words(name), tags: cachedTags?(name) ?? allergens.tags(for: name))
    }

    /// Every diet's verdict for a list of ingredients (a recipe), in ``Diet`` order.
    public func classify(_ ingredients: [Ingredient]) -> [Verdict] {
        // Each name is read once (words and allergen tags), then judged for every diet.
        var facts: [String: Facts] = [:]
        if cachedJudgements == nil {
            for ingredient in ingredients {
                for name in ingredient.names where facts[name] == nil { facts[name] = self.facts(name) }
            }
        }
        // With the judgements cache, a one-name line's verdicts for all five diets are fetched once (fetching them
        // per diet hashed the name five times, issue 18).
        let judgements = ingredients.map { ingredient -> [(DietStatus, String)]? in
            guard let cachedJudgements, ingredient.names.count == 1, let name = ingredient.names.first, !name.isEmpty
            else { return nil }
            return cachedJudgements(name)
        }
        return Diet.allCases.enumerated().map { d, diet in
            var status = DietStatus.yes
            var evidence: [String] = []
            for (i, ingredient) in ingredients.enumerated() {
                var (s, why) = judge(ingredient, for: diet, facts: facts, judged: judgements[i]?[d])
                if s == .no && ingredient.optional {
                    s = .maybe
                    why += " (optional: leave it out)"
                }
                guard s != .yes else { continue }
                status = max(status, s)
                evidence.append("'\(ingredient.text)': \(why)")
            }
            return Verdict(diet: diet, status: status, evidence: evidence)
        }
    }

    /// Each diet's position in ``Diet/allCases`` (the order of ``judgements(of:)``).
    static let dietIndex: [Diet: Int] = Dictionary(uniqueKeysWithValues: Diet.allCases.enumerated().map { ($1, $0) })

    /// A name's words and allergen tags.
    struct Facts {
        var words: [String]
        var tags: [AllergenTag]
    }

    /// One ingredient line for one diet: its best alternative decides; a split decision is "maybe".
    public func judge(_ ingredient: Ingredient, for diet: Diet) -> (DietStatus, String) {
        judge(ingredient, for: diet, facts: [:])
    }

    /// `judged`: the line's one name's cached verdict for `diet`, when the caller fetched it.
    func judge(_ ingredient: Ingredient, for diet: Diet, facts: [String: Facts],
               judged: (DietStatus, String)? = nil) -> (DietStatus, String) {
        // One name (most lines, judged for every diet of every recipe): the same verdict without the arrays below.
        if ingredient.names.count == 1, let name = ingredient.names.first, !name.isEmpty {
            var result = judged ?? cachedJudgements.map { $0(name)[Self.dietIndex[diet]!] }
                ?? judge(facts[name] ?? self.facts(name), for: diet)
            let flag = diet == .vegan ? ingredient.offVegan : diet == .vegetarian ? ingredient.offVegetarian : nil
            if flag == "no", result.0 == .yes { result = (.no, "Open Food Facts: not \(diet.rawValue)") }
            return (result.0, result.0 == .yes ? "" : result.1)
        }
        let names = ingredient.names.filter { !$0.isEmpty }
        guard !names.isEmpty else { return (.yes, "") }
        var results = names.map { name in
            if let cachedJudgements { return cachedJudgements(name)[Self.dietIndex[diet]!] }
            return judge(facts[name] ?? self.facts(name), for: diet)
        }
        // Open Food Facts' "no" for the base ingredient counts for the first name (the one the base came from).
        let flag = diet == .vegan ? ingredient.offVegan : diet == .vegetarian ? ingredient.offVegetarian : nil
        if flag == "no", results[0].0 == .yes {
            results[0] = (.no, "Open Food Facts: not \(diet.rawValue)")
        }
        let best = results.map(\.0).min() ?? .yes
        let worst = results.map(\.0).max() ?? .yes
        if best == worst {
            return (best, results.compactMap { $0.0 == .yes ? nil : $0.1 }.joined(separator: "; "))
        }
        let reasons = zip(names, results).filter { $0.1.0 != .yes }.map { "\($0.0): \($0.1.1)" }
        let fine = zip(names, results).filter { $0.1.0 == .yes }.map(\.0)
        let why = reasons.joined(separator: "; ") + (fine.isEmpty ? "" : "; choose \(fine.joined(separator: " or "))")
        return (.maybe, why)
    }

    /// One name for one diet, with the keyword that decided it.
    public func judge(name: String, for diet: Diet) -> (DietStatus, String) {
        judge(facts(name), for: diet)
    }

    func judge(_ facts: Facts, for diet: Diet) -> (DietStatus, String) {
        let words = facts.words
        let tags = facts.tags
        let found = Set(tags.map(\.allergen))
        func keyword(_ a: Allergen) -> String { tags.first { $0.allergen == a }?.keyword ?? a.rawValue }
        func has(_ list: [Phrase]) -> String? {
            list.first { !AllergenTagger.occurrences(of: $0.words, in: words).isEmpty }?.text
        }
        let plant = has(Phrase.plantBased)
        switch diet {
        case .vegetarian, .vegan:
            if plant == nil {
                if let meat = has(Phrase.meatWords) { return (.no, "meat (\(meat))") }
                for a in [Allergen.fish, .shellfish, .molluscs] where found.contains(a) {
                    return (.no, "\(a.rawValue) (\(keyword(a)))")
                }
            }
            if diet == .vegan && plant == nil {
                for a in [Allergen.dairy, .eggs] where found.contains(a) { return (.no, "\(a.rawValue) (\(keyword(a)))") }
                if let word = has(Phrase.nonVeganWords) { return (.no, "animal product (\(word))") }
            }
            if let word = has(Phrase.ambiguousWords), has(Phrase.plantQualifiers) == nil, plant == nil {
                return (.maybe, "may be made from meat (\(word))")
            }
            return (.yes, "")
        case .glutenFree:
            for a in [Allergen.gluten, .wheat] where found.contains(a) { return (.no, "\(a.rawValue) (\(keyword(a)))") }
            return (.yes, "")
        case .dairyFree:
            if found.contains(.dairy) { return (.no, "dairy (\(keyword(.dairy)))") }
            if let word = has(Phrase.margarine), plant == nil { return (.maybe, "may contain milk (\(word))") }
            return (.yes, "")
        case .nutFree:
            for a in [Allergen.peanuts, .treeNuts] where found.contains(a) { return (.no, "\(a.rawValue) (\(keyword(a)))") }
            return (.yes, "")
        }
    }
}

extension DietClassifier {
    /// A keyword list's phrases split into words once, not once per name judged.
    struct Phrase {
        let text: String
        let words: [String]

        static func list(_ texts: [String]) -> [Phrase] { texts.map { Phrase(text: $0, words: AllergenTagger.words($0)) } }

        static let meatWords = list(DietClassifier.meatWords)
        static let nonVeganWords = list(DietClassifier.nonVeganWords)
        static let ambiguousWords = list(DietClassifier.ambiguousWords)
        static let plantQualifiers = list(DietClassifier.plantQualifiers)
        static let plantBased = list(DietClassifier.plantBased)
        static let margarine = list(["margarine"])
    }
}
