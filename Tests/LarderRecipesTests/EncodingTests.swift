import Foundation
import Testing
@testable import LarderRecipes

/// The required and allowed keys of `schemas/recipe.schema.json`, object by object.
enum SchemaKeys {
    static let recipe = (required: ["title", "ingredientGroups", "steps", "notes", "tags", "source", "provenance", "confidence"],
                         allowed: ["title", "description", "yields", "prepMinutes", "cookMinutes", "totalMinutes", "cuisine",
                                   "mealType", "language", "tags", "ingredientGroups", "steps", "notes", "source", "provenance", "confidence",
                                   "author", "image", "nutrition", "diets", "scaling"])
    static let yields = (required: ["text"], allowed: ["servings", "maxServings", "unit", "text"])
    static let source = (required: ["file", "sha256", "pages"], allowed: ["file", "sha256", "pages", "format", "member", "url", "node"])
    static let provenance = (required: ["page", "lineStart", "lineEnd"], allowed: ["page", "lineStart", "lineEnd"])
    static let group = (required: ["name", "ingredients"], allowed: ["name", "ingredients"])
    static let ingredient = (required: ["text", "quantity", "unit", "name", "optional", "alternatives", "allergens", "confidence", "provenance"],
                             allowed: ["text", "quantity", "unit", "unitText", "additionalAmounts", "name", "size", "preparation",
                                       "comment", "optional", "purpose", "alternatives", "allergens", "confidence", "provenance",
                                       "base", "scaledFrom"])
    static let quantity = (required: ["value"], allowed: ["value", "max"])
    static let amount = (required: ["quantity"], allowed: ["quantity", "unit"])
    static let step = (required: ["number", "text", "durations", "temperatures", "ingredients", "provenance"],
                       allowed: ["number", "text", "durations", "temperatures", "ingredients", "provenance", "section"])
    static let duration = (required: ["minutes", "text"], allowed: ["minutes", "maxMinutes", "text"])
    static let temperature = (required: ["value", "unit", "text"], allowed: ["value", "unit", "gasMark", "text"])
    static let stepIngredient = (required: ["group", "index", "name"], allowed: ["group", "index", "name"])
}

