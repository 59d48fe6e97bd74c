import Foundation

/// Where documents, their per-stage checkpoints and batch records live.
///
/// This is the seam for other backends: ``SQLiteCheckpointStore`` is the one implementation today; a PostgreSQL
/// store lets many workers on many hosts share one queue. Every method is one transaction, so a crash between
/// two calls loses at most the work of the stage that was running.
public protocol CheckpointStore: Sendable {
    // MARK: Batches and registration

    /// Records the start of a `larder ingest` run and returns its id.
    func beginBatch(command: String, inputs: [String]) throws -> Int64
    /// Stores the batch's summary (JSON) and its end time.
    func finishBatch(_ batchID: Int64, summaryJSON: String) throws
    /// Registers files by content hash in one transaction. Known hashes are not registered again.
    /// New documents get a `pending` row for every stage in `stages`.
    func register(_ files: [RegisteredFile], batchID: Int64, stages: [String]) throws -> [Registration]
    /// SHA-256 of files registered before whose path, size and modification time are unchanged, by path: those
    /// files need not be hashed again.
    func knownHashes(of files: [FileIdentity]) throws -> [String: String]
    /// Records a path that could not become a document.
    func recordInputError(batchID: Int64, path: String, error: LarderError) throws
    /// Paths of a batch that could not become documents.
    func inputErrors(batchID: Int64) throws -> [InputError]
    /// The most recent batch's id, if any.
    func latestBatchID() throws -> Int64?

    // MARK: The queue

    /// Stages left `running` by a process that died: those at `maxAttempts` are quarantined, the others go back
    /// to `pending` keeping their attempt count. Returns the documents to re-run first, one at a time.
    func recoverInterruptedStages(maxAttempts: Int) throws -> [Int64]
    /// Stages left `running` by a worker killed from outside (not a crash): back to `pending` with their attempt
    /// given back, so the documents are not blamed. Returns how many stages were released.
    func releaseInterruptedStages() throws -> Int
    /// After a worker died at its memory limit (`limits.worker_memory`): a stage left `running` alone is the one that
    /// took the memory, so it fails with `error` at once (no retry: it would take the memory again); several stages
    /// running get their attempt back and stay `running`, so ``recoverInterruptedStages(maxAttempts:)`` re-runs
    /// them one at a time, unblamed, and the one that passes the limit alone fails then. Returns the failed document.
    func failAfterMemoryLimit(error: LarderError) throws -> Int64?
    /// Documents with work to do for `pipelineVersion` (pending, or last finished by another version), by id.
    func documentsNeedingWork(pipelineVersion: String, after documentID: Int64, limit: Int) throws -> [DocumentRecord]
    /// Documents still needing work, for progress totals.
    func countDocumentsNeedingWork(pipelineVersion: String) throws -> Int
    func document(id: Int64) throws -> DocumentRecord?
    /// A document by id, SHA-256 prefix (4+ hex digits) or any path it was registered from.
    func document(matching reference: String) throws -> DocumentRecord?
    func stages(of documentID: Int64) throws -> [StageRecord]
    /// Each stage's name and the version it last ran at (nil before it ran), without the outputs.
    func stageVersions(of documentID: Int64) throws -> [(stage: String, version: String?)]
    /// Marks a stage running and counts the attempt, before any work (or native call) starts.
    /// Returns the attempt number (attempts at another version of the stage don't count).
    func markRunning(documentID: Int64, stage: String, version: String, at time: Double) throws -> Int
    /// Stores a stage's output (with its schema violations, if any) and marks it done in one transaction,
    /// resetting the `laterStages` to pending. For the pipeline's result stage (`isResult`), a result that differs
    /// from the last machine version is kept as a new version in the same transaction, and the output is stored
    /// only there: ``stages(of:)`` reads the result stage's output from the latest machine version.
    /// `then` runs in the same transaction: marking the next stage running (its attempt number is returned) or
    /// settling the document, so a document's stages cost one write transaction each, not two.
    /// `decodedResult` is the result `output` encodes, when the caller has it (nil otherwise): the search index then
    /// reads it instead of decoding `output` again (it must be what `output` decodes to).
    @discardableResult
    func complete(
        documentID: Int64, stage: String, version: String, output: String, decodedResult: DocumentResult?,
        violations: [SchemaViolation], isResult: Bool, startedAt: Double, finishedAt: Double, laterStages: [String],
        then: AfterCompletion) throws -> Int?
    /// Records a failure. `status` is `.pending` (to retry), `.failed` or `.quarantined`.
    func recordFailure(
        documentID: Int64, stage: String, version: String, error: LarderError, status: StageStatus,
        startedAt: Double, finishedAt: Double) throws
    /// Sets a document's overall state and the pipeline version it was settled with, and which batch settled it.
    func settle(documentID: Int64, state: DocumentState, pipelineVersion: String, batchID: Int64?) throws
    /// States of the documents `batchID` settled since `time` (what one command did, even while another batch
    /// shares the database).
    func settledCounts(batchID: Int64, since time: Double) throws -> [DocumentState: Int]

