import Foundation
import Yams

/// Reads `pipeline.yml`. Every key is listed here with its meaning; an unknown key or a bad value is an error
/// that names the key and its line.
///
/// ```yaml
/// database: larder.sqlite     # checkpoint database, relative to this file's folder
/// workers: 0                  # documents processed at once; 0 = one per core
/// max_attempts: 3             # attempts per stage before a document is quarantined
/// progress_interval_seconds: 10   # progress line period when output is not a terminal
/// limits:
///   max_file_bytes: 104857600 # larger files are not registered
///   max_pdf_pages: 500        # longer PDFs fail at extract
///   max_image_pixels: 40000000  # larger images fail at detect
/// ```
extension PipelineConfig {
    /// Loads the file at `path`. Relative paths inside it are resolved against its folder.
    public static func load(path: String) throws -> PipelineConfig {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw LarderError(
                .configuration, "cannot read the configuration file", hint: "check the path given to --config",
                path: path)
        }
        var config = try parse(yaml: text, path: path)
        if !config.database.hasPrefix("/") {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            config.database = folder + "/" + config.database
        }
        return config
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
        for (key, value) in try reader.mapping(root, at: "top level") {
            switch key.string ?? "" {
            case "database": config.database = try reader.string(value, key: "database")
            case "workers": config.workers = try reader.int(value, key: "workers", range: 0...256)
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
                    default: throw reader.unknownKey(limitKey, in: "limits")
                    }
                }
            default: throw reader.unknownKey(key, in: "the top level")
            }
        }
        return config
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
            hint: "see the keys documented in pipeline.yml and the README", path: path, line: line(key))
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

    func double(_ node: Node, key: String, range: ClosedRange<Double>) throws -> Double {
        guard node.scalar != nil, let value = node.float, range.contains(value) else {
            throw badValue(
                node, key: key, expected: "a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}
