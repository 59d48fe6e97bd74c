import Foundation

/// Writes each finished document's final JSON to a folder: `<name>.<sha256 prefix>.json`, holding the document's
/// identity and every stage's output. Files are written atomically; documents not done are skipped and counted.
public struct Exporter: Sendable {
    public let store: any CheckpointStore
    public let pipeline: Pipeline

    public init(store: any CheckpointStore, pipeline: Pipeline) {
        self.store = store
        self.pipeline = pipeline
    }

    public struct Report: Codable, Sendable, Equatable {
        public var written: Int
        /// Documents not exported because they are failed, quarantined or still pending.
        public var skipped: Int
        public var directory: String
    }

    public func export(to directory: String) throws -> Report {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw LarderError(.configuration, "cannot create the export folder", hint: "check --out", path: directory)
        }
        var written = 0
        try store.forEachDocument(in: .done) { document in
            let json = try finalJSON(of: document)
            let stem = URL(fileURLWithPath: document.path).deletingPathExtension().lastPathComponent
            let file = "\(directory)/\(stem).\(document.sha256.prefix(12)).json"
            do {
                try json.write(to: URL(fileURLWithPath: file), options: .atomic)
            } catch {
                throw LarderError(.configuration, "cannot write the export file", hint: "check --out", path: file)
            }
            written += 1
        }
        let counts = try store.documentCounts()
        let skipped = counts.filter { $0.key != .done }.map(\.value).reduce(0, +)
        return Report(written: written, skipped: skipped, directory: directory)
    }

    /// `{"document": {...}, "<stage>": <output>, ...}` with sorted keys.
    public func finalJSON(of document: DocumentRecord) throws -> Data {
        var object: [String: Any] = [
            "document": [
                "id": document.id, "sha256": document.sha256, "path": document.path,
                "paths": try store.paths(of: document.id), "byteCount": document.byteCount,
            ] as [String: Any]
        ]
        let rows = try store.stages(of: document.id)
        for stage in pipeline.stageNames {
            if let output = rows.first(where: { $0.stage == stage })?.output {
                object[stage] = try JSONSerialization.jsonObject(with: Data(output.utf8))
            }
        }
        return try JSONSerialization.data(
            withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }
}
