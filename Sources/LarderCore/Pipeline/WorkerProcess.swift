import Dispatch
import Foundation
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

    public init(executable: String, arguments: [String]) {
        self.executable = executable
        self.arguments = arguments
    }

    /// How the workers ended.
    public struct Outcome: Sendable, Equatable {
        /// The last child's exit status (0 = everything processed).
        public var exitStatus: Int32
        /// Crashes survived by restarting.
        public var crashes: Int
        /// A SIGINT/SIGTERM stopped the batch.
        public var interrupted: Bool

        public init(exitStatus: Int32, crashes: Int, interrupted: Bool) {
            self.exitStatus = exitStatus
            self.crashes = crashes
            self.interrupted = interrupted
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

    public func run(logger: Logger) throws -> Outcome {
        let child = Locked<pid_t>(0)
        let signalsSeen = Locked(0)
        var sources: [DispatchSourceSignal] = []
        for signo in [SIGINT, SIGTERM] {
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
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
        }

        var crashes = 0
        while true {
            let pid = try spawn()
            child.withLock { $0 = pid }
            let status = Self.wait(for: pid)
            child.withLock { $0 = 0 }
            let interrupted = signalsSeen.withLock { $0 } > 0
            switch status {
            case .exited(let code):
                return Outcome(exitStatus: code, crashes: crashes, interrupted: interrupted || code == 130 || code == 143)
            case .signaled(let signo):
                if interrupted {
                    return Outcome(exitStatus: 128 + signo, crashes: crashes, interrupted: true)
                }
                crashes += 1
                guard crashes <= maxRestarts else {
                    throw LarderError(
                        .crashed, "the worker process crashed \(crashes) times; giving up",
                        hint: "run `larder status` to see which documents were in flight, then `larder resume`")
                }
                logger.warning(
                    "worker process died of signal \(signo) (\(String(cString: strsignal(signo)))); restarting: the documents it was working on run again, one at a time"
                )
            }
        }
    }

    private enum Status {
        case exited(Int32)
        case signaled(Int32)
    }

    private static func wait(for pid: pid_t) -> Status {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signo = status & 0x7f
        return signo == 0 ? .exited((status >> 8) & 0xff) : .signaled(signo)
    }

    private func spawn() throws -> pid_t {
        var environment = ProcessInfo.processInfo.environment
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
    /// Takes the database's worker lock, waiting while another worker holds it. The lock lasts until exit.
    public static func lockDatabase(_ databasePath: String, logger: Logger) throws {
        let lockPath = databasePath + ".lock"
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw LarderError(
                .database, "cannot create the worker lock file", hint: "check that the folder is writable",
                path: lockPath)
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            logger.notice("another larder process is working on this database; waiting for it to finish")
            while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
        }
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
    public static func handleSignals(stopping queue: WorkQueue, logger: Logger) -> [DispatchSourceSignal] {
        let seen = Locked(0)
        return [SIGINT, SIGTERM].map { signo in
            signal(signo, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signo, queue: .global())
            source.setEventHandler {
                let count = seen.withLock { value -> Int in
                    value += 1
                    return value
                }
                if count == 1 {
                    logger.notice("stopping: finishing the stages in flight (Ctrl-C again to abort at once)")
                    queue.requestStop()
                } else if signo == SIGINT {
                    _exit(130)
                }
            }
            source.resume()
            return source
        }
    }
}
