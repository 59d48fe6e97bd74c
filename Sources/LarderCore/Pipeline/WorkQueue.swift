import Dispatch
import Foundation
import LarderJSON
import Logging

/// Runs the pipeline over every document that has work left, `workers` documents at a time.
///
/// - Documents stream through: they are fetched from the store a page at a time and each of `workers` threads takes
///   the next one when it finishes one, so at most `workers` are in flight and memory does not grow with the batch.
/// - Stages run on Dispatch threads, never on the Swift concurrency pool: they block in native code.
/// - Each stage is marked `running` (its attempt counted) before it starts, and its output and `done` commit in
///   one transaction — the same one that marks the document's next stage `running` (or settles the document
///   after its last stage), so each stage costs one write transaction. Stages found `running` at start belong to a
///   process that died: they run again first, one document at a time, so a document that crashes the process is
///   the only one blamed and is quarantined after `max_attempts` crashes.
/// - ``requestStop()`` lets in-flight documents finish their current stage (and a stage already marked running
///   with the previous one's output) and starts nothing new.
public final class WorkQueue: @unchecked Sendable {
    // @unchecked: the mutable state (`stopRequested`, `counters`) is behind locks; the rest is immutable.
    private let store: any CheckpointStore
    private let pipeline: Pipeline
    private let config: PipelineConfig
    private let logger: Logger
    private let diagnostics: Diagnostics
    /// The batch this run works for: documents it settles are counted in that batch's summary.
    private let batchID: Int64?
    private let schemas: SchemaCatalog
    private let stopFlag = Locked(false)
    /// Stages running now, by document: what the deadline watchdog looks at.
    private let inFlight = Locked<[Int64: InFlight]>([:])
    /// What to do when a stage runs past `limits.stage_seconds`; nil = no deadline (in-process use, tests).
    private let overrunAction: (@Sendable () -> Never)?

    private struct InFlight {
        var document: DocumentRecord
        var stage: String
        var version: String
        var startedAt: Double
        var hasDeadline: Bool
    }

    /// The exit status of a worker that gave up on a document past `limits.stage_seconds`: `larder` restarts it
    /// without counting a crash (EX_TEMPFAIL).
    public static let overrunExitStatus: Int32 = 75

    /// The first checkpoint-store failure (a full disk, say): it stops the run, is logged once, and `run` throws it.
    private let storeFailure = Locked<LarderError?>(nil)
    private let counters = Locked(Counters())

    /// What one run did.
    public struct Counters: Sendable, Equatable {
        public var documents = 0
        public var done = 0
        public var failed = 0
        public var quarantined = 0
        public var stagesRun = 0
        /// Documents that were in flight when an earlier process died.
        public var recovered = 0
    }

    public init(
        store: any CheckpointStore, pipeline: Pipeline, config: PipelineConfig, logger: Logger,
        diagnostics: Diagnostics = Diagnostics(), schemas: SchemaCatalog? = nil, batchID: Int64? = nil,
        overrunAction: (@Sendable () -> Never)? = nil
    ) throws {
        self.batchID = batchID
        self.overrunAction = overrunAction
        self.schemas = try schemas ?? SchemaCatalog.embedded.get()
        self.store = store
        self.pipeline = pipeline
        self.config = config
        self.logger = logger
        self.diagnostics = diagnostics
    }

    public func requestStop() { stopFlag.withLock { $0 = true } }
    private var stopRequested: Bool { stopFlag.withLock { $0 } }

