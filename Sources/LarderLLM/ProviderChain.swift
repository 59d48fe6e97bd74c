import Foundation
import LarderCore

/// Waits between retries. Injectable so tests need not sleep for real.
public protocol RetrySleeper: Sendable {
    /// Blocks the calling thread for `seconds`.
    func sleep(seconds: Double)
}

/// Sleeps for real with `Thread.sleep`.
public struct ThreadSleeper: RetrySleeper {
    /// Makes the sleeper.
    public init() {}
    public func sleep(seconds: Double) { if seconds > 0 { Thread.sleep(forTimeInterval: seconds) } }
}

/// Receives the stage's log lines. Every line passes through ``Redactor`` before it is handed over.
public typealias LLMLogHandler = @Sendable (String) -> Void

/// A successful answer from the chain, with the provider that gave it.
public struct ChainReply: Sendable {
    /// The reply (finish reason `stop`).
    public var reply: ModelReply
    /// The chain entry that answered.
    public var provider: ProviderConfig
    /// Its index in the chain.
    public var providerIndex: Int
    /// HTTP requests made for this answer, including failed ones.
    public var requests: Int
    /// Tokens used by every request made for this answer (failed truncated answers cost tokens too).
    public var usage: TokenUsage
    /// Cost of ``usage`` at the prices of the providers that spent it.
    public var cost: Double
}

/// An ordered chain of providers: tries each in turn, retries retryable errors with backoff, and falls to
/// the next entry on errors.
///
/// - Retryable errors (429, 5xx, timeouts, connection failures) are retried on the same provider up to
///   ``RetryPolicy/attemptsPerProvider`` times. A 429 waits for `Retry-After` (if not longer than
///   ``RetryPolicy/maxRetryAfterSeconds``, else moves on); other errors wait
///   `min(maxDelay, base·2^(n-1))·(0.5 + 0.5·jitter)`.
/// - Missing keys, 401/403, other 4xx, context too long, malformed bodies, truncated or refused answers move
///   on to the next provider at once.
/// - Each provider's concurrency limit is a counting semaphore held for the duration of a request.
/// - The budget is checked before each request; once it is reached no request is sent.
///
/// Sendable: its state is immutable apart from the semaphores, which are thread-safe. ``complete(_:from:budget:)``
/// blocks the calling thread and may be called from many threads at once.
public final class ProviderChain: Sendable {
    /// The providers, in order.
    public let providers: [any Provider]
    /// The retry policy.
    public let retry: RetryPolicy
    private let transport: any HTTPTransport
    private let sleeper: any RetrySleeper
    private let jitter: @Sendable () -> Double
    private let environment: @Sendable (String) -> String?
    private let log: LLMLogHandler?
    private let limits: [DispatchSemaphore]

    /// Makes a chain.
    /// - Parameters:
    ///   - providers: the providers in order (see ``makeProvider(_:)``).
    ///   - retry: retry policy.
    ///   - transport: sends HTTP; ``CurlTransport`` by default.
    ///   - sleeper: waits between retries; ``ThreadSleeper`` by default.
    ///   - jitter: returns a number in [0, 1); random by default.
    ///   - environment: reads an environment variable at request time; the process environment by default.
    ///   - log: receives redacted log lines.
    public init(
        providers: [any Provider], retry: RetryPolicy = RetryPolicy(), transport: any HTTPTransport = CurlTransport(),
        sleeper: any RetrySleeper = ThreadSleeper(), jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        environment: @escaping @Sendable (String) -> String? = { ProcessInfo.processInfo.environment[$0] },
        log: LLMLogHandler? = nil
    ) {
        self.providers = providers
        self.retry = retry
        self.transport = transport
        self.sleeper = sleeper
        self.jitter = jitter
        self.environment = environment
        self.log = log
        self.limits = providers.map { DispatchSemaphore(value: max(1, $0.config.concurrency)) }
    }

    private func note(_ line: @autoclosure () -> String) {
        guard let log else { return }
        log(Redactor.redact(line()))
    }

    /// The backoff before retry number `attempt` (1-based) when the server gave no Retry-After.
    public func backoff(attempt: Int) -> Double {
        let ceiling = min(retry.maxDelaySeconds, retry.baseDelaySeconds * pow(2, Double(max(0, attempt - 1))))
        return ceiling * (0.5 + 0.5 * jitter())
    }

