import Foundation
import LarderJSON

// The recipe contract (`schemas/recipe.schema.json`): `Recipe` and the types it is made of.

/// Where a value came from: a page and an inclusive 1-based line range within that page.
public struct Provenance: Codable, Sendable, Equatable {
    /// The 1-based page.
    public var page: Int
    /// The first line (1-based, within `page`).
    public var lineStart: Int
    /// The last line (1-based, inclusive, within `page`).
    public var lineEnd: Int

    /// Creates a provenance record.
    public init(page: Int, lineStart: Int, lineEnd: Int) {
        self.page = page
        self.lineStart = lineStart
        self.lineEnd = max(lineStart, lineEnd)
    }
}

/// A numeric quantity, possibly a range ("2-3 cups": value 2, max 3).
public struct RecipeQuantity: Codable, Sendable, Equatable {
    /// The (lower) value.
    public var value: Double
    /// The upper bound of a range, or `nil`.
    @ExplicitNull public var max: Double?

    /// Creates a quantity.
    public init(value: Double, max: Double? = nil) {
        self.value = value
        self.max = max
    }

    enum CodingKeys: String, CodingKey { case value, max }
}

/// A further amount of an ingredient ("1 cup (240 ml) milk": the 240 ml).
public struct RecipeAmount: Codable, Sendable, Equatable {
    /// The quantity.
    public var quantity: RecipeQuantity
    /// The canonical unit, or `nil`.
    @ExplicitNull public var unit: String?

    /// Creates an amount.
    public init(quantity: RecipeQuantity, unit: String? = nil) {
        self.quantity = quantity
        self.unit = unit
    }

    enum CodingKeys: String, CodingKey { case quantity, unit }
}

/// Servings or another yield ("Serves 4-6", "Makes 12 cookies").
public struct RecipeYield: Codable, Sendable, Equatable {
    /// The number of servings or items (the lower bound of a range), or `nil` when no number was given.
    @ExplicitNull public var servings: Double?
    /// The upper bound of a range ("Serves 4-6" → 6), or `nil`.
    @ExplicitNull public var maxServings: Double?
    /// What is counted when not servings ("cookies", "loaves"), or `nil` for servings.
    @ExplicitNull public var unit: String?
    /// The original text, e.g. "Serves 4-6".
    public var text: String

    /// Creates a yield.
    public init(servings: Double? = nil, maxServings: Double? = nil, unit: String? = nil, text: String) {
        self.servings = servings
        self.maxServings = maxServings
        self.unit = unit
        self.text = text
    }

    enum CodingKeys: String, CodingKey { case servings, maxServings, unit, text }
}

/// One ingredient line, parsed.
public struct RecipeIngredient: Codable, Sendable, Equatable {
    /// The original line (list markers removed).
    public var text: String
    /// The primary quantity, or `nil`.
    @ExplicitNull public var quantity: RecipeQuantity?
    /// The canonical unit ("tablespoon", "gram"…), or `nil`.
    @ExplicitNull public var unit: String?
    /// The unit as written, or `nil`.
    @ExplicitNull public var unitText: String?
    /// Further amounts ("1 cup (240 ml)": the 240 ml).
    public var additionalAmounts: [RecipeAmount]
    /// The ingredient name ("olive oil").
    public var name: String
    /// A size ("large"), or `nil`.
    @ExplicitNull public var size: String?
    /// Preparation ("finely chopped"), or `nil`.
    @ExplicitNull public var preparation: String?
    /// Other remarks ("to taste"), or `nil`.
    @ExplicitNull public var comment: String?
    /// `true` when marked optional.
    public var optional: Bool
    /// What it is for ("for garnish"), or `nil`.
    @ExplicitNull public var purpose: String?
    /// Alternatives named in the line ("butter or margarine" → ["butter", "margarine"]).
    public var alternatives: [String]
    /// Confidence in this ingredient, 0–1: the ingredient parser's confidence, lowered when the line was
    /// recognised without an ingredients header or joined from wrapped lines.
    public var confidence: Double
    /// Where the line came from.
    public var provenance: Provenance
    /// Allergens the ingredient contains, each with the keyword that matched (filled in by the app, which owns
    /// the allergen database).
    public var allergens: [IngredientAllergen] = []
    /// The base ingredient, named as the pantry names it (filled in by the app, which owns the lexicon); `nil`
    /// when nothing in the lexicon matched.
    @ExplicitNull public var base: IngredientBase? = nil
    /// Set when the recipe was scaled (``RecipeScaler``): the amount as written and how it was rounded.
    public var scaledFrom: ScaledFrom? = nil

