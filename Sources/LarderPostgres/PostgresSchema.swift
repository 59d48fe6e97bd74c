import LarderCore
import Logging
import PostgresNIO

/// Larder's tables in PostgreSQL, all in one schema (`larder` by default), created and migrated when a store opens.
///
/// The tables mirror the SQLite store's (``SQLiteCheckpointStore``), plus `blob` (document bytes by SHA-256, so a
/// worker needs no shared filesystem) and the lease columns of `stage_run`. `larder_meta` marks the schema as
/// Larder's: a schema that holds any other table is refused, untouched.
enum PostgresSchema {
    /// 1: the first tables; 2: `stage_version` (upgrading a fleet host by host); 3: the recipe index
    /// (``PostgresRecipeIndex``: `larder search` and `larder cook`); 4: no index on `stage_run.status`, and the
    /// queue tables' fillfactor and autovacuum settings (``queueStorage``).
    static let version = 4
    /// `pg_advisory_xact_lock` keys: one migration at a time; one stage-event writer at a time per commit.
    static let migrationLock: Int64 = 0x4C72_6472_0001
    static let eventLock: Int64 = 0x4C72_6472_0002

    static let tables = Set<String>([
        "larder_meta", "batch", "document", "document_path", "stage_run", "result_version", "review", "input_error",
        "batch_document", "stage_event", "blob", "worker", "stage_version",
    ]).union(PostgresRecipeIndex.tables)

    /// One statement each (the extended protocol runs one at a time).
    static let statements: [String] = [
        "CREATE TABLE larder_meta (key text PRIMARY KEY, value text NOT NULL)",
        """
        CREATE TABLE batch (
            id bigserial PRIMARY KEY, command text NOT NULL, inputs text NOT NULL,
            started_at double precision NOT NULL, finished_at double precision, summary text)
        """,
        """
        CREATE TABLE document (
            id bigserial PRIMARY KEY, sha256 text NOT NULL UNIQUE, path text NOT NULL, byte_count bigint NOT NULL,
            modified_at double precision NOT NULL, registered_at double precision NOT NULL,
            state text NOT NULL DEFAULT 'pending', pipeline_version text, settled_batch bigint,
            settled_at double precision,
            claim_token bigint, claim_owner text, claim_expires timestamptz, lost_claims integer NOT NULL DEFAULT 0)
        """,
        "CREATE INDEX document_claim ON document (claim_owner) WHERE claim_owner IS NOT NULL",
        // Fencing tokens: every claim of a document takes a new one, so a worker whose claim expired and was taken
        // over holds a token that no longer matches, and every write it tries is refused.
        "CREATE SEQUENCE claim_token_sequence",
        "CREATE INDEX document_state ON document (state, pipeline_version)",
        "CREATE INDEX document_settled ON document (settled_batch, settled_at)",
        """
        CREATE TABLE document_path (
            seq bigserial, document_id bigint NOT NULL REFERENCES document (id) ON DELETE CASCADE,
            path text NOT NULL, batch_id bigint NOT NULL, byte_count bigint NOT NULL,
            modified_at double precision NOT NULL, PRIMARY KEY (document_id, path))
        """,
        "CREATE INDEX document_path_path ON document_path (path)",
        "CREATE INDEX document_path_batch ON document_path (batch_id)",
        """
        CREATE TABLE stage_run (
            seq bigserial, document_id bigint NOT NULL REFERENCES document (id) ON DELETE CASCADE,
            stage text NOT NULL, status text NOT NULL, attempts bigint NOT NULL DEFAULT 0, version text,
            started_at double precision, finished_at double precision, duration_ms double precision,
            output text, error text, validation text,
            PRIMARY KEY (document_id, stage))
        """,
        """
        CREATE TABLE result_version (
            document_id bigint NOT NULL REFERENCES document (id) ON DELETE CASCADE, number bigint NOT NULL,
            origin text NOT NULL, json text NOT NULL, violations text NOT NULL,
            created_at double precision NOT NULL, note text, PRIMARY KEY (document_id, number))
        """,
        """
        CREATE TABLE review (
            document_id bigint PRIMARY KEY REFERENCES document (id) ON DELETE CASCADE, accepted_version bigint,
            decision text, decided_version bigint, reason text)
        """,
        """
        CREATE TABLE input_error (
            id bigserial PRIMARY KEY, batch_id bigint NOT NULL REFERENCES batch (id), path text NOT NULL,
            error text NOT NULL)
        """,
        """
        CREATE TABLE batch_document (
            batch_id bigint NOT NULL, document_id bigint NOT NULL REFERENCES document (id) ON DELETE CASCADE,
            PRIMARY KEY (batch_id, document_id))
        """,
    ] + stageEventStatements + [
        "CREATE TABLE blob (sha256 text PRIMARY KEY, bytes bytea NOT NULL)",
    ] + stageVersionStatements + [

        """
        CREATE TABLE worker (
            id text PRIMARY KEY, started_at timestamptz NOT NULL, seen_at timestamptz NOT NULL,
            pipeline_version text NOT NULL)
        """,
    ] + PostgresRecipeIndex.statements + queueStorage

