import Foundation

/// Reads recipes from JSON documents: schema.org `Recipe` objects (JSON-LD, also inside `@graph` or arrays) and
/// recipe-scrapers style objects (`title`, `ingredients`, `instructions_list`, `yields`, `*_time` in minutes).
/// Lines are then built and parsed by the same code as text, so every value gets the usual fields; provenance
/// points at the first JSON line containing the value (line 1 when it cannot be found).
enum JSONRecipes {
    /// Recipe-like objects found in `text`, or `nil` when the text is not JSON or holds no recipe.
    static func objects(in text: String) -> [[String: Any]]? {
        guard let data = text.data(using: .utf8), let root = try? JSONSerialization.jsonObject(with: data) else { return nil }
        var found: [[String: Any]] = []
        func visit(_ v: Any, depth: Int) {
            guard depth < 8 else { return }
            if let a = v as? [Any] { a.forEach { visit($0, depth: depth + 1) }; return }
            guard let o = v as? [String: Any] else { return }
            let type = o["@type"]
            let types = (type as? [String]) ?? [(type as? String) ?? ""]
            if types.contains("Recipe") || o["recipeIngredient"] != nil || (o["ingredients"] is [Any] && (o["title"] != nil || o["name"] != nil)) {
                found.append(o)
                return
            }
            if let g = o["@graph"] { visit(g, depth: depth + 1) }
        }
        visit(root, depth: 0)
        return found.isEmpty ? nil : found
    }

    static func string(_ v: Any?) -> String? {
        if let s = v as? String { return s.trimmingCharacters(in: .whitespacesAndNewlines) }
        if let n = v as? NSNumber { return n.stringValue }
        if let a = v as? [Any] { return a.compactMap { string($0) }.first }
        if let o = v as? [String: Any] { return string(o["text"] ?? o["name"]) }
        return nil
    }

    static func minutes(_ v: Any?) -> Double? {
        if let n = v as? NSNumber { return n.doubleValue }
        if let s = v as? String { return Patterns.parseMinutes(s)?.0 }
        return nil
    }

    /// Flattens schema.org `recipeInstructions` (strings, HowToStep, HowToSection) into step texts.
    static func steps(_ v: Any?) -> [String] {
        if let s = v as? String {
            return s.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        if let a = v as? [Any] { return a.flatMap { steps($0) } }
        if let o = v as? [String: Any] {
            if let items = o["itemListElement"] { return steps(items) }
            if let t = string(o["text"] ?? o["name"]), !t.isEmpty { return [t] }
        }
        return []
    }

    /// Renders one recipe object as plain recipe text that ``RecipeParser`` reads back.
    static func render(_ o: [String: Any]) -> String {
        var out: [String] = [string(o["name"] ?? o["title"]) ?? "Untitled recipe", ""]
        if let d = string(o["description"]), !d.isEmpty { out += [d, ""] }
        if let y = string(o["recipeYield"] ?? o["yields"]), !y.isEmpty {
            let lower = y.lowercased()
            if ["serves", "makes", "yield", "servings"].contains(where: { lower.hasPrefix($0) }) { out.append(y) }
            else if Double(y) != nil { out.append("Serves \(y)") } else { out.append("Yield: \(y)") }
        }
        for (label, keys) in [("Prep time", ["prepTime", "prep_time"]), ("Cook time", ["cookTime", "cook_time"]), ("Total time", ["totalTime", "total_time"])] {
            if let m = keys.lazy.compactMap({ minutes(o[$0]) }).first, m > 0, let whole = Int(exactly: m.rounded()) { out.append("\(label): \(whole) minutes") }
        }
        if let k = o["keywords"] {
            let tags = (k as? [String]) ?? (string(k) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if !tags.isEmpty { out.append("Tags: " + tags.joined(separator: ", ")) }
        }
        if let c = string(o["recipeCuisine"] ?? o["cuisine"]), !c.isEmpty { out.append("Cuisine: \(c)") }
        if let c = string(o["recipeCategory"] ?? o["category"]), !c.isEmpty { out.append("Category: \(c)") }
        out += ["", "Ingredients"]
        let ingredients = (o["recipeIngredient"] ?? o["ingredients"]) as? [Any] ?? []
        for i in ingredients { if let s = string(i), !s.isEmpty { out.append(s.replacingOccurrences(of: "\n", with: " ")) } }
        out += ["", "Method"]
        for (k, s) in steps(o["recipeInstructions"] ?? o["instructions_list"] ?? o["instructions"]).enumerated() {
            out.append("\(k + 1). " + s.replacingOccurrences(of: "\n", with: " "))
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// Parses the JSON document in `source`; `nil` when it holds no recipe object.
    static func parse(_ source: RecipeSource, parser: RecipeParser) -> [Recipe]? {
        let text = source.lines.map(\.text).joined(separator: "\n")
        guard let objects = objects(in: text) else { return nil }
        return objects.flatMap { o -> [Recipe] in
            let rendered = RecipeSource(file: source.file, sha256: source.sha256, format: "text", text: render(o))
            return parser.parse(rendered).map { relocate($0, in: source) }
        }
    }

    /// Points provenance at the JSON lines holding each value and restores the source's format.
    static func relocate(_ recipe: Recipe, in source: RecipeSource) -> Recipe {
        func find(_ s: String) -> Provenance {
            let probe = String(s.prefix(24))
            let hit = source.lines.first { $0.text.contains(probe) } ?? source.lines.first
            return Provenance(page: hit?.page ?? 1, lineStart: hit?.number ?? 1, lineEnd: hit?.number ?? 1)
        }
        var r = recipe
        r.source.format = source.format
        r.source.pages = Array(Set(source.lines.map(\.page))).sorted()
        if r.source.pages.isEmpty { r.source.pages = [1] }
        func findKey(_ probes: [String]) -> Provenance {
            for p in probes {
                if let hit = source.lines.first(where: { $0.text.contains(p) }) {
                    return Provenance(page: hit.page, lineStart: hit.number, lineEnd: hit.number)
                }
            }
            return find("")
        }
        var prov: [String: Provenance] = [:]
        for (k, _) in r.provenance {
            switch k {
            case "title": prov[k] = find(r.title)
            case "description": prov[k] = find(r.description ?? "")
            case "yields": prov[k] = findKey(["\"recipeYield\"", "\"yields\""])
            case "prepMinutes": prov[k] = findKey(["\"prepTime\"", "\"prep_time\""])
            case "cookMinutes": prov[k] = findKey(["\"cookTime\"", "\"cook_time\""])
            case "totalMinutes": prov[k] = findKey(["\"totalTime\"", "\"total_time\""])
            case "tags": prov[k] = findKey(["\"keywords\""])
            case "cuisine": prov[k] = findKey(["\"recipeCuisine\"", "\"cuisine\""])
            case "mealType": prov[k] = findKey(["\"recipeCategory\"", "\"category\""])
            default: prov[k] = find("")
            }
        }
        r.provenance = prov
        for g in r.ingredientGroups.indices {
            for i in r.ingredientGroups[g].ingredients.indices {
                r.ingredientGroups[g].ingredients[i].provenance = find(r.ingredientGroups[g].ingredients[i].text)
            }
        }
        for s in r.steps.indices { r.steps[s].provenance = find(r.steps[s].text) }
        return r
    }
}
