import Foundation
import LarderCore
import LarderFormats
import LarderJSON

/// Stage 1, `detect`: what the file is, by its content (never by its name), and how its text is encoded.
///
/// Input: the registered file. Output: ``DetectOutput``. Fails on empty files, unknown binary content, content
/// that contradicts a binary file name (HTML saved as `.pdf`), images over `limits.max_image_pixels`, and files
/// changed since they were registered.
public struct DetectStage: Stage {
    public static let declaration = StandardStage.detect.declaration()
    public let name = declaration.name
    public let version = declaration.version

    public init() {}

    public func run(_ input: StageInput) throws -> StageOutput {
        let path = input.document.path
        // Never opened as a document: closing a descriptor of the database drops SQLite's locks in this process.
        if Intake.isLarderFile(path, config: input.config) {
            throw LarderError(
                .badInput, "this is Larder's own checkpoint database (or its LLM cache, or one of their -wal/-shm/-journal files)",
                hint: "it is never read as a document; an older Larder registered it, `larder ingest` no longer does", path: path)
        }
        let data = try input.registeredBytes(read: Self.readRegisteredBytes)  // kept for `extract`
        var output = try Self.detect(data, fileName: path, maxParts: input.config.limits.maxRecipeParts)
        try TextLimits.check(data, format: output.format, limits: input.config.limits, path: path)
        if let pixels = output.pixelCount, pixels > input.config.limits.maxImagePixels {
            throw LarderError(
                .overLimit,
                "image is \(output.width!)×\(output.height!) = \(pixels) pixels, over the limit of \(input.config.limits.maxImagePixels)",
                hint: "scale the photo down, or raise limits.max_image_pixels in pipeline.yml", path: path)
        }
        output.byteCount = data.count
        return try StageOutput(output)
    }

    /// Reads the file and checks it is still the registered document.
    public static func readRegisteredBytes(of document: DocumentRecord) throws -> Data {
        let path = document.path
        let data: Data
        do {
            // Read, never mapped: a mapped file truncated by another program kills the process with SIGBUS.
            data = try FilePath.readAll(path)
        } catch {
            throw LarderError(
                .badInput, "the file can no longer be read (it was moved, deleted or made unreadable)",
                hint: "restore the file, or ingest it again from where it is now", path: path)
        }
        // The bytes read are hashed, whatever the file's size and time say: what the stage reads is exactly
        // the registered document, or it is reported as changed.
        if SHA256.hex(data) != document.sha256 {
            throw LarderError(
                .badInput, "the file changed since it was registered",
                hint: "ingest it again: its new content is a new document", path: path)
        }
        return data
    }

