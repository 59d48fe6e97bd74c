import Foundation
import LarderReceipts

/// Everything `pipeline.yml` can set, with the defaults used when a key is absent.
///
/// Reading the file lives in `PipelineConfig+YAML.swift`, which documents every key; the README lists them too.
public struct PipelineConfig: Sendable, Equatable {
    /// The checkpoint database. Relative paths are resolved against the config file's folder.
    public var database: String = "larder.sqlite"
    /// Documents processed at once. `0` means one per core.
    public var workers: Int = 0
    /// Attempts at one stage of one document (failures that may pass on retry, or process crashes)
    /// before the document is quarantined.
    public var maxAttempts: Int = 3
    /// Seconds between progress lines when the output is not a terminal.
    public var progressIntervalSeconds: Double = 10
    public var limits = Limits()
    /// What keeps non-food receipt lines out of the pantry (`receipts.blocklist`): the defaults (tax, bag fees,
    /// deposits, coupons, totals, payments, household goods; generic terms) with the file's changes applied.
    public var blocklist = IngredientBlocklist.default
    /// What `larder cook` assumes (`pantry:`): staples on hand and how long food keeps.
    public var pantry = PantryConfig()
    /// The optional LLM structuring stage (`llm:`): off by default, so the pipeline works offline.
    public var llm = LLMConfig()

    /// Limits that keep one bad file from taking the batch down.
    public struct Limits: Sendable, Equatable {
        /// Files larger than this are not registered.
        public var maxFileBytes: Int64 = 100 * 1024 * 1024
        /// PDFs with more pages than this fail at `extract`.
        public var maxPDFPages: Int = 500
        /// Images with more pixels (width × height) than this fail at `detect`.
        public var maxImagePixels: Int64 = 40_000_000

        public init() {}
    }

    public init() {}

    /// Where the LLM stage caches answers: `llm.cache`, or `llm-cache.sqlite` beside the database.
    public var llmCachePath: String {
        llm.cachePath ?? URL(fileURLWithPath: database).deletingLastPathComponent().appendingPathComponent("llm-cache.sqlite").path
    }

    /// `workers`, with `0` resolved to the number of cores.
    public var effectiveWorkers: Int {
        workers > 0 ? workers : max(1, ProcessInfo.processInfo.activeProcessorCount)
    }
}
