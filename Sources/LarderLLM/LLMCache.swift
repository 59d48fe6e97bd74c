import Foundation
import LarderCore
import GRDB

/// A cached, schema-valid answer. It holds the model's output and usage, never a key or a request.
public struct CachedAnswer: Sendable, Hashable {
    /// The chain entry that answered.
    public var provider: String
    /// The model that answered.
    public var model: String
    /// The prompt version used.
    public var promptVersion: String
    /// The SHA-256 of the target schema.
    public var schemaHash: String
    /// The validated output, as JSON text.
    public var output: String
    /// Tokens the original answer cost.
    public var usage: TokenUsage

    /// Makes an entry.
    public init(provider: String, model: String, promptVersion: String, schemaHash: String, output: String, usage: TokenUsage) {
        self.provider = provider
        self.model = model
        self.promptVersion = promptVersion
        self.schemaHash = schemaHash
        self.output = output
        self.usage = usage
    }

    /// The cache key: SHA-256 over the length-prefixed input text, provider, model, prompt version and schema hash.
    public static func key(input: String, provider: String, model: String, promptVersion: String, schemaHash: String) -> String {
        var hasher = SHA256()
        for part in [input, provider, model, promptVersion, schemaHash] {
            let bytes = Data(part.utf8)
            hasher.update(Data("\(bytes.count):".utf8))
            hasher.update(bytes)
        }
        return hasher.finalizeHex()
    }
}

/// Stores schema-valid answers so that a re-run costs nothing.
public protocol LLMCache: Sendable {
    /// The answer stored under `key`, if any.
    func lookup(key: String) throws -> CachedAnswer?
    /// Stores `answer` under `key` (replacing any previous one).
    func store(key: String, answer: CachedAnswer) throws
}

/// An in-memory ``LLMCache`` (tests, single runs). Sendable: state behind a lock.
public final class MemoryLLMCache: LLMCache {
    private let entries = Locked<[String: CachedAnswer]>([:])
    /// Makes an empty cache.
    public init() {}
    public func lookup(key: String) throws -> CachedAnswer? { entries.withLock { $0[key] } }
    public func store(key: String, answer: CachedAnswer) throws { entries.withLock { $0[key] = answer } }
    /// How many answers are stored.
    public var count: Int { entries.withLock { $0.count } }
}

/// An ``LLMCache`` in an SQLite file (table `llm_cache`), through GRDB's `DatabasePool` (WAL).
///
/// Sendable: GRDB's pool serialises writes and allows concurrent reads.
public final class SQLiteLLMCache: LLMCache {
    private let pool: DatabasePool

    /// Opens (creating if needed) the cache at `path`.
    /// - Throws: ``LLMError/Code/cache`` naming the path.
    public init(path: String) throws {
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            pool = try DatabasePool(path: path, configuration: configuration)
            try pool.write { db in
                try db.execute(
                    sql: """
                        CREATE TABLE IF NOT EXISTS llm_cache (
                            key TEXT PRIMARY KEY NOT NULL,
                            provider TEXT NOT NULL,
                            model TEXT NOT NULL,
                            prompt_version TEXT NOT NULL,
                            schema_hash TEXT NOT NULL,
                            output TEXT NOT NULL,
                            input_tokens INTEGER NOT NULL,
                            output_tokens INTEGER NOT NULL,
                            created_at TEXT NOT NULL
                        )
                        """)
            }
        } catch {
            throw LLMError(.cache, "cannot open the LLM cache at \(path): \(error)", hint: "check the folder exists and is writable")
        }
    }

    public func lookup(key: String) throws -> CachedAnswer? {
        do {
            return try pool.read { db in
                try Row.fetchOne(db, sql: "SELECT * FROM llm_cache WHERE key = ?", arguments: [key]).map { row in
                    CachedAnswer(
                        provider: row["provider"], model: row["model"], promptVersion: row["prompt_version"],
                        schemaHash: row["schema_hash"], output: row["output"],
                        usage: TokenUsage(input: row["input_tokens"], output: row["output_tokens"]))
                }
            }
        } catch {
            throw LLMError(.cache, "cache lookup failed: \(error)")
        }
    }

    public func store(key: String, answer: CachedAnswer) throws {
        do {
            try pool.write { db in
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO llm_cache
                        (key, provider, model, prompt_version, schema_hash, output, input_tokens, output_tokens, created_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        key, answer.provider, answer.model, answer.promptVersion, answer.schemaHash, answer.output,
                        answer.usage.input, answer.usage.output, ISO8601DateFormatter().string(from: Date()),
                    ])
            }
        } catch {
            throw LLMError(.cache, "cache write failed: \(error)")
        }
    }

    /// How many answers are stored.
    public func count() throws -> Int { try pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM llm_cache") ?? 0 } }
}
