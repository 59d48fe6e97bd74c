import Foundation

/// Finds the ingredients a step mentions: an ingredient matches when its full name or its head noun
/// ("onion" for "1 large onion, finely chopped") occurs in the step as whole words, singular or plural.
/// When several ingredients share a head noun ("caster sugar", "granulated sugar") and one of them is named in
/// full in the step, only the fully named one is listed.
struct IngredientMatcher: Sendable {
    struct Key: Sendable {
        var group: Int
        var index: Int
        var name: String
        /// The full names' words (the name and each alternative), as UTF-8 bytes: a step's words are compared
        /// with them on bytes (``StepWords``).
        var phrases: [[[UInt8]]]
        var heads: [String]
        /// `heads` as UTF-8 bytes, in the same order.
        var headBytes: [[UInt8]]
        /// "zest", "juice" or "rind" when the line names that part of the ingredient ("juice of 2 lemons").
        var qualifier: String?
    }

    let keys: [Key]
    /// For a long list: the keys each word can start a match for (a phrase's first word, a head), in list order, so
    /// a step looks only at the keys that share a word with it instead of at every key (a 15 MB page of 300,000
    /// ingredient lines and steps made that steps × ingredients). Nil for lists of ``scanAll`` keys or fewer.
    let byWord: [[UInt8]: [Int]]?
    /// Lists this long or shorter are scanned whole (as before the index: the same result, no index to build).
    static let scanAll = 64
    /// At most this many ingredients are referred to by one step (the first, in list order): a real step uses a
    /// handful; a hostile document's "stir the flour" would refer to each of thousands of flour lines.
    static let maxRefsPerStep = 32

    static let generic: Set<String> = [
        "leaf", "sprig", "stalk", "piece", "slice", "chunk", "bunch", "cube", "floret", "half", "wedge", "fillet",
        "strip", "head", "stick", "sheet", "ball", "round", "portion", "can", "tin", "jar", "packet", "bag",
    ]
    static let stop: Set<String> = [
        "to", "taste", "of", "and", "or", "the", "for", "a", "an", "extra", "fresh", "large", "small", "medium",
        "whole", "more", "some", "any", "your", "favorite", "favourite", "optional", "about", "plus", "other", "mixed",
        "good", "quality", "little", "few", "serve", "serving", "garnish", "s",
    ]

    init(groups: [IngredientGroup]) {
        var keys: [Key] = []
        for (g, group) in groups.enumerated() {
            for (i, ing) in group.ingredients.enumerated() {
                var name = ing.name.lowercased()
                if let p = IngredientMatcher.openingParenthesis(name) { name = String(name[..<p]) }
                let base = name.trimmingWhitespace()
                guard !base.isEmpty else { continue }
                var phrases: [[String]] = []
                var heads: [String] = []
                let candidates = [base] + ing.alternatives.map { $0.lowercased() }
                for c in candidates {
                    let words = IngredientMatcher.words(c)
                    if !words.isEmpty { phrases.append(words) }
                    // Parts of "salt and pepper", "butter or margarine", "lemon, lime".
                    let parts = IngredientMatcher.parts(c)
                    for part in parts {
                        var w = IngredientMatcher.words(String(part))
                        if let of = w.firstIndex(of: "of"), of > 0 { heads.append(w[of - 1]); w = Array(w[(of + 1)...]) }
                        w = w.filter { !IngredientMatcher.stop.contains($0) }
                        guard let last = w.last else { continue }
                        if w.count > 1 && IngredientMatcher.generic.contains(last) {
                            heads.append(w[w.count - 2])
                        } else {
                            heads.append(last)
                        }
                    }
                }
                heads = heads.filter { $0.count >= 3 && !IngredientMatcher.stop.contains($0) }
                let qualifier = IngredientMatcher.qualifier(of: ing.text)
                let sortedHeads = Array(Set(heads)).sorted()
                keys.append(Key(
                    group: g, index: i, name: ing.name, phrases: phrases.map { $0.map { Array($0.utf8) } },
                    heads: sortedHeads, headBytes: sortedHeads.map { Array($0.utf8) }, qualifier: qualifier))
            }
        }
        self.keys = keys
        guard keys.count > Self.scanAll else {
            byWord = nil
            return
        }
        var index: [[UInt8]: [Int]] = [:]
        for k in keys.indices {
            for word in Set(keys[k].phrases.compactMap(\.first) + keys[k].headBytes) { index[word, default: []].append(k) }
        }
        byWord = index
    }

