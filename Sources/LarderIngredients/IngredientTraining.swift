import Foundation

/// Training and cross-validation of the ingredient tagger from labelled CSV files (the format of
/// `shared/data/ingredients`). Token labels come from ``LabelAlignment``; sentences whose fields do not align
/// cleanly are left out of training (and counted). The ``WordClasses`` features are learnt from the text of every
/// sentence given, labelled or not (under cross-validation: the training folds and `more/`, never the scored fold).
public enum IngredientTraining {
    /// Training settings. The defaults produce the shipped weights.
    public struct Settings: Sendable {
        /// Passes over the training sentences.
        public var epochs: Int
        /// Seed of the training order.
        public var seed: UInt64
        /// log2 of the feature table size.
        public var bits: Int
        /// Perceptron runs in different seeded orders (seed, seed + 1, …) whose weights are averaged into one table.
        public var ensemble: Int

        /// Creates settings.
        public init(epochs: Int = 20, seed: UInt64 = 15, bits: Int = 18, ensemble: Int = 5) {
            self.epochs = epochs; self.seed = seed; self.bits = bits; self.ensemble = ensemble
        }
    }

    /// How many sentences aligned cleanly to tokens.
    public struct AlignmentCount: Sendable {
        /// Sentences read.
        public var sentences: Int
        /// Sentences whose every field aligned to tokens (the ones trained on).
        public var aligned: Int
        /// Rows left out because every field is empty (most rows of `more/` carry no labels).
        public var unlabelled: Int
    }

    /// Aligns examples to token labels; returns the aligned ones.
    static func trainingExamples(_ examples: [IngredientEvaluation.Example]) -> ([SequenceTagger.Example], AlignmentCount) {
        var out: [SequenceTagger.Example] = []
        out.reserveCapacity(examples.count)
        let index = Dictionary(uniqueKeysWithValues: SequenceTagger.labels.enumerated().map { ($1, $0) })
        var unlabelled = 0
        for e in examples {
            if isUnlabelled(e) {
                unlabelled += 1
                continue
            }
            guard let (tokens, labels) = LabelAlignment.align(e) else { continue }
            out.append(SequenceTagger.Example(tokens: tokens, gold: labels.map { index[$0]! }))
        }
        return (out, AlignmentCount(sentences: examples.count - unlabelled, aligned: out.count, unlabelled: unlabelled))
    }

    /// A row whose every field is empty (most rows of `more/`): text for ``WordClasses``, not a training sentence.
    static func isUnlabelled(_ e: IngredientEvaluation.Example) -> Bool {
        e.name.isEmpty && e.quantity.isEmpty && e.unit.isEmpty && e.size.isEmpty && e.preparation.isEmpty
            && e.comment.isEmpty && e.purpose.isEmpty
    }

    static func train(_ examples: [IngredientEvaluation.Example], settings: Settings,
                      log: (String) -> Void) -> (SequenceTagger, AlignmentCount) {
        let (aligned, count) = trainingExamples(examples)
        log("\(count.unlabelled) rows without labels (used for word classes only); aligned \(count.aligned) of \(count.sentences) labelled sentences cleanly (\(String(format: "%.1f", 100 * Double(count.aligned) / Double(max(count.sentences, 1)))) %); training \(settings.epochs) epochs\(settings.ensemble > 1 ? " × \(settings.ensemble) orders" : "")")
        let classes = WordClasses.learn(from: examples.map(\.input))
        log("learnt word classes for \(classes.table.count) words from \(examples.count) sentences")
        let model = SequenceTagger.train(aligned, bits: settings.bits, epochs: settings.epochs, seed: settings.seed,
                                         ensemble: settings.ensemble, wordClasses: classes) { epoch, mistakes in
            log("  epoch \(epoch): \(mistakes) sentences wrong")
        }
        return (model, count)
    }

    /// Trains on every sentence of the files and returns the weights file's contents.
    public static func train(files: [String], settings: Settings = Settings(),
                             log: (String) -> Void = { _ in }) throws -> (weights: Data, alignment: AlignmentCount) {
        var all: [IngredientEvaluation.Example] = []
        for f in files { all += try IngredientEvaluation.loadExamples(path: f) }
        let (model, count) = train(all, settings: settings, log: log)
        return (model.serialized(), count)
    }