    /// Processes everything that has work left. `progress` hears about each finished document.
    @discardableResult
    public func run(progress: ProgressReporter? = nil) throws -> Counters {
        WorkTrace.shared?.mark("queue")
        if overrunAction != nil, config.limits.stageSeconds > 0 { startWatchdog() }
        let suspects = try store.recoverInterruptedStages(maxAttempts: config.maxAttempts)
        let total = try store.countDocumentsNeedingWork(pipelineVersion: pipeline.version)
        progress?.start(total: total)
        defer { progress?.finish() }
        counters.withLock { $0.recovered = suspects.count }
        if !suspects.isEmpty {
            logger.notice("re-running \(suspects.count) document(s) that were in flight when a process died, one at a time")
        }
        for id in suspects where !stopRequested {
            if let document = try store.document(id: id) { process(document, progress: progress) }
        }

        // Each of the `workers` threads takes the next document itself when it finishes one: no thread hands
        // documents out, so a finished document is followed at once by the next one on the same thread (the
        // hand-off through a dispatching thread cost two thread wake-ups per document, ~1–2 ms of idle core each
        // on the 2-core benchmark, more under load).
        let feed = DocumentFeed(store: store, pipelineVersion: pipeline.version)
        let queue = DispatchQueue(label: "larder.work", qos: .userInitiated, attributes: .concurrent)
        let group = DispatchGroup()
        for _ in 0..<config.effectiveWorkers {
            queue.async(group: group) {
                let threadStart = WorkTrace.shared.map { _ in (WorkTrace.Stamp.now(), WorkTrace.runQueueWait()) }
                defer {
                    if let trace = WorkTrace.shared, let (start, runQueue) = threadStart {
                        trace.record("thread", "work", since: start)
                        trace.record("runqueue", "work", from: 0, to: WorkTrace.runQueueWait() - runQueue)
                    }
                }
                while !self.stopRequested {
                    let next: DocumentRecord?
                    do {
                        next = try WorkTrace.measure("feed", "next") { try feed.next() }
                    } catch {
                        self.stop(storeFailure: LarderError.wrap(error, kind: .database), logger: self.logger)
                        return
                    }
                    guard let document = next else { return }
                    self.process(document, progress: progress)
                }
            }
        }
        group.wait()
        if let failure = storeFailure.withLock({ $0 }) { throw failure }
        return counters.withLock { $0 }
    }

    /// Runs the stages a document still needs. Never throws: every failure is recorded against the document.
    private func process(_ document: DocumentRecord, progress: ProgressReporter?) {
        var logger = self.logger
        logger[metadataKey: "document"] = "\(document.id)"
        logger[metadataKey: "path"] = "\(document.path)"
        let outcome: DocumentState?
        do {
            outcome = try runStages(document, logger: logger)
        } catch let lost as LeaseLost {
            // A shared store fenced this worker off the document: its new holder commits the stages, not this one.
            logger.warning("\(lost)")
            return
        } catch {
            // Only the store can fail here: leave the document pending for the next run, and stop the run (a
            // full disk fails every document the same way: say it once).
            stop(storeFailure: LarderError.wrap(error, kind: .database), logger: logger)
            outcome = nil
        }
        guard let outcome else { return }
        counters.withLock {
            $0.documents += 1
            switch outcome {
            case .done: $0.done += 1
            case .failed: $0.failed += 1
            case .quarantined: $0.quarantined += 1
            case .pending: break
            }
        }
        progress?.documentFinished(failed: outcome == .failed || outcome == .quarantined)
    }

    /// Records the first checkpoint-store failure, logs it once and stops the run (`run` throws it).
    private func stop(storeFailure failure: LarderError, logger: Logger) {
        let first = storeFailure.withLock { stored in
            if stored != nil { return false }
            stored = failure
            return true
        }
        if first {
            logger.error("stopping: the checkpoint database cannot be written: \(failure)")
            requestStop()
        }
    }

    /// Every quarter second: a stage past `limits.stage_seconds` fails its document (over the limit), the other
    /// stages in flight get their attempt back, and `overrunAction` ends the process. Nothing else can stop a
    /// native call (poppler on a hostile PDF) that does not return.
    private func startWatchdog() {
        let limit = config.limits.stageSeconds
        let thread = Thread { [self] in
            while true {
                usleep(250_000)
                let now = Date().timeIntervalSince1970
                guard let late = inFlight.withLock({ $0.values.first { $0.hasDeadline && now - $0.startedAt > limit } })
                else { continue }
                let error = LarderError(
                    .overLimit,
                    "\(late.stage) took longer than limits.stage_seconds (\(Int(limit)) s) on this document; it was stopped",
                    hint: "the file may be built to be slow (or very large): check it, or raise limits.stage_seconds",
                    path: late.document.path, documentID: late.document.id, stage: late.stage)
                logger.error("\(error); restarting the worker")
                do {
                    try store.recordFailure(
                        documentID: late.document.id, stage: late.stage, version: late.version, error: error,
                        status: .failed, startedAt: late.startedAt, finishedAt: now)
                    try store.settle(
                        documentID: late.document.id, state: .failed, pipelineVersion: pipeline.version, batchID: batchID)
                    _ = try store.releaseInterruptedStages()
                } catch {
                    logger.error("could not record the overrun: \(error)")
                }
                overrunAction?()
            }
        }
        thread.start()
    }

