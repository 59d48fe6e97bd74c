import Foundation
import Testing
@testable import LarderIngredients

@Suite("IngredientParser")
struct IngredientParserTests {
    let parser = IngredientParser()

    @Test func sizeAndCount() {
        let p = parser.parse("2 large eggs")
        #expect(p.quantity == Quantity(value: 2, text: "2"))
        #expect(p.unit == nil)
        #expect(p.size == "large")
        #expect(p.name == "eggs")
        #expect(p.text == "2 large eggs")
    }

    @Test func numberWordWithPackageSize() {
        let p = parser.parse("one 14-ounce can diced tomatoes")
        #expect(p.quantity?.value == 1)
        #expect(p.quantity?.text == "one")
        #expect(p.unit == "can")
        #expect(p.size == "14-ounce")
        #expect(p.name == "diced tomatoes")
        #expect(p.additionalAmounts.isEmpty)
    }

    @Test func parenthesisedSecondAmount() {
        let p = parser.parse("1 cup (240 ml) milk")
        #expect(p.quantity?.value == 1)
        #expect(p.unit == "cup")
        #expect(p.additionalAmounts == [IngredientAmount(quantity: Quantity(value: 240, text: "240"), unit: "milliliter", unitText: "ml")])
        #expect(p.name == "milk")
        #expect(p.amounts.count == 2)
    }

    @Test func slashSeparatedMetricAndImperial() {
        let p = parser.parse("150g/5¼oz plain flour, sifted")
        #expect(p.quantity?.value == 150)
        #expect(p.unit == "gram")
        #expect(p.additionalAmounts.first?.quantity?.value == 5.25)
        #expect(p.additionalAmounts.first?.unit == "ounce")
        #expect(p.name == "plain flour")
        #expect(p.preparation == "sifted")
    }

    @Test func alternatives() {
        let p = parser.parse("butter or margarine")
        #expect(p.quantity == nil)
        #expect(p.name == "butter or margarine")
        #expect(p.alternatives == ["butter", "margarine"])
        let q = parser.parse("2 tbsp olive oil")
        #expect(q.alternatives.isEmpty)
    }

    @Test func toTasteIsAComment() {
        let p = parser.parse("salt, to taste")
        #expect(p.name == "salt")
        #expect(p.comment == "to taste")
        #expect(p.quantity == nil)
        #expect(p.optional == false)
        let q = parser.parse("freshly ground black pepper to taste")
        #expect(q.name == "black pepper")
        #expect(q.preparation == "freshly ground")
        #expect(q.comment == "to taste")
    }

    @Test func mixedFractionAndPreparation() {
        let p = parser.parse("1 1/2 cups flour, sifted")
        #expect(p.quantity?.value == 1.5)
        #expect(p.quantity?.text == "1 1/2")
        #expect(p.unit == "cup")
        #expect(p.unitText == "cups")
        #expect(p.name == "flour")
        #expect(p.preparation == "sifted")
    }

    @Test func unicodeFractions() {
        #expect(parser.parse("1½ cups sugar").quantity?.value == 1.5)
        #expect(parser.parse("¾ tsp salt").quantity?.value == 0.75)
        #expect(parser.parse("2 ⅓ cups milk").quantity?.value == 2 + 1.0 / 3)
        #expect(parser.parse("0.5 c dry white wine").quantity?.value == 0.5)
    }

    @Test func ranges() {
        let p = parser.parse("2-3 tbsp olive oil")
        #expect(p.quantity == Quantity(value: 2, max: 3, text: "2-3"))
        #expect(p.quantity?.isRange == true)
        #expect(p.unit == "tablespoon")
        #expect(p.name == "olive oil")
        let q = parser.parse("2 to 3 garlic cloves, peeled")
        #expect(q.quantity?.value == 2)
        #expect(q.quantity?.max == 3)
        #expect(q.unit == "clove")
        #expect(q.name == "garlic")
        #expect(q.preparation == "peeled")
        let r = parser.parse("1 or 2 jalapeños")
        #expect(r.quantity?.max == 2)
    }

