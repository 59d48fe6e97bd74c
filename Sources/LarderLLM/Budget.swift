import Foundation
import LarderCore

/// A per-batch token budget (input + output tokens), shared by every document of the batch.
///
/// Checked before each request: once ``used`` reaches ``limit`` no further request is sent and callers get
/// ``LLMError/Code/budgetExhausted``. Requests already in flight when the limit is reached still complete and
/// are counted, so a batch may end slightly over its limit (by at most the in-flight requests' tokens).
///
/// Sendable: all state is behind a lock.
public final class Budget: Sendable {
    /// The most tokens the batch may spend; nil means unlimited.
    public let limit: Int?
    private let state = Locked<(used: Int, refused: Int)>((0, 0))

    /// Makes a budget; nil for no limit.
    public init(limit: Int?) { self.limit = limit }

    /// Tokens spent so far.
    public var used: Int { state.withLock { $0.used } }
    /// How many requests were refused because the budget was reached.
    public var refusedRequests: Int { state.withLock { $0.refused } }
    /// Whether the budget is reached.
    public var isExhausted: Bool { limit.map { used >= $0 } ?? false }

    /// Records tokens spent.
    public func spend(_ usage: TokenUsage) { state.withLock { $0.used += usage.total } }

    /// Nil if a request may be sent; otherwise the reason it may not (and the refusal is counted).
    public func refusal() -> String? {
        guard let limit else { return nil }
        return state.withLock { state in
            guard state.used >= limit else { return nil }
            state.refused += 1
            return "token budget reached: \(state.used) of \(limit) tokens spent in this batch; no further LLM requests are sent"
        }
    }
}

/// Tokens and cost for one document.
public struct DocumentCost: Sendable, Hashable, Codable {
    /// The document's id.
    public var documentID: String
    /// The chain entry that answered (nil if none did).
    public var provider: String?
    /// The model that answered.
    public var model: String?
    /// Tokens spent for this document in this run (zero for cache hits).
    public var usage: TokenUsage
    /// Cost of ``usage``.
    public var cost: Double
    /// HTTP requests made.
    public var requests: Int
    /// Whether the answer came from the cache.
    public var cached: Bool
    /// `structured`, `cached`, or the failure's code (`budget-exhausted`, `all-providers-failed`…).
    public var outcome: String

    /// Makes a record.
    public init(
        documentID: String, provider: String? = nil, model: String? = nil, usage: TokenUsage = TokenUsage(), cost: Double = 0,
        requests: Int = 0, cached: Bool = false, outcome: String
    ) {
        self.documentID = documentID
        self.provider = provider
        self.model = model
        self.usage = usage
        self.cost = cost
        self.requests = requests
        self.cached = cached
        self.outcome = outcome
    }
}

/// Tokens and cost per document, summed for the batch.
public struct CostReport: Sendable, Hashable, Codable {
    /// One record per document, in the order they finished.
    public var documents: [DocumentCost]
    /// Tokens spent by the batch.
    public var usage: TokenUsage { documents.reduce(TokenUsage()) { $0 + $1.usage } }
    /// Cost of the batch.
    public var cost: Double { documents.reduce(0) { $0 + $1.cost } }
    /// Whether the token budget stopped the batch.
    public var budgetReached: Bool

    /// Makes a report.
    public init(documents: [DocumentCost] = [], budgetReached: Bool = false) {
        self.documents = documents
        self.budgetReached = budgetReached
    }

    /// One line for the batch summary, e.g. `3 documents, 1200 in + 400 out tokens, cost 0.0042 (budget reached)`.
    public var summary: String {
        let u = usage
        return "\(documents.count) documents, \(u.input) in + \(u.output) out tokens, cost \(String(format: "%.4f", cost))"
            + (budgetReached ? " (token budget reached: remaining documents were not sent)" : "")
    }
}

/// Collects ``DocumentCost`` records from many threads. Sendable: state behind a lock.
public final class CostLedger: Sendable {
    private let state = Locked(CostReport())
    /// Makes an empty ledger.
    public init() {}
    /// Adds a document's record.
    public func record(_ cost: DocumentCost) {
        state.withLock {
            $0.documents.append(cost)
            if cost.outcome == LLMError.Code.budgetExhausted.name { $0.budgetReached = true }
        }
    }
    /// The report so far.
    public var report: CostReport { state.withLock { $0 } }
}
