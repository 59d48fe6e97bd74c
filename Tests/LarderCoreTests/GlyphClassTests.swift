import Testing

@testable import LarderStages

/// The reading-order pass classifies glyphs by their Unicode scalar (`ReadingOrder.isBlank`, `isLetter`,
/// `isNumber`) where it used `Character` properties; a glyph is one scalar, so the two must agree on every scalar.
@Suite("PDF glyph classes agree with Character")
struct GlyphClassTests {
    @Test func everyScalarIsClassedAsItsCharacter() {
        var disagreements: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }  // surrogates
            let character = Character(scalar)
            if ReadingOrder.isBlank(scalar) != character.isWhitespace { disagreements.append("blank U+\(String(value, radix: 16))") }
            if ReadingOrder.isLetter(scalar) != character.isLetter { disagreements.append("letter U+\(String(value, radix: 16))") }
            if ReadingOrder.isNumber(scalar) != character.isNumber { disagreements.append("number U+\(String(value, radix: 16))") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
    }

    @Test func lettersAreCountedAsCharacters() {
        for text in ["", "ab", "abc", "1 2 3 x", "A-b c", "é e\u{301}x", "ab\r\nc", "日本語", "x\u{0C}yz"] {
            for minimum in 0...4 {
                #expect(ReadingOrder.letterCount(text, atLeast: minimum) == (text.count(where: \.isLetter) >= minimum), "\(text)")
            }
        }
    }
}
