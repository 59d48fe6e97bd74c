import Foundation
import LarderCore
import LarderJSON
import LarderReceipts
import LarderRecipes

/// How the `recipe` and `receipt` stages store their outputs without copying the document's text (issue 11).
///
/// The text is stored once: `extract`'s pages, or for photos and scans the `ocr` stage's lines. In the stored
/// `recipe` output, an ingredient or step whose `text` is a piece of the lines its `provenance` names (each line
/// trimmed, joined by one space: how wrapped lines are read) keeps that piece's UTF-8 byte range, `textAt: [from,
/// to]`, instead of the text. In the stored `receipt` output, each of `receipt.lines` keeps its `number` and
/// `role`; its text, confidence and box are those of the line the stage read. A value is replaced only when
/// expanding the reference gives it back exactly (checked as it is stored), so a later process reads the very
/// value the stage made; anything else stays as written. Each output is then bounded by its own structure (a few
/// dozen bytes per ingredient, step or line), not by a copy of the text.
///
/// The stages' values are unchanged (later stages in the same process read them as made), and so is the result:
/// it is the product, exported and kept as versions, and holds its own text.
public enum LineReferences {
    /// Shorter texts are kept: the reference would not be smaller.
    static let minimumBytes = 16

    // MARK: Recipes

    /// The `recipe` stage's JSON as stored: texts that are pieces of their lines become `textAt` ranges.
    ///
    /// Rewritten in one pass over the encoder's text (``RecipeTextCompactor``); a text in another form is parsed
    /// (``compactRecipesByParsing(_:lines:)``), with the same result. The stage itself writes the stored form as it
    /// encodes its output (``Locator``, ``RecipeStageOutput/encodedAndStored(lines:)``); this is the form of a JSON
    /// text, which `RecipeJSONTests` compares that with.
    public static func compactRecipes(_ json: String, lines: [SourceLine]) throws -> String {
        if let compact = RecipeTextCompactor.compact(json, lines: lines) { return compact }
        return try compactRecipesByParsing(json, lines: lines)
    }

    /// ``compactRecipes(_:lines:)`` by parsing `json` into a ``JSONValue``, replacing the texts and serialising it:
    /// the definition of the stored form, which the one-pass rewrite must match byte for byte.
    static func compactRecipesByParsing(_ json: String, lines: [SourceLine]) throws -> String {
        var value = try JSONValue(parsing: json)
        let index = LineIndex(lines)
        recipeTexts(&value, index, expand: false)
        return value.serialized()
    }

    /// The stored `recipe` JSON with every `textAt` range replaced by its text (for a later process).
    public static func expandRecipes(_ json: String, lines: [SourceLine]) throws -> String {
        guard json.contains("\"textAt\"") else { return json }
        var value = try JSONValue(parsing: json)
        let index = LineIndex(lines)
        if !recipeTexts(&value, index, expand: true) {
            throw LarderError(
                .transient, "the stored recipe output refers to lines the document's text does not have",
                hint: "the checkpoint database was changed outside Larder (or this is a bug to report): ingest the file into a new database",
                stage: "recipe")
        }
        return value.serialized()
    }

    /// Where the `recipe` stage's texts are in their lines, as its output is written (``RecipeStageOutput/encodedAndStored(lines:)``):
    /// the same test as the rewrite's — a text of at least ``minimumBytes`` found by ``find(_:in:)`` in the lines
    /// its provenance names. The index of the lines is made at the first text long enough to need it.
    final class Locator: RecipeTextLocator {
        private let lines: [SourceLine]
        private var index: LineIndex?

        init(_ lines: [SourceLine]) { self.lines = lines }

        func range(of text: String, in provenance: Provenance) -> Range<Int>? {
            guard text.utf8.count >= minimumBytes else { return nil }
            if index == nil { index = LineIndex(lines) }
            guard let joined = index!.joined(page: provenance.page, first: provenance.lineStart, last: provenance.lineEnd)
            else { return nil }
            return find(Array(text.utf8), in: joined)
        }
    }

    /// The lines of a document's pages, trimmed, by page and 1-based number.
    struct LineIndex {
        private var pages: [Int: [Substring]] = [:]

        init(_ lines: [SourceLine]) {
            for line in lines { Self.add(line, to: &pages[line.page, default: []]) }
        }

        /// Numbered from 1 in order within a page (``RecipeStage/lines(of:)``); a gap keeps the index honest. The
        /// page's array is changed in place (a copy of it per line made the index quadratic in a page's lines).
        private static func add(_ line: SourceLine, to page: inout [Substring]) {
            while page.count < line.number - 1 { page.append("") }
            if page.count == line.number - 1 { page.append(trimmed(line.text)) }
        }

        private static func trimmed(_ text: String) -> Substring {
            let start = text.firstIndex { !$0.isWhitespace } ?? text.endIndex
            let end = text.lastIndex { !$0.isWhitespace }.map(text.index(after:)) ?? start
            return text[start..<max(start, end)]
        }

        /// Lines `first...last` of `page`, joined by one space, as UTF-8; nil when the page has no such lines.
        func joined(page: Int, first: Int, last: Int) -> [UInt8]? {
            guard let texts = pages[page], first >= 1, last >= first, last <= texts.count else { return nil }
            var bytes: [UInt8] = []
            for number in first...last {
                if number > first { bytes.append(0x20) }
                bytes += texts[number - 1].utf8
            }
            return bytes
        }
    }