    /// A range with the unit on both ends reads as one range and one unit.
    @Test func rangeWithTheUnitTwice() {
        let t = Tokenizer.tokenize("110ml-150ml/4-5fl oz sparkling water")
        #expect(t.prefix(3).map(\.text) == ["110-150", "ml", "/"])
        #expect(t[0].value == 110 && t[0].max == 150)
        let u = Tokenizer.tokenize("1 x 300–400g/10½oz–14oz beef cheek")
        #expect(u.map(\.text).prefix(7) == ["1", "x", "300-400", "g", "/", "10 1/2-14", "oz"])
        #expect(u[5].value == 10.5 && u[5].max == 14)
        #expect(Tokenizer.tokenize("200g-250ml stock").map(\.text) == ["200", "g", "-", "250", "ml", "stock"])
    }

    /// Spaced ranges with the unit on both ends ("5 ½ oz to 7 ounces") and hyphen-dangling ranges ("10- or
    /// 12-ounce", "8- to -10 ounce", "3- to 3 1/2-lb") read as one range, as the labels write them.
    @Test func spacedAndHyphenDanglingRanges() {
        let oz = Tokenizer.tokenize("5 ½ oz to 7 ounce cornstarch")
        #expect(oz.map(\.text) == ["5 1/2-7", "oz", "cornstarch"])
        #expect(oz[0].value == 5.5 && oz[0].max == 7)
        #expect(Tokenizer.tokenize("½ c to 1 cup pistachios").map(\.text) == ["1/2-1", "c", "pistachios"])
        #expect(Tokenizer.tokenize("Two 4-pound to 4½-pound ducks").map(\.text) == ["Two", "4-4 1/2", "pound", "ducks"])
        // different units stay two amounts
        #expect(Tokenizer.tokenize("1 teaspoon to 1 tablespoon oil").map(\.text) == ["1", "teaspoon", "to", "1", "tablespoon", "oil"])
        let package = Tokenizer.tokenize("One 10- or 12-ounce package")
        #expect(package.map(\.text) == ["One", "10-12", "ounce", "package"])
        #expect(package[1].value == 10 && package[1].max == 12)
        #expect(Tokenizer.tokenize("Four 8- to -10 ounce trout").map(\.text) == ["Four", "8-10", "ounce", "trout"])
        let lb = Tokenizer.tokenize("1 (3- to 3 1/2-lb) roast")
        #expect(lb[2].text == "3-3 1/2" && lb[2].max == 3.5)
        let p = parser.parse("5 ½ oz to 7 ounces cornstarch")
        #expect(p.quantity == Quantity(value: 5.5, max: 7, text: "5 1/2-7"))
        #expect(p.unit == "ounce")
        #expect(p.additionalAmounts.isEmpty)
    }

    @Test func aPinch() {
        let p = parser.parse("a pinch of salt")
        #expect(p.quantity?.value == 1)
        #expect(p.quantity?.text == "a")
        #expect(p.unit == "pinch")
        #expect(p.name == "salt")
        #expect(p.comment == nil)
    }

    @Test func numberWords() {
        #expect(parser.parse("half a lemon").quantity?.value == 0.5)
        #expect(parser.parse("half a lemon").name == "lemon")
        #expect(parser.parse("a dozen eggs").quantity?.value == 12)
        #expect(parser.parse("a dozen eggs").name == "eggs")
        #expect(parser.parse("Two cups water").quantity?.value == 2)
        #expect(parser.parse("Two cups water").unit == "cup")
    }

    @Test func purpose() {
        let p = parser.parse("fresh parsley, for garnish")
        #expect(p.name == "fresh parsley")
        #expect(p.purpose == "for garnish")
        #expect(p.quantity == nil)
        let q = parser.parse("1 tbsp sesame seeds, to serve")
        #expect(q.purpose == "to serve")
    }

    @Test func optionalFlag() {
        let p = parser.parse("2 tbsp chopped walnuts (optional)")
        #expect(p.optional)
        #expect(p.comment == "optional")
        #expect(p.preparation == "chopped")
        #expect(p.name == "walnuts")
    }

