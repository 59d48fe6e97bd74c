import Foundation
import LarderRecipes

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A MasterCook recipe (`.mxp` text, or one `<RcpE>` of an `.mx2` file).
public struct MasterCookRecipe: Sendable, Equatable {
    public struct Ingredient: Sendable, Equatable {
        public var amount: String
        public var measure: String
        public var ingredient: String
        public var preparation: String
    }

    public var title: String
    public var recipeBy: String
    public var servingSize: String
    public var preparationTime: String
    public var categories: [String]
    public var ingredients: [Ingredient]
    public var directions: [String]
    public var notes: [String]
    public var line: Int

    public var isEmpty: Bool { title.isEmpty && ingredients.isEmpty && directions.isEmpty }
    /// Ingredients, directions and notes: what ``PartBudget`` counts.
    var parts: Int { ingredients.count + directions.count + notes.count }
}

/// Reads MasterCook `.mxp` text: a `* Exported from MasterCook *` header, a centred title, `Recipe By`,
/// `Serving Size … Preparation Time`, two-column `Categories`, the `Amount Measure Ingredient -- Preparation
/// Method` table (amount in columns 1–8, measure in 11–22, both right-aligned, ingredient from 25), directions
/// (one per line), a `- - - -` footer and notes after it. Several recipes per file.
public enum MasterCookReader {
    public static func parse(_ text: String) -> [MasterCookRecipe] {
        var budget = PartBudget.unlimited
        return (try? parse(text, budget: &budget)) ?? []  // no file holds Int.max parts
    }

    /// ``parse(_:)``, charging each recipe to `budget` as it is read: stops once the recipes pass its limit.
    public static func parse(_ text: String, budget: inout PartBudget) throws(RecipePartsOverLimit) -> [MasterCookRecipe] {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let headers = lines.indices.filter { isHeader(lines[$0]) }
        var chunks: [(Int, Int)] = []
        if headers.isEmpty {
            chunks = [(0, lines.count)]
        } else {
            for (k, h) in headers.enumerated() { chunks.append((h + 1, k + 1 < headers.count ? headers[k + 1] : lines.count)) }
        }
        var recipes: [MasterCookRecipe] = []
        for (start, end) in chunks {
            let r = recipe(Array(lines[start..<end]), firstLine: start + 1)
            try budget.charge(r.parts)
            if !r.isEmpty { recipes.append(r) }
        }
        return recipes
    }

    public static func isHeader(_ line: String) -> Bool {
        let t = line.trimmingCharacters(in: .whitespaces)
        guard t.hasPrefix("*"), t.hasSuffix("*"), t.count > 2 else { return false }
        let words = t.dropFirst().dropLast().split(separator: " ")
        return words.count >= 3 && words[0] == "Exported" && words[1] == "from" && words[2] == "MasterCook"
    }

    /// At least 19 "- " pairs.
    public static func isFooter(_ line: String) -> Bool {
        let t = line.trimmingCharacters(in: .whitespaces)
        return t.count >= 35 && t.replacingOccurrences(of: "- ", with: "").trimmingCharacters(in: .whitespaces) == "-"
    }

    public static func metadata(_ line: String) -> (key: String, value: String)? { MealMasterReader.metadata(line) }

    /// "Serving Size  : 2     Preparation Time :1:25" → ("2", "1:25").
    public static func servingSizeAndTime(_ line: String) -> (String, String)? {
        guard line.hasPrefix("Serving Size"), let r = line.range(of: "Preparation Time") else { return nil }
        let size = line[line.startIndex..<r.lowerBound].split(separator: ":", maxSplits: 1).dropFirst().first ?? ""
        var time = line[r.upperBound...].trimmingCharacters(in: .whitespaces)
        if time.hasPrefix(":") { time = String(time.dropFirst()) }
        return (size.trimmingCharacters(in: .whitespaces), time.trimmingCharacters(in: .whitespaces))
    }

    /// "Categories    : A      B" or a continuation line (16 spaces, then categories): the two columns.
    public static func categories(_ line: String) -> (String, String)? {
        let c = Array(line)
        let isLabel = line.hasPrefix("Categories")
        guard isLabel || (c.count > 16 && c[0..<16].allSatisfy { $0 == " " } && c[16] != " ") else { return nil }
        let body = c.count > 16 ? Array(c[16...]) : []
        let first = String(body.prefix(32)).trimmingCharacters(in: .whitespaces)
        let second = body.count > 32 ? String(body[32...]).trimmingCharacters(in: .whitespaces) : ""
        return (first, second)
    }

