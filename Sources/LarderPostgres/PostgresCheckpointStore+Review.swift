import Foundation
import LarderCore
import Logging
import PostgresNIO

// MARK: Result versions, review, reporting and maintenance

extension PostgresCheckpointStore: DocumentBytesStore {
    static func resultVersion(_ row: PostgresRow) throws -> ResultVersion {
        let (number, origin, json, violations, created, note) = try row.decode(
            (Int, String, String, String, Double, String?).self)
        return ResultVersion(
            number: number, origin: ResultVersion.Origin(rawValue: origin) ?? .machine, json: json,
            violations: try decodeViolations(violations), createdAt: created, note: note)
    }

    public func resultVersions(of documentID: Int64) throws -> [ResultVersion] {
        try read { connection, logger in
            try await connection.rows(
                """
                SELECT number, origin, json, violations, created_at, note FROM result_version
                WHERE document_id = \(documentID) ORDER BY number
                """, logger
            ).map(Self.resultVersion)
        }
    }

    public func reviewState(of documentID: Int64) throws -> ReviewState {
        try read { connection, logger in
            guard let row = try await connection.rows(
                "SELECT accepted_version, decision, decided_version, reason FROM review WHERE document_id = \(documentID)",
                logger
            ).first else { return ReviewState() }
            let (accepted, decision, decided, reason) = try row.decode((Int?, String?, Int?, String?).self)
            return ReviewState(
                acceptedVersion: accepted, decision: decision.flatMap(ReviewState.Decision.init(rawValue:)),
                decidedVersion: decided, reason: reason)
        }
    }

    public func reviewCandidates() throws -> [ReviewCandidate] {
        try read { connection, logger in
            try await connection.rows(
                """
                SELECT v.number, v.origin, v.json, v.violations, v.created_at, v.note, d.id, d.path,
                       r.accepted_version, r.decision, r.decided_version, r.reason,
                       (SELECT origin FROM result_version a
                        WHERE a.document_id = d.id AND a.number = r.accepted_version) AS accepted_origin
                FROM document d
                JOIN result_version v ON v.document_id = d.id AND v.number = (
                    SELECT MAX(number) FROM result_version WHERE document_id = d.id AND origin = 'machine')
                LEFT JOIN review r ON r.document_id = d.id
                ORDER BY d.id
                """, logger
            ).map { row in
                let (number, origin, json, violations, created, note, id, path, accepted, decision, decided, reason, acceptedOrigin) =
                    try row.decode(
                        (Int, String, String, String, Double, String?, Int64, String, Int?, String?, Int?, String?, String?).self)
                return ReviewCandidate(
                    documentID: id, path: path,
                    latestMachine: ResultVersion(
                        number: number, origin: ResultVersion.Origin(rawValue: origin) ?? .machine, json: json,
                        violations: try Self.decodeViolations(violations), createdAt: created, note: note),
                    state: ReviewState(
                        acceptedVersion: accepted, decision: decision.flatMap(ReviewState.Decision.init(rawValue:)),
                        decidedVersion: decided, reason: reason),
                    acceptedIsHuman: acceptedOrigin == "human")
            }
        }
    }

    public func addHumanVersion(documentID: Int64, json: String, note: String) throws -> Int {
        let time = Self.now()
        return try write { connection, logger in
            // The document's row lock orders two people saving versions of one document at once.
            try await connection.run("SELECT id FROM document WHERE id = \(documentID) FOR UPDATE", logger)
            // A retry whose first COMMIT reached the server unseen finds the version it added (same JSON, note and
            // time to the microsecond) rather than adding an identical second one.
            let saved = try await connection.rows(
                """
                SELECT number FROM result_version WHERE document_id = \(documentID) AND origin = 'human'
                  AND created_at = \(time) AND json = \(json) AND note IS NOT DISTINCT FROM \(note)
                ORDER BY number DESC LIMIT 1
                """, logger)
            if let number = try saved.first?.decode(Int.self) { return number }
            let number = try await connection.rows(
                """
                INSERT INTO result_version (document_id, number, origin, json, violations, created_at, note)
                SELECT \(documentID), COALESCE(MAX(number), 0) + 1, 'human', \(json), '[]', \(time), \(note)
                FROM result_version WHERE document_id = \(documentID)
                RETURNING number
                """, logger)[0].decode(Int.self)
            try await Self.decide(
                connection, logger, documentID: documentID, decision: .accepted, accepted: number, reason: note)
            try await PostgresRecipeIndex.update(connection, logger, documentID: documentID)
            return number
        }
    }

