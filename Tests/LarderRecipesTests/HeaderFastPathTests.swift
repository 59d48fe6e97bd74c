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

    @Test("non-ASCII text takes the Foundation path")
    func unicode() {
        #expect(LineReader.asciiNormalizedHeader("Zubereitung …") == nil)
        #expect(LineReader.normalizedHeader("Cook’s notes…") == "cook's notes")
    }
}
