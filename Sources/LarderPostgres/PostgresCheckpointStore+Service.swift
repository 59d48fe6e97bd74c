import Foundation
import LarderCore
import Logging
import PostgresNIO

// MARK: What `larder serve` reads

extension PostgresCheckpointStore: ServiceStore {
    public func documentPage(state: DocumentState?, kind: Route?, after: Int64, limit: Int) throws -> [DocumentListing] {
        var conditions = ["d.id > $1"]
        var binds = PostgresBindings()
        try binds.append(after)
        try binds.append(limit)
        if let state {
            try binds.append(state.rawValue)
            conditions.append("d.state = $\(binds.count)")
        }
        var kindFilter = ""
        if let kind {
            try binds.append(kind.rawValue)
            kindFilter = "WHERE kind = $\(binds.count)"
        }
        let query = PostgresQuery(
            unsafeSQL: """
                SELECT * FROM (
                    SELECT d.id, d.sha256, d.path, d.byte_count, d.modified_at, d.registered_at, d.state,
                           (SELECT v.json::jsonb ->> 'kind' FROM result_version v
                            WHERE v.document_id = d.id ORDER BY v.number DESC LIMIT 1) AS kind
                    FROM document d WHERE \(conditions.joined(separator: " AND ")) ORDER BY d.id) page
                \(kindFilter) ORDER BY id LIMIT $2
                """, binds: binds)
        return try read { connection, logger in
            try await connection.rows(query, logger).map { row in
                let (_, _, _, _, _, _, _, kind) = try row.decode(
                    (Int64, String, String, Int64, Double, Double, String, String?).self)
                return DocumentListing(document: try Self.document(row), kind: kind.flatMap(Route.init(rawValue:)))
            }
        }
    }

    public func requeue(documentID: Int64) throws -> Bool {
        try requeueProblems(documentID: documentID) > 0
    }

    public func stageEvents(after sequence: Int64, limit: Int) throws -> [StageEvent] {
        try write { connection, logger in
            try await Self.numberStageEvents(connection, logger)
            return try await connection.rows(
                """
                SELECT sequence, document_id, stage, status, finished_at, duration_ms, error FROM stage_event
                WHERE sequence > \(sequence) ORDER BY sequence LIMIT \(limit)
                """, logger
            ).map { row in
                let (sequence, id, stage, status, finished, duration, error) = try row.decode(
                    (Int64, Int64, String, String, Double?, Double?, String?).self)
                return StageEvent(
                    sequence: sequence, documentID: id, stage: stage, status: StageStatus(rawValue: status) ?? .done,
                    finishedAt: finished ?? 0, durationMilliseconds: duration,
                    error: error.flatMap { try? JSONDecoder().decode(LarderError.Record.self, from: Data($0.utf8)) })
            }
        }
    }

    public func lastStageEventSequence() throws -> Int64 {
        try write { connection, logger in
            try await Self.numberStageEvents(connection, logger)
            return try await connection.rows("SELECT COALESCE(MAX(sequence), 0) FROM stage_event", logger)[0].decode(Int64.self)
        }
    }

    /// Numbers the stage events committed so far, in insertion order, under the event lock (held to COMMIT): an
    /// event committed later gets a higher number, so a reader of `sequence > last` never skips one (see
    /// ``PostgresSchema/stageEventStatements``). Also drops events beyond the newest 100,000.
    static func numberStageEvents(_ connection: PostgresConnection, _ logger: Logger) async throws {
        try await connection.run("SELECT pg_advisory_xact_lock(\(PostgresSchema.eventLock))", logger)
        try await connection.run(
            """
            UPDATE stage_event e SET sequence = n.number
            FROM (SELECT id, nextval('stage_event_sequence') AS number
                  FROM (SELECT id FROM stage_event WHERE sequence IS NULL ORDER BY id) AS unnumbered) AS n
            WHERE e.id = n.id
            """, logger)
        try await connection.run(
            "DELETE FROM stage_event WHERE id <= (SELECT MAX(id) FROM stage_event) - 100000", logger)
    }

