import Foundation
import LarderRecipes

/// A MealMaster recipe as the file lays it out.
public struct MealMasterRecipe: Sendable, Equatable {
    public enum Line: Sendable, Equatable {
        case ingredient(quantity: String, unit: String, text: String)
        case heading(String)
    }

    public var title: String
    public var categories: [String]
    /// The yield when it is not a plain number of servings ("24 cookies"); "" otherwise.
    public var yield: String
    /// Servings when the yield is a number ("10", "6 servings"); 0 otherwise.
    public var servings: Int
    public var ingredients: [Line]
    /// Paragraphs of the directions.
    public var directions: [String]
    /// The 1-based line where the recipe starts in its file.
    public var line: Int

    /// True when anything at all was read.
    public var isEmpty: Bool { title.isEmpty && ingredients.isEmpty && directions.isEmpty && categories.isEmpty }
}

/// Reads MealMaster (`.mmf`) text: `MMMMM-----` or `----------` headers, `Title:`/`Categories:`/`Yield:`/
/// `Servings:` lines, fixed-column ingredients (quantity in columns 1–7, unit code in 9–10, text from 12; two
/// columns of 41 characters in MM v8), `-` continuation lines, `-----HEADING-----` groups, directions in
/// paragraphs, and an `MMMMM` or `-----` footer. Several recipes per file; text outside them is ignored.
public enum MealMasterReader {
    /// The recipes in a file's text (cp437/Windows-1252 bytes must be decoded by the caller, see ``TextBytes``).
    public static func parse(_ text: String) -> [MealMasterRecipe] {
        var budget = PartBudget.unlimited
        return (try? parse(text, budget: &budget)) ?? []  // no file holds Int.max parts
    }

    /// ``parse(_:)``, charging each recipe to `budget` as it is read: stops once the recipes pass its limit.
    public static func parse(_ text: String, budget: inout PartBudget) throws(RecipePartsOverLimit) -> [MealMasterRecipe] {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var recipes: [MealMasterRecipe] = []
        var i = 0
        let anyHeader = lines.contains(where: isProgramHeader)
        if !anyHeader {
            let r = recipe(Array(lines[...]), firstLine: 1)
            try budget.charge(r.ingredients.count + r.directions.count)
            return r.isEmpty ? [] : [r]
        }
        while i < lines.count {
            guard isProgramHeader(lines[i]) else { i += 1; continue }
            let start = i + 1
            var end = start
            while end < lines.count, !isProgramFooter(lines[end]), !isProgramHeader(lines[end]) { end += 1 }
            let r = recipe(Array(lines[start..<end]), firstLine: start)
            try budget.charge(r.ingredients.count + r.directions.count)
            if !r.isEmpty { recipes.append(r) }
            i = end < lines.count && isProgramFooter(lines[end]) ? end + 1 : end
        }
        return recipes
    }

