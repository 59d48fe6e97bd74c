/// Word lists used by the rule-based parser. Everything is keyed by lower-cased text unless noted.
enum Lexicon {
    /// Case-sensitive unit abbreviations (checked before the lower-cased table).
    static let caseSensitiveUnits: [String: String] = [
        "T": "tablespoon", "Tb": "tablespoon", "TB": "tablespoon", "Tbs": "tablespoon", "Tbsp": "tablespoon",
        "t": "teaspoon", "C": "cup", "c": "cup", "L": "liter", "l": "liter", "mL": "milliliter",
        // German: Esslöffel, Teelöffel, Messerspitze, Päckchen.
        "EL": "tablespoon", "TL": "teaspoon", "Msp": "pinch", "Msp.": "pinch", "Pck": "packet", "Pck.": "packet",
        "Pkt": "packet", "Pkt.": "packet",
    ]

    /// Unit surface forms (lower-cased) → canonical unit.
    static let units: [String: String] = {
        var m: [String: String] = [:]
        func add(_ canonical: String, _ forms: [String]) { for f in forms { m[f] = canonical } }
        add("tablespoon", ["tablespoon", "tablespoons", "tbsp", "tbsps", "tbs", "tbl", "tbls", "tblsp", "tblspn",
                           "tbsps", "tb", "tbspn", "tablespoonful", "tablespoonfuls", "tbsb", "tsbp"])
        add("teaspoon", ["teaspoon", "teaspoons", "tsp", "tsps", "tspn", "teaspoonful", "teaspoonfuls", "tspspoon"])
        add("dessertspoon", ["dessertspoon", "dessertspoons", "dsp"])
        add("cup", ["cup", "cups", "teacup", "teacups"])
        add("fluid ounce", ["floz", "fluid ounce", "fluid ounces", "fl oz"])
        add("ounce", ["oz", "ozs", "ounce", "ounces"])
        add("pound", ["lb", "lbs", "pound", "pounds"])
        add("gram", ["g", "gr", "gm", "gms", "grams", "gram", "gramme", "grammes", "grm"])
        add("kilogram", ["kg", "kgs", "kilo", "kilos", "kilogram", "kilograms", "kilogramme", "kilogrammes"])
        add("milligram", ["mg", "milligram", "milligrams"])
        add("milliliter", ["ml", "mls", "milliliter", "milliliters", "millilitre", "millilitres"])
        add("centiliter", ["cl", "centiliter", "centiliters", "centilitre", "centilitres"])
        add("deciliter", ["dl", "deciliter", "deciliters", "decilitre", "decilitres"])
        add("liter", ["liter", "liters", "litre", "litres", "ltr", "ltrs", "lt"])
        add("pint", ["pint", "pints", "pt", "pts"])
        add("half-pint", ["half-pint", "half-pints"])
        add("quart", ["quart", "quarts", "qt", "qts"])
        add("gallon", ["gallon", "gallons", "gal", "gals"])
        add("inch", ["inch", "inches", "in", "\""])
        add("centimeter", ["cm", "cms", "centimeter", "centimeters", "centimetre", "centimetres"])
        add("millimeter", ["mm", "millimeter", "millimeters", "millimetre", "millimetres"])
        for (c, p) in countUnitPairs { m[c] = c; m[p] = c }
        // German, French, Italian, Spanish and Dutch kitchen units, mapped to the English canonical units.
        add("tablespoon", ["esslöffel", "cucchiaio", "cucchiai", "cucharada", "cucharadas", "eetlepel", "eetlepels"])
        add("teaspoon", ["teelöffel", "cucchiaino", "cucchiaini", "cucharadita", "cucharaditas", "theelepel", "theelepels"])
        add("pinch", ["prise", "prisen", "messerspitze", "pincée", "pincées", "pizzico", "pizca", "snufje"])
        add("bunch", ["bund", "mazzo", "manojo", "bos"])
        add("clove", ["zehe", "zehen", "gousse", "gousses", "spicchio", "spicchi", "diente", "dientes", "teen", "teentjes"])
        add("can", ["dose", "dosen", "boîte", "lattina", "lata", "latas", "blik", "blikken"])
        add("packet", ["päckchen", "packung", "bustina", "sobre"])
        add("piece", ["stück", "pezzo", "pezzi", "trozo", "stuk", "stuks"])
        add("stem", ["stiel", "stiele", "stängel"])
        return m
    }()

