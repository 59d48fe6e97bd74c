import Foundation
import LarderReceipts
import Yams

/// Reads `pipeline.yml`. Every key is listed here with its meaning; an unknown key or a bad value is an error
/// that names the key and its line.
///
/// ```yaml
/// database: larder.sqlite     # checkpoint database, relative to this file's folder
/// store:
///   url: postgres://larder@db.example:5432/larder?sslmode=require   # a PostgreSQL store instead (wins over database)
/// queue:
///   lease_ttl: 60             # seconds a worker's claim lasts without a heartbeat (LARDER_LEASE_TTL wins)
/// workers: 0                  # documents processed at once; 0 = one per core
/// max_attempts: 3             # attempts per stage before a document is quarantined
/// progress_interval_seconds: 10   # progress line period when output is not a terminal
/// limits:
///   max_file_bytes: 104857600 # larger files are not registered
///   max_pdf_pages: 500        # longer PDFs fail at extract
///   max_image_pixels: 40000000  # larger images fail at detect
///   stage_seconds: 600        # one stage on one document (all but llm); past it the document fails; 0 = off
///   max_text_bytes: 16777216  # larger text, Markdown, HTML and JSON files fail at detect
///   max_line_chars: 20000     # text and Markdown with a longer line fail at detect
///   max_stage_output_bytes: 67108864  # a larger stage output fails the document instead of being stored
///   max_html_depth: 200       # saved pages: deeper elements are read as their ancestor's text
///   max_html_elements: 400000 # saved pages: elements past this many are not read
///   html_seconds: 10          # saved pages: CPU seconds reading one page may take; past it the page fails
/// receipts:
///   blocklist:                # non-food lines kept out of the pantry (IngredientBlocklist.default, changed)
///     rules: {alcohol: [BEER, WINE], household: [KITCHEN ROLL]}  # a new id adds a rule; a known id gets phrases
///     generic_terms: [decor]  # added to the generic terms never taken as an ingredient
///     disable: [household]    # default rules switched off, by id
///   default_currency: USD     # the currency of a receipt that shows none (ISO code)
///   date_order: automatic     # numeric dates: automatic | month_first | day_first
/// ocr:
///   languages: eng            # tesseract models, +-joined (eng+deu needs tesseract-ocr-deu)
///   photo_pass: when_unsure   # read a photo again as a phone photo: never | when_unsure | always
///   profile: accurate         # accurate (every re-read) | fast (one reading: no re-reads, no photo pass)
///   cache: ocr-cache          # keep each file's OCR lines here and reuse them; absent = no cache
/// pantry:                     # what `larder cook` assumes (PantryConfig)
///   staples: [salt, pepper, black pepper, water, ice, oil, vegetable oil, cooking spray]  # always on hand
///   fresh_days: {produce: 7, roots: 30, dairy: 14, meat: 3, fish: 2, eggs: 28, bakery: 5}  # usable days after purchase
/// llm:                        # the optional LLM structuring stage (LLMConfig)
///   mode: off                 # off | fallback | always
///   confidence_threshold: 0.6 # fallback: documents parsed with less confidence go to the LLM
///   max_reasks: 2             # re-asks after a schema-invalid answer
///   reask_ungrounded: true    # re-ask about items that cite lines not holding them
///   batch_token_budget: 200000  # tokens a batch may spend; absent = no limit
///   cache: llm-cache.sqlite   # answer cache; absent = llm-cache.sqlite beside the database
///   retry: {attempts_per_provider: 3, base_delay_seconds: 1, max_delay_seconds: 30, max_retry_after_seconds: 60}
///   providers:                # the chain, tried in order
///     - name: local
///       kind: openai-compatible   # openai-compatible | anthropic | gemini
///       base_url: http://127.0.0.1:8080/v1
///       model: qwen2.5-coder-0.5b-instruct
///       api_key_env: OPENAI_API_KEY   # the variable's NAME; the key itself is never written anywhere
///       timeout_seconds: 120
///       max_tokens: 2048
///       price_per_input_token: 0
///       price_per_output_token: 0
///       concurrency: 2
/// ```
extension PipelineConfig {
    /// Loads the file at `path`. Relative paths inside it are resolved against its folder.
    public static func load(path: String) throws -> PipelineConfig {
        var config = try parse(yaml: try configurationText(path), path: path)
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if !config.database.hasPrefix("/") && !StoreLocation.isPostgres(config.database) {
            config.database = folder + "/" + config.database
        }
        if let cache = config.llm.cachePath, !cache.hasPrefix("/") {
            config.llm.cachePath = folder + "/" + cache
        }
        if let cache = config.ocr.cache, !cache.hasPrefix("/") {
            config.ocr.cache = folder + "/" + cache
        }
        return config
    }