    /// Creates an ingredient.
    public init(text: String, quantity: RecipeQuantity? = nil, unit: String? = nil, unitText: String? = nil,
                additionalAmounts: [RecipeAmount] = [], name: String = "", size: String? = nil,
                preparation: String? = nil, comment: String? = nil, optional: Bool = false,
                purpose: String? = nil, alternatives: [String] = [], confidence: Double = 0,
                provenance: Provenance) {
        self.text = text
        self.quantity = quantity
        self.unit = unit
        self.unitText = unitText
        self.additionalAmounts = additionalAmounts
        self.name = name
        self.size = size
        self.preparation = preparation
        self.comment = comment
        self.optional = optional
        self.purpose = purpose
        self.alternatives = alternatives
        self.confidence = confidence
        self.provenance = provenance
    }

    enum CodingKeys: String, CodingKey {
        case text, quantity, unit, unitText, additionalAmounts, name, size, preparation, comment, optional, purpose,
             alternatives, allergens, base, confidence, provenance, scaledFrom
    }
}

/// A list of ingredients, optionally named ("For the drizzle").
public struct IngredientGroup: Codable, Sendable, Equatable {
    /// The group's name without a trailing colon ("For the drizzle"); `nil` for the main list.
    @ExplicitNull public var name: String?
    /// The ingredients in order.
    public var ingredients: [RecipeIngredient]

    /// Creates a group.
    public init(name: String? = nil, ingredients: [RecipeIngredient] = []) {
        self.name = name
        self.ingredients = ingredients
    }

    enum CodingKeys: String, CodingKey { case name, ingredients }
}

/// A duration mentioned in a step ("simmer 10–12 minutes").
public struct StepDuration: Codable, Sendable, Equatable {
    /// Minutes (the lower bound of a range).
    public var minutes: Double
    /// The upper bound of a range, or `nil`.
    @ExplicitNull public var maxMinutes: Double?
    /// The phrase as written.
    public var text: String

    /// Creates a duration.
    public init(minutes: Double, maxMinutes: Double? = nil, text: String) {
        self.minutes = minutes
        self.maxMinutes = maxMinutes
        self.text = text
    }

    enum CodingKeys: String, CodingKey { case minutes, maxMinutes, text }
}

/// A temperature mentioned in a step ("180°C", "gas mark 4").
public struct StepTemperature: Codable, Sendable, Equatable {
    /// The temperature in `unit`; for a gas mark, its °C equivalent.
    public var value: Double
    /// "C" or "F".
    public var unit: String
    /// The gas mark when the text gave one, else `nil`.
    @ExplicitNull public var gasMark: Double?
    /// The phrase as written.
    public var text: String

    /// Creates a temperature.
    public init(value: Double, unit: String, gasMark: Double? = nil, text: String) {
        self.value = value
        self.unit = unit
        self.gasMark = gasMark
        self.text = text
    }

    enum CodingKeys: String, CodingKey { case value, unit, gasMark, text }
}

/// A reference from a step to an ingredient: `ingredientGroups[group].ingredients[index]`.
public struct StepIngredientRef: Codable, Sendable, Equatable {
    /// Index into `Recipe.ingredientGroups`.
    public var group: Int
    /// Index into that group's `ingredients`.
    public var index: Int
    /// The ingredient's name.
    public var name: String

    /// Creates a reference.
    public init(group: Int, index: Int, name: String) {
        self.group = group
        self.index = index
        self.name = name
    }
}

