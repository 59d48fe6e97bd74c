import ArgumentParser
import Foundation
import LarderCore
import LarderLLM
import LarderEvaluation
import LarderStages
import LarderOCR
import LarderPages
import LarderPostgres
import LarderReceipts
import LarderRecipes
import Logging

/// The worker process `larder ingest`, `resume`, `retry` and `check` start (see `WorkerProcess`): it links the
/// native libraries (poppler, tesseract, libcurl) that `larder` itself does not load, runs the standard pipeline
/// over every document with work left, and exits. Not meant to be run by hand, but harmless if it is.
@main
struct LarderWorker: ParsableCommand {
    /// Usage errors exit 2, as `larder`'s do (see `Larder.main`).
    static func main() {
        // Past `ulimit -f` a write fails (EFBIG) with a message naming the file, instead of killing the process.
        SafeFile.ignoreFileSizeSignal()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }

    static let configuration = CommandConfiguration(
        commandName: "larder-worker",
        abstract: "Larder's worker process: runs the pipeline and the OCR evaluation (started by larder).",
        version: "larder-worker \(LarderInfo.version) ("
            + NativeLibraries.versions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            + ")",
        subcommands: [
            Work.self, EvalReceipts.self, EvalPages.self, EvalPDFs.self, EvalRecipeFiles.self, EvalFormats.self, Layout.self,
            ReceiptModelCommand.self, BenchQueue.self,
        ],
        defaultSubcommand: Work.self)
}

/// Runs the standard pipeline over every document with work left, then exits.
struct Work: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "work",
        abstract: "Process queued documents (started by larder ingest, resume, retry and check).")

    @Option(help: "Checkpoint database.")
    var db: String?

    @Option(help: "Pipeline configuration.")
    var config: String?

    @Option(help: "Documents processed at once.")
    var workers: Int?

    @Option(help: "The batch the documents are processed for (its summary counts them).")
    var batch: Int64?

    @Flag(name: .shortAndLong, help: "Log more detail on standard error.")
    var verbose = false

    func run() throws {
        WorkTrace.shared?.mark("main")
        defer {
            WorkTrace.shared?.mark("end")
            WorkTrace.shared?.flush()
        }
        var logger = Logger(label: "larder-worker") { TerminalLogHandler(label: $0) }
        logger.logLevel = verbose ? .debug : .notice
        do {
            try WorkerOptions.validate(workers: workers)
            var configuration = try ConfigLocator.resolve(configPath: config, databasePath: db)
            if let workers { configuration.workers = workers }
            WorkerChild.exitWhenSupervisorDies()
            try WorkerChild.limitMemory(configuration.limits.workerMemory)
            let store = try Self.openStore(configuration, logger: logger)
            defer { (store as? PostgresCheckpointStore)?.stopClaiming() }
            // A restarted worker counts what the batch already spent against the LLM token budget.
            let spent = try store.latestBatchID().map { try LLMBatchReport.tokensSpent(store: store, batchID: $0) } ?? 0
            let llmLogger = logger
            let pipeline = try Pipeline.standard(
                for: configuration, llmTokensSpent: spent, llmLog: { llmLogger.info("llm: \($0)") })
            WorkTrace.shared?.mark("pipeline")
            // `larder` registers documents from the manifest, and derives the `llm` stage's version from the embedded
            // prompt files without parsing them as the stage does: a prompt that does not parse is a build defect
            // (not a crash to retry), caught here before any document runs.
            let prompts = Result { try LLMStage.promptVersions }
            guard pipeline.manifest == PipelineManifest.standard(for: configuration),
                (try? prompts.get()) == StageDeclaration.llmPrompts
            else {
                let detail: String
                switch prompts {
                case .success(let versions): detail = "prompts \(versions) vs \(StageDeclaration.llmPrompts)"
                case .failure(let error): detail = "a prompt does not load: \(error)"
                }
                throw LarderError(
                    .configuration, "this build's stages or prompts disagree with PipelineManifest.standard (\(detail))",
                    hint: "fix the prompt or schema in Sources/LarderLLM/{Prompts,Schemas}, run scripts/embed-files.py, rebuild")
            }
            let queue = try WorkQueue(
                store: store, pipeline: pipeline, config: configuration, logger: logger,
                diagnostics: .fromEnvironment(), batchID: batch,
                overrunAction: { _exit(WorkQueue.overrunExitStatus) })
            let sources = WorkerChild.handleSignals(stopping: queue, logger: logger)
            defer { sources.forEach { $0.cancel() } }
            // Started early by `larder ingest`: warm the stages up while it registers the files, then wait for it.
            guard WorkerChild.waitForStartGate(warmUp: { WarmUp.run(config: configuration) }) else { return }
            // WAL checkpoints on a thread of their own, not inside the workers' commits (their fdatasyncs held the
            // write lock); if the extra connection cannot be opened, SQLite checkpoints in the commits as before.
            let stopCheckpoints = try? (store as? SQLiteCheckpointStore)?.checkpointInBackground()
            defer { stopCheckpoints?() }
            let counters = try queue.run(progress: ProgressReporter(interval: configuration.progressIntervalSeconds))
            logger.debug("processed \(counters.documents) documents, ran \(counters.stagesRun) stages")
            let stoppedBy = WorkerChild.stopSignal.withLock { $0 }
            if stoppedBy != 0 { throw ExitCode(128 + stoppedBy) }
        } catch let error as LarderError {
            FileHandle.standardError.write(Data((TerminalText.safe("larder-worker: error: \(error)") + "\n").utf8))
            throw ExitCode(error.kind == .configuration ? 2 : error.kind == .database ? 3 : 1)
        }
    }
}

