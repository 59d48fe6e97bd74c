/// ``Patterns/durationAtom`` read on UTF-8 bytes: the same matches, without ICU (which ran on every step, 5 M
/// instructions per document of the ingest benchmark, 2026-11-24).
///
/// The pattern, case-insensitive:
///
///     \b(NUM)(?:\s*(?:-|–|—|to|or)\s*(NUM))?(?:\s*|-)(UNIT)(?![a-z])
///
/// The scanner is a backtracking matcher written for this one pattern: each part offers its possible ends in the
/// order ICU tries them (greedy repeats longest first, alternatives left to right, optional parts taken before
/// skipped) to a continuation, and the first end the rest accepts is the match, as in ICU's depth-first search.
/// Matches are found left to right without overlap, as `NSRegularExpression.matches` finds them.
///
/// It models the characters ICU's classes see in ASCII, and a list of common non-ASCII ones (``CharacterClass``)
/// whose classes ICU agrees with (`DurationScannerTests` checks each against ICU). A text with any other non-ASCII
/// character returns `nil`, and ``Patterns/durations(in:)`` asks ICU instead: the result is the same for every text.
struct DurationScanner {
    /// One match: byte offsets in the text of the whole match and of its three groups.
    struct Atom: Equatable {
        var range: Range<Int>
        var first: Range<Int>
        var second: Range<Int>?
        var unit: Range<Int>
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var count: Int { bytes.count }

    /// Every match in `text`, or `nil` when the text holds a character the scanner does not model.
    static func atoms(in text: some StringProtocol) -> [Atom]? {
        Prefilter.withBytes(text) { bytes in
            guard CharacterClass.modelsAll(bytes) else { return nil }
            return DurationScanner(bytes: bytes).atoms()
        }
    }

    func atoms() -> [Atom] {
        var out: [Atom] = []
        var p = 0
        while p < count {
            let b = bytes[p]
            // A match opens with a digit, a fraction (C2 or E2 lead byte) or a number word's first letter.
            if Self.mayOpen[Int(b)], let atom = match(at: p) {
                out.append(atom)
                p = atom.range.upperBound
            } else {
                p += 1
            }
        }
        return out
    }

    /// The bytes a match can open with: ASCII digits, the lead bytes of ½¼¾ (C2) and ⅓⅔⅛ (E2), and the first
    /// letters of the number words (either case).
    static let mayOpen: [Bool] = (0..<256).map { b in
        if b >= 0x30 && b <= 0x39 { return true }
        if b == 0xC2 || b == 0xE2 { return true }
        let l = Prefilter.lower(UInt8(b))
        return "hatofsend".utf8.contains(l)
    }

    // MARK: The pattern

    /// The match starting at `p`, if any.
    func match(at p: Int) -> Atom? {
        guard isWordBefore(p) != isWordAt(p) else { return nil }  // \b
        var first = p..<p
        var second: Range<Int>? = nil
        var unit = p..<p
        var end = p
        let found = number(p) { e1 in
            first = p..<e1
            // (?:\s*(?:-|–|—|to|or)\s*(NUM))? — taken first, then skipped.
            let ranged = rangeTail(e1) { start, e2 in
                second = start..<e2
                return separatorAndUnit(e2) { u, e in unit = u; end = e; return true }
            }
            if ranged { return true }
            second = nil
            return separatorAndUnit(e1) { u, e in unit = u; end = e; return true }
        }
        return found ? Atom(range: p..<end, first: first, second: second, unit: unit) : nil
    }

    /// `\s*(?:-|–|—|to|or)\s*(NUM)` from `i`: `k` gets the second number's start and end.
    func rangeTail(_ i: Int, _ k: (Int, Int) -> Bool) -> Bool {
        spaces(from: i, atLeastOne: false) { s in
            for connector in Self.connectors {
                guard let c = literal(connector, at: s) else { continue }
                let done = spaces(from: c, atLeastOne: false) { t in number(t) { e in k(t, e) } }
                if done { return true }
            }
            return false
        }
    }