    /// Finished work must not bloat the queue tables. A stage's row is updated in place about twice per run
    /// (running, then done) and a document's three or more times (claimed, renewed, settled); each update leaves a
    /// dead row version. An update is HOT (the new version on the same page, no index entry, the dead one pruned
    /// by the next reader of the page) only when no indexed column changes and the page has room: so no index
    /// covers `stage_run.status` (running stages are found through the document's claim, `document_claim`), and
    /// the tables leave room on each page (`fillfactor`). What is not HOT (a claim, a settle: their columns are
    /// indexed) autovacuum reclaims: after 2 % of a table changed, not the default 20 %, without throttling, so a
    /// busy queue is vacuumed during its batch. `stage_event` is insert-only with old rows deleted.
    static let queueStorage: [String] = [
        "DROP INDEX IF EXISTS stage_run_status",
        """
        ALTER TABLE stage_run SET (fillfactor = 70, autovacuum_vacuum_scale_factor = 0.02,
            autovacuum_vacuum_threshold = 200, autovacuum_vacuum_insert_scale_factor = 0.05,
            autovacuum_analyze_scale_factor = 0.05, autovacuum_vacuum_cost_delay = 0)
        """,
        """
        ALTER TABLE document SET (fillfactor = 80, autovacuum_vacuum_scale_factor = 0.02,
            autovacuum_vacuum_threshold = 200, autovacuum_vacuum_insert_scale_factor = 0.05,
            autovacuum_analyze_scale_factor = 0.05, autovacuum_vacuum_cost_delay = 0)
        """,
        """
        ALTER TABLE stage_event SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_threshold = 1000,
            autovacuum_vacuum_insert_scale_factor = 0.05, autovacuum_vacuum_cost_delay = 0)
        """,
        commitStageFunction,
    ]

    /// A stage marked running again (`INSERT … ON CONFLICT DO UPDATE` over `stage_run AS s`): its attempts counted
    /// once per run. A new version starts at 1; the same run again (a retry whose first COMMIT reached the server
    /// unseen: the stage is running since the same `started_at`) counts nothing; any other run counts one more.
    static let rerunAttempts = """
        CASE WHEN s.version IS DISTINCT FROM excluded.version THEN 1
            WHEN s.status = 'running' AND s.started_at = excluded.started_at THEN s.attempts
            ELSE s.attempts + 1 END
        """

