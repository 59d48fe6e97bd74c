import Foundation
import LarderJSON
import LarderRecipes

/// Writes each document's result to a folder as `<name>.<sha256 prefix>.json`, whole or not at all (``SafeFile``).
///
/// Which version: the one a person accepted if there is one; otherwise the latest machine version if it is valid
/// (its `review` field says whether it still waits for a person). Rejected documents, documents whose result
/// breaks its schema, and documents without a result (failed, quarantined, pending) are skipped and counted.
public struct Exporter: Sendable {
    public let store: any CheckpointStore
    /// Scales every recipe when set (`larder export --servings N`); the original amounts stay beside.
    public var scaler: RecipeScaler?

    public init(store: any CheckpointStore, scaler: RecipeScaler? = nil) {
        self.store = store
        self.scaler = scaler
    }

    public struct Report: Codable, Sendable, Equatable {
        public var written: Int
        /// Results that break their schema: fix them with `larder review edit`.
        public var invalid: Int
        /// Each of them, with its first violation: `larder export` names them and exits 1.
        public var invalidResults: [Invalid] = []
        public var rejected: Int
        /// Documents without a result: failed, quarantined or still pending.
        public var withoutResult: Int
        public var directory: String
    }

    /// A document whose result breaks its schema, so it was not exported.
    public struct Invalid: Codable, Sendable, Equatable, CustomStringConvertible {
        public var documentID: Int64
        public var path: String
        public var violation: String

        public var description: String {
            "not exported: \(LarderError.displayPath(path)) (doc \(documentID)): its result breaks result.schema.json: "
                + "\(LarderError.displayPath(violation)) — fix it with `larder review edit \(documentID)`"
        }
    }

