import Foundation

/// Tags allergens in any ingredient or product name by whole-word / whole-phrase keyword matching.
///
/// Matching works on lower-case words (letters and digits; everything else separates words), so
/// "eggplant" never matches "egg" and "butternut squash" never matches "nut". Plurals are accepted
/// (`eggs`, `almonds`, `anchovies`). Each allergen also has **exception phrases** that hide their words
/// from that allergen only: "peanut butter", "almond butter", "cocoa butter" are not dairy; "coconut milk",
/// "oat milk" are not dairy; "water chestnut" is not a tree nut; "cream of tartar" is not dairy;
/// and **free-from phrases** ("gluten-free bread" is not wheat or gluten). Longer keywords do the positive work: "peanut butter"
/// matches peanuts through "peanut"; "almond milk" matches tree nuts through "almond".
///
/// Coconut is not tagged as a tree nut (EU rules; the US FDA listed it until 2025): add it to
/// ``keywords`` if you need it. Oats are tagged gluten (cross-contamination) unless "gluten free".
/// A value type: `Sendable`.
public struct AllergenTagger: Sendable {
    /// Keywords (lower case, one or more words) per allergen.
    public let keywords: [Allergen: [String]]
    /// Phrases whose words are hidden from one allergen before matching.
    public let exceptions: [Allergen: [String]]
    /// "Free-from" phrases: when one is present the allergen is not tagged at all
    /// ("gluten free bread" has neither wheat nor gluten).
    public let freeFrom: [Allergen: [String]]

    /// Creates a tagger; defaults are ``defaultKeywords`` and ``defaultExceptions``.
    /// The keyword lists split into words once (longest keyword first), so tagging a name costs little.
    private struct Prepared: Sendable {
        var keywords: [(text: String, words: [String])]
        var exceptions: [[String]]
        var freeFrom: [[String]]
    }

    private let prepared: [Allergen: Prepared]

    public init(keywords: [Allergen: [String]] = AllergenTagger.defaultKeywords,
                exceptions: [Allergen: [String]] = AllergenTagger.defaultExceptions,
                freeFrom: [Allergen: [String]] = AllergenTagger.defaultFreeFrom) {
        self.keywords = keywords
        self.exceptions = exceptions
        self.freeFrom = freeFrom
        var prepared: [Allergen: Prepared] = [:]
        for allergen in Allergen.allCases {
            guard let list = keywords[allergen] else { continue }
            prepared[allergen] = Prepared(
                keywords: list.sorted { $0.count > $1.count }.map { ($0, Self.words($0)) },
                exceptions: (exceptions[allergen] ?? []).map(Self.words),
                freeFrom: (freeFrom[allergen] ?? []).map(Self.words))
        }
        self.prepared = prepared
    }

    /// Default free-from phrases.
    public static let defaultFreeFrom: [Allergen: [String]] = [
        .dairy: ["dairy free", "non dairy", "nondairy", "lactose free", "vegan"],
        .eggs: ["egg free", "eggless", "vegan"],
        .peanuts: ["peanut free", "nut free"],
        .treeNuts: ["nut free", "tree nut free"],
        .wheat: ["gluten free", "wheat free"],
        .gluten: ["gluten free"],
        .soy: ["soy free"],
        .sesame: ["sesame free"],
        .sulphites: ["sulphite free", "sulfite free"],
    ]

