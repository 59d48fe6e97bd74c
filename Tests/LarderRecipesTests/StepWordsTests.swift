import Foundation
import LarderTestSupport
import Testing
@testable import LarderRecipes

/// The recipe parser's fast paths of issue 18's ninth round, each against the code it replaced.
@Suite("Step words and byte cues")
struct StepWordsTests {
    static let pieces = ["Simmer", " ", "the", "onions", "lemon", "zest", "JUICE", "rind", "-", "--", "leaves", "pies",
                         "é", "É", "ñ", "ª", "½", "°", "×", "\u{00A0}", "—", "ß", "e\u{301}", "🙂", ",", ".", "1", "20",
                         "cherries", "sugar", "caster", "of", "and", "Zests", "k", "\u{212A}", "ſ", "\r\n", "boxes"]

    static func texts(seed: UInt64, count: Int) -> [String] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            (0..<Int.random(in: 0...10, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
        }
    }

    @Test("a step's words on bytes are the words of the String path")
    func stepWords() {
        for text in Self.texts(seed: 909, count: 5_000) {
            #expect(IngredientMatcher.StepWords(text).strings == IngredientMatcher.words(text), "\(text.debugDescription)")
            var copy = text
            if let fast = copy.withUTF8({ IngredientMatcher.asciiWords($0) }) {
                #expect(fast == IngredientMatcher.unicodeWords(text), "\(text.debugDescription)")
            }
        }
    }

    /// ``IngredientMatcher/match(_:)`` as it was before the step's words were byte ranges: words as `String`s.
    static func referenceMatch(_ matcher: IngredientMatcher, _ text: String) -> [StepIngredientRef] {
        let keys = matcher.keys
        let hay = IngredientMatcher.words(text)
        func contains(_ needle: [String]) -> Bool {
            guard !needle.isEmpty, needle.count <= hay.count else { return false }
            return (0...(hay.count - needle.count)).contains { hay[$0..<($0 + needle.count)].elementsEqual(needle) }
        }
        var full: [Int] = [], headOnly: [Int] = []
        for k in keys.indices {
            let phrases = keys[k].phrases.map { $0.map { String(decoding: $0, as: UTF8.self) } }
            if phrases.contains(where: contains) {
                full.append(k)
            } else if keys[k].heads.contains(where: { hay.contains($0) }) {
                headOnly.append(k)
            }
        }
        let fullHeads = Set(full.flatMap { keys[$0].heads })
        var kept = full + headOnly.filter { k in !keys[k].heads.contains(where: { fullHeads.contains($0) }) }
        kept = kept.filter { k in
            guard let q = keys[k].qualifier, !hay.contains(q) else { return true }
            return !kept.contains { o in o != k && keys[o].qualifier.map { hay.contains($0) } == true
                && !Set(keys[o].heads).isDisjoint(with: keys[k].heads) }
        }
        return kept.sorted().map { StepIngredientRef(group: keys[$0].group, index: keys[$0].index, name: keys[$0].name) }
    }

    @Test("steps match the same ingredients as with String words; the zest/juice/rind qualifier is the words' one")
    func matching() {
        var generator = SeededGenerator(seed: 1809)
        let names = ["lemon", "lemons", "caster sugar", "granulated sugar", "onion", "red onion", "salt and pepper",
                     "butter or margarine", "lime, lemon", "olive oil", "jalapeños", "crème fraîche", "pie", "leaf of basil"]
        for _ in 0..<400 {
            let ingredients = (0..<Int.random(in: 1...6, using: &generator)).map { _ -> RecipeIngredient in
                let name = names.randomElement(using: &generator)!
                let text = Self.texts(seed: generator.next(), count: 1)[0] + " " + name
                let alternatives = Bool.random(using: &generator) ? [] : [name, names.randomElement(using: &generator)!]
                return RecipeIngredient(text: text, name: name, alternatives: alternatives,
                                        provenance: Provenance(page: 1, lineStart: 1, lineEnd: 1))
            }
            let matcher = IngredientMatcher(groups: [IngredientGroup(name: nil, ingredients: ingredients)])
            for (key, ingredient) in zip(matcher.keys, ingredients) {
                let words = IngredientMatcher.words(ingredient.text)
                #expect(key.qualifier == ["zest", "juice", "rind"].first { words.contains($0) }, "\(ingredient.text)")
            }
            for step in Self.texts(seed: generator.next(), count: 5) + names.map({ "Add the \($0) and stir" }) {
                #expect(matcher.match(step) == Self.referenceMatch(matcher, step), "\(step.debugDescription)")
            }
        }
    }

