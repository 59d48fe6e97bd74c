import Foundation

/// Rules that keep non-food receipt lines out of the pantry. A plain configurable value with defaults; Larder
/// applies `receipts.blocklist` from `pipeline.yml` (`rules`, `generic_terms`, `disable`) to ``default``.
public struct IngredientBlocklist: Sendable, Codable, Equatable {
    /// A named list of phrases; a description containing any phrase as whole words is blocked by it.
    public struct Rule: Sendable, Codable, Equatable {
        /// The rule id recorded on blocked lines (`"household"`, `"bag-fee"` …).
        public var id: String
        /// Upper-case phrases matched on whole words (`"PAPER TOWEL"` matches `PAPER TOWELS 2PK`:
        /// a trailing `S`/`ES` on the last word is allowed).
        public var phrases: [String]

        /// Creates a rule.
        public init(id: String, phrases: [String]) {
            self.id = id
            self.phrases = phrases
        }
    }

    /// Rules applied to the product description, in order.
    public var rules: [Rule]
    /// Base ingredients that are too generic to be food (a lexicon match on one of these is blocked with
    /// rule `generic-term`).
    public var genericTerms: [String]

    /// Creates a blocklist.
    public init(rules: [Rule], genericTerms: [String]) {
        self.rules = rules
        self.genericTerms = genericTerms
    }

    /// Defaults: tax, bag fees, bottle deposits, coupons/discounts, totals, payments, household goods, and
    /// the generic terms structure, wood, processed, room, table, container, object, material.
    public static let `default` = IngredientBlocklist(
        rules: [
            Rule(id: "tax", phrases: ["TAX", "SALES TAX", "GST", "VAT", "HST", "PST", "SST"]),
            Rule(id: "bag-fee", phrases: ["BAG FEE", "BAG CHARGE", "BAG TAX", "PAPER BAG", "PLASTIC BAG", "CARRIER BAG",
                                          "SHOPPING BAG", "REUSABLE BAG", "BAG"]),
            Rule(id: "bottle-deposit", phrases: ["DEPOSIT", "BOTTLE DEP", "BTL DEP", "CAN DEP", "CRV", "BOTTLE RETURN",
                                                 "PFAND", "LEERGUT", "PFANDRUECKGABE", "PFANDRÜCKGABE"]),
            Rule(id: "coupon", phrases: ["COUPON", "DISCOUNT", "SAVINGS", "PROMO", "REBATE", "VOUCHER", "MARKDOWN"]),
            Rule(id: "total", phrases: ["TOTAL", "SUBTOTAL", "SUB TOTAL", "BALANCE", "CHANGE", "ROUNDING", "AMOUNT DUE"]),
            Rule(id: "payment", phrases: ["CASH", "VISA", "MASTERCARD", "AMEX", "DEBIT", "CREDIT", "TENDER", "EBT",
                                          "CARD PAYMENT", "GIFT CARD"]),
            Rule(id: "household", phrases: [
                "PAPER TOWEL", "TOILET PAPER", "TOILET ROLL", "BATH TISSUE", "FACIAL TISSUE", "TISSUE", "NAPKIN",
                "DETERGENT", "LAUNDRY", "FABRIC SOFTENER", "BLEACH", "DISH SOAP", "DISHWASHER", "SOAP", "SHAMPOO",
                "CONDITIONER", "TOOTHPASTE", "TOOTHBRUSH", "DEODORANT", "RAZOR", "DIAPER", "WIPE", "TRASH BAG",
                "GARBAGE BAG", "BIN BAG", "ALUMINUM FOIL", "ALUMINIUM FOIL", "FOIL", "PLASTIC WRAP", "CLING FILM",
                "ZIPLOC", "SPONGE", "CLEANER", "DISINFECTANT", "BATTERY", "BATTERIES", "LIGHT BULB", "CANDLE",
                "CHARCOAL", "LIGHTER", "CAT LITTER", "PLASTER", "LOTION", "SUNSCREEN", "VITAMIN", "MEDICINE",
                "GREETING CARD", "MAGAZINE", "NEWSPAPER", "FLOWERS", "PAPER PLATE", "PAPER CUP", "STRAW",
            ]),
        ],
        genericTerms: ["structure", "wood", "processed", "room", "table", "container", "object", "material"])

