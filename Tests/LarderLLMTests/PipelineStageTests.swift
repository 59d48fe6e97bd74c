import Foundation
import LarderCore
import LarderJSON
import LarderStages
import Logging
import LarderTestSupport
import Testing

@testable import LarderLLM

/// The `llm` stage inside the real pipeline: real files, real SQLite (checkpoints and answer cache), real HTTP
/// over loopback to the fault server, which plays the providers. What these check: which documents each mode
/// sends, the merge into `result` with provenance, falling down the chain, the cost report, the budget, the
/// cache on a re-run, failures that fail one document and not the batch, and the planted API key.
@Suite("llm stage in the pipeline", .serialized, .integration)
struct PipelineStageTests {
    static let recipeText = Fixtures.recipeLines.lines.joined(separator: "\n") + "\n"
    static let receiptText = """
        FRESH MART
        12 HIGH ST
        01/03/2025 10:42
        MILK 2% GAL 3.49
        SOURDOUGH BREAD 4.29
        BANANAS 1.99
        SUBTOTAL 9.77
        TOTAL 9.77
        CASH 20.00
        CHANGE 10.23

        """
    static let receiptAnswer: JSONValue = [
        "store": "FRESH MART", "date": "2025-03-01", "total": 9.77,
        "items": [
            ["line": "L4", "description": "MILK 2% GAL", "price": 3.49],
            ["line": "L5", "description": "SOURDOUGH BREAD", "price": 4.29],
            ["line": "L6", "description": "BANANAS", "price": 1.99],
        ],
    ]

    /// A batch: the files, its folder, and what the pipeline made of them.
    struct Batch {
        var folder: URL
        var store: SQLiteCheckpointStore
        var batchID: Int64
        var counters: WorkQueue.Counters
        var log: LogCapture

        func result(_ name: String) throws -> DocumentResult? {
            var found: DocumentResult?
            for state in [DocumentState.done, .failed] {
                try store.forEachDocument(in: state) { document in
                    guard URL(fileURLWithPath: document.path).lastPathComponent == name,
                        let json = try store.resultVersions(of: document.id).last?.json
                    else { return }
                    found = try JSONDecoder().decode(DocumentResult.self, from: Data(json.utf8))
                }
            }
            return found
        }

        func isValid(_ name: String) throws -> Bool {
            var valid = false
            try store.forEachDocument(in: .done) { document in
                if URL(fileURLWithPath: document.path).lastPathComponent == name {
                    valid = try store.resultVersions(of: document.id).last?.isValid == true
                }
            }
            return valid
        }

        var report: LLMBatchReport? { get throws { try LLMBatchReport.collect(store: store, batchID: batchID) } }
    }

    static func config(
        _ folder: URL, mode: LLMMode = .always, providers: [ProviderConfig], budget: Int? = nil, threshold: Double = 0.6,
        maxReasks: Int = 1
    ) -> PipelineConfig {
        var config = PipelineConfig()
        config.database = folder.appendingPathComponent("larder.sqlite").path
        config.workers = 1
        config.llm = LLMConfig(
            mode: mode, confidenceThreshold: threshold, providers: providers, maxReasks: maxReasks, batchTokenBudget: budget,
            retry: RetryPolicy(attemptsPerProvider: 2, baseDelaySeconds: 0.01, maxDelaySeconds: 0.05, maxRetryAfterSeconds: 1))
        return config
    }

    /// Writes `files` into a fresh folder and runs the standard pipeline over them.
    static func run(_ files: [String: String], in existing: URL? = nil, config make: (URL) -> PipelineConfig) throws -> Batch {
        let folder = try existing ?? Fixtures.temporaryDirectory()
        let input = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: input.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let config = make(folder)
        let store = try SQLiteCheckpointStore(path: config.database)
        let batchID = try store.beginBatch(command: "ingest", inputs: [input.path])
        _ = try Intake(store: store, manifest: .standard(for: config), config: config).ingest(paths: [input.path], batchID: batchID)
        let log = LogCapture()
        var logger = Logger(label: "test") { _ in CapturingLogHandler(capture: log) }
        logger.logLevel = .debug
        let pipeline = try Pipeline.standard(for: config, llmLog: log.handler)
        let counters = try WorkQueue(store: store, pipeline: pipeline, config: config, logger: logger).run()
        return Batch(folder: folder, store: store, batchID: batchID, counters: counters, log: log)
    }

