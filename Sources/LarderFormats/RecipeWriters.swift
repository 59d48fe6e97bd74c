import Foundation
import LarderRecipes

/// Larder recipes → schema.org JSON-LD `Recipe`, as Google's recipe guidelines describe it
/// (https://developers.google.com/search/docs/appearance/structured-data/recipe): `name`, `recipeIngredient`,
/// `recipeInstructions` as `HowToStep`s (inside a `HowToSection` for steps that carry a section), `recipeYield`, exact ISO 8601 `prepTime`/`cookTime`/`totalTime`,
/// `recipeCategory`, `recipeCuisine`, `keywords`, `description`, and `url`, `image` (a web address), `author` and
/// `nutrition` when the source named them. `schemas/schema-org-recipe.schema.json` checks the output.
public enum SchemaOrgWriter {
    public static func object(_ r: Recipe) -> [String: Any] {
        var o: [String: Any] = ["@context": "https://schema.org", "@type": "Recipe", "name": r.title]
        if let d = r.description, !d.isEmpty { o["description"] = d }
        o["recipeIngredient"] = r.allIngredients.map(\.text)
        o["recipeInstructions"] = instructions(r.steps)
        if let y = r.yields { o["recipeYield"] = y.text }
        if let m = r.prepMinutes { o["prepTime"] = iso8601(minutes: m) }
        if let m = r.cookMinutes { o["cookTime"] = iso8601(minutes: m) }
        if let m = r.totalMinutes { o["totalTime"] = iso8601(minutes: m) }
        if let c = r.mealType { o["recipeCategory"] = c }
        if let c = r.cuisine { o["recipeCuisine"] = c }
        if !r.tags.isEmpty { o["keywords"] = r.tags.joined(separator: ", ") }
        if let url = r.source.url { o["url"] = url }
        if let image = r.image, image.hasPrefix("http") { o["image"] = image }
        if let author = r.author { o["author"] = ["@type": "Person", "name": author] }
        if let n = r.nutrition, !n.isEmpty {
            var facts: [String: Any] = ["@type": "NutritionInformation"]
            for (k, v) in n where k != "text" { facts[camelCase(k)] = v }
            if facts.count > 1 { o["nutrition"] = facts }
        }
        return o
    }

    /// Steps as `HowToStep`s; consecutive steps of one named section become one `HowToSection`.
    static func instructions(_ steps: [RecipeStep]) -> [[String: Any]] {
        var out: [[String: Any]] = []
        for step in steps {
            let howTo: [String: Any] = ["@type": "HowToStep", "text": step.text]
            guard let section = step.section, !section.isEmpty else { out.append(howTo); continue }
            if out.last?["@type"] as? String == "HowToSection", out.last?["name"] as? String == section {
                out[out.count - 1]["itemListElement"] = (out[out.count - 1]["itemListElement"] as? [[String: Any]] ?? []) + [howTo]
            } else {
                out.append(["@type": "HowToSection", "name": section, "itemListElement": [howTo]])
            }
        }
        return out
    }

