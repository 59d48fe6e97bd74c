import Foundation
import Testing
@testable import LarderPages
@testable import LarderRecipes

/// Structured data that pages write wrongly, read the way the page shows it.
@Suite struct PageRepairTests {
    @Test func rawLineBreaksInsideAJSONStringAreLineBreaks() throws {
        let html = page(head: ldJSON("{\"@type\": \"Recipe\", \"name\": \"Chaat\",\n \"recipeIngredient\": [\"1 cup flour\n1 tbsp oil\nwater\"],\n \"recipeInstructions\": \"Knead.\"}"), body: "<h1>Chaat</h1>")
        let r = try #require(try recipes(html).first)
        #expect(r.allIngredients.map(\.text) == ["1 cup flour", "1 tbsp oil", "water"])
        // Outside strings a raw line break is only white space.
        #expect(SchemaFields.escapingRawControls("{\n\"a\": \"x\ny\"}") == "{ \"a\": \"x\\ny\"}")
    }

    @Test func namesOnlyIngredientsTakeTheRowsThePageShows() throws {
        let html = page(
            head: ldJSON(#"{"@type": "Recipe", "name": "Cookies", "recipeIngredient": ["flour", "baking soda", "butter", "butter"], "recipeInstructions": "Mix.\nBake."}"#),
            body: #"""
            <nav><a href="/flour">Flour recipes</a></nav>
            <table class="ingredients">
            <tr><td class="amount">1 ½</td><td>cups</td><td><a href="/i/flour">all-purpose flour</a></td></tr>
            <tr><td class="amount">1</td><td>teaspoon</td><td><a href="/i/soda">baking soda</a></td></tr>
            <tr><td class="amount">1</td><td>stick</td><td><a href="/i/butter">butter</a><br><small>room temp.</small></td></tr>
            <tr><td class="amount">½</td><td>stick</td><td>butter flavored shortening</td></tr>
            </table>
            """#)
        let r = try #require(try recipes(html).first)
        #expect(r.allIngredients.map(\.text) == [
            "1 ½ cups all-purpose flour", "1 teaspoon baking soda", "1 stick butter room temp.", "½ stick butter flavored shortening",
        ])
        // Rows that are not alike (a list item and a paragraph) are no ingredient list: the names stay.
        let unlike = page(
            head: ldJSON(#"{"@type": "Recipe", "name": "Tea", "recipeIngredient": ["tea", "milk"], "recipeInstructions": "Brew."}"#),
            body: "<ul><li>2 bags tea</li></ul><p>Add milk if you like it.</p>")
        #expect(try recipes(unlike).first?.allIngredients.map(\.text) == ["tea", "milk"])
        // Lines with amounts are never replaced.
        #expect(!IngredientRows.namesOnly(in: #"{"recipeIngredient": ["1 egg", "200 g flour", "salt"]}"#))
        #expect(IngredientRows.namesOnly(in: #"{"recipeIngredient": ["Sonnenblumen\u00f6l", "Zucker", "1 Ei"]}"#))
    }

    @Test func oneIngredientStringThePageShowsAsItems() throws {
        let html = page(
            head: ldJSON(#"{"@type": "Recipe", "name": "Soup", "recipeIngredient": "3 tablespoons red pepper powder 2 tablespoons sesame oil2 small onions, chopped.1 egg.", "recipeInstructions": "Cook."}"#),
            body: "<ul><li>3 tablespoons red pepper powder <br></li><li>2 tablespoons sesame oil</li><li>2 small onions, chopped.</li><li>1 egg.</li></ul>")
        let r = try #require(try recipes(html).first)
        #expect(r.allIngredients.map(\.text) == ["3 tablespoons red pepper powder", "2 tablespoons sesame oil", "2 small onions, chopped.", "1 egg."])
    }

    @Test func aMicrodataIngredientElementHoldingAListIsThatList() throws {
        let html = page(body: #"""
            <div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Gratin</h1>
            <div itemprop="recipeIngredient"><p>- 300 g emmental<br>- 80 g butter<br>- 1 baguette</p></div>
            <div itemprop="recipeIngredient">2 onions<br><small>sliced</small></div>
            <div itemprop="recipeInstructions"><p>Bake.</p></div></div>
            """#)
        let r = try #require(try recipes(html).first)
        #expect(r.allIngredients.map(\.text) == ["300 g emmental", "80 g butter", "1 baguette", "2 onions sliced"])
    }

    @Test func theMethodsOwnLabelIsNoSection() throws {
        let only = SchemaFields.instructions([["@type": "HowToSection", "name": "Zubereitung", "itemListElement": ["Schneiden.", "Braten."]] as [String: Any]])
        #expect(only.0.map(\.section) == [nil, nil] && only.0.map(\.text) == ["Schneiden.", "Braten."])
        let first = SchemaFields.instructions(["Modo de Preparo", "Refogue a cebola.", "Junte o caldo."])
        #expect(first.0.map(\.text) == ["Refogue a cebola.", "Junte o caldo."])
        // Real sections keep their names, and so does a lone section with a name of its own.
        let real = SchemaFields.instructions([["@type": "HowToSection", "Name": "Pour la pâte", "itemListElement": ["Mélanger.", "Reposer."]] as [String: Any]])
        #expect(real.0.map(\.section) == ["Pour la pâte", "Pour la pâte"])
    }

    @Test func paragraphsRunTogetherAreSplitWhereTheyMet() throws {
        let html = page(head: ldJSON(#"""
            {"@type": "Recipe", "name": "Chilli", "recipeIngredient": ["500 g beef"],
             "recipeInstructions": "Heat a large saucepan and add the minced beef, cooking it until browned.Add the tomatoes and stock, then simmer for 20 minutes.Season, e.g. with pepper, and serve with rice."}
            """#), body: "<h1>Chilli</h1>")
        let r = try #require(try recipes(html).first)
        #expect(r.steps.map(\.text) == [
            "Heat a large saucepan and add the minced beef, cooking it until browned.",
            "Add the tomatoes and stock, then simmer for 20 minutes.", "Season, e.g. with pepper, and serve with rice.",
        ])
        #expect(SchemaFields.gluedParagraphs("Simmer for 20 min. Serve at 180°C in St. Ives.") == nil)
    }

    @Test func aStepNumberIsRemovedOnlyBeforeACapital() {
        #expect(SchemaFields.unnumbered("2. Heat the oil.") == "Heat the oil.")
        #expect(SchemaFields.unnumbered("6) jusqu'à ce que le fromage ait fondu.") == "6) jusqu'à ce que le fromage ait fondu.")
    }

    @Test func severalMicrodataMethodElementsAreOneStepEach() throws {
        let several = page(body: #"""
            <div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Tartlets</h1>
            <span itemprop="recipeIngredient">250 g flour</span><span itemprop="recipeIngredient">2 lemons</span>
            <p itemprop="recipeInstructions">Shortbread<br> Rub the flour and butter together.<br> Chill for an hour.</p>
            <p itemprop="recipeInstructions">Lemon cream<br> Zest the lemons.</p>
            <div itemprop="recipeInstructions"><p>Fill the shells.</p><p>Bake for 15 minutes.</p></div></div>
            """#)
        let r = try #require(try recipes(several).first)
        #expect(r.steps.map(\.text) == [
            "Shortbread Rub the flour and butter together. Chill for an hour.", "Lemon cream Zest the lemons.",
            "Fill the shells.", "Bake for 15 minutes.",
        ])
        // One element holding the whole method: each of its lines is a step.
        let one = page(body: #"""
            <div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Tea</h1>
            <span itemprop="recipeIngredient">1 bag tea</span><span itemprop="recipeIngredient">milk</span>
            <p itemprop="recipeInstructions">Boil the water.<br>Brew for 3 minutes.</p></div>
            """#)
        #expect(try recipes(one).first?.steps.map(\.text) == ["Boil the water.", "Brew for 3 minutes."])
    }

    @Test func aMicrodataValueIsItsWholeTextHiddenPartsToo() throws {
        let html = page(body: #"""
            <div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Risotto</h1>
            <span itemprop="recipeIngredient">300 g rice</span><span itemprop="recipeIngredient">1 l stock</span>
            <div itemprop="recipeInstructions">Cook 18 min/100°C/<img alt="Reverse"><b class="hidden">"Reverse" </b>/speed 1.</div></div>
            """#)
        // (The icon itself reads as a space, as images do.)
        #expect(try recipes(html).first?.steps.map(\.text) == [#"Cook 18 min/100°C/ "Reverse" /speed 1."#])
    }

    @Test func aMethodGivenAsOneSectionObjectIsTheWholeMethod() throws {
        let bare = SchemaFields.instructions(["@type": "HowToSection", "name": "Insert title", "itemListElement": ["Chop.", "Fry."]] as [String: Any])
        #expect(bare.0.map(\.section) == [nil, nil] && bare.0.map(\.text) == ["Chop.", "Fry."])
        let microdata = page(body: #"""
            <div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Octopus rice</h1>
            <span itemprop="recipeIngredient">1 octopus</span><span itemprop="recipeIngredient">300 g rice</span>
            <ol itemprop="recipeInstructions" itemscope itemtype="https://schema.org/HowToSection"><h5 itemprop="name">Insert title</h5>
            <li itemprop="itemListElement" itemscope itemtype="https://schema.org/HowToStep"><span itemprop="text">Cook the octopus.</span></li>
            <li itemprop="itemListElement" itemscope itemtype="https://schema.org/HowToStep"><span itemprop="text">Add the rice.</span></li></ol></div>
            """#)
        let r = try #require(try recipes(microdata).first)
        #expect(r.steps.map(\.text) == ["Cook the octopus.", "Add the rice."])
        #expect(r.steps.map(\.section) == [nil, nil])
    }

    @Test func thinStructuredDataTakesWhatThePageShows() throws {
        let body = #"""
            <h1>Braised chicken</h1><h2>Ingredients</h2>
            <ul><li>1 whole chicken, in 8 pieces</li><li>150 ml red wine</li><li>3 onions, quartered</li></ul>
            <h2>Method</h2><ol><li>Brown the chicken in a casserole.</li><li>Add the wine and onions and braise for an hour.</li></ol>
            """#
        // One ingredient ("Chicken") for a whole list, and no method: the page's own lists.
        let thin = page(head: ldJSON(#"{"@type": "Recipe", "name": "Braised chicken", "recipeIngredient": ["Chicken"]}"#), body: body)
        let r = try #require(try recipes(thin).first)
        #expect(r.allIngredients.map(\.text) == ["1 whole chicken, in 8 pieces", "150 ml red wine", "3 onions, quartered"])
        #expect(r.steps.map(\.text) == ["Brown the chicken in a casserole.", "Add the wine and onions and braise for an hour."])
        // Structured data with two ingredients and one step is a recipe as it stands.
        let whole = page(head: ldJSON(#"{"@type": "Recipe", "name": "Braised chicken", "recipeIngredient": ["1 chicken", "1 onion"], "recipeInstructions": "Braise everything for an hour."}"#), body: body)
        let w = try #require(try recipes(whole).first)
        #expect(w.allIngredients.map(\.text) == ["1 chicken", "1 onion"])
        #expect(w.steps.map(\.text) == ["Braise everything for an hour."])
    }
}

/// What is removed before libxml2 parses a page, and the fast paths that must read as the slow ones.
@Suite struct PageSpeedPathTests {
    @Test func unusedAttributesAreRemovedUsedOnesKept() throws {
        let html = page(
            head: ldJSON(#"{"@type": "Recipe", "name": "Kept", "description": "<a href=\"/x\" data-y=\"1\">link</a>"}"#),
            body: #"""
            <p class="intro" data-track="a>b" onclick='go("x")' style="color: red">One</p>
            <img srcset="a.jpg 1x, b.jpg 2x" src="c.jpg" alt="A cake"><a href="/other" title="Other">Two</a>
            <span itemprop="url" href="/kept"></span><br/><input disabled>
            """#)
        let text = String(decoding: try #require(RawContentFilter.filter(Data(html.utf8))), as: UTF8.self)
        #expect(text.contains(#"<p class="intro" style="color: red">One</p>"#))
        #expect(text.contains(#"<img src="c.jpg"><a>Two</a>"#))
        #expect(text.contains(#"<span itemprop="url" href="/kept"></span><br/><input>"#))
        #expect(text.contains(#"<a href=\"/x\" data-y=\"1\">link</a>"#))  // JSON-LD text is left alone
        let reading = try PageReader().read(Data(html.utf8))
        #expect(reading.lines.filter { !$0.isEmpty } == ["One", "Two"])
    }

    @Test func declaredCharsetIsFoundInAnyCase() {
        #expect(Charset.declared(in: Data(#"<META HTTP-EQUIV="Content-Type" CONTENT="text/html; CharSet=ISO-8859-1">"#.utf8)) == "windows-1252")
        #expect(Charset.declared(in: Data(#"<meta charset='Shift_JIS'>"#.utf8)) == "shift_jis")
        #expect(Charset.declared(in: Data("<p>no declaration</p>".utf8)) == nil)
    }

    @Test(arguments: ["1 large onion, finely chopped", "Salt-and-pepper -- to taste", "2 Tbsp. Olive OIL (extra-virgin)", "--", "juice of 2 lemons; zest"])
    func asciiWordsAreTheWordsOfTheUnicodePath(_ text: String) {
        var t = text
        let fast = t.withUTF8 { IngredientMatcher.asciiWords($0) }
        #expect(fast == IngredientMatcher.unicodeWords(text))
    }

    @Test func ingredientGroupsAreSplicedIntoTheJSONText() throws {
        let node = WebPageNode(json: #"{"@graph": [{"@type": "Recipe", "recipeIngredient" : ["1 egg", "2 cups flour"]}]}"#, origin: "ld+json script 1")
        let out = IngredientGroupMarkup.attach([("Dough", ["1 egg"]), ("Topping", ["2 cups flour"])], to: node)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out.json.utf8)) as? [String: Any])
        let recipe = try #require((object["@graph"] as? [[String: Any]])?.first)
        #expect((recipe["larder:ingredientGroups"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Dough", "Topping"])
        #expect((recipe["recipeIngredient"] as? [String])?.count == 2)
    }
}
