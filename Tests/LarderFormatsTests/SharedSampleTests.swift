import Foundation
import LarderRecipes
import LarderTestSupport
import Testing
import Yams

@testable import LarderFormats

/// `../shared/data/recipe-app-exports` and `cooklang-spec` (found by LarderTestSupport), or nil when absent.
let appExports = SharedData.path("recipe-app-exports")
let cooklangSpec = SharedData.path("cooklang-spec")
let hasAppExports = SharedData.has("recipe-app-exports/README.md")
let hasCooklangSpec = SharedData.has("cooklang-spec/canonical.yaml")

/// Canonical tests we knowingly do not pass, and why (the README lists them too).
let cooklangKnownDeviations: [String: String] = [:]

@Suite struct CooklangCanonicalTests {
    /// One canonical item as comparable text (the same form `larder eval formats` compares).
    static func describe(_ item: CooklangRecipe.Item) -> String { FormatEvaluation.canonicalItem(item) }

    static func describeExpected(_ item: [String: Any]) -> String { FormatEvaluation.canonicalItem(item) }

    @Test(.sharedData("cooklang-spec/canonical.yaml"))
    func everyCanonicalTestPassesOrIsAKnownDeviation() throws {
        let yaml = try String(contentsOfFile: cooklangSpec! + "/canonical.yaml", encoding: .utf8)
        let root = try #require(try Yams.load(yaml: yaml) as? [String: Any])
        let tests = try #require(root["tests"] as? [String: Any])
        #expect(tests.count == 60)
        var failing: [String: String] = [:]
        for (name, value) in tests.sorted(by: { $0.key < $1.key }) {
            let test = try #require(value as? [String: Any])
            let source = try #require(test["source"] as? String)
            let result = try #require(test["result"] as? [String: Any])
            let expectedSteps = (result["steps"] as? [[Any]] ?? []).map { $0.map { Self.describeExpected($0 as! [String: Any]) } }
            let expectedMeta = (result["metadata"] as? [String: Any] ?? [:]).mapValues { "\($0)" }
            let parsed = CooklangReader.parse(source)
            let steps = parsed.steps.map { $0.map(Self.describe) }
            let meta = Dictionary(parsed.metadata.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
            if steps != expectedSteps || meta != expectedMeta {
                failing[name] = "got \(steps) \(meta), expected \(expectedSteps) \(expectedMeta)"
            }
        }
        #expect(Set(failing.keys) == Set(cooklangKnownDeviations.keys), "\(failing)")
    }

    @Test(.sharedData("recipe-app-exports/README.md"))
    func tandoorCooklangFilesImport() throws {
        let folder = appExports! + "/tandoor/cooklang"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".cook") }.sorted()
        #expect(names.count == 3)
        for name in names {
            let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
            let recipe = CooklangReader.parse(text)
            let draft = recipe.draft(fileName: name)
            #expect(draft.title == recipe.meta("title") ?? (name as NSString).deletingPathExtension)
            #expect(draft.ingredientLines.count >= 5)
            #expect(draft.steps.count >= 3)
        }
    }
}