    /// Classifies bytes. `fileName` is only used to catch content that contradicts a binary file name.
    /// What `data` is; an app export's format is told from a JSON export without parsing one that lists more than
    /// `maxParts` recipe parts (``RecipeImport/textFormat(fileName:data:maxParts:)``).
    public static func detect(
        _ data: Data, fileName: String, maxParts: Int = PipelineConfig.Limits().maxRecipeParts
    ) throws -> DetectOutput {
        if data.isEmpty {
            throw LarderError(
                .badInput, "empty file (0 bytes)", hint: "re-export or re-download it; there is nothing to ingest",
                path: fileName)
        }
        let head = data.prefix(1024)
        let claimed = Self.binaryFormatClaimedByName(fileName)

        if let range = head.range(of: Data("%PDF-".utf8)), range.lowerBound - head.startIndex < 1024 {
            return DetectOutput(format: .pdf, mediaType: "application/pdf")
        }
        // Recipe-app exports: ZIP (Paprika, Nextcloud, Mealie, Tandoor, Chowdown…) or gzip.
        if data.starts(with: [0x50, 0x4B, 0x03, 0x04]) || data.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
            var output = DetectOutput(format: .archive, mediaType: "application/zip")
            output.appFormat = "zip"
            return output
        }
        if data.starts(with: [0x1F, 0x8B]) {
            var output = DetectOutput(format: .archive, mediaType: "application/gzip")
            output.appFormat = "gzip"
            return output
        }
        if let image = ImageHeader.read(data) {
            var output = DetectOutput(format: image.format, mediaType: image.format.mediaType)
            output.width = image.width
            output.height = image.height
            return output
        }
        guard let decoded = TextDecoding.decodePageHead(data) ?? TextDecoding.decode(data) else {
            let what = claimed.map { "named .\($0) but its content is not a \($0.uppercased()) file" }
                ?? "unrecognised binary content: not PDF, PNG, JPEG, TIFF or text"
            throw LarderError(
                .badInput, what,
                hint: "Larder reads PDF, PNG/JPEG/TIFF images, plain text, Markdown, HTML and JSON; "
                    + "check the file is what it should be", path: fileName)
        }
        let format = TextDecoding.classify(decoded.text, fileName: fileName)
        if let claimed {
            let hint =
                format == .html
                ? "it is a saved web page: print it to PDF from the browser, or rename it to .html"
                : "rename it to match its content, or replace it with the real .\(claimed) file"
            throw LarderError(
                .badInput, "named .\(claimed) but its content is \(format.description)", hint: hint,
                path: fileName)
        }
        var output = DetectOutput(format: format, mediaType: format.mediaType)
        output.encoding = decoded.encoding
        output.appFormat = RecipeImport.textFormat(fileName: fileName, data: data, maxParts: maxParts)?.rawValue
        if format == .html, let declared = TextDecoding.declaredCharset(decoded.text) {
            output.encoding = declared  // a page's own <meta charset> wins, as in a browser
        } else if decoded.encoding == "latin-1" {
            output.warnings.append(
                "not valid UTF-8; decoded as Latin-1 (Windows-1252): if characters look wrong, re-save the file as UTF-8")
        }
        return output
    }

    private static func binaryFormatClaimedByName(_ path: String) -> String? {
        let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
        return ["pdf", "png", "jpg", "jpeg", "tif", "tiff"].contains(ext) ? ext : nil
    }
}

/// What `detect` found.
public struct DetectOutput: Codable, Sendable, Equatable {
    public var format: DocumentFormat
    public var mediaType: String
    /// Text encoding, for text formats: `utf-8`, `utf-16le`, `utf-16be` or `latin-1`.
    public var encoding: String?
    /// A recipe app's export format, recognised by content: "zip" or "gzip" for archives (their members are
    /// recognised one by one), or "mealmaster", "mastercook-mxp", "mastercook-mx2", "cooklang", "csv".
    public var appFormat: String?
    /// Pixel size, for images.
    public var width: Int?
    public var height: Int?
    public var byteCount: Int = 0
    public var warnings: [String] = []

    public init(format: DocumentFormat, mediaType: String) {
        self.format = format
        self.mediaType = mediaType
    }

    var pixelCount: Int64? {
        guard let width, let height else { return nil }
        return Int64(width) * Int64(height)
    }
}

/// Text decoding: UTF-8 (BOM or not), UTF-16 with a BOM, and a Latin-1 fallback for text that is not UTF-8.
enum TextDecoding {
    struct Decoded {
        var text: String
        var encoding: String
    }