    @Test func unitAbbreviationsAreCanonicalised() {
        let cases: [(String, String)] = [
            ("1 tbsp oil", "tablespoon"), ("1 T oil", "tablespoon"), ("1 Tbs oil", "tablespoon"),
            ("1 tsp salt", "teaspoon"), ("1 t salt", "teaspoon"), ("2 c flour", "cup"), ("2 cups flour", "cup"),
            ("8 fl oz cream", "fluid ounce"), ("1 lb beef", "pound"), ("2 lbs beef", "pound"), ("4 oz cheese", "ounce"),
            ("100 g sugar", "gram"), ("1 kg potatoes", "kilogram"), ("250 ml stock", "milliliter"),
            ("1 l water", "liter"), ("1 litre water", "liter"), ("3 cloves garlic", "clove"), ("2 cans beans", "can"),
            ("2 sticks butter", "stick"), ("2 pinches salt", "pinch"), ("1 pint milk", "pint"),
        ]
        for (line, unit) in cases {
            #expect(parser.parse(line).unit == unit, "\(line)")
        }
    }

    @Test func divided() {
        let p = parser.parse("1 cup sugar, divided")
        #expect(p.name == "sugar")
        #expect(p.preparation == "divided")
    }

    @Test func commentsAndPreparation() {
        let p = parser.parse("3 eggs, preferably free-range, beaten")
        #expect(p.name == "eggs")
        #expect(p.comment == "preferably free-range")
        #expect(p.preparation == "beaten")
        let q = parser.parse("1 small onion, finely chopped")
        #expect(q.size == "small")
        #expect(q.name == "onion")
        #expect(q.preparation == "finely chopped")
    }

    @Test func multiplierAndCompoundImperial() {
        let p = parser.parse("2 x 400g tins chopped tomatoes")
        #expect(p.quantity?.value == 2)
        #expect(p.amounts.contains { $0.unit == "gram" && $0.quantity?.value == 400 })
        #expect(p.name == "chopped tomatoes")
        let q = parser.parse("700g/1lb 9oz new potatoes")
        #expect(q.amounts.map(\.unit) == ["gram", "pound", "ounce"])
    }

    @Test func fruitPartsBeforeTheFruit() {
        let p = parser.parse("Juice of 1 lemon")
        #expect(p.quantity?.value == 1)
        #expect(p.name == "lemon")
        #expect(p.preparation == "Juice of")
    }

    @Test func countUnitAfterTheName() {
        let p = parser.parse("3 celery ribs, thinly sliced")
        #expect(p.unit == "rib")
        #expect(p.name == "celery")
        #expect(p.preparation == "thinly sliced")
    }

    @Test func alternativeCountsWithSizes() {
        let p = parser.parse("1 large or 2 small onions, chopped")
        #expect(p.quantity?.value == 1)
        #expect(p.additionalAmounts.first?.quantity?.value == 2)
        #expect(p.size == "large or small")
        #expect(p.name == "onions")
    }

    @Test func modifierBeforeTheQuantity() {
        let p = parser.parse("Scant ½ cup granulated sugar")
        #expect(p.quantity?.value == 0.5)
        #expect(p.unit == "cup")
        #expect(p.unitText == "Scant cup")
        #expect(p.name == "granulated sugar")
    }

    @Test func trailingMetricAmount() {
        let p = parser.parse("2 tsp ground cumin 10 mL")
        #expect(p.name == "ground cumin")
        #expect(p.additionalAmounts == [IngredientAmount(quantity: Quantity(value: 10, text: "10"), unit: "milliliter", unitText: "mL")])
    }

    @Test func parenthesisedPackageSize() {
        let p = parser.parse("2 (14.5-ounce) cans diced tomatoes, drained")
        #expect(p.quantity?.value == 2)
        #expect(p.unit == "can")
        #expect(p.additionalAmounts.first?.quantity?.value == 14.5)
        #expect(p.additionalAmounts.first?.unit == "ounce")
        #expect(p.name == "diced tomatoes")
        #expect(p.preparation == "drained")
    }

    @Test func dozen() {
        let p = parser.parse("1 dozen eggs")
        #expect(p.quantity?.value == 12)
        #expect(p.name == "eggs")
    }

    @Test func confidenceIsHigherForCleanLines() {
        let good = parser.parse("2 cups flour")
        let bad = parser.parse("2 3 4")
        #expect(good.confidence > bad.confidence)
        #expect((0...1).contains(good.confidence))
        #expect((0...1).contains(bad.confidence))
    }

