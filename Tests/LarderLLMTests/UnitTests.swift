import Foundation
import LarderCore
import LarderJSON
import Testing

@testable import LarderLLM

@Suite("Units: prompts, parsing, grounding, merging, configuration, cache keys")
struct UnitTests {
    @Test func promptsAreVersionedAndTiedToTheirSchemas() throws {
        let recipe = try PromptLibrary.recipe
        #expect(recipe.version == "recipe-v1" && recipe.schemaName == "llm-recipe" && recipe.id == "recipe")
        #expect(recipe.stageVersion.hasPrefix("recipe-v1+") && recipe.stageVersion.count == "recipe-v1+".count + 12)
        #expect(recipe.userMessage(KeyedLines(["a", "", "b"])).contains("L1\ta\nL3\tb"))
        #expect(recipe.wireSchema["$schema"] == nil && recipe.wireSchema["properties"] != nil)
        #expect(recipe.wireSchemaName == "llm_recipe")
        let narrowed = recipe.wireSchema(for: KeyedLines(["a", "", "b"]))
        #expect(narrowed["properties"]?["ingredients"]?["items"]?["properties"]?["line"]?["enum"] == ["L1", "L3"])
        #expect(narrowed["properties"]?["steps"]?["items"]?["properties"]?["lines"]?["items"]?["enum"] == ["L1", "L3"])
        #expect(!narrowed.serialized().contains("pattern"))
        #expect(narrowed["properties"]?["ingredients"]?["maxItems"] == 2)
        let receipt = try PromptLibrary.receipt
        #expect(receipt.schemaName == "llm-receipt" && receipt.schemaHash != recipe.schemaHash)
        #expect(PromptLibrary.versions == ["receipt-v1", "recipe-v1"])
        #expect(throws: LLMError.self) { try PromptLibrary.prompt("recipe-v0") }
        #expect(throws: LLMError.self) { try Prompt(parsing: "no front matter", schema: [:]) }
    }

    @Test func outputParserStripsFencesAndProse() throws {
        #expect(OutputParser.stripFences("```json\n{\"a\":1}\n```") == "{\"a\":1}")
        #expect(OutputParser.stripFences("```\n{\"a\":1}```") == "{\"a\":1}")
        #expect(OutputParser.stripFences("Sure! {\"a\":1} Hope that helps") == "{\"a\":1}")
        #expect(try OutputParser.parse(" {\"a\": [1, 2]} ").get() == ["a": [1, 2]])
        if case .success = OutputParser.parse("{\"a\":") { Issue.record("a truncated object must not parse") }
    }

    @Test func groundingChecksLineKeysTextAndPrices() {
        let lines = KeyedLines(["FRESHMART", "BANANAS 1.29", "MILK 2L 2,49", "", "TOTAL 3.78"])
        let answer: JSONValue = [
            "store": "FRESHMART", "date": nil, "total": 3.78,
            "items": [
                ["line": "L2", "description": "Bananas", "price": 1.29],
                ["line": "L3", "description": "Milk 2L", "price": 2.49],
                ["line": "L3", "description": "Milk", "price": 9.99],
                ["line": "L4", "description": "Bread", "price": 1.0],
                ["line": "L7", "description": "Eggs", "price": nil],
                ["line": "L2", "description": "Chocolate", "price": 1.29],
            ],
        ]
        let (kept, rejected) = Grounding.check(answer, lines: lines, rules: GroundingRule.rules(for: "receipt"))
        #expect(kept["items"]?.arrayValue?.count == 2)
        #expect(rejected.map(\.path) == ["/items/2", "/items/3", "/items/4", "/items/5"])
        #expect(rejected[0].reason.contains("price"))
        #expect(rejected[1].reason.contains("blank"))
        #expect(rejected[2].reason.contains("not a line"))
        #expect(Grounding.plausible("tomatoes", in: "2 ripe tomato, diced"))
        #expect(!Grounding.plausible("saffron", in: "2 cups flour"))
        #expect(Grounding.numbers(in: "2 x 1,29 = 2.58") == [2, 1.29, 2.58])
    }

    @Test func mergeIsFieldByFieldWithProvenance() {
        let llm: JSONValue = ["title": "LLM title", "ingredients": [["line": "L1"]], "steps": []]
        let parsed: JSONValue = ["title": "Parsed title", "ingredients": [], "steps": [["lines": ["L2"], "text": "x"]]]
        let source = FieldSource.llm(provider: "p", model: "m")
        let (fallback, fp) = FieldMerger.merge(deterministic: parsed, llm: llm, source: source, preferLLM: false)
        #expect(fallback["title"] == "Parsed title" && fp["title"] == .deterministic)
        #expect(fallback["ingredients"] == [["line": "L1"]] && fp["ingredients"] == source)
        #expect(fp["steps"] == .deterministic)
        let (always, ap) = FieldMerger.merge(deterministic: parsed, llm: llm, source: source, preferLLM: true)
        #expect(always["title"] == "LLM title" && ap["title"] == source)
        #expect(ap["steps"] == .deterministic)  // the LLM's empty array does not replace parsed steps
        #expect(source.description == "llm:p/m")
    }

    @Test func modesAndDefaults() {
        var config = LLMConfig()
        #expect(config.mode == .off && config.maxReasks == 2 && config.batchTokenBudget == nil && config.confidenceThreshold == 0.6)
        #expect(!config.shouldStructure(confidence: 0))
        config.mode = .fallback
        #expect(config.shouldStructure(confidence: 0.5) && !config.shouldStructure(confidence: 0.6))
        #expect(config.linesToStructure(confidences: [0.9, 0.1, 0.59, 0.7]) == [1, 2])
        config.mode = .always
        #expect(config.shouldStructure(confidence: 1))
        let provider = ProviderConfig(name: "x", kind: .gemini, baseURL: "u", model: "m", pricePerInputToken: 0.5, pricePerOutputToken: 2)
        #expect(provider.cost(of: TokenUsage(input: 2, output: 3)) == 7)
        #expect(provider.timeoutSeconds == 120 && provider.maxTokens == 2048 && provider.concurrency == 2)
    }

    @Test func cacheKeyCoversEveryPart() {
        let base = CachedAnswer.key(input: "a", provider: "p", model: "m", promptVersion: "v1", schemaHash: "h")
        #expect(base.count == 64)
        #expect(base == CachedAnswer.key(input: "a", provider: "p", model: "m", promptVersion: "v1", schemaHash: "h"))
        for other in [
            CachedAnswer.key(input: "b", provider: "p", model: "m", promptVersion: "v1", schemaHash: "h"),
            CachedAnswer.key(input: "a", provider: "q", model: "m", promptVersion: "v1", schemaHash: "h"),
            CachedAnswer.key(input: "a", provider: "p", model: "n", promptVersion: "v1", schemaHash: "h"),
            CachedAnswer.key(input: "a", provider: "p", model: "m", promptVersion: "v2", schemaHash: "h"),
            CachedAnswer.key(input: "a", provider: "p", model: "m", promptVersion: "v1", schemaHash: "g"),
            CachedAnswer.key(input: "ap", provider: "", model: "m", promptVersion: "v1", schemaHash: "h"),
        ] { #expect(other != base) }
        #expect(SHA256.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func budgetIsThreadSafeAndRefusesOnceReached() async {
        let budget = Budget(limit: 1000)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<100 { group.addTask { budget.spend(TokenUsage(input: 5, output: 5)) } }
        }
        #expect(budget.used == 1000 && budget.isExhausted)
        #expect(budget.refusal()?.contains("1000 of 1000") == true)
        #expect(Budget(limit: nil).refusal() == nil)
    }
}
