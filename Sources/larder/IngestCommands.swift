import ArgumentParser
import Foundation
import LarderCore
import Logging

struct Ingest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Register files and folders (recursively) and run the pipeline over them.",
        discussion: """
            Running the same command again after a crash or kill finishes the batch: stages already done are not \
            run again. Exits 0 when everything was ingested, 1 when some inputs failed (the summary says which \
            and why), 130 when interrupted. Larder's own files (the database, the LLM cache, their -wal/-shm/-journal \
            files, and `larder serve`'s <database>.uploads folder) are never ingested. A symlink inside a folder is \
            followed only when it leads to a place inside the paths given; the others are skipped and listed \
            (--follow-symlinks follows them).
            """)

    @OptionGroup var options: CommonOptions

    @Option(help: "Documents processed at once (default: `workers` in pipeline.yml; 0 = one per core).")
    var workers: Int?

    @Flag(help: "Follow symlinks inside the folders given even when they lead outside them.")
    var followSymlinks = false

    @Flag(help: "Only register the files: `larder worker` processes (PostgreSQL store) or a later `resume` do the work.")
    var noWork = false

    @Argument(help: "Files and folders to ingest.")
    var paths: [String]

    func run() throws {
        try reportingErrors {
            try WorkerOptions.validate(workers: workers)
            var config = try options.loadConfig()
            if let workers { config.workers = workers }
            let store = try options.openStore(config)
            let logger = options.makeLogger()
            let started = Date()
            let paths = Self.rawPaths(paths)
            let batchID = try store.beginBatch(command: "ingest", inputs: paths)
            // The worker starts early and warms up on the other core while the files are walked and hashed: now, when
            // it may have work already (a first run, documents left pending), else at the first new document. A
            // re-run of a finished batch starts none.
            let manifest = PipelineManifest.standard(for: config)
            var early: WorkerProcess.EarlyStart?
            func startEarly() {
                early = try? WorkerProcess.forStore(
                    store, arguments: workerArguments(config: config, options: options, workers: workers, batchID: batchID),
                    memoryLimit: config.limits.workerMemory
                ).startEarly()
            }
            let mayHaveWork = (store as? SQLiteCheckpointStore).map {
                (try? $0.mayHaveWorkBeforeRegistering(pipelineVersion: manifest.version)) ?? true
            } ?? true
            if mayHaveWork && !noWork { startEarly() }
            let intake: Intake.Report
            do {
                intake = try Intake(store: store, manifest: manifest, config: config, followSymlinks: followSymlinks)
                    .ingest(paths: paths, batchID: batchID) { if early == nil && !noWork { startEarly() } }
            } catch {
                early?.cancel()
                throw error
            }
            if noWork {
                try? store.finishBatch(batchID, summaryJSON: "{}")
                if options.json { return try printJSON(["new": intake.new, "known": intake.known, "errors": intake.errors.count]) }
                print("registered \(intake.files) file(s) (\(intake.new) new, \(intake.known) known); \(intake.errors.count) could not be")
                if !intake.errors.isEmpty { throw LarderExit.partial }
                return
            }
            try runWorkersAndSummarize(
                store: store, config: config, options: options, workers: workers, batchID: batchID,
                intake: intake, started: started, logger: logger, early: early)
        }
    }
}

extension Ingest {
    /// The paths as given. Swift decodes the command line lossily (a name that is not UTF-8 gets U+FFFD), so such
    /// an argument is taken again from the raw argument bytes and kept as ``FilePath`` carries them.
    static func rawPaths(_ paths: [String]) -> [String] {
        paths.map { path in
            guard path.unicodeScalars.contains("\u{FFFD}") else { return path }
            for index in 0..<Int(CommandLine.argc) {
                guard let raw = CommandLine.unsafeArgv[index] else { continue }
                let bytes = UnsafeBufferPointer(
                    start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: strlen(raw))
                if String(decoding: bytes, as: UTF8.self) == path { return FilePath.string(fromBytes: bytes) }
            }
            return path
        }
    }
}

