import ArgumentParser
import Foundation
import LarderCore
import LarderIngredients

struct Train: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train the models shipped in the repo from labelled data.",
        subcommands: [TrainIngredients.self])
}

struct TrainIngredients: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingredients",
        abstract: "Train the ingredient-line tagger (averaged perceptron) and write its weights.",
        discussion: """
            Labels: CSV files with columns input,name,quantity,unit,size,preparation,comment,purpose (the format of \
            shared/data/ingredients). Each sentence's fields are aligned to its tokens; sentences that do not align \
            cleanly are left out and counted. Deterministic for a given seed. scripts/data/train-ingredients.sh runs \
            this on the shared data and writes Sources/LarderIngredients/Resources/ingredient-tagger.bin.
            """)

    @Option(parsing: .upToNextOption, help: "Labelled CSV files to train on.")
    var labels: [String]

    @Option(help: "Where to write the weights.")
    var out: String

    @Option(help: "Passes over the training sentences.")
    var epochs: Int = IngredientTraining.Settings().epochs

    @Option(help: "Seed of the training order.")
    var seed: UInt64 = IngredientTraining.Settings().seed

    @Option(help: "Training runs in different orders (seed, seed + 1, …) averaged into one model.")
    var ensemble: Int = IngredientTraining.Settings().ensemble

    func run() throws {
        try reportingErrors {
            for file in labels where !FileManager.default.isReadableFile(atPath: file) {
                throw LarderError(.unreadable, "cannot read the labels file", hint: "check the path", path: file)
            }
            let settings = IngredientTraining.Settings(epochs: epochs, seed: seed, ensemble: ensemble)
            let (weights, _) = try IngredientTraining.train(files: labels, settings: settings, log: printError)
            try SafeFile.write(weights, to: out, what: "the weights")
            printError("wrote \(weights.count) bytes to \(out)")
        }
    }
}