/// One method step.
public struct RecipeStep: Codable, Sendable, Equatable {
    /// The 1-based step number (renumbered in order, whatever the source numbering).
    public var number: Int
    /// The step's text (wrapped lines joined with a space, numbering removed).
    public var text: String
    /// Durations mentioned in the step.
    public var durations: [StepDuration]
    /// Temperatures mentioned in the step.
    public var temperatures: [StepTemperature]
    /// The ingredients the step mentions (by head noun or full name, as whole words).
    public var ingredients: [StepIngredientRef]
    /// Where the step came from (for a step running onto the next page: its first page, to its last line there).
    public var provenance: Provenance
    /// The named part of the method the step belongs to (a schema.org `HowToSection`'s name), or `nil`.
    public var section: String? = nil

    /// Creates a step.
    public init(number: Int, text: String, durations: [StepDuration] = [], temperatures: [StepTemperature] = [],
                ingredients: [StepIngredientRef] = [], provenance: Provenance, section: String? = nil) {
        self.number = number
        self.text = text
        self.durations = durations
        self.temperatures = temperatures
        self.ingredients = ingredients
        self.provenance = provenance
        self.section = section
    }

    enum CodingKeys: String, CodingKey { case number, text, durations, temperatures, ingredients, provenance, section }
}

/// Where the recipe came from.
public struct RecipeSourceInfo: Codable, Sendable, Equatable {
    /// The file.
    public var file: String
    /// The file's SHA-256 (lowercase hex).
    public var sha256: String
    /// The pages the recipe spans, ascending.
    public var pages: [Int]
    /// The document format ("pdf", "text", "markdown"…).
    public var format: String
    /// For a recipe read from an archive (a Paprika, Nextcloud, Mealie… export): the member it came from (nested
    /// archives joined with "/"); `nil` otherwise.
    public var member: String? = nil
    /// The recipe's web page: a saved page's own address (`<link rel="canonical">`, `og:url`, else the schema.org
    /// `url`), or the one an app export named; `nil` otherwise.
    public var url: String? = nil
    /// Which structured-data node the recipe was read from ("ld+json script 2 @graph[3]", "microdata element 812"),
    /// or `nil` when it was read from text.
    public var node: String? = nil

    /// Creates source information.
    public init(
        file: String, sha256: String, pages: [Int], format: String, member: String? = nil, url: String? = nil,
        node: String? = nil
    ) {
        self.file = file
        self.sha256 = sha256
        self.pages = pages
        self.format = format
        self.member = member
        self.url = url
        self.node = node
    }

    enum CodingKeys: String, CodingKey { case file, sha256, pages, format, member, url, node }
}

/// A recipe's photo, by reference: the bytes live once in `extract`'s output (``RecipePhoto/sha256`` names them),
/// never in the result.
public struct RecipePhoto: Codable, Sendable, Equatable, Hashable {
    /// The image bytes' SHA-256 (lowercase hex).
    public var sha256: String
    /// "image/jpeg", "image/png", "image/webp" or "image/gif" (read from the bytes, not the file name).
    public var mediaType: String
    /// The image's size in bytes.
    public var bytes: Int

    /// Creates a photo reference.
    public init(sha256: String, mediaType: String, bytes: Int) {
        self.sha256 = sha256
        self.mediaType = mediaType
        self.bytes = bytes
    }

    /// The file extension for ``mediaType`` ("jpg", "png", "webp", "gif").
    public var fileExtension: String {
        switch mediaType {
        case "image/png": "png"
        case "image/webp": "webp"
        case "image/gif": "gif"
        default: "jpg"
        }
    }

    /// The media type of image bytes, by their signature: JPEG, PNG, WebP or GIF; `nil` for anything else.
    public static func mediaType(of data: some Collection<UInt8>) -> String? {
        let head = Array(data.prefix(12))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if head.count == 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
            return "image/webp"
        }
        if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) { return "image/gif" }
        return nil
    }
}

