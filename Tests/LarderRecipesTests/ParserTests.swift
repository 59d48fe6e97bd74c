import Foundation
import Testing
@testable import LarderRecipes

@Suite struct SplittingTests {
    @Test func textFileWithThreeRecipes() throws {
        let recipes = parseText(Fixtures.threeRecipes)
        try #require(recipes.count == 3)
        #expect(recipes.map(\.title) == ["Garlic Butter Pasta", "Cucumber Salad", "Chocolate Mug Cake"])

        let pasta = recipes[0]
        #expect(ingredientTexts(pasta).count == 5)
        #expect(pasta.steps.count == 3)
        #expect(pasta.yields?.servings == 2)
        #expect(pasta.prepMinutes == 5)
        #expect(pasta.cookMinutes == 12)

        let salad = recipes[1]
        #expect(ingredientTexts(salad) == ["1 large cucumber, thinly sliced", "2 tbsp rice vinegar", "1 tsp sugar", "1 tsp sesame seeds"])
        // Unnumbered blank-line separated paragraphs are steps.
        #expect(salad.steps.map(\.text) == [
            "Whisk the vinegar and sugar until the sugar dissolves.",
            "Toss the cucumber with the dressing and chill for 30 minutes.",
            "Scatter over the sesame seeds to serve.",
        ])
        #expect(salad.notes == ["Best eaten the same day."])
        #expect(salad.yields?.text == "Serves 4 as a side")

        let cake = recipes[2]
        #expect(ingredientTexts(cake).count == 6)
        #expect(cake.steps.map(\.number) == [1, 2, 3])
        #expect(cake.steps.first?.text == "Mix the flour, cocoa and sugar in a large mug.")
        #expect(cake.totalMinutes == 5)
        #expect(cake.yields?.servings == 1)
        #expect(cake.yields?.unit == "mug cake")
        #expect(cake.steps[2].durations.first?.minutes == 1.5)
    }

    @Test func pdfTitlesByFontSizeAndRecipeAcrossPages() throws {
        let recipes = RecipeParser().parse(pdfSource(Fixtures.pdfPages))
        try #require(recipes.count == 2)
        let soup = recipes[0]
        #expect(soup.title == "Spiced Lentil Soup")
        #expect(soup.provenance["title"] == Provenance(page: 1, lineStart: 1, lineEnd: 1))
        #expect(soup.source.pages == [1, 2])
        #expect(soup.source.format == "pdf")
        #expect(soup.description == "A warming soup for cold evenings.")
        #expect(ingredientTexts(soup).count == 6)
        try #require(soup.steps.count == 3)
        // The step wrapped onto page 2 is joined; the page number between is dropped.
        #expect(soup.steps[1].text == "Stir in the cumin and cook for 1 minute, then add the lentils and the stock. Bring to the boil and simmer for 25-30 minutes.")
        #expect(soup.steps[1].provenance.page == 1)
        #expect(soup.steps[1].durations.map(\.minutes) == [1, 25])
        #expect(soup.steps[1].durations.last?.maxMinutes == 30)
        #expect(soup.steps[2].provenance == Provenance(page: 2, lineStart: 2, lineEnd: 2))
        #expect(soup.prepMinutes == 15 && soup.cookMinutes == 40)

        let bread = recipes[1]
        #expect(bread.title == "Herb Flatbreads")
        #expect(bread.source.pages == [2])
        #expect(bread.yields?.servings == 8)
        #expect(ingredientTexts(bread).count == 5)
        #expect(bread.steps.count == 3)
        let gas = try #require(bread.steps[2].temperatures.first)
        #expect(gas.unit == "C" && gas.gasMark == 7 && gas.value == 220)
        #expect(bread.allIngredients.allSatisfy { $0.provenance.page == 2 })
    }

    @Test func repeatedTitleOnNextPageDoesNotSplit() {
        let pages: [[(String, Double, Bool)]] = [
            [("Fish Pie", 18, true), ("Ingredients", 12, true), ("600 g fish fillets", 10, false), ("500 ml milk", 10, false),
             ("Method", 12, true), ("1. Poach the fish in the milk for 8 minutes.", 10, false)],
            [("Fish Pie (continued)", 18, true), ("2. Flake the fish into a dish and top with mash.", 10, false),
             ("3. Bake for 30 minutes.", 10, false)],
        ]
        let recipes = RecipeParser().parse(pdfSource(pages))
        #expect(recipes.count == 1)
        #expect(recipes.first?.steps.count == 3)
        #expect(recipes.first?.source.pages == [1, 2])
    }

    @Test func markdownLevelOneHeadingsSplit() {
        let md = """
        # Toast

        ## Ingredients
        - 2 slices bread
        - butter

        ## Method
        1. Toast the bread.
        2. Spread with butter.

        # Tea

        ## Ingredients
        - 1 tea bag
        - 250 ml boiling water

        ## Method
        1. Steep the tea bag in the water for 3 minutes.
        """
        let recipes = parseText(md, format: "markdown", file: "breakfast.md")
        #expect(recipes.map(\.title) == ["Toast", "Tea"])
        #expect(recipes.map { $0.steps.count } == [2, 1])
    }
}