    /// The default keyword database.
    public static let defaultKeywords: [Allergen: [String]] = [
        .dairy: ["milk", "cheese", "whey", "casein", "caseinate", "butter", "cream", "yogurt", "yoghurt", "ghee",
                 "buttermilk", "kefir", "lactose", "curd", "cheddar", "mozzarella", "parmesan", "parmigiano",
                 "ricotta", "brie", "camembert", "feta", "gouda", "mascarpone", "paneer", "custard", "gelato",
                 "ice cream", "half and half", "creme fraiche", "quark", "skyr", "labneh", "milk powder",
                 "condensed milk", "evaporated milk", "sour cream", "cream cheese", "cottage cheese", "halloumi",
                 "emmental", "gruyere", "provolone", "pecorino", "swiss cheese", "dairy"],
        .eggs: ["egg", "eggs", "egg white", "egg yolk", "mayonnaise", "mayo", "meringue", "aioli", "albumen",
                "egg noodles", "eggnog", "custard", "hollandaise", "frittata", "omelet", "omelette", "quiche"],
        .peanuts: ["peanut", "peanuts", "groundnut", "groundnuts", "peanut butter", "peanut oil", "arachis",
                   "monkey nuts", "satay"],
        .treeNuts: ["almond", "almonds", "cashew", "walnut", "pecan", "pistachio", "hazelnut", "filbert",
                    "macadamia", "brazil nut", "pine nut", "pine nuts", "pinoli", "chestnut", "praline",
                    "marzipan", "frangipane", "gianduja", "nutella", "nut butter", "mixed nuts", "tree nuts",
                    "nuts", "nut", "amaretto", "pesto"],
        .wheat: ["wheat", "flour", "semolina", "durum", "spelt", "farro", "kamut", "einkorn", "emmer", "bulgur",
                 "bulgar", "couscous", "seitan", "bread", "breadcrumbs", "panko", "pasta", "spaghetti", "macaroni",
                 "penne", "fusilli", "linguine", "fettuccine", "lasagna", "lasagne", "noodles", "udon", "ramen",
                 "tortilla", "tortillas", "pita", "bagel", "bagels", "croissant", "baguette", "sourdough",
                 "crackers", "biscuits", "cookies", "cake", "muffin", "pastry", "pie crust", "orzo", "gnocchi",
                 "farina", "graham", "bran", "wheat germ", "matzo", "brioche", "naan", "dumpling", "wonton"],
        .gluten: ["gluten", "wheat", "barley", "rye", "oats", "oat", "oatmeal", "spelt", "farro", "kamut",
                  "triticale", "malt", "seitan", "semolina", "durum", "bulgur", "couscous", "flour", "bread",
                  "breadcrumbs", "panko", "pasta", "spaghetti", "macaroni", "noodles", "udon", "ramen", "beer",
                  "ale", "lager", "stout", "bagel", "sourdough", "tortilla", "pita", "crackers", "cookies", "cake",
                  "pastry", "brioche", "naan", "orzo", "graham", "bran", "soy sauce"],
        .soy: ["soy", "soya", "soybean", "soybeans", "tofu", "tempeh", "edamame", "miso", "soy sauce", "tamari",
               "shoyu", "natto", "soy milk", "soy lecithin", "yuba", "okara"],
        .fish: ["fish", "salmon", "tuna", "cod", "haddock", "pollock", "tilapia", "trout", "halibut", "mackerel",
                "sardine", "sardines", "anchovy", "anchovies", "herring", "bass", "snapper", "catfish", "sole",
                "flounder", "swordfish", "mahi", "carp", "perch", "pike", "eel", "fish sauce", "bonito", "dashi",
                "worcestershire", "caviar", "roe", "surimi", "kipper", "branzino", "hake", "pangasius", "basa"],
        .shellfish: ["shellfish", "shrimp", "shrimps", "prawn", "prawns", "crab", "lobster", "crayfish", "crawfish",
                     "langoustine", "krill", "scampi", "crustacean", "crustaceans"],
        .sesame: ["sesame", "tahini", "tahina", "halva", "halvah", "gomasio", "benne", "sesame oil", "hummus"],
        .mustard: ["mustard", "mustard seed", "mustard seeds", "dijon", "mustard greens"],
        .celery: ["celery", "celeriac", "celery salt", "celery seed"],
        .lupin: ["lupin", "lupine", "lupini", "lupin flour"],
        .molluscs: ["mollusc", "molluscs", "mollusk", "mollusks", "clam", "clams", "mussel", "mussels", "oyster",
                    "oysters", "scallop", "scallops", "squid", "calamari", "octopus", "cuttlefish", "snail",
                    "snails", "escargot", "abalone", "whelk", "cockle", "cockles", "periwinkle", "oyster sauce"],
        .sulphites: ["sulphite", "sulphites", "sulfite", "sulfites", "sulphur dioxide", "sulfur dioxide",
                     "metabisulphite", "metabisulfite", "wine", "dried apricots", "dried fruit", "raisins",
                     "sultanas", "prunes"],
        .corn: ["corn", "maize", "cornmeal", "cornstarch", "cornflour", "corn flour", "corn syrup", "popcorn",
                "polenta", "grits", "hominy", "masa", "masa harina", "tortilla chips", "sweetcorn", "cornflakes",
                "corn oil", "dextrose"],
    ]