    /// Count units (singular, plural).
    static let countUnitPairs: [(String, String)] = [
        ("clove", "cloves"), ("can", "cans"), ("tin", "tins"), ("stick", "sticks"), ("pinch", "pinches"),
        ("dash", "dashes"), ("sprig", "sprigs"), ("slice", "slices"), ("bunch", "bunches"), ("handful", "handfuls"),
        ("head", "heads"), ("stalk", "stalks"), ("rib", "ribs"), ("bulb", "bulbs"), ("drop", "drops"),
        ("sheet", "sheets"), ("piece", "pieces"), ("splash", "splashes"), ("rasher", "rashers"), ("loaf", "loaves"),
        ("ear", "ears"), ("punnet", "punnets"), ("spear", "spears"), ("strip", "strips"), ("packet", "packets"),
        ("package", "packages"), ("pkg", "pkgs"), ("bottle", "bottles"), ("jar", "jars"), ("box", "boxes"),
        ("bag", "bags"), ("carton", "cartons"), ("container", "containers"), ("envelope", "envelopes"),
        ("pack", "packs"), ("block", "blocks"), ("knob", "knobs"), ("glass", "glasses"), ("sachet", "sachets"),
        ("stem", "stems"), ("recipe", "recipes"), ("quantity", "quantities"), ("batch", "batches"),
        ("scoop", "scoops"), ("shot", "shots"), ("square", "squares"), ("wedge", "wedges"), ("dollop", "dollops"),
        ("chunk", "chunks"), ("tub", "tubs"), ("branch", "branches"), ("rack", "racks"), ("ball", "balls"),
        ("glug", "glugs"), ("pot", "pots"), ("bundle", "bundles"), ("tube", "tubes"), ("cube", "cubes"),
        ("shake", "shakes"), ("twist", "twists"), ("bar", "bars"), ("link", "links"), ("log", "logs"),
        ("lump", "lumps"), ("pod", "pods"), ("mug", "mugs"),
        ("leaf", "leaves"), ("grating", "gratings"), ("wheel", "wheels"), ("grind", "grinds"),
        ("basket", "baskets"), ("bowl", "bowls"), ("cob", "cobs"), ("disc", "discs"), ("nest", "nests"),
        ("fillet", "fillets"), ("sleeve", "sleeves"), ("spray", "sprays"), ("length", "lengths"), ("sprinkle", "sprinkles"),
    ]

    /// Units that only count as units right after a quantity/size (never at sentence start without one),
    /// because they are also common ingredient nouns or other words.
    static let weakUnits: Set<String> = [
        "in", "ear", "ears", "ball", "balls", "bar", "bars", "round", "rounds", "ring", "rings", "part", "parts",
        "serving", "servings", "cube", "cubes", "fillet", "fillets", "leaf", "leaves", "link", "links",
        "log", "logs", "length", "lengths", "drop", "drops", "square", "squares", "wheel", "wheels",
        "cob", "cobs", "disc", "discs", "nest", "nests", "pot", "pots", "shot", "shots", "spray", "sprays",
        "sleeve", "sleeves", "spear", "spears", "sprinkle", "sprinkles", "t", "c", "l", "g", "\"", "can", "cans",
        "quantity", "quantities", "recipe", "recipes", "stick", "sticks", "head", "heads", "strip", "strips",
        "grating", "gratings", "tub", "tubs", "shake", "shakes", "twist", "twists", "lump", "lumps",
    ]

    /// Units that are packaging or pieces and may follow another unit ("400g tin", "15-ounce can").
    static let containerUnits: Set<String> = [
        "can", "tin", "stick", "sheet", "piece", "packet", "package", "pkg", "bottle", "jar", "box", "bag",
        "carton", "container", "envelope", "pack", "block", "sachet", "tub", "punnet", "pot", "log", "wedge", "chunk",
        "slice", "loaf", "bunch", "ball", "bar", "round", "square", "strip", "disc", "tube", "wheel", "head",
        "link", "cube", "knob", "cake",
    ]

    /// Words that never are units when they stand alone but describe nouns that are labelled as units
    /// ("never" for fillet/leaf etc. when no quantity precedes).
    static let nounLikeUnits: Set<String> = ["fillet", "fillets", "leaf", "leaves", "cube", "cubes", "serving", "servings"]

