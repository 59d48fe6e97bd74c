import Foundation
import LarderTestSupport
import Testing

@testable import LarderRecipes

/// `--servings` scaling: round trips, kitchen rounding, ranges, whole eggs and unit conversion.
@Suite struct ScalingTests {
    static let pancakes = """
        Test Pancakes

        Serves 4

        Ingredients
        1 1/3 cups plain flour
        2 eggs
        2-3 tbsp sugar
        300 ml (1 1/4 cups) milk
        250 g butter
        a pinch of salt
        """

    func recipe() throws -> Recipe { try #require(parseText(Self.pancakes).first) }

    /// ×2 then ×0.5 gives the original back exactly, for every sample recipe that states servings.
    @Test func doublingThenHalvingGivesTheOriginal() throws {
        var recipes = [try recipe()]
        do {
            for name in ["tomato-soup.txt", "red-lentil-soup.txt", "squash-traybake.txt", "banana-bread.txt"] {
                let text = try String(contentsOfFile: samplesDirectory + "/" + name, encoding: .utf8)
                recipes += parseText(text, file: name)
            }
        }
        var checked = 0
        for original in recipes {
            guard let servings = original.yields?.servings else { continue }
            let doubled = try RecipeScaler(servings: servings * 2).scale(original)
            #expect(doubled != original)
            let back = try RecipeScaler(servings: servings).scale(doubled)
            #expect(back == original, "\(original.title)")
            checked += 1
        }
        // The pancakes and three of the samples say "Serves 4" (the banana bread makes a loaf): all four are checked.
        #expect(checked >= 4, "only \(checked) recipes with servings were parsed")
    }

    @Test func kitchenRounding() throws {
        let scaled = try RecipeScaler(servings: 6).scale(try recipe())  // ×1.5
        let items = scaled.allIngredients
        #expect(scaled.scaling?.factor == 1.5)
        #expect(scaled.yields?.servings == 6)
        // 1 1/3 × 1.5 = 2 cups exactly; the line as written stays beside.
        #expect(items[0].quantity?.value == 2)
        #expect(items[0].text == "1 1/3 cups plain flour")
        #expect(items[0].scaledFrom?.quantity?.value == 4.0 / 3)
        // 2 eggs × 1.5 = 3 (whole); ranges scale at both ends, to the nearest 1/8.
        #expect(items[1].quantity?.value == 3)
        #expect(items[2].quantity == RecipeQuantity(value: 3, max: 4.5))
        // 300 ml → 450 ml; the extra amount (1 1/4 cups) → 1 7/8 cups.
        #expect(items[3].quantity?.value == 450)
        #expect(items[3].additionalAmounts.first?.quantity.value == 1.875)
        // 250 g × 1.5 = 375 g → 380 g (10 g steps between 100 and 1000).
        #expect(items[4].quantity?.value == 380)
        let odd = try RecipeScaler(servings: 3).scale(try recipe())  // ×0.75: 1.5 eggs
        #expect(odd.allIngredients[1].quantity?.value == 2)
        #expect(odd.allIngredients[1].scaledFrom?.note == "rounded up from 1.5 to whole items")
    }

    @Test func unitConversion() throws {
        let metric = try RecipeScaler(servings: 4, units: .metric).scale(try recipe())
        let flour = metric.allIngredients[0]
        #expect(flour.unit == "milliliter")
        #expect(flour.quantity?.value == 320)  // 1 1/3 cups = 315.5 ml → 320 ml
        #expect(metric.allIngredients[2].unit == "tablespoon", "spoons are kept")
        let us = try RecipeScaler(servings: 4, units: .us).scale(try recipe())
        #expect(us.allIngredients[4].unit == "ounce")
        #expect(us.allIngredients[4].quantity?.value == 8.75)  // 250 g = 8.82 oz → 8 3/4
        #expect(us.allIngredients[3].unit == "cup")
        #expect(us.allIngredients[3].quantity?.value == 1.25)  // 300 ml = 1.27 cups → 1 1/4
    }

    @Test func aRecipeWithoutServingsCannotBeScaled() throws {
        let recipe = try #require(parseText("Toast\n\nIngredients\n2 slices bread\n1 tbsp butter\n").first)
        #expect(throws: RecipeScaler.Failure.self) { try RecipeScaler(servings: 2).scale(recipe) }
    }

    @Test func packageSizesFromProductNames() {
        let tomatoes = KitchenUnits.packageSize(in: "CANNED TOMATOES 28OZ")
        #expect(tomatoes?.value == 28 && tomatoes?.unit == "ounce")
        let eggs = KitchenUnits.packageSize(in: "LG BROWN EGGS 12CT")
        #expect(eggs?.value == 12 && eggs?.unit == "each")
        let milk = KitchenUnits.packageSize(in: "WHOLE MILK 1 GAL")
        #expect(milk?.value == 1 && milk?.unit == "gallon")
        #expect(KitchenUnits.packageSize(in: "GARLIC BULB") == nil)
        #expect(KitchenUnits.amount(1, "cup", in: .mass, ingredient: "flour")! > 124)
        #expect(KitchenUnits.amount(1, "cup", in: .mass, ingredient: "cumin") == nil, "no density: no guess")
    }
}
