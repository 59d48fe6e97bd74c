import Testing
@testable import LarderOCR
@testable import LarderReceipts

@Suite("AllergenTagger")
struct AllergenTests {
    let tagger = AllergenTagger()

    static let cases: [(String, Set<Allergen>)] = [
        ("eggplant", Set<Allergen>()),
        ("butternut squash", []),
        ("peanut butter", [.peanuts]),
        ("coconut milk", []),
        ("almond milk", [.treeNuts]),
        ("water chestnuts", []),
        ("nutmeg", []),
        ("doughnut", []),
        ("cocoa butter", []),
        ("buckwheat", []),
        ("peppercorns", []),
        ("corned beef", []),
        ("cream of tartar", []),
        ("sweet corn", [.corn]),
        ("egg noodles", [.eggs, .wheat, .gluten]),
        ("whole milk", [.dairy]),
        ("sharp cheddar cheese", [.dairy]),
        ("soy sauce", [.gluten, .soy]),
        ("anchovies", [.fish]),
        ("shrimp", [.shellfish]),
        ("mussels", [.molluscs]),
        ("tahini", [.sesame]),
        ("dijon mustard", [.mustard]),
        ("celery sticks", [.celery]),
        ("lupini beans", [.lupin]),
        ("red wine", [.sulphites]),
        ("rolled oats", [.gluten]),
        ("gluten free bread", []),
        ("mixed nuts", [.treeNuts]),
        ("chicken breast", []),
    ]

    @Test(arguments: cases)
    func tags(name: String, expected: Set<Allergen>) {
        #expect(tagger.allergens(in: name) == expected, "\(tagger.tags(for: name))")
    }

    @Test func eachTagNamesItsKeyword() {
        #expect(tagger.tags(for: "peanut butter") == [AllergenTag(allergen: .peanuts, keyword: "peanut butter")])
        #expect(tagger.tags(for: "Whey protein").first == AllergenTag(allergen: .dairy, keyword: "whey"))
        #expect(tagger.tags(for: "EGGS").first?.keyword == "eggs")
        #expect(tagger.tags(for: "Crème fraîche").first == AllergenTag(allergen: .dairy, keyword: "creme fraiche"))
    }

    @Test func allSixteenAllergensHaveKeywords() {
        #expect(Allergen.allCases.count == 16)
        for allergen in Allergen.allCases { #expect(!(tagger.keywords[allergen] ?? []).isEmpty) }
    }
}
