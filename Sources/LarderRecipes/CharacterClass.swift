/// The classes ICU's case-insensitive patterns give characters (`\w` for `\b`, `\s`, `\d`, folding to ASCII
/// letters), read on UTF-8 bytes, for the byte scanners that replace the parser's patterns (``DurationScanner``).
///
/// ASCII is modelled completely. Of the other characters only the list below is (`CharacterClassTests` asks ICU
/// about each): none is a digit or folds to an ASCII letter; Latin-1 letters and ª µ º are word characters; the
/// no-break, thin and other fixed-width spaces are white space; the rest (fractions, dashes, quotes, degree signs,
/// bullets, ×, ÷, ©, ®, ™, « ») are neither. A text with any other character is left to ICU.
enum CharacterClass {
    /// Whether every non-ASCII character of `bytes` is one the scanners model.
    static func modelsAll(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            if bytes[i] < 0x80 {
                i += 1
                continue
            }
            guard let length = modelledLength(bytes, at: i) else { return false }
            i += length
        }
        return true
    }

    /// The byte length of the modelled non-ASCII character at `i`, or `nil` when it is not one.
    static func modelledLength(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
        let n = bytes.count
        guard i + 1 < n else { return nil }
        let b0 = bytes[i], b1 = bytes[i + 1]
        switch b0 {
        case 0xC2:
            // U+00A0 no-break space, © « ® ° µ · º » ½ ¼ ¾ ª
            return [0xA0, 0xA9, 0xAA, 0xAB, 0xAE, 0xB0, 0xB5, 0xB7, 0xBA, 0xBB, 0xBC, 0xBD, 0xBE].contains(b1) ? 2 : nil
        case 0xC3:
            // Latin-1 letters U+00C0–U+00FF (with × and ÷), not ß (it folds to "ss").
            return (0x80...0xBF).contains(b1) && b1 != 0x9F ? 2 : nil
        case 0xCB:
            return b1 == 0x9A ? 2 : nil  // ˚
        case 0xE2:
            guard i + 2 < n else { return nil }
            let b2 = bytes[i + 2]
            switch b1 {
            case 0x80:
                // U+2000–200A spaces, ‐ ‑ ‒ – —, ‘ ’ “ ”, •, …, U+202F narrow no-break space
                return (0x80...0x8A).contains(b2) || (0x90...0x94).contains(b2) || [0x98, 0x99, 0x9C, 0x9D, 0xA2, 0xA6, 0xAF].contains(b2) ? 3 : nil
            case 0x84:
                return b2 == 0xA2 ? 3 : nil  // ™
            case 0x85:
                return (0x93...0x9E).contains(b2) ? 3 : nil  // ⅓ … ⅞
            default:
                return nil
            }
        default:
            return nil
        }
    }

    /// The length of the white-space character (`\s`) at `i`, if one is there.
    @inline(__always)
    static func spaceLength(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
        guard i < bytes.count else { return nil }
        let b = bytes[i]
        if b == 0x20 || (b >= 0x09 && b <= 0x0D) { return 1 }
        if b < 0x80 || i + 1 >= bytes.count { return nil }
        if b == 0xC2 { return bytes[i + 1] == 0xA0 ? 2 : nil }
        guard b == 0xE2, i + 2 < bytes.count, bytes[i + 1] == 0x80 else { return nil }
        let b2 = bytes[i + 2]
        return (0x80...0x8A).contains(b2) || b2 == 0xAF ? 3 : nil
    }

    /// Whether the character starting at `i` is a word character (`\w`: letters, digits, `_`).
    @inline(__always)
    static func isWord(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        let b = bytes[i]
        if b < 0x80 { return Prefilter.isLetter(b) || Prefilter.isDigit(b) || b == 0x5F }
        guard i + 1 < bytes.count else { return false }
        let b1 = bytes[i + 1]
        switch b {
        case 0xC2: return b1 == 0xAA || b1 == 0xB5 || b1 == 0xBA
        case 0xC3: return b1 != 0x97 && b1 != 0xB7
        default: return false
        }
    }

    /// The start of the character that ends at `i`.
    @inline(__always)
    static func scalarStart(_ bytes: UnsafeBufferPointer<UInt8>, before i: Int) -> Int {
        var j = i - 1
        while j > 0 && bytes[j] & 0xC0 == 0x80 { j -= 1 }
        return j
    }
}
