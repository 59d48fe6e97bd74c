import Foundation

/// The CPU time each step of one image's recognition took: the calling thread's CPU clock
/// (`CLOCK_THREAD_CPUTIME_ID`), which other work on a busy machine barely moves, where wall time doubles. Tesseract
/// runs on the calling thread (`OMP_THREAD_LIMIT=1`), so its work is counted too. Recorded as the last step of an
/// ``OCRResult`` (`cpu-ms(decode 12, deskew 30, read 410, …)`), which `scripts/dev/receipt-step-costs.sh` sums up.
struct StepCosts {
    private(set) var entries: [(name: String, milliseconds: Double)] = []
    private var mark = StepCosts.now()

    /// The calling thread's CPU time in milliseconds.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
    }

    /// Charges the time since the last record (or since creation) to `name`; a name recorded twice adds up.
    mutating func record(_ name: String) {
        let now = Self.now()
        if let i = entries.firstIndex(where: { $0.name == name }) {
            entries[i].milliseconds += now - mark
        } else {
            entries.append((name, now - mark))
        }
        mark = now
    }

    /// Starts the next step's clock without charging the time since the last record to any step.
    mutating func skip() { mark = Self.now() }

    /// The step as `OCRResult.steps` carries it: `cpu-ms(decode 12, deskew 30, read 410)`.
    var step: String {
        "cpu-ms(" + entries.map { "\($0.name) \(Int($0.milliseconds.rounded()))" }.joined(separator: ", ") + ")"
    }
}
