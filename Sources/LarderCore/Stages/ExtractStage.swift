import Foundation

/// Stage 2, `extract`: the document's text, page by page.
///
/// - PDF: per-page text and font-size runs through poppler-glib (``PDFFile``). Fails on encrypted, damaged,
///   truncated and page-less PDFs, and on PDFs over `limits.max_pdf_pages`. A PDF with no text at all is marked
///   `needsOCR` (a scan).
/// - Text, Markdown, HTML, JSON: decoded with the encoding `detect` found and normalised (line ends, NFC,
///   odd spaces, trailing blanks) into one page. HTML is reduced to its visible text.
/// - Images: no text yet (`needsOCR`); the OCR stage reads them.
public struct ExtractStage: Stage {
    public let name = "extract"
    public let version = "extract@2"

    public init() {}

    public func run(_ input: StageInput) throws -> StageOutput {
        let detected = try input.output(of: "detect", as: DetectOutput.self)
        let path = input.document.path
        switch detected.format {
        case .pdf:
            return try StageOutput(Self.extractPDF(path: path, maxPages: input.config.limits.maxPDFPages))
        case .png, .jpeg, .tiff:
            return try StageOutput(ExtractOutput(format: detected.format, pages: [], needsOCR: true))
        case .text, .markdown, .html, .json:
            let data = try DetectStage.readRegisteredBytes(of: input.document)
            guard let decoded = TextDecoding.decode(data) else {
                throw LarderError(.badInput, "the text can no longer be decoded", path: path)
            }
            var text = decoded.text
            if detected.format == .html { text = HTMLText.visibleText(of: text) }
            text = TextNormalizer.normalize(text)
            let page = PDFPageText(number: 1, width: 0, height: 0, text: text, spans: [])
            return try StageOutput(ExtractOutput(format: detected.format, pages: [page], needsOCR: false))
        }
    }

    static func extractPDF(path: String, maxPages: Int) throws -> ExtractOutput {
        if !Self.hasEndOfFileMarker(path: path) {
            throw LarderError(
                .badInput, "truncated PDF: the file ends before its end-of-file marker (%%EOF)",
                hint: "the download or copy was cut short; get the whole file again", path: path)
        }
        let pdf: PDFFile
        do {
            pdf = try PDFFile(path: path)
        } catch .encrypted {
            throw LarderError(
                .badInput, "encrypted PDF: it needs a password to open",
                hint: "save a copy without the password (e.g. `qpdf --decrypt --password=PW in.pdf out.pdf`) and ingest that",
                path: path)
        } catch .damaged(let message) {
            throw LarderError(
                .badInput, "damaged PDF: poppler could not open it (\(message))",
                hint: "re-export or re-download the file", path: path)
        }
        let count = pdf.pageCount
        if count == 0 {
            throw LarderError(
                .badInput, "the PDF has no pages", hint: "re-export it from the program that made it", path: path)
        }
        if count > maxPages {
            throw LarderError(
                .overLimit, "the PDF has \(count) pages, over the limit of \(maxPages)",
                hint: "split it, or raise limits.max_pdf_pages in pipeline.yml", path: path)
        }
        var pages: [PDFPageText] = []
        pages.reserveCapacity(count)
        for index in 0..<count {
            guard let page = pdf.page(index) else {
                throw LarderError(
                    .badInput, "poppler could not load this page", hint: "re-export the PDF", path: path,
                    page: index + 1)
            }
            pages.append(page)
        }
        let hasText = pages.contains { !$0.text.allSatisfy(\.isWhitespace) }
        return ExtractOutput(format: .pdf, pages: pages, needsOCR: !hasText)
    }

    /// A complete PDF ends with `%%EOF` (possibly followed by a little whitespace or padding).
    private static func hasEndOfFileMarker(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return true }  // poppler reports the error
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd() else { return true }
        let tail = min(size, 2048)
        try? handle.seek(toOffset: size - tail)
        guard let data = try? handle.read(upToCount: Int(tail)) else { return true }
        return data.range(of: Data("%%EOF".utf8)) != nil
    }
}

