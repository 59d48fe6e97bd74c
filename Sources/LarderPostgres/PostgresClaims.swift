import Foundation
import LarderCore
import Logging
import PostgresNIO

/// Leases for many workers on one PostgreSQL queue.
///
/// A worker claims whole documents (it runs a document's stages in order) with `FOR UPDATE SKIP LOCKED` in one
/// short statement; each claim takes a new **fencing token** from a sequence and expires `leaseTTL` seconds later on
/// the database's clock (`now()`). A heartbeat thread renews the worker's live claims every ttl/3, and never one
/// that has expired. Every write about a claimed document (`markRunning`, `complete`, `recordFailure`, `settle`)
/// first checks, in its own transaction and under the document's row lock, that the token is still the
/// document's and unexpired: a worker that was paused or cut off past its ttl, and whose document was claimed
/// again, can never commit (``LeaseLost``). No transaction is open while a stage runs.
///
/// An expired claim returns its document to the queue after a backoff (5 s per earlier lost claim); stages it
/// left `running` count their attempt, and at `max_attempts` the document is quarantined, as after a crash on
/// one host.
final class ClaimState: Sendable {
    struct Settings: Sendable {
        var leaseTTL: Double
        var maxAttempts: Int
        var pipelineVersion: String
        /// The stages this worker runs and their versions: it never claims a document one of whose stages ran at
        /// a newer version (one the fleet saw later), so hosts on two versions do not redo each other's work.
        var stageNames: [String] = []
        var stageVersions: [String] = []
    }

    /// This worker's name in `claim_owner` and the `worker` table: `LARDER_WORKER_ID` (which `larder` sets for
    /// the `larder-worker` it supervises, so that a restarted worker takes its crashed predecessor's claims back at
    /// once), else host and pid.
    let workerID: String
    let settings = Locked<Settings?>(nil)
    /// Document → the fencing token of this worker's claim on it.
    let tokens = Locked<[Int64: Int64]>([:])
    let stopHeartbeat = Locked<Bool>(false)
    /// Held while a claim runs and its tokens are recorded: one claim at a time per process, so that a retried
    /// claim's "claims of mine this process does not know" are its own first attempt's, not another thread's.
    let claiming = Locked(())

    init(workerID given: String? = nil) {
        let environment = ProcessInfo.processInfo.environment
        if let given {
            workerID = given
        } else if let id = environment["LARDER_WORKER_ID"], !id.isEmpty {
            workerID = id
        } else {
            workerID = Self.defaultWorkerID()
        }
    }

    /// `host:pid` of this process (gethostname: no name lookup).
    static func defaultWorkerID() -> String {
        var name = [CChar](repeating: 0, count: 256)
        let host = gethostname(&name, name.count) == 0 ? String(cString: name) : "host"
        return "\(host):\(getpid())"
    }

    var isClaiming: Bool { settings.withLock { $0 != nil } }

    /// Seconds of backoff per claim a document already lost.
    static let backoffSeconds = 5.0
    /// Documents claimed per statement: small, so one host does not hoard the queue.
    static let claimBatch = 2
}

extension PostgresCheckpointStore {
    /// Turns this store into a worker's: `documentsNeedingWork` claims documents, and every write about one is
    /// fenced by its claim. Registers the worker (for `larder status`) and starts the heartbeat.
    public func startClaiming(
        leaseTTL: Double, maxAttempts: Int, pipelineVersion: String, stages: [StageDeclaration] = []
    ) throws {
        claims.settings.withLock {
            $0 = ClaimState.Settings(
                leaseTTL: leaseTTL, maxAttempts: maxAttempts, pipelineVersion: pipelineVersion,
                stageNames: stages.map(\.name), stageVersions: stages.map(\.version))
        }
        try announce(stages)
        try beat()
        let thread = Thread { [weak self] in
            while let store = self, !store.claims.stopHeartbeat.withLock({ $0 }) {
                let interval = leaseTTL / 3
                var waited = 0.0
                while waited < interval, !store.claims.stopHeartbeat.withLock({ $0 }) {
                    Thread.sleep(forTimeInterval: min(0.2, interval - waited))
                    waited += 0.2
                }
                if store.claims.stopHeartbeat.withLock({ $0 }) { return }
                try? store.beat()
            }
        }
        thread.name = "larder-heartbeat"
        thread.start()
    }