    // MARK: Result versions and review

    /// Every result the document ever had, oldest first.
    func resultVersions(of documentID: Int64) throws -> [ResultVersion]
    func reviewState(of documentID: Int64) throws -> ReviewState
    /// Every document with a result: its latest machine version and review state (the queue is built from these).
    func reviewCandidates() throws -> [ReviewCandidate]
    /// Saves a person's result as a new version and accepts it. Returns its number.
    func addHumanVersion(documentID: Int64, json: String, note: String) throws -> Int
    /// Records a decision about the latest machine version. `acceptedVersion` nil keeps the accepted one.
    func decide(documentID: Int64, decision: ReviewState.Decision, acceptedVersion: Int?, reason: String?) throws

    // MARK: Reporting and maintenance

    /// Row counts per (stage, status).
    func stageCounts() throws -> [StageCount]
    /// Row counts per document state.
    func documentCounts() throws -> [DocumentState: Int]
    /// Failed and quarantined documents with the stage that stopped them; only a batch's if `batchID` is given.
    func problems(batchID: Int64?, limit: Int) throws -> [Problem]
    /// Document states of the documents a batch registered (new, known or duplicate).
    func documentCounts(batchID: Int64) throws -> [DocumentState: Int]
    /// Outputs of `stage` that finished (done) since the batch started: what this run made, e.g. the `llm`
    /// stage's token counts for the batch's cost report and budget.
    func stageOutputs(stage: String, finishedSinceBatch batchID: Int64) throws -> [String]
    /// Paths a document was registered from, first one first.
    func paths(of documentID: Int64) throws -> [String]
    /// Calls `body` for every settled-done document, in id order, without loading them all at once.
    func forEachDocument(in state: DocumentState, _ body: (DocumentRecord) throws -> Void) throws
    /// Re-queues failed and quarantined documents (attempts reset), all of them or only `documentID`. Returns how
    /// many.
    func requeueProblems(documentID: Int64?) throws -> Int
}

extension CheckpointStore {
    /// A store without its own ``failAfterMemoryLimit(error:)`` treats a memory-limit death as a crash: the next
    /// worker's ``recoverInterruptedStages(maxAttempts:)`` counts the attempt and re-runs the stages one at a time.
    public func failAfterMemoryLimit(error: LarderError) throws -> Int64? { nil }
}

/// A file found by `larder ingest`, before hashing.
public struct FileIdentity: Sendable, Equatable {
    public var path: String
    public var byteCount: Int64
    public var modifiedAt: Double

    public init(path: String, byteCount: Int64, modifiedAt: Double) {
        self.path = path
        self.byteCount = byteCount
        self.modifiedAt = modifiedAt
    }

    /// Size and modification time (to the nanosecond) as `stat` reports them, following symlinks.
    public init?(statingFileAt path: String) {
        var info = stat()
        guard FilePath.withCString(path, { stat($0, &info) }) == 0 else { return nil }
        self.init(path: path, info: info)
    }

    init(path: String, info: stat) {
        self.init(
            path: path, byteCount: Int64(info.st_size),
            modifiedAt: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }
}

/// A file found by `larder ingest`, hashed and ready to register.
public struct RegisteredFile: Sendable, Equatable {
    public var path: String
    public var sha256: String
    public var byteCount: Int64
    public var modifiedAt: Double

    public init(path: String, sha256: String, byteCount: Int64, modifiedAt: Double) {
        self.path = path
        self.sha256 = sha256
        self.byteCount = byteCount
        self.modifiedAt = modifiedAt
    }
}

/// What registering one file did.
public enum Registration: Sendable, Equatable {
    /// A new document.
    case new(documentID: Int64)
    /// Bytes already registered by an earlier run (its work resumes or is already done).
    case known(documentID: Int64)
    /// The same bytes as another file in this batch.
    case duplicate(documentID: Int64, of: String)

    public var documentID: Int64 {
        switch self {
        case .new(let id), .known(let id), .duplicate(let id, _): return id
        }
    }
}

public struct StageCount: Sendable, Equatable, Codable {
    public var stage: String
    public var status: StageStatus
    public var count: Int

    public init(stage: String, status: StageStatus, count: Int) {
        self.stage = stage
        self.status = status
        self.count = count
    }
}

public struct Problem: Sendable, Equatable, Codable {
    public var documentID: Int64
    public var path: String
    public var state: DocumentState
    public var stage: String
    public var attempts: Int
    public var error: LarderError.Record?

