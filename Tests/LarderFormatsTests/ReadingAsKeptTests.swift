import Foundation
import LarderArchives
import LarderRecipes
import LarderTestSupport
import Testing

@testable import LarderFormats

/// Other apps' files as their users keep them (issue 33), with inputs written here.
@Suite struct ReadingAsKeptTests {
    static func read(_ files: [(String, String)]) -> RecipeImport.Outcome {
        RecipeImport.read(files.map { ExportMember(path: $0.0, data: Data($0.1.utf8)) })
    }

    static let pizza = """
        ---
        layout: recipe
        title: "Weeknight Pizza"
        components:
        - Pizza Dough
        ingredients:
        - 1 cup tomato sauce
        - Toppings:
          - 100 g mozzarella
          - 6 basil leaves
        directions:
        - Top the dough and bake.
        ---
        A quick pizza.
        """

    static let dough = """
        ---
        layout: recipe
        title: Pizza Dough
        ingredients:
        - 500 g flour
        - 300 ml water
        directions:
        - Knead for ten minutes.
        ---
        """

    @Test func chowdownFilesAreRecognisedOneByOneAsAFolderHoldsThem() {
        #expect(RecipeImport.textFormat(fileName: "_recipes/pizza.md", data: Data(Self.pizza.utf8)) == .chowdown)
        #expect(RecipeImport.textFormat(fileName: "notes.md", data: Data("# Notes\nnothing".utf8)) == nil)
        let outcome = Self.read([("_recipes/pizza.md", Self.pizza)])
        let d = try! #require(outcome.recipes.first).draft
        #expect(outcome.recipes.count == 1)
        // YAML groups are groups; the component named but absent is named in a warning.
        #expect(d.ingredientGroups.map(\.name) == [nil, "Toppings"])
        #expect(d.ingredientGroups.map(\.lines) == [["1 cup tomato sauce"], ["100 g mozzarella", "6 basil leaves"]])
        #expect(outcome.warnings.map(\.message) == [
            "recipe 'Weeknight Pizza' uses the Chowdown component 'Pizza Dough', which is not in the import: kept without it (import the whole site, its folder zipped, to include it)"
        ])
        // A component alone is no recipe, and says so.
        let alone = Self.read([("_components/pizza-dough.md", Self.dough)])
        #expect(alone.recipes.isEmpty)
        #expect(alone.warnings.count == 1 && alone.warnings[0].message.contains("Chowdown component"))
    }

    @Test func chowdownComponentsArePartsOfTheRecipesThatUseThem() {
        let onlyComponents = """
            ---
            layout: recipe
            title: Plain Pizza Base
            components:
            - pizza-dough
            ---
            """
        let outcome = Self.read([
            ("site/_recipes/pizza.md", Self.pizza), ("site/_components/pizza-dough.md", Self.dough),
            ("site/_recipes/base.md", onlyComponents), ("site/images/pizza.jpg", "binary"),
        ])
        #expect(outcome.recipes.map(\.draft.title) == ["Weeknight Pizza", "Plain Pizza Base"])
        #expect(outcome.warnings.isEmpty, "\(outcome.warnings)")
        let pizza = outcome.recipes[0].draft
        #expect(pizza.ingredientGroups.map(\.name) == ["Pizza Dough", nil, "Toppings"])
        #expect(pizza.steps == ["Knead for ten minutes.", "Top the dough and bake."])
        // Found by file stem as well as by title.
        #expect(outcome.recipes[1].draft.ingredientLines == ["500 g flour", "300 ml water"])
    }

    @Test func mealMasterHeadersAndFootersOfOtherPrograms() {
        let body = """

                  Title: Tea Loaf
             Categories: Baking
                  Yield: 1 loaf

                  2 c  Flour
                  1 c  Cold tea

              Mix and bake for an hour.

            """
        for (header, footer) in [
            ("MMMMM---MEAL-MASTER Format---", "MMMMM"), ("-------- Recipe via Meal-Master (tm) v8.02", "-----"),
            ("----- Exported by Krecipes v2.0-beta2 [Meal-Master Export Format] -----", "-----"),
            ("MMMMM----------------Meal-Master recipe exported by AnyMeal-----------------", "MMMMM"),
            ("MMMMM----- Recipe via Meal-Master (tm)", "MMMMM"),
            ("----- Now You're Cooking! v5.81 [Meal-Master Export Format]", "------------------------"),
        ] {
            let text = header + "\n" + body + footer + "\n\nsome text between\n\n" + header + "\n" + body + footer + "\n"
            #expect(RecipeImport.textFormat(fileName: "x.txt", data: Data(text.utf8)) == .mealmaster, "\(header)")
            let recipes = MealMasterReader.parse(text)
            #expect(recipes.count == 2, "\(header)")
            #expect(recipes.allSatisfy { $0.title == "Tea Loaf" && $0.ingredients.count == 2 && $0.directions == ["Mix and bake for an hour."] }, "\(header)")
        }
        // A section heading is not a header.
        #expect(!MealMasterReader.isProgramHeader("MMMMM-----------------------TOMATO SAUCE-----------------------"))
        #expect(!MealMasterReader.isProgramHeader("MMMMM-----------------------GOURMET TOPPING----------------------"))
        #expect(!MealMasterReader.isProgramHeader("-----Recipe notes-----"))
    }

    /// Files laid out as each program's own MealMaster writer lays them out (its code read 2026-12-07; the recipe
    /// is made up here): AnyMeal's `anymeal/export.cc` (CRLF, `MMMMM`-prefixed sections of 76, two-space
    /// directions, a footer without a line end), Krecipes' `src/exporters/mmfexporter.cpp` (a blank line after the
    /// header, dash-only group headings of 76, one-space directions, `-----`), Gourmet's
    /// `mealmaster_exporter.py` (quantities padded to 6 and units to their longest, right-aligned; upper-case
    /// groups of 70; `MMMMM`).
    @Test func mealMasterAsEachProgramsWriterLaysItOut() {
        func dashes(_ n: Int) -> String { String(repeating: "-", count: n) }
        let anyMealSection = "MMMMM" + dashes((71 - 8) / 2) + "DRESSING" + dashes((71 - 8 + 1) / 2)
        let anyMeal = [
            "MMMMM----------------Meal-Master recipe exported by AnyMeal-----------------", "     Title: Lemon Rice",
            "Categories: Rice, Sides", "     Yield: 4 servings", "", "      1 c  Long-grain rice", "    1.5 c  Water", "",
            anyMealSection, "  1 1/2 tb Lemon juice, freshly squeezed", "           -from two lemons", "",
            "  Rinse the rice. Simmer it in the water for 15 minutes.", "", "  Stir in the lemon juice.", "", "MMMMM",
        ].joined(separator: "\r\n")
        let krecipes = [
            "----- Exported by Krecipes v2.0-beta2 [Meal-Master Export Format] -----", "", "      Title: Lemon Rice",
            " Categories: Rice, Sides", "   Servings: 4", "", "      1 c  Long-grain rice", "    1.5 c  Water",
            dashes(34) + "Dressing" + dashes(34), "  1 1/2 tb Lemon juice, freshly squeezed", "           -from two lemons", "",
            " Rinse the rice. Simmer it in the water for 15 minutes.", "", " Stir in the lemon juice.", "", "-----", "",
        ].joined(separator: "\n")
        let gourmet = [
            "MMMMM----- Recipe via Meal-Master (tm)", "", "     Title: Lemon Rice", "Categories: Rice, Sides",
            "     Yield: 4 servings", "", "     1  c Long-grain rice", "   1.5  c Water",
            "-----" + dashes(26) + "DRESSING" + dashes(31), " 1 1/2 tb Lemon juice, freshly squeezed from two lemons", "", "",
            "  Rinse the rice. Simmer it in the water for 15 minutes.", "", "  Stir in the lemon juice.", "", "", "MMMMM", "", "",
        ].joined(separator: "\r\n")
        for (program, text) in [("AnyMeal", anyMeal), ("Krecipes", krecipes), ("Gourmet", gourmet)] {
            #expect(RecipeImport.textFormat(fileName: "export.mmf", data: Data(text.utf8)) == .mealmaster, "\(program)")
            let recipes = MealMasterReader.parse(text + (program == "Gourmet" ? "" : "\n") + text)
            #expect(recipes.count == 2, "\(program): \(recipes.count) recipes")
            guard let d = recipes.first?.draft else { continue }
            #expect(d.title == "Lemon Rice" && d.categories == ["Rice", "Sides"] && d.yield == "4", "\(program): \(d.title) \(d.categories) \(String(describing: d.yield))")
            #expect(d.ingredientGroups.map(\.name) == [nil, program == "Krecipes" ? "Dressing" : "DRESSING"], "\(program): \(d.ingredientGroups)")
            #expect(d.ingredientLines == ["1 c Long-grain rice", "1.5 c Water", "1 1/2 tb Lemon juice, freshly squeezed from two lemons"], "\(program): \(d.ingredientLines)")
            #expect(d.steps == ["Rinse the rice. Simmer it in the water for 15 minutes.", "Stir in the lemon juice."], "\(program): \(d.steps)")
        }
    }

    @Test func masterCookDirectionsContinuationsTabsAndLeftAlignedAmounts() {
        let text = """
            * Exported from MasterCook *

                                   Soda Bread

            Recipe By     : Kim
            Serving Size  : 4     Preparation Time :0:50
            Categories    : Breads

              Amount  Measure       Ingredient -- Preparation Method
            --------  ------------  --------------------------------
              2            cups     flour
                                    -- or your favorite
              1            tsp      baking soda
            >From: someone@example.com

            Mix the flour and the soda in a large bowl, then stir in
            the buttermilk until it comes together.
            Bake for 40 minutes. Cool on a rack.

            >From: list@example.com
            Serve warm.
                                - - - - - - - - - - - - - - - - - - -
            """
        let r = try! #require(MasterCookReader.parse(text).first)
        #expect(r.directions == ["Mix the flour and the soda in a large bowl, then stir in the buttermilk until it comes together.", "Bake for 40 minutes. Cool on a rack.", "Serve warm."])
        #expect(r.draft.ingredientLines == ["2 cups flour, or your favorite", "1 tsp baking soda"])
        let tabbed = """
            * Exported from MasterCook *

                                   Tab Soup

              Amount  Measure       Ingredient -- Preparation Method
            --------  ------------  --------------------------------
            1\tcup\tlentils -- rinsed
            2\t\tcarrots
            \t\tsalt

            Simmer until soft.
            """
        let t = try! #require(MasterCookReader.parse(tabbed).first)
        #expect(t.draft.ingredientLines == ["1 cup lentils, rinsed", "2 carrots", "salt"])
        #expect(t.directions == ["Simmer until soft."])
        let left = """
            * Exported from MasterCook *

                                   Left Stew

              Amount  Measure       Ingredient -- Preparation Method
            --------  ------------  --------------------------------
            1 1/2     pounds        beef -- cubed
            3                       potatoes

            Stew for two hours.
            """
        let l = try! #require(MasterCookReader.parse(left).first)
        #expect(l.draft.ingredientLines == ["1 1/2 pounds beef, cubed", "3 potatoes"])
        #expect(l.directions == ["Stew for two hours."])
    }

    @Test func masterCookXMLEntitiesStayTextAndABombIsNamed() throws {
        let xml = """
            <?xml version="1.0" standalone="yes" encoding="ISO-8859-1"?>
            <mx2 source="MasterCook 6.0"><RcpE name="Odd Soup" author=""><Serv qty="2"/>
            <IngR name="salt &amp; pepper" unit="" qty=""></IngR>
            <DirS><DirT>Stir. &x; &p; Done.</DirT><DirT>Salt & serve.</DirT></DirS></RcpE></mx2>
            """
        let r = try #require(try MX2Reader.parse(Data(xml.utf8)).first)
        #expect(r.directions == ["Stir. &x; &p; Done.", "Salt & serve."])
        #expect(r.ingredients.map(\.ingredient) == ["salt & pepper"])
        let bomb = """
            <?xml version="1.0"?>
            <!DOCTYPE mx2 [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>
            <mx2><RcpE name="&c;"><DirS><DirT>&c;</DirT></DirS></RcpE></mx2>
            """
        #expect(throws: MX2Reader.Failure.entityExpansionRefused) { try MX2Reader.parse(Data(bomb.utf8)) }
        let outcome = Self.read([("bomb.mx2", bomb)])
        #expect(outcome.recipes.isEmpty)
        #expect(outcome.errors.first?.message.contains("entity expansion refused") == true, "\(outcome.errors)")
    }

    @Test func nextcloudStringsStayWholeAndInstructionBlocksAreSteps() throws {
        let json = """
            {"@context": "http://schema.org", "@type": "Recipe", "name": "Quiche", "recipeYield": 4,
             "recipeIngredient": ["3 eggs", "80 g\\r\\n de lardons", "200 ml cream"],
             "recipeInstructions": ["Pastry:\\nRoll out the pastry and line\\nthe tin.\\n\\nFilling:\\nBeat the eggs with the cream.\\nAdd the lardons."]}
            """
        let outcome = Self.read([("Recipes/Quiche/recipe.json", json)])
        let r = try #require(outcome.recipes.first)
        #expect(r.format == .nextcloud)
        #expect(r.draft.ingredientLines == ["3 eggs", "80 g de lardons", "200 ml cream"])
        #expect(r.draft.steps == ["Pastry:", "Roll out the pastry and line the tin.", "Filling:", "Beat the eggs with the cream.", "Add the lardons."])
        #expect(r.draft.yield == "4")
    }

    @Test func cooklangFixedAmountsNestedNotesAndEmptySourceFields() throws {
        let text = """
            ---
            title: Shallot Butter
            source:
              url:
            author: ""
            ---

            Add @Kosher salt{=1%pinch} and @shallots{2}(chopped (⅔ cup)) to the #bowl{}; wait ~{5%minutes}.
            """
        let outcome = Self.read([("butter.cook", text)])
        let d = try #require(outcome.recipes.first).draft
        #expect(d.ingredientLines == ["1 pinch Kosher salt", "2 shallots, chopped (⅔ cup)"])
        #expect(d.steps == ["Add Kosher salt and shallots to the bowl; wait 5 minutes."])
        #expect(d.url == nil && d.author == nil)
        let r = recipe(d)
        #expect(r.source.url == nil)
    }

    @Test func paprikaNullIngredientsAreKeptAndEveryRecipeIsAccountedFor() throws {
        let nullIngredients = #"{"name": "Toast", "ingredients": null, "directions": "Toast the bread.", "uid": "A"}"#
        let empty = #"{"name": "Water", "ingredients": "", "directions": "", "uid": "B"}"#
        let normal = #"{"name": "Tea", "ingredients": "1 tea bag\nFor serving:\nmilk", "directions": "Steep.", "uid": "C"}"#
        let outcome = RecipeImport.read([
            ExportMember(path: "a.paprikarecipe", data: Data(nullIngredients.utf8)),
            ExportMember(path: "b.paprikarecipe", data: Data(empty.utf8)),
            ExportMember(path: "c.paprikarecipe", data: Data(normal.utf8)),
        ])
        #expect(outcome.recipes.map(\.draft.title) == ["Toast", "Water", "Tea"])
        #expect(outcome.errors.isEmpty)
        #expect(outcome.warnings.map(\.message) == [
            "recipe 'Toast' has no ingredients: kept with 0 ingredients", "recipe 'Water' has no ingredients: kept with 0 ingredients",
        ])
        #expect(outcome.recipes[2].draft.ingredientGroups.map(\.name) == [nil, "For serving"])
    }
}
