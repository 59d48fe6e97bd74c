import Foundation
import LarderRecipes
import Yams

/// `larder eval formats`: over `shared/data/recipe-app-exports`, per format the recipes found against the number
/// the data's README counts, and where the data has an expected parse (MealMaster, MasterCook text) the share of
/// recipes whose title, ingredient lines (amount/unit/text), steps, servings and categories match exactly; plus
/// the Cooklang canonical tests passed (`cooklang-spec/canonical.yaml`) and recipes read per second.
public enum FormatEvaluation {
    public struct Row: Codable, Sendable, Equatable {
        public var format: String
        public var files: Int
        public var expected: Int
        public var found: Int
        public var errors: Int
        /// With an expected parse: recipes compared, and how many match on each field.
        public var compared: Int = 0
        public var title: Int = 0
        public var ingredients: Int = 0
        public var steps: Int = 0
        public var servings: Int = 0
        public var categories: Int = 0
    }

    public struct Report: Codable, Sendable, Equatable {
        public var rows: [Row]
        public var cooklangCanonicalPassed: Int
        public var cooklangCanonicalTotal: Int
        public var recipes: Int
        public var seconds: Double
        public var recipesPerSecond: Double { seconds > 0 ? Double(recipes) / seconds : 0 }
    }

    /// Reads one file (an archive through the caller's archive reader) into recipes and entry errors.
    public typealias FileReader = (String) throws -> RecipeImport.Outcome

    /// The sample files by format, with the recipe counts the data's README gives (`larder eval formats` reads
    /// them through the standard stages: `ExportEvaluation` in LarderEvaluation).
    public static let samples: [(format: String, files: [String], expected: Int)] = [
        ("paprika", ["mealie/paprika.zip"], 5), ("nextcloud", ["mealie/nextcloud.zip"], 3),
        ("chowdown", ["mealie/chowdown.zip"], 2), ("copymethat", ["mealie/copymethat.zip"], 3),
        ("mealie", ["mealie/mealie.zip"], 3), ("tandoor", ["mealie/tandoor.zip"], 1),
        ("plantoeat", ["mealie/plantoeat.zip"], 2), ("myrecipebox", ["mealie/myrecipebox.csv"], 10),
        ("cooklang", ["tandoor/cooklang/American Pancakes.cook", "tandoor/cooklang/Another Lemon Blueberry Bread.cook", "tandoor/cooklang/Butter Swirl Shortbread Cookies.cook"], 3),
        ("mealmaster (gourmet)", ["gourmet/mealmaster.mmf", "gourmet/mealmaster_2_col.mmf"], 6),
        ("mastercook-mx2", ["gourmet/athenos.mx2"], 100),
    ]

    public static func evaluate(folder: String, read: FileReader) throws -> Report {
        let start = Date()
        var rows: [Row] = []
        var total = 0
        for sample in samples {
            var row = Row(format: sample.format, files: sample.files.count, expected: sample.expected, found: 0, errors: 0)
            for file in sample.files {
                let outcome = try read(folder + "/" + file)
                row.found += outcome.recipes.count
                row.errors += outcome.errors.count
            }
            total += row.found
            rows.append(row)
        }
        let (mm, mmCount) = try expectedParses(folder: folder + "/mealmaster", ext: "mmf", label: "mealmaster (expected parses)")
        let (mx, mxCount) = try expectedParses(folder: folder + "/mastercook-mxp", ext: "mxp", label: "mastercook-mxp (expected parses)")
        rows += [mm, mx]
        total += mmCount + mxCount
        let seconds = Date().timeIntervalSince(start)
        let canonical = (try? cooklangCanonical(folder: (folder as NSString).deletingLastPathComponent + "/cooklang-spec")) ?? (0, 0)
        return Report(rows: rows, cooklangCanonicalPassed: canonical.0, cooklangCanonicalTotal: canonical.1, recipes: total, seconds: seconds)
    }

