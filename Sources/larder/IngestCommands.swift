import ArgumentParser
import Foundation
import LarderCore
import Logging

struct Ingest: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Register files and folders (recursively) and run the pipeline over them.",
        discussion: """
            Running the same command again after a crash or kill finishes the batch: stages already done are not \
            run again. Exits 0 when everything was ingested, 1 when some inputs failed (the summary says which \
            and why), 130 when interrupted.
            """)

    @OptionGroup var options: CommonOptions

    @Option(help: "Documents processed at once (default: `workers` in pipeline.yml; 0 = one per core).")
    var workers: Int?

    @Argument(help: "Files and folders to ingest.")
    var paths: [String]

    func run() throws {
        try reportingErrors {
            var config = try options.loadConfig()
            if let workers { config.workers = workers }
            let store = try SQLiteCheckpointStore(path: config.database)
            let logger = options.makeLogger()
            let started = Date()
            let batchID = try store.beginBatch(command: "ingest", inputs: paths)
            let intake = try Intake(store: store, manifest: .standard(for: config), config: config)
                .ingest(paths: paths, batchID: batchID)
            try runWorkersAndSummarize(
                store: store, config: config, options: options, workers: workers, batchID: batchID,
                intake: intake, started: started, logger: logger)
        }
    }
}

struct Resume: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Finish the work left in the database (after a crash, kill or Ctrl-C).")

    @OptionGroup var options: CommonOptions

    @Option(help: "Documents processed at once (default: `workers` in pipeline.yml; 0 = one per core).")
    var workers: Int?

    func run() throws {
        try reportingErrors {
            let config = try options.loadConfig()
            let store = try SQLiteCheckpointStore(path: config.database)
            let batchID = try store.latestBatchID() ?? store.beginBatch(command: "resume", inputs: [])
            try runWorkersAndSummarize(
                store: store, config: config, options: options, workers: workers, batchID: batchID, intake: nil,
                started: Date(), logger: options.makeLogger())
        }
    }
}

struct Retry: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Re-queue failed and quarantined documents and run them again.")

    @OptionGroup var options: CommonOptions

    func run() throws {
        try reportingErrors {
            let config = try options.loadConfig()
            let store = try SQLiteCheckpointStore(path: config.database)
            let count = try store.requeueProblems()
            if !options.json { print("re-queued \(count) document(s)") }
            let batchID = try store.latestBatchID() ?? store.beginBatch(command: "retry", inputs: [])
            try runWorkersAndSummarize(
                store: store, config: config, options: options, workers: nil, batchID: batchID, intake: nil,
                started: Date(), logger: options.makeLogger())
        }
    }
}

/// Starts `larder-worker`, waits (restarting it after crashes), then prints and stores the batch summary.
func runWorkersAndSummarize(
    store: SQLiteCheckpointStore, config: PipelineConfig, options: CommonOptions, workers: Int?, batchID: Int64,
    intake: Intake.Report?, started: Date, logger: Logger
) throws {
    var arguments = options.forwarded(config)
    if let workers { arguments += ["--workers", String(workers)] }
    let before = try store.countDocumentsNeedingWork(pipelineVersion: PipelineManifest.standard(for: config).version)
    // Documents with stages left `running` by a dead process are still pending, so they count here too.
    let outcome =
        before == 0
        ? WorkerProcess.Outcome(exitStatus: 0, crashes: 0, interrupted: false)
        : try WorkerProcess(executable: WorkerProcess.workerExecutable(), arguments: arguments).run(logger: logger)
    let after = try store.countDocumentsNeedingWork(pipelineVersion: PipelineManifest.standard(for: config).version)
    let summary = try BatchSummary.collect(
        store: store, batchID: batchID, intake: intake, processed: max(0, before - after),
        elapsed: Date().timeIntervalSince(started), crashes: outcome.crashes, interrupted: outcome.interrupted)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    try store.finishBatch(batchID, summaryJSON: String(decoding: try encoder.encode(summary), as: UTF8.self))
    if options.json { try printJSON(summary) } else { print(summary.text) }
    if outcome.interrupted { throw LarderExit.interrupted }
    if outcome.exitStatus != 0 {
        throw LarderError(
            .transient, "the worker process exited with status \(outcome.exitStatus)",
            hint: "see the messages above; `larder resume` finishes the batch")
    }
    if !summary.isClean { throw LarderExit.partial }
}
