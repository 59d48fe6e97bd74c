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
///
/// Every call has a deadline (``ConnectionRetry`` gives it): past it the caller stops waiting, whatever the body
/// is doing. The body and the caller agree on where the call stands (``CallState``), so that a body the caller gave
/// up on never starts its statements and never sends COMMIT afterwards; its connection is closed (the server rolls
/// back what it had not committed) and its result, if it ever comes, is ignored.
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

    /// Seconds an attempt waits for a pooled connection (less when the call's deadline comes first). While
    /// PostgreSQL cannot be reached the driver's pool queues calls (for a minute, until its circuit breaker trips);
    /// past this wait the request is withdrawn and the attempt fails with ``NoConnection``, which
    /// ``ConnectionRetry`` treats as transient.
    static let connectionWait = 10.0

    /// Runs `body` on the bridge's executor and waits for it, without a deadline: only for opening a store (its
    /// own connection, which fails at once when the server cannot be reached, and the migration).
    func wait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Locked<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: Self.executor) {
            let result = await Self.result(of: body)
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }

    private static func result<T: Sendable>(of body: @Sendable () async throws -> T) async -> Result<T, any Error> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    /// Starts `body` (which reports to `call` as it goes) and waits for it until `deadline` at the latest; while it
    /// waits for a connection, at most ``connectionWait`` seconds.
    private func wait<T: Sendable>(
        _ call: CallState, until deadline: Date, _ body: @escaping @Sendable () async throws -> T
    ) throws -> T {
        let outcome = Locked<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = Task(executorPreference: Self.executor) {
            let result = await Self.result(of: body)
            outcome.withLock { $0 = result }
            done.signal()
        }
        let started = Date()
        let connectionDeadline = min(deadline, started.addingTimeInterval(Self.connectionWait))
        while true {
            let waitingForConnection = call.isWaitingForConnection
            let limit = waitingForConnection ? connectionDeadline : deadline
            if done.wait(timeout: .now() + max(0, limit.timeIntervalSinceNow)) == .success {
                return try outcome.withLock { $0! }.get()
            }
            // The body took its connection meanwhile: it has until the call's deadline.
            let given = call.abandon(onlyWhileWaiting: waitingForConnection && Date() < deadline)
            guard let given else { continue }
            // It ended just now: its outcome stands, success or failure.
            if let result = outcome.withLock({ $0 }) { return try result.get() }
            task.cancel()  // a request still queued in the pool is withdrawn
            switch given {
            case .finished:
                // Done with its connection (not closed: the pool may lend it again); its outcome comes next.
                done.wait()
                return try outcome.withLock { $0! }.get()
            case .waitingForConnection:
                throw NoConnection(seconds: Date().timeIntervalSince(started))
            case .running(let connection), .committing(let connection):
                // Fails the body's statement in flight at once (a cut network would hold it until TCP gives up);
                // the server rolls back a transaction that had not committed.
                let closing: EventLoopFuture<Void> = connection.close()
                _ = closing
                throw CallTimedOut(
                    seconds: Date().timeIntervalSince(started), mayHaveCommitted: given.isCommitting)
            case .abandoned:
                throw CallTimedOut(seconds: Date().timeIntervalSince(started), mayHaveCommitted: false)
            }
        }
    }

    /// One transaction: BEGIN, `body`, COMMIT (ROLLBACK when it throws), ended by `deadline`.
    func transaction<T: Sendable>(
        until deadline: Date, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) throws -> T {
        let client = client, logger = logger
        let call = CallState()
        return try wait(call, until: deadline) {
            try await client.withConnection { connection in
                try await Self.holding(connection, for: call) {
                    try await connection.run("BEGIN", logger)
                    do {
                        let value = try await body(connection)
                        // The caller gave up meanwhile: roll back rather than commit behind its back.
                        guard call.commit() else { throw CallTimedOut.abandoned }
                        try await connection.run("COMMIT", logger)
                        return value
                    } catch {
                        // A closed connection has nothing to roll back (the server did).
                        if !connection.isClosed { _ = try? await connection.run("ROLLBACK", logger) }
                        throw error
                    }
                }
            }
        }
    }

    /// One statement that commits by itself (no BEGIN and COMMIT), ended by `deadline`: its statement counts as
    /// the COMMIT, so a call given up on while it runs may have committed (``CallTimedOut/mayHaveCommitted``).
    func statement<T: Sendable>(
        until deadline: Date, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) throws -> T {
        let client = client
        let call = CallState()
        return try wait(call, until: deadline) {
            try await client.withConnection { connection in
                try await Self.holding(connection, for: call) {
                    guard call.commit() else { throw CallTimedOut.abandoned }
                    return try await body(connection)
                }
            }
        }
    }

    /// Runs `body` on `connection` for `call` and then says the call is finished with it. When the caller gave up
    /// first, it is closing the connection; it is closed here too before it goes back to the pool, so the pool never
    /// lends a connection that is being closed under its next user.
    private static func holding<T: Sendable>(
        _ connection: PostgresConnection, for call: CallState, _ body: () async throws -> T
    ) async throws -> T {
        guard call.start(on: connection) else { throw CallTimedOut.abandoned }
        do {
            let value = try await body()
            if !call.finish() { try? await connection.close() }
            return value
        } catch {
            if !call.finish() { try? await connection.close() }
            throw error
        }
    }

    /// Statements outside an explicit transaction (each one its own, on one snapshot), ended by `deadline`.
    func read<T: Sendable>(until deadline: Date, _ body: @escaping @Sendable (PostgresConnection) async throws -> T)
        throws -> T
    {
        let client = client
        let call = CallState()
        return try wait(call, until: deadline) {
            try await client.withConnection { connection in
                try await Self.holding(connection, for: call) { try await body(connection) }
            }
        }
    }
}

