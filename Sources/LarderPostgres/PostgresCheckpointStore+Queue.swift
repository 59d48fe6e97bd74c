import Foundation
import LarderCore
import Logging
import PostgresNIO

// MARK: The queue

extension PostgresCheckpointStore {
    static let documentColumns = "id, sha256, path, byte_count, modified_at, registered_at, state"

    static func document(_ row: PostgresRow) throws -> DocumentRecord {
        let (id, sha, path, size, modified, registered, state) = try row.decode(
            (Int64, String, String, Int64, Double, Double, String).self)
        return DocumentRecord(
            id: id, sha256: sha, path: path, byteCount: size, modifiedAt: modified, registeredAt: registered,
            state: DocumentState(rawValue: state) ?? .pending)
    }

    static func query(_ sql: String, _ binds: (inout PostgresBindings) throws -> Void = { _ in }) rethrows
        -> PostgresQuery
    {
        var bindings = PostgresBindings()
        try binds(&bindings)
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }

    public func recoverInterruptedStages(maxAttempts: Int) throws -> [Int64] {
        let me = claims.workerID
        let settings = claims.settings.withLock { $0 }
        // Only stages no live worker holds: claimed by this worker's name (a crashed predecessor), under an expired
        // claim, or (a store that does not claim) unclaimed. A claiming worker finds them through the claim index
        // (no index covers `stage_run.status`, see ``PostgresSchema/queueStorage``); a running stage on an
        // unclaimed document is given back when its document is next claimed (``recoverStages``).
        let holders =
            settings == nil
            ? "d.claim_owner IS NULL OR d.claim_owner = $1 OR d.claim_expires < now()"
            : "d.claim_owner IS NOT NULL AND (d.claim_owner = $1 OR d.claim_expires < now())"
        let query = try Self.query(
            """
            SELECT s.document_id, s.stage, s.attempts FROM stage_run s JOIN document d ON d.id = s.document_id
            WHERE s.status = 'running' AND (\(holders))
            ORDER BY s.document_id, s.seq FOR UPDATE OF s, d
            """
        ) { try $0.append(me) }
        let suspects: [Recovered] = try write { connection, logger in
            let rows = try await connection.rows(query, logger)
            var recovered: [Int64] = []
            for row in rows {
                let (id, stage, attempts) = try row.decode((Int64, String, Int).self)
                if attempts >= maxAttempts {
                    let json = try Self.encode(Self.crashError(attempts: attempts, stage: stage).record)
                    try await connection.run(
                        "UPDATE stage_run SET status = 'quarantined', error = \(json) WHERE document_id = \(id) AND stage = \(stage)",
                        logger)
                    try await connection.run("UPDATE document SET state = 'quarantined' WHERE id = \(id)", logger)
                } else {
                    try await connection.run(
                        "UPDATE stage_run SET status = 'pending' WHERE document_id = \(id) AND stage = \(stage)",
                        logger)
                    try await connection.run("UPDATE document SET state = 'pending' WHERE id = \(id)", logger)
                    recovered.append(id)
                }
            }
            // A worker re-runs them at once: under claims of its own.
            guard let settings, !recovered.isEmpty else { return recovered.map { Recovered(id: $0, token: nil) } }
            return try await connection.rows(
                """
                UPDATE document SET claim_token = nextval('claim_token_sequence'), claim_owner = \(me),
                    claim_expires = now() + make_interval(secs => \(settings.leaseTTL))
                WHERE id = ANY(\(recovered)::bigint[]) RETURNING id, claim_token
                """, logger
            ).map { row in
                let (id, token) = try row.decode((Int64, Int64).self)
                return Recovered(id: id, token: token)
            }.sorted { $0.id < $1.id }
        }
        claims.tokens.withLock { tokens in
            for suspect in suspects { if let token = suspect.token { tokens[suspect.id] = token } }
        }
        return suspects.map(\.id)
    }