extension Work {
    /// The store: an SQLite file held by this worker alone (an `flock`), or a PostgreSQL queue that any number of
    /// workers on any hosts share, each claiming documents under leases with fencing tokens.
    static func openStore(_ configuration: PipelineConfig, logger: Logger) throws -> any CheckpointStore {
        switch try configuration.storeLocation {
        case .sqlite(let path):
            try WorkerChild.lockDatabase(path, logger: logger)
            return try SQLiteCheckpointStore(path: path)
        case .postgres(let location):
            let store = try PostgresCheckpointStore(location: location)
            let manifest = PipelineManifest.standard(for: configuration)
            try store.startClaiming(
                leaseTTL: configuration.leaseTTL, maxAttempts: configuration.maxAttempts,
                pipelineVersion: manifest.version, stages: manifest.stages)
            return store
        }
    }
}

/// `larder eval receipts` runs here, where tesseract is linked.
struct EvalReceipts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval-receipts", abstract: "Receipt accuracy (run through `larder eval receipts`).")

    @Argument(help: "A folder of receipt images with labels, or the SROIE folder.")
    var folder: String?

    @Option(help: "Labels folder when the labels are not beside the images.")
    var labels: String?

    @Option(help: "Score the line-item parser alone on CORD annotations in this folder (no OCR).")
    var cord: String?

    @Flag var json = false

    @Flag var details = false

    @Flag(help: "Score names with the strict rule (exact after case and spaces) instead of the fair one.")
    var strict = false

    @Option(help: "Pipeline configuration the images are read with (eval/sroie.yml…); default: the defaults.")
    var config: String?

    @Option(help: "Keep each image's OCR output in this folder and reuse it (sets ocr.cache).")
    var ocrCache: String?

    func run() throws {
        do {
            let report: ReceiptEvaluationReport
            if let cord {
                report = try CORDEvaluation.run(folder: cord, includeDetails: details, strict: strict)
            } else {
                guard let folder else { throw ValidationError("give a folder of receipt images, or --cord DIR") }
                var options = ReceiptEvaluation.Options(config: try EvalConfig.load(config))
                options.labelsFolder = labels
                options.includeDetails = details
                options.strict = strict
                if let ocrCache { options.config.ocr.cache = ocrCache }
                report = try ReceiptEvaluation.run(folder: folder, options: options)
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = json ? [.sortedKeys] : [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } catch let error as ReceiptError {
            FileHandle.standardError.write(Data("larder: error: \(error)\n".utf8))
            throw ExitCode(1)
        } catch let error as LarderError {
            FileHandle.standardError.write(Data("larder: error: \(error)\n".utf8))
            throw ExitCode(error.kind == .configuration ? 2 : 1)
        }
    }
}

/// The configuration an evaluation reads its corpus with: `--config FILE` (the corpus's `eval/<corpus>.yml`), else
/// the defaults; named on standard error so a figure always says which settings made it.
enum EvalConfig {
    static func load(_ path: String?) throws -> PipelineConfig {
        FileHandle.standardError.write(Data("larder eval: configuration \(path ?? "defaults (no --config)")\n".utf8))
        return try path.map { try PipelineConfig.load(path: $0) } ?? PipelineConfig()
    }

    /// The standard stages under the configuration at `path`.
    static func runner(_ path: String?) throws -> DocumentRunner {
        try DocumentRunner(config: try load(path))
    }

    /// Runs an evaluation's body: a `LarderError` is printed and exits 2 (a configuration error) or 1.
    static func reportingErrors(_ body: () throws -> Void) throws {
        do { try body() } catch let error as LarderError {
            FileHandle.standardError.write(Data("larder: error: \(error)\n".utf8))
            throw ExitCode(error.kind == .configuration ? 2 : 1)
        }
    }
}

/// `larder eval formats` runs here, where the stages' native libraries are linked.
struct EvalFormats: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval-formats", abstract: "Recipe-app export samples (run through `larder eval formats`).")

    @Option(help: "The recipe-app-exports folder.")
    var data: String

    @Flag var json = false

    @Option(help: "Pipeline configuration the samples are ingested with (default: the defaults).")
    var config: String?

    func run() throws {
        try EvalConfig.reportingErrors {
            let report = try ExportEvaluation.evaluate(folder: data, runner: try EvalConfig.runner(config))
            print(json ? ExportEvaluation.json(report) : ExportEvaluation.textReport(report))
        }
    }
}

