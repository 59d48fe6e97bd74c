import Foundation
import LarderCore
import LarderJSON

/// One document to structure.
public struct StructuringRequest: Sendable {
    /// The document's id (used in errors and the cost report).
    public var documentID: String
    /// The prompt (and so the target schema) to use.
    public var prompt: Prompt
    /// The document's lines, keyed `L1`…`Ln`.
    public var lines: KeyedLines
    /// The deterministic parse in the target schema's shape, if any; merged field by field.
    public var deterministic: JSONValue?

    /// Makes a request.
    public init(documentID: String, prompt: Prompt, lines: KeyedLines, deterministic: JSONValue? = nil) {
        self.documentID = documentID
        self.prompt = prompt
        self.lines = lines
        self.deterministic = deterministic
    }
}

/// A structured document.
public struct StructuringResult: Sendable {
    /// The document's id.
    public var documentID: String
    /// The merged output: the grounded LLM answer merged with the deterministic parse. Valid against the
    /// target schema when the deterministic parse is.
    public var output: JSONValue
    /// The LLM's answer, schema-valid, with ungrounded items removed.
    public var llmOutput: JSONValue
    /// Items the model returned that did not map back to an input line (left out of the output).
    public var rejected: [RejectedItem]
    /// Each top-level field's source.
    public var provenance: [String: FieldSource]
    /// The chain entry that answered.
    public var provider: String
    /// The model that answered.
    public var model: String
    /// The answer's finish reason (always ``FinishReason/stop``: truncated answers are errors).
    public var finishReason: FinishReason
    /// Re-asks made (after invalid answers, or valid ones with ungrounded items).
    public var reasks: Int
    /// HTTP requests made (0 for a cache hit).
    public var requests: Int
    /// Tokens spent in this run (zero for a cache hit).
    public var usage: TokenUsage
    /// Cost of ``usage``.
    public var cost: Double
    /// Whether the answer came from the cache.
    public var cached: Bool
    /// The stage version: prompt version + schema hash prefix.
    public var stageVersion: String
}

/// The LLM structuring stage for one batch: provider chain, cache, budget and cost ledger.
///
/// Per document: look in the cache (for each provider in chain order); otherwise ask the chain, strip code
/// fences, parse, validate against the prompt's schema, and re-ask with the errors (at most
/// ``LLMConfig/maxReasks`` times); then drop ungrounded items, merge with the deterministic parse, store the
/// validated answer in the cache, and record tokens and cost.
///
/// Sendable: its parts are Sendable; ``structure(_:)`` blocks its thread and may run on many threads at
/// once (each provider's concurrency limit applies). ``structureAsync(_:)`` runs it on a Dispatch queue.
public final class LLMStructurer: Sendable {
    /// The configuration.
    public let config: LLMConfig
    /// The provider chain.
    public let chain: ProviderChain
    /// The cache, if any.
    public let cache: (any LLMCache)?
    /// The batch's token budget.
    public let budget: Budget
    /// The batch's cost records.
    public let ledger = CostLedger()
    private let log: LLMLogHandler?

    /// Makes the stage for a batch.
    /// - Parameters: see ``ProviderChain/init(providers:retry:transport:sleeper:jitter:environment:log:)``.
    public init(
        config: LLMConfig, cache: (any LLMCache)? = nil, transport: any HTTPTransport = CurlTransport(),
        sleeper: any RetrySleeper = ThreadSleeper(), jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        environment: @escaping @Sendable (String) -> String? = { ProcessInfo.processInfo.environment[$0] },
        log: LLMLogHandler? = nil
    ) {
        self.config = config
        self.cache = cache
        self.budget = Budget(limit: config.batchTokenBudget)
        self.log = log
        self.chain = ProviderChain(
            providers: config.providers.map(makeProvider), retry: config.retry, transport: transport, sleeper: sleeper,
            jitter: jitter, environment: environment, log: log)
    }

    /// The batch's tokens and cost so far.
    public var costReport: CostReport { ledger.report }

    /// Whether a document with this deterministic confidence goes to the LLM (see ``LLMConfig/mode``).
    public func shouldStructure(confidence: Double) -> Bool { config.shouldStructure(confidence: confidence) }

