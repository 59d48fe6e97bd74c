import ArgumentParser
import Foundation
import LarderCore
import LarderPostgres
import LarderRecipes

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Counts per stage and status, then every failed or quarantined document with its error.",
        discussion: "Exits 1 when a document is failed or quarantined (a result that breaks its schema is failed), else 0.")

    @OptionGroup var options: CommonOptions

    struct Report: Codable {
        var database: String
        var documents: [String: Int]
        var stages: [StageCount]
        var problems: [Problem]
        var inputErrors: [InputError]
        /// A PostgreSQL store's workers and their claims (absent for SQLite).
        var workers: [FleetWorker]?
    }

    func run() throws {
        try reportingErrors {
            let config = try options.loadConfig()
            let store = try options.openReadOnly(config)
            let documents = try store.documentCounts()
            let report = Report(
                database: config.storeDescription,
                documents: Dictionary(uniqueKeysWithValues: documents.map { ($0.key.rawValue, $0.value) }),
                stages: try store.stageCounts().sorted {
                    (PipelineManifest.standardStageNames.firstIndex(of: $0.stage) ?? 99, $0.status.rawValue)
                        < (PipelineManifest.standardStageNames.firstIndex(of: $1.stage) ?? 99, $1.status.rawValue)
                },
                problems: try store.problems(batchID: nil, limit: 100_000),
                inputErrors: try store.latestBatchID().map { try store.inputErrors(batchID: $0) } ?? [],
                workers: try (store as? PostgresCheckpointStore)?.fleet(leaseTTL: config.leaseTTL))
            if options.json {
                try printJSON(report)
            } else {
                printStatus(report, documents: documents)
            }
            // Nothing silent: a failed or quarantined document makes `status` exit 1, after the report.
            if !report.problems.isEmpty { throw LarderExit.partial }
        }
    }

    private func printStatus(_ report: Report, documents: [DocumentState: Int]) {
        print("database: \(report.database)")
        let total = documents.values.reduce(0, +)
        print(
            "documents: \(total) (" + DocumentState.allCases.map { "\(documents[$0] ?? 0) \($0.rawValue)" }
                .joined(separator: ", ") + ")")
        for stage in PipelineManifest.standardStageNames {
            let counts = report.stages.filter { $0.stage == stage }.map { "\($0.count) \($0.status.rawValue)" }
            print("  \(stage.padding(toLength: 8, withPad: " ", startingAt: 0)) \(counts.joined(separator: ", "))")
        }
        if !report.problems.isEmpty { print("failed or quarantined:") }
        for problem in report.problems {
            let error = problem.error.map { LarderError(record: $0).description } ?? "no error recorded"
            print("  [\(problem.state.rawValue)] doc \(problem.documentID) \(problem.stage) (attempts \(problem.attempts)): \(error)")
        }
        if !report.inputErrors.isEmpty { print("not ingested in the last batch:") }
        for input in report.inputErrors { print("  \(LarderError(record: input.error))") }
        if let workers = report.workers { printFleet(workers) }
    }

    private func printFleet(_ workers: [FleetWorker]) {
        print("workers: \(workers.count)")
        for worker in workers {
            let seen = worker.lastSeenSecondsAgo < 0 ? "not seen" : String(format: "seen %.0f s ago", worker.lastSeenSecondsAgo)
            print("  \(worker.id) (\(seen), \(worker.claims.count) lease(s))")
            for claim in worker.claims {
                let expiry =
                    claim.expiresInSeconds >= 0
                    ? String(format: "expires in %.0f s", claim.expiresInSeconds)
                    : String(format: "EXPIRED %.0f s ago", -claim.expiresInSeconds)
                print(String(format: "    doc %lld: lease age %.0f s, ", claim.documentID, claim.ageSeconds) + expiry)
            }
        }
    }
}

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Print one document's stages and their outputs.")

    @OptionGroup var options: CommonOptions

    @Option(help: "Only this stage's output.")
    var stage: String?

    @Flag(help: "Print the page layout extract found (blocks in reading order, each line with its x,y and font size).")
    var layout = false
    @OptionGroup var scaling: ScalingOptions

    @Argument(help: "Document id, SHA-256 prefix (4+ hex digits), or a path it was ingested from.")
    var document: String

    func run() throws {
        try reportingErrors {
            let config = try options.loadConfig()
            let store = try options.openReadOnly(config)
            let record = try findDocument(document, in: store)
            if let scaler = try scaling.scaler() {
                guard let result = try Exporter(store: store).exportableResult(record.id) else {
                    printError("larder: document \(record.id) has no exportable result to scale (see `larder status` and `larder review`)")
                    throw LarderExit.notFound
                }
                let scaled = try JSONDecoder().decode(
                    DocumentResult.self, from: Data(try Exporter.scaled(String(decoding: JSONEncoder().encode(result), as: UTF8.self), by: scaler).utf8))
                if options.json { return try printJSON(scaled) }
                scaled.recipes.forEach(printScaled)
                scaled.warnings.filter { $0.hasPrefix("not scaled") }.forEach { print($0) }
                return
            }
            let rows = try store.stages(of: record.id)
            if layout {
                guard let output = rows.first(where: { $0.stage == "extract" })?.output else {
                    throw LarderError(
                        .badInput, "extract has no output for this document yet",
                        hint: "run `larder resume` (or ingest it again) and retry", path: record.path)
                }
                let extracted = try JSONDecoder().decode(ExtractOutput.self, from: Data(output.utf8))
                print(LayoutText.render(extracted), terminator: "")
                return
            }
            if options.json {
                var checkpoints: [[String: Any]] = []
                for row in rows where stage == nil || stage == row.stage {
                    var item: [String: Any] = ["stage": row.stage, "status": row.status.rawValue, "attempts": row.attempts]
                    item["version"] = row.version
                    item["durationMs"] = row.durationMilliseconds
                    if let error = row.error { item["error"] = LarderError(record: error).description }
                    if !row.violations.isEmpty { item["violations"] = row.violations.map(\.description) }
                    if let output = row.output { item["output"] = try JSONSerialization.jsonObject(with: Data(output.utf8)) }
                    checkpoints.append(item)
                }
                let object: [String: Any] = [
                    "document": [
                        "id": record.id, "sha256": record.sha256, "path": record.path,
                        "paths": try store.paths(of: record.id), "byteCount": record.byteCount,
                        "state": record.state.rawValue,
                    ] as [String: Any],
                    "stages": checkpoints,
                ]
                let data = try JSONSerialization.data(
                    withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
                print(String(decoding: data, as: UTF8.self))
                return
            }
            print("document \(record.id) [\(record.state.rawValue)] \(LarderError.displayPath(record.path))")
            print("sha256 \(record.sha256), \(record.byteCount) bytes")
            for path in try store.paths(of: record.id) where path != record.path {
                print("also at \(LarderError.displayPath(path))")
            }
            for name in PipelineManifest.standardStageNames where stage == nil || stage == name {
                guard let row = rows.first(where: { $0.stage == name }) else { continue }
                let duration = row.durationMilliseconds.map { String(format: ", %.1f ms", $0) } ?? ""
                print("\n== \(name): \(row.status.rawValue) (\(row.version ?? "not run"), attempts \(row.attempts)\(duration))")
                if let error = row.error { print("error: \(LarderError(record: error))") }
                for violation in row.violations { print("schema: \(violation)") }
                if let output = row.output,
                    let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)),
                    let pretty = try? JSONSerialization.data(
                        withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
                {
                    print(String(decoding: pretty, as: UTF8.self))
                }
            }
        }
    }
}

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write each finished document's final JSON into a folder.")

    @OptionGroup var options: CommonOptions

    @Option(help: "Folder to write into (created if missing).")
    var out: String

    @Option(help: "json (each document's result), or the recipes as schema-org (JSON-LD), cooklang or paprika (.paprikarecipes).")
    var format = "json"

    @OptionGroup var scaling: ScalingOptions

    func run() throws {
        try reportingErrors {
            if format != "json" {
                guard try scaling.scaler() == nil else {
                    throw LarderError(.configuration, "--servings and --units scale the json export only", hint: "drop them, or use --format json")
                }
                return try exportRecipes(format: format, out: out, options: options)
            }
            let config = try options.loadConfig()
            let store = try options.openReadOnly(config)
            let report = try Exporter(store: store, scaler: try scaling.scaler()).export(to: out)
            if options.json {
                try printJSON(report)
                if !report.invalidResults.isEmpty { throw LarderExit.partial }
                return
            }
            print("wrote \(report.written) result(s) to \(report.directory)")
            for invalid in report.invalidResults { printError("larder: \(invalid)") }
            if report.rejected > 0 { print("skipped \(report.rejected) rejected result(s)") }
            if report.withoutResult > 0 {
                print("skipped \(report.withoutResult) document(s) without a result (see `larder status`)")
            }
            // Nothing dropped silently: a result that breaks its schema was named above, and the export exits 1.
            if !report.invalidResults.isEmpty { throw LarderExit.partial }
        }
    }
}

