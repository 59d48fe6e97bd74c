import Foundation
import LarderJSON
import Logging

/// Regression runs against golden results: run the pipeline over inputs into a scratch database and compare each
/// document's result with `<golden folder>/<file name>.json` semantically (key order and number formatting don't
/// matter). `update` rewrites the goldens instead.
public struct GoldenCheck: Sendable {
    public var goldenDirectory: String
    public var config: PipelineConfig
    /// The configuration file the worker reads (limits and so on), if any.
    public var configFile: String?
    public var update: Bool

    public init(goldenDirectory: String, config: PipelineConfig, configFile: String?, update: Bool) {
        self.goldenDirectory = goldenDirectory
        self.config = config
        self.configFile = configFile
        self.update = update
    }

    /// What one input came to.
    public struct Outcome: Codable, Sendable, Equatable {
        public enum Status: String, Codable, Sendable {
            /// The result equals the golden.
            case match
            /// The result differs: see `changes`.
            case drift
            /// There is no golden file for this input.
            case missing
            /// The pipeline made no result (the document failed): see `error`.
            case failed
            /// `--update` wrote the golden.
            case updated
        }

        public var file: String
        public var golden: String
        public var status: Status
        /// The changes from golden to result, one per line.
        public var changes: [String]
        /// The same as an RFC 6902 JSON Patch (golden → result), as JSON text.
        public var patch: String?
        public var error: String?
    }

    /// True when every input matched its golden (or `--update` wrote it).
    public static func passed(_ outcomes: [Outcome]) -> Bool {
        outcomes.allSatisfy { $0.status == .match || $0.status == .updated }
    }

    public func run(inputs: [String], logger: Logger) throws -> [Outcome] {
        let scratch = NSTemporaryDirectory() + "larder-check-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let database = scratch + "/check.sqlite"
        let store = try SQLiteCheckpointStore(path: database)
        let intake = try Intake(store: store, manifest: .standard(for: config), config: config)
            .ingest(paths: inputs, batchID: store.beginBatch(command: "check", inputs: inputs))
        if let error = intake.errors.first {
            throw LarderError(record: error)
        }
        // The same worker process `larder ingest` runs, on the scratch database.
        var arguments = ["--db", database, "--workers", String(config.effectiveWorkers)]
        if let configFile { arguments += ["--config", configFile] }
        let outcome = try WorkerProcess(executable: WorkerProcess.workerExecutable(), arguments: arguments).run(logger: logger)
        if outcome.interrupted { throw LarderError(.interrupted, "the check was interrupted") }
        if update {
            try FileManager.default.createDirectory(atPath: goldenDirectory, withIntermediateDirectories: true)
        }
        var outcomes: [Outcome] = []
        var seen: [String: String] = [:]
        for state in DocumentState.allCases {
            try store.forEachDocument(in: state) { document in
                let name = URL(fileURLWithPath: document.path).lastPathComponent
                if let other = seen[name] {
                    throw LarderError(
                        .configuration, "two different inputs are named \(name) (also \(other))",
                        hint: "goldens are keyed by file name: rename one", path: document.path)
                }
                seen[name] = document.path
                outcomes.append(try check(document, name: name, store: store))
            }
        }
        return outcomes.sorted { $0.file < $1.file }
    }

    private func check(_ document: DocumentRecord, name: String, store: SQLiteCheckpointStore) throws -> Outcome {
        let goldenPath = goldenDirectory + "/" + name + ".json"
        var outcome = Outcome(file: name, golden: goldenPath, status: .match, changes: [], patch: nil, error: nil)
        guard let result = try store.resultVersions(of: document.id).last else {
            let problem = try store.stages(of: document.id).first { $0.error != nil }?.error
            outcome.status = .failed
            outcome.error = problem.map { LarderError(record: $0).description } ?? "no result (state \(document.state.rawValue))"
            return outcome
        }
        let value = try JSONValue(parsing: Data(result.json.utf8))
        if update {
            try SafeFile.write(
                Data((value.serialized(options: [.prettyPrinted, .sortedKeys]) + "\n").utf8), to: goldenPath,
                what: "the golden file")
            outcome.status = .updated
            return outcome
        }
        guard let data = FileManager.default.contents(atPath: goldenPath) else {
            outcome.status = .missing
            outcome.error = "no golden file: run with --update to write it"
            return outcome
        }
        let golden: JSONValue
        do {
            golden = try JSONValue(parsing: data)
        } catch let error as JSONParseError {
            throw LarderError(
                .badInput, "the golden is not valid JSON: \(error.message)", hint: "fix it, or rewrite it with --update",
                path: goldenPath, line: error.line)
        }
        if golden != value {
            let diff = ResultDiff(from: golden, to: value)
            outcome.status = .drift
            outcome.changes = diff.lines(colour: false)
            outcome.patch = diff.patch.serialized(options: [])
        }
        return outcome
    }
}