    public static func json(_ r: Recipe) throws -> Data {
        try JSONSerialization.data(withJSONObject: object(r), options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    /// "fat_content" → "fatContent" (Mealie's names → schema.org's).
    static func camelCase(_ key: String) -> String {
        let parts = key.split(separator: "_")
        guard parts.count > 1 else { return key }
        return String(parts[0]) + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// Exact ISO 8601 duration: 90 → "PT1H30M", 1.5 → "PT1M30S", 1500 → "P1DT1H".
    public static func iso8601(minutes: Double) -> String {
        var seconds = Int((minutes * 60).rounded())
        let days = seconds / 86_400
        seconds %= 86_400
        let h = seconds / 3600
        let m = (seconds % 3600) / 60
        let s = seconds % 60
        var out = "P" + (days > 0 ? "\(days)D" : "")
        if h > 0 || m > 0 || s > 0 || days == 0 {
            out += "T" + (h > 0 ? "\(h)H" : "") + (m > 0 ? "\(m)M" : "") + (s > 0 ? "\(s)S" : "")
            if out.hasSuffix("T") { out += "0M" }
        }
        return out
    }
}

/// Larder recipes → Cooklang: title, yield, times, tags, course, cuisine, description and source as front
/// matter; each ingredient marked up (`@name{qty%unit}(preparation)`) where a step first names it, the first
/// simple duration of a step as a timer (`~{10%minutes}`); ingredients no step names open the method as a step
/// of their own, so none is lost.
public enum CooklangWriter {
    public static func text(_ r: Recipe) -> String {
        var meta: [(String, String)] = [("title", r.title)]
        if let y = r.yields { meta.append(("servings", y.text)) }
        if let m = r.prepMinutes { meta.append(("prep time", minutesText(m))) }
        if let m = r.cookMinutes { meta.append(("cook time", minutesText(m))) }
        if let m = r.totalMinutes { meta.append(("total time", minutesText(m))) }
        if let c = r.mealType { meta.append(("course", c)) }
        if let c = r.cuisine { meta.append(("cuisine", c)) }
        if !r.tags.isEmpty { meta.append(("tags", r.tags.joined(separator: ", "))) }
        if let d = r.description, !d.isEmpty { meta.append(("description", d.replacingOccurrences(of: "\n", with: " "))) }
        if let u = r.source.url { meta.append(("source", u)) }
        if let a = r.author { meta.append(("author", a)) }
        if let i = r.image { meta.append(("image", i)) }
        var out = "---\n" + meta.map { "\($0.0): \(yamlScalar($0.1))" }.joined(separator: "\n") + "\n---\n\n"
        let ingredients = r.allIngredients
        var placed = Array(repeating: false, count: ingredients.count)
        var steps: [String] = []
        for step in r.steps {
            var text = escape(step.text)
            var cursor = text.startIndex
            for (k, ing) in ingredients.enumerated() where !placed[k] {
                let found = names(ing).lazy.compactMap { name -> Range<String.Index>? in
                    guard let r = text.range(of: name, options: .caseInsensitive, range: cursor..<text.endIndex),
                        isWordBoundary(text, r)
                    else { return nil }
                    return r
                }.first
                guard let range = found else { continue }
                let markup = self.markup(ing, name: String(text[range]))
                text.replaceSubrange(range, with: markup)
                cursor = text.index(range.lowerBound, offsetBy: markup.count)
                placed[k] = true
            }
            steps.append(timer(in: text, durations: step.durations))
        }
        let rest = ingredients.enumerated().filter { !placed[$0.offset] }.map { markup($0.element, name: names($0.element).first ?? $0.element.text) }
        if !rest.isEmpty { steps.insert("Ingredients: " + rest.joined(separator: ", ") + ".", at: 0) }
        out += steps.joined(separator: "\n\n") + "\n"
        for note in r.notes { out += "\n> " + note.replacingOccurrences(of: "\n", with: " ") + "\n" }
        return out
    }

    /// What a step may call the ingredient: the line without its quantity, unit and ", note" (as written), then
    /// the parsed name.
    static func names(_ ing: RecipeIngredient) -> [String] {
        var rest = Substring(ing.text)
        rest = rest.drop { $0.isNumber || " /.,½¼¾⅓⅔⅛-–".contains($0) }
        if let unit = ing.unitText, rest.hasPrefix(unit + " ") { rest = rest.dropFirst(unit.count + 1) }
        if let comma = rest.firstIndex(of: ",") { rest = rest[rest.startIndex..<comma] }
        let written = rest.trimmingCharacters(in: .whitespaces)
        return [written, ing.name].filter { !$0.isEmpty }
    }

    static func markup(_ ing: RecipeIngredient, name: String) -> String {
        var amount = ""
        if let q = ing.quantity {
            // The quantity as the line wrote it ("1/3", "1 1/2"), else the number.
            let written = ing.text.prefix { $0.isNumber || " /.,½¼¾⅓⅔⅛-–".contains($0) }.trimmingCharacters(in: .whitespaces)
            amount = written.first?.isNumber == true || "½¼¾⅓⅔⅛".contains(written.first ?? "x")
                ? written : number(q.value) + (q.max.map { "-" + number($0) } ?? "")
        }
        if let u = ing.unitText ?? ing.unit, !u.isEmpty { amount += "%" + u }
        var m = "@" + name + "{" + amount + "}"
        let note = [ing.size, ing.preparation, ing.comment].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
        if !note.isEmpty, !note.contains(")") { m += "(" + note + ")" }
        return m
    }

    /// The step's first duration ending in "<number> <unit>" ("simmer for 5 minutes") becomes a timer there.
    static func timer(in text: String, durations: [StepDuration]) -> String {
        for d in durations {
            guard let r = d.text.range(of: #"(^|\s)\d+(?:[.,]\d+)?\s+[A-Za-z]+$"#, options: .regularExpression) else { continue }
            let phrase = d.text[r].trimmingCharacters(in: .whitespaces)
            let parts = phrase.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count == 2, let range = text.range(of: phrase) else { continue }
            var out = text
            out.replaceSubrange(range, with: "~{\(parts[0])%\(parts[1])}")
            return out
        }
        return text
    }

    static func isWordBoundary(_ text: String, _ range: Range<String.Index>) -> Bool {
        let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
        let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
        return !(before?.isLetter ?? false) && !(before?.isNumber ?? false) && !(after?.isLetter ?? false) && !(after?.isNumber ?? false)
    }

    /// Characters that would start markup in plain step text are spaced out of it ("#1" → "# 1").
    static func escape(_ s: String) -> String {
        var out = ""
        let chars = Array(s)
        for (i, c) in chars.enumerated() {
            out.append(c)
            if "@#~".contains(c), i + 1 < chars.count, !chars[i + 1].isWhitespace { out.append(" ") }
        }
        return out.replacingOccurrences(of: "--", with: "–").replacingOccurrences(of: "[-", with: "[ -")
    }

    static func number(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }

    static func minutesText(_ m: Double) -> String { "\(number(m)) minutes" }

    static func yamlScalar(_ s: String) -> String {
        s.contains(":") || s.contains("#") || s.hasPrefix("-") || s.hasPrefix("'") || s.hasPrefix("\"") ? "\"" + s.replacingOccurrences(of: "\"", with: "'") + "\"" : s
    }
}

/// Larder recipes → Paprika `.paprikarecipe` JSON (gzip it, and zip the entries, for a `.paprikarecipes` file).
public enum PaprikaWriter {
    public static func object(_ r: Recipe) -> [String: Any] {
        let minutes = { (m: Double?) -> String in m.map { "\(CooklangWriter.number($0)) minutes" } ?? "" }
        let uid = String(SHA1Lite.hex(r.title + r.source.sha256 + (r.source.member ?? "")).prefix(32)).uppercased()
        return [
            "name": r.title, "ingredients": r.allIngredients.map(\.text).joined(separator: "\n"),
            "directions": r.steps.map(\.text).joined(separator: "\n"), "servings": r.yields?.text ?? "",
            "prep_time": minutes(r.prepMinutes), "cook_time": minutes(r.cookMinutes), "total_time": minutes(r.totalMinutes),
            "categories": ([r.mealType].compactMap { $0 } + r.tags), "description": r.description ?? "",
            "notes": r.notes.joined(separator: "\n"), "source_url": r.source.url ?? "", "source": r.author ?? "",
            "nutritional_info": (r.nutrition ?? [:]).sorted { $0.key < $1.key }.map { $0.key == "text" ? $0.value : "\($0.key): \($0.value)" }.joined(separator: "\n"), "difficulty": "", "rating": 0, "uid": uid, "hash": SHA1Lite.hex(r.title + uid),
            "image_url": r.image.map { $0.hasPrefix("http") ? $0 as Any : NSNull() } ?? NSNull(), "photo": NSNull(), "photo_data": NSNull(), "photo_hash": NSNull(), "photo_large": NSNull(),
            "photos": [Any](), "created": "",
        ]
    }

    public static func json(_ r: Recipe) throws -> Data {
        try JSONSerialization.data(withJSONObject: object(r), options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// A file name for the entry: the title without path separators.
    public static func entryName(_ r: Recipe, index: Int) -> String {
        let safe = r.title.map { "/\\:\0".contains($0) ? "-" : $0 }
        return String(safe.prefix(80)).trimmingCharacters(in: .whitespaces) + (index > 0 ? " \(index + 1)" : "") + ".paprikarecipe"
    }
}

/// A stable identifier from text (FNV-1a, hex): Paprika wants a `uid` and a `hash`; they need not be secure.
enum SHA1Lite {
    static func hex(_ s: String) -> String {
        var parts: [String] = []
        for seed in [UInt64(0xcbf2_9ce4_8422_2325), 0x1000_0000_01b3, 0x9e37_79b9_7f4a_7c15, 0x2545_f491_4f6c_dd1d] {
            var h = seed
            for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
            parts.append(String(h, radix: 16).leftPadded(16))
        }
        return parts.joined()
    }
}

extension String {
    fileprivate func leftPadded(_ n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
}
