import ArgumentParser
import Foundation
import LarderCore
import LarderLLM
import LarderNative
import LarderOCR
import LarderReceipts
import Logging

/// The worker process `larder ingest`, `resume`, `retry` and `check` start (see `WorkerProcess`): it links the
/// native libraries (poppler, tesseract, libcurl) that `larder` itself does not load, runs the standard pipeline
/// over every document with work left, and exits. Not meant to be run by hand, but harmless if it is.
@main
struct LarderWorker: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "larder-worker",
        abstract: "Larder's worker process: runs the pipeline and the OCR evaluation (started by larder).",
        version: "larder-worker \(LarderInfo.version) ("
            + NativeLibraries.versions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            + ")",
        subcommands: [Work.self, EvalReceipts.self],
        defaultSubcommand: Work.self)
}

/// Runs the standard pipeline over every document with work left, then exits.
struct Work: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Process queued documents (started by larder ingest, resume, retry and check).")

    @Option(help: "Checkpoint database.")
    var db: String?

    @Option(help: "Pipeline configuration.")
    var config: String?

    @Option(help: "Documents processed at once.")
    var workers: Int?

    @Flag(name: .shortAndLong, help: "Log more detail on standard error.")
    var verbose = false

    func run() throws {
        var logger = Logger(label: "larder-worker") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = verbose ? .debug : .notice
        do {
            var configuration = try ConfigLocator.resolve(configPath: config, databasePath: db)
            if let workers { configuration.workers = workers }
            WorkerChild.exitWhenSupervisorDies()
            try WorkerChild.lockDatabase(configuration.database, logger: logger)
            let store = try SQLiteCheckpointStore(path: configuration.database)
            // A restarted worker counts what the batch already spent against the LLM token budget.
            let spent = try store.latestBatchID().map { try LLMBatchReport.tokensSpent(store: store, batchID: $0) } ?? 0
            let llmLogger = logger
            let pipeline = try Pipeline.standard(
                for: configuration, llmTokensSpent: spent, llmLog: { llmLogger.info("llm: \($0)") })
            let prompts = try? StructureStage.promptVersions
            guard pipeline.manifest == PipelineManifest.standard(for: configuration), prompts == StageDeclaration.llmPrompts
            else {
                // A build defect, not a crash to retry: `larder` registers documents from the manifest.
                throw LarderError(
                    .configuration,
                    "this build's stages disagree with PipelineManifest.standard (prompts: \(prompts ?? "unreadable") vs \(StageDeclaration.llmPrompts))",
                    hint: "update PipelineManifest.swift to match Pipeline+Standard.swift and the prompt library, then rebuild")
            }
            let queue = try WorkQueue(
                store: store, pipeline: pipeline, config: configuration, logger: logger,
                diagnostics: .fromEnvironment())
            let sources = WorkerChild.handleSignals(stopping: queue, logger: logger)
            defer { sources.forEach { $0.cancel() } }
            let counters = try queue.run(progress: ProgressReporter(interval: configuration.progressIntervalSeconds))
            logger.debug("processed \(counters.documents) documents, ran \(counters.stagesRun) stages")
        } catch let error as LarderError {
            FileHandle.standardError.write(Data("larder-worker: error: \(error)\n".utf8))
            throw ExitCode(error.kind == .configuration ? 2 : error.kind == .database ? 3 : 1)
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

    @Option(help: "Tesseract models, e.g. eng+deu.")
    var languages: String?

    @Option(help: "Photo reading: never, whenUnsure (default) or always.")
    var photoPass: String?

    @Option(help: "Cache OCR lines per image in this folder (read when present), to iterate on the parser.")
    var ocrCache: String?

    func run() throws {
        do {
            let report: ReceiptEvaluationReport
            if let cord {
                report = try CORDEvaluation.run(folder: cord, includeDetails: details, strict: strict)
            } else {
                guard let folder else { throw ValidationError("give a folder of receipt images, or --cord DIR") }
                var options = ReceiptEvaluation.Options()
                options.labelsFolder = labels
                options.includeDetails = details
                options.ocrCache = ocrCache
                options.strict = strict
                if let languages { options.languages = languages }
                if let photoPass {
                    guard let pass = OCRPreprocessing.PhotoPass(rawValue: photoPass) else {
                        throw ValidationError("--photo-pass takes never, whenUnsure or always")
                    }
                    options.preprocessing.photoPass = pass
                }
                report = try ReceiptEvaluation.run(folder: folder, options: options)
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = json ? [.sortedKeys] : [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } catch let error as ReceiptError {
            FileHandle.standardError.write(Data("larder: error: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
