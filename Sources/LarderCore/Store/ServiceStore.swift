import Foundation
import GRDB

/// What `larder serve` asks of a store beyond ``CheckpointStore``: pages of documents with filters, one
/// document's retry, the stage events its event stream and metrics read, and the recipe queries of `search` and
/// `cook`. ``SQLiteCheckpointStore`` is the one implementation today; another store (PostgreSQL) implements this
/// protocol and the server works on it unchanged.
public protocol ServiceStore: CheckpointStore {
    /// Documents with an id above `after`, by id, at most `limit`, optionally only those in `state` or whose latest
    /// result is of `kind`.
    func documentPage(state: DocumentState?, kind: Route?, after: Int64, limit: Int) throws -> [DocumentListing]
    /// Re-queues one failed or quarantined document (attempts reset). False when it was neither.
    func requeue(documentID: Int64) throws -> Bool
    /// Stages that finished (done, failed or quarantined) with a sequence number above `sequence`, in the order
    /// they were committed, at most `limit`.
    func stageEvents(after sequence: Int64, limit: Int) throws -> [StageEvent]
    /// The sequence number of the last stage that finished (0 before any): where a new event stream starts.
    func lastStageEventSequence() throws -> Int64
    /// Per stage: how many runs finished done, their total milliseconds, and how many took at most each bound.
    func stageLatencies(boundsMilliseconds: [Double]) throws -> [StageLatency]
    /// Recipes matching a query, best first (`larder search`).
    func searchRecipes(_ query: RecipeSearchQuery) throws -> [RecipeSearchHit]
    /// What can be cooked from the pantry, best first (`larder cook`).
    func cookSuggestions(_ planner: CookPlanner, limit: Int, missingAtMost: Int?) throws -> [CookPlanner.Suggestion]
    /// The version `larder export` writes for a document (``Exporter``'s rule) and the pipeline version stamped on
    /// it, in one read of the store: `GET /v1/documents/{id}/result`'s one store call. nil when no version leaves
    /// Larder (``Exporter/exportable(_:)`` says why).
    func exportableVersion(of documentID: Int64) throws -> ExportableVersion?
}

/// A document's result as it leaves Larder, before stamping: see ``ServiceStore/exportableVersion(of:)``.
public struct ExportableVersion: Sendable, Equatable {
    public var number: Int
    public var json: String
    /// The document's stages' versions in pipeline order (``Exporter/pipelineVersion(of:)``).
    public var pipelineVersion: String

    public init(number: Int, json: String, pipelineVersion: String) {
        self.number = number
        self.json = json
        self.pipelineVersion = pipelineVersion
    }
}

/// A document as a list shows it: the record and the kind of its latest result (nil before it has one).
public struct DocumentListing: Sendable, Equatable {
    public var document: DocumentRecord
    public var kind: Route?

    public init(document: DocumentRecord, kind: Route?) {
        self.document = document
        self.kind = kind
    }
}

/// One stage of one document that finished.
public struct StageEvent: Sendable, Equatable, Codable {
    /// Increases with every stage that finishes, in commit order.
    public var sequence: Int64
    public var documentID: Int64
    public var stage: String
    public var status: StageStatus
    public var finishedAt: Double
    public var durationMilliseconds: Double?
    public var error: LarderError.Record?

    public init(
        sequence: Int64, documentID: Int64, stage: String, status: StageStatus, finishedAt: Double,
        durationMilliseconds: Double? = nil, error: LarderError.Record? = nil
    ) {
        self.sequence = sequence
        self.documentID = documentID
        self.stage = stage
        self.status = status
        self.finishedAt = finishedAt
        self.durationMilliseconds = durationMilliseconds
        self.error = error
    }
}

/// A stage's finished runs, for a latency histogram: `counts[i]` took at most `boundsMilliseconds[i]`.
public struct StageLatency: Sendable, Equatable {
    public var stage: String
    public var count: Int
    public var sumMilliseconds: Double
    public var counts: [Int]

    public init(stage: String, count: Int, sumMilliseconds: Double, counts: [Int]) {
        self.stage = stage
        self.count = count
        self.sumMilliseconds = sumMilliseconds
        self.counts = counts
    }
}

