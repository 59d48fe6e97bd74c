import Foundation

/// How a worker under `limits.worker_memory` tells `larder` that it died at its memory limit rather than of a crash.
///
/// Past the limit an allocation fails, and the Swift runtime (like glib and the C++ runtime) aborts: SIGABRT, the
/// same signal as an assertion in a native library. This SIGABRT handler looks at the moment of the abort: the
/// thread's `errno` still says `ENOMEM` (the failed `mmap`/`brk`), or the process's data memory (`/proc/self/statm`)
/// is within ``slack`` of the limit. Then the worker exits with ``WorkerChild/memoryLimitExitStatus`` instead of
/// dying of the signal, and `larder` fails the document it ran alone, naming the limit, instead of retrying it like
/// a crash. Any other abort goes on to the handler that was there before (the runtime's backtracer), as before.
///
/// The handler does only async-signal-safe work: `open`/`read`/`close` into a stack buffer, `write`, `_exit`.
enum MemoryLimitExit {
    /// The limit, in bytes (0 until ``install(limit:)``).
    nonisolated(unsafe) private static var limit: Int64 = 0
    /// The SIGABRT action before ours, restored for an abort that is not an allocation failure.
    nonisolated(unsafe) private static var previous = sigaction()
    nonisolated(unsafe) private static var pageSize: Int64 = 4096
    /// Data memory this close to the limit at an abort counts as the limit reached: the request that failed may
    /// have been this large (a glibc arena grows by up to 64 MiB).
    static let slack: Int64 = 64 << 20

    /// Installs the handler (once, in the worker, after `setrlimit`). Written here, before any thread can abort.
    static func install(limit: Int64) {
        Self.limit = limit
        pageSize = Int64(sysconf(Int32(_SC_PAGESIZE)))
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = { signo, _, _ in MemoryLimitExit.handle(signo) }
        action.sa_flags = SA_SIGINFO | SA_ONSTACK
        sigemptyset(&action.sa_mask)
        sigaction(SIGABRT, &action, &previous)
    }

    private static func handle(_ signo: Int32) {
        let outOfMemory = errno == ENOMEM
        if outOfMemory || dataBytes() + slack >= limit {
            let message: StaticString =
                "larder-worker: an allocation failed at limits.worker_memory (ENOMEM); exiting so that larder fails the document\n"
            _ = write(2, message.utf8Start, message.utf8CodeUnitCount)
            _exit(WorkerChild.memoryLimitExitStatus)
        }
        // A crash: the previous action (the backtracer, or the default) takes the signal once this handler returns.
        sigaction(SIGABRT, &previous, nil)
        raise(signo)
    }

    /// The process's data memory (`data` in `/proc/self/statm`: heap, private writable mappings and stack), read
    /// without allocating; 0 when it cannot be read.
    static func dataBytes() -> Int64 {
        var buffer: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &buffer) { raw -> Int64 in
            let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return 0 }
            let count = read(fd, raw.baseAddress, raw.count)
            close(fd)
            guard count > 0 else { return 0 }
            // "size resident shared text lib data dt", in pages: the sixth field.
            var field = 0
            var value: Int64 = 0
            for byte in raw.prefix(count) {
                if byte == UInt8(ascii: " ") {
                    field += 1
                    if field == 6 { break }
                } else if field == 5, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                    value = value * 10 + Int64(byte - UInt8(ascii: "0"))
                }
            }
            return value * pageSize
        }
    }
}