    /// The file's text, or an error that says precisely why it is not a configuration file: missing, unreadable,
    /// a folder, larger than any configuration, binary (a NUL byte), or not UTF-8 — each with its offset.
    static func configurationText(_ path: String) throws -> String {
        let data: Data
        do { data = try FilePath.readAll(path) } catch let error as LarderError {
            throw LarderError(
                .configuration, "cannot read the configuration file: \(error.message)", hint: "check the path given to --config",
                path: path)
        }
        if data.count > 1 << 20 {
            throw LarderError(
                .configuration, "the configuration file is \(data.count) bytes: pipeline.yml is a few hundred bytes of YAML",
                hint: "check the path given to --config", path: path)
        }
        if let nul = data.firstIndex(of: 0) {
            throw LarderError(
                .configuration, "not a text file: a NUL byte at offset \(nul - data.startIndex) (a binary file, not YAML)",
                hint: "check the path given to --config; pipeline.yml is UTF-8 YAML", path: path)
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            let valid = String(decoding: data, as: UTF8.self).prefix { $0 != "\u{FFFD}" }
            let line = valid.unicodeScalars.filter { $0 == "\n" }.count + 1
            throw LarderError(
                .configuration, "not UTF-8 text: line \(line) holds a byte that is not UTF-8 (a binary file, or another encoding)",
                hint: "save pipeline.yml as UTF-8", path: path, line: line)
        }
        return text
    }