    /// A recipe header as MealMaster or another program writes it: the standard ``isHeader(_:)`` spellings, or a
    /// line that starts with five `M`s or five dashes (then any run of `M`s and dashes) and names the format or a
    /// program. As the programs' own code writes them (read 2026-12-07):
    /// - AnyMeal (github.com/wedesoft/anymeal, `anymeal/export.cc`):
    ///   `MMMMM----------------Meal-Master recipe exported by AnyMeal-----------------`, CRLF, an `MMMMM` footer
    ///   with no line end; its reader (`anymeal/mealmaster.ll`) takes any line starting `MMMMM` or `-----` that
    ///   holds "Meal-Master" (any case) as a header, as here.
    /// - Krecipes (github.com/KDE/krecipes, `src/exporters/mmfexporter.cpp`):
    ///   `----- Exported by Krecipes v2.0 [Meal-Master Export Format] -----`, a `-----` footer, group headings of
    ///   dashes only (`-----Sauce-----`, 76 wide), directions wrapped at 80 with one leading space.
    /// - Gourmet Recipe Manager (`gourmet/exporters/mealmaster_exporter.py`): `MMMMM----- Recipe via Meal-Master
    ///   (tm)` (the standard spelling), an `MMMMM` footer, its own ingredient columns (``Columns``).
    /// - Now You're Cooking: no writer code found; its name is recognised as the others'.
    /// A section heading ("MMMMM-----SAUCE-----") names neither the format nor a program.
    public static func isProgramHeader(_ line: String) -> Bool {
        if isHeader(line) { return true }
        let t = line.trimmingCharacters(in: .whitespaces)
        guard t.hasPrefix("MMMMM") || t.hasPrefix("-----") else { return false }
        let rest = t.drop { $0 == "M" || $0 == "-" }.lowercased()
        guard rest.contains(where: \.isLetter) else { return false }
        // Not "gourmet": a section may be called "Gourmet topping", and Gourmet writes the standard header.
        let programs = ["meal-master", "mealmaster", "meal master", "anymeal", "krecipes", "now you're cooking", "now you’re cooking", "mmformat"]
        let whole = t.lowercased()
        if programs.contains(where: whole.contains) { return true }
        // "----- Recipe via …", "MMMMM----- Recipe Extracted from …": a heading ends in dashes, a header does not.
        return rest.contains("recipe") && !rest.hasSuffix("-")
    }

    /// The end of a recipe: the standard ``isFooter(_:)`` lines, or a line of only five or more `M`s or dashes.
    public static func isProgramFooter(_ line: String) -> Bool {
        if isFooter(line) { return true }
        let t = line.trimmingCharacters(in: .whitespaces)
        return t.count >= 5 && (t.allSatisfy { $0 == "-" } || t.allSatisfy { $0 == "M" })
    }

    /// `MMMMM-----` or `----------`, then anything (at least one more character, not a dash).
    public static func isHeader(_ line: String) -> Bool {
        let c = Array(line)
        guard c.count > 10 else { return false }
        let head = String(c[0..<10])
        return (head == "MMMMM-----" || head == "----------") && c[10] != "-"
    }

    public static func isFooter(_ line: String) -> Bool { line == "-----" || line == "MMMMM" }

    /// `Key: value` → (key, value), both trimmed; `nil` when there is no key before the colon.
    public static func metadata(_ line: String) -> (key: String, value: String)? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let key = line[line.startIndex..<colon].trimmingCharacters(in: .whitespaces)
        guard !key.isEmpty else { return nil }
        return (key, line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }

    public static func categories(_ value: String) -> [String] {
        if value.trimmingCharacters(in: .whitespaces).lowercased() == "none" { return [] }
        return value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// "10" or "6 servings" → ("", 10); "24 cookies" → ("24 cookies", 0).
    public static func yieldAndServings(_ value: String) -> (String, Int) {
        let v = value.trimmingCharacters(in: .whitespaces)
        if let n = Int(v) { return ("", n) }
        let parts = v.split(separator: " ")
        if parts.count == 2, let n = Int(parts[0]), parts[1].lowercased().hasPrefix("serving") { return ("", n) }
        return (v, 0)
    }

    /// `-----TEXT-----` or `MMMMM-----TEXT-----` → "TEXT"; "" when the line is not a heading.
    public static func heading(_ line: String) -> String {
        var s = Substring(line)
        if s.hasPrefix("MMMMM") { s = s.dropFirst(5) }
        guard s.hasPrefix("-----"), s.hasSuffix("-") else { return "" }
        return s.trimmingCharacters(in: CharacterSet(charactersIn: "-")).trimmingCharacters(in: .whitespaces)
    }

    static let units: Set<String> = [
        "", "x", "sm", "md", "lg", "cn", "pk", "pn", "dr", "ds", "ct", "bn", "sl", "ea", "t", "ts", "T", "tb", "fl",
        "c", "pt", "qt", "ga", "oz", "lb", "ml", "cb", "cl", "dl", "l", "mg", "cg", "dg", "g", "kg",
    ]

    /// Where an ingredient line's fields are: the quantity right-aligned in `amount` columns, a space, the unit
    /// code in `unit` columns, a space, the text. MealMaster, AnyMeal (`anymeal/export.cc`) and Krecipes
    /// (`src/exporters/mmfexporter.cpp`) write the standard 7 and 2; Gourmet Recipe Manager's exporter
    /// (`mealmaster_exporter.py`) pads the quantity to its longest (at least 6) and the unit to its longest (at
    /// least 1), both right-aligned, so a file of short units has its text in column 9 or 10.
    public struct Columns: Sendable, Equatable {
        public var amount: Int
        public var unit: Int
        public static let standard = Columns(amount: 7, unit: 2)
        /// The layouts tried, standard first, when a recipe's first ingredient line does not fit the standard one.
        static let tried = [standard] + (6...10).flatMap { a in (1...2).map { Columns(amount: a, unit: $0) } }.filter { $0 != standard }
        var text: Int { amount + 1 + unit + 1 }
    }

    /// A fixed-column ingredient line: quantity (columns 1–7, right-aligned), a space, a unit code (9–10), a
    /// space, text; or the same in another layout (``Columns``).
    public static func isIngredient(_ line: String, columns: Columns = .standard) -> Bool {
        let c = Array(line)
        guard c.count > columns.text, c[columns.amount] == " ", c[columns.text - 1] == " " else { return false }
        let quantity = String(c[0..<columns.amount])
        let q = quantity.trimmingCharacters(in: .whitespaces)
        if !q.isEmpty && (quantity.last == " " || !q.allSatisfy({ $0.isNumber || "/.- ".contains($0) })) { return false }
        let unit = String(c[(columns.amount + 1)..<(columns.text - 1)]).trimmingCharacters(in: .whitespaces)
        guard units.contains(unit) else { return false }
        return !String(c[columns.text...]).trimmingCharacters(in: .whitespaces).isEmpty || !q.isEmpty
    }

    public static func ingredient(_ line: String, columns: Columns = .standard) -> MealMasterRecipe.Line {
        let c = Array(line)
        func field(_ r: Range<Int>) -> String {
            guard r.lowerBound < c.count else { return "" }
            return String(c[r.lowerBound..<min(r.upperBound, c.count)]).trimmingCharacters(in: .whitespaces)
        }
        return .ingredient(
            quantity: field(0..<columns.amount), unit: field((columns.amount + 1)..<(columns.text - 1)),
            text: field(columns.text..<max(columns.text, c.count)))
    }

    /// The layout of a recipe's ingredient lines, from its first one: the standard one when it fits, else the
    /// first other layout in which it reads as a quantity, a unit code and text (a line without a quantity says
    /// nothing about the layout).
    static func columns(of line: String) -> Columns {
        if isIngredient(line) { return .standard }
        let hasQuantity = line.first == " " || line.first?.isNumber == true
        guard hasQuantity else { return .standard }
        return Columns.tried.first { columns in
            guard isIngredient(line, columns: columns), case .ingredient(let q, _, _) = ingredient(line, columns: columns) else { return false }
            return !q.isEmpty
        } ?? .standard
    }
}

// MARK: - One recipe

extension MealMasterReader {
    static func recipe(_ lines: [String], firstLine: Int) -> MealMasterRecipe {
        var r = MealMasterRecipe(title: "", categories: [], yield: "", servings: 0, ingredients: [], directions: [], line: firstLine)
        var i = 0
        // Metadata, with blank lines anywhere among it.
        metadata: while i < lines.count {
            let line = lines[i]
            if line.allSatisfy(\.isWhitespace) { i += 1; continue }
            guard !isIngredient(line), let (key, value) = metadata(line) else { break }
            switch key.lowercased() {
            case "title": r.title = value
            case "categories": r.categories = categories(value)
            case "yield", "servings", "serving size", "makes": (r.yield, r.servings) = yieldAndServings(value)
            default: break metadata
            }
            i += 1
        }
        // Ingredients: ingredient, heading and blank lines, in the layout of the first ingredient line.
        let first = lines[i...].first { !$0.allSatisfy(\.isWhitespace) && heading($0).isEmpty }
        let columns = first.map(columns(of:)) ?? .standard
        var block: [String] = []
        while i < lines.count {
            let line = lines[i]
            if line.allSatisfy(\.isWhitespace) || isIngredient(line, columns: columns) || !heading(line).isEmpty {
                block.append(line)
                i += 1
            } else {
                break
            }
        }
        r.ingredients = ingredients(block, columns: columns)
        r.directions = paragraphs(Array(lines[i...]))
        return r
    }