/// `larder eval pages` runs here, where libxml2 is linked.
struct EvalPages: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval-pages", abstract: "Saved recipe page accuracy (run through `larder eval pages`).")

    @Option(help: "The recipes-scraped folder (html/ and expected_json/).")
    var data: String

    @Flag var json = false

    @Flag var errors = false

    @Option(help: "Also score another reader's predictions: JSON {\"host/name\": {title, ingredients, instructions_list, yields, total_time}}.")
    var predictions: String?

    @Option(help: "The label of --predictions in the report.")
    var predictionsLabel = "other"

    @Option(help: "Pipeline configuration the pages are ingested with (default: the defaults).")
    var config: String?

    func run() throws {
        let runner: DocumentRunner
        do {
            runner = try EvalConfig.runner(config)
        } catch let error as LarderError {
            FileHandle.standardError.write(Data("larder: error: \(error)\n".utf8))
            throw ExitCode(2)
        }
        let cases = try PageEvaluation.cases(directory: data)
        guard !cases.isEmpty else {
            FileHandle.standardError.write(Data("larder: error: no pages with expected JSON under \(data)/html\n".utf8))
            throw ExitCode(1)
        }
        let (results, seconds) = PageEvaluation.evaluate(cases, runner: runner)
        let larder = PageEvaluation.summary(results, seconds: seconds)
        var other: (PageEvaluation.Scores, [PageEvaluation.PageResult])?
        if let predictions {
            guard let data = FileManager.default.contents(atPath: predictions),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else {
                FileHandle.standardError.write(Data("larder: error: \(predictions) is not a JSON object of predictions\n".utf8))
                throw ExitCode(1)
            }
            let r = PageEvaluation.evaluate(cases, predictions: object)
            other = (PageEvaluation.summary(r, seconds: nil), r)
        }
        if json {
            if let other {
                print("{\"larder\": \(PageEvaluation.json(larder)), \"\(predictionsLabel)\": \(PageEvaluation.json(other.0))}")
            } else {
                print(PageEvaluation.json(larder))
            }
        } else {
            print(PageEvaluation.textReport(larder, label: "larder"))
            if let other { print(PageEvaluation.textReport(other.0, label: predictionsLabel)) }
        }
        if errors {
            print(PageEvaluation.errorReport(results))
            if let other { print("\n# \(predictionsLabel)\n" + PageEvaluation.errorReport(other.1)) }
        }
    }
}

