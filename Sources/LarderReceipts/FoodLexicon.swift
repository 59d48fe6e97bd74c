import Foundation

/// A food lexicon: lower-case terms (1–4 words) mapped to a base ingredient and a category.
///
/// The bundled one (`Resources/lexicon.tsv`, ~4,800 terms, ~310 KB) is derived from the Open Food Facts
/// ingredients taxonomy (ODbL: attribution and share-alike, see `LEXICON-LICENSE.md`), USDA FoodData
/// Central (public domain) and a curated list, by `scripts/data/build-lexicon.py`. A value type: `Sendable`.
public struct FoodLexicon: Sendable {
    /// One term.
    public struct Entry: Sendable, Equatable, Codable {
        /// The term, lower case (`"baby spinach"`).
        public var term: String
        /// The base ingredient it names (`"spinach"`).
        public var base: String
        /// A coarse category (`"vegetable"`, `"dairy and egg products"`).
        public var category: String
        /// Where it came from: `"off:en:baby-spinach"`, `"fdc:168462"`, `"curated"`, `"form:cumin seeds"`.
        public var source: String
        /// The same food in another form, when the term names a form of a seasoning (`"cumin seeds"` → `"cumin"`,
        /// `"coriander leaves"` → `"coriander"`), else `nil`.
        public var parent: String?
        /// Open Food Facts' flag (`"yes"`, `"no"`, `"maybe"`), inherited from the nearest ancestor; `nil` when
        /// Open Food Facts says nothing.
        public var vegan: String?
        /// Open Food Facts' vegetarian flag, like ``vegan``.
        public var vegetarian: String?

        /// Creates an entry.
        public init(term: String, base: String, category: String, source: String, parent: String? = nil,
                    vegan: String? = nil, vegetarian: String? = nil) {
            self.term = term
            self.base = base
            self.category = category
            self.source = source
            self.parent = parent
            self.vegan = vegan
            self.vegetarian = vegetarian
        }
    }

    /// Entries by term.
    public private(set) var entries: [String: Entry]
    /// Single-word terms grouped by length, for fuzzy matching.
    private var singleWordsByLength: [Int: [String]]

    /// Builds a lexicon from entries (later duplicates replace earlier ones).
    public init(entries: [Entry]) {
        var map: [String: Entry] = [:]
        map.reserveCapacity(entries.count)
        for e in entries { map[e.term] = e }
        self.entries = map
        var byLength: [Int: [String]] = [:]
        // The space looked for on bytes in ASCII terms (Foundation's search took a third of loading the lexicon).
        for term in map.keys where !(term.utf8.allSatisfy { $0 < 0x80 } ? term.utf8.contains(0x20) : term.contains(" ")) {
            byLength[term.count, default: []].append(term)
        }
        self.singleWordsByLength = byLength
    }

    /// Parses the TSV format (`term<TAB>base<TAB>category<TAB>source[<TAB>parent<TAB>vegan<TAB>vegetarian]`,
    /// `#` comments; empty optional columns are `nil`).
    public init(tsv: String) {
        // Split as bytes: splitting the 310 KB file by `Character` (grapheme clusters) took about 20 ms, a large part
        // of `larder cook` and of `larder search --ingredient`. Tabs, newlines and `#` are ASCII, so UTF-8 splits
        // cleanly at them.
        // One pass over the bytes with the fields' ranges kept in one reused array (the generic `split` per line
        // was most of loading the lexicon once per worker process: 47 M of 77 M instructions, 2026-11-24).
        var text = tsv
        let list = text.withUTF8 { Self.entries(tsv: $0) }
        self.init(entries: list)
    }

