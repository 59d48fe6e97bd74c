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
    ]

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
            #expect(lines == text.split(separator: "\n").map(String.init))
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
