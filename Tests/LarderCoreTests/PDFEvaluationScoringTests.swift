import Foundation
import Testing

@testable import LarderEvaluation
import LarderRecipes

@Suite("PDF evaluation scoring")
struct PDFEvaluationScoringTests {
    @Test func foldingAndOneToOneMatching() {
        #expect(PDFEvaluation.fold("1 ½ T bs Olive-Oil") == "11/2tbsoliveoil")
        #expect(PDFEvaluation.foldTitle("Chicken Saltimbocca[1]") == PDFEvaluation.foldTitle("chicken  saltimbocca"))
        #expect(PDFEvaluation.ratio("abcd", "abcd") == 1)
        #expect(PDFEvaluation.ratio("abcdefghij", "abcdefghix") == 0.9)
        // Each truth line matches at most one parsed line.
        let pairs = PDFEvaluation.match(got: ["1 tsp salt", "1 tsp salt", "2 eggs"], truth: ["1 tsp salt", "3 eggs"])
        #expect(pairs.count == 1)
        #expect(pairs[0].truth == 0)
    }

    /// The truth writes a name with its preparation ("onion, white"): `name` compares Larder's name alone,
    /// `name_as_written` its name, size, preparation, comment and purpose in the line's order; a miss is listed.
    @Test func namesAreComparedAloneAndAsWritten() {
        func ingredient(
            _ text: String, name: String, preparation: String? = nil, size: String? = nil
        ) -> RecipeIngredient {
            RecipeIngredient(
                text: text, name: name, size: size, preparation: preparation,
                provenance: .init(page: 1, lineStart: 1, lineEnd: 1))
        }
        var result = PDFEvaluation.DocumentResult(
            document: "t", source: "s", language: "en", routedAsRecipe: true, truthRecipes: 1, parsedRecipes: 1)
        let truth = PDFEvaluation.TruthIngredient(
            text: "1/2 onion, white", quantity: nil, unit: nil, name: "onion, white")
        PDFEvaluation.checkFields(
            ingredient("1/2 onion, white", name: "onion", preparation: "white"), truth, into: &result)
        #expect(result.name == (0, 1) && result.nameAsWritten == (1, 1))
        let before = PDFEvaluation.TruthIngredient(
            text: "1 large white onion", quantity: nil, unit: nil, name: "large white onion")
        PDFEvaluation.checkFields(
            ingredient("1 large white onion", name: "white onion", size: "large"), before, into: &result)
        #expect(result.nameAsWritten == (2, 2))
        let wrong = PDFEvaluation.TruthIngredient(text: "2 Stiele Sellerie", quantity: nil, unit: nil, name: "Sellerie")
        PDFEvaluation.checkFields(ingredient("2 Stiele Sellerie", name: "Stiele Sellerie"), wrong, into: &result)
        #expect(result.nameAsWritten == (2, 3))
        #expect(result.fieldMistakes.contains { $0.contains("Stiele Sellerie") } && result.mistakes.isEmpty)
    }

    @Test func leaveOneSourceOutHoldsEachSourceOutAndMarksDevSets() {
        func doc(_ name: String, _ source: String, matched: Int, truth: Int) -> PDFEvaluation.DocumentResult {
            var r = PDFEvaluation.DocumentResult(
                document: name, source: source, language: "en", routedAsRecipe: true, truthRecipes: 1, parsedRecipes: 1)
            r.titlesRight = 1
            r.ingredients = .init(truth: truth, predicted: truth, matched: matched)
            r.steps = .init(truth: 2, predicted: 2, matched: 2)
            return r
        }
        let report = PDFEvaluation.report(
            [
                doc("a1", "teresi/cookbook", matched: 5, truth: 10),
                doc("a2", "teresi/cookbook", matched: 10, truth: 10),
                doc("b1", "someone/new-book", matched: 10, truth: 10),
            ],
            seconds: 0, pages: 3)
        let folds = PDFEvaluation.leaveOneSourceOut(report)
        #expect(folds.map(\.source) == ["someone/new-book", "teresi/cookbook"])
        #expect(folds.map(\.developmentSet) == [false, true])
        #expect(folds[1].heldOut.ingredients.matched == 15 && folds[1].rest.ingredients.matched == 10)
        #expect(folds[0].rest.documents == 2)
        let summary = PDFEvaluation.foldSummary(folds)
        #expect(abs(summary.mean.1 - (1 + 0.75) / 2) < 1e-9)
        #expect(summary.worst.1 == 0.75)
        #expect(PDFEvaluation.foldsText(folds).contains("unseen"))
    }
}