    /// Records the stage versions a worker runs (a version not seen before is newer than every one seen).
    public func announce(_ stages: [StageDeclaration]) throws {
        guard !stages.isEmpty else { return }
        let names = stages.map(\.name), versions = stages.map(\.version)
        try write { connection, logger in
            try await connection.run(
                """
                INSERT INTO stage_version (stage, version)
                SELECT * FROM unnest(\(names)::text[], \(versions)::text[]) ORDER BY 1
                ON CONFLICT (stage, version) DO NOTHING
                """, logger)
        }
    }

    /// Stops the heartbeat and gives this worker's claims back (their documents are free at once).
    public func stopClaiming() {
        claims.stopHeartbeat.withLock { $0 = true }
        let me = claims.workerID
        _ = try? write { connection, logger in
            try await connection.run(
                """
                UPDATE document SET claim_owner = NULL, claim_token = NULL, claim_expires = NULL
                WHERE claim_owner = \(me)
                """, logger)
            try await connection.run("DELETE FROM worker WHERE id = \(me)", logger)
        }
        claims.tokens.withLock { $0 = [:] }
    }

    /// One heartbeat: renews this worker's unexpired claims; a claim that was not renewed is lost (forgotten
    /// here, so the next write about it is refused at once).
    func beat() throws {
        guard let settings = claims.settings.withLock({ $0 }) else { return }
        let me = claims.workerID
        let held = claims.tokens.withLock { $0 }
        let tokens = Array(held.values)
        let renewed: Set<Int64> = try write { connection, logger in
            try await connection.run(
                """
                INSERT INTO worker (id, started_at, seen_at, pipeline_version)
                VALUES (\(me), now(), now(), \(settings.pipelineVersion))
                ON CONFLICT (id) DO UPDATE SET seen_at = now(), pipeline_version = excluded.pipeline_version
                """, logger)
            guard !tokens.isEmpty else { return [] }
            return Set(
                try await connection.rows(
                    """
                    UPDATE document SET claim_expires = now() + make_interval(secs => \(settings.leaseTTL))
                    WHERE claim_owner = \(me) AND claim_token = ANY(\(tokens)::bigint[]) AND claim_expires > now()
                    RETURNING claim_token
                    """, logger
                ).map { try $0.decode(Int64.self) })
        }
        claims.tokens.withLock { current in
            for (document, token) in held where !renewed.contains(token) && current[document] == token {
                current[document] = nil
            }
        }
    }

    /// Claims up to `limit` documents that need work (pending, or settled by another pipeline version) and that
    /// no live claim holds; stages a dead holder left `running` are given back, or quarantined at max_attempts.
    /// A retry (after a connection lost mid-claim) also takes back the live claims under this worker's name whose
    /// tokens this process does not know: those its first attempt took, if that COMMIT reached the server unseen.
    func claimDocuments(pipelineVersion: String, after documentID: Int64, limit: Int, settings: ClaimState.Settings)
        throws -> [DocumentRecord]
    {
        try claims.claiming.withLock { _ in
            try claimDocuments(pipelineVersion, after: documentID, count: min(limit, ClaimState.claimBatch), settings)
        }
    }

