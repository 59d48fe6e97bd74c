import Foundation

/// The calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`): on a shared machine the time the thread actually ran,
/// not the time it waited for a core, so it moves little when other work loads the machine while wall time doubles.
public enum ThreadCPUClock {
    /// Seconds of CPU this thread has used so far.
    public static func seconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
