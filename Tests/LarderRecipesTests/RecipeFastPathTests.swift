import Foundation
import LarderTestSupport
import Testing
@testable import LarderRecipes

/// The recipe parser's fast paths of issue 18's sixth round, each against the code it replaced.
@Suite("Recipe parser fast paths")
struct RecipeFastPathTests {
    static let wordPieces = ["ies", "oes", "ches", "shes", "sses", "xes", "ves", "s", "ss", "us", "y", "f", "a", "b",
                             "tomato", "leaf", "-", "é", "ñ", "Þ", "à", "ª", "µ", "o", "c", "h", "x", "v", "e", "i"]

    @Test("singular on bytes is singular on the String")
    func singularBytes() {
        var generator = SeededGenerator(seed: 618)
        var words = ["ies", "pies", "cherries", "potatoes", "peaches", "dishes", "glasses", "boxes", "leaves", "olives",
                     "eves", "ves", "cress", "asparagus", "onions", "s", "us", "bus", "crème", "purées", "jalapeños",
                     "éves", "àies", "ñes", "µs", "ºves", "Þxes", "ab", "abc", "abcd", "-s-"]
        for _ in 0..<5_000 {
            words.append((0..<Int.random(in: 1...5, using: &generator)).map { _ in
                Self.wordPieces.randomElement(using: &generator)!
            }.joined())
        }
        for word in words {
            let bytes = Array(word.utf8)
            #expect(IngredientMatcher.singular(bytes[...]) == IngredientMatcher.singular(word), "\(word)")
        }
    }

    @Test("the opening parenthesis on bytes is the Character's")
    func openingParenthesis() {
        var generator = SeededGenerator(seed: 1801)
        let pieces = ["(", ")", "a", " ", "\u{301}", "\u{0600}", "é", "e\u{301}", "(\u{301}", "\u{0600}(", "1", "🙂", "\r", "\n"]
        for _ in 0..<5_000 {
            let name = (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                .joined()
            #expect(IngredientMatcher.openingParenthesis(name) == name.firstIndex(of: "("), "\(name.debugDescription)")
        }
    }

    /// ``Patterns/parseNumber(_:)`` before the ASCII fast path (Foundation's search and replacement on every part).
    static func referenceParseNumber(_ raw: String) -> Double? {
        let s = raw.trimmingWhitespace().lowercased()
        if let w = Patterns.numberWords[s] { return w }
        if s.hasPrefix("a couple") { return 2 }
        var total = 0.0
        var any = false
        for part in s.split(whereSeparator: { $0 == " " }) {
            var p = String(part)
            if let last = p.last, let f = Patterns.fractions[last] {
                total += f
                any = true
                p.removeLast()
                if p.isEmpty { continue }
            }
            if p.contains("/") {
                let ab = p.split(separator: "/")
                if ab.count == 2, let a = Double(ab[0]), let b = Double(ab[1]), b != 0 {
                    total += a / b
                    any = true
                    continue
                }
                return nil
            }
            if let v = Double(p.replacingOccurrences(of: ",", with: ".")) {
                total += v
                any = true
            } else {
                return nil
            }
        }
        return any ? total : nil
    }

    @Test("numbers parse as before")
    func parseNumber() {
        var generator = SeededGenerator(seed: 1906)
        let pieces = ["1", "2", "10", "0", ",", ".", "/", " ", "½", "¼", "a", "half", "dozen", "e", "-", "٣", "１",
                      "1\u{338}", "/\u{338}", "x"]
        var texts = ["1", "1,5", "1.5", "1/2", "1 1/2", "½", "2½", "1/0", "3,5/2", "a couple", "half an", "", " ", "1e3",
                     "1,2,3", "٣/٤", "1 ½", "007", "1.", ".5", "12.50", "1.2.3", "0.0", "20 ", " 20", "1e3",
                     "123456789012345678901234567890.123456789"]
        for _ in 0..<5_000 {
            texts.append((0..<Int.random(in: 1...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                .joined())
        }
        for text in texts {
            let fast = Patterns.parseNumber(text), slow = Self.referenceParseNumber(text)
            #expect(fast == slow || (fast?.isNaN == true && slow?.isNaN == true), "\(text.debugDescription)")
        }
    }

    /// ``IngredientMatcher/parts(_:)`` before its fast path: every separator's bytes replaced by a comma, in order.
    static func referenceParts(_ name: String) -> [Substring] {
        var bytes = Array(name.utf8)
        for separator in [" and ", " or ", "&", "/"] {
            let sep = Array(separator.utf8)
            var out: [UInt8] = []
            var i = 0
            while i < bytes.count {
                if i + sep.count <= bytes.count, bytes[i..<(i + sep.count)].elementsEqual(sep) {
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

    @Test("furniture keys, letters and name parts on bytes are what the Character code gives")
    func lineKeys() {
        var generator = SeededGenerator(seed: 2026)
        let pieces = ["Page", " ", "12", "\t", "\r\n", "\u{0B}", "\u{1C}", "ABC", "x", "-", "É", "é", "½", "٣", "\u{00A0}",
                      " and ", " or ", "&", "/", ",", "salt", "Pepper", "(", "e\u{301}"]
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                .joined()
            #expect(LineReader.furnitureKey(text) == text.lowercased().filter { !$0.isNumber && !$0.isWhitespace },
                    "\(text.debugDescription)")
            #expect(Context.hasLetter(text) == text.contains(where: \.isLetter), "\(text.debugDescription)")
            #expect(IngredientMatcher.parts(text) == Self.referenceParts(text), "\(text.debugDescription)")
        }
    }

    @Test("each word's languages are the languages whose function words hold it")
    func languagesOfWord() {
        let words = Set(RecipeLanguage.functionWords.flatMap(\.words)).union(["", "xyz", "The", "undd"])
        for word in words {
            let expected = RecipeLanguage.functionWords.indices.filter { RecipeLanguage.functionWords[$0].words.contains(word) }
            #expect((RecipeLanguage.languagesOfWord[word] ?? []) == expected, "\(word)")
        }
    }
}