struct PantryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pantry",
        abstract: "The pantry: base ingredients bought on the receipts read so far, with quantity, price and date.",
        discussion: "Items come from each receipt's accepted result, else its latest valid one.")

    @OptionGroup var options: CommonOptions

    @Option(help: "Write the pantry as csv or json (to standard output, or --out FILE).")
    var export: String?

    @Option(help: "File to write the export to.")
    var out: String?

    func run() throws {
        try reportingErrors {
            let config = try options.loadConfig()
            let items = try Pantry(store: options.openReadOnly(config)).items()
            let text: String
            switch export ?? (options.json ? "json" : nil) {
            case "csv":
                text = Pantry.csv(items)
            case "json":
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                text = String(decoding: try encoder.encode(items), as: UTF8.self) + "\n"
            case nil:
                if items.isEmpty { print("the pantry is empty: ingest some receipts") }
                for item in items {
                    let amount = [item.quantity.map { "\($0)" }, item.unit].compactMap { $0 }.joined(separator: " ")
                    let price = item.price.map { String(format: "%.2f", NSDecimalNumber(decimal: $0).doubleValue) } ?? "-"
                    let allergens = item.allergens.isEmpty ? "" : "  [" + item.allergens.map(\.allergen.rawValue).joined(separator: ", ") + "]"
                    let flag = item.needsReview ? "  (to review)" : ""
                    print("\(item.ingredient.padding(toLength: 22, withPad: " ", startingAt: 0)) \(amount.padding(toLength: 10, withPad: " ", startingAt: 0)) \(price.padding(toLength: 8, withPad: " ", startingAt: 0)) \(item.purchaseDate ?? "no date")  \(item.product)\(allergens)\(flag)")
                }
                return
            case let other?:
                throw LarderError(.configuration, "unknown export format '\(other)'", hint: "use --export csv or --export json")
            }
            if let out {
                try SafeFile.write(Data(text.utf8), to: out, what: "the pantry export")
                print("wrote \(items.count) pantry item(s) to \(out)")
            } else {
                print(text, terminator: "")
            }
        }
    }
}
