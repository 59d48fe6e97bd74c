import Foundation

/// A compiled ECMA-262 regular expression (translated to ICU syntax for `NSRegularExpression`).
///
/// Supported: literals, `.`, classes (incl. `[^]` and `[]`), `\d \D \w \W \s \S` with ECMA
/// (ASCII / ECMA whitespace) meaning, `\b \B`, `\cX`, `\uXXXX`, `\u{…}`, `\xHH`, `\p{…}`/`\P{…}`,
/// groups, named groups, look-around, back-references, quantifiers, `^`/`$` anchors (`$` only
/// matches at the very end, as in ECMA-262). Patterns always use Unicode (code point) semantics.
/// Unsupported or invalid syntax throws ``ECMARegex/SyntaxError`` instead of crashing.
struct ECMARegex: @unchecked Sendable {
    // @unchecked: both stored properties are immutable `let`s, and NSRegularExpression is immutable and safe to use
    // from several threads at once (Foundation documents it so).
    // NSRegularExpression is immutable and thread-safe.
    let source: String
    let regex: NSRegularExpression

    struct SyntaxError: Error, Sendable { let message: String }

    init(_ source: String) throws {
        self.source = source
        let translated = try ECMARegex.translate(source)
        do {
            regex = try NSRegularExpression(pattern: translated, options: [])
        } catch {
            throw SyntaxError(message: "invalid regular expression '\(source)'")
        }
    }

    func matches(_ s: String) -> Bool {
        let ns = s as NSString? ?? NSString(string: s)
        return regex.firstMatch(in: s, options: [], range: NSRange(location: 0, length: ns.length)) != nil
    }

    /// Stricter check used by `format: regex`: also rejects non-ECMA group syntax such as
    /// inline flags `(?i)` and comments `(?#…)`.
    static func isValidECMA(_ s: String) -> Bool {
        let chars = Array(s.unicodeScalars)
        var i = 0
        var inClass = false
        while i < chars.count {
            let c = chars[i]
            if c == "\\" { i += 2; continue }
            if inClass { if c == "]" { inClass = false }; i += 1; continue }
            if c == "[" { inClass = true }
            if c == "(" && i + 1 < chars.count && chars[i + 1] == "?" {
                guard i + 2 < chars.count else { return false }
                let n = chars[i + 2]
                if n == ":" || n == "=" || n == "!" { i += 3; continue }
                if n == "<" {
                    guard i + 3 < chars.count else { return false }
                    let m = chars[i + 3]
                    if m == "=" || m == "!" || m.properties.isAlphabetic || m == "_" || m == "$" { i += 4; continue }
                }
                return false
            }
            i += 1
        }
        return (try? ECMARegex(s)) != nil
    }

    static let wsRanges: [(UInt32, UInt32)] = [
        (0x09, 0x0D), (0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A),
        (0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000), (0xFEFF, 0xFEFF),
    ]
    static let digitRanges: [(UInt32, UInt32)] = [(0x30, 0x39)]
    static let wordRanges: [(UInt32, UInt32)] = [(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)]

    static func classBody(_ ranges: [(UInt32, UInt32)]) -> String {
        ranges.map { $0.0 == $0.1 ? "\\x{\(String($0.0, radix: 16))}" : "\\x{\(String($0.0, radix: 16))}-\\x{\(String($0.1, radix: 16))}" }.joined()
    }

    static func complement(_ ranges: [(UInt32, UInt32)]) -> [(UInt32, UInt32)] {
        var out: [(UInt32, UInt32)] = []
        var next: UInt32 = 0
        for (a, b) in ranges {
            if a > next { out.append((next, a - 1)) }
            next = b + 1
        }
        if next <= 0x10FFFF { out.append((next, 0x10FFFF)) }
        return out
    }