    /// After this host's `larder-worker` died at its memory limit (`limits.worker_memory`): as the SQLite store, a
    /// stage it left `running` alone is the one that took the memory, and fails at once with `error` (its claim let
    /// go); several get their attempt back and stay `running`, for ``recoverInterruptedStages(maxAttempts:)`` to
    /// re-run one at a time, unblamed. Only the dead worker's stages count: those of documents claimed under this
    /// worker's name (its supervisor and it share `LARDER_WORKER_ID`) or unclaimed, never another host's.
    public func failAfterMemoryLimit(error: LarderError) throws -> Int64? {
        let me = claims.workerID
        let failed: Int64? = try write { connection, logger in
            let rows = try await connection.rows(
                """
                SELECT s.document_id, s.stage FROM stage_run s JOIN document d ON d.id = s.document_id
                WHERE s.status = 'running' AND (d.claim_owner IS NULL OR d.claim_owner = \(me))
                ORDER BY s.document_id, s.seq FOR UPDATE OF s, d
                """, logger
            ).map { try $0.decode((Int64, String).self) }
            guard rows.count == 1, let (id, stage) = rows.first else {
                try await connection.run(
                    """
                    UPDATE stage_run SET attempts = GREATEST(attempts - 1, 0)
                    WHERE status = 'running' AND document_id = ANY(\(rows.map(\.0))::bigint[])
                    """, logger)
                return nil
            }
            var error = error
            error.stage = stage
            try await connection.run(
                """
                UPDATE stage_run SET status = 'failed', finished_at = \(Self.now()), error = \(try Self.encode(error.record))
                WHERE document_id = \(id) AND stage = \(stage)
                """, logger)
            try await connection.run(
                """
                UPDATE document SET state = 'failed', claim_owner = NULL, claim_token = NULL, claim_expires = NULL
                WHERE id = \(id)
                """, logger)
            return id
        }
        if let failed { released(failed) }
        return failed
    }

    struct Recovered: Sendable {
        var id: Int64
        var token: Int64?
    }

    public func releaseInterruptedStages() throws -> Int {
        // Only this worker's (the supervisor and its worker share LARDER_WORKER_ID) or unclaimed documents.
        let me = claims.workerID
        return try write { connection, logger in
            let ids = try await connection.rows(
                """
                UPDATE document SET state = 'pending', claim_owner = NULL, claim_token = NULL, claim_expires = NULL
                WHERE id IN (SELECT document_id FROM stage_run WHERE status = 'running')
                  AND (claim_owner IS NULL OR claim_owner = \(me))
                RETURNING id
                """, logger
            ).map { try $0.decode(Int64.self) }
            return try await connection.run(
                """
                UPDATE stage_run SET status = 'pending', attempts = GREATEST(attempts - 1, 0)
                WHERE status = 'running' AND document_id = ANY(\(ids)::bigint[]) RETURNING 1
                """, logger)
        }
    }

    static let needsWork = "(state = 'pending' OR pipeline_version IS NULL OR pipeline_version <> $1)"

    public func documentsNeedingWork(pipelineVersion: String, after documentID: Int64, limit: Int) throws
        -> [DocumentRecord]
    {
        if let settings = claims.settings.withLock({ $0 }) {
            return try claimDocuments(
                pipelineVersion: pipelineVersion, after: documentID, limit: limit, settings: settings)
        }
        let query = try Self.query(
            "SELECT \(Self.documentColumns) FROM document WHERE \(Self.needsWork) AND id > $2 ORDER BY id LIMIT $3"
        ) {
            try $0.append(pipelineVersion)
            try $0.append(documentID)
            try $0.append(limit)
        }
        return try read { connection, logger in try await connection.rows(query, logger).map(Self.document) }
    }

    public func countDocumentsNeedingWork(pipelineVersion: String) throws -> Int {
        let query = try Self.query("SELECT COUNT(*) FROM document WHERE \(Self.needsWork)") {
            try $0.append(pipelineVersion)
        }
        return try read { connection, logger in try await connection.rows(query, logger)[0].decode(Int.self) }
    }

