import Foundation
import LarderTestSupport
import Testing
@testable import LarderRecipes

/// The byte tests that spare the parser its regular expressions (`Prefilter`) must never say "no" for a line
/// the pattern they guard matches: each is run against its pattern on the samples' lines and on lines written to
/// sit on the edges (case, non-ASCII characters that ICU folds to ASCII, units glued to numbers).
@Suite("Prefilter: byte tests before the parser's regular expressions")
struct PrefilterTests {
    /// Lines that sit on the edges of the patterns.
    static let edgeLines = [
        "Serves 4", "SERVES 4-6", "serving size: 1 cup", "Makes 12 cookies", "Yield: 2 loaves", "For 4 people",
        "Two servings", "a dozen", "Half an hour", "4 servings (as a main)", "½ servings", "Prep: 10", "Prep time 10 min",
        "Cook: 1 hr 20 min", "Ready in 45 mins", "Hands-on time: 15 min", "Tags: quick, easy", "Cuisine: Thai",
        "Meal type: dinner", "Skill level: easy", "Author: Jo", "Dietary: vegan", "ſerves 4", "Keywords: soup",
        "Keywords: soup", "ﬁve servings", "Total: 1h", "Bake 20m", "Simmer 1h 15m", "Rest for 10 MINUTES",
        "Leave 2 days", "Wait 30 secs.", "Stir for 1 ſec", "Bake at 180°C", "Heat to 350 ºF", "Oven 200˚",
        "Oven to 180 degrees C", "Bake at 200 deg.", "Bake at 180 C (fan)", "Bake at 180C", "Bake at 180\u{00A0}F",
        "Gas mark 4", "GAS 6", "gas mark ½", "1. Mix it", "12) Bake", "Step 3: Serve", "STEP 2 - Stir", "step3. Go",
        "- butter", "* flour", "+ sugar", "• eggs", "– milk", "— salt", "▪ oil", "## Method", "# Title #",
        "٣. Mix", "1\u{2009}h", "20 mın", "Chop the onions finely.", "Preheat the oven.", "Combine everything",
        "Whisk until smooth", "🍳 Cook time: 15 min", "★ Serves 4", "Notes: keeps a week",
    ]

    /// Every line of the project's samples, and the edge lines.
    static func lines() throws -> [String] {
        let dir = Repository.path("samples/recipes")
        var out = edgeLines
        for name in try FileManager.default.contentsOfDirectory(atPath: dir) where !name.hasSuffix(".pdf") {
            let text = try String(contentsOfFile: dir + "/" + name, encoding: .utf8)
            out += text.split(separator: "\n").map { String($0).trimmingCharacters(in: .whitespaces) }
        }
        return out
    }

    @Test("a line the meta patterns match always passes the opening-word test")
    func meta() throws {
        var rejected = 0
        for raw in try Self.lines() {
            let s = Meta.stripDecoration(raw)
            guard !s.isEmpty, !Prefilter.mayOpen(s, with: Meta.itemStarts) else { continue }
            rejected += 1
            for rx in [Patterns.timeLabelled, Patterns.yieldLabelled, Patterns.yieldTrailing, Patterns.yieldLabelOnly, Meta.labelled] {
                #expect(rx.firstMatch(s) == nil, "\(s)")
            }
        }
        // The test spares work: most lines are turned away.
        #expect(rejected > 100)
        #expect(Meta.parse("Chop the onions finely.") == nil)
        #expect(Meta.parse("ſerves 4") != nil)  // ICU folds ſ to s: the test must let it through
    }

    @Test("a line opening with a digit and no serving word matches no meta pattern")
    func digitLines() throws {
        var rejected = 0
        let edges = ["4 servings", "4 SERVINGS", "2-4 portions", "6 personnes", "4 porzioni", "4 raciones", "2 people",
                     "4 ſervings", "2 tbsp olive oil", "1 1/2 cups flour | 2 eggs", "10 Prep: 5 mins", "3 Serves 4"]
        for raw in try Self.lines() + edges {
            let s = Meta.stripDecoration(raw)
            guard let first = s.utf8.first, Prefilter.isDigit(first), !Prefilter.mayContain(s, anyOf: Meta.servingUnits)
            else { continue }
            rejected += 1
            for rx in [Patterns.timeLabelled, Patterns.yieldLabelled, Patterns.yieldTrailing, Patterns.yieldLabelOnly, Meta.labelled] {
                #expect(rx.firstMatch(s) == nil, "\(s)")
            }
            #expect(Meta.item(s) == nil, "\(s)")
        }
        #expect(rejected > 50)
        #expect(Meta.parse("4 servings") != nil)
        #expect(Meta.parse("4 ſervings") != nil)  // ICU folds ſ to s: the test must let it through
    }