    /// Parses YAML text; `path` only labels errors.
    public static func parse(yaml: String, path: String = "pipeline.yml") throws -> PipelineConfig {
        var config = PipelineConfig()
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch let error as YamlError {
            throw LarderError(.configuration, "not valid YAML: \(error)", hint: "fix the syntax", path: path)
        }
        guard let root else { return config }  // an empty file means all defaults
        let reader = KeyReader(path: path)
        var storeURL: String?
        for (key, value) in try reader.mapping(root, at: "top level") {
            switch key.string ?? "" {
            case "database": config.database = try reader.string(value, key: "database")
            case "workers": config.workers = try reader.int(value, key: "workers", range: 0...256)
            case "store":
                for (storeKey, storeValue) in try reader.mapping(value, at: "store") {
                    switch storeKey.string ?? "" {
                    case "url":
                        let url = try reader.string(storeValue, key: "store.url")
                        guard StoreLocation.isPostgres(url) else {
                            throw LarderError(
                                .configuration, "store.url must be a postgres:// URL", hint: "an SQLite file goes in `database`",
                                path: path, line: reader.line(storeValue))
                        }
                        _ = try StoreLocation.parse(url)
                        storeURL = url
                    default: throw reader.unknownKey(storeKey, in: "store")
                    }
                }
            case "queue":
                for (queueKey, queueValue) in try reader.mapping(value, at: "queue") {
                    switch queueKey.string ?? "" {
                    case "lease_ttl":
                        config.leaseTTL = try reader.double(queueValue, key: "queue.lease_ttl", range: 3...86_400)
                    default: throw reader.unknownKey(queueKey, in: "queue")
                    }
                }
            case "max_attempts": config.maxAttempts = try reader.int(value, key: "max_attempts", range: 1...100)
            case "progress_interval_seconds":
                config.progressIntervalSeconds = try reader.double(
                    value, key: "progress_interval_seconds", range: 0.1...3600)
            case "limits":
                for (limitKey, limitValue) in try reader.mapping(value, at: "limits") {
                    switch limitKey.string ?? "" {
                    case "max_file_bytes":
                        config.limits.maxFileBytes = Int64(
                            try reader.int(limitValue, key: "limits.max_file_bytes", range: 1...Int.max))
                    case "max_pdf_pages":
                        config.limits.maxPDFPages = try reader.int(
                            limitValue, key: "limits.max_pdf_pages", range: 1...1_000_000)
                    case "max_image_pixels":
                        config.limits.maxImagePixels = Int64(
                            try reader.int(limitValue, key: "limits.max_image_pixels", range: 1...Int.max))
                    case "stage_seconds":
                        config.limits.stageSeconds = try reader.double(
                            limitValue, key: "limits.stage_seconds", range: 0...86_400)
                    case "max_text_bytes":
                        config.limits.maxTextBytes = Int64(
                            try reader.int(limitValue, key: "limits.max_text_bytes", range: 1...Int.max))
                    case "max_line_chars":
                        config.limits.maxLineCharacters = try reader.int(
                            limitValue, key: "limits.max_line_chars", range: 80...Int.max)
                    case "max_stage_output_bytes":
                        config.limits.maxStageOutputBytes = try reader.int(
                            limitValue, key: "limits.max_stage_output_bytes", range: 1024...Int.max)
                    case "max_html_depth":
                        config.limits.maxHTMLDepth = try reader.int(limitValue, key: "limits.max_html_depth", range: 8...256)
                    case "max_html_elements":
                        config.limits.maxHTMLElements = try reader.int(
                            limitValue, key: "limits.max_html_elements", range: 100...Int.max)
                    case "html_seconds":
                        config.limits.htmlSeconds = try reader.double(limitValue, key: "limits.html_seconds", range: 0.1...3600)
                    case "worker_memory":
                        // 0 (no limit), or enough for the worker's libraries and one page's OCR: at least 256 MiB.
                        let bytes = try reader.int(limitValue, key: "limits.worker_memory", range: 0...Int.max)
                        config.limits.workerMemory = Int64(
                            bytes == 0 ? 0 : try reader.int(limitValue, key: "limits.worker_memory", range: 256 << 20...Int.max))
                    default: throw reader.unknownKey(limitKey, in: "limits")
                    }
                }
            case "llm": config.llm = try parseLLM(value, reader: reader)
            case "pantry": config.pantry = try parsePantry(value, reader: reader)
            case "receipts":
                for (receiptKey, receiptValue) in try reader.mapping(value, at: "receipts") {
                    switch receiptKey.string ?? "" {
                    case "blocklist": config.blocklist = try parseBlocklist(receiptValue, reader: reader)
                    case "default_currency":
                        let code = try reader.string(receiptValue, key: "receipts.default_currency")
                        guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                            throw reader.badValue(receiptValue, key: "receipts.default_currency", expected: "a 3-letter currency code (USD, EUR, MYR)")
                        }
                        config.receiptParser.defaultCurrency = code.uppercased()
                    case "date_order":
                        let orders: [String: DateOrder] = ["automatic": .automatic, "month_first": .monthFirst, "day_first": .dayFirst]
                        guard let order = orders[try reader.string(receiptValue, key: "receipts.date_order")] else {
                            throw reader.badValue(receiptValue, key: "receipts.date_order", expected: "automatic, month_first or day_first")
                        }
                        config.receiptParser.dateOrder = order
                    default: throw reader.unknownKey(receiptKey, in: "receipts")
                    }
                }
            case "ocr": config.ocr = try parseOCR(value, reader: reader)
            default: throw reader.unknownKey(key, in: "the top level")
            }
        }
        if let storeURL { config.database = storeURL }  // wins over `database`, wherever that key stands
        return config
    }

    /// `ocr:`: tesseract's models, the photo pass, the profile and the cache folder.
    private static func parseOCR(_ node: Node, reader: KeyReader) throws -> OCRSettings {
        var ocr = OCRSettings()
        var photoPassNode: Node?
        for (key, value) in try reader.mapping(node, at: "ocr") {
            let name = "ocr." + (key.string ?? "")
            switch key.string ?? "" {
            case "languages":
                let languages = try reader.string(value, key: name)
                guard !languages.isEmpty, languages.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "+" || $0 == "_") }) else {
                    throw reader.badValue(value, key: name, expected: "tesseract models joined by +, e.g. eng or eng+deu")
                }
                ocr.languages = languages
            case "photo_pass":
                let text = try reader.string(value, key: name)
                guard let pass = OCRSettings.PhotoPass.allCases.first(where: { $0.key == text }) else {
                    throw reader.badValue(value, key: name, expected: "never, when_unsure or always")
                }
                ocr.photoPass = pass
                photoPassNode = value
            case "profile":
                let text = try reader.string(value, key: name)
                guard let profile = OCRSettings.Profile(rawValue: text) else {
                    throw reader.badValue(value, key: name, expected: "accurate or fast")
                }
                ocr.profile = profile
            case "cache": ocr.cache = try reader.string(value, key: name)
            default: throw reader.unknownKey(key, in: "ocr")
            }
        }
        // The fast profile reads each image once: a photo pass asked for beside it would be silently dropped.
        if ocr.profile == .fast, ocr.photoPass != .never, let photoPassNode {
            throw reader.badValue(
                photoPassNode, key: "ocr.photo_pass",
                expected: "never or no photo_pass with profile: fast (the fast profile reads each image once)")
        }
        return ocr
    }

    /// `receipts.blocklist`: changes to ``IngredientBlocklist/default``.
    private static func parseBlocklist(_ node: Node, reader: KeyReader) throws -> IngredientBlocklist {
        var blocklist = IngredientBlocklist.default
        var disabled: [(String, Node)] = []
        for (key, value) in try reader.mapping(node, at: "receipts.blocklist") {
            let name = "receipts.blocklist." + (key.string ?? "")
            switch key.string ?? "" {
            case "rules":
                for (idNode, phrasesNode) in try reader.mapping(value, at: name) {
                    let id = try reader.string(idNode, key: name)
                    let phrases = try reader.strings(phrasesNode, key: "\(name).\(id)").map { $0.uppercased() }
                    if let index = blocklist.rules.firstIndex(where: { $0.id == id }) {
                        blocklist.rules[index].phrases += phrases
                    } else {
                        blocklist.rules.append(.init(id: id, phrases: phrases))
                    }
                }
            case "generic_terms": blocklist.genericTerms += try reader.strings(value, key: name).map { $0.lowercased() }
            case "disable":
                guard let items = value.sequence else { throw reader.badValue(value, key: name, expected: "a list of rule ids") }
                disabled += try items.map { (try reader.string($0, key: name), $0) }
            default: throw reader.unknownKey(key, in: "receipts.blocklist")
            }
        }
        for (id, node) in disabled {
            guard blocklist.rules.contains(where: { $0.id == id }) else {
                throw reader.badValue(
                    node, key: "receipts.blocklist.disable",
                    expected: "a rule id: " + blocklist.rules.map(\.id).joined(separator: ", "))
            }
            blocklist.rules.removeAll { $0.id == id }
        }
        return blocklist
    }

    /// The `llm:` section. A chain is required unless the mode is `off`.
    private static func parseLLM(_ node: Node, reader: KeyReader) throws -> LLMConfig {
        var llm = LLMConfig()
        var providersNode: Node? = nil
        for (key, value) in try reader.mapping(node, at: "llm") {
            let name = "llm." + (key.string ?? "")
            switch key.string ?? "" {
            case "mode":
                let text = value.scalar?.string ?? ""
                guard let mode = LLMMode(rawValue: text) else {
                    throw reader.badValue(value, key: name, expected: "off, fallback or always")
                }
                llm.mode = mode
            case "confidence_threshold": llm.confidenceThreshold = try reader.double(value, key: name, range: 0...1)
            case "max_reasks": llm.maxReasks = try reader.int(value, key: name, range: 0...10)
            case "reask_ungrounded": llm.reaskUngrounded = try reader.bool(value, key: name)
            case "batch_token_budget": llm.batchTokenBudget = try reader.int(value, key: name, range: 1...Int.max)
            case "cache": llm.cachePath = try reader.string(value, key: name)
            case "retry":
                for (retryKey, retryValue) in try reader.mapping(value, at: name) {
                    let full = name + "." + (retryKey.string ?? "")
                    switch retryKey.string ?? "" {
                    case "attempts_per_provider":
                        llm.retry.attemptsPerProvider = try reader.int(retryValue, key: full, range: 1...20)
                    case "base_delay_seconds":
                        llm.retry.baseDelaySeconds = try reader.double(retryValue, key: full, range: 0...600)
                    case "max_delay_seconds":
                        llm.retry.maxDelaySeconds = try reader.double(retryValue, key: full, range: 0...3600)
                    case "max_retry_after_seconds":
                        llm.retry.maxRetryAfterSeconds = try reader.double(retryValue, key: full, range: 0...3600)
                    default: throw reader.unknownKey(retryKey, in: name)
                    }
                }
            case "providers":
                providersNode = value
                guard let items = value.sequence else {
                    throw reader.badValue(value, key: name, expected: "a list of providers (- name: …)")
                }
                for item in items {
                    let provider = try parseProvider(item, index: llm.providers.count, reader: reader)
                    if llm.providers.contains(where: { $0.name == provider.name }) {
                        throw LarderError(
                            .configuration, "two providers are named '\(provider.name)' in llm.providers",
                            hint: "give each chain entry its own name", path: reader.path, line: reader.line(item))
                    }
                    llm.providers.append(provider)
                }
            default: throw reader.unknownKey(key, in: "llm")
            }
        }
        if llm.mode != .off && llm.providers.isEmpty {
            throw LarderError(
                .configuration, "llm.mode is \(llm.mode.rawValue) but llm.providers lists no provider",
                hint: "add a provider chain (see pipeline.yml), or set llm.mode: off", path: reader.path,
                line: providersNode.flatMap(reader.line) ?? reader.line(node))
        }
        return llm
    }

    private static func parseProvider(_ node: Node, index: Int, reader: KeyReader) throws -> ProviderConfig {
        let place = "llm.providers[\(index)]"
        var fields: [String: Node] = [:]
        for (key, value) in try reader.mapping(node, at: place) {
            let known = [
                "name", "kind", "base_url", "model", "api_key_env", "timeout_seconds", "max_tokens",
                "price_per_input_token", "price_per_output_token", "concurrency",
            ]
            guard let name = key.string, known.contains(name) else { throw reader.unknownKey(key, in: place) }
            fields[name] = value
        }
        func required(_ key: String) throws -> Node {
            guard let value = fields[key] else {
                throw LarderError(
                    .configuration, "\(place) has no '\(key)'", hint: "every provider needs name, kind, base_url and model",
                    path: reader.path, line: reader.line(node))
            }
            return value
        }
        let kindNode = try required("kind")
        guard let kind = ProviderKind(rawValue: kindNode.string ?? "") else {
            throw reader.badValue(kindNode, key: "\(place).kind", expected: "openai-compatible, anthropic or gemini")
        }
        let urlNode = try required("base_url")
        let url = try reader.string(urlNode, key: "\(place).base_url")
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            throw reader.badValue(urlNode, key: "\(place).base_url", expected: "an http:// or https:// URL")
        }
        var provider = ProviderConfig(
            name: try reader.string(try required("name"), key: "\(place).name"), kind: kind, baseURL: url,
            model: try reader.string(try required("model"), key: "\(place).model"))
        if let value = fields["api_key_env"] {
            let variable = try reader.string(value, key: "\(place).api_key_env")
            if let problem = Self.environmentVariableNameProblem(variable) {
                // Never echoed: it may be a pasted key.
                throw LarderError(
                    .configuration,
                    "'\(place).api_key_env' must be the NAME of an environment variable (upper-case letters, digits, _), not a key: \(problem)",
                    hint: "put the key in the environment (export OPENAI_API_KEY=…) and its name here; never the key itself",
                    path: reader.path, line: reader.line(value))
            }
            provider.apiKeyEnv = variable
        }
        if let value = fields["timeout_seconds"] {
            provider.timeoutSeconds = try reader.double(value, key: "\(place).timeout_seconds", range: 1...3600)
        }
        if let value = fields["max_tokens"] {
            provider.maxTokens = try reader.int(value, key: "\(place).max_tokens", range: 16...1_000_000)
        }
        if let value = fields["price_per_input_token"] {
            provider.pricePerInputToken = try reader.double(value, key: "\(place).price_per_input_token", range: 0...1)
        }
        if let value = fields["price_per_output_token"] {
            provider.pricePerOutputToken = try reader.double(value, key: "\(place).price_per_output_token", range: 0...1)
        }
        if let value = fields["concurrency"] {
            provider.concurrency = try reader.int(value, key: "\(place).concurrency", range: 1...64)
        }
        return provider
    }
}