    @Test func codableRoundTrip() throws {
        let p = parser.parse("1 cup (240 ml) milk, warmed")
        let data = try JSONEncoder().encode(p)
        let back = try JSONDecoder().decode(ParsedIngredient.self, from: data)
        #expect(back == p)
    }

    @Test func emptyAndOddInput() {
        #expect(parser.parse("").name == "")
        #expect(parser.parse("   ").quantity == nil)
        #expect(parser.parse("salt").name == "salt")
        _ = parser.parse("((,,))--//½½")
    }
}

@Suite("IngredientEvaluation helpers")
struct IngredientEvaluationHelperTests {
    @Test func csvQuoting() {
        let rows = IngredientEvaluation.parseCSV("a,b,c\n\"x, y\",\"he said \"\"hi\"\"\",\n1,\"multi\nline\",3\n")
        #expect(rows.count == 3)
        #expect(rows[1] == ["x, y", "he said \"hi\"", ""])
        #expect(rows[2] == ["1", "multi\nline", "3"])
    }

    @Test func labelQuantities() {
        #expect(IngredientEvaluation.labelQuantity("1#1$2") == .number(1.5, nil))
        #expect(IngredientEvaluation.labelQuantity("#3$4-1") == .number(0.75, 1))
        #expect(IngredientEvaluation.labelQuantity("1-1#1$2") == .number(1, 1.5))
        #expect(IngredientEvaluation.labelQuantity("8x") == .number(8, nil))
        #expect(IngredientEvaluation.labelQuantity("One") == .number(1, nil))
        // a number word ending in x is not a multiplier ("Six" once read as "si" times)
        #expect(IngredientEvaluation.labelQuantity("Six") == .number(6, nil))
        #expect(IngredientEvaluation.labelQuantity("6x") == .number(6, nil))
        #expect(IngredientEvaluation.labelQuantity("few") == .text("few"))
    }

    @Test func textNormalisation() {
        #expect(IngredientEvaluation.normalizeText("cut into #1$4-inch cubes") == IngredientEvaluation.normalizeText("cut into ¼-inch cube"))
        #expect(IngredientEvaluation.normalizeText("Coriander Leaves,") == "coriander leaf")
        #expect(IngredientEvaluation.normalizeText("1cm") == "1 cm")
    }

    @Test func scoringOnHandWrittenExamples() {
        let examples = [
            IngredientEvaluation.Example(input: "2 tbsp olive oil", name: "olive oil", quantity: "2", unit: "tbsp"),
            IngredientEvaluation.Example(input: "1 cup (240 ml) milk", name: "milk", quantity: "1 240", unit: "cup ml"),
            IngredientEvaluation.Example(input: "salt, to taste", name: "salt", comment: "to taste"),
            IngredientEvaluation.Example(input: "2 large eggs", name: "eggs", quantity: "2", unit: "", size: "large"),
        ]
        let r = IngredientEvaluation.evaluate(examples, collectMistakes: true)
        #expect(r.overall.count == 4)
        #expect(r.overall.sentence == 1, "\(IngredientEvaluation.errorReport(r))")
        let json = IngredientEvaluation.json(r.overall)
        for key in ["count", "quantity", "unit", "name", "preparation", "comment", "core", "sentence"] {
            #expect(json.contains("\"\(key)\":"))
        }
    }
}

@Suite("German and other languages' units")
struct ForeignUnitTests {
    @Test(arguments: [
        ("3 EL Olivenöl", 3.0, "tablespoon", "Olivenöl"), ("1,5 TL Salz", 1.5, "teaspoon", "Salz"),
        ("1 Prise Zucker", 1.0, "pinch", "Zucker"), ("2 Zehen Knoblauch", 2.0, "clove", "Knoblauch"),
        ("1 Bund Petersilie", 1.0, "bunch", "Petersilie"), ("2 cucchiai di olio", 2.0, "tablespoon", "di olio"),
    ])
    func unitAndDecimalComma(_ line: String, _ quantity: Double, _ unit: String, _ name: String) {
        let parsed = IngredientParser().parse(line)
        #expect(parsed.quantity?.value == quantity, "\(line)")
        #expect(parsed.unit == unit, "\(line)")
        #expect(parsed.name == name, "\(line)")
    }
}
