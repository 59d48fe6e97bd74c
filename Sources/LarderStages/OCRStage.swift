import Foundation
import LarderCore
import LarderOCR
import LarderReceipts

/// Stage 3, `ocr`: the text lines of photos and scanned PDFs through tesseract (`LarderOCR`), each with its
/// confidence, bounding box and page. Other documents pass through (`skipped`).
///
/// - Photos: read from the file. Fails with a clear error on images leptonica cannot read (corrupt or truncated
///   files), over `limits.max_image_pixels`, or past the time limit.
/// - PDFs without a text layer (`extract` set `needsOCR`): each page is rendered by poppler at 300 dpi (less if
///   that would pass `limits.max_image_pixels`) and read with tesseract's automatic layout analysis, which keeps
///   columns apart; a page that then reads as a receipt is read again as one block (page segmentation 6), which
///   keeps item names and prices on one line. The time limit applies per page; `extract` already refused PDFs over `limits.max_pdf_pages`.
///
/// Tesseract engines take 60–100 ms to start and must not be shared between threads: ``OCREnginePool`` keeps
/// one per worker thread that needs one and reuses it. The worker process runs with `OMP_THREAD_LIMIT=1`.
public struct OCRStage: Stage {
    public let name = StandardStage.ocr.name
    public let version: String
    public let readsDocumentFile = true
    /// `ocr:` in `pipeline.yml`: the models, the photo pass, the profile, the cache folder.
    public let settings: PipelineConfig.OCRSettings
    /// Scanned pages are rendered at this resolution: tesseract reads body text best at about 300 dpi.
    public static let scanResolution = 300.0
    /// Each image or page must be recognised within this time.
    public static let timeLimit = Duration.seconds(60)

    public init(config: PipelineConfig = PipelineConfig()) {
        version = StandardStage.ocr.declaration(for: config).version
        settings = config.ocr
    }

    public func run(_ input: StageInput) throws -> StageOutput {
        let detected = try input.output(of: "detect", as: DetectOutput.self)
        // Documents with a text layer never look at the cache (or tesseract).
        guard detected.format == .pdf || detected.format.isImage else {
            return try Self.unread(
                OCRStageOutput(skipped: "no OCR needed: \(detected.format.description)", lines: [], meanConfidence: 0, steps: []))
        }
        // A PDF with a text layer is not opened again.
        if detected.format == .pdf, try !input.output(of: "extract", as: ExtractOutput.self).needsOCR {
            return try Self.unread(
                OCRStageOutput(skipped: "no OCR needed: \(detected.format.description)", lines: [], meanConfidence: 0, steps: []))
        }
        let cached = settings.cache.map { OCRCache(folder: $0, sha256: input.document.sha256, version: version) }
        if let output = cached?.read() { return try Self.unread(output) }  // keyed by the registered hash
        let output = try read(input, detected: detected)
        cached?.write(output)
        return try StageOutput(output)
    }

    /// An output made without opening the document's file: it is not hashed again after the stage.
    private static func unread(_ value: OCRStageOutput) throws -> StageOutput {
        var output = try StageOutput(value)
        output.readDocumentFile = false
        return output
    }

    /// What OCR reads from a photo or a scanned PDF (a PDF with a text layer: skipped).
    private func read(_ input: StageInput, detected: DetectOutput) throws -> OCRStageOutput {
        let path = input.document.path
        let limits = OCRLimits(maxPixels: Int(clamping: input.config.limits.maxImagePixels), timeLimit: Self.timeLimit)
        if detected.format == .pdf {
            let extracted = try input.output(of: "extract", as: ExtractOutput.self)
            if extracted.needsOCR {
                var (output, warnings) = try PopplerMessages.collecting(file: path) {
                    try Self.readScan(path: path, pageCount: extracted.pages.count, limits: limits, settings: settings)
                }
                if !warnings.isEmpty { output.warnings = warnings }
                return output
            }
            return OCRStageOutput(skipped: "no OCR needed: \(detected.format.description)", lines: [], meanConfidence: 0, steps: [])
        }
        let result: OCRResult
        do {
            result = try OCREnginePool.shared.withEngine(settings) { try $0.recognize(imageAt: path, limits: limits) }
        } catch let error as ReceiptError {
            throw Self.larderError(error, path: path, page: nil)
        }
        return OCRStageOutput(
            skipped: nil, lines: result.lines, meanConfidence: result.meanConfidence, steps: result.steps,
            warnings: result.decoderWarnings.map { Self.warnings($0, path: path) })
    }