    /// A worker's stage commit in one statement (one round trip instead of BEGIN, the fence, the updates and
    /// COMMIT): checks the claim (``Fence``) under the document's row lock, commits without waiting for the WAL
    /// flush, stores the stage's output and done mark (only if the stage is `running`: see
    /// ``Fence/check(_:_:flush:)``), resets the later stages, and marks the next stage running. `stage_name` NULL:
    /// only marks `next_stage` running. Returns the next stage's attempt (0: none), -1 when the claim is lost, -2
    /// when the stage was not running (the claim is then let go, the running stages' attempt given back). The same
    /// call run twice (a retry after an unseen COMMIT) finds its own done mark and answers as the first run did.
    static let commitStageFunction = """
        CREATE OR REPLACE FUNCTION commit_stage(
            doc bigint, token bigint, owner text, stage_name text, stage_version text, started double precision,
            finished double precision, stage_output text, stage_validation text, later text[], next_stage text,
            next_version text, next_at double precision) RETURNS integer LANGUAGE plpgsql AS $$
        DECLARE n integer := 0;
        BEGIN
            PERFORM 1 FROM document WHERE id = doc AND claim_token = token AND claim_owner = owner
                AND claim_expires > clock_timestamp() FOR UPDATE;
            IF NOT FOUND THEN RETURN -1; END IF;
            PERFORM set_config('synchronous_commit', 'off', true);
            IF stage_name IS NOT NULL THEN
                UPDATE stage_run SET status = 'done', version = stage_version, started_at = started,
                    finished_at = finished, duration_ms = (finished - started) * 1000, output = stage_output,
                    error = NULL, validation = stage_validation
                WHERE document_id = doc AND stage = stage_name AND status = 'running';
                IF NOT FOUND THEN
                    -- This very commit again (a retry whose first COMMIT reached the server unseen): the same answer.
                    PERFORM 1 FROM stage_run WHERE document_id = doc AND stage = stage_name AND status = 'done'
                        AND version = stage_version AND started_at = started AND finished_at = finished;
                    IF FOUND THEN
                        IF next_stage IS NULL THEN RETURN 0; END IF;
                        SELECT attempts INTO n FROM stage_run WHERE document_id = doc AND stage = next_stage
                            AND status = 'running' AND started_at = next_at;
                        IF FOUND THEN RETURN n; END IF;
                    END IF;
                    UPDATE stage_run SET status = 'pending', attempts = GREATEST(attempts - 1, 0)
                    WHERE document_id = doc AND status = 'running';
                    UPDATE document SET claim_owner = NULL, claim_token = NULL, claim_expires = NULL WHERE id = doc;
                    RETURN -2;
                END IF;
                IF cardinality(later) > 0 THEN
                    UPDATE stage_run SET status = 'pending', attempts = 0, output = NULL, error = NULL
                    WHERE document_id = doc AND status <> 'pending' AND stage = ANY(later);
                END IF;
            END IF;
            IF next_stage IS NOT NULL THEN
                INSERT INTO stage_run AS s (document_id, stage, status, attempts, version, started_at)
                VALUES (doc, next_stage, 'running', 1, next_version, next_at)
                ON CONFLICT (document_id, stage) DO UPDATE SET
                    status = 'running',
                    attempts = \(rerunAttempts),
                    version = excluded.version, started_at = excluded.started_at
                RETURNING attempts INTO n;
            END IF;
            RETURN n;
        END $$
        """

    /// Stage events (what `larder serve`'s event stream reads, `sequence > last`) must come out in the order they
    /// became visible, or a reader would skip an event whose transaction committed after a later-numbered one. The
    /// trigger only appends the event (its `id` in insertion order, no lock; the newest 100,000 are kept); readers
    /// number the events committed so far under an advisory lock (``PostgresCheckpointStore/numberStageEvents``),
    /// so an event committed later always gets a higher number. (Numbering in the trigger under that lock, held to
    /// COMMIT, serialised every stage completion in the fleet, WAL flush included: bench-queue.sh measured 149 no-op
    /// stages per second under load, 184 with the trigger deferred to COMMIT.)
    static let stageEventStatements: [String] = [
        """
        CREATE TABLE stage_event (
            id bigserial PRIMARY KEY, sequence bigint UNIQUE, document_id bigint NOT NULL, stage text NOT NULL,
            status text NOT NULL, finished_at double precision, duration_ms double precision, error text)
        """,
        "CREATE INDEX stage_event_unnumbered ON stage_event (id) WHERE sequence IS NULL",
        "CREATE SEQUENCE stage_event_sequence",
        stageEventFunction,
        """
        CREATE TRIGGER stage_run_finished AFTER UPDATE OF status ON stage_run
        FOR EACH ROW EXECUTE FUNCTION stage_run_finished()
        """,
    ]

    static let stageEventFunction = """
        CREATE OR REPLACE FUNCTION stage_run_finished() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE n bigint;
        BEGIN
            IF NEW.status IN ('done', 'failed', 'quarantined') AND OLD.status IS DISTINCT FROM NEW.status THEN
                INSERT INTO stage_event (document_id, stage, status, finished_at, duration_ms, error)
                VALUES (NEW.document_id, NEW.stage, NEW.status, NEW.finished_at, NEW.duration_ms, NEW.error)
                RETURNING id INTO n;
                DELETE FROM stage_event WHERE id = n - 100000;
            END IF;
            RETURN NEW;
        END $$
        """

    /// A schema made while the trigger numbered the events (`sequence` its primary key, no `id`) gets the
    /// columns and the function that number them at read time.
    static func appendOnlyEvents(_ connection: PostgresConnection, schema: String, logger: Logger) async throws {
        let hasID = try await connection.rows(
            """
            SELECT 1 FROM information_schema.columns
            WHERE table_schema::text = \(schema) AND table_name::text = 'stage_event' AND column_name::text = 'id'
            """, logger)
        guard hasID.isEmpty else { return }
        for statement in [
            "ALTER TABLE stage_event DROP CONSTRAINT stage_event_pkey",
            "ALTER TABLE stage_event ADD COLUMN id bigserial PRIMARY KEY",
            "ALTER TABLE stage_event ALTER COLUMN sequence DROP NOT NULL",
            "ALTER TABLE stage_event ADD UNIQUE (sequence)",
            "CREATE INDEX stage_event_unnumbered ON stage_event (id) WHERE sequence IS NULL",
            stageEventFunction,
        ] {
            try await connection.run(PostgresQuery(unsafeSQL: statement), logger)
        }
    }

