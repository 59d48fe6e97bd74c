import Foundation
import LarderCore
import LarderFormats
import LarderRecipes
import LarderStages

/// `larder eval formats`: the recipe-app export samples (`shared/data/recipe-app-exports`) ingested through the
/// standard stages (``DocumentRunner``, as `larder ingest --config eval/exports.yml` does) and scored on the result
/// `larder export` writes for each file:
/// - per format, the recipes in the exported results against the number the data's README counts, the files that
///   failed and the entries not imported;
/// - for the MealMaster and MasterCook texts that come with expected parses, each file's first exported recipe
///   against the expected one: title right (``RecipeEvaluation/normalize(_:)``), ingredient lines and steps as
///   ``RecipeEvaluation/lineF1(got:expected:)`` (an expected ingredient is its quantity, unit, text and preparation
///   joined; section headings are left out).
///
/// The Cooklang canonical tests (`cooklang-spec/canonical.yaml`) are the Cooklang reader's own spec tests, not a
/// figure of the user's path; they are reported beside.
public enum ExportEvaluation {
    /// One format's files.
    public struct Row: Codable, Sendable, Equatable {
        public var format: String
        public var files: Int
        /// Recipes the README counts (0 for the expected-parse folders: there, files with an expected recipe).
        public var expected: Int
        /// Recipes in the exported results.
        public var found: Int
        /// Files whose document failed (no result exported).
        public var failed: Int
        /// Entries the results name as not imported.
        public var entriesNotImported: Int
        /// With expected parses: recipes compared, titles right, mean ingredient-line and step F1.
        public var compared: Int = 0
        public var titles: Int = 0
        public var ingredientLinesF1: Double = 0
        public var stepsF1: Double = 0
    }

    /// The scores over all samples, as `--json` prints them.
    public struct Report: Codable, Sendable, Equatable {
        public var rows: [Row]
        /// Recipes in the exported results of the README-counted samples, and the README's count.
        public var recipes: Int
        public var expected_recipes: Int
        /// Recipes found against expected, per format capped at the expected count (extra recipes do not make up
        /// for missing ones), as a fraction.
        public var recipes_found: Double
        /// Over the files with an expected parse: the fraction with the title right, mean ingredient-line and step F1.
        public var compared: Int
        public var titles: Double
        public var ingredient_lines_f1: Double
        public var steps_f1: Double
        public var failed_files: Int
        public var cooklangCanonicalPassed: Int
        public var cooklangCanonicalTotal: Int
        public var seconds: Double
    }

    /// Runs every sample through `runner`. `folder` is `shared/data/recipe-app-exports`.
    public static func evaluate(folder: String, runner: DocumentRunner) throws -> Report {
        let start = Date()
        var rows: [Row] = []
        for sample in FormatEvaluation.samples {
            var row = Row(format: sample.format, files: sample.files.count, expected: sample.expected, found: 0, failed: 0, entriesNotImported: 0)
            for file in sample.files {
                let outcome = runner.run(path: folder + "/" + file)
                guard let result = outcome.result else {
                    row.failed += 1
                    continue
                }
                row.found += result.recipes.count
                row.entriesNotImported += result.warnings.filter { $0.hasPrefix("entry not imported") }.count
            }
            rows.append(row)
        }
        rows.append(try expectedParses(folder: folder + "/mealmaster", ext: "mmf", label: "mealmaster (expected parses)", runner: runner))
        rows.append(try expectedParses(folder: folder + "/mastercook-mxp", ext: "mxp", label: "mastercook-mxp (expected parses)", runner: runner))
        let counted = rows.filter { $0.expected > 0 && $0.compared == 0 }
        let compared = rows.reduce(0) { $0 + $1.compared }
        func mean(_ f: (Row) -> Double) -> Double {
            compared == 0 ? 0 : round4(rows.reduce(0) { $0 + f($1) * Double($1.compared) } / Double(compared))
        }
        let expectedRecipes = counted.reduce(0) { $0 + $1.expected }
        let canonical = (try? FormatEvaluation.cooklangCanonical(folder: (folder as NSString).deletingLastPathComponent + "/cooklang-spec")) ?? (0, 0)
        return Report(
            rows: rows, recipes: counted.reduce(0) { $0 + $1.found }, expected_recipes: expectedRecipes,
            recipes_found: expectedRecipes == 0 ? 0 : round4(Double(counted.reduce(0) { $0 + min($1.found, $1.expected) }) / Double(expectedRecipes)),
            compared: compared, titles: compared == 0 ? 0 : round4(Double(rows.reduce(0) { $0 + $1.titles }) / Double(compared)),
            ingredient_lines_f1: mean(\.ingredientLinesF1), steps_f1: mean(\.stepsF1),
            failed_files: rows.reduce(0) { $0 + $1.failed },
            cooklangCanonicalPassed: canonical.0, cooklangCanonicalTotal: canonical.1, seconds: Date().timeIntervalSince(start))
    }

