import Foundation
import LarderReceipts
import LarderRecipes

/// What the optional `llm` stage did for one document (the stage itself, `LLMStage`, lives in `LarderStages`
/// because it calls libcurl). `result` reads it: recipes or a receipt merged with the model's answer replace the
/// parsers' ones, and ``answers`` says which provider and model produced which field.
public struct LLMStageOutput: Codable, Sendable, Equatable {
    /// The batch's mode.
    public var mode: LLMMode
    /// Why the model was not asked (mode off, a confident parse, nothing to structure, the budget reached); nil
    /// when it was.
    public var skipped: String?
    /// True when the batch's token budget stopped this document from being structured.
    public var budgetReached: Bool
    /// One entry per model answer (one per recipe, or one for the receipt).
    public var answers: [Answer]
    /// Recipes after merging, replacing `recipe`'s; nil when no recipe was structured.
    public var recipes: [Recipe]?
    /// The receipt after merging, replacing `receipt`'s; nil when no receipt was structured.
    public var receipt: Receipt?
    /// The pantry rebuilt from the merged receipt's items; nil when the items are the parser's.
    public var pantry: [PantryItem]?

    public init(
        mode: LLMMode, skipped: String? = nil, budgetReached: Bool = false, answers: [Answer] = [], recipes: [Recipe]? = nil,
        receipt: Receipt? = nil, pantry: [PantryItem]? = nil
    ) {
        self.mode = mode
        self.skipped = skipped
        self.budgetReached = budgetReached
        self.answers = answers
        self.recipes = recipes
        self.receipt = receipt
        self.pantry = pantry
    }

    /// Tokens this document spent (cache hits spend none).
    public var usage: TokenUsage { answers.reduce(TokenUsage()) { $0 + $1.usage } }
    /// What this document cost, at the providers' prices.
    public var cost: Double { answers.reduce(0) { $0 + $1.cost } }

    /// One model answer and where its fields went.
    public struct Answer: Codable, Sendable, Equatable {
        /// What was structured: `recipes/0`, `receipt`.
        public var target: String
        /// The prompt version, e.g. `recipe-v1`.
        public var prompt: String
        /// The chain entry and model that answered.
        public var provider: String
        public var model: String
        /// The answer came from the cache (no request, no cost).
        public var cached: Bool
        public var requests: Int
        public var reasks: Int
        public var usage: TokenUsage
        public var cost: Double
        /// Each merged field (`title`, `ingredients`, `steps`; `store`, `date`, `total`, `items`) and its source:
        /// `llm` or `parser`.
        public var fields: [String: String]
        /// Items the model returned that no input line holds, left out (path, cited lines, reason).
        public var rejected: [String]

        public init(
            target: String, prompt: String, provider: String, model: String, cached: Bool, requests: Int, reasks: Int,
            usage: TokenUsage, cost: Double, fields: [String: String], rejected: [String]
        ) {
            self.target = target
            self.prompt = prompt
            self.provider = provider
            self.model = model
            self.cached = cached
            self.requests = requests
            self.reasks = reasks
            self.usage = usage
            self.cost = cost
            self.fields = fields
            self.rejected = rejected
        }
    }
}

/// The LLM stage's tokens and cost over a batch: printed with the batch summary (`--json`: key `llm`).
public struct LLMBatchReport: Codable, Sendable, Equatable {
    /// Documents the model was asked about (answers from the cache included).
    public var structured: Int
    /// Of those, documents answered entirely from the cache.
    public var cached: Int
    /// Documents not sent (confident parse, nothing to structure, mode off).
    public var skipped: Int
    /// Documents not sent because the batch's token budget was spent.
    public var skippedForBudget: Int
    /// Documents whose `llm` stage failed (every provider failed, or answers never validated).
    public var failed: Int
    public var requests: Int
    public var inputTokens: Int
    public var outputTokens: Int
    public var cost: Double
    /// Per provider/model: answers, tokens and cost.
    public var byProvider: [ProviderLine]

    public struct ProviderLine: Codable, Sendable, Equatable {
        public var provider: String
        public var model: String
        public var answers: Int
        public var cached: Int
        public var inputTokens: Int
        public var outputTokens: Int
        public var cost: Double
    }

    public init() {
        structured = 0
        cached = 0
        skipped = 0
        skippedForBudget = 0
        failed = 0
        requests = 0
        inputTokens = 0
        outputTokens = 0
        cost = 0
        byProvider = []
    }

    /// The `llm` outputs made since the batch started, and its `llm` failures; nil if the stage never ran
    /// with a mode other than off.
    public static func collect(store: any CheckpointStore, batchID: Int64) throws -> LLMBatchReport? {
        var report = LLMBatchReport()
        var ran = false
        let decoder = JSONDecoder()
        for json in try store.stageOutputs(stage: "llm", finishedSinceBatch: batchID) {
            guard let output = try? decoder.decode(LLMStageOutput.self, from: Data(json.utf8)), output.mode != .off
            else { continue }
            ran = true
            report.add(output)
        }
        let failed = try store.problems(batchID: batchID, limit: 100_000).filter { $0.stage == "llm" }.count
        report.failed = failed
        return ran || failed > 0 ? report : nil
    }

    /// Tokens spent since the batch started (a restarted worker counts them against the budget).
    public static func tokensSpent(store: any CheckpointStore, batchID: Int64) throws -> Int {
        try store.stageOutputs(stage: "llm", finishedSinceBatch: batchID).reduce(0) { sum, json in
            sum + ((try? JSONDecoder().decode(LLMStageOutput.self, from: Data(json.utf8)))?.usage.total ?? 0)
        }
    }

    /// Adds one document's `llm` output.
    public mutating func add(_ output: LLMStageOutput) {
        if output.budgetReached { skippedForBudget += 1 }
        if output.answers.isEmpty {
            if !output.budgetReached { skipped += 1 }
            return
        }
        structured += 1
        if output.answers.allSatisfy(\.cached) { cached += 1 }
        for answer in output.answers {
            requests += answer.requests
            inputTokens += answer.usage.input
            outputTokens += answer.usage.output
            cost += answer.cost
            if let index = byProvider.firstIndex(where: { $0.provider == answer.provider && $0.model == answer.model }) {
                byProvider[index].answers += 1
                byProvider[index].cached += answer.cached ? 1 : 0
                byProvider[index].inputTokens += answer.usage.input
                byProvider[index].outputTokens += answer.usage.output
                byProvider[index].cost += answer.cost
            } else {
                byProvider.append(
                    ProviderLine(
                        provider: answer.provider, model: answer.model, answers: 1, cached: answer.cached ? 1 : 0,
                        inputTokens: answer.usage.input, outputTokens: answer.usage.output, cost: answer.cost))
            }
        }
    }

    /// The report as a person reads it (a few lines under the batch summary).
    public var text: String {
        var lines = [
            String(
                format: "llm: %d document(s) structured (%d from the cache), %d skipped, %d failed; %d request(s), %d input + %d output tokens, cost %.4f",
                structured, cached, skipped, failed, requests, inputTokens, outputTokens, cost)
        ]
        if skippedForBudget > 0 {
            lines.append(
                "  token budget reached: \(skippedForBudget) document(s) kept their parser result (raise llm.batch_token_budget and run `larder resume` to structure them)")
        }
        for line in byProvider {
            lines.append(
                String(
                    format: "  %@ (%@): %d answer(s), %d cached, %d + %d tokens, cost %.4f", line.provider as NSString,
                    line.model as NSString, line.answers, line.cached, line.inputTokens, line.outputTokens, line.cost))
        }
        return lines.joined(separator: "\n")
    }
}
