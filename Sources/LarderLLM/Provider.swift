import Foundation
import LarderCore
import LarderJSON

/// One message of a conversation with a model.
public struct ChatMessage: Sendable, Hashable {
    /// Who speaks.
    public enum Role: String, Sendable { case user, assistant }
    /// Who speaks.
    public var role: Role
    /// What is said.
    public var text: String
    /// Makes a message.
    public init(_ role: Role, _ text: String) {
        self.role = role
        self.text = text
    }
}

/// What to ask a model: a system prompt, the conversation so far, and the JSON Schema the answer must follow.
public struct ModelCall: Sendable {
    /// Instructions for the model.
    public var system: String
    /// The conversation; the last message is the user's.
    public var messages: [ChatMessage]
    /// The target JSON Schema (sent to providers that constrain output with it).
    public var schema: JSONValue
    /// A short name for the schema (`llm_recipe`), used where providers require one.
    public var schemaName: String
    /// Makes a call.
    public init(system: String, messages: [ChatMessage], schema: JSONValue, schemaName: String) {
        self.system = system
        self.messages = messages
        self.schema = schema
        self.schemaName = schemaName
    }
}

/// Why a model stopped, normalised across providers.
public enum FinishReason: Sendable, Hashable, CustomStringConvertible {
    /// It finished its answer (`stop`, `end_turn`, `tool_use`, `STOP`).
    case stop
    /// It ran out of output tokens (`length`, `max_tokens`, `MAX_TOKENS`): the answer is truncated.
    case length
    /// The provider filtered or refused the answer (`content_filter`, `refusal`, `SAFETY`…).
    case refused
    /// Anything else, with the provider's word.
    case other(String)

    public var description: String {
        switch self {
        case .stop: "stop"
        case .length: "length"
        case .refused: "refused"
        case .other(let raw): raw
        }
    }
}

/// A model's answer: its text, why it stopped, what it cost, and which model answered.
public struct ModelReply: Sendable, Hashable {
    /// The answer text (for Anthropic: the tool input, serialised as JSON).
    public var text: String
    /// Why the model stopped.
    public var finishReason: FinishReason
    /// The provider's raw stop reason string.
    public var rawFinishReason: String
    /// Tokens used.
    public var usage: TokenUsage
    /// The model name the provider reports (or the configured one if it reports none).
    public var model: String
    /// Makes a reply.
    public init(text: String, finishReason: FinishReason, rawFinishReason: String, usage: TokenUsage, model: String) {
        self.text = text
        self.finishReason = finishReason
        self.rawFinishReason = rawFinishReason
        self.usage = usage
        self.model = model
    }
}

/// A model API: builds the HTTP request for a ``ModelCall`` and parses the provider's response.
///
/// Providers do no I/O: ``ProviderChain`` sends the request, so request and response shapes can be
/// tested against recorded examples without a network.
public protocol Provider: Sendable {
    /// This provider's configuration (name, model, URL, limits, prices).
    var config: ProviderConfig { get }
    /// The HTTP request for `call`. `apiKey` is nil when the provider needs none (local servers).
    func makeRequest(_ call: ModelCall, apiKey: String?) throws -> HTTPRequest
    /// Parses a 2xx response body into a reply. Throws ``LLMError/Code/malformedBody`` for bodies that do not
    /// have the documented shape.
    func parseResponse(_ response: HTTPResponse) throws -> ModelReply
}

extension Provider {
    /// Maps an error response to an ``LLMError`` with an actionable message. The body's text is included,
    /// shortened and redacted.
    public func classifyFailure(_ response: HTTPResponse) -> LLMError {
        let name = config.name
        let snippet = Self.snippet(response.text)
        let lower = response.text.lowercased()
        let tooLong =
            lower.contains("context length") || lower.contains("context_length") || lower.contains("too many tokens")
            || lower.contains("prompt is too long") || lower.contains("exceeds the context")
            || lower.contains("maximum context") || lower.contains("exceed_context_size")
            || lower.contains("input token count")
        switch response.status {
        case 401, 403:
            return LLMError(
                .unauthorized, "the provider refused the credentials: \(snippet)",
                hint: config.apiKeyEnv.map { "check the key in the environment variable \($0) and its permissions" }
                    ?? "this provider has no apiKeyEnv configured; set one if it needs a key",
                provider: name, status: response.status)
        case 429:
            let after = response.retryAfter()
            return LLMError(
                .rateLimited, "rate limited" + (after.map { " (Retry-After: \($0) s)" } ?? "") + ": \(snippet)",
                hint: "lower this provider's concurrency or wait", provider: name, status: 429, retryAfter: after)
        case 413:
            return LLMError(
                .contextTooLong, "the request is too large for the model: \(snippet)",
                hint: "split the document or use a model with a longer context", provider: name, status: 413)
        case 400..<500 where tooLong:
            return LLMError(
                .contextTooLong, "the prompt is longer than the model's context window: \(snippet)",
                hint: "split the document or use a model with a longer context", provider: name, status: response.status)
        case 500..<600:
            if tooLong {
                return LLMError(
                    .contextTooLong, "the prompt is longer than the model's context window: \(snippet)",
                    hint: "split the document or use a model with a longer context", provider: name,
                    status: response.status)
            }
            return LLMError(
                .serverError, "the provider failed: \(snippet)", hint: "retried with backoff; try later if it persists",
                provider: name, status: response.status)
        default:
            return LLMError(
                .badRequest, "the provider rejected the request: \(snippet)",
                hint: "check the model name (\(config.model)) and base_url", provider: name, status: response.status)
        }
    }

    /// The first 300 characters of a body on one line.
    static func snippet(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        return flat.count > 300 ? String(flat.prefix(300)) + "…" : (flat.isEmpty ? "(empty body)" : flat)
    }

    /// Parses `body` as a JSON object or throws ``LLMError/Code/malformedBody``.
    func parseObject(_ response: HTTPResponse) throws -> JSONValue {
        guard let value = try? JSONValue(parsing: response.body), value.objectValue != nil else {
            throw LLMError(
                .malformedBody, "the response body is not a JSON object: \(Self.snippet(response.text))",
                hint: "check that base_url points at the \(config.kind.rawValue) API", provider: config.name,
                status: response.status)
        }
        return value
    }

    func malformed(_ what: String, _ response: HTTPResponse) -> LLMError {
        LLMError(
            .malformedBody, "the response has no \(what): \(Self.snippet(response.text))", provider: config.name,
            status: response.status)
    }

    /// Joins a base URL and a path with exactly one slash.
    func endpoint(_ path: String) -> String {
        var base = config.baseURL
        while base.hasSuffix("/") { base.removeLast() }
        return base + "/" + path
    }
}

/// Makes the ``Provider`` for a configuration entry.
public func makeProvider(_ config: ProviderConfig) -> any Provider {
    switch config.kind {
    case .openAICompatible: OpenAICompatibleProvider(config: config)
    case .anthropic: AnthropicProvider(config: config)
    case .gemini: GeminiProvider(config: config)
    }
}