    /// An ingredient-table line; `nil` when the columns do not fit.
    public static func ingredient(_ line: String) -> MasterCookRecipe.Ingredient? {
        let c = Array(line)
        guard !isFooter(line), c.count > 10 else { return nil }
        func at(_ i: Int) -> Character { i < c.count ? c[i] : " " }
        guard at(8) == " ", at(9) == " ", at(22) == " ", at(23) == " " else { return nil }
        let amountField = String(c[0..<8])
        let measureField = String(c[10..<min(22, c.count)]).padding(toLength: 12, withPad: " ", startingAt: 0)
        let amount = amountField.trimmingCharacters(in: .whitespaces)
        let measure = measureField.trimmingCharacters(in: .whitespaces)
        // The amount column is indented by two spaces.
        if c[0] != " " || c[1] != " " { return nil }
        var text = c.count > 24 ? String(c[24...]).trimmingCharacters(in: .whitespaces) : ""
        guard !(amount.isEmpty && measure.isEmpty && text.isEmpty) else { return nil }
        var preparation = ""
        if let r = text.range(of: " -- "), r.lowerBound > text.startIndex {
            preparation = text[r.upperBound...].trimmingCharacters(in: .whitespaces)
            text = text[text.startIndex..<r.lowerBound].trimmingCharacters(in: .whitespaces)
        }
        return .init(amount: amount, measure: measure, ingredient: text, preparation: preparation)
    }

    /// A mailing-list line kept in a forwarded recipe (`>From: …`, mbox's escaped "From "): not part of it.
    static func isMailHeader(_ line: String) -> Bool {
        line.trimmingCharacters(in: .whitespaces).hasPrefix(">From")
    }

    /// An ingredient line whose fields are separated by tabs or by runs of spaces but not in MasterCook's columns
    /// (a left-aligned amount, a tab-separated file): amount (a number) and measure when there are three fields,
    /// then the ingredient, `-- preparation` split off as in the columns.
    public static func looseIngredient(_ line: String) -> MasterCookRecipe.Ingredient? {
        let expanded = line.replacingOccurrences(of: "\t", with: "  ")
        guard !isFooter(expanded) else { return nil }
        var fields: [String] = []
        var current = ""
        var spaces = 0
        for c in expanded.trimmingCharacters(in: .whitespaces) {
            if c == " " {
                spaces += 1
                continue
            }
            if spaces >= 2, !current.isEmpty { fields.append(current); current = "" } else if spaces == 1 { current.append(" ") }
            spaces = 0
            current.append(c)
        }
        if !current.isEmpty { fields.append(current) }
        guard !fields.isEmpty else { return nil }
        func isAmount(_ s: String) -> Bool { s.first?.isNumber == true && s.allSatisfy { $0.isNumber || "/.- ".contains($0) || "½¼¾⅓⅔⅛".contains($0) } }
        var amount = "", measure = "", text: String
        if fields.count >= 3, isAmount(fields[0]) {
            (amount, measure, text) = (fields[0], fields[1], fields[2...].joined(separator: " "))
        } else if fields.count == 2, isAmount(fields[0]) {
            (amount, text) = (fields[0], fields[1])
        } else if fields.count == 1, line.contains("\t") || line.hasPrefix(" ") {
            text = fields[0]
        } else {
            return nil  // a sentence: the directions start here
        }
        var preparation = ""
        if let r = text.range(of: " -- "), r.lowerBound > text.startIndex {
            preparation = text[r.upperBound...].trimmingCharacters(in: .whitespaces)
            text = text[text.startIndex..<r.lowerBound].trimmingCharacters(in: .whitespaces)
        }
        return .init(amount: amount, measure: measure, ingredient: text, preparation: preparation)
    }