    /// The files of `folder` with an expected parse (`NAME.expected.json` beside `NAME.ext`), each scored on its first
    /// exported recipe; a file whose expected parse holds no recipe only counts what was found.
    static func expectedParses(folder: String, ext: String, label: String, runner: DocumentRunner) throws -> Row {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix("." + ext) }.sorted()
        var row = Row(format: label, files: names.count, expected: 0, found: 0, failed: 0, entriesNotImported: 0)
        var ingredientsF1 = 0.0, stepsF1 = 0.0
        for name in names {
            let stem = (name as NSString).deletingPathExtension
            let json = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + stem + ".expected.json"))
            guard let e = (try JSONSerialization.jsonObject(with: json) as? [String: Any])?["expected"] as? [String: Any] else { continue }
            let title = e["title"] as? String ?? ""
            let ingredients = (e["ingredients"] as? [String] ?? []).compactMap(expectedLine)
            let steps = e["directions"] as? [String] ?? []
            let result = runner.run(path: folder + "/" + name).result
            if result == nil { row.failed += 1 }  // an empty file fails `detect`; scored as no recipe
            row.found += result?.recipes.count ?? 0
            guard !title.isEmpty || !ingredients.isEmpty else { continue }
            row.expected += 1
            row.compared += 1
            let got = result?.recipes.first
            if RecipeEvaluation.normalize(got?.title ?? "") == RecipeEvaluation.normalize(title) { row.titles += 1 }
            ingredientsF1 += RecipeEvaluation.lineF1(got: got?.allIngredients.map(\.text) ?? [], expected: ingredients)
            stepsF1 += RecipeEvaluation.lineF1(got: got?.steps.map(\.text) ?? [], expected: steps)
        }
        if row.compared > 0 {
            row.ingredientLinesF1 = round4(ingredientsF1 / Double(row.compared))
            row.stepsF1 = round4(stepsF1 / Double(row.compared))
        }
        return row
    }

    /// An expected ingredient line in the expected files' notation (`{1/2} {c} {Melted margarine}`, MasterCook
    /// with a fourth field, the preparation) as the line a reader writes; nil for a MealMaster section heading
    /// (`----- FILLING -----`).
    static func expectedLine(_ notation: String) -> String? {
        if notation.hasPrefix("-----") { return nil }
        let fields = notation.split(separator: "}", omittingEmptySubsequences: true).map {
            $0.drop { $0 == " " || $0 == "{" }.trimmingCharacters(in: .whitespaces)
        }
        let line = fields.filter { !$0.isEmpty }.joined(separator: " ")
        return line.isEmpty ? nil : line
    }

    static func round4(_ x: Double) -> Double { (x * 10_000).rounded() / 10_000 }

    public static func json(_ report: Report) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(report)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    public static func textReport(_ r: Report) -> String {
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? " " + s : String(repeating: " ", count: n - s.count) + s }
        var lines = ["format                            files  found/expected  failed  not imported  title  ingr. F1  steps F1"]
        for row in r.rows {
            let scored = row.compared > 0
            lines.append(
                row.format.padding(toLength: 34, withPad: " ", startingAt: 0) + pad(String(row.files), 5)
                    + pad("\(row.found)/\(row.expected)", 16) + pad(String(row.failed), 8) + pad(String(row.entriesNotImported), 14)
                    + pad(scored ? "\(row.titles)/\(row.compared)" : "-", 7)
                    + pad(scored ? String(format: "%.3f", row.ingredientLinesF1) : "-", 10)
                    + pad(scored ? String(format: "%.3f", row.stepsF1) : "-", 10))
        }
        lines.append(String(format: "recipes found: %d of %d (%.3f); expected parses: %d, titles %.3f, ingredient lines F1 %.3f, steps F1 %.3f",
                            r.recipes, r.expected_recipes, r.recipes_found, r.compared, r.titles, r.ingredient_lines_f1, r.steps_f1))
        lines.append("cooklang canonical tests passed (the reader's spec tests): \(r.cooklangCanonicalPassed)/\(r.cooklangCanonicalTotal)")
        lines.append(String(format: "%.1f s", r.seconds))
        return lines.joined(separator: "\n")
    }
}