    static func expectedParses(folder: String, ext: String, label: String) throws -> (Row, Int) {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix("." + ext) }.sorted()
        var row = Row(format: label, files: names.count, expected: 0, found: 0, errors: 0)
        for name in names {
            let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
            let json = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + (name as NSString).deletingPathExtension + ".expected.json"))
            guard let e = (try JSONSerialization.jsonObject(with: json) as? [String: Any])?["expected"] as? [String: Any] else { continue }
            let title = e["title"] as? String ?? ""
            let ingredients = e["ingredients"] as? [String] ?? []
            let hasRecipe = !title.isEmpty || !ingredients.isEmpty
            if hasRecipe { row.expected += 1 }
            let got = ext == "mmf" ? MealMasterReader.parse(text).map(Parsed.init) : MasterCookReader.parse(text).map(Parsed.init)
            row.found += got.count
            guard hasRecipe, let r = got.first else { continue }
            row.compared += 1
            if r.title == title { row.title += 1 }
            if r.ingredients == ingredients { row.ingredients += 1 }
            if r.steps == (e["directions"] as? [String] ?? []) { row.steps += 1 }
            let servings = ext == "mmf" ? "\(e["servings"] as? Int ?? 0)|\(e["yield"] as? String ?? "")" : e["serving_size"] as? String ?? ""
            if r.servings == servings { row.servings += 1 }
            if r.categories == (e["categories"] as? [String] ?? []) { row.categories += 1 }
        }
        return (row, row.found)
    }

    /// One parsed recipe in the expected files' notation.
    struct Parsed {
        var title: String
        var ingredients: [String]
        var steps: [String]
        var servings: String
        var categories: [String]

        init(_ r: MealMasterRecipe) {
            title = r.title
            ingredients = r.ingredients.map {
                switch $0 {
                case .heading(let h): "----- \(h) -----"
                case .ingredient(let q, let u, let t): "{\(q)} {\(u)} {\(t)}"
                }
            }
            steps = r.directions
            servings = "\(r.servings)|\(r.yield)"
            categories = r.categories
        }

        init(_ r: MasterCookRecipe) {
            title = r.title
            ingredients = r.ingredients.map { "{\($0.amount)} {\($0.measure)} {\($0.ingredient)} {\($0.preparation)}" }
            steps = r.directions
            servings = r.servingSize
            categories = r.categories
        }
    }

    /// (passed, total) over canonical.yaml: steps (type, name, quantity, units, value) and metadata equal.
    public static func cooklangCanonical(folder: String) throws -> (Int, Int) {
        let yaml = try String(contentsOfFile: folder + "/canonical.yaml", encoding: .utf8)
        guard let tests = (try Yams.load(yaml: yaml) as? [String: Any])?["tests"] as? [String: Any] else { return (0, 0) }
        var passed = 0
        for case let test as [String: Any] in tests.values {
            guard let source = test["source"] as? String, let result = test["result"] as? [String: Any] else { continue }
            let expected = (result["steps"] as? [[Any]] ?? []).map { $0.compactMap { ($0 as? [String: Any]).map(canonicalItem) } }
            let meta = (result["metadata"] as? [String: Any] ?? [:]).mapValues { "\($0)" }
            let parsed = CooklangReader.parse(source)
            let got = parsed.steps.map { $0.map(canonicalItem) }
            let gotMeta = Dictionary(parsed.metadata.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
            if got == expected && gotMeta == meta { passed += 1 }
        }
        return (passed, tests.count)
    }

    public static func canonicalItem(_ item: CooklangRecipe.Item) -> String {
        func q(_ q: CooklangRecipe.Quantity, none: String) -> String {
            switch q {
            case .none: none
            case .number(let v): "#\(v)"
            case .text(let t): t
            }
        }
        switch item {
        case .text(let t): return "text:\(t)"
        case .ingredient(let n, let quantity, let u, _): return "ingredient:\(n)|\(q(quantity, none: "some"))|\(u)"
        case .cookware(let n, let quantity): return "cookware:\(n)|\(q(quantity, none: "#1.0"))"
        case .timer(let n, let quantity, let u): return "timer:\(n)|\(q(quantity, none: ""))|\(u)"
        }
    }

    static func canonicalItem(_ item: [String: Any]) -> String {
        func q(_ v: Any?) -> String {
            if let i = v as? Int { return "#\(Double(i))" }
            if let d = v as? Double { return "#\(d)" }
            return "\(v ?? "")"
        }
        let name = item["name"] as? String ?? ""
        let units = item["units"] as? String ?? ""
        switch item["type"] as? String {
        case "text": return "text:\(item["value"] as? String ?? "")"
        case "ingredient": return "ingredient:\(name)|\(q(item["quantity"]))|\(units)"
        case "cookware": return "cookware:\(name)|\(q(item["quantity"]))"
        default: return "timer:\(name)|\(q(item["quantity"]))|\(units)"
        }
    }

    public static func textReport(_ r: Report) -> String {
        var lines = ["format                            files  found/expected  errors  title  ingredients  steps  servings  categories"]
        for row in r.rows {
            func frac(_ n: Int) -> String { row.compared > 0 ? "\(n)/\(row.compared)" : "-" }
            lines.append(
                row.format.padding(toLength: 34, withPad: " ", startingAt: 0) + String(row.files).leftPad(5)
                    + "\(row.found)/\(row.expected)".leftPad(16) + String(row.errors).leftPad(8) + frac(row.title).leftPad(7)
                    + frac(row.ingredients).leftPad(13) + frac(row.steps).leftPad(7) + frac(row.servings).leftPad(10)
                    + frac(row.categories).leftPad(12))
        }
        lines.append("cooklang canonical tests passed: \(r.cooklangCanonicalPassed)/\(r.cooklangCanonicalTotal)")
        lines.append(String(format: "%d recipes in %.3f s: %.0f recipes/s", r.recipes, r.seconds, r.recipesPerSecond))
        return lines.joined(separator: "\n")
    }

    public static func json(_ r: Report) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(r)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

extension String {
    fileprivate func leftPad(_ n: Int) -> String { count >= n ? " " + self : String(repeating: " ", count: n - count) + self }
}
