/// ``Patterns/tempDegrees`` and ``Patterns/tempBare`` read on UTF-8 bytes, the way ``DurationScanner`` reads the
/// duration pattern: each part offers its ends in ICU's order to a continuation, matches are found left to right
/// without overlap, and a text with a character ``CharacterClass`` does not model is left to ICU (`nil`).
///
///     tempDegrees (case-insensitive):
///     (\d{2,3})(?:\s*(?:-|–|to)\s*\d{2,3})?\s*(?:°|º|˚|degrees?\b|deg\b\.?)\s*(c\b|f\b|celsius|fahrenheit|centigrade)?(?:\s*\(?fan\)?)?
///     tempBare (case-sensitive):
///     \b(\d{2,3})\s?(C|F)\b(?:\s*\(?fan\)?)?
struct TemperatureScanner {
    /// One match: byte offsets of the whole match, the number and the unit (absent when the optional unit is).
    struct Hit: Equatable {
        var range: Range<Int>
        var value: Range<Int>
        var unit: Range<Int>?
    }

    let scanner: DurationScanner
    var bytes: UnsafeBufferPointer<UInt8> { scanner.bytes }
    var count: Int { bytes.count }

    init(bytes: UnsafeBufferPointer<UInt8>) { scanner = DurationScanner(bytes: bytes) }

    /// ``Patterns/tempDegrees``'s matches in `text`, or `nil` when the text holds a character not modelled.
    static func degrees(in text: some StringProtocol) -> [Hit]? {
        Prefilter.withBytes(text) { bytes in
            guard CharacterClass.modelsAll(bytes) else { return nil }
            return TemperatureScanner(bytes: bytes).all { $0.degrees(at: $1) }
        }
    }

    /// ``Patterns/tempBare``'s matches in `text`, or `nil` when the text holds a character not modelled.
    static func bare(in text: some StringProtocol) -> [Hit]? {
        Prefilter.withBytes(text) { bytes in
            guard CharacterClass.modelsAll(bytes) else { return nil }
            return TemperatureScanner(bytes: bytes).all { $0.bare(at: $1) }
        }
    }

    /// Every match, left to right without overlap; both patterns open with an ASCII digit.
    func all(_ match: (TemperatureScanner, Int) -> Hit?) -> [Hit] {
        var out: [Hit] = []
        var p = 0
        while p < count {
            if Prefilter.isDigit(bytes[p]), let hit = match(self, p) {
                out.append(hit)
                p = hit.range.upperBound
            } else {
                p += 1
            }
        }
        return out
    }

    // MARK: tempDegrees

    func degrees(at p: Int) -> Hit? {
        var value = p..<p
        var unit: Range<Int>? = nil
        var end = p
        let found = digits2or3(p) { e1 in
            value = p..<e1
            let rest: (Int) -> Bool = { e2 in
                scanner.spaces(from: e2, atLeastOne: false) { s in
                    degreeMark(s) { e3 in
                        // \s*(unit)?(fan)? — both optional parts always let the match end.
                        scanner.spaces(from: e3, atLeastOne: false) { s2 in
                            if let u = unitWord(s2) {
                                unit = s2..<u
                                end = fan(u, caseInsensitive: true)
                                return true
                            }
                            unit = nil
                            end = fan(s2, caseInsensitive: true)
                            return true
                        }
                    }
                }
            }
            // (?:\s*(?:-|–|to)\s*\d{2,3})? — taken first, then skipped.
            let ranged = scanner.spaces(from: e1, atLeastOne: false) { s in
                for connector in Self.rangeConnectors {
                    guard let c = scanner.literal(connector, at: s) else { continue }
                    if scanner.spaces(from: c, atLeastOne: false, { t in digits2or3(t, rest) }) { return true }
                }
                return false
            }
            return ranged || rest(e1)
        }
        return found ? Hit(range: p..<end, value: value, unit: unit) : nil
    }

    static let rangeConnectors: [[UInt8]] = ["-", "–", "to"].map { Array($0.utf8) }

    /// `\d{2,3}` at `i`: three digits, then two.
    func digits2or3(_ i: Int, _ k: (Int) -> Bool) -> Bool {
        let run = min(scanner.digitsEnd(i), i + 3)
        var e = run
        while e >= i + 2 {
            if k(e) { return true }
            e -= 1
        }
        return false
    }

    static let degreeSigns: [[UInt8]] = ["°", "º", "˚"].map { Array($0.utf8) }

    /// `(?:°|º|˚|degrees?\b|deg\b\.?)` at `i`.
    func degreeMark(_ i: Int, _ k: (Int) -> Bool) -> Bool {
        for sign in Self.degreeSigns {
            if let e = scanner.literal(sign, at: i), k(e) { return true }
        }
        if let e = scanner.literal(Array("degree".utf8), at: i) {
            if let s = scanner.literal([0x73], at: e), isBoundary(s), k(s) { return true }
            if isBoundary(e), k(e) { return true }
        }
        if let e = scanner.literal(Array("deg".utf8), at: i), isBoundary(e) {
            if let dot = scanner.literal([0x2E], at: e), k(dot) { return true }
            if k(e) { return true }
        }
        return false
    }

    static let unitWords: [[UInt8]] = ["celsius", "fahrenheit", "centigrade"].map { Array($0.utf8) }

    /// `(c\b|f\b|celsius|fahrenheit|centigrade)` at `i`: the end of the first alternative that matches (what
    /// follows the group always matches, so the first is the one ICU keeps).
    func unitWord(_ i: Int) -> Int? {
        guard i < count else { return nil }
        let l = Prefilter.lower(bytes[i])
        if (l == 0x63 || l == 0x66) && isBoundary(i + 1) { return i + 1 }
        for word in Self.unitWords {
            if let e = scanner.literal(word, at: i) { return e }
        }
        return nil
    }

    /// `(?:\s*\(?fan\)?)?` from `i`: the match's end (the group taken when it can be, greedy inside).
    func fan(_ i: Int, caseInsensitive: Bool) -> Int {
        var end = i
        _ = scanner.spaces(from: i, atLeastOne: false) { s in
            let open = s < count && bytes[s] == 0x28 ? s + 1 : s
            for start in open == s ? [s] : [open, s] {
                guard start + 3 <= count else { continue }
                let word = (0..<3).map { caseInsensitive ? Prefilter.lower(bytes[start + $0]) : bytes[start + $0] }
                guard word == [0x66, 0x61, 0x6E] else { continue }
                end = start + 3 < count && bytes[start + 3] == 0x29 ? start + 4 : start + 3
                return true
            }
            return false
        }
        return end
    }

    // MARK: tempBare

    func bare(at p: Int) -> Hit? {
        guard scanner.isWordBefore(p) != scanner.isWordAt(p) else { return nil }  // \b
        var hit: Hit? = nil
        _ = digits2or3(p) { e1 in
            // \s? — one white-space character taken, then none.
            var starts: [Int] = []
            if let length = CharacterClass.spaceLength(bytes, at: e1) { starts.append(e1 + length) }
            starts.append(e1)
            for s in starts where s < count && (bytes[s] == 0x43 || bytes[s] == 0x46) && isBoundary(s + 1) {
                hit = Hit(range: p..<fan(s + 1, caseInsensitive: false), value: p..<e1, unit: s..<(s + 1))
                return true
            }
            return false
        }
        return hit
    }

    /// `\b` at `i`.
    func isBoundary(_ i: Int) -> Bool { scanner.isWordBefore(i) != scanner.isWordAt(i) }
}