    public init(
        documentID: Int64, path: String, state: DocumentState, stage: String, attempts: Int, error: LarderError.Record? = nil
    ) {
        self.documentID = documentID
        self.path = path
        self.state = state
        self.stage = stage
        self.attempts = attempts
        self.error = error
    }
}

/// One version of a document's result.
public struct ResultVersion: Codable, Sendable, Equatable {
    public enum Origin: String, Codable, Sendable {
        /// Made by the pipeline.
        case machine
        /// Made by a person with `larder review edit`.
        case human
    }

    public var number: Int
    public var origin: Origin
    public var json: String
    /// How the result breaks its schema; empty when valid.
    public var violations: [SchemaViolation]
    public var createdAt: Double
    /// The stage version that made it, or how a person changed it.
    public var note: String?

    public var isValid: Bool { violations.isEmpty }

    public init(
        number: Int, origin: Origin, json: String, violations: [SchemaViolation], createdAt: Double, note: String? = nil
    ) {
        self.number = number
        self.origin = origin
        self.json = json
        self.violations = violations
        self.createdAt = createdAt
        self.note = note
    }
}

/// What a person decided about a document.
public struct ReviewState: Codable, Sendable, Equatable {
    public enum Decision: String, Codable, Sendable {
        case accepted, rejected
    }

    /// The version exports use, once one is accepted.
    public var acceptedVersion: Int?
    public var decision: Decision?
    /// The latest machine version when the decision was made: a newer one needs a look again.
    public var decidedVersion: Int?
    public var reason: String?

    public init(acceptedVersion: Int? = nil, decision: Decision? = nil, decidedVersion: Int? = nil, reason: String? = nil) {
        self.acceptedVersion = acceptedVersion
        self.decision = decision
        self.decidedVersion = decidedVersion
        self.reason = reason
    }
}

/// A document with a result, as the review queue sees it.
public struct ReviewCandidate: Sendable, Equatable {
    public var documentID: Int64
    public var path: String
    public var latestMachine: ResultVersion
    public var state: ReviewState
    /// The accepted version was made by a person.
    public var acceptedIsHuman: Bool

    public init(
        documentID: Int64, path: String, latestMachine: ResultVersion, state: ReviewState, acceptedIsHuman: Bool
    ) {
        self.documentID = documentID
        self.path = path
        self.latestMachine = latestMachine
        self.state = state
        self.acceptedIsHuman = acceptedIsHuman
    }
}

/// What ``CheckpointStore/complete(documentID:stage:version:output:decodedResult:violations:isResult:startedAt:finishedAt:laterStages:then:)``
/// does in the transaction that stores a stage's output.
public enum AfterCompletion: Sendable, Equatable {
    case nothing
    /// Marks the document's next stage running, as ``CheckpointStore/markRunning(documentID:stage:version:at:)``.
    case markRunning(stage: String, version: String, at: Double)
    /// Settles the document, as ``CheckpointStore/settle(documentID:state:pipelineVersion:batchID:)``.
    case settle(state: DocumentState, pipelineVersion: String, batchID: Int64?)
    /// Keeps the output (a result that breaks its schema stays readable, so `larder review edit` can fix it) but
    /// marks the stage failed with `error` and settles the document `failed`.
    case fail(error: LarderError, pipelineVersion: String, batchID: Int64?)
}

extension CheckpointStore {
    /// Re-queues every failed and quarantined document. Returns how many.
    public func requeueProblems() throws -> Int { try requeueProblems(documentID: nil) }

    /// Stores a stage's output and does nothing else in that transaction.
    public func complete(
        documentID: Int64, stage: String, version: String, output: String, violations: [SchemaViolation],
        isResult: Bool, startedAt: Double, finishedAt: Double, laterStages: [String]
    ) throws {
        try complete(
            documentID: documentID, stage: stage, version: version, output: output, decodedResult: nil,
            violations: violations, isResult: isResult, startedAt: startedAt, finishedAt: finishedAt,
            laterStages: laterStages, then: .nothing)
    }
}

/// A shared store refused a write because this worker's claim on the document expired and may have been taken
/// over (it was paused or cut off past its lease): the work is another worker's now, and is dropped here, not
/// recorded as a failure. Only stores with leases (PostgreSQL) throw it.
public struct LeaseLost: Error, Sendable, CustomStringConvertible {
    public var documentID: Int64

    public init(documentID: Int64) { self.documentID = documentID }

    public var description: String {
        "the claim on document \(documentID) expired (its lease was not renewed in time): another worker runs it now"
    }
}
