import Foundation
import GRDB

/// Moves SQLite's WAL checkpoints off the commits of the work queue's threads.
///
/// By default SQLite checkpoints inside the commit that takes the write-ahead log past 1,000 pages: that commit
/// copies the log into the database and calls `fdatasync` twice while it holds the write lock, so the committing
/// worker, and the other worker waiting to commit, sit idle (the 500-PDF benchmark made ~65 such checkpoints,
/// ~0.5 s of `fdatasync` under load). With the checkpointer, the worker's connection never checkpoints
/// (`wal_autocheckpoint = 0`) and a thread of its own runs a `PASSIVE` checkpoint on its own connection every
/// ``interval`` seconds while the log has frames not yet copied. `PASSIVE` never blocks a writer or a reader.
///
/// Nothing changes for durability: under `synchronous = NORMAL` a commit is durable against a process crash once
/// it is in the log, whoever copies it later; a checkpoint interrupted by a crash is redone by the next one. The
/// log grows by what the workers commit in one interval (a few MB at most) instead of 4 MB.
///
/// **Keeping the log short.** SQLite starts the log from its beginning again only when a write transaction begins
/// after a checkpoint that copied every frame. A `PASSIVE` checkpoint on another connection never gets there while
/// the workers commit (frames arrive while it copies), so without more the log only grew: 179 MB of log for a
/// 32 MB database after 500 PDFs, every commit writing at a new offset (new page-cache pages and ext4 blocks for
/// each frame), and `larder` then copied the rest and deleted the file after the worker had exited (~0.3 s on one
/// core, traced with `strace`). So once the log is past ``restartBytes``, right after a `PASSIVE` pass, the
/// checkpointer runs a second `PASSIVE` checkpoint through the writer's connection, under its write lock: it copies
/// only the frames committed since the first pass (their `fdatasync` is the only wait the workers see, once per
/// ``restartBytes`` of log) and the next commit starts the log from the beginning.
///
/// **The restart size, 32 MB** (16 MB before): each restart's two `fdatasync`s under the write lock stop both
/// workers (9 restarts per 500 benchmark PDFs at 16 MB, 25–35 ms each while the other engineers' builds used the
/// disk), while a larger log costs once, at the end, where `larder` copies what is left and deletes the file (a
/// 64 MB log added ~80 ms there). 32 MB halves the restarts (4 per 500 PDFs) for ~25 ms more at the end.
final class WALCheckpointer: @unchecked Sendable {
    // @unchecked: `stopped` is behind `condition`; `queue` is a GRDB DatabaseQueue (Sendable) used by one thread;
    // `writer` is a GRDB DatabaseWriter (Sendable).
    private let queue: DatabaseQueue
    private let writer: any DatabaseWriter
    private let condition = NSCondition()
    private var stopped = false
    private var finished = false
    let interval: Double
    /// The log's size past which a checkpoint under the write lock lets the next commit restart it.
    let restartBytes: Int
    private let pageSize: Int

    /// Opens the checkpointing connection; the caller then turns the writer's own checkpoints off.
    init(path: String, writer: any DatabaseWriter, interval: Double = 0.25, restartBytes: Int = 32 << 20) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        queue = try DatabaseQueue(path: path, configuration: configuration)
        self.writer = writer
        self.interval = interval
        self.restartBytes = restartBytes
        pageSize = try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } ?? 4096
    }

    func start() {
        let thread = Thread { [self] in
            condition.lock()
            while !stopped {
                _ = condition.wait(until: Date(timeIntervalSinceNow: interval))
                if stopped { break }
                condition.unlock()
                checkpoint()
                condition.lock()
            }
            finished = true
            condition.broadcast()
            condition.unlock()
        }
        thread.name = "larder.wal-checkpoint"
        thread.start()
    }

    /// One `PASSIVE` checkpoint (it copies what no reader still needs; a failure is left to the next one, or to
    /// the checkpoint SQLite runs when the last connection closes).
    private func checkpoint() {
        let passes = try? queue.writeWithoutTransaction { db in
            try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)")
        }
        // `log`: the frames in the log now (it counts from the beginning again once the log restarted).
        guard let row = passes ?? nil, let frames = row["log"] as Int?, frames * (pageSize + 24) > restartBytes else { return }
        let started = WorkTrace.Stamp.now()
        _ = try? writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)") }
        WorkTrace.shared?.record("checkpoint", "restart", since: started)
    }

    /// Stops the thread and waits for it (a checkpoint in progress finishes first).
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }
}

extension SQLiteCheckpointStore {
    /// Checkpoints the write-ahead log on a thread of its own instead of inside the commits (see
    /// ``WALCheckpointer``): for a process that commits many stage outputs (the worker). Returns a function that
    /// stops the thread and gives the checkpoints back to the commits.
    /// `restartBytes`: the log's size past which a checkpoint under the write lock lets it start over.
    public func checkpointInBackground(interval: Double = 0.25, restartBytes: Int = 32 << 20) throws -> @Sendable () -> Void {
        let checkpointer = try WALCheckpointer(path: path, writer: pool, interval: interval, restartBytes: restartBytes)
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        checkpointer.start()
        let pool = self.pool
        return {
            checkpointer.stop()
            _ = try? pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 1000") }
        }
    }
}