    private func note(_ line: String) { log?(Redactor.redact(line)) }

    /// Structures one document, blocking the calling thread.
    /// - Throws: ``LLMError`` with ``LLMError/document`` set: ``LLMError/Code/budgetExhausted``,
    ///   ``LLMError/Code/allProvidersFailed`` (with causes), ``LLMError/Code/schemaInvalid`` after every
    ///   re-ask, or ``LLMError/Code/cache``.
    public func structure(_ request: StructuringRequest) throws -> StructuringResult {
        do {
            return try run(request)
        } catch let recorded as RecordedLLMError {
            note("\(recorded.error)")
            throw recorded.error
        } catch var error as LLMError {
            error.document = request.documentID
            ledger.record(DocumentCost(documentID: request.documentID, outcome: error.code.name))
            note("\(error)")
            throw error
        }
    }

    /// ``structure(_:)`` on a Dispatch queue, so blocking I/O stays off the Swift concurrency pool.
    public func structureAsync(_ request: StructuringRequest) async throws -> StructuringResult {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try self.structure(request) })
            }
        }
    }

    private func run(_ request: StructuringRequest) throws -> StructuringResult {
        let prompt = request.prompt
        let rules = GroundingRule.rules(for: prompt.id)
        let preferLLM = config.mode == .always

        func finish(_ answer: JSONValue, provider: String, model: String, reasks: Int, requests: Int, usage: TokenUsage,
                    cost: Double, cached: Bool) -> StructuringResult {
            let (grounded, rejected) = Grounding.check(answer, lines: request.lines, rules: rules)
            let (merged, provenance) = FieldMerger.merge(
                deterministic: request.deterministic, llm: grounded, source: .llm(provider: provider, model: model),
                preferLLM: preferLLM)
            ledger.record(
                DocumentCost(
                    documentID: request.documentID, provider: provider, model: model, usage: usage, cost: cost,
                    requests: requests, cached: cached, outcome: cached ? "cached" : "structured"))
            if !rejected.isEmpty { note("\(request.documentID): rejected \(rejected.count) ungrounded item(s)") }
            return StructuringResult(
                documentID: request.documentID, output: merged, llmOutput: grounded, rejected: rejected,
                provenance: provenance, provider: provider, model: model, finishReason: .stop, reasks: reasks,
                requests: requests, usage: usage, cost: cost, cached: cached, stageVersion: prompt.stageVersion)
        }

        // 1. Cache, for each provider in chain order.
        if let cache {
            for provider in config.providers {
                let key = CachedAnswer.key(
                    input: request.lines.cacheText, provider: provider.name, model: provider.model,
                    promptVersion: prompt.version, schemaHash: prompt.schemaHash)
                if let hit = try cache.lookup(key: key), case .success(let value) = OutputParser.parse(hit.output),
                    prompt.validator.isValid(value)
                {
                    note("\(request.documentID): cache hit (\(provider.name))")
                    return finish(value, provider: hit.provider, model: hit.model, reasks: 0, requests: 0, usage: TokenUsage(),
                                  cost: 0, cached: true)
                }
            }
        }

        // 2. Ask, validate, re-ask with the errors.
        var messages = [ChatMessage(.user, prompt.userMessage(request.lines))]
        var start = 0
        var usage = TokenUsage()
        var cost = 0.0
        var requests = 0
        var lastErrors: [String] = []
        var lastProvider: String? = nil
        var reasksMade = 0
        var best: (value: JSONValue, reply: ChainReply, round: Int, rejected: Int)? = nil

        func accept(_ chosen: (value: JSONValue, reply: ChainReply, round: Int, rejected: Int)) throws -> StructuringResult {
            let reply = chosen.reply
            if let cache {
                let key = CachedAnswer.key(
                    input: request.lines.cacheText, provider: reply.provider.name, model: reply.provider.model,
                    promptVersion: prompt.version, schemaHash: prompt.schemaHash)
                try cache.store(
                    key: key,
                    answer: CachedAnswer(
                        provider: reply.provider.name, model: reply.reply.model, promptVersion: prompt.version,
                        schemaHash: prompt.schemaHash, output: chosen.value.serialized(), usage: reply.usage))
            }
            return finish(chosen.value, provider: reply.provider.name, model: reply.reply.model, reasks: reasksMade,
                          requests: requests, usage: usage, cost: cost, cached: false)
        }

        for round in 0...max(0, config.maxReasks) {
            let call = ModelCall(system: prompt.system, messages: messages, schema: prompt.wireSchema(for: request.lines), schemaName: prompt.wireSchemaName)
            let reply: ChainReply
            do {
                reply = try chain.complete(call, from: start, budget: budget) { spentUsage, spentCost in
                    usage = usage + spentUsage
                    cost += spentCost
                }
            } catch let error as LLMError {
                ledger.record(
                    DocumentCost(
                        documentID: request.documentID, provider: lastProvider, usage: usage, cost: cost, requests: requests,
                        outcome: error.code.name))
                throw error.withDocument(request.documentID, recorded: true)
            }
            requests += reply.requests
            start = reply.providerIndex
            lastProvider = reply.provider.name
            switch OutputParser.parse(reply.reply.text) {
            case .failure(let parseError):
                lastErrors = ["the answer is not valid JSON: \(parseError)"]
            case .success(let value):
                let errors = prompt.validator.validate(value)
                if errors.isEmpty {
                    // Valid. Ungrounded items are re-asked about too (while re-asks remain); the answer with the
                    // fewest ungrounded items is kept.
                    let rejected = Grounding.check(value, lines: request.lines, rules: rules).1
                    if best == nil || rejected.count < best!.rejected {
                        best = (value, reply, round, rejected.count)
                    }
                    if rejected.isEmpty || !config.reaskUngrounded || round == config.maxReasks {
                        return try accept(best!)
                    }
                    lastErrors = rejected.prefix(20).map { item in
                        let cited = item.cited.map { "\($0) is \"\(request.lines[$0] ?? "(no such line)")\"" }
                        return "\(item.path): \(item.reason) (\(cited.joined(separator: "; "))); cite the line(s) it is on"
                    }
                    note("\(request.documentID): answer \(round + 1) from \(reply.provider.name) has \(rejected.count) ungrounded item(s); re-asking")
                    messages.append(ChatMessage(.assistant, reply.reply.text))
                    messages.append(ChatMessage(.user, Self.reask(lastErrors)))
                    reasksMade += 1
                    continue
                }
                lastErrors = errors.prefix(20).map { "\($0)" }
            }
            note("\(request.documentID): answer \(round + 1) from \(reply.provider.name) is invalid: \(lastErrors.joined(separator: "; "))")
            if round < config.maxReasks {
                messages.append(ChatMessage(.assistant, reply.reply.text))
                messages.append(ChatMessage(.user, Self.reask(lastErrors)))
                reasksMade += 1
            }
        }
        if let best { return try accept(best) }
        let error = LLMError(
            .schemaInvalid,
            "the model's answer did not validate against \(prompt.schemaName) after \(config.maxReasks) re-ask(s): "
                + lastErrors.joined(separator: "; "),
            hint: "try a stronger model, or raise llm.max_reasks", provider: lastProvider)
        ledger.record(
            DocumentCost(
                documentID: request.documentID, provider: lastProvider, usage: usage, cost: cost, requests: requests,
                outcome: error.code.name))
        throw error.withDocument(request.documentID, recorded: true)
    }

    /// The re-ask message listing validation errors.
    static func reask(_ errors: [String]) -> String {
        "Your previous answer was not valid. Problems:\n" + errors.map { "- \($0)" }.joined(separator: "\n")
            + "\nAnswer again with one JSON object that follows the schema exactly, and nothing else."
    }
}

/// Marks an error as already recorded in the ledger, so ``LLMStructurer/structure(_:)`` does not record it twice.
struct RecordedLLMError: Error {
    let error: LLMError
}

extension LLMError {
    fileprivate func withDocument(_ id: String, recorded: Bool) -> Error {
        var copy = self
        copy.document = id
        return recorded ? RecordedLLMError(error: copy) : copy
    }
}
