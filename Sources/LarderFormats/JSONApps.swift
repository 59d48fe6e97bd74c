import Foundation
import LarderRecipes

/// The JSON recipe shapes of recipe apps: Paprika (`.paprikarecipe`), Mealie pre-v1 backups and Tandoor exports.
/// schema.org `Recipe` JSON (Nextcloud Cookbook, web pages) goes through ``RecipeDraft/schemaOrg(json:)``.
public enum JSONApps {
    static func object(_ data: Data) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    static func string(_ v: Any?) -> String? {
        if let s = v as? String {
            let t = s.trimmingCharacters(in: .whitespacesAndNewlines)
            return t.isEmpty ? nil : t
        }
        if let n = v as? NSNumber { return n.stringValue }
        return nil
    }

    static func lines(_ v: Any?) -> [String] {
        (string(v) ?? "").components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
    }

    /// Paprika: `name`, `ingredients` and `directions` as newline-joined strings, free-text times and servings.
    /// `ingredients` may be `null` (Paprika writes it for a recipe whose ingredients were never filled in).
    public static func isPaprika(_ o: [String: Any]) -> Bool {
        o["name"] != nil && o["directions"] != nil && (o["ingredients"] is String || o["ingredients"] is NSNull)
            && o["recipe_ingredient"] == nil
    }

    public static func paprika(_ o: [String: Any]) -> RecipeDraft {
        var d = RecipeDraft(title: string(o["name"]) ?? "Untitled recipe")
        d.description = string(o["description"])
        d.yield = string(o["servings"])
        d.prepMinutes = RecipeDraft.minutes(string(o["prep_time"]))
        d.cookMinutes = RecipeDraft.minutes(string(o["cook_time"]))
        d.totalMinutes = RecipeDraft.minutes(string(o["total_time"]))
        d.categories = (o["categories"] as? [Any] ?? []).compactMap { string($0) }
        // A line such as "For the sauce:" (no digit, ends in a colon) heads a group, as Paprika users write them.
        var groups: [RecipeDraft.Group] = [.init(lines: [])]
        for line in lines(o["ingredients"]) {
            if line.hasSuffix(":"), line.count <= 60, !line.contains(where: \.isNumber) {
                groups.append(.init(name: String(line.dropLast()).trimmingCharacters(in: .whitespaces), lines: []))
            } else {
                groups[groups.count - 1].lines.append(line)
            }
        }
        d.ingredientGroups = groups.filter { !$0.lines.isEmpty }
        d.steps = lines(o["directions"])
        d.notes = lines(o["notes"])
        d.url = string(o["source_url"])
        d.image = string(o["image_url"]) ?? string(o["photo"])
        d.author = string(o["source"])
        if let n = string(o["nutritional_info"]) { d.nutrition = ["text": n] }
        return d
    }

    /// Mealie pre-v1: snake_case, `recipe_ingredient` [{note…}], `recipe_instructions` [{title, text}].
    public static func isMealie(_ o: [String: Any]) -> Bool { o["recipe_ingredient"] != nil && o["name"] != nil }

    public static func mealie(_ o: [String: Any]) -> RecipeDraft {
        var d = RecipeDraft(title: string(o["name"]) ?? "Untitled recipe")
        d.description = string(o["description"])
        d.yield = string(o["recipe_yield"])
        d.prepMinutes = RecipeDraft.minutes(string(o["prep_time"]))
        d.cookMinutes = RecipeDraft.minutes(string(o["perform_time"]) ?? string(o["cook_time"]))
        d.totalMinutes = RecipeDraft.minutes(string(o["total_time"]))
        func names(_ v: Any?) -> [String] {
            (v as? [Any] ?? []).compactMap { ($0 as? [String: Any]).flatMap { string($0["name"]) } ?? string($0) }
        }
        d.categories = names(o["recipe_category"])
        d.tags = names(o["tags"])
        var groups: [RecipeDraft.Group] = [.init(lines: [])]
        for item in o["recipe_ingredient"] as? [Any] ?? [] {
            if let s = string(item) { groups[groups.count - 1].lines.append(s); continue }
            guard let i = item as? [String: Any] else { continue }
            if let title = string(i["title"]) { groups.append(.init(name: title, lines: [])) }
            if let note = string(i["note"]) { groups[groups.count - 1].lines.append(note) }
        }
        d.ingredientGroups = groups.filter { !$0.lines.isEmpty }
        d.steps = (o["recipe_instructions"] as? [Any] ?? []).compactMap { ($0 as? [String: Any]).flatMap { string($0["text"]) } ?? string($0) }
        d.notes = (o["notes"] as? [Any] ?? []).compactMap { ($0 as? [String: Any]).flatMap { string($0["text"]) } }
        d.url = string(o["org_url"])
        if let n = o["nutrition"] as? [String: Any] {
            for (k, v) in n { if let t = string(v) { d.nutrition[k] = t } }
        }
        return d
    }

    /// Tandoor: `steps` [{instruction, ingredients [{food {name}, unit {name}, amount, note, is_header, no_amount}]}],
    /// `working_time`/`waiting_time` in minutes, `servings`.
    public static func isTandoor(_ o: [String: Any]) -> Bool { o["steps"] is [Any] && o["name"] != nil && o["working_time"] != nil }

