import Foundation
import LarderCore
import LarderJSON

/// A document's lines keyed `L1`…`Ln` (1-based, blank lines keep their number but are not sent).
public struct KeyedLines: Sendable, Hashable {
    /// The lines, in order; key `L(i+1)` is `lines[i]`.
    public let lines: [String]

    /// Keys `lines`.
    public init(_ lines: [String]) { self.lines = lines }

    /// Splits `text` into lines and keys them.
    public init(text: String) {
        self.lines = text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
    }

    /// The key of line index `i` (0-based): `L\(i + 1)`.
    public static func key(_ index: Int) -> String { "L\(index + 1)" }

    /// The 1-based line number a key names (`L12` → 12), or nil if it is not a line key.
    public static func number(of key: String) -> Int? {
        guard key.hasPrefix("L"), let n = Int(key.dropFirst()), n >= 1 else { return nil }
        return n
    }

    /// The text of the line with this key, or nil if there is no such line.
    public subscript(key: String) -> String? {
        guard let n = Self.number(of: key), n <= lines.count else { return nil }
        return lines[n - 1]
    }

    /// `L1<TAB>text` per non-blank line, as sent to the model.
    public var rendered: String {
        lines.indices.filter { !lines[$0].trimmingCharacters(in: .whitespaces).isEmpty }
            .map { "\(Self.key($0))\t\(lines[$0])" }.joined(separator: "\n")
    }

    /// The text the cache key is computed from.
    public var cacheText: String { lines.joined(separator: "\n") }
}

/// An item the model returned that could not be mapped back to the input, so it was left out.
public struct RejectedItem: Sendable, Hashable, CustomStringConvertible {
    /// Where it was in the model's answer, e.g. `/ingredients/3`.
    public var path: String
    /// The line key(s) it cited.
    public var cited: [String]
    /// Why it was rejected.
    public var reason: String
    /// The item as the model returned it.
    public var item: JSONValue

    public var description: String { "\(path) (cites \(cited.joined(separator: ","))): \(reason)" }
}

/// How items of one array in a model's answer map back to input lines.
public struct GroundingRule: Sendable, Hashable {
    /// The array's key at the root of the answer (`ingredients`).
    public var array: String
    /// The key holding one line key (`line`), or nil if ``linesKey`` is used.
    public var lineKey: String?
    /// The key holding an array of line keys (`lines`).
    public var linesKey: String?
    /// Keys whose text must plausibly come from the cited line(s); the first present non-empty one is checked.
    public var textKeys: [String]
    /// A key holding a number that must be printed on the cited line (`price`), if any.
    public var numberKey: String?

    /// Makes a rule.
    public init(array: String, lineKey: String? = nil, linesKey: String? = nil, textKeys: [String], numberKey: String? = nil) {
        self.array = array
        self.lineKey = lineKey
        self.linesKey = linesKey
        self.textKeys = textKeys
        self.numberKey = numberKey
    }

    /// The rules for a prompt id: `recipe` (ingredients by `line`/`name`, steps by `lines`/`text`) and
    /// `receipt` (items by `line`/`description`, `price` printed on the line). Unknown ids have none.
    public static func rules(for promptID: String) -> [GroundingRule] {
        switch promptID {
        case "recipe":
            [
                GroundingRule(array: "ingredients", lineKey: "line", textKeys: ["name", "text"]),
                GroundingRule(array: "steps", linesKey: "lines", textKeys: ["text"]),
            ]
        case "receipt": [GroundingRule(array: "items", lineKey: "line", textKeys: ["description"], numberKey: "price")]
        default: []
        }
    }
}

/// Checks that every item a model returned maps back to a line of the input, and drops those that do not.
///
/// An item is kept when each line key it cites exists and is not blank, and at least half of the words
/// (3+ letters, or numbers) of its checked text occur in the cited lines (a word matches on its first four
/// letters too, so `tomatoes` matches `tomato`). A number to check (a receipt price) must be printed on the
/// cited line. Items are never invented or repaired: a failing item is removed and reported.
public enum Grounding {
    /// The answer with ungrounded items removed, and the removed items.
    public static func check(_ output: JSONValue, lines: KeyedLines, rules: [GroundingRule]) -> (JSONValue, [RejectedItem]) {
        guard var root = output.objectValue else { return (output, []) }
        var rejected: [RejectedItem] = []
        for rule in rules {
            guard let items = root[rule.array]?.arrayValue else { continue }
            var kept: [JSONValue] = []
            for (index, item) in items.enumerated() {
                if let reason = problem(item, rule: rule, lines: lines) {
                    rejected.append(
                        RejectedItem(path: "/\(rule.array)/\(index)", cited: cited(item, rule), reason: reason, item: item))
                } else {
                    kept.append(item)
                }
            }
            root[rule.array] = .array(kept)
        }
        return (.object(root), rejected)
    }

    static func cited(_ item: JSONValue, _ rule: GroundingRule) -> [String] {
        if let key = rule.lineKey { return item[key]?.stringValue.map { [$0] } ?? [] }
        if let key = rule.linesKey { return item[key]?.arrayValue?.compactMap(\.stringValue) ?? [] }
        return []
    }