@Suite struct MealMasterAndMasterCookSampleTests {
    static func expectedFiles(_ folder: String, ext: String) throws -> [(String, String, [String: Any])] {
        let dir = appExports! + "/" + folder
        return try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix("." + ext) }.sorted().map { name in
            let text = try String(contentsOfFile: dir + "/" + name, encoding: .utf8)
            let json = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + (name as NSString).deletingPathExtension + ".expected.json"))
            return (name, text, try JSONSerialization.jsonObject(with: json) as! [String: Any])
        }
    }

    @Test(.sharedData("recipe-app-exports/README.md"))
    func mealMasterExpectedParses() throws {
        let cases = try Self.expectedFiles("mealmaster", ext: "mmf")
        #expect(cases.count == 14)
        for (name, text, json) in cases {
            let expected = json["expected"] as! [String: Any]
            let recipes = MealMasterReader.parse(text)
            let ingredients = expected["ingredients"] as! [String]
            let hasRecipe = !(expected["title"] as! String).isEmpty || !ingredients.isEmpty
            #expect(recipes.count == (hasRecipe ? 1 : 0), "\(name)")
            guard let r = recipes.first else { continue }
            #expect(r.title == expected["title"] as! String, "\(name)")
            #expect(r.categories == expected["categories"] as! [String], "\(name)")
            #expect(r.servings == expected["servings"] as! Int, "\(name)")
            #expect(r.yield == expected["yield"] as! String, "\(name)")
            let got = r.ingredients.map { line -> String in
                switch line {
                case .heading(let h): "----- \(h) -----"
                case .ingredient(let q, let u, let t): "{\(q)} {\(u)} {\(t)}"
                }
            }
            #expect(got == ingredients, "\(name)")
            #expect(r.directions == expected["directions"] as! [String], "\(name)")
        }
    }

    @Test(.sharedData("recipe-app-exports/README.md"))
    func mealMasterUnitCases() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: appExports! + "/mealmaster/unit_cases.json"))
        let cases = (try JSONSerialization.jsonObject(with: data) as! [String: Any])["cases"] as! [[String: Any]]
        #expect(cases.count == 91)
        for c in cases {
            let args = c["args"] as! [Any]
            let expected = (c["assertions"] as! [[String: Any]]).map { $0["expected"]! }
            let label = "\(c["function"]!) \(args)"
            switch (c["function"] as! String).replacingOccurrences(of: "mmf.", with: "") {
            case "_is_mmf_header": #expect(MealMasterReader.isHeader(args[0] as! String) == expected[0] as! Bool, "\(label)")
            case "_is_mmf_footer": #expect(MealMasterReader.isFooter(args[0] as! String) == expected[0] as! Bool, "\(label)")
            case "_test_metadata":
                let e = expected[0] as! [Any]
                let got = MealMasterReader.metadata(args[0] as! String)
                #expect((got != nil) == e[0] as! Bool, "\(label)")
                #expect((got?.key ?? "") == e[1] as! String && (got?.value ?? "") == e[2] as! String, "\(label)")
            case "_split_categories": #expect(MealMasterReader.categories(args[0] as! String) == expected[0] as! [String], "\(label)")
            case "_get_yield_and_servings":
                let e = expected[0] as! [Any]
                let got = MealMasterReader.yieldAndServings(args[0] as! String)
                #expect(got.0 == e[0] as! String && got.1 == e[1] as! Int, "\(label)")
            case "_get_ingredient_heading": #expect(MealMasterReader.heading(args[0] as! String) == expected[0] as! String, "\(label)")
            case "_is_ingredient": #expect(MealMasterReader.isIngredient(args[0] as! String) == expected[0] as! Bool, "\(label)")
            case "_get_ingredient":
                guard case .ingredient(let q, let u, let t) = MealMasterReader.ingredient(args[0] as! String) else {
                    Issue.record("\(label): a heading"); continue
                }
                #expect([q, u, t] == Array(expected[0..<3]) as! [String], "\(label)")
            case "_get_ingredients":
                let lines = (args[0] as! [[Any]]).map { pair -> String in
                    // The library passes (line, is_heading) pairs; a heading is written as a heading line here.
                    (pair[1] as! Bool) ? "-----\(pair[0] as! String)-----" : pair[0] as! String
                }
                let got = MealMasterReader.ingredients(lines).map { line -> String in
                    switch line {
                    case .heading(let h): "----- \(h) -----"
                    case .ingredient(let q, let u, let t): "{\(q)} {\(u)} {\(t)}"
                    }
                }
                #expect(got == expected[0] as! [String], "\(label)")
            case "_paragraphize_directions": #expect(MealMasterReader.paragraphs(args[0] as! [String]) == expected[0] as! [String], "\(label)")
            default: Issue.record("unknown case \(label)")
            }
        }
    }

    @Test(.sharedData("recipe-app-exports/README.md"))
    func masterCookExpectedParses() throws {
        let cases = try Self.expectedFiles("mastercook-mxp", ext: "mxp")
        #expect(cases.count == 10)
        for (name, text, json) in cases {
            let expected = json["expected"] as! [String: Any]
            let recipes = MasterCookReader.parse(text)
            let hasRecipe = !(expected["title"] as! String).isEmpty
            #expect(recipes.count == (hasRecipe ? 1 : 0), "\(name)")
            guard let r = recipes.first else { continue }
            #expect(r.title == expected["title"] as! String, "\(name)")
            #expect(r.recipeBy == expected["recipe_by"] as! String, "\(name)")
            #expect(r.servingSize == expected["serving_size"] as! String, "\(name)")
            #expect(r.preparationTime == expected["preparation_time"] as! String, "\(name)")
            #expect(r.categories == expected["categories"] as! [String], "\(name)")
            let got = r.ingredients.map { "{\($0.amount)} {\($0.measure)} {\($0.ingredient)} {\($0.preparation)}" }
            #expect(got == expected["ingredients"] as! [String], "\(name)")
            #expect(r.directions == expected["directions"] as! [String], "\(name)")
            #expect(r.notes == expected["notes"] as! [String], "\(name)")
        }
    }

    @Test(.sharedData("recipe-app-exports/README.md"))
    func masterCookUnitCases() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: appExports! + "/mastercook-mxp/unit_cases.json"))
        let cases = (try JSONSerialization.jsonObject(with: data) as! [String: Any])["cases"] as! [[String: Any]]
        #expect(cases.count == 59)
        for c in cases {
            let arg = (c["args"] as! [Any])[0] as! String
            let expected = (c["assertions"] as! [[String: Any]])[0]["expected"]!
            let label = "\(c["function"]!) \(arg)"
            switch (c["function"] as! String).replacingOccurrences(of: "mxp.", with: "") {
            case "_is_mxp_header": #expect(MasterCookReader.isHeader(arg) == expected as! Bool, "\(label)")
            case "_is_mxp_footer": #expect(MasterCookReader.isFooter(arg) == expected as! Bool, "\(label)")
            case "_test_metadata":
                let e = expected as! [Any]
                let got = MasterCookReader.metadata(arg)
                #expect((got != nil) == e[0] as! Bool && (got?.key ?? "") == e[1] as! String && (got?.value ?? "") == e[2] as! String, "\(label)")
            case "_test_serving_size_preparation_time":
                let e = expected as! [Any]
                let got = MasterCookReader.servingSizeAndTime(arg)
                #expect((got != nil) == e[0] as! Bool && (got?.0 ?? "") == e[1] as! String && (got?.1 ?? "") == e[2] as! String, "\(label)")
            case "_test_categories":
                let e = expected as! [Any]
                let got = MasterCookReader.categories(arg)
                #expect((got != nil) == e[0] as! Bool && (got?.0 ?? "") == e[1] as! String && (got?.1 ?? "") == e[2] as! String, "\(label)")
            case "_test_ingredient":
                let got = MasterCookReader.ingredient(arg).map { "{\($0.amount)} {\($0.measure)} {\($0.ingredient)} {\($0.preparation)}" }
                #expect(got == expected as? String, "\(label)")
            default: Issue.record("unknown case \(label)")
            }
        }
    }
}
