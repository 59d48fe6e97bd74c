import Foundation
import LarderCore
import LarderRecipes
import LarderStages

/// `larder eval pdfs`: reads each PDF of `shared/data/recipes-pdf` the way the pipeline does (`extract` through
/// poppler, `route`, `recipe`) and scores the recipes with ``PDFEvaluation``.
public enum PDFRecipeEvaluation {
    /// Reads and scores every PDF with a truth file in `folder`.
    public static func run(folder: String) throws -> PDFEvaluation.Report {
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
            let (recipes, routed, pageCount) = try read(doc.pdfPath)
            seconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            pages += pageCount
            results.append(PDFEvaluation.score(doc, recipes: recipes, routedAsRecipe: routed))
        }
        return PDFEvaluation.report(results, seconds: seconds, pages: pages)
    }

    /// The recipes read from one PDF as text, for `larder-worker layout FILE --recipes`.
    public static func describe(path: String) -> String {
        guard let (recipes, routed, _) = try? read(path) else { return "could not read \(path)\n" }
        if !routed { return "not routed as a recipe\n" }
        var out = ""
        for recipe in recipes {
            out += "recipe: \(recipe.title)  [\(recipe.language ?? "?")]\n"
            for i in recipe.allIngredients { out += "  ingredient: \(i.text)\n" }
            for s in recipe.steps { out += "  step: \(s.text)\n" }
        }
        return out
    }

    /// The recipes the pipeline's `extract`, `route` and `recipe` stages find in one PDF.
    static func read(_ path: String) throws -> (recipes: [Recipe], routedAsRecipe: Bool, pages: Int) {
        let extracted = try ExtractStage.extractPDF(path: path, maxPages: 2000)
        let routed = RouteStage.route(extracted)
        guard routed.route == .recipe else { return ([], false, extracted.pages.count) }
        let source = RecipeSource(
            file: URL(fileURLWithPath: path).lastPathComponent, sha256: "", format: "pdf",
            lines: RecipeStage.lines(of: extracted))
        return (RecipeParser().parse(source), true, extracted.pages.count)
    }
}