    public static func tandoor(_ o: [String: Any]) -> RecipeDraft {
        var d = RecipeDraft(title: string(o["name"]) ?? "Untitled recipe")
        d.description = string(o["description"])
        d.yield = string(o["servings_text"]) ?? string(o["servings"]).flatMap { $0 == "0" ? nil : $0 }
        d.prepMinutes = (o["working_time"] as? NSNumber).flatMap { $0.doubleValue > 0 ? $0.doubleValue : nil }
        d.cookMinutes = (o["waiting_time"] as? NSNumber).flatMap { $0.doubleValue > 0 ? $0.doubleValue : nil }
        d.tags = (o["keywords"] as? [Any] ?? []).compactMap { ($0 as? [String: Any]).flatMap { string($0["name"]) } }
        var groups: [RecipeDraft.Group] = [.init(lines: [])]
        for case let step as [String: Any] in o["steps"] as? [Any] ?? [] {
            if let text = string(step["instruction"]) {
                d.steps += text.components(separatedBy: "\n\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            }
            for case let i as [String: Any] in step["ingredients"] as? [Any] ?? [] {
                let food = (i["food"] as? [String: Any]).flatMap { string($0["name"]) } ?? ""
                if (i["is_header"] as? Bool) == true {
                    groups.append(.init(name: string(i["note"]) ?? food, lines: []))
                    continue
                }
                groups[groups.count - 1].lines.append(tandoorLine(i, food: food))
            }
        }
        d.ingredientGroups = groups.filter { !$0.lines.isEmpty }
        return d
    }

    static func tandoorLine(_ i: [String: Any], food: String) -> String {
        var parts: [String] = []
        if (i["no_amount"] as? Bool) != true, let amount = (i["amount"] as? NSNumber)?.doubleValue, amount > 0 {
            parts.append(amount == amount.rounded() ? String(Int(amount)) : String(amount))
        }
        if let unit = (i["unit"] as? [String: Any]).flatMap({ string($0["name"]) }) { parts.append(unit) }
        parts.append(food)
        var line = parts.filter { !$0.isEmpty }.joined(separator: " ")
        if let note = string(i["note"]) { line += ", " + note }
        return line
    }
}

/// Chowdown (Jekyll) recipes: Markdown with YAML front matter holding `title`, `ingredients` (a list, or groups:
/// `- Meatloaf Ingredients: [...]`) and `directions` lists, `components` (titles of `_components/*.md` files, parts
/// of the recipe), `tags` (a comma string or a list) and `image`; the body is the description.
public enum ChowdownReader {
    /// Front matter with a title and a recipe's fields (or `layout: recipe`).
    public static func isChowdown(_ text: String) -> Bool {
        guard text.hasPrefix("---") else { return false }
        let head = text.prefix(16 * 1024)
        let fields = ["\ningredients:", "\ndirections:", "\ncomponents:", "\nlayout: recipe"]
        return head.contains("\ntitle:") && fields.contains { head.contains($0) }
    }

    /// A file of a site's `_components/` folder: a part of the recipes that name it, not a recipe of its own.
    public static func isComponent(path: String) -> Bool {
        path.split(separator: "/").dropLast().contains("_components")
    }

    public static func parse(_ text: String) -> RecipeDraft? { parseWithComponents(text)?.draft }

    /// The draft and the titles of the components it uses.
    public static func parseWithComponents(_ text: String) -> (draft: RecipeDraft, components: [String])? {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
        guard lines.first?.trimmingCharacters(in: .whitespaces) == "---",
            let end = lines.dropFirst().firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "---" })
        else { return nil }
        let yaml = lines[1..<end].joined(separator: "\n")
        guard let meta = YAMLLite.load(yaml) else { return nil }
        var d = RecipeDraft(title: meta.string("title") ?? "Untitled recipe")
        d.ingredientGroups = meta.groups("ingredients").map { RecipeDraft.Group(name: $0.name, lines: $0.lines) }
        d.steps = meta.groups("directions").flatMap(\.lines)
        d.tags = meta.list("tags")
        d.image = meta.string("image")
        d.yield = meta.string("yield") ?? meta.string("servings")
        d.prepMinutes = RecipeDraft.minutes(meta.string("prep"))
        d.cookMinutes = RecipeDraft.minutes(meta.string("cook"))
        let body = lines[(end + 1)...].joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        d.description = body.isEmpty ? nil : body
        return (d, meta.list("components"))
    }

    /// A recipe with the components it names: each component's ingredients as a group named after it, its
    /// directions before the recipe's own. Returns the titles no component matched.
    public static func attach(_ components: [String], from library: [String: RecipeDraft], to d: inout RecipeDraft) -> [String] {
        var missing: [String] = []
        var steps: [String] = []
        var groups: [RecipeDraft.Group] = []
        for title in components {
            guard let part = library[key(title)] else { missing.append(title); continue }
            let lines = part.ingredientLines
            if !lines.isEmpty { groups.append(.init(name: part.title, lines: lines)) }
            steps += part.steps
        }
        if !groups.isEmpty {
            // The recipe's own unnamed lines keep no name only when no component comes before them.
            d.ingredientGroups = groups + d.ingredientGroups
        }
        d.steps = steps + d.steps
        return missing
    }

    /// How a component is named: by its title, or its file's stem, compared without case.
    static func key(_ s: String) -> String {
        s.trimmingCharacters(in: .whitespaces).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