    /// The entries of a TSV text: non-empty lines not opening with "#", split at tabs (empty fields kept), with at
    /// least four fields.
    static func entries(tsv bytes: UnsafeBufferPointer<UInt8>) -> [Entry] {
        var list: [Entry] = []
        var fields: [Range<Int>] = []
        fields.reserveCapacity(8)
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != 0x0A { lineEnd += 1 }
            defer { lineStart = lineEnd + 1 }
            guard lineEnd > lineStart, bytes[lineStart] != UInt8(ascii: "#") else { continue }
            fields.removeAll(keepingCapacity: true)
            var fieldStart = lineStart
            for k in lineStart..<lineEnd where bytes[k] == 0x09 {
                fields.append(fieldStart..<k)
                fieldStart = k + 1
            }
            fields.append(fieldStart..<lineEnd)
            guard fields.count >= 4 else { continue }
            func field(_ k: Int) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[fields[k]]), as: UTF8.self) }
            func optional(_ k: Int) -> String? { k < fields.count && !fields[k].isEmpty ? field(k) : nil }
            list.append(Entry(term: field(0), base: field(1), category: field(2), source: field(3),
                              parent: optional(4), vegan: optional(5), vegetarian: optional(6)))
        }
        return list
    }

    /// The lexicon bundled with the package, loaded once.
    /// - Throws: ``ReceiptError`` `.lexiconUnavailable` when the resource is missing.
    public static func bundled() throws -> FoodLexicon {
        if let cached = bundledLexicon { return cached }
        throw ReceiptError(.lexiconUnavailable, path: "lexicon.tsv", message: "the bundled lexicon resource is missing or empty",
                           hint: "Rebuild it with scripts/data/build-lexicon.py and check Package.swift declares the resource.")
    }

    private static let bundledLexicon: FoodLexicon? = {
        guard let url = Bundle.module.url(forResource: "lexicon", withExtension: "tsv"),
              let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        let lexicon = FoodLexicon(tsv: text)
        return lexicon.entries.isEmpty ? nil : lexicon
    }()

    /// The entry for `term` (lower case), trying simple singular/plural variants.
    public func lookup(_ term: String) -> Entry? {
        if let e = entries[term] { return e }
        for variant in Self.variants(term) { if let e = entries[variant] { return e } }
        return nil
    }

    static func variants(_ term: String) -> [String] {
        var out: [String] = []
        if term.hasSuffix("ies") { out.append(String(term.dropLast(3)) + "y") }
        if term.hasSuffix("oes") || term.hasSuffix("ches") || term.hasSuffix("shes") || term.hasSuffix("sses") {
            out.append(String(term.dropLast(2)))
        }
        if term.hasSuffix("s") && !term.hasSuffix("ss") { out.append(String(term.dropLast())) }
        out.append(term + "s")
        return out
    }

    /// The closest single-word term a misspelt or OCR-garbled `word` stands for, with the number of letters
    /// inserted or deleted to get there; `nil` when none is close enough.
    ///
    /// Only slips that keep the word recognisable count, since the neighbours of a real word are mostly other real
    /// words: "soda" is one letter from "soya", "paste" from "pasta", "fillet" from "millet". So:
    /// - words under 5 letters are never corrected (one edit changes a quarter of them);
    /// - letters may be inserted or deleted, not replaced by others (a replaced letter makes another word), and
    ///   doubled letters count once ("brocolli", "mayonaise"): at most 1 such edit in a word of 5–8 letters, 2 from
    ///   9 letters; the first letter must be kept;
    /// - or the term (5 letters or more) is the word with at most 3 letters glued to its start or end, as OCR glues
    ///   neighbouring marks and units on ("lssalmon", "ozcoffee", "lemonadeoz").
    /// Ties go to the alphabetically first term.
    public func fuzzySingleWord(_ word: String) -> (term: String, distance: Int)? {
        let chars = Array(word)
        guard chars.count >= 5 else { return nil }
        let budget = chars.count >= 9 ? 2 : 1
        let collapsed = Self.singleLetters(chars)
        var best: (String, Int)?
        for length in max(5, chars.count - 3)...(chars.count + budget + 1) {
            for candidate in singleWordsByLength[length] ?? [] {
                let distance: Int
                if length < chars.count && (word.hasPrefix(candidate) || word.hasSuffix(candidate)) {
                    distance = chars.count - length
                } else {
                    guard candidate.first == chars.first else { continue }
                    let d = EditDistance.insertionsAndDeletions(collapsed, Self.singleLetters(Array(candidate)))
                    guard d <= budget else { continue }
                    distance = max(1, d)
                }
                if let current = best, distance > current.1 || (distance == current.1 && candidate >= current.0) { continue }
                best = (candidate, distance)
            }
        }
        return best
    }

    /// The letters with every run of one letter written once ("broccoli" → "brocoli").
    static func singleLetters(_ chars: [Character]) -> [Character] {
        var out: [Character] = []
        out.reserveCapacity(chars.count)
        for c in chars where c != out.last { out.append(c) }
        return out
    }
}
