import Foundation
import LarderCore
import Logging
import PostgresNIO

/// The checkpoint store in a PostgreSQL database, shared by `larder` commands and workers on many hosts.
///
/// The same contract as ``SQLiteCheckpointStore``: every method is one transaction (or one statement). Tables live
/// in their own schema (``PostgresSchema``). Calls are synchronous over the async driver (``PostgresBridge``).
public final class PostgresCheckpointStore: CheckpointStore {
    public let location: PostgresLocation
    let bridge: PostgresBridge
    let claims: ClaimState
    let retry: ConnectionRetry
    var logger: Logger { bridge.logger }

    /// Connects, creates or migrates Larder's schema, and refuses a schema holding other applications' tables.
    /// `workerID` names this store's claims (default: `LARDER_WORKER_ID`, else host and pid).
    public init(location: PostgresLocation, workerID: String? = nil) throws {
        self.location = location
        claims = ClaimState(workerID: workerID)
        let retry = ConnectionRetry()
        self.retry = retry
        let configuration = try Self.clientConfiguration(location, callSeconds: retry.callSeconds)
        let logger = Logger(label: "larder.postgres") { _ in SwiftLogNoOpLogHandler() }
        let schema = location.schema
        let bridge = PostgresBridge(configuration: configuration)
        do {
            // One connection of its own for the migration: a server that cannot be reached fails here, at once and
            // clearly, rather than leaving the pool retrying.
            try bridge.wait {
                let connection = try await PostgresConnection.connect(
                    configuration: Self.connectionConfiguration(location), id: 1, logger: logger)
                do {
                    try await PostgresSchema.migrate(connection, schema: schema, logger: logger)
                    try await connection.close()
                } catch {
                    try? await connection.close()
                    throw error
                }
            }
        } catch {
            bridge.shutdown()
            throw Self.failure(error, doing: "open", location: location)
        }
        self.bridge = bridge
    }

    deinit { bridge.shutdown() }

