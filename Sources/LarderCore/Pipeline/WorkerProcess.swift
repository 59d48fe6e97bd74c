import Dispatch
import Foundation
import LarderSupport
import Logging

/// Runs the work queue in a child process and restarts it if it crashes, so a native crash on one malicious
/// file never ends a batch.
///
/// `larder ingest` registers the files itself, then starts `larder-worker` (installed next to `larder`; it links the
/// native libraries, which `larder` itself does not load) and waits:
/// - the child dies of a signal (SIGSEGV in poppler, say) → it is started again; the stages it left `running`
///   have had their attempt counted, run again first one document at a time, and a document that keeps
///   crashing is quarantined after `max_attempts` (see ``WorkQueue``);
/// - SIGINT/SIGTERM to `larder ingest` are passed on: the child finishes its in-flight stages and exits; a second
///   SIGINT aborts at once;
/// - the child runs with `OMP_THREAD_LIMIT=1`, which libgomp (tesseract) reads before `main`, in its own process
///   group, and exits if `larder ingest` is killed.
public struct WorkerProcess: Sendable {
    /// The `larder-worker` executable.
    public var executable: String
    /// Arguments after the executable, e.g. `["--db", path]`.
    public var arguments: [String]
    /// Restarts allowed after crashes before giving up (each crash also counts against the documents in flight).
    public var maxRestarts = 100
    /// Called after the worker was killed from outside (see ``blamesDocuments(signal:oomKilled:)``), before it is
    /// restarted: gives the stages it left `running` their attempt back, so the documents are not blamed.
    public var releaseStagesAfterOutsideKill: (@Sendable () throws -> Void)?
    /// Called after the worker died at its memory limit (``WorkerChild/memoryLimitExitStatus``, or the kernel's
    /// OOM killer), before it is restarted: fails the document that took the memory when it ran alone, and gives
    /// the others their attempt back (``CheckpointStore/failAfterMemoryLimit(error:)``). Nil: blamed as a crash.
    public var settleAfterMemoryLimit: (@Sendable () throws -> Void)?

    /// The signals that mean the worker crashed while working on its documents: a native library (or Larder)
    /// faulted, aborted or trapped. Only these count against the documents in flight.
    public static let crashSignals: Set<Int32> = [SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE, SIGTRAP, SIGSYS]

    /// Whether a worker that died of `signal` is blamed on the documents it had in flight. A crash signal is; a
    /// SIGKILL or SIGTERM from outside (a person, a service manager, a test) is not, and neither is any other
    /// signal. An out-of-memory kill is a SIGKILL too, but the kernel counts it (the cgroup's `oom_kill`): the
    /// documents in flight are blamed for it, since one of them most likely took the memory, and a document
    /// that keeps doing so is quarantined after `max_attempts` like any crash.
    public static func blamesDocuments(signal: Int32, oomKilled: Bool) -> Bool {
        crashSignals.contains(signal) || (signal == SIGKILL && oomKilled)
    }

