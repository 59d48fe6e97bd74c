import Foundation

// MARK: - Input

/// One line of extracted document text, in reading order.
public struct SourceLine: Sendable, Equatable {
    /// The 1-based page the line is on (1 for text and Markdown files).
    public var page: Int
    /// The 1-based line number within the page.
    public var number: Int
    /// The line's text, without the line terminator.
    public var text: String
    /// PDF only: the line's largest font size in points; `nil` for other formats.
    public var fontSize: Double?
    /// `true` when the whole line is set in bold (PDF), otherwise `false`.
    public var bold: Bool
    /// PDF only: where the page's layout puts the line, when it matters to a reader of recipes — `.box` (a block
    /// beside the main text, such as an ingredient box), `.header` (running header), `.pageNumber`, `.footer`,
    /// `.footnote`, `.tableRecord` (a record of an ingredient table rebuilt from its cells); `nil` for the main text
    /// and other formats.
    public var region: Region?

    /// Where on the page a line sits (see ``region``).
    public enum Region: String, Sendable, Equatable {
        case box, header, pageNumber, footer, footnote, tableRecord
    }

    /// Creates a source line.
    public init(page: Int, number: Int, text: String, fontSize: Double? = nil, bold: Bool = false, region: Region? = nil) {
        self.page = page
        self.number = number
        self.text = text
        self.fontSize = fontSize
        self.bold = bold
        self.region = region
    }
}

/// One document to parse for recipes.
public struct RecipeSource: Sendable {
    /// The file path (or name) the document came from.
    public var file: String
    /// The SHA-256 of the file's bytes, lowercase hex.
    public var sha256: String
    /// The detected format: "pdf", "text", "markdown", "html" or "json".
    public var format: String
    /// The document's lines in reading order; for PDFs already de-columned by the app.
    public var lines: [SourceLine]

    /// Creates a source from lines.
    public init(file: String, sha256: String, format: String, lines: [SourceLine]) {
        self.file = file
        self.sha256 = sha256
        self.format = format
        self.lines = lines
    }

    /// Creates a source from plain text: lines split on newlines and numbered from 1 within each page; a form
    /// feed (as `pdftotext` writes between pages) starts a new page.
    public init(file: String, sha256: String, format: String, text: String) {
        var lines: [SourceLine] = []
        var n = 0
        var page = 1
        for raw in text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false) {
            var line = String(raw)
            while line.hasPrefix("\u{0C}") {
                line.removeFirst()
                page += 1
                n = 0
            }
            n += 1
            lines.append(SourceLine(page: page, number: n, text: line.replacingOccurrences(of: "\u{0C}", with: "")))
        }
        if let last = lines.last, last.text.isEmpty, lines.count > 1 { lines.removeLast() }
        self.init(file: file, sha256: sha256, format: format, lines: lines)
    }
}
