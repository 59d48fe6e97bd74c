import Foundation
import LarderTestSupport
import Testing
@testable import LarderReceipts

/// The fast paths of the recipe stage's enrichment (issue 18): loading the lexicon on bytes in one pass, and the
/// brand scan of the normaliser on bytes with the brands sorted once. Each must agree with what it replaced.
@Suite("Lexicon and normaliser fast paths")
struct LexiconSpeedTests {
    /// The TSV reading the one-pass reader replaced: `split` per line and per field.
    static func referenceEntries(_ tsv: String) -> [FoodLexicon.Entry] {
        var list: [FoodLexicon.Entry] = []
        for line in tsv.utf8.split(separator: UInt8(ascii: "\n")) where line.first != UInt8(ascii: "#") {
            let f = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            guard f.count >= 4 else { continue }
            func field(_ k: Int) -> String { String(decoding: f[k], as: UTF8.self) }
            func optional(_ k: Int) -> String? { k < f.count && !f[k].isEmpty ? field(k) : nil }
            list.append(FoodLexicon.Entry(term: field(0), base: field(1), category: field(2), source: field(3),
                                          parent: optional(4), vegan: optional(5), vegetarian: optional(6)))
        }
        return list
    }

    static func entries(_ tsv: String) -> [FoodLexicon.Entry] {
        var text = tsv
        return text.withUTF8 { FoodLexicon.entries(tsv: $0) }
    }

    @Test("the bundled lexicon reads as the split reader read it")
    func bundledLexicon() throws {
        let tsv = try String(contentsOfFile: Repository.path("Sources/LarderReceipts/Resources/lexicon.tsv"), encoding: .utf8)
        let fast = Self.entries(tsv)
        #expect(fast.count > 4_000)
        #expect(fast == Self.referenceEntries(tsv))
        #expect(FoodLexicon(tsv: tsv).entries == FoodLexicon(entries: Self.referenceEntries(tsv)).entries)
    }

    @Test("edge texts read as the split reader read them", arguments: [
        "", "\n", "\n\n\n", "#only a comment", "a\tb\tc\td", "a\tb\tc\td\n", "\na\tb\tc\td\n\n", "a\tb\tc",
        "a\tb\tc\td\te\tf\tg\th", "a\tb\tc\td\t\t\t", "\t\t\t", "#a\tb\tc\td\nx\ty\tz\tw", "a\tb\tc\td\r\ne\tf\tg\th\r",
        "crème\tcrème\tdairy\tcurated\t\tyes\tno", "a\tb\tc\td\n#\n  # not a comment\tb\tc\td",
    ])
    func edgeTexts(_ tsv: String) {
        #expect(Self.entries(tsv) == Self.referenceEntries(tsv))
    }

    @Test("the brand scan finds what Foundation's search finds")
    func brandScan() {
        var generator = SeededGenerator(seed: 1118)
        let brands = IngredientNormalizer.defaultBrands + ["KIND", "C&H", "365", "CRÈME CO", "\u{212A}RAFT"]
        let words = ["GOYA", "DEL", "MONTE", "CORN", "KRAFT", "KIND", "KINDS", "C&H", "365", "3650", "TRADER", "JOE'S",
                     "JOES", "OLD", "EL", "PASO", "CRÈME", "CO", "É", "BEANS", "K", "\u{212A}RAFT", "ORGANIC", "VALLEY"]
        for _ in 0..<3_000 {
            let tokens = (0..<Int.random(in: 0...6, using: &generator)).map { _ in words.randomElement(using: &generator)! }
            let joined = " " + tokens.joined(separator: " ") + " "
            let ascii = joined.utf8.allSatisfy { $0 < 0x80 }
            for brand in brands {
                #expect(IngredientNormalizer.holdsBrand(joined, ascii: ascii, brand) == joined.contains(" \(brand) "),
                        "\(joined.debugDescription) \(brand)")
            }
        }
    }

    @Test("brands are tried longest first, and a changed list is used")
    func brandOrder() throws {
        let brands = IngredientNormalizer.defaultBrands
        #expect(IngredientNormalizer.brandOrder(brands) == brands.sorted(by: { $0.count > $1.count }))
        var normalizer = try IngredientNormalizer()
        #expect(normalizer.normalize("GOYA BLACK BEANS").evidence.contains("brand removed: GOYA"))
        normalizer.brands = ["ACME FOODS"]
        let match = normalizer.normalize("ACME FOODS BLACK BEANS")
        #expect(match.evidence.contains("brand removed: ACME FOODS"))
        #expect(!normalizer.normalize("GOYA BLACK BEANS").evidence.contains("brand removed: GOYA"))
    }
}