    /// Directions as paragraphs: lines joined with a space; a step ends at a blank line, or where a line ends a
    /// sentence (or a label: "Source:") and the next starts one (a capital letter, a digit or a quote).
    public static func paragraphs(_ lines: [String]) -> [String] {
        var out: [String] = []
        var current = ""
        for raw in lines {
            let t = raw.trimmingCharacters(in: .whitespaces)
            if t.isEmpty {
                if !current.isEmpty { out.append(current) }
                current = ""
                continue
            }
            if current.isEmpty {
                current = t
            } else if isLabel(t) || endsSentence(current) && t.first.map({ $0.isUppercase || $0.isNumber || "\"'“(*".contains($0) }) == true {
                out.append(current)
                current = t
            } else {
                current += " " + t
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// A label line MasterCook writes before a value ("Source:", "Start to Finish Time:").
    static func isLabel(_ s: String) -> Bool { s.hasSuffix(":") && s.count <= 40 && s.first?.isUppercase == true }

    static func endsSentence(_ s: String) -> Bool {
        let core = s.reversed().drop { "\"'”)".contains($0) }
        guard let last = core.first else { return false }
        return ".!?:".contains(last)
    }

    static func isMetadataLine(_ line: String) -> Bool {
        servingSizeAndTime(line) != nil || categories(line) != nil || metadata(line)?.key.lowercased() == "recipe by"
    }

    static func recipe(_ lines: [String], firstLine: Int) -> MasterCookRecipe {
        var r = MasterCookRecipe(
            title: "", recipeBy: "", servingSize: "", preparationTime: "", categories: [], ingredients: [],
            directions: [], notes: [], line: firstLine)
        var i = 0
        func skipBlank() { while i < lines.count, lines[i].allSatisfy(\.isWhitespace) { i += 1 } }
        skipBlank()
        if i < lines.count, !isFooter(lines[i]) {
            r.title = lines[i].trimmingCharacters(in: .whitespaces)
            i += 1
        }
        skipBlank()
        while i < lines.count {
            let line = lines[i]
            if line.allSatisfy(\.isWhitespace) {
                // Blank lines may separate metadata lines; the metadata ends at the first other line.
                var next = i
                while next < lines.count, lines[next].allSatisfy(\.isWhitespace) { next += 1 }
                guard next < lines.count, isMetadataLine(lines[next]) else { break }
                i = next
                continue
            }
            if let (size, time) = servingSizeAndTime(line) {
                (r.servingSize, r.preparationTime) = (size, time)
            } else if let (a, b) = categories(line) {
                r.categories += [a, b].filter { !$0.isEmpty }
            } else if let (key, value) = metadata(line), key.lowercased() == "recipe by" {
                r.recipeBy = value
            } else {
                break
            }
            i += 1
        }
        skipBlank()
        if i < lines.count, lines[i].contains("Amount"), lines[i].contains("Measure") {
            i += 1
            if i < lines.count, lines[i].trimmingCharacters(in: .whitespaces).hasPrefix("--------") { i += 1 }
            // The table runs to the first blank line. Columns as MasterCook writes them, else the same fields
            // separated by tabs or left-aligned (other programs' and hand-edited files).
            while i < lines.count, !lines[i].allSatisfy(\.isWhitespace), !isMailHeader(lines[i]),
                let ing = ingredient(lines[i]) ?? looseIngredient(lines[i])
            {
                r.ingredients.append(ing)
                i += 1
            }
        }
        var body: [String] = []
        while i < lines.count, !isFooter(lines[i]) {
            if !isMailHeader(lines[i]) { body.append(lines[i]) }
            i += 1
        }
        r.directions = paragraphs(body)
        i += 1
        while i < lines.count {
            let t = lines[i].trimmingCharacters(in: .whitespaces)
            if !t.isEmpty { r.notes.append(t) }
            i += 1
        }
        return r
    }
}

// MARK: - MX2 (MasterCook 5+ XML)

/// Reads MasterCook `.mx2` XML from its bytes. The files claim ISO-8859-1 but hold Windows-1252 bytes, and put
/// `standalone` before `encoding`, which XML parsers reject: the bytes are decoded as Windows-1252 (UTF-8 when
/// valid) and the declaration is dropped before parsing. Each `<RcpE>` is read from its `<RTxt>` (the MXP text)
/// when present, otherwise from its elements.
public enum MX2Reader {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case notXML(String)
        /// The file declares entities (`<!ENTITY`): a billion-laughs bomb, or an external entity. MasterCook writes
        /// none, so none is expanded.
        case entityExpansionRefused

        public var description: String {
            switch self {
            case .notXML(let why): "not well-formed XML (\(why))"
            case .entityExpansionRefused:
                "entity expansion refused: the file declares XML entities (<!ENTITY …>), which MasterCook never writes"
            }
        }
    }

    public static func parse(_ data: Data) throws -> [MasterCookRecipe] {
        var budget = PartBudget.unlimited
        return try parse(data, budget: &budget)
    }

    /// ``parse(_:)``, charging each ingredient, direction and note to `budget` as the XML parser reaches it: the
    /// parse is aborted once they pass its limit (``RecipePartsOverLimit``).
    public static func parse(_ data: Data, budget: inout PartBudget) throws -> [MasterCookRecipe] {
        var text = TextBytes.decode(data)
        if text.contains("<!ENTITY") { throw Failure.entityExpansionRefused }
        if let start = text.range(of: "<?xml"), let end = text.range(of: "?>", range: start.upperBound..<text.endIndex) {
            text.removeSubrange(start.lowerBound..<end.upperBound)
        }
        if let start = text.range(of: "<!DOCTYPE"), let close = text.range(of: ">", range: start.upperBound..<text.endIndex) {
            // An internal subset ("[ … ]>") ends at "]>".
            let open = text.range(of: "[", range: start.upperBound..<close.lowerBound)
            let end = open.flatMap { text.range(of: "]>", range: $0.upperBound..<text.endIndex) } ?? close
            text.removeSubrange(start.lowerBound..<end.upperBound)
        }
        text = escapingUnknownEntities(text)
        let parser = XMLParser(data: Data(text.utf8))
        let delegate = Delegate(budget: budget)
        parser.delegate = delegate
        let parsed = parser.parse()
        budget = delegate.budget
        if let overLimit = delegate.overLimit { throw overLimit }
        guard parsed else {
            throw Failure.notXML(
                "line \(parser.lineNumber): \(parser.parserError.map { "\($0)" } ?? "not well-formed XML")")
        }
        return delegate.recipes
    }

    /// Every `&` that does not start one of XML's own references (`&amp;` `&lt;` `&gt;` `&quot;` `&apos;`, `&#…;`)
    /// becomes `&amp;`, outside CDATA sections: "Stir. &x; &p; Done." and "salt & pepper" stay as written instead of
    /// cutting the text at the first unknown entity.
    static func escapingUnknownEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let known = ["amp;", "lt;", "gt;", "quot;", "apos;"]
        var out = ""
        out.reserveCapacity(text.utf8.count + 64)
        var rest = text[...]
        while let amp = rest.firstIndex(where: { $0 == "&" || $0 == "<" }) {
            out += rest[rest.startIndex..<amp]
            let tail = rest[amp...]
            if tail.hasPrefix("<![CDATA[") {
                let end = tail.range(of: "]]>")?.upperBound ?? tail.endIndex
                out += tail[tail.startIndex..<end]
                rest = tail[end...]
                continue
            }
            rest = tail.dropFirst()
            if tail.first == "<" { out += "<"; continue }
            let after = tail.dropFirst()
            let isReference = known.contains { after.hasPrefix($0) }
                || (after.hasPrefix("#") && after.dropFirst().prefix { $0.isHexDigit || $0 == "x" }.count > 0
                    && after.dropFirst().drop { $0.isHexDigit || $0 == "x" }.first == ";")
            out += isReference ? "&" : "&amp;"
        }
        return out + rest
    }

    final class Delegate: NSObject, XMLParserDelegate {
        var recipes: [MasterCookRecipe] = []
        var current: MasterCookRecipe?
        var rtxt: String?
        var buffer = ""
        var count = 0
        var budget: PartBudget
        /// Set when the budget ran out; the parse was aborted there.
        var overLimit: RecipePartsOverLimit?

        init(budget: PartBudget) {
            self.budget = budget
        }

        private func charge(_ parser: XMLParser) {
            guard overLimit == nil else { return }
            do {
                try budget.charge(1)
            } catch {
                overLimit = error
                parser.abortParsing()
            }
        }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes a: [String: String] = [:]) {
            buffer = ""
            switch name {
            case "RcpE":
                count += 1
                current = MasterCookRecipe(
                    title: a["name"] ?? "", recipeBy: a["author"] ?? "", servingSize: "", preparationTime: "",
                    categories: [], ingredients: [], directions: [], notes: [], line: count)
                rtxt = nil
            case "Serv": current?.servingSize = a["qty"] ?? ""
            case "PrpT": current?.preparationTime = a["elapsed"] ?? ""
            case "IngR":
                charge(parser)
                current?.ingredients.append(.init(amount: a["qty"] ?? "", measure: a["unit"] ?? "", ingredient: a["name"] ?? "", preparation: ""))
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { buffer += string }

        func parser(_ parser: XMLParser, foundCDATA block: Data) { buffer += String(decoding: block, as: UTF8.self) }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let text = buffer.trimmingCharacters(in: .whitespacesAndNewlines)
            switch name {
            case "RTxt": rtxt = buffer
            case "CatT": if !text.isEmpty { current?.categories.append(text) }
            case "IPrp": if let n = current?.ingredients.count, n > 0 { current?.ingredients[n - 1].preparation = text }
            case "DirT", "Note":
                guard !text.isEmpty else { break }
                charge(parser)
                if name == "DirT" { current?.directions.append(text) } else { current?.notes.append(text) }
            case "RcpE":
                guard var recipe = current else { break }
                // The recipe's text, read as MasterCook text within what the budget has left (its parts replace
                // the elements' parts, which were charged already).
                var left = PartBudget(limit: budget.limit - budget.used)
                var read: MasterCookRecipe?
                do throws(RecipePartsOverLimit) {
                    if let rtxt { read = try MasterCookReader.parse(rtxt, budget: &left).first }
                } catch {
                    overLimit = RecipePartsOverLimit(parts: budget.used + error.parts, limit: budget.limit)
                    parser.abortParsing()
                    break
                }
                if let fromText = read, !fromText.ingredients.isEmpty || !fromText.directions.isEmpty {
                    recipe.ingredients = fromText.ingredients
                    recipe.directions = fromText.directions
                    if recipe.notes.isEmpty { recipe.notes = fromText.notes }
                }
                recipes.append(recipe)
                current = nil
            default: break
            }
            buffer = ""
        }
    }
}

// MARK: - Larder recipe

extension MasterCookRecipe.Ingredient {
    /// "1/4 Cup Margarine Or Butter -- softened" as Larder reads it: "1/4 Cup Margarine Or Butter, softened".
    public var line: String {
        let main = [amount, measure, ingredient].filter { !$0.isEmpty }.joined(separator: " ")
        return preparation.isEmpty ? main : main + ", " + preparation
    }
}

extension MasterCookRecipe {
    public var draft: RecipeDraft {
        var d = RecipeDraft(title: title.isEmpty ? "Untitled recipe" : title)
        d.author = recipeBy.isEmpty || recipeBy.lowercased() == "n/a" ? nil : recipeBy
        if let n = Double(servingSize), n > 0 { d.yield = servingSize }
        d.prepMinutes = Self.minutes(preparationTime)
        d.categories = categories
        var groups: [RecipeDraft.Group] = [.init(lines: [])]
        for ing in ingredients {
            // A line with only text ending in ":" is a heading ("Heading:").
            if ing.amount.isEmpty, ing.measure.isEmpty, ing.preparation.isEmpty, ing.ingredient.hasSuffix(":"),
                !ing.ingredient.hasPrefix("--")
            {
                groups.append(.init(name: String(ing.ingredient.dropLast()), lines: []))
            } else if ing.amount.isEmpty, ing.measure.isEmpty, ing.ingredient.hasPrefix("--"),
                let g = groups.lastIndex(where: { !$0.lines.isEmpty })
            {
                // A continuation line ("-- or your favorite") belongs to the ingredient above it.
                let more = ing.ingredient.drop { $0 == "-" || $0 == " " }
                if !more.isEmpty { groups[g].lines[groups[g].lines.count - 1] += ", " + more }
            } else if !ing.line.isEmpty {
                groups[groups.count - 1].lines.append(ing.line)
            }
        }
        d.ingredientGroups = groups.filter { !$0.lines.isEmpty }
        d.steps = directions
        d.notes = notes
        return d
    }

    /// "1:25" → 85 minutes; "0:00" → nil.
    static func minutes(_ s: String) -> Double? {
        let parts = s.split(separator: ":")
        guard parts.count == 2, let h = Double(parts[0]), let m = Double(parts[1]), h * 60 + m > 0 else { return nil }
        return h * 60 + m
    }
}
