import Foundation
import LarderRecipes
import Testing

@testable import LarderCore
@testable import LarderStages

/// Issue 11, item 13's last part: a document's text is stored once (`extract`'s pages, or `ocr`'s lines); the
/// stages after it refer to its lines instead of copying them, and the result is kept once (as its version).
/// Real pipeline, real SQLite store.
@Suite("stored outputs hold the text once")
struct StoredOutputTests {
    /// A recipe whose method is 70 paragraphs of about 1,000 characters, one per line (as a text file holds them).
    static func longRecipe() -> String {
        let words = ["stir", "the", "onions", "gently", "over", "a", "low", "heat", "until", "soft", "and", "golden",
                     "then", "add", "garlic", "cook", "for", "two", "minutes", "more", "while", "sauce", "simmers"]
        var generator = SystemRandomNumberGenerator()
        var lines = ["Slow Braise", "", "Serves 4", "", "Ingredients:", "- 2 onions, sliced", "- 3 garlic cloves",
                     "- 400 g tomatoes", "- 1 tbsp olive oil", "", "Method:"]
        for step in 1...70 {
            lines.append("\(step). " + (0..<170).map { _ in words.randomElement(using: &generator)! }.joined(separator: " ") + ".")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func ingest(_ files: [String: String], in folder: String) throws -> SQLiteCheckpointStore {
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: folder + "/in/" + name, atomically: true, encoding: .utf8) }
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        _ = try Intake(store: store, manifest: .standard(for: PipelineConfig()), config: PipelineConfig())
            .ingest(paths: [folder + "/in"], batchID: store.beginBatch(command: "t", inputs: []))
        try runQueue(store)
        return store
    }

    /// A fresh queue (its own decoded outputs): what a resumed run does.
    static func runQueue(_ store: SQLiteCheckpointStore) throws {
        try WorkQueue(store: store, pipeline: try .standard(for: PipelineConfig()), config: PipelineConfig(), logger: TestSupport.logger).run()
    }