@Suite struct StructureTests {
    @Test func recipeWithoutHeaders() throws {
        let r = try #require(parseText(Fixtures.headerless).first)
        #expect(r.title == "Simple Flatbreads")
        #expect(ingredientTexts(r) == ["250 g plain flour", "1 tsp baking powder", "1/2 tsp salt", "150 g natural yogurt", "1 tbsp olive oil"])
        #expect(r.steps.count == 3)
        #expect(r.steps[1].text.hasPrefix("Knead for 1 minute"))
        // Found without headers: lower confidence than a fully headed recipe.
        #expect(r.allIngredients.allSatisfy { $0.confidence <= 0.85 })
        #expect(r.confidence < 0.95)
    }

    @Test func headersGroupsAndNotes() throws {
        let r = try #require(parseText(Fixtures.groupsAndHeaders).first)
        #expect(r.title == "CINNAMON BUNS")
        #expect(r.ingredientGroups.map(\.name) == ["For the dough", "For the filling"])
        #expect(r.ingredientGroups.map { $0.ingredients.count } == [4, 3])
        #expect(r.yields == RecipeYield(servings: 12, maxServings: nil, unit: "buns", text: "Yield: 12 buns"))
        #expect(r.prepMinutes == 30)
        #expect(r.cookMinutes == 25)
        #expect(r.totalMinutes == 150)
        try #require(r.steps.count == 4)
        #expect(r.steps[2].text == "Roll out, spread with the soft butter, sprinkle with the cinnamon and sugar, roll up and cut into 12 slices.")
        #expect(r.steps[2].provenance == Provenance(page: 1, lineStart: 22, lineEnd: 23))
        #expect(r.steps[1].durations == [StepDuration(minutes: 75, text: "rise for 1 hr 15 min")])
        let temps = r.steps[3].temperatures
        #expect(temps.count == 2)
        #expect(temps.first?.value == 190 && temps.first?.unit == "C")
        #expect(temps.last?.gasMark == 5 && temps.last?.value == 190)
        #expect(r.notes == ["The buns freeze well.", "Use dark sugar for a deeper flavour."])
        // Step 3 uses the soft butter (full name) and cinnamon and sugar, not the melted butter.
        let names = r.steps[2].ingredients.map(\.name)
        #expect(names.contains("ground cinnamon"))
        #expect(names.contains("light brown sugar"))
        #expect(r.steps[2].ingredients.contains { $0.group == 1 && $0.index == 0 })
    }

    @Test(arguments: [
        "Ingredients", "INGREDIENTS", "ingredients:", "## Ingredients", "You will need…", "You'll need:", "What you need",
    ])
    func ingredientHeaderForms(_ header: String) throws {
        let text = "Plain Rice\n\n\(header)\n200 g rice\n400 ml water\n\nMethod\n1. Simmer the rice in the water for 12 minutes.\n"
        let r = try #require(parseText(text, format: header.hasPrefix("#") ? "markdown" : "text").first)
        #expect(ingredientTexts(r) == ["200 g rice", "400 ml water"])
        #expect(r.steps.count == 1)
    }

