import Foundation

/// When the LLM structuring stage runs for a batch.
public enum LLMMode: String, Sendable, Codable, CaseIterable {
    /// Never (the default): only the deterministic parsers run.
    case off
    /// Only for documents (or lines) whose deterministic confidence is below ``LLMConfig/confidenceThreshold``.
    case fallback
    /// For every document.
    case always
}

/// Which API a provider speaks.
public enum ProviderKind: String, Sendable, Codable, CaseIterable {
    /// `POST {baseURL}/chat/completions` with `response_format: {type: json_schema}`: OpenAI, Ollama,
    /// llama.cpp's server, vLLM, LM Studio, OpenRouter. `baseURL` includes `/v1`.
    case openAICompatible = "openai-compatible"
    /// `POST {baseURL}/v1/messages` with one tool whose `input_schema` is the target schema.
    case anthropic
    /// `POST {baseURL}/v1beta/models/{model}:generateContent` with `responseJsonSchema`.
    case gemini
}

/// One entry of the provider chain.
public struct ProviderConfig: Sendable, Codable, Hashable {
    /// A unique name for this entry (used in provenance, cache keys, cost reports and errors).
    public var name: String
    /// Which API it speaks.
    public var kind: ProviderKind
    /// The API's base URL, e.g. `https://api.openai.com/v1`, `http://127.0.0.1:8080/v1`,
    /// `https://api.anthropic.com`, `https://generativelanguage.googleapis.com`.
    public var baseURL: String
    /// The model name sent to the API.
    public var model: String
    /// The name of the environment variable holding the API key; nil for servers that need none.
    /// The key itself is read at request time and never stored.
    public var apiKeyEnv: String?
    /// Seconds one request may take before it is abandoned as a timeout. Default 120.
    public var timeoutSeconds: Double
    /// The most tokens the model may generate per request. Default 2048.
    public var maxTokens: Int
    /// Price of one input token in the batch's currency. Default 0.
    public var pricePerInputToken: Double
    /// Price of one output token. Default 0.
    public var pricePerOutputToken: Double
    /// How many requests may be in flight to this provider at once. Default 2.
    public var concurrency: Int

    /// Makes an entry with the documented defaults.
    public init(
        name: String, kind: ProviderKind, baseURL: String, model: String, apiKeyEnv: String? = nil,
        timeoutSeconds: Double = 120, maxTokens: Int = 2048, pricePerInputToken: Double = 0,
        pricePerOutputToken: Double = 0, concurrency: Int = 2
    ) {
        self.name = name
        self.kind = kind
        self.baseURL = baseURL
        self.model = model
        self.apiKeyEnv = apiKeyEnv
        self.timeoutSeconds = timeoutSeconds
        self.maxTokens = maxTokens
        self.pricePerInputToken = pricePerInputToken
        self.pricePerOutputToken = pricePerOutputToken
        self.concurrency = concurrency
    }

    /// The cost of `usage` at this provider's prices.
    public func cost(of usage: TokenUsage) -> Double {
        Double(usage.input) * pricePerInputToken + Double(usage.output) * pricePerOutputToken
    }
}

/// How often and how patiently to retry one provider before falling to the next.
public struct RetryPolicy: Sendable, Codable, Hashable {
    /// Attempts per provider for retryable errors (429, 5xx, timeouts, connection failures). Default 3.
    public var attemptsPerProvider: Int
    /// First backoff delay in seconds; doubles each attempt, with full jitter. Default 1.
    public var baseDelaySeconds: Double
    /// Longest backoff delay. Default 30.
    public var maxDelaySeconds: Double
    /// The longest `Retry-After` honoured; a longer one moves on to the next provider. Default 60.
    public var maxRetryAfterSeconds: Double

    /// Makes a policy with the documented defaults.
    public init(
        attemptsPerProvider: Int = 3, baseDelaySeconds: Double = 1, maxDelaySeconds: Double = 30,
        maxRetryAfterSeconds: Double = 60
    ) {
        self.attemptsPerProvider = attemptsPerProvider
        self.baseDelaySeconds = baseDelaySeconds
        self.maxDelaySeconds = maxDelaySeconds
        self.maxRetryAfterSeconds = maxRetryAfterSeconds
    }
}