    public func stageLatencies(boundsMilliseconds bounds: [Double]) throws -> [StageLatency] {
        try read { connection, logger in
            var latencies = try await connection.rows(
                """
                SELECT stage, COUNT(*), COALESCE(SUM(duration_ms), 0)::float8 FROM stage_run
                WHERE status = 'done' AND duration_ms IS NOT NULL GROUP BY stage ORDER BY stage
                """, logger
            ).map { row in
                let (stage, count, sum) = try row.decode((String, Int, Double).self)
                return StageLatency(
                    stage: stage, count: count, sumMilliseconds: sum, counts: Array(repeating: 0, count: bounds.count))
            }
            guard !bounds.isEmpty else { return latencies }
            let position = Dictionary(uniqueKeysWithValues: latencies.enumerated().map { ($1.stage, $0) })
            for row in try await connection.rows(
                """
                SELECT r.stage, b.i, COUNT(*) FILTER (WHERE r.duration_ms <= b.bound)
                FROM stage_run r CROSS JOIN unnest(\(bounds)::float8[]) WITH ORDINALITY AS b(bound, i)
                WHERE r.status = 'done' AND r.duration_ms IS NOT NULL GROUP BY r.stage, b.i
                """, logger)
            {
                let (stage, index, count) = try row.decode((String, Int, Int).self)
                if let at = position[stage] { latencies[at].counts[index - 1] = count }
            }
            return latencies
        }
    }

    /// One statement: the latest machine version, the review's decision and accepted version, and the stages'
    /// versions; ``Exporter``'s rule applied to them here.
    public func exportableVersion(of documentID: Int64) throws -> ExportableVersion? {
        let row: ExportRow? = try read { connection, logger in
            try await connection.rows(
                """
                SELECT m.number, m.json, m.violations = '[]', r.decision, r.decided_version, a.number, a.json,
                    (SELECT array_agg(s.stage ORDER BY s.seq) FROM stage_run s WHERE s.document_id = \(documentID)),
                    (SELECT array_agg(COALESCE(s.version, '') ORDER BY s.seq) FROM stage_run s
                     WHERE s.document_id = \(documentID))
                FROM (SELECT number, json, violations FROM result_version
                      WHERE document_id = \(documentID) AND origin = 'machine' ORDER BY number DESC LIMIT 1) m
                LEFT JOIN review r ON r.document_id = \(documentID)
                LEFT JOIN result_version a ON a.document_id = \(documentID) AND a.number = r.accepted_version
                """, logger
            ).first.map { row in
                let (number, json, valid, decision, decided, accepted, acceptedJSON, stages, versions) = try row.decode(
                    (Int, String, Bool, String?, Int?, Int?, String?, [String]?, [String]?).self)
                return ExportRow(
                    number: number, json: json, valid: valid,
                    rejected: PostgresRecipeIndex.rejects(decision: decision, decided: decided, latest: number),
                    accepted: accepted.flatMap { number in acceptedJSON.map { (number, $0) } },
                    runs: zip(stages ?? [], versions ?? []).map { StageVersion(stage: $0, version: $1.isEmpty ? nil : $1) })
            }
        }
        guard let row, !row.rejected else { return nil }
        let pipelineVersion = Exporter.pipelineVersion(row.runs.map { (stage: $0.stage, version: $0.version) })
        let chosen = PostgresRecipeIndex.choose(latest: (row.number, row.json, row.valid), accepted: row.accepted)
        return chosen.map { ExportableVersion(number: $0.0, json: $0.1, pipelineVersion: pipelineVersion) }
    }

    private struct ExportRow: Sendable {
        var number: Int
        var json: String
        var valid: Bool
        var rejected: Bool
        var accepted: (Int, String)?
        var runs: [StageVersion]
    }

    public func cookSuggestions(_ planner: CookPlanner, limit: Int, missingAtMost: Int?) throws -> [CookPlanner.Suggestion] {
        try planner.suggestions(index: self, limit: limit, missingAtMost: missingAtMost)
    }
}
