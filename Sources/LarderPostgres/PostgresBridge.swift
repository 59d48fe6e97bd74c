import Dispatch
import Foundation
import LarderCore
import Logging
import PostgresNIO

/// Runs the async PostgreSQL driver under the synchronous ``CheckpointStore`` protocol.
///
/// The `PostgresClient` (its connection pool) runs on its own task for the store's lifetime. A synchronous call
/// starts a task for its body and waits on a semaphore until it ends. Those tasks run on ``BridgeExecutor`` (a
/// Dispatch queue), not on Swift's cooperative pool, and the driver's I/O runs on NIO's event loops: a caller that
/// blocks (the worker's stage threads, the command's main thread) never holds a thread the work it waits for needs.
/// A caller must not be an event-loop thread itself (no store call is made from a NIO handler).
final class PostgresBridge: Sendable {
    let client: PostgresClient
    let logger: Logger
    private let runner: Task<Void, Never>
    private static let executor = BridgeExecutor()

    init(configuration: PostgresClient.Configuration) {
        let logger = Logger(label: "larder.postgres") { _ in SwiftLogNoOpLogHandler() }
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        runner = Task(executorPreference: Self.executor) { await client.run() }
    }

    deinit { runner.cancel() }

    /// Stops the pool: its connections close. Calls after this fail.
    func shutdown() { runner.cancel() }

    /// Seconds a call waits for a pooled connection. While PostgreSQL cannot be reached the driver's pool queues
    /// calls (for a minute, until its circuit breaker trips); past this wait the call is cancelled and fails with
    /// ``NoConnection``, which ``ConnectionRetry`` treats as transient. A call that has its connection is never cut.
    static let connectionWait = 10.0

    /// Runs `body` on the bridge's executor and waits for it.
    func wait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        try wait(leased: nil, body)
    }

    /// As ``wait(_:)``; with `leased` (set by `body` once it holds a connection), gives up waiting for the
    /// connection after ``connectionWait`` seconds.
    private func wait<T: Sendable>(leased: Locked<Bool>?, _ body: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Locked<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = Task(executorPreference: Self.executor) {
            do {
                let value = try await body()
                outcome.withLock { $0 = .success(value) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        if let leased {
            while done.wait(timeout: .now() + Self.connectionWait) == .timedOut {
                if leased.withLock({ $0 }) { continue }
                task.cancel()  // the pool drops the queued request; a body that did start ends as it ends
                done.wait()
                let result = outcome.withLock { $0! }
                if case .success = result { return try result.get() }
                throw NoConnection(seconds: Self.connectionWait)
            }
        } else {
            done.wait()
        }
        return try outcome.withLock { $0! }.get()
    }

    /// One transaction: BEGIN, `body`, COMMIT (ROLLBACK when it throws).
    func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) throws -> T {
        let client = client, logger = logger
        let leased = Locked(false)
        return try wait(leased: leased) {
            try await client.withConnection { connection in
                leased.withLock { $0 = true }
                try await connection.run("BEGIN", logger)
                do {
                    let value = try await body(connection)
                    try await connection.run("COMMIT", logger)
                    return value
                } catch {
                    _ = try? await connection.run("ROLLBACK", logger)
                    throw error
                }
            }
        }
    }

    /// Statements outside an explicit transaction (each one its own, on one snapshot).
    func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) throws -> T {
        let client = client
        let leased = Locked(false)
        return try wait(leased: leased) {
            try await client.withConnection { connection in
                leased.withLock { $0 = true }
                return try await body(connection)
            }
        }
    }
}

/// No pooled connection within ``PostgresBridge/connectionWait`` seconds: the server cannot be reached.
struct NoConnection: Error, CustomStringConvertible {
    var seconds: Double
    var description: String { String(format: "no connection to the server within %.0f s", seconds) }
}

/// A task executor over a concurrent Dispatch queue: the bridge's tasks never wait for a cooperative-pool thread
/// that a blocked caller holds.
final class BridgeExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "larder.postgres.bridge", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

extension PostgresConnection {
    /// Every row of a query.
    func rows(_ query: PostgresQuery, _ logger: Logger) async throws -> [PostgresRow] {
        try await self.query(query, logger: logger).collect()
    }

    /// Runs a statement; returns how many rows it returned (say `RETURNING 1` to count the rows it changed).
    @discardableResult
    func run(_ query: PostgresQuery, _ logger: Logger) async throws -> Int {
        try await self.query(query, logger: logger).collect().count
    }
}