    /// The kernel's count of out-of-memory kills in this process's cgroup (cgroup v2 `memory.events`), or nil
    /// when it cannot be read (cgroup v1, no memory controller).
    public static func oomKillCount() -> Int? {
        guard let cgroup = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8),
            let line = cgroup.split(separator: "\n").first(where: { $0.hasPrefix("0::") })
        else { return nil }
        let folder = "/sys/fs/cgroup" + line.dropFirst(3)
        guard let events = try? String(contentsOfFile: folder + "/memory.events", encoding: .utf8) else { return nil }
        for entry in events.split(separator: "\n") where entry.hasPrefix("oom_kill ") {
            return Int(entry.dropFirst("oom_kill ".count))
        }
        return nil
    }

    public init(executable: String, arguments: [String]) {
        self.executable = executable
        self.arguments = arguments
    }

    /// The installed `larder-worker` for `store`, as `larder ingest`, `larder worker` and `larder serve` all run it:
    /// a worker killed from outside gives its stages their attempt back; one that died at `limits.worker_memory`
    /// (`memoryLimit` bytes) fails the document it ran alone with ``memoryLimitError(_:)``, not as a crash.
    public static func forStore(_ store: any CheckpointStore, arguments: [String], memoryLimit: Int64) throws
        -> WorkerProcess
    {
        var process = WorkerProcess(executable: try workerExecutable(), arguments: arguments)
        process.releaseStagesAfterOutsideKill = { _ = try store.releaseInterruptedStages() }
        let error = memoryLimitError(memoryLimit)
        process.settleAfterMemoryLimit = { _ = try store.failAfterMemoryLimit(error: error) }
        return process
    }

    /// How the workers ended.
    public struct Outcome: Sendable, Equatable {
        /// The last child's exit status (0 = everything processed).
        public var exitStatus: Int32
        /// Crashes survived by restarting.
        public var crashes: Int
        /// A SIGINT/SIGTERM stopped the batch.
        public var interrupted: Bool
        /// Workers that died at their memory limit (`limits.worker_memory`, or the kernel's OOM killer) and were
        /// settled by ``settleAfterMemoryLimit``: not crashes.
        public var memoryDeaths: Int

        public init(exitStatus: Int32, crashes: Int, interrupted: Bool, memoryDeaths: Int = 0) {
            self.exitStatus = exitStatus
            self.crashes = crashes
            self.interrupted = interrupted
            self.memoryDeaths = memoryDeaths
        }
    }

    /// `larder-worker` next to the running executable, or `$LARDER_WORKER`.
    public static func workerExecutable() throws -> String {
        if let path = ProcessInfo.processInfo.environment["LARDER_WORKER"], !path.isEmpty { return path }
        let current =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let path = URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent("larder-worker").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw LarderError(
                .configuration, "larder-worker is not installed next to larder",
                hint: "build or install both executables (swift build builds both), or set LARDER_WORKER", path: path)
        }
        return path
    }

    /// A worker started before `larder` has registered the documents (``startEarly()``): it opens the database,
    /// builds the stages and warms them up (lexicon, tagger model) on the other core while `larder` walks and hashes
    /// the files, then waits on a pipe. ``run(logger:early:)`` opens the gate; ``cancel()`` ends it unused.
    public final class EarlyStart: @unchecked Sendable {
        // @unchecked: `pid` and `gate` are set once by `startEarly` and then read by the one thread that owns this.
        let pid: pid_t
        var gate: Int32

        init(pid: pid_t, gate: Int32) {
            self.pid = pid
            self.gate = gate
        }

        /// Opens the gate: the worker goes on to the documents.
        func open() {
            guard gate >= 0 else { return }
            // A worker that already exited (a configuration error, killed from outside) closed the read end: the
            // write then fails with EPIPE instead of raising SIGPIPE here, and `run` reads the worker's status.
            let previous = signal(SIGPIPE, SIG_IGN)
            _ = write(gate, "g", 1)
            signal(SIGPIPE, previous)
            close(gate)
            gate = -1
        }

        /// Nothing to do after all (a re-run of a finished batch): the worker is stopped and reaped. It has written
        /// nothing: it stops before its queue starts.
        public func cancel() {
            if gate >= 0 {
                close(gate)
                gate = -1
            }
            kill(pid, SIGKILL)
            _ = WorkerProcess.wait(for: pid)
        }
    }

    /// The environment variable naming the gate's file descriptor in an early-started worker (see ``EarlyStart``).
    public static let startGateVariable = "LARDER_START_GATE"

    /// Starts the worker before the documents are registered (see ``EarlyStart``). Restarts after a crash start a
    /// worker the usual way.
    public func startEarly() throws -> EarlyStart {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw LarderError(.transient, "cannot make a pipe for the worker: \(String(cString: strerror(errno)))")
        }
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)  // the write end stays here
        defer { close(fds[0]) }
        WorkTrace.shared?.mark("spawn")
        do {
            let pid = try spawn(extraEnvironment: [Self.startGateVariable: String(fds[0])])
            return EarlyStart(pid: pid, gate: fds[1])
        } catch {
            close(fds[1])
            throw error
        }
    }

    /// Stops a running worker from another thread, as a SIGTERM to `larder ingest` does: for a caller that handles
    /// SIGINT/SIGTERM itself (`larder serve`). Given to ``run(logger:early:stop:)``, `run` installs no signal handlers.
    public final class StopControl: Sendable {
        let child = Locked<pid_t>(0)
        let requests = Locked(0)

        public init() {}

        /// The worker finishes its stages in flight and exits; `run` then returns `interrupted`.
        public func stop() {
            requests.withLock { $0 += 1 }
            let pid = child.withLock { $0 }
            if pid > 0 { kill(pid, SIGTERM) }
        }

        public var isStopped: Bool { requests.withLock { $0 } > 0 }
    }

    public func run(logger: Logger, early: EarlyStart? = nil, stop: StopControl? = nil) throws -> Outcome {
        let child = stop?.child ?? Locked<pid_t>(0)
        let signalsSeen = stop?.requests ?? Locked(0)
        var sources: [DispatchSourceSignal] = []
        for signo in [SIGINT, SIGTERM] where stop == nil {
            signal(signo, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signo, queue: .global())
            source.setEventHandler {
                signalsSeen.withLock { $0 += 1 }
                let pid = child.withLock { $0 }
                if pid > 0 { kill(pid, signo) }
            }
            source.resume()
            sources.append(source)
        }
        defer {
            for source in sources { source.cancel() }
            if stop == nil {
                signal(SIGINT, SIG_DFL)
                signal(SIGTERM, SIG_DFL)
            }
        }

        var crashes = 0
        var memoryDeaths = 0
        var outsideKills = 0
        var early = early
        DocumentCopy.removeCopiesOfDeadProcesses()
        while true {
            let oomBefore = Self.oomKillCount()
            let pid: pid_t
            if let started = early {
                pid = started.pid
                started.open()
                early = nil
            } else {
                WorkTrace.shared?.mark("spawn")
                pid = try spawn()
            }
            child.withLock { $0 = pid }
            if stop?.isStopped == true { kill(pid, SIGTERM) }  // asked to stop while it was being started
            let status = Self.wait(for: pid)
            child.withLock { $0 = 0 }
            DocumentCopy.removeCopies(ofExited: pid)  // a worker killed mid-document leaves its private copy
            WorkTrace.shared?.mark("exit")
            WorkTrace.shared?.flush()
            let interrupted = signalsSeen.withLock { $0 } > 0
            switch status {
            case .exited(WorkQueue.overrunExitStatus) where signalsSeen.withLock({ $0 }) == 0:
                // A stage ran past limits.stage_seconds: its document failed, the rest go on in a new worker. Each
                // such restart settles one document, so they need no limit of their own.
                continue
            case .exited(WorkerChild.memoryLimitExitStatus) where signalsSeen.withLock({ $0 }) == 0:
                try afterMemoryLimit(&memoryDeaths, logger: logger, how: "passed limits.worker_memory")
                continue
            case .exited(let code) where (code == 128 + SIGINT || code == 128 + SIGTERM) && signalsSeen.withLock({ $0 }) == 0:
                // The worker alone was stopped by a signal from outside (this process saw none): it finished its
                // stages cleanly, so nothing is blamed; the batch goes on in a new worker.
                outsideKills += 1
                guard outsideKills <= maxRestarts else {
                    throw LarderError(
                        .interrupted, "the worker process was stopped from outside \(outsideKills) times; giving up",
                        hint: "find what stops it, then `larder resume`")
                }
                logger.warning("worker process was stopped by signal \(code - 128) from outside; restarting it")
                continue
            case .exited(let code):
                return Outcome(
                    exitStatus: code, crashes: crashes, interrupted: interrupted || code == 130 || code == 143,
                    memoryDeaths: memoryDeaths)
            case .signaled(let signo):
                if interrupted {
                    return Outcome(exitStatus: 128 + signo, crashes: crashes, interrupted: true, memoryDeaths: memoryDeaths)
                }
                let oomKilled = oomBefore.map { before in (Self.oomKillCount() ?? before) > before } ?? false
                if signo == SIGKILL && oomKilled && settleAfterMemoryLimit != nil {
                    try afterMemoryLimit(&memoryDeaths, logger: logger, how: "was killed by the kernel, out of memory")
                    continue
                }
                if !Self.blamesDocuments(signal: signo, oomKilled: oomKilled) {
                    outsideKills += 1
                    guard outsideKills <= maxRestarts else {
                        throw LarderError(
                            .interrupted, "the worker process was killed from outside \(outsideKills) times; giving up",
                            hint: "find what kills it (a service manager, a memory limit), then `larder resume`")
                    }
                    try releaseStagesAfterOutsideKill?()
                    logger.warning(
                        "worker process was killed by signal \(signo) (\(String(cString: strsignal(signo)))) from outside; restarting: its documents are not blamed and run again"
                    )
                    continue
                }
                crashes += 1
                guard crashes <= maxRestarts else {
                    throw LarderError(
                        .crashed, "the worker process crashed \(crashes) times; giving up",
                        hint: "run `larder status` to see which documents were in flight, then `larder resume`")
                }
                logger.warning(
                    "worker process died of signal \(signo) (\(String(cString: strsignal(signo))))\(oomKilled ? " (out of memory)" : " (a native crash, or past limits.worker_memory)"); restarting: the documents it was working on run again, one at a time"
                )
            }
        }
    }

    /// What a document that took the worker past `limits.worker_memory` (`limit` bytes; 0: none, the machine's
    /// memory ran out) fails with.
    public static func memoryLimitError(_ limit: Int64) -> LarderError {
        let size = limit > 0 ? "limits.worker_memory (\(limit >> 20) MiB)" : "the machine's memory (limits.worker_memory is 0: no limit)"
        return LarderError(
            .overLimit, "the worker process ran out of memory on this document alone: it needs more than \(size)",
            hint: "the file may be built to take memory: inspect it; if it is a real document, raise "
                + "limits.worker_memory in pipeline.yml, then `larder retry` it")
    }

    /// A worker that died at its memory limit: its lone document failed, or its documents re-run one at a time.
    private func afterMemoryLimit(_ deaths: inout Int, logger: Logger, how: String) throws {
        deaths += 1
        guard deaths <= maxRestarts else {
            throw LarderError(
                .crashed, "the worker process died \(deaths) times; giving up",
                hint: "run `larder status` to see which documents were in flight, then `larder resume`")
        }
        guard let settleAfterMemoryLimit else {
            logger.warning("worker process \(how); restarting: the documents it was working on run again, one at a time")
            return
        }
        try settleAfterMemoryLimit()
        logger.warning(
            "worker process \(how); restarting: a document it ran alone failed, any others run again one at a time")
    }

    fileprivate enum Status {
        case exited(Int32)
        case signaled(Int32)
    }

    fileprivate static func wait(for pid: pid_t) -> Status {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signo = status & 0x7f
        return signo == 0 ? .exited((status >> 8) & 0xff) : .signaled(signo)
    }

    private func spawn(extraEnvironment: [String: String] = [:]) throws -> pid_t {
        var environment = ProcessInfo.processInfo.environment.merging(extraEnvironment) { _, extra in extra }
        environment["OMP_THREAD_LIMIT"] = "1"
        environment["LARDER_SUPERVISOR_PID"] = String(getpid())
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Own process group (a terminal's Ctrl-C reaches only `larder ingest`, which passes it on once), and
        // default handlers for the signals this process ignores.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, nil, &attributes, argv, envp)
        guard result == 0 else {
            throw LarderError(
                .transient, "cannot start the worker process: \(String(cString: strerror(result)))",
                path: executable)
        }
        return pid
    }
}

