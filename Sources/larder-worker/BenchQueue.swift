import ArgumentParser
import Foundation
import LarderCore
import LarderPostgres
import Logging

/// `larder-worker bench-queue`: the PostgreSQL queue benchmark's driver (scripts/bench/bench-queue.sh), hidden.
///
/// It measures the queue, not the stages: `register` registers synthetic documents (no file, no bytes) whose
/// pipeline is `--stages` benchmark stages named `bench-1`…; `work` runs those stages through the very code a
/// `larder-worker` under `larder worker` runs — ``PostgresCheckpointStore/startClaiming`` (leases, heartbeat,
/// fencing), ``WorkQueue`` (claim, mark running, commit output and done in one fenced transaction, settle) and
/// LISTEN/NOTIFY wake-ups while idle — with stages that do nothing (`--sleep-ms 0`, the queue's ceiling) or sleep
/// (so the CPU is not the limit). What it leaves out: the standard stages, and the `larder-worker` process start
/// that `larder worker` adds when it wakes.
///
/// Benchmark documents would be claimed by real workers, and a benchmark worker would "finish" real documents with
/// no-op stages: so it refuses unless `LARDER_BENCH=1` is set and the store's schema is named `bench…`.
struct BenchQueue: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-queue",
        abstract: "PostgreSQL queue benchmark driver (scripts/bench/bench-queue.sh; needs LARDER_BENCH=1, schema bench…).",
        shouldDisplay: false,
        subcommands: [Register.self, Run.self])

    struct Common: ParsableArguments {
        @Option(help: "PostgreSQL store, its schema named bench… (postgres://…?schema=bench_x).")
        var db: String

        @Option(help: "Benchmark stages per document.")
        var stages: Int = 1

        @Option(help: "The benchmark stages' version (a new one re-runs every document).")
        var version: String = "1"

        func pipeline(sleepMilliseconds: Int) throws -> Pipeline {
            guard (1...50).contains(stages) else { throw ValidationError("--stages must be between 1 and 50") }
            return Pipeline(
                stages: (1...stages).map { BenchStage(name: "bench-\($0)", version: version, sleep: sleepMilliseconds) })
        }

        /// The configuration with the store; refuses a store that is not a benchmark's own.
        func config() throws -> (PipelineConfig, PostgresLocation) {
            guard ProcessInfo.processInfo.environment["LARDER_BENCH"] == "1" else {
                throw ValidationError("bench-queue runs only with LARDER_BENCH=1 (it registers and finishes fake documents)")
            }
            let config = try ConfigLocator.resolve(configPath: nil, databasePath: db)
            guard case .postgres(let location) = try config.storeLocation, location.schema.hasPrefix("bench") else {
                throw ValidationError("bench-queue needs a PostgreSQL store whose schema is named bench… (?schema=bench_x)")
            }
            return (config, location)
        }
    }

    /// Registers `--documents` synthetic documents, `--per-transaction` at a time; with `--interval-ms`, one at a
    /// time that far apart, printing each one's registration time (for the wake-up latency).
    struct Register: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "register")
        @OptionGroup var common: Common
        @Option var documents: Int
        @Option(help: "Distinguishes this run's documents from earlier ones (their hashes).")
        var tag: String = "a"
        @Option var perTransaction: Int = 500
        @Option(help: "Register one document at a time, this many milliseconds apart, printing each commit time.")
        var intervalMs: Int?

        func run() throws {
            let (_, location) = try common.config()
            let store = try PostgresCheckpointStore(location: location)
            let names = try common.pipeline(sleepMilliseconds: 0).stageNames
            let batch = try store.beginBatch(command: "bench-queue register", inputs: [])
            let files = (0..<documents).map { index in
                RegisteredFile(
                    path: "bench/\(tag)/\(index)", sha256: BenchStage.hash("\(tag)/\(index)"), byteCount: 0, modifiedAt: 0)
            }
            let started = Date()
            if let intervalMs {
                for file in files {
                    Thread.sleep(forTimeInterval: Double(intervalMs) / 1000)
                    _ = try store.register([file], batchID: batch, stages: names)
                    print(String(format: "registered %@ %.6f", file.path, Date().timeIntervalSince1970))
                }
            } else {
                for start in stride(from: 0, to: files.count, by: max(1, perTransaction)) {
                    _ = try store.register(
                        Array(files[start..<min(files.count, start + perTransaction)]), batchID: batch, stages: names)
                }
            }
            print(String(format: "registered %d documents in %.3f s", files.count, Date().timeIntervalSince(started)))
        }
    }

    /// Works the queue with the benchmark stages until it is empty (or `--seconds` pass); idle, it waits for a
    /// NOTIFY, checking every 20 ms as `larder worker` does, and looks again every `--poll` seconds in any case.
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "work")
        @OptionGroup var common: Common
        @Option(help: "Milliseconds each stage sleeps (0: a no-op stage).")
        var sleepMs: Int = 0
        @Option(help: "Documents processed at once by this process.")
        var workers: Int = 1
        @Option(help: "Seconds between looks at the queue while idle.")
        var poll: Double = 2
        @Option(help: "Give up after this many seconds.")
        var seconds: Double = 600
        @Flag(help: "Keep waiting for work when the queue is empty (until --seconds or SIGTERM).")
        var stayIdle = false

        func run() throws {
            var (config, location) = try common.config()
            config.workers = workers
            let pipeline = try common.pipeline(sleepMilliseconds: sleepMs)
            let store = try PostgresCheckpointStore(location: location)
            var logger = Logger(label: "larder-worker") { TerminalLogHandler(label: $0) }
            logger.logLevel = .notice
            try store.startClaiming(
                leaseTTL: config.leaseTTL, maxAttempts: config.maxAttempts, pipelineVersion: pipeline.version,
                stages: pipeline.manifest.stages)
            defer { store.stopClaiming() }
            let wakeups = try store.listenForWork()
            defer { wakeups.stop() }
            let deadline = Date().addingTimeInterval(seconds)
            var documents = 0, stagesRun = 0
            while Date() < deadline {
                let queue = try WorkQueue(store: store, pipeline: pipeline, config: config, logger: logger)
                let counters = try queue.run()
                documents += counters.documents
                stagesRun += counters.stagesRun
                if !stayIdle, try store.countDocumentsNeedingWork(pipelineVersion: pipeline.version) == 0 { break }
                let idleUntil = min(deadline, Date().addingTimeInterval(poll))
                while Date() < idleUntil && !wakeups.take() { Thread.sleep(forTimeInterval: 0.02) }
            }
            print("{\"documents\": \(documents), \"stages\": \(stagesRun)}")
        }
    }
}

/// A benchmark stage: sleeps `sleep` milliseconds (0: returns at once) and outputs `{"ok": true}`.
struct BenchStage: Stage {
    let name: String
    let version: String
    let sleep: Int

    func run(_ input: StageInput) throws -> StageOutput {
        if sleep > 0 { Thread.sleep(forTimeInterval: Double(sleep) / 1000) }
        var output = try StageOutput(["ok": true])
        output.readDocumentFile = false
        return output
    }

    /// A 64-hex-digit stand-in for a SHA-256 (distinct per key; not a real hash of anything).
    static func hash(_ key: String) -> String {
        var state: UInt64 = 0xcbf2_9ce4_8422_2325
        var digits = ""
        for round in 0..<4 {
            for byte in Array("\(round):\(key)".utf8) {
                state = (state ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            digits += String(format: "%016llx", state)
        }
        return digits
    }
}