    public func document(id: Int64) throws -> DocumentRecord? {
        try read { connection, logger in
            try await connection.rows(
                Self.query("SELECT \(Self.documentColumns) FROM document WHERE id = $1") { try $0.append(id) }, logger
            ).first.map(Self.document)
        }
    }

    public func document(matching reference: String) throws -> DocumentRecord? {
        if let id = Int64(reference), let found = try document(id: id) { return found }
        let lower = reference.lowercased()
        let absolute = URL(fileURLWithPath: reference).standardizedFileURL.path
        return try read { connection, logger in
            if lower.count >= 4, lower.allSatisfy(\.isHexDigit) {
                let rows = try await connection.rows(
                    Self.query("SELECT \(Self.documentColumns) FROM document WHERE sha256 LIKE $1 LIMIT 2") {
                        try $0.append(lower + "%")
                    }, logger)
                if rows.count > 1 {
                    throw LarderError(
                        .configuration, "'\(reference)' matches several documents", hint: "give more digits of the SHA-256")
                }
                if let row = rows.first { return try Self.document(row) }
            }
            return try await connection.rows(
                Self.query(
                    """
                    SELECT \(Self.documentColumns) FROM document WHERE id = (
                        SELECT document_id FROM document_path WHERE path IN ($1, $2) ORDER BY seq LIMIT 1)
                    """
                ) {
                    try $0.append(reference)
                    try $0.append(absolute)
                }, logger
            ).first.map(Self.document)
        }
    }

    /// The result stage's done row holds no output: it is the document's latest machine result version.
    static let storedOutput = """
        CASE WHEN stage_run.output IS NULL AND stage_run.status = 'done' THEN (
            SELECT json FROM result_version WHERE result_version.document_id = stage_run.document_id
            AND origin = 'machine' ORDER BY number DESC LIMIT 1) ELSE stage_run.output END
        """

    public func stages(of documentID: Int64) throws -> [StageRecord] {
        let query = try Self.query(
            """
            SELECT document_id, stage, status, attempts, version, started_at, finished_at, duration_ms,
                   \(Self.storedOutput) AS output, error, validation
            FROM stage_run WHERE document_id = $1 ORDER BY seq
            """
        ) { try $0.append(documentID) }
        return try read { connection, logger in
            try await connection.rows(query, logger).map { row in
                let (id, stage, status, attempts, version, started, finished, duration, output, error, validation) =
                    try row.decode(
                        (Int64, String, String, Int, String?, Double?, Double?, Double?, String?, String?, String?).self)
                return StageRecord(
                    documentID: id, stage: stage, status: StageStatus(rawValue: status) ?? .pending,
                    attempts: attempts, version: version, startedAt: started, finishedAt: finished,
                    durationMilliseconds: duration, output: output, error: try Self.decodeError(error),
                    violations: try Self.decodeViolations(validation))
            }
        }
    }

    public func stageVersions(of documentID: Int64) throws -> [(stage: String, version: String?)] {
        let rows: [StageVersion] = try read { connection, logger in
            try await connection.rows(
                "SELECT stage, version FROM stage_run WHERE document_id = \(documentID) ORDER BY seq", logger
            ).map { row in
                let (stage, version) = try row.decode((String, String?).self)
                return StageVersion(stage: stage, version: version)
            }
        }
        return rows.map { (stage: $0.stage, version: $0.version) }
    }

    struct StageVersion: Sendable {
        var stage: String
        var version: String?
    }

    public func markRunning(documentID: Int64, stage: String, version: String, at time: Double) throws -> Int {
        if let fence = try fence(documentID) {
            return try commitStage(fence, next: NextStage(stage: stage, version: version, at: time)) ?? 1
        }
        return try write { connection, logger in
            try await Self.markRunning(
                connection, logger, documentID: documentID, stage: stage, version: version, at: time)
        }
    }

