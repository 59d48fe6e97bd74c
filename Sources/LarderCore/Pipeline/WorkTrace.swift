import Foundation
import LarderSupport

/// Where an ingest's wall time goes, thread by thread: off unless `LARDER_TRACE=FILE` is set.
///
/// Each process (`larder` and its worker) keeps its intervals in memory and appends them to FILE in one write when
/// it finishes (``flush()``), one tab-separated line each:
/// `pid  tid  kind  label  document  start  end  cpu  blocks` (times in seconds since 1970, so both processes' lines
/// line up; `cpu` = the thread's CPU seconds in the interval and `blocks` its voluntary context switches, so time
/// spent blocked shows even on a loaded machine).
/// Kinds: `mark` (an instant: `spawn`, `main`, `pipeline`, `exit`, …; start = end), `stage` (a stage's own work),
/// `check` (the output's size and schema checks), `read` (a document's stage rows), `feed` (taking the next
/// document), `lock` (waiting for SQLite's write lock), `write` (a write transaction's statements; label = the
/// store call), `commit` (its COMMIT), `thread` (a work-queue thread from start to end), `runqueue` (how long
/// that thread waited for a core while runnable, from the kernel's schedstat: start = 0, end = the wait).
/// `scripts/dev/trace-ingest.sh`
/// runs an ingest with it and prints each thread's busy and idle time (`scripts/dev/trace-summary.py`).
///
/// Recording costs four clock reads, two `getrusage` calls and an array append under a lock per interval (about 20 per document); with
/// the variable unset, ``shared`` is nil and nothing is recorded.
public final class WorkTrace: Sendable {
    private let path: String
    private let lines = Locked<[String]>([])

    /// The process's trace, when `LARDER_TRACE` names a file.
    public static let shared: WorkTrace? = {
        guard let path = ProcessInfo.processInfo.environment["LARDER_TRACE"], !path.isEmpty else { return nil }
        return WorkTrace(path: path)
    }()

    init(path: String) {
        self.path = path
    }

    /// The clock the trace uses (wall clock, to line up with the other process and the checkpoint database).
    @inline(__always)
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// A moment of this thread: wall clock, its CPU time, and how often it had blocked so far.
    public struct Stamp: Sendable {
        public var wall: Double
        public var cpu: Double
        /// Voluntary context switches (the thread blocked: a lock, a futex, I/O), `getrusage(RUSAGE_THREAD)`.
        public var blocks: Int

        public static func now() -> Stamp {
            let cpu = ThreadCPUClock.seconds()
            var usage = rusage()
            getrusage(__rusage_who_t(1), &usage)  // 1 = RUSAGE_THREAD (Glibc does not export the name)
            return Stamp(wall: WorkTrace.now(), cpu: cpu, blocks: Int(usage.ru_nvcsw))
        }
    }

    /// Seconds this thread has waited on a run queue for a core (`/proc/thread-self/schedstat`'s second field).
    public static func runQueueWait() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/thread-self/schedstat", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Double(fields[1]) ?? 0) / 1e9 : 0
    }

    /// An interval of this thread from `start` to now (or to `end`).
    public func record(_ kind: String, _ label: String, document: Int64? = nil, since start: Stamp, to end: Stamp = .now()) {
        record(
            kind, label, document: document, from: start.wall, to: end.wall, cpu: end.cpu - start.cpu,
            blocks: end.blocks - start.blocks)
    }

    /// An interval of this thread (`cpu`: its CPU seconds in it; `blocks`: how often it blocked in it).
    public func record(
        _ kind: String, _ label: String, document: Int64? = nil, from start: Double, to end: Double, cpu: Double = 0,
        blocks: Int = 0
    ) {
        let line =
            "\(getpid())\t\(pthread_self())\t\(kind)\t\(label)\t\(document.map(String.init) ?? "-")\t"
            + "\(start)\t\(end)\t\(cpu)\t\(blocks)\n"
        lines.withLock { $0.append(line) }
    }

    /// An instant of this process (`spawn`, `main`, …).
    public func mark(_ label: String) {
        let now = Self.now()
        record("mark", label, from: now, to: now)
    }

    /// Times `body` as an interval of this thread.
    @inline(__always)
    public static func measure<T>(_ kind: String, _ label: String, document: Int64? = nil, _ body: () throws -> T) rethrows -> T {
        guard let trace = shared else { return try body() }
        let start = Stamp.now()
        defer { trace.record(kind, label, document: document, since: start) }
        return try body()
    }

    /// Appends what was recorded to the file (one `O_APPEND` write) and forgets it.
    public func flush() {
        let text = lines.withLock { lines in
            defer { lines.removeAll() }
            return lines.joined()
        }
        guard !text.isEmpty else { return }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written <= 0 { break }
            offset += written
        }
    }
}
