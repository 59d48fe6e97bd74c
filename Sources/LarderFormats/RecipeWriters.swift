import Foundation
import LarderRecipes

/// Larder recipes → schema.org JSON-LD `Recipe`, as Google's recipe guidelines describe it
/// (https://developers.google.com/search/docs/appearance/structured-data/recipe): `name`, `recipeIngredient`,
/// `recipeInstructions` as `HowToStep`s (inside a `HowToSection` for steps that carry a section), `recipeYield`, exact ISO 8601 `prepTime`/`cookTime`/`totalTime`,
/// `recipeCategory`, `recipeCuisine`, `keywords`, `description`, and `url`, `image` (a web address), `author` and
/// `nutrition` when the source named them. `schemas/schema-org-recipe.schema.json` checks the output.
public enum SchemaOrgWriter {
    /// `photo`: the recipe's photo's bytes, written as a `data:` URL in `image` when the recipe has no web address
    /// for it.
    public static func object(_ r: Recipe, photo: Data? = nil) -> [String: Any] {
        var o: [String: Any] = ["@context": "https://schema.org", "@type": "Recipe", "name": r.title]
        if let d = r.description, !d.isEmpty { o["description"] = d }
        o["recipeIngredient"] = r.allIngredients.map(\.text)
        o["recipeInstructions"] = instructions(r.steps)
        if let y = r.yields { o["recipeYield"] = yieldValue(y) }
        if let m = r.prepMinutes { o["prepTime"] = iso8601(minutes: m) }
        if let m = r.cookMinutes { o["cookTime"] = iso8601(minutes: m) }
        // The total Google asks for: given, else prep and cook together when both are known.
        if let m = r.totalMinutes ?? r.prepMinutes.flatMap({ p in r.cookMinutes.map { p + $0 } }) {
            o["totalTime"] = iso8601(minutes: m)
        }
        if let c = r.mealType { o["recipeCategory"] = c }
        if let c = r.cuisine { o["recipeCuisine"] = c }
        if !r.tags.isEmpty { o["keywords"] = r.tags.joined(separator: ", ") }
        if let url = r.source.url { o["url"] = url }
        if let image = r.image, image.hasPrefix("http") {
            o["image"] = image
        } else if let photo, let type = RecipePhoto.mediaType(of: photo) {
            o["image"] = "data:\(type);base64," + photo.base64EncodedString()
        }
        if let author = r.author { o["author"] = ["@type": "Person", "name": author] }
        if let n = r.nutrition, !n.isEmpty {
            var facts: [String: Any] = ["@type": "NutritionInformation"]
            for (k, v) in n where k != "text" { facts[camelCase(k)] = v }
            if facts.count > 1 { o["nutrition"] = facts }
        }
        return o
    }