    /// The scores the labels' own token alignment would get through the scorer: what a tagger that labelled
    /// every token as the alignment does would score (a sentence that does not align counts as wrong in every
    /// field). Below 1 where the scorer's normalisation and the alignment's disagree ("eggs" aligned to the
    /// label "egg"), so it bounds what tagging alone can reach.
    public static func alignmentCeiling(_ examples: [IngredientEvaluation.Example]) -> IngredientEvaluation.Scores {
        var tally = IngredientEvaluation.Tally()
        for e in examples where !isUnlabelled(e) {
            if let (tokens, labels) = LabelAlignment.align(e) {
                tally.add(IngredientEvaluation.judge(LabelledSentence(tokens: tokens, labels: labels, amounts: []), e))
            } else {
                tally.count += 1
            }
        }
        return tally.scores
    }

    // MARK: - Cross-validation

    /// The result of k-fold cross-validation.
    public struct CrossValidation: Sendable {
        /// Scores of each held-out fold.
        public var folds: [IngredientEvaluation.Scores]
        /// Mean over the folds.
        public var mean: IngredientEvaluation.Scores
        /// Standard deviation over the folds (sample, n − 1).
        public var sd: IngredientEvaluation.Scores
        /// Every dev sentence's parse by the model that did not see it, in input order.
        public var predictions: [IngredientEvaluation.Prediction]
        /// Wrong sentences of all folds (when requested).
        public var mistakes: [IngredientEvaluation.Mistake]
        /// Alignment counts of the training sets, one per fold.
        public var alignment: [AlignmentCount]
    }

    /// The fold (0..<folds) of each example: a seeded shuffle of the indices, dealt round-robin.
    static func foldAssignment(count: Int, folds: Int, seed: UInt64) -> [Int] {
        var rng = SequenceTagger.SplitMix(state: seed)
        var order = Array(0..<count)
        order.shuffle(using: &rng)
        var fold = [Int](repeating: 0, count: count)
        for (k, i) in order.enumerated() { fold[i] = k % folds }
        return fold
    }

    static func key(_ s: String) -> String { s.trimmingCharacters(in: .whitespaces).lowercased() }

    /// k-fold cross-validation over `dev`: each fold's model is trained on the other folds plus `extra`,
    /// leaving out every training sentence whose text equals (ignoring case and outer spaces) one in the fold
    /// being scored; the fold is then scored.
    public static func crossValidate(dev: [IngredientEvaluation.Example], extra: [IngredientEvaluation.Example],
                                     folds: Int = 5, only: Int? = nil, settings: Settings = Settings(),
                                     collectMistakes: Bool = false,
                                     log: (String) -> Void = { _ in }) -> CrossValidation {
        let fold = foldAssignment(count: dev.count, folds: folds, seed: 2026)
        var scores: [IngredientEvaluation.Scores] = []
        var predictions = [IngredientEvaluation.Prediction?](repeating: nil, count: dev.count)
        var mistakes: [IngredientEvaluation.Mistake] = []
        var counts: [AlignmentCount] = []
        for f in 0..<folds where only == nil || only == f + 1 {
            let heldIdx = dev.indices.filter { fold[$0] == f }
            let held = heldIdx.map { dev[$0] }
            let heldText = Set(held.map { key($0.input) })
            let train = (dev.indices.filter { fold[$0] != f }.map { dev[$0] } + extra).filter { !heldText.contains(key($0.input)) }
            log("fold \(f + 1)/\(folds): training on \(train.count) sentences, scoring \(held.count)")
            let (model, count) = self.train(train, settings: settings, log: log)
            counts.append(count)
            let parser = IngredientParser(tagger: model)
            let report = IngredientEvaluation.evaluate(held, parser: parser, collectMistakes: collectMistakes)
            log("fold \(f + 1): core \(String(format: "%.4f", report.overall.core)), sentence \(String(format: "%.4f", report.overall.sentence))")
            scores.append(report.overall)
            mistakes += report.mistakes
            for (k, i) in heldIdx.enumerated() { predictions[i] = IngredientEvaluation.predict(held[k], parser: parser) }
        }
        let (mean, sd) = IngredientEvaluation.meanAndDeviation(scores)
        return CrossValidation(folds: scores, mean: mean, sd: sd, predictions: predictions.compactMap { $0 },
                               mistakes: mistakes, alignment: counts)
    }
}
