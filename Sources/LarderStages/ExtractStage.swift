import Foundation
import LarderArchives
import LarderCore
import LarderPages
import LarderRecipes
import LarderFormats

/// Stage 2, `extract`: the document's text, page by page.
///
/// - PDF: per-page text and font-size runs through poppler-glib (``PDFFile``). Fails on encrypted, damaged,
///   truncated and page-less PDFs, and on PDFs over `limits.max_pdf_pages`. A PDF with no text at all is marked
///   `needsOCR` (a scan).
/// - Text, Markdown, JSON: decoded with the encoding `detect` found and normalised (line ends, NFC, odd spaces,
///   trailing blanks) into one page.
/// - HTML: parsed by libxml2 (``PageReader``, in the declared charset): the page's visible text as one page (one
///   block per line) plus its ``WebPage`` (address, title, JSON-LD and microdata), which `recipe` reads.
/// - Images: no text yet (`needsOCR`); the OCR stage reads them.
/// - Archives (ZIP, gzip: recipe-app exports): each text member read into memory through libzip/zlib (nested
///   archives and gzip members expanded, never written to disk) becomes one page naming its member; members
///   that cannot be read, or break `ArchiveLimits`, are per-entry errors in `memberErrors`.
public struct ExtractStage: Stage {
    public let name = StandardStage.extract.name
    public let version = StandardStage.extract.declaration().version
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
        case .html, .text, .markdown, .json, .archive:
            // The bytes `detect` read and checked (read and checked here when `detect` ran in another process).
            let data = try input.registeredBytes(read: DetectStage.readRegisteredBytes)
            let limits = input.config.limits
            let extracted: ExtractOutput
            switch detected.format {
            case .html: extracted = try Self.extractHTML(input.document, data: data, encoding: detected.encoding, limits: limits)
            case .archive: extracted = try Self.extractArchive(input.document, data: data, limits: limits)
            default: extracted = try Self.extractText(input.document, data: data, format: detected.format, limits: limits)
            }
            var output = try StageOutput(extracted)
            output.readDocumentFile = false
            return output
        }
    }

    /// A text, Markdown or JSON file (`data`: its registered bytes), with the recipe photo beside it or inlined in
    /// it (a Cooklang `X.jpg` beside `X.cook`, a schema.org `data:` image).
    static func extractText(
        _ document: DocumentRecord, data: Data, format: DocumentFormat, limits: PipelineConfig.Limits
    ) throws -> ExtractOutput {
        var output = try TextExtraction.extract(document, data: data, format: format)
        output.images = PhotoCollector.photoBeside(
            recipeFile: document.path, text: output.pages.first?.text ?? "", limits: limits)
        if format == .json { PhotoCollector.takeInlinedPhoto(&output, file: document.path, limits: limits) }
        return output
    }

    /// A saved page (`data`: its registered bytes) through libxml2.
    public static func extractHTML(
        _ document: DocumentRecord, data: Data, encoding: String?, limits: PipelineConfig.Limits = .init()
    ) throws -> ExtractOutput {
        let declared = encoding.flatMap { ["utf-8", "utf-16le", "utf-16be", "latin-1"].contains($0) ? nil : $0 }
        let reading: PageReader.Reading
        do {
            var reader = PageReader()
            reader.limits.maxBytes = Int(clamping: limits.maxTextBytes)
            reader.limits.maxDepth = limits.maxHTMLDepth
            reader.limits.maxElements = limits.maxHTMLElements
            reader.limits.maxSeconds = limits.htmlSeconds
            reading = try reader.read(data, encoding: declared)
        } catch .tooLarge(let size, let limit) {
            throw LarderError(
                .overLimit, "the page is \(size) bytes, over the HTML limit of \(limit) (limits.max_text_bytes)",
                hint: "save the page without its embedded resources (\"HTML only\")", path: document.path)
        } catch .tooSlow(let seconds) {
            throw LarderError(
                .overLimit, "reading the page took over \(seconds) s of CPU (limits.html_seconds)",
                hint: "save the page as \"HTML only\", or raise limits.html_seconds in pipeline.yml",
                path: document.path)
        } catch .unreadable {
            throw LarderError(
                .badInput, "libxml2 found no HTML document in the file", hint: "save the page again from the browser",
                path: document.path)
        }
        let page = PDFPageText(number: 1, width: 0, height: 0, text: TextNormalizer.normalize(reading.text), spans: [])
        return ExtractOutput(format: .html, pages: [page], needsOCR: false, webPage: reading.page)
    }

    /// The archive's text members as pages (binary members such as photos are left out), read one member at a time
    /// (``Archives/forEachMember(_:name:limits:_:)``), so memory holds one member and the text kept so far. A member
    /// over `limits.max_text_bytes`, or past the archive's share of `limits.max_stage_output_bytes`, is skipped with
    /// an entry error naming it; the other members are still imported.
    public static func extractArchive(
        _ document: DocumentRecord, data: Data, limits: PipelineConfig.Limits = .init()
    ) throws -> ExtractOutput {
        let path = document.path
        let name = URL(fileURLWithPath: path).lastPathComponent
        var pages: [PDFPageText] = []
        var skipped: [String] = []
        var kept = 0
        var photos = PhotoCollector(limits: limits)
        let maxText = Int(clamping: limits.maxTextBytes)
        let errors: [ArchiveError]
        do {
            errors = try Archives.forEachMember(data, name: name, limits: .worker()) { member in
                guard !RecipeImport.isJunk(member.path) else { return }
                if RecipePhoto.mediaType(of: member.data) != nil {
                    guard !RecipePhotos.isThumbnail(member.path) else { return }
                    if let refused = photos.add(member.data, member: member.path) { skipped.append(refused) }
                    return
                }
                guard !Self.isBinary(member.data) else { return }
                if member.data.count > maxText {
                    skipped.append("\(member.path): \(member.data.count) bytes, over limits.max_text_bytes (\(maxText)): skipped")
                    return
                }
                // An HTML export (Copy Me That, Recipe Keeper) is read here, where libxml2 is linked, into schema.org.
                var data = HTMLExports.isHTML(member.path) ? HTMLExports.schemaOrgJSON(member.data) ?? member.data : member.data
                // A Paprika entry's photo is kept once as an image, not as base64 in the entry's text.
                if let split = RecipePhotos.paprikaPhoto(in: data) ?? RecipePhotos.dataURIPhoto(in: data) {
                    data = split.entry
                    if let refused = photos.add(split.photo, member: member.path) { skipped.append(refused) }
                }
                if kept + data.count > limits.maxStageOutputBytes / 2 {
                    skipped.append(
                        "\(member.path): the archive's text passed half of limits.max_stage_output_bytes (\(limits.maxStageOutputBytes)): skipped")
                    return
                }
                kept += data.count
                var page = PDFPageText(number: pages.count + 1, width: 0, height: 0, text: TextBytes.decode(data), spans: [])
                page.member = member.path
                pages.append(page)
            }
        } catch {
            throw LarderError(.badInput, error.message, hint: "check the archive is a complete recipe-app export; re-export it", path: path)
        }
        var output = ExtractOutput(format: .archive, pages: pages, needsOCR: false)
        output.images = photos.images.isEmpty ? nil : photos.images
        var messages = errors.map { "\($0.member ?? name): \($0.message)" } + skipped
        // A bomb of 19,000 entries gives 19,000 errors: the first 200 say enough.
        if messages.count > 200 { messages = Array(messages.prefix(200)) + ["… and \(messages.count - 200) more entries not read"] }
        output.memberErrors = messages
        return output
    }

    /// NUL bytes in the first 8 KB: a photo or other binary member.
    static func isBinary(_ data: Data) -> Bool { data.prefix(8192).contains(0) }

    public static func extractPDF(path: String, maxPages: Int) throws -> ExtractOutput {
        var (output, warnings) = try PopplerMessages.collecting(file: path) {
            try readPDF(path: path, maxPages: maxPages)
        }
        if !warnings.isEmpty { output.warnings = warnings }
        return output
    }

    /// The PDF's pages through poppler (``extractPDF(path:maxPages:)`` catches what poppler reports meanwhile).
    static func readPDF(path: String, maxPages: Int) throws -> ExtractOutput {
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