    private func claimDocuments(
        _ pipelineVersion: String, after documentID: Int64, count: Int, _ settings: ClaimState.Settings
    ) throws -> [DocumentRecord] {
        let me = claims.workerID
        let known = claims.tokens.withLock { Array($0.values) }
        let attempts = Attempts()
        let claimed: [ClaimedDocument] = try write { connection, logger in
            let retry = attempts.next()
            // A claim lost in a server crash is only a claim not taken: the next fenced write is refused.
            try await Fence.commitWithoutFlush(connection, logger)
            let rows = try await connection.rows(
                """
                WITH picked AS (
                    SELECT id FROM document
                    WHERE (state = 'pending' OR pipeline_version IS NULL OR pipeline_version <> \(pipelineVersion))
                      AND id > \(documentID)
                      AND NOT has_newer_work(id, \(settings.stageNames)::text[], \(settings.stageVersions)::text[])
                      AND (claim_owner IS NULL
                           OR claim_expires + make_interval(secs => \(ClaimState.backoffSeconds) * lost_claims) < now()
                           OR (\(retry) AND claim_owner = \(me) AND claim_expires > now()
                               AND claim_token <> ALL(\(known)::bigint[])))
                    ORDER BY id LIMIT \(count) FOR UPDATE SKIP LOCKED)
                UPDATE document d SET
                    lost_claims = d.lost_claims
                        + CASE WHEN d.claim_owner IS NULL OR (d.claim_owner = \(me) AND d.claim_expires > now()) THEN 0
                          ELSE 1 END,
                    claim_token = nextval('claim_token_sequence'), claim_owner = \(me),
                    claim_expires = now() + make_interval(secs => \(settings.leaseTTL))
                FROM picked WHERE d.id = picked.id
                RETURNING d.id, d.sha256, d.path, d.byte_count, d.modified_at, d.registered_at, d.state, d.claim_token
                """, logger)
            var claimed = try rows.map { row in
                let (_, _, _, _, _, _, _, token) = try row.decode(
                    (Int64, String, String, Int64, Double, Double, String, Int64).self)
                return ClaimedDocument(document: try Self.document(row), token: token)
            }
            let quarantined = try await Self.recoverStages(
                of: claimed.map(\.document.id), maxAttempts: settings.maxAttempts, connection, logger)
            claimed.removeAll { quarantined.contains($0.document.id) }
            return claimed.sorted { $0.document.id < $1.document.id }
        }
        claims.tokens.withLock { tokens in
            for claim in claimed { tokens[claim.document.id] = claim.token }
        }
        return claimed.map(\.document)
    }

    struct ClaimedDocument: Sendable {
        var document: DocumentRecord
        var token: Int64
    }

    /// Stages left `running` on `documents` (their holder died or lost its lease): at `maxAttempts` the stage and
    /// its document are quarantined (and the claim let go), else the stage goes back to pending, keeping its
    /// attempt count. Returns the quarantined documents.
    static func recoverStages(
        of documents: [Int64], maxAttempts: Int, _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> Set<Int64> {
        guard !documents.isEmpty else { return [] }
        var quarantined: Set<Int64> = []
        for row in try await connection.rows(
            """
            SELECT document_id, stage, attempts FROM stage_run
            WHERE document_id = ANY(\(documents)::bigint[]) AND status = 'running' AND attempts >= \(maxAttempts)
            """, logger)
        {
            let (id, stage, attempts) = try row.decode((Int64, String, Int).self)
            let json = try encode(crashError(attempts: attempts, stage: stage).record)
            try await connection.run(
                "UPDATE stage_run SET status = 'quarantined', error = \(json) WHERE document_id = \(id) AND stage = \(stage)",
                logger)
            try await connection.run(
                """
                UPDATE document SET state = 'quarantined', claim_owner = NULL, claim_token = NULL, claim_expires = NULL
                WHERE id = \(id)
                """, logger)
            quarantined.insert(id)
        }
        try await connection.run(
            """
            UPDATE stage_run SET status = 'pending' WHERE document_id = ANY(\(documents)::bigint[]) AND status = 'running'
            """, logger)
        return quarantined
    }

    static func crashError(attempts: Int, stage: String) -> LarderError {
        LarderError(
            .crashed,
            "the process died \(attempts) times while running this stage on this document (a native crash, or more memory than limits.worker_memory allows)",
            hint: "the file may crash a native library or be built to take memory: inspect it (or raise limits.worker_memory in pipeline.yml), then `larder retry` to try again",
            stage: stage)
    }

    /// The fencing token of this worker's claim on `documentID`, when it claims documents (nil: no fencing).
    func fence(_ documentID: Int64) throws -> Fence? {
        guard claims.isClaiming else { return nil }
        guard let token = claims.tokens.withLock({ $0[documentID] }) else { throw LeaseLost(documentID: documentID) }
        return Fence(documentID: documentID, token: token, owner: claims.workerID)
    }

    /// Forgets a claim that its document's settling let go.
    func released(_ documentID: Int64) {
        claims.tokens.withLock { $0[documentID] = nil }
    }
}

/// A write's proof that this worker still holds the document: checked in the write's transaction.
struct Fence: Sendable {
    var documentID: Int64
    var token: Int64
    var owner: String