    /// Issue 36: a long list is matched through the word index (only the keys sharing a word with the step), with the
    /// same ingredients as the whole scan, and a step refers to at most ``IngredientMatcher/maxRefsPerStep`` of them.
    @Test("long lists: the word index matches what the whole scan matches, at most 32 per step")
    func longListsMatchThroughTheIndex() {
        var generator = SeededGenerator(seed: 3601)
        let names = ["lemon", "caster sugar", "onion", "red onion", "salt and pepper", "butter or margarine",
                     "lime, lemon", "olive oil", "crème fraîche", "flour", "leaf of basil", "plain flour"]
        for _ in 0..<20 {
            let ingredients = (0..<Int.random(in: 65...300, using: &generator)).map { _ -> RecipeIngredient in
                let name = names.randomElement(using: &generator)!
                let text = Self.texts(seed: generator.next(), count: 1)[0] + " " + name
                return RecipeIngredient(text: text, name: name, provenance: Provenance(page: 1, lineStart: 1, lineEnd: 1))
            }
            let matcher = IngredientMatcher(groups: [IngredientGroup(name: nil, ingredients: ingredients)])
            #expect(matcher.byWord != nil)
            for step in Self.texts(seed: generator.next(), count: 5) + names.map({ "Add the \($0) and stir" }) {
                let reference = Array(Self.referenceMatch(matcher, step).prefix(IngredientMatcher.maxRefsPerStep))
                #expect(matcher.match(step) == reference, "\(step.debugDescription)")
            }
        }
        let flour = (0..<100).map { n in
            RecipeIngredient(text: "\(n + 1) g flour", name: "flour", provenance: Provenance(page: 1, lineStart: n, lineEnd: n))
        }
        let refs = IngredientMatcher(groups: [IngredientGroup(name: nil, ingredients: flour)]).match("Stir in the flour")
        #expect(refs.map(\.index) == Array(0..<32))
    }

    /// ``Prefilter/mayContain(_:anyOf:)`` as first written: a character that folds to ASCII, or a needle at any byte.
    static func referenceMayContain(_ s: String, _ needles: [[UInt8]]) -> Bool {
        let bytes = Array(s.utf8)
        if bytes.withUnsafeBufferPointer({ Prefilter.foldsToASCII($0) }) { return true }
        return bytes.indices.contains { i in
            needles.contains { n in
                i + n.count <= bytes.count && (0..<n.count).allSatisfy { Prefilter.lower(bytes[i + $0]) == n[$0] }
            }
        }
    }

    @Test("the cue scan with its first-byte set answers as the scan at every byte")
    func cueScan() {
        let needleSets: [[[UInt8]]] = [Patterns.durationUnitStarts, Patterns.degreeWord, Patterns.gasWord, Meta.servingUnits,
                                       IngredientMatcher.qualifierBytes, [Array("a".utf8), Array("@x".utf8)]]
        for text in Self.texts(seed: 77, count: 3_000) + ["İ", "ı20 min", "ﬁ", "deg", "GAS", "1 HR", "rInD"] {
            for needles in needleSets {
                #expect(Prefilter.mayContain(text, anyOf: needles) == Self.referenceMayContain(text, needles),
                        "\(text.debugDescription)")
            }
        }
    }

    @Test("a title the section-number pattern matches always passes its byte test")
    func sectionNumbers() {
        var generator = SeededGenerator(seed: 31)
        let pieces = ["1", "1.1", "2.3.", "R", "R ", " ", "  ", "\t", ".", "Orange", "Cookies", "١.٢", "12", "a.1", "1.a",
                      "\u{00A0}", "é", "x"]
        var titles = ["1.1 Orange Oatmeal Cookies", "R 1.1  Buckeyes", "1. Soup", "Soup 2.5", "١.٢ Soup"]
        for _ in 0..<5_000 {
            titles.append((0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                .joined())
        }
        var matched = 0
        for title in titles {
            let matches = title.range(of: #"^(?:\S{1,2}\s+)?\d+(?:\.\d+)+\.?\s+(?=\S)"#, options: .regularExpression) != nil
            if matches { matched += 1 }
            #expect(!matches || Prefilter.mayHoldSectionNumber(title), "\(title.debugDescription)")
        }
        #expect(matched > 100)
        #expect(!Prefilter.mayHoldSectionNumber("Orange Oatmeal Cookies 12"))
    }

    @Test("the language test's packed words find the languages the String words find")
    func packedLanguageWords() {
        for (word, languages) in RecipeLanguage.languagesOfWord {
            #expect(RecipeLanguage.languagesOfPacked[RecipeLanguage.packed(Array(word.utf8))] == languages, "\(word)")
            #expect(RecipeLanguage.unpacked(RecipeLanguage.packed(Array(word.utf8))) == word)
        }
        let texts = Self.texts(seed: 4242, count: 2_000) + ["Die Butter und der Zucker für den Teig", "jusqu'à la fin",
                                                             "ÉT LE DU", "und über", "hasta luego"]
        for text in texts {
            guard let packed = RecipeLanguage.packedShortWords(text), let words = RecipeLanguage.shortWords(text) else { continue }
            #expect(packed.map { RecipeLanguage.languagesOfPacked[$0] ?? [] } == words.map { RecipeLanguage.languagesOfWord[$0] ?? [] },
                    "\(text.debugDescription)")
        }
    }

    @Test("the number words by first letter hold every number word once, in the pattern's order")
    func numberWordsByLetter() {
        let table = DurationScanner.numberWordsByLetter
        #expect(table.flatMap { $0 }.sorted() == Array(DurationScanner.numberWords.indices))
        for (letter, indices) in table.enumerated() {
            #expect(indices == indices.sorted())
            #expect(indices.allSatisfy { DurationScanner.numberWords[$0][0] == 0x61 + UInt8(letter) })
        }
    }
}