    /// Lines opening with digits, on the edges of the numbered-item pattern.
    static let digitLines = [
        "1. Mix", "1.Mix", "12) Bake", "3: Serve", "4 - Stir", "4 -Stir", "4- Stir", "4  .  Go", "4\t. Go", "5 \u{2013} Go",
        "123. Too many", "1 2. No", "2 cups flour", "250 g sugar", "1/2 cup milk", "1½ cups", "1٣. Mix", "7\u{00A0}. Mix",
        "9\u{2009}- Mix", "10)", "10) ", "6 -", "3", "3 ", "0. Zero", "99: x",
    ]

    @Test("a line the numbered-item pattern matches always passes the digit test; the test says no to amounts")
    func numberedItems() throws {
        for raw in try Self.lines() + Self.digitLines + Self.digitLines.map({ $0 + " and more" }) {
            guard Prefilter.isDigit(raw.utf8.first ?? 0) else { continue }
            if !LineReader.mayBeNumbered(raw) { #expect(LineReader.numbered.firstMatch(raw) == nil, "\(raw)") }
        }
        #expect(!LineReader.mayBeNumbered("2 cups flour") && !LineReader.mayBeNumbered("250 g sugar"))
    }

    @Test("the byte versions of the line tests agree with the Character ones")
    func lineTests() throws {
        let extra = ["", "   ", "  \u{00A0} x", " \u{301}x", "\u{00A0}\u{00A0}", "    indented", "½", "٣", "—", "!!", "é", "e\u{301}",
                     "  (serves 4)", "\u{0600}a"]
        for raw in try Self.lines() + extra + Self.edgeLines.map({ "  " + $0 }) {
            #expect(LineReader.indent(of: raw) == raw.prefix(while: { $0 == " " || $0 == "\u{00A0}" }).count, "\(raw)")
            #expect(LineReader.hasLetterOrNumber(raw) == raw.contains(where: { $0.isLetter || $0.isNumber }), "\(raw)")
        }
    }

    @Test("a line the header test passes over by its length normalises to no header")
    func headerLength() throws {
        let all = LineReader.ingredientHeaders.union(LineReader.methodHeaders).union(LineReader.noteHeaders)
            .union(LineReader.otherHeaders)
        for raw in try Self.lines() + all.map { $0.uppercased() + " (for 4):" } + all.map { "** " + $0 + " **" } {
            if !LineReader.mayBeHeader(raw) { #expect(!all.contains(LineReader.normalizedHeader(raw)), "\(raw)") }
        }
        for header in all { #expect(LineReader.mayBeHeader(header.capitalized + ":"), "\(header)") }
        #expect(!LineReader.mayBeHeader("Preheat the oven to a moderate heat before you start"))
    }

    @Test("a line the list patterns match always passes its opening test")
    func listMarkers() throws {
        for raw in try Self.lines() {
            let first = raw.utf8.first ?? 0
            if !(first == 0x2D || first == 0x2A || first == 0x2B || first >= 0x80) {
                #expect(LineReader.bulletRX.firstMatch(raw) == nil, "\(raw)")
            }
            let step = Prefilter.mayOpenWithWord(raw, LineReader.stepStart)
            if !step { #expect(LineReader.stepWord.firstMatch(raw) == nil, "\(raw)") }
            if !(step || Prefilter.isDigit(first) || first >= 0x80) {
                #expect(LineReader.numbered.firstMatch(raw) == nil, "\(raw)")
            }
            if first != 0x23 { #expect(LineReader.headingRX.firstMatch(raw) == nil, "\(raw)") }
        }
        #expect(Prefilter.mayOpenWithWord("Step 3: Serve", LineReader.stepStart))
        #expect(!LineReader.mayBeNumbered("2 cups flour") && !LineReader.mayBeNumbered("250 g sugar"))
        #expect(LineReader.mayBeNumbered("1. Mix") && LineReader.mayBeNumbered("12 - Bake"))
        #expect(!Prefilter.mayOpenWithWord("Stir well", LineReader.stepStart))
        #expect(!Prefilter.mayOpenWithWord("3 eggs", LineReader.stepStart))
    }

    @Test("a text the duration and temperature patterns match always passes the cue tests")
    func durationsAndTemperatures() throws {
        var spared = 0
        for line in try Self.lines() {
            if !Patterns.mayHoldDuration(line) {
                spared += 1
                #expect(Patterns.durationAtom.matches(line).isEmpty, "\(line)")
            }
            let cues = Patterns.temperatureCues(line)
            if !cues.degrees { #expect(Patterns.tempDegrees.matches(line).isEmpty, "\(line)") }
            if !cues.bare { #expect(Patterns.tempBare.matches(line).isEmpty, "\(line)") }
            if !cues.gas { #expect(Patterns.gasMark.matches(line).isEmpty, "\(line)") }
        }
        #expect(spared > 200)
        #expect(Patterns.durations(in: "Simmer 1h 15m").first?.minutes == 75)
        #expect(Patterns.durations(in: "Stir for 1 ſec").count == Patterns.durationAtom.matches("Stir for 1 ſec").count)
        #expect(Patterns.temperatures(in: "Bake at 180\u{00A0}F").first?.unit == "F")
        let none = Patterns.temperatureCues("Chop the onions finely.")
        #expect(!none.degrees && !none.bare && !none.gas)
    }

    /// Texts before a duration, as steps have them.
    static func leads() throws -> [String] {
        var out = [
            "Simmer for about ", "Cook, for ", "xabout ", "5simmer ", "Bake at least ", "Leave up to ", "Rest ",
            "Stir the sauce ", "Simmer\u{00A0}", "simmer for\u{2009}", "Then sauté ", "ſimmer ", "Fry, ", "stir (about ",
            "Add the stock and bring to the boil, then reduce the heat and simmer gently for another ",
            String(repeating: "for ", count: 40), "Preheat the oven. " + String(repeating: "or for ", count: 20),
            String(repeating: "Whisk the eggs with the sugar until pale; ", count: 4) + "then whisk for a further ",
            String(repeating: "Fold in the flour gently, ", count: 5) + "about ",
            String(repeating: "Mix well and leave ", count: 6) + "é ",
        ]
        for line in try lines() {
            for hit in Patterns.durations(in: line) { out.append(String(line[..<hit.range.lowerBound])) }
        }
        return out
    }

    @Test("the lead test and the tail match agree with the lead pattern on the whole text")
    func durationLeads() throws {
        let connectors: Set<String> = ["for", "about", "another", "further", "around", "approximately", "roughly", "or"]
        var skipped = 0
        for before in try Self.leads() {
            let whole = Patterns.durationLead.firstMatch(before)
            let tail = Patterns.durationLeadMatch(before)
            #expect(whole?.range == tail?.range && whole?.groups == tail?.groups, "\(before)")
            #expect(whole?.groupRanges == tail?.groupRanges, "\(before)")
            if !Patterns.leadMayMatter(before), let m = whole {
                skipped += 1
                let verb = m.groups[0]?.lowercased()
                #expect(!(verb.map { Patterns.durationVerbs.contains($0) || connectors.contains($0) } ?? false), "\(before)")
                #expect(m.groupRanges[1].map(\.isEmpty) ?? true, "\(before)")
            }
        }
        #expect(skipped > 0)
    }

    @Test("folding characters are found on their bytes")
    func folding() {
        for s in ["ſ", "\u{212A}", "\u{212B}", "ﬁ", "ﬆ", "İ", "ı"] {
            #expect(Prefilter.withBytes(s) { Prefilter.foldsToASCII($0) }, "\(s)")
        }
        for s in ["é", "°", "½", "–", "ü", "ß"] {
            #expect(!Prefilter.withBytes(s) { Prefilter.foldsToASCII($0) }, "\(s)")
        }
    }
}
