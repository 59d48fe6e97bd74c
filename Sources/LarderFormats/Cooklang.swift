import Foundation
import LarderRecipes

/// A Cooklang (`.cook`) recipe: metadata, and steps made of text, ingredients, cookware and timers, in sections.
///
/// Syntax (https://cooklang.org/docs/spec/): `@name{qty%unit}` ingredients (`@salt` for one word), `#pot{}`
/// cookware, `~name{qty%unit}` timers, `-- line` and `[- block -]` comments, `---` YAML front matter or
/// `>> key: value` metadata lines, `= Section =` lines, `> note` lines. A step is a paragraph: lines up to a blank
/// line, joined with a space.
public struct CooklangRecipe: Sendable, Equatable {
    public enum Quantity: Sendable, Equatable {
        /// No quantity given.
        case none
        case number(Double)
        /// A quantity that is not a number ("few", "01/2", "7 k").
        case text(String)
    }

    public enum Item: Sendable, Equatable {
        case text(String)
        case ingredient(name: String, quantity: Quantity, units: String, note: String?)
        case cookware(name: String, quantity: Quantity)
        case timer(name: String, quantity: Quantity, units: String)
    }

    public struct Section: Sendable, Equatable {
        public var name: String?
        public var steps: [[Item]]
    }

    /// Metadata in file order (front matter, then `>>` lines).
    public var metadata: [(key: String, value: String)]
    public var sections: [Section]
    public var notes: [String]
    /// Each ingredient's quantity as written ("1 1/2", "2-3", "½"; `=` of a fixed amount removed), in the order of
    /// the ingredient items across the steps: the ingredient line keeps it rather than the number.
    public var writtenQuantities: [String] = []

    /// All steps, across sections.
    public var steps: [[Item]] { sections.flatMap(\.steps) }

    public static func == (a: CooklangRecipe, b: CooklangRecipe) -> Bool {
        a.sections == b.sections && a.notes == b.notes
            && a.metadata.map { "\($0.key)\u{0}\($0.value)" } == b.metadata.map { "\($0.key)\u{0}\($0.value)" }
    }

    /// The value of a metadata key, compared without case; an empty value is no value.
    public func meta(_ keys: String...) -> String? {
        for key in keys {
            if let hit = metadata.first(where: { $0.key.lowercased() == key && !$0.value.trimmingCharacters(in: .whitespaces).isEmpty }) {
                return hit.value
            }
        }
        return nil
    }
}

/// Reads Cooklang text.
public enum CooklangReader {
    public static func parse(_ text: String) -> CooklangRecipe {
        var lines = removeBlockComments(text.replacingOccurrences(of: "\r\n", with: "\n"))
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var metadata = frontMatter(&lines)
        var sections = [CooklangRecipe.Section(name: nil, steps: [])]
        var notes: [String] = []
        var paragraph: [String] = []
        var written: [String] = []
        func flush() {
            guard !paragraph.isEmpty else { return }
            let items = tokenize(paragraph.joined(separator: " "), written: &written)
            if !items.isEmpty { sections[sections.count - 1].steps.append(items) }
            paragraph = []
        }
        for raw in lines {
            if raw.allSatisfy(\.isWhitespace) { flush(); continue }
            let line = stripLineComment(raw)
            if line.allSatisfy(\.isWhitespace) { continue }  // a comment-only line
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix(">>") {
                flush()
                if let pair = keyValue(String(trimmed.dropFirst(2))) { metadata.append(pair) }
            } else if trimmed.hasPrefix(">") {
                flush()
                notes.append(trimmed.dropFirst().trimmingCharacters(in: .whitespaces))
            } else if trimmed.hasPrefix("="), !trimmed.hasPrefix("==>") {
                flush()
                let name = trimmed.trimmingCharacters(in: CharacterSet(charactersIn: "= "))
                if sections.count == 1 && sections[0].steps.isEmpty && sections[0].name == nil {
                    sections[0].name = name.isEmpty ? nil : name
                } else {
                    sections.append(.init(name: name.isEmpty ? nil : name, steps: []))
                }
            } else {
                paragraph.append(line)
            }
        }
        flush()
        if sections.count > 1 { sections.removeAll { $0.steps.isEmpty && $0.name == nil } }
        if sections.count == 1 && sections[0].steps.isEmpty && sections[0].name == nil { sections = [] }
        var recipe = CooklangRecipe(metadata: metadata, sections: sections, notes: notes)
        recipe.writtenQuantities = written
        return recipe
    }

