import ArgumentParser
import Foundation
import LarderCore
import LarderIngredients

struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure accuracy (and speed) on labelled data; the README quotes these figures.",
        subcommands: [EvalIngredients.self])
}

struct EvalIngredients: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingredients",
        abstract: "Per-field accuracy of the ingredient-line parser on labelled CSV (the format of shared/data/ingredients).",
        discussion: """
            Columns: input,name,quantity,unit,size,preparation,comment,purpose. Quantities in the `#1$2` token form \
            or as decimals are compared numerically; text fields after the labels' own normalisation. `core` = \
            quantity, unit and name right; `sentence` = every field right.
            """)

    @Option(parsing: .upToNextOption, help: "Labelled CSV files.")
    var labels: [String]

    @Flag(help: "Print one JSON object: count, quantity, unit, name, preparation, comment, core, sentence (fractions 0–1).")
    var json = false

    @Flag(help: "List the sentences the parser gets wrong, with expected and parsed fields.")
    var errors = false

    @Option(help: "Also time N passes of the parser over the sentences on one core and print lines per second.")
    var bench: Int?

    func run() throws {
        try reportingErrors {
            for file in labels where !FileManager.default.isReadableFile(atPath: file) {
                throw LarderError(.unreadable, "cannot read the labels file", hint: "check the path", path: file)
            }
            let report = try IngredientEvaluation.evaluate(files: labels, collectMistakes: errors)
            if json {
                print(IngredientEvaluation.json(report.overall))
            } else {
                print(IngredientEvaluation.textReport(report))
            }
            if errors { print(IngredientEvaluation.errorReport(report)) }
            if let bench {
                var sentences: [String] = []
                for file in labels { sentences += try IngredientEvaluation.loadExamples(path: file).map(\.input) }
                let rate = IngredientEvaluation.benchmark(sentences, repetitions: bench)
                printError(String(format: "speed: %.0f ingredient lines/s on one core (best of %d passes over %d lines)", rate, bench, sentences.count))
            }
        }
    }
}