    struct NextStage: Sendable {
        var stage: String
        var version: String
        var at: Double
    }

    struct DoneStage: Sendable {
        var stage: String
        var version: String
        var startedAt: Double
        var finishedAt: Double
        var output: String
        var validation: String?
        var later: [String]
    }

    /// A worker's stage commit (or a stage marked running) in one statement, `commit_stage`
    /// (``PostgresSchema/commitStageFunction``): the same writes as ``complete`` in a transaction, in one round trip.
    /// Returns the next stage's attempt (nil: none).
    @discardableResult
    func commitStage(_ fence: Fence, done: DoneStage? = nil, next: NextStage?) throws -> Int? {
        let query: PostgresQuery = """
            SELECT commit_stage(\(fence.documentID), \(fence.token), \(fence.owner), \(done?.stage), \(done?.version),
                \(done?.startedAt), \(done?.finishedAt), \(done?.output), \(done?.validation), \(done?.later ?? [])::text[],
                \(next?.stage), \(next?.version), \(next?.at))
            """
        let outcome: Int = try statement { connection, logger in
            try await connection.rows(query, logger)[0].decode(Int.self)
        }
        switch outcome {
        case -1: throw LeaseLost(documentID: fence.documentID)
        case -2:
            released(fence.documentID)
            throw LeaseLost(documentID: fence.documentID)
        default: return next == nil ? nil : outcome
        }
    }

    /// Counts an attempt, once per run (``PostgresSchema/rerunAttempts``, as `commit_stage` does): `time` (the
    /// caller's clock, new for each run) tells a retry of the same call, whose first COMMIT reached the server
    /// unseen, from a new run; the retry finds the stage running since `time` and counts nothing.
    static func markRunning(
        _ connection: PostgresConnection, _ logger: Logger, documentID: Int64, stage: String, version: String,
        at time: Double
    ) async throws -> Int {
        try await connection.rows(
            """
            INSERT INTO stage_run AS s (document_id, stage, status, attempts, version, started_at)
            VALUES (\(documentID), \(stage), 'running', 1, \(version), \(time))
            ON CONFLICT (document_id, stage) DO UPDATE SET
                status = 'running',
                attempts = \(unescaped: PostgresSchema.rerunAttempts),
                version = excluded.version, started_at = excluded.started_at
            RETURNING attempts
            """, logger)[0].decode(Int.self)
    }

    @discardableResult
    public func complete(
        documentID: Int64, stage: String, version: String, output: String, decodedResult: DocumentResult?,
        violations: [SchemaViolation], isResult: Bool, startedAt: Double, finishedAt: Double, laterStages: [String],
        then: AfterCompletion
    ) throws -> Int? {
        let violationsJSON =
            violations.isEmpty ? "[]" : String(decoding: try JSONEncoder().encode(violations), as: UTF8.self)
        let failure = try Self.failureJSON(then)
        // The search index's rows (and tokens) are put together before the transaction; it only writes them.
        let prepared = try isResult ? decodedResult.map { try PostgresRecipeIndex.prepare(RecipeIndex.Rows($0)) } : nil
        let fence = try fence(documentID)
        defer { if Self.letsGo(then) { released(documentID) } }
        // A worker's commit of a stage that is not the result and does not settle: one statement.
        if let fence, !isResult, Self.keepsGoing(then) {
            return try commitStage(
                fence,
                done: DoneStage(
                    stage: stage, version: version, startedAt: startedAt, finishedAt: finishedAt, output: output,
                    validation: violations.isEmpty ? nil : violationsJSON, later: laterStages),
                next: Self.nextStage(then))
        }
        let stored: StoredStage = try write { connection, logger in
            try await fence?.check(connection, logger, flush: false)
            let updated = try await connection.run(
                """
                UPDATE stage_run SET status = 'done', version = \(version), started_at = \(startedAt),
                    finished_at = \(finishedAt), duration_ms = \((finishedAt - startedAt) * 1000),
                    output = \(isResult ? nil : output), error = NULL,
                    validation = \(violations.isEmpty ? nil : violationsJSON)
                WHERE document_id = \(documentID) AND stage = \(stage) AND (\(fence == nil) OR status = 'running')
                RETURNING 1
                """, logger)
            if updated == 0, fence != nil {
                try await Self.letGoOfStale(documentID: documentID, connection, logger)
                return .stale
            }
            if isResult {
                try await Self.keepResultVersion(
                    connection, logger, documentID: documentID, output: output, prepared: prepared,
                    violationsJSON: violationsJSON, at: finishedAt, version: version)
            }
            if !laterStages.isEmpty {
                try await connection.run(
                    """
                    UPDATE stage_run SET status = 'pending', attempts = 0, output = NULL, error = NULL
                    WHERE document_id = \(documentID) AND status <> 'pending' AND stage = ANY(\(laterStages)::text[])
                    """, logger)
            }
            return .stored(
                nextAttempt: try await Self.after(
                    then, failure: failure, documentID: documentID, stage: stage, connection, logger))
        }
        switch stored {
        case .stored(let nextAttempt): return nextAttempt
        case .stale:
            released(documentID)
            throw LeaseLost(documentID: documentID)
        }
    }

