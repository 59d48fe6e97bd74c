/// A token of an ingredient sentence.
struct Token: Sendable, Equatable {
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

    /// Splits a sentence into tokens, recognising numbers, fractions and ranges. An all-ASCII line is scanned as
    /// bytes (the same decisions as for its `Character`s, without grapheme breaking: the common case); any other
    /// line as `Character`s.
    static func tokenize(_ line: String) -> [Token] {
        // Soft hyphens go, the fraction slash becomes '/'; both are rare, so skip the Foundation calls otherwise.
        if line.utf8.allSatisfy({ $0 < 128 }) {
            return mergeUnitRanges(mergeNumbers(scan(Array(line.utf8))))
        }
        var cleaned = line
        if cleaned.unicodeScalars.contains(where: { $0 == "\u{00AD}" || $0 == "⁄" }) {
            cleaned = cleaned.replacingOccurrences(of: "\u{00AD}", with: "").replacingOccurrences(of: "⁄", with: "/")
        }
        return mergeUnitRanges(mergeNumbers(scan(Array(cleaned))))
    }

    /// Reads a number at `start`: digits with a decimal point or comma, "1,000", a fraction "a/b", a unicode
    /// fraction, a whole number with a glued unicode fraction ("1½"), ".5".
    static func scanNumber<U: TokenizerUnit>(_ chars: [U], _ start: Int) -> (value: Double, text: String, end: Int)? {
        let n = chars.count
        var j = start
        var text = ""
        var value: Double = 0
        if j < n, let f = chars[j].fraction {
            return (f.value, f.text, j + 1)
        }
        // ".5" (leading decimal point, not preceded by a digit)
        if j + 1 < n, chars[j].code == 46, chars[j + 1].scansAsDigit, j == 0 || !chars[j - 1].scansAsDigit {
            text = "0."; j += 1
            while j < n, chars[j].scansAsDigit { U.append(chars[j], to: &text); j += 1 }
            return (Double(text) ?? 0, text, j)
        }
        guard j < n, chars[j].scansAsDigit else { return nil }
        while j < n, chars[j].scansAsDigit { U.append(chars[j], to: &text); j += 1 }
        // decimal point or decimal comma followed by digits
        if j + 1 < n, chars[j].code == 46 || chars[j].code == 44, chars[j + 1].scansAsDigit {
            // "1,000" style thousands vs decimal comma: treat comma+3 digits as thousands
            if chars[j].code == 44 {
                var k = j + 1; var cnt = 0
                while k < n, chars[k].scansAsDigit { k += 1; cnt += 1 }
                if cnt == 3 {
                    for d in (j + 1)..<k { U.append(chars[d], to: &text) }
                    j = k
                    return (Double(text) ?? 0, text, j)
                }
            }
            text.append("."); j += 1
            while j < n, chars[j].scansAsDigit { U.append(chars[j], to: &text); j += 1 }
            return (Double(text) ?? 0, text, j)
        }
        value = Double(text) ?? 0
        // fraction a/b
        if j + 1 < n, chars[j].code == 47, chars[j + 1].scansAsDigit {
            var k = j + 1; var den = ""
            while k < n, chars[k].scansAsDigit { U.append(chars[k], to: &den); k += 1 }
            if let d = Double(den), d > 0 {
                return (value / d, text + "/" + den, k)
            }
        }
        // glued unicode fraction "1½"
        if j < n, let f = chars[j].fraction {
            return (value + f.value, text + " " + f.text, j + 1)
        }
        return (value, text, j)
    }

    /// Splits scanned text into number, word and punctuation tokens (before ``mergeNumbers(_:)``).
    static func scan<U: TokenizerUnit>(_ chars: [U]) -> [Token] {
        var tokens: [Token] = []
        tokens.reserveCapacity(chars.count / 3 + 2)
        var i = 0
        var sawSpace = true
        let n = chars.count
        while i < n {
            let c = chars[i]
            if c.scansAsSpace { sawSpace = true; i += 1; continue }
            let glued = !sawSpace
            sawSpace = false
            if let num = scanNumber(chars, i) {
                i = scanNumberToken(chars, num, glued: glued, into: &tokens)
                continue
            }
            if c.scansAsLetter || (c.code == 39 || c.code == 0x2019) && i + 1 < n && chars[i + 1].scansAsLetter && !tokens.isEmpty && glued {
                i = scanWord(chars, i, glued: glued, into: &tokens)
                continue
            }
            var text = ""
            U.append(c, to: &text)
            var tok = Token(text: text, kind: .punct)
            tok.glued = glued
            tok.lower = lowered(text)
            tokens.append(tok)
            i += 1
        }
        return tokens
    }

