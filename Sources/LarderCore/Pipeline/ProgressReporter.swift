import Foundation

/// Batch progress on standard error: one live line on a terminal (done/total, docs/s, failures, ETA), or a plain
/// line every `interval` seconds in a pipe or CI log.
public final class ProgressReporter: @unchecked Sendable {
    // @unchecked: the counters are behind `state`'s lock; `timer` is only read and written on the serial `queue`,
    // where its event handler runs too.
    private struct State {
        var total = 0
        var done = 0
        var failures = 0
        var started = Date()
    }

    private let state = Locked(State())
    private let live: Bool
    private let interval: Double
    private let queue = DispatchQueue(label: "larder.progress")
    private var timer: DispatchSourceTimer?

    /// - Parameters:
    ///   - live: redraw one line in place (stderr is a terminal).
    ///   - interval: seconds between lines when not live.
    public init(live: Bool = isatty(STDERR_FILENO) != 0, interval: Double) {
        self.live = live
        self.interval = interval
    }

    func start(total: Int) {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let period = live ? 0.25 : interval
        timer.schedule(deadline: .now() + period, repeating: period)
        timer.setEventHandler { [weak self] in self?.draw(final: false) }
        state.withLock {
            $0.total = total
            $0.started = Date()
        }
        queue.sync { self.timer = timer }
        timer.resume()
    }

    func documentFinished(failed: Bool) {
        state.withLock {
            $0.done += 1
            if failed { $0.failures += 1 }
        }
    }

    func finish() {
        queue.sync {
            timer?.cancel()
            timer = nil
            draw(final: true)
        }
    }

    private func draw(final: Bool) {
        let s = state.withLock { $0 }
        guard s.total > 0 else { return }
        let elapsed = max(Date().timeIntervalSince(s.started), 0.001)
        let rate = Double(s.done) / elapsed
        let eta = rate > 0 ? Double(s.total - s.done) / rate : 0
        let line = String(
            format: "[%d/%d] %.1f docs/s, %d failed, ETA %@", s.done, s.total, rate, s.failures,
            Self.duration(eta) as NSString)
        if live {
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + line + (final ? "\n" : "")).utf8))
        } else if !final || s.done > 0 {
            FileHandle.standardError.write(Data(("progress " + line + "\n").utf8))
        }
    }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? "\(s / 3600)h\(s % 3600 / 60)m" : s >= 60 ? "\(s / 60)m\(s % 60)s" : "\(s)s"
    }
}
