import Foundation

/// A document is one distinct file content, identified by the SHA-256 of its bytes.
/// The same bytes under two paths are one document; the second path is reported as a duplicate.
public struct DocumentRecord: Sendable, Equatable, Codable {
    public var id: Int64
    /// Lowercase hex SHA-256 of the file's bytes.
    public var sha256: String
    /// The path the document was first registered from.
    public var path: String
    public var byteCount: Int64
    /// The file's modification time when registered; a later change means the bytes may differ.
    public var modifiedAt: Double
    public var registeredAt: Double
    /// Where the document stands as a whole.
    public var state: DocumentState

    public init(
        id: Int64, sha256: String, path: String, byteCount: Int64, modifiedAt: Double, registeredAt: Double,
        state: DocumentState
    ) {
        self.id = id
        self.sha256 = sha256
        self.path = path
        self.byteCount = byteCount
        self.modifiedAt = modifiedAt
        self.registeredAt = registeredAt
        self.state = state
    }
}

/// The state of a whole document, derived from its stages and kept so the queue can find work by index.
public enum DocumentState: String, Sendable, Codable, CaseIterable {
    /// Some stage still has to run.
    case pending
    /// Every stage is done at its current version.
    case done
    /// A stage failed on bad input; `larder retry` re-queues it.
    case failed
    /// A stage failed or crashed the process `max_attempts` times; `larder retry` re-queues it.
    case quarantined
}

/// The checkpoint of one stage of one document.
public enum StageStatus: String, Sendable, Codable, CaseIterable {
    case pending
    /// Marked before the stage starts. Found after a restart, it means the process died during the stage.
    case running
    case done
    case failed
    case quarantined
}

/// One row per (document, stage): the unit of checkpointing.
public struct StageRecord: Sendable, Equatable, Codable {
    public var documentID: Int64
    public var stage: String
    public var status: StageStatus
    /// Attempts started so far, including one that was running when the process died.
    public var attempts: Int
    /// The stage's version when it last ran; a different version in the code reruns it.
    public var version: String?
    public var startedAt: Double?
    public var finishedAt: Double?
    public var durationMilliseconds: Double?
    /// The stage's output, as JSON text.
    public var output: String?
    public var error: LarderError.Record?
    /// How the output breaks the stage's schema; empty when valid or when the stage names no schema.
    public var violations: [SchemaViolation] = []

    public init(
        documentID: Int64, stage: String, status: StageStatus, attempts: Int = 0, version: String? = nil,
        startedAt: Double? = nil, finishedAt: Double? = nil, durationMilliseconds: Double? = nil,
        output: String? = nil, error: LarderError.Record? = nil, violations: [SchemaViolation] = []
    ) {
        self.violations = violations
        self.documentID = documentID
        self.stage = stage
        self.status = status
        self.attempts = attempts
        self.version = version
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.durationMilliseconds = durationMilliseconds
        self.output = output
        self.error = error
    }
}

/// A path given to `larder ingest` that never became a document (missing, unreadable, over the size limit...).
public struct InputError: Sendable, Equatable, Codable {
    public var batchID: Int64
    public var path: String
    public var error: LarderError.Record

    public init(batchID: Int64, path: String, error: LarderError.Record) {
        self.batchID = batchID
        self.path = path
        self.error = error
    }
}