    /// Returns nil for binary content (NUL bytes or many control characters).
    static func decode(_ data: Data) -> Decoded? {
        let bytes = [UInt8](data.prefix(4))
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return String(data: data.dropFirst(3), encoding: .utf8).map { Decoded(text: $0, encoding: "utf-8") }
        }
        if bytes.starts(with: [0xFF, 0xFE]) {
            return String(data: data.dropFirst(2), encoding: .utf16LittleEndian).map {
                Decoded(text: $0, encoding: "utf-16le")
            }
        }
        if bytes.starts(with: [0xFE, 0xFF]) {
            return String(data: data.dropFirst(2), encoding: .utf16BigEndian).map {
                Decoded(text: $0, encoding: "utf-16be")
            }
        }
        if looksBinary(data) { return nil }
        if let text = String(validating: data, as: UTF8.self) { return Decoded(text: text, encoding: "utf-8") }
        // Windows-1252 is a superset of the printable Latin-1 range and is what "Latin-1" text usually is.
        if let text = String(data: data, encoding: .windowsCP1252) ?? String(data: data, encoding: .isoLatin1) {
            return Decoded(text: text, encoding: "latin-1")
        }
        return nil
    }

    /// How many bytes of a large UTF-8 page ``decodePageHead(_:)`` makes into text.
    static let headBytes = 16 * 1024

    /// What `detect` needs of a large saved page, without making its whole text: a page without a BOM that is not
    /// binary and is valid UTF-8 (``isValidUTF8(_:)``, the same answer as `String(validating:)`) is classified, and
    /// its charset read, from its first ``headBytes`` bytes as text. Both look only at the first 2,048 characters
    /// after leading whitespace and the first 4,096 characters, so the head gives the same answers as the whole text
    /// when it holds more than that; nil otherwise (and for a text that is not HTML), and ``decode(_:)`` decides.
    /// (`String(validating:)` over a 300 KB page cost more than 3 M instructions.)
    static func decodePageHead(_ data: Data) -> Decoded? {
        guard data.count > headBytes, let first = data.first, first < 0x80, !looksBinary(data), isValidUTF8(data) else {
            return nil
        }
        var cut = data.startIndex + headBytes
        while cut > data.startIndex, data[cut] & 0xC0 == 0x80 { cut -= 1 }  // not inside a character's bytes
        let head = String(decoding: data[data.startIndex..<cut], as: UTF8.self)
        let trimmed = head.drop { $0.isWhitespace }
        // One character more than each look needs: the last character of a cut text may be cut short.
        guard head.index(head.startIndex, offsetBy: 4097, limitedBy: head.endIndex) != nil,
            trimmed.index(trimmed.startIndex, offsetBy: 2049, limitedBy: trimmed.endIndex) != nil,
            classify(head, fileName: "") == .html
        else { return nil }
        return Decoded(text: head, encoding: "utf-8")
    }

    /// Whether `data` is well-formed UTF-8 (Unicode's table 3-7: no overlong forms, no surrogates, nothing past
    /// U+10FFFF), eight ASCII bytes at a time.
    static func isValidUTF8(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            let n = raw.count
            guard let base = raw.baseAddress else { return true }
            let p = base.assumingMemoryBound(to: UInt8.self)
            func continues(_ k: Int) -> Bool { k < n && p[k] & 0xC0 == 0x80 }
            func within(_ k: Int, _ range: ClosedRange<UInt8>) -> Bool { k < n && range.contains(p[k]) }
            var i = 0
            while i < n {
                if i + 8 <= n, base.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    i += 8
                    continue
                }
                let valid: Bool
                var length = 1
                switch p[i] {
                case 0x00...0x7F: valid = true
                case 0xC2...0xDF: (valid, length) = (continues(i + 1), 2)
                case 0xE0: (valid, length) = (within(i + 1, 0xA0...0xBF) && continues(i + 2), 3)
                case 0xE1...0xEC, 0xEE...0xEF: (valid, length) = (continues(i + 1) && continues(i + 2), 3)
                case 0xED: (valid, length) = (within(i + 1, 0x80...0x9F) && continues(i + 2), 3)
                case 0xF0: (valid, length) = (within(i + 1, 0x90...0xBF) && continues(i + 2) && continues(i + 3), 4)
                case 0xF1...0xF3: (valid, length) = (continues(i + 1) && continues(i + 2) && continues(i + 3), 4)
                case 0xF4: (valid, length) = (within(i + 1, 0x80...0x8F) && continues(i + 2) && continues(i + 3), 4)
                default: valid = false
                }
                guard valid else { return false }
                i += length
            }
            return true
        }
    }

    /// More than 1 in 100 control characters other than tab, CR, LF and form feed (NUL counted among them), or NUL
    /// bytes in what is not valid UTF-8. A few NUL bytes in valid UTF-8 (a saved page with a stray one) are text.
    private static func looksBinary(_ data: Data) -> Bool {
        let sample = data.prefix(64 * 1024)
        var controls = 0
        var nul = false
        sample.withUnsafeBytes { raw in  // over the buffer: Data's own iterator costs more than the test
            for byte in raw where byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D && byte != 0x0C {
                controls += 1
                if byte == 0 { nul = true }
            }
        }
        if controls * 100 > sample.count { return true }
        return nul && String(validating: data, as: UTF8.self) == nil
    }

    /// An HTML page's declared charset (`<meta charset="…">` or `http-equiv` `charset=…`) in its first 4 KB,
    /// lower case, or `nil`.
    static func declaredCharset(_ text: String) -> String? {
        let head = text.prefix(4096).lowercased()
        guard let range = head.range(of: "charset=") else { return nil }
        let name = head[range.upperBound...].drop { $0 == "\"" || $0 == "'" || $0 == " " }
            .prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ":" || $0 == "." }
        return name.isEmpty ? nil : String(name)
    }

    static func classify(_ text: String, fileName: String) -> DocumentFormat {
        let trimmed = text.drop { $0.isWhitespace }
        let start = trimmed.prefix(2048).lowercased()
        if start.hasPrefix("<!doctype html") || start.hasPrefix("<html") || start.contains("<html")
            || start.contains("<body") || start.contains("<head>") || start.contains("<head ")
            || start.contains("<meta charset")
        {
            return .html
        }
        // A page saved as MHTML ("Webpage, single file"): a MIME message holding the HTML (LarderPages reads it).
        if start.contains("mime-version:"), start.contains("multipart/related") || start.contains("content-type: text/html") {
            return .html
        }
        if start.hasPrefix("{") || start.hasPrefix("[") {
            // LarderJSON's parser, not JSONSerialization: Foundation's objects took a worker past 1 GiB on a 15 MB
            // file of small objects (a Mealie recipe.json of 340,000 ingredients).
            if (try? JSONValue(parsing: Data(text.utf8))) != nil { return .json }
        }
        let ext = URL(fileURLWithPath: fileName).pathExtension.lowercased()
        if ["md", "markdown"].contains(ext) || start.hasPrefix("---\n") || start.hasPrefix("# ") { return .markdown }
        if text.split(separator: "\n", omittingEmptySubsequences: false).prefix(200).contains(where: {
            $0.hasPrefix("## ") || $0.hasPrefix("# ")
        }) {
            return .markdown
        }
        return .text
    }
}