    /// The rule blocking `description`, as `"<rule id>: <phrase>"`, or nil.
    public func blockingRule(for description: String) -> String? {
        let words = IngredientNormalizer.words(description.uppercased())
        for rule in rules {
            for phrase in rule.phrases {
                let p = IngredientNormalizer.words(phrase.uppercased())
                if IngredientNormalizer.containsPhrase(words, p, allowPlural: true) { return "\(rule.id): \(phrase)" }
            }
        }
        return nil
    }
}

/// The outcome of normalising one product description.
public struct IngredientMatch: Sendable, Codable, Equatable {
    /// What happened.
    public enum Status: String, Sendable, Codable {
        /// A base ingredient was found with enough confidence.
        case matched
        /// Unmatched or low confidence: keep the line and ask a person.
        case needsReview
        /// Not food (``IngredientMatch/blockedBy`` says which rule).
        case blocked
    }

    /// The description as given.
    public var description: String
    /// The base ingredient (lower case), when found.
    public var baseIngredient: String?
    /// The lexicon term that matched.
    public var matchedTerm: String?
    /// The lexicon category.
    public var category: String?
    /// The same food in another form (`"cumin seeds"` → `"cumin"`), from the lexicon; `nil` when none.
    public var parent: String?
    /// 0–1.
    public var confidence: Double
    /// The rules and lexicon entries used, in order (`"abbreviation CHKN→chicken"`,
    /// `"size removed: 15OZ"`, `"brand removed: GOYA"`, `"lexicon 'baby spinach'→spinach (off:en:baby-spinach)"`).
    public var evidence: [String]
    /// What happened.
    public var status: Status
    /// The blocklist rule that blocked it (`"household: PAPER TOWEL"`, `"generic-term: wood"`).
    public var blockedBy: String?
}

/// Product description → base ingredient: `GOYA GOLDEN CORN 15OZ` → corn, `BNLS SKNLS CHKN BRST` →
/// chicken breast, `ORG BABY SPINACH 5OZ` → spinach.
///
/// Steps: blocklist on the description; size/pack stripping (`15OZ`, `1 GAL`, `12CT`, `2PK`, `[600G]`);
/// abbreviation expansion; brand removal; the longest lexicon phrase (1–4 words, rightmost on ties, since
/// the head noun of a product name comes last), with descriptor words (organic, large, fresh…) skipped
/// for single words; then fuzzy single-word matching (edit distance 1–2); the generic-term blocklist on the
/// result. Results under ``reviewThreshold`` are `needsReview`, never dropped. `Sendable`.
public struct IngredientNormalizer: Sendable {
    /// The lexicon matched against.
    public var lexicon: FoodLexicon
    /// Non-food rules.
    public var blocklist: IngredientBlocklist
    /// Abbreviation → expansion (upper-case keys, lower-case values). Defaults: ``defaultAbbreviations``.
    public var abbreviations: [String: String]
    /// Brand names removed before matching (upper case, may be multi-word).
    public var brands: [String] { didSet { brandOrder = Self.brandOrder(brands) } }
    /// ``brands`` longest first, as matching tries them: sorted once, not per description (the sort, by
    /// `Character` count, was most of normalising a name: 1.3 M instructions each, 2026-11-24).
    private var brandOrder: [String]
    /// Matches below this confidence are `needsReview`. Default 0.6.
    public var reviewThreshold: Double

    /// Creates a normaliser over the bundled lexicon.
    /// - Throws: ``ReceiptError`` `.lexiconUnavailable` when the resource is missing.
    public init(blocklist: IngredientBlocklist = .default, reviewThreshold: Double = 0.6) throws {
        self.init(lexicon: try FoodLexicon.bundled(), blocklist: blocklist, reviewThreshold: reviewThreshold)
    }

    /// Creates a normaliser over a given lexicon.
    public init(lexicon: FoodLexicon, blocklist: IngredientBlocklist = .default,
                abbreviations: [String: String] = IngredientNormalizer.defaultAbbreviations,
                brands: [String] = IngredientNormalizer.defaultBrands, reviewThreshold: Double = 0.6) {
        self.lexicon = lexicon
        self.blocklist = blocklist
        self.abbreviations = abbreviations
        self.brands = brands
        self.brandOrder = Self.brandOrder(brands)
        self.reviewThreshold = reviewThreshold
    }

    /// The order brands are tried in: longest first (in `Character`s; the sort is the one matching always used).
    static func brandOrder(_ brands: [String]) -> [String] {
        brands.sorted(by: { $0.count > $1.count })
    }

