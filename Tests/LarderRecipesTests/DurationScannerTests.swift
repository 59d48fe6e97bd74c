import Foundation
import LarderTestSupport
import Testing
@testable import LarderRecipes

/// The byte scanner that replaced ICU for ``Patterns/durationAtom`` must find exactly ICU's matches (whole match
/// and all three groups): on edge texts, on every line of the samples and on seeded random texts made of the
/// pattern's own pieces; and the characters it models must have the classes ICU gives them.
@Suite("DurationScanner: the duration pattern on bytes")
struct DurationScannerTests {
    /// ICU's matches of the pattern, as byte offsets.
    static func icu(_ text: String) -> [DurationScanner.Atom] {
        func offset(_ i: String.Index) -> Int { text.utf8.distance(from: text.utf8.startIndex, to: i) }
        func offsets(_ r: Range<String.Index>) -> Range<Int> { offset(r.lowerBound)..<offset(r.upperBound) }
        return Patterns.durationAtom.matches(text).map { m in
            DurationScanner.Atom(
                range: offsets(m.range), first: offsets(m.groupRanges[0]!), second: m.groupRanges[1].map(offsets),
                unit: offsets(m.groupRanges[2]!))
        }
    }

    static func expectSame(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let scanned = DurationScanner.atoms(in: text) else {
            Issue.record("not modelled: \(text.debugDescription)", sourceLocation: sourceLocation)
            return
        }
        #expect(scanned == icu(text), "\(text.debugDescription)", sourceLocation: sourceLocation)
    }

    static let edges = [
        "Simmer for 10 minutes", "simmer 10-12 minutes", "Cook 10 – 12 mins.", "Bake 1 hr 15 min", "1h 20m",
        "20m", "20 m", "20mm", "2 h", "2h", "2hrs.", "2 hrs.x", "3 hoursx", "3 HOURS", "Rest for a few minutes",
        "half an hour", "half a day", "a half hour", "a couple of hours", "a dozen seconds", "an hour", "a second bowl",
        "one minute", "forty-five minutes", "forty five minutes", "ninety secs", "several days", "dozen mins",
        "1½ hours", "1 ½ hours", "½ hour", " ½ hour", "x½ hour", "1 1/2 hours", "1/2 hour", "1.5 hours", "1,5 Stunden",
        "1,5 hours", "10 to 12 minutes", "10 or 12 minutes", "10to12 minutes", "10 -minutes", "10-minute", "10- minute",
        "5min", "5mins", "5 min.", "5 secs", "5 sec.", "3 days", "3 day", "abc5 minutes", "_5 minutes", "é5 minutes",
        "5 minutesé", "5 minutes_", "5 minutes5", "café 5 minutes", "5\u{00A0}minutes", "5\u{2009}min",
        "5\u{202F}h", "10\u{00A0}–\u{00A0}12 minutes", "one to two hours", "two or three days", "three-four hours",
        "1 - 2 - 3 hours", "12 1/2 1/2 hours", "1/ 2 hour", "1 /2 hour", "10.5.5 minutes", "100 minutes 20 seconds",
        "for 1 hr. then 10 min", "10 hr.s", "cook 20-25 minutes, or 30 min", "2–3 hours", "2—3 hours", "2 — 3 hours",
        "twenty minutes", "Twenty-Five minutes", "an hour and a half", "a half-hour", "half an-hour", "1 hour.",
        "Leave 2 days", "Wait 30 secs.", "Bake at 180°C for 20 minutes (350°F).", "“5 minutes”", "5 minutes…",
        "× 3 minutes", "·5 minutes", "5 ⅛ hours", "5⅓ hours", "⅔ hour", "5 ⅜ hours", "Prep: 10 mins / Cook: 45 mins",
        "", "5", "minutes", "10 10 minutes", "1 2/3 hours", "1  1/2 hours", "1\t1/2 hours", "1\n1/2 hours",
        "ª5 minutes", "º5 minutes", "µ5 minutes", "5 minutesº", "5 mº", "5mº", "5m°", "5 hrs. ago",
    ]

    @Test("the scanner finds ICU's matches on edge texts")
    func edgeTexts() {
        for text in Self.edges { Self.expectSame(text) }
        #expect(DurationScanner.atoms(in: "1½ hours")?.first?.first == 0..<3)
    }