    static let connectors: [[UInt8]] = ["-", "–", "—", "to", "or"].map { Array($0.utf8) }

    /// `(?:\s*|-)(UNIT)(?![a-z])` from `i`: `k` gets the unit's range and the match's end.
    func separatorAndUnit(_ i: Int, _ k: (Range<Int>, Int) -> Bool) -> Bool {
        let spaced = spaces(from: i, atLeastOne: false) { s in
            unitWord(s) { e in !isASCIILetter(e) && k(s..<e, e) }
        }
        if spaced { return true }
        if i < count && bytes[i] == 0x2D {
            return unitWord(i + 1) { e in !isASCIILetter(e) && k((i + 1)..<e, e) }
        }
        return false
    }

    /// The unit alternatives in the pattern's order, each as a stem and its optional suffixes ("hrs?\.?").
    static let unitStems: [(stem: [UInt8], optional: [[UInt8]])] = [
        ("hour", ["s"]), ("hr", ["s", "."]), ("minute", ["s"]), ("min", ["s", "."]), ("second", ["s"]),
        ("sec", ["s", "."]), ("day", ["s"]),
    ].map { (Array($0.0.utf8), $0.1.map { Array($0.utf8) }) }

    /// `(?:hours?|hrs?\.?|minutes?|mins?\.?|seconds?|secs?\.?|days?|(?<=\d)h|(?<=\d)m(?![a-z]))` at `i`.
    func unitWord(_ i: Int, _ k: (Int) -> Bool) -> Bool {
        for (stem, optional) in Self.unitStems {
            guard let e = literal(stem, at: i) else { continue }
            if optionals(optional[...], from: e, k) { return true }
        }
        guard i > 0, i < count, Prefilter.isDigit(bytes[i - 1]) else { return false }
        let l = Prefilter.lower(bytes[i])
        if l == 0x68 && k(i + 1) { return true }  // (?<=\d)h
        if l == 0x6D && !isASCIILetter(i + 1) && k(i + 1) { return true }  // (?<=\d)m(?![a-z])
        return false
    }

    /// A run of optional one-character suffixes, each greedy (taken, then skipped).
    func optionals(_ rest: ArraySlice<[UInt8]>, from i: Int, _ k: (Int) -> Bool) -> Bool {
        guard let next = rest.first else { return k(i) }
        if let e = literal(next, at: i), optionals(rest.dropFirst(), from: e, k) { return true }
        return optionals(rest.dropFirst(), from: i, k)
    }

    // MARK: NUM

    /// The number words after the digit and fraction alternatives, in the pattern's order; `an?` is "an" then "a",
    /// `half an?` likewise.
    static let numberWords: [[UInt8]] = [
        "half an", "half a", "a half", "a couple of", "a few", "a dozen", "an", "a", "one", "two", "three", "four",
        "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "fifteen", "twenty", "thirty",
        "forty-five", "forty", "sixty", "ninety", "several", "dozen",
    ].map { Array($0.utf8) }

    /// For each first letter a–z, the indices of the ``numberWords`` opening with it, in the pattern's order: a word
    /// is tried only against those (``literal(_:at:)`` fails on the first byte for the others). Every word of a step
    /// opening with "a", "t", "s"… was tried against all 29 (issue 18).
    static let numberWordsByLetter: [[Int]] = (0..<26).map { letter in
        numberWords.indices.filter { numberWords[$0][0] == 0x61 + UInt8(letter) }
    }

