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

    /// Runs `body` on the bridge's executor and waits for it.
    func wait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Locked<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: Self.executor) {
            do {
                let value = try await body()
                outcome.withLock { $0 = .success(value) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }

    /// One transaction: BEGIN, `body`, COMMIT (ROLLBACK when it throws).
    func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) throws -> T {
        let client = client, logger = logger
        return try wait {
            try await client.withConnection { connection in
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
        return try wait { try await client.withConnection { try await body($0) } }
    }
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
