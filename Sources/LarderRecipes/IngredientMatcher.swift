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
        var phrases: [[String]]
        var heads: [String]
        /// "zest", "juice" or "rind" when the line names that part of the ingredient ("juice of 2 lemons").
        var qualifier: String?
    }

    let keys: [Key]

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
                let textWords = IngredientMatcher.words(ing.text)
                let qualifier = ["zest", "juice", "rind"].first { textWords.contains($0) }
                keys.append(Key(group: g, index: i, name: ing.name, phrases: phrases, heads: Array(Set(heads)).sorted(), qualifier: qualifier))
            }
        }
        self.keys = keys
    }

    /// The parts of a name joined by " and ", " or ", "&", "/" or ",": each separator replaced by a comma in
    /// that order (as `replacingOccurrences` did, byte by byte), then split at commas.
    static func parts(_ name: String) -> [Substring] {
        var bytes = Array(name.utf8)
        // Most names hold no separator but the comma: split them as they are.
        if !separators.contains(where: { holds(bytes, $0) }) { return name.split(separator: ",") }
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

    /// Whether `bytes` holds `needle` (non-empty) as a run.
    static func holds(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        for i in 0...(bytes.count - needle.count) where bytes[i] == needle[0] {
            if bytes[i..<(i + needle.count)].elementsEqual(needle) { return true }
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
        var count = 0
        for b in w where b < 0x80 || b >= 0xC0 { count += 1 }
        func ends(_ suffix: StaticString) -> Bool {
            let n = suffix.utf8CodeUnitCount
            guard w.count >= n else { return false }
            let start = w.endIndex - n
            for k in 0..<n where w[start + k] != suffix.utf8Start[k] { return false }
            return true
        }
        func string(dropping n: Int, adding tail: UInt8? = nil) -> String {
            var bytes = Array(w.dropLast(n))
            if let tail { bytes.append(tail) }
            return String(decoding: bytes, as: UTF8.self)
        }
        if count <= 3 { return String(decoding: w, as: UTF8.self) }
        if ends("ies") { return string(dropping: 3, adding: UInt8(ascii: "y")) }
        if ends("oes") || ends("ches") || ends("shes") || ends("sses") || ends("xes") { return string(dropping: 2) }
        if ends("ves") && count > 4 { return string(dropping: 3, adding: UInt8(ascii: "f")) }
        if ends("s") && !ends("ss") && !ends("us") { return string(dropping: 1) }
        return String(decoding: w, as: UTF8.self)
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
        if b.contains(where: { $0 >= 0x80 }) && !CharacterClass.modelsAll(b) { return nil }
        var out: [String] = []
        var word: [UInt8] = []
        func flush() {
            var lo = 0, hi = word.count
            while lo < hi, word[lo] == 0x2D { lo += 1 }
            while hi > lo, word[hi - 1] == 0x2D { hi -= 1 }
            if lo < hi { out.append(singular(word[lo..<hi])) }
            word.removeAll(keepingCapacity: true)
        }
        var i = 0
        while i < b.count {
            let c = b[i]
            i += 1
            if c >= 0x80 {
                let c1 = b[i]
                i += c >= 0xE0 ? 2 : 1
                if c == 0xC3 && c1 != 0x97 && c1 != 0xB7 {
                    word.append(c)
                    word.append(c1 <= 0x9E ? c1 + 0x20 : c1)
                } else if c == 0xC2 && (c1 == 0xAA || c1 == 0xB5 || c1 == 0xBA) {
                    word.append(c)
                    word.append(c1)
                } else if !word.isEmpty {
                    flush()
                }
                continue
            }
            let l = c >= 0x41 && c <= 0x5A ? c | 0x20 : c
            if (l >= 0x61 && l <= 0x7A) || l == 0x2D { word.append(l) } else if !word.isEmpty { flush() }
        }
        if !word.isEmpty { flush() }
        return out
    }

    static func contains(_ hay: [String], _ needle: [String]) -> Bool {
        guard !needle.isEmpty, needle.count <= hay.count else { return false }
        for start in 0...(hay.count - needle.count) where hay[start] == needle[0] {
            if hay[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    /// The ingredients `text` mentions, in ingredient-list order.
    func match(_ text: String) -> [StepIngredientRef] {
        let hay = IngredientMatcher.words(text)
        // A step has a few dozen words: looking through them costs less than hashing them into a set.
        let haySet = hay
        var full: [Int] = []
        var headOnly: [Int] = []
        // By index: a copy of each key (its name and arrays retained and released) cost as much as the tests.
        for k in keys.indices {
            if keys[k].phrases.contains(where: { IngredientMatcher.contains(hay, $0) }) {
                full.append(k)
            } else if keys[k].heads.contains(where: { haySet.contains($0) }) {
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
        return kept.sorted().map { StepIngredientRef(group: keys[$0].group, index: keys[$0].index, name: keys[$0].name) }
    }
}