    /// After a stage that read the file: the file must still hold the registered bytes. A file rewritten while
    /// the stage read it would otherwise give a result mixing both versions, stored under the old SHA-256.
    /// (A file changed and changed back within one stage is not caught: the check hashes what is there after.)
    static func checkUnchanged(_ document: DocumentRecord, stage: String) throws {
        let now: String
        do {
            now = try SHA256.hex(fileAt: document.path)
        } catch {
            throw LarderError(
                .badInput, "the file was removed or became unreadable while \(stage) read it",
                hint: "restore the file and `larder retry`, or ingest it from where it is now", path: document.path)
        }
        guard now == document.sha256 else {
            throw LarderError(
                .badInput,
                "the file changed while \(stage) read it: its result would mix two versions, so none is kept",
                hint: "ingest it again once nothing is writing to it: its new content becomes a new document",
                path: document.path)
        }
    }

    /// Returns the document's new state, or nil if a stop request left it unfinished.
    private func runStages(_ document: DocumentRecord, logger: Logger) throws -> DocumentState? {
        let rows = Dictionary(
            try WorkTrace.measure("read", "stages", document: document.id) { try store.stages(of: document.id) }
                .map { ($0.stage, $0) }, uniquingKeysWith: { a, _ in a })
        var outputs: [String: String] = [:]
        let decoded = DecodedOutputs()  // each earlier output decoded once for all the stages that read it
        var rerunning = false  // once one stage runs, every later stage runs too
        // The next stage, when the transaction that stored the previous one's output also marked it running.
        var marked: (startedAt: Double, attempt: Int)?
        var settled = false  // by the transaction that stored the last stage's output
        // With a store that keeps the bytes (PostgreSQL), the stages read a private copy of them, made before the
        // first stage that runs: the registered path need not exist on this host.
        var copy: DocumentCopy?
        defer { copy?.remove() }
        for (index, stage) in pipeline.stages.enumerated() {
            let row = rows[stage.name]
            if !rerunning, let row, row.version == stage.version {
                if row.status == .done, let output = row.output {
                    outputs[stage.name] = output
                    continue
                }
                if row.status == .failed || row.status == .quarantined {
                    let state: DocumentState = row.status == .failed ? .failed : .quarantined
                    try store.settle(documentID: document.id, state: state, pipelineVersion: pipeline.version, batchID: batchID)
                    return state
                }
            }
            // The first stage to run resets every later one in the transaction that stores its output; later
            // stages then find them pending already.
            let later = rerunning ? [] : pipeline.stages[(index + 1)...].map(\.name)
            if !rerunning, let bytesStore = store as? any DocumentBytesStore {
                copy = try DocumentCopy(of: document, from: bytesStore)
            }
            rerunning = true
            // The stage logs through this logger: its lines carry the document, its path and the stage.
            var logger = logger
            logger[metadataKey: "stage"] = "\(stage.name)"
            while true {
                let startedAt: Double
                let attempt: Int
                if let next = marked {
                    (startedAt, attempt) = next  // marked running with the previous stage's output: it runs
                    marked = nil
                } else {
                    if stopRequested { return nil }
                    startedAt = Date().timeIntervalSince1970
                    attempt = try store.markRunning(
                        documentID: document.id, stage: stage.name, version: stage.version, at: startedAt)
                }
                inFlight.withLock {
                    $0[document.id] = InFlight(
                        document: document, stage: stage.name, version: stage.version, startedAt: startedAt,
                        hasDeadline: stage.runsUnderDeadline)
                }
                defer { _ = inFlight.withLock { $0.removeValue(forKey: document.id) } }
                diagnostics.stageStarting(document: document, stage: stage.name)
                counters.withLock { $0.stagesRun += 1 }
                do {
                    let input = StageInput(
                        document: copy?.document ?? document, config: config, earlierOutputs: outputs, logger: logger, decoded: decoded)
                    // The stage run and checked as the in-memory runner runs it (``StageStep``).
                    let (output, violations) = try StageStep.execute(stage, input: input, config: config, schemas: schemas)
                    // One transaction stores the output and marks the next stage running (or settles the document).
                    let finishedAt = Date().timeIntervalSince1970
                    let then: AfterCompletion =
                        !violations.isEmpty
                        ? .fail(
                            error: Self.schemaFailure(violations, schema: stage.outputSchema!, document: document, stage: stage.name),
                            pipelineVersion: pipeline.version, batchID: batchID)
                        : index + 1 == pipeline.stages.count
                        ? .settle(state: .done, pipelineVersion: pipeline.version, batchID: batchID)
                        : stopRequested
                            ? .nothing
                            : .markRunning(
                                stage: pipeline.stages[index + 1].name, version: pipeline.stages[index + 1].version,
                                at: finishedAt)
                    let nextAttempt = try store.complete(
                        documentID: document.id, stage: stage.name, version: stage.version, output: output.json,
                        decodedResult: output.value as? DocumentResult, violations: violations, isResult: stage.name == pipeline.resultStage, startedAt: startedAt,
                        finishedAt: finishedAt, laterStages: later, then: then)
                    switch then {
                    case .markRunning: marked = (finishedAt, nextAttempt ?? 1)
                    case .settle: settled = true
                    case .nothing: break
                    case .fail: return .failed
                    }
                    outputs[stage.name] = output.json
                    decoded.seed(stage: stage.name, output: output)
                    break
                } catch let lost as LeaseLost {
                    throw lost  // fenced off by a shared store: the document's new holder records it
                } catch let error as LarderError where error.kind == .database {
                    // The checkpoint database failed (a full disk, most often) while saving: never the document's
                    // fault, so nothing is recorded against it; the run stops and `larder resume` redoes the stage.
                    throw error
                } catch {
                    var failure = LarderError.wrap(error).adding(
                        path: document.path, documentID: document.id, stage: stage.name)
                    if let copy, failure.path == copy.document.path { failure.path = document.path }
                    let status = StageStep.status(after: failure, attempt: attempt, config: config)
                    var recorded = failure
                    if status == .quarantined {
                        recorded.message = "failed \(attempt) times; last error: \(failure.message)"
                    }
                    try store.recordFailure(
                        documentID: document.id, stage: stage.name, version: stage.version, error: recorded,
                        status: status, startedAt: startedAt, finishedAt: Date().timeIntervalSince1970)
                    if status == .pending {
                        logger.warning("attempt \(attempt) failed, retrying: \(failure)")
                        continue
                    }
                    let state: DocumentState = status == .failed ? .failed : .quarantined
                    try store.settle(documentID: document.id, state: state, pipelineVersion: pipeline.version, batchID: batchID)
                    return state
                }
            }
        }
        if !settled {  // every stage was already done (the document was last settled by another pipeline version)
            try store.settle(documentID: document.id, state: .done, pipelineVersion: pipeline.version, batchID: batchID)
        }
        return .done
    }
}