    public func export(to directory: String) throws -> Report {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw LarderError(.configuration, "cannot create the export folder", hint: "check --out", path: directory)
        }
        var report = Report(written: 0, invalid: 0, rejected: 0, withoutResult: 0, directory: directory)
        var names = SafeFile.UniqueNames(in: directory)
        for state in DocumentState.allCases {
            try store.forEachDocument(in: state) { document in
                switch try exportable(document.id) {
                case .none: report.withoutResult += 1
                case .invalid(let version):
                    report.invalid += 1
                    report.invalidResults.append(
                        Invalid(documentID: document.id, path: document.path, violation: version.violations.first?.description ?? "?"))
                case .rejected: report.rejected += 1
                case .version(let version):
                    // A name that is not UTF-8 or holds control characters gets `_` for those; a long one is cut
                    // to the file system's 255 bytes; a leading dot becomes `_` (SafeFile.fileName).
                    let stem = URL(fileURLWithPath: document.path).deletingPathExtension().lastPathComponent
                    let file = directory + "/" + names.claim(stem: stem, suffix: ".\(document.sha256.prefix(12)).json")
                    try SafeFile.write(try exported(version, of: document.id, options: .prettyPrinted), to: file)
                    report.written += 1
                }
            }
        }
        return report
    }

    /// A result's JSON with its recipes scaled; recipes that state no servings are kept as written, with a warning.
    public static func scaled(_ json: String, by scaler: RecipeScaler) throws -> String {
        var result = try JSONDecoder().decode(DocumentResult.self, from: Data(json.utf8))
        for r in result.recipes.indices {
            do { result.recipes[r] = try scaler.scale(result.recipes[r]) } catch let failure as RecipeScaler.Failure {
                result.warnings.append("not scaled: \(failure)")
            }
        }
        return String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
    }

    /// The stage versions a document's result was made with, in pipeline order (`detect@3+extract@4+…`): what an
    /// exported result carries as `pipelineVersion`.
    public func pipelineVersion(of documentID: Int64) throws -> String {
        Self.pipelineVersion(try store.stageVersions(of: documentID))
    }

    /// The pipeline version of a document whose stages ran at `runs` (in the order they were first run).
    package static func pipelineVersion(_ runs: [(stage: String, version: String?)]) -> String {
        let sorted = runs.enumerated()
            .sorted { (order[$0.element.stage] ?? .max, $0.offset) < (order[$1.element.stage] ?? .max, $1.offset) }
        return sorted.compactMap(\.element.version).joined(separator: "+")
    }

    private static let order = Dictionary(
        uniqueKeysWithValues: PipelineManifest.standardStageNames.enumerated().map { ($1, $0) })

    /// The bytes `export` writes for a stored result (``stamped(_:pipelineVersion:)``, pretty-printed): the in-memory
    /// runner (``DocumentRun``) decodes its results from these too, so an evaluation scores exactly the export.
    public static func exported(
        _ json: String, pipelineVersion: String, options: JSONSerialization.WritingOptions = .prettyPrinted
    ) throws -> Data {
        if options.isSubset(of: .prettyPrinted), let fast = fastExported(json, pipelineVersion: pipelineVersion, options: options) {
            return fast
        }
        return try foundationExported(json, pipelineVersion: pipelineVersion, options: options)
    }

    /// ``exported(_:pipelineVersion:options:)`` as `JSONSerialization` writes it: the reference ``ExportJSON`` is
    /// tested against, and what a result it cannot be sure of is written with.
    static func foundationExported(
        _ json: String, pipelineVersion: String, options: JSONSerialization.WritingOptions
    ) throws -> Data {
        try JSONSerialization.data(
            withJSONObject: try stamped(json, pipelineVersion: pipelineVersion),
            options: options.union([.sortedKeys, .withoutEscapingSlashes]))
    }

    /// The same bytes as ``foundationExported(_:pipelineVersion:options:)`` at a fraction of the cost, or `nil`
    /// where only Foundation is sure to write them (``ExportJSON``): text LarderJSON does not read, a top-level
    /// value that is not an object, a negative zero written with a point or exponent (Foundation keeps its sign,
    /// ``JSONNumber`` does not).
    static func fastExported(_ json: String, pipelineVersion: String, options: JSONSerialization.WritingOptions) -> Data? {
        guard !mayHoldNegativeZeroDouble(json),  case .object(var object)? = try? JSONValue(parsing: json) else { return nil }
        if object["schemaVersion"] == nil { object["schemaVersion"] = .int(DocumentResult.currentSchemaVersion) }
        object["pipelineVersion"] = .string(pipelineVersion)
        return ExportJSON.data(object, pretty: options.contains(.prettyPrinted))
    }

    /// A stored result as it leaves Larder: with the contract's version (results stored before it was versioned
    /// lack it) and the pipeline version that made it.
    static func stamped(_ json: String, pipelineVersion: String) throws -> [String: Any] {
        guard var object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            throw LarderError(.transient, "a stored result is not a JSON object", hint: "run `larder resume` to remake it")
        }
        object["schemaVersion"] = object["schemaVersion"] ?? DocumentResult.currentSchemaVersion
        object["pipelineVersion"] = pipelineVersion
        return object
    }

    /// The result `export` would write for a document, or `nil` (none, invalid or rejected).
    public func exportableResult(_ documentID: Int64) throws -> DocumentResult? {
        guard case .version(let version) = try exportable(documentID) else { return nil }
        var result = try JSONDecoder().decode(DocumentResult.self, from: Data(version.json.utf8))
        result.pipelineVersion = try pipelineVersion(of: documentID)
        return result
    }

    /// Whether `json` may hold `-0.0`, `-0e0` or the like (anywhere, strings too: it only sends a result to
    /// Foundation's writer). `-0` alone is read as the integer 0 by both.
    static func mayHoldNegativeZeroDouble(_ json: String) -> Bool {
        var utf8 = json.utf8.makeIterator()
        var previous: UInt8 = 0
        while let byte = utf8.next() {
            defer { previous = byte }
            guard previous == UInt8(ascii: "-"), byte == UInt8(ascii: "0") else { continue }
            var sawMore = false
            while let next = utf8.next() {
                if next == UInt8(ascii: "0") || next == UInt8(ascii: ".") { sawMore = true; continue }
                if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") { return true }
                if (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(next) { break }
                if sawMore { return true }
                break
            }
        }
        return false
    }

    /// A result as it leaves Larder (`export`, the API): scaled when asked, stamped with the contract's and the
    /// pipeline's versions, keys sorted.
    package func exported(
        _ version: ResultVersion, of documentID: Int64, options: JSONSerialization.WritingOptions = []
    ) throws -> Data {
        let json = try scaler.map { try Self.scaled(version.json, by: $0) } ?? version.json
        return try Self.exported(json, pipelineVersion: try pipelineVersion(of: documentID), options: options)
    }

    /// Which result of a document leaves Larder, or why none does.
    package enum Exportable {
        /// No machine result yet (pending, failed, quarantined).
        case none
        /// A person rejected the latest machine result.
        case rejected
        /// The latest machine result breaks its schema and nobody accepted a version.
        case invalid(ResultVersion)
        case version(ResultVersion)
    }

    package func exportable(_ documentID: Int64) throws -> Exportable {
        let versions = try store.resultVersions(of: documentID)
        guard let latest = versions.last(where: { $0.origin == .machine }) else { return .none }
        let state = try store.reviewState(of: documentID)
        if state.decision == .rejected && state.decidedVersion == latest.number { return .rejected }
        if let number = state.acceptedVersion, let accepted = versions.first(where: { $0.number == number }) {
            return .version(accepted)
        }
        return latest.isValid ? .version(latest) : .invalid(latest)
    }
}
