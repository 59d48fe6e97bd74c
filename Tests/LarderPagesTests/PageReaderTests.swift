import Foundation
import Testing
@testable import LarderPages
@testable import LarderRecipes

/// Reads `html` as a saved page and returns its recipes.
func recipes(_ html: String, file: String = "page.html") throws -> [Recipe] {
    try PageReader().recipes(in: Data(html.utf8), file: file, sha256: String(repeating: "0", count: 64))
}

/// A page around `head` and `body`.
func page(head: String = "", body: String) -> String {
    "<!DOCTYPE html><html><head><meta charset=\"utf-8\">\(head)</head><body>\(body)</body></html>"
}

func ldJSON(_ json: String) -> String { "<script type=\"application/ld+json\">\(json)</script>" }

@Suite struct JSONLDTests {
    @Test func graphWithWebPageAndTypeListAnyCase() throws {
        let html = page(
            head: #"<link rel="canonical" href="https://example.org/pea-soup/">"#
                + ldJSON(#"""
                {"@context": "https://schema.org", "@graph": [
                  {"@type": "WebPage", "@id": "https://example.org/pea-soup/#page", "name": "Pea soup | Example"},
                  {"@type": ["recipe", "NewsArticle"], "name": "Pea Soup", "recipeYield": 4,
                   "recipeIngredient": ["500 g frozen peas", "1 onion, chopped"],
                   "recipeInstructions": "Soften the onion.\nAdd the peas and simmer for 15 minutes."}
                ]}
                """#),
            body: "<h1>Pea Soup</h1>")
        let rs = try recipes(html)
        let r = try #require(rs.first)
        #expect(rs.count == 1)
        #expect(r.title == "Pea Soup")
        #expect(r.allIngredients.map(\.text) == ["500 g frozen peas", "1 onion, chopped"])
        #expect(r.allIngredients[0].quantity?.value == 500 && r.allIngredients[0].unit == "gram")
        #expect(r.steps.map(\.text) == ["Soften the onion.", "Add the peas and simmer for 15 minutes."])
        #expect(r.steps[1].durations.first?.minutes == 15)
        #expect(r.yields?.servings == 4)
        #expect(r.source.url == "https://example.org/pea-soup/")
        #expect(r.source.node == "ld+json script 1 @graph[1]")
        #expect(r.source.format == "html")
    }

    @Test func mainEntityOfWebPageAndItemList() throws {
        let html = page(body: ldJSON(#"""
            [{"@type": "WebPage", "mainEntity": {"@type": "Recipe", "name": "Flatbread",
              "recipeIngredient": "250 g flour\n150 ml water",
              "recipeInstructions": {"@type": "ItemList", "itemListElement": [
                {"@type": "ListItem", "position": 1, "item": "Mix to a dough."},
                {"@type": "ListItem", "position": 2, "item": "Cook in a dry pan."}]}}}]
            """#))
        let r = try #require(try recipes(html).first)
        #expect(r.allIngredients.map(\.text) == ["250 g flour", "150 ml water"])
        #expect(r.steps.map(\.text) == ["Mix to a dough.", "Cook in a dry pan."])
    }

    @Test func howToSectionsAreStepGroupsNotSteps() throws {
        let html = page(body: ldJSON(#"""
            {"@type": "Recipe", "name": "Tart", "recipeIngredient": ["1 sheet pastry", "3 apples"],
             "recipeInstructions": [
               {"@type": "HowToSection", "name": "Pastry", "itemListElement": [
                 {"@type": "HowToStep", "text": "1. Line the tin with the pastry."},
                 {"@type": "HowToStep", "name": "Bake blind", "text": "Bake blind for 10 minutes at 200°C."}]},
               {"@type": "HowToSection", "name": "Filling", "itemListElement": [
                 {"@type": "HowToStep", "text": "Slice the apples and lay them on the pastry."}]},
               {"@type": "HowToTip", "text": "Any crisp apple works."}]}
            """#))
        let r = try #require(try recipes(html).first)
        #expect(r.steps.map(\.text) == [
            "Line the tin with the pastry.", "Bake blind for 10 minutes at 200°C.",
            "Slice the apples and lay them on the pastry.",
        ])
        #expect(r.steps.map(\.section) == ["Pastry", "Pastry", "Filling"])
        #expect(r.steps[1].temperatures.first?.value == 200)
        #expect(r.notes == ["Any crisp apple works."])
    }

    @Test func entitiesEscapedTwiceAndHTMLInsideText() throws {
        let html = page(body: ldJSON(#"""
            {"@type": "Recipe", "name": "Mac &amp;amp; Cheese",
             "recipeIngredient": ["&amp;frac12; cup milk", "200&nbsp;g <b>cheddar</b>, grated\u200b"],
             "recipeInstructions": [{"@type": "HowToStep", "text": "<p>Melt the butter &amp;amp; stir in the milk.</p>"}]}
            """#))
        let r = try #require(try recipes(html).first)
        #expect(r.title == "Mac & Cheese")
        #expect(r.allIngredients.map(\.text) == ["½ cup milk", "200 g cheddar, grated"])
        #expect(r.allIngredients[0].quantity?.value == 0.5)
        #expect(r.steps.map(\.text) == ["Melt the butter & stir in the milk."])
    }

    @Test(arguments: [
        (#"["4", "4 servings"]"#, 4.0, nil as Double?),
        ("6", 6, nil),
        (#""8-10""#, 8, 10),
        (#""Makes 12 cookies""#, 12, nil),
    ])
    func yieldsAsNumberStringOrList(_ yield: String, servings: Double, max: Double?) throws {
        let html = page(body: ldJSON(#"{"@type": "Recipe", "name": "Y", "recipeYield": \#(yield), "recipeIngredient": ["1 egg"]}"#))
        let r = try #require(try recipes(html).first)
        #expect(r.yields?.servings == servings)
        #expect(r.yields?.maxServings == max)
    }

    @Test(arguments: [("PT1H30M", 90.0), ("P0DT0H20M", 20), ("P0Y0M0DT0H45M0.000S", 45), ("PT2H", 120), ("P1DT2H", 1560)])
    func isoDurations(_ iso: String, minutes: Double) throws {
        let html = page(body: ldJSON(#"{"@type": "Recipe", "name": "T", "totalTime": "\#(iso)", "recipeIngredient": ["1 egg"]}"#))
        let r = try #require(try recipes(html).first)
        #expect(r.totalMinutes == minutes)
    }

    @Test func authorImageNutritionKeywordsCategoryCuisine() throws {
        let html = page(
            head: #"<meta property="og:url" content="https://example.org/chili">"#,
            body: ldJSON(#"""
            {"@type": "Recipe", "name": "Chili", "author": [{"@type": "Person", "name": "Ana"}],
             "image": {"@type": "ImageObject", "url": "https://example.org/chili.jpg"},
             "keywords": "beans, spicy", "recipeCategory": ["Main"], "recipeCuisine": "Mexican",
             "nutrition": {"@type": "NutritionInformation", "calories": "420 kcal", "proteinContent": "21 g"},
             "recipeIngredient": [{"@type": "PropertyValue", "value": "400 g kidney beans"}]}
            """#))
        let r = try #require(try recipes(html).first)
        #expect(r.author == "Ana")
        #expect(r.image == "https://example.org/chili.jpg")
        #expect(r.tags == ["beans", "spicy"])
        #expect(r.mealType == "Main" && r.cuisine == "Mexican")
        #expect(r.nutrition == ["calories": "420 kcal", "proteinContent": "21 g"])
        #expect(r.allIngredients.map(\.text) == ["400 g kidney beans"])
        #expect(r.source.url == "https://example.org/chili")
    }

    @Test func amountsThePageShowsBesideNamesOnlyIngredients() throws {
        let html = page(
            head: ldJSON(#"{"@type": "Recipe", "name": "Margarita", "recipeIngredient": ["Tequila", "Lime juice", "Triple sec"], "recipeInstructions": "Shake with ice."}"#),
            body: "<h1>Margarita</h1><ul><li>4 cl Tequila</li><li>2 cl Lime juice</li><li>2 cl Triple sec</li></ul>")
        let r = try #require(try recipes(html).first)
        #expect(r.allIngredients.map(\.text) == ["4 cl Tequila", "2 cl Lime juice", "2 cl Triple sec"])
        #expect(r.allIngredients[0].quantity?.value == 4)
        // Names with their own amounts are left alone.
        let plain = page(
            head: ldJSON(#"{"@type": "Recipe", "name": "M", "recipeIngredient": ["4 cl Tequila", "2 cl Lime juice"]}"#),
            body: "<ul><li>4 cl Tequila (blanco)</li><li>2 cl Lime juice</li></ul>")
        #expect(try recipes(plain).first?.allIngredients.map(\.text) == ["4 cl Tequila", "2 cl Lime juice"])
    }

    @Test func brokenJSONIsReadLeniently() throws {
        let html = page(body: "<script type=\"application/ld+json\"><!--\n{\"@type\": \"Recipe\", \"name\": \"Toast\",\n \"recipeIngredient\": [\"1 slice bread\",],\n \"recipeInstructions\": \"Toast it.\"}\n--></script>")
        let r = try #require(try recipes(html).first)
        #expect(r.title == "Toast" && r.steps.count == 1)
    }
}

@Suite struct MicrodataAndTextTests {
    @Test func microdataOnly() throws {
        let html = page(body: #"""
            <div itemscope itemtype="https://schema.org/Recipe">
              <h1 itemprop="name">Lemonade</h1>
              <meta itemprop="totalTime" content="PT10M"><span itemprop="recipeYield">4 glasses</span>
              <ul><li itemprop="recipeIngredient">4 lemons</li><li itemprop="recipeIngredient">100 g <a href="/sugar">sugar</a></li></ul>
              <div itemprop="recipeInstructions"><ol><li>Squeeze the lemons.</li><li>Stir in the sugar and 1 l water.</li></ol></div>
              <div itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">Jo</span></div>
            </div>
            """#)
        let rs = try recipes(html)
        let r = try #require(rs.first)
        #expect(rs.count == 1)
        #expect(r.title == "Lemonade")
        #expect(r.allIngredients.map(\.text) == ["4 lemons", "100 g sugar"])
        #expect(r.steps.map(\.text) == ["Squeeze the lemons.", "Stir in the sugar and 1 l water."])
        #expect(r.totalMinutes == 10)
        #expect(r.yields?.servings == 4 && r.yields?.unit == "glasses")
        #expect(r.author == "Jo")
        #expect(r.source.node?.hasPrefix("microdata element") == true)
    }

    /// A microdata item is written as JSON with its keys sorted, so the `extract` stage stores the same text on
    /// every run (a dictionary's order follows the hash seed, which changes per process).
    @Test func microdataIsWrittenWithSortedKeys() throws {
        let html = page(body: #"""
            <div itemscope itemtype="https://schema.org/Recipe">
              <h1 itemprop="name">Lemonade</h1><span itemprop="recipeYield">4</span><meta itemprop="totalTime" content="PT10M">
              <ul><li itemprop="recipeIngredient">4 lemons</li></ul><p itemprop="description">Sour.</p>
            </div>
            """#)
        let reading = try PageReader().read(Data(html.utf8))
        let node = try #require(reading.page.data.first { $0.origin.hasPrefix("microdata") })
        let object = try JSONSerialization.jsonObject(with: Data(node.json.utf8))
        let sorted = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        #expect(node.json == String(decoding: sorted, as: UTF8.self))
    }

    @Test func jsonLDAndMicrodataOfOneRecipeMerge() throws {
        let html = page(
            head: ldJSON(#"{"@type": "Recipe", "name": "Lemonade", "recipeIngredient": ["4 lemons"], "recipeInstructions": "Squeeze."}"#),
            body: #"<div itemscope itemtype="http://schema.org/Recipe"><span itemprop="name">Lemonade</span><meta itemprop="cookTime" content="PT5M"></div>"#)
        let rs = try recipes(html)
        #expect(rs.count == 1)
        #expect(rs.first?.cookMinutes == 5)
    }

    @Test func pageWithoutStructuredDataIsReadAsVisibleText() throws {
        let html = page(
            head: #"<title>Garlic Bread | The Example Kitchen</title><style>p { color: red }</style>"#,
            body: #"""
            <header><nav><a href="/">Home</a><a href="/recipes">Recipes</a></nav></header>
            <article>
              <h1>Garlic Bread</h1>
              <p>Crisp, buttery and ready in twenty minutes.</p>
              <h2>Ingredients</h2>
              <ul><li>1 baguette</li><li>60 g butter, soft</li><li>2 garlic cloves, crushed</li></ul>
              <div style="display:none">1 hidden line</div>
              <h2>Method</h2>
              <ol><li>Heat the oven to 200°C.</li><li>Mix the butter and garlic and spread it in the cut bread.</li>
                  <li>Bake for 10 minutes.</li></ol>
              <!-- a comment -->
            </article>
            <aside>Related: 10 more breads</aside>
            <footer>© Example Kitchen</footer>
            <script>var x = "1 cup sugar";</script>
            """#)
        let rs = try recipes(html)
        let r = try #require(rs.first)
        #expect(rs.count == 1)
        #expect(r.title == "Garlic Bread")
        #expect(r.allIngredients.map(\.text) == ["1 baguette", "60 g butter, soft", "2 garlic cloves, crushed"])
        #expect(r.steps.map(\.text) == [
            "Heat the oven to 200°C.", "Mix the butter and garlic and spread it in the cut bread.", "Bake for 10 minutes.",
        ])
        #expect(r.source.node == nil)
    }

    @Test func visibleTextDropsFurnitureAndKeepsOrder() throws {
        let reading = try PageReader().read(Data(page(body: #"""
            <nav>Menu</nav><h2>Title</h2><p>One <b>bold</b> word</p><ul><li>a</li><li><p>b</p> c</li></ul>
            <p hidden>secret</p><span class="sr-only">skip</span><footer>foot</footer>
            """#).utf8))
        #expect(reading.text.split(separator: "\n", omittingEmptySubsequences: true) == ["## Title", "One bold word", "- a", "- b c"])
    }

    @Test func declaredCharsetIsHonoured() throws {
        var bytes = Data("<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\"><title>Cr".utf8)
        bytes += [0xE8] + Data("me br".utf8) + [0xFB, 0x6C, 0xE9, 0x65]  // "Crème brûlée" in Latin-1
        bytes += Data("</title></head><body><p>x</p></body></html>".utf8)
        let reading = try PageReader().read(bytes)
        #expect(reading.page.title?.hasPrefix("Crème brûl") == true)
        #expect(reading.encoding == "windows-1252")
    }

    @Test func limitsAreEnforced() {
        var reader = PageReader()
        reader.limits.maxBytes = 100
        #expect(throws: HTMLParseError.tooLarge(200, 100)) {
            _ = try reader.read(Data(repeating: 0x20, count: 200))
        }
    }

    @Test func titleLosesSiteNameAndDecoration() {
        #expect(PageTitle.stripSite("Dan Dan Noodles | I Am A Food Blog") == "Dan Dan Noodles")
        #expect(PageTitle.stripSite("Salt - Pepper - Site") == "Salt - Pepper")
        // A category between the title and the site name (30seconds.com).
        #expect(PageTitle.stripSite("Creamed Chicken | Chicken Recipes | 30Seconds Food") == "Creamed Chicken")
        #expect(RecipeParser.webTitle("Recipe - Chicken Salad") == "Chicken Salad")
        #expect(RecipeParser.webTitle("Arretjescake – Recept") == "Arretjescake")
        #expect(RecipeParser.webTitle("Lemon Tartlets - (4.8/5)") == "Lemon Tartlets")
        #expect(RecipeParser.webTitle("Best Banana Bread Recipe") == "Best Banana Bread Recipe")
    }
}