/// Where one store call stands, shared by the caller waiting for it and the task running its body. Every change
/// happens under one lock, so the two never disagree: a body starts its statements only if the caller is still
/// waiting, and sends COMMIT only if the caller has not given up; once the caller gives up, neither happens.
final class CallState: Sendable {
    enum Phase: Sendable {
        case waitingForConnection
        case running(PostgresConnection)
        case committing(PostgresConnection)
        /// The body is done with its connection (it goes back to the pool).
        case finished
        case abandoned

        var isCommitting: Bool {
            if case .committing = self { return true }
            return false
        }

        var isWaitingForConnection: Bool {
            if case .waitingForConnection = self { return true }
            return false
        }
    }

    private let phase = Locked(Phase.waitingForConnection)

    var isWaitingForConnection: Bool { phase.withLock { $0.isWaitingForConnection } }

    /// The body got `connection`: false when the caller gave up already (the body must then do nothing).
    func start(on connection: PostgresConnection) -> Bool {
        phase.withLock { phase in
            guard case .waitingForConnection = phase else { return false }
            phase = .running(connection)
            return true
        }
    }

    /// The body is about to send COMMIT: false when the caller gave up (the body rolls back instead).
    func commit() -> Bool {
        phase.withLock { phase in
            guard case .running(let connection) = phase else { return false }
            phase = .committing(connection)
            return true
        }
    }

    /// The body is done with its connection: false when the caller gave up first (it is closing the connection).
    func finish() -> Bool {
        phase.withLock { phase in
            switch phase {
            case .running, .committing:
                phase = .finished
                return true
            case .waitingForConnection, .finished, .abandoned: return false
            }
        }
    }

    /// The caller gives up: returns where the call stood. `onlyWhileWaiting`: only if the body is still waiting
    /// for a connection (nil, and nothing changes, when it has one).
    func abandon(onlyWhileWaiting: Bool = false) -> Phase? {
        phase.withLock { phase in
            if onlyWhileWaiting && !phase.isWaitingForConnection { return nil }
            defer { phase = .abandoned }
            return phase
        }
    }
}

/// No pooled connection within ``PostgresBridge/connectionWait`` seconds (or by the call's deadline): the server
/// cannot be reached.
struct NoConnection: Error, CustomStringConvertible {
    var seconds: Double
    var description: String { String(format: "no connection to the server within %.0f s", seconds) }
}

/// The call's deadline passed while its statements ran (a cut network, a server that does not answer): its
/// connection was closed. `mayHaveCommitted`: COMMIT had been sent, and its answer did not come.
struct CallTimedOut: Error, CustomStringConvertible {
    var seconds: Double
    var mayHaveCommitted: Bool

    /// What a body that finds its caller gone throws (nobody sees it).
    static let abandoned = CallTimedOut(seconds: 0, mayHaveCommitted: false)

    var description: String {
        String(format: "no answer from the server within %.0f s", seconds)
            + (mayHaveCommitted ? " (its COMMIT had been sent: it may have been committed)" : "")
    }
}

/// The connection closed before a statement could be sent on it.
struct ConnectionClosed: Error, CustomStringConvertible {
    var description: String { "the connection to the server is closed" }
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
    ///
    /// The query is handed to the driver on the connection's event loop, after checking there that the connection
    /// is open. postgres-nio's async `query` writes to the channel from the calling thread with no write promise:
    /// when the channel has closed meanwhile (the server went away) and its handlers are gone, the write fails
    /// silently and the query is never answered — the caller waits forever. (A ROLLBACK after a lost connection
    /// hung a worker that way.) On the event loop the handlers are there as long as the channel is active, and
    /// they fail a query on a closed connection at once.
    func rows(_ query: PostgresQuery, _ logger: Logger) async throws -> [PostgresRow] {
        try await eventLoop.flatSubmit { () -> EventLoopFuture<PostgresQueryResult> in
            guard !self.isClosed else { return self.eventLoop.makeFailedFuture(ConnectionClosed()) }
            return self.query(query, logger: logger)
        }.get().rows
    }

    /// Runs a statement; returns how many rows it returned (say `RETURNING 1` to count the rows it changed).
    @discardableResult
    func run(_ query: PostgresQuery, _ logger: Logger) async throws -> Int {
        try await rows(query, logger).count
    }
}
