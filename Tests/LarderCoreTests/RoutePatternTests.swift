import Foundation
import LarderTestSupport
import Testing
@testable import LarderStages

/// `route`'s two line patterns read on bytes (``RoutePatterns``) must answer what ICU answers on the lower-cased line,
/// for every line `route` keeps as bytes (ASCII without "\n" or "\r", and the plain symbols).
@Suite("Route: the line patterns on bytes agree with ICU")
struct RoutePatternTests {
    static func icu(_ pattern: NSRegularExpression, _ line: String) -> Bool {
        let text = line.lowercased()
        return pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    static func agree(_ line: String) -> (price: Bool, measure: Bool, icuPrice: Bool, icuMeasure: Bool) {
        var bytes = Array(line.utf8)
        let (price, measure) = bytes.withUnsafeMutableBufferPointer {
            let buffer = UnsafeBufferPointer($0)
            return (RoutePatterns.endsInPrice(buffer), RoutePatterns.opensWithMeasure(buffer))
        }
        return (price, measure, icu(RouteStage.pricedLine, line), icu(RouteStage.measuredLine, line))
    }

    static let edgeLines = [
        "TOTAL 12.50", "Cash 20,00 A", "9.99a", "9.99 A", "9.99  b\u{0C}", "9.99b\u{0B}", "9.99b\u{0C}\u{0C}", "9.99 \u{0C}x",
        "1.999", "12.5", ".99", "a1.99", "1,2,34", "3.99\u{A0}", "3.99\u{A0}z", "3.99\u{A0}\u{A0}", "3.99°", "3.99½", "3.99\t",
        "3.99 ab", "3.99ä", "3.99\u{1C}", "x 3.99 y", "",
        "2 tbsp olive oil", "2 TBSP oil", "1/2 c", "200 g", "3 el", "1,5 tl", "16.3 oz", "1 ½ cups", "4 clove", "2 fl oz",
        "2 fl.oz", "2 fl. oz", "2 floz", "2 fl.\u{A0}oz", "2 fl  oz", "3 dash", "3 dashes", "2 t bs", "2 t\u{A0}bs", "2 t  bs",
        "2 tbs.", "2 tbs.x", "2 tbs..", "2 cups.", "2 cupsx", "2 c", "2 c.", "2c", "2cans", "2 can\u{0C}", "2 can\u{0B}x",
        "- 2 cups", "-2 cups", "* 1 g", "•1 g", "• 1 g", "•  1/2 cup", "- - 1 g", "-• 1 g", "  12 g", "\t1 kg x",
        "1 1/2 cups", "1  1/2 cups", "1 1/2cups", "1 11/2 cups", "1 1/22 cups", "1 1/ cups", "1.5.3 cups", "1/2/3 g",
        "1,5 ml", "1, ml", "1. ml", "1 ½ cup", "1½cup", "1 ½ ¼ cup", "1 ⅓ cup", "1 ⅔cup", "1 ¾ cup", "1 ⅛ cup",
        "2 cucchiaio", "2 cucchiao", "2 cucchiaino", "2 cucchiain", "2 cucchiaini", "2 cucchiai", "2 cucharadita", "2 cucharaditas",
        "2 cucharadas", "2 zehe", "2 zehen", "2 Prise", "2 BUND", "2 dose", "2 lb", "2 lbs", "2 sprig", "2 sprigs",
        "2 pinch", "2 bunch", "2 kg", "2 ml", "2 l", "2 g\u{A0}", "2\u{A0}g", "2 g°", "2 g½", "2 g-", "2 tsp\u{0C}",
        "12 eggs", "A 1 g", "x2 cups", "2", "2 ", " ", "°C 2 g", "1 g 9.99", "1 g 9.99 x",
    ]

    @Test("edge lines", arguments: edgeLines)
    func edges(_ line: String) {
        let r = Self.agree(line)
        #expect(r.price == r.icuPrice, "price: \(line.debugDescription)")
        #expect(r.measure == r.icuMeasure, "measure: \(line.debugDescription)")
    }

    /// The test finds both answers: lines that match each pattern and lines that don't.
    @Test func edgeLinesCoverBothAnswers() {
        let results = Self.edgeLines.map(Self.agree)
        #expect(results.contains { $0.icuPrice } && results.contains { !$0.icuPrice })
        #expect(results.contains { $0.icuMeasure } && results.contains { !$0.icuMeasure })
    }

    /// Random lines made of the patterns' pieces (digits, separators, white space, fractions, units and their
    /// neighbours in both cases, plain symbols): 20,000, seeded.
    @Test func randomLines() {
        let pieces = [
            "1", "2", "12", "0", ".", ",", "/", " ", "  ", "\t", "\u{0B}", "\u{0C}", "\u{A0}", "\u{1C}", "½", "¼", "⅓", "⅔",
            "¾", "⅛", "•", "-", "*", "°", "–", "…", "c", "cup", "CUPS", "s", "t", "bs", "tbsp", "Tsp", "fl", "oz", "g", "kg",
            "l", "ml", "el", "tl", "clove", "can", "dash", "es", "cucchia", "i", "o", "n", "cuchara", "dita", "da", "zehe",
            "bund", "x", "A", "z", "9.99", "3,50", "1/2",
        ]
        var rng = SeededGenerator(seed: 18)
        var counts = (price: 0, measure: 0)
        for _ in 0..<20_000 {
            // Half the lines open as an ingredient line would, so that both patterns match often.
            let openings = ["", "", "", "1 ", "2 ", "- 1 ", "• 3 ", "1 1/2 ", "12 ½ ", " 1,5 "]
            let line = openings.randomElement(using: &rng)!
                + (0..<Int.random(in: 1...7, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let r = Self.agree(line)
            #expect(r.price == r.icuPrice, "price: \(line.debugDescription)")
            #expect(r.measure == r.icuMeasure, "measure: \(line.debugDescription)")
            if r.icuPrice { counts.price += 1 }
            if r.icuMeasure { counts.measure += 1 }
        }
        // Enough of the random lines match for the comparison to mean something.
        #expect(counts.price > 500 && counts.measure > 500, "\(counts)")
    }

    /// Through the stage: the lines `route` keeps as bytes count the same prices and measures as ICU on every
    /// line, on texts of both kinds.
    @Test func routeCountsAsICU() {
        let texts = [
            "Ingredients\n2 tbsp olive oil\n1 ½ cups flour\n• 3 g salt\n200 g sugar\nPreheat the oven\nTOTAL 9.99",
            "SHOP\nMilk 1.29\nBread 2,49 A\nEggs 3.10\nTOTAL 6.88\nCASH 10.00\nCHANGE 3.12",
            "Crème 2 tbsp\n2 cups flour\n1 l milk\u{0C}Page 2\n3 g yeast\n4 ml oil",
        ]
        for text in texts {
            let (_, lines) = RouteStage.wordsAndLines(text, among: RouteStage.signalWords)
            for line in lines.all {
                let lowered = lines.lowered(line)
                let price = RouteStage.pricedLine.firstMatch(in: lowered, range: NSRange(lowered.startIndex..., in: lowered)) != nil
                #expect(lines.endsInPrice(line) == price, "\(lowered)")
                let measure = !price && RouteStage.measuredLine.firstMatch(in: lowered, range: NSRange(lowered.startIndex..., in: lowered)) != nil
                if !price { #expect(lines.opensWithMeasure(line) == measure, "\(lowered)") }
            }
        }
    }
}