    /// A fenced stage commit's outcome: stored, or refused because the stage was not `running` (see
    /// ``Fence/check(_:_:flush:)``).
    enum StoredStage: Sendable {
        case stored(nextAttempt: Int?)
        case stale
    }

    /// The claim is this worker's but the stage it stores is not the one it marked running: commits made without
    /// waiting for their flush were lost in a server crash (or a retried COMMIT had reached the server). The
    /// worker's view of the document is stale: its claim is let go at once and its running stages get their attempt
    /// back (not the document's fault), so the next claim runs what is missing; what was committed is kept.
    static func letGoOfStale(documentID: Int64, _ connection: PostgresConnection, _ logger: Logger) async throws {
        try await connection.run(
            """
            UPDATE stage_run SET status = 'pending', attempts = GREATEST(attempts - 1, 0)
            WHERE document_id = \(documentID) AND status = 'running'
            """, logger)
        try await connection.run(
            "UPDATE document SET claim_owner = NULL, claim_token = NULL, claim_expires = NULL WHERE id = \(documentID)",
            logger)
    }

    /// Whether a completion leaves the document unsettled (at most the next stage marked running).
    static func keepsGoing(_ then: AfterCompletion) -> Bool {
        switch then {
        case .nothing, .markRunning: return true
        case .settle, .fail: return false
        }
    }

    /// The stage a completion marks running.
    static func nextStage(_ then: AfterCompletion) -> NextStage? {
        if case .markRunning(let stage, let version, let time) = then {
            return NextStage(stage: stage, version: version, at: time)
        }
        return nil
    }

    /// Whether the completion settles the document (its claim is let go with it).
    static func letsGo(_ then: AfterCompletion) -> Bool {
        switch then {
        case .settle, .fail: return true
        case .nothing, .markRunning: return false
        }
    }

    private static func failureJSON(_ then: AfterCompletion) throws -> String? {
        if case .fail(let error, _, _) = then { return try encode(error.record) }
        return nil
    }

