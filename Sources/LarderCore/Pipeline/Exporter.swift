import Foundation
import LarderRecipes

/// Writes each document's result to a folder as `<name>.<sha256 prefix>.json`, atomically.
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
        public var rejected: Int
        /// Documents without a result: failed, quarantined or still pending.
        public var withoutResult: Int
        public var directory: String
    }

    public func export(to directory: String) throws -> Report {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw LarderError(.configuration, "cannot create the export folder", hint: "check --out", path: directory)
        }
        var report = Report(written: 0, invalid: 0, rejected: 0, withoutResult: 0, directory: directory)
        for state in DocumentState.allCases {
            try store.forEachDocument(in: state) { document in
                switch try exportable(document.id) {
                case .none: report.withoutResult += 1
                case .invalid: report.invalid += 1
                case .rejected: report.rejected += 1
                case .version(let version):
                    let stem = URL(fileURLWithPath: document.path).deletingPathExtension().lastPathComponent
                    let file = "\(directory)/\(stem).\(document.sha256.prefix(12)).json"
                    let json = try scaler.map { try Self.scaled(version.json, by: $0) } ?? version.json
                    let pretty = try JSONSerialization.data(
                        withJSONObject: try JSONSerialization.jsonObject(with: Data(json.utf8)),
                        options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
                    do {
                        try pretty.write(to: URL(fileURLWithPath: file), options: .atomic)
                    } catch {
                        throw LarderError(.configuration, "cannot write the export file", hint: "check --out", path: file)
                    }
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

    /// The result `export` would write for a document, or `nil` (none, invalid or rejected).
    public func exportableResult(_ documentID: Int64) throws -> DocumentResult? {
        guard case .version(let version) = try exportable(documentID) else { return nil }
        return try JSONDecoder().decode(DocumentResult.self, from: Data(version.json.utf8))
    }

    enum Exportable {
        case none, invalid, rejected
        case version(ResultVersion)
    }

    func exportable(_ documentID: Int64) throws -> Exportable {
        let versions = try store.resultVersions(of: documentID)
        guard let latest = versions.last(where: { $0.origin == .machine }) else { return .none }
        let state = try store.reviewState(of: documentID)
        if state.decision == .rejected && state.decidedVersion == latest.number { return .rejected }
        if let number = state.acceptedVersion, let accepted = versions.first(where: { $0.number == number }) {
            return .version(accepted)
        }
        return latest.isValid ? .version(latest) : .invalid
    }
}
