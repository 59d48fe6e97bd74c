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
}

/// Reads MasterCook `.mxp` text: a `* Exported from MasterCook *` header, a centred title, `Recipe By`,
/// `Serving Size … Preparation Time`, two-column `Categories`, the `Amount Measure Ingredient -- Preparation
/// Method` table (amount in columns 1–8, measure in 11–22, both right-aligned, ingredient from 25), directions
/// (one per line), a `- - - -` footer and notes after it. Several recipes per file.
public enum MasterCookReader {
    public static func parse(_ text: String) -> [MasterCookRecipe] {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let headers = lines.indices.filter { isHeader(lines[$0]) }
        var chunks: [(Int, Int)] = []
        if headers.isEmpty {
            chunks = [(0, lines.count)]
        } else {
            for (k, h) in headers.enumerated() { chunks.append((h + 1, k + 1 < headers.count ? headers[k + 1] : lines.count)) }
        }
        return chunks.map { recipe(Array(lines[$0.0..<$0.1]), firstLine: $0.0 + 1) }.filter { !$0.isEmpty }
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
            if i < lines.count, lines[i].hasPrefix("--------") { i += 1 }
            while i < lines.count, !lines[i].allSatisfy(\.isWhitespace), let ing = ingredient(lines[i]) {
                r.ingredients.append(ing)
                i += 1
            }
        }
        while i < lines.count, !isFooter(lines[i]) {
            let t = lines[i].trimmingCharacters(in: .whitespaces)
            if !t.isEmpty { r.directions.append(t) }
            i += 1
        }
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
    public enum Failure: Error, Equatable { case notXML(String) }

    public static func parse(_ data: Data) throws -> [MasterCookRecipe] {
        var text = TextBytes.decode(data)
        if let start = text.range(of: "<?xml"), let end = text.range(of: "?>", range: start.upperBound..<text.endIndex) {
            text.removeSubrange(start.lowerBound..<end.upperBound)
        }
        if let start = text.range(of: "<!DOCTYPE"), let end = text.range(of: ">", range: start.upperBound..<text.endIndex) {
            text.removeSubrange(start.lowerBound..<end.upperBound)
        }
        let parser = XMLParser(data: Data(text.utf8))
        let delegate = Delegate()
        parser.delegate = delegate
        guard parser.parse() else {
            throw Failure.notXML(
                "line \(parser.lineNumber): \(parser.parserError.map { "\($0)" } ?? "not well-formed XML")")
        }
        return delegate.recipes
    }

    final class Delegate: NSObject, XMLParserDelegate {
        var recipes: [MasterCookRecipe] = []
        var current: MasterCookRecipe?
        var rtxt: String?
        var buffer = ""
        var count = 0

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
            case "DirT": if !text.isEmpty { current?.directions.append(text) }
            case "Note": if !text.isEmpty { current?.notes.append(text) }
            case "RcpE":
                guard var recipe = current else { break }
                if let rtxt, let fromText = MasterCookReader.parse(rtxt).first, !fromText.ingredients.isEmpty || !fromText.directions.isEmpty {
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