    /// ``Patterns/num`` at `i`: `k` gets each end in ICU's order.
    func number(_ i: Int, _ k: (Int) -> Bool) -> Bool {
        let digits = digitsEnd(i)
        if digits > i {
            // \d+(?:[.,]\d+)?(?:\s*[½¼¾⅓⅔⅛]|\s+\d+/\d+)?
            var e = digits
            while e > i {
                if e < count && (bytes[e] == 0x2E || bytes[e] == 0x2C) {
                    let decimals = digitsEnd(e + 1)
                    var d = decimals
                    while d > e + 1 {
                        if fractionTail(d, k) { return true }
                        d -= 1
                    }
                }
                if fractionTail(e, k) { return true }
                e -= 1
            }
            // \d+/\d+
            if ratio(i, k) { return true }
        }
        if let length = fractionLength(i), k(i + length) { return true }
        guard i < count, Prefilter.isLetter(bytes[i]) else { return false }
        for w in Self.numberWordsByLetter[Int(Prefilter.lower(bytes[i]) &- 0x61)] {
            if let e = literal(Self.numberWords[w], at: i), k(e) { return true }
        }
        return false
    }

    /// `(?:\s*[½¼¾⅓⅔⅛]|\s+\d+/\d+)?` at `i`.
    func fractionTail(_ i: Int, _ k: (Int) -> Bool) -> Bool {
        let glued = spaces(from: i, atLeastOne: false) { s in
            guard let length = fractionLength(s) else { return false }
            return k(s + length)
        }
        if glued { return true }
        if spaces(from: i, atLeastOne: true, { s in ratio(s, k) }) { return true }
        return k(i)
    }

    /// `\d+/\d+` at `i`.
    func ratio(_ i: Int, _ k: (Int) -> Bool) -> Bool {
        var e = digitsEnd(i)
        while e > i {
            if e < count && bytes[e] == 0x2F {
                var d = digitsEnd(e + 1)
                while d > e + 1 {
                    if k(d) { return true }
                    d -= 1
                }
            }
            e -= 1
        }
        return false
    }

    // MARK: Characters

    /// The end of the run of ASCII digits at `i` (`i` when none).
    func digitsEnd(_ i: Int) -> Int {
        var e = i
        while e < count && Prefilter.isDigit(bytes[e]) { e += 1 }
        return e
    }

    /// `\s*` (or `\s+`) from `i`: `k` gets each end, longest first.
    func spaces(from i: Int, atLeastOne: Bool, _ k: (Int) -> Bool) -> Bool {
        var e = i
        while let length = CharacterClass.spaceLength(bytes, at: e) { e += length }
        while e > i || (e == i && !atLeastOne) {
            if k(e) { return true }
            if e == i { return false }
            e = CharacterClass.scalarStart(bytes, before: e)
        }
        return false
    }

    /// The length of ½¼¾⅓⅔⅛ at `i`, if one is there.
    func fractionLength(_ i: Int) -> Int? {
        guard i + 1 < count else { return nil }
        if bytes[i] == 0xC2 { return [0xBD, 0xBC, 0xBE].contains(bytes[i + 1]) ? 2 : nil }
        guard i + 2 < count, bytes[i] == 0xE2, bytes[i + 1] == 0x85 else { return nil }
        return [0x93, 0x94, 0x9B].contains(bytes[i + 2]) ? 3 : nil
    }

    /// The end of `word` (lower-case; its ASCII letters matched in either case) at `i`, if it is there.
    func literal(_ word: [UInt8], at i: Int) -> Int? {
        guard i + word.count <= count else { return nil }
        for (k, w) in word.enumerated() where Prefilter.lower(bytes[i + k]) != w { return nil }
        return i + word.count
    }

    /// Whether an ASCII letter is at `i` (`[a-z]` without case; no modelled non-ASCII character folds to one).
    func isASCIILetter(_ i: Int) -> Bool { i < count && Prefilter.isLetter(bytes[i]) }

    func isWordAt(_ i: Int) -> Bool { i < count && CharacterClass.isWord(bytes, at: i) }

    func isWordBefore(_ i: Int) -> Bool { i > 0 && CharacterClass.isWord(bytes, at: CharacterClass.scalarStart(bytes, before: i)) }
}
