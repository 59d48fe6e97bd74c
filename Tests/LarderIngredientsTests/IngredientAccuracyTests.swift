import Foundation
import LarderTestSupport
import Testing
@testable import LarderIngredients

/// Cross-validated accuracy of the ingredient tagger on the labelled development data in `shared/data/ingredients`.
/// Every figure is scored on sentences the scoring model was not trained on.
///
/// The data folder is `../shared/data/ingredients` (or `$LARDER_SHARED_DATA/ingredients`), found by
/// LarderTestSupport. When it is absent the tests are skipped (visibly).
@Suite("Ingredient accuracy", .sharedData("ingredients"), .slow)
struct IngredientAccuracyTests {

    static func csvFiles(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".csv") }.sorted().map { folder + "/" + $0 }
    }

    static let folder = SharedData.path("ingredients")
    static let devFiles = folder.map { f in csvFiles(in: f) } ?? []

    static func examples(every stride: Int) throws -> [IngredientEvaluation.Example] {
        var all: [IngredientEvaluation.Example] = []
        for f in devFiles { all += try IngredientEvaluation.loadExamples(path: f) }
        return all.enumerated().filter { $0.offset % stride == 0 }.map(\.element)
    }

    /// A small cross-validation that runs in seconds in a debug build: 3 folds over every 8th dev sentence,
    /// 4 epochs, one training order (no ensemble), no extra data. Trained on far fewer sentences than the full cross-validation, so its floors
    /// are lower; they are set just below what it measured (see `SmallFloors`). Models never see the fold they score.
    @Test
    func smallCrossValidationFloors() throws {
        let dev = try Self.examples(every: 8)
        #expect(dev.count >= 4_500)
        let cv = IngredientTraining.crossValidate(dev: dev, extra: [], folds: 3,
                                                  settings: .init(epochs: 4, ensemble: 1), log: { _ in })
        print(IngredientEvaluation.textReport(cv))
        let s = cv.mean
        #expect(s.quantity >= SmallFloors.quantity)
        #expect(s.unit >= SmallFloors.unit)
        #expect(s.name >= SmallFloors.name)
        #expect(s.core >= SmallFloors.core)
        #expect(s.sentence >= SmallFloors.sentence)
        #expect(cv.predictions.count == dev.count)
    }

    /// The README's figures: 5-fold cross-validation over all 36,320 dev sentences (plus the text of
    /// `more/` for the word classes), as `larder eval ingredients --folds 5` runs it. Minutes in a release build, far longer in a debug
    /// one, so it runs only when `LARDER_FULL_CV=1` (e.g. `LARDER_FULL_CV=1 swift test -c release --filter fullCross`).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["LARDER_FULL_CV"] == "1",
                   "set LARDER_FULL_CV=1 to run the full 5-fold cross-validation (minutes, release build)"))
    func fullCrossValidationFloors() throws {
        let dev = try Self.examples(every: 1)
        #expect(dev.count == 36_320)
        var extra: [IngredientEvaluation.Example] = []
        if let folder = Self.folder {
            for f in Self.csvFiles(in: folder + "/more") { extra += try IngredientEvaluation.loadExamples(path: f) }
        }
        let cv = IngredientTraining.crossValidate(dev: dev, extra: extra, folds: 5, log: { print($0) })
        print(IngredientEvaluation.textReport(cv))
        let s = cv.mean
        #expect(s.quantity >= Floors.quantity)
        #expect(s.unit >= Floors.unit)
        #expect(s.name >= Floors.name)
        #expect(s.preparation >= Floors.preparation)
        #expect(s.comment >= Floors.comment)
        #expect(s.core >= Floors.core)
        #expect(s.sentence >= Floors.sentence)
    }

    enum SmallFloors {
        // measured 2026-11-24, feature set 5 with passive-aggressive steps and the tokenizer's spaced unit ranges
        // (3 folds over every 8th sentence, 4 epochs): quantity 0.9852, unit 0.9771, name 0.9361, core 0.9251,
        // sentence 0.9082 (mean over the held-out folds)
        static let quantity = 0.979
        static let unit = 0.974
        static let name = 0.933
        static let core = 0.921
        static let sentence = 0.905
    }

    enum Floors {
        // measured 2026-11-24, feature set 5, second-order decoding, five training orders averaged (the default
        // settings), `larder eval ingredients --folds 5` (mean ± sd over the held-out folds): quantity 0.9932 ±
        // 0.0014, unit 0.9902 ± 0.0013, name 0.9708 ± 0.0017, preparation 0.9795 ± 0.0012, comment 0.9713 ± 0.0018,
        // core 0.9658 ± 0.0017, sentence 0.9562 ± 0.0017
        static let quantity = 0.991
        static let unit = 0.988
        static let name = 0.969
        static let preparation = 0.978
        static let comment = 0.969
        static let core = 0.964
        static let sentence = 0.954
    }
}