extension PipelineConfig {
    /// Prefixes of API keys as providers issue them (OpenAI, Anthropic, Groq, Hugging Face, Google, xAI, and
    /// others): a value starting with one is a pasted key, whatever its characters.
    static let apiKeyPrefixes = [
        "sk-", "sk_", "gsk_", "hf_", "AIza", "xai-", "pk-", "pk_", "rk_", "ghp_", "gho_", "github_pat_", "glpat-",
        "pplx-", "r8_", "nvapi-", "fw_", "csk-", "jina_", "tvly-", "sess-", "ya29.",
    ]

    /// Why `name` cannot be an environment variable's name for an API key, or nil when it looks like one:
    /// upper-case ASCII letters, digits and `_`, not starting with a digit, at most 64 characters, not starting
    /// with a known key prefix, and not a long run of mixed characters (a key in capitals: a name has words).
    /// The reason never quotes the value.
    static func environmentVariableNameProblem(_ name: String) -> String? {
        if apiKeyPrefixes.contains(where: { name.hasPrefix($0) }) {
            return "it starts the way an API key does"
        }
        guard name.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" })
        else { return "it has characters other than upper-case letters, digits and _" }
        if name.first?.isNumber == true { return "it starts with a digit" }
        if name.count > 64 { return "it is longer than 64 characters" }
        // Words of an environment variable name are short and mostly letters; a key is one long random run.
        let longestWord = name.split(separator: "_").map(\.count).max() ?? 0
        let digits = name.filter(\.isNumber).count
        if longestWord > 24 || (name.count >= 20 && digits * 4 >= name.count) {
            return "it looks like a random key rather than a name"
        }
        return nil
    }

