import Dispatch
import Foundation

/// The double-signal handler of `larder serve` and `larder-worker`: the first SIGINT or SIGTERM calls `stop` (finish
/// what is in flight, then exit); a second SIGINT exits at once with status 130. Keep the returned sources for as
/// long as the handler should stay installed; cancelling them removes it.
public enum StopSignals {
    public static func handle(_ stop: @escaping @Sendable (_ signal: Int32) -> Void) -> [DispatchSourceSignal] {
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
                    stop(signo)
                } else if signo == SIGINT {
                    _exit(130)
                }
            }
            source.resume()
            return source
        }
    }
}
