import Foundation

/// Measures ``RecipeParser`` on the shared recipe corpora (for `larder eval recipes`).
///
/// - **markdown**: `recipes-markdown/content/*.md` (based.cooking; `_index.md` skipped). Ground truth per its README:
///   title = front matter `title`, ingredient lines = bullets under `## Ingredients` (including its `###`
///   sub-sections), steps = numbered items under `## Directions` (with their continuation lines). The file is parsed
///   as format "markdown".
/// - **scraped**: `recipes-scraped/expected_json/**/*.json` (English only by default, from `index.csv`'s `language`
///   column). Each expected recipe is rendered as the plain text a user would paste (``renderPlainText(_:variant:)``)
///   and parsed back as format "text".
///
/// Metrics per corpus and overall: `count`; `title` — fraction whose first recipe's title equals the expected one
/// after normalising case, spaces and punctuation; `ingredients` / `steps` — line-level F1 of the parsed texts
/// (all recipes that came out, in order) against the expected lines (same normalisation; multiset matching),
/// averaged over recipes, and `exact` — the fraction where the normalised lists are identical; `recipes` —
/// the fraction where exactly one recipe came out.
public enum RecipeEvaluation {
    /// One evaluation document with its expected values.
    public struct Case: Sendable {
        /// A name for reports (file path relative to the corpus).
        public var name: String
        /// The corpus ("markdown" or "scraped").
        public var corpus: String
        /// The document to parse.
        public var source: RecipeSource
        /// The expected title.
        public var title: String
        /// The expected ingredient lines.
        public var ingredients: [String]
        /// The expected steps.
        public var steps: [String]

        /// Creates a case.
        public init(name: String, corpus: String, source: RecipeSource, title: String, ingredients: [String], steps: [String]) {
            self.name = name
            self.corpus = corpus
            self.source = source
            self.title = title
            self.ingredients = ingredients
            self.steps = steps
        }
    }

    /// F1 and exact-match rate of a line list.
    public struct LineScores: Codable, Sendable, Equatable {
        /// Line-level F1, averaged over recipes.
        public var f1: Double
        /// Fraction of recipes whose lines are exactly right.
        public var exact: Double
    }

    /// Scores over a set of cases.
    public struct Scores: Codable, Sendable, Equatable {
        /// Number of cases.
        public var count: Int
        /// Fraction with the right title.
        public var title: Double
        /// Ingredient-line scores.
        public var ingredients: LineScores
        /// Step scores.
        public var steps: LineScores
        /// Fraction where exactly one recipe came out.
        public var recipes: Double
    }

    /// One case's result.
    public struct CaseResult: Sendable {
        /// The case.
        public var name: String
        /// The corpus.
        public var corpus: String
        /// Title right.
        public var titleOK: Bool
        /// Ingredient F1.
        public var ingredientsF1: Double
        /// Step F1.
        public var stepsF1: Double
        /// Recipes that came out.
        public var recipeCount: Int
    }

    /// An evaluation report.
    public struct Report: Sendable {
        /// Scores over all cases.
        public var overall: Scores
        /// Scores per corpus, in a fixed order ("markdown", "scraped").
        public var perCorpus: [(corpus: String, scores: Scores)]
        /// Every case's result.
        public var cases: [CaseResult]
        /// Seconds spent parsing.
        public var parseSeconds: Double
    }

    // MARK: Normalisation and metrics

    /// Lower-cases, strips Markdown links/emphasis and punctuation, and collapses spaces.
    public static func normalize(_ s: String) -> String {
        let t = LineReader.cleanInline(s, markdown: true).lowercased()
        var out = ""
        var space = false
        for ch in t {
            if ch.isLetter || ch.isNumber {
                if space && !out.isEmpty { out.append(" ") }
                out.append(ch)
                space = false
            } else {
                space = true
            }
        }
        return out
    }

    /// Multiset line F1 of `got` against `expected` (1 when both are empty).
    public static func lineF1(got: [String], expected: [String]) -> Double {
        let g = got.map(normalize).filter { !$0.isEmpty }
        let e = expected.map(normalize).filter { !$0.isEmpty }
        if g.isEmpty && e.isEmpty { return 1 }
        if g.isEmpty || e.isEmpty { return 0 }
        var counts: [String: Int] = [:]
        for x in e { counts[x, default: 0] += 1 }
        var hit = 0
        for x in g where (counts[x] ?? 0) > 0 {
            counts[x]! -= 1
            hit += 1
        }
        if hit == 0 { return 0 }
        let p = Double(hit) / Double(g.count), r = Double(hit) / Double(e.count)
        return 2 * p * r / (p + r)
    }