    /// `pantry`: staples replace the default list; fresh_days entries replace the default for their kind.
    fileprivate static func parsePantry(_ node: Node, reader: KeyReader) throws -> PantryConfig {
        var pantry = PantryConfig()
        for (key, value) in try reader.mapping(node, at: "pantry") {
            switch key.string {
            case "staples": pantry.staples = try reader.strings(value, key: "pantry.staples").map { $0.lowercased() }
            case "fresh_days":
                for (kind, days) in try reader.mapping(value, at: "pantry.fresh_days") {
                    guard let name = kind.string, PantryConfig.kinds.contains(name) else {
                        throw reader.badValue(kind, key: "pantry.fresh_days", expected: "a kind: " + PantryConfig.kinds.joined(separator: ", "))
                    }
                    pantry.freshDays[name] = try reader.int(days, key: "pantry.fresh_days.\(name)", range: 1...36_500)
                }
            default: throw reader.unknownKey(key, in: "pantry")
            }
        }
        return pantry
    }
}

/// Typed access to YAML nodes with errors that name the key and its line.
private struct KeyReader {
    let path: String

    func line(_ node: Node) -> Int? { node.mark.map { $0.line } }

    func mapping(_ node: Node, at place: String) throws -> [(Node, Node)] {
        guard let mapping = node.mapping else {
            throw LarderError(
                .configuration, "\(place) must be a mapping of keys to values", path: path, line: line(node))
        }
        return mapping.map { ($0.key, $0.value) }
    }