struct Resume: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume",
        abstract: "Finish the work left in the database (after a crash, kill or Ctrl-C).")

    @OptionGroup var options: CommonOptions

    @Option(help: "Documents processed at once (default: `workers` in pipeline.yml; 0 = one per core).")
    var workers: Int?

    func run() throws {
        try reportingErrors {
            try WorkerOptions.validate(workers: workers)
            let config = try options.loadConfig()
            let store = try options.openStore(config)
            let batchID = try store.latestBatchID() ?? store.beginBatch(command: "resume", inputs: [])
            try runWorkersAndSummarize(
                store: store, config: config, options: options, workers: workers, batchID: batchID, intake: nil,
                started: Date(), logger: options.makeLogger())
        }
    }
}

struct Retry: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry",
        abstract: "Re-queue failed and quarantined documents and run them again.")

    @OptionGroup var options: CommonOptions

    func run() throws {
        try reportingErrors {
            let config = try options.loadConfig()
            let store = try options.openStore(config)
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
    store: any CheckpointStore, config: PipelineConfig, options: CommonOptions, workers: Int?, batchID: Int64,
    intake: Intake.Report?, started: Date, logger: Logger, early: WorkerProcess.EarlyStart? = nil
) throws {
    let arguments = workerArguments(config: config, options: options, workers: workers, batchID: batchID)
    let version = PipelineManifest.standard(for: config).version
    let before: Int
    do {
        before = try store.countDocumentsNeedingWork(pipelineVersion: version)
    } catch {
        early?.cancel()
        throw error
    }
    let runStarted = Date().timeIntervalSince1970
    // Documents with stages left `running` by a dead process are still pending, so they count here too.
    if before == 0 { early?.cancel() }
    let outcome =
        before == 0
        ? WorkerProcess.Outcome(exitStatus: 0, crashes: 0, interrupted: false)
        : try WorkerProcess.forStore(store, arguments: arguments, memoryLimit: config.limits.workerMemory)
            .run(logger: logger, early: early)
    // What this command's worker settled, not the database's change: another batch may share the database.
    let settledCounts = try store.settledCounts(batchID: batchID, since: runStarted)
    let settled = settledCounts.values.reduce(0, +)
    // The progress line's "failed" counts the same documents: those this run settled failed or quarantined.
    let settledFailed = (settledCounts[.failed] ?? 0) + (settledCounts[.quarantined] ?? 0)
    let summary = try BatchSummary.collect(
        store: store, batchID: batchID, intake: intake, processed: settled, processedFailed: settledFailed,
        elapsed: Date().timeIntervalSince(started), crashes: outcome.crashes, interrupted: outcome.interrupted,
        memoryDeaths: outcome.memoryDeaths)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let summaryJSON = String(decoding: try encoder.encode(summary), as: UTF8.self)
    if outcome.exitStatus == LarderExit.database.rawValue {
        // The worker said why (a full disk, say) once; storing the summary would only fail the same way again.
        try? store.finishBatch(batchID, summaryJSON: summaryJSON)
    } else {
        try store.finishBatch(batchID, summaryJSON: summaryJSON)
    }
    if options.json { try printJSON(summary) } else { print(summary.text) }
    if outcome.interrupted { throw LarderExit.interrupted }
    switch outcome.exitStatus {
    case 0: break
    // The worker said why on standard error; its codes mean what ours do.
    case LarderExit.configuration.rawValue: throw LarderExit.configuration
    case LarderExit.database.rawValue: throw LarderExit.database
    default:
        throw LarderError(
            .transient, "the worker process exited with status \(outcome.exitStatus)",
            hint: "see the messages above; `larder resume` finishes the batch")
    }
    if !summary.isClean { throw LarderExit.partial }
}

/// What `larder-worker` is told: the configuration `larder` read, the batch and the parallelism.
private func workerArguments(config: PipelineConfig, options: CommonOptions, workers: Int?, batchID: Int64) -> [String] {
    var arguments = options.forwarded(config) + ["--batch", String(batchID)]
    if let workers { arguments += ["--workers", String(workers)] }
    return arguments
}

