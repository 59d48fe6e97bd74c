import Foundation
import LarderCore

/// Stage 2, `extract`: the document's text, page by page.
///
/// - PDF: per-page text and font-size runs through poppler-glib (``PDFFile``). Fails on encrypted, damaged,
///   truncated and page-less PDFs, and on PDFs over `limits.max_pdf_pages`. A PDF with no text at all is marked
///   `needsOCR` (a scan).
/// - Text, Markdown, HTML, JSON: decoded with the encoding `detect` found and normalised (line ends, NFC,
///   odd spaces, trailing blanks) into one page. HTML is reduced to its visible text.
/// - Images: no text yet (`needsOCR`); the OCR stage reads them.
public struct ExtractStage: Stage {
    public let name = StageDeclaration.extract.name
    public let version = StageDeclaration.extract.version
    public let readsDocumentFile = true

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
            return try StageOutput(TextExtraction.extract(input.document, format: detected.format))
        }
    }

    public static func extractPDF(path: String, maxPages: Int) throws -> ExtractOutput {
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
        guard let handle = FilePath.openForReading(path) else { return true }  // poppler reports the error
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd() else { return true }
        let tail = min(size, 2048)
        try? handle.seek(toOffset: size - tail)
        guard let data = try? handle.read(upToCount: Int(tail)) else { return true }
        return data.range(of: Data("%%EOF".utf8)) != nil
    }
}