    /// The image codec's warnings as the document's, naming the file (escaped).
    static func warnings(_ decoder: [String], path: String) -> [String] {
        let name = LarderError.displayPath(URL(fileURLWithPath: path).lastPathComponent)
        return decoder.map {
            "\(name): the image decoder reported \"\(LarderError.displayPath($0))\" (the file may be damaged: check the text OCR read from it)"
        }
    }

    /// Renders and reads every page of a PDF without a text layer, one page in memory at a time.
    static func readScan(
        path: String, pageCount: Int, limits: OCRLimits, settings: PipelineConfig.OCRSettings
    ) throws -> OCRStageOutput {
        let pdf: PDFFile
        do {
            pdf = try PDFFile(path: path)
        } catch {
            // `extract` opened it a moment ago: the file changed or vanished since.
            throw LarderError(.transient, "poppler could not open the PDF again for OCR", hint: "check the file", path: path)
        }
        var lines: [OCRLine] = []
        var pages: [OCRPage] = []
        var steps: [String] = []
        try OCREnginePool.shared.withEngine(settings) { engine in
            for index in 0..<pageCount {
                let number = index + 1
                guard let image = pdf.render(index, dpi: scanResolution, maxPixels: limits.maxPixels) else {
                    throw LarderError(
                        .badInput, "poppler could not render this page for OCR",
                        hint: "re-scan the page or re-export the PDF", path: path, page: number)
                }
                var result: OCRResult
                do {
                    result = try engine.recognize(
                        image, name: "\(path) page \(number)", limits: limits, pageSegmentation: .automatic)
                    // Layout analysis splits a receipt's price column from its item names: a page that reads as
                    // a receipt is read again as one block, which keeps each printed line whole (as for photos).
                    if readsAsReceipt(result.lines) {
                        result = try engine.recognize(
                            image, name: "\(path) page \(number)", limits: limits, pageSegmentation: .singleBlock)
                        result.steps.append("receipt: reread as one block (psm 6)")
                    }
                } catch let error as ReceiptError {
                    throw larderError(error, path: path, page: number)
                }
                lines += result.lines.map { line in
                    var line = line
                    line.page = number
                    return line
                }
                pages.append(
                    OCRPage(
                        number: number, width: image.width, height: image.height, resolution: image.resolution,
                        meanConfidence: result.meanConfidence))
                steps += result.steps.map { "page \(number): \($0)" }
            }
        }
        // The pages' means, weighted by the characters read on each.
        var weighted = 0.0
        var characters = 0
        for page in pages {
            let count = lines.filter { $0.page == page.number }.reduce(0) { $0 + $1.text.count }
            weighted += page.meanConfidence * Double(count)
            characters += count
        }
        let mean = characters == 0 ? 0 : (weighted / Double(characters) * 10).rounded() / 10
        return OCRStageOutput(skipped: nil, lines: lines, meanConfidence: mean, steps: steps, pages: pages)
    }

    /// Whether a page's OCR lines score as a receipt on `route`'s signals.
    static func readsAsReceipt(_ lines: [OCRLine]) -> Bool {
        let text = lines.map(\.text).joined(separator: "\n")
        let page = PDFPageText(number: 1, width: 0, height: 0, text: text, spans: [])
        return RouteStage.route(ExtractOutput(format: .text, pages: [page], needsOCR: false), readRecipe: false).route == .receipt
    }

    /// A `LarderOCR` error as a document error: engine trouble may pass on retry, a too-large image is over a
    /// limit, anything else is the input's fault.
    static func larderError(_ error: ReceiptError, path: String, page: Int?) -> LarderError {
        let kind: LarderError.Kind =
            error.code == .engineUnavailable || error.code == .recognitionFailed ? .transient
            : error.code == .imageTooLarge ? .overLimit : .badInput
        return LarderError(kind, error.message, hint: error.hint, path: path, page: page)
    }
}

/// Idle tesseract engines, by settings (`ocr.languages`, `ocr.photo_pass`, `ocr.profile`), one per worker thread that
/// has needed one.
final class OCREnginePool: @unchecked Sendable {
    // @unchecked: `idle` is only touched under `lock`; an engine is used by one thread at a time (taken out of
    // `idle` while in use).
    static let shared = OCREnginePool()
    private let lock = NSLock()
    private var idle: [String: [OCREngine]] = [:]