    /// Modifiers that become part of the unit when a unit follows ("heaped tbsp", "large bunch").
    static let unitModifiers: Set<String> = [
        "heaped", "heaping", "level", "rounded", "scant", "generous", "good", "large", "small", "medium", "big",
        "thin", "thick", "lg", "sm", "md", "very", "extra", "extra-large", "medium-size", "medium-sized",
        "thumb-sized", "thumb-size", "inch-thick", "inch-long", "fat", "plump", "healthy", "hefty", "tiny",
        "good-sized", "fist-sized", "walnut-sized", "walnut-size", "thickish", "thick-cut", "paper-thin",
        "long", "full", "double", "quarter-size", "quarter-sized", "inch-square", "finger-length",
        "regular-size", "bun-size", "medium-length", "miniature", "small-medium", "big-ish", "lengthwise", "fine",
    ]

    /// Size words (lower-cased).
    static let sizes: Set<String> = [
        "large", "small", "medium", "lg", "md", "sm", "med", "medium-size", "medium-sized", "extra-large",
        "jumbo", "medium-large", "tiny", "big", "miniature", "baby-size", "large-size", "large-sized",
        "small-size", "small-sized", "smallish", "largish", "biggish", "huge", "giant", "smaller",
        "larger", "medium-to-large", "small-to-medium", "x-large", "xl", "evenly-sized", "even-sized",
    ]

    /// Number words → value.
    static let numberWords: [String: Double] = [
        "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
        "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "half": 0.5, "dozen": 12,
        "quarter": 0.25,
    ]

    /// Approximation markers.
    static let approx: Set<String> = ["about", "approx", "approximately", "around", "roughly", "circa", "ca", "nearly", "almost", "some"]

    /// Adverbs that start a preparation phrase.
    static let prepAdverbs: Set<String> = [
        "finely", "freshly", "roughly", "coarsely", "thinly", "thickly", "lightly", "very", "well", "slightly",
        "freshly-ground", "newly", "just", "partially", "partly", "barely", "loosely", "firmly", "evenly",
        "neatly", "gently", "quickly", "briefly", "fully", "completely", "hard", "soft", "medium", "fine",
        "coarse", "thin", "thick", "cleanly", "lengthwise", "crosswise", "diagonally", "freshley", "super",
    ]

    /// Past participles and verbs that mark preparation.
    static let prepWords: Set<String> = [
        "chopped", "minced", "diced", "sliced", "grated", "crushed", "peeled", "cut", "trimmed", "drained",
        "halved", "melted", "softened", "toasted", "shredded", "washed", "rinsed", "seeded", "crumbled", "cleaned",
        "cored", "quartered", "soaked", "chilled", "divided", "beaten", "sifted", "stemmed", "skinned", "shelled",
        "cubed", "broken", "pitted", "torn", "ground", "unpeeled", "split", "scrubbed", "thawed", "picked",
        "deseeded", "de-seeded", "roasted", "blanched", "hulled", "warmed", "separated", "boned", "boiled",
        "julienned", "smashed", "steamed", "hard-boiled", "cracked", "defrosted", "mashed", "whipped", "filleted",
        "shucked", "made", "shaved", "uncooked", "bruised", "dissolved", "strained", "heated", "whisked",
        "slivered", "fried", "sieved", "rolled", "seasoned", "butterflied", "snipped", "juiced", "poached",
        "segmented", "zested", "deveined", "cooked", "squeezed", "removed", "discarded", "reserved", "tied",
        "pureed", "puréed", "blended", "mixed", "combined", "stirred", "dried", "patted", "pounded", "flattened",
        "spiralized", "spiralised", "crumbed", "prepared", "pressed", "dusted", "brushed", "wiped", "scraped",
        "sectioned", "rehydrated", "reconstituted", "scalded", "stoned", "destemmed", "de-stemmed", "tailed",
        "topped", "grilled", "baked", "charred", "defatted", "deboned", "de-boned", "skinless", "boneless",
        "refrigerated", "frozen", "room", "cold", "lukewarm", "warm", "hot", "sliced", "crisped", "browned",
        "bashed", "scored", "opened", "cooled", "left", "mixed", "broken", "cut-up", "shaken", "kept", "set",
        "sorted", "picked", "plucked", "stripped", "shredded", "ripped", "sautéed", "sauteed", "caramelized",
        "caramelised", "pickled", "marinated", "brined", "salted", "wrapped", "drizzled", "milled", "hulled",
        "butterflied", "scaled", "gutted", "dressed", "iced", "chargrilled", "unsifted", "trim", "peel",
        "chop", "slice", "dice", "mince", "grate", "rinse", "drain", "halve", "melt", "crush", "soften",
        "quarter", "remove", "discard", "reserve", "tear", "crumble", "toast", "thaw", "squeeze", "pulse",
        "whisk", "beat", "shred", "soak", "sift", "scrub", "wash", "core", "seed", "stem", "rub", "sprinkle",
        "at", "skin", "cleaned", "peeled", "plus",
    ]

