import Foundation
import LarderTestSupport
import Testing

@testable import LarderCore
import LarderLLM
@testable import LarderStages

/// The checkpoint store and the work queue on a real SQLite file.
@Suite("checkpoint store and work queue")
struct StoreAndQueueTests {
    func file(_ path: String, _ sha: String) -> RegisteredFile {
        RegisteredFile(path: path, sha256: sha, byteCount: 1, modifiedAt: 0)
    }

    @Test func registrationByContent() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        let first = try store.beginBatch(command: "ingest", inputs: ["a"])
        let results = try store.register(
            [file("/a", "aa11"), file("/b", "bb22"), file("/a-copy", "aa11")], batchID: first, stages: ["x", "y"])
        #expect(results[0] == .new(documentID: 1))
        #expect(results[1] == .new(documentID: 2))
        #expect(results[2] == .duplicate(documentID: 1, of: "/a"))
        let second = try store.beginBatch(command: "ingest", inputs: ["a"])
        #expect(try store.register([file("/a", "aa11")], batchID: second, stages: ["x", "y"]) == [.known(documentID: 1)])
        #expect(try store.paths(of: 1) == ["/a", "/a-copy"])
        #expect(try store.stages(of: 1).map(\.status) == [.pending, .pending])
        #expect(try store.document(matching: "aa11")?.id == 1)
        #expect(try store.document(matching: "/a-copy")?.id == 1)
        #expect(try store.document(matching: "2")?.path == "/b")
    }

    @Test func manyOpenersOfANewDatabaseAllSucceed() throws {
        // `larder ingest` creating the database while `larder status` opens it: both must work.
        for round in 0..<5 {
            let folder = try TestSupport.temporaryFolder()
            defer { TestSupport.cleanUp(folder) }
            let failures = Locked<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                do { _ = try SQLiteCheckpointStore(path: folder + "/new.sqlite").stageCounts() } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty, "round \(round): \(failures.withLock { $0 })")
        }
    }

    @Test func unchangedFilesAreNotHashedAgain() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        let path = folder + "/a.txt"
        try "2 cups flour".write(toFile: path, atomically: true, encoding: .utf8)
        let intake = Intake(store: store, manifest: .standard(for: PipelineConfig()), config: PipelineConfig())
        #expect(try intake.ingest(paths: [path], batchID: try store.beginBatch(command: "i", inputs: [])).new == 1)
        let identity = try #require(FileIdentity(statingFileAt: path))
        #expect(try store.knownHashes(of: [identity]) == [path: SHA256.hex(Data("2 cups flour".utf8))])
        // Same size, new content and mtime: not trusted, hashed again, a new document.
        try "3 cups flour".write(toFile: path, atomically: true, encoding: .utf8)
        let changed = try #require(FileIdentity(statingFileAt: path))
        #expect(try store.knownHashes(of: [changed]).isEmpty)
        #expect(try intake.ingest(paths: [path], batchID: try store.beginBatch(command: "i", inputs: [])).new == 1)
    }

    @Test func outputAndDoneCommitTogetherAndResetLaterStages() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        let batch = try store.beginBatch(command: "ingest", inputs: [])
        _ = try store.register([file("/a", "aa")], batchID: batch, stages: ["x", "y"])
        #expect(try store.markRunning(documentID: 1, stage: "y", version: "y@1", at: 1) == 1)
        try store.complete(
            documentID: 1, stage: "y", version: "y@1", output: "{}", violations: [], isResult: false, startedAt: 1,
            finishedAt: 2, laterStages: [])
        #expect(try store.markRunning(documentID: 1, stage: "x", version: "x@1", at: 3) == 1)
        #expect(try store.markRunning(documentID: 1, stage: "x", version: "x@1", at: 4) == 2)
        #expect(try store.markRunning(documentID: 1, stage: "x", version: "x@2", at: 5) == 1)  // new version: new count
        try store.complete(
            documentID: 1, stage: "x", version: "x@2", output: "{\"a\":1}", violations: [], isResult: false,
            startedAt: 5, finishedAt: 6, laterStages: ["y"])
        let rows = try store.stages(of: 1).sorted { $0.stage < $1.stage }
        #expect(rows[0].status == .done)
        #expect(rows[0].output == "{\"a\":1}")
        #expect(rows[0].durationMilliseconds == 1000)
        #expect(rows[1].status == .pending)
        #expect(rows[1].output == nil)
    }

    @Test func interruptedStagesRunAgainThenQuarantine() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        let batch = try store.beginBatch(command: "ingest", inputs: [])
        _ = try store.register([file("/a", "aa"), file("/b", "bb")], batchID: batch, stages: ["x"])
        // A process marked both running and died: 1 attempt each.
        _ = try store.markRunning(documentID: 1, stage: "x", version: "x@1", at: 1)
        _ = try store.markRunning(documentID: 2, stage: "x", version: "x@1", at: 1)
        #expect(try store.recoverInterruptedStages(maxAttempts: 2) == [1, 2])
        // Document 1 crashes the process again: second attempt, and that is the limit.
        _ = try store.markRunning(documentID: 1, stage: "x", version: "x@1", at: 2)
        #expect(try store.recoverInterruptedStages(maxAttempts: 2) == [])
        let problems = try store.problems(batchID: batch, limit: 10)
        #expect(problems.count == 1)
        #expect(problems.first?.state == .quarantined)
        #expect(problems.first?.error?.kind == .crashed)
        #expect(problems.first?.error?.message.contains("died 2 times") == true)
        #expect(try store.requeueProblems() == 1)
        #expect(try store.documentCounts()[.pending] == 2)
    }

    /// A stage whose behaviour a test sets: counts its runs, may fail.
    struct ProbeStage: Stage {
        let name: String
        let version: String
        let runs: Locked<[String: Int]>
        var failure: LarderError? = nil
        func run(_ input: StageInput) throws -> StageOutput {
            runs.withLock { $0[name, default: 0] += 1 }
            if let failure { throw failure }
            return try StageOutput(["stage": name, "doc": input.document.path, "previous": input.earlierOutputs.keys.sorted().joined()])
        }
    }

    func makeDocuments(_ count: Int, in folder: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return try (0..<count).map { index in
            let path = folder + "/doc\(index).txt"
            try "Recipe \(index)\nIngredients\n\(index) cups flour\n".write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
    }

    @Test func versionChangeRerunsThatStageAndLaterOnly() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        let runs = Locked<[String: Int]>([:])
        func pipeline(_ versions: [String]) -> Pipeline {
            Pipeline(stages: zip(["a", "b", "c"], versions).map { ProbeStage(name: $0, version: $1, runs: runs) })
        }
        var config = PipelineConfig()
        config.workers = 2
        let first = pipeline(["a@1", "b@1", "c@1"])
        _ = try makeDocuments(5, in: folder + "/in")
        _ = try Intake(store: store, manifest: first.manifest, config: config).ingest(
            paths: [folder + "/in"],
            batchID: try store.beginBatch(command: "ingest", inputs: []))
        try WorkQueue(store: store, pipeline: first, config: config, logger: TestSupport.logger).run()
        #expect(runs.withLock { $0 } == ["a": 5, "b": 5, "c": 5])
        // Nothing changed: nothing runs.
        try WorkQueue(store: store, pipeline: first, config: config, logger: TestSupport.logger).run()
        #expect(runs.withLock { $0 } == ["a": 5, "b": 5, "c": 5])
        // b's version changes: b and c rerun for every document, a does not.
        try WorkQueue(store: store, pipeline: pipeline(["a@1", "b@2", "c@1"]), config: config, logger: TestSupport.logger).run()
        #expect(runs.withLock { $0 } == ["a": 5, "b": 10, "c": 10])
        #expect(try store.documentCounts()[.done] == 5)
    }

    @Test func transientFailuresRetryThenQuarantineAndBadInputFailsAtOnce() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        let runs = Locked<[String: Int]>([:])
        var config = PipelineConfig()
        config.maxAttempts = 3
        let flaky = Pipeline(stages: [
            ProbeStage(name: "a", version: "a@1", runs: runs, failure: LarderError(.transient, "flaky disk"))
        ])
        _ = try makeDocuments(1, in: folder + "/in")
        _ = try Intake(store: store, manifest: flaky.manifest, config: config).ingest(
            paths: [folder + "/in"], batchID: try store.beginBatch(command: "ingest", inputs: []))
        let counters = try WorkQueue(store: store, pipeline: flaky, config: config, logger: TestSupport.logger).run()
        #expect(runs.withLock { $0["a"] } == 3)
        #expect(counters.quarantined == 1)
        let problem = try #require(try store.problems(batchID: nil, limit: 5).first)
        #expect(problem.state == .quarantined)
        #expect(problem.attempts == 3)
        #expect(problem.error?.message.contains("flaky disk") == true)

        let bad = Pipeline(stages: [
            ProbeStage(name: "a", version: "a@2", runs: runs, failure: LarderError(.badInput, "not a recipe"))
        ])
        _ = try store.requeueProblems()
        try WorkQueue(store: store, pipeline: bad, config: config, logger: TestSupport.logger).run()
        #expect(runs.withLock { $0["a"] } == 4)
        #expect(try store.problems(batchID: nil, limit: 5).first?.state == .failed)
    }

    @Test(.integration) func samplesGoThroughTheRealPipeline() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        let config = PipelineConfig()
        let report = try Intake(store: store, manifest: .standard(for: config), config: config).ingest(
            paths: [TestSupport.repoPath("samples")], batchID: try store.beginBatch(command: "ingest", inputs: []))
        #expect(report.errors.isEmpty)
        let counters = try WorkQueue(store: store, pipeline: try .standard(for: config), config: config, logger: TestSupport.logger).run()
        #expect(counters.failed == 0 && counters.quarantined == 0)
        #expect(counters.done == report.new)
        var routes: [String: Route] = [:]
        try store.forEachDocument(in: .done) { document in
            let route = try #require(try store.stages(of: document.id).first { $0.stage == "route" }?.output)
            routes[URL(fileURLWithPath: document.path).lastPathComponent] =
                try JSONDecoder().decode(RouteOutput.self, from: Data(route.utf8)).route
        }
        #expect(routes["two-column.pdf"] == .recipe)
        #expect(routes["tomato-soup.txt"] == .recipe)
        #expect(routes["lemon-drizzle-cake.md"] == .recipe)
        #expect(routes.filter { $0.key.hasSuffix(".png") || $0.key.hasSuffix(".jpg") || $0.key.hasSuffix(".tiff") }
            .allSatisfy { $0.value == .receipt })
    }
}

