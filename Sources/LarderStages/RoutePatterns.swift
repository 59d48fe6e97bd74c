/// `route`'s two line patterns (``RouteStage/pricedLine``, ``RouteStage/measuredLine``) decided on the bytes of a line
/// of ASCII and plain symbols (``RouteStage/isPlainSymbol(_:)``), the lines `route` keeps as bytes, without making
/// the line a `String` or calling ICU. Each answers whether the pattern matches the line lower-cased (A–Z only:
/// the plain symbols are their own lower case), as `NSRegularExpression.firstMatch` does; `RoutePatternTests`
/// compares them with ICU on edge lines and seeded random ones.
///
/// What ICU's classes are on such a line: `\d` the ASCII digits (no plain symbol is a decimal digit); `\s` (White_Space)
/// bytes 0x09–0x0D, the space and U+00A0 (no-break space, the only plain symbol that is white space); `$` (no
/// multi-line mode) the end of the line or just before a line terminator that ends it, 0x0B or 0x0C here (the line
/// holds no "\n", and no "\r": a text with one is read as characters).
enum RoutePatterns {
    /// `\d+[.,]\d\d\s*[a-z]?$` somewhere in the line.
    static func endsInPrice(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = line.count
        if priceEnds(line, at: n) { return true }
        // `$` also matches before a line terminator that ends the line.
        return n > 0 && (line[n - 1] == 0x0B || line[n - 1] == 0x0C) && priceEnds(line, at: n - 1)
    }

    /// Whether `\d+[.,]\d\d\s*[a-z]?` can end at `end`. Read backwards, every step is forced: a letter before `end`
    /// can only be `[a-z]?` (white space and digits come before it), white space only `\s*`.
    private static func priceEnds(_ line: UnsafeBufferPointer<UInt8>, at end: Int) -> Bool {
        var i = end
        if i > 0, (line[i - 1] | 0x20) &- 0x61 < 26 { i -= 1 }
        while i > 0 {
            if space(line[i - 1]) {
                i -= 1
            } else if i >= 2, line[i - 1] == 0xA0, line[i - 2] == 0xC2 {
                i -= 2
            } else {
                break
            }
        }
        guard i >= 4 else { return false }
        return digit(line[i - 1]) && digit(line[i - 2]) && (line[i - 3] == 0x2E || line[i - 3] == 0x2C) && digit(line[i - 4])
    }

    /// `^\s*(?:[-•*]\s*)?\d+(?:[.,/]\d+)?(?:\s+\d/\d)?\s*[½¼¾⅓⅔]?\s*(?:UNIT)\.?(?:\s|$)` (``RouteStage/measuredLine``).
    /// Up to the unit every optional part is forced: what follows it can never start with what it starts with, so
    /// a match takes it whenever it is there and ICU's backtracking into it cannot succeed. The unit alternatives
    /// are all tried.
    static func opensWithMeasure(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = line.count
        var i = skipSpaces(line, from: 0)
        if i < n, line[i] == 0x2D || line[i] == 0x2A {  // "-", "*"
            i = skipSpaces(line, from: i + 1)
        } else if i + 2 < n, line[i] == 0xE2, line[i + 1] == 0x80, line[i + 2] == 0xA2 {  // "•"
            i = skipSpaces(line, from: i + 3)
        }
        guard i < n, digit(line[i]) else { return false }
        i = skipDigits(line, from: i)
        if i + 1 < n, line[i] == 0x2E || line[i] == 0x2C || line[i] == 0x2F, digit(line[i + 1]) {
            i = skipDigits(line, from: i + 1)
        }
        let gap = skipSpaces(line, from: i)
        if gap > i, gap + 2 < n, digit(line[gap]), line[gap + 1] == 0x2F, digit(line[gap + 2]) { i = gap + 3 }
        i = skipSpaces(line, from: i)
        for fraction in fractions where has(line, at: i, fraction) {
            i += fraction.count
            break
        }
        i = skipSpaces(line, from: i)
        // `\.?(?:\s|$)` after the unit: "." is neither white space nor a line's end, so a dot is taken.
        func closes(_ end: Int) -> Bool {
            let k = end < n && line[end] == 0x2E ? end + 1 : end
            return k == n || spaceLength(line, at: k) > 0
        }
        for unit in units where matchesLetters(line, at: i, unit) && closes(i + unit.count) { return true }
        // `t\s?bs` and `fl\.?\s?oz`: one white space character (or none) inside.
        if matchesLetters(line, at: i, t) {
            let k = i + 1 + spaceLength(line, at: i + 1)
            if matchesLetters(line, at: k, bs), closes(k + 2) { return true }
        }
        if matchesLetters(line, at: i, fl) {
            let dotted = i + 2 < n && line[i + 2] == 0x2E
            for start in dotted ? [i + 2, i + 3] : [i + 2] {
                let k = start + spaceLength(line, at: start)
                if matchesLetters(line, at: k, oz), closes(k + 2) { return true }
            }
        }
        return false
    }

