import ArgumentParser
import Foundation
import LarderCore
import LarderIngredients
import LarderRecipes

struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure accuracy (and speed) on labelled data; the README quotes these figures.",
        subcommands: [EvalIngredients.self, EvalRecipes.self])
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

struct EvalRecipes: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recipes",
        abstract: "Title, ingredient-line and step segmentation accuracy of the recipe parser, and recipes per second.",
        discussion: """
            Corpora: shared/data/recipes-markdown (title from front matter, ingredient lines = bullets, steps = \
            numbered items) and shared/data/recipes-scraped/expected_json (each expected recipe rendered as the \
            plain text a user would paste, then parsed back). Line scores are F1 over the lines and the fraction of \
            recipes with exactly the right lines; `recipes` is the fraction where exactly one recipe came out.
            """)

    @Option(help: "The shared data folder (default: $LARDER_SHARED_DATA, else shared/data found from the current folder up).")
    var data: String?

    @Flag(help: "Print one JSON object: overall and per corpus.")
    var json = false

    @Flag(help: "Include the non-English scraped recipes.")
    var allLanguages = false

    func run() throws {
        try reportingErrors {
            let cwd = FileManager.default.currentDirectoryPath
            guard let folder = data ?? RecipeEvaluation.locateSharedData(startingAt: cwd) else {
                throw LarderError(
                    .configuration, "the shared data folder was not found",
                    hint: "pass --data DIR (the folder holding recipes-markdown and recipes-scraped) or set LARDER_SHARED_DATA")
            }
            let report = try RecipeEvaluation.evaluate(sharedData: folder, englishOnly: !allLanguages)
            print(json ? RecipeEvaluation.json(report) : RecipeEvaluation.textReport(report))
            if report.parseSeconds > 0 {
                printError(String(format: "speed: %.0f recipes/s parsed from text", Double(report.overall.count) / report.parseSeconds))
            }
        }
    }
}