    @Test func offSendsNothingAndKeepsTheParse() throws {
        let scenario = FaultServer.scenario("off")
        try FaultServer.shared.script(scenario, [Fixtures.ok()])
        let batch = try Self.run(["pancakes.txt": Self.recipeText]) {
            var config = Self.config($0, providers: [Fixtures.provider("first", FaultServer.shared.baseURL(scenario))])
            config.llm.mode = .off
            return config
        }
        #expect(batch.counters.done == 1)
        #expect(try FaultServer.shared.log(scenario).isEmpty)
        let result = try #require(try batch.result("pancakes.txt"))
        #expect(result.llm == nil)
        #expect(result.recipes.first?.title == "Lemon Pancakes")
        #expect(try batch.report == nil, "mode off makes no cost report")
        #expect(!FileManager.default.fileExists(atPath: batch.folder.appendingPathComponent("llm-cache.sqlite").path))
    }

    @Test func alwaysMergesTheAnswerWithProvenance() throws {
        let scenario = FaultServer.scenario("always")
        // The model renames an ingredient and adds an item citing a line that does not hold it.
        var ingredients = Fixtures.recipeAnswer["ingredients"]!.arrayValue!
        ingredients[0] = ["line": "L5", "text": "2 cups flour", "quantity": 2, "unit": "cups", "name": "plain flour"]
        ingredients.append(["line": "L2", "text": "1 cup caviar", "quantity": 1, "unit": "cup", "name": "caviar"])
        let answer: JSONValue = [
            "title": "Lemon Pancakes", "ingredients": .array(ingredients), "steps": Fixtures.recipeAnswer["steps"]!,
        ]
        try FaultServer.shared.script(scenario, [Fixtures.step(body: Fixtures.chat(answer.serialized(), input: 300, output: 120))])
        let batch = try Self.run(["pancakes.txt": Self.recipeText]) {
            Self.config($0, providers: [Fixtures.provider("first", FaultServer.shared.baseURL(scenario))], maxReasks: 0)
        }
        #expect(batch.counters.done == 1)
        let requests = try FaultServer.shared.log(scenario)
        #expect(requests.count == 1)
        // The recipe's lines went out keyed, as the prompt says.
        #expect(requests.first?["body"]?.stringValue?.contains(#"L5\t2 cups flour"#) == true)

        let result = try #require(try batch.result("pancakes.txt"))
        #expect(try batch.isValid("pancakes.txt"), "the merged result is valid against result.schema.json")
        let recipe = try #require(result.recipes.first)
        let names = recipe.ingredientGroups.flatMap(\.ingredients).map(\.name)
        #expect(names.contains("plain flour"), "always: the model's values win")
        #expect(!names.contains("caviar"), "an item no line holds is never invented into the output")
        #expect(recipe.ingredientGroups.flatMap(\.ingredients).first?.provenance == .init(page: 1, lineStart: 5, lineEnd: 5))
        let contribution = try #require(result.llm?.answers.first)
        #expect(contribution.provider == "first" && contribution.model == "fault-model" && contribution.prompt == "recipe-v1")
        #expect(contribution.fields["ingredients"] == "llm" && contribution.target == "recipes/0")
        #expect(contribution.rejected.count == 1 && contribution.rejected[0].contains("L2"))
        // Tokens and cost per document, summed per batch.
        let report = try #require(try batch.report)
        #expect(report.structured == 1 && report.cached == 0 && report.requests == 1)
        #expect(report.inputTokens == 300 && report.outputTokens == 120)
        #expect(abs(report.cost - (300 * 0.000001 + 120 * 0.000002)) < 1e-12)
        #expect(report.text.contains("first (fault-model): 1 answer(s)"))
    }

    @Test func fallbackSendsOnlyWhatTheParserIsUnsureOf() throws {
        let scenario = FaultServer.scenario("fallback")
        try FaultServer.shared.script(scenario, [Fixtures.step(body: Fixtures.chat(Self.receiptAnswer.serialized()))])
        // The receipt's printed total disagrees with its items, so the parser is unsure of it; the recipe is clean.
        // (No cash and change lines: from those the parser would recover the right total itself.)
        let wrongTotal = Self.receiptText.replacingOccurrences(of: "TOTAL 9.77", with: "TOTAL 12.77")
            .replacingOccurrences(of: "CASH 20.00\nCHANGE 10.23\n", with: "")
        let batch = try Self.run(["pancakes.txt": Self.recipeText, "receipt.txt": wrongTotal]) {
            Self.config($0, mode: .fallback, providers: [Fixtures.provider("first", FaultServer.shared.baseURL(scenario))])
        }
        #expect(batch.counters.done == 2)
        let requests = try FaultServer.shared.log(scenario)
        #expect(requests.count == 1, "only the receipt goes to the model")
        #expect(requests.first?["body"]?.stringValue?.contains("FRESH MART") == true)
        #expect(try batch.result("pancakes.txt")?.llm == nil)
        let receipt = try #require(try batch.result("receipt.txt"))
        #expect(try batch.isValid("receipt.txt"))
        let contribution = try #require(receipt.llm?.answers.first)
        #expect(contribution.target == "receipt" && contribution.prompt == "receipt-v1")
        // fallback: the parser's present values win (its total, 12.77, stays; the check still flags it).
        #expect(contribution.fields["total"] == "parser" && receipt.receipt?.totals.total == Decimal(string: "12.77"))
        #expect(receipt.review.reasons.contains { $0.code == .totalsMismatch })
    }

