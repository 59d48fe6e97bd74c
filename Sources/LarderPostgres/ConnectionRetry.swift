import Foundation
import LarderCore
import PostgresNIO

/// Rides out a PostgreSQL restart or a short network cut, and bounds every store call.
///
/// A call that fails because the server went away (the connection lost or refused, SQLSTATE 57P01 admin shutdown,
/// 57P02 crash shutdown, 57P03 starting up, 08xxx connection exceptions, 25P03 a session the server ended for idling
/// in a transaction, 55P03 a lock not granted within `lock_timeout`, or no pooled connection within 10 s) is run
/// again, after 0.2 s, 0.4 s, … at most 5 s apart, for up to ``budgetSeconds`` from the call (default 60,
/// `LARDER_PG_RETRY_SECONDS`; 0 retries nothing). A warning on standard error names the server (never the
/// password) when the retries start, and a notice when the server answers again.
///
/// The call's **deadline** is ``callSeconds`` (the budget, at least ``PostgresBridge/connectionWait``) after it
/// started, on the wall clock, over everything: attempts, their waits for a connection, statements in flight and
/// the pauses between. Past it the call fails with a database error (exit 3), never a hang: the bridge stops
/// waiting and closes the connection of a statement still in flight. The server applies the same bound to
/// Larder's sessions (``PostgresCheckpointStore/serverTimeouts(callSeconds:)``).
final class ConnectionRetry: Sendable {
    let budgetSeconds: Double
    /// How many calls are retrying right now (the warning is printed once per outage, not once per thread).
    private let retrying = Locked(0)

    static let firstDelay = 0.2
    static let maximumDelay = 5.0
    static let defaultBudget = 60.0

    init(budgetSeconds: Double? = nil) {
        let environment = ProcessInfo.processInfo.environment["LARDER_PG_RETRY_SECONDS"].flatMap(Double.init)
        self.budgetSeconds = max(0, budgetSeconds ?? environment ?? Self.defaultBudget)
    }

    /// Seconds from a call's start to its deadline.
    var callSeconds: Double { max(budgetSeconds, PostgresBridge.connectionWait) }

    /// Runs `attempt` (given the call's deadline), again while it fails with a transient error and the budget
    /// lasts. `seconds`: a longer bound for this call (a search reindex), not below ``callSeconds``.
    func run<T>(_ call: String, location: PostgresLocation, seconds: Double? = nil, _ attempt: (Date) throws -> T)
        throws -> T
    {
        let called = Date()
        let deadline = called.addingTimeInterval(max(callSeconds, seconds ?? 0))
        var started: Date?
        var delay = Self.firstDelay
        defer { if started != nil { retrying.withLock { $0 -= 1 } } }
        while true {
            do {
                let value = try attempt(deadline)
                if let started {
                    warn(
                        "larder: PostgreSQL at \(location.description) answers again; \(call) went through after "
                            + String(format: "%.1f s", Date().timeIntervalSince(started)))
                }
                return value
            } catch {
                guard Self.isTransient(error) else { throw error }
                let now = Date()
                if started == nil {
                    started = now
                    let first = retrying.withLock { count in
                        count += 1
                        return count == 1
                    }
                    if first && budgetSeconds > 0 && !(error is CallTimedOut) {
                        warn(
                            "larder: warning: lost PostgreSQL at \(location.description) (\(Self.reason(error))) during \(call); "
                                + String(format: "retrying for up to %.0f s (LARDER_PG_RETRY_SECONDS)", callSeconds))
                    }
                }
                let spent = now.timeIntervalSince(called)
                // A call that timed out has spent its whole time; a retry must also end before the deadline.
                guard budgetSeconds > 0, !(error is CallTimedOut), now.addingTimeInterval(delay) < deadline else {
                    throw LarderError(
                        .database,
                        "PostgreSQL \(call) failed: \(StoreLocation.redact(Self.reason(error)))"
                            + (budgetSeconds > 0 ? String(format: ", still after retrying for %.0f s", spent) : ""),
                        hint:
                            "check that PostgreSQL runs at \(location.host):\(location.port) and the network to it; raise LARDER_PG_RETRY_SECONDS to wait longer for a restart",
                        path: location.description)
                }
                Thread.sleep(forTimeInterval: delay)
                delay = min(delay * 2, Self.maximumDelay)
            }
        }
    }

    private func warn(_ text: String) {
        FileHandle.standardError.write(Data((TerminalText.safe(StoreLocation.redact(text)) + "\n").utf8))
    }

    static func reason(_ error: any Error) -> String {
        PostgresCheckpointStore.describe(error)
    }

    /// Whether `error` says the server or the connection to it went away (worth trying again), as opposed to an
    /// answer from a working server (a constraint, a syntax error, a lost lease: never retried).
    static func isTransient(_ error: any Error) -> Bool {
        if error is LeaseLost || error is LarderError { return false }
        if error is NoConnection || error is CallTimedOut || error is ConnectionClosed { return true }
        // The pool's "connection creation circuit breaker tripped" (60 s of failed connects): its type lives in
        // the driver's underscored pool module, named here rather than imported.
        if String(reflecting: type(of: error)).hasSuffix("ConnectionPoolError") { return true }
        if let error = error as? PSQLError {
            switch error.code {
            case .server:
                let state = error.serverInfo?[.sqlState] ?? ""
                return ["57P01", "57P02", "57P03", "25P03", "55P03"].contains(state) || state.hasPrefix("08")
            case .serverClosedConnection, .connectionError, .uncleanShutdown, .clientClosedConnection:
                return true
            default:
                return false
            }
        }
        return error is ChannelError || error is IOError || error is NIOConnectionError
    }
}
