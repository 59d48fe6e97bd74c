import Foundation
import LarderTestSupport
import Testing
import LarderJSON

@Suite("JSONSchema API")
struct SchemaAPITests {
    static let recipeSchema: JSONValue = try! JSONValue(parsing: #"""
    {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "$id": "https://larder.example/recipe.json",
      "type": "object",
      "required": ["name", "ingredients"],
      "properties": {
        "name": {"type": "string", "minLength": 1},
        "servings": {"type": "integer", "minimum": 1},
        "ingredients": {"type": "array", "items": {"$ref": "#/$defs/ingredient"}},
        "steps": {"type": "array", "items": {"type": "string"}},
        "tags": {"type": "array", "uniqueItems": true, "items": {"type": "string", "pattern": "^[a-z-]+$"}}
      },
      "additionalProperties": false,
      "$defs": {
        "ingredient": {
          "type": "object",
          "required": ["name"],
          "properties": {
            "name": {"type": "string"},
            "quantity": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.0001},
            "unit": {"enum": ["g", "kg", "ml", "l", "tsp", "tbsp", "cup", "pc"]}
          },
          "unevaluatedProperties": false
        }
      }
    }
    """#)

    @Test func reportsLocationsAndMessages() throws {
        let schema = try JSONSchema(Self.recipeSchema)
        let doc = try JSONValue(parsing: #"""
        {"name": "Soup", "ingredients": [{"name": "salt", "quantity": 0.0075, "unit": "g"},
          {"name": "water", "quantity": "abc"}, {"quantity": 1}, {"name": "x", "colour": "red"}],
         "extra": true}
        """#)
        let errors = schema.validate(doc)
        #expect(!schema.isValid(doc))
        let byLoc = Dictionary(grouping: errors, by: { $0.instanceLocation.description })
        let q = try #require(byLoc["/ingredients/1/quantity"]?.first)
        #expect(q.keywordLocation == "/properties/ingredients/items/$ref/properties/quantity/type")
        #expect(q.absoluteKeywordLocation == "https://larder.example/recipe.json#/$defs/ingredient/properties/quantity/type")
        #expect(q.message == #"expected number, got string "abc""#)
        let missing = try #require(byLoc["/ingredients/2"]?.first)
        #expect(missing.keywordLocation == "/properties/ingredients/items/$ref/required")
        #expect(missing.message == "required property 'name' is missing")
        #expect(byLoc["/ingredients/3"]?.first?.keyword == "unevaluatedProperties")
        #expect(byLoc[""]?.first?.message == "additional property 'extra' is not allowed")
        #expect(errors.count == 4, "\(errors)")
    }

    /// 2,000 validations timed by the wall clock: seconds of work, and meaningless beside the parallel unit tier.
    @Test(.slow) func validDocumentAndSpeed() throws {
        let schema = try JSONSchema(Self.recipeSchema)
        var ingredients: [JSONValue] = []
        for i in 0..<40 {
            ingredients.append(["name": .string("item \(i)"), "quantity": .double(Double(i) + 0.25), "unit": "g"])
        }
        let doc: JSONValue = ["name": "Big stew", "servings": 4, "ingredients": .array(ingredients),
                              "steps": ["chop", "boil", "serve"], "tags": ["soup", "winter"]]
        #expect(schema.validate(doc).isEmpty)
        #expect(schema.isValid(doc))
        let n = 2000
        let start = ContinuousClock.now
        for _ in 0..<n { _ = schema.validate(doc) }
        let per = (ContinuousClock.now - start) / n
        print("recipe validation (~200 nodes): \(per) per document (debug build)")
        #expect(per < .milliseconds(5))
    }

    @Test func concurrentUse() async throws {
        let schema = try JSONSchema(Self.recipeSchema)
        let good: JSONValue = ["name": "a", "ingredients": [["name": "b"]]]
        let bad: JSONValue = ["ingredients": [["name": 1]]]
        await withTaskGroup(of: Bool.self) { group in
            for i in 0..<32 {
                group.addTask { i % 2 == 0 ? schema.isValid(good) : !schema.isValid(bad) }
            }
            for await ok in group { #expect(ok) }
        }
    }

    @Test func concurrentPatternsAndFormats() async throws {
        let schema = try JSONSchema(["type": "array", "items": ["type": "string", "pattern": "^[a-z]+\\d*$", "format": "email"]],
                                    options: JSONSchemaOptions(formatAssertion: true))
        let good: JSONValue = .array((0..<50).map { _ in "a@b.example" })
        let bad: JSONValue = .array((0..<50).map { .string("X\($0)") })
        #expect(!schema.isValid(good))  // pattern fails for '@'
        let s2 = try JSONSchema(["type": "array", "items": ["pattern": "^[a-z]+\\d*$"]])
        let good2: JSONValue = .array((0..<50).map { .string("abc\($0)") })
        await withTaskGroup(of: Bool.self) { group in
            for i in 0..<64 {
                group.addTask {
                    var ok = true
                    for _ in 0..<20 {
                        ok = ok && (i % 2 == 0 ? s2.isValid(good2) : s2.validate(bad).count == 50)
                    }
                    return ok
                }
            }
            for await ok in group { #expect(ok) }
        }
    }

    @Test func schemaErrors() throws {
        do {
            _ = try JSONSchema(["properties": ["a": ["type": 12]]])
            Issue.record("expected error")
        } catch let e as SchemaError {
            #expect(e.kind == .invalidSchema)
            #expect(e.location.hasSuffix("#/properties/a/type"))
            #expect(e.message.contains("'type'"))
        }
        do {
            _ = try JSONSchema(["$ref": "#/$defs/missing"])
            Issue.record("expected error")
        } catch let e as SchemaError {
            #expect(e.kind == .unresolvedReference)
            #expect(e.message.contains("#/$defs/missing"))
        }
        do {
            _ = try JSONSchema(["$ref": "https://example.com/nope.json"])
            Issue.record("expected error")
        } catch let e as SchemaError {
            #expect(e.kind == .unresolvedReference)
            #expect(e.message.contains("https://example.com/nope.json"))
        }
        #expect(throws: SchemaError.self) { try JSONSchema(["pattern": "(unclosed"]) }
        #expect(throws: SchemaError.self) { try JSONSchema(["minLength": -1]) }
    }

    @Test func registryAndFormats() throws {
        var reg = JSONSchemaRegistry()
        reg.register(["type": "string", "format": "date"], uri: "https://larder.example/date.json")
        let s1 = try JSONSchema(["$ref": "https://larder.example/date.json"], registry: reg)
        #expect(s1.isValid("not a date"))  // format is an annotation by default
        let s2 = try JSONSchema(["$ref": "https://larder.example/date.json"], registry: reg, options: JSONSchemaOptions(formatAssertion: true))
        #expect(!s2.isValid("2024-02-30"))
        #expect(s2.isValid("2024-02-29"))
        #expect(s2.validate("nope").first?.message == #""nope" is not a valid date"#)
    }

    @Test func stringLengthCountsCodePoints() throws {
        let s = try JSONSchema(["maxLength": 2, "minLength": 2])
        #expect(s.isValid("😀😀"))
        #expect(!s.isValid("😀"))
        #expect(s.isValid("e\u{301}"))  // two code points
    }

    @Test func unsupportedRegexIsReportedNotCrashing() {
        #expect(throws: SchemaError.self) { try JSONSchema(["pattern": "\\a"]) }
        #expect(throws: SchemaError.self) { try JSONSchema(["patternProperties": ["[": true]]) }
    }
}
