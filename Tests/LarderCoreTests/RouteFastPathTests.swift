import Foundation
import Testing
@testable import LarderStages

/// `route` reads ASCII lines on their bytes; the words, lines and price tests must be what the character path
/// (and the price pattern) finds.
@Suite("Route: byte path agrees with the character path")
struct RouteFastPathTests {
    static let texts = [
        "Ingredients\n2 tbsp olive oil\nPreheat the oven to 200°C\n\u{0C}Method\nStir well.",
        "TOTAL 12.50\nCash 20,00 A\nChange 7.50\nVAT 2.08\nThank you",
        "Crème brûlée\nIngrédients: œufs, sucre\n\n\nPréparation", "Windows\r\nline ends\r\n2 cups flour",
        "a1b2c3 don't stop_here\nx\u{0C}y\n  \n1.2.34\n5,678 g\n.99\n1.9", "İstanbul KELVIN ſtrong\nΣΊΣΥΦΟΣ",
        "", "\n\n",
        "Preheat the oven to 200°C\n1 ½ cups flour\n½ tsp salt\n• 2 tbsp oil – cold\n“Serves” 4 × 2…\n⅓ cup\u{A0}milk ©™",
        "°C\u{301} ½\u{20DD} Cafe\u{301} •Tbsp\n²3 Ⅻ cups\n⅛ tsp",
    ]

    /// The symbols the byte path reads as punctuation are not letters, are their own lower case and stand as a
    /// character of their own after and before ASCII letters.
    @Test func plainSymbolsReadLikePunctuation() {
        for value in UInt32(0x80)...0x2FFF {
            guard let scalar = Unicode.Scalar(value), RouteStage.isPlainSymbol(scalar) else { continue }
            let character = Character(scalar)
            #expect(!character.isLetter && character.lowercased() == String(character), "U+\(String(value, radix: 16))")
            #expect("a\(character)b".count == 3 && "1\(character) \(character)".count == 4, "U+\(String(value, radix: 16))")
        }
    }

    /// Every word of the texts, the words `route` looks for, a few of both and none: the words found among them
    /// are the character path's.
    static let wanted: [Set<String>] = [
        texts.reduce(into: Set<String>()) { $0.formUnion($1.lowercased().split { !$0.isLetter }.map(String.init)) },
        RouteStage.signalWords, ["ingredients", "cash", "préparation", "stop", "cups", "σίσυφος", "zzz"], [],
    ]

    @Test("words and lines", arguments: texts)
    func wordsAndLines(_ raw: String) {
        let text = raw.lowercased()
        for wanted in Self.wanted {
            let (words, lines) = RouteStage.wordsAndLines(raw, among: wanted)
            #expect(words == Set(text.split { !$0.isLetter }.map(String.init)).intersection(wanted))
            #expect(lines.all.map(lines.lowered) == text.split(separator: "\n").map(String.init))
        }
    }

    /// The byte tests on a line (ASCII lines are kept as bytes) agree with the tests on the lower-cased `String`.
    @Test("line tests on bytes", arguments: texts + [
        "12 eggs\n-1 tbsp\n*2 cups\n 3 g\n• 4 ml\n½ cup\nA 1\n" + String(repeating: "1", count: 60) + "\n"
            + String(repeating: "2", count: 61) + "\n3 crème fraîche\nTOTAL 9,99 B\n",
    ])
    func lineTests(_ raw: String) {
        let (_, lines) = RouteStage.wordsAndLines(raw, among: RouteStage.signalWords)
        for line in lines.all {
            let text = lines.lowered(line)
            #expect(lines.mayEndInPrice(line) == RouteStage.mayEndInPrice(text), "\(text)")
            let opens = text.count <= 60
                && text.first.map({ $0.isNumber || $0 == "-" || $0 == "•" || $0 == "*" || $0 == " " }) == true
            #expect(lines.opensMeasuredLine(line) == opens, "\(text)")
        }
    }

    @Test("a line the price pattern matches passes the byte test", arguments: texts)
    func prices(_ raw: String) {
        for line in raw.lowercased().split(separator: "\n").map(String.init) {
            let matches = RouteStage.pricedLine.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil
            if matches { #expect(RouteStage.mayEndInPrice(line), "\(line)") }
        }
        #expect(!RouteStage.mayEndInPrice("2 tbsp olive oil"))
        #expect(RouteStage.mayEndInPrice("1.2.34"))
    }
}
