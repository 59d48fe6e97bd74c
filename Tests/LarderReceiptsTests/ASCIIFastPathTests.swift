import Testing
@testable import LarderReceipts

/// The byte-level paths `AllergenTagger` takes for ASCII names must agree with the Foundation ones they skip.
@Suite("AllergenTagger ASCII fast paths")
struct ASCIIFastPathTests {
    static let names = [
        "Chopped Tomatoes", "2 x 400g cans chickpeas, drained", "EGGS (large)", "butter-beans", "  soy   sauce ",
        "Dijon mustard; 1 tsp", "peanut_butter", "crème fraîche", "jalapeño", "100% rye flour", "", "...", "A",
        "Worcestershire sauce\tor tamari", "half-and-half", "BNLS SKNLS CHKN BRST 2LB", "tin o' tomatoes",
    ]

    @Test("words: ASCII bytes give the same words as lower-casing and folding", arguments: names)
    func words(_ name: String) {
        let ascii = AllergenTagger.asciiWords(name)
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            #expect(ascii == AllergenTagger.foldedWords(name))
        } else {
            #expect(ascii == nil)
        }
        #expect(AllergenTagger.words(name) == AllergenTagger.foldedWords(name))
    }

    @Test("plural matching on bytes agrees with building the plural forms")
    func plurals() {
        let keys = ["egg", "berry", "anchovy", "fish", "y", "s", "nut", "crème"]
        let words = ["eggs", "egges", "berries", "berrys", "anchovies", "fishes", "fishs", "ies", "ys", "ss", "ses",
                     "nuts", "nutss", "crèmes", "egg", "eg", "berryies", "xies", "nutes"]
        for key in keys {
            for word in words {
                let built = word == key || word == key + "s" || word == key + "es"
                    || (key.hasSuffix("y") && word == String(key.dropLast()) + "ies")
                #expect(AllergenTagger.matches(word, key) == built, "\(word) vs \(key)")
            }
        }
    }
}