    static func translate(_ pattern: String) throws -> String {
        let chars = Array(pattern.unicodeScalars)
        var out = ""
        var i = 0
        var inClass = false
        func hexValue(_ c: Unicode.Scalar) -> Bool { c.properties.isASCIIHexDigit }
        while i < chars.count {
            let c = chars[i]
            if c == "\\" {
                guard i + 1 < chars.count else { throw SyntaxError(message: "pattern ends with a backslash") }
                let e = chars[i + 1]
                i += 2
                switch e {
                case "d": out += inClass ? classBody(digitRanges) : "[" + classBody(digitRanges) + "]"
                case "D": out += inClass ? classBody(complement(digitRanges)) : "[" + classBody(complement(digitRanges)) + "]"
                case "w": out += inClass ? classBody(wordRanges) : "[" + classBody(wordRanges) + "]"
                case "W": out += inClass ? classBody(complement(wordRanges)) : "[" + classBody(complement(wordRanges)) + "]"
                case "s": out += inClass ? classBody(wsRanges) : "[" + classBody(wsRanges) + "]"
                case "S": out += inClass ? classBody(complement(wsRanges)) : "[" + classBody(complement(wsRanges)) + "]"
                case "b": out += inClass ? "\\x{8}" : "\\b"
                case "B": if inClass { throw SyntaxError(message: "\\B is not allowed in a character class") }; out += "\\B"
                case "t", "n", "r", "f": out += "\\" + String(e)
                case "v": out += "\\x{b}"
                case "0":
                    if i < chars.count, chars[i].properties.numericType != nil, chars[i].isASCII { throw SyntaxError(message: "octal escapes are not allowed") }
                    out += "\\x{0}"
                case "1"..."9":
                    var num = String(e)
                    while i < chars.count, ("0"..."9").contains(chars[i]) { num.unicodeScalars.append(chars[i]); i += 1 }
                    if inClass { throw SyntaxError(message: "back-reference in a character class") }
                    out += "\\" + num
                case "c":
                    guard i < chars.count, chars[i].isASCII, chars[i].properties.isAlphabetic else { throw SyntaxError(message: "invalid \\c escape") }
                    out += "\\x{\(String(chars[i].value % 32, radix: 16))}"
                    i += 1
                case "x":
                    guard i + 1 < chars.count, hexValue(chars[i]), hexValue(chars[i + 1]) else { throw SyntaxError(message: "invalid \\x escape") }
                    out += "\\x{" + String(chars[i]) + String(chars[i + 1]) + "}"
                    i += 2
                case "u":
                    if i < chars.count && chars[i] == "{" {
                        var j = i + 1
                        var hex = ""
                        while j < chars.count, hexValue(chars[j]) { hex.unicodeScalars.append(chars[j]); j += 1 }
                        guard j < chars.count, chars[j] == "}", !hex.isEmpty, let v = UInt32(hex, radix: 16), v <= 0x10FFFF else {
                            throw SyntaxError(message: "invalid \\u{…} escape")
                        }
                        out += "\\x{" + hex + "}"
                        i = j + 1
                    } else {
                        guard i + 3 < chars.count, (0..<4).allSatisfy({ hexValue(chars[i + $0]) }) else { throw SyntaxError(message: "invalid \\u escape") }
                        var hex = ""
                        for k in 0..<4 { hex.unicodeScalars.append(chars[i + k]) }
                        i += 4
                        // Surrogate pair written as two \u escapes.
                        if let hi = UInt32(hex, radix: 16), hi >= 0xD800, hi < 0xDC00, i + 5 < chars.count, chars[i] == "\\", chars[i + 1] == "u",
                           (0..<4).allSatisfy({ hexValue(chars[i + 2 + $0]) }) {
                            var lhex = ""
                            for k in 0..<4 { lhex.unicodeScalars.append(chars[i + 2 + k]) }
                            if let lo = UInt32(lhex, radix: 16), lo >= 0xDC00, lo < 0xE000 {
                                let cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                                out += "\\x{\(String(cp, radix: 16))}"
                                i += 6
                                continue
                            }
                        }
                        out += "\\x{" + hex + "}"
                    }
                case "p", "P":
                    guard i < chars.count, chars[i] == "{", let close = chars[i...].firstIndex(of: "}") else { throw SyntaxError(message: "invalid \\\(e) escape") }
                    out += "\\" + String(e) + String(String.UnicodeScalarView(chars[i...close]))
                    i = close + 1
                case "k":
                    guard i < chars.count, chars[i] == "<", let close = chars[i...].firstIndex(of: ">") else { throw SyntaxError(message: "invalid \\k escape") }
                    out += "\\k" + String(String.UnicodeScalarView(chars[i...close]))
                    i = close + 1
                default:
                    if e.isASCII && (e.properties.isAlphabetic || ("0"..."9").contains(e)) {
                        throw SyntaxError(message: "unsupported escape '\\\(e)'")
                    }
                    if e == "-" && !inClass { throw SyntaxError(message: "invalid escape '\\-'") }
                    out += "\\" + String(e)
                }
                continue
            }
            if inClass {
                switch c {
                case "]": inClass = false; out += "]"
                case "[": out += "\\["
                case "&": out += "\\&"
                case "~": out += "\\~"
                default: out.unicodeScalars.append(c)
                }
                i += 1
                continue
            }
            switch c {
            case "[":
                if i + 2 < chars.count + 1, i + 1 < chars.count, chars[i + 1] == "]" { out += "(?!)"; i += 2; continue }
                if i + 2 < chars.count, chars[i + 1] == "^", chars[i + 2] == "]" { out += "[\\x{0}-\\x{10ffff}]"; i += 3; continue }
                inClass = true
                out += "["
                if i + 1 < chars.count, chars[i + 1] == "^" { out += "^"; i += 1 }
                // A leading ']' is not allowed in ECMA with u flag; leave to ICU.
            case "$": out += "(?!(?s:.))"
            default: out.unicodeScalars.append(c)
            }
            i += 1
        }
        if inClass { throw SyntaxError(message: "unterminated character class") }
        return out
    }
}