    /// Whether `joined` (" " + tokens joined by " " + " ") holds " brand ", as Foundation's `contains` finds it. For
    /// ASCII text and brand that is a byte search (canonical equivalence is identity on ASCII); other text is asked
    /// of Foundation.
    static func holdsBrand(_ joined: String, ascii: Bool, _ brand: String) -> Bool {
        guard ascii, brand.utf8.allSatisfy({ $0 < 0x80 }) else { return joined.contains(" \(brand) ") }
        let hay = joined.utf8
        let needle = brand.utf8
        guard needle.count + 2 <= hay.count else { return false }
        var start = hay.startIndex
        while let space = hay[start...].firstIndex(of: 0x20) {
            var h = hay.index(after: space)
            var matched = true
            for byte in needle {
                guard h != hay.endIndex, hay[h] == byte else { matched = false; break }
                h = hay.index(after: h)
            }
            if matched && h != hay.endIndex && hay[h] == 0x20 { return true }
            start = hay.index(after: space)
        }
        return false
    }

    /// Common grocery-receipt abbreviations.
    public static let defaultAbbreviations: [String: String] = [
        "BNLS": "boneless", "BNLESS": "boneless", "B/L": "boneless", "SKNLS": "skinless", "SKLS": "skinless",
        "S/L": "skinless", "CHKN": "chicken", "CHK": "chicken", "CKN": "chicken", "CHIX": "chicken",
        "BRST": "breast", "BRS": "breast", "THGH": "thigh", "THG": "thigh", "THGHS": "thighs", "DRMSTK": "drumstick",
        "WNGS": "wings", "ORG": "organic", "ORGN": "organic", "GRND": "ground", "GRD": "ground", "WHL": "whole",
        "LG": "large", "LRG": "large", "SM": "small", "SML": "small", "MED": "medium", "PKG": "package",
        "PK": "pack", "BTL": "bottle", "CN": "can", "BX": "box", "BG": "bag", "EA": "each",
        "BF": "beef", "GRNDBF": "ground beef", "PRK": "pork", "TRKY": "turkey", "TKY": "turkey", "HAM": "ham",
        "STK": "steak", "SIRL": "sirloin", "SAUS": "sausage", "BCN": "bacon", "FLT": "fillet", "FIL": "fillet",
        "SLMN": "salmon", "SHRMP": "shrimp", "TUN": "tuna",
        "VEG": "vegetable", "VEGS": "vegetables", "VEGG": "vegetable", "FRT": "fruit", "POT": "potato",
        "POTS": "potatoes", "TOM": "tomato", "TOMS": "tomatoes", "TOMATOS": "tomatoes", "ONN": "onion",
        "ONIONS": "onions", "LETT": "lettuce", "LTCE": "lettuce", "ROM": "romaine", "BROC": "broccoli",
        "CAUL": "cauliflower", "CARR": "carrots", "CUKE": "cucumber", "CUKES": "cucumbers", "MUSH": "mushrooms",
        "MSHRM": "mushrooms", "PEPP": "pepper", "GRN": "green", "YLW": "yellow", "RD": "red", "WHT": "white",
        "BLK": "black", "BRN": "brown", "STRWB": "strawberries", "STRAWB": "strawberries", "BLUEB": "blueberries",
        "RASPB": "raspberries", "APPL": "apple", "BAN": "banana", "BNNA": "banana", "AVOC": "avocado",
        "MLK": "milk", "WHL MLK": "whole milk", "CHS": "cheese", "CHSE": "cheese", "CHED": "cheddar",
        "MOZZ": "mozzarella", "PARM": "parmesan", "YGRT": "yogurt", "YOG": "yogurt", "YOGT": "yogurt",
        "BTR": "butter", "BUTR": "butter", "CRM": "cream", "SR CRM": "sour cream", "HVY": "heavy", "EGG": "egg",
        "EGGS": "eggs", "DOZ": "dozen", "BRD": "bread", "WW": "whole wheat", "WHT BRD": "white bread",
        "SDOUGH": "sourdough", "TORT": "tortillas", "CRL": "cereal", "CEREAL": "cereal", "PNT": "peanut",
        "PB": "peanut butter", "ALMND": "almond", "ALM": "almond", "CSHW": "cashew", "WLNT": "walnut",
        "OLV": "olive", "EVOO": "extra virgin olive oil", "VEG OIL": "vegetable oil", "VNGR": "vinegar",
        "SCE": "sauce", "SAUCE": "sauce", "SPGHT": "spaghetti", "MAC": "macaroni", "NDL": "noodles",
        "NDLS": "noodles", "RCE": "rice", "FLR": "flour", "SGR": "sugar", "BRWN": "brown", "CHOC": "chocolate",
        "CHOCO": "chocolate", "VAN": "vanilla", "STRW": "strawberry", "OJ": "orange juice", "JCE": "juice",
        "JC": "juice", "CKY": "cookies", "CKIES": "cookies", "CRKR": "crackers", "FRZ": "frozen", "FRZN": "frozen",
        "FRSH": "fresh", "NAT": "natural", "NATRL": "natural", "UNSWT": "unsweetened", "SWT": "sweet",
        "LF": "low fat", "NF": "nonfat", "FF": "fat free", "RF": "reduced fat", "2%": "reduced fat",
        "GF": "gluten free", "HNY": "honey", "CILNTR": "cilantro", "GRLC": "garlic", "LMN": "lemon", "LIM": "lime",
        "HB": "hamburger", "HOTDOG": "hot dog", "PNAPPL": "pineapple", "GRPS": "grapes", "WTR": "water",
    ]