    /// The keys that may match a step of `hay`'s words, in list order: every key, or those sharing a word with it.
    func candidates(_ hay: StepWords) -> [Int] {
        guard let byWord else { return Array(keys.indices) }
        var found = Set<Int>()
        for word in hay.words { if let ks = byWord[word] { found.formUnion(ks) } }
        return found.sorted()
    }

    static let qualifiers = ["zest", "juice", "rind"]
    static let qualifierBytes = qualifiers.map { Array($0.utf8) }

    /// The first of ``qualifiers`` among the line's words. Most lines name none: a byte test (ASCII case folded;
    /// "maybe" for characters that fold to ASCII letters) skips making the line's words then.
    static func qualifier(of text: String) -> String? {
        guard Prefilter.mayContain(text, anyOf: qualifierBytes) else { return nil }
        let textWords = words(text)
        return qualifiers.first { textWords.contains($0) }
    }

    /// The parts of a name joined by " and ", " or ", "&", "/" or ",": each separator replaced by a comma in
    /// that order (as `replacingOccurrences` did, byte by byte), then split at commas.
    static func parts(_ name: String) -> [Substring] {
        var bytes = Array(name.utf8)
        // Most names hold no separator but the comma: split them as they are.
        if !separators.contains(where: { holds(bytes, $0) }) { return commaParts(name, bytes) }
        for separator in [" and ", " or ", "&", "/"] {
            let sep = Array(separator.utf8)
            guard bytes.count >= sep.count else { continue }
            // Most names hold no separator: no copy then.
            guard IngredientMatcher.holds(bytes, sep) else { continue }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var i = 0
            while i < bytes.count {
                if i + sep.count <= bytes.count, bytes[i] == sep[0], bytes[i..<(i + sep.count)].elementsEqual(sep) {
                    out.append(0x2C)
                    i += sep.count
                } else {
                    out.append(bytes[i])
                    i += 1
                }
            }
            bytes = out
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: ",")
    }

    static let separators: [[UInt8]] = [" and ", " or ", "&", "/"].map { Array($0.utf8) }

    /// `name.split(separator: ",")`. An ASCII name is split at its comma bytes: its only multi-byte `Character`
    /// is "\r\n", so its commas are its "," `Character`s (splitting by `Character` walked the graphemes).
    static func commaParts(_ name: String, _ bytes: [UInt8]) -> [Substring] {
        guard !bytes.contains(where: { $0 >= 0x80 }) else { return name.split(separator: ",") }
        return name.utf8.split(separator: 0x2C).map { Substring($0) }
    }

    /// Whether `bytes` holds `needle` (non-empty) as a run.
    static func holds(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        for i in 0...(bytes.count - needle.count) where bytes[i] == needle[0] {
            var k = 1
            while k < needle.count, bytes[i + k] == needle[k] { k += 1 }
            if k == needle.count { return true }
        }
        return false
    }

    /// `name.firstIndex(of: "(")`: the first "(" byte when it is a `Character` of its own (ASCII bytes or the ends
    /// around it: only non-ASCII characters join one, a combining mark after or a prepended mark before), else the
    /// `Character` search. No `Character` "(" can come before the first "(" byte.
    static func openingParenthesis(_ name: String) -> String.Index? {
        let utf8 = name.utf8
        guard let p = utf8.firstIndex(of: UInt8(ascii: "(")) else { return nil }
        let next = utf8.index(after: p)
        let alone = (next == utf8.endIndex || utf8[next] < 0x80)
            && (p == utf8.startIndex || utf8[utf8.index(before: p)] < 0x80)
        return alone ? p : name.firstIndex(of: "(")
    }

