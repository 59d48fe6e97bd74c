import Dispatch
import Foundation
import Logging

/// Runs the pipeline over every document that has work left, `workers` documents at a time.
///
/// - Documents stream through: they are fetched from the store a page at a time, and a semaphore bounds how many
///   are in flight, so memory does not grow with the batch.
/// - Stages run on Dispatch threads, never on the Swift concurrency pool: they block in native code.
/// - Each stage is marked `running` (its attempt counted) before it starts, and its output and `done` commit in
///   one transaction. Stages found `running` at start belong to a process that died: they run again first, one
///   document at a time, so a document that crashes the process is the only one blamed and is quarantined
///   after `max_attempts` crashes.
/// - ``requestStop()`` lets in-flight documents finish their current stage and starts nothing new.
public final class WorkQueue: @unchecked Sendable {
    // @unchecked: the mutable state (`stopRequested`, `counters`) is behind locks; the rest is immutable.
    private let store: any CheckpointStore
    private let pipeline: Pipeline
    private let config: PipelineConfig
    private let logger: Logger
    private let diagnostics: Diagnostics
    private let schemas: SchemaCatalog
    private let stopFlag = Locked(false)
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
        diagnostics: Diagnostics = Diagnostics(), schemas: SchemaCatalog? = nil
    ) throws {
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

        let workers = config.effectiveWorkers
        let queue = DispatchQueue(label: "larder.work", qos: .userInitiated, attributes: .concurrent)
        let slots = DispatchSemaphore(value: workers)
        let group = DispatchGroup()
        var after: Int64 = 0
        fetching: while !stopRequested {
            let page = try store.documentsNeedingWork(pipelineVersion: pipeline.version, after: after, limit: 64)
            guard let last = page.last else { break }
            after = last.id
            for document in page {
                slots.wait()
                if stopRequested {
                    slots.signal()
                    break fetching
                }
                group.enter()
                queue.async {
                    defer {
                        slots.signal()
                        group.leave()
                    }
                    self.process(document, progress: progress)
                }
            }
        }
        group.wait()
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
        } catch {
            // Only the store can fail here: leave the document pending for the next run.
            logger.error("checkpoint store failed: \(error)")
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

    /// Returns the document's new state, or nil if a stop request left it unfinished.
    private func runStages(_ document: DocumentRecord, logger: Logger) throws -> DocumentState? {
        let rows = Dictionary(try store.stages(of: document.id).map { ($0.stage, $0) }, uniquingKeysWith: { a, _ in a })
        var outputs: [String: String] = [:]
        let decoded = DecodedOutputs()  // each earlier output decoded once for all the stages that read it
        var rerunning = false  // once one stage runs, every later stage runs too
        for (index, stage) in pipeline.stages.enumerated() {
            let row = rows[stage.name]
            if !rerunning, let row, row.version == stage.version {
                if row.status == .done, let output = row.output {
                    outputs[stage.name] = output
                    continue
                }
                if row.status == .failed || row.status == .quarantined {
                    let state: DocumentState = row.status == .failed ? .failed : .quarantined
                    try store.settle(documentID: document.id, state: state, pipelineVersion: pipeline.version)
                    return state
                }
            }
            rerunning = true
            let later = pipeline.stages[(index + 1)...].map(\.name)
            while true {
                if stopRequested { return nil }
                let startedAt = Date().timeIntervalSince1970
                let attempt = try store.markRunning(
                    documentID: document.id, stage: stage.name, version: stage.version, at: startedAt)
                diagnostics.stageStarting(document: document, stage: stage.name)
                counters.withLock { $0.stagesRun += 1 }
                do {
                    let input = StageInput(
                        document: document, config: config, earlierOutputs: outputs, logger: logger, decoded: decoded)
                    let output = try stage.run(input)
                    let violations = try stage.outputSchema.map {
                        try schemas.validate(json: output.json, against: $0).map(SchemaViolation.init)
                    } ?? []
                    if !violations.isEmpty {
                        logger.warning("\(stage.name) output breaks \(stage.outputSchema!): \(violations[0]); sent to review")
                    }
                    try store.complete(
                        documentID: document.id, stage: stage.name, version: stage.version, output: output.json,
                        violations: violations, isResult: stage.name == pipeline.resultStage, startedAt: startedAt,
                        finishedAt: Date().timeIntervalSince1970, laterStages: later)
                    outputs[stage.name] = output.json
                    break
                } catch {
                    let failure = LarderError.wrap(error).adding(
                        path: document.path, documentID: document.id, stage: stage.name)
                    let status: StageStatus =
                        !failure.isRetryable ? .failed : attempt >= config.maxAttempts ? .quarantined : .pending
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
                    try store.settle(documentID: document.id, state: state, pipelineVersion: pipeline.version)
                    return state
                }
            }
        }
        try store.settle(documentID: document.id, state: .done, pipelineVersion: pipeline.version)
        return .done
    }
}