    @Test("the scanner finds ICU's matches on every line of the samples")
    func sampleLines() throws {
        let dir = Repository.path("samples/recipes")
        var modelled = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: dir) where !name.hasSuffix(".pdf") {
            let text = try String(contentsOfFile: dir + "/" + name, encoding: .utf8)
            for line in text.split(separator: "\n").map(String.init) {
                guard let scanned = DurationScanner.atoms(in: line) else { continue }
                modelled += 1
                #expect(scanned == Self.icu(line), "\(line.debugDescription)")
            }
        }
        #expect(modelled > 200)
    }

    static let pieces = [
        "1", "2", "12", "5", "0", ".", ",", "/", "-", "–", "—", " ", " ", " ", "\t", "\u{00A0}", "½", "⅓", "⅛", "⅜",
        "a", "an", "half", "few", "couple", "of", "dozen", "one", "two", "forty", "five", "to", "or", "h", "m", "s", "x",
        "hour", "hours", "hr", "hrs", "min", "mins", "minute", "minutes", "sec", "secs", "second", "day", "days",
        "HOUR", "Min", "é", "_", "°", "C", "(", ")", "·", "e",
    ]

    @Test("the scanner finds ICU's matches on seeded random texts made of the pattern's pieces")
    func randomTexts() {
        var rng = SeededGenerator(seed: 20261124)
        var found = 0
        for _ in 0..<4000 {
            let count = Int.random(in: 1...12, using: &rng)
            let text = (0..<count).map { _ in Self.pieces.randomElement(using: &rng)! }.joined()
            Self.expectSame(text)
            found += Self.icu(text).count
        }
        #expect(found > 200)  // the texts do hold durations (374 with this seed)
    }

    @Test("a text with a character the scanner does not model is left to ICU")
    func unmodelled() {
        for text in ["Stir for 1 ſec", "5 \u{212A}", "٣ minutes", "5 minutes\u{0301}", "ﬁve minutes", "5 Straße", "🍳 5 min"] {
            #expect(DurationScanner.atoms(in: text) == nil, "\(text)")
            #expect(Patterns.durationAtoms(text).map(\.range) == Patterns.durationAtom.matches(text).map(\.range))
        }
    }

    /// Every modelled non-ASCII character, and every ASCII one.
    static let modelled: [Character] = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) } + [
        "\u{00A0}", "©", "ª", "«", "®", "°", "µ", "·", "º", "»", "¼", "½", "¾", "˚", "×", "÷", "‐", "‑", "‒", "–", "—",
        "‘", "’", "“", "”", "•", "…", "\u{202F}", "™", "⅓", "⅔", "⅕", "⅖", "⅗", "⅘", "⅙", "⅚", "⅛", "⅜", "⅝", "⅞",
    ] + (0x2000...0x200A).map { Character(Unicode.Scalar($0)!) } + (0xC0...0xFF).filter { $0 != 0xDF }.map { Character(Unicode.Scalar($0)!) }

    @Test("the modelled characters have ICU's classes")
    func classes() throws {
        let word = try NSRegularExpression(pattern: #"^\w$"#)
        let space = try NSRegularExpression(pattern: #"^\s$"#)
        let digit = try NSRegularExpression(pattern: #"^\d$"#)
        let letter = try NSRegularExpression(pattern: #"^[a-z]"#, options: [.caseInsensitive])
        func icu(_ re: NSRegularExpression, _ s: String) -> Bool {
            re.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
        }
        for c in Self.modelled {
            let s = String(c)
            let bytes = Array(s.utf8)
            bytes.withUnsafeBufferPointer { b in
                #expect(CharacterClass.modelsAll(b), "\(s.debugDescription)")
                #expect(CharacterClass.isWord(b, at: 0) == icu(word, s), "\\w \(s.debugDescription)")
                #expect((CharacterClass.spaceLength(b, at: 0) == b.count) == icu(space, s), "\\s \(s.debugDescription)")
                #expect(Prefilter.isDigit(b[0]) == icu(digit, s), "\\d \(s.debugDescription)")
                #expect(Prefilter.isLetter(b[0]) == icu(letter, s), "[a-z] \(s.debugDescription)")
            }
        }
    }
}

/// The temperature and duration-lead scanners against their ICU patterns, the same way.
@Suite("TemperatureScanner and LeadScanner: the temperature and lead patterns on bytes")
struct TemperatureAndLeadScannerTests {
    static func offsets(_ text: String, _ r: Range<String.Index>) -> Range<Int> {
        text.utf8.distance(from: text.utf8.startIndex, to: r.lowerBound)..<text.utf8.distance(from: text.utf8.startIndex, to: r.upperBound)
    }

    static func icu(_ rx: RX, _ text: String) -> [TemperatureScanner.Hit] {
        rx.matches(text).map { m in
            TemperatureScanner.Hit(
                range: offsets(text, m.range), value: offsets(text, m.groupRanges[0]!),
                unit: m.groupRanges[1].map { offsets(text, $0) })
        }
    }

    static func expectSame(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let degrees = TemperatureScanner.degrees(in: text), let bare = TemperatureScanner.bare(in: text) else {
            Issue.record("not modelled: \(text.debugDescription)", sourceLocation: sourceLocation)
            return
        }
        #expect(degrees == icu(Patterns.tempDegrees, text), "degrees \(text.debugDescription)", sourceLocation: sourceLocation)
        #expect(bare == icu(Patterns.tempBare, text), "bare \(text.debugDescription)", sourceLocation: sourceLocation)
    }

    static let temperatureEdges = [
        "Bake at 180°C", "Bake at 180 °C", "180° C", "180°c", "350°F (fan)", "180°C fan", "180°C(fan)", "180°C (Fan)",
        "200 degrees", "200 degrees C", "200 degreesC", "200 degree", "200 degreesx", "200 deg", "200 deg.", "200 deg.C",
        "200 degx", "180-200°C", "180 - 200 °C", "180–200°C", "180 to 200°C", "180to200°C", "1800°C", "18°", "1°",
        "180 C", "180C", "180 c", "180c", "180 F (fan)", "180 F(fan)", "180 Fan", "180 Celsius", "180 ° celsius",
        "180° fahrenheit", "180° centigrade", "180º", "180˚F", "180\u{00A0}°C", "180\u{00A0}C", "180\u{2009}F",
        "x180C", "_180C", "é180C", "180Cé", "180 CX", "2180 C", "The oven should be at 180°C (356°F).", "90°", "99C",
        "100 C fan", "100 C  fan)", "1,800°", "40 degrees, 50 degrees", "°C 180", "180°C°F", "180° Cfan", "180° C fan",
        "180 deg\u{00A0}C", "180degrees", "18 0°", "", "350° F ", "450°F\t(fan)",
    ]

    @Test("the temperature scanner finds ICU's matches on edge texts")
    func temperatureEdgeTexts() {
        for text in Self.temperatureEdges { Self.expectSame(text) }
    }

    static let temperaturePieces = [
        "1", "18", "180", "2", "0", " ", " ", "\u{00A0}", "-", "–", "to", "°", "º", "˚", "C", "c", "F", "f", "degree",
        "degrees", "deg", ".", "celsius", "Fahrenheit", "centigrade", "fan", "(", ")", "x", "é", "_", "s",
    ]

    @Test("the temperature scanner finds ICU's matches on seeded random texts")
    func temperatureRandomTexts() {
        var rng = SeededGenerator(seed: 180)
        var found = 0
        for _ in 0..<4000 {
            let count = Int.random(in: 1...10, using: &rng)
            let text = (0..<count).map { _ in Self.temperaturePieces.randomElement(using: &rng)! }.joined()
            Self.expectSame(text)
            found += Patterns.tempDegrees.matches(text).count + Patterns.tempBare.matches(text).count
        }
        #expect(found > 100)  // 222 with this seed
    }

    static func expectSameLead(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let lead = LeadScanner.firstMatch(in: text) else {
            Issue.record("not modelled: \(text.debugDescription)", sourceLocation: sourceLocation)
            return
        }
        let m = Patterns.durationLead.firstMatch(text)
        #expect(m.map { offsets(text, $0.range) } == lead.range, "\(text.debugDescription)", sourceLocation: sourceLocation)
        #expect(m?.groupRanges[0].map { offsets(text, $0) } == lead.word, "\(text.debugDescription)", sourceLocation: sourceLocation)
        #expect(m?.groupRanges[1].map { offsets(text, $0) } == lead.connectors, "\(text.debugDescription)", sourceLocation: sourceLocation)
    }

    static let leadEdges = [
        "Simmer for about ", "Cook, for ", "xabout ", "5simmer ", "Bake at least ", "Leave up to ", "Rest ", "",
        "Stir the sauce ", "Simmer\u{00A0}", "simmer for\u{2009}", "Fry, ", "stir (about ", "for for ", "up  to ",
        "a further ", "a  further ", "simmer a further ", "for", "simmer for", "é for ", "éa for ", "caféx for ",
        "_for ", "FOR ABOUT ", "Simmer For Another ", "or ", "either or ", "approximately ", "roughly  ", "at least for ",
        "x ", " ", "  for ", "heat for about 10 minutes, or for ", "simmer fore ", "reduce to ", "up to",
    ]

    @Test("the lead scanner finds ICU's first match on edge texts and the lead test's texts")
    func leadTexts() throws {
        for text in Self.leadEdges + (try PrefilterTests.leads()) where LeadScanner.firstMatch(in: text) != nil {
            Self.expectSameLead(text)
        }
        for text in Self.leadEdges { Self.expectSameLead(text) }
        #expect(LeadScanner.firstMatch(in: "simmer for\n") == nil)  // `$` before a final line break: ICU decides
    }

    static let leadPieces = [
        "for", "about", "another", "a", "further", "around", "approximately", "roughly", "up", "to", "at", "least",
        "or", "simmer", "x", "é", ",", " ", " ", "  ", "\u{00A0}", "5", "_", "FOR", "Up",
    ]

    @Test("the lead scanner finds ICU's first match on seeded random texts")
    func leadRandomTexts() {
        var rng = SeededGenerator(seed: 24)
        for _ in 0..<3000 {
            let count = Int.random(in: 1...9, using: &rng)
            Self.expectSameLead((0..<count).map { _ in Self.leadPieces.randomElement(using: &rng)! }.joined())
        }
    }
}

/// The language detector's byte-level word split against the `Character` split it replaced.
@Suite("RecipeLanguage: words on bytes")
struct RecipeLanguageWordTests {
    static func characterWords(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init)
            .filter { $0.utf8.count <= RecipeLanguage.longestWord }
    }

    @Test("the byte split gives the Character split's short words")
    func sameWords() throws {
        var texts = [
            "Für die Soße", "FÜR DIE SOSSE", "Mélangez avec le beurre jusqu'à", "ÀÉÎÕÜ àéîõü Þþ", "×÷ a×b a÷b",
            "ªº µg 5µ", "180°C ½ cup – and — the “word” ‘x’ …", "a\u{00A0}b\u{2009}c", "und\r\nder", "Y EL LA",
            "hasta luego", "jusqu'au", "THE_and", "with1into", "", "   ", "àb", "Ünd",
        ]
        let dir = Repository.path("samples/recipes")
        for name in try FileManager.default.contentsOfDirectory(atPath: dir) where !name.hasSuffix(".pdf") {
            texts.append(try String(contentsOfFile: dir + "/" + name, encoding: .utf8))
        }
        var compared = 0
        for text in texts {
            guard let words = RecipeLanguage.shortWords(text) else { continue }
            compared += 1
            #expect(words == Self.characterWords(text), "\(text.prefix(80).debugDescription)")
        }
        #expect(compared >= 15)
        #expect(RecipeLanguage.shortWords("Straße") == nil)  // ß is left to Foundation
    }
}

/// The step matcher's byte-level words against its `Character` words, on text with the modelled non-ASCII characters.
@Suite("IngredientMatcher: words on bytes beyond ASCII")
struct IngredientMatcherWordTests {
    @Test("the byte words are the Character words")
    func sameWords() throws {
        var texts = [
            "Bake at 180°C (350°F) for 20 minutes", "Add ½ cup crème fraîche – stir", "JALAPEÑO-lime “dressing”",
            "Purée the CAFÉ-au-lait … gently", "ÀÉÎÕÜ Þ þ ×÷ a×b", "ªº µg 5µ", "a\u{00A0}b\u{2009}c-—-d", "--é--", "",
            "Soak the chickpeas overnight.\r\nDrain.", "pommes-frites’ ‘tomatoes’ • onions",
        ]
        let dir = Repository.path("samples/recipes")
        for name in try FileManager.default.contentsOfDirectory(atPath: dir) where !name.hasSuffix(".pdf") {
            texts += try String(contentsOfFile: dir + "/" + name, encoding: .utf8).split(separator: "\n").map(String.init)
        }
        var compared = 0
        for text in texts {
            var t = text
            guard let fast = t.withUTF8({ IngredientMatcher.asciiWords($0) }) else { continue }
            if text.utf8.contains(where: { $0 >= 0x80 }) { compared += 1 }
            #expect(fast == IngredientMatcher.unicodeWords(text), "\(text.debugDescription)")
        }
        #expect(compared >= 10)
        var sharpS = "Straße"
        #expect(sharpS.withUTF8 { IngredientMatcher.asciiWords($0) } == nil)  // ß is left to Foundation
    }
}
