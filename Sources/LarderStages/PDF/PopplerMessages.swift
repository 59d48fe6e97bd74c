internal import CPoppler
import Foundation
import LarderCore

/// poppler's own messages about a file ("Syntax error at position 1234: Unknown operator 'zork'"), kept as the
/// document's warnings.
///
/// poppler-glib hands poppler's messages to GLib's log (domain `Poppler`, level INFO), which drops them unless
/// `G_MESSAGES_DEBUG` is set (then they would be printed on standard error). ``collecting(file:_:)`` installs a
/// handler for that domain once and gathers what poppler reports on the calling thread while `body` runs (one
/// document per worker thread at a time, so a thread's messages are that document's). Messages from a thread that
/// is not collecting are dropped: every stage that calls poppler collects.
enum PopplerMessages {
    /// Distinct messages kept per document; the rest are counted.
    static let kept = 5

    /// The messages of the threads collecting now, by thread.
    private final class Collectors: @unchecked Sendable {
        // @unchecked: `byThread` is only touched under `lock`.
        let lock = NSLock()
        var byThread: [pthread_t: [String]] = [:]
    }
    private static let collectors = Collectors()

    private static let installed: Void = {
        let levels = GLogLevelFlags(rawValue: G_LOG_LEVEL_MASK.rawValue | G_LOG_FLAG_FATAL.rawValue | G_LOG_FLAG_RECURSION.rawValue)
        _ = g_log_set_handler("Poppler", levels, { _, _, message, _ in
            guard let message else { return }
            PopplerMessages.record(String(cString: message))
        }, nil)
    }()

    private static func record(_ message: String) {
        let thread = pthread_self()
        collectors.lock.lock()
        defer { collectors.lock.unlock() }
        collectors.byThread[thread]?.append(message)
    }

    /// Runs `body` and returns what it returned with poppler's messages meanwhile, as warnings naming `file`
    /// (escaped): the first ``kept`` distinct ones, then how many more there were.
    static func collecting<T>(file path: String, _ body: () throws -> T) rethrows -> (value: T, warnings: [String]) {
        _ = installed
        let thread = pthread_self()
        collectors.lock.lock()
        let outer = collectors.byThread[thread]
        collectors.byThread[thread] = []
        collectors.lock.unlock()
        var messages: [String] = []
        defer {
            collectors.lock.lock()
            collectors.byThread[thread] = outer.map { $0 + messages }
            collectors.lock.unlock()
        }
        let value = try body()
        collectors.lock.lock()
        messages = collectors.byThread[thread] ?? []
        collectors.lock.unlock()
        return (value, warnings(messages, file: path))
    }

    /// poppler's messages as warnings naming the file.
    static func warnings(_ messages: [String], file path: String) -> [String] {
        var distinct: [String] = []
        for message in messages where !distinct.contains(message) {
            distinct.append(message)
        }
        let name = LarderError.displayPath(URL(fileURLWithPath: path).lastPathComponent)
        var warnings = distinct.prefix(kept).map {
            "\(name): poppler reported \"\(LarderError.displayPath($0))\" (the PDF may be damaged: check the text read from it)"
        }
        if messages.count > warnings.count {
            warnings.append("\(name): poppler reported \(messages.count - warnings.count) more problem(s) in this PDF")
        }
        return warnings
    }
}