    /// Ingredient lines, with headings; in two-column blocks the left column comes before the right one, and a
    /// `-` continuation line joins the ingredient read before it.
    public static func ingredients(_ lines: [String], columns layout: Columns = .standard) -> [MealMasterRecipe.Line] {
        var out: [MealMasterRecipe.Line] = []
        var block: [String] = []
        func flushBlock() {
            let twoColumn = layout == .standard && block.contains { Array($0).count > 41 && isIngredient(String(Array($0)[41...])) }
            var columns = [block.map { twoColumn ? String(Array($0).prefix(41)) : $0 }]
            if twoColumn { columns.append(block.compactMap { Array($0).count > 41 ? String(Array($0)[41...]) : nil }) }
            for column in columns {
                for line in column where isIngredient(line, columns: layout) {
                    guard case .ingredient(let q, let u, let text) = ingredient(line, columns: layout) else { continue }
                    if q.isEmpty, u.isEmpty, text.hasPrefix("-"), let last = out.lastIndex(where: {
                        if case .ingredient = $0 { true } else { false }
                    }), case .ingredient(let lq, let lu, let lt) = out[last] {
                        let more = text.dropFirst().trimmingCharacters(in: .whitespaces)
                        out[last] = .ingredient(quantity: lq, unit: lu, text: more.isEmpty ? lt : lt + " " + more)
                    } else {
                        out.append(.ingredient(quantity: q, unit: u, text: text))
                    }
                }
            }
            block = []
        }
        for line in lines {
            let h = heading(line)
            if !h.isEmpty {
                flushBlock()
                out.append(.heading(h))
            } else if !line.allSatisfy(\.isWhitespace) {
                block.append(line)
            }
        }
        flushBlock()
        return out
    }

    /// Paragraphs: lines trimmed and joined with a space, split at blank lines and at lines ending in the
    /// MealMaster paragraph mark (0x14).
    public static func paragraphs(_ lines: [String]) -> [String] {
        var out: [String] = []
        var current: [String] = []
        func flush() {
            if !current.isEmpty { out.append(current.joined(separator: " ")) }
            current = []
        }
        for line in lines {
            let ends = line.hasSuffix("\u{14}")
            let t = line.replacingOccurrences(of: "\u{14}", with: "").trimmingCharacters(in: .whitespaces)
            if t.isEmpty { flush(); continue }
            current.append(t)
            if ends { flush() }
        }
        flush()
        return out
    }
}

// MARK: - Larder recipe

extension MealMasterRecipe {
    /// The ingredient line as Larder reads it: "1 1/2 c flour", "Salt and pepper to taste".
    public static func text(quantity: String, unit: String, text: String) -> String {
        [quantity, unit, text].filter { !$0.isEmpty }.joined(separator: " ")
    }

    public var draft: RecipeDraft {
        var d = RecipeDraft(title: title.isEmpty ? "Untitled recipe" : title)
        d.categories = categories
        d.yield = !yield.isEmpty ? yield : servings > 0 ? String(servings) : nil
        var groups: [RecipeDraft.Group] = [.init(lines: [])]
        for line in ingredients {
            switch line {
            case .heading(let h): groups.append(.init(name: h, lines: []))
            case .ingredient(let q, let u, let t): groups[groups.count - 1].lines.append(Self.text(quantity: q, unit: u, text: t))
            }
        }
        d.ingredientGroups = groups.filter { !$0.lines.isEmpty }
        d.steps = directions
        return d
    }
}
