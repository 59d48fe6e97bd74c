import ArgumentParser
import Foundation
import LarderCore
import LarderPostgres
import Logging

/// `larder worker --db postgres://…`: works a shared PostgreSQL queue until stopped, on any number of hosts.
struct WorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Work a shared PostgreSQL queue until stopped (SIGINT/SIGTERM); run one per host.",
        discussion: """
            Needs a PostgreSQL store (--db postgres://…, LARDER_DB or store.url). Starts crash-contained \
            larder-worker processes whenever documents can be claimed, and polls for new ones while idle. Each \
            claims documents under a lease (queue.lease_ttl, LARDER_LEASE_TTL; default 60 s) renewed every ttl/3; a \
            worker whose lease expired can no longer commit. See docs/scale-out.md.
            """)

    @OptionGroup var options: CommonOptions

    @Option(help: "Documents processed at once on this host (default: `workers` in pipeline.yml; 0 = one per core).")
    var workers: Int?

    @Option(help: "Seconds between looks at the queue while idle.")
    var poll: Double = 2

    @Flag(help: "Exit once the queue has nothing this host can claim (for scripts and tests).")
    var exitWhenIdle = false

    func run() throws {
        try reportingErrors {
            try WorkerOptions.validate(workers: workers)
            guard poll > 0, poll <= 3600 else {
                throw LarderError(.configuration, "--poll must be between 0 and 3600 seconds", hint: "e.g. --poll 2")
            }
            let config = try options.loadConfig()
            guard StoreLocation.isPostgres(config.database) else {
                throw LarderError(
                    .configuration, "larder worker needs a PostgreSQL store (--db postgres://…)",
                    hint: "with an SQLite database, `larder ingest` and `larder resume` do the work")
            }
            let store = try options.openStore(config)
            guard let shared = store as? PostgresCheckpointStore else { return }
            let logger = options.makeLogger()
            let manifest = PipelineManifest.standard(for: config)
            let version = manifest.version
            try shared.announce(manifest.stages)
            let wakeups = try shared.listenForWork()
            defer { wakeups.stop() }
            var arguments = options.forwarded(config)
            if let workers { arguments += ["--workers", String(workers)] }
            let stop = WorkerProcess.StopControl()
            // SIGINT/SIGTERM: the running larder-worker finishes its stages in flight, then this loop ends.
            let sources = [SIGINT, SIGTERM].map { signo in
                signal(signo, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signo, queue: .global())
                source.setEventHandler { stop.stop() }
                source.resume()
                return source
            }
            defer { sources.forEach { $0.cancel() } }
            logger.notice("worker \(ProcessInfo.processInfo.environment["LARDER_WORKER_ID"] ?? "") on \(config.storeDescription)")
            while !stop.isStopped {
                if try shared.claimableCount(pipelineVersion: version, stages: manifest.stages) > 0 {
                    let process = try WorkerProcess.forStore(
                        shared, arguments: arguments, memoryLimit: config.limits.workerMemory)
                    let outcome = try process.run(logger: logger, stop: stop)
                    if outcome.interrupted { return }  // stopped by SIGINT/SIGTERM: work in flight finished
                    if outcome.exitStatus == LarderExit.configuration.rawValue { throw LarderExit.configuration }
                    continue
                }
                if exitWhenIdle { return }
                // Idle: a NOTIFY (new work registered) wakes the loop at once; the poll is the fallback.
                let idleUntil = Date().addingTimeInterval(poll)
                while !stop.isStopped && Date() < idleUntil && !wakeups.take() {
                    Thread.sleep(forTimeInterval: min(0.02, poll))
                }
            }
        }
    }
}
