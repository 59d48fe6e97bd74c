import Foundation
import LarderIngredients
import LarderRecipes

/// Scores recipes read from PDFs against `shared/data/recipes-pdf` (for `larder eval pdfs`; the PDFs themselves
/// are read by the worker, which links poppler, and handed here as recipes).
///
/// - **Title**: right when equal to the truth after case, spaces and punctuation are folded (and a trailing
///   footnote marker such as "[1]" is dropped from both). For a single-recipe document the first recipe's title
///   counts; for a book (`recipes` in the truth) each truth recipe is paired with one parsed recipe.
/// - **Ingredient lines and steps**: matched one-to-one against the truth texts after NFKC, lower-casing and
///   keeping only letters, digits and fraction characters; a pair matches when its similarity ratio
///   (2·LCS / total length, as difflib's) is ≥ 0.85. Pairs are taken best first. Micro-averaged F1 over all
///   documents: a single-recipe document pools every recipe that came out of it; in a book, the lines of
///   parsed recipes paired with no truth recipe are false positives, and the lines of unpaired truth recipes
///   are misses.
/// - **quantity / unit / name**: on matched ingredient lines whose truth fields come from the source's markup
///   (`ingredient_fields` in the truth file): quantity numerically equal, unit and name equal after the same
///   folding (a unit also counts when parser and truth name the same unit differently, "Tbs" vs "tablespoon").
public enum PDFEvaluation {
    /// One truth recipe.
    public struct TruthRecipe: Sendable {
        public var title: String?
        public var ingredients: [TruthIngredient]
        public var steps: [String]
    }

    /// One truth ingredient line with its fields.
    public struct TruthIngredient: Sendable {
        public var text: String
        public var quantity: String?
        public var unit: String?
        public var name: String?
    }

    /// One truth document.
    public struct Document: Sendable {
        /// File name without `.pdf`.
        public var name: String
        public var pdfPath: String
        public var language: String
        /// The source repository ("teresi/cookbook").
        public var source: String
        public var isBook: Bool
        /// Whether quantity/unit/name come from markup (scored) or were split heuristically (not scored).
        public var fieldsFromMarkup: Bool
        public var recipes: [TruthRecipe]
    }

    /// Counts behind one F1.
    public struct Counts: Codable, Sendable, Equatable {
        public var truth = 0
        public var predicted = 0
        public var matched = 0

        public var precision: Double { predicted == 0 ? 0 : Double(matched) / Double(predicted) }
        public var recall: Double { truth == 0 ? 0 : Double(matched) / Double(truth) }
        public var f1: Double {
            let p = precision, r = recall
            return p + r == 0 ? 0 : 2 * p * r / (p + r)
        }

        mutating func add(_ other: Counts) {
            truth += other.truth
            predicted += other.predicted
            matched += other.matched
        }
    }

    /// Totals over a set of documents.
    public struct Totals: Sendable {
        public var documents = 0
        public var recipes = 0
        public var titlesRight = 0
        public var ingredients = Counts()
        public var steps = Counts()
        /// Field checks on matched lines with markup truth: (right, checked).
        public var quantity = (right: 0, checked: 0)
        public var unit = (right: 0, checked: 0)
        public var name = (right: 0, checked: 0)
        /// The name compared as the truth writes it: Larder's name with its size, preparation and comment in the
        /// line's order ("onion, white": name "onion", preparation "white").
        public var nameAsWritten = (right: 0, checked: 0)

        mutating func add(_ o: DocumentResult) {
            documents += 1
            recipes += o.truthRecipes
            titlesRight += o.titlesRight
            ingredients.add(o.ingredients)
            steps.add(o.steps)
            quantity.right += o.quantity.right; quantity.checked += o.quantity.checked
            unit.right += o.unit.right; unit.checked += o.unit.checked
            name.right += o.name.right; name.checked += o.name.checked
            nameAsWritten.right += o.nameAsWritten.right; nameAsWritten.checked += o.nameAsWritten.checked
        }

        public var title: Double { recipes == 0 ? 0 : Double(titlesRight) / Double(recipes) }
    }