    /// ``singular(_:)`` of a word of ``asciiWords(_:)`` (ASCII letters and hyphens, two-byte Latin-1 letters), on
    /// its bytes: the suffixes are ASCII, so they end the bytes as they end the `Character`s, and a word has as
    /// many `Character`s as bytes that are not continuation bytes.
    static func singular(_ w: ArraySlice<UInt8>) -> String {
        let edit = singularEdit(w)
        var bytes = Array(w.dropLast(edit.dropping))
        if let tail = edit.adding { bytes.append(tail) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``singular(_:)`` of a word's bytes as an edit: drop the last `dropping` bytes, then append `adding`.
    static func singularEdit(_ w: ArraySlice<UInt8>) -> (dropping: Int, adding: UInt8?) {
        var count = 0
        for b in w where b < 0x80 || b >= 0xC0 { count += 1 }
        if count <= 3 { return (0, nil) }
        func ends(_ suffix: StaticString) -> Bool {
            let n = suffix.utf8CodeUnitCount
            guard w.count >= n else { return false }
            let start = w.endIndex - n
            for k in 0..<n where w[start + k] != suffix.utf8Start[k] { return false }
            return true
        }
        // Every word of four or more characters that changes ends in "s": one test for the others.
        guard w.last == UInt8(ascii: "s") else { return (0, nil) }
        if ends("ies") { return (3, UInt8(ascii: "y")) }
        if ends("oes") || ends("ches") || ends("shes") || ends("sses") || ends("xes") { return (2, nil) }
        if ends("ves") && count > 4 { return (3, UInt8(ascii: "f")) }
        if !ends("ss") && !ends("us") { return (1, nil) }
        return (0, nil)
    }

    static func singular(_ w: String) -> String {
        if w.count <= 3 { return w }
        if w.hasSuffix("ies") { return String(w.dropLast(3)) + "y" }
        if w.hasSuffix("oes") || w.hasSuffix("ches") || w.hasSuffix("shes") || w.hasSuffix("sses") || w.hasSuffix("xes") {
            return String(w.dropLast(2))
        }
        if w.hasSuffix("ves") && w.count > 4 { return String(w.dropLast(3)) + "f" }
        if w.hasSuffix("s") && !w.hasSuffix("ss") && !w.hasSuffix("us") { return String(w.dropLast()) }
        return w
    }

    static func words(_ s: String) -> [String] {
        var s = s
        return s.withUTF8({ asciiWords($0) }) ?? unicodeWords(s)
    }

    /// ``words(_:)`` for any text, by Characters.
    static func unicodeWords(_ s: String) -> [String] {
        // Trimming hyphens by hand: a CharacterSet made per word dominated a profile of saved pages.
        s.lowercased().split(whereSeparator: { !($0.isLetter || $0 == "-") }).map { w -> String in
            var t = w
            while t.first == "-" { t = t.dropFirst() }
            while t.last == "-" { t = t.dropLast() }
            return singular(String(t))
        }.filter { !$0.isEmpty }
    }

    /// ``words(_:)`` byte by byte (the same words: letters and hyphens, lower case, hyphens trimmed, singular) for
    /// text of ASCII and the characters ``CharacterClass`` models (each one `Character`; the letters among them
    /// are Latin-1's and ª µ º, lower case À–Þ to à–þ; the rest, "°" or "½", separate words as other marks do);
    /// `nil` for any other text.
    static func asciiWords(_ b: UnsafeBufferPointer<UInt8>) -> [String]? {
        StepWords(ascii: b)?.strings
    }

    /// The ingredients `text` mentions, in ingredient-list order.
    func match(_ text: String) -> [StepIngredientRef] {
        // The step's words as ranges of one buffer: a `String` per word was half of the matching (issue 18).
        let hay = StepWords(text)
        // A step has a few dozen words: looking through them costs less than hashing them into a set.
        let haySet = hay
        var full: [Int] = []
        var headOnly: [Int] = []
        // By index: a copy of each key (its name and arrays retained and released) cost as much as the tests.
        for k in candidates(hay) {
            if keys[k].phrases.contains(where: { hay.contains(phrase: $0) }) {
                full.append(k)
            } else if keys[k].headBytes.contains(where: { haySet.contains($0) }) {
                headOnly.append(k)
            }
        }
        let fullHeads = Set(full.flatMap { keys[$0].heads })
        var kept = full + headOnly.filter { k in !keys[k].heads.contains(where: { fullHeads.contains($0) }) }
        // "lemon zest" uses the zest line, not the "juice of 2 lemons" line.
        kept = kept.filter { k in
            guard let q = keys[k].qualifier, !haySet.contains(q) else { return true }
            return !kept.contains { o in o != k && keys[o].qualifier.map { haySet.contains($0) } == true
                && !Set(keys[o].heads).isDisjoint(with: keys[k].heads) }
        }
        return kept.sorted().prefix(Self.maxRefsPerStep).map {
            StepIngredientRef(group: keys[$0].group, index: keys[$0].index, name: keys[$0].name)
        }
    }
}

extension IngredientMatcher {
    /// A text's ``IngredientMatcher/words(_:)`` as ranges of one byte buffer: each word lower case, hyphens
    /// trimmed, singular, without a `String` (or an array) per word. A step's words are only compared with the
    /// keys' words, so their bytes are all the matcher needs.
    struct StepWords {
        /// The words' bytes; bytes between the ranges (trimmed hyphens, dropped plural endings) are unused.
        private(set) var bytes: [UInt8] = []
        private(set) var ranges: [Range<Int>] = []

        /// The words of any text: on its bytes when ``init(ascii:)`` models it, else by `Character`s.
        init(_ text: String) {
            var text = text
            if let words = text.withUTF8({ StepWords(ascii: $0) }) {
                self = words
            } else {
                for word in IngredientMatcher.unicodeWords(text) {
                    bytes.append(contentsOf: word.utf8)
                    ranges.append((bytes.count - word.utf8.count)..<bytes.count)
                }
            }
        }

        /// The words of text of ASCII and the characters ``CharacterClass`` models, byte by byte (see
        /// ``IngredientMatcher/asciiWords(_:)``); `nil` for any other text.
        init?(ascii b: UnsafeBufferPointer<UInt8>) {
            if b.contains(where: { $0 >= 0x80 }) && !CharacterClass.modelsAll(b) { return nil }
            bytes.reserveCapacity(b.count)
            var start = 0  // where the current word's bytes begin
            var i = 0
            while i < b.count {
                let c = b[i]
                i += 1
                if c >= 0x80 {
                    let c1 = b[i]
                    i += c >= 0xE0 ? 2 : 1
                    if c == 0xC3 && c1 != 0x97 && c1 != 0xB7 {
                        bytes.append(c)
                        bytes.append(c1 <= 0x9E ? c1 + 0x20 : c1)
                    } else if c == 0xC2 && (c1 == 0xAA || c1 == 0xB5 || c1 == 0xBA) {
                        bytes.append(c)
                        bytes.append(c1)
                    } else if bytes.count > start {
                        endWord(from: &start)
                    }
                    continue
                }
                let l = c >= 0x41 && c <= 0x5A ? c | 0x20 : c
                if (l >= 0x61 && l <= 0x7A) || l == 0x2D {
                    bytes.append(l)
                } else if bytes.count > start {
                    endWord(from: &start)
                }
            }
            if bytes.count > start { endWord(from: &start) }
        }

        /// Ends the word whose bytes run from `start`: hyphens trimmed, made singular in place (an ending
        /// dropped, its replacement written over the dropped bytes), its range kept when it is not empty.
        private mutating func endWord(from start: inout Int) {
            var lo = start, hi = bytes.count
            while lo < hi, bytes[lo] == 0x2D { lo += 1 }
            while hi > lo, bytes[hi - 1] == 0x2D { hi -= 1 }
            if lo < hi {
                let edit = IngredientMatcher.singularEdit(bytes[lo..<hi])
                hi -= edit.dropping
                if let tail = edit.adding {
                    bytes[hi] = tail
                    hi += 1
                }
                ranges.append(lo..<hi)
            }
            start = bytes.count
        }

        /// The words' bytes, one array each.
        var words: [[UInt8]] { ranges.map { Array(bytes[$0]) } }

        /// The words as `String`s.
        var strings: [String] { ranges.map { String(decoding: bytes[$0], as: UTF8.self) } }

        /// Whether word `i` is `word`'s bytes.
        func word(_ i: Int, is word: [UInt8]) -> Bool {
            let r = ranges[i]
            guard r.count == word.count else { return false }
            var k = 0
            while k < word.count, bytes[r.lowerBound + k] == word[k] { k += 1 }
            return k == word.count
        }

        /// Whether one of the words is `word`.
        func contains(_ word: [UInt8]) -> Bool {
            ranges.indices.contains { self.word($0, is: word) }
        }

        func contains(_ word: String) -> Bool { contains(Array(word.utf8)) }

        /// Whether the words hold `phrase` (non-empty) as a run.
        func contains(phrase: [[UInt8]]) -> Bool {
            guard !phrase.isEmpty, phrase.count <= ranges.count else { return false }
            for start in 0...(ranges.count - phrase.count) where word(start, is: phrase[0]) {
                var k = 1
                while k < phrase.count, word(start + k, is: phrase[k]) { k += 1 }
                if k == phrase.count { return true }
            }
            return false
        }
    }
}