/// One recipe, in the shape of `schemas/recipe.schema.json`.
public struct Recipe: Codable, Sendable, Equatable {
    /// The title.
    public var title: String
    /// An introductory description, or `nil`.
    @ExplicitNull public var description: String?
    /// Servings or yield, or `nil`.
    @ExplicitNull public var yields: RecipeYield?
    /// Preparation time in minutes, or `nil`.
    @ExplicitNull public var prepMinutes: Double?
    /// Cooking time in minutes, or `nil`.
    @ExplicitNull public var cookMinutes: Double?
    /// Total time in minutes as stated (not computed), or `nil`.
    @ExplicitNull public var totalMinutes: Double?
    /// Cuisine (front matter or a "Cuisine:" line), or `nil`.
    @ExplicitNull public var cuisine: String?
    /// Meal type / course / category, or `nil`.
    @ExplicitNull public var mealType: String?
    /// The recipe's language (ISO 639-1: en, de, fr, it, es, nl) read from its words, or `nil` when unsure.
    @ExplicitNull public var language: String? = nil
    /// Tags (front matter `tags:` or a "Tags:" line).
    public var tags: [String]
    /// Ingredient groups; the first is the main list (name `nil`) unless the recipe starts with a named group.
    public var ingredientGroups: [IngredientGroup]
    /// Method steps.
    public var steps: [RecipeStep]
    /// Notes and tips.
    public var notes: [String]
    /// The source document.
    public var source: RecipeSourceInfo
    /// Where each recipe-level value came from, by field name ("title", "yields", "prepMinutes", "description"…).
    public var provenance: [String: Provenance]
    /// Confidence in the whole recipe, 0–1 (see ``RecipeParser`` for how it is computed).
    public var confidence: Double
    /// The author's name (schema.org `author`, or an app export's), or `nil`.
    public var author: String? = nil
    /// The recipe's image (a URL, or an archive member), or `nil`.
    public var image: String? = nil
    /// The photo its source carried (a Paprika entry's `photo_data`, an image file beside the recipe in an app's
    /// export or folder), named by its bytes' SHA-256; the bytes are kept once, in `extract`'s output, where the
    /// exports read them. `nil` when the source carried none.
    public var photo: RecipePhoto? = nil
    /// Nutrition as the document states it, by schema.org `NutritionInformation` name ("calories": "297 kcal",
    /// "fatContent": "27.5 g"…), or `nil`.
    public var nutrition: [String: String]? = nil
    /// Diet labels derived from the ingredients (filled in by the app, which owns the lexicon); `nil` when not
    /// derived.
    @ExplicitNull public var diets: [DietLabel]? = nil
    /// Set when the recipe was scaled (``RecipeScaler``).
    public var scaling: RecipeScaling? = nil

    /// Creates a recipe.
    public init(title: String, description: String? = nil, yields: RecipeYield? = nil, prepMinutes: Double? = nil,
                cookMinutes: Double? = nil, totalMinutes: Double? = nil, cuisine: String? = nil,
                mealType: String? = nil, tags: [String] = [], ingredientGroups: [IngredientGroup] = [],
                steps: [RecipeStep] = [], notes: [String] = [], source: RecipeSourceInfo,
                provenance: [String: Provenance] = [:], confidence: Double = 0) {
        self.title = title
        self.description = description
        self.yields = yields
        self.prepMinutes = prepMinutes
        self.cookMinutes = cookMinutes
        self.totalMinutes = totalMinutes
        self.cuisine = cuisine
        self.mealType = mealType
        self.tags = tags
        self.ingredientGroups = ingredientGroups
        self.steps = steps
        self.notes = notes
        self.source = source
        self.provenance = provenance
        self.confidence = confidence
    }

    /// All ingredients in order, across groups.
    public var allIngredients: [RecipeIngredient] { ingredientGroups.flatMap(\.ingredients) }

    enum CodingKeys: String, CodingKey {
        case title, description, yields, prepMinutes, cookMinutes, totalMinutes, cuisine, mealType, language, tags,
             ingredientGroups, steps, notes, source, provenance, confidence, author, image, photo, nutrition, diets,
             scaling
    }
}

