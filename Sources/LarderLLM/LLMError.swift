import Foundation
import LarderCore

/// An error from the LLM stage, as a value with context: what failed, at which provider, and what to do.
///
/// Its text never contains an API key: ``message`` and ``hint`` pass through ``Redactor`` when the error
/// is made, so anything echoed back by a server (headers, URLs with `key=`) is masked.
public struct LLMError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is. A struct over strings so the set can grow without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code's stable name, e.g. `rate-limited`.
        public let name: String
        init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The API key's environment variable is not set or empty.
        public static let missingAPIKey = Code("missing-api-key")
        /// The provider answered 401 or 403.
        public static let unauthorized = Code("unauthorized")
        /// The provider answered 429.
        public static let rateLimited = Code("rate-limited")
        /// The provider answered 5xx.
        public static let serverError = Code("server-error")
        /// Another 4xx answer.
        public static let badRequest = Code("bad-request")
        /// The prompt exceeds the model's context window.
        public static let contextTooLong = Code("context-too-long")
        /// The request took longer than the provider's timeout.
        public static let timeout = Code("timeout")
        /// The connection failed (refused, reset, DNS…).
        public static let transport = Code("transport")
        /// The body was not the JSON shape the provider documents.
        public static let malformedBody = Code("malformed-body")
        /// The answer stopped before it was complete (finish reason `length`, `max_tokens`, `MAX_TOKENS`…).
        public static let truncated = Code("truncated")
        /// The answer was refused or filtered by the provider.
        public static let refused = Code("refused")
        /// The model's output did not parse or did not validate against the target schema, after every re-ask.
        public static let schemaInvalid = Code("schema-invalid")
        /// The batch's token budget is used up; no further requests are sent.
        public static let budgetExhausted = Code("budget-exhausted")
        /// Every provider in the chain failed; ``LLMError/causes`` has each one's error.
        public static let allProvidersFailed = Code("all-providers-failed")
        /// The configuration is unusable (no providers, bad URL, unknown schema…).
        public static let configuration = Code("configuration")
        /// The cache database failed.
        public static let cache = Code("cache")
    }

    /// What kind of failure.
    public let code: Code
    /// What happened, in plain words (redacted).
    public let message: String
    /// What to do about it (redacted), if there is something to say.
    public let hint: String?
    /// The provider (chain entry name) involved, if any.
    public let provider: String?
    /// The HTTP status, if there was a response.
    public let status: Int?
    /// The server's Retry-After, in seconds, for ``Code/rateLimited``.
    public let retryAfter: Double?
    /// For ``Code/allProvidersFailed``: each provider's last error, in chain order.
    public let causes: [LLMError]
    /// The document being structured, when known.
    public var document: String?

    /// Makes an error; `message` and `hint` are redacted here.
    public init(
        _ code: Code, _ message: String, hint: String? = nil, provider: String? = nil, status: Int? = nil,
        retryAfter: Double? = nil, causes: [LLMError] = []
    ) {
        self.code = code
        self.message = Redactor.redact(message)
        self.hint = hint.map(Redactor.redact)
        self.provider = provider
        self.status = status
        self.retryAfter = retryAfter
        self.causes = causes
    }

    /// Whether trying the same provider again may succeed (429, 5xx, timeouts, connection failures).
    public var isRetryable: Bool {
        [.rateLimited, .serverError, .timeout, .transport].contains(code)
    }

    /// `provider: message (hint)`, followed by the causes, one per line.
    public var description: String {
        var text = document.map { "document \($0): " } ?? ""
        text += provider.map { "\($0): " } ?? ""
        text += message
        if let status { text += " [HTTP \(status)]" }
        if let hint { text += " — \(hint)" }
        for cause in causes { text += "\n  - \(cause.description.replacingOccurrences(of: "\n", with: "\n    "))" }
        return text
    }
}

/// Masks secrets in text that may be shown, logged or stored.
///
/// It masks the values of `Authorization`, `x-api-key`, `x-goog-api-key` and `api-key` headers, `key=` /
/// `api_key=` query parameters, `Bearer …` tokens, typical key shapes (`sk-…`, `AIza…`), and any value
/// registered with ``register(secret:)`` (the chain registers each key it reads from the environment).
public enum Redactor {
    private static let secrets = Locked<Set<String>>([])

    /// Remembers a secret so that ``redact(_:)`` masks it wherever it appears. Values shorter than 6
    /// characters are ignored (they would mask ordinary words).
    public static func register(secret: String) {
        guard secret.count >= 6 else { return }
        secrets.withLock { _ = $0.insert(secret) }
    }

    private static let patterns: [NSRegularExpression] = [
        #"(?i)(authorization"?\s*[:=]\s*"?(?:bearer\s+|basic\s+|token\s+)?)[^"\s,}]+"#,
        #"(?i)((?:x-api-key|x-goog-api-key|api-key)\s*"?\s*[:=]\s*"?)[^"\s,}]+"#,
        #"(?i)([?&](?:key|api_key|apikey)=)[^&\s"]+"#,
        #"(?i)(bearer\s+)[A-Za-z0-9._~+/=-]+"#,
        #"()\b(?:sk-[A-Za-z0-9_-]{8,}|AIza[0-9A-Za-z_-]{20,})"#,
    ].map { try! NSRegularExpression(pattern: $0) }

    /// The text with secrets replaced by `<REDACTED>`.
    public static func redact(_ text: String) -> String {
        var result = text
        for secret in secrets.withLock({ $0 }) where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: "<REDACTED>")
        }
        for pattern in patterns {
            let range = NSRange(result.startIndex..., in: result)
            result = pattern.stringByReplacingMatches(in: result, range: range, withTemplate: "$1<REDACTED>")
        }
        return result
    }
}