/// Collects every schema violation of the key sets (missing required keys, unknown keys) and a few value rules.
func schemaProblems(_ recipe: [String: Any]) -> [String] {
    var problems: [String] = []
    func check(_ obj: Any?, _ keys: (required: [String], allowed: [String]), _ path: String) -> [String: Any]? {
        guard let o = obj as? [String: Any] else { problems.append("\(path): not an object"); return nil }
        for k in keys.required where o[k] == nil { problems.append("\(path).\(k): missing") }
        for k in o.keys where !keys.allowed.contains(k) { problems.append("\(path).\(k): not in schema") }
        return o
    }
    func prov(_ obj: Any?, _ path: String) {
        guard let p = check(obj, SchemaKeys.provenance, path) else { return }
        for k in ["page", "lineStart", "lineEnd"] where ((p[k] as? Int) ?? 0) < 1 { problems.append("\(path).\(k) < 1") }
    }
    guard let r = check(recipe, SchemaKeys.recipe, "recipe") else { return problems }
    if (r["title"] as? String ?? "").isEmpty { problems.append("recipe.title empty") }
    if let y = r["yields"], !(y is NSNull) { _ = check(y, SchemaKeys.yields, "yields") }
    if let s = check(r["source"], SchemaKeys.source, "source") {
        if (s["sha256"] as? String)?.count != 64 { problems.append("source.sha256 not 64 hex") }
        if (s["pages"] as? [Int] ?? []).isEmpty { problems.append("source.pages empty") }
    }
    for (k, v) in r["provenance"] as? [String: Any] ?? [:] { prov(v, "provenance.\(k)") }
    if let c = r["confidence"] as? Double, !(0...1).contains(c) { problems.append("confidence out of range") }
    for (gi, g) in (r["ingredientGroups"] as? [Any] ?? []).enumerated() {
        guard let group = check(g, SchemaKeys.group, "groups[\(gi)]") else { continue }
        for (ii, i) in (group["ingredients"] as? [Any] ?? []).enumerated() {
            let path = "groups[\(gi)].ingredients[\(ii)]"
            guard let ing = check(i, SchemaKeys.ingredient, path) else { continue }
            if let q = ing["quantity"], !(q is NSNull) { _ = check(q, SchemaKeys.quantity, path + ".quantity") }
            for (ai, a) in (ing["additionalAmounts"] as? [Any] ?? []).enumerated() {
                if let amount = check(a, SchemaKeys.amount, path + ".additionalAmounts[\(ai)]") {
                    _ = check(amount["quantity"], SchemaKeys.quantity, path + ".additionalAmounts[\(ai)].quantity")
                }
            }
            prov(ing["provenance"], path + ".provenance")
        }
    }
    for (si, s) in (r["steps"] as? [Any] ?? []).enumerated() {
        let path = "steps[\(si)]"
        guard let step = check(s, SchemaKeys.step, path) else { continue }
        for d in step["durations"] as? [Any] ?? [] { _ = check(d, SchemaKeys.duration, path + ".durations") }
        for t in step["temperatures"] as? [Any] ?? [] {
            if let temp = check(t, SchemaKeys.temperature, path + ".temperatures"), !["C", "F"].contains(temp["unit"] as? String ?? "") {
                problems.append(path + ".temperatures.unit not C/F")
            }
        }
        for i in step["ingredients"] as? [Any] ?? [] { _ = check(i, SchemaKeys.stepIngredient, path + ".ingredients") }
        prov(step["provenance"], path + ".provenance")
    }
    return problems
}

func jsonObject(_ r: Recipe) throws -> [String: Any] {
    let data = try JSONEncoder().encode(r)
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

@Suite struct EncodingTests {
    @Test func everyRequiredKeyIsPresent() throws {
        let recipes = parseText(Fixtures.threeRecipes) + parseText(Fixtures.groupsAndHeaders)
            + RecipeParser().parse(pdfSource(Fixtures.pdfPages)) + parseText(Fixtures.markdown, format: "markdown")
        #expect(recipes.count == 7)
        for r in recipes {
            let problems = try schemaProblems(jsonObject(r))
            #expect(problems.isEmpty, "\(r.title): \(problems)")
        }
    }

    @Test func absentOptionalsAreExplicitNulls() throws {
        let r = try #require(parseText("Boiled Eggs\n\nIngredients\n2 eggs\n\nMethod\nBoil the eggs.\n").first)
        let o = try jsonObject(r)
        for k in ["description", "yields", "prepMinutes", "cookMinutes", "totalMinutes", "cuisine", "mealType"] {
            #expect(o[k] is NSNull, "\(k) should be null")
        }
        let ing = try #require(((o["ingredientGroups"] as? [[String: Any]])?.first?["ingredients"] as? [[String: Any]])?.first)
        #expect(ing["unit"] is NSNull)
        #expect((ing["quantity"] as? [String: Any])?["max"] is NSNull)
        let group = try #require((o["ingredientGroups"] as? [[String: Any]])?.first)
        #expect(group["name"] is NSNull)
    }

    @Test func roundTrips() throws {
        for r in parseText(Fixtures.threeRecipes) {
            let data = try JSONEncoder().encode(r)
            #expect(try JSONDecoder().decode(Recipe.self, from: data) == r)
        }
    }

    @Test func confidenceIsInRangeAndLowerWithoutHeaders() throws {
        let headed = try #require(parseText(Fixtures.groupsAndHeaders).first)
        let bare = try #require(parseText(Fixtures.headerless).first)
        #expect((0...1).contains(headed.confidence) && (0...1).contains(bare.confidence))
        #expect(bare.confidence < headed.confidence)
    }
}
