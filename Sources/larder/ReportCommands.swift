import ArgumentParser
import Foundation
import LarderCore

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Counts per stage and status, then every failed or quarantined document with its error.")

    @OptionGroup var options: CommonOptions

    struct Report: Codable {
        var database: String
        var documents: [String: Int]
        var stages: [StageCount]
        var problems: [Problem]
        var inputErrors: [InputError]
    }

    func run() throws {
        try reportingErrors {
            let config = try options.loadConfig()
            let store = try SQLiteCheckpointStore(path: config.database)
            let documents = try store.documentCounts()
            let report = Report(
                database: config.database,
                documents: Dictionary(uniqueKeysWithValues: documents.map { ($0.key.rawValue, $0.value) }),
                stages: try store.stageCounts().sorted {
                    (PipelineManifest.standard.stageNames.firstIndex(of: $0.stage) ?? 99, $0.status.rawValue)
                        < (PipelineManifest.standard.stageNames.firstIndex(of: $1.stage) ?? 99, $1.status.rawValue)
                },
                problems: try store.problems(batchID: nil, limit: 100_000),
                inputErrors: try store.latestBatchID().map { try store.inputErrors(batchID: $0) } ?? [])
            if options.json { return try printJSON(report) }
            print("database: \(report.database)")
            let total = documents.values.reduce(0, +)
            print(
                "documents: \(total) (" + DocumentState.allCases.map { "\(documents[$0] ?? 0) \($0.rawValue)" }
                    .joined(separator: ", ") + ")")
            for stage in PipelineManifest.standard.stageNames {
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
        }
    }
}

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print one document's stages and their outputs.")

    @OptionGroup var options: CommonOptions

    @Option(help: "Only this stage's output.")
    var stage: String?

    @Argument(help: "Document id, SHA-256 prefix (4+ hex digits), or a path it was ingested from.")
    var document: String

    func run() throws {
        try reportingErrors {
            let config = try options.loadConfig()
            let store = try SQLiteCheckpointStore(path: config.database)
            let record = try findDocument(document, in: store)
            let rows = try store.stages(of: record.id)
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
            print("document \(record.id) [\(record.state.rawValue)] \(record.path)")
            print("sha256 \(record.sha256), \(record.byteCount) bytes")
            for path in try store.paths(of: record.id) where path != record.path { print("also at \(path)") }
            for name in PipelineManifest.standard.stageNames where stage == nil || stage == name {
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
        abstract: "Write each finished document's final JSON into a folder.")

    @OptionGroup var options: CommonOptions

    @Option(help: "Folder to write into (created if missing).")
    var out: String

    func run() throws {
        try reportingErrors {
            let config = try options.loadConfig()
            let store = try SQLiteCheckpointStore(path: config.database)
            let report = try Exporter(store: store).export(to: out)
            if options.json { return try printJSON(report) }
            print("wrote \(report.written) result(s) to \(report.directory)")
            if report.invalid > 0 {
                print("skipped \(report.invalid) result(s) that break their schema (see `larder review`)")
            }
            if report.rejected > 0 { print("skipped \(report.rejected) rejected result(s)") }
            if report.withoutResult > 0 {
                print("skipped \(report.withoutResult) document(s) without a result (see `larder status`)")
            }
        }
    }
}