extension SQLiteCheckpointStore: ServiceStore {
    private func serviceRead<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try pool.read(body) } catch let error as LarderError { throw error } catch {
            throw Self.failure(error, writing: false, path: path)
        }
    }

    /// One read transaction: the exportable version (the recipe index's rule, the same as ``Exporter``'s) and the
    /// stages' versions.
    public func exportableVersion(of documentID: Int64) throws -> ExportableVersion? {
        try serviceRead { db in
            guard let (number, json) = try RecipeIndex.exportable(db, documentID: documentID) else { return nil }
            let runs = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT stage, version FROM stage_run WHERE document_id = ? ORDER BY rowid"),
                arguments: [documentID]
            ).map { (stage: $0["stage"] as String, version: $0["version"] as String?) }
            return ExportableVersion(number: number, json: json, pipelineVersion: Exporter.pipelineVersion(runs))
        }
    }

    public func documentPage(state: DocumentState?, kind: Route?, after: Int64, limit: Int) throws -> [DocumentListing] {
        try serviceRead { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM (
                        SELECT d.id, d.sha256, d.path, d.byte_count, d.modified_at, d.registered_at, d.state,
                               (SELECT json_extract(v.json, '$.kind') FROM result_version v
                                WHERE v.document_id = d.id ORDER BY v.number DESC LIMIT 1) AS kind
                        FROM document d
                        WHERE d.id > :after AND (:state IS NULL OR d.state = :state)
                        ORDER BY d.id)
                    WHERE (:kind IS NULL OR kind = :kind)
                    LIMIT :limit
                    """,
                arguments: ["after": after, "state": state?.rawValue, "kind": kind?.rawValue, "limit": limit]
            ).map { row in
                DocumentListing(
                    document: DocumentRecord(
                        id: row["id"], sha256: row["sha256"], path: row["path"], byteCount: row["byte_count"],
                        modifiedAt: row["modified_at"], registeredAt: row["registered_at"],
                        state: DocumentState(rawValue: row["state"]) ?? .pending),
                    kind: (row["kind"] as String?).flatMap(Route.init(rawValue:)))
            }
        }
    }

    public func requeue(documentID: Int64) throws -> Bool {
        try requeueProblems(documentID: documentID) > 0
    }

    public func stageEvents(after sequence: Int64, limit: Int) throws -> [StageEvent] {
        try serviceRead { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT sequence, document_id, stage, status, finished_at, duration_ms, error FROM stage_event
                    WHERE sequence > ? ORDER BY sequence LIMIT ?
                    """,
                arguments: [sequence, limit]
            ).map { row in
                StageEvent(
                    sequence: row["sequence"], documentID: row["document_id"], stage: row["stage"],
                    status: StageStatus(rawValue: row["status"]) ?? .done, finishedAt: row["finished_at"] ?? 0,
                    durationMilliseconds: row["duration_ms"],
                    error: (row["error"] as String?).flatMap {
                        try? JSONDecoder().decode(LarderError.Record.self, from: Data($0.utf8))
                    })
            }
        }
    }

    public func lastStageEventSequence() throws -> Int64 {
        try serviceRead { db in try Int64.fetchOne(db, sql: "SELECT MAX(sequence) FROM stage_event") ?? 0 }
    }

    public func stageLatencies(boundsMilliseconds bounds: [Double]) throws -> [StageLatency] {
        let buckets = bounds.indices.map { "SUM(duration_ms <= :b\($0))" }.joined(separator: ", ")
        var arguments: [String: (any DatabaseValueConvertible)?] = [:]
        for (index, bound) in bounds.enumerated() { arguments["b\(index)"] = bound }
        return try serviceRead { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT stage, COUNT(*) AS n, TOTAL(duration_ms) AS total\(bounds.isEmpty ? "" : ", " + buckets)
                    FROM stage_run WHERE status = 'done' AND duration_ms IS NOT NULL GROUP BY stage ORDER BY stage
                    """,
                arguments: StatementArguments(arguments)
            ).map { row in
                StageLatency(
                    stage: row["stage"], count: row["n"], sumMilliseconds: row["total"],
                    counts: bounds.indices.map { (row[3 + $0] as Int?) ?? 0 })
            }
        }
    }

    public func cookSuggestions(_ planner: CookPlanner, limit: Int, missingAtMost: Int?) throws -> [CookPlanner.Suggestion] {
        try planner.suggestions(store: self, limit: limit, missingAtMost: missingAtMost)
    }
}