    @Test(arguments: [
        "Method", "Directions:", "INSTRUCTIONS", "Preparation", "Steps", "## Method", "How to make it", "Method:",
    ])
    func methodHeaderForms(_ header: String) throws {
        let text = "Plain Rice\n\nIngredients\n200 g rice\n400 ml water\n\n\(header)\nRinse the rice.\n\nSimmer the rice in the water for 12 minutes.\n\nNotes:\nServe hot.\n"
        let r = try #require(parseText(text, format: header.hasPrefix("#") ? "markdown" : "text").first)
        #expect(ingredientTexts(r).count == 2)
        #expect(r.steps.map(\.text) == ["Rinse the rice.", "Simmer the rice in the water for 12 minutes."])
        #expect(r.notes == ["Serve hot."])
        #expect(r.steps[1].ingredients.map(\.name) == ["rice", "water"])
    }

    @Test func wrappedNumberedStepsJoin() throws {
        let text = """
        Porridge

        Ingredients
        50 g oats
        300 ml milk

        Method
        1. Put the oats and milk in a pan and bring to the boil,
           stirring all the time.
        2) Simmer for 4-5 minutes
        until thick and creamy.
        Step 3 Serve.
        """
        let r = try #require(parseText(text).first)
        #expect(r.steps.map(\.text) == [
            "Put the oats and milk in a pan and bring to the boil, stirring all the time.",
            "Simmer for 4-5 minutes until thick and creamy.",
            "Serve.",
        ])
        #expect(r.steps[1].durations == [StepDuration(minutes: 4, maxMinutes: 5, text: "Simmer for 4-5 minutes")])
        #expect(r.steps[0].ingredients.map(\.name) == ["oats", "milk"])
    }

    @Test func markdownFrontMatterAndLists() throws {
        let r = try #require(parseText(Fixtures.markdown, format: "markdown", file: "guacamole.md").first)
        #expect(r.title == "Quick Guacamole")
        #expect(r.tags == ["mexican", "dip"])
        #expect(r.prepMinutes == 10)
        #expect(r.yields?.servings == 4)
        #expect(r.description == "Creamy, chunky and ready in minutes.")
        #expect(ingredientTexts(r) == ["2 ripe avocados", "1 lime, juiced", "1/4 red onion, finely chopped", "salt to taste"])
        #expect(r.steps.map(\.text) == ["Mash the avocados with the lime juice.", "Stir in the onion and season with salt."])
        #expect(r.steps[0].ingredients.map(\.index) == [0, 1])
        #expect(r.steps[1].ingredients.map(\.index) == [2, 3])
        #expect(r.provenance["title"] == Provenance(page: 1, lineStart: 2, lineEnd: 2))
        #expect(r.provenance["description"] == Provenance(page: 1, lineStart: 7, lineEnd: 7))
        #expect(r.allIngredients.first?.provenance == Provenance(page: 1, lineStart: 14, lineEnd: 14))
        #expect(r.steps.first?.provenance == Provenance(page: 1, lineStart: 21, lineEnd: 21))
    }

    @Test func firstShortLineIsTitleAndNothingRecipeLikeGivesNoRecipe() {
        #expect(parseText("Shopping\n\nRemember to call Sam about the weekend.\n").isEmpty)
        let r = parseText("Hummus\n\n400 g chickpeas, drained\n2 tbsp tahini\n1 lemon, juiced\n\nBlend everything until smooth, adding water to loosen.\n")
        #expect(r.first?.title == "Hummus")
        #expect(r.first?.allIngredients.count == 3)
        #expect(r.first?.steps.count == 1)
    }
}

@Suite struct RobustnessTests {
    @Test(arguments: ["", "\n\n\n", "x", String(repeating: "word ", count: 5000), "\u{0}\u{1}\u{FFFD}\u{0C}\u{0C}", "---\n", "1.\n2)\n- \n#\n"])
    func oddInputsDoNotCrash(_ text: String) {
        let recipes = parseText(text)
        for r in recipes { #expect(!r.title.isEmpty) }
    }

    @Test func emptyLineList() {
        #expect(RecipeParser().parse(RecipeSource(file: "e.pdf", sha256: zeroSHA, format: "pdf", lines: [])).isEmpty)
    }

    @Test func stepsWithoutMethodHeaderFollowIngredients() throws {
        let text = """
        Lemonade

        Ingredients
        4 lemons, juiced
        100 g sugar
        1 litre cold water

        Stir the lemon juice and sugar until the sugar dissolves, then add the water.

        Chill for 1 hour and serve over ice.
        """
        let r = try #require(parseText(text).first)
        #expect(r.allIngredients.count == 3)
        #expect(r.steps.count == 2)
        #expect(r.steps[1].durations.first?.minutes == 60)
    }

    @Test func pdfWithoutFontSizesBehavesLikeText() throws {
        let lines = Fixtures.headerless.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
            SourceLine(page: 1, number: $0.offset + 1, text: String($0.element))
        }
        let r = try #require(RecipeParser().parse(RecipeSource(file: "f.pdf", sha256: zeroSHA, format: "pdf", lines: lines)).first)
        #expect(r.title == "Simple Flatbreads")
        #expect(r.allIngredients.count == 5)
    }

