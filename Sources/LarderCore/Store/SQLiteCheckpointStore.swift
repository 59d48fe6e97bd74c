import Foundation
import GRDB

/// The checkpoint store in one SQLite file, in WAL mode, through GRDB.
///
/// `synchronous = NORMAL` under WAL: a killed process loses nothing committed, and after a power loss the file
/// is still consistent but may lack the last few commits, whose stages then simply run again.
/// `DatabasePool` is Sendable: any thread may call any method.
public final class SQLiteCheckpointStore: CheckpointStore {
    let pool: any DatabaseWriter  // internal: RecipeIndex's queries (RecipeSearch.swift) read through it
    public let path: String

    /// `PRAGMA application_id` of a Larder database ("Lrdr"), set when the schema is created; another
    /// application's SQLite file is refused rather than having Larder's tables added to it.
    public static let applicationID: Int32 = 0x4C72_6472
    /// `PRAGMA user_version`: the schema's version (the number of migrations).
    public static let schemaVersion: Int32 = 4

    /// Opens (creating if needed) the database at `path` and brings its schema up to date. With `readOnly`, the
    /// file is opened read-only and nothing is written (not even pragmas or migrations): for `status`, `show`,
    /// `review` lists and `export`, which then work on a database the user may only read.
    public init(path: String, readOnly: Bool = false) throws {
        self.path = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.readonly = readOnly
        configuration.prepareDatabase { db in
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        do {
            if readOnly {
                guard FileManager.default.fileExists(atPath: path) else {
                    throw LarderError(
                        .database, "there is no checkpoint database here",
                        hint: "run `larder ingest` first, or give the right --db", path: path)
                }
                pool = try Self.openReadOnly(path: path, configuration: configuration)
            } else {
                let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try Self.checkIdentityBeforeWriting(path: path)
                pool = try Self.open(path: path, configuration: configuration)
            }
        } catch let error as LarderError {
            throw error
        } catch let error as DatabaseError where [.SQLITE_FULL, .SQLITE_READONLY].contains(error.resultCode) {
            throw Self.failure(error, writing: true, path: path)
        } catch {
            throw LarderError(
                .database, "cannot open the checkpoint database: \(Self.describe(error))",
                hint: readOnly
                    ? "check that the file can be read and is a Larder database (--db)"
                    : "check that the folder is writable and the file is a Larder database (--db)", path: path)
        }
    }

    /// A read-only connection. A WAL database whose folder this user cannot write has no shared-memory file
    /// SQLite could create, so plain read-only opening fails ("SQLite error 14"); then the file is opened as
    /// immutable (an SQLite URI), which reads it without that file. (An immutable reader does not see a writer
    /// working at the same time: a user who may not write the folder is not running one.)
    private static func openReadOnly(path: String, configuration: Configuration) throws -> DatabaseQueue {
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.read { db in try checkIdentity(db, path: path) }
            return queue
        } catch let error as DatabaseError
            where [.SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_IOERR].contains(error.resultCode)
        {
            let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)
            let encoded = FilePath.bytes(of: path).map {
                unreserved.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0)
            }.joined()
            let queue = try DatabaseQueue(path: "file:\(encoded)?immutable=1", configuration: configuration)
            try queue.read { db in try checkIdentity(db, path: path) }
            return queue
        }
    }

    /// SQLite's own words for a database error, without Swift's type names.
    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return error.message.map { "\($0) (SQLite error \(error.resultCode.rawValue))" }
                ?? "SQLite error \(error.resultCode.rawValue)"
        }
        return "\(error)"
    }

    /// Refuses another application's database before anything (WAL mode, migrations) touches it.
    private static func checkIdentityBeforeWriting(path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0, info.st_size > 0 else { return }  // new or empty: ours to create
        // A plain connection (no WAL switch, no schema): reading the header and the table names changes nothing.
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.read { db in try checkIdentity(db, path: path) }
    }

    /// A Larder database has Larder's application id, or (made before the id existed) Larder's tables; an empty
    /// database, or one Larder is creating, is fine. Anything else is another application's file.
    private static func checkIdentity(_ db: Database, path: String) throws {
        let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        if id == applicationID { return }
        let tables = Set(try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))
        // Only GRDB's migration table: another Larder process is creating the schema right now (each migration
        // commits on its own, so a reader can see the table before the first migration has committed).
        if id == 0 && (tables.isSubset(of: ["grdb_migrations"]) || tables.isSuperset(of: ["grdb_migrations", "document", "stage_run"])) {
            return
        }
        let what =
            id != 0
            ? String(format: "it belongs to another application (SQLite application_id 0x%08X)", UInt32(bitPattern: id))
            : "it is another application's SQLite database (tables: \(tables.sorted().prefix(5).joined(separator: ", ")))"
        throw LarderError(
            .database, "not a Larder checkpoint database: \(what); Larder left it untouched",
            hint: "give --db a new file or an existing Larder database", path: path)
    }

    /// Opens the pool and brings the schema up to date. Two processes opening a new database at once (`larder
    /// ingest` creating it while `larder status` looks) can collide: one switches the file to WAL while the other
    /// holds it, or both try to create the schema (the migrator reads which migrations ran before it takes the
    /// write lock). The loser retries for up to about two seconds and then sees the winner's schema.
    private static func open(path: String, configuration: Configuration) throws -> DatabasePool {
        let transient: [ResultCode] = [.SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_CONSTRAINT, .SQLITE_ERROR]
        for attempt in 1... {
            do {
                let pool = try DatabasePool(path: path, configuration: configuration)
                try migrator.migrate(pool)
                return pool
            } catch let error as DatabaseError where attempt < 40 && transient.contains(error.resultCode) {
                usleep(50_000)
            }
        }
        fatalError("unreachable")
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE batch (
                        id INTEGER PRIMARY KEY,
                        command TEXT NOT NULL,
                        inputs TEXT NOT NULL,          -- JSON array of the paths given
                        started_at REAL NOT NULL,
                        finished_at REAL,
                        summary TEXT                   -- JSON summary printed at the end
                    );
                    CREATE TABLE document (
                        id INTEGER PRIMARY KEY,
                        sha256 TEXT NOT NULL UNIQUE,
                        path TEXT NOT NULL,            -- first path registered
                        byte_count INTEGER NOT NULL,
                        modified_at REAL NOT NULL,
                        registered_at REAL NOT NULL,
                        state TEXT NOT NULL DEFAULT 'pending',
                        pipeline_version TEXT          -- stage versions it was last settled with
                    );
                    CREATE INDEX document_state ON document(state, pipeline_version);
                    CREATE TABLE document_path (
                        document_id INTEGER NOT NULL REFERENCES document(id) ON DELETE CASCADE,
                        path TEXT NOT NULL,
                        batch_id INTEGER NOT NULL,     -- the batch that last saw this path
                        byte_count INTEGER NOT NULL,   -- size and mtime when last hashed: unchanged files
                        modified_at REAL NOT NULL,     -- are not hashed again
                        PRIMARY KEY (document_id, path)
                    );
                    CREATE INDEX document_path_batch ON document_path(batch_id);
                    CREATE INDEX document_path_path ON document_path(path);
                    CREATE TABLE stage_run (
                        document_id INTEGER NOT NULL REFERENCES document(id) ON DELETE CASCADE,
                        stage TEXT NOT NULL,
                        status TEXT NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        version TEXT,
                        started_at REAL,
                        finished_at REAL,
                        duration_ms REAL,
                        output TEXT,                   -- JSON
                        error TEXT,                    -- JSON LarderError.Record
                        validation TEXT,               -- JSON [SchemaViolation] when the output broke its schema
                        PRIMARY KEY (document_id, stage)
                    );
                    CREATE INDEX stage_run_status ON stage_run(status);
                    CREATE TABLE result_version (      -- every result a document ever had; never deleted
                        document_id INTEGER NOT NULL REFERENCES document(id) ON DELETE CASCADE,
                        number INTEGER NOT NULL,       -- 1, 2, 3… per document
                        origin TEXT NOT NULL,          -- machine | human
                        json TEXT NOT NULL,
                        violations TEXT NOT NULL,      -- JSON [SchemaViolation]; [] when valid
                        created_at REAL NOT NULL,
                        note TEXT,                     -- stage version, or how a person changed it
                        PRIMARY KEY (document_id, number)
                    );
                    CREATE TABLE review (
                        document_id INTEGER PRIMARY KEY REFERENCES document(id) ON DELETE CASCADE,
                        accepted_version INTEGER,      -- the version exports use; NULL until one is accepted
                        decision TEXT,                 -- accepted | rejected
                        decided_version INTEGER,       -- the latest machine version when the decision was made
                        reason TEXT
                    );
                    CREATE TABLE input_error (
                        id INTEGER PRIMARY KEY,
                        batch_id INTEGER NOT NULL REFERENCES batch(id),
                        path TEXT NOT NULL,
                        error TEXT NOT NULL            -- JSON LarderError.Record
                    );
                    """)
        }
        migrator.registerMigration("v2") { db in
            // Marks the file as Larder's; records which batch settled each document and which documents each
            // batch saw (a batch's summary counts its own documents even while another batch runs).
            try db.execute(
                sql: """
                    PRAGMA application_id = \(applicationID);
                    PRAGMA user_version = \(schemaVersion);
                    ALTER TABLE document ADD COLUMN settled_batch INTEGER;
                    ALTER TABLE document ADD COLUMN settled_at REAL;
                    CREATE INDEX document_settled ON document(settled_batch, settled_at);
                    CREATE TABLE batch_document (
                        batch_id INTEGER NOT NULL,
                        document_id INTEGER NOT NULL REFERENCES document(id) ON DELETE CASCADE,
                        PRIMARY KEY (batch_id, document_id)
                    ) WITHOUT ROWID;
                    INSERT OR IGNORE INTO batch_document (batch_id, document_id)
                        SELECT batch_id, document_id FROM document_path;
                    """)
        }
        RecipeIndex.registerMigration(in: &migrator)
        migrator.registerMigration("v4-stage-events") { db in
            // Every stage that finishes, numbered in commit order (SQLite has one writer at a time, and the number
            // is taken inside the writing transaction): what `larder serve`'s event streams read, by number, so
            // none is missed whatever clock the process that finished it had. The newest 100 000 are kept.
            try db.execute(
                sql: """
                    PRAGMA user_version = \(schemaVersion);
                    CREATE TABLE stage_event (
                        sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                        document_id INTEGER NOT NULL,
                        stage TEXT NOT NULL,
                        status TEXT NOT NULL,          -- done | failed | quarantined
                        finished_at REAL,
                        duration_ms REAL,
                        error TEXT                     -- JSON LarderError.Record
                    );
                    CREATE TRIGGER stage_run_finished AFTER UPDATE OF status ON stage_run
                    WHEN NEW.status IN ('done', 'failed', 'quarantined') AND OLD.status IS NOT NEW.status
                    BEGIN
                        INSERT INTO stage_event (document_id, stage, status, finished_at, duration_ms, error)
                        VALUES (NEW.document_id, NEW.stage, NEW.status, NEW.finished_at, NEW.duration_ms, NEW.error);
                        DELETE FROM stage_event WHERE sequence <= (SELECT MAX(sequence) FROM stage_event) - 100000;
                    END;
                    """)
        }
        return migrator
    }

    /// One write transaction. Under `LARDER_TRACE` the wait for the write lock (GRDB's writer and SQLite's, up to
    /// the end of `BEGIN IMMEDIATE`), the statements and the COMMIT are recorded as three intervals labelled with
    /// the store call (see ``WorkTrace``).
    ///
    /// `BEGIN IMMEDIATE` and `COMMIT` run as cached statements: GRDB's `write` compiles both again for every
    /// transaction, and the work queue makes nine transactions per document (while one compiles, the other worker
    /// waits for the lock). The rest is what `write` does: a failed body or COMMIT rolls back (when SQLite has not
    /// already) and its error is thrown.
    private func write<T>(_ call: String = #function, _ body: (Database) throws -> T) throws -> T {
        do {
            let trace = WorkTrace.shared
            let asked = trace.map { _ in WorkTrace.Stamp.now() }
            return try pool.writeWithoutTransaction { db in
                try db.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
                let entered = asked.map { _ in WorkTrace.Stamp.now() }
                do {
                    let value = try body(db)
                    let bodyEnd = entered.map { _ in WorkTrace.Stamp.now() }
                    try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
                    if let trace, let asked, let entered, let bodyEnd {
                        let label = String(call.prefix { $0 != "(" })
                        trace.record("lock", label, since: asked, to: entered)
                        trace.record("write", label, since: entered, to: bodyEnd)
                        trace.record("commit", label, since: bodyEnd)
                    }
                    return value
                } catch {
                    try? db.rollback()  // only while a transaction is open (SQLite may have rolled back already)
                    throw error
                }
            }
        } catch let error as LarderError { throw error } catch {
            throw Self.failure(error, writing: true, path: path)
        }
    }

    private func read<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try pool.read(body) } catch let error as LarderError { throw error } catch {
            throw Self.failure(error, writing: false, path: path)
        }
    }

    /// A read made of one SQL statement, outside a transaction: SQLite runs a statement on one snapshot of the
    /// database, so it needs none (`body` must run only one statement).
    private func readOneStatement<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try pool.unsafeRead(body) } catch let error as LarderError { throw error } catch {
            throw Self.failure(error, writing: false, path: path)
        }
    }

    /// A database error in Larder's words, with what to do: a full disk and a read-only file are named as such.
    static func failure(_ error: any Error, writing: Bool, path: String) -> LarderError {
        let code = (error as? DatabaseError)?.resultCode
        if code == .SQLITE_FULL {
            return LarderError(
                .database, "the disk holding the checkpoint database is full",
                hint: "free some space on it (df -h), then run `larder resume`: nothing finished so far is lost",
                path: path)
        }
        if code == .SQLITE_READONLY {
            return LarderError(
                .database, "the checkpoint database is read-only",
                hint: "make it and its folder writable for this user, or use a read-only command (status, show, export)",
                path: path)
        }
        return LarderError(
            .database, "database \(writing ? "write" : "read") failed: \(describe(error))",
            hint: "check the disk and the file; `larder status` shows what is stored", path: path)
    }

    private static func now() -> Double { Date().timeIntervalSince1970 }

    // MARK: Batches and registration

    public func beginBatch(command: String, inputs: [String]) throws -> Int64 {
        let inputsJSON = String(decoding: try JSONEncoder().encode(inputs), as: UTF8.self)
        return try write { db in
            try db.execute(
                sql: "INSERT INTO batch (command, inputs, started_at) VALUES (?, ?, ?)",
                arguments: [command, inputsJSON, Self.now()])
            return db.lastInsertedRowID
        }
    }

    public func finishBatch(_ batchID: Int64, summaryJSON: String) throws {
        try write { db in
            try db.execute(
                sql: "UPDATE batch SET finished_at = ?, summary = ? WHERE id = ?",
                arguments: [Self.now(), summaryJSON, batchID])
        }
    }

    public func register(_ files: [RegisteredFile], batchID: Int64, stages: [String]) throws -> [Registration] {
        try write { db in
            let findDocument = try db.cachedStatement(sql: "SELECT id FROM document WHERE sha256 = ?")
            let findEarlierPath = try db.cachedStatement(sql: Self.earlierPathSQL)
            let addToBatch = try db.cachedStatement(
                sql: "INSERT OR IGNORE INTO batch_document (batch_id, document_id) VALUES (?, ?)")
            let upsertPath = try db.cachedStatement(
                sql: """
                    INSERT INTO document_path (document_id, path, batch_id, byte_count, modified_at)
                    VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (document_id, path) DO UPDATE SET
                        batch_id = excluded.batch_id, byte_count = excluded.byte_count,
                        modified_at = excluded.modified_at
                    """)
            let insertDocument = try db.cachedStatement(
                sql: """
                    INSERT INTO document (sha256, path, byte_count, modified_at, registered_at)
                    VALUES (?, ?, ?, ?, ?)
                    """)
            let insertStage = try db.cachedStatement(
                sql: "INSERT INTO stage_run (document_id, stage, status) VALUES (?, ?, 'pending')")
            var results: [Registration] = []
            results.reserveCapacity(files.count)
            for file in files {
                if let id = try Int64.fetchOne(findDocument, arguments: [file.sha256]) {
                    // Seen in this batch already under another path? Then it is a duplicate file.
                    let earlier = try String.fetchOne(findEarlierPath, arguments: [id, batchID, file.path])
                    try upsertPath.execute(arguments: [id, file.path, batchID, file.byteCount, file.modifiedAt])
                    try addToBatch.execute(arguments: [batchID, id])
                    results.append(earlier.map { .duplicate(documentID: id, of: $0) } ?? .known(documentID: id))
                    continue
                }
                try insertDocument.execute(
                    arguments: [file.sha256, file.path, file.byteCount, file.modifiedAt, Self.now()])
                let id = db.lastInsertedRowID
                try upsertPath.execute(arguments: [id, file.path, batchID, file.byteCount, file.modifiedAt])
                try addToBatch.execute(arguments: [batchID, id])
                for stage in stages { try insertStage.execute(arguments: [id, stage]) }
                results.append(.new(documentID: id))
            }
            return results
        }
    }

    /// Another path of a document seen in this batch. By document (its primary key), not by batch: `+batch_id`
    /// keeps SQLite from scanning the whole batch's paths for every file, which made a no-op re-run quadratic in
    /// the batch's size (15 s at 20,000 files).
    static let earlierPathSQL =
        "SELECT path FROM document_path WHERE document_id = ? AND +batch_id = ? AND path <> ? LIMIT 1"

    /// The bytes a document's rows hold: each stage's stored output (as stored, before ``storedOutput`` reads the
    /// result's from its version) and all its result versions. For the tests that bound them.
    func storedBytes(of documentID: Int64) throws -> (outputs: [String: Int], versions: Int) {
        try read { db in
            var outputs: [String: Int] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT stage, COALESCE(LENGTH(CAST(output AS BLOB)), 0) AS n FROM stage_run WHERE document_id = ?",
                arguments: [documentID])
            {
                outputs[row["stage"]] = row["n"]
            }
            let versions = try Int.fetchOne(
                db, sql: "SELECT COALESCE(SUM(LENGTH(CAST(json AS BLOB))), 0) FROM result_version WHERE document_id = ?",
                arguments: [documentID]) ?? 0
            return (outputs, versions)
        }
    }

    /// SQLite's plan for a query (`EXPLAIN QUERY PLAN`), one step a line: for tests of the indexes.
    func queryPlan(_ sql: String, arguments: StatementArguments) throws -> [String] {
        try read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
        }
    }

    public func knownHashes(of files: [FileIdentity]) throws -> [String: String] {
        guard !files.isEmpty else { return [:] }
        return try read { db in
            var hashes: [String: String] = [:]
            let statement = try db.cachedStatement(
                sql: """
                    SELECT d.sha256 FROM document_path p JOIN document d ON d.id = p.document_id
                    WHERE p.path = ? AND p.byte_count = ? AND p.modified_at = ? LIMIT 1
                    """)
            for file in files {
                if let sha = try String.fetchOne(statement, arguments: [file.path, file.byteCount, file.modifiedAt]) {
                    hashes[file.path] = sha
                }
            }
            return hashes
        }
    }

    public func recordInputError(batchID: Int64, path: String, error: LarderError) throws {
        let json = try Self.encode(error.record)
        try write { db in
            try db.execute(
                sql: "INSERT INTO input_error (batch_id, path, error) VALUES (?, ?, ?)",
                arguments: [batchID, path, json])
        }
    }

    public func inputErrors(batchID: Int64) throws -> [InputError] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT path, error FROM input_error WHERE batch_id = ? ORDER BY id", arguments: [batchID]
            ).map { row in
                InputError(batchID: batchID, path: row["path"], error: try Self.decodeError(row["error"])!)
            }
        }
    }

    public func latestBatchID() throws -> Int64? {
        try read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM batch") }
    }

    // MARK: The queue

    public func recoverInterruptedStages(maxAttempts: Int) throws -> [Int64] {
        try write { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT document_id, stage, attempts FROM stage_run WHERE status = 'running'")
            var suspects: [Int64] = []
            for row in rows {
                let id: Int64 = row["document_id"]
                let stage: String = row["stage"]
                let attempts: Int = row["attempts"]
                if attempts >= maxAttempts {
                    let error = LarderError(
                        .crashed,
                        "the process died \(attempts) times while running this stage on this document (a native crash, or more memory than limits.worker_memory allows)",
                        hint: "the file may crash a native library or be built to take memory: inspect it (or raise limits.worker_memory in pipeline.yml), then `larder retry` to try again",
                        stage: stage)
                    try db.execute(
                        sql: "UPDATE stage_run SET status = 'quarantined', error = ? WHERE document_id = ? AND stage = ?",
                        arguments: [try Self.encode(error.record), id, stage])
                    try db.execute(sql: "UPDATE document SET state = 'quarantined' WHERE id = ?", arguments: [id])
                } else {
                    try db.execute(
                        sql: "UPDATE stage_run SET status = 'pending' WHERE document_id = ? AND stage = ?",
                        arguments: [id, stage])
                    try db.execute(sql: "UPDATE document SET state = 'pending' WHERE id = ?", arguments: [id])
                    suspects.append(id)
                }
            }
            return suspects
        }
    }

    public func failAfterMemoryLimit(error: LarderError) throws -> Int64? {
        try write { db in
            let rows = try Row.fetchAll(db, sql: "SELECT document_id, stage FROM stage_run WHERE status = 'running'")
            guard rows.count == 1, let row = rows.first else {
                // Several in flight: none is blamed; each runs again alone (see recoverInterruptedStages).
                try db.execute(sql: "UPDATE stage_run SET attempts = MAX(attempts - 1, 0) WHERE status = 'running'")
                return nil
            }
            let id: Int64 = row["document_id"]
            let stage: String = row["stage"]
            var error = error
            error.stage = stage
            try db.execute(
                sql: "UPDATE stage_run SET status = 'failed', finished_at = ?, error = ? WHERE document_id = ? AND stage = ?",
                arguments: [Self.now(), try Self.encode(error.record), id, stage])
            try db.execute(sql: "UPDATE document SET state = 'failed' WHERE id = ?", arguments: [id])
            return id
        }
    }

    public func releaseInterruptedStages() throws -> Int {
        try write { db in
            try db.execute(
                sql: """
                    UPDATE document SET state = 'pending'
                    WHERE id IN (SELECT document_id FROM stage_run WHERE status = 'running')
                    """)
            try db.execute(
                sql: "UPDATE stage_run SET status = 'pending', attempts = MAX(attempts - 1, 0) WHERE status = 'running'")
            return db.changesCount
        }
    }

    private static let documentColumns =
        "id, sha256, path, byte_count, modified_at, registered_at, state"

    private static func document(_ row: Row) -> DocumentRecord {
        DocumentRecord(
            id: row["id"], sha256: row["sha256"], path: row["path"], byteCount: row["byte_count"],
            modifiedAt: row["modified_at"], registeredAt: row["registered_at"],
            state: DocumentState(rawValue: row["state"]) ?? .pending)
    }

    private static let needsWork =
        "(state = 'pending' OR pipeline_version IS NULL OR pipeline_version <> :version)"

    public func documentsNeedingWork(pipelineVersion: String, after documentID: Int64, limit: Int) throws
        -> [DocumentRecord]
    {
        try readOneStatement { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT \(Self.documentColumns) FROM document
                        WHERE \(Self.needsWork) AND id > :after ORDER BY id LIMIT :limit
                        """),
                arguments: ["version": pipelineVersion, "after": documentID, "limit": limit]
            ).map(Self.document)
        }
    }

    /// Whether a worker started before the files are registered could have work: the database holds no document
    /// yet (a first run's files are all new) or a document needs work. `larder ingest` otherwise starts its worker
    /// only once a new document is registered, so a re-run of a finished batch starts none.
    public func mayHaveWorkBeforeRegistering(pipelineVersion: String) throws -> Bool {
        try read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT NOT EXISTS (SELECT 1 FROM document)
                        OR EXISTS (SELECT 1 FROM document WHERE \(Self.needsWork))
                    """,
                arguments: ["version": pipelineVersion]) ?? true
        }
    }

    public func countDocumentsNeedingWork(pipelineVersion: String) throws -> Int {
        try read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM document WHERE \(Self.needsWork)",
                arguments: ["version": pipelineVersion]) ?? 0
        }
    }

    public func document(id: Int64) throws -> DocumentRecord? {
        try read { db in
            try Row.fetchOne(
                db, sql: "SELECT \(Self.documentColumns) FROM document WHERE id = ?", arguments: [id]
            ).map(Self.document)
        }
    }

    public func document(matching reference: String) throws -> DocumentRecord? {
        if let id = Int64(reference), let found = try document(id: id) { return found }
        return try read { db in
            let lower = reference.lowercased()
            if lower.count >= 4, lower.allSatisfy(\.isHexDigit) {
                let rows = try Row.fetchAll(
                    db, sql: "SELECT \(Self.documentColumns) FROM document WHERE sha256 LIKE ? LIMIT 2",
                    arguments: [lower + "%"])
                if rows.count > 1 {
                    throw LarderError(
                        .configuration, "'\(reference)' matches several documents",
                        hint: "give more digits of the SHA-256")
                }
                if let row = rows.first { return Self.document(row) }
            }
            let absolute = URL(fileURLWithPath: reference).standardizedFileURL.path
            return try Row.fetchOne(
                db,
                sql: """
                    SELECT \(Self.documentColumns) FROM document
                    WHERE id = (SELECT document_id FROM document_path WHERE path IN (?, ?) LIMIT 1)
                    """,
                arguments: [reference, absolute]
            ).map(Self.document)
        }
    }

    /// A stage run's output. The result stage's done row holds none: its output is the document's latest machine
    /// result version, stored once in `result_version` by the transaction that marked it done (an output that
    /// repeats it in `stage_run`, as databases before issue 11's last item hold, is read as it is).
    static let storedOutput = """
        CASE WHEN stage_run.output IS NULL AND stage_run.status = 'done' THEN (
            SELECT json FROM result_version WHERE result_version.document_id = stage_run.document_id
            AND origin = 'machine' ORDER BY number DESC LIMIT 1) ELSE stage_run.output END
        """

    public func stages(of documentID: Int64) throws -> [StageRecord] {
        // One statement: SQLite reads it from one snapshot, so no transaction around it (GRDB's `read` compiles a
        // BEGIN and a COMMIT for each; every document's run starts with this read).
        try readOneStatement { db in
            // Cached: every document's run starts with this read (compiling it was most of its cost).
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT document_id, stage, status, attempts, version, started_at, finished_at, duration_ms,
                               \(Self.storedOutput) AS output, error, validation
                        FROM stage_run WHERE document_id = ?
                        """),
                arguments: [documentID]
            ).map { row in
                StageRecord(
                    documentID: row["document_id"], stage: row["stage"],
                    status: StageStatus(rawValue: row["status"]) ?? .pending, attempts: row["attempts"],
                    version: row["version"], startedAt: row["started_at"], finishedAt: row["finished_at"],
                    durationMilliseconds: row["duration_ms"], output: row["output"],
                    error: try Self.decodeError(row["error"]),
                    violations: try (row["validation"] as String?).map {
                        try JSONDecoder().decode([SchemaViolation].self, from: Data($0.utf8))
                    } ?? [])
            }
        }
    }

    public func stageVersions(of documentID: Int64) throws -> [(stage: String, version: String?)] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT stage, version FROM stage_run WHERE document_id = ? ORDER BY rowid",
                arguments: [documentID]
            ).map { (stage: $0["stage"], version: $0["version"]) }
        }
    }

    public func markRunning(documentID: Int64, stage: String, version: String, at time: Double) throws -> Int {
        try write { db in try Self.markRunning(db, documentID: documentID, stage: stage, version: version, at: time) }
    }

    private static func markRunning(_ db: Database, documentID: Int64, stage: String, version: String, at time: Double) throws -> Int {
        try db.cachedStatement(
            sql: """
                INSERT INTO stage_run (document_id, stage, status, attempts, version, started_at)
                VALUES (:id, :stage, 'running', 1, :version, :time)
                ON CONFLICT (document_id, stage) DO UPDATE SET
                    status = 'running',
                    attempts = CASE WHEN version IS :version THEN attempts + 1 ELSE 1 END,
                    version = :version, started_at = :time
                """
        ).execute(arguments: ["id": documentID, "stage": stage, "version": version, "time": time])
        return try Int.fetchOne(
            db.cachedStatement(sql: "SELECT attempts FROM stage_run WHERE document_id = ? AND stage = ?"),
            arguments: [documentID, stage]) ?? 1
    }

    @discardableResult
    public func complete(
        documentID: Int64, stage: String, version: String, output: String, decodedResult: DocumentResult?,
        violations: [SchemaViolation], isResult: Bool, startedAt: Double, finishedAt: Double, laterStages: [String],
        then: AfterCompletion
    ) throws -> Int? {
        let violationsJSON = violations.isEmpty ? "[]" : String(decoding: try JSONEncoder().encode(violations), as: UTF8.self)
        // The search index's rows are put together before the write lock is taken; the transaction only writes them.
        let indexRows = try isResult ? decodedResult.map(RecipeIndex.Rows.init) : nil
        return try write { db -> Int? in
            try db.cachedStatement(
                sql: """
                    UPDATE stage_run SET status = 'done', version = ?, started_at = ?, finished_at = ?,
                        duration_ms = ?, output = ?, error = NULL, validation = ?
                    WHERE document_id = ? AND stage = ?
                    """
            ).execute(arguments: [
                // The result is kept once, as the document's latest machine version (``storedOutput``).
                version, startedAt, finishedAt, (finishedAt - startedAt) * 1000, isResult ? nil : output,
                violations.isEmpty ? nil : violationsJSON, documentID, stage,
            ])
            if isResult {
                try Self.keepResultVersion(
                    db, documentID: documentID, output: output, rows: indexRows, violationsJSON: violationsJSON,
                    at: finishedAt, version: version)
            }
            if !laterStages.isEmpty {
                try db.cachedStatement(
                    sql: """
                        UPDATE stage_run SET status = 'pending', attempts = 0, output = NULL, error = NULL
                        WHERE document_id = ? AND status <> 'pending' AND stage IN (\(databaseQuestionMarks(count: laterStages.count)))
                        """
                ).execute(arguments: StatementArguments([documentID] + laterStages.map { $0 as (any DatabaseValueConvertible) }))
            }
            switch then {
            case .nothing: return nil
            case .markRunning(let next, let nextVersion, let time):
                return try Self.markRunning(db, documentID: documentID, stage: next, version: nextVersion, at: time)
            case .settle(let state, let pipelineVersion, let batchID):
                try Self.settle(db, documentID: documentID, state: state, pipelineVersion: pipelineVersion, batchID: batchID)
                return nil
            case .fail(let error, let pipelineVersion, let batchID):
                try db.cachedStatement(
                    sql: "UPDATE stage_run SET status = 'failed', error = ? WHERE document_id = ? AND stage = ?"
                ).execute(arguments: [try Self.encode(error.record), documentID, stage])
                try Self.settle(db, documentID: documentID, state: .failed, pipelineVersion: pipelineVersion, batchID: batchID)
                return nil
            }
        }
    }

    /// A new machine version only when the result changed: a rerun that agrees adds nothing.
    private static func keepResultVersion(
        _ db: Database, documentID: Int64, output: String, rows: RecipeIndex.Rows?, violationsJSON: String,
        at time: Double, version: String
    ) throws {
        let last = try String.fetchOne(
            db.cachedStatement(
                sql: "SELECT json FROM result_version WHERE document_id = ? AND origin = 'machine' ORDER BY number DESC LIMIT 1"),
            arguments: [documentID])
        guard last != output else { return }
        let number =
            (try Int.fetchOne(
                db.cachedStatement(sql: "SELECT MAX(number) FROM result_version WHERE document_id = ?"),
                arguments: [documentID]) ?? 0) + 1
        try db.cachedStatement(
            sql: """
                INSERT INTO result_version (document_id, number, origin, json, violations, created_at, note)
                VALUES (?, ?, 'machine', ?, ?, ?, ?)
                """
        ).execute(arguments: [documentID, number, output, violationsJSON, time, version])
        // The version just inserted is the latest machine one: the index need not read it back.
        try RecipeIndex.update(
            db, documentID: documentID,
            stored: RecipeIndex.Stored(number: number, json: output, isValid: violationsJSON == "[]", rows: rows))
    }

    public func recordFailure(
        documentID: Int64, stage: String, version: String, error: LarderError, status: StageStatus,
        startedAt: Double, finishedAt: Double
    ) throws {
        let json = try Self.encode(error.record)
        try write { db in
            try db.execute(
                sql: """
                    UPDATE stage_run SET status = ?, version = ?, started_at = ?, finished_at = ?, duration_ms = ?,
                        output = NULL, error = ?
                    WHERE document_id = ? AND stage = ?
                    """,
                arguments: [
                    status.rawValue, version, startedAt, finishedAt, (finishedAt - startedAt) * 1000, json,
                    documentID, stage,
                ])
        }
    }

    public func settle(documentID: Int64, state: DocumentState, pipelineVersion: String, batchID: Int64?) throws {
        try write { db in
            try Self.settle(db, documentID: documentID, state: state, pipelineVersion: pipelineVersion, batchID: batchID)
        }
    }

    private static func settle(
        _ db: Database, documentID: Int64, state: DocumentState, pipelineVersion: String, batchID: Int64?
    ) throws {
        try db.cachedStatement(
            sql: """
                UPDATE document SET state = ?, pipeline_version = ?, settled_batch = ?, settled_at = ?
                WHERE id = ?
                """
        ).execute(arguments: [state.rawValue, pipelineVersion, batchID, now(), documentID])
    }

    public func settledCounts(batchID: Int64, since time: Double) throws -> [DocumentState: Int] {
        try read { db in
            var counts: [DocumentState: Int] = [:]
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT state, COUNT(*) AS n FROM document WHERE settled_batch = ? AND settled_at >= ?
                    GROUP BY state
                    """,
                arguments: [batchID, time])
            for row in rows {
                if let state = DocumentState(rawValue: row["state"]) { counts[state] = row["n"] }
            }
            return counts
        }
    }

    // MARK: Reporting and maintenance

    public func stageCounts() throws -> [StageCount] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT stage, status, COUNT(*) AS n FROM stage_run GROUP BY stage, status"
            ).map { row in
                StageCount(
                    stage: row["stage"], status: StageStatus(rawValue: row["status"]) ?? .pending, count: row["n"])
            }
        }
    }

    public func documentCounts() throws -> [DocumentState: Int] {
        try read { db in
            var counts: [DocumentState: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT state, COUNT(*) AS n FROM document GROUP BY state") {
                if let state = DocumentState(rawValue: row["state"]) { counts[state] = row["n"] }
            }
            return counts
        }
    }

    public func stageOutputs(stage: String, finishedSinceBatch batchID: Int64) throws -> [String] {
        try read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT output FROM (
                        SELECT \(Self.storedOutput) AS output FROM stage_run
                        WHERE stage = ? AND status = 'done'
                          AND finished_at >= (SELECT started_at FROM batch WHERE id = ?))
                    WHERE output IS NOT NULL
                    """,
                arguments: [stage, batchID])
        }
    }

    public func problems(batchID: Int64?, limit: Int) throws -> [Problem] {
        try read { db in
            let inBatch =
                batchID == nil ? "" : "AND d.id IN (SELECT document_id FROM batch_document WHERE batch_id = :batch)"
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT d.id, d.path, d.state, s.stage, s.attempts, s.error
                    FROM document d JOIN stage_run s ON s.document_id = d.id
                    WHERE d.state IN ('failed', 'quarantined') AND s.status IN ('failed', 'quarantined') \(inBatch)
                    ORDER BY d.id LIMIT :limit
                    """,
                arguments: ["batch": batchID, "limit": limit]
            ).map { row in
                Problem(
                    documentID: row["id"], path: row["path"],
                    state: DocumentState(rawValue: row["state"]) ?? .failed, stage: row["stage"],
                    attempts: row["attempts"], error: try Self.decodeError(row["error"]))
            }
        }
    }

    public func documentCounts(batchID: Int64) throws -> [DocumentState: Int] {
        try read { db in
            var counts: [DocumentState: Int] = [:]
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT state, COUNT(*) AS n FROM document
                    WHERE id IN (SELECT document_id FROM batch_document WHERE batch_id = ?) GROUP BY state
                    """,
                arguments: [batchID])
            for row in rows {
                if let state = DocumentState(rawValue: row["state"]) { counts[state] = row["n"] }
            }
            return counts
        }
    }

    public func paths(of documentID: Int64) throws -> [String] {
        try read { db in
            try String.fetchAll(
                db, sql: "SELECT path FROM document_path WHERE document_id = ? ORDER BY rowid",
                arguments: [documentID])
        }
    }

    public func forEachDocument(in state: DocumentState, _ body: (DocumentRecord) throws -> Void) throws {
        var after: Int64 = 0
        while true {
            let page = try read { db in
                try Row.fetchAll(
                    db,
                    sql: "SELECT \(Self.documentColumns) FROM document WHERE state = ? AND id > ? ORDER BY id LIMIT 256",
                    arguments: [state.rawValue, after]
                ).map(Self.document)
            }
            guard let last = page.last else { return }
            for document in page { try body(document) }
            after = last.id
        }
    }

    public func requeueProblems(documentID: Int64?) throws -> Int {
        try write { db in
            try db.execute(
                sql: """
                    UPDATE stage_run SET status = 'pending', attempts = 0, error = NULL
                    WHERE status IN ('failed', 'quarantined') AND (:id IS NULL OR document_id = :id)
                    """,
                arguments: ["id": documentID])
            try db.execute(
                sql: """
                    UPDATE document SET state = 'pending'
                    WHERE state IN ('failed', 'quarantined') AND (:id IS NULL OR id = :id)
                    """,
                arguments: ["id": documentID])
            return db.changesCount
        }
    }

    // MARK: Result versions and review

    public func resultVersions(of documentID: Int64) throws -> [ResultVersion] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT number, origin, json, violations, created_at, note FROM result_version
                    WHERE document_id = ? ORDER BY number
                    """,
                arguments: [documentID]
            ).map(Self.resultVersion)
        }
    }

    private static func resultVersion(_ row: Row) throws -> ResultVersion {
        ResultVersion(
            number: row["number"], origin: ResultVersion.Origin(rawValue: row["origin"]) ?? .machine,
            json: row["json"],
            violations: try JSONDecoder().decode([SchemaViolation].self, from: Data((row["violations"] as String).utf8)),
            createdAt: row["created_at"], note: row["note"])
    }

    public func reviewState(of documentID: Int64) throws -> ReviewState {
        try read { db in
            guard let row = try Row.fetchOne(
                db, sql: "SELECT accepted_version, decision, decided_version, reason FROM review WHERE document_id = ?",
                arguments: [documentID])
            else { return ReviewState() }
            return ReviewState(
                acceptedVersion: row["accepted_version"],
                decision: (row["decision"] as String?).flatMap(ReviewState.Decision.init(rawValue:)),
                decidedVersion: row["decided_version"], reason: row["reason"])
        }
    }

    public func reviewCandidates() throws -> [ReviewCandidate] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT d.id, d.path, v.number, v.origin, v.json, v.violations, v.created_at, v.note,
                           r.accepted_version, r.decision, r.decided_version, r.reason,
                           (SELECT origin FROM result_version a
                            WHERE a.document_id = d.id AND a.number = r.accepted_version) AS accepted_origin
                    FROM document d
                    JOIN result_version v ON v.document_id = d.id AND v.number = (
                        SELECT MAX(number) FROM result_version WHERE document_id = d.id AND origin = 'machine')
                    LEFT JOIN review r ON r.document_id = d.id
                    ORDER BY d.id
                    """
            ).map { row in
                ReviewCandidate(
                    documentID: row["id"], path: row["path"], latestMachine: try Self.resultVersion(row),
                    state: ReviewState(
                        acceptedVersion: row["accepted_version"],
                        decision: (row["decision"] as String?).flatMap(ReviewState.Decision.init(rawValue:)),
                        decidedVersion: row["decided_version"], reason: row["reason"]),
                    acceptedIsHuman: (row["accepted_origin"] as String?) == "human")
            }
        }
    }

    public func addHumanVersion(documentID: Int64, json: String, note: String) throws -> Int {
        try write { db in
            let number =
                (try Int.fetchOne(
                    db, sql: "SELECT MAX(number) FROM result_version WHERE document_id = ?", arguments: [documentID])
                    ?? 0) + 1
            try db.execute(
                sql: """
                    INSERT INTO result_version (document_id, number, origin, json, violations, created_at, note)
                    VALUES (?, ?, 'human', ?, '[]', ?, ?)
                    """,
                arguments: [documentID, number, json, Self.now(), note])
            try Self.decide(db, documentID: documentID, decision: .accepted, accepted: number, reason: note)
            try RecipeIndex.update(db, documentID: documentID)
            return number
        }
    }

    public func decide(documentID: Int64, decision: ReviewState.Decision, acceptedVersion: Int?, reason: String?) throws {
        try write { db in
            try Self.decide(db, documentID: documentID, decision: decision, accepted: acceptedVersion, reason: reason)
            try RecipeIndex.update(db, documentID: documentID)
        }
    }

    private static func decide(
        _ db: Database, documentID: Int64, decision: ReviewState.Decision, accepted: Int?, reason: String?
    ) throws {
        let latestMachine = try Int.fetchOne(
            db, sql: "SELECT MAX(number) FROM result_version WHERE document_id = ? AND origin = 'machine'",
            arguments: [documentID])
        // Rejecting keeps whatever was accepted before; accepting replaces it.
        try db.execute(
            sql: """
                INSERT INTO review (document_id, accepted_version, decision, decided_version, reason)
                VALUES (:id, :accepted, :decision, :decided, :reason)
                ON CONFLICT (document_id) DO UPDATE SET
                    accepted_version = COALESCE(:accepted, accepted_version), decision = :decision,
                    decided_version = :decided, reason = :reason
                """,
            arguments: [
                "id": documentID, "accepted": accepted, "decision": decision.rawValue, "decided": latestMachine,
                "reason": reason,
            ])
    }

    // MARK: JSON columns

    private static func encode(_ record: LarderError.Record) throws -> String {
        String(decoding: try JSONEncoder().encode(record), as: UTF8.self)
    }

    private static func decodeError(_ text: String?) throws -> LarderError.Record? {
        guard let text else { return nil }
        return try JSONDecoder().decode(LarderError.Record.self, from: Data(text.utf8))
    }
}
