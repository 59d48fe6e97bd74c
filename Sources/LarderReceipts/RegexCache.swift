import Foundation

/// Compiled regular expressions by pattern, shared by every parse in the process.
///
/// The receipt parser matches a few dozen patterns per line, some built per call (they depend on the currency's
/// price format). Compiling a pattern costs ICU 20–200 µs; `NSRegularExpression(pattern:)` compiles every time, and
/// Foundation's `range(of:options: .regularExpression)` / `replacingOccurrences(…, options: .regularExpression)`
/// keep only the last 10 patterns (and format a cache key through reflection each call), so the parser compiled
/// nearly every pattern on every line: two thirds of a parse (issue 11: the receipt fuzz targets ran 25–190 inputs
/// per second). Every pattern here is a literal or built from literals, so the cache stays small; it is emptied
/// past `limit` all the same.
enum RegexCache {
    static let limit = 1024

    private final class Storage: @unchecked Sendable {
        // @unchecked: `regexes` is only touched under `lock`; NSRegularExpression is immutable and its matching
        // methods are safe to call from several threads at once.
        let lock = NSLock()
        var regexes: [String: NSRegularExpression] = [:]
    }

    private static let storage = Storage()

    /// The compiled pattern (no options), or nil when it does not compile.
    static func regex(_ pattern: String) -> NSRegularExpression? {
        storage.lock.lock()
        let cached = storage.regexes[pattern]
        storage.lock.unlock()
        if let cached { return cached }
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
        storage.lock.lock()
        if storage.regexes.count >= limit { storage.regexes.removeAll(keepingCapacity: true) }
        storage.regexes[pattern] = regex
        storage.lock.unlock()
        return regex
    }
}

extension String {
    /// `range(of: pattern, options: .regularExpression)`, with the pattern compiled once (``RegexCache``).
    func range(ofPattern pattern: String) -> Range<String.Index>? {
        guard let regex = RegexCache.regex(pattern),
            let match = regex.firstMatch(in: self, range: NSRange(startIndex..., in: self))
        else { return nil }
        return Range(match.range, in: self)
    }

    /// `replacingOccurrences(of: pattern, with: template, options: .regularExpression)`, with the pattern compiled
    /// once (``RegexCache``).
    func replacingMatches(of pattern: String, with template: String) -> String {
        guard let regex = RegexCache.regex(pattern) else { return self }
        return regex.stringByReplacingMatches(in: self, range: NSRange(startIndex..., in: self), withTemplate: template)
    }
}

extension Substring {
    /// `range(of: pattern, options: .regularExpression)`, with the pattern compiled once (``RegexCache``).
    func range(ofPattern pattern: String) -> Range<String.Index>? {
        let text = String(self)
        guard let found = text.range(ofPattern: pattern) else { return nil }
        let lower = utf8.index(startIndex, offsetBy: text.utf8.distance(from: text.startIndex, to: found.lowerBound))
        let upper = utf8.index(lower, offsetBy: text.utf8.distance(from: found.lowerBound, to: found.upperBound))
        return lower..<upper
    }
}
