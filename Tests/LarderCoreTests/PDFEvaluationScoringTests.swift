import Foundation
import Testing

@testable import LarderEvaluation

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
