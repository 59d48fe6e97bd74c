import LarderRecipes
import Foundation

/// HTML microdata (`itemscope`/`itemtype`/`itemprop`) as JSON-LD objects, per the WHATWG microdata model: an
/// item's properties are the `itemprop`s below it that are not inside a nested item; a nested item is an object.
enum Microdata {
    /// Properties that are lists even when the page gives one value.
    static let listProperties: Set<String> = ["recipeIngredient", "ingredients", "recipeInstructions", "step", "itemListElement"]

    static func item(_ element: HTMLElement) -> [String: Any] {
        var object: [String: Any] = [:]
        if let type = element["itemtype"] {
            object["@type"] = type.split(separator: " ").map { String($0.split(separator: "/").last ?? $0) }.first ?? type
        }
        if let id = element["itemid"] { object["@id"] = id }
        var methods: [HTMLElement] = []
        collect(element, into: &object, methods: &methods)
        if !methods.isEmpty { expandMethods(methods, in: &object) }
        return object
    }

    /// Where a method element's steps go, until ``expandMethods(_:in:)`` knows how many method elements the item has.
    struct PendingMethod {
        var index: Int
    }

    static func collect(_ element: HTMLElement, into object: inout [String: Any], methods: inout [HTMLElement]) {
        for case .element(let child) in element.children {
            if let props = child["itemprop"] {
                let instructions = props.contains("nstructions"), ingredients = props.contains("ngredient")
                var values: [Any]
                if child.has("itemscope") {
                    values = [item(child)]
                } else if instructions {
                    values = [PendingMethod(index: methods.count)]
                    methods.append(child)
                } else {
                    let value = self.value(of: child, inline: !ingredients)
                    // An ingredient element holding three lines or more is a whole list marked as one: each line
                    // is an ingredient (one or two lines are one ingredient and its note).
                    let lines = ingredients ? value.split(separator: "\n").map(String.init) : [value]
                    values = lines.count >= 3 ? lines : [lines.joined(separator: " ")]
                }
                for prop in props.split(separator: " ").map(String.init) {
                    for v in values { add(v, prop, to: &object) }
                }
            }
            if !child.has("itemscope") { collect(child, into: &object, methods: &methods) }
        }
    }

    /// The method elements' text in place of their placeholders. A method marked as one element holding
    /// paragraphs, items or lines: each is a step. Marked as several elements, each element is a step, its line
    /// breaks spaces (a heading run on into its paragraph, "Shortbread<br>Pour the flour…"), while paragraphs and
    /// items inside it are still steps of their own.
    static func expandMethods(_ methods: [HTMLElement], in object: inout [String: Any]) {
        let several = methods.count > 1
        let texts = methods.map { e -> [String] in
            let text = e["content"] ?? VisibleText.blockText(e, hiddenToo: true, breaks: !several)
            return text.split(separator: "\n").map(String.init)
        }
        for (key, value) in object {
            guard let list = value as? [Any], list.contains(where: { $0 is PendingMethod }) else { continue }
            object[key] = list.flatMap { v -> [Any] in (v as? PendingMethod).map { texts[$0.index] } ?? [v] }
        }
    }

    static func add(_ value: Any, _ prop: String, to object: inout [String: Any]) {
        if let s = value as? String, s.isEmpty { return }
        if let existing = object[prop] {
            object[prop] = ((existing as? [Any]) ?? [existing]) + [value]
        } else {
            // One nested item stays an object, as the microdata model gives it (a method that is one `HowToSection`);
            // a method element's placeholder is a list, to be expanded.
            let list = (listProperties.contains(prop) && !(value is [String: Any])) || value is PendingMethod
            object[prop] = list ? [value] : value
        }
    }

    /// A property's value: the attribute the element type defines, else its text (blocks on their own lines
    /// for instructions, on one line for everything else).
    static func value(of e: HTMLElement, inline: Bool) -> String {
        let value = self.value(of: e)
        return inline ? value.split(whereSeparator: \.isNewline).joined(separator: " ") : value
    }

    static func value(of e: HTMLElement) -> String {
        if let content = e["content"] { return content }
        switch e.name {
        case "meta": return e["content"] ?? ""
        case "link", "a", "area": return e["href"] ?? VisibleText.blockText(e)
        case "img", "audio", "video", "source", "embed", "iframe": return e["src"] ?? ""
        case "time": return e["datetime"] ?? VisibleText.blockText(e)
        case "data", "meter": return e["value"] ?? VisibleText.blockText(e)
        default: return VisibleText.blockText(e, hiddenToo: true)
        }
    }
}

/// Ingredient groups as recipe plugins mark them (WP Recipe Maker `wprm-recipe-ingredient-group` with a
/// `wprm-recipe-group-name`, Tasty Recipes headings inside `tasty-recipes-ingredients`, and the generic
/// `ingredient-group`/`ingredients-group` pattern): a list of (name, lines), added to JSON-LD recipes as
/// `larder:ingredientGroups`, which ``RecipeParser`` uses when the lines match the recipe's own.
enum IngredientGroupMarkup {
    /// Whether `e` is a group container (called only when its class mentions "group").
    static func isContainer(_ e: HTMLElement) -> Bool {
        e.classes.contains { c in
            c == "wprm-recipe-ingredient-group" || c == "ingredient-group" || c == "ingredients-group"
                || c == "mv-create-ingredients-group"
        }
    }

    /// The groups the containers hold (none unless there are at least two).
    static func groups(_ containers: [HTMLElement]) -> [(name: String, lines: [String])] {
        guard containers.count > 1 else { return [] }
        return containers.map { group in
            let heading = group.descendants { e in
                (e.classMentions("group") && e.classes.contains { $0.hasSuffix("group-name") || $0 == "group-title" })
                    || e.is("h2") || e.is("h3") || e.is("h4") || e.is("h5") || e.is("h6")
            }.first
            let items = group.descendants { $0.is("li") }
            return (heading.map { VisibleText.inlineText($0) } ?? "", items.map { VisibleText.inlineText($0) })
        }
    }

    /// The node with `larder:ingredientGroups` added to every object holding `recipeIngredient`: spliced into
    /// the JSON text before each `"recipeIngredient"` key (parsing and writing a whole `@graph` again cost more
    /// than the rest of the page's reading).
    static func attach(_ groups: [(name: String, lines: [String])], to node: WebPageNode) -> WebPageNode {
        guard node.origin.hasPrefix("ld+json") else { return node }
        let marked: [[String: Any]] = groups.map { ["name": $0.name, "lines": $0.lines] }
        guard let data = try? JSONSerialization.data(withJSONObject: marked, options: [.sortedKeys]), let value = String(data: data, encoding: .utf8)
        else { return node }
        let key = "\"recipeIngredient\""
        var out = ""
        var rest = node.json[...]
        var spliced = false
        while let r = rest.range(of: key) {
            let after = rest[r.upperBound...].drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
            out += rest[..<r.lowerBound]
            if after.first == ":" {
                out += "\"larder:ingredientGroups\":" + value + ","
                spliced = true
            }
            out += rest[r]
            rest = rest[r.upperBound...]
        }
        guard spliced else { return node }
        return WebPageNode(json: out + rest, origin: node.origin)
    }
}