/// The child's side: one worker process per database at a time, stop cleanly on SIGINT/SIGTERM, abort on a
/// second SIGINT, and exit if the supervising `larder ingest` dies.
public enum WorkerChild {
    /// Puts this process under `bytes` of data memory (`limits.worker_memory`): RLIMIT_DATA counts the heap and
    /// every private writable mapping — what a runaway parser or decoder grows — but not the shared libraries,
    /// mapped files or address space reserved and never touched (RLIMIT_AS counts those, and glibc reserves 64 MiB
    /// per malloc arena). Past it an allocation fails and the worker exits with ``memoryLimitExitStatus``
    /// (``MemoryLimitExit``); `larder` fails the document it ran alone and re-runs any others one at a time,
    /// unblamed (``WorkerProcess/settleAfterMemoryLimit``). 0: no limit.
    public static func limitMemory(_ bytes: Int64) throws {
        guard bytes > 0 else { return }
        var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
        guard setrlimit(__rlimit_resource_t(RLIMIT_DATA.rawValue), &limit) == 0 else {
            throw LarderError(
                .configuration, "cannot limit the worker's memory to \(bytes) bytes: \(String(cString: strerror(errno)))",
                hint: "lower or remove limits.worker_memory in pipeline.yml (0: no limit)")
        }
        MemoryLimitExit.install(limit: bytes)
    }

