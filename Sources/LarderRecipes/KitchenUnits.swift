import Foundation

/// Kitchen units: what each canonical unit measures, conversions within mass and within volume, a small density
/// table to cross between them for common ingredients, and kitchen-friendly rounding.
///
/// Densities (grams per millilitre) are the usual US kitchen figures per cup (236.6 ml): flour 125 g, sugar
/// 200 g, brown sugar 220 g, powdered sugar 120 g, butter 227 g, rice 185 g, oats 90 g, cocoa 85 g, honey 340 g,
/// milk 245 g, water/stock 237 g, oil 218 g, yogurt 245 g, grated cheese 113 g, lentils 192 g, salt 292 g,
/// peanut butter 258 g. Anything else converts only within its own dimension. A value type: `Sendable`.
public enum KitchenUnits {
    /// What a unit measures.
    public enum Dimension: String, Sendable, Codable { case mass, volume, count }

    /// Grams per unit.
    public static let grams: [String: Double] = [
        "gram": 1, "kilogram": 1000, "milligram": 0.001, "ounce": 28.349523, "pound": 453.59237,
    ]
    /// Millilitres per unit.
    public static let milliliters: [String: Double] = [
        "milliliter": 1, "centiliter": 10, "deciliter": 100, "liter": 1000, "teaspoon": 4.928922,
        "tablespoon": 14.786765, "dessertspoon": 10, "cup": 236.588237, "fluid ounce": 29.573530, "pint": 473.176473,
        "half-pint": 236.588237, "quart": 946.352946, "gallon": 3785.411784,
    ]
    /// Grams per millilitre, by base ingredient.
    public static let densities: [String: Double] = [
        "flour": 0.528, "sugar": 0.845, "brown sugar": 0.93, "powdered sugar": 0.507, "butter": 0.959,
        "rice": 0.782, "brown rice": 0.782, "oats": 0.38, "cocoa": 0.359, "honey": 1.437, "milk": 1.036,
        "water": 1.0, "broth": 1.0, "chicken stock": 1.0, "olive oil": 0.921, "vegetable oil": 0.921, "oil": 0.921,
        "yogurt": 1.036, "cheddar cheese": 0.478, "mozzarella": 0.478, "parmesan": 0.423, "lentils": 0.812,
        "salt": 1.234, "peanut butter": 1.09, "cream": 1.0, "maple syrup": 1.32,
    ]

    /// Receipt and shorthand unit names → canonical unit ("lb" → pound, "ct" → each).
    public static func canonical(_ unit: String?) -> String? {
        guard let unit = unit?.lowercased().trimmingWhitespace(), !unit.isEmpty else { return nil }
        let map: [String: String] = [
            "lb": "pound", "lbs": "pound", "oz": "ounce", "kg": "kilogram", "g": "gram", "gr": "gram", "ml": "milliliter",
            "l": "liter", "ltr": "liter", "gal": "gallon", "qt": "quart", "pt": "pint", "fl oz": "fluid ounce",
            "floz": "fluid ounce", "ct": "each", "ea": "each", "pk": "each", "count": "each", "dozen": "dozen",
        ]
        return map[unit] ?? unit
    }

    /// The dimension of a canonical unit; `nil` unit (a bare count, "2 eggs") and "each" are counts; other
    /// units ("clove", "can", "pinch") are `nil`: not comparable.
    public static func dimension(_ unit: String?) -> Dimension? {
        guard let unit = canonical(unit) else { return .count }
        if grams[unit] != nil { return .mass }
        if milliliters[unit] != nil { return .volume }
        if unit == "each" || unit == "dozen" { return .count }
        return nil
    }

    /// `value` in `unit` expressed in grams (mass), millilitres (volume) or items (count), crossing mass and
    /// volume through ``densities`` when `ingredient` has one and `into` asks for the other dimension.
    public static func amount(_ value: Double, _ unit: String?, in target: Dimension, ingredient: String?) -> Double? {
        let unit = canonical(unit)
        guard let from = dimension(unit) else { return nil }
        switch (from, target) {
        case (.count, .count): return unit == "dozen" ? value * 12 : value
        case (.mass, .mass): return value * grams[unit!]!
        case (.volume, .volume): return value * milliliters[unit!]!
        case (.volume, .mass):
            guard let d = ingredient.flatMap({ densities[$0] }) else { return nil }
            return value * milliliters[unit!]! * d
        case (.mass, .volume):
            guard let d = ingredient.flatMap({ densities[$0] }) else { return nil }
            return value * grams[unit!]! / d
        default: return nil
        }
    }

    /// A package size printed in a product name ("CANNED TOMATOES 28OZ" → 28 ounce, "EGGS 12CT" → 12 each,
    /// "WHOLE MILK 1 GAL" → 1 gallon), or `nil`.
    public static func packageSize(in product: String) -> (value: Double, unit: String)? {
        let pattern = #"(\d+(?:\.\d+)?)\s?(FL ?OZ|OZ|LBS?|KG|G|GAL|L|ML|QT|PT|CT|DOZ)\b"#
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]),
              let m = regex.firstMatch(in: product, range: NSRange(product.startIndex..., in: product)),
              let v = Range(m.range(at: 1), in: product), let u = Range(m.range(at: 2), in: product),
              let value = Double(product[v])
        else { return nil }
        let unit = product[u].uppercased().replacingOccurrences(of: " ", with: "")
        let canonicalUnit = unit == "FLOZ" ? "fluid ounce" : unit == "DOZ" ? "dozen" : canonical(unit) ?? unit.lowercased()
        return (value, canonicalUnit)
    }

    /// Rounds a scaled quantity the way a cook measures it: cups and spoons to the nearest 1/8 (at least 1/8),
    /// grams and millilitres to 1 below 10, 5 below 100, 10 below 1000 and 50 above, ounces and pounds to 1/4,
    /// counts up to whole items (eggs). `note` says when a count was rounded up.
    public static func round(_ value: Double, unit: String?) -> (value: Double, note: String?) {
        let unit = canonical(unit)
        func nearest(_ step: Double) -> Double { max(step, (value / step).rounded() * step) }
        switch unit {
        case "cup", "tablespoon", "teaspoon", "dessertspoon", "fluid ounce", "pint", "quart", "gallon", "half-pint":
            return (nearest(0.125), nil)
        case "gram", "milliliter":
            let step: Double = value < 10 ? 1 : value < 100 ? 5 : value < 1000 ? 10 : 50
            return (nearest(step), nil)
        case "kilogram", "liter", "ounce", "pound": return (nearest(0.25), nil)
        case "centiliter", "deciliter": return (nearest(0.5), nil)
        case nil, "each", "clove", "can", "tin", "stick", "slice", "piece", "head", "bunch", "sprig":
            let up = value.rounded(.up)
            if abs(value - value.rounded()) < 0.01 { return (value.rounded(), nil) }
            if value < 1 && unit != nil { return (nearest(0.25), nil) }
            return (up, String(format: "rounded up from %g", (value * 100).rounded() / 100))
        default: return (nearest(0.25), nil)
        }
    }
}