@Suite("pipeline wiring")
struct PipelineWiringTests {
    @Test func standardPipelineMatchesItsManifest() throws {
        // `larder` registers documents from the manifest; `larder-worker` runs Pipeline.standard(for:).
        let config = PipelineConfig()
        #expect(try Pipeline.standard(for: config).manifest == PipelineManifest.standard(for: config))
        #expect(
            PipelineManifest.standard(for: config).stageNames
                == ["detect", "extract", "ocr", "route", "recipe", "receipt", "llm", "result"])
        #expect(try Pipeline.standard(for: config).stages.last?.outputSchema == "result.schema.json")
        // The manifest's prompt versions and schema hashes are the prompt library's.
        #expect(try LLMStage.promptVersions == StageDeclaration.llmPrompts)
    }

    @Test func theLLMStageVersionFollowsItsSettings() throws {
        var config = PipelineConfig()
        let off = StageDeclaration.llm(config.llm).version
        config.llm.mode = .always
        config.llm.providers = [ProviderConfig(name: "local", kind: .openAICompatible, baseURL: "http://127.0.0.1:1/v1", model: "m")]
        let always = StageDeclaration.llm(config.llm).version
        config.llm.providers[0].model = "other"
        let otherModel = StageDeclaration.llm(config.llm).version
        config.llm.batchTokenBudget = 1000
        let budget = StageDeclaration.llm(config.llm).version
        #expect(Set([off, always, otherModel, budget]).count == 4)
        #expect(off.hasSuffix(StageDeclaration.llmPrompts) && always.hasSuffix(StageDeclaration.llmPrompts))
        // Prices, timeouts and concurrency do not change what the stage outputs.
        config.llm.providers[0].pricePerInputToken = 0.5
        config.llm.providers[0].timeoutSeconds = 5
        #expect(StageDeclaration.llm(config.llm).version == budget)
    }

    @Test(.integration) func workerLoadsTheNativeLibrariesAndLarderDoesNot() throws {
        let worker = URL(fileURLWithPath: try TestSupport.larderExecutable).deletingLastPathComponent().path + "/larder-worker"
        let version = try TestSupport.finish(TestSupport.start(["--version"], executable: worker))
        #expect(version.status == 0)
        for library in ["poppler-glib 22", "tesseract 5", "leptonica", "libcurl/7"] {
            #expect(version.stdout.contains(library), "\(version.stdout)")
        }
        let libraries = try TestSupport.shell("ldd \(try TestSupport.larderExecutable)").stdout
        #expect(!libraries.contains("poppler") && !libraries.contains("tesseract") && !libraries.contains("libcurl"))
    }
}