/// An allergen tag: one of the 16 allergens and the keyword that matched it.
public struct IngredientAllergen: Codable, Sendable, Equatable {
    public var allergen: String
    public var keyword: String

    public init(allergen: String, keyword: String) {
        self.allergen = allergen
        self.keyword = keyword
    }
}

/// The base ingredient a recipe ingredient names, as a receipt's pantry item would name it: "2 cups shredded
/// sharp cheddar" → `cheddar cheese`, so recipes and pantry meet.
public struct IngredientBase: Codable, Sendable, Equatable {
    /// The base ingredient, lower case (`"cheddar cheese"`).
    public var ingredient: String
    /// The same food in another form (`"cumin seeds"` → `"cumin"`), or `nil`.
    @ExplicitNull public var parent: String?
    /// The lexicon category, or `nil`.
    @ExplicitNull public var category: String?
    /// The base ingredients of the line's alternatives ("butter or margarine": `["margarine"]`).
    public var alternatives: [String]
    /// 0–1: the normaliser's confidence.
    public var confidence: Double
    /// How it was found (lexicon entries and rules).
    public var evidence: [String]

    /// Creates a base ingredient.
    public init(ingredient: String, parent: String? = nil, category: String? = nil, alternatives: [String] = [],
                confidence: Double, evidence: [String]) {
        self.ingredient = ingredient
        self.parent = parent
        self.category = category
        self.alternatives = alternatives
        self.confidence = confidence
        self.evidence = evidence
    }

    enum CodingKeys: String, CodingKey { case ingredient, parent, category, alternatives, confidence, evidence }
}

/// Whether a recipe suits a diet, derived from its ingredients.
public struct DietLabel: Codable, Sendable, Equatable {
    /// `vegan`, `vegetarian`, `gluten-free`, `dairy-free` or `nut-free`.
    public var diet: String
    /// `yes`, `no`, or `maybe` (an ambiguous ingredient such as "stock", or a choice such as "butter or
    /// margarine").
    public var status: String
    /// Why, one line per ingredient that decided it (`"'2 tbsp butter': dairy (butter)"`); empty for `yes`.
    public var evidence: [String]

    /// Creates a label.
    public init(diet: String, status: String, evidence: [String]) {
        self.diet = diet
        self.status = status
        self.evidence = evidence
    }
}

/// An ingredient's amount before scaling.
public struct ScaledFrom: Codable, Sendable, Equatable {
    @ExplicitNull public var quantity: RecipeQuantity?
    @ExplicitNull public var unit: String?
    @ExplicitNull public var unitText: String?
    public var additionalAmounts: [RecipeAmount]
    /// How the scaled amount was rounded or converted ("rounded up from 1.5"), or `nil`.
    @ExplicitNull public var note: String?

    public init(quantity: RecipeQuantity?, unit: String?, unitText: String?, additionalAmounts: [RecipeAmount],
                note: String? = nil) {
        self.quantity = quantity
        self.unit = unit
        self.unitText = unitText
        self.additionalAmounts = additionalAmounts
        self.note = note
    }

    enum CodingKeys: String, CodingKey { case quantity, unit, unitText, additionalAmounts, note }
}

/// How a recipe was scaled.
public struct RecipeScaling: Codable, Sendable, Equatable {
    /// Scaled servings ÷ servings as written.
    public var factor: Double
    /// The servings asked for.
    public var servings: Double
    /// The servings as written (and the upper bound of a written range).
    public var originalServings: Double
    @ExplicitNull public var originalMaxServings: Double?
    /// `metric`, `us`, or `nil` when units were kept.
    @ExplicitNull public var units: String?

    public init(factor: Double, servings: Double, originalServings: Double, originalMaxServings: Double?, units: String?) {
        self.factor = factor
        self.servings = servings
        self.originalServings = originalServings
        self.originalMaxServings = originalMaxServings
        self.units = units
    }

    enum CodingKeys: String, CodingKey { case factor, servings, originalServings, originalMaxServings, units }
}