    static func connectionConfiguration(_ location: PostgresLocation) throws -> PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: try tls(location.sslMode))
        configuration.options.additionalStartupParameters = [("search_path", location.schema)]
        return configuration
    }

    /// The pool's connections: ``serverTimeouts(callSeconds:)`` on each (the migration's and the wake-up
    /// listener's connections have none: a migration may take long, a listener idles by design).
    static func clientConfiguration(_ location: PostgresLocation, callSeconds: Double) throws
        -> PostgresClient.Configuration
    {
        var configuration = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: try clientTLS(location.sslMode))
        configuration.options.additionalStartupParameters =
            [("search_path", location.schema)] + serverTimeouts(callSeconds: callSeconds) + serverKeepalive
        configuration.options.maximumConnections = 8
        return configuration
    }

    /// The server's side of a call's bound, set on every pooled session at its start: a statement runs at most
    /// as long as its caller waits for it (`statement_timeout`, the call's deadline), a lock is waited for at most
    /// 10 s (`lock_timeout`; ``ConnectionRetry`` tries again within the call's time), and a session left idle inside
    /// a transaction — its host cut off or paused mid-call — is ended by the server after the same bound
    /// (`idle_in_transaction_session_timeout`), which rolls it back and frees the rows it locked (a claimed
    /// document's, say). Larder never leaves a transaction idle on purpose: its transactions only run statements.
    static func serverTimeouts(callSeconds: Double) -> [(String, String)] {
        let milliseconds = String(Int((callSeconds * 1000).rounded(.up)))
        let lock = String(Int((min(callSeconds, lockTimeout) * 1000).rounded(.up)))
        return [
            ("statement_timeout", milliseconds), ("lock_timeout", lock),
            ("idle_in_transaction_session_timeout", milliseconds),
        ]
    }

    /// Seconds a statement waits for a row or table lock before it fails (and is retried within the call's time).
    static let lockTimeout = 10.0

    /// TCP keepalive from the server's side on every pooled session: a session whose host was cut off or switched
    /// off is closed by the server about a minute after it went quiet (30 s, then 3 probes 10 s apart), not after
    /// the system default (two hours), so it does not keep a connection slot. (A pooled connection the server
    /// closed so fails on its next statement, which is retried on a new one. Not on the wake-up listener's: it
    /// only reads, and would not notice that the server had closed it after a cut healed.) Keepalive probes only
    /// go out on a quiet connection: an answer the server sent after the cut (a statement that ended on its lock
    /// timeout) is retransmitted instead, for up to about 15 minutes, so `tcp_user_timeout` closes a session whose
    /// sent data stays unacknowledged for 60 s.
    static let serverKeepalive = [
        ("tcp_keepalives_idle", "30"), ("tcp_keepalives_interval", "10"), ("tcp_keepalives_count", "3"),
        ("tcp_user_timeout", "60000"),
    ]

    private static func tlsConfiguration(_ mode: PostgresLocation.SSLMode) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch mode {
        case .disable, .prefer, .require: tls.certificateVerification = .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        return tls
    }

    private static func tls(_ mode: PostgresLocation.SSLMode) throws -> PostgresConnection.Configuration.TLS {
        if mode == .disable { return .disable }
        let context = try NIOSSLContext(configuration: tlsConfiguration(mode))
        return mode == .prefer ? .prefer(context) : .require(context)
    }

    private static func clientTLS(_ mode: PostgresLocation.SSLMode) throws -> PostgresClient.Configuration.TLS {
        if mode == .disable { return .disable }
        let configuration = tlsConfiguration(mode)
        return mode == .prefer ? .prefer(configuration) : .require(configuration)
    }

    /// A driver error in Larder's words. The server's message and SQLSTATE, never the connection string's password.
    static func failure(_ error: any Error, doing what: String, location: PostgresLocation) -> LarderError {
        if let error = error as? LarderError { return error }
        let hint =
            what == "open"
            ? "check that PostgreSQL runs at \(location.host):\(location.port), that the user may log in to database '\(location.database)', and the sslmode"
            : "check the PostgreSQL server and the network; `larder status` shows what is stored"
        return LarderError(
            .database, "PostgreSQL \(what) failed: \(StoreLocation.redact(describe(error)))", hint: hint,
            path: location.description)
    }

    static func describe(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return String(describing: error) }
        if let message = error.serverInfo?[.message] {
            return "\(message) (SQLSTATE \(error.serverInfo?[.sqlState] ?? "?"))"
        }
        if let underlying = error.underlying { return "\(error.code): \(underlying)" }
        return "\(error.code)"
    }

    /// One transaction, retried while the server is away (``ConnectionRetry``), ended by the call's deadline. A
    /// retried write whose first COMMIT did reach the server unseen is harmless: a fenced write then finds the claim
    /// it settled gone (``LeaseLost``), a result that did not change adds no version, registration finds its
    /// documents known, and the writes that would add a row or count twice recognise their first run (see
    /// docs/scale-out.md, "A retried write").
    /// `seconds`: a longer deadline for a call that rightly takes long (``reindexRecipes()``).
    func write<T: Sendable>(
        _ call: String = #function, seconds: Double? = nil,
        _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) throws -> T {
        try run(.transaction, call, seconds: seconds, body)
    }

    /// One statement that is its own transaction (no BEGIN and COMMIT round trips), retried as ``write`` is.
    func statement<T: Sendable>(
        _ call: String = #function, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) throws -> T {
        try run(.statement, call, seconds: nil, body)
    }

    func read<T: Sendable>(
        _ call: String = #function, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) throws -> T {
        try run(.read, call, seconds: nil, body)
    }

    /// How a store call reaches the server (``PostgresBridge``).
    enum CallKind {
        case transaction, statement, read
    }

    /// A store call: retried while the server is away (``ConnectionRetry``), ended by its deadline; a lost lease
    /// passes through, any other failure in Larder's words naming the call.
    private func run<T: Sendable>(
        _ kind: CallKind, _ call: String, seconds: Double?,
        _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) throws -> T {
        let logger = logger, bridge = bridge
        let name = "\(kind == .read ? "read" : "write") (\(call.prefix { $0 != "(" }))"
        do {
            return try retry.run(name, location: location, seconds: seconds) { deadline in
                let work: @Sendable (PostgresConnection) async throws -> T = { try await body($0, logger) }
                switch kind {
                case .transaction: return try bridge.transaction(until: deadline, work)
                case .statement: return try bridge.statement(until: deadline, work)
                case .read: return try bridge.read(until: deadline, work)
                }
            }
        } catch let lost as LeaseLost {
            throw lost
        } catch {
            throw Self.failure(error, doing: name, location: location)
        }
    }

    static func now() -> Double { Date().timeIntervalSince1970 }

    // MARK: Batches and registration

    public func beginBatch(command: String, inputs: [String]) throws -> Int64 {
        let inputsJSON = String(decoding: try JSONEncoder().encode(inputs), as: UTF8.self)
        let time = Self.now()
        // A retry whose first COMMIT reached the server unseen finds the row it added (same command, inputs and
        // start time to the microsecond) rather than adding a second.
        let attempts = Attempts()
        return try write { connection, logger in
            if attempts.next() {
                let found = try await connection.rows(
                    """
                    SELECT id FROM batch WHERE started_at = \(time) AND command = \(command) AND inputs = \(inputsJSON)
                    ORDER BY id LIMIT 1
                    """, logger)
                if let id = try found.first?.decode(Int64.self) { return id }
            }
            return try await connection.rows(
                "INSERT INTO batch (command, inputs, started_at) VALUES (\(command), \(inputsJSON), \(time)) RETURNING id",
                logger)[0].decode(Int64.self)
        }
    }

    public func finishBatch(_ batchID: Int64, summaryJSON: String) throws {
        let time = Self.now()
        try write { connection, logger in
            try await connection.run(
                "UPDATE batch SET finished_at = \(time), summary = \(summaryJSON) WHERE id = \(batchID)", logger)
        }
    }

    public func register(_ files: [RegisteredFile], batchID: Int64, stages: [String]) throws -> [Registration] {
        let time = Self.now(), schema = location.schema
        return try write { connection, logger in
            var results: [Registration] = []
            for file in files {
                results.append(
                    try await Self.register(file, batchID: batchID, stages: stages, at: time, connection, logger))
            }
            if results.contains(where: { if case .new = $0 { true } else { false } }) {
                try await Self.notifyWork(schema: schema, connection, logger)
            }
            return results
        }
    }

    private static func register(
        _ file: RegisteredFile, batchID: Int64, stages: [String], at time: Double, _ connection: PostgresConnection,
        _ logger: Logger
    ) async throws -> Registration {
        let found = try await connection.rows("SELECT id FROM document WHERE sha256 = \(file.sha256)", logger)
        if let id = try found.first?.decode(Int64.self) {
            let earlier = try await connection.rows(
                """
                SELECT path FROM document_path WHERE document_id = \(id) AND batch_id = \(batchID)
                AND path <> \(file.path) LIMIT 1
                """, logger)
            try await addPath(file, documentID: id, batchID: batchID, connection, logger)
            if let path = try earlier.first?.decode(String.self) { return .duplicate(documentID: id, of: path) }
            return .known(documentID: id)
        }
        // ON CONFLICT: another host registering the same bytes at the same moment; its row wins, this is known.
        let inserted = try await connection.rows(
            """
            INSERT INTO document (sha256, path, byte_count, modified_at, registered_at)
            VALUES (\(file.sha256), \(file.path), \(file.byteCount), \(file.modifiedAt), \(time))
            ON CONFLICT (sha256) DO NOTHING RETURNING id
            """, logger)
        guard let id = try inserted.first?.decode(Int64.self) else {
            let id = try await connection.rows("SELECT id FROM document WHERE sha256 = \(file.sha256)", logger)[0]
                .decode(Int64.self)
            try await addPath(file, documentID: id, batchID: batchID, connection, logger)
            return .known(documentID: id)
        }
        try await addPath(file, documentID: id, batchID: batchID, stages: stages, connection, logger)
        return .new(documentID: id)
    }

    /// The file's path and the document's place in the batch, and (`stages`, a new document) its pending stages:
    /// one statement (data-modifying CTEs run whether or not they are read).
    private static func addPath(
        _ file: RegisteredFile, documentID id: Int64, batchID: Int64, stages: [String] = [],
        _ connection: PostgresConnection, _ logger: Logger
    ) async throws {
        try await connection.run(
            """
            WITH path AS (
                INSERT INTO document_path (document_id, path, batch_id, byte_count, modified_at)
                VALUES (\(id), \(file.path), \(batchID), \(file.byteCount), \(file.modifiedAt))
                ON CONFLICT (document_id, path) DO UPDATE SET batch_id = excluded.batch_id,
                    byte_count = excluded.byte_count, modified_at = excluded.modified_at),
            member AS (
                INSERT INTO batch_document (batch_id, document_id) VALUES (\(batchID), \(id)) ON CONFLICT DO NOTHING)
            INSERT INTO stage_run (document_id, stage, status)
            SELECT \(id), stage, 'pending' FROM unnest(\(stages)::text[]) WITH ORDINALITY AS s(stage, n) ORDER BY n
            """, logger)
    }

    public func knownHashes(of files: [FileIdentity]) throws -> [String: String] {
        guard !files.isEmpty else { return [:] }
        let paths = files.map(\.path), sizes = files.map(\.byteCount), times = files.map(\.modifiedAt)
        return try read { connection, logger in
            var hashes: [String: String] = [:]
            for row in try await connection.rows(
                """
                SELECT DISTINCT ON (f.path) f.path, d.sha256
                FROM unnest(\(paths)::text[], \(sizes)::bigint[], \(times)::float8[]) AS f(path, size, mtime)
                JOIN document_path p ON p.path = f.path AND p.byte_count = f.size AND p.modified_at = f.mtime
                JOIN document d ON d.id = p.document_id
                """, logger)
            {
                let (path, sha) = try row.decode((String, String).self)
                hashes[path] = sha
            }
            return hashes
        }
    }

    public func recordInputError(batchID: Int64, path: String, error: LarderError) throws {
        let json = try Self.encode(error.record)
        // A retry after an unseen COMMIT finds the row its first attempt added rather than adding a second.
        let attempts = Attempts()
        _ = try write { connection, logger in
            let retry = attempts.next()
            try await connection.run(
                """
                INSERT INTO input_error (batch_id, path, error) SELECT \(batchID), \(path), \(json)
                WHERE NOT \(retry) OR NOT EXISTS (
                    SELECT 1 FROM input_error WHERE batch_id = \(batchID) AND path = \(path) AND error = \(json))
                """, logger)
        }
    }

    public func inputErrors(batchID: Int64) throws -> [InputError] {
        try read { connection, logger in
            try await connection.rows(
                "SELECT path, error FROM input_error WHERE batch_id = \(batchID) ORDER BY id", logger
            ).map { row in
                let (path, error) = try row.decode((String, String).self)
                return InputError(batchID: batchID, path: path, error: try Self.decodeError(error)!)
            }
        }
    }

    public func latestBatchID() throws -> Int64? {
        try read { connection, logger in
            try await connection.rows("SELECT MAX(id) FROM batch", logger)[0].decode(Int64?.self)
        }
    }

    // MARK: JSON columns

    static func encode(_ record: LarderError.Record) throws -> String {
        String(decoding: try JSONEncoder().encode(record), as: UTF8.self)
    }

    static func decodeError(_ text: String?) throws -> LarderError.Record? {
        guard let text else { return nil }
        return try JSONDecoder().decode(LarderError.Record.self, from: Data(text.utf8))
    }

    static func decodeViolations(_ text: String?) throws -> [SchemaViolation] {
        guard let text else { return [] }
        return try JSONDecoder().decode([SchemaViolation].self, from: Data(text.utf8))
    }
}

/// Counts a write's attempts: its body tells a retry (which may follow a first COMMIT that reached the server
/// unseen) from the first run.
final class Attempts: Sendable {
    private let count = Locked(0)

    /// Counts one attempt; true from the second on.
    func next() -> Bool {
        count.withLock { count in
            count += 1
            return count > 1
        }
    }
}