    @Test func receiptItemsFromTheModelReachThePantry() throws {
        let scenario = FaultServer.scenario("receipt-items")
        var items = Self.receiptAnswer["items"]!.arrayValue!
        items.append(["line": "L7", "description": "CAVIAR", "price": 99.0])  // L7 is the subtotal line: not grounded
        let answer: JSONValue = ["store": "FRESH MART", "date": "2025-03-01", "total": 9.77, "items": .array(items)]
        try FaultServer.shared.script(scenario, [Fixtures.step(body: Fixtures.chat(answer.serialized()))])
        // Prices printed before the descriptions: the parser finds no items (so its totals do not add up) and the
        // receipt goes to the model in fallback mode; the parser's store and total stay, the model fills the items.
        let messy = Self.receiptText.replacingOccurrences(of: "MILK 2% GAL 3.49", with: "3.49 MILK 2% GAL")
            .replacingOccurrences(of: "SOURDOUGH BREAD 4.29", with: "4.29 SOURDOUGH BREAD")
            .replacingOccurrences(of: "BANANAS 1.99", with: "1.99 BANANAS")
        let batch = try Self.run(["receipt.txt": messy]) {
            Self.config($0, mode: .fallback, providers: [Fixtures.provider("first", FaultServer.shared.baseURL(scenario))], maxReasks: 0)
        }
        #expect(batch.counters.done == 1)
        let result = try #require(try batch.result("receipt.txt"))
        #expect(try batch.isValid("receipt.txt"))
        let contribution = try #require(result.llm?.answers.first)
        #expect(contribution.fields["items"] == "llm" && contribution.fields["store"] == "parser")
        #expect(result.receipt?.items.map(\.description) == ["MILK 2% GAL", "SOURDOUGH BREAD", "BANANAS"])
        #expect(result.receipt?.items.map(\.line) == [4, 5, 6])
        #expect(contribution.rejected.count == 1 && contribution.rejected[0].contains("L7"))
        #expect(result.receipt?.check.addsUp == true, "the model's items add up to the printed total")
        #expect(result.pantry.map(\.source.line) == [4, 5, 6])
        #expect(result.pantry.allSatisfy { $0.evidence.contains("LLM stage") && $0.purchaseDate == result.receipt?.date })
        #expect(result.pantry.contains { $0.ingredient.contains("milk") })
    }

    @Test func fallsDownTheChainAndARerunCostsNothing() throws {
        let broken = FaultServer.scenario("broken")
        let working = FaultServer.scenario("working")
        try FaultServer.shared.script(broken, [Fixtures.step(status: 500, body: ["error": ["message": "overloaded"]])])
        try FaultServer.shared.script(working, [Fixtures.ok()])
        let providers = [
            Fixtures.provider("first", FaultServer.shared.baseURL(broken)),
            Fixtures.provider("second", FaultServer.shared.baseURL(working)),
        ]
        let batch = try Self.run(["pancakes.txt": Self.recipeText]) { Self.config($0, providers: providers) }
        #expect(batch.counters.done == 1)
        #expect(try FaultServer.shared.log(broken).count == 2, "attempts_per_provider: 2, then the next provider")
        #expect(try FaultServer.shared.log(working).count == 1)
        #expect(try batch.result("pancakes.txt")?.llm?.answers.first?.provider == "second")

        // The same document in a fresh database, with the same answer cache: no request, no cost.
        let again = try Self.run(["pancakes.txt": Self.recipeText]) { folder in
            var config = Self.config(folder, providers: providers)
            config.llm.cachePath = batch.folder.appendingPathComponent("llm-cache.sqlite").path
            return config
        }
        #expect(again.counters.done == 1)
        #expect(try FaultServer.shared.log(working).count == 1 && FaultServer.shared.log(broken).count == 2)
        let report = try #require(try again.report)
        #expect(report.structured == 1 && report.cached == 1 && report.requests == 0 && report.cost == 0)
        #expect(try again.result("pancakes.txt")?.llm?.answers.first?.cached == true)
    }