extension WorkQueue {
    /// A stage output that breaks its schema fails the document (never `done`), naming the first violation and
    /// what to do; the output is kept, so `larder review edit` can fix it.
    static func schemaFailure(_ violations: [SchemaViolation], schema: String, document: DocumentRecord, stage: String) -> LarderError {
        let more = violations.count > 1 ? " (and \(violations.count - 1) more)" : ""
        return LarderError(
            .badInput, "the \(stage) output breaks \(schema): \(violations[0])\(more)",
            hint: "see it with `larder show \(document.id)`; fix it with `larder review edit \(document.id)` (the fixed "
                + "version is what `larder export` writes), or report the bug with the file",
            path: document.path, documentID: document.id, stage: stage)
    }
}

/// The documents with work left, in id order, fetched a page at a time and handed out one by one to whichever
/// worker thread asks (the page fetch happens under the lock, once per 64 documents).
private final class DocumentFeed: Sendable {
    private struct Position: Sendable {
        var page: [DocumentRecord] = []
        var index = 0
        var after: Int64 = 0
        var exhausted = false
    }

    private let store: any CheckpointStore
    private let pipelineVersion: String
    private let position = Locked(Position())

    init(store: any CheckpointStore, pipelineVersion: String) {
        self.store = store
        self.pipelineVersion = pipelineVersion
    }

    /// The next document, or nil when none is left.
    func next() throws -> DocumentRecord? {
        try position.withLock { p in
            if p.index == p.page.count {
                guard !p.exhausted else { return nil }
                p.page = try store.documentsNeedingWork(pipelineVersion: pipelineVersion, after: p.after, limit: 64)
                p.index = 0
                guard let last = p.page.last else {
                    p.exhausted = true
                    return nil
                }
                p.after = last.id
            }
            defer { p.index += 1 }
            return p.page[p.index]
        }
    }
}
