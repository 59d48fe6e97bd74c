/// A numeric quantity, possibly a range such as "2-3" or "2 to 3".
public struct Quantity: Codable, Sendable, Equatable {
    /// The (lower) value. For "2-3" this is 2; for "1 1/2" it is 1.5.
    public var value: Double
    /// The upper bound of a range ("2-3" → 3), otherwise `nil`.
    public var max: Double?
    /// The quantity as written in the sentence (e.g. "1 1/2", "one", "½", "2-3").
    public var text: String

    /// Creates a quantity.
    public init(value: Double, max: Double? = nil, text: String = "") {
        self.value = value
        self.max = max
        self.text = text
    }

    /// `true` when the quantity is a range (has an upper bound).
    public var isRange: Bool { max != nil }
}

/// One amount: a quantity with an optional unit (e.g. "240 ml", "2 cloves", "3").
public struct IngredientAmount: Codable, Sendable, Equatable {
    /// The quantity, if one was written (or implied by "a"/"an").
    public var quantity: Quantity?
    /// Canonical unit name (e.g. "tablespoon", "gram", "fluid ounce"), or `nil`.
    public var unit: String?
    /// The unit as written, including modifiers such as "heaped" or "small" when they belong to the unit
    /// (e.g. "Tbsp", "large bunch").
    public var unitText: String?
    /// `true` when the amount was marked approximate ("about", "approx.", "roughly").
    public var approximate: Bool
    /// `true` when this amount is a multiplier, as in "2 x 400g tins" (the "2").
    public var isMultiplier: Bool

    /// Creates an amount.
    public init(quantity: Quantity? = nil, unit: String? = nil, unitText: String? = nil,
                approximate: Bool = false, isMultiplier: Bool = false) {
        self.quantity = quantity
        self.unit = unit
        self.unitText = unitText
        self.approximate = approximate
        self.isMultiplier = isMultiplier
    }
}

/// The structured result of parsing one ingredient sentence.
public struct ParsedIngredient: Codable, Sendable, Equatable {
    /// The original sentence.
    public var text: String
    /// The primary quantity (the first amount's quantity), or `nil`.
    public var quantity: Quantity?
    /// The primary canonical unit (e.g. "cup"), or `nil`.
    public var unit: String?
    /// The primary unit as written (e.g. "Tbsp", "large bunch"), or `nil`.
    public var unitText: String?
    /// Further amounts after the primary one, in sentence order
    /// (e.g. "1 cup (240 ml) milk" → `[240 milliliter]`; "10g/½oz" → `[½ ounce]`).
    public var additionalAmounts: [IngredientAmount]
    /// Size descriptor such as "large", "small", "14-ounce" (package size), or `nil`.
    public var size: String?
    /// The ingredient name (e.g. "olive oil", "butter or margarine").
    public var name: String
    /// Preparation instructions (e.g. "finely chopped", "sifted"), or `nil`.
    public var preparation: String?
    /// Other remarks (e.g. "to taste", "divided", "optional", "see Notes"), or `nil`.
    public var comment: String?
    /// `true` when the ingredient is marked optional.
    public var optional: Bool
    /// What the ingredient is for (e.g. "for garnish", "to serve"), or `nil`.
    public var purpose: String?
    /// The alternatives named in `name` ("butter or margarine" → `["butter", "margarine"]`);
    /// empty when there is only one.
    public var alternatives: [String]
    /// Heuristic confidence in the parse, 0–1.
    public var confidence: Double

    /// Creates a parsed ingredient.
    public init(text: String, quantity: Quantity? = nil, unit: String? = nil, unitText: String? = nil,
                additionalAmounts: [IngredientAmount] = [], size: String? = nil, name: String = "",
                preparation: String? = nil, comment: String? = nil, optional: Bool = false,
                purpose: String? = nil, alternatives: [String] = [], confidence: Double = 0) {
        self.text = text
        self.quantity = quantity
        self.unit = unit
        self.unitText = unitText
        self.additionalAmounts = additionalAmounts
        self.size = size
        self.name = name
        self.preparation = preparation
        self.comment = comment
        self.optional = optional
        self.purpose = purpose
        self.alternatives = alternatives
        self.confidence = confidence
    }

    /// All amounts in sentence order: the primary amount (if any) followed by `additionalAmounts`.
    public var amounts: [IngredientAmount] {
        var result: [IngredientAmount] = []
        if quantity != nil || unit != nil {
            result.append(IngredientAmount(quantity: quantity, unit: unit, unitText: unitText))
        }
        return result + additionalAmounts
    }
}
