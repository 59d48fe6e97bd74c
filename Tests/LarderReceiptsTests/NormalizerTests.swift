import Foundation
import Testing
@testable import LarderOCR
@testable import LarderReceipts

@Suite("IngredientNormalizer")
struct NormalizerTests {
    let normalizer: IngredientNormalizer

    init() throws {
        normalizer = try IngredientNormalizer()
    }

    @Test(arguments: [
        ("GOYA GOLDEN CORN 15OZ", "corn"),
        ("BNLS SKNLS CHKN BRST", "chicken breast"),
        ("ORG BABY SPINACH 5OZ", "spinach"),
        ("WHOLE MILK 1 GAL", "milk"),
        ("LG BROWN EGGS 12CT", "egg"),
        ("OLIVE OIL EXTRA VIRGIN", "olive oil"),
        ("GREEK YOGURT 32OZ", "yogurt"),
        ("ALMOND BUTTER 12OZ", "almond butter"),
        ("COFFEE BEANS 12OZ", "coffee"),
        ("CANNED TOMATOES 28OZ", "tomato"),
        ("RED LENTILS 2LB", "lentils"),
        ("GALA APPLES", "apple"),
        ("SOURDOUGH LOAF", "sourdough bread"),
    ])
    func examples(description: String, base: String) {
        let m = normalizer.normalize(description)
        #expect(m.baseIngredient == base, "\(m.evidence)")
        #expect(m.status == .matched)
        #expect(m.confidence >= 0.6)
        #expect(!m.evidence.isEmpty)
    }

    @Test func evidenceRecordsAbbreviationsBrandAndSize() {
        let chicken = normalizer.normalize("BNLS SKNLS CHKN BRST")
        #expect(chicken.evidence.contains("abbreviation CHKN→chicken"))
        #expect(chicken.evidence.contains { $0.hasPrefix("lexicon 'chicken breast'") })
        let corn = normalizer.normalize("GOYA GOLDEN CORN 15OZ")
        #expect(corn.evidence.contains("brand removed: GOYA"))
        #expect(corn.evidence.contains("size removed: 15OZ"))
        let ketchup = normalizer.normalize("HEINZ KETCHUP 20 OZ")
        #expect(ketchup.baseIngredient == "ketchup")
        #expect(ketchup.evidence.contains("size removed: 20 OZ"))
        let sroie = normalizer.normalize("GARDENIA ORIGINAL CLASSIC JUMBO [600G]")
        #expect(sroie.evidence.contains("brand removed: GARDENIA"))
    }

    @Test(arguments: [
        ("PAPER TOWELS 2PK", "household: PAPER TOWEL"),
        ("LAUNDRY DETERGENT 64OZ", "household: DETERGENT"),
        ("BAG FEE", "bag-fee: BAG FEE"),
        ("BOTTLE DEPOSIT", "bottle-deposit: DEPOSIT"),
        ("STORE COUPON OLIVE OIL", "coupon: COUPON"),
        ("SALES TAX", "tax: TAX"),
        ("TOTAL", "total: TOTAL"),
        ("VISA", "payment: VISA"),
        ("WOOD", "generic-term: wood"),
        ("PROCESSED MATERIAL", "generic-term: processed material"),
    ])
    func blocklist(description: String, rule: String) {
        let m = normalizer.normalize(description)
        #expect(m.status == .blocked)
        #expect(m.blockedBy == rule)
    }

    @Test func blocklistIsConfigurable() {
        var blocklist = IngredientBlocklist.default
        blocklist.rules.append(.init(id: "pet", phrases: ["DOG FOOD", "CAT FOOD"]))
        let custom = IngredientNormalizer(lexicon: normalizer.lexicon, blocklist: blocklist)
        #expect(custom.normalize("PURINA DOG FOOD 5LB").blockedBy == "pet: DOG FOOD")
        let generic = IngredientNormalizer(lexicon: FoodLexicon(entries: [.init(term: "table salt", base: "table", category: "x", source: "test")]))
        #expect(generic.normalize("TABLE SALT").blockedBy == "generic-term: table")
    }

