import ArgumentParser
import Foundation
import LarderArchives
import LarderCore
import LarderFormats
import LarderPages
import LarderRecipes

/// `larder export --format schema-org|cooklang|paprika`.
func exportRecipes(format: String, out: String, options: CommonOptions) throws {
    guard let chosen = RecipeExport.Format(rawValue: format) else {
        throw LarderError(.configuration, "unknown export format '\(format)'", hint: "use json, schema-org, cooklang or paprika")
    }
    let config = try options.loadConfig()
    let store = try options.openReadOnly(config)
    let report = try RecipeExport(store: store).export(chosen, to: out, gzip: Archives.gzip) { entries in
        try ZipWriter.data(entries)
    }
    if options.json {
        try printJSON(report)
    } else {
        print("wrote \(report.recipes) recipe(s) as \(report.format) into \(report.files.count) file(s) in \(report.directory)")
        for invalid in report.invalidResults { printError("larder: \(invalid)") }
        if report.skippedDocuments > 0 {
            print("skipped \(report.skippedDocuments) document(s) without an exportable result (see `larder status`)")
        }
    }
    // Nothing dropped silently: a result that breaks its schema was named, and the export exits 1.
    if !report.invalidResults.isEmpty { throw LarderExit.partial }
}

struct EvalFormats: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "formats",
        abstract: "Recipe-app exports through the standard stages: recipes found, titles, ingredient lines, steps.",
        discussion: """
            Ingests the samples of shared/data/recipe-app-exports through the standard stages in memory (the result \
            `larder export` writes, with the --config settings) and scores what is exported: per format the recipes \
            found against the README's count, files that failed and entries not imported; for the MealMaster and \
            MasterCook texts that come with expected parses, the first recipe's title, ingredient-line F1 and step \
            F1. Also the Cooklang canonical tests passed (shared/data/cooklang-spec; the reader's spec tests). \
            Runs in larder-worker, which links the native libraries.
            """)

    @Option(help: "The shared data folder (default: $LARDER_SHARED_DATA, else shared/data found from the current folder up).")
    var data: String?

    @Flag(help: "Print one JSON object.")
    var json = false

    @Option(help: "The pipeline configuration to ingest the samples with, as `larder ingest --config` does (eval/exports.yml); default: the defaults.")
    var config: String?

    func run() throws {
        try reportingErrors {
            let cwd = FileManager.default.currentDirectoryPath
            guard let folder = data ?? RecipeEvaluation.locateSharedData(startingAt: cwd),
                FileManager.default.fileExists(atPath: folder + "/recipe-app-exports")
            else {
                throw LarderError(
                    .configuration, "the shared data folder with recipe-app-exports was not found",
                    hint: "pass --data DIR (the folder holding recipe-app-exports) or set LARDER_SHARED_DATA")
            }
            var arguments = ["larder-worker", "eval-formats", "--data", absolute(folder + "/recipe-app-exports")]
            if json { arguments.append("--json") }
            if let config { arguments += ["--config", absolute(config)] }
            try execWorker(arguments)
        }
    }
}
