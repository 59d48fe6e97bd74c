import GRDB

/// The recipe index's tokenizer outside SQLite: the very FTS5 `porter unicode61` tokenizer of `recipe_search`
/// (``RecipeIndex``), run on an in-memory SQLite connection, so a store that keeps its index elsewhere (the
/// PostgreSQL store) splits, folds and stems text exactly as `larder search` on SQLite does: "Tomatoes" → `tomato`,
/// "Crème" → `creme`, "麻婆豆腐" → one token, and the same for a query's words.
package enum SearchTokenizer {
    /// One connection and its tokenizer; every call goes through the connection's queue (a tokenizer is not
    /// thread-safe).
    nonisolated(unsafe) private static let shared: Result<(DatabaseQueue, any FTS5Tokenizer), any Error> = Result {
        let queue = try DatabaseQueue()
        let tokenizer = try queue.inDatabase { try $0.makeTokenizer(.porter(wrapping: .unicode61())) }
        return (queue, tokenizer)
    }

    /// The tokens of a text as FTS5 indexes it, in order (repeats kept: they count for bm25).
    package static func tokens(_ text: String) throws -> [String] {
        guard !text.isEmpty else { return [] }
        let (queue, tokenizer) = try shared.get()
        return try queue.inDatabase { _ in try tokenizer.tokenize(document: text).map(\.token) }
    }

    /// The tokens of one query word as FTS5 reads the phrase `"word"`.
    package static func queryTokens(_ word: String) throws -> [String] {
        let (queue, tokenizer) = try shared.get()
        return try queue.inDatabase { _ in try tokenizer.tokenize(query: word).map(\.token) }
    }
}