    /// Every stage version some worker ran, in the order the fleet first saw them (`seq`): a version seen later
    /// is newer. `has_newer_work(document, names, versions)`: whether a stage of the document ran at a version
    /// newer than the one given for it, so a worker still on an older version leaves the document alone.
    static let stageVersionStatements: [String] = [
        """
        CREATE TABLE stage_version (
            seq bigserial PRIMARY KEY, stage text NOT NULL, version text NOT NULL, UNIQUE (stage, version))
        """,
        """
        CREATE FUNCTION has_newer_work(doc bigint, names text[], versions text[]) RETURNS boolean
        LANGUAGE sql STABLE AS $$
            SELECT EXISTS (
                SELECT 1 FROM stage_run s
                JOIN unnest(names, versions) AS mine(stage, version) ON mine.stage = s.stage
                JOIN stage_version theirs ON theirs.stage = s.stage AND theirs.version = s.version
                JOIN stage_version ours ON ours.stage = s.stage AND ours.version = mine.version
                WHERE s.document_id = doc AND s.version <> mine.version AND theirs.seq > ours.seq)
        $$
        """,
    ]

    /// Creates the schema and its tables when absent; refuses a schema holding tables that are not Larder's.
    static func migrate(_ connection: PostgresConnection, schema: String, logger: Logger) async throws {
        try await connection.run("BEGIN", logger)
        do {
            try await connection.run("SELECT pg_advisory_xact_lock(\(migrationLock))", logger)
            try await connection.run(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(schema)"), logger)
            let existing = Set(
                try await connection.rows(
                    "SELECT table_name::text FROM information_schema.tables WHERE table_schema::text = \(schema)", logger
                ).map { try $0.decode(String.self) })
            if !existing.isEmpty {
                try check(existing: existing, schema: schema)
                try await upgrade(connection, existing: existing, logger: logger)
                try await appendOnlyEvents(connection, schema: schema, logger: logger)
            } else {
                for statement in statements { try await connection.run(PostgresQuery(unsafeSQL: statement), logger) }
                try await connection.run(
                    "INSERT INTO larder_meta (key, value) VALUES ('application', 'larder'), ('schema_version', \(String(version)))",
                    logger)
            }
            try await connection.run("COMMIT", logger)
        } catch {
            _ = try? await connection.run("ROLLBACK", logger)
            throw error
        }
    }

    /// Migrates an older schema in place, in the caller's transaction (under the migration lock).
    private static func upgrade(_ connection: PostgresConnection, existing: Set<String>, logger: Logger) async throws {
        var upgraded = false
        if !existing.contains("stage_version") {  // version 1: made before stage versions were kept
            for statement in stageVersionStatements { try await connection.run(PostgresQuery(unsafeSQL: statement), logger) }
            upgraded = true
        }
        if !existing.contains("recipe_entry") {  // versions 1 and 2: no recipe index; built from the results kept
            for statement in PostgresRecipeIndex.statements {
                try await connection.run(PostgresQuery(unsafeSQL: statement), logger)
            }
            try await PostgresRecipeIndex.rebuild(connection, logger)
            upgraded = true
        }
        let stored = try await connection.rows(
            "SELECT value FROM larder_meta WHERE key = 'schema_version'", logger
        ).first.map { Int(try $0.decode(String.self)) ?? 0 } ?? 0
        if stored < 4 {  // versions 1 to 3: status index, default storage settings
            for statement in queueStorage { try await connection.run(PostgresQuery(unsafeSQL: statement), logger) }
            upgraded = true
        }
        if upgraded {
            try await connection.run(
                "UPDATE larder_meta SET value = \(String(version)) WHERE key = 'schema_version'", logger)
        }
    }

    private static func check(existing: Set<String>, schema: String) throws {
        let foreign = existing.subtracting(tables)
        guard existing.contains("larder_meta"), foreign.isEmpty else {
            let what = foreign.isEmpty ? existing : foreign
            throw LarderError(
                .database,
                "PostgreSQL schema '\(schema)' holds tables that are not Larder's (\(what.sorted().prefix(5).joined(separator: ", "))); Larder left it untouched",
                hint: "give Larder a schema of its own: add ?schema=NAME to the store URL, or use an empty database")
        }
    }
}
