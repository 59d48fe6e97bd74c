import Testing

@testable import LarderReceipts

/// Diet labels on the ingredients that trip naive keyword matching.
@Suite struct DietTests {
    let classifier = DietClassifier()

    func verdicts(_ lines: [(String, [String])], optional: Set<String> = []) -> [Diet: DietClassifier.Verdict] {
        let ingredients = lines.map {
            DietClassifier.Ingredient(text: $0.0, names: $0.1, optional: optional.contains($0.0))
        }
        return Dictionary(uniqueKeysWithValues: classifier.classify(ingredients).map { ($0.diet, $0) })
    }

    @Test func eggplantIsNotEggAndButternutIsNotANut() {
        let v = verdicts([("1 large eggplant", ["eggplant"]), ("1 butternut squash", ["butternut squash"]),
                          ("1 tsp nutmeg", ["nutmeg"])])
        for diet in Diet.allCases { #expect(v[diet]?.status == .yes, "\(diet)") }
    }

    @Test func stockIsAmbiguousUnlessItSaysWhatItIsMadeOf() {
        #expect(verdicts([("250 ml vegetable stock", ["vegetable stock"])])[.vegan]?.status == .yes)
        let plain = verdicts([("2 cups stock", ["stock"])])
        #expect(plain[.vegetarian]?.status == .maybe)
        #expect(plain[.vegetarian]?.evidence == ["'2 cups stock': may be made from meat (stock)"])
        #expect(plain[.glutenFree]?.status == .yes)
        let chicken = verdicts([("1 l chicken stock", ["chicken stock"])])
        #expect(chicken[.vegetarian]?.status == .no)
        #expect(chicken[.vegetarian]?.evidence == ["'1 l chicken stock': meat (chicken)"])
    }

    @Test func butterOrMargarineIsAChoice() {
        let v = verdicts([("2 tbsp butter or margarine", ["butter", "margarine"])])
        #expect(v[.vegetarian]?.status == .yes)
        #expect(v[.vegan]?.status == .maybe)
        #expect(v[.vegan]?.evidence == ["'2 tbsp butter or margarine': butter: dairy (butter); choose margarine"])
        #expect(v[.dairyFree]?.status == .maybe)
        // Butter alone is a plain no.
        #expect(verdicts([("2 tbsp butter", ["butter"])])[.vegan]?.status == .no)
    }

    @Test func animalProductsWheatAndNuts() {
        let v = verdicts([("2 tbsp honey", ["honey"]), ("200 g plain flour", ["plain flour"]),
                          ("50 g almonds", ["almonds"]), ("2 anchovy fillets", ["anchovy fillets"])])
        #expect(v[.vegan]?.status == .no)
        #expect(v[.vegetarian]?.status == .no)
        #expect(v[.glutenFree]?.status == .no)
        #expect(v[.nutFree]?.status == .no)
        #expect(v[.dairyFree]?.status == .yes)
        #expect(verdicts([("1 cup coconut milk", ["coconut milk"]), ("200 g rice flour", ["rice flour"]),
                          ("vegan sausages", ["vegan sausages"])]).values.allSatisfy { $0.status == .yes })
    }

    @Test func anOptionalIngredientMakesItMaybe() {
        let v = verdicts([("1/2 cup single cream (optional)", ["single cream"])], optional: ["1/2 cup single cream (optional)"])
        #expect(v[.vegan]?.status == .maybe)
        #expect(v[.vegan]?.evidence.first?.hasSuffix("(optional: leave it out)") == true)
    }

    /// Open Food Facts' flags, carried by the lexicon, catch what the words miss.
    @Test func openFoodFactsFlagsAddANo() throws {
        let lexicon = try FoodLexicon.bundled()
        #expect(lexicon.lookup("cumin seeds")?.parent == "cumin")
        #expect(lexicon.lookup("cumin")?.base == "cumin")
        let fishSauce = try #require(lexicon.lookup("fish sauce"))
        #expect(fishSauce.vegan == "no")
        let v = classifier.judge(
            DietClassifier.Ingredient(text: "1 tbsp nam pla", names: ["nam pla"], offVegan: "no", offVegetarian: "no"),
            for: .vegan)
        #expect(v.0 == .no)
        #expect(v.1 == "Open Food Facts: not vegan")
    }

    @Test("the caller's tag cache is what the labels read, and the same tags give the same verdicts")
    func tagsFromTheCallersCache() {
        let tagger = AllergenTagger()
        let lines: [(String, [String])] = [("2 tbsp butter", ["butter"]), ("1 l chicken stock", ["chicken stock"]),
                                           ("100 g walnuts", ["walnuts"]), ("200 g plain flour", ["plain flour"]),
                                           ("1 tbsp fish sauce", ["fish sauce"]), ("2 eggs", ["eggs"])]
        let ingredients = lines.map { DietClassifier.Ingredient(text: $0.0, names: $0.1) }
        let cached = DietClassifier(allergens: tagger) { tagger.tags(for: $0) }
        #expect(cached.classify(ingredients) == classifier.classify(ingredients))
        // A cache that knows no allergen in "butter": the labels follow the cache, not a second tagging.
        let blind = DietClassifier(allergens: tagger) { $0 == "butter" ? [] : tagger.tags(for: $0) }
        let butter = [DietClassifier.Ingredient(text: "2 tbsp butter", names: ["butter"])]
        #expect(classifier.classify(butter).first { $0.diet == .dairyFree }?.status == .no)
        #expect(blind.classify(butter).first { $0.diet == .dairyFree }?.status == .yes)
    }
}
