import Foundation

/// The language a recipe is written in, from its commonest short words (articles, prepositions, conjunctions) —
/// English, German, French, Italian, Spanish or Dutch. Cheap and explainable: each language's function words are
/// counted over the recipe's title, ingredient lines and steps; the language with the most wins if it has at least
/// 3 hits and 1.5 × the runner-up's, else the language is unknown (`nil`).
enum RecipeLanguage {
    static let functionWords: [(code: String, words: Set<String>)] = [
        ("en", ["the", "and", "with", "to", "of", "for", "until", "into", "in", "a", "or", "then", "it", "on"]),
        ("de", ["und", "der", "die", "das", "mit", "den", "dem", "für", "bis", "auf", "ein", "eine", "oder", "dann", "zu", "im", "etwa"]),
        ("fr", ["et", "le", "la", "les", "de", "du", "des", "avec", "pour", "dans", "un", "une", "jusqu", "puis", "au"]),
        ("it", ["e", "il", "la", "di", "con", "per", "che", "in", "un", "una", "del", "della", "fino", "poi", "al"]),
        ("es", ["y", "el", "la", "los", "las", "de", "con", "para", "en", "un", "una", "del", "hasta", "luego", "al"]),
        ("nl", ["en", "de", "het", "een", "met", "van", "voor", "tot", "in", "op", "dan", "of", "aan"]),
    ]

    static func detect(_ recipe: Recipe) -> String? {
        let text = ([recipe.title] + recipe.allIngredients.map(\.text) + recipe.steps.map(\.text)).joined(separator: " ")
        var scores: [(String, Int)] = functionWords.map { ($0.code, 0) }
        if let words = packedShortWords(text) {
            for w in words {
                for k in languagesOfPacked[w] ?? [] { scores[k].1 += 1 }
            }
        } else {
            for w in text.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init) {
                for k in languagesOfWord[w] ?? [] { scores[k].1 += 1 }
            }
        }
        scores.sort { $0.1 > $1.1 }
        guard let best = scores.first, best.1 >= 3, Double(best.1) >= 1.5 * Double(scores[1].1) else { return nil }
        return best.0
    }

    /// For each function word, the languages (indices in ``functionWords``) it belongs to: one look-up per word of
    /// the recipe instead of one per language.
    static let languagesOfWord: [String: [Int]] = {
        var map: [String: [Int]] = [:]
        for (k, language) in functionWords.enumerated() {
            for word in language.words { map[word, default: []].append(k) }
        }
        return map
    }()

    /// ``languagesOfWord`` keyed by each word's bytes packed into an integer (``packed(_:)``): a recipe's words are
    /// looked up without a `String` each (making and hashing one per word was most of the language test, issue 18).
    static let languagesOfPacked: [UInt64: [Int]] = Dictionary(
        uniqueKeysWithValues: languagesOfWord.map { (packed(Array($0.key.utf8)), $0.value) })

    /// The longest function word, in UTF-8 bytes: longer words need no `String`. At most 8, so that a word packs
    /// into a `UInt64`.
    static let longestWord = functionWords.flatMap(\.words).map(\.utf8.count).max() ?? 0

    /// A word of at most 8 bytes, none zero, as an integer: byte k in bits 8k..<8k+8. One word, one integer.
    static func packed(_ bytes: [UInt8]) -> UInt64 {
        precondition(bytes.count <= 8 && !bytes.contains(0))
        var value: UInt64 = 0
        for (k, b) in bytes.enumerated() { value |= UInt64(b) << UInt64(8 * k) }
        return value
    }

    /// The word a ``packed(_:)`` integer holds.
    static func unpacked(_ value: UInt64) -> String {
        var bytes: [UInt8] = []
        var rest = value
        while rest != 0 {
            bytes.append(UInt8(truncatingIfNeeded: rest))
            rest >>= 8
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The words of `text` as `text.lowercased().split { !$0.isLetter }` gives them, those longer than any function
    /// word left out, read on bytes; `nil` when the text holds a character ``CharacterClass`` does not model. Those
    /// characters are each one `Character` (none combines with its neighbour), the letters among them are ASCII
    /// letters, Latin-1 letters and ª µ º, and lower case is ASCII's and Latin-1's (À–Þ to à–þ, not ×).
    static func shortWords(_ text: String) -> [String]? {
        packedShortWords(text)?.map(unpacked)
    }

    /// ``shortWords(_:)`` with each word ``packed(_:)`` as it is read (no array or `String` per word).
    static func packedShortWords(_ text: String) -> [UInt64]? {
        let longest = longestWord
        precondition(longest <= 8, "function words longer than 8 bytes do not pack into a UInt64")
        return Prefilter.withBytes(text) { bytes -> [UInt64]? in
            guard CharacterClass.modelsAll(bytes) else { return nil }
            var out: [UInt64] = []
            var word: UInt64 = 0
            var count = 0  // the word's bytes so far (past `longest` it is left out)
            func flush() {
                if count > 0 && count <= longest { out.append(word) }
                word = 0
                count = 0
            }
            func add(_ b: UInt8) {
                if count < 8 { word |= UInt64(b) << UInt64(8 * count) }
                count += 1
            }
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                // The character's lower-case bytes (second = 0 for one byte), or none when it is not a letter.
                var first: UInt8 = 0
                var second: UInt8 = 0
                var length = 1
                if b < 0x80 {
                    if Prefilter.isLetter(b) { first = Prefilter.lower(b) }
                } else {
                    length = b >= 0xE0 ? 3 : 2
                    let b1 = bytes[i + 1]
                    if b == 0xC3 && b1 != 0x97 && b1 != 0xB7 {
                        first = b
                        second = b1 <= 0x9E ? b1 + 0x20 : b1
                    } else if b == 0xC2 && (b1 == 0xAA || b1 == 0xB5 || b1 == 0xBA) {
                        first = b
                        second = b1
                    }
                }
                if first == 0 {
                    flush()
                } else if count <= longest {
                    add(first)
                    if second != 0 { add(second) }
                }
                i += length
            }
            flush()
            return out
        }
    }
}