    func unknownKey(_ key: Node, in place: String) -> LarderError {
        LarderError(
            .configuration, "unknown key '\(key.string ?? "?")' in \(place)",
            hint: "see the keys documented in pipeline.yml and docs/reference/configuration.md", path: path, line: line(key))
    }

    func badValue(_ node: Node, key: String, expected: String) -> LarderError {
        LarderError(
            .configuration, "bad value '\(node.string ?? "?")' for '\(key)': expected \(expected)", path: path,
            line: line(node))
    }

    func string(_ node: Node, key: String) throws -> String {
        guard node.scalar != nil, let value = node.string, !value.isEmpty else {
            throw badValue(node, key: key, expected: "a non-empty string")
        }
        return value
    }

    func int(_ node: Node, key: String, range: ClosedRange<Int>) throws -> Int {
        guard node.scalar != nil, let value = node.int, range.contains(value) else {
            let upper = range.upperBound == Int.max ? "" : " to \(range.upperBound)"
            throw badValue(node, key: key, expected: "a whole number from \(range.lowerBound)\(upper)")
        }
        return value
    }

    func strings(_ node: Node, key: String) throws -> [String] {
        guard let items = node.sequence else { throw badValue(node, key: key, expected: "a list of strings") }
        return try items.map { try string($0, key: key) }
    }

    func bool(_ node: Node, key: String) throws -> Bool {
        guard node.scalar != nil, let value = node.bool else {
            throw badValue(node, key: key, expected: "true or false")
        }
        return value
    }

    func double(_ node: Node, key: String, range: ClosedRange<Double>) throws -> Double {
        guard node.scalar != nil, let value = node.float, range.contains(value) else {
            throw badValue(
                node, key: key, expected: "a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}
