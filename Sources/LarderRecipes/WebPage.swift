import Foundation

/// What a saved web page offers a recipe reader, as `LarderPages` finds it: the page's address and title, every
/// schema.org `Recipe` node in its structured data (JSON-LD scripts and microdata, as JSON), and its visible text.
/// ``RecipeParser/parse(page:source:)`` turns it into recipes.
public struct WebPage: Codable, Sendable, Equatable {
    /// The page's own address: `<link rel="canonical">`, else `og:url`; `nil` when it has neither.
    public var url: String?
    /// The page title from `og:title`, `<title>` or the first `<h1>`, site name removed; `nil` when none.
    public var title: String?
    /// The page's structured data, in page order: each JSON-LD script, and each top-level microdata item.
    public var data: [WebPageNode]

    /// Creates a page description.
    public init(url: String? = nil, title: String? = nil, data: [WebPageNode] = []) {
        self.url = url
        self.title = title
        self.data = data
    }
}

/// One piece of a page's structured data as JSON-LD text, and where on the page it was found.
public struct WebPageNode: Codable, Sendable, Equatable {
    /// The JSON text (microdata converted to JSON-LD: `itemprop`s as keys, nested items as objects).
    public var json: String
    /// Where it was: "ld+json script 2" or "microdata element 812 (div)".
    public var origin: String

    /// Creates a node.
    public init(json: String, origin: String) {
        self.json = json
        self.origin = origin
    }
}

extension RecipeParser {
    /// The recipes on a saved web page. `source` holds the page's visible text, one block (heading, list item,
    /// paragraph) per line, Markdown-style ("# " headings, "- " items), which is where provenance lines point.
    ///
    /// Every schema.org `Recipe` in the structured data is mapped by ``JSONRecipes``; objects with the same `@id`
    /// or name (a page with both JSON-LD and microdata) are merged, the first found filling each field. A page
    /// without a usable `Recipe` is read as text and its best recipe (most ingredients and steps) kept, titled
    /// with the page title. Recipes carry the page's URL and, from structured data, the node they came from.
    public func parse(page: WebPage, source: RecipeSource) -> [Recipe] {
        (try? parse(page: page, source: source, maxParts: .max)) ?? []  // no page holds Int.max parts
    }

    /// ``parse(page:source:)``, stopping when the recipes hold more than `maxParts` ingredients, steps and notes
    /// (``parse(_:maxParts:)``).
    public func parse(page: WebPage, source: RecipeSource, maxParts: Int) throws(RecipePartsOverLimit) -> [Recipe] {
        let locator = LineLocator(lines: source.lines)
        var recipes: [Recipe] = []
        let objects = Self.recipeObjects(in: page)
        try JSONRecipes.checkListedParts(objects.map(\.0), limit: maxParts)
        for (object, origin) in objects {
            guard var r = JSONRecipes.recipe(from: object, source: source, locator: locator, parser: self, keyLines: false)
            else { continue }
            if r.title == "Untitled recipe", let t = page.title { r.title = t }
            r.title = Self.webTitle(r.title)
            r.source.node = origin
            r.source.url = page.url ?? r.source.url
            recipes.append(r)
        }
        if !recipes.isEmpty {
            try RecipePartsOverLimit.check(recipes, limit: maxParts)
            if recipes.count == 1, recipes[0].allIngredients.count < 2 || recipes[0].steps.isEmpty,
                let read = try bestTextRecipe(source, maxParts: maxParts)
            {
                recipes[0] = Self.filled(recipes[0], from: read)
            }
            return recipes
        }
        guard var r = try bestTextRecipe(source, maxParts: maxParts) else { return [] }
        if let t = page.title, !t.isEmpty { r.title = Self.webTitle(t) }
        r.source.format = source.format
        r.source.url = page.url
        return [r]
    }

    /// The recipe the page's visible text holds (most ingredients and steps), read as a Markdown document.
    func bestTextRecipe(_ source: RecipeSource, maxParts: Int = .max) throws(RecipePartsOverLimit) -> Recipe? {
        let text = RecipeSource(file: source.file, sha256: source.sha256, format: "markdown", lines: source.lines)
        return try parse(text, maxParts: maxParts).max { a, b in
            a.allIngredients.count + a.steps.count < b.allIngredients.count + b.steps.count
        }
    }

    /// `r` (from structured data that names fewer than two ingredients, "Chicken" for a whole list, or no step)
    /// with the ingredients or steps the page itself shows, where it shows more. (One step is a method some
    /// recipes have; the page around it holds other paragraphs.)
    static func filled(_ r: Recipe, from read: Recipe) -> Recipe {
        var r = r
        if r.allIngredients.count < 2, read.allIngredients.count > r.allIngredients.count { r.ingredientGroups = read.ingredientGroups }
        if r.steps.isEmpty { r.steps = read.steps }
        return r
    }

    static let titleDecoration = try! NSRegularExpression(
        pattern: #"^(?:recipe|recept|rezept|recette|receta|ricetta|receita)\s*[-–—:|]\s*|\s*[-–—:|]?\s*\(\d(?:[.,]\d+)?\s*/\s*\d+\)\s*$|\s*[-–—:|]\s*(?:recipe|recept|rezept|recette|receta|ricetta|receita)\s*$"#,
        options: [.caseInsensitive])

    /// A title without the decoration pages add around a recipe's name: "Recipe - ", " – Recept", a rating
    /// "(4.8/5)".
    static func webTitle(_ title: String) -> String {
        var t = title
        for _ in 0..<3 {
            let ns = t as NSString
            let stripped = titleDecoration.stringByReplacingMatches(in: t, range: NSRange(location: 0, length: ns.length), withTemplate: "")
                .trimmingWhitespace()
            if stripped == t || stripped.isEmpty { break }
            t = stripped
        }
        return t
    }

    /// Every recipe object in the page's structured data with where it came from, duplicates (same `@id` or name)
    /// merged into the first.
    static func recipeObjects(in page: WebPage) -> [([String: Any], String)] {
        var found: [([String: Any], String)] = []
        for node in page.data {
            guard let root = SchemaFields.jsonValue(node.json) else { continue }
            for f in JSONRecipes.find(in: root) {
                let origin = f.path.isEmpty ? node.origin : node.origin + " " + f.path
                func key(_ o: [String: Any]) -> [String] {
                    [(o["@id"] as? String) ?? "", (SchemaFields.text(o["name"]) ?? "").lowercased()].filter { !$0.isEmpty }
                }
                let k = key(f.object)
                if let i = found.firstIndex(where: { !Set(key($0.0)).isDisjoint(with: k) }) {
                    found[i].0.merge(f.object) { first, _ in first }
                } else {
                    found.append((f.object, origin))
                }
            }
        }
        return found
    }
}

extension WebPage {
    /// Whether the page's structured data (JSON-LD or microdata) holds a schema.org `Recipe`: what `route` routes
    /// a saved page by, whatever the language of its visible text (or a body that is an empty app shell).
    public var hasSchemaRecipe: Bool { !RecipeParser.recipeObjects(in: self).isEmpty }

    /// Whether JSON text (a `.json` document) holds a schema.org `Recipe`.
    public static func holdsSchemaRecipe(json text: String) -> Bool {
        hasSchemaRecipe(WebPage(data: [WebPageNode(json: text, origin: "document")]))
    }

    private static func hasSchemaRecipe(_ page: WebPage) -> Bool { page.hasSchemaRecipe }
}