    /// Compacts (or expands) every object holding `text` (or `textAt`) and a `provenance`. Returns false when a
    /// reference could not be expanded.
    @discardableResult
    private static func recipeTexts(_ value: inout JSONValue, _ index: LineIndex, expand: Bool) -> Bool {
        switch value {
        case .array(var items):
            var ok = true
            for position in items.indices where !recipeTexts(&items[position], index, expand: expand) { ok = false }
            value = .array(items)
            return ok
        case .object(var object):
            var ok = true
            for key in object.keys where key != "provenance" {
                guard var child = object[key], child.arrayValue != nil || child.objectValue != nil else { continue }
                if !recipeTexts(&child, index, expand: expand) { ok = false }
                object[key] = child
            }
            guard let provenance = object["provenance"], let page = provenance["page"]?.intValue,
                let first = provenance["lineStart"]?.intValue, let last = provenance["lineEnd"]?.intValue
            else {
                value = .object(object)
                return ok
            }
            if expand, let range = object["textAt"]?.arrayValue {
                guard range.count == 2, let from = range[0].intValue, let to = range[1].intValue,
                    let joined = index.joined(page: page, first: first, last: last), 0 <= from, from <= to,
                    to <= joined.count, let text = String(validating: joined[from..<to], as: UTF8.self)
                else { return false }
                object.removeValue(forKey: "textAt")
                object["text"] = .string(text)
            } else if !expand, let text = object["text"]?.stringValue, text.utf8.count >= minimumBytes,
                let joined = index.joined(page: page, first: first, last: last),
                let range = find(Array(text.utf8), in: joined)
            {
                object.removeValue(forKey: "text")
                object["textAt"] = .array([.int(range.lowerBound), .int(range.upperBound)])
            }
            value = .object(object)
            return ok
        default:
            return true
        }
    }

    /// Lines longer than this are searched only at their ends: a search inside costs up to their length squared
    /// on repetitive text.
    static let searchedBytes = 2048

    /// Where `needle` occurs in `haystack`: the whole, its end (after a list marker or step number), its start, or
    /// (in a short haystack) anywhere.
    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        if needle.count > haystack.count { return nil }
        if needle == haystack { return 0..<needle.count }
        if haystack.suffix(needle.count).elementsEqual(needle) { return (haystack.count - needle.count)..<haystack.count }
        if haystack.prefix(needle.count).elementsEqual(needle) { return 0..<needle.count }
        return haystack.count <= searchedBytes ? haystack.firstRange(of: needle) : nil
    }

    // MARK: Receipts

    /// The `receipt` stage's JSON as stored: each of `receipt.lines` without the text, confidence and box of the
    /// line it is (`lines[number - 1]`).
    public static func compactReceipt(_ json: String, lines: [OCRLine]) throws -> String {
        var value = try JSONValue(parsing: json)
        guard case .object(var output) = value, case .object(var receipt)? = output["receipt"],
            case .array(var items)? = receipt["lines"]
        else { return json }
        for position in items.indices {
            guard case .object(let line) = items[position] else { continue }
            var compact = line
            for key in ["text", "confidence", "box"] { compact.removeValue(forKey: key) }
            if let expanded = expandLine(compact, lines), expanded == line { items[position] = .object(compact) }
        }
        receipt["lines"] = .array(items)
        output["receipt"] = .object(receipt)
        value = .object(output)
        return value.serialized()
    }

    /// The stored `receipt` JSON with each line's text, confidence and box put back (for a later process).
    public static func expandReceipt(_ json: String, lines: [OCRLine]) throws -> String {
        var value = try JSONValue(parsing: json)
        guard case .object(var output) = value, case .object(var receipt)? = output["receipt"],
            case .array(var items)? = receipt["lines"]
        else { return json }
        for position in items.indices {
            guard case .object(let line) = items[position], line["text"] == nil else { continue }
            guard let expanded = expandLine(line, lines) else {
                throw LarderError(
                    .transient, "the stored receipt output refers to a line the document's text does not have",
                    hint: "the checkpoint database was changed outside Larder (or this is a bug to report): ingest the file into a new database",
                    stage: "receipt")
            }
            items[position] = .object(expanded)
        }
        receipt["lines"] = .array(items)
        output["receipt"] = .object(receipt)
        value = .object(output)
        return value.serialized()
    }

    /// A receipt line with what it lacks of its source line's text, confidence (0–100) and box (when it has one),
    /// as ``Receipt`` writes them.
    private static func expandLine(_ line: JSONObject, _ lines: [OCRLine]) -> JSONObject? {
        guard let number = line["number"]?.intValue, number >= 1, number <= lines.count else { return nil }
        let source = lines[number - 1]
        var line = line
        if line["text"] == nil { line["text"] = .string(source.text) }
        if line["confidence"] == nil { line["confidence"] = .double(min(max(source.confidence, 0), 100)) }
        if line["box"] == nil, source.box.width > 0 {
            line["box"] = [
                "x": .int(source.box.x), "y": .int(source.box.y), "width": .int(source.box.width),
                "height": .int(source.box.height),
            ]
        }
        return line
    }
}
