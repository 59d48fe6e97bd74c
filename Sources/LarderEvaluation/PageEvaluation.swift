import Foundation
import LarderCore
import LarderRecipes
import LarderStages

/// `larder eval pages`: ingests saved recipe pages (`html/<host>/<name>.testhtml`) through the standard stages
/// (``DocumentRunner``: detect, extract, route, recipe… as `larder ingest` does) and scores the first recipe of the
/// result `larder export` would write against `expected_json/<host>/<name>.json` (shared/data/recipes-scraped), and can score another
/// reader's predictions (a JSON file in the same shape) with the same code, for a side-by-side comparison.
///
/// Per page: the title is right when it matches after ``RecipeEvaluation/normalize(_:)`` (case and punctuation
/// aside); ingredient lines and the method (each named section's name, then its steps, as recipe-scrapers'
/// `instructions_list` lists them) are scored with ``RecipeEvaluation/lineF1(got:expected:)`` (multiset F1 of
/// normalised lines); `exact` when both F1s are 1; yields are right when the first number matches (or both have
/// none); total time is right when the minutes match (or both have none), where a reader's total is its stated
/// total, else prep + cook (as recipe-scrapers computes it). Only the first recipe of a page is scored.
public enum PageEvaluation {
    /// One page's expected values, or one reader's prediction for it.
    public struct Values: Codable, Sendable {
        public var title: String
        public var ingredients: [String]
        public var steps: [String]
        /// The yield's text ("4 servings") or number as text.
        public var yields: String?
        public var totalMinutes: Double?
        /// How many recipes the reader found (1 for expected values).
        public var recipes: Int

        public init(title: String, ingredients: [String], steps: [String], yields: String?, totalMinutes: Double?, recipes: Int) {
            self.title = title
            self.ingredients = ingredients
            self.steps = steps
            self.yields = yields
            self.totalMinutes = totalMinutes
            self.recipes = recipes
        }
    }

    /// One page's scores.
    public struct PageResult: Sendable {
        public var name: String
        public var titleOK: Bool
        public var ingredientsF1: Double
        public var stepsF1: Double
        public var yieldsOK: Bool
        public var totalTimeOK: Bool
        public var recipes: Int
        public var got: Values
        public var expected: Values
        public var exact: Bool { ingredientsF1 == 1 && stepsF1 == 1 }
    }

    /// The scores over all pages (fractions 0–1), as `--json` prints them.
    public struct Scores: Codable, Sendable, Equatable {
        public var pages: Int
        public var title: Double
        public var ingredients_f1: Double
        public var steps_f1: Double
        public var exact: Double
        public var yields: Double
        public var total_time: Double
        public var pages_per_second: Double?
    }

    /// A page of the corpus: its name ("host/name"), its file and expected values.
    public struct Case: Sendable {
        public var name: String
        public var path: String
        public var expected: Values
    }

    // MARK: Corpus

