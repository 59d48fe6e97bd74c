import Foundation

/// Scales a recipe to a number of servings: every quantity (ranges too, and the extra amounts such as "(240 ml)")
/// times servings ÷ the servings as written, rounded the way a cook measures (``KitchenUnits/round(_:unit:)``),
/// optionally converted to metric or US units. The amount as written stays beside the scaled one
/// (`scaledFrom`), the line's `text` is untouched, and scaling always starts again from the written amounts, so
/// ×2 then ×0.5 gives the original back exactly. A value type: `Sendable`.
public struct RecipeScaler: Sendable {
    /// Unit systems to convert into.
    public enum Units: String, Sendable, CaseIterable { case metric, us }

    /// The servings to scale to.
    public var servings: Double
    /// Convert units, or keep them (`nil`).
    public var units: Units?

    public init(servings: Double, units: Units? = nil) {
        self.servings = servings
        self.units = units
    }

    /// Why a recipe cannot be scaled.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var title: String
        public var description: String { "'\(title)' states no servings, so it cannot be scaled by servings" }
    }

    /// The recipe scaled; a recipe scaled back to its written servings without conversion is the original.
    public func scale(_ recipe: Recipe) throws -> Recipe {
        let written = recipe.scaling.map { ($0.originalServings, $0.originalMaxServings) }
            ?? recipe.yields?.servings.map { ($0, recipe.yields?.maxServings) }
        guard let (originalServings, originalMax) = written, originalServings > 0 else {
            throw Failure(title: recipe.title)
        }
        let factor = servings / originalServings
        var out = recipe
        let restore = abs(factor - 1) < 1e-9 && units == nil
        out.scaling = restore ? nil : RecipeScaling(
            factor: factor, servings: servings, originalServings: originalServings, originalMaxServings: originalMax,
            units: units?.rawValue)
        if out.yields != nil {
            out.yields?.servings = restore ? originalServings : servings
            out.yields?.maxServings = restore ? originalMax : originalMax.map { ($0 * factor * 100).rounded() / 100 }
        }
        for g in out.ingredientGroups.indices {
            for i in out.ingredientGroups[g].ingredients.indices {
                out.ingredientGroups[g].ingredients[i] = scale(out.ingredientGroups[g].ingredients[i], by: factor, restore: restore)
            }
        }
        return out
    }

    func scale(_ ingredient: RecipeIngredient, by factor: Double, restore: Bool) -> RecipeIngredient {
        var out = ingredient
        let from = ingredient.scaledFrom ?? ScaledFrom(
            quantity: ingredient.quantity, unit: ingredient.unit, unitText: ingredient.unitText,
            additionalAmounts: ingredient.additionalAmounts)
        out.quantity = from.quantity
        out.unit = from.unit
        out.unitText = from.unitText
        out.additionalAmounts = from.additionalAmounts
        guard !restore else {
            out.scaledFrom = nil
            return out
        }
        var notes: [String] = []
        if let q = from.quantity {
            let (quantity, unit, note) = scale(q, unit: from.unit, by: factor)
            out.quantity = quantity
            if unit != from.unit {
                out.unit = unit
                out.unitText = unit
            }
            if let note { notes.append(note) }
        }
        out.additionalAmounts = from.additionalAmounts.map { amount in
            let (quantity, unit, _) = scale(amount.quantity, unit: amount.unit, by: factor)
            return RecipeAmount(quantity: quantity, unit: unit)
        }
        var kept = from
        kept.note = notes.isEmpty ? nil : notes.joined(separator: "; ")
        out.scaledFrom = kept
        return out
    }

    /// One quantity scaled, converted and rounded.
    func scale(_ q: RecipeQuantity, unit: String?, by factor: Double) -> (RecipeQuantity, String?, String?) {
        let (low, lowUnit) = convert(q.value * factor, unit: unit)
        let (lowValue, note) = KitchenUnits.round(low, unit: lowUnit)
        var high: Double?
        if let max = q.max {
            let (h, _) = convert(max * factor, unit: unit, to: lowUnit)
            high = KitchenUnits.round(h, unit: lowUnit).value
        }
        var countNote = note
        if note != nil, KitchenUnits.dimension(lowUnit) == .count {
            countNote = (note ?? "") + " to whole items"
        }
        return (RecipeQuantity(value: lowValue, max: high), lowUnit, countNote)
    }

    /// A value converted into the requested unit system (the unit a cook would use at that size), or kept.
    func convert(_ value: Double, unit: String?, to fixed: String? = nil) -> (Double, String?) {
        guard let units, let unit, let dimension = KitchenUnits.dimension(unit), dimension != .count else {
            return (value, unit)
        }
        let base = dimension == .mass ? value * KitchenUnits.grams[unit]! : value * KitchenUnits.milliliters[unit]!
        if ["teaspoon", "tablespoon"].contains(unit) && fixed == nil { return (value, unit) }  // spoons are both
        let target: String
        if let fixed {
            target = fixed
        } else {
            switch (units, dimension) {
            case (.metric, .mass): target = base >= 1000 ? "kilogram" : "gram"
            case (.metric, _): target = base >= 1000 ? "liter" : "milliliter"
            case (.us, .mass): target = base >= 453.59237 ? "pound" : "ounce"
            case (.us, _): target = base >= 59 ? "cup" : base >= 14 ? "tablespoon" : "teaspoon"
            }
        }
        let per = dimension == .mass ? KitchenUnits.grams[target] : KitchenUnits.milliliters[target]
        guard let per else { return (value, unit) }
        return (base / per, target)
    }
}