    @Test func formFeedStartsANewPage() throws {
        let source = RecipeSource(file: "x.txt", sha256: zeroSHA, format: "text", text: "Toast\n\nIngredients\n2 slices bread\n\u{0C}Method\n1. Toast the bread.\n")
        #expect(source.lines.last?.page == 2)
        #expect(source.lines.last?.number == 2)
        let r = try #require(RecipeParser().parse(source).first)
        #expect(r.source.pages == [1, 2])
        #expect(r.steps.first?.provenance == Provenance(page: 2, lineStart: 2, lineEnd: 2))
    }
}

@Suite struct JSONTests {
    @Test func schemaOrgRecipe() throws {
        let json = """
        {
          "@context": "https://schema.org",
          "@graph": [
            {"@type": "WebPage", "name": "Page"},
            {
              "@type": "Recipe",
              "name": "Pea Soup",
              "description": "Green and quick.",
              "recipeYield": ["4", "4 servings"],
              "prepTime": "PT10M",
              "cookTime": "PT20M",
              "keywords": "soup, peas",
              "recipeIngredient": [
                "500 g frozen peas",
                "1 onion, chopped",
                "750 ml vegetable stock"
              ],
              "recipeInstructions": [
                {"@type": "HowToStep", "text": "Soften the onion in a pan for 5 minutes."},
                {"@type": "HowToSection", "name": "Finish", "itemListElement": [
                  {"@type": "HowToStep", "text": "Add the peas and stock and simmer for 15 minutes, then blend."}
                ]}
              ]
            }
          ]
        }
        """
        let recipes = parseText(json, format: "json", file: "pea-soup.json")
        let r = try #require(recipes.first)
        #expect(recipes.count == 1)
        #expect(r.title == "Pea Soup")
        #expect(r.description == "Green and quick.")
        #expect(r.yields?.servings == 4)
        #expect(r.prepMinutes == 10 && r.cookMinutes == 20)
        #expect(r.tags == ["soup", "peas"])
        #expect(r.allIngredients.map(\.text) == ["500 g frozen peas", "1 onion, chopped", "750 ml vegetable stock"])
        #expect(r.steps.count == 2)
        #expect(r.steps[1].ingredients.map(\.name).contains("frozen peas"))
        #expect(r.steps.map(\.section) == [nil, "Finish"])
        #expect(r.source.format == "json")
        #expect(r.allIngredients[1].provenance.lineStart == 15)
        #expect(r.provenance["title"]?.lineStart == 7)
        #expect(try schemaProblems(jsonObject(r)).isEmpty)
    }

    @Test func otherJSONIsNotARecipe() {
        #expect(parseText(#"{"hello": "world"}"#, format: "json").isEmpty)
    }
}

@Suite struct DenseTextTests {
    /// A chapter heading, no blank lines between recipes, a long title straight after the last step.
    @Test func denseChapter() throws {
        let text = """
        SOUPS

        Carrot and Coriander Soup
        A bright, simple soup
        Serves 4
        Ingredients
        1 tbsp oil
        500 g carrots, sliced
        1 litre stock
        small bunch coriander
        Method
        Fry the carrots in the oil for 5 minutes.
        Add the stock and simmer for 20 minutes, then blend with the coriander.
        Chicken Noodle Soup With Ginger, Spring Onions and Lots of Fresh Coriander Leaves
        Serves 2
        Ingredients
        2 chicken thighs
        1 litre chicken stock
        100 g egg noodles
        Method
        1. Poach the chicken in the stock for 20 minutes.
        2. Add the noodles and cook for 4 minutes.
        """
        let recipes = parseText(text)
        try #require(recipes.count == 2)
        #expect(recipes[0].title == "Carrot and Coriander Soup")
        #expect(recipes[0].description == "A bright, simple soup")
        #expect(recipes[0].steps.count == 2)
        #expect(recipes[1].title == "Chicken Noodle Soup With Ginger, Spring Onions and Lots of Fresh Coriander Leaves")
        #expect(recipes[1].yields?.servings == 2)
        #expect(recipes[1].allIngredients.count == 3)
        #expect(recipes[1].provenance["title"] == Provenance(page: 1, lineStart: 14, lineEnd: 14))
    }
}

