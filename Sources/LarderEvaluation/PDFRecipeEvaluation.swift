import Foundation
import LarderCore
import LarderRecipes
import LarderStages

/// `larder eval pdfs`: ingests each PDF of `shared/data/recipes-pdf` through the standard stages (``DocumentRunner``:
/// what `larder ingest` runs, with the configuration given, `limits.max_pdf_pages` and OCR of scans included) and
/// scores the recipes of the result `larder export` would write with ``PDFEvaluation``.
public enum PDFRecipeEvaluation {
    /// Reads and scores every PDF with a truth file in `folder`.
    public static func run(folder: String, runner: DocumentRunner) throws -> PDFEvaluation.Report {
        let documents = try PDFEvaluation.loadDocuments(folder: folder)
        if documents.isEmpty {
            throw LarderError(
                .configuration, "no <name>.pdf with a <name>.truth.json in the folder",
                hint: "pass --data DIR, the folder holding recipes-pdf (or recipes-pdf itself)", path: folder)
        }
        var results: [PDFEvaluation.DocumentResult] = []
        var seconds = 0.0
        var pages = 0
        for doc in documents {
            let start = DispatchTime.now().uptimeNanoseconds
            let (recipes, routed, pageCount) = read(doc.pdfPath, runner: runner)
            seconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            pages += pageCount
            results.append(PDFEvaluation.score(doc, recipes: recipes, routedAsRecipe: routed))
        }
        return PDFEvaluation.report(results, seconds: seconds, pages: pages)
    }

    /// The recipes read from one PDF as text, for `larder-worker layout FILE --recipes`.
    public static func describe(path: String, runner: DocumentRunner) -> String {
        let (recipes, routed, _) = read(path, runner: runner)
        if !routed { return "not routed as a recipe\n" }
        var out = ""
        for recipe in recipes {
            out += "recipe: \(recipe.title)  [\(recipe.language ?? "?")]\n"
            for i in recipe.allIngredients { out += "  ingredient: \(i.text)\n" }
            for s in recipe.steps { out += "  step: \(s.text)\n" }
        }
        return out
    }

    /// The recipes of one PDF's result, whether it was routed as a recipe, and its page count.
    static func read(_ path: String, runner: DocumentRunner) -> (recipes: [Recipe], routedAsRecipe: Bool, pages: Int) {
        guard let result = runner.run(path: path).result else { return ([], false, 0) }
        return (result.recipes, result.kind == .recipe, result.document.pages)
    }
}
