import Dispatch
import Foundation
import LarderCore
import LarderTestSupport
import Logging
import PostgresNIO
import Testing

@testable import LarderPostgres

/// Every store call ends: by its answer, or by its deadline (``ConnectionRetry``), never by waiting for TCP or
/// for a query the driver dropped. At the level of the bridge and the store, on the shared cluster; the fault
/// tests (`PostgresFaultTests`) show it with real processes, a stopped server and a cut network.
@Suite(.postgres, .integration, .serialized) struct CallBoundTests {
    private static let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    private func location() throws -> (PostgresCluster, PostgresLocation) {
        guard let cluster = PostgresCluster.shared else {
            throw ConformanceError(PostgresCluster.unavailableReason ?? "no cluster")
        }
        guard case .postgres(let location) = try StoreLocation.parse(cluster.url()) else { throw ConformanceError("url") }
        // Opening a store creates the schema.
        _ = try PostgresCheckpointStore(location: location)
        return (cluster, location)
    }

    /// Where ``bounded(_:_:)`` runs its tasks: not Swift's cooperative pool, whose few threads other tests (and
    /// this one, waiting) may all be blocking.
    private static let executor = BridgeExecutor()

    /// Runs `body` in a task and waits at most `seconds` for it: nil when it did not end (the test then fails
    /// instead of hanging).
    private func bounded<T: Sendable>(_ seconds: Double, _ body: @escaping @Sendable () async throws -> T) -> Result<
        T, any Error
    >? {
        let outcome = Locked<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: Self.executor) {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return outcome.withLock { $0 }
    }

    /// A statement on a connection whose channel has closed (the server went away) fails at once. postgres-nio's
    /// own async `query` writes with no write promise: on a closed channel whose handlers are gone the write fails
    /// unseen and the query is never answered (a ROLLBACK after a lost connection hung a worker so).
    @Test func aStatementOnAClosedConnectionFailsAtOnce() throws {
        let (_, location) = try location()
        let configuration = try PostgresCheckpointStore.connectionConfiguration(location)
        let logger = Self.logger
        let ended = bounded(20) {
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 9, logger: logger)
            #expect(try await connection.rows("SELECT 1", logger).count == 1)
            try await connection.close()
            do {
                _ = try await connection.rows("SELECT 1", logger)
                return "answered"
            } catch {
                return "\(type(of: error))"
            }
        }
        guard case .success(let how)? = ended else {
            Issue.record("the statement on the closed connection did not end within 20 s: \(String(describing: ended))")
            return
        }
        #expect(how == "ConnectionClosed")
        // Why `rows` does not call the driver's async `query` from here: that one is never answered (this fails,
        // telling us the workaround can go, once postgres-nio passes a write promise).
        let sent = Locked(false)
        let driver = bounded(5) {
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 10, logger: logger)
            try await connection.close()
            sent.withLock { $0 = true }
            _ = try await connection.query("SELECT 1", logger: logger)
            return "answered"
        }
        #expect(sent.withLock { $0 }, "the driver's query was sent on the closed connection")
        #expect(driver == nil, "postgres-nio's query on a closed connection ended: \(String(describing: driver))")
    }

    /// A transaction whose statement outlasts the call's deadline: the caller gets ``CallTimedOut`` at the
    /// deadline (not when the statement ends), and the body, abandoned, never commits: its connection is closed,
    /// and it could not send COMMIT anyway (``CallState``).
    @Test func aCallEndsAtItsDeadlineAndItsAbandonedBodyNeverCommits() throws {
        let (cluster, location) = try location()
        let table = location.schema + ".bound_probe"
        try cluster.psql("CREATE TABLE \(table) (id int)")
        let bridge = PostgresBridge(
            configuration: try PostgresCheckpointStore.clientConfiguration(location, callSeconds: 60))
        defer { bridge.shutdown() }
        let logger = Self.logger
        let started = Date()
        do {
            _ = try bridge.transaction(until: started.addingTimeInterval(2)) { connection in
                try await connection.run(PostgresQuery(unsafeSQL: "INSERT INTO \(table) VALUES (1)"), logger)
                try await connection.run("SELECT pg_sleep(6)", logger)
                return 1
            }
            Issue.record("the call outlived its deadline and succeeded")
        } catch let error as CallTimedOut {
            #expect(!error.mayHaveCommitted)
        }
        let waited = Date().timeIntervalSince(started)
        #expect(waited < 5, "ended at the 2 s deadline, not with the 6 s statement: \(waited) s")
        Thread.sleep(forTimeInterval: 6)  // past the statement: the body had it, and still did not commit
        #expect(try cluster.psql("SELECT COUNT(*) FROM \(table)").trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    /// The server applies the call's bound to Larder's pooled sessions.
    @Test func pooledSessionsCarryTheServerSideBounds() throws {
        let (_, location) = try location()
        let bridge = PostgresBridge(
            configuration: try PostgresCheckpointStore.clientConfiguration(location, callSeconds: 25))
        defer { bridge.shutdown() }
        let logger = Self.logger
        let settings = try bridge.read(until: Date().addingTimeInterval(30)) { connection in
            try await connection.rows(
                """
                SELECT current_setting('statement_timeout') || ',' || current_setting('lock_timeout') || ','
                    || current_setting('idle_in_transaction_session_timeout')
                """, logger)[0].decode(String.self)
        }
        #expect(settings == "25s,10s,25s")
    }

    /// `markRunning` run twice for one run (a retry after its first COMMIT reached the server unseen: the same
    /// start time) counts one attempt; a new run (a new start time) counts another.
    @Test func aRetriedMarkRunningCountsOneAttempt() throws {
        let (_, location) = try location()
        let store = try PostgresCheckpointStore(location: location)
        let batch = try store.beginBatch(command: "ingest", inputs: [])
        let id = try store.register(
            [RegisteredFile(path: "/b/1", sha256: String(repeating: "b", count: 64), byteCount: 1, modifiedAt: 0)],
            batchID: batch, stages: ["detect"])[0].documentID
        #expect(try store.markRunning(documentID: id, stage: "detect", version: "d@1", at: 10.5) == 1)
        #expect(try store.markRunning(documentID: id, stage: "detect", version: "d@1", at: 10.5) == 1)
        #expect(try store.markRunning(documentID: id, stage: "detect", version: "d@1", at: 11.5) == 2)
    }
}