/// The LLM stage's configuration for a batch. A plain value with documented defaults.
public struct LLMConfig: Sendable, Codable, Hashable {
    /// When the stage runs. Default ``LLMMode/off``.
    public var mode: LLMMode
    /// In ``LLMMode/fallback``, documents or lines with confidence below this go to the LLM. Default 0.6.
    public var confidenceThreshold: Double
    /// The ordered provider chain; on errors the stage falls down it. Default empty.
    public var providers: [ProviderConfig]
    /// How many times the model is asked again, with the validation errors, after an invalid answer.
    /// Default 2 (so at most 3 answers per document).
    public var maxReasks: Int
    /// Whether a valid answer with ungrounded items (citing lines that do not hold them) is re-asked about,
    /// within ``maxReasks``; the answer with the fewest ungrounded items is kept, and those are still dropped.
    /// Default true.
    public var reaskUngrounded: Bool
    /// Tokens (input + output) the whole batch may spend; nil for no limit. Default nil.
    public var batchTokenBudget: Int?
    /// Retries per provider. Default ``RetryPolicy/init(attemptsPerProvider:baseDelaySeconds:maxDelaySeconds:maxRetryAfterSeconds:)``.
    public var retry: RetryPolicy
    /// The answer cache (SQLite). nil (the default) puts `llm-cache.sqlite` beside the checkpoint database;
    /// `pipeline.yml` resolves a relative path against its own folder.
    public var cachePath: String?

    /// Makes a configuration with the documented defaults.
    public init(
        mode: LLMMode = .off, confidenceThreshold: Double = 0.6, providers: [ProviderConfig] = [], maxReasks: Int = 2,
        batchTokenBudget: Int? = nil, retry: RetryPolicy = RetryPolicy(), reaskUngrounded: Bool = true
    ) {
        self.reaskUngrounded = reaskUngrounded
        self.mode = mode
        self.confidenceThreshold = confidenceThreshold
        self.providers = providers
        self.maxReasks = maxReasks
        self.batchTokenBudget = batchTokenBudget
        self.retry = retry
    }

    /// What decides which documents the stage structures and who answers: mode, threshold (in fallback), the
    /// token budget, and each provider's name, kind, URL and model. Part of the `llm` stage's version, so changing
    /// any of them re-examines every document (answers already made come from the cache).
    public var fingerprint: String {
        switch mode {
        case .off: return "off"
        case .always, .fallback:
            var parts = [mode.rawValue]
            if mode == .fallback { parts.append("below \(confidenceThreshold)") }
            // Raising the budget re-examines documents the old one left unstructured (the rest hit the cache).
            parts.append("budget \(batchTokenBudget.map(String.init) ?? "none")")
            parts += providers.map { "\($0.name)=\($0.kind.rawValue):\($0.baseURL):\($0.model)" }
            return parts.joined(separator: ";")
        }
    }

    /// Whether a document (or line) with this deterministic confidence goes to the LLM.
    public func shouldStructure(confidence: Double) -> Bool {
        switch mode {
        case .off: false
        case .always: true
        case .fallback: confidence < confidenceThreshold
        }
    }

    /// The indices of `confidences` that go to the LLM in this mode (all, none, or those under the threshold).
    public func linesToStructure(confidences: [Double]) -> [Int] {
        confidences.indices.filter { shouldStructure(confidence: confidences[$0]) }
    }
}

/// Tokens a call consumed.
public struct TokenUsage: Sendable, Hashable, Codable {
    /// Prompt tokens.
    public var input: Int
    /// Generated tokens.
    public var output: Int
    /// Makes a usage record.
    public init(input: Int = 0, output: Int = 0) {
        self.input = input
        self.output = output
    }
    /// `input + output`.
    public var total: Int { input + output }
    /// Adds two usages.
    public static func + (a: TokenUsage, b: TokenUsage) -> TokenUsage {
        TokenUsage(input: a.input + b.input, output: a.output + b.output)
    }
}
