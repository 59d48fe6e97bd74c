/// A token of an ingredient sentence.
struct Token: Sendable {
    enum Kind: Sendable { case number, word, punct }
    var text: String
    var kind: Kind
    /// Numeric value for numbers (lower bound of a range).
    var value: Double = 0
    /// Upper bound for ranges.
    var max: Double? = nil
    /// `true` when the token was joined to the previous one by a hyphen ("15-ounce" → "ounce").
    var hyphenAttached = false
    /// `true` when no whitespace separated this token from the previous one.
    var glued = false

    /// Lower-cased text, filled in by the tokenizer once all merging is done.
    var lower: String = ""
}

enum Tokenizer {
    static let unicodeFractions: [Character: Double] = [
        "½": 0.5, "⅓": 1.0 / 3, "⅔": 2.0 / 3, "¼": 0.25, "¾": 0.75, "⅕": 0.2, "⅖": 0.4, "⅗": 0.6, "⅘": 0.8,
        "⅙": 1.0 / 6, "⅚": 5.0 / 6, "⅛": 0.125, "⅜": 0.375, "⅝": 0.625, "⅞": 0.875, "⅐": 1.0 / 7, "⅑": 1.0 / 9,
        "⅒": 0.1,
    ]
    static let unicodeFractionText: [Character: String] = [
        "½": "1/2", "⅓": "1/3", "⅔": "2/3", "¼": "1/4", "¾": "3/4", "⅕": "1/5", "⅖": "2/5", "⅗": "3/5", "⅘": "4/5",
        "⅙": "1/6", "⅚": "5/6", "⅛": "1/8", "⅜": "3/8", "⅝": "5/8", "⅞": "7/8", "⅐": "1/7", "⅑": "1/9", "⅒": "1/10",
    ]