    private static func after(
        _ then: AfterCompletion, failure: String?, documentID: Int64, stage: String,
        _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> Int? {
        switch then {
        case .nothing: return nil
        case .markRunning(let next, let nextVersion, let time):
            return try await markRunning(
                connection, logger, documentID: documentID, stage: next, version: nextVersion, at: time)
        case .settle(let state, let pipelineVersion, let batchID):
            try await settle(
                connection, logger, documentID: documentID, state: state, pipelineVersion: pipelineVersion,
                batchID: batchID)
            return nil
        case .fail(_, let pipelineVersion, let batchID):
            try await connection.run(
                "UPDATE stage_run SET status = 'failed', error = \(failure) WHERE document_id = \(documentID) AND stage = \(stage)",
                logger)
            try await settle(
                connection, logger, documentID: documentID, state: .failed, pipelineVersion: pipelineVersion,
                batchID: batchID)
            return nil
        }
    }

    /// A new machine version only when the result changed: a rerun that agrees adds nothing.
    /// The search index follows in the same transaction (fenced with the result).
    private static func keepResultVersion(
        _ connection: PostgresConnection, _ logger: Logger, documentID: Int64, output: String,
        prepared: PostgresRecipeIndex.Prepared?, violationsJSON: String, at time: Double, version: String
    ) async throws {
        let last = try await connection.rows(
            """
            SELECT json FROM result_version WHERE document_id = \(documentID) AND origin = 'machine'
            ORDER BY number DESC LIMIT 1
            """, logger
        ).first?.decode(String.self)
        guard last != output else { return }
        let number = try await connection.rows(
            """
            INSERT INTO result_version (document_id, number, origin, json, violations, created_at, note)
            SELECT \(documentID), COALESCE(MAX(number), 0) + 1, 'machine', \(output), \(violationsJSON), \(time),
                \(version)
            FROM result_version WHERE document_id = \(documentID)
            RETURNING number
            """, logger)[0].decode(Int.self)
        try await PostgresRecipeIndex.update(
            connection, logger, documentID: documentID,
            stored: .init(number: number, json: output, isValid: violationsJSON == "[]", prepared: prepared))
    }

    public func recordFailure(
        documentID: Int64, stage: String, version: String, error: LarderError, status: StageStatus,
        startedAt: Double, finishedAt: Double
    ) throws {
        let json = try Self.encode(error.record)
        let fence = try fence(documentID)
        try write { connection, logger in
            try await fence?.check(connection, logger)
            try await connection.run(
                """
                UPDATE stage_run SET status = \(status.rawValue), version = \(version), started_at = \(startedAt),
                    finished_at = \(finishedAt), duration_ms = \((finishedAt - startedAt) * 1000), output = NULL,
                    error = \(json)
                WHERE document_id = \(documentID) AND stage = \(stage)
                """, logger)
        }
    }

    public func settle(documentID: Int64, state: DocumentState, pipelineVersion: String, batchID: Int64?) throws {
        let fence = try fence(documentID)
        defer { released(documentID) }
        try write { connection, logger in
            try await fence?.check(connection, logger)
            try await Self.settle(
                connection, logger, documentID: documentID, state: state, pipelineVersion: pipelineVersion,
                batchID: batchID)
        }
    }

    static func settle(
        _ connection: PostgresConnection, _ logger: Logger, documentID: Int64, state: DocumentState,
        pipelineVersion: String, batchID: Int64?
    ) async throws {
        try await connection.run(
            """
            UPDATE document SET state = \(state.rawValue), pipeline_version = \(pipelineVersion),
                settled_batch = \(batchID), settled_at = \(now()),
                claim_owner = NULL, claim_token = NULL, claim_expires = NULL, lost_claims = 0
            WHERE id = \(documentID)
            """, logger)
    }

    public func settledCounts(batchID: Int64, since time: Double) throws -> [DocumentState: Int] {
        try read { connection, logger in
            Self.counts(
                try await connection.rows(
                    """
                    SELECT state, COUNT(*) FROM document WHERE settled_batch = \(batchID) AND settled_at >= \(time)
                    GROUP BY state
                    """, logger))
        }
    }

    static func counts(_ rows: [PostgresRow]) -> [DocumentState: Int] {
        var counts: [DocumentState: Int] = [:]
        for row in rows {
            if let (state, n) = try? row.decode((String, Int).self), let known = DocumentState(rawValue: state) {
                counts[known] = n
            }
        }
        return counts
    }
}
