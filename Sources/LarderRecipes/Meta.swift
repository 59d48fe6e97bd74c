import Foundation

/// One recipe-level fact read from a short line ("Serves 4", "Prep: 10 mins", "Tags: a, b").
enum MetaItem: Sendable {
    case yield(RecipeYield)
    case time(Patterns.TimeKind, Double)
    case tags([String])
    case cuisine(String)
    case mealType(String)
    case ignored
}

enum Meta {
    static let splitter = RX(#"\s+[|/·•–—]\s+|\s*[;|·•]\s*|\s{3,}|,\s+(?=[a-z][a-z ]{1,20}:)"#)
    static let labelled = RX(#"^(tags?|keywords|cuisine|course|category|categories|meal|meal type|difficulty|skill level|level|calories|author|by|source|diet|dietary)\s*:\s*(.+)$"#)

    /// Strips leading emoji and decoration ("🍳 Cook time: 15 min" → "Cook time: 15 min").
    static func stripDecoration(_ s: String) -> String {
        // A line opening with an ASCII letter or digit (its first character is that one byte) keeps its opening.
        let bytes = s.utf8
        if let b = bytes.first, Prefilter.isLetter(b) || Prefilter.isDigit(b),
           bytes.count == 1 || bytes[bytes.index(after: bytes.startIndex)] < 0x80 {
            return s.trimmingWhitespace()
        }
        return s.drop(while: { !($0.isLetter || $0.isNumber) }).trimmingWhitespace()
    }

    static func item(_ raw: String) -> MetaItem? {
        let s = stripDecoration(raw)
        guard !s.isEmpty, s.count <= 90 else { return nil }
        if let t = Patterns.parseTime(s) { return .time(t.0, t.1) }
        if let y = Patterns.parseYield(s) { return .yield(y) }
        if let m = labelled.firstMatch(s), let key = m.groups[0]?.lowercased(), let value = m.groups[1] {
            let v = value.trimmingWhitespace()
            switch key {
            case "tag", "tags", "keywords":
                return .tags(v.split(whereSeparator: { $0 == "," || $0 == "#" }).map { unquote(String($0)) }.filter { !$0.isEmpty })
            case "cuisine": return .cuisine(v)
            case "course", "category", "categories", "meal", "meal type": return .mealType(v)
            default: return .ignored
            }
        }
        return nil
    }

    /// The first words a fact can open with: each alternative of `Patterns.timeLabelled`, `yieldLabelled`,
    /// `yieldTrailing` (its number words), `yieldLabelOnly` and `labelled` begins with one of these (a line that opens
    /// with a digit or a non-ASCII character is always tried).
    static let itemStarts: [[UInt8]] = [
        // Times.
        "prep", "active", "hands", "cook", "bak", "roast", "grill", "fry", "total", "ready", "takes", "time", "rest",
        "chill", "inactive", "marinat", "freez", "ris", "proof", "soak", "set", "cool", "additional",
        // Yields, and the number words of a trailing yield ("two servings").
        "serv", "portions", "feeds", "yield", "makes", "for", "half", "a", "one", "two", "three", "four", "five", "six",
        "seven", "eight", "nine", "ten", "eleven", "twelve", "fifteen", "twenty", "thirty", "sixty", "ninety",
        "several", "dozen",
        // Labels.
        "tag", "keywords", "cuisine", "course", "categor", "meal", "difficulty", "skill", "level", "calories",
        "by", "source", "diet",
    ].map { Array($0.utf8) }

    /// The unit words of `Patterns.yieldTrailing` ("servings", "portionen", "personnes"…), as their common openings.
    static let servingUnits: [[UInt8]] = ["serving", "portion", "people", "person", "porzion", "racion", "porcion"]
        .map { Array($0.utf8) }

    /// All facts on a line when the whole line is made of them; `nil` otherwise.
    static func parse(_ raw: String) -> [MetaItem]? {
        let s = stripDecoration(raw)
        guard !s.isEmpty, s.count <= 160 else { return nil }
        // Every fact, and so the line's first part, opens where the line does: most lines open with a word no
        // fact does, and need none of the patterns below.
        guard Prefilter.mayOpen(s, with: itemStarts) else { return nil }
        // A line opening with an ASCII digit ("2 tbsp olive oil") can only be a trailing yield ("4 servings"):
        // every other fact opens with a word, and the line's first part opens where the line does.
        if let first = s.utf8.first, Prefilter.isDigit(first), !Prefilter.mayContain(s, anyOf: servingUnits) { return nil }
        let ns = s as NSString
        var parts: [String] = []
        var last = 0
        for m in splitter.re.matches(in: s, range: NSRange(location: 0, length: ns.length)) {
            parts.append(ns.substring(with: NSRange(location: last, length: m.range.location - last)))
            last = m.range.location + m.range.length
        }
        parts.append(ns.substring(from: last))
        parts = parts.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        if parts.count > 1 {
            var items: [MetaItem] = []
            for p in parts {
                guard let it = item(p) else { items = []; break }
                items.append(it)
            }
            if !items.isEmpty { return items }
        }
        if s.count <= 90, let one = item(s) { return [one] }
        return nil
    }
}