    @Test func theBudgetStopsSpendingCleanly() throws {
        let scenario = FaultServer.scenario("budget")
        try FaultServer.shared.script(scenario, [Fixtures.step(body: Fixtures.chat(Fixtures.recipeAnswer.serialized(), input: 400, output: 200))])
        let files = (1...3).reduce(into: [String: String]()) { files, n in
            files["pancakes-\(n).txt"] = Self.recipeText + "\nBatch \(n).\n"
        }
        let batch = try Self.run(files) {
            Self.config($0, providers: [Fixtures.provider("first", FaultServer.shared.baseURL(scenario))], budget: 500)
        }
        #expect(batch.counters.done == 3, "the budget never fails a document")
        #expect(try FaultServer.shared.log(scenario).count == 1, "one answer spends the 500-token budget")
        let report = try #require(try batch.report)
        #expect(report.structured == 1 && report.skippedForBudget == 2)
        #expect(report.text.contains("token budget reached: 2 document(s)"))
        let skipped = try files.keys.compactMap { try batch.result($0) }.filter { $0.llm == nil }
        #expect(skipped.count == 2)
        #expect(skipped.allSatisfy { $0.warnings.contains { $0.contains("token budget") } && !$0.recipes.isEmpty })
    }

    @Test func aFailingProviderFailsTheDocumentNotTheBatch() throws {
        let scenario = FaultServer.scenario("garbage")
        try FaultServer.shared.script(scenario, [Fixtures.step(body: Fixtures.chat("I cannot help with that."))])
        let batch = try Self.run(["pancakes.txt": Self.recipeText, "letter.txt": "Dear Sam,\nThanks for dinner.\n"]) {
            Self.config($0, providers: [Fixtures.provider("first", FaultServer.shared.baseURL(scenario))], maxReasks: 1)
        }
        #expect(batch.counters.failed == 1 && batch.counters.done == 1, "the letter (nothing to structure) still finishes")
        let problem = try #require(try batch.store.problems(batchID: batch.batchID, limit: 10).first)
        #expect(problem.stage == "llm")
        #expect(problem.error?.message.contains("LLM structuring failed") == true)
        #expect(problem.error?.hint?.contains("larder retry") == true)
        #expect(try batch.report?.failed == 1)
    }

    @Test func aPlantedKeyNeverReachesAnythingLarderWrites() throws {
        let variable = "LARDER_PIPELINE_TEST_KEY_\(UUID().uuidString.prefix(8))"
        let key = "sk-planted-\(UUID().uuidString)"
        setenv(variable, key, 1)
        defer { unsetenv(variable) }
        let leaky = FaultServer.scenario("leaky")
        let working = FaultServer.scenario("keyed")
        // The first provider answers 401 with the request's headers (the key included) in its error body.
        try FaultServer.shared.script(leaky, [["status": 401, "echo_headers": true]])
        try FaultServer.shared.script(working, [Fixtures.ok()])
        let batch = try Self.run(["pancakes.txt": Self.recipeText]) {
            Self.config(
                $0,
                providers: [
                    Fixtures.provider("leaky", FaultServer.shared.baseURL(leaky), keyEnv: variable),
                    Fixtures.provider("keyed", FaultServer.shared.baseURL(working), keyEnv: variable),
                ])
        }
        #expect(batch.counters.done == 1)
        // The key did go out, in the header the provider expects …
        let sent = try FaultServer.shared.log(working).first?["headers"]?["Authorization"]?.stringValue
        #expect(sent == "Bearer \(key)")
        // … and nothing Larder wrote holds it: the database (with its WAL), the answer cache, the exports, the logs.
        _ = try Exporter(store: batch.store).export(to: batch.folder.appendingPathComponent("out").path)
        var checked = 0
        let files = FileManager.default.enumerator(atPath: batch.folder.path)!.compactMap { $0 as? String }
        for file in files {
            guard let data = FileManager.default.contents(atPath: batch.folder.appendingPathComponent(file).path) else { continue }
            checked += 1
            #expect(data.range(of: Data(key.utf8)) == nil, "\(file) holds the key")
        }
        #expect(checked >= 4, "database, cache, the input and the exports were searched")
        #expect(!batch.log.all.isEmpty && batch.log.all.allSatisfy { !$0.contains(key) })
        #expect(batch.log.all.contains { $0.contains("401") || $0.contains("unauthorized") || $0.contains("leaky") })
    }
}

/// Sends swift-log records to a ``LogCapture``.
struct CapturingLogHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .debug

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(
        level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String,
        function: String, line: UInt
    ) {
        capture.handler("\(level): \(message)")
    }
}