    /// `[- … -]` comments, which may span lines.
    static func removeBlockComments(_ text: String) -> String {
        guard text.contains("[-") else { return text }
        var out = ""
        var rest = text[...]
        while let open = rest.range(of: "[-") {
            out += rest[rest.startIndex..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "-]") else { return out }
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    /// Removes a `--` comment (a run of three or more dashes, like `---`, is text).
    static func stripLineComment(_ line: String) -> String {
        let c = Array(line)
        var i = 0
        while i + 1 < c.count {
            if c[i] == "-", c[i + 1] == "-" {
                var j = i
                while j < c.count, c[j] == "-" { j += 1 }
                if j - i == 2 { return String(c[0..<i]) }
                i = j
            } else {
                i += 1
            }
        }
        return line
    }

    /// `---` front matter at the start: `key: value` lines, with YAML lists (`- item`) joined by ", ".
    static func frontMatter(_ lines: inout [String]) -> [(key: String, value: String)] {
        guard let first = lines.firstIndex(where: { !$0.allSatisfy(\.isWhitespace) }),
            lines[first].trimmingCharacters(in: .whitespaces) == "---",
            let end = lines[(first + 1)...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "---" })
        else { return [] }
        var pairs: [(key: String, value: String)] = []
        for line in lines[(first + 1)..<end] {
            let t = line.trimmingCharacters(in: .whitespaces)
            if t.hasPrefix("- "), !pairs.isEmpty {
                let item = unquote(String(t.dropFirst(2)))
                let last = pairs.count - 1
                pairs[last].value = pairs[last].value.isEmpty ? item : pairs[last].value + ", " + item
            } else if let pair = keyValue(t) {
                pairs.append(pair)
            }
        }
        lines.removeSubrange(0...end)
        return pairs
    }

    static func keyValue(_ s: String) -> (key: String, value: String)? {
        guard let colon = s.firstIndex(of: ":") else { return nil }
        let key = s[s.startIndex..<colon].trimmingCharacters(in: .whitespaces)
        guard !key.isEmpty else { return nil }
        return (key, unquote(s[s.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
    }

    /// A YAML scalar's text: quotes removed, `\"` and `\\` unescaped in double quotes, `''` in single quotes.
    static func unquote(_ s: String) -> String {
        guard s.count >= 2, let f = s.first, f == s.last, f == "\"" || f == "'" else { return s }
        let inner = String(s.dropFirst().dropLast())
        if f == "'" { return inner.replacingOccurrences(of: "''", with: "'") }
        var out = ""
        var escaped = false
        for c in inner {
            if escaped {
                out.append(c == "n" ? " " : c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        return out
    }
}

// MARK: - Step tokens

extension CooklangReader {
    /// One step's text → items (adjacent text merged).
    static func tokenize(_ text: String) -> [CooklangRecipe.Item] {
        var written: [String] = []
        return tokenize(text, written: &written)
    }

    /// The items, appending each ingredient's written quantity to `written`.
    static func tokenize(_ text: String, written: inout [String]) -> [CooklangRecipe.Item] {
        let chars = Array(text)
        var items: [CooklangRecipe.Item] = []
        var buffer = ""
        var i = 0
        func emitText() {
            if !buffer.isEmpty { items.append(.text(buffer)) }
            buffer = ""
        }
        while i < chars.count {
            let c = chars[i]
            if c == "\\", i + 1 < chars.count, chars[i + 1].isASCII, chars[i + 1].isPunctuation || chars[i + 1].isSymbol {
                // A backslash escape (`\@`, `\#`, `\~`, `-\-`): the character as text, as cooklang-rs reads it.
                buffer.append(chars[i + 1])
                i += 2
            } else if "@#~".contains(c), let (item, next, amount) = component(chars, at: i) {
                emitText()
                items.append(item)
                if case .ingredient = item { written.append(amount) }
                i = next
            } else {
                buffer.append(c)
                i += 1
            }
        }
        emitText()
        return items
    }

    /// The component starting at `start` (`@`, `#` or `~`), and the index after it; `nil` when it is plain text.
    static func component(_ chars: [Character], at start: Int) -> (CooklangRecipe.Item, Int, String)? {
        let sigil = chars[start]
        let nameStart = start + 1
        guard nameStart < chars.count || sigil == "~" else { return nil }
        if nameStart < chars.count, chars[nameStart].isWhitespace { return nil }
        // Multi-word: a `{` before the next component sigil, with a closing `}`.
        var j = nameStart
        var brace: Int?
        while j < chars.count, !"@#~".contains(chars[j]) {
            if chars[j] == "{" { brace = j; break }
            j += 1
        }
        var name: String
        var amount: String?
        var end: Int
        if let brace, let close = chars[brace...].firstIndex(of: "}") {
            name = String(chars[nameStart..<brace])
            amount = String(chars[(brace + 1)..<close])
            end = close + 1
        } else {
            var k = nameStart
            while k < chars.count, !chars[k].isWhitespace, !chars[k].isPunctuation || chars[k] == "_" { k += 1 }
            guard k > nameStart else { return nil }
            name = String(chars[nameStart..<k])
            end = k
        }
        // A multi-word name must not start with a space ("@ example{}").
        if name.first?.isWhitespace == true { return nil }
        name = name.trimmingCharacters(in: .whitespaces)
        var (quantityText, units) = splitAmount(amount ?? "")
        // A fixed amount (`{=1%pinch}`: not scaled with the servings) is the same amount.
        if quantityText.hasPrefix("=") { quantityText = quantityText.dropFirst().trimmingCharacters(in: .whitespaces) }
        switch sigil {
        case "@":
            var note: String?
            if end < chars.count, chars[end] == "(", let close = matchingParenthesis(chars, from: end) {
                note = String(chars[(end + 1)..<close])
                end = close + 1
            }
            return (.ingredient(name: name, quantity: quantity(quantityText), units: units, note: note), end, quantityText)
        case "#":
            let q = quantity(quantityText)
            return (.cookware(name: name, quantity: q == .none ? .number(1) : q), end, quantityText)
        default:
            if name.isEmpty && amount == nil { return nil }
            return (.timer(name: name, quantity: quantity(quantityText), units: units), end, quantityText)
        }
    }

    /// The `)` that closes the `(` at `open`, counting nested pairs ("(chopped (⅔ cup))"); `nil` when none does.
    static func matchingParenthesis(_ chars: [Character], from open: Int) -> Int? {
        var depth = 0
        for k in open..<chars.count {
            if chars[k] == "(" { depth += 1 }
            if chars[k] == ")" {
                depth -= 1
                if depth == 0 { return k }
            }
        }
        return nil
    }

    static func splitAmount(_ s: String) -> (String, String) {
        guard let percent = s.firstIndex(of: "%") else { return (s.trimmingCharacters(in: .whitespaces), "") }
        return (
            s[s.startIndex..<percent].trimmingCharacters(in: .whitespaces),
            s[s.index(after: percent)...].trimmingCharacters(in: .whitespaces)
        )
    }

    /// "2" → 2, "1/2" and "1 / 2" → 0.5, "1.5" → 1.5, "10 1/2" → 10.5; "01/2", "few", "7 k" stay text.
    static func quantity(_ s: String) -> CooklangRecipe.Quantity {
        if s.isEmpty { return .none }
        let compact = s.replacingOccurrences(of: " ", with: "")
        if let v = Double(compact), !compact.hasPrefix("."), compact.allSatisfy({ $0.isNumber || $0 == "." }) {
            return .number(v)
        }
        let parts = s.split(separator: " ", omittingEmptySubsequences: true)
        if parts.count == 2, let whole = Double(parts[0]), case .number(let f) = fraction(String(parts[1])) {
            return .number(whole + f)
        }
        if case .number(let v) = fraction(compact) { return .number(v) }
        return .text(s)
    }

    private static func fraction(_ s: String) -> CooklangRecipe.Quantity {
        let parts = s.split(separator: "/")
        guard parts.count == 2, !parts[0].hasPrefix("0"), let a = Double(parts[0]), let b = Double(parts[1]), b != 0,
            parts.allSatisfy({ $0.allSatisfy(\.isNumber) })
        else { return .text(s) }
        return .number(a / b)
    }
}

// MARK: - Larder recipe

extension CooklangRecipe {
    /// The recipe as a draft: ingredients listed in order of first use (with quantities), steps as plain text.
    public func draft(fileName: String) -> RecipeDraft {
        let stem = (fileName as NSString).lastPathComponent
        let title = meta("title") ?? (stem as NSString).deletingPathExtension
        var draft = RecipeDraft(title: title)
        var groups: [RecipeDraft.Group] = []
        var steps: [String] = []
        var k = 0  // the ingredient item's index, into `writtenQuantities`
        for section in sections {
            var lines: [String] = []
            // A list section ("= Ingredients =", "= Ingredients – For the sauce =") whose steps hold only
            // ingredients is the recipe's ingredient list, not a step (how Larder writes ingredients no step names).
            let listGroup = Self.ingredientListGroup(section)
            for step in section.steps {
                if listGroup == nil { steps.append(Self.plainText(step)) }
                for item in step {
                    if case .ingredient(let name, let q, let units, let note) = item {
                        let written = k < writtenQuantities.count ? writtenQuantities[k] : Self.quantityText(q)
                        lines.append(Self.ingredientLine(name: name, quantity: written.isEmpty ? q : .text(written), units: units, note: note))
                        k += 1
                    }
                }
            }
            if !lines.isEmpty {
                let name = listGroup.map { $0.isEmpty ? nil : $0 } ?? (sections.count > 1 ? section.name : nil)
                groups.append(.init(name: name, lines: lines))
            }
        }
        draft.ingredientGroups = groups
        draft.steps = steps
        draft.notes = notes
        draft.yield = meta("servings", "serves", "yield")
        draft.prepMinutes = RecipeDraft.minutes(meta("prep time", "time.prep", "prep_time"))
        draft.cookMinutes = RecipeDraft.minutes(meta("cook time", "time.cook", "cook_time"))
        draft.totalMinutes = RecipeDraft.minutes(meta("total time", "time", "duration", "total_time"))
        draft.tags = (meta("tags") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        draft.categories = meta("course", "category").map { [$0] } ?? []
        draft.cuisine = meta("cuisine")
        draft.description = meta("description", "introduction")
        draft.url = meta("source", "source.url", "url")
        draft.author = meta("author", "source.author")
        draft.image = meta("image")
        return draft
    }

    /// For a section named "Ingredients" (optionally "Ingredients – Group") whose steps hold only ingredients and
    /// blank text: the group's name ("" for none); `nil` for any other section.
    static func ingredientListGroup(_ section: Section) -> String? {
        guard let name = section.name, name.lowercased().hasPrefix("ingredients"), !section.steps.isEmpty else { return nil }
        let onlyIngredients = section.steps.allSatisfy { step in
            step.allSatisfy { item in
                switch item {
                case .ingredient: true
                case .text(let t): t.allSatisfy(\.isWhitespace)
                default: false
                }
            }
        }
        guard onlyIngredients else { return nil }
        return name.dropFirst("ingredients".count).drop { " –—-:".contains($0) }.trimmingCharacters(in: .whitespaces)
    }

    /// A step's text with the markup removed ("Add @salt{1%tsp}" → "Add salt").
    public static func plainText(_ step: [Item]) -> String {
        step.map { item -> String in
            switch item {
            case .text(let t): t
            case .ingredient(let name, _, _, _), .cookware(let name, _): name
            case .timer(let name, let q, let units):
                [quantityText(q), units].filter { !$0.isEmpty }.joined(separator: " ").isEmpty
                    ? name : [quantityText(q), units].filter { !$0.isEmpty }.joined(separator: " ")
            }
        }.joined().trimmingCharacters(in: .whitespaces)
    }

    static func quantityText(_ q: Quantity) -> String {
        switch q {
        case .none: ""
        case .text(let t): t
        case .number(let v): numberText(v)
        }
    }

    /// 2 → "2", 1.5 → "1.5", 0.333… → "1/3", 2.666… → "2 2/3": decimals when short, else a fraction.
    static func numberText(_ v: Double) -> String {
        if v == v.rounded() { return String(Int(v)) }
        let short = (v * 1000).rounded() / 1000
        if abs(short - v) < 1e-9 { return String(short) }
        for d in [3, 6, 8, 16] {
            let n = v * Double(d)
            if abs(n - n.rounded()) < 1e-6 {
                let whole = Int(v)
                let rest = Int(n.rounded()) - whole * d
                let g = gcd(rest, d)
                return (whole > 0 ? "\(whole) " : "") + "\(rest / g)/\(d / g)"
            }
        }
        return String(v)
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

    /// "2 cups flour", "flour" (no quantity), "salt (to taste)".
    static func ingredientLine(name: String, quantity: Quantity, units: String, note: String?) -> String {
        var line = [quantityText(quantity), units, name].filter { !$0.isEmpty }.joined(separator: " ")
        if let note, !note.isEmpty { line += ", " + note }
        return line
    }
}