@Suite struct PDFTests {
    /// Two headerless recipes split by large titles; bold body-size headers elsewhere are sections, not titles.
    @Test func headerlessRecipesSplitByFontSize() throws {
        let pages: [[(String, Double, Bool)]] = [[
            ("Chapter 2: Breakfast", 24, true),
            ("Quick breakfasts for busy mornings.", 10, false),
            ("Overnight Oats", 16, true),
            ("Serves 1", 10, false),
            ("50 g rolled oats", 10, false),
            ("150 ml milk", 10, false),
            ("1 tbsp honey", 10, false),
            ("Stir the oats, milk and honey together in a jar, cover and chill overnight.", 10, false),
            ("Eat cold, topped with fruit.", 10, false),
            ("Fried Eggs", 16, true),
            ("Ingredients", 10, true),
            ("1 tbsp butter", 10, false),
            ("2 eggs", 10, false),
            ("Method", 10, true),
            ("Melt the butter in a frying pan over a medium heat.", 10, false),
            ("Crack in the eggs and fry for 3 minutes, until the whites are set.", 10, false),
        ]]
        let recipes = RecipeParser().parse(pdfSource(pages))
        #expect(recipes.map(\.title) == ["Overnight Oats", "Fried Eggs"])
        try #require(recipes.count == 2)
        #expect(recipes[0].allIngredients.map(\.text) == ["50 g rolled oats", "150 ml milk", "1 tbsp honey"])
        #expect(recipes[0].steps.count == 2)
        #expect(recipes[0].yields?.servings == 1)
        #expect(recipes[1].allIngredients.count == 2)
        #expect(recipes[1].steps.count == 2)
        #expect(recipes[1].steps[1].durations.first?.minutes == 3)
    }
}

@Suite struct SmallCasesTests {
    @Test func recipePrefixAndUnlabelledTimeInMethod() throws {
        let text = "Recipe: Baked Potato\n\nIngredients\n1 large potato\n\nMethod\nPrick the potato all over.\n\nBake 60 minutes\n\nTotal time: 65 minutes\n"
        let r = try #require(parseText(text).first)
        #expect(r.title == "Baked Potato")
        #expect(r.steps.map(\.text) == ["Prick the potato all over.", "Bake 60 minutes"])
        #expect(r.steps[1].durations.first?.minutes == 60)
        #expect(r.totalMinutes == 65)
        #expect(r.cookMinutes == nil)
    }
}

@Suite struct ColumnOrderTests {
    /// Two columns read header-first: "Ingredients" and "Method" come before both lists.
    @Test func headersBeforeBothColumns() throws {
        let text = """
        Three Bean Chili
        Serves 6
        Prep: 15 mins | Cook: 45 mins

        Ingredients

        Method

        • 2 tbsp vegetable oil
        • 2 x 400 g cans chopped
        tomatoes
        • 400 g can kidney beans, drained
        • salt to taste

        1. Heat the oil in a large heavy pot over a
        medium heat.
        2. Add the tomatoes and beans and simmer for 30 minutes.
        """
        let r = try #require(parseText(text).first)
        #expect(r.allIngredients.map(\.text) == ["2 tbsp vegetable oil", "2 x 400 g cans chopped tomatoes", "400 g can kidney beans, drained", "salt to taste"])
        #expect(r.steps.map(\.text) == ["Heat the oil in a large heavy pot over a medium heat.", "Add the tomatoes and beans and simmer for 30 minutes."])
        #expect(r.allIngredients[1].provenance == Provenance(page: 1, lineStart: 10, lineEnd: 11))
    }
}