    /// Well-known grocery brands (removed before matching; unknown brands are skipped implicitly because
    /// matching looks for lexicon terms anywhere in the description).
    public static let defaultBrands: [String] = [
        "GOYA", "KRAFT", "HEINZ", "DEL MONTE", "CAMPBELLS", "CAMPBELL'S", "KELLOGGS", "KELLOGG'S", "NESTLE", "DOLE",
        "CHIQUITA", "TYSON", "PERDUE", "OSCAR MAYER", "BARILLA", "QUAKER", "HORMEL", "HUNTS", "HUNT'S", "PROGRESSO",
        "GREAT VALUE", "KIRKLAND", "MARKETSIDE", "365", "SIMPLE TRUTH", "TRADER JOES", "TRADER JOE'S", "KROGER",
        "PRIVATE SELECTION", "SIGNATURE SELECT", "STOUFFERS", "BIRDS EYE", "GREEN GIANT", "LIBBYS", "BUSHS",
        "BUSH'S", "SARGENTO", "TILLAMOOK", "CHOBANI", "DANNON", "YOPLAIT", "FAGE", "LAND O LAKES", "HORIZON",
        "ORGANIC VALLEY", "PHILADELPHIA", "JIF", "SKIPPY", "SMUCKERS", "HELLMANNS", "HELLMANN'S", "FRENCHS",
        "MCCORMICK", "GOLD MEDAL", "PILLSBURY", "DOMINO", "C&H", "MORTON", "SWANSON", "PACE", "OLD EL PASO",
        "TOSTITOS", "LAYS", "DORITOS", "RITZ", "NABISCO", "OREO", "GENERAL MILLS", "CHEERIOS", "POST", "SILK",
        "BLUE DIAMOND", "DIAMOND", "PLANTERS", "WONDER", "SARA LEE", "NATURES OWN", "DAVES KILLER", "BOARS HEAD",
        "HILLSHIRE", "JOHNSONVILLE", "SMITHFIELD", "STARKIST", "BUMBLE BEE", "CHICKEN OF THE SEA", "MINUTE MAID",
        "TROPICANA", "SIMPLY", "OCEAN SPRAY", "COCA COLA", "PEPSI", "FOLGERS", "MAXWELL HOUSE", "STARBUCKS",
        "LIPTON", "TAZO", "TWININGS", "ANNIES", "ANNIE'S", "AMYS", "KIND", "NATURE VALLEY", "CLIF", "GARDENIA",
        "MARIGOLD", "DUTCH LADY", "FARMHOUSE", "BINTANG", "LEE KUM KEE", "ADABI", "MAGGI", "NUTELLA", "FERRERO",
        "MISTER POTATO", "JACOBS", "HUP SENG", "MILO", "NESCAFE", "GOOD DAY", "SUNQUICK", "SPRITZER", "MAMEE",
    ]