    /// `recipeYield` as a number and as the text ("[4, \"4 loaves\"]"); the number alone when the text is just it, the
    /// text alone when it holds no whole number.
    static func yieldValue(_ y: RecipeYield) -> Any {
        guard let n = y.servings, n > 0, n == n.rounded(), n < 1_000_000 else { return y.text }
        let count = Int(n)
        return y.text == String(count) ? count as Any : [count, y.text] as [Any]
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

    public static func json(_ r: Recipe, photo: Data? = nil) throws -> Data {
        try JSONSerialization.data(withJSONObject: object(r, photo: photo), options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
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

/// Larder recipes → Cooklang, as the official parser (cooklang-rs) reads it: title, yield, times, tags, course,
/// cuisine, description, source, author and image as front matter, every value a double-quoted YAML string; the
/// ingredients, in order and by group, each on a line of its own in an `= Ingredients =` section
/// (`= Ingredients – Group =` for a named group) as `@name{quantity%unit}(note)`, the quantity and unit as the
/// line wrote them; the method in `= Method =`, each step a paragraph, the first simple duration of a step as a
/// timer (`~{10%minutes}`). Larder's reader takes such an ingredients section as the ingredient list, not a step, so
/// a recipe reads back with the same ingredient lines and steps.
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
        if let d = r.description, !d.isEmpty { meta.append(("description", d)) }
        if let u = r.source.url, !u.isEmpty { meta.append(("source", u)) }
        if let a = r.author, !a.isEmpty { meta.append(("author", a)) }
        if let i = r.image, !i.isEmpty { meta.append(("image", i)) }
        var out = "---\n" + meta.map { "\($0.0): \(yamlScalar($0.1))" }.joined(separator: "\n") + "\n---\n"
        for group in r.ingredientGroups where !group.ingredients.isEmpty {
            let name = group.name.map { oneLine($0) }.flatMap { $0.isEmpty ? nil : $0 }
            out += "\n= Ingredients" + (name.map { " – " + sectionName($0) } ?? "") + " =\n"
            out += group.ingredients.map(markup).joined(separator: "\n") + "\n"
        }
        if !r.steps.isEmpty {
            out += "\n= Method =\n\n"
            out += r.steps.map { timer(in: escape(oneLine($0.text)), durations: $0.durations) }.joined(separator: "\n\n") + "\n"
        }
        for note in r.notes { out += "\n> " + oneLine(note) + "\n" }
        return out
    }

    /// The ingredient line cut into what Cooklang marks up, so that "quantity unit name, note" is the line again:
    /// the quantity as written when it leads the line ("1 1/2", "2-3", "½", "1,5"), the unit the parser found right
    /// after it, then the name and, after the first ", ", the note.
    static func parts(_ ing: RecipeIngredient) -> (quantity: String, unit: String, name: String, note: String) {
        let text = ing.text.split(whereSeparator: \.isNewline).joined(separator: " ").replacingOccurrences(of: "\t", with: " ")
            .trimmingCharacters(in: .whitespaces)
        var rest = Substring(text)
        var quantity = ""
        if let r = text.range(of: #"^(\d+ \d+/\d+|\d+/\d+|\d+(?:[.,]\d+)?(?: ?[-–] ?\d+(?:[.,]\d+)?)?|[½¼¾⅓⅔⅛])(?= )"#, options: .regularExpression) {
            quantity = String(text[r])
            rest = text[r.upperBound...].drop { $0 == " " }
        }
        var unit = ""
        if !quantity.isEmpty, let u = ing.unitText, !u.isEmpty, rest.hasPrefix(u + " "), u.allSatisfy({ !"{}%@#~".contains($0) }) {
            unit = u
            rest = rest.dropFirst(u.count).drop { $0 == " " }
        }
        var name = String(rest)
        var note = ""
        if let comma = name.range(of: ", ") {
            let tail = name[comma.upperBound...]
            if !tail.isEmpty, tail.allSatisfy({ !"()".contains($0) }) {
                note = String(tail)
                name = String(name[name.startIndex..<comma.lowerBound])
            }
        }
        if name.isEmpty {  // "2 cups" alone: the unit is what there is of a name
            (name, unit) = (unit.isEmpty ? quantity : unit, "")
            if unit.isEmpty && name == quantity { quantity = "" }
        }
        return (quantity, unit, safeName(name), note)
    }

    static func markup(_ ing: RecipeIngredient) -> String {
        let p = parts(ing)
        var m = "@" + p.name + "{" + p.quantity + (p.quantity.isEmpty || p.unit.isEmpty ? "" : "%" + p.unit) + "}"
        if !p.note.isEmpty { m += "(" + p.note.replacingOccurrences(of: "--", with: "–") + ")" }
        return m
    }

    /// A name the parser reads as one ingredient: no markup characters, no comment, no leading modifier
    /// (`@/recipe` is a reference to another recipe, `@&`, `@-`, `@?`, `@+` and `@=` are modifiers).
    static func safeName(_ name: String) -> String {
        var s = name.map { "{}@#~".contains($0) ? " " : String($0) }.joined()
        s = s.replacingOccurrences(of: "--", with: "–").replacingOccurrences(of: "[-", with: "[ -")
        s = String(s.drop { "/.&-?@".contains($0) || $0 == " " })
        s = s.trimmingCharacters(in: .whitespaces)
        return s.isEmpty ? "ingredient" : s
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

    /// Plain step text with Cooklang's backslash escapes where it would read as markup: `\@`, `\#`, `\~` (an e-mail
    /// address, "#1"), `-\-` and `[\-` (comments), a backslash before punctuation doubled; a step that starts like a
    /// section, note or metadata line starts with an escaped character.
    static func escape(_ s: String) -> String {
        var out = ""
        let chars = Array(s)
        for (i, c) in chars.enumerated() {
            let next = i + 1 < chars.count ? chars[i + 1] : nil
            let previous = i > 0 ? chars[i - 1] : nil
            switch c {
            case "@", "#", "~": out += "\\" + String(c)
            case "\\" where next.map { $0.isASCII && $0.isPunctuation || $0.isASCII && $0.isSymbol } ?? false: out += "\\\\"
            case "-" where previous == "-" || previous == "[": out += "\\-"
            case "=" where i == 0, ">" where i == 0: out += "\\" + String(c)
            default: out.append(c)
            }
        }
        return out
    }

    /// Text on one line: line breaks and runs of white space become one space.
    static func oneLine(_ s: String) -> String { s.split(whereSeparator: \.isWhitespace).joined(separator: " ") }

    /// A section name without the characters that end one.
    static func sectionName(_ s: String) -> String { s.replacingOccurrences(of: "=", with: "-") }

    static func number(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }

    static func minutesText(_ m: Double) -> String { "\(number(m)) minutes" }

    /// A double-quoted YAML string: `\` and `"` escaped, on one line (a title "[MH] Pasta" or "Note: …" stays text).
    static func yamlScalar(_ s: String) -> String {
        "\"" + oneLine(s).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// Larder recipes → Paprika `.paprikarecipe` JSON (gzip it, and zip the entries, for a `.paprikarecipes` file), with
/// the 24 keys Paprika writes: a `uid` in Paprika's UUID form, unique per entry of an export (two identical recipes
/// get two), `created` as Paprika writes it ("2026-12-07 14:02:11", UTC), and `hash`.
public enum PaprikaWriter {
    /// `index` is the entry's position in the export: it makes the `uid` unique.
    /// `photo`: the recipe's photo's bytes, written as Paprika does (`photo_data` base64, `photo` a file name,
    /// `photo_hash` the bytes' SHA-256 in upper-case hex).
    public static func object(_ r: Recipe, index: Int = 0, created: Date = Date(), photo: Data? = nil) -> [String: Any] {
        let minutes = { (m: Double?) -> String in m.map { "\(CooklangWriter.number($0)) minutes" } ?? "" }
        let uid = uuid(SHA1Lite.hex(r.title + "\u{0}" + r.source.sha256 + "\u{0}" + (r.source.member ?? "") + "\u{0}\(index)"))
        let ingredients = r.ingredientGroups.flatMap { g -> [String] in
            // A named group is a heading line of its own, as Paprika shows one.
            (g.name.map { $0.isEmpty ? [] : [$0 + ":"] } ?? []) + g.ingredients.map(\.text)
        }
        var object: [String: Any] = [
            "name": r.title, "ingredients": ingredients.joined(separator: "\n"),
            "directions": r.steps.map(\.text).joined(separator: "\n"), "servings": r.yields?.text ?? "",
            "prep_time": minutes(r.prepMinutes), "cook_time": minutes(r.cookMinutes), "total_time": minutes(r.totalMinutes),
            "categories": ([r.mealType].compactMap { $0 } + r.tags), "description": r.description ?? "",
            "notes": r.notes.joined(separator: "\n"), "source_url": r.source.url ?? "", "source": r.author ?? "",
            "nutritional_info": (r.nutrition ?? [:]).sorted { $0.key < $1.key }.map { $0.key == "text" ? $0.value : "\($0.key): \($0.value)" }.joined(separator: "\n"), "difficulty": "", "rating": 0, "uid": uid, "hash": SHA1Lite.hex(r.title + uid),
            "image_url": r.image.map { $0.hasPrefix("http") ? $0 as Any : NSNull() } ?? NSNull(), "photo": NSNull(), "photo_data": NSNull(), "photo_hash": NSNull(), "photo_large": NSNull(),
            "photos": [Any](), "created": createdText(created),
        ]
        if let photo, let reference = r.photo {
            object["photo_data"] = photo.base64EncodedString()
            object["photo"] = uid + "." + reference.fileExtension
            object["photo_hash"] = reference.sha256.uppercased()
        }
        return object
    }

    public static func json(_ r: Recipe, index: Int = 0, created: Date = Date(), photo: Data? = nil) throws -> Data {
        try JSONSerialization.data(withJSONObject: object(r, index: index, created: created, photo: photo), options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// "2026-12-07 14:02:11" in UTC, as Paprika writes `created`.
    static func createdText(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }

    /// 32 hex digits as an upper-case UUID ("8-4-4-4-12").
    static func uuid(_ hex: String) -> String {
        let h = Array(hex.uppercased().prefix(32))
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(h[$0]) }.joined(separator: "-")
    }

    /// A file name for the entry: the title without path separators, control characters or a leading dot (an
    /// importer skips dot-files as hidden: ".", "..", ".hidden", "../../etc/evil" would be lost), cut to 80
    /// characters; "recipe" when nothing is left.
    public static func entryName(_ r: Recipe, index: Int) -> String {
        var safe = String(r.title.unicodeScalars.map { u -> Character in
            u.properties.generalCategory == .control || u.properties.generalCategory == .format || "/\\:\0".unicodeScalars.contains(u)
                ? "-" : Character(u)
        })
        safe = String(safe.prefix(80)).trimmingCharacters(in: .whitespaces)
        safe = String(safe.drop { $0 == "." || $0 == "-" || $0 == " " })
        if safe.isEmpty { safe = "recipe" }
        return safe + (index > 0 ? " \(index + 1)" : "") + ".paprikarecipe"
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