    /// Participles that, before the name, are part of the name rather than preparation
    /// ("ground cinnamon", "dried oregano", "smoked salmon").
    static let nameParticiples: Set<String> = [
        "ground", "dried", "smoked", "frozen", "canned", "mixed", "salted", "unsalted", "pickled", "cured",
        "roasted", "toasted", "cooked", "boiled", "fried", "refrigerated", "prepared", "sweetened",
        "unsweetened", "condensed", "evaporated", "powdered", "granulated", "rolled", "whipped", "flaked",
        "desiccated", "shredded", "fashioned", "crystallized", "crystallised", "candied", "stewed",
    ]

    /// Words that can start a preparation phrase before the name ("finely chopped onion", "sifted flour").
    static let leadingPrepWords: Set<String> = [
        "chopped", "minced", "diced", "sliced", "grated", "crushed", "peeled", "shredded", "beaten", "melted",
        "sifted", "cubed", "halved", "cooked", "steamed", "softened", "julienned", "torn", "crumbled",
        "poached", "hard-boiled", "toasted", "shelled", "trimmed", "seeded", "deseeded", "quartered", "drained",
        "rinsed", "washed", "chilled", "warmed", "strained", "squeezed", "cleaned", "snipped", "shaved", "slivered",
        "defrosted", "skinned", "stemmed", "scrubbed", "cracked", "uncooked", "heated", "deveined", "picked",
        "zested", "juiced", "pureed", "puréed", "segmented", "stoned", "soaked", "bruised", "smashed", "boned",
        "cored", "sieved", "julienned", "spiralized", "spiralised", "hulled", "butterflied", "lukewarm", "iced",
        "chargrilled", "unsifted", "shucked", "milled", "dressed", "scaled", "gutted",
    ]

    /// Parts of fruit named before the fruit: "juice of 1 lemon".
    static let fruitParts: Set<String> = ["juice", "zest", "peel", "rind", "pulp", "flesh", "seeds", "segments", "grated", "finely", "zested", "juiced"]

    /// Modifiers written before the quantity that belong to the unit: "Scant ½ cup".
    static let preQuantityModifiers: Set<String> = ["scant", "heaped", "heaping", "generous", "good", "level", "rounded", "big"]

    /// Count units that may follow the name: "2 garlic cloves", "3 celery ribs".
    static let trailingUnits: Set<String> = ["clove", "cloves", "stalk", "stalks", "rib", "ribs", "bulb", "bulbs",
                                             "sprig", "sprigs", "head", "heads", "slice", "slices", "stick", "sticks", "loaf", "loaves"]

    /// Length units (dimensions, not amounts, when they appear after the name).
    static let lengthUnits: Set<String> = ["inch", "inches", "in", "cm", "cms", "mm", "centimeter", "centimeters",
                                           "centimetre", "centimetres", "millimeter", "millimeters", "millimetre", "millimetres", "\""]

    /// Prepositions that start a preparation phrase after a participle ("cut into", "soaked in").
    static let prepositions: Set<String> = ["into", "in", "with", "until", "to", "from", "at", "on", "off", "for", "through",
                                            "lengthwise", "lengthways", "crosswise", "by", "as", "over", "under", "away", "out", "up", "down"]