/// Reads image dimensions from PNG, JPEG and TIFF headers without decoding the image.
enum ImageHeader {
    struct Info {
        var format: DocumentFormat
        var width: Int
        var height: Int
    }

    static func read(_ data: Data) -> Info? {
        let b = [UInt8](data.prefix(64 * 1024))
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            guard b.count >= 24 else { return Info(format: .png, width: 0, height: 0) }
            return Info(format: .png, width: be32(b, 16), height: be32(b, 20))
        }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) {
            var i = 2
            while i + 9 < b.count {
                guard b[i] == 0xFF else { i += 1; continue }
                let marker = b[i + 1]
                if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) || marker == 0xFF {
                    i += 1
                    continue
                }
                let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
                if (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC {
                    return Info(format: .jpeg, width: Int(b[i + 7]) << 8 | Int(b[i + 8]), height: Int(b[i + 5]) << 8 | Int(b[i + 6]))
                }
                i += 2 + length
            }
            return Info(format: .jpeg, width: 0, height: 0)
        }
        let little = b.starts(with: [0x49, 0x49, 0x2A, 0x00])
        if little || b.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            func u16(_ o: Int) -> Int { o + 1 < b.count ? (little ? Int(b[o]) | Int(b[o + 1]) << 8 : Int(b[o]) << 8 | Int(b[o + 1])) : 0 }
            func u32(_ o: Int) -> Int { little ? u16(o) | u16(o + 2) << 16 : u16(o) << 16 | u16(o + 2) }
            var width = 0
            var height = 0
            let ifd = u32(4)
            let entries = u16(ifd)
            for e in 0..<min(entries, 200) {
                let o = ifd + 2 + e * 12
                guard o + 12 <= b.count else { break }
                let tag = u16(o)
                let type = u16(o + 2)
                let value = type == 3 ? u16(o + 8) : u32(o + 8)
                if tag == 256 { width = value }
                if tag == 257 { height = value }
            }
            return Info(format: .tiff, width: width, height: height)
        }
        return nil
    }

    private static func be32(_ b: [UInt8], _ o: Int) -> Int {
        Int(b[o]) << 24 | Int(b[o + 1]) << 16 | Int(b[o + 2]) << 8 | Int(b[o + 3])
    }
}
