import Foundation
import LarderRecipes

/// RFC 4180 CSV: quoted fields may hold commas, doubled quotes and newlines; records end in CRLF or LF.
public enum CSVReader {
    /// Records with the 1-based line each starts on.
    public static func records(_ text: String) -> [(line: Int, fields: [String])] {
        var records: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var line = 1
        var start = 1
        var chars = Array(text.unicodeScalars)
        if chars.first == "\u{FEFF}" { chars.removeFirst() }
        var i = 0
        func endRecord() {
            fields.append(field)
            if !(fields.count == 1 && fields[0].isEmpty) { records.append((start, fields)) }
            fields = []
            field = ""
            start = line
        }
        while i < chars.count {
            let c = chars[i]
            if quoted {
                if c == "\"" {
                    if i + 1 < chars.count, chars[i + 1] == "\"" { field.unicodeScalars.append("\""); i += 1 } else { quoted = false }
                } else {
                    if c == "\n" { line += 1 }
                    field.unicodeScalars.append(c)
                }
            } else if c == "\"" && field.isEmpty {
                quoted = true
            } else if c == "," {
                fields.append(field)
                field = ""
            } else if c == "\r" || c == "\n" {
                if c == "\r", i + 1 < chars.count, chars[i + 1] == "\n" { i += 1 }
                line += 1
                endRecord()
            } else {
                field.unicodeScalars.append(c)
            }
            i += 1
        }
        if !field.isEmpty || !fields.isEmpty { endRecord() }
        return records
    }
}

/// Recipe CSV exports: Plan to Eat (`Title, Course, … Ingredients, Directions, Tags …`) and My Recipe Box
/// (`title, description, … ingredients, instructions, … originalPicture,` with a trailing unnamed column). A row
/// that cannot be read (a different number of fields, or no title) is a per-row error naming the row; the other
/// rows are imported.
public enum CSVRecipes {
    public struct RowError: Error, Sendable, Equatable {
        /// The 1-based data row (the header is row 0) and the line it starts on.
        public var row: Int
        public var line: Int
        public var message: String
    }

    public static func isRecipeCSV(_ text: String) -> Bool {
        guard let header = CSVReader.records(String(text.prefix(4096))).first?.fields.map({ $0.lowercased().trimmingCharacters(in: .whitespaces) }) else { return false }
        return header.contains("title") && (header.contains("ingredients"))
    }

    public static func parse(_ text: String) -> (recipes: [(row: Int, draft: RecipeDraft)], errors: [RowError]) {
        var budget = PartBudget.unlimited
        return (try? parse(text, budget: &budget)) ?? ([], [])  // no file holds Int.max parts
    }

    /// ``parse(_:)``, charging each row's recipe to `budget` as it is read: stops once they pass its limit.
    public static func parse(_ text: String, budget: inout PartBudget) throws(RecipePartsOverLimit)
        -> (recipes: [(row: Int, draft: RecipeDraft)], errors: [RowError])
    {
        let records = CSVReader.records(text)
        guard let header = records.first?.fields.map({ $0.trimmingCharacters(in: .whitespaces) }) else { return ([], []) }
        let index = Dictionary(header.enumerated().map { ($0.element.lowercased(), $0.offset) }, uniquingKeysWith: { a, _ in a })
        var recipes: [(row: Int, draft: RecipeDraft)] = []
        var errors: [RowError] = []
        for (n, record) in records.dropFirst().enumerated() {
            let row = n + 1
            guard record.fields.count == header.count else {
                errors.append(.init(row: row, line: record.line, message: "row \(row) (line \(record.line)) has \(record.fields.count) fields where the header has \(header.count): re-export it, or fix the quoting of that row"))
                continue
            }
            func get(_ names: String...) -> String? {
                for name in names {
                    if let i = index[name.lowercased()] {
                        let v = record.fields[i].trimmingCharacters(in: .whitespacesAndNewlines)
                        if !v.isEmpty { return v }
                    }
                }
                return nil
            }
            guard let title = get("title") else {
                errors.append(.init(row: row, line: record.line, message: "row \(row) (line \(record.line)) has no title"))
                continue
            }
            let d = draft(title: title, get: get, unnamed: index[""].map { record.fields[$0] })
            try budget.charge(d)
            recipes.append((row, d))
        }
        return (recipes, errors)
    }

    static func draft(title: String, get: (String...) -> String?, unnamed: String?) -> RecipeDraft {
        var d = RecipeDraft(title: title)
        d.description = get("description")
        d.yield = get("servings", "yield", "quantity")
        d.prepMinutes = RecipeDraft.minutes(get("prep time", "preparationtime"))
        d.cookMinutes = RecipeDraft.minutes(get("cook time", "cookingtime"))
        d.totalMinutes = RecipeDraft.minutes(get("total time", "totaltime"))
        d.cuisine = get("cuisine")
        d.categories = list(get("course", "categories"))
        d.tags = list(get("tags"))
        d.ingredientGroups = groups(get("ingredients") ?? "")
        d.steps = steps(get("directions", "instructions") ?? "")
        d.notes = (get("notes")).map { [$0] } ?? []
        d.url = get("url", "source")
        d.image = get("photo url", "originalpicture")
        // My Recipe Box: with an empty `source`, the page URL is in `originalPicture` and the image in the unnamed
        // last column.
        if get("source") == nil, let shifted = unnamed?.trimmingCharacters(in: .whitespaces), !shifted.isEmpty {
            d.url = get("originalpicture")
            d.image = shifted
        }
        return d
    }

    static func list(_ s: String?) -> [String] {
        (s ?? "").split(whereSeparator: { $0 == "," || $0 == ";" }).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Lines; ", Heading" (Plan to Eat) starts a named group.
    static func groups(_ s: String) -> [RecipeDraft.Group] {
        var groups: [RecipeDraft.Group] = [.init(lines: [])]
        for raw in s.components(separatedBy: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix(",") {
                groups.append(.init(name: line.dropFirst().trimmingCharacters(in: .whitespaces), lines: []))
            } else {
                groups[groups.count - 1].lines.append(line)
            }
        }
        return groups.filter { !$0.lines.isEmpty }
    }

    /// One step per non-empty line, list numbering ("1. ") removed.
    static func steps(_ s: String) -> [String] {
        s.components(separatedBy: "\n").map { line -> String in
            var t = line.trimmingCharacters(in: .whitespaces)
            if let r = t.range(of: #"^\d{1,2}[.)]\s+"#, options: .regularExpression) { t.removeSubrange(r) }
            return t
        }.filter { !$0.isEmpty }
    }
}