    /// Default exception phrases per allergen.
    public static let defaultExceptions: [Allergen: [String]] = [
        .dairy: ["peanut butter", "almond butter", "cashew butter", "nut butter", "cocoa butter", "shea butter",
                 "apple butter", "sunflower butter", "sunflower seed butter", "seed butter", "soy butter",
                 "butter beans", "butter bean", "butternut", "butterhead", "butter lettuce", "coconut milk",
                 "coconut cream", "coconut yogurt", "almond milk", "oat milk", "soy milk", "soya milk", "rice milk",
                 "cashew milk", "hemp milk", "pea milk", "coconut butter", "cream of tartar", "cream soda",
                 "dairy free", "non dairy", "nondairy", "vegan cheese", "milk thistle", "cream crackers",
                 "milkweed"],
        .eggs: ["egg free", "eggless", "vegan mayo", "vegan mayonnaise", "egg replacer"],
        .treeNuts: ["water chestnut", "water chestnuts", "nut free", "butternut", "coconut", "nutmeg",
                    "doughnut", "doughnuts", "donut", "peanut", "peanuts", "pine nut free", "nut butter free",
                    "tiger nut", "tiger nuts", "monkey nuts", "ground nut", "groundnut"],
        .peanuts: ["peanut free"],
        .wheat: ["buckwheat", "gluten free", "wheat free", "rice flour", "corn flour", "cornflour", "almond flour",
                 "coconut flour", "chickpea flour", "gram flour", "rice noodles", "rice pasta", "corn tortilla",
                 "corn tortillas", "rice crackers", "oat flour", "potato flour", "tapioca flour", "cassava flour",
                 "soy flour", "buckwheat flour", "glass noodles", "bean noodles", "lupin flour"],
        .gluten: ["buckwheat", "gluten free", "rice flour", "corn flour", "cornflour", "almond flour",
                  "coconut flour", "chickpea flour", "gram flour", "rice noodles", "rice pasta", "corn tortilla",
                  "corn tortillas", "rice crackers", "potato flour", "tapioca flour", "cassava flour", "soy flour",
                  "buckwheat flour", "glass noodles", "bean noodles", "lupin flour", "root beer", "ginger ale",
                  "malt vinegar free"],
        .fish: ["fish free", "sole proprietor", "shellfish"],
        .corn: ["peppercorn", "peppercorns", "corned beef", "corn free"],
        .soy: ["soy free"],
        .sulphites: ["sulphite free", "sulfite free", "wine vinegar free"],
    ]

    /// Allergens in `name`, each with the first keyword that matched (longest keywords first), in
    /// ``Allergen`` declaration order. Works on any ingredient or product name.
    public func tags(for name: String) -> [AllergenTag] {
        let words = Self.words(name)
        guard !words.isEmpty else { return [] }
        var out: [AllergenTag] = []
        for allergen in Allergen.allCases {
            guard let lists = prepared[allergen] else { continue }
            if lists.freeFrom.contains(where: { !Self.occurrences(of: $0, in: words).isEmpty }) {
                continue
            }
            // Hide exception phrases from this allergen.
            var masked = words.map(Optional.some)
            for phrase in lists.exceptions {
                for range in Self.occurrences(of: phrase, in: words) { for k in range { masked[k] = nil } }
            }
            for keyword in lists.keywords where !Self.occurrences(of: keyword.words, in: masked).isEmpty {
                out.append(AllergenTag(allergen: allergen, keyword: keyword.text))
                break
            }
        }
        return out
    }

