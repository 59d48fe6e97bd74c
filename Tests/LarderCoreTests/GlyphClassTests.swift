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

    static let pieceTexts = [
        "", " ", "1/2", "1 1/2", "3/2 Tbs", "1/2 onion, white", "12", "1 1/2 C", "1 1/2 C x", "/", "2 cups", "2 cupss",
        "1/2  Tbs", " 1/2 Tbs ", "1\t1/2", "1/2 Tb5", "½ tsp", "1/2 café", "Salt  and  pepper", "a . . . 12",
        "a. . .b", "x  \u{301}y", "tab\r\n  here", "  ", ". . .", "",
    ]

    /// The byte paths of the piece tests give the `Character` paths' answers (the reference below is the
    /// character code they replaced).
    @Test func pieceTestsOnBytesAgreeWithCharacters() {
        func reference(_ text: String) -> Bool {
            let words = text.split(separator: " ")
            guard let first = words.first, first.allSatisfy({ $0.isNumber || $0 == "/" }), text.contains("/") || words.count > 1,
                  words.count <= 3 else { return false }
            let rest = words.dropFirst().filter { !$0.allSatisfy({ $0.isNumber || $0 == "/" }) }
            return rest.count <= 1 && rest.allSatisfy { $0.count <= 4 && $0.allSatisfy(\.isLetter) }
        }
        for text in Self.pieceTexts {
            #expect(ReadingOrder.isRaisedQuantity(text) == reference(text), "\(text)")
            for needle in ["  ", ". . .", "/"] {
                #expect(ReadingOrder.contains(text, needle) == text.contains(needle), "\(text) / \(needle)")
            }
        }
    }

    @Test func lettersAreCountedAsCharacters() {
        for text in ["", "ab", "abc", "1 2 3 x", "A-b c", "é e\u{301}x", "ab\r\nc", "日本語", "x\u{0C}yz"] {
            for minimum in 0...4 {
                #expect(ReadingOrder.letterCount(text, atLeast: minimum) == (text.count(where: \.isLetter) >= minimum), "\(text)")
            }
        }
    }
}
