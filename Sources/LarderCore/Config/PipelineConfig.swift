import Foundation
import LarderReceipts

/// Everything `pipeline.yml` can set, with the defaults used when a key is absent.
///
/// Reading the file lives in `PipelineConfig+YAML.swift`, which documents every key; docs/reference/configuration.md lists them too.
public struct PipelineConfig: Sendable, Equatable {
    /// The checkpoint database. Relative paths are resolved against the config file's folder. A `postgres://` URL
    /// (`store.url` in pipeline.yml, `LARDER_DB`, `--db`) names a PostgreSQL store instead: print it only through
    /// ``storeLocation`` (its description hides the password).
    public var database: String = "larder.sqlite"
    /// Seconds a worker's claim on a stage lasts without a heartbeat (`queue.lease_ttl`; `LARDER_LEASE_TTL` wins).
    public var leaseTTL: Double = 60
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
    /// How receipts are read (`receipts.default_currency`, `receipts.date_order`): the currency of a receipt that
    /// shows none, and the day/month order of its numeric dates.
    public var receiptParser = ReceiptParserConfiguration.pipeline
    /// How photos and scans are read (`ocr:`): tesseract's models, the phone-photo pass, an OCR cache folder.
    public var ocr = OCRSettings()
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
        /// Seconds one stage may take on one document (every stage but `llm`, which has its own timeouts): past
        /// it the worker gives up on that document (it fails, over the limit) and restarts, because a native
        /// call cannot be stopped any other way. `0` switches the deadline off.
        public var stageSeconds: Double = 600
        /// Text files (plain text, Markdown, HTML, JSON) larger than this fail at `detect`.
        public var maxTextBytes: Int64 = 16 * 1024 * 1024
        /// Plain text and Markdown with a longer line (in characters) fail at `detect`: no recipe or receipt has
        /// one, and the parsers would work on it for nothing. (HTML and JSON are exempt: minified files are one
        /// line.)
        public var maxLineCharacters: Int = 20_000
        /// A stage output (JSON) larger than this fails the document instead of being stored.
        public var maxStageOutputBytes: Int = 64 * 1024 * 1024
        /// Saved web pages: elements nested deeper than this are read as text of their ancestor (libxml2 itself
        /// stops building the tree at depth 256).
        public var maxHTMLDepth: Int = 200
        /// Saved web pages: elements past this many are not read (their page is read up to there).
        public var maxHTMLElements: Int = 400_000
        /// Saved web pages: CPU seconds reading one page's tree may take; past it the page fails (over the limit).
        public var htmlSeconds: Double = 10
        /// Bytes each `larder-worker` may allocate (RLIMIT_DATA: its heap and private writable mappings): past it an
        /// allocation fails and the worker exits; its documents run again one at a time (not blamed), and one that
        /// passes the limit alone fails at once with a message naming this limit. 1 GiB; `0` switches it off.
        public var workerMemory: Int64 = 1 << 30

        public init() {}

        /// The ingredients, steps and notes the `recipe` stage may read from one document: one per
        /// ``recipePartBytes`` of `max_stage_output_bytes` (32,768 at the default 64 MiB). Each part is stored twice,
        /// in the recipe stage's output and in the result (about 0.9 KB each, measured on a 15 MB text recipe), and
        /// takes ~13 KB of memory while those are written: a document over it would make an output over the limit
        /// after gigabytes of work, so the parse stops at the limit instead (`overLimit`, at once).
        public var maxRecipeParts: Int { max(1, maxStageOutputBytes / Self.recipePartBytes) }
        /// The share of `max_stage_output_bytes` one recipe part is counted as (``maxRecipeParts``).
        public static let recipePartBytes = 2048
    }

    public init() {}

    /// `ocr:` in `pipeline.yml`.
    public struct OCRSettings: Sendable, Equatable {
        /// When a photo is read again as a phone photo (`ocr.photo_pass`).
        public enum PhotoPass: String, Sendable, Equatable, CaseIterable {
            case never, whenUnsure, always
            /// The spelling in `pipeline.yml`.
            public var key: String { self == .whenUnsure ? "when_unsure" : rawValue }
        }
        /// Tesseract models, `+`-joined (`ocr.languages`): `eng`, or `eng+deu` for German receipts (needs
        /// tesseract-ocr-deu).
        public var languages = "eng"
        /// How much OCR does per image (`ocr.profile`).
        public enum Profile: String, Sendable, Equatable, CaseIterable {
            /// Every accuracy-bearing re-read (default): the photo reading when unsure, the price-cell, date,
            /// total and logo-band re-reads, the inverted re-read of unsure lines.
            case accurate
            /// One reading, none of the re-reads and no photo reading: fewer CPU seconds per receipt for fewer
            /// fields read right (each set's cost: `docs/reference/configuration.md`).
            case fast
        }
        /// `ocr.photo_pass`: never, when_unsure (default) or always. The `fast` profile reads once: its photo pass
        /// is `never` (see ``effectivePhotoPass``).
        public var photoPass = PhotoPass.whenUnsure
        /// `ocr.profile`: accurate (default) or fast.
        public var profile = Profile.accurate
        /// `ocr.cache`: a folder where the `ocr` stage keeps each file's lines (by content hash, OCR version and
        /// these settings) and reads them back instead of running tesseract again; nil = no cache. Relative to the
        /// config file's folder.
        public var cache: String?

        public init() {}

        /// What changes the `ocr` stage's output (the cache does not): part of its version when not the default.
        public var fingerprint: String? {
            if profile == .fast { return "\(languages)-fast" }
            return languages == "eng" && photoPass == .whenUnsure ? nil : "\(languages)-\(photoPass.key)"
        }

        /// The photo pass the `ocr` stage runs: `photo_pass`, or `never` under the `fast` profile.
        public var effectivePhotoPass: PhotoPass { profile == .fast ? .never : photoPass }
    }

    /// Where the LLM stage caches answers: `llm.cache`, or `llm-cache.sqlite` beside the database.
    /// With a PostgreSQL store, beside the working directory (the URL is not a folder).
    public var llmCachePath: String {
        if let path = llm.cachePath { return path }
        if StoreLocation.isPostgres(database) {
            return URL(fileURLWithPath: "llm-cache.sqlite").standardizedFileURL.path
        }
        return URL(fileURLWithPath: database).deletingLastPathComponent().appendingPathComponent("llm-cache.sqlite").path
    }

    /// The store as it may be printed: the SQLite path, or the PostgreSQL URL without its password.
    public var storeDescription: String {
        (try? StoreLocation.parse(database))?.description ?? StoreLocation.redact(database)
    }

    /// Where the checkpoint store is, parsed from ``database``.
    public var storeLocation: StoreLocation {
        get throws { try StoreLocation.parse(database) }
    }

    /// `workers`, with `0` resolved to the number of cores.
    public var effectiveWorkers: Int {
        workers > 0 ? workers : max(1, ProcessInfo.processInfo.activeProcessorCount)
    }
}
