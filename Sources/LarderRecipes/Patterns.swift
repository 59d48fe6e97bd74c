import Foundation

/// A compiled regular expression that is safe to share (NSRegularExpression is immutable and thread-safe).
final class RX: @unchecked Sendable {
    let re: NSRegularExpression

    init(_ pattern: String, caseInsensitive: Bool = true) {
        // The patterns are literals in this module; a bad one is a programming error.
        re = try! NSRegularExpression(pattern: pattern, options: caseInsensitive ? [.caseInsensitive] : [])
    }

    struct Match {
        var range: Range<String.Index>
        var groups: [String?]
        var groupRanges: [Range<String.Index>?]
    }

    func matches(_ s: String) -> [Match] {
        re.matches(in: s, range: NSRange(s.startIndex..., in: s)).compactMap { Self.match($0, in: s) }
    }

    func firstMatch(_ s: String) -> Match? {
        re.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)).flatMap { Self.match($0, in: s) }
    }

    private static func match(_ m: NSTextCheckingResult, in s: String) -> Match? {
        guard let r = Range(m.range, in: s) else { return nil }
        var groups: [String?] = []
        var ranges: [Range<String.Index>?] = []
        if m.numberOfRanges > 1 {
            for k in 1..<m.numberOfRanges {
                let group = Range(m.range(at: k), in: s)
                groups.append(group.map { String(s[$0]) })
                ranges.append(group)
            }
        }
        return Match(range: r, groups: groups, groupRanges: ranges)
    }

    func test(_ s: String) -> Bool {
        re.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
    }

    func replace(_ s: String, with template: String) -> String {
        re.stringByReplacingMatches(in: s, range: NSRange(s.startIndex..., in: s), withTemplate: template)
    }
}

/// Number, yield, time, temperature and duration patterns shared by the parser.
enum Patterns {
    static let numberWords: [String: Double] = [
        "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
        "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30,
        "forty": 40, "forty-five": 45, "sixty": 60, "ninety": 90, "half": 0.5, "half a": 0.5, "half an": 0.5,
        "a half": 0.5, "a dozen": 12, "dozen": 12, "a couple": 2, "couple": 2, "several": 3, "few": 3, "a few": 3,
    ]
    static let fractions: [Character: Double] = [
        "½": 0.5, "¼": 0.25, "¾": 0.75, "⅓": 1.0 / 3, "⅔": 2.0 / 3, "⅛": 0.125, "⅜": 0.375, "⅝": 0.625, "⅞": 0.875,
        "⅕": 0.2, "⅙": 1.0 / 6,
    ]

    /// A number as written in recipes: "4", "4.5", "1 1/2", "1½", "½", "3/4", or a number word.
    static let num = #"(?:\d+(?:[.,]\d+)?(?:\s*[½¼¾⅓⅔⅛]|\s+\d+/\d+)?|\d+/\d+|[½¼¾⅓⅔⅛]|half an?|a half|a couple of|a few|a dozen|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty-five|forty|sixty|ninety|several|dozen)"#

    /// Parses a number matched by ``num``.
    static func parseNumber(_ raw: String) -> Double? {
        // Most numbers in steps are plain digits ("20", "1.5"): read at once, they are what the words, fractions and
        // separators below make of them (4.8 K instructions a number, issue 18).
        if isPlainDecimal(raw.utf8), let value = Double(raw) { return value }
        let s = raw.trimmingWhitespace().lowercased()
        if let w = numberWords[s] { return w }
        if s.hasPrefix("a couple") { return 2 }
        var total = 0.0
        var any = false
        for part in s.split(whereSeparator: { $0 == " " }) {
            var p = String(part)
            if let last = p.last, let f = fractions[last] {
                total += f
                any = true
                p.removeLast()
                if p.isEmpty { continue }
            }
            // On ASCII text Foundation's search and replacement are byte operations (canonical equivalence is
            // identity there): asked of the bytes, without Foundation's per-call cost (16 K instructions a number).
            let ascii = p.utf8.allSatisfy { $0 < 0x80 }
            if ascii ? p.utf8.contains(0x2F) : p.contains("/") {
                let ab = p.split(separator: "/")
                if ab.count == 2, let a = Double(ab[0]), let b = Double(ab[1]), b != 0 {
                    total += a / b
                    any = true
                    continue
                }
                return nil
            }
            if let v = Double(ascii && !p.utf8.contains(0x2C) ? p : p.replacingOccurrences(of: ",", with: ".")) {
                total += v
                any = true
            } else {
                return nil
            }
        }
        return any ? total : nil
    }