    public func decide(documentID: Int64, decision: ReviewState.Decision, acceptedVersion: Int?, reason: String?) throws {
        try write { connection, logger in
            try await Self.decide(
                connection, logger, documentID: documentID, decision: decision, accepted: acceptedVersion,
                reason: reason)
            try await PostgresRecipeIndex.update(connection, logger, documentID: documentID)
        }
    }

    private static func decide(
        _ connection: PostgresConnection, _ logger: Logger, documentID: Int64, decision: ReviewState.Decision,
        accepted: Int?, reason: String?
    ) async throws {
        let latest = try await connection.rows(
            "SELECT MAX(number) FROM result_version WHERE document_id = \(documentID) AND origin = 'machine'", logger
        )[0].decode(Int?.self)
        // Rejecting keeps whatever was accepted before; accepting replaces it.
        try await connection.run(
            """
            INSERT INTO review AS r (document_id, accepted_version, decision, decided_version, reason)
            VALUES (\(documentID), \(accepted), \(decision.rawValue), \(latest), \(reason))
            ON CONFLICT (document_id) DO UPDATE SET
                accepted_version = COALESCE(excluded.accepted_version, r.accepted_version),
                decision = excluded.decision, decided_version = excluded.decided_version, reason = excluded.reason
            """, logger)
    }

    public func stageCounts() throws -> [StageCount] {
        try read { connection, logger in
            try await connection.rows("SELECT stage, status, COUNT(*) FROM stage_run GROUP BY stage, status", logger)
                .map { row in
                    let (stage, status, count) = try row.decode((String, String, Int).self)
                    return StageCount(stage: stage, status: StageStatus(rawValue: status) ?? .pending, count: count)
                }
        }
    }

    public func documentCounts() throws -> [DocumentState: Int] {
        try read { connection, logger in
            Self.counts(try await connection.rows("SELECT state, COUNT(*) FROM document GROUP BY state", logger))
        }
    }

    public func problems(batchID: Int64?, limit: Int) throws -> [Problem] {
        let inBatch =
            batchID == nil ? "" : "AND d.id IN (SELECT document_id FROM batch_document WHERE batch_id = $2)"
        let query = try Self.query(
            """
            SELECT d.id, d.path, d.state, s.stage, s.attempts, s.error
            FROM document d JOIN stage_run s ON s.document_id = d.id
            WHERE d.state IN ('failed', 'quarantined') AND s.status IN ('failed', 'quarantined') \(inBatch)
            ORDER BY d.id LIMIT $1
            """
        ) {
            try $0.append(limit)
            if let batchID { try $0.append(batchID) }
        }
        return try read { connection, logger in
            try await connection.rows(query, logger).map { row in
                let (id, path, state, stage, attempts, error) = try row.decode(
                    (Int64, String, String, String, Int, String?).self)
                return Problem(
                    documentID: id, path: path, state: DocumentState(rawValue: state) ?? .failed, stage: stage,
                    attempts: attempts, error: try Self.decodeError(error))
            }
        }
    }

    public func documentCounts(batchID: Int64) throws -> [DocumentState: Int] {
        try read { connection, logger in
            Self.counts(
                try await connection.rows(
                    """
                    SELECT state, COUNT(*) FROM document
                    WHERE id IN (SELECT document_id FROM batch_document WHERE batch_id = \(batchID)) GROUP BY state
                    """, logger))
        }
    }