    /// The exit status of a worker that died at `limits.worker_memory` (an allocation failed): `larder` fails the
    /// document it ran alone instead of retrying it like a crash (``WorkerProcess/settleAfterMemoryLimit``).
    public static let memoryLimitExitStatus: Int32 = 76

    /// Takes the database's worker lock, waiting while another worker holds it. The lock lasts until exit.
    ///
    /// The lock is an `flock` on the database file itself, so it belongs to the file (its inode), not to the path
    /// it was reached by: a symlink, a hard link or `..` in the path all find the same lock. (SQLite's own locks
    /// are POSIX record locks, which `flock` does not touch; the descriptor stays open until the process exits,
    /// so closing it never drops SQLite's locks either.)
    public static func lockDatabase(_ databasePath: String, logger: Logger) throws {
        let fd = open(databasePath, O_RDONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw LarderError(
                .database, "cannot open the database to lock it: \(String(cString: strerror(errno)))",
                hint: "check that the database and its folder can be read (--db)", path: databasePath)
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            logger.notice("another larder process is working on this database; waiting for it to finish")
            while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
        }
    }

    /// True while a worker holds the database's lock (for tests and tools; see ``lockDatabase(_:logger:)``).
    public static func isDatabaseLocked(_ databasePath: String) -> Bool {
        let fd = open(databasePath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return true }
        flock(fd, LOCK_UN)
        return false
    }

