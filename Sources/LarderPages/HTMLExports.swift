import Foundation

/// Recipe-app exports written as one HTML file of many recipes — Copy Me That (`div.recipe` with `id="name"`,
/// `li.recipeIngredient`, `li.instruction`…) and Recipe Keeper (`div.recipe-details` with `itemprop`s) — read into
/// schema.org `Recipe` objects, so that `LarderFormats` maps them as it maps every other schema.org recipe.
///
/// Both formats repeat the same `id`s in every recipe, so each recipe is read from its own subtree only.
public enum HTMLExports {
    /// The file's recipes as a JSON-LD text (`{"@graph": [Recipe…]}`), or `nil` when the file is not such an
    /// export (or cannot be parsed as HTML).
    public static func schemaOrgJSON(_ data: Data) -> Data? {
        guard let document = try? HTMLDocument.parse(data), let root = document.root else { return nil }
        let found = withExtendedLifetime(document) { Self.recipes(in: root) }
        guard !found.isEmpty else { return nil }
        return try? JSONSerialization.data(withJSONObject: ["@graph": found], options: [.sortedKeys])
    }

    /// Whether an archive member's name says it is HTML.
    public static func isHTML(_ path: String) -> Bool {
        ["html", "htm"].contains((path as NSString).pathExtension.lowercased())
    }

    static func recipes(in root: HTMLElement) -> [[String: Any]] {
        let copyMeThat = root.descendants { $0.name == "div" && $0.classes.contains("recipe") }
        if !copyMeThat.isEmpty { return copyMeThat.map(copyMeThatRecipe) }
        return root.descendants { $0.name == "div" && $0.classes.contains("recipe-details") }.map(recipeKeeperRecipe)
    }

    // MARK: Copy Me That

    static func copyMeThatRecipe(_ div: HTMLElement) -> [String: Any] {
        func first(_ match: (HTMLElement) -> Bool) -> HTMLElement? { div.descendants(where: match).first }
        func byID(_ id: String) -> HTMLElement? { first { $0["id"] == id } }
        func all(class name: String) -> [String] {
            div.descendants { $0.classes.contains(Substring(name)) }.map { text($0) }.filter { !$0.isEmpty }
        }
        var o: [String: Any] = ["@type": "Recipe", "name": byID("name").map(text) ?? ""]
        o["url"] = byID("original_link")?["href"]
        o["image"] = first { $0.name == "img" && $0.classes.contains("recipeImage") }?["src"]
        o["recipeYield"] = byID("recipeYield").map(text)
        o["description"] = byID("description").map(text)
        o["recipeIngredient"] = all(class: "recipeIngredient")
        o["recipeInstructions"] = all(class: "instruction")
        o["keywords"] = all(class: "recipeCategory")
        return o.filter { !(($0.value as? String)?.isEmpty ?? false) }
    }

    // MARK: Recipe Keeper

    static func recipeKeeperRecipe(_ div: HTMLElement) -> [String: Any] {
        func prop(_ name: String) -> HTMLElement? { div.descendants { $0["itemprop"] == name }.first }
        func lines(_ name: String) -> [String] {
            guard let e = prop(name) else { return [] }
            let paragraphs = e.descendants { $0.name == "p" || $0.name == "li" }.map { text($0) }.filter { !$0.isEmpty }
            return paragraphs.isEmpty ? text(e).split(separator: "\n").map { clean(String($0)) }.filter { !$0.isEmpty } : paragraphs
        }
        var o: [String: Any] = ["@type": "Recipe", "name": prop("name").map(text) ?? ""]
        o["recipeIngredient"] = lines("recipeIngredients")
        o["recipeInstructions"] = lines("recipeDirections")
        o["recipeYield"] = prop("recipeYield").map(text)
        o["recipeCategory"] = prop("recipeCategory").map(text)
        o["url"] = prop("recipeSource").map(text)
        for key in ["prepTime", "cookTime"] {
            if let content = prop(key)?["content"] { o[key] = content }
        }
        return o.filter { !(($0.value as? String)?.isEmpty ?? false) }
    }

    // MARK: Text

    /// An element's text with its padding and runs of white space collapsed (the exports indent every line).
    static func text(_ e: HTMLElement) -> String { clean(e.textContent) }

    static func clean(_ s: String) -> String {
        s.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
