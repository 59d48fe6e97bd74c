import Foundation

/// An RFC 6901 JSON Pointer, e.g. `/ingredients/3/quantity`.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// Unescaped reference tokens.
    public var tokens: [String]

    /// Errors for malformed pointers.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        /// The offending pointer text.
        public let pointer: String
        /// Why it is invalid.
        public let reason: String
        public var description: String { "invalid JSON pointer '\(pointer)': \(reason)" }
    }

    /// The root pointer (`""`).
    public static let root = JSONPointer(tokens: [])

    /// Creates a pointer from unescaped tokens.
    public init(tokens: [String]) { self.tokens = tokens }

    /// Parses the string form (`""` or `/a/b~1c`). `~0` → `~`, `~1` → `/`.
    /// - Throws: ``ParseError`` if it does not start with `/` or has a bad `~` escape.
    public init(parsing text: String) throws {
        if text.isEmpty { tokens = []; return }
        guard text.hasPrefix("/") else { throw ParseError(pointer: text, reason: "must be empty or start with '/'") }
        var toks: [String] = []
        for raw in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            if !raw.contains("~") { toks.append(String(raw)); continue }
            var s = ""
            var it = raw.makeIterator()
            while let c = it.next() {
                if c == "~" {
                    switch it.next() {
                    case "0": s.append("~")
                    case "1": s.append("/")
                    default: throw ParseError(pointer: text, reason: "'~' must be followed by '0' or '1'")
                    }
                } else { s.append(c) }
            }
            toks.append(s)
        }
        tokens = toks
    }

    /// Parses a pointer literal; traps on invalid input (use ``init(parsing:)`` for untrusted text).
    public init(stringLiteral value: String) {
        do { try self.init(parsing: value) } catch { preconditionFailure("\(error)") }
    }

    /// Escapes one token (`~` → `~0`, `/` → `~1`).
    public static func escape(_ token: String) -> String {
        if !token.contains("~") && !token.contains("/") { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// The string form.
    public var description: String {
        var s = ""
        for t in tokens { s += "/"; s += JSONPointer.escape(t) }
        return s
    }

    /// `true` for the root pointer.
    public var isRoot: Bool { tokens.isEmpty }
    /// The pointer without its last token (root stays root).
    public var parent: JSONPointer { JSONPointer(tokens: Array(tokens.dropLast())) }
    /// Returns a pointer with one more token.
    public func appending(_ token: String) -> JSONPointer { JSONPointer(tokens: tokens + [token]) }
    /// Returns a pointer with an array index appended.
    public func appending(_ index: Int) -> JSONPointer { appending(String(index)) }

    /// Parses an array index token per RFC 6901 (digits, no leading zeros).
    static func arrayIndex(_ token: String) -> Int? {
        guard !token.isEmpty, token.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        if token.utf8.count > 1 && token.utf8.first == 48 { return nil }
        return Int(token)
    }

    /// Resolves the pointer against `value`; `nil` if any token does not exist.
    public func resolve(in value: JSONValue) -> JSONValue? {
        var cur = value
        for t in tokens {
            switch cur {
            case .object(let o):
                guard let v = o[t] else { return nil }
                cur = v
            case .array(let a):
                guard let i = JSONPointer.arrayIndex(t), i < a.count else { return nil }
                cur = a[i]
            default: return nil
            }
        }
        return cur
    }
}

extension JSONValue {
    /// Resolves a JSON pointer against this value.
    public subscript(pointer pointer: JSONPointer) -> JSONValue? { pointer.resolve(in: self) }
}
