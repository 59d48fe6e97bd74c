import Foundation
import LarderCore

/// Uploaded documents: checked for a type Larder reads, stored once by SHA-256 and registered in the store.
///
/// Nothing from a request reaches a file path: the file is `<uploads>/<sha256>` plus, when the client's file name
/// ends in an extension Larder knows, that extension taken from a fixed list (the `detect` stage tells a few text
/// formats apart by it). The client's name itself is only echoed back.
struct UploadStore: Sendable {
    let directory: String
    let store: any ServiceStore
    let stages: [String]
    let batchID: Int64

    /// Extensions kept on stored uploads; any other name is stored without one.
    static let knownExtensions: Set<String> = [
        "pdf", "png", "jpg", "jpeg", "tif", "tiff", "txt", "text", "md", "markdown", "html", "htm", "xhtml", "mhtml",
        "mht", "json", "zip", "gz", "mmf", "mm", "mxp", "mx2", "cook", "csv", "paprikarecipes", "paprikarecipe",
        "yml", "yaml",
    ]

    /// What registering an upload did.
    struct Outcome: Codable, Sendable {
        var id: Int64
        var sha256: String
        var duplicate: Bool
        var fileName: String?
        var byteCount: Int
        var state: DocumentState
    }

    /// The extension to keep for a client's file name, or nil.
    static func storedExtension(for fileName: String?) -> String? {
        guard let fileName, let dot = fileName.lastIndex(of: ".") else { return nil }
        let ext = fileName[fileName.index(after: dot)...].lowercased()
        return knownExtensions.first { $0 == ext }  // the list's own string, never the client's
    }

    /// Stores and registers the bytes; the same bytes again are reported as a duplicate of the first.
    func accept(_ data: Data, fileName: String?) throws -> Outcome {
        if data.isEmpty { throw APIError(.badRequest, "the upload is empty", hint: "send the file's bytes as the body") }
        guard Self.sniff(data) != nil else {
            throw APIError(
                .unsupportedMediaType, "Larder does not read this kind of file",
                hint: "upload PDF, PNG/JPEG/TIFF photos, plain text, Markdown, HTML, JSON or a recipe app's export")
        }
        let sha = SHA256.hex(data)
        let path = try write(data, sha256: sha, extension: Self.storedExtension(for: fileName))
        let file = RegisteredFile(
            path: path, sha256: sha, byteCount: Int64(data.count), modifiedAt: FileIdentity(statingFileAt: path)?.modifiedAt ?? 0)
        // A store that keeps the bytes (PostgreSQL): stored before registering, so a worker on another host reads
        // them from the database, not from this host's uploads folder.
        if let bytesStore = store as? any DocumentBytesStore, try !bytesStore.missingBytes([sha]).isEmpty {
            try bytesStore.storeBytes([UInt8](data), sha256: sha)
        }
        guard let registration = try store.register([file], batchID: batchID, stages: stages).first else {
            throw APIError(.internalError, "the upload was not registered")
        }
        let state = try store.document(id: registration.documentID)?.state ?? .pending
        let duplicate: Bool
        switch registration {
        case .new: duplicate = false
        case .known, .duplicate: duplicate = true
        }
        return Outcome(
            id: registration.documentID, sha256: sha, duplicate: duplicate, fileName: fileName, byteCount: data.count,
            state: state)
    }

    /// Writes the bytes under their hash through ``SafeFile`` (whole or not at all, never through a planted link),
    /// unless a file there already holds exactly these bytes.
    private func write(_ data: Data, sha256: String, extension ext: String?) throws -> String {
        let path = directory + "/" + sha256 + (ext.map { "." + $0 } ?? "")
        if Self.holds(path, sha256: sha256, byteCount: data.count) { return path }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw LarderError(.transient, "cannot create the uploads folder", hint: "check the disk and its permissions", path: directory)
        }
        try SafeFile.write(data, to: path, what: "the upload")
        return path
    }

    /// Whether `path` is a regular file (not a link) of `byteCount` bytes whose SHA-256 is `sha256`: only then is a
    /// file already there trusted as the upload.
    static func holds(_ path: String, sha256: String, byteCount: Int) -> Bool {
        contents(path, sha256: sha256, byteCount: byteCount) != nil
    }

    /// The bytes of `path` when it is a regular file (not a link) of `byteCount` bytes whose SHA-256 is `sha256`.
    static func contents(_ path: String, sha256: String, byteCount: Int) -> Data? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) == byteCount,
            let existing = FileManager.default.contents(atPath: path), SHA256.hex(existing) == sha256
        else { return nil }
        return existing
    }

    /// What the bytes are, by content, as far as the server can tell without the pipeline's libraries: nil for
    /// binary content Larder does not read (the `detect` stage looks again, more closely).
    static func sniff(_ data: Data) -> DocumentFormat? {
        let head = [UInt8](data.prefix(1024))
        if let range = Data(head).range(of: Data("%PDF-".utf8)), range.lowerBound < 1024 { return .pdf }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06]) { return .archive }
        if head.starts(with: [0x1F, 0x8B]) { return .archive }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .png }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) { return .text }
        // Text: no NUL byte and at most 1 in 100 control characters, as `detect` decides.
        let sample = data.prefix(64 * 1024)
        var controls = 0
        for byte in sample {
            if byte == 0 { return nil }
            if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D && byte != 0x0C { controls += 1 }
        }
        return controls * 100 > sample.count ? nil : .text
    }
}

/// One file part of a `multipart/form-data` body (RFC 7578): the first part with a file name, else the first part.
enum Multipart {
    struct Part {
        var fileName: String?
        var data: Data
    }

    /// The boundary of a `multipart/form-data; boundary=…` content type.
    static func boundary(from contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.trimmingCharacters(in: .whitespaces)
            guard pair.lowercased().hasPrefix("boundary=") else { continue }
            var value = String(pair.dropFirst("boundary=".count))
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return (1...70).contains(value.utf8.count) ? value : nil
        }
        return nil
    }

    static func filePart(_ body: Data, boundary: String) throws -> Part {
        let delimiter = Data(("--" + boundary).utf8)
        let bad = APIError(.badRequest, "the multipart body is malformed", hint: "send one file part, as a browser form does")
        var parts: [Part] = []
        var cursor = body.startIndex
        guard let first = body.range(of: delimiter, in: cursor..<body.endIndex) else { throw bad }
        cursor = first.upperBound
        while cursor < body.endIndex {
            if body[cursor...].starts(with: Data("--".utf8)) { break }  // the closing delimiter
            guard let headerEnd = body.range(of: Data("\r\n\r\n".utf8), in: cursor..<body.endIndex) else { throw bad }
            let headers = String(decoding: body[cursor..<headerEnd.lowerBound], as: UTF8.self)
            guard let next = body.range(of: Data("\r\n".utf8) + delimiter, in: headerEnd.upperBound..<body.endIndex)
            else { throw bad }
            parts.append(Part(fileName: fileName(inHeaders: headers), data: body[headerEnd.upperBound..<next.lowerBound]))
            cursor = next.upperBound
            if parts.count > 16 { throw bad }
        }
        guard let part = parts.first(where: { $0.fileName != nil }) ?? parts.first else { throw bad }
        return part
    }

    /// `filename="…"` of a part's Content-Disposition.
    static func fileName(inHeaders headers: String) -> String? {
        for line in headers.split(whereSeparator: \.isNewline)
        where line.lowercased().hasPrefix("content-disposition:") {
            guard let range = line.range(of: "filename=\"") else { continue }
            let rest = line[range.upperBound...]
            return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }
        return nil
    }
}