    /// In a worker started early (``WorkerProcess/EarlyStart``): runs `warmUp` while `larder` registers the
    /// documents, then waits for the gate. Returns false when `larder` closed it without opening it (or died):
    /// nothing to do. A worker started the usual way returns true at once and does not warm up.
    public static func waitForStartGate(warmUp: () -> Void) -> Bool {
        guard let value = ProcessInfo.processInfo.environment[WorkerProcess.startGateVariable], let fd = Int32(value)
        else { return true }
        warmUp()
        var byte: UInt8 = 0
        var count = 0
        repeat { count = read(fd, &byte, 1) } while count < 0 && errno == EINTR
        close(fd)
        WorkTrace.shared?.mark("gate")
        return count == 1 && byte == UInt8(ascii: "g")
    }

    /// Exits at once if the process that started us goes away (killed with SIGKILL, say).
    public static func exitWhenSupervisorDies() {
        guard let value = ProcessInfo.processInfo.environment["LARDER_SUPERVISOR_PID"], let supervisor = pid_t(value)
        else { return }
        let thread = Thread {
            while true {
                if getppid() != supervisor { _exit(137) }
                usleep(100_000)
            }
        }
        thread.start()
    }

    /// First SIGINT/SIGTERM: `queue.requestStop()`. A second SIGINT: exit at once.
    /// The signal that stopped this worker (0 if none): the worker then exits with 128 + it, so `larder` can tell
    /// a stop it passed on from one sent to the worker alone.
    public static let stopSignal = Locked<Int32>(0)

    public static func handleSignals(stopping queue: WorkQueue, logger: Logger) -> [DispatchSourceSignal] {
        StopSignals.handle { signo in
            stopSignal.withLock { $0 = signo }
            logger.notice("stopping: finishing the stages in flight (Ctrl-C again to abort at once)")
            queue.requestStop()
        }
    }
}

/// Checks of the options `larder` passes on to `larder-worker`, made by both before anything is registered or
/// started, so a bad value is a clear error (exit 2) and never a worker that refuses to start.
public enum WorkerOptions {
    /// `--workers`: 0 (one per core) to 256, as `workers` in pipeline.yml.
    public static let workers = 0...256

    public static func validate(workers value: Int?) throws {
        guard let value, !workers.contains(value) else { return }
        throw LarderError(
            .configuration, "--workers \(value) is out of range: it must be a whole number from 0 to 256",
            hint: "give the number of documents to process at once; 0 means one per core")
    }
}