/// What `extract` found: one entry per page (one page for text formats).
public struct ExtractOutput: Codable, Sendable, Equatable {
    public var format: DocumentFormat
    public var pages: [PDFPageText]
    /// True for images and for PDFs without a text layer: only OCR can read them.
    public var needsOCR: Bool

    /// All pages' text, separated by form feeds.
    public var text: String { pages.map(\.text).joined(separator: "\u{0C}") }
}

/// Normalises decoded text so later stages see one form: `\n` line ends, NFC, plain spaces, no trailing blanks,
/// at most one empty line in a row.
public enum TextNormalizer {
    public static func normalize(_ text: String) -> String {
        var text = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        text = text.precomposedStringWithCanonicalMapping
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0xFEFF, 0x200B, 0x200C, 0x200D, 0x2060: continue  // BOM and zero-width characters
            case 0x00A0, 0x2007, 0x202F, 0x2000...0x200A: scalars.append(" ")
            default: scalars.append(scalar)
            }
        }
        var lines: [Substring] = []
        var blank = 0
        for line in String(scalars).split(separator: "\n", omittingEmptySubsequences: false) {
            var end = line.endIndex
            while end > line.startIndex, line[line.index(before: end)].isWhitespace { end = line.index(before: end) }
            let trimmed = line[line.startIndex..<end]
            if trimmed.isEmpty {
                blank += 1
                if blank > 1 { continue }
            } else {
                blank = 0
            }
            lines.append(trimmed)
        }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }
}

/// The visible text of an HTML page: scripts and styles dropped, block elements as line breaks, entities decoded.
enum HTMLText {
    private static let hidden = try! NSRegularExpression(
        pattern: "<(script|style|noscript|template)\\b[^>]*>.*?</\\1\\s*>|<!--.*?-->",
        options: [.caseInsensitive, .dotMatchesLineSeparators])
    private static let breaks = try! NSRegularExpression(
        pattern: "<(br|/p|/div|/li|/h[1-6]|/tr|/section|/article|/header|/footer|/ul|/ol)\\b[^>]*>",
        options: [.caseInsensitive])
    private static let items = try! NSRegularExpression(pattern: "<li\\b[^>]*>", options: [.caseInsensitive])
    private static let tags = try! NSRegularExpression(pattern: "<[^>]*>", options: [])
    private static let spaces = try! NSRegularExpression(pattern: "[ \\t]+", options: [])

    static func visibleText(of html: String) -> String {
        var text = replace(hidden, in: html, with: "")
        text = replace(breaks, in: text, with: "\n")
        text = replace(items, in: text, with: "\n- ")
        text = replace(tags, in: text, with: "")
        text = decodeEntities(text)
        text = replace(spaces, in: text, with: " ")
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
    }

    private static func replace(_ regex: NSRegularExpression, in text: String, with template: String) -> String {
        regex.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: template)
    }

    private static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "frac12": "½", "frac14": "¼",
        "frac34": "¾", "deg": "°", "ndash": "–", "mdash": "—", "hellip": "…", "rsquo": "’", "lsquo": "‘",
        "rdquo": "”", "ldquo": "“", "eacute": "é", "egrave": "è", "times": "×",
    ]

    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            result += rest[rest.startIndex..<amp]
            let after = rest[amp...].dropFirst()
            if let semi = after.prefix(12).firstIndex(of: ";") {
                let name = String(after[after.startIndex..<semi])
                var replacement: String?
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    replacement = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
                } else if name.hasPrefix("#") {
                    replacement = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
                } else {
                    replacement = named[name]
                }
                if let replacement {
                    result += replacement
                    rest = after[after.index(after: semi)...]
                    continue
                }
            }
            result += "&"
            rest = after
        }
        return result + rest
    }
}