    /// Words that describe a product rather than name it; never matched on their own.
    static let descriptors: Set<String> = [
        "organic", "large", "small", "medium", "jumbo", "extra", "fresh", "frozen", "boneless", "skinless",
        "natural", "premium", "select", "choice", "grade", "classic", "original", "family", "size", "value",
        "pack", "package", "bag", "box", "can", "bottle", "jar", "each", "dozen", "bulk", "pint", "quart",
        "gallon", "bunch", "bulb", "loaf", "head", "raw", "sharp", "mild", "golden", "baby", "whole", "sliced",
        "diced", "chopped", "shredded", "grated", "canned", "new", "sweet", "plain", "regular", "low", "fat",
        "free", "reduced", "light", "lite", "unsweetened", "salted", "unsalted", "virgin", "pure", "style",
        "brand", "the", "and", "with", "of", "in", "a", "aa", "usda", "imported", "local", "farm", "fresh",
        "red", "green", "yellow", "white", "brown", "black", "gala", "fuji", "roma", "vine", "ripe", "seedless",
        "cut", "trimmed", "thin", "thick", "cage", "range", "wild", "caught", "farmed", "product", "item",
        "count", "ct", "pk", "pc", "pcs", "ea", "lb", "oz", "kg", "g", "gal", "ml", "l", "qt", "pt", "fl",
        "ltr", "litre", "liter", "multi", "mix", "mixed", "assorted", "variety", "mini", "big", "super",
    ]