/// `larder eval pdfs` runs here, where poppler is linked.
struct EvalPDFs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval-pdfs", abstract: "Recipe-PDF accuracy (run through `larder eval pdfs`).")

    @Argument(help: "The folder of PDFs with <name>.truth.json files.")
    var folder: String

    @Flag var json = false

    @Flag var errors = false

    @Flag var leaveOneSourceOut = false

    @Option(help: "Pipeline configuration the PDFs are ingested with (default: the defaults).")
    var config: String?

    func run() throws {
        try EvalConfig.reportingErrors {
            let report = try PDFRecipeEvaluation.run(folder: folder, runner: try EvalConfig.runner(config))
            if leaveOneSourceOut {
                let folds = PDFEvaluation.leaveOneSourceOut(report)
                print(json ? PDFEvaluation.foldsJSON(folds) : PDFEvaluation.foldsText(folds))
                return
            }
            print(json ? PDFEvaluation.json(report) : PDFEvaluation.textReport(report))
            if errors { print(PDFEvaluation.errorReport(report)) }
        }
    }
}

/// `larder eval recipes` runs here: each Markdown recipe file, and each scraped recipe rendered as pasted text (written
/// to a temporary `.txt` file), is read through the standard stages (``DocumentRunner``) and its exported recipes
/// scored.
struct EvalRecipeFiles: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval-recipes", abstract: "Recipe text accuracy (run through `larder eval recipes`).")

    @Option(help: "The shared data folder (recipes-markdown, recipes-scraped).")
    var data: String

    @Flag var json = false

    @Flag var allLanguages = false

    @Option(help: "Pipeline configuration the files are ingested with (default: the defaults).")
    var config: String?

    func run() throws {
        try EvalConfig.reportingErrors {
            let runner = try EvalConfig.runner(config)
            let markdown = data + "/recipes-markdown/content"
            let cases = try RecipeEvaluation.markdownCases(directory: markdown)
                + RecipeEvaluation.scrapedCases(directory: data + "/recipes-scraped", englishOnly: !allLanguages)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("larder-eval-recipes-\(getpid())").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            var written = 0
            let report = RecipeEvaluation.evaluate(cases) { c in
                var path = markdown + "/" + c.name
                if c.corpus != "markdown" {
                    // A recipe pasted as text: the rendered lines, saved as the user would save them.
                    written += 1
                    path = folder + "/\(written).txt"
                    let text = c.source.lines.map(\.text).joined(separator: "\n") + "\n"
                    guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else { return [] }
                }
                return runner.run(path: path).result?.recipes ?? []
            }
            print(json ? RecipeEvaluation.json(report) : RecipeEvaluation.textReport(report))
            if report.parseSeconds > 0 {
                FileHandle.standardError.write(Data(String(
                    format: "speed: %.0f recipes/s through every stage\n", Double(report.overall.count) / report.parseSeconds).utf8))
            }
        }
    }
}

/// `larder show DOC --layout` on a file not ingested yet: the layout `extract` reads from a PDF, as indented text.
struct Layout: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout", abstract: "Print a PDF's blocks in reading order as indented text.")

    @Argument(help: "A PDF.")
    var file: String

    @Flag(help: "Also print the recipes read from the layout: title, ingredient lines (with their region) and steps.")
    var recipes = false

    func run() throws {
        do {
            let extracted = try ExtractStage.extractPDF(path: file, maxPages: PipelineConfig().limits.maxPDFPages)
            print(LayoutText.render(extracted), terminator: "")
            if recipes {
                print(PDFRecipeEvaluation.describe(path: file, runner: try DocumentRunner(config: PipelineConfig())), terminator: "")
            }
        } catch let error as LarderError {
            FileHandle.standardError.write(Data("larder: error: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