    func withEngine<T>(_ settings: PipelineConfig.OCRSettings, _ body: (OCREngine) throws -> T) throws -> T {
        let photoPass = settings.effectivePhotoPass
        let key = "\(settings.languages)|\(photoPass.rawValue)|\(settings.profile.rawValue)"
        lock.lock()
        let reused = idle[key]?.popLast()
        lock.unlock()
        var preprocessing = settings.profile == .fast ? OCRPreprocessing.fast : OCRPreprocessing.default
        preprocessing.photoPass = OCRPreprocessing.PhotoPass(rawValue: photoPass.rawValue) ?? .whenUnsure
        let engine = try reused ?? OCREngine(preprocessing: preprocessing, languages: settings.languages)
        defer {
            lock.lock()
            idle[key, default: []].append(engine)
            lock.unlock()
        }
        return try body(engine)
    }
}

/// `ocr.cache`: the `ocr` stage's output for a file, kept by content hash and stage version (which holds the OCR
/// settings), so measuring a parser change does not run tesseract again. A file that cannot be read or decoded
/// is a miss; a write that fails is ignored (the output is still returned).
struct OCRCache {
    let path: String

    init(folder: String, sha256: String, version: String) {
        let safe = version.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }
        path = folder + "/" + sha256 + "-" + String(safe) + ".json"
    }

    func read() -> OCRStageOutput? {
        FileManager.default.contents(atPath: path).flatMap { try? JSONDecoder().decode(OCRStageOutput.self, from: $0) }
    }

    func write(_ output: OCRStageOutput) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard let data = try? JSONEncoder().encode(output) else { return }
        let temporary = path + ".\(getpid()).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data) else { return }
        if rename(temporary, path) != 0 { try? FileManager.default.removeItem(atPath: temporary) }
    }
}

/// What `ocr` found, as later stages read it.
public struct OCRStageOutput: Codable, Sendable, Equatable {
    /// Why OCR did not run, as every stage's `skipped` says it ("no OCR needed: plain text"); nil when it ran.
    /// Documents that need no OCR: text, Markdown, HTML, JSON and PDFs with a text layer (their text comes from
    /// `extract`).
    public var skipped: String?
    /// The lines top to bottom, page after page; each has its page number, confidence and box (pixels of the
    /// image tesseract saw: for a scanned PDF page, the page rendered at `pages[].resolution` dpi).
    public var lines: [OCRLine]
    /// Tesseract's mean confidence, 0–100 (for a scanned PDF, the pages' means weighted by characters read).
    public var meanConfidence: Double
    /// Preprocessing applied, in order (for a scanned PDF, each step prefixed with its page).
    public var steps: [String]
    /// A scanned PDF's pages as rendered for OCR; empty for photos.
    public var pages: [OCRPage]
    /// What the image codecs (libjpeg, libpng) or poppler reported while decoding the file ("Corrupt JPEG data:
    /// premature end of data segment"), each naming the file; the result lists them as the document's warnings.
    /// Absent when there were none.
    public var warnings: [String]?

    public init(
        skipped: String?, lines: [OCRLine], meanConfidence: Double, steps: [String], pages: [OCRPage] = [],
        warnings: [String]? = nil
    ) {
        self.skipped = skipped
        self.lines = lines
        self.meanConfidence = meanConfidence
        self.steps = steps
        self.pages = pages
        self.warnings = warnings
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // Outputs stored before every stage's `skipped` was a reason held a Bool.
        if let legacy = try? c.decodeIfPresent(Bool.self, forKey: .skipped) {
            skipped = legacy ? "no OCR needed" : nil
        } else {
            skipped = try c.decodeIfPresent(String.self, forKey: .skipped)
        }
        lines = try c.decode([OCRLine].self, forKey: .lines)
        meanConfidence = try c.decode(Double.self, forKey: .meanConfidence)
        steps = try c.decode([String].self, forKey: .steps)
        pages = try c.decodeIfPresent([OCRPage].self, forKey: .pages) ?? []
        warnings = try c.decodeIfPresent([String].self, forKey: .warnings)
    }
}

/// One scanned PDF page as the `ocr` stage rendered and read it.
public struct OCRPage: Codable, Sendable, Equatable {
    /// 1-based page number.
    public var number: Int
    /// The rendered image's size in pixels, and its resolution (dots per inch: pixels = points × dpi / 72).
    public var width: Int
    public var height: Int
    public var resolution: Double
    /// Tesseract's mean confidence on this page, 0–100.
    public var meanConfidence: Double

    public init(number: Int, width: Int, height: Int, resolution: Double, meanConfidence: Double) {
        self.number = number
        self.width = width
        self.height = height
        self.resolution = resolution
        self.meanConfidence = meanConfidence
    }
}