    /// Just the allergens.
    public func allergens(in name: String) -> Set<Allergen> { Set(tags(for: name).map(\.allergen)) }

    static func words(_ s: String) -> [String] {
        asciiWords(s) ?? foldedWords(s)
    }

    /// ``words(_:)`` for any text, through Foundation's folding.
    static func foldedWords(_ s: String) -> [String] {
        s.lowercased().folding(options: .diacriticInsensitive, locale: nil)
            .split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
    }

    /// ``words(_:)`` for ASCII text, on its bytes (lower-casing and folding change nothing else there, and the
    /// only ASCII letters and numbers are A–Z, a–z and 0–9); nil for any other text.
    static func asciiWords(_ s: String) -> [String]? {
        var out: [String] = []
        var word: [UInt8] = []
        for byte in s.utf8 {
            switch byte {
            case 0x80...: return nil
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): word.append(byte + 32)
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): word.append(byte)
            default:
                if !word.isEmpty {
                    out.append(String(decoding: word, as: UTF8.self))
                    word.removeAll(keepingCapacity: true)
                }
            }
        }
        if !word.isEmpty { out.append(String(decoding: word, as: UTF8.self)) }
        return out
    }

    static func matches(_ word: String?, _ key: String) -> Bool {
        guard let word else { return false }
        if word == key { return true }
        // Every plural form ends in "s" (a final starter that no normalisation moves): most words stop here.
        guard word.utf8.last == UInt8(ascii: "s") else { return false }
        // The plural forms, compared on bytes without building them when both are ASCII.
        if let plural = asciiPlural(word, of: key) { return plural }
        if word == key + "s" || word == key + "es" { return true }
        if key.hasSuffix("y"), word == String(key.dropLast()) + "ies" { return true }
        return false
    }

    /// Whether `word` is `key` + "s", + "es", or (for a key ending in "y") "ies" in its place; nil unless both
    /// are ASCII (where byte equality is string equality).
    private static func asciiPlural(_ word: String, of key: String) -> Bool? {
        let w = word.utf8, k = key.utf8
        guard w.count > k.count, w.count <= k.count + 2 else { return k.allSatisfy { $0 < 0x80 } && w.allSatisfy { $0 < 0x80 } ? false : nil }
        guard w.allSatisfy({ $0 < 0x80 }), k.allSatisfy({ $0 < 0x80 }) else { return nil }
        let s = UInt8(ascii: "s"), e = UInt8(ascii: "e")
        if w.last != s { return false }
        if w.count == k.count + 1 { return w.starts(with: k) }
        // Two more bytes: key + "es", or key minus "y" + "ies".
        let tail = Array(w.suffix(3))
        if tail[1] == e, w.starts(with: k) { return true }
        return k.last == UInt8(ascii: "y") && tail == Array("ies".utf8) && w.starts(with: k.dropLast())
    }

    static func occurrences(of phrase: [String], in words: [String?]) -> [Range<Int>] {
        occurrences(of: phrase, count: words.count) { words[$0] }
    }

    static func occurrences(of phrase: [String], in words: [String]) -> [Range<Int>] {
        // The same search as over `[String?]`, without copying the words into optionals first.
        occurrences(of: phrase, count: words.count) { words[$0] }
    }

    /// Where `phrase` stands among `count` words (`word(i)`, nil for a masked word).
    private static func occurrences(of phrase: [String], count: Int, word: (Int) -> String?) -> [Range<Int>] {
        guard !phrase.isEmpty, phrase.count <= count else { return [] }
        var out: [Range<Int>] = []
        for start in 0...(count - phrase.count) {
            var ok = true
            for (i, p) in phrase.enumerated() {
                // Plurals only on the last word of a phrase ("egg whites", but not "eggs white").
                let w = word(start + i)
                if i == phrase.count - 1 ? !matches(w, p) : w != p { ok = false; break }
            }
            if ok { out.append(start..<(start + phrase.count)) }
        }
        return out
    }
}