    /// The pages under `directory` (the recipes-scraped folder: `html/` and `expected_json/`), sorted by name.
    public static func cases(directory: String) throws -> [Case] {
        let fm = FileManager.default
        let htmlDir = directory + "/html"
        var cases: [Case] = []
        for host in try fm.contentsOfDirectory(atPath: htmlDir).sorted() {
            let files = (try? fm.contentsOfDirectory(atPath: htmlDir + "/" + host)) ?? []
            for file in files.sorted() where file.hasSuffix(".testhtml") || file.hasSuffix(".html") {
                let stem = (file as NSString).deletingPathExtension
                let expectedPath = "\(directory)/expected_json/\(host)/\(stem).json"
                guard let json = fm.contents(atPath: expectedPath),
                    let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any]
                else { continue }
                cases.append(Case(name: "\(host)/\(stem)", path: "\(htmlDir)/\(host)/\(file)", expected: values(scraped: object)))
            }
        }
        return cases
    }

    /// Values from a recipe-scrapers style object (the expected files, and `--predictions` entries).
    public static func values(scraped o: [String: Any]) -> Values {
        func strings(_ v: Any?) -> [String] { (v as? [Any])?.compactMap { $0 as? String } ?? [] }
        var steps = strings(o["instructions_list"])
        if steps.isEmpty, let s = o["instructions"] as? String {
            steps = s.split(separator: "\n").map(String.init)
        }
        let yields = (o["yields"] as? String) ?? (o["yields"] as? NSNumber)?.stringValue
        return Values(
            title: (o["title"] as? String) ?? "", ingredients: strings(o["ingredients"]), steps: steps, yields: yields,
            totalMinutes: (o["total_time"] as? NSNumber)?.doubleValue, recipes: (o["recipes"] as? Int) ?? 1)
    }

    /// Values of Larder's first recipe on a page.
    public static func values(_ recipes: [Recipe]) -> Values {
        guard let r = recipes.first else {
            return Values(title: "", ingredients: [], steps: [], yields: nil, totalMinutes: nil, recipes: 0)
        }
        let yields = r.yields.map { y in
            y.servings.map { s in String(format: "%g", s) + (y.maxServings.map { String(format: "-%g", $0) } ?? "") } ?? y.text
        }
        var total = r.totalMinutes
        if total == nil, r.prepMinutes != nil || r.cookMinutes != nil { total = (r.prepMinutes ?? 0) + (r.cookMinutes ?? 0) }
        // The method as it reads: each named section's name, then its steps (the shape of instructions_list).
        var method: [String] = []
        var section: String?
        for step in r.steps {
            if let s = step.section, s != section { method.append(s) }
            section = step.section
            method.append(step.text)
        }
        return Values(title: r.title, ingredients: r.allIngredients.map(\.text), steps: method,
                      yields: yields, totalMinutes: total, recipes: recipes.count)
    }

    // MARK: Scoring

    /// The numbers a yield states: its first number, and the upper bound of a range ("8-10", "11 to 12
    /// cookies"); empty when it has none.
    static func yieldNumbers(_ s: String?) -> [Double] {
        guard let s else { return [] }
        func number(_ t: Substring) -> Double? {
            if t.contains("/") {
                let ab = t.split(separator: "/")
                if ab.count == 2, let a = Double(ab[0]), let b = Double(ab[1]), b != 0 { return a / b }
            }
            return Double(t.trimmingCharacters(in: CharacterSet(charactersIn: ".")))
        }
        let words = s.lowercased().split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "–" })
        guard let i = words.firstIndex(where: { $0.first?.isNumber == true }) else { return [] }
        let lead = words[i].prefix { $0.isNumber || $0 == "." || $0 == "/" }
        guard let first = number(lead) else { return [] }
        var out = [first]
        var j = i + 1
        if j < words.count, words[j] == "to" || words[j] == "or" { j += 1 }
        if j < words.count, let n = number(words[j].prefix { $0.isNumber || $0 == "." || $0 == "/" }), n > first { out.append(n) }
        return out
    }

    public static func score(name: String, got: Values, expected: Values) -> PageResult {
        // Right when the expected number is the read one or either end of the range read (both ends are a
        // right reading of "8-10"); applied the same way to every reader.
        let gy = yieldNumbers(got.yields), ey = yieldNumbers(expected.yields)
        let gt = got.totalMinutes.map { $0.rounded() }, et = expected.totalMinutes.map { $0.rounded() }
        return PageResult(
            name: name,
            titleOK: RecipeEvaluation.normalize(got.title) == RecipeEvaluation.normalize(expected.title),
            ingredientsF1: RecipeEvaluation.lineF1(got: got.ingredients, expected: expected.ingredients),
            stepsF1: RecipeEvaluation.lineF1(got: got.steps, expected: expected.steps),
            yieldsOK: ey.first.map { gy.contains($0) } ?? gy.isEmpty, totalTimeOK: (gt ?? 0) == (et ?? 0), recipes: got.recipes, got: got, expected: expected)
    }

    public static func summary(_ results: [PageResult], seconds: Double?) -> Scores {
        let n = Double(max(1, results.count))
        func frac(_ f: (PageResult) -> Bool) -> Double { round4(Double(results.filter(f).count) / n) }
        return Scores(
            pages: results.count, title: frac(\.titleOK),
            ingredients_f1: round4(results.map(\.ingredientsF1).reduce(0, +) / n),
            steps_f1: round4(results.map(\.stepsF1).reduce(0, +) / n), exact: frac(\.exact), yields: frac(\.yieldsOK),
            total_time: frac(\.totalTimeOK),
            pages_per_second: seconds.map { $0 > 0 ? (Double(results.count) / $0).rounded() : 0 })
    }

    static func round4(_ x: Double) -> Double { (x * 10_000).rounded() / 10_000 }

    // MARK: Running

    /// CPU seconds used by the calling thread so far: the speed figure is pages per CPU second on one core, which
    /// other processes on a busy machine do not change (wall-clock time would).
    static func threadCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Runs every page through the standard stages (``DocumentRunner``, timed in this thread's CPU time: the whole
    /// pipeline, file reading included) and scores the first recipe of each page's result.
    public static func evaluate(_ cases: [Case], runner: DocumentRunner) -> (results: [PageResult], seconds: Double) {
        var got: [Values] = []
        got.reserveCapacity(cases.count)
        let start = threadCPUSeconds()
        for c in cases {
            got.append(values(runner.run(path: c.path).result?.recipes ?? []))
        }
        let seconds = threadCPUSeconds() - start
        return (zip(cases, got).map { score(name: $0.name, got: $1, expected: $0.expected) }, seconds)
    }

    /// Scores predictions from a JSON file `{"host/name": {recipe-scrapers fields…}, …}` (pages missing from it
    /// count as read with nothing found).
    public static func evaluate(_ cases: [Case], predictions: [String: Any]) -> [PageResult] {
        cases.map { c in
            let got = (predictions[c.name] as? [String: Any]).map { values(scraped: $0) }
                ?? Values(title: "", ingredients: [], steps: [], yields: nil, totalMinutes: nil, recipes: 0)
            return score(name: c.name, got: got, expected: c.expected)
        }
    }

    // MARK: Reports

    public static func json(_ s: Scores) -> String {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys]
        return String(decoding: (try? enc.encode(s)) ?? Data("{}".utf8), as: UTF8.self)
    }

    public static func textReport(_ s: Scores, label: String) -> String {
        var out = String(format: "%@: %d pages\n  title            %.3f\n  ingredients F1   %.3f\n  steps F1         %.3f\n", label, s.pages, s.title, s.ingredients_f1, s.steps_f1)
        out += String(format: "  exact            %.3f\n  yields           %.3f\n  total time       %.3f", s.exact, s.yields, s.total_time)
        if let p = s.pages_per_second { out += String(format: "\n  pages/s          %.0f (per CPU second, one core)", p) }
        return out
    }

    /// The pages with a wrong field, each with what was expected and what was read.
    public static func errorReport(_ results: [PageResult]) -> String {
        var out: [String] = []
        for r in results where !(r.titleOK && r.exact && r.yieldsOK && r.totalTimeOK && r.recipes == 1) {
            out.append("== \(r.name)  (recipes \(r.recipes))")
            if !r.titleOK { out.append("  title: expected \"\(r.expected.title)\", got \"\(r.got.title)\"") }
            if !r.yieldsOK { out.append("  yields: expected \(r.expected.yields ?? "none"), got \(r.got.yields ?? "none")") }
            if !r.totalTimeOK {
                out.append("  total time: expected \(r.expected.totalMinutes.map { "\($0)" } ?? "none"), got \(r.got.totalMinutes.map { "\($0)" } ?? "none")")
            }
            for (label, f1, e, g) in [("ingredients", r.ingredientsF1, r.expected.ingredients, r.got.ingredients), ("steps", r.stepsF1, r.expected.steps, r.got.steps)] where f1 < 1 {
                let en = Set(e.map(RecipeEvaluation.normalize)), gn = Set(g.map(RecipeEvaluation.normalize))
                out.append(String(format: "  %@ F1 %.2f (%d expected, %d read)", label, f1, e.count, g.count))
                for x in e where !gn.contains(RecipeEvaluation.normalize(x)) { out.append("    - " + x.prefix(120)) }
                for x in g where !en.contains(RecipeEvaluation.normalize(x)) { out.append("    + " + x.prefix(120)) }
            }
        }
        return out.joined(separator: "\n")
    }
}
