import Foundation
import LarderCore
import Logging

/// Works the queue for the server: whenever documents need work, it runs `larder-worker` as `larder ingest` does
/// (``WorkerProcess/forStore(_:arguments:memoryLimit:)``, the same crash containment: a worker that dies is restarted
/// and the document that killed it quarantined after `max_attempts`; one that passed `limits.worker_memory` on a
/// document alone fails that document, naming the limit), on its own thread, and waits for the next upload (or looks again every `pollSeconds`, for work
/// another process added). A `larder ingest` on the same database holds the worker lock; the server's worker waits
/// for it and then finds the work done.
final class QueueRunner: @unchecked Sendable {
    // @unchecked: the semaphores are thread-safe and everything else is immutable or behind `Locked`.
    private let store: any ServiceStore
    private let pipelineVersion: String
    private let arguments: [String]
    private let pollSeconds: Double
    /// `limits.worker_memory`: what a document that took the worker past it fails with.
    private let memoryLimit: Int64
    private let logger: Logger
    private let wake = DispatchSemaphore(value: 0)
    private let control = WorkerProcess.StopControl()
    private let finished = DispatchSemaphore(value: 0)
    /// Signalled by `stop()`: ends the pause after a failed worker run at once.
    private let stopping = DispatchSemaphore(value: 0)
    private let running = Locked(false)
    /// Worker runs that ended, for the metrics.
    let runs = Locked(0)

    init(
        store: any ServiceStore, pipelineVersion: String, arguments: [String], pollSeconds: Double,
        memoryLimit: Int64, logger: Logger
    ) {
        self.store = store
        self.pipelineVersion = pipelineVersion
        self.arguments = arguments
        self.pollSeconds = pollSeconds
        self.memoryLimit = memoryLimit
        self.logger = logger
    }

    /// Whether a worker is running now.
    var isWorking: Bool { running.withLock { $0 } }

    func start() {
        let thread = Thread { [self] in
            loop()
            finished.signal()
        }
        thread.name = "larder.queue"
        thread.start()
    }

    /// New work: look now instead of at the next poll.
    func poke() { wake.signal() }

    /// Stops the worker (it finishes the stages in flight) and waits for the thread to end.
    func stop() {
        control.stop()
        stopping.signal()
        wake.signal()
        finished.wait()
    }

    private func loop() {
        while !control.isStopped {
            let pending = (try? store.countDocumentsNeedingWork(pipelineVersion: pipelineVersion)) ?? 0
            if pending > 0 { runWorker() }
            // Drain the wake-ups the run made stale, then wait for the next one or the poll.
            while wake.wait(timeout: .now()) == .success {}
            if control.isStopped { break }
            _ = wake.wait(timeout: .now() + pollSeconds)
        }
    }

    private func runWorker() {
        running.withLock { $0 = true }
        defer {
            running.withLock { $0 = false }
            runs.withLock { $0 += 1 }
        }
        do {
            let process = try WorkerProcess.forStore(store, arguments: arguments, memoryLimit: memoryLimit)
            let outcome = try process.run(logger: logger, stop: control)
            if outcome.exitStatus != 0 && !outcome.interrupted {
                logger.error("the worker exited with status \(outcome.exitStatus); trying again in \(Int(pollSeconds)) s")
                pauseAfterFailure()
            }
        } catch {
            logger.error("cannot run the worker: \(error); trying again in \(Int(pollSeconds)) s")
            pauseAfterFailure()
        }
    }

    /// Waits before the next try (uploads do not cut it short; `stop()` does).
    private func pauseAfterFailure() {
        _ = stopping.wait(timeout: .now() + min(pollSeconds, 60))
    }
}