    /// Whether `utf8` is ASCII digits, optionally a point and more digits ("20", "1.5"; not "1.", ".5", " 2").
    static func isPlainDecimal(_ utf8: String.UTF8View) -> Bool {
        var digits = 0
        var point = false
        for byte in utf8 {
            if byte &- UInt8(ascii: "0") < 10 {
                digits += 1
            } else if byte == UInt8(ascii: "."), !point, digits > 0 {
                point = true
                digits = 0
            } else {
                return false
            }
        }
        return digits > 0
    }

    // MARK: Durations

    static let durationUnit = #"(?:hours?|hrs?\.?|minutes?|mins?\.?|seconds?|secs?\.?|days?|(?<=\d)h|(?<=\d)m(?![a-z]))"#
    static let durationAtom = RX(#"\b("# + num + #")(?:\s*(?:-|–|—|to|or)\s*("# + num + #"))?(?:\s*|-)("# + durationUnit + #")(?![a-z])"#)
    static let isoDuration = RX(#"^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$"#)

    static func unitMinutes(_ unit: String) -> Double {
        let u = unit.lowercased()
        if u.hasPrefix("h") { return 60 }
        if u.hasPrefix("d") { return 1440 }
        if u.hasPrefix("s") { return 1.0 / 60 }
        return 1
    }

    struct DurationHit {
        var range: Range<String.Index>
        var minutes: Double
        var maxMinutes: Double?
    }

    /// Every duration in `text`, with adjacent parts joined ("1 hr 15 min" is one duration of 75 minutes).
    static func durations(in text: String) -> [DurationHit] {
        guard mayHoldDuration(text) else { return [] }
        var atoms: [DurationHit] = []
        for m in durationAtoms(text) {
            guard let a = m.groups[0].flatMap(parseNumber), let unit = m.groups[2] else { continue }
            // "a second bowl" is not a duration.
            if let q = m.groups[0]?.lowercased(), ["a", "an"].contains(q), unit.lowercased().hasPrefix("sec") { continue }
            let f = unitMinutes(unit)
            let b = m.groups[1].flatMap(parseNumber)
            atoms.append(DurationHit(range: m.range, minutes: a * f, maxMinutes: b.map { $0 * f }))
        }
        var merged: [DurationHit] = []
        for atom in atoms {
            if var last = merged.last, last.maxMinutes == nil, atom.maxMinutes == nil, atom.minutes < last.minutes {
                let between = text[last.range.upperBound..<atom.range.lowerBound]
                    .trimmingWhitespace().lowercased()
                if between.isEmpty || between == "and" || between == "," {
                    last.minutes += atom.minutes
                    last.range = last.range.lowerBound..<atom.range.upperBound
                    merged[merged.count - 1] = last
                    continue
                }
            }
            merged.append(atom)
        }
        return merged.filter { $0.minutes > 0 }
    }

    /// ``durationAtom``'s matches: from the byte scanner (``DurationScanner``), or from ICU for a text holding a
    /// character the scanner does not model.
    static func durationAtoms(_ text: String) -> [RX.Match] {
        guard let atoms = DurationScanner.atoms(in: text) else { return durationAtom.matches(text) }
        return atoms.map { match(text, $0.range, groups: [$0.first, $0.second, $0.unit]) }
    }

    static let durationUnitStarts: [[UInt8]] = ["hour", "hr", "min", "sec", "day"].map { Array($0.utf8) }

    /// Whether `text` may hold a ``durationAtom``: a unit word ("hour", "hrs", "min", "sec", "day"), or "h"/"m"
    /// right after a digit ("20m", "1h"; a non-ASCII byte before it may be a digit too).
    static func mayHoldDuration(_ text: String) -> Bool {
        Prefilter.mayContain(text, anyOf: durationUnitStarts) || Prefilter.withBytes(text) { bytes in
            var previous: UInt8 = 0x20
            for b in bytes {
                let l = Prefilter.lower(b)
                if (l == 0x68 || l == 0x6D) && (Prefilter.isDigit(previous) || previous >= 0x80) { return true }
                previous = b
            }
            return false
        }
    }

    /// Minutes in a time value: "15 mins", "1 hr 20 min", "PT30M", "1 hour", "45" (bare number = minutes).
    static func parseMinutes(_ raw: String) -> (Double, Double?)? {
        let s = raw.trimmingWhitespace()
        // ``isoDuration`` opens with "P" (any case; no other character folds to it): other texts skip ICU.
        let opensWithP = s.utf8.first == UInt8(ascii: "P") || s.utf8.first == UInt8(ascii: "p")
        if opensWithP, let m = isoDuration.firstMatch(s), s.count > 1 {
            let d = m.groups[0].flatMap(Double.init) ?? 0
            let h = m.groups[1].flatMap(Double.init) ?? 0
            let mi = m.groups[2].flatMap(Double.init) ?? 0
            let se = m.groups[3].flatMap(Double.init) ?? 0
            let total = d * 1440 + h * 60 + mi + se / 60
            return total > 0 || s.contains("0") ? (total, nil) : nil
        }
        let hits = durations(in: s)
        if let first = hits.first {
            // The value must be the main content: no more than a few other words around it.
            let rest = s.replacingCharacters(in: first.range, with: "")
            if hits.count > 1 || rest.contains(":") { return nil }
            let words = rest.split(whereSeparator: { !$0.isLetter }).filter { !["about", "approx", "approximately", "around", "plus", "overnight", "total", "and"].contains($0.lowercased()) }
            if words.count <= 3 { return (first.minutes, first.maxMinutes) }
            return nil
        }
        if let v = Double(s), v >= 0 { return (v, nil) }
        return nil
    }

    // MARK: Temperatures

    static let tempDegrees = RX(#"(\d{2,3})(?:\s*(?:-|–|to)\s*\d{2,3})?\s*(?:°|º|˚|degrees?\b|deg\b\.?)\s*(c\b|f\b|celsius|fahrenheit|centigrade)?(?:\s*\(?fan\)?)?"#)
    static let tempBare = RX(#"\b(\d{2,3})\s?(C|F)\b(?:\s*\(?fan\)?)?"#, caseInsensitive: false)
    static let gasMark = RX(#"\bgas(?:\s+mark)?\s*(\d+(?:\.\d+)?|½|¼|1/2|1/4)"#)
    static let gasToC: [Double: Double] = [0.25: 110, 0.5: 120, 1: 140, 2: 150, 3: 170, 4: 180, 5: 190, 6: 200,
                                           7: 220, 8: 230, 9: 240, 10: 260]

    /// Every oven or food temperature in `text`.
    static func temperatures(in text: String) -> [StepTemperature] {
        var out: [(Range<String.Index>, StepTemperature)] = []
        func overlaps(_ r: Range<String.Index>) -> Bool { out.contains { $0.0.overlaps(r) } }
        let (degrees, bare, gas) = temperatureCues(text)
        for m in degrees ? degreeMatches(text) : [] {
            guard let v = m.groups[0].flatMap(Double.init) else { continue }
            var unit: String
            if let u = m.groups[1]?.lowercased() {
                unit = u.hasPrefix("f") ? "F" : "C"
            } else {
                unit = v >= 250 ? "F" : "C"
            }
            if m.groups[1] == nil && !text[m.range].contains(where: { "°º˚".contains($0) }) && v < 100 { continue }
            if unit == "C" && m.groups[1] == nil && v < 100 && !text[m.range].contains("°") { continue }
            out.append((m.range, StepTemperature(value: v, unit: unit, text: String(text[m.range]).trimmingWhitespace())))
        }
        for m in bare ? bareMatches(text) : [] where !overlaps(m.range) {
            guard let v = m.groups[0].flatMap(Double.init), let u = m.groups[1] else { continue }
            out.append((m.range, StepTemperature(value: v, unit: u, text: String(text[m.range]))))
        }
        for m in gas ? gasMark.matches(text) : [] where !overlaps(m.range) {
            guard let g = m.groups[0].flatMap(parseNumber) else { continue }
            let c = gasToC[g] ?? (g < 1 ? 120 : 130 + g * 12.5)
            out.append((m.range, StepTemperature(value: c, unit: "C", gasMark: g, text: String(text[m.range]).trimmingWhitespace())))
        }
        return out.sorted { $0.0.lowerBound < $1.0.lowerBound }.map(\.1)
    }

    /// ``tempDegrees``'s matches: from the byte scanner (``TemperatureScanner``), or from ICU for a text holding a
    /// character the scanner does not model.
    static func degreeMatches(_ text: String) -> [RX.Match] {
        guard let hits = TemperatureScanner.degrees(in: text) else { return tempDegrees.matches(text) }
        return hits.map { match(text, $0.range, groups: [$0.value, $0.unit]) }
    }

    /// ``tempBare``'s matches, as ``degreeMatches(_:)``.
    static func bareMatches(_ text: String) -> [RX.Match] {
        guard let hits = TemperatureScanner.bare(in: text) else { return tempBare.matches(text) }
        return hits.map { match(text, $0.range, groups: [$0.value, $0.unit]) }
    }

    /// A match found by a byte scanner, as ICU's: byte offsets in `text` to indices, groups to strings.
    static func match(_ text: String, _ range: Range<Int>, groups: [Range<Int>?]) -> RX.Match {
        let utf8 = text.utf8
        func index(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
        func indices(_ r: Range<Int>) -> Range<String.Index> { index(r.lowerBound)..<index(r.upperBound) }
        let ranges = groups.map { $0.map(indices) }
        return RX.Match(range: indices(range), groups: ranges.map { $0.map { String(text[$0]) } }, groupRanges: ranges)
    }

    static let degreeWord: [[UInt8]] = [Array("deg".utf8)]
    static let gasWord: [[UInt8]] = [Array("gas".utf8)]

    /// Which temperature patterns may match `text`: ``tempDegrees`` needs a degree sign (°, º, ˚) or "deg",
    /// ``tempBare`` (case-sensitive) a "C" or "F" after a digit or a space (ASCII or not), ``gasMark`` "gas".
    static func temperatureCues(_ text: String) -> (degrees: Bool, bare: Bool, gas: Bool) {
        let sign = Prefilter.withBytes(text) { bytes -> (Bool, Bool) in
            var degreeSign = false
            var bare = false
            var previous: UInt8 = 0
            for b in bytes {
                // ° and º are C2 B0 and C2 BA; ˚ is CB 9A.
                if (previous == 0xC2 && (b == 0xB0 || b == 0xBA)) || (previous == 0xCB && b == 0x9A) { degreeSign = true }
                if (b == 0x43 || b == 0x46) && (Prefilter.isDigit(previous) || previous == 0x20 || previous >= 0x80
                    || (0x09...0x0D).contains(previous)) { bare = true }
                previous = b
            }
            return (degreeSign, bare)
        }
        return (sign.0 || Prefilter.mayContain(text, anyOf: degreeWord), sign.1, Prefilter.mayContain(text, anyOf: gasWord))
    }

    /// Durations inside a step, each with its phrase ("simmer for 10–12 minutes").
    static let durationLead = RX(#"(?:\b([a-z]+)\s+)?((?:(?:for|about|another|a further|further|around|approximately|roughly|up to|at least|or)\s+)*)$"#)

    static let durationVerbs: Set<String> = [
        "simmer", "boil", "cook", "bake", "roast", "fry", "saute", "sauté", "grill", "broil", "steam", "poach", "rest",
        "stand", "sit", "chill", "cool", "freeze", "marinate", "soak", "rise", "prove", "proof", "knead", "whisk", "beat",
        "mix", "stir", "blend", "process", "microwave", "toast", "brown", "sear", "braise", "stew", "reduce", "bubble",
        "leave", "refrigerate", "steep", "infuse", "blanch", "heat", "warm", "melt", "caramelize", "caramelise", "fry,",
        "set", "drain", "dry", "smoke", "ferment", "cure", "sweat", "soften", "wilt", "char", "crisp", "toss", "shake",
        "pressure", "roasting", "baking", "cooking", "simmering", "resting", "chilling", "boiling", "frying", "another",
        "wait", "let", "keep", "continue", "flip", "turn",
    ]

    static func stepDurations(in text: String) -> [StepDuration] {
        durations(in: text).map { hit in
            var start = hit.range.lowerBound
            // The lead is read on the text before the duration in place (no copy of it, no walk from the start:
            // a 300 KB step with a duration every line was quadratic).
            let before = text[..<hit.range.lowerBound]
            if leadMayMatter(before), let m = durationLeadMatch(text, upTo: hit.range.lowerBound) {
                let verb = m.groups[0]?.lowercased()
                if let verb, durationVerbs.contains(verb) || leadConnectors.contains(verb), let vr = m.groupRanges[0] {
                    start = vr.lowerBound
                } else if let connectors = m.groupRanges[1], !connectors.isEmpty {
                    start = connectors.lowerBound
                }
            }
            let phrase = String(text[start..<hit.range.upperBound]).trimmingWhitespace()
            return StepDuration(minutes: round4(hit.minutes), maxMinutes: hit.maxMinutes.map(round4), text: phrase)
        }
    }

    /// The connectors that, as ``durationLead``'s optional word, start a duration's phrase (built once, not per duration).
    static let leadConnectors: Set<String> = ["for", "about", "another", "further", "around", "approximately", "roughly", "or"]

    /// The words whose last run of letters can end a ``durationLead`` match that moves a phrase's start: a verb
    /// or connector (the optional word) and every connector's last word.
    static let leadWords: Set<String> = durationVerbs.union([
        "for", "about", "another", "further", "around", "approximately", "roughly", "or", "to", "least",
    ])
    static let connectorEnds: [String] = ["for", "about", "another", "further", "around", "approximately", "roughly", "to", "least", "or"]

    /// Whether ``durationLead`` can move the start of a duration's phrase: only when `before` ends in whitespace
    /// right after a run of letters that is a verb or connector, or ends with a connector (the pattern's connectors
    /// need no word boundary before them). Decided on the last ASCII bytes; anything else non-ASCII near the end
    /// says "maybe" (ICU's `\s`, `\b` and case folding reach beyond ASCII).
    static func leadMayMatter(_ before: some StringProtocol) -> Bool {
        Prefilter.withBytes(before) { bytes in
            guard let last = bytes.last else { return false }
            if last >= 0x80 { return true }  // a non-ASCII space (ICU's \s) or line end
            var end = bytes.count
            while end > 0, [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains(bytes[end - 1]) { end -= 1 }
            guard end < bytes.count else { return false }  // no whitespace at the end: no word or connector ends there
            guard end > 0 else { return false }
            var start = end
            while start > 0, Prefilter.isLetter(bytes[start - 1]) { start -= 1 }
            if bytes[end - 1] >= 0x80 || (start > 0 && bytes[start - 1] >= 0x80) { return true }
            guard start < end else { return false }  // a digit or a mark before the whitespace
            let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self).lowercased()
            return leadWords.contains(word) || connectorEnds.contains { word.hasSuffix($0) }
        }
    }

    /// ``durationLead``'s match on `before` (the step's text up to a duration), found on its last bytes.
    ///
    /// ICU tries the end-anchored pattern at every position of a long step; the match is the leftmost position
    /// from which the rest is "word connectors… " up to the end. The tail starts right after an ASCII space, at
    /// an ASCII letter, so every position in it reads as in the whole text (`\b` included). A match starting
    /// after the cut is the same as the whole text's: any earlier match would run through the cut, which starts
    /// a word of it, and the tail would then match at the cut itself — then a longer tail, at last the whole text, decides.
    static func durationLeadMatch(_ before: String) -> RX.Match? {
        durationLeadMatch(before, upTo: before.endIndex)
    }

    /// ``durationLead``'s match on `text[..<end]`, with ranges in `text`. The tail read grows fourfold from 24
    /// bytes until it decides (the whole prefix at last), so the work is linear in the match's length, not the
    /// text's.
    static func durationLeadMatch(_ text: String, upTo end: String.Index) -> RX.Match? {
        let length = text.utf8.distance(from: text.utf8.startIndex, to: end)
        var tail = 24
        while length > tail + 8 {
            if let m = durationLeadMatch(text, upTo: end, tail: tail) { return m }
            tail *= 4
        }
        return leadMatch(String(text[..<end]))
    }

    /// ``durationLead``'s first match: from the byte scanner (``LeadScanner``), or from ICU for a text it leaves
    /// to ICU.
    static func leadMatch(_ text: String) -> RX.Match? {
        guard let lead = LeadScanner.firstMatch(in: text) else { return durationLead.firstMatch(text) }
        return match(text, lead.range, groups: [lead.word, lead.connectors])
    }

    /// ``durationLead``'s match found on the last `tail` bytes or so, or `nil` when that tail cannot decide it.
    static func durationLeadMatch(_ before: String, tail: Int) -> RX.Match? {
        before.utf8.count > tail + 8 ? durationLeadMatch(before, upTo: before.endIndex, tail: tail) : nil
    }

    static func durationLeadMatch(_ text: String, upTo end: String.Index, tail: Int) -> RX.Match? {
        let utf8 = text.utf8
        var cut = utf8.index(end, offsetBy: -tail)
        while cut < end, !(utf8[utf8.index(before: cut)] == 0x20 && Prefilter.isLetter(utf8[cut])) {
            utf8.formIndex(after: &cut)
        }
        guard cut < end else { return nil }
        let suffix = String(text[cut..<end])
        guard let m = leadMatch(suffix), m.range.lowerBound != suffix.startIndex else { return nil }
        func shifted(_ i: String.Index) -> String.Index {
            utf8.index(cut, offsetBy: suffix.utf8.distance(from: suffix.utf8.startIndex, to: i))
        }
        func shifted(_ r: Range<String.Index>) -> Range<String.Index> { shifted(r.lowerBound)..<shifted(r.upperBound) }
        return RX.Match(range: shifted(m.range), groups: m.groups, groupRanges: m.groupRanges.map { $0.map(shifted) })
    }

    static func round4(_ v: Double) -> Double { (v * 10000).rounded() / 10000 }

    // MARK: Yields

    static let yieldLabelled = RX(#"^(serves|serving size|servings|serving|portions|feeds|yields?|makes|for)\b\s*:?\s*(?:about|approx\.?|approximately|around|up to|roughly)?\s*("# + num + #")(?:\s*(?:-|–|—|to|or)\s*("# + num + #"))?\b\s*(.*)$"#)
    static let yieldTrailing = RX(#"^("# + num + #")(?:\s*(?:-|–|—|to)\s*("# + num + #"))?\s+(servings?|portions?|people|persons|portionen|personen|personnes|porzioni|persone|raciones|porciones|personas)\b\s*(.*)$"#)
    static let yieldLabelOnly = RX(#"^(serves|servings|yields?|makes|portions)\s*:\s*(.+)$"#)
    static let servingWords: Set<String> = ["serving", "servings", "portion", "portions", "people", "persons", "person", "as", "adults", "hungry"]

    /// Parses a yield line such as "Serves 4-6", "Makes 12 cookies", "Yield: 2 loaves", "Servings: 4".
    static func parseYield(_ raw: String) -> RecipeYield? {
        let s = raw.trimmingWhitespace()
        guard s.count <= 80 else { return nil }
        if let m = yieldLabelled.firstMatch(s), let a = m.groups[1].flatMap(parseNumber), a > 0 {
            let label = (m.groups[0] ?? "").lowercased()
            if label == "for" {
                // "For 4 people" only; "For the sauce" is not a yield.
                let rest = (m.groups[3] ?? "").lowercased()
                guard rest.hasPrefix("people") || rest.hasPrefix("persons") || rest.hasPrefix("servings") else { return nil }
            }
            let b = m.groups[2].flatMap(parseNumber)
            var unit: String? = nil
            let rest = cleanYieldUnit(m.groups[3] ?? "")
            if let rest, !(label.hasPrefix("serv") || label == "feeds" || label == "portions") {
                unit = rest
            }
            if (m.groups[3] ?? "").split(separator: " ").count > 8 { return nil }
            return RecipeYield(servings: a, maxServings: b.flatMap { $0 > a ? $0 : nil }, unit: unit, text: s)
        }
        if let m = yieldTrailing.firstMatch(s), let a = m.groups[0].flatMap(parseNumber), a > 0 {
            // "4 servings", "4 servings (as a main)"; not "2 servings noodles (of choice)", an ingredient line.
            let rest = (m.groups[3] ?? "").trimmingWhitespace().lowercased()
            if !(rest.isEmpty || rest.hasPrefix("(") || rest.hasPrefix(",") || rest.hasPrefix("as ") || rest.hasPrefix("-")) { return nil }
            let b = m.groups[1].flatMap(parseNumber)
            return RecipeYield(servings: a, maxServings: b.flatMap { $0 > a ? $0 : nil }, unit: nil, text: s)
        }
        if let m = yieldLabelOnly.firstMatch(s), let v = m.groups[1], v.count <= 40 {
            return RecipeYield(text: s)
        }
        return nil
    }

    /// What a yield's unit is trimmed of (built once: a union of Foundation's sets costs tens of thousands of
    /// instructions).
    static let yieldUnitTrimmed = CharacterSet.whitespaces.union(.punctuationCharacters)

    static func cleanYieldUnit(_ raw: String) -> String? {
        var r = raw
        if let p = r.firstIndex(where: { "(,;[".contains($0) }) { r = String(r[..<p]) }
        r = r.trimmingCharacters(in: yieldUnitTrimmed)
        guard !r.isEmpty else { return nil }
        let words = r.split(separator: " ")
        if let first = words.first, servingWords.contains(first.lowercased()) { return nil }
        if words.count > 3 { return nil }
        return r
    }

    /// Yield from a number of servings in front matter or a bare number.
    static func parseYieldValue(_ raw: String, text: String) -> RecipeYield? {
        if let y = parseYield(raw) { return RecipeYield(servings: y.servings, maxServings: y.maxServings, unit: y.unit, text: text) }
        let r = RX(#"^("# + num + #")(?:\s*(?:-|–|to)\s*("# + num + #"))?\s*(.*)$"#)
        if let m = r.firstMatch(raw.trimmingWhitespace()), let a = m.groups[0].flatMap(parseNumber), a > 0 {
            let b = m.groups[1].flatMap(parseNumber)
            return RecipeYield(servings: a, maxServings: b.flatMap { $0 > a ? $0 : nil }, unit: cleanYieldUnit(m.groups[2] ?? ""), text: text)
        }
        return raw.isEmpty ? nil : RecipeYield(text: text)
    }

    // MARK: Times

    enum TimeKind: String { case prep, cook, total, other }

    static let timeLabelled = RX(#"^(prep(?:aration)?|active|hands[- ]on|cook(?:ing)?|bake|baking|roast(?:ing)?|grill(?:ing)?|fry(?:ing)?|total|ready in|takes|time|rest(?:ing)?|chill(?:ing)?|inactive|marinat(?:e|ing)|freez(?:e|ing)|ris(?:e|ing)|proof(?:ing)?|soak(?:ing)?|set(?:ting)?|cool(?:ing)?|additional)\.?\s*(?:time)?\s*(?::|-|–|=)?\s*(.+)$"#)

    static func timeKind(_ label: String) -> TimeKind {
        let l = label.lowercased()
        if l.hasPrefix("prep") || l == "active" || l.hasPrefix("hands") { return .prep }
        if l.hasPrefix("cook") || l.hasPrefix("bak") || l.hasPrefix("roast") || l.hasPrefix("grill") || l.hasPrefix("fry") { return .cook }
        if l.hasPrefix("total") || l.hasPrefix("ready") || l == "takes" || l == "time" { return .total }
        return .other
    }

    /// Parses a labelled time such as "Prep time: 10 minutes", "Cook: 1 hr 20 min", "Ready in 45 mins".
    static func parseTime(_ raw: String) -> (TimeKind, Double)? {
        let s = raw.trimmingWhitespace()
        guard s.count <= 60, let m = timeLabelled.firstMatch(s), let label = m.groups[0], let value = m.groups[1] else { return nil }
        // "Time" alone must be followed by a colon ("Time: 30 minutes").
        if label.lowercased() == "time" && !s.contains(":") { return nil }
        // Without a colon or the word "time" only "Ready in …" / "Takes …" are times ("Bake for 30 minutes." is a step).
        let l = label.lowercased()
        if !s.contains(":") && !s.lowercased().contains("time") && !(l.hasPrefix("ready") || l == "takes") {
            let v = value.lowercased()
            if v.hasPrefix("for") || v.hasPrefix("at") || v.hasPrefix("until") || s.hasSuffix(".") { return nil }
        }
        guard let (minutes, _) = parseMinutes(value) else { return nil }
        // A bare number is only accepted after a colon ("Prep: 10").
        if Double(value.trimmingWhitespace()) != nil && !s.contains(":") { return nil }
        return (timeKind(label), minutes)
    }
}