    /// The other unit alternatives spelled out (`cups?` is "cup" and "cups", `cucchia[io]` "cucchiai" and
    /// "cucchiao", `cucchiaini?` "cucchiain" and "cucchiaini").
    private static let units: [[UInt8]] = [
        "tbsp", "tbs", "tsp", "c", "cup", "cups", "oz", "dash", "dashes", "sprig", "sprigs", "bunch", "lb", "lbs",
        "g", "kg", "ml", "l", "el", "tl", "clove", "cloves", "pinch", "can", "cans", "prise", "zehe", "zehen", "bund",
        "dose", "cucchiai", "cucchiao", "cucchiain", "cucchiaini", "cucharada", "cucharadas", "cucharadita",
        "cucharaditas",
    ].map { Array($0.utf8) }

    private static let (t, bs, fl, oz) = (Array("t".utf8), Array("bs".utf8), Array("fl".utf8), Array("oz".utf8))

    /// ½ ¼ ¾ ⅓ ⅔ in UTF-8.
    private static let fractions: [[UInt8]] = ["½", "¼", "¾", "⅓", "⅔"].map { Array($0.utf8) }

    /// Whether the line has `word` (lower-case ASCII letters) at `start`, its A–Z read as lower case.
    private static func matchesLetters(_ line: UnsafeBufferPointer<UInt8>, at start: Int, _ word: [UInt8]) -> Bool {
        guard start + word.count <= line.count else { return false }
        for (k, letter) in word.enumerated() {
            let byte = line[start + k]
            guard byte == letter || (byte &- 0x41 < 26 && byte | 0x20 == letter) else { return false }
        }
        return true
    }

    private static func has(_ line: UnsafeBufferPointer<UInt8>, at start: Int, _ bytes: [UInt8]) -> Bool {
        start + bytes.count <= line.count && bytes.indices.allSatisfy { line[start + $0] == bytes[$0] }
    }

    @inline(__always)
    private static func digit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    /// An ASCII white space byte as ICU's `\s` reads it: tab, line feed, vertical tab, form feed, carriage return,
    /// space (not 0x1C–0x1F).
    @inline(__always)
    private static func space(_ byte: UInt8) -> Bool { byte == 0x20 || byte &- 0x09 < 5 }

    /// The bytes of the white space character at `i` (1, or 2 for U+00A0), 0 when there is none.
    private static func spaceLength(_ line: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        guard i < line.count else { return 0 }
        if space(line[i]) { return 1 }
        return line[i] == 0xC2 && i + 1 < line.count && line[i + 1] == 0xA0 ? 2 : 0
    }

    private static func skipSpaces(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        while case let k = spaceLength(line, at: i), k > 0 { i += k }
        return i
    }

    private static func skipDigits(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        while i < line.count, digit(line[i]) { i += 1 }
        return i
    }
}
