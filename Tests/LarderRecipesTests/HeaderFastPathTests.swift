import LarderTestSupport
import Testing
@testable import LarderRecipes

/// `LineReader.normalizedHeader` reads ASCII lines on their bytes; it must agree with the Foundation path.
@Suite("Section headers: ASCII fast path")
struct HeaderFastPathTests {
    @Test("the byte path agrees with the Foundation path", arguments: [
        "Ingredients", "INGREDIENTS:", "Method (serves 4)", "Method (serves 4):", "For the sauce...", "Notes....",
        "  Directions  ", "Step-by-step", "Ingredients (for 2) extra", "***Tips***", "$ Prices +", "a  b   c", "",
        "(", "()", "):", "Preparation: 10 minutes", "Zutaten", "What you'll need", "~~~", "\tTo serve\t",
        "100% Method", "[Ingredients]", "{notes}", "Cook`s tips", "a|b", "x^2", "Mix & match",
    ])
    func agrees(_ line: String) {
        #expect(LineReader.asciiNormalizedHeader(line) == LineReader.unicodeNormalizedHeader(line))
    }

    @Test("a line whose first kept byte is a digit normalises to no header, nor does its head before a colon")
    func digitFirst() {
        #expect(LineReader.headersOpenWithLetters)
        var generator = SeededGenerator(seed: 18)
        let pieces = ["1", "20", " ", "(", ")", ":", ".", "...", "-", "*", "#", "\t", "Ingredients", "notes", "é", "’",
                      "…", "Method", "cups", "flour", "½", "°C"]
        var checked = 0
        for _ in 0..<4_000 {
            let text = (0..<Int.random(in: 1...7, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                .joined()
            guard LineReader.opensWithDigit(text) else { continue }
            checked += 1
            let line = Line(page: 1, number: 1, raw: text, text: text, indent: 0, fontSize: nil, bold: false)
            let header = LineReader.normalizedHeader(text)
            #expect(header.isEmpty || header.first!.isNumber, "\(text.debugDescription)")
            if let colon = text.firstIndex(of: ":") {
                let head = LineReader.normalizedHeader(String(text[..<colon]))
                #expect(head.isEmpty || head.first!.isNumber, "\(text.debugDescription)")
            }
            #expect(LineReader.section(line) == nil, "\(text.debugDescription)")
        }
        #expect(checked > 500)
        #expect(LineReader.opensWithDigit("2 cups flour") && LineReader.opensWithDigit("- (1) x"))
        #expect(!LineReader.opensWithDigit("Ingredients") && !LineReader.opensWithDigit("é 1"))
    }

    @Test("non-ASCII text takes the Foundation path")
    func unicode() {
        #expect(LineReader.asciiNormalizedHeader("Zubereitung …") == nil)
        #expect(LineReader.normalizedHeader("Cook’s notes…") == "cook's notes")
    }
}