    public func stageOutputs(stage: String, finishedSinceBatch batchID: Int64) throws -> [String] {
        try read { connection, logger in
            try await connection.rows(
                """
                SELECT output FROM (
                    SELECT \(unescaped: Self.storedOutput) AS output FROM stage_run
                    WHERE stage = \(stage) AND status = 'done'
                      AND finished_at >= (SELECT started_at FROM batch WHERE id = \(batchID))) o
                WHERE output IS NOT NULL
                """, logger
            ).map { try $0.decode(String.self) }
        }
    }

    public func paths(of documentID: Int64) throws -> [String] {
        try read { connection, logger in
            try await connection.rows(
                "SELECT path FROM document_path WHERE document_id = \(documentID) ORDER BY seq", logger
            ).map { try $0.decode(String.self) }
        }
    }

    public func forEachDocument(in state: DocumentState, _ body: (DocumentRecord) throws -> Void) throws {
        var after: Int64 = 0
        while true {
            let query = try Self.query(
                "SELECT \(Self.documentColumns) FROM document WHERE state = $1 AND id > $2 ORDER BY id LIMIT 256"
            ) {
                try $0.append(state.rawValue)
                try $0.append(after)
            }
            let page = try read { connection, logger in try await connection.rows(query, logger).map(Self.document) }
            guard let last = page.last else { return }
            for document in page { try body(document) }
            after = last.id
        }
    }

    public func requeueProblems(documentID: Int64?) throws -> Int {
        let only = documentID.map { "AND document_id = \($0)" } ?? ""
        let onlyDocument = documentID.map { "AND id = \($0)" } ?? ""
        let schema = location.schema
        return try write { connection, logger in
            try await connection.run(
                PostgresQuery(
                    unsafeSQL: """
                        UPDATE stage_run SET status = 'pending', attempts = 0, error = NULL
                        WHERE status IN ('failed', 'quarantined') \(only)
                        """), logger)
            let requeued = try await connection.run(
                PostgresQuery(
                    unsafeSQL: """
                        UPDATE document SET state = 'pending'
                        WHERE state IN ('failed', 'quarantined') \(onlyDocument) RETURNING 1
                        """), logger)
            if requeued > 0 { try await Self.notifyWork(schema: schema, connection, logger) }
            return requeued
        }
    }

    // MARK: Document bytes

    /// Stores a document's bytes once, by SHA-256 (a second store of the same hash does nothing), so a worker on
    /// another host reads them from the database instead of a shared filesystem. The commit does not wait for
    /// its WAL flush: the registration that follows it does, and the WAL is one sequence, so a registered
    /// document's bytes are always on disk (bytes lost in a server crash before their registration are only
    /// stored again by the next ingest).
    public func storeBytes(_ bytes: [UInt8], sha256: String) throws {
        let buffer = ByteBuffer(bytes: bytes)
        // One statement, its own transaction (the setting made in it holds to its commit).
        try statement { connection, logger in
            try await connection.run(
                """
                INSERT INTO blob (sha256, bytes)
                SELECT \(sha256), \(buffer) FROM (SELECT set_config('synchronous_commit', 'off', true)) AS setting
                ON CONFLICT (sha256) DO NOTHING
                """, logger)
        }
    }

    /// Of `hashes`, those with no stored bytes.
    public func missingBytes(_ hashes: [String]) throws -> Set<String> {
        guard !hashes.isEmpty else { return [] }
        return try read { connection, logger in
            var missing: Set<String> = []
            for row in try await connection.rows(
                """
                SELECT h FROM unnest(\(hashes)::text[]) AS h
                WHERE NOT EXISTS (SELECT 1 FROM blob WHERE blob.sha256 = h)
                """, logger)
            {
                missing.insert(try row.decode(String.self))
            }
            return missing
        }
    }

    /// A document's bytes by SHA-256, or nil when none were stored.
    public func bytes(sha256: String) throws -> [UInt8]? {
        try read { connection, logger in
            try await connection.rows("SELECT bytes FROM blob WHERE sha256 = \(sha256)", logger).first.map {
                var buffer = try $0.decode(ByteBuffer.self)
                return buffer.readBytes(length: buffer.readableBytes) ?? []
            }
        }
    }
}
