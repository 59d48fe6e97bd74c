import Foundation
import LarderCore
import Logging
import PostgresNIO

/// LISTEN/NOTIFY wake-ups for idle workers. Registering new documents (and `retry`/`resume` putting documents back
/// to pending) sends a notification on ``channel`` with the schema as payload, delivered when the transaction
/// commits; an idle `larder worker` listening on its own connection wakes at once instead of at its next poll.
/// A notification sent while no one listens (a listener reconnecting, PostgreSQL restarting) is lost: polling
/// (`--poll`) stays the fallback, so nothing waits longer than one poll interval.
public final class WorkWakeups: Sendable {
    static let channel = "larder_work"

    private let fired = Locked(false)
    private let task: Locked<Task<Void, Never>?> = Locked(nil)

    /// Whether a notification came since the last call (and forgets it).
    public func take() -> Bool {
        fired.withLock { fired in
            defer { fired = false }
            return fired
        }
    }

    /// Stops listening and closes the connection.
    public func stop() {
        task.withLock { $0?.cancel() }
    }

    /// Listens on a connection of its own for `location`'s schema, reconnecting (after a second) whenever the
    /// connection fails, until ``stop()``.
    init(location: PostgresLocation, configuration: PostgresConnection.Configuration) {
        let fired = fired, schema = location.schema
        let logger = Logger(label: "larder.postgres.listen") { _ in SwiftLogNoOpLogHandler() }
        task.withLock {
            $0 = Task.detached {
                while !Task.isCancelled {
                    do {
                        let connection = try await PostgresConnection.connect(
                            configuration: configuration, id: 2, logger: logger)
                        defer { Task { try? await connection.close() } }
                        try await connection.listen(on: Self.channel) { notifications in
                            // Work registered while the listener was away would be missed: look once on (re)connect.
                            fired.withLock { $0 = true }
                            for try await notification in notifications where notification.payload == schema {
                                fired.withLock { $0 = true }
                            }
                        }
                    } catch {}
                    try? await Task.sleep(for: .seconds(1))
                }
            }
        }
    }
}

extension PostgresCheckpointStore {
    /// Starts listening for new work on this store's schema (see ``WorkWakeups``).
    public func listenForWork() throws -> WorkWakeups {
        WorkWakeups(location: location, configuration: try Self.connectionConfiguration(location))
    }

    /// Tells listening workers that work was queued; sent when the caller's transaction commits.
    static func notifyWork(schema: String, _ connection: PostgresConnection, _ logger: Logger) async throws {
        try await connection.run("SELECT pg_notify(\(WorkWakeups.channel), \(schema))", logger)
    }
}