    /// Appends the number read at `num` (with a range "2-3", a hyphenated mixed number "2-3/4", a percentage
    /// "70%" as a word, a hyphen-attached word "15-ounce"); returns the index after it.
    static func scanNumberToken<U: TokenizerUnit>(_ chars: [U], _ num: (value: Double, text: String, end: Int), glued: Bool,
                                                  into tokens: inout [Token]) -> Int {
        let n = chars.count
        var tok = Token(text: num.text, kind: .number, value: num.value)
        tok.glued = glued
        var j = num.end
        // range "2-3", "2–3"
        if j + 1 < n, chars[j].isDash, let second = scanNumber(chars, j + 1) {
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
        var i = j
        // percentages are words: "70%"
        if i < n, chars[i].code == 37 {
            let text = tok.text + "%"
            var w = Token(text: text, kind: .word, glued: glued)
            w.lower = text
            tokens.append(w)
            return i + 1
        }
        tok.lower = tok.text
        tokens.append(tok)
        // hyphen directly followed by a letter: "15-ounce"
        if i + 1 < n, chars[i].code == 45, chars[i + 1].scansAsLetter {
            i += 1
            var w = ""
            while i < n, isWordChar(chars[i], next: i + 1 < n ? chars[i + 1] : nil) { U.append(chars[i], to: &w); i += 1 }
            var wt = Token(text: w, kind: .word)
            wt.hyphenAttached = true
            wt.glued = true
            wt.lower = lowered(w)
            tokens.append(wt)
        }
        return i
    }

    /// Appends the word starting at `start` (letters, inner hyphens and apostrophes, "e.g."); returns the index
    /// after it.
    static func scanWord<U: TokenizerUnit>(_ chars: [U], _ start: Int, glued: Bool, into tokens: inout [Token]) -> Int {
        let n = chars.count
        var i = start
        var w = ""
        while i < n {
            let nx: U? = i + 1 < n ? chars[i + 1] : nil
            if isWordChar(chars[i], next: nx) {
                if chars[i].code == 0x2013 { w.append("-") } else { U.append(chars[i], to: &w) }
                i += 1
                continue
            }
            // abbreviations with internal dots: "e.g.", "i.e.", "U.S."
            if chars[i].code == 46, nx?.scansAsLetter == true, w.count <= 2,
               w.allSatisfy({ isLetter($0) || $0 == "." }) {
                w.append("."); i += 1; continue
            }
            break
        }
        var tok = Token(text: w, kind: .word)
        tok.glued = glued
        tok.lower = lowered(w)
        tokens.append(tok)
        return i
    }

    /// `lowercased()`, without a new string when an ASCII word has no capital.
    @inline(__always) static func lowered(_ s: String) -> String {
        var ascii = true, upper = false
        for b in s.utf8 {
            if b >= 128 { ascii = false; break }
            if b >= 65 && b <= 90 { upper = true }
        }
        return ascii && !upper ? s : s.lowercased()
    }

    @inline(__always) static func isWordChar<U: TokenizerUnit>(_ c: U, next: U?) -> Bool {
        if c.scansAsLetter { return true }
        let code = c.code
        if code == 45 || code == 0x2013 || code == 39 || code == 0x2019 || code == 38 {
            // "-", "–", "'", "’", "&" inside a word: before a letter, or (not a dash) before a hyphen
            guard let next else { return false }
            return next.scansAsLetter || (code != 45 && code != 0x2013 && next.code == 45)
        }
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

    /// The upper bound of a range whose lower bound at `i` ends in a hyphen: "14- to 18-pound", "10- or
    /// 12-ounce", "8- to -10 ounce", "3- to 3 1/2-lb"; the second number (a mixed fraction merged) and the index
    /// of its last token.
    static func hyphenRange(_ input: [Token], _ i: Int) -> (Token, Int)? {
        guard i + 3 < input.count, input[i + 1].text == "-" || input[i + 1].text == "–",
              input[i + 2].lower == "to" || input[i + 2].lower == "or" else { return nil }
        var j = i + 3
        if input[j].text == "-", j + 1 < input.count { j += 1 }
        guard input[j].kind == .number else { return nil }
        var second = input[j]
        if j + 1 < input.count, input[j + 1].kind == .number, input[j + 1].max == nil, second.max == nil,
           !second.text.utf8.contains(UInt8(ascii: "/")), !second.text.utf8.contains(UInt8(ascii: ".")),
           input[j + 1].value < 1, input[j + 1].text.utf8.contains(UInt8(ascii: "/")) {
            second.value += input[j + 1].value
            second.text += " " + input[j + 1].text
            j += 1
        }
        return (second, j)
    }

    /// A range with the same unit written on both ends and spaced, "5 ½ oz to 7 ounces", "½ c to 1 cup",
    /// "4-pound to 4½-pound": one range number and the first unit, as for "110ml-150ml" (``unitRange(_:_:)``).
    /// Runs on the merged numbers; different units ("1 teaspoon to 1 tablespoon") stay two amounts.
    static func mergeUnitRanges(_ input: [Token]) -> [Token] {
        guard input.count >= 5, input.contains(where: { $0.lower == "to" || $0.text == "-" || $0.text == "–" }) else { return input }
        var out: [Token] = []
        out.reserveCapacity(input.count)
        var i = 0
        while i < input.count {
            if i + 4 < input.count {
                let a = input[i], u = input[i + 1], link = input[i + 2], b = input[i + 3], u2 = input[i + 4]
                if a.kind == .number, a.max == nil, u.kind == .word, link.lower == "to" || link.text == "-" || link.text == "–",
                   b.kind == .number, b.max == nil, b.value > a.value, u2.kind == .word,
                   let c = IngredientParser.unitCanonical(u.text), c == IngredientParser.unitCanonical(u2.text) {
                    var range = a
                    range.text = a.text + "-" + b.text
                    range.max = b.value
                    range.lower = range.text
                    out.append(range); out.append(u)
                    i += 5
                    continue
                }
            }
            out.append(input[i])
            i += 1
        }
        return out
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
                // range "14- to 18-pound", "10- or 12-ounce", "8- to -10 ounce", "3- to 3 1/2-lb"
                if let (second, end) = hyphenRange(input, i), second.value > t.value {
                    t.text = t.text + "-" + second.text
                    t.max = second.max ?? second.value
                    i = end
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
                t.lower = t.text
            }
            out.append(t)
            i += 1
        }
        return out
    }
}

/// What the tokenizer reads: the `Character`s of a line, or the bytes of an all-ASCII line (where each byte is
/// one `Character`, so both give the same tokens).
protocol TokenizerUnit {
    /// The Unicode scalar value of a single-scalar unit; `UInt32.max` for a cluster of several scalars.
    var code: UInt32 { get }
    var scansAsDigit: Bool { get }
    var scansAsLetter: Bool { get }
    var scansAsSpace: Bool { get }
    /// A unicode vulgar fraction ("½"): its value and its "1/2" text.
    var fraction: (value: Double, text: String)? { get }
    /// Appends the unit's text.
    static func append(_ u: Self, to s: inout String)
}

extension TokenizerUnit {
    /// "-", "–" or "—".
    var isDash: Bool { code == 45 || code == 0x2013 || code == 0x2014 }
}

extension UInt8: TokenizerUnit {
    var code: UInt32 { UInt32(self) }
    var scansAsDigit: Bool { self >= 48 && self <= 57 }
    var scansAsLetter: Bool { (self >= 65 && self <= 90) || (self >= 97 && self <= 122) }
    var scansAsSpace: Bool { self == 32 || (self >= 9 && self <= 13) }
    var fraction: (value: Double, text: String)? { nil }
    @inline(__always) static func append(_ u: UInt8, to s: inout String) { s.unicodeScalars.append(Unicode.Scalar(u)) }
}

extension Character: TokenizerUnit {
    var code: UInt32 {
        let scalars = unicodeScalars
        return scalars.count == 1 ? scalars.first!.value : UInt32.max
    }
    var scansAsDigit: Bool { Tokenizer.isDigit(self) }
    var scansAsLetter: Bool { Tokenizer.isLetter(self) }
    var scansAsSpace: Bool { Tokenizer.isSpace(self) }
    var fraction: (value: Double, text: String)? {
        guard let v = Tokenizer.unicodeFractions[self] else { return nil }
        return (v, Tokenizer.unicodeFractionText[self]!)
    }
    static func append(_ u: Character, to s: inout String) { s.append(u) }
}