    static func problem(_ item: JSONValue, rule: GroundingRule, lines: KeyedLines) -> String? {
        let keys = cited(item, rule)
        guard !keys.isEmpty else { return "cites no input line" }
        var texts: [String] = []
        for key in keys {
            guard let text = lines[key] else { return "cites \(key), which is not a line of the input" }
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return "cites \(key), which is blank" }
            texts.append(text)
        }
        let source = texts.joined(separator: " ")
        if let claimed = rule.textKeys.lazy.compactMap({ item[$0]?.stringValue }).first(where: { !$0.isEmpty }),
            !plausible(claimed, in: source)
        {
            return "'\(claimed)' does not appear on \(keys.joined(separator: ","))"
        }
        if let key = rule.numberKey, let number = item[key]?.doubleValue {
            let printed = numbers(in: source)
            guard printed.contains(where: { abs($0 - number) < 0.005 }) else {
                return "\(key) \(number) is not printed on \(keys.joined(separator: ","))"
            }
        }
        return nil
    }

    /// Words of 3+ letters, and numbers, lowercased.
    static func words(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
            .filter { $0.count >= 3 || $0.allSatisfy(\.isNumber) }
    }

    /// Whether at least half of `claimed`'s words occur in `source`.
    static func plausible(_ claimed: String, in source: String) -> Bool {
        let claimedWords = words(claimed)
        let lower = source.lowercased()
        guard !claimedWords.isEmpty else {
            return lower.contains(claimed.lowercased().trimmingCharacters(in: .whitespaces))
        }
        let sourceWords = words(source)
        let hits = claimedWords.filter { word in
            lower.contains(word) || sourceWords.contains { $0.count >= 4 && word.count >= 4 && $0.prefix(4) == word.prefix(4) }
        }.count
        return hits * 2 >= claimedWords.count && hits > 0
    }

    /// Numbers printed in `text` (`1.29`, `1,29`, `12`).
    static func numbers(in text: String) -> [Double] {
        var result: [Double] = []
        var current = ""
        func flush() {
            let normalised = current.replacingOccurrences(of: ",", with: ".")
            if let value = Double(normalised.trimmingCharacters(in: CharacterSet(charactersIn: "."))) { result.append(value) }
            current = ""
        }
        for ch in text {
            if ch.isNumber || ((ch == "." || ch == ",") && !current.isEmpty) { current.append(ch) } else if !current.isEmpty { flush() }
        }
        if !current.isEmpty { flush() }
        return result
    }
}

/// Where a field of the merged output came from.
public struct FieldSource: Sendable, Hashable, CustomStringConvertible {
    /// `deterministic` or `llm`.
    public var origin: String
    /// The chain entry, for `llm`.
    public var provider: String?
    /// The model, for `llm`.
    public var model: String?

    /// The deterministic parsers.
    public static let deterministic = FieldSource(origin: "deterministic", provider: nil, model: nil)
    /// A model.
    public static func llm(provider: String, model: String) -> FieldSource {
        FieldSource(origin: "llm", provider: provider, model: model)
    }

    public var description: String {
        origin == "llm" ? "llm:\(provider ?? "?")/\(model ?? "?")" : origin
    }
}

/// Merges the LLM's answer with the deterministic parse field by field (top-level keys).
public enum FieldMerger {
    /// Whether a value counts as present (not null, not an empty string, array or object).
    static func present(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?: false
        case .string(let s)?: !s.trimmingCharacters(in: .whitespaces).isEmpty
        case .array(let a)?: !a.isEmpty
        case .object(let o)?: !o.isEmpty
        default: true
        }
    }

    /// The merged object and each field's source.
    ///
    /// - Parameters:
    ///   - deterministic: the deterministic parse in the same shape (nil if there is none).
    ///   - llm: the grounded LLM answer.
    ///   - source: who produced `llm`.
    ///   - preferLLM: in ``LLMMode/always`` the LLM's present values win; in ``LLMMode/fallback`` the
    ///     deterministic parse's present values win and the LLM fills the gaps.
    public static func merge(deterministic: JSONValue?, llm: JSONValue, source: FieldSource, preferLLM: Bool)
        -> (JSONValue, [String: FieldSource])
    {
        guard let model = llm.objectValue else { return (llm, [:]) }
        let parsed = deterministic?.objectValue ?? JSONObject()
        var merged = JSONObject()
        var provenance: [String: FieldSource] = [:]
        var keys = model.keys
        keys += parsed.keys.filter { model[$0] == nil }
        for key in keys {
            let fromModel = model[key]
            let fromParser = parsed[key]
            let useModel: Bool =
                if preferLLM { present(fromModel) || !present(fromParser) } else { !present(fromParser) && fromModel != nil }
            if useModel, let value = fromModel {
                merged[key] = value
                provenance[key] = source
            } else if let value = fromParser {
                merged[key] = value
                provenance[key] = .deterministic
            }
        }
        return (.object(merged), provenance)
    }
}

/// Extracts the JSON object from a model's text: strips Markdown code fences and any prose around the object.
public enum OutputParser {
    /// The JSON text inside `text`.
    public static func stripFences(_ text: String) -> String {
        var body = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let open = body.range(of: "```") {
            var rest = body[open.upperBound...]
            if let newline = rest.firstIndex(of: "\n") { rest = rest[rest.index(after: newline)...] }  // ```json
            if let close = rest.range(of: "```") { rest = rest[..<close.lowerBound] }
            body = String(rest).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if !body.hasPrefix("{"), let first = body.firstIndex(of: "{"), let last = body.lastIndex(of: "}"), first < last {
            body = String(body[first...last])
        }
        return body
    }

    /// Why a model's text is not JSON.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        /// The parser's message.
        public let description: String
    }

    /// Parses the model's text as JSON (after ``stripFences(_:)``).
    public static func parse(_ text: String) -> Result<JSONValue, ParseError> {
        let body = stripFences(text)
        do { return .success(try JSONValue(parsing: body)) } catch { return .failure(ParseError(description: "\(error)")) }
    }
}
