import ArgumentParser
import Foundation
import LarderArchives
import LarderCore
import LarderFormats
import LarderPages
import LarderRecipes

/// Reads a file as `ingest` does: an archive's members into memory (never to disk), then each member by content.
func importRecipeFile(_ path: String) throws -> RecipeImport.Outcome {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let name = (path as NSString).lastPathComponent
    guard Archives.format(of: data) != nil else { return RecipeImport.read([ExportMember(path: name, data: data)]) }
    let (members, errors) = try Archives.read(data, name: name)
    // HTML exports (Copy Me That, Recipe Keeper) become schema.org first, as `extract` does.
    var outcome = RecipeImport.read(members.map { member in
        let html = HTMLExports.isHTML(member.path) ? HTMLExports.schemaOrgJSON(member.data) : nil
        return ExportMember(path: member.path, data: html ?? member.data)
    })
    outcome.errors += errors.map { EntryError(member: $0.member ?? name, message: $0.message) }
    return outcome
}

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
        abstract: "Recipe-app export import: recipes found per format, expected parses matched, recipes per second.",
        discussion: """
            Over shared/data/recipe-app-exports: per format the recipes found against the README's count and the \
            entries that failed; for MealMaster and MasterCook text, which come with expected parses, how many \
            recipes match on title, ingredient lines (amount/unit/text), steps, servings and categories; the \
            Cooklang canonical tests passed (shared/data/cooklang-spec); recipes read per second.
            """)

    @Option(help: "The shared data folder (default: $LARDER_SHARED_DATA, else shared/data found from the current folder up).")
    var data: String?

    @Flag(help: "Print one JSON object.")
    var json = false

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
            let report = try FormatEvaluation.evaluate(folder: folder + "/recipe-app-exports", read: importRecipeFile)
            print(json ? FormatEvaluation.json(report) : FormatEvaluation.textReport(report))
        }
    }
}
