import Foundation

/// An error with the context a person needs to act on it: which file or document, which stage and page,
/// what went wrong, and what to do about it.
///
/// Errors are values, never strings: the store keeps them as JSON (``LarderError/Record``), `larder status`
/// prints them, and the CLI maps ``Kind`` to an exit code. Messages never contain secrets.
public struct LarderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is. It decides whether retrying can help.
    /// Kebab-case, as every code Larder writes (review reasons, `LLMError`, `ReceiptError`).
    public enum Kind: String, Sendable, Codable {
        /// The input itself is bad (empty, truncated, encrypted, unknown format...). Retrying cannot help.
        case badInput = "bad-input"
        /// The input is over a limit in `pipeline.yml`. Retrying cannot help unless the limit is raised.
        case overLimit = "over-limit"
        /// A path given on the command line cannot be read (missing, unreadable, a symlink loop).
        case unreadable
        /// `pipeline.yml` or a command-line option is wrong.
        case configuration
        /// The checkpoint database failed.
        case database
        /// Something that may succeed on another attempt (I/O hiccup, a native library error).
        case transient
        /// An outside service (an LLM provider) still failed after its own retries and every fallback; the
        /// document fails at once (retrying the stage at once would repeat them) — `larder retry` tries again later.
        case service
        /// The process died while this stage ran on this document, more than `max_attempts` times.
        case crashed
        /// The batch was interrupted (SIGINT/SIGTERM).
        case interrupted

        /// Reads the snake_case spelling (`bad_input`) of errors stored before the codes were unified too.
        public init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let kind = Self(rawValue: text.replacingOccurrences(of: "_", with: "-")) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "unknown error kind '\(text)'"))
            }
            self = kind
        }
    }

    public var kind: Kind
    /// What went wrong, in one sentence.
    public var message: String
    /// What the user can do about it.
    public var hint: String?
    /// The file the error is about, if any.
    public var path: String?
    /// The document id, if the file was registered.
    public var documentID: Int64?
    /// The stage that failed, if any.
    public var stage: String?
    /// The 1-based page, if the error is about one page.
    public var page: Int?
    /// The 1-based line in a text file (e.g. `pipeline.yml`), if any.
    public var line: Int?

    public init(
        _ kind: Kind, _ message: String, hint: String? = nil, path: String? = nil, documentID: Int64? = nil,
        stage: String? = nil, page: Int? = nil, line: Int? = nil
    ) {
        self.kind = kind
        self.message = message
        self.hint = hint
        self.path = path
        self.documentID = documentID
        self.stage = stage
        self.page = page
        self.line = line
    }

    /// Whether another attempt at the same stage might succeed.
    public var isRetryable: Bool { kind == .transient }

    /// `path:line: stage: message (page N). hint`
    public var description: String {
        var where_: [String] = []
        if let path {
            let shown = Self.displayPath(path)
            where_.append(line.map { "\(shown):\($0)" } ?? shown)
        }
        if let documentID { where_.append("doc \(documentID)") }
        if let stage { where_.append(stage) }
        if let page { where_.append("page \(page)") }
        var text = where_.isEmpty ? message : "\(where_.joined(separator: ": ")): \(message)"
        if let hint { text += " — \(hint)" }
        return text
    }

    /// Returns a copy with the missing context filled in (what is already set wins).
    public func adding(path: String? = nil, documentID: Int64? = nil, stage: String? = nil) -> LarderError {
        var copy = self
        copy.path = copy.path ?? path
        copy.documentID = copy.documentID ?? documentID
        copy.stage = copy.stage ?? stage
        return copy
    }

    /// The JSON form kept in the store and printed by `--json`.
    public struct Record: Codable, Sendable, Equatable {
        public var kind: Kind
        public var message: String
        public var hint: String?
        public var path: String?
        public var stage: String?
        public var page: Int?
        public var line: Int?
    }

    public var record: Record {
        Record(kind: kind, message: message, hint: hint, path: path, stage: stage, page: page, line: line)
    }

    public init(record: Record, documentID: Int64? = nil) {
        self.init(
            record.kind, record.message, hint: record.hint, path: record.path, documentID: documentID,
            stage: record.stage, page: record.page, line: record.line)
    }
}

extension LarderError {
    /// Wraps any error thrown by a stage or the store so it carries context; a ``LarderError`` keeps its kind.
    public static func wrap(_ error: any Error, kind: Kind = .transient, path: String? = nil) -> LarderError {
        if let error = error as? LarderError { return error.adding(path: path) }
        // Never Foundation's own sentence ("The operation could not be completed…"): say what failed in
        // Larder's words and keep the library's code for a bug report.
        if error is EncodingError {
            // Retrying cannot help: the same input gives the same unencodable value.
            return LarderError(
                .badInput, "the stage's output cannot be stored as JSON (a number from the file is infinite or not a number)",
                hint: "the file holds values out of range: re-export it from the program that made it", path: path)
        }
        if let error = error as? CocoaError {
            return LarderError(
                kind, "a file operation failed (Foundation error \(error.code.rawValue))",
                hint: "check that the file exists, can be read and the disk is not full", path: path)
        }
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain {
            return LarderError(
                kind, "a system call failed: \(String(cString: strerror(Int32(nsError.code))))",
                hint: "check the file and the disk", path: path)
        }
        return LarderError(kind, String(describing: error), path: path)
    }
}

extension LarderError {
    /// A path (or any text from outside) as printed on one line: control characters (a newline, an escape
    /// sequence) are shown escaped (`\n`, `\x1B`), so a file name can neither break a summary line nor forge
    /// one; bytes that are not UTF-8 are shown as `\xNN` (see ``FilePath``).
    public static func displayPath(_ path: String) -> String {
        var out = ""
        for scalar in path.unicodeScalars {
            if let byte = FilePath.rawByte(scalar) {
                out += String(format: "\\x%02X", byte)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
                    || scalar.value == 0x2029
                {
                    out += String(format: "\\x%02X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