    /// Adjectives commonly written before a comma inside the name ("boneless, skinless chicken").
    static let commaAdjectives: Set<String> = [
        "soft", "mild", "fresh", "frozen", "whole", "dark", "hot", "cold", "warm", "plain", "ripe", "dry", "raw", "young",
        "firm", "lean", "sweet", "thick", "thin", "light", "heavy", "low-fat", "nonfat", "full-fat", "boneless", "skinless",
        "smoked", "unsalted", "salted", "organic", "good", "firm-ripe", "crisp", "tart", "large", "small", "medium",
        "extra-virgin", "hard", "fat", "juicy", "mature", "aged", "strong", "sharp", "rich", "tender", "waxy", "floury",
        "red", "green", "yellow", "white", "black", "golden", "sturdy", "fragrant", "crusty", "stale", "day-old", "good-quality",
        "high-quality", "best-quality", "unsweetened", "sweetened", "bittersweet", "semisweet", "fine", "coarse", "flaky",
        "dried", "canned", "cooked", "uncooked", "skin-on", "bone-in", "free-range", "wild", "baby", "mixed", "fatty",
    ]

    static let hyphenAdjectivePrefixes: Set<String> = [
        "low", "reduced", "part", "full", "non", "fat", "sugar", "salt", "extra", "lean", "high", "whole", "double",
        "single", "thick", "thin", "sweet", "semi", "fresh", "dry", "oven", "sun", "slow", "fire", "cold", "hot", "stone",
        "wild", "free", "grass", "corn", "bone", "skin", "ready", "all", "plain", "self", "medium", "firm", "good", "best",
    ]

    /// Whether a unit word is a count unit ("clove", "sprigs") rather than a measure.
    static func isCountUnit(_ w: String) -> Bool {
        guard let c = units[w] else { return false }
        return countUnitSet.contains(c)
    }
    static let countUnitSet: Set<String> = Set(countUnitPairs.map(\.0))

    /// Whether a word looks like an adjective that may precede a comma inside a name.
    static func isAdjectiveLike(_ w: String) -> Bool {
        if commaAdjectives.contains(w) || w.hasSuffix("less") || w.hasSuffix("-fat") || w.hasSuffix("-free") || w.hasSuffix("-style") { return true }
        if let dash = w.firstIndex(of: "-") {
            return hyphenAdjectivePrefixes.contains(String(w[..<dash]))
        }
        return false
    }

    /// Purpose phrases starting with "to".
    static let purposeToVerbs: Set<String> = [
        "serve", "garnish", "decorate", "dust", "glaze", "finish", "sprinkle", "cover", "grease", "brush",
        "coat", "fry", "drizzle", "top", "accompany", "dip", "season", "dress",
    ]

    /// Words that mark a comment phrase at the start of a segment.
    static let commentStarters: Set<String> = [
        "plus", "such", "preferably", "about", "approximately", "approx", "see", "if", "or", "optional",
        "as", "from", "recipe", "each", "any", "e.g.", "eg", "ie", "i.e.", "available", "such", "like",
        "not", "enough", "use", "we", "you", "note", "more", "depending", "ideally", "either", "and",
        "whichever", "store-bought", "homemade", "depending", "at", "in", "with", "without", "but",
        "including", "total", "packed",
    ]

    /// Singular forms of unit-like words used when normalising text for comparison.
    static let singulars: [String: String] = {
        var m: [String: String] = [:]
        for (s, p) in countUnitPairs { m[p] = s }
        for (k, v) in [("tablespoons", "tablespoon"), ("teaspoons", "teaspoon"), ("cups", "cup"), ("lbs", "lb"),
                       ("pounds", "pound"), ("ounces", "ounce"), ("grams", "gram"), ("kilograms", "kilogram"),
                       ("tbsps", "tbsp"), ("tsps", "tsp"), ("litres", "litre"), ("liters", "liter"),
                       ("milliliters", "milliliter"), ("millilitres", "millilitre"), ("pints", "pint"),
                       ("quarts", "quart"), ("gallons", "gallon"), ("inches", "inch"), ("mls", "ml"),
                       ("kgs", "kg"), ("ozs", "oz"), ("kilos", "kilo"), ("pts", "pt"), ("qts", "qt"),
                       ("dessertspoons", "dessertspoon"), ("teacups", "teacup"), ("half-pints", "half-pint"),
                       ("gms", "gm"), ("centimetres", "centimetre"), ("centimeters", "centimeter"),
                       ("cms", "cm"), ("fluid ounces", "fluid ounce"), ("shoots", "shoot"), ("segments", "segment"),
                       ("cutlets", "cutlet"), ("slabs", "slab"), ("rectangles", "rectangle"), ("clusters", "cluster"),
                       ("feet", "foot"), ("tbs", "tb")] { m[k] = v }
        return m
    }()
}