    @Test func aLongTextIsStoredOnceNotOncePerStage() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let text = Self.longRecipe()
        let store = try Self.ingest(["braise.txt": text], in: folder)
        let document = try #require(try store.document(matching: folder + "/in/braise.txt"))
        #expect(document.state == .done)
        let textBytes = text.utf8.count
        let stored = try store.storedBytes(of: document.id)
        let outputs = stored.outputs.values.reduce(0, +)
        // extract holds the text; every other stage a bounded structure: 70 steps and 4 ingredients refer to their
        // lines. Before, recipe and result each held it again (3× the text and more).
        #expect(outputs <= textBytes * 11 / 10 + 16_384, "stage outputs \(stored.outputs) for \(textBytes) bytes of text")
        #expect(stored.outputs["recipe", default: 0] < textBytes / 2, "the recipe stage refers to its lines")
        #expect(stored.outputs["result", default: 0] == 0, "the result is kept once, as its version")
        // The result (the product, exported and versioned) holds its text once.
        #expect(stored.versions <= textBytes * 11 / 10 + 16_384, "\(stored.versions) bytes of result versions")
        let stages = try store.stages(of: document.id)
        let resultJSON = try #require(stages.first { $0.stage == "result" }?.output, "read from its version")
        let result = try JSONDecoder().decode(DocumentResult.self, from: Data(resultJSON.utf8))
        let steps = try #require(result.recipes.first?.steps)
        try #require(steps.count == 70)
        #expect(steps.allSatisfy { $0.text.count > 500 }, "each step's text is whole in the result")
        let firstLine = text.split(separator: "\n", omittingEmptySubsequences: false)[11]
        #expect(steps.first.map { firstLine.hasPrefix("1. ") && firstLine.hasSuffix($0.text) } == true)
    }

    /// A later process reads the stored references back into exactly the values the stages made: the result stage
    /// run again from them makes the same result (no new version).
    @Test func theResultMadeAgainFromStoredReferencesIsTheSame() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let receipt = """
            FRESHWAY MARKET
            12 High Street
            2026-11-20 18:42
            WHOLE MILK 2L           1.89
            FREE RANGE EGGS 12      3.49
            SOURDOUGH LOAF          2.75
            CHEDDAR CHEESE 400G     4.20
            SUBTOTAL               12.33
            TOTAL                  12.33
            CASH                   20.00
            CHANGE                  7.67
            """
        let store = try Self.ingest(["braise.txt": Self.longRecipe(), "receipt.txt": receipt], in: folder)
        var before: [Int64: [ResultVersion]] = [:]
        try store.forEachDocument(in: .done) { before[$0.id] = try store.resultVersions(of: $0.id) }
        #expect(before.count == 2)
        for id in before.keys {
            let stages = try store.stages(of: id)
            let recipe = try #require(stages.first { $0.stage == "recipe" }?.output)
            let receiptOutput = try #require(stages.first { $0.stage == "receipt" }?.output)
            if recipe.contains("\"recipes\":[{") { #expect(recipe.contains("\"textAt\"")) }
            if receiptOutput.contains("\"lines\"") {
                #expect(!receiptOutput.contains("WHOLE MILK 2L           1.89"), "receipt lines refer to the text's")
                #expect(receiptOutput.contains("WHOLE MILK"), "item descriptions are the receipt's own")
            }
        }
        // Run the result stage again in a fresh queue: it decodes the stored recipe and receipt outputs.
        let version = StandardStage.result.declaration().version
        for id in before.keys {
            try store.recordFailure(
                documentID: id, stage: "result", version: version, error: LarderError(.transient, "run it again"),
                status: .pending, startedAt: 0, finishedAt: 0)
            try store.settle(documentID: id, state: .pending, pipelineVersion: "", batchID: nil)
        }
        try Self.runQueue(store)
        for (id, versions) in before {
            #expect(try store.document(id: id)?.state == .done)
            let after = try store.resultVersions(of: id)
            #expect(after.count == versions.count, "the same result: no new version")
            #expect(after.last?.json == versions.last?.json)
        }
    }

    @Test func textThatIsNotAPieceOfItsLinesIsKeptAsWritten() throws {
        let lines = [
            SourceLine(page: 1, number: 1, text: "- 2 cups plain flour, sifted"),
            SourceLine(page: 1, number: 2, text: "1. Whisk the eggs and the sugar until"),
            SourceLine(page: 1, number: 3, text: "   pale and thick, about five minutes."),
        ]
        let json = """
            {"recipes":[{"steps":[{"text":"Whisk the eggs and the sugar until pale and thick, about five minutes.",\
            "provenance":{"page":1,"lineStart":2,"lineEnd":3}},{"text":"Something the parser wrote itself, not a line",\
            "provenance":{"page":1,"lineStart":2,"lineEnd":2}},{"text":"short","provenance":{"page":1,"lineStart":1,\
            "lineEnd":1}}],"ingredients":[{"text":"2 cups plain flour, sifted","provenance":{"page":1,"lineStart":1,\
            "lineEnd":1}},{"text":"2 cups plain flour, sifted","provenance":{"page":9,"lineStart":1,"lineEnd":1}}]}]}
            """
        let compact = try LineReferences.compactRecipes(json, lines: lines)
        #expect(compact.components(separatedBy: "\"textAt\"").count - 1 == 2, "\(compact)")
        #expect(compact.contains("Something the parser wrote itself") && compact.contains("\"short\""))
        #expect(!compact.contains("pale and thick"))
        let expanded = try LineReferences.expandRecipes(compact, lines: lines)
        #expect(try JSONSerialization.jsonObject(with: Data(expanded.utf8)) as? NSDictionary
            == JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary)
        // A reference to lines the text does not have is an error, never a wrong text.
        #expect(throws: LarderError.self) { try LineReferences.expandRecipes(compact, lines: Array(lines.prefix(2))) }
    }
}