    @Test func unmatchedGoesToReviewNotDropped() {
        let m = normalizer.normalize("XQZT FLRBNZ 12OZ")
        #expect(m.status == .needsReview)
        #expect(m.baseIngredient == nil)
        #expect(m.evidence.contains("no lexicon match"))
    }

    @Test func fuzzyMatchIsLowConfidence() {
        let m = normalizer.normalize("BROCOLLI CROWNS")
        #expect(m.baseIngredient == "broccoli")
        #expect(m.confidence < 0.6)
        #expect(m.status == .needsReview)
        #expect(m.evidence.contains { $0.hasPrefix("fuzzy") })
    }

    /// A fuzzy match corrects slips, not other words: "soda" is one letter from "soya", "paste" from "pasta",
    /// "fillet" from "millet", and none of them is a misspelling. Dropped or doubled letters and OCR marks glued to a
    /// word still are.
    @Test func fuzzyMatchCorrectsSlipsNotOtherWords() throws {
        let lexicon = try FoodLexicon.bundled()
        for word in ["soda", "paste", "fillet", "chiles", "creme", "toffee", "grains", "bourbon", "chinese"] {
            #expect(lexicon.fuzzySingleWord(word) == nil, "\(word)")
        }
        #expect(lexicon.fuzzySingleWord("brocolli")?.term == "broccoli")
        #expect(lexicon.fuzzySingleWord("mayonaise")?.term == "mayonnaise")
        #expect(lexicon.fuzzySingleWord("yoghurt")?.term == "yogurt")
        #expect(lexicon.fuzzySingleWord("lssalmon")?.term == "salmon", "OCR marks glued to the start")
        #expect(lexicon.fuzzySingleWord("lemonadeoz")?.term == "lemonade", "a unit glued to the end")
        let soda = normalizer.normalize("BAKING SODA 1LB")
        #expect(soda.baseIngredient != "soya")
        #expect(soda.status == .needsReview)
        #expect(EditDistance.insertionsAndDeletions(Array("soda"), Array("soya")) == 2)
    }

    @Test func lexiconIsSmallAndAttributed() throws {
        let lexicon = try FoodLexicon.bundled()
        #expect(lexicon.entries.count > 3000)
        #expect(lexicon.entries["baby spinach"]?.base == "spinach")
        #expect(lexicon.entries.values.contains { $0.source.hasPrefix("off:") })
        #expect(lexicon.entries.values.contains { $0.source.hasPrefix("fdc:") })
    }

    @Test func pantryExtractionKeepsFoodBlocksRestFlagsUnknown() throws {
        let receipt = ReceiptParser().parse(text: """
            VALLEY FOODS CO-OP
            DATE 01/27/2026
            ROLLED OATS BULK
            1.27 lb @ 2.50/lb 3.18
            PAPER TOWELS 2PK 4.79
            XQZT FLRBNZ 2.00
            PEANUT BUTTER 16OZ 3.50
            MEMBER DISCOUNT -1.50
            TOTAL 11.97
            """)
        let pantry = PantryExtraction(receipt: receipt, receiptID: "valley-foods", normalizer: normalizer)
        // Unmatched: the product in lower case, flagged, and the evidence says so.
        #expect(pantry.items.map(\.ingredient) == ["oats", "xqzt flrbnz", "peanut butter"])
        #expect(pantry.items[1].evidence.contains("no lexicon match"))
        #expect(pantry.items[0].quantity == Decimal(string: "1.27"))
        #expect(pantry.items[0].unit == "pound")  // canonical, as recipes write units
        #expect(pantry.items[2].quantity == 16)
        #expect(pantry.items[2].unit == "ounce")  // the pack size, kept
        #expect(pantry.items[0].purchaseDate == "2026-01-27")
        #expect(pantry.items[0].source == PantryItem.Source(receipt: "valley-foods", line: 3))
        #expect(pantry.items[0].price == Decimal(string: "3.18"))
        #expect(pantry.items[0].allergens.map(\.allergen) == [.gluten])
        #expect(pantry.items[1].needsReview)
        #expect(pantry.items[2].allergens.map(\.allergen) == [.peanuts])
        #expect(pantry.blocked.contains { $0.rule == "household: PAPER TOWEL" && $0.line == 5 })
        #expect(pantry.blocked.contains { $0.description == "MEMBER DISCOUNT" })
    }
}