    /// Normalises one product description (as printed on a receipt).
    public func normalize(_ description: String) -> IngredientMatch {
        var evidence: [String] = []
        var match = IngredientMatch(description: description, baseIngredient: nil, matchedTerm: nil, category: nil,
                                    parent: nil, confidence: 0, evidence: [], status: .needsReview, blockedBy: nil)
        if let rule = blocklist.blockingRule(for: description) {
            match.status = .blocked
            match.blockedBy = rule
            match.evidence = ["blocklist \(rule)"]
            return match
        }

        // Tokens, with sizes and packs removed.
        var upper = description.uppercased()
        upper = upper.replacingMatches(of: #"\[[^\]]*\]"#, with: " ")  // [600G]
        upper = upper.replacingMatches(of: #"(\d)\s?0Z\b"#, with: "$1OZ")
        var tokens: [String] = []
        let raw = upper.split(whereSeparator: { $0.isWhitespace || $0 == "," || $0 == "(" || $0 == ")" }).map(String.init)
        let unitWords: Set<String> = ["OZ", "LB", "LBS", "KG", "G", "GR", "ML", "L", "LTR", "GAL", "QT", "PT", "CT", "PK",
                                      "PC", "PCS", "FL", "DOZ", "EA", "CNT", "COUNT", "PACK", "X"]
        var sizes: [String] = []
        var index = 0
        while index < raw.count {
            let t = raw[index]
            if t.range(ofPattern: #"^\d+([.,/]\d+)?(OZ|LB|LBS|KG|G|GR|ML|L|LTR|GAL|QT|PT|CT|PK|PC|PCS|FLOZ|X\d+|%|S)?$"#) != nil || t.range(ofPattern: #"^\d+X\d+"#) != nil {
                var size = t
                if index + 1 < raw.count, unitWords.contains(raw[index + 1]) { size += " " + raw[index + 1]; index += 1 }
                if index + 1 < raw.count, raw[index].hasSuffix("FL") || raw[index] == "FL", raw[index + 1] == "OZ" {
                    size += " OZ"; index += 1
                }
                sizes.append(size)
            } else if !(t.count <= 2 && unitWords.contains(t) && !sizes.isEmpty && index > 0) {
                tokens.append(t)
            }
            index += 1
        }
        if !sizes.isEmpty { evidence.append("size removed: " + sizes.joined(separator: ", ")) }

        // Brands (at the start, or anywhere for multi-word brands).
        let joined = " " + tokens.joined(separator: " ") + " "
        let ascii = joined.utf8.allSatisfy { $0 < 0x80 }
        for brand in brandOrder where Self.holdsBrand(joined, ascii: ascii, brand) {
            let brandTokens = brand.split(separator: " ").map(String.init)
            if let start = (0...(max(0, tokens.count - brandTokens.count))).first(where: {
                $0 + brandTokens.count <= tokens.count && Array(tokens[$0..<($0 + brandTokens.count)]) == brandTokens
            }), tokens.count > brandTokens.count {
                tokens.removeSubrange(start..<(start + brandTokens.count))
                evidence.append("brand removed: \(brand)")
                break
            }
        }

        // Abbreviations (two-token keys first).
        var words: [String] = []
        var usedAbbreviation = false
        var i = 0
        while i < tokens.count {
            if i + 1 < tokens.count, let exp = abbreviations[tokens[i] + " " + tokens[i + 1]] {
                words += exp.split(separator: " ").map(String.init)
                evidence.append("abbreviation \(tokens[i]) \(tokens[i + 1])→\(exp)")
                usedAbbreviation = true
                i += 2
                continue
            }
            let t = tokens[i]
            if let exp = abbreviations[t], exp.lowercased() != t.lowercased() {
                words += exp.split(separator: " ").map(String.init)
                evidence.append("abbreviation \(t)→\(exp)")
                usedAbbreviation = true
            } else {
                let cleaned = t.lowercased().filter { $0.isLetter || $0 == "'" || $0 == "-" }
                if !cleaned.isEmpty { words.append(cleaned) }
            }
            i += 1
        }
        words = words.map { $0.lowercased() }
        let meaningful = words.filter { !Self.descriptors.contains($0) }
        if !meaningful.isEmpty, meaningful.allSatisfy(blocklist.genericTerms.contains) {
            match.status = .blocked
            match.blockedBy = "generic-term: \(meaningful.joined(separator: " "))"
            match.evidence = evidence + ["blocklist generic-term: \(meaningful.joined(separator: " "))"]
            return match
        }

        // Longest lexicon phrase, rightmost on ties.
        var found: (entry: FoodLexicon.Entry, range: Range<Int>)?
        search: for n in stride(from: min(4, words.count), through: 1, by: -1) {
            for start in stride(from: words.count - n, through: 0, by: -1) {
                let phrase = Array(words[start..<(start + n)])
                if n == 1 && Self.descriptors.contains(phrase[0]) { continue }
                if let entry = lexicon.lookup(phrase.joined(separator: " ")) {
                    found = (entry, start..<(start + n))
                    break search
                }
            }
        }
        if let found {
            let e = found.entry
            match.baseIngredient = e.base
            match.matchedTerm = e.term
            match.category = e.category
            match.parent = e.parent
            evidence.append("lexicon '\(e.term)'→\(e.base) (\(e.source))")
            let covered = Set(found.range).filter { !Self.descriptors.contains(words[$0]) }.count
            let coverage = meaningful.isEmpty ? 1 : Double(covered) / Double(meaningful.count)
            var confidence = found.range.count > 1 ? 0.9 : 0.8
            if coverage < 0.5 { confidence -= 0.2 }
            else if coverage < 1 { confidence -= 0.1 }
            if usedAbbreviation { confidence -= 0.05 }
            match.confidence = confidence
        } else {
            // Fuzzy single words (OCR slips, unlisted abbreviations), rightmost first.
            for word in meaningful.reversed() {
                if let (term, distance) = lexicon.fuzzySingleWord(word), let e = lexicon.lookup(term) {
                    match.baseIngredient = e.base
                    match.matchedTerm = e.term
                    match.category = e.category
                    match.parent = e.parent
                    match.confidence = distance == 1 ? 0.55 : 0.45
                    evidence.append("fuzzy '\(word)'≈'\(term)' (distance \(distance))→\(e.base) (\(e.source))")
                    break
                }
            }
        }
        if let base = match.baseIngredient, blocklist.genericTerms.contains(base) || blocklist.genericTerms.contains(match.matchedTerm ?? "") {
            match.status = .blocked
            match.blockedBy = "generic-term: \(base)"
            evidence.append("blocklist generic-term: \(base)")
            match.evidence = evidence
            return match
        }
        if match.baseIngredient == nil { evidence.append("no lexicon match") }
        match.status = match.baseIngredient != nil && match.confidence >= reviewThreshold ? .matched : .needsReview
        match.evidence = evidence
        return match
    }

    static func words(_ s: String) -> [String] {
        s.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "&") }).map(String.init)
    }

    /// Whether `phrase` occurs in `words` as consecutive whole words (the last may carry a plural `S`/`ES`).
    static func containsPhrase(_ words: [String], _ phrase: [String], allowPlural: Bool) -> Bool {
        guard !phrase.isEmpty, phrase.count <= words.count else { return false }
        for start in 0...(words.count - phrase.count) {
            var ok = true
            for (k, p) in phrase.enumerated() {
                let w = words[start + k]
                if w == p { continue }
                if allowPlural && k == phrase.count - 1 && (w == p + "S" || w == p + "ES" || w == p + "s" || w == p + "es") { continue }
                ok = false
                break
            }
            if ok { return true }
        }
        return false
    }
}