    /// Locks the document's row and checks the claim is this worker's and unexpired on the database's clock.
    ///
    /// `flush: false` (a stage's commits and a claim): the transaction commits without waiting for its WAL flush
    /// (`synchronous_commit = off`, the class of SQLite's `synchronous = NORMAL`): a server crash can lose the last
    /// ~0.2 s of such commits (never a later commit without the earlier ones: the WAL is one sequence), which then
    /// run again. The stage commit checks what the lost commits would have left: the stage it stores must be the
    /// one this worker marked `running` (``PostgresCheckpointStore/storedStage``).
    func check(_ connection: PostgresConnection, _ logger: Logger, flush: Bool = true) async throws {
        // One round trip: the setting is made on the row the check found (none: the claim is lost).
        let held = try await connection.rows(
            """
            SELECT set_config('synchronous_commit',
                CASE WHEN \(flush) THEN current_setting('synchronous_commit') ELSE 'off' END, true)
            FROM document WHERE id = \(documentID) AND claim_token = \(token) AND claim_owner = \(owner)
              AND claim_expires > clock_timestamp() FOR UPDATE
            """, logger)
        if held.isEmpty { throw LeaseLost(documentID: documentID) }
    }

    /// `SET LOCAL synchronous_commit = off`: see ``check(_:_:flush:)``.
    static func commitWithoutFlush(_ connection: PostgresConnection, _ logger: Logger) async throws {
        try await connection.run("SELECT set_config('synchronous_commit', 'off', true)", logger)
    }
}

/// A worker as `larder status` shows it: when it was last seen, and its claims with their ages.
public struct FleetWorker: Sendable, Codable, Equatable {
    public struct Claim: Sendable, Codable, Equatable {
        public var documentID: Int64
        /// Seconds since the claim was taken or last renewed, on the database's clock.
        public var ageSeconds: Double
        /// Seconds until it expires (negative: expired, its document free again after the backoff).
        public var expiresInSeconds: Double
    }

    public var id: String
    public var pipelineVersion: String
    public var lastSeenSecondsAgo: Double
    public var claims: [Claim]
}

extension PostgresCheckpointStore {
    /// Every worker seen in the last hour, and every claim (also those of workers no longer seen). `leaseTTL`:
    /// the fleet's ttl, to tell a claim's age from its expiry.
    public func fleet(leaseTTL ttl: Double) throws -> [FleetWorker] {
        try read { connection, logger in
            var workers: [String: FleetWorker] = [:]
            for row in try await connection.rows(
                """
                SELECT id, pipeline_version, EXTRACT(EPOCH FROM now() - seen_at)::float8 FROM worker
                WHERE seen_at > now() - interval '1 hour'
                """, logger)
            {
                let (id, version, seen) = try row.decode((String, String, Double).self)
                workers[id] = FleetWorker(id: id, pipelineVersion: version, lastSeenSecondsAgo: seen, claims: [])
            }
            for row in try await connection.rows(
                """
                SELECT claim_owner, id, EXTRACT(EPOCH FROM claim_expires - now())::float8 FROM document
                WHERE claim_owner IS NOT NULL ORDER BY id
                """, logger)
            {
                let (owner, id, expiresIn) = try row.decode((String, Int64, Double).self)
                let claim = FleetWorker.Claim(documentID: id, ageSeconds: max(0, ttl - expiresIn), expiresInSeconds: expiresIn)
                workers[owner, default: FleetWorker(id: owner, pipelineVersion: "?", lastSeenSecondsAgo: -1, claims: [])]
                    .claims.append(claim)
            }
            return workers.values.sorted { $0.id < $1.id }
        }
    }

    /// Documents some worker could claim now (needing work, no live claim).
    public func claimableCount(pipelineVersion: String, stages: [StageDeclaration] = []) throws -> Int {
        let names = stages.map(\.name), versions = stages.map(\.version)
        return try read { connection, logger in
            try await connection.rows(
                """
                SELECT COUNT(*) FROM document
                WHERE (state = 'pending' OR pipeline_version IS NULL OR pipeline_version <> \(pipelineVersion))
                  AND NOT has_newer_work(id, \(names)::text[], \(versions)::text[])
                  AND (claim_owner IS NULL
                       OR claim_expires + make_interval(secs => \(ClaimState.backoffSeconds) * lost_claims) < now())
                """, logger)[0].decode(Int.self)
        }
    }
}