    @inline(__always) static func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }

    /// `Character.isLetter` with an ASCII fast path (the Unicode property lookup is the tokenizer's hot spot).
    @inline(__always) static func isLetter(_ c: Character) -> Bool {
        if let a = c.asciiValue { return (a >= 65 && a <= 90) || (a >= 97 && a <= 122) }
        return c.isLetter
    }

    /// `Character.isWhitespace` with an ASCII fast path.
    @inline(__always) static func isSpace(_ c: Character) -> Bool {
        if let a = c.asciiValue { return a == 32 || (a >= 9 && a <= 13) }
        return c.isWhitespace
    }

    /// Splits a sentence into tokens, recognising numbers, fractions and ranges.
    static func tokenize(_ line: String) -> [Token] {
        // Soft hyphens go, the fraction slash becomes '/'; both are rare, so skip the Foundation calls otherwise.
        var cleaned = line
        if cleaned.unicodeScalars.contains(where: { $0 == "\u{00AD}" || $0 == "⁄" }) {
            cleaned = cleaned.replacingOccurrences(of: "\u{00AD}", with: "").replacingOccurrences(of: "⁄", with: "/")
        }
        let chars = Array(cleaned)
        var tokens: [Token] = []
        var i = 0
        var sawSpace = true
        let n = chars.count

        func scanNumber(_ start: Int) -> (value: Double, text: String, end: Int)? {
            var j = start
            var text = ""
            var value: Double = 0
            if j < n, let f = unicodeFractions[chars[j]] {
                return (f, unicodeFractionText[chars[j]]!, j + 1)
            }
            // ".5" (leading decimal point, not preceded by a digit)
            if j + 1 < n, chars[j] == ".", isDigit(chars[j + 1]), j == 0 || !isDigit(chars[j - 1]) {
                text = "0."; j += 1
                while j < n, isDigit(chars[j]) { text.append(chars[j]); j += 1 }
                return (Double(text) ?? 0, text, j)
            }
            guard j < n, isDigit(chars[j]) else { return nil }
            while j < n, isDigit(chars[j]) { text.append(chars[j]); j += 1 }
            // decimal point or decimal comma followed by digits
            if j + 1 < n, chars[j] == "." || chars[j] == ",", isDigit(chars[j + 1]) {
                // "1,000" style thousands vs decimal comma: treat comma+3 digits as thousands
                if chars[j] == "," {
                    var k = j + 1; var cnt = 0
                    while k < n, isDigit(chars[k]) { k += 1; cnt += 1 }
                    if cnt == 3 {
                        text += String(chars[(j + 1)..<k]); j = k
                        return (Double(text) ?? 0, text, j)
                    }
                    // decimal comma
                    text.append("."); j += 1
                } else { text.append("."); j += 1 }
                while j < n, isDigit(chars[j]) { text.append(chars[j]); j += 1 }
                return (Double(text) ?? 0, text, j)
            }
            value = Double(text) ?? 0
            // fraction a/b
            if j + 1 < n, chars[j] == "/", isDigit(chars[j + 1]) {
                var k = j + 1; var den = ""
                while k < n, isDigit(chars[k]) { den.append(chars[k]); k += 1 }
                if let d = Double(den), d > 0 {
                    return (value / d, text + "/" + den, k)
                }
            }
            // glued unicode fraction "1½"
            if j < n, let f = unicodeFractions[chars[j]] {
                return (value + f, text + " " + unicodeFractionText[chars[j]]!, j + 1)
            }
            return (value, text, j)
        }

        while i < n {
            let c = chars[i]
            if isSpace(c) { sawSpace = true; i += 1; continue }
            let glued = !sawSpace
            sawSpace = false
            if let num = scanNumber(i) {
                var tok = Token(text: num.text, kind: .number, value: num.value)
                tok.glued = glued
                var j = num.end
                // range "2-3", "2–3"
                if j + 1 < n, chars[j] == "-" || chars[j] == "–" || chars[j] == "—",
                   let second = scanNumber(j + 1) {
                    if second.value > num.value {
                        tok.max = second.value
                        tok.text = num.text + "-" + second.text
                        j = second.end
                    } else if second.value < 1, second.text.utf8.contains(UInt8(ascii: "/")), !num.text.utf8.contains(UInt8(ascii: "/")), !num.text.utf8.contains(UInt8(ascii: ".")) {
                        // "2-3/4 lb": a mixed number written with a hyphen
                        tok.value += second.value
                        tok.text = num.text + " " + second.text
                        j = second.end
                    }
                }
                i = j
                // percentages are words: "70%"
                if i < n, chars[i] == "%" {
                    tokens.append(Token(text: tok.text + "%", kind: .word, glued: glued))
                    i += 1
                    continue
                }
                tokens.append(tok)
                // hyphen directly followed by a letter: "15-ounce"
                if i + 1 < n, chars[i] == "-", isLetter(chars[i + 1]) {
                    i += 1
                    var w = ""
                    while i < n, isWordChar(chars[i], next: i + 1 < n ? chars[i + 1] : " ") { w.append(chars[i]); i += 1 }
                    var wt = Token(text: w, kind: .word)
                    wt.hyphenAttached = true
                    wt.glued = true
                    tokens.append(wt)
                }
                continue
            }
            if isLetter(c) || (c == "'" || c == "’") && i + 1 < n && isLetter(chars[i + 1]) && !tokens.isEmpty && glued {
                var w = ""
                while i < n {
                    let nx = i + 1 < n ? chars[i + 1] : " "
                    if isWordChar(chars[i], next: nx) { w.append(chars[i] == "–" ? "-" : chars[i]); i += 1; continue }
                    // abbreviations with internal dots: "e.g.", "i.e.", "U.S."
                    if chars[i] == ".", isLetter(nx), w.count <= 2, w.allSatisfy({ isLetter($0) || $0 == "." }) { w.append("."); i += 1; continue }
                    break
                }
                // abbreviations with internal dots: "e.g.", "i.e."
                var tok = Token(text: w, kind: .word)
                tok.glued = glued
                tokens.append(tok)
                continue
            }
            var tok = Token(text: String(c), kind: .punct)
            tok.glued = glued
            tokens.append(tok)
            i += 1
        }
        for k in tokens.indices { tokens[k].lower = tokens[k].text.lowercased() }
        var merged = mergeNumbers(tokens)
        for k in merged.indices { merged[k].lower = merged[k].text.lowercased() }
        return merged
    }

    @inline(__always) static func isWordChar(_ c: Character, next: Character) -> Bool {
        if isLetter(c) { return true }
        if c == "-" || c == "–" || c == "'" || c == "’" || c == "&" { return isLetter(next) || (c != "-" && c != "–" && next == "-") }
        if isDigit(c) { return false }
        return false
    }

    /// A range written with its unit on both ends, "110ml-150ml", "5½oz–7oz": the range number and one unit token.
    static func unitRange(_ input: [Token], _ i: Int) -> (number: Token, unit: Token)? {
        guard i + 4 < input.count else { return nil }
        let a = input[i], u = input[i + 1], dash = input[i + 2], b = input[i + 3], u2 = input[i + 4]
        guard a.kind == .number, a.max == nil, u.kind == .word, u.glued, dash.text == "-" || dash.text == "–",
              b.kind == .number, b.max == nil, b.value > a.value, u2.glued, u2.lower == u.lower,
              Lexicon.units[u.lower] != nil else { return nil }
        var range = a
        range.text = a.text + "-" + b.text
        range.max = b.value
        return (range, u)
    }

    /// Merges "1 1/2" into one number and "2 to 3" into a range.
    static func mergeNumbers(_ input: [Token]) -> [Token] {
        var out: [Token] = []
        out.reserveCapacity(input.count)
        var i = 0
        while i < input.count {
            var t = input[i]
            if let range = unitRange(input, i) {
                out.append(range.number); out.append(range.unit)
                i += 5
                continue
            }
            if t.kind == .number, t.max == nil {
                // mixed fraction: integer followed by a fraction < 1
                if i + 1 < input.count, input[i + 1].kind == .number, input[i + 1].max == nil,
                   !t.text.utf8.contains(UInt8(ascii: "/")), !t.text.utf8.contains(UInt8(ascii: ".")), !t.text.utf8.contains(UInt8(ascii: " ")),
                   input[i + 1].value < 1, input[i + 1].text.utf8.contains(UInt8(ascii: "/")) {
                    t.text = t.text + " " + input[i + 1].text
                    t.value += input[i + 1].value
                    i += 1
                    // a range may follow: "1 1/2-2"
                }
                // range "14- to 18-pound"
                if i + 3 < input.count, input[i + 1].text == "-" || input[i + 1].text == "–", input[i + 2].lower == "to",
                   input[i + 3].kind == .number, input[i + 3].value > t.value {
                    t.text = t.text + "-" + input[i + 3].text
                    t.max = input[i + 3].max ?? input[i + 3].value
                    i += 3
                }
                // range "2 to 3", "2 - 3"
                if i + 2 < input.count, input[i + 2].kind == .number,
                   ["to", "-", "–", "—", "or"].contains(input[i + 1].lower) {
                    var second = input[i + 2]
                    var skip = 2
                    if i + 3 < input.count, input[i + 3].kind == .number, input[i + 3].max == nil,
                       !second.text.utf8.contains(UInt8(ascii: "/")), !second.text.utf8.contains(UInt8(ascii: ".")), input[i + 3].value < 1,
                       input[i + 3].text.utf8.contains(UInt8(ascii: "/")) {
                        second.value += input[i + 3].value
                        second.text += " " + input[i + 3].text
                        skip = 3
                    }
                    if second.value > t.value {
                        t.text = t.text + "-" + second.text
                        t.max = second.max ?? second.value
                        i += skip
                    }
                }
            }
            out.append(t)
            i += 1
        }
        return out
    }
}