    static func exact(got: [String], expected: [String]) -> Bool {
        got.map(normalize).filter { !$0.isEmpty } == expected.map(normalize).filter { !$0.isEmpty }
    }

    // MARK: Corpora

    /// Cases from based.cooking Markdown files in `directory` (`_index.md` skipped).
    public static func markdownCases(directory: String) throws -> [Case] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".md") && $0 != "_index.md" }.sorted()
        return try names.map { name in
            let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
            let truth = markdownTruth(text)
            let source = RecipeSource(file: name, sha256: String(repeating: "0", count: 64), format: "markdown", text: text)
            return Case(name: name, corpus: "markdown", source: source, title: truth.title, ingredients: truth.ingredients, steps: truth.steps)
        }
    }

    /// The ground truth of a based.cooking file: front matter title, bullets under Ingredients, numbered items
    /// under Directions.
    static func markdownTruth(_ text: String) -> (title: String, ingredients: [String], steps: [String]) {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var title = ""
        var i = 0
        if lines.first == "---" {
            i = 1
            while i < lines.count && lines[i] != "---" {
                if lines[i].lowercased().hasPrefix("title:") { title = unquote(String(lines[i].dropFirst(6))) }
                i += 1
            }
            i += 1
        }
        var section = ""
        var ingredients: [String] = []
        var steps: [String] = []
        var inItem = false
        var blankSince = false
        let bullet = RX(#"^\s*[-*+]\s+(.*)$"#)
        let numbered = RX(#"^\s*\d+[.)]\s+(.*)$"#)
        while i < lines.count {
            let l = lines[i]
            i += 1
            let t = l.trimmingWhitespace()
            if t.hasPrefix("## ") || t == "##" {
                section = t.dropFirst(2).trimmingWhitespace().lowercased()
                inItem = false
                continue
            }
            if t.isEmpty { blankSince = true; continue }
            defer { blankSince = false }
            if section == "ingredients" {
                if t.hasPrefix("#") { inItem = false; continue }
                if let m = bullet.firstMatch(l) { ingredients.append((m.groups[0] ?? "").trimmingWhitespace()); inItem = true }
                else if inItem && !blankSince && !t.hasPrefix("#") { ingredients[ingredients.count - 1] += " " + t }
                else { inItem = false }
            } else if section == "directions" {
                if t.hasPrefix("#") { inItem = false; continue }
                if let m = numbered.firstMatch(l) { steps.append((m.groups[0] ?? "").trimmingWhitespace()); inItem = true }
                else if inItem && (!blankSince || l.hasPrefix("  ")) && bullet.firstMatch(l) == nil { steps[steps.count - 1] += " " + t }
                else { inItem = false }
            }
        }
        return (title, ingredients, steps)
    }

    /// FNV-1a hash (stable across runs, unlike `hashValue`).
    static func stableHash(_ s: String) -> UInt64 {
        var h: UInt64 = 0xcbf29ce484222325
        for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        return h
    }

    /// Renders an expected recipe (recipe-scrapers JSON) as the plain text a user would paste: title, yields and
    /// times, an ingredients header with "For the X:" group sub-headers, a method header (varied by `variant`) and
    /// the steps, numbered when `variant` is even, else as blank-line separated paragraphs.
    /// Returns the text and the ingredient lines as rendered.
    public static func renderPlainText(_ json: [String: Any], variant: UInt64) -> (text: String, ingredients: [String], steps: [String]) {
        var out: [String] = []
        let title = (json["title"] as? String ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        out.append(title)
        out.append("")
        var meta: [String] = []
        if let y = json["yields"] as? String, !y.isEmpty {
            let lower = y.lowercased()
            if ["serves", "makes", "yield", "servings"].contains(where: { lower.hasPrefix($0) }) {
                meta.append(y)
            } else if lower.hasSuffix("servings") || lower.hasSuffix("serving") {
                meta.append("Serves " + y.split(separator: " ").first.map(String.init)!)
            } else {
                meta.append("Makes " + y)
            }
        }
        func minutes(_ key: String) -> Int? {
            if let n = json[key] as? NSNumber { return n.intValue }
            return nil
        }
        if let p = minutes("prep_time"), p > 0 { meta.append("Prep time: \(p) minutes") }
        if let c = minutes("cook_time"), c > 0 { meta.append("Cook time: \(c) minutes") }
        if let t = minutes("total_time"), t > 0 { meta.append(variant % 5 == 0 ? "Ready in \(t) minutes" : "Total time: \(t) minutes") }
        if !meta.isEmpty {
            out += meta
            out.append("")
        }
        let ingredientHeaders = ["Ingredients", "Ingredients:", "INGREDIENTS"]
        out.append(ingredientHeaders[Int(variant % 3)])
        var ingredients: [String] = []
        let clean: (String) -> String = { $0.replacingOccurrences(of: "\n", with: " ").trimmingWhitespace() }
        if let groups = json["ingredient_groups"] as? [[String: Any]], groups.count > 1 {
            for g in groups {
                if let p = g["purpose"] as? String, !p.isEmpty {
                    var name = p.trimmingWhitespace()
                    while name.hasSuffix(":") { name.removeLast() }
                    out.append(name.lowercased().hasPrefix("for ") ? name + ":" : "For the " + name + ":")
                }
                for i in (g["ingredients"] as? [String] ?? []) where !clean(i).isEmpty {
                    out.append(clean(i))
                    ingredients.append(clean(i))
                }
            }
        } else {
            for i in (json["ingredients"] as? [String] ?? []) where !clean(i).isEmpty {
                out.append(clean(i))
                ingredients.append(clean(i))
            }
        }
        out.append("")
        let methodHeaders = ["Instructions", "Method", "Directions", "Method:", "INSTRUCTIONS", "Preparation"]
        out.append(methodHeaders[Int((variant >> 8) % UInt64(methodHeaders.count))])
        // Steps that already carry their number ("1. Dice the celery") lose it: the renderer numbers them itself.
        let stepNumber = RX(#"^(?:step\s*)?\d{1,2}\s*[.):]\s+"#)
        let steps = (json["instructions_list"] as? [String] ?? []).map { stepNumber.replace(clean($0), with: "") }.filter { !$0.isEmpty }
        let numbered = (variant >> 16) % 2 == 0
        for (k, s) in steps.enumerated() {
            if numbered {
                out.append("\(k + 1). \(s)")
            } else {
                if k > 0 { out.append("") }
                out.append(s)
            }
        }
        return (out.joined(separator: "\n") + "\n", ingredients, steps)
    }

    /// Minimal CSV reader (quoted fields, doubled quotes).
    static func parseCSV(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var it = text.makeIterator()
        var pending: Character? = nil
        while let ch = pending ?? it.next() {
            pending = nil
            if quoted {
                if ch == "\"" {
                    if let n = it.next() {
                        if n == "\"" { field.append("\"") } else { quoted = false; pending = n }
                    } else { quoted = false }
                } else { field.append(ch) }
            } else if ch == "\"" { quoted = true }
            else if ch == "," { row.append(field); field = "" }
            else if ch == "\n" || ch == "\r\n" { row.append(field); field = ""; rows.append(row); row = [] }
            else if ch != "\r" { field.append(ch) }
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }

    /// Cases from recipe-scrapers expected JSON under `directory` (`recipes-scraped`), English only unless
    /// `englishOnly` is `false`.
    public static func scrapedCases(directory: String, englishOnly: Bool = true) throws -> [Case] {
        let index = try String(contentsOfFile: directory + "/index.csv", encoding: .utf8)
        let rows = parseCSV(index)
        guard let header = rows.first, let fileCol = header.firstIndex(of: "expected_json"),
              let langCol = header.firstIndex(of: "language") else { return [] }
        var cases: [Case] = []
        for row in rows.dropFirst() where row.count > max(fileCol, langCol) {
            let rel = row[fileCol]
            if englishOnly && !row[langCol].lowercased().hasPrefix("en") { continue }
            guard let data = FileManager.default.contents(atPath: directory + "/expected_json/" + rel),
                  let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { continue }
            let rendered = renderPlainText(json, variant: stableHash(rel))
            let source = RecipeSource(file: rel, sha256: String(repeating: "0", count: 64), format: "text", text: rendered.text)
            cases.append(Case(name: rel, corpus: "scraped", source: source, title: json["title"] as? String ?? "",
                              ingredients: rendered.ingredients, steps: rendered.steps))
        }
        return cases.sorted { $0.name < $1.name }
    }

    // MARK: Running

    /// Parses every case and scores it.
    public static func evaluate(_ cases: [Case], parser: RecipeParser = RecipeParser()) -> Report {
        evaluate(cases) { parser.parse($0.source) }
    }

    /// Scores every case with the recipes `read` finds in it (`larder eval recipes` reads each case as a file through
    /// the standard stages, the result `larder export` writes).
    public static func evaluate(_ cases: [Case], read: (Case) -> [Recipe]) -> Report {
        var results: [CaseResult] = []
        var exactIng: [Bool] = []
        var exactSteps: [Bool] = []
        let start = Date()
        for c in cases {
            let recipes = read(c)
            let ing = recipes.flatMap { $0.allIngredients.map(\.text) }
            let steps = recipes.flatMap { $0.steps.map(\.text) }
            let titleOK = recipes.first.map { normalize($0.title) == normalize(c.title) } ?? false
            results.append(CaseResult(name: c.name, corpus: c.corpus, titleOK: titleOK,
                                      ingredientsF1: lineF1(got: ing, expected: c.ingredients),
                                      stepsF1: lineF1(got: steps, expected: c.steps), recipeCount: recipes.count))
            exactIng.append(exact(got: ing, expected: c.ingredients))
            exactSteps.append(exact(got: steps, expected: c.steps))
        }
        let seconds = Date().timeIntervalSince(start)
        func scores(_ idx: [Int]) -> Scores {
            let n = Double(max(1, idx.count))
            func mean(_ f: (Int) -> Double) -> Double { (idx.map(f).reduce(0, +) / n * 10000).rounded() / 10000 }
            return Scores(count: idx.count, title: mean { results[$0].titleOK ? 1 : 0 },
                          ingredients: LineScores(f1: mean { results[$0].ingredientsF1 }, exact: mean { exactIng[$0] ? 1 : 0 }),
                          steps: LineScores(f1: mean { results[$0].stepsF1 }, exact: mean { exactSteps[$0] ? 1 : 0 }),
                          recipes: mean { results[$0].recipeCount == 1 ? 1 : 0 })
        }
        var per: [(String, Scores)] = []
        for corpus in ["markdown", "scraped"] {
            let idx = results.indices.filter { results[$0].corpus == corpus }
            if !idx.isEmpty { per.append((corpus, scores(idx))) }
        }
        return Report(overall: scores(Array(results.indices)), perCorpus: per, cases: results, parseSeconds: seconds)
    }

    /// Loads both corpora from a `shared/data` directory and evaluates them.
    public static func evaluate(sharedData: String, englishOnly: Bool = true) throws -> Report {
        let md = try markdownCases(directory: sharedData + "/recipes-markdown/content")
        let scraped = try scrapedCases(directory: sharedData + "/recipes-scraped", englishOnly: englishOnly)
        return evaluate(md + scraped)
    }

    /// The shared data directory: `$LARDER_SHARED_DATA`, else the first `shared/data` with `recipes-markdown`
    /// found walking up from `path`.
    public static func locateSharedData(startingAt path: String) -> String? {
        if let env = ProcessInfo.processInfo.environment["LARDER_SHARED_DATA"], !env.isEmpty,
           FileManager.default.fileExists(atPath: env + "/recipes-markdown") {
            return env
        }
        var dir = URL(fileURLWithPath: path)
        for _ in 0..<20 {
            let candidate = dir.appendingPathComponent("shared/data").path
            if FileManager.default.fileExists(atPath: candidate + "/recipes-markdown") { return candidate }
            let parent = dir.deletingLastPathComponent()
            if parent.path == dir.path { break }
            dir = parent
        }
        return nil
    }

    /// The report as one JSON object: `{"overall": Scores, "markdown": Scores, "scraped": Scores, "parseSeconds": s}`.
    public static func json(_ r: Report) -> String {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys]
        func s(_ x: Scores) -> String { String(decoding: (try? enc.encode(x)) ?? Data("{}".utf8), as: UTF8.self) }
        var parts = ["\"overall\":" + s(r.overall)]
        for (c, sc) in r.perCorpus { parts.append("\"\(c)\":" + s(sc)) }
        parts.append("\"parseSeconds\":\(String(format: "%.3f", r.parseSeconds))")
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// A human-readable table.
    public static func textReport(_ r: Report) -> String {
        func pct(_ x: Double) -> String { String(format: "%6.1f%%", x * 100) }
        var lines = ["corpus      count   title  ingF1  ingExact stepsF1 stepsExact recipes"]
        for (name, s) in r.perCorpus + [("overall", r.overall)] {
            lines.append(name.padding(toLength: 10, withPad: " ", startingAt: 0) + String(format: "%6d", s.count) + " "
                         + [s.title, s.ingredients.f1, s.ingredients.exact, s.steps.f1, s.steps.exact, s.recipes].map(pct).joined(separator: " "))
        }
        lines.append(String(format: "parse time %.2f s", r.parseSeconds))
        return lines.joined(separator: "\n")
    }

    /// Entry point for `recipe-eval` / `larder eval recipes`: `[--data DIR] [--json] [--all-languages]
    /// [--worst N] [--show NAME] [--parse FILE]`. Returns the exit code.
    public static func runCommandLine(_ arguments: [String]) -> Int32 {
        var data: String? = nil
        var asJSON = false
        var englishOnly = true
        var worst = 0
        var show: String? = nil
        var dump = false
        var i = 0
        while i < arguments.count {
            switch arguments[i] {
            case "--data": i += 1; data = i < arguments.count ? arguments[i] : nil
            case "--json": asJSON = true
            case "--all-languages": englishOnly = false
            case "--dump": dump = true
            case "--worst": i += 1; worst = i < arguments.count ? Int(arguments[i]) ?? 10 : 10
            case "--show": i += 1; show = i < arguments.count ? arguments[i] : nil
            case "--parse":
                // Debug aid: parse one text or Markdown file and print the recipes as JSON.
                i += 1
                guard i < arguments.count, let text = try? String(contentsOfFile: arguments[i], encoding: .utf8) else { return 4 }
                let format = arguments[i].hasSuffix(".md") ? "markdown" : "text"
                let recipes = RecipeParser().parse(RecipeSource(file: arguments[i], sha256: String(repeating: "0", count: 64), format: format, text: text))
                let enc = JSONEncoder()
                enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: (try? enc.encode(recipes)) ?? Data(), as: UTF8.self))
                return 0
            case "-h", "--help":
                print("usage: recipe-eval [--data SHARED_DATA_DIR] [--json] [--all-languages] [--worst N] [--show NAME]")
                return 0
            default:
                FileHandle.standardError.write(Data("recipe-eval: unknown option \(arguments[i])\n".utf8))
                return 2
            }
            i += 1
        }
        guard let dir = data ?? locateSharedData(startingAt: FileManager.default.currentDirectoryPath) else {
            FileHandle.standardError.write(Data("recipe-eval: shared data not found; pass --data DIR or set LARDER_SHARED_DATA\n".utf8))
            return 4
        }
        do {
            let md = try markdownCases(directory: dir + "/recipes-markdown/content")
            let scraped = try scrapedCases(directory: dir + "/recipes-scraped", englishOnly: englishOnly)
            let cases = md + scraped
            if dump {
                // Debug aid: every parsed recipe as one JSON line.
                let enc = JSONEncoder()
                enc.outputFormatting = [.sortedKeys]
                for c in cases {
                    for r in RecipeParser().parse(c.source) {
                        print(String(decoding: (try? enc.encode(r)) ?? Data(), as: UTF8.self))
                    }
                }
                return 0
            }
            if let show {
                for c in cases where c.name == show {
                    print(String(decoding: c.source.lines.map(\.text).joined(separator: "\n").utf8, as: UTF8.self))
                    print("---- expected ingredients"); c.ingredients.forEach { print("  " + $0) }
                    print("---- expected steps"); c.steps.forEach { print("  " + $0) }
                    let enc = JSONEncoder()
                    enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                    for r in RecipeParser().parse(c.source) {
                        print("---- parsed: \(r.title)")
                        print("  ingredients:"); r.allIngredients.forEach { print("    " + $0.text) }
                        print("  steps:"); r.steps.forEach { print("    " + $0.text) }
                        print("  yields: \(r.yields?.text ?? "-") prep \(r.prepMinutes ?? -1) cook \(r.cookMinutes ?? -1) total \(r.totalMinutes ?? -1)")
                    }
                }
                return 0
            }
            let report = evaluate(cases)
            if asJSON { print(json(report)) } else { print(textReport(report)) }
            if worst > 0 {
                let bad = report.cases.sorted { ($0.ingredientsF1 + $0.stepsF1 + ($0.titleOK ? 1 : 0) - ($0.recipeCount == 1 ? 0 : 1)) < ($1.ingredientsF1 + $1.stepsF1 + ($1.titleOK ? 1 : 0) - ($1.recipeCount == 1 ? 0 : 1)) }
                for c in bad.prefix(worst) {
                    print("\(c.name)  title \(c.titleOK ? "ok" : "NO") ing " + String(format: "%.2f", c.ingredientsF1) + " steps " + String(format: "%.2f", c.stepsF1) + " recipes \(c.recipeCount)")
                }
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("recipe-eval: \(error)\n".utf8))
            return 1
        }
    }
}