    /// One document's result, with what went wrong (for `--errors`).
    public struct DocumentResult: Sendable {
        public var document: String
        public var source: String
        public var language: String
        public var routedAsRecipe: Bool
        public var truthRecipes: Int
        public var parsedRecipes: Int
        public var titlesRight = 0
        public var ingredients = Counts()
        public var steps = Counts()
        public var quantity = (right: 0, checked: 0)
        public var unit = (right: 0, checked: 0)
        public var name = (right: 0, checked: 0)
        public var nameAsWritten = (right: 0, checked: 0)
        /// Human-readable mistakes: wrong titles, missed and extra lines.
        public var mistakes: [String] = []
        /// Matched lines with a checked field wrong (or right only as written), for `--errors`.
        public var fieldMistakes: [String] = []
    }

    /// The report.
    public struct Report: Sendable {
        public var overall: Totals
        /// Per source repository, sorted by name.
        public var perSource: [(source: String, totals: Totals)]
        /// Per language ("en", "de").
        public var perLanguage: [(language: String, totals: Totals)]
        public var documents: [DocumentResult]
        /// Seconds spent reading the PDFs (extract + route + recipe).
        public var seconds: Double
        public var pages: Int
    }

    // MARK: Truth

    /// Every `<name>.truth.json` in `folder` whose `<name>.pdf` exists, sorted by name.
    public static func loadDocuments(folder: String) throws -> [Document] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasSuffix(".truth.json") }.sorted()
        var raw: [(String, [String: Any])] = []
        for file in names {
            let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file))
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { continue }
            raw.append((String(file.dropLast(".truth.json".count)), object))
        }
        // Books take their field provenance from the single files of the same source.
        func repo(_ o: [String: Any]) -> String {
            String(((o["source"] as? String) ?? "").split(separator: "@").first ?? "")
        }
        func fromMarkup(_ o: [String: Any]) -> Bool {
            ((o["ingredient_fields"] as? String) ?? "").contains("explicit markup")
        }
        var markupRepos: Set<String> = []
        for (_, o) in raw where fromMarkup(o) { markupRepos.insert(repo(o)) }
        return raw.compactMap { name, o in
            let pdf = folder + "/" + name + ".pdf"
            guard FileManager.default.fileExists(atPath: pdf) else { return nil }
            let book = o["recipes"] is [Any]
            let recipes: [TruthRecipe] = book
                ? ((o["recipes"] as? [[String: Any]]) ?? []).map(truthRecipe)
                : [truthRecipe(o)]
            return Document(
                name: name, pdfPath: pdf, language: (o["language"] as? String) ?? "en", source: repo(o),
                isBook: book, fieldsFromMarkup: fromMarkup(o) || (book && markupRepos.contains(repo(o))),
                recipes: recipes)
        }
    }

    static func truthRecipe(_ o: [String: Any]) -> TruthRecipe {
        let ingredients = ((o["ingredients"] as? [[String: Any]]) ?? []).map { i in
            TruthIngredient(
                text: (i["text"] as? String) ?? "", quantity: i["quantity"] as? String, unit: i["unit"] as? String,
                name: i["name"] as? String)
        }
        return TruthRecipe(title: o["title"] as? String, ingredients: ingredients, steps: (o["steps"] as? [String]) ?? [])
    }

    // MARK: Normalisation and matching

    /// NFKC, lower-cased, only letters, digits and fraction characters (the fraction slash becomes "/").
    public static func fold(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in s.precomposedStringWithCompatibilityMapping.lowercased().unicodeScalars {
            if scalar == "\u{2044}" || scalar == "/" { out.append("/"); continue }
            let p = scalar.properties
            if p.isAlphabetic || p.numericType != nil { out.append(scalar) }
        }
        return String(out)
    }

    /// A title for comparison: folded, without a trailing footnote marker ("Chicken Saltimbocca[1]").
    public static func foldTitle(_ s: String) -> String {
        var t = s.trimmingWhitespace()
        if let r = t.range(of: #"\s*(\[\d{1,2}\]|\(\d{1,2}\)|[*†‡¹²³])$"#, options: .regularExpression) {
            t.removeSubrange(r)
        }
        return fold(t)
    }

    /// Similarity ratio of two folded strings: 2 × longest common subsequence / total length (1 for two empties).
    public static func ratio(_ a: String, _ b: String) -> Double {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        if x.isEmpty && y.isEmpty { return 1 }
        if x.isEmpty || y.isEmpty { return 0 }
        // Cheap upper bound first: the LCS is at most the shorter length.
        if 2.0 * Double(min(x.count, y.count)) / Double(x.count + y.count) < 0.85 { return 0 }
        return ReceiptEvaluation.lcsRatio(x, y)
    }

    /// One-to-one matching of `got` against `truth` (indices), best pairs first, ratio ≥ 0.85.
    public static func match(got: [String], truth: [String]) -> [(got: Int, truth: Int)] {
        let g = got.map(fold), t = truth.map(fold)
        var pairs: [(Double, Int, Int)] = []
        for i in g.indices where !g[i].isEmpty {
            for j in t.indices where !t[j].isEmpty {
                let r = g[i] == t[j] ? 1 : ratio(g[i], t[j])
                if r >= 0.85 { pairs.append((r, i, j)) }
            }
        }
        pairs.sort { ($0.0, -$0.1, -$0.2) > ($1.0, -$1.1, -$1.2) }
        var usedG = Set<Int>(), usedT = Set<Int>()
        var result: [(got: Int, truth: Int)] = []
        for (_, i, j) in pairs where !usedG.contains(i) && !usedT.contains(j) {
            usedG.insert(i)
            usedT.insert(j)
            result.append((i, j))
        }
        return result
    }

    // MARK: Scoring

    /// Scores one document's parsed recipes (empty when it was not routed as a recipe).
    public static func score(_ doc: Document, recipes: [Recipe], routedAsRecipe: Bool) -> DocumentResult {
        var result = DocumentResult(
            document: doc.name, source: doc.source, language: doc.language, routedAsRecipe: routedAsRecipe,
            truthRecipes: doc.recipes.count, parsedRecipes: recipes.count)
        if !routedAsRecipe { result.mistakes.append("not routed as a recipe") }
        if doc.isBook {
            let pairing = pair(doc.recipes, recipes)
            for (t, truth) in doc.recipes.enumerated() {
                let parsed = pairing[t].map { [recipes[$0]] } ?? []
                scoreRecipe(truth, parsed: parsed, doc: doc, into: &result)
            }
            let paired = Set(pairing.values)
            for (k, r) in recipes.enumerated() where !paired.contains(k) {
                scoreRecipe(nil, parsed: [r], doc: doc, into: &result)
            }
        } else {
            scoreRecipe(doc.recipes[0], parsed: recipes, doc: doc, into: &result)
        }
        return result
    }

    /// Pairs each truth recipe of a book with at most one parsed recipe: same title first, then the most
    /// matched ingredient lines and steps.
    static func pair(_ truth: [TruthRecipe], _ parsed: [Recipe]) -> [Int: Int] {
        var candidates: [(Int, Int, Int)] = []
        for (t, tr) in truth.enumerated() {
            for (p, pr) in parsed.enumerated() {
                var score = 0
                if let title = tr.title, foldTitle(title) == foldTitle(pr.title) { score += 1000 }
                score += match(got: pr.allIngredients.map(\.text), truth: tr.ingredients.map(\.text)).count
                score += match(got: pr.steps.map(\.text), truth: tr.steps).count
                if score > 0 { candidates.append((score, t, p)) }
            }
        }
        candidates.sort { ($0.0, -$0.1, -$0.2) > ($1.0, -$1.1, -$1.2) }
        var result: [Int: Int] = [:]
        var usedP = Set<Int>()
        for (_, t, p) in candidates where result[t] == nil && !usedP.contains(p) {
            result[t] = p
            usedP.insert(p)
        }
        return result
    }

    static func scoreRecipe(_ truth: TruthRecipe?, parsed: [Recipe], doc: Document, into result: inout DocumentResult) {
        let gotIngredients = parsed.flatMap(\.allIngredients)
        let gotSteps = parsed.flatMap(\.steps).map(\.text)
        let truthIngredients = truth?.ingredients ?? []
        let truthSteps = truth?.steps ?? []
        let label = truth?.title ?? parsed.first?.title ?? "?"
        if let truth {
            if let title = truth.title, let first = parsed.first, foldTitle(title) == foldTitle(first.title) {
                result.titlesRight += 1
            } else if truth.title == nil {
                result.titlesRight += parsed.isEmpty ? 0 : 1  // no title to get wrong
            } else {
                result.mistakes.append("title: got \"\(parsed.first?.title ?? "(no recipe)")\", expected \"\(truth.title!)\"")
            }
        } else {
            result.mistakes.append("extra recipe \"\(label)\"")
        }
        let ingredientPairs = match(got: gotIngredients.map(\.text), truth: truthIngredients.map(\.text))
        result.ingredients.add(Counts(truth: truthIngredients.count, predicted: gotIngredients.count, matched: ingredientPairs.count))
        let stepPairs = match(got: gotSteps, truth: truthSteps)
        result.steps.add(Counts(truth: truthSteps.count, predicted: gotSteps.count, matched: stepPairs.count))
        if doc.fieldsFromMarkup {
            for (g, t) in ingredientPairs { checkFields(gotIngredients[g], truthIngredients[t], into: &result) }
        }
        let matchedG = Set(ingredientPairs.map(\.got)), matchedT = Set(ingredientPairs.map(\.truth))
        for (k, i) in truthIngredients.enumerated() where !matchedT.contains(k) {
            result.mistakes.append("[\(label)] missed ingredient: \(i.text)")
        }
        for (k, i) in gotIngredients.enumerated() where !matchedG.contains(k) {
            result.mistakes.append("[\(label)] extra ingredient: \(i.text)")
        }
        let stepG = Set(stepPairs.map(\.got)), stepT = Set(stepPairs.map(\.truth))
        for (k, s) in truthSteps.enumerated() where !stepT.contains(k) {
            result.mistakes.append("[\(label)] missed step: \(s.prefix(90))")
        }
        for (k, s) in gotSteps.enumerated() where !stepG.contains(k) {
            result.mistakes.append("[\(label)] extra step: \(s.prefix(90))")
        }
    }

    static func checkFields(_ got: RecipeIngredient, _ truth: TruthIngredient, into result: inout DocumentResult) {
        var wrong: [String] = []
        if let q = truth.quantity {
            result.quantity.checked += 1
            let expected = RecipeParser.number(q.replacingOccurrences(of: ",", with: "."))
            if let e = expected, let v = got.quantity?.value, abs(e - v) < 0.01 {
                result.quantity.right += 1
            } else if expected == nil && got.quantity == nil {
                result.quantity.right += 1
            } else {
                wrong.append("quantity \(got.quantity.map { String($0.value) } ?? "-") (truth \"\(q)\")")
            }
        }
        if let u = truth.unit {
            result.unit.checked += 1
            let e = fold(u)
            let texts = [got.unitText, got.unit].compactMap { $0 }.map(fold)
            if e.isEmpty ? texts.allSatisfy(\.isEmpty) : texts.contains(e) || sameUnit(u, got) {
                result.unit.right += 1
            } else {
                wrong.append("unit \"\(got.unitText ?? "-")\" (truth \"\(u)\")")
            }
        }
        if let n = truth.name {
            result.name.checked += 1
            result.nameAsWritten.checked += 1
            if fold(n) == fold(got.name) { result.name.right += 1 }
            let written = nameAsWritten(got)
            if fold(n) == fold(written) {
                result.nameAsWritten.right += 1
            } else {
                wrong.append("name \"\(written)\" (truth \"\(n)\")")
            }
            if fold(n) != fold(got.name) && fold(n) == fold(written) {
                wrong.append("name \"\(got.name)\" right as written (truth \"\(n)\")")
            }
        }
        if !wrong.isEmpty { result.fieldMistakes.append("field: \(got.text) → " + wrong.joined(separator: "; ")) }
    }

    /// Larder's name as the line writes it: the words of its name, size, preparation, comment and purpose, each at
    /// its place in the line ("white onion", "onion, white", "cooked ham, chopped").
    static func nameAsWritten(_ got: RecipeIngredient) -> String {
        func words(_ s: String) -> [String] {
            s.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
        }
        let line = words(got.text)
        var used = Set<Int>()
        let parts = [got.size, got.name, got.preparation, got.comment, got.purpose].compactMap { $0 }
        let placed = parts.flatMap(words).map { word -> (String, Int) in
            let k = line.indices.first { line[$0] == word && !used.contains($0) }
            if let k { used.insert(k) }
            return (word, k ?? Int.max)
        }
        return placed.enumerated().sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }.map(\.element.0)
            .joined(separator: " ")
    }

    /// Whether the parser's unit is the unit `truthUnit` names ("Tbs" and "tablespoon").
    static func sameUnit(_ truthUnit: String, _ got: RecipeIngredient) -> Bool {
        guard let unit = got.unit else { return false }
        let parsed = IngredientParser().parse("1 \(truthUnit) x").unit
        return parsed != nil && parsed == unit
    }

    // MARK: Report

    /// Totals overall, per source and per language.
    public static func report(_ results: [DocumentResult], seconds: Double, pages: Int) -> Report {
        var overall = Totals()
        var bySource: [String: Totals] = [:]
        var byLanguage: [String: Totals] = [:]
        for r in results {
            overall.add(r)
            bySource[r.source, default: Totals()].add(r)
            byLanguage[r.language, default: Totals()].add(r)
        }
        return Report(
            overall: overall, perSource: bySource.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
            perLanguage: byLanguage.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, documents: results,
            seconds: seconds, pages: pages)
    }

    static func fraction(_ x: (right: Int, checked: Int)) -> Double {
        x.checked == 0 ? 0 : Double(x.right) / Double(x.checked)
    }

    static func r4(_ x: Double) -> Double { (x * 10000).rounded() / 10000 }

    static func object(_ t: Totals) -> [String: Any] {
        [
            "documents": t.documents, "recipes": t.recipes, "title": r4(t.title),
            "ingredients_f1": r4(t.ingredients.f1), "ingredients_precision": r4(t.ingredients.precision),
            "ingredients_recall": r4(t.ingredients.recall), "steps_f1": r4(t.steps.f1),
            "steps_precision": r4(t.steps.precision), "steps_recall": r4(t.steps.recall),
            "quantity": r4(fraction(t.quantity)), "unit": r4(fraction(t.unit)), "name": r4(fraction(t.name)),
            "name_as_written": r4(fraction(t.nameAsWritten)), "fields_checked": t.quantity.checked,
        ]
    }

    /// The report as one JSON object: the overall figures at the top level, then `per_source` and `per_language`.
    public static func json(_ r: Report) -> String {
        var top = object(r.overall)
        top["per_source"] = Dictionary(uniqueKeysWithValues: r.perSource.map { ($0.source, object($0.totals)) })
        top["per_language"] = Dictionary(uniqueKeysWithValues: r.perLanguage.map { ($0.language, object($0.totals)) })
        top["seconds"] = (r.seconds * 1000).rounded() / 1000
        top["pages"] = r.pages
        let data = (try? JSONSerialization.data(withJSONObject: top, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// A table: overall, per source and per language.
    public static func textReport(_ r: Report) -> String {
        func pct(_ x: Double) -> String { String(format: "%6.1f%%", x * 100) }
        var lines = ["                               docs recipes   title  ingF1   ingP   ingR stepsF1  qty   unit   name"]
        func row(_ name: String, _ t: Totals) {
            lines.append(
                name.padding(toLength: 30, withPad: " ", startingAt: 0) + String(format: "%5d %7d ", t.documents, t.recipes)
                    + [t.title, t.ingredients.f1, t.ingredients.precision, t.ingredients.recall, t.steps.f1,
                       fraction(t.quantity), fraction(t.unit), fraction(t.name)].map(pct).joined(separator: " "))
        }
        for (s, t) in r.perSource { row(s, t) }
        for (l, t) in r.perLanguage { row("language " + l, t) }
        row("overall", r.overall)
        lines.append(String(format: "%d pages read in %.2f s (extract + route + recipe)", r.pages, r.seconds))
        return lines.joined(separator: "\n")
    }

    /// Each document's mistakes.
    public static func errorReport(_ r: Report) -> String {
        r.documents.filter { !$0.mistakes.isEmpty || !$0.fieldMistakes.isEmpty }.map { d in
            (["== \(d.document) (\(d.parsedRecipes) recipes parsed, \(d.truthRecipes) expected)"]
                + (d.mistakes + d.fieldMistakes).map { "  " + $0 })
                .joined(separator: "\n")
        }.joined(separator: "\n")
    }
}

// MARK: Leave one source out

extension PDFEvaluation {
    /// The source repositories whose PDFs were looked at while the layout and parser rules were written (all of
    /// `shared/data/recipes-pdf` as of 2026-11-23). A source not listed here that is added to the folder is unseen.
    public static let developmentSources: Set<String> = [
        "JakeBar/Recipe-Book", "JakeC007/LaTex-Cookbook", "arwsl/Bronte-Project", "bryandeagle/cookbook",
        "frankhjung/documents-recipes", "itakurah/LaTeX-Cookbook", "iwismer/pandoc-recipe-template",
        "rjsalvadorr/basic-cookbook", "rodneyshupe/Cookbook", "teresi/cookbook", "zhao-18/RecipeBook",
    ]

    /// One fold: the held-out source's figures beside those of every other source.
    public struct Fold: Sendable {
        public var source: String
        /// Whether the rules were developed looking at this source (then the held-out figure is a dev-set figure).
        public var developmentSet: Bool
        public var heldOut: Totals
        public var rest: Totals
    }

    /// Leave-one-source-out folds. Nothing in the PDF reader is fitted to data, so there is nothing to refit per
    /// fold: each held-out figure is the rules' figure on that source, and it is an unseen figure only for a source
    /// outside ``developmentSources``. The mean over folds weighs every source (layout) alike.
    public static func leaveOneSourceOut(_ report: Report) -> [Fold] {
        report.perSource.map { source, totals in
            var rest = Totals()
            for d in report.documents where d.source != source { rest.add(d) }
            return Fold(source: source, developmentSet: developmentSources.contains(source), heldOut: totals, rest: rest)
        }
    }

    /// Mean over folds of (title, ingredient lines F1, steps F1), and the worst fold of each.
    public static func foldSummary(_ folds: [Fold]) -> (mean: (Double, Double, Double), worst: (Double, Double, Double)) {
        guard !folds.isEmpty else { return ((0, 0, 0), (0, 0, 0)) }
        let n = Double(folds.count)
        let t = folds.map(\.heldOut.title), i = folds.map(\.heldOut.ingredients.f1), s = folds.map(\.heldOut.steps.f1)
        return ((t.reduce(0, +) / n, i.reduce(0, +) / n, s.reduce(0, +) / n), (t.min()!, i.min()!, s.min()!))
    }

    /// The folds as JSON: `folds` (source, dev_set, held_out, rest) and `mean`/`worst` over held-out sources.
    public static func foldsJSON(_ folds: [Fold]) -> String {
        let (mean, worst) = foldSummary(folds)
        func triple(_ x: (Double, Double, Double)) -> [String: Any] {
            ["title": r4(x.0), "ingredients_f1": r4(x.1), "steps_f1": r4(x.2)]
        }
        let top: [String: Any] = [
            "folds": folds.map { ["source": $0.source, "dev_set": $0.developmentSet, "held_out": object($0.heldOut), "rest": object($0.rest)] },
            "mean": triple(mean), "worst": triple(worst),
            "dev_set_folds": folds.filter(\.developmentSet).count, "unseen_folds": folds.filter { !$0.developmentSet }.count,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: top, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// The folds as a table, each marked dev-set or unseen.
    public static func foldsText(_ folds: [Fold]) -> String {
        func pct(_ x: Double) -> String { String(format: "%6.1f%%", x * 100) }
        var lines = ["held-out source                  set     docs   title  ingF1 stepsF1 | rest: title  ingF1 stepsF1"]
        for f in folds {
            let h = f.heldOut, r = f.rest
            lines.append(
                f.source.padding(toLength: 32, withPad: " ", startingAt: 0) + (f.developmentSet ? " dev   " : " unseen")
                    + String(format: " %5d ", h.documents) + [h.title, h.ingredients.f1, h.steps.f1].map(pct).joined(separator: " ")
                    + " |      " + [r.title, r.ingredients.f1, r.steps.f1].map(pct).joined(separator: " "))
        }
        let (mean, worst) = foldSummary(folds)
        lines.append("mean over held-out sources               " + [mean.0, mean.1, mean.2].map(pct).joined(separator: " "))
        lines.append("worst held-out source                    " + [worst.0, worst.1, worst.2].map(pct).joined(separator: " "))
        let dev = folds.filter(\.developmentSet).count
        lines.append(
            "\(dev) of \(folds.count) held-out sources were looked at while the rules were written (dev): their figures are "
                + "development-set figures, not unseen ones; nothing is fitted per fold, so holding a source out changes no rule.")
        return lines.joined(separator: "\n")
    }
}