    /// Sends `call` down the chain, starting at entry `from`, until one provider gives a complete answer.
    ///
    /// - Throws: ``LLMError`` — ``LLMError/Code/budgetExhausted`` when the budget is reached (no request is
    ///   sent), or ``LLMError/Code/allProvidersFailed`` with each provider's last error as a cause.
    ///   `spent` receives the tokens and cost of requests that were made before the failure.
    public func complete(
        _ call: ModelCall, from start: Int = 0, budget: Budget? = nil, spent: ((TokenUsage, Double) -> Void)? = nil
    ) throws -> ChainReply {
        var failures: [LLMError] = []
        var requests = 0
        var usage = TokenUsage()
        var cost = 0.0
        let order = Array(providers.indices.dropFirst(min(start, providers.count)))
        guard !order.isEmpty else { throw LLMError(.configuration, "the provider chain is empty", hint: "add providers under llm.providers in pipeline.yml") }
        for index in order {
            let provider = providers[index]
            let config = provider.config
            var apiKey: String? = nil
            if let variable = config.apiKeyEnv {
                guard let key = environment(variable), !key.isEmpty else {
                    let error = LLMError(
                        .missingAPIKey, "no API key: the environment variable \(variable) is not set",
                        hint: "export \(variable)=… before running, or remove this provider from the chain",
                        provider: config.name)
                    note("\(error)")
                    failures.append(error)
                    continue
                }
                Redactor.register(secret: key)
                apiKey = key
            }
            var attempt = 0
            providerLoop: while true {
                attempt += 1
                if let budget, let reason = budget.refusal() {
                    spent?(usage, cost)
                    throw LLMError(.budgetExhausted, reason, hint: "raise llm.batch_token_budget to process the rest")
                }
                let request: HTTPRequest
                do { request = try provider.makeRequest(call, apiKey: apiKey) } catch {
                    failures.append(error as? LLMError ?? LLMError(.configuration, "\(error)", provider: config.name))
                    break providerLoop
                }
                limits[index].wait()
                let result = transport.send(request)
                limits[index].signal()
                requests += 1
                let failure: LLMError
                switch result {
                case .failure(let error):
                    failure = LLMError(
                        error.code, error.message, hint: error.hint, provider: config.name, status: error.status,
                        retryAfter: error.retryAfter)
                case .success(let response) where (200..<300).contains(response.status):
                    do {
                        let reply = try provider.parseResponse(response)
                        usage = usage + reply.usage
                        cost += config.cost(of: reply.usage)
                        budget?.spend(reply.usage)
                        switch reply.finishReason {
                        case .stop:
                            note("\(config.name): answered in \(String(format: "%.2f", response.seconds)) s, \(reply.usage.input)+\(reply.usage.output) tokens")
                            spent?(usage, cost)
                            return ChainReply(
                                reply: reply, provider: config, providerIndex: index, requests: requests, usage: usage,
                                cost: cost)
                        case .length:
                            failure = LLMError(
                                .truncated,
                                "the answer was cut off after \(reply.usage.output) tokens (finish reason \(reply.rawFinishReason)); a truncated answer is not used",
                                hint: "raise max_tokens for \(config.name) in llm.providers (now \(config.maxTokens)) or split the document",
                                provider: config.name, status: response.status)
                        case .refused:
                            failure = LLMError(
                                .refused, "the provider refused or filtered the answer (\(reply.rawFinishReason))",
                                provider: config.name, status: response.status)
                        case .other(let raw):
                            failure = LLMError(
                                .malformedBody, "unexpected finish reason '\(raw)'; the answer is not used",
                                provider: config.name, status: response.status)
                        }
                    } catch let error as LLMError {
                        failure = error
                    } catch {
                        failure = LLMError(.malformedBody, "\(error)", provider: config.name, status: response.status)
                    }
                case .success(let response):
                    failure = provider.classifyFailure(response)
                }
                note("\(config.name): attempt \(attempt) failed: \(failure)")
                guard failure.isRetryable, attempt < retry.attemptsPerProvider else {
                    failures.append(failure)
                    break providerLoop
                }
                let delay: Double
                if failure.code == .rateLimited, let after = failure.retryAfter {
                    guard after <= retry.maxRetryAfterSeconds else {
                        failures.append(
                            LLMError(
                                failure.code,
                                failure.message + "; Retry-After \(after) s exceeds the \(retry.maxRetryAfterSeconds) s limit",
                                hint: failure.hint, provider: config.name, status: failure.status, retryAfter: after))
                        break providerLoop
                    }
                    delay = after
                } else {
                    delay = backoff(attempt: attempt)
                }
                note("\(config.name): retrying in \(String(format: "%.2f", delay)) s")
                sleeper.sleep(seconds: delay)
            }
        }
        spent?(usage, cost)
        throw LLMError(
            .allProvidersFailed, "every provider failed (\(requests) request\(requests == 1 ? "" : "s"))",
            hint: failures.last?.hint, causes: failures)
    }
}
