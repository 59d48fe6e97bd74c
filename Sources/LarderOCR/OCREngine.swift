internal import CTesseract
import Foundation
import LarderReceipts

/// Resource limits for one recognition.
public struct OCRLimits: Sendable, Equatable {
    /// Images with more pixels than this (width × height, read from the file header before decoding)
    /// are refused with ``ReceiptError/Code/imageTooLarge``. Default 40 megapixels (~350 MiB peak).
    public var maxPixels: Int
    /// Deadline for `TessBaseAPIRecognize`, enforced through tesseract's progress monitor
    /// (`TessMonitorSetDeadlineMSecs`): tesseract stops between words once it passes, and the call throws
    /// ``ReceiptError/Code/timedOut``. Preprocessing and orientation detection are not covered (they are
    /// bounded by ``maxPixels``). `nil` = no deadline. Default 60 s.
    public var timeLimit: Duration?

    /// Creates limits.
    public init(maxPixels: Int = 40_000_000, timeLimit: Duration? = .seconds(60)) {
        self.maxPixels = maxPixels
        self.timeLimit = timeLimit
    }

    /// 40 MP, 60 s.
    public static let `default` = OCRLimits()
}

/// Image preprocessing applied before recognition. Defaults are what measured best on the project
/// samples and SROIE (see the package README / report).
public struct OCRPreprocessing: Sendable, Equatable {
    /// Binarisation methods.
    public enum Binarization: String, Sendable, Equatable, CaseIterable {
        /// Leave the 8-bit grayscale image to tesseract's own Otsu thresholding.
        case none
        /// Leptonica `pixOtsuAdaptiveThreshold` (tiles 300×300, score fraction 0.1).
        case otsuAdaptive
        /// Leptonica `pixSauvolaBinarize` (window 25, k 0.35): local, helps uneven lighting.
        case sauvola
    }

    /// Images narrower than this are scaled ×2 (linear interpolation) before recognition; `nil` disables.
    public var upscaleBelowWidth: Int?
    /// Find and correct small skew (leptonica `pixFindSkewAndDeskew`).
    public var deskew: Bool
    /// Skew angles (degrees) below this are left alone: rotating by a fraction of a degree blurs more
    /// than it straightens.
    public var deskewMinAngle: Double
    /// When to run orientation detection.
    public enum OrientationDetection: String, Sendable, Equatable, CaseIterable {
        /// Never: images are used as they are.
        case never
        /// Only for landscape images (wider than tall): a receipt photographed sideways. Saves the
        /// ~0.25 s OSD pass on upright receipts, which are portrait.
        case whenLandscape
        /// Every image (also catches upside-down receipts).
        case always
    }

    /// Detect sideways / upside-down pages with tesseract OSD (needs `tesseract-ocr-osd`) and rotate by
    /// quarter turns. Failures (no OSD data, too little text) are ignored: the image is used as is.
    public var detectOrientation: OrientationDetection
    /// Minimum OSD orientation confidence before a rotation is applied.
    public var orientationMinConfidence: Double
    /// Optional binarisation.
    public var binarization: Binarization
    /// Flatten uneven lighting / faded paper with leptonica `pixBackgroundNormSimple` before recognition.
    public var normalizeBackground: Bool
    /// When the first pass reads fewer than ``fallbackBelowCharacters`` characters in confident lines
    /// (confidence ≥ 50), recognise again after thickening dark strokes (grayscale erosion 3×3, joins the
    /// dots of faint dot-matrix print) and this binarisation, and keep the better pass. `nil` disables.
    /// Default ``Binarization/otsuAdaptive``.
    public var fallbackBinarization: Binarization?
    /// See ``fallbackBinarization``. Default 120 characters.
    public var fallbackBelowCharacters: Int
    /// After the page is read, read each line whose date-like token is not a valid date (`19/62/2018`,
    /// `O6/C2/2016`) again on its own: cropped, scaled up and recognised as a single line; the first re-read
    /// with a valid date replaces the line. Costs a few small OCR calls on the few receipts that need it.
    /// Default on.
    public var rereadMisreadDates: Bool = true
    /// Scale factors tried in turn for a re-read line. Default ×2, then ×3.
    public var rereadScales: [Double] = [2, 3]
    /// At most this many lines are re-read per image. Default 4.
    public var rereadMaxLines: Int = 4
    /// Read a receipt's total line again on its own when the parser finds no total, or a total that does not
    /// add up (see `OCREngine.rereadTotal`). Default on.
    public var rereadTotal: Bool = true
    /// Read the band above the address again for the store's name in large type, while the parse has no
    /// confident name (`LogoBand.swift`).
    public var rereadLogoBand: Bool = true
    /// Item lines whose price is missing or garbled are read again, cropped to the price column and scaled
    /// up (see `OCREngine.rereadMissingPrices`); at most this many per image, 0 disables. Default 16.
    public var rereadMaxPriceLines: Int = 16
    /// When to rebuild a block's rows from tesseract's word boxes (`WordRows`): words whose boxes overlap
    /// vertically once the text's slope is removed form one row, so that a tilted or curled item line's name
    /// and price come back together.
    public enum RowRebuild: String, Sendable, Equatable, CaseIterable {
        /// Keep tesseract's text lines.
        case never
        /// Use the rebuilt rows when they differ and their parse scores at least as high (default).
        case whenBetter
        /// Always use the rebuilt rows.
        case always
    }
    /// See ``RowRebuild``; applies to page segmentation 6 (receipts). Default ``RowRebuild/whenBetter``.
    public var rebuildRows: RowRebuild = .whenBetter
    /// When to read an image a second time as a phone photo (paper cropped out of the frame, light evened
    /// out by background normalisation, scaled to ``photoLineHeight``, binarised at ``photoThreshold``);
    /// the reading whose parse explains the receipt better (a total, a date, items adding up to the total,
    /// confident text) is kept.
    public enum PhotoPass: String, Sendable, Equatable, CaseIterable {
        /// Never.
        case never
        /// When the parser cannot find a total and a date in the first reading, or the paper is visibly
        /// smaller than the frame (default): scans that read well are read once.
        case whenUnsure
        /// Always (both readings are scored).
        case always
    }
    /// See ``PhotoPass``. Default ``PhotoPass/whenUnsure``; off for rendered PDF pages.
    public var photoPass: PhotoPass = .whenUnsure
    /// In the photo reading, also read a paper whose outline is a clear quadrilateral seen in perspective mapped
    /// onto a rectangle (`PaperGeometry`, leptonica `pixProjectivePta`), and keep that reading or the cropped one,
    /// whichever the parser scores higher. Default on; off, the paper is only cropped.
    public var photoRectify: Bool = true
    /// Target height in pixels of a text line's box for the photo reading. Default 40.
    public var photoLineHeight: Double = 40
    /// Global threshold (background at 200 after normalisation) for the photo reading; nil leaves the
    /// normalised grayscale image to tesseract. Default 170 (measured against 150, none, Sauvola and
    /// Otsu-on-background-norm on a receipts-photos subset; see the README).
    public var photoThreshold: Int? = 170
    /// Lighter thresholds tried in turn, each only while the photo reading so far is unsure (``ReadingCheck``):
    /// thin or faint thermal print that ``photoThreshold`` breaks up keeps its strokes at a lighter one; the
    /// reading whose parse scores highest is kept. Default [185]; empty: one threshold.
    public var photoFaintThresholds: [Int] = [185]
    /// A reading at a lighter threshold replaces the one before only when its parse scores at least this much
    /// higher (3, what a read total is worth): lighter thresholds also read specks as text, and on German scans
    /// readings that won by 1–2 lost a total and an item count. Measured on receipts-photos and receipts-de
    /// (development sets).
    public var photoFaintMinimumGain: Double = 3
    /// In the photo reading, straighten curled paper (`Dewarp`): when the reading's text lines bend by half a text
    /// height or more and the reading is unsure, the image is remapped so its lines are straight and read again,
    /// kept when its parse scores higher. Default on.
    public var photoDewarp: Bool = true
    /// The photo reading replaces the first only when its parse scores at least this much higher
    /// (`OCREngine.readingScore`: a total 3, a date 2, items adding up 4, each item 0.5). Default 1: on
    /// SROIE scans, photo readings that won by less lost as many totals and dates as they gained.
    public var photoMinimumGain: Double = 1
    /// On a flat scan — no paper outline in the frame, print not rescaled before the first reading, and every edge
    /// of the frame about as light as the paper (``OCREngine/frameEdgeContrast(_:)`` at least
    /// ``photoFromBodyMinimumEdge``) — start the photo reading's OCR above the first reading's body
    /// (``OCREngine/bodyTop(_:paperTop:scale:)``): its header comes from the first reading anyway. Default on: the
    /// photo reading on SROIE scans 98 → 79–84 ms of CPU per scan (two runs), every field of SROIE, receipts-de and
    /// receipts-photos unchanged. Without the edge condition it saved 28 ms but cost receipts-photos a store and
    /// an item (two photos without a paper outline that show the table or cloth at an edge: 0.01 and 0.57).
    public var photoFromBodyOnScans: Bool = true
    /// See ``photoFromBodyOnScans``: the darkest edge strip's median grey over the paper's, at least. Default 0.9.
    public var photoFromBodyMinimumEdge: Double = 0.9
    /// Let tesseract read a line whose characters it is unsure of a second time inverted (white print on black,
    /// `tessedit_do_invert`, on in tesseract 5), keeping whichever reading is more certain. Receipts print dark on
    /// light; on their noisy lines (logos, smudges, the paper's edge) the inverted pass cost about a sixth of the
    /// recognition's instructions (callgrind, one SROIE scan). Default on: with it off, a logo line's confidence
    /// fell under the store floor on one SROIE scan and one German scan (SROIE strict store 0.891 → 0.873,
    /// receipts-de 0.769 → 0.731) while the photos gained four stores (README, receipts performance). Set at
    /// engine start.
    public var invertUnsureLines: Bool = true
    /// With ``invertUnsureLines``, only lines whose LSTM outputs' mean certainty is below this are read a second
    /// time inverted (tesseract's `invert_threshold`; tesseract 5.3's default is 0.7). Default 0.3: the lines between
    /// 0.3 and 0.7 are receipts' noisy but dark-on-light lines, whose inverted reading almost never wins; the
    /// receipt sets' figures held at 0.5 and 0.3 while the second network pass ran on fewer lines (README,
    /// receipts per minute). Set at engine start.
    public var invertBelowCertainty: Double = 0.3
    /// Let tesseract's layout analysis test a row for fixed pitch at its first pitch estimate only (`textord_pitch_range`
    /// 0; tesseract's default 2 also tries the pitches one and two pixels either side: five chopping tests a row instead
    /// of one). Receipt printers print fixed pitch, so every row is tested: the fixed-pitch tests cost about 4 % of a
    /// SROIE scan's first reading (callgrind); with one test a row the reading costs about 3 % fewer instructions. It
    /// changed the text of 4 of 55 SROIE scans (one date gained); the receipt sets' figures held (README, receipts per
    /// minute). Default on. Set at engine start.
    public var quickPitchTest: Bool = true
    /// Images of at least ``downscaleMinimumPixels`` whose print is taller than this (median glyph height in pixels,
    /// ``TextSize``, estimated on a half-size copy before the first reading) are scaled down so that it is
    /// ``downscaleGlyphTarget`` high (at most halved): tesseract's LSTM normalises each line to a fixed height, so
    /// print larger than its sweet spot (capitals ~30 px) only costs thresholding, layout analysis and line-image
    /// copies. Default 40; nil: never.
    public var downscaleGlyphsAbove: Double? = 40
    /// See ``downscaleGlyphsAbove``. Default 32.
    public var downscaleGlyphTarget: Double = 32
    /// Smaller images are not measured for ``downscaleGlyphsAbove`` (the estimate costs 3–5 ms): print taller than
    /// 40 px was found only on phone photos of 8 MP and more (receipts-photos), never on the scans (SROIE, receipts-de:
    /// 34 px at most). Default 4 megapixels.
    public var downscaleMinimumPixels: Int = 4_000_000
    /// On a flat scan whose print covers a small part of a light page (a till receipt on an A4 flatbed), read only
    /// the region holding the print (``InkRegion``): the readings then cost what the receipt alone costs. Default on.
    public var cropToInk: Bool = true

    /// Creates a preprocessing configuration.
    public init(
        upscaleBelowWidth: Int? = 500,
        deskew: Bool = true,
        detectOrientation: OrientationDetection = .whenLandscape,
        orientationMinConfidence: Double = 2.0,
        binarization: Binarization = .none,
        normalizeBackground: Bool = false,
        deskewMinAngle: Double = 0.0,
        fallbackBinarization: Binarization? = .otsuAdaptive,
        fallbackBelowCharacters: Int = 120
    ) {
        self.deskewMinAngle = deskewMinAngle
        self.fallbackBinarization = fallbackBinarization
        self.fallbackBelowCharacters = fallbackBelowCharacters
        self.normalizeBackground = normalizeBackground
        self.upscaleBelowWidth = upscaleBelowWidth
        self.deskew = deskew
        self.detectOrientation = detectOrientation
        self.orientationMinConfidence = orientationMinConfidence
        self.binarization = binarization
    }

    /// The defaults.
    public static let `default` = OCRPreprocessing()
    /// The `fast` profile: the default preparation (ink crop, text size, orientation, deskew, the faint-print
    /// retry, the row rebuild) and one reading, with none of the re-reads (no photo reading, no price-cell, date,
    /// total or logo-band re-reads, no inverted re-read of unsure lines). Its accuracy cost is measured per set
    /// in `docs/design/receipt-model.md`.
    public static let fast: OCRPreprocessing = {
        var fast = OCRPreprocessing()
        fast.rereadMisreadDates = false
        fast.rereadMaxPriceLines = 0
        fast.rereadTotal = false
        fast.rereadLogoBand = false
        fast.photoPass = .never
        fast.invertUnsureLines = false
        return fast
    }()
    /// Grayscale conversion only.
    public static let minimal: OCRPreprocessing = {
        var minimal = OCRPreprocessing(upscaleBelowWidth: nil, deskew: false, detectOrientation: .never)
        minimal.rereadMisreadDates = false
        minimal.rereadMaxPriceLines = 0
        minimal.rereadTotal = false
        minimal.rereadLogoBand = false
        minimal.photoPass = .never
        minimal.rebuildRows = .never
        minimal.downscaleGlyphsAbove = nil
        minimal.cropToInk = false
        return minimal
    }()
}

/// An 8-bit grayscale image in memory (a rendered PDF page): one byte per pixel, 0 black … 255 white, rows
/// top to bottom with no padding.
public struct GrayscaleImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Dots per inch, for tesseract's size estimates.
    public var resolution: Double
    public var pixels: [UInt8]

    /// Creates an image; `pixels.count` must be `width × height`.
    public init(width: Int, height: Int, resolution: Double, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.resolution = resolution
        self.pixels = pixels
    }
}

/// Tesseract page segmentation modes that suit receipts.
public enum PageSegmentation: Int32, Sendable, Equatable, CaseIterable {
    /// PSM 4: a single column of text of variable sizes.
    case singleColumn = 4
    /// PSM 6: a single uniform block of text. Keeps each receipt line (name … price) whole.
    case singleBlock = 6
    /// PSM 3: tesseract's automatic layout analysis (splits price columns from names on receipts).
    case automatic = 3
}

/// An owning wrapper over one tesseract engine (`TessBaseAPI`) with leptonica preprocessing.
///
/// **Not `Sendable` and not thread-safe**: a tesseract handle must be used by one thread at a time. Create
/// one engine per worker thread (init costs 60–100 ms and ~12–30 MiB) and reuse it for many images, off
/// Swift's cooperative pool (OCR blocks for hundreds of milliseconds).
///
/// **OpenMP**: Debian's libtesseract uses libgomp, whose default threading made OCR ~2.5× slower on two
/// cores. Run processes that use this type with `OMP_THREAD_LIMIT=1` in the environment (setting it inside
/// `main` is too late), e.g. `OMP_THREAD_LIMIT=1 swift test`, and parallelise by image instead.
///
/// Debugging: with `LARDER_OCR_DEBUG_DIR` set to a folder, each preprocessed image is written there as
/// `<name>.png` exactly as tesseract receives it.
public final class OCREngine {
    let handle: OpaquePointer
    /// A second handle initialised with the `osd` model, created on first use; `nil` after a failed start.
    private var osdHandle: OpaquePointer?
    private var osdUnavailable = false
    /// The page segmentation mode used for recognition.
    public let pageSegmentation: PageSegmentation
    /// The preprocessing applied to each image.
    public let preprocessing: OCRPreprocessing

    /// Starts tesseract with the English model from the compiled-in tessdata path (or `TESSDATA_PREFIX`,
    /// which must name the tessdata folder itself).
    /// - Throws: ``ReceiptError`` `.engineUnavailable` when the model cannot be loaded.
    /// - Parameter languages: tesseract models, `+`-joined: `eng` (default) or `eng+deu` (needs
    ///   tesseract-ocr-deu) for German receipts.
    public init(pageSegmentation: PageSegmentation = .singleBlock, preprocessing: OCRPreprocessing = .default,
                languages: String = "eng") throws {
        // Leptonica reports decode problems on stderr; they reach callers as ReceiptError instead.
        _ = setMsgSeverity(Int32(L_SEVERITY_NONE))
        guard let api = TessBaseAPICreate() else {
            throw ReceiptError(.engineUnavailable, path: nil, message: "TessBaseAPICreate returned nil",
                               hint: "Check that libtesseract is installed correctly.")
        }
        if TessBaseAPIInit3(api, nil, languages) != 0 {
            TessBaseAPIDelete(api)
            throw ReceiptError(.engineUnavailable, path: ProcessInfo.processInfo.environment["TESSDATA_PREFIX"],
                               message: "tesseract could not load the '\(languages)' model(s)",
                               hint: "Install tesseract-ocr-eng (and tesseract-ocr-osd, tesseract-ocr-deu for deu); if TESSDATA_PREFIX is set it must name the tessdata folder itself.")
        }
        _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")
        _ = TessBaseAPISetVariable(api, "tessedit_do_invert", preprocessing.invertUnsureLines ? "1" : "0")
        _ = TessBaseAPISetVariable(api, "invert_threshold", String(preprocessing.invertBelowCertainty))
        _ = TessBaseAPISetVariable(api, "textord_pitch_range", preprocessing.quickPitchTest ? "0" : "2")
        self.handle = api
        self.pageSegmentation = pageSegmentation
        self.preprocessing = preprocessing
    }

    deinit {
        TessBaseAPIEnd(handle)
        TessBaseAPIDelete(handle)
        if let osdHandle {
            TessBaseAPIEnd(osdHandle)
            TessBaseAPIDelete(osdHandle)
        }
    }

    /// The OSD engine: orientation detection needs a handle started with the `osd` model (an `eng` handle
    /// returns nonsense from `TessBaseAPIDetectOrientationScript`).
    private func orientationHandle() -> OpaquePointer? {
        if let osdHandle { return osdHandle }
        if osdUnavailable { return nil }
        guard let api = TessBaseAPICreate() else { osdUnavailable = true; return nil }
        if TessBaseAPIInit3(api, nil, "osd") != 0 {
            TessBaseAPIDelete(api)
            osdUnavailable = true
            return nil
        }
        _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")
        TessBaseAPISetPageSegMode(api, PSM_OSD_ONLY)
        osdHandle = api
        return api
    }

    /// Recognises the image at `path` (PNG, JPEG or TIFF; anything leptonica reads).
    /// - Parameters:
    ///   - path: the image file.
    ///   - limits: pixel and time limits.
    /// - Returns: the lines with confidences and boxes.
    /// - Throws: ``ReceiptError`` naming the file: `.imageUnreadable`, `.imageTooLarge`, `.timedOut`,
    ///   `.recognitionFailed`.
    public func recognize(imageAt path: String, limits: OCRLimits = .default) throws -> OCRResult {
        try LineImageCodec.withStoredLineImages { try recognizeFile(path, limits: limits) }
    }

    private func recognizeFile(_ path: String, limits: OCRLimits) throws -> OCRResult {
        let t0 = ContinuousClock.now
        var costs = StepCosts()
        let decoded = try Self.decode(imageAt: path, maxPixels: limits.maxPixels)
        var original: UnsafeMutablePointer<PIX>? = decoded.pix
        costs.record("decode")
        // JPEGs come decoded to 8-bit gray already (`decode`): nothing to convert.
        let gray: UnsafeMutablePointer<PIX>? = pixGetDepth(original) == 8 && pixGetColormap(original) == nil
            ? pixClone(original) : pixConvertTo8(original, 0)
        // The colour image is not needed again: free it before the readings.
        pixDestroy(&original)
        guard gray != nil else { throw failure(path, "grayscale conversion failed") }
        costs.record("gray")
        var result = try recognize(
            gray, path: path, originalWidth: decoded.width, originalHeight: decoded.height, limits: limits,
            pageSegmentation: pageSegmentation, started: t0, steps: ["gray8"], costs: costs)
        if !decoded.warnings.isEmpty { result.decoderWarnings = decoded.warnings }
        return result
    }

    /// An image file decoded by leptonica's codecs, with what the codec reported.
    struct DecodedImage {
        var pix: UnsafeMutablePointer<PIX>
        var width: Int
        var height: Int
        /// libjpeg's or libpng's warnings, as the codec said them (the first four).
        var warnings: [String]
    }

    /// Reads and decodes an image, checking its size before decoding the pixels. JPEG and PNG go through the
    /// shim's decoders (`larder_jpeg_decode`, `larder_png_decode`: the same codecs and settings as leptonica, but
    /// the codecs' warnings are kept instead of printed on standard error); other formats (TIFF, BMP, …) through
    /// leptonica's `pixRead`. A colour JPEG is decoded straight to 8-bit gray (the same pixels as leptonica's
    /// conversion of its RGB decoding), all that OCR reads: no 32-bit image is made and converted.
    static func decode(imageAt path: String, maxPixels: Int) throws -> DecodedImage {
        guard let data = readFile(path) else {
            throw ReceiptError(.imageUnreadable, path: path, message: "cannot read the image file",
                               hint: "Check that the file exists and can be read.")
        }
        let isJPEG = data.starts(with: [0xFF, 0xD8, 0xFF])
        let isPNG = data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        guard isJPEG || isPNG else { return try decodeWithLeptonica(path, maxPixels: maxPixels) }
        var messages = larder_image_messages()
        var pix: UnsafeMutablePointer<PIX>?
        var w: Int32 = 0, h: Int32 = 0
        let status = data.withUnsafeBytes { raw -> Int32 in
            let bytes = raw.bindMemory(to: UInt8.self).baseAddress
            return isJPEG
                ? larder_jpeg_decode(bytes, UInt(raw.count), maxPixels, 1, &messages, &pix, &w, &h)
                : larder_png_decode(bytes, UInt(raw.count), maxPixels, &messages, &pix, &w, &h)
        }
        let codec = isJPEG ? "libjpeg" : "libpng"
        if status == 2 { throw tooLarge(path, width: Int(w), height: Int(h), maxPixels: maxPixels) }
        guard status == 0, let pix else {
            let reason = withUnsafeBytes(of: messages.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw ReceiptError(.imageUnreadable, path: path,
                               message: "\(codec) could not decode the image: the file is corrupt or truncated (\(reason))",
                               hint: "Re-save the image as PNG or JPEG; if it was copied or downloaded, get the whole file again.")
        }
        let warnings = withUnsafeBytes(of: messages.warnings) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            .split(separator: "\n").map(String.init)
        let more = Int(messages.warning_count) - warnings.count
        return DecodedImage(
            pix: pix, width: Int(w), height: Int(h),
            warnings: warnings + (more > 0 ? ["\(more) more \(codec) warning(s)"] : []))
    }

    /// Any other format through leptonica (which prints nothing: its messages are off, see `init`).
    private static func decodeWithLeptonica(_ path: String, maxPixels: Int) throws -> DecodedImage {
        var format: Int32 = 0, w: Int32 = 0, h: Int32 = 0, bps: Int32 = 0, spp: Int32 = 0, cmap: Int32 = 0
        guard pixReadHeader(fileSystemPath(path), &format, &w, &h, &bps, &spp, &cmap) == 0 else {
            throw ReceiptError(.imageUnreadable, path: path, message: "cannot read the image header",
                               hint: "Check that the file exists and is a PNG, JPEG or TIFF image.")
        }
        if Int(w) * Int(h) > maxPixels { throw tooLarge(path, width: Int(w), height: Int(h), maxPixels: maxPixels) }
        guard let pix = pixRead(fileSystemPath(path)) else {
            throw ReceiptError(.imageUnreadable, path: path,
                               message: "leptonica could not decode the image: the file is corrupt or truncated",
                               hint: "Re-save the image as PNG or JPEG; if it was copied or downloaded, get the whole file again.")
        }
        return DecodedImage(pix: pix, width: Int(w), height: Int(h), warnings: [])
    }

    private static func tooLarge(_ path: String, width: Int, height: Int, maxPixels: Int) -> ReceiptError {
        ReceiptError(.imageTooLarge, path: path,
                     message: "image is \(width)×\(height) = \(width * height) pixels, over the limit of \(maxPixels)",
                     hint: "Downscale the photo (receipts read well at 1000–2000 px wide) or raise maxPixels.")
    }

    /// The file's bytes (its path's raw bytes, see ``fileSystemPath(_:)``), or nil if it cannot be read.
    private static func readFile(_ path: String) -> Data? {
        let descriptor = open(fileSystemPath(path), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        return try? FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).readToEnd() ?? Data()
    }

    /// Recognises an 8-bit grayscale image already in memory: a scanned PDF page rendered by poppler.
    /// The same preprocessing as for image files applies (deskew, orientation, fallback binarisation).
    /// - Parameters:
    ///   - image: the pixels, one byte per pixel (0 black … 255 white), rows top to bottom.
    ///   - name: names the image in errors (e.g. `scan.pdf page 3`).
    ///   - limits: pixel and time limits.
    ///   - pageSegmentation: overrides the engine's mode for this image (book pages read best with
    ///     ``PageSegmentation/automatic``, which keeps columns apart).
    /// - Throws: ``ReceiptError`` `.imageTooLarge`, `.timedOut`, `.recognitionFailed`.
    public func recognize(
        _ image: GrayscaleImage, name: String, limits: OCRLimits = .default,
        pageSegmentation: PageSegmentation? = nil
    ) throws -> OCRResult {
        try LineImageCodec.withStoredLineImages {
            try recognizeRendered(image, name: name, limits: limits, pageSegmentation: pageSegmentation)
        }
    }

    private func recognizeRendered(
        _ image: GrayscaleImage, name: String, limits: OCRLimits, pageSegmentation: PageSegmentation?
    ) throws -> OCRResult {
        let t0 = ContinuousClock.now
        let pixels = image.width * image.height
        if pixels > limits.maxPixels {
            throw ReceiptError(.imageTooLarge, path: name,
                               message: "image is \(image.width)×\(image.height) = \(pixels) pixels, over the limit of \(limits.maxPixels)",
                               hint: "Render at a lower resolution or raise maxPixels.")
        }
        guard image.width > 0, image.height > 0, image.pixels.count == pixels,
              let pix = pixCreate(Int32(image.width), Int32(image.height), 8) else {
            throw failure(name, "cannot make a \(image.width)×\(image.height) leptonica image")
        }
        let resolution = Int32(image.resolution.rounded())
        pixSetResolution(pix, resolution, resolution)
        // Leptonica keeps 8-bit pixels in 32-bit words, the first pixel in the most significant byte.
        let wpl = Int(pixGetWpl(pix))
        let words = pixGetData(pix)!
        image.pixels.withUnsafeBufferPointer { source in
            for y in 0..<image.height {
                let row = words + y * wpl
                let start = y * image.width
                var x = 0
                while x < image.width {
                    var word: UInt32 = 0
                    for k in 0..<4 {
                        let value: UInt32 = x + k < image.width ? UInt32(source[start + x + k]) : 255
                        word |= value << (24 - 8 * UInt32(k))
                    }
                    row[x / 4] = word
                    x += 4
                }
            }
        }
        return try recognize(
            pix, path: name, originalWidth: image.width, originalHeight: image.height, limits: limits,
            pageSegmentation: pageSegmentation ?? self.pageSegmentation, started: t0, steps: ["rendered(\(resolution)dpi)"],
            allowPhotoPass: false)
    }

    /// What preprocessing did to an image before its first reading.
    private struct Preparation {
        var quarterTurns = 0
        var skew: Double?
        /// The image was scaled up (small print) or down (large print) before reading: not a scan at a scanner's
        /// resolution.
        var scaled = false
    }

    /// Preprocesses and recognises `gray` (8-bit; this call destroys it).
    ///
    /// The first reading is the cheap one: one tesseract pass (a second only for faint prints). The expensive
    /// readings — the photo reading and its rectified variant, price cells, the total line — run only while the
    /// parse of the reading so far is unsure (``ReadingCheck``: no total, no date, items that do not add up to the
    /// total), and the best-scoring reading is kept. Each step's CPU time is the last step (``StepCosts``).
    private func recognize(
        _ gray: UnsafeMutablePointer<PIX>?, path: String, originalWidth: Int, originalHeight: Int, limits: OCRLimits,
        pageSegmentation: PageSegmentation, started t0: ContinuousClock.Instant, steps initialSteps: [String],
        costs initialCosts: StepCosts = StepCosts(), allowPhotoPass: Bool = true
    ) throws -> OCRResult {
        var steps = initialSteps
        var costs = initialCosts
        var pix: UnsafeMutablePointer<PIX>? = gray
        defer { pixDestroy(&pix) }
        let preparation = try prepare(&pix, path: path, receipt: allowPhotoPass, steps: &steps, costs: &costs)
        let processedW = Int(pixGetWidth(pix)), processedH = Int(pixGetHeight(pix))
        let t1 = ContinuousClock.now
        var reading = try firstReading(pix, path: path, limits: limits, started: t1, pageSegmentation: pageSegmentation,
                                       steps: &steps, costs: &costs)
        defer { pixDestroy(&reading.image) }
        let firstLines = reading.lines
        // The parse of the first reading, made once for the photo reading's gate and the line re-reads' gates.
        var check: ReadingCheck?
        if allowPhotoPass, preprocessing.photoPass != .never {
            check = readAgainAsPhoto(pix, &reading, path: path, limits: limits, started: t1, pageSegmentation: pageSegmentation,
                             scan: !preparation.scaled, steps: &steps, costs: &costs)
        }
        check = rereadLines(&reading, check: check, receipt: allowPhotoPass, steps: &steps, costs: &costs)
        if allowPhotoPass, preprocessing.rereadLogoBand {  // the store's name in large type (LogoBand.swift)
            let (named, changed) = rereadLogoBand(reading.lines, firstLines: firstLines, in: pix, parsed: check?.receipt)
            if changed { reading.lines = named; steps.append("reread-logo-band") }
            costs.record("logo-band")
        }
        steps.append(costs.step)
        let t2 = ContinuousClock.now
        return OCRResult(
            path: path, lines: reading.lines, meanConfidence: reading.meanConfidence,
            originalSize: OCRBox(x: 0, y: 0, width: originalWidth, height: originalHeight),
            processedSize: OCRBox(x: 0, y: 0, width: processedW, height: processedH),
            quarterTurnsApplied: preparation.quarterTurns, skewAngle: preparation.skew, steps: steps,
            preprocessSeconds: (t1 - t0).seconds, recognizeSeconds: (t2 - t1).seconds)
    }

    /// Upscaling of small images, downscaling of large print (receipt images only, not rendered PDF pages),
    /// orientation, deskew and the configured light and binarisation, in place.
    private func prepare(_ pix: inout UnsafeMutablePointer<PIX>?, path: String, receipt: Bool, steps: inout [String],
                         costs: inout StepCosts) throws -> Preparation {
        var preparation = Preparation()
        if pixGetXRes(pix) < 70 { pixSetResolution(pix, 300, 300) }
        // The upscale below is decided on the page as it came: a crop reads the print at the size it had on the page.
        let pageWidth = pixGetWidth(pix)
        if receipt, preprocessing.cropToInk, let ink = InkRegion.find(pix) {
            guard let box = boxCreate(Int32(ink.x), Int32(ink.y), Int32(ink.width), Int32(ink.height)) else {
                throw failure(path, "cannot make a crop box")
            }
            var clip: UnsafeMutablePointer<BOX>? = box
            defer { boxDestroy(&clip) }
            try replace(&pix, with: pixClipRectangle(pix, box, nil), path, "cropping to the print failed")
            steps.append("ink-crop(\(ink.width)×\(ink.height))")
            costs.record("ink-crop")
        }
        if let minWidth = preprocessing.upscaleBelowWidth, pageWidth < minWidth {
            try replace(&pix, with: pixScaleGrayLI(pix, 2, 2), path, "upscaling failed")
            preparation.scaled = true
            steps.append("upscale×2")
            costs.record("upscale")
        } else if receipt {
            preparation.scaled = try downscaleLargePrint(&pix, path: path, steps: &steps, costs: &costs)
        }
        let wantOrientation = preprocessing.detectOrientation == .always
            || (preprocessing.detectOrientation == .whenLandscape && pixGetWidth(pix) > pixGetHeight(pix))
        if wantOrientation, let osd = orientationHandle() {
            TessBaseAPISetImage2(osd, pix)
            defer { TessBaseAPIClear(osd) }
            var degrees: Int32 = 0
            var confidence: Float = 0
            var scriptConfidence: Float = 0
            var script: UnsafePointer<CChar>?
            if TessBaseAPIDetectOrientationScript(osd, &degrees, &confidence, &script, &scriptConfidence) != 0,
               degrees % 360 != 0, Double(confidence) >= preprocessing.orientationMinConfidence {
                // `degrees` is how far the text is rotated clockwise; undo it with the remaining quarter turns.
                preparation.quarterTurns = (4 - Int(degrees) / 90 % 4) % 4
                try replace(&pix, with: pixRotateOrth(pix, Int32(preparation.quarterTurns)), path, "rotation failed")
                steps.append("rotate(\(degrees)°, conf \(String(format: "%.1f", confidence)))")
            }
            costs.record("orientation")
        } else if wantOrientation {
            steps.append("osd-unavailable")
        }
        if preprocessing.deskew {
            var angle: Float = 0
            var conf: Float = 0
            var deskewed: UnsafeMutablePointer<PIX>? = pixFindSkewAndDeskew(pix, 0, &angle, &conf)
            if deskewed != nil {
                preparation.skew = Double(angle)
                if Double(abs(angle)) >= preprocessing.deskewMinAngle {
                    pixDestroy(&pix)
                    pix = deskewed
                    // leptonica leaves angles under 0.1° alone.
                    if abs(angle) >= 0.1 { steps.append(String(format: "deskew(%.2f°)", angle)) }
                } else {
                    pixDestroy(&deskewed)
                }
            }
            costs.record("deskew")
        }
        if preprocessing.normalizeBackground, let normalized = pixBackgroundNormSimple(pix, nil, nil) {
            pixDestroy(&pix)
            pix = normalized
            steps.append("background-norm")
            costs.record("light")
        }
        if let out = binarize(pix, preprocessing.binarization) {
            pixDestroy(&pix); pix = out; steps.append(preprocessing.binarization.rawValue)
            costs.record("binarize")
        }
        if let debugDir = ProcessInfo.processInfo.environment["LARDER_OCR_DEBUG_DIR"] {
            // Debug aid: the image exactly as tesseract receives it.
            let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            _ = pixWrite((debugDir as NSString).appendingPathComponent(name + ".png"), pix, Int32(IFF_PNG))
            costs.skip()
        }
        return preparation
    }

    /// Scales a large image down when its print is far taller than tesseract needs (``TextSize``,
    /// ``OCRPreprocessing/downscaleGlyphsAbove``): the readings after the first (photo, price cells, lines) crop
    /// from this image too, so they get cheaper alike.
    @discardableResult
    private func downscaleLargePrint(_ pix: inout UnsafeMutablePointer<PIX>?, path: String, steps: inout [String],
                                     costs: inout StepCosts) throws -> Bool {
        guard let above = preprocessing.downscaleGlyphsAbove,
              Int(pixGetWidth(pix)) * Int(pixGetHeight(pix)) >= preprocessing.downscaleMinimumPixels else { return false }
        let height = TextSize.medianGlyphHeight(pix)
        if let factor = TextSize.downscaleFactor(glyphHeight: height, above: above, target: preprocessing.downscaleGlyphTarget) {
            let f = Float(factor)
            try replace(&pix, with: pixScaleAreaMap(pix, f, f), path, "downscaling failed")
            steps.append(String(format: "downscale×%.2f(glyphs %.0fpx)", factor, height ?? 0))
            costs.record("text-size")
            return true
        }
        costs.record("text-size")
        return false
    }

    /// The reading kept so far: its lines, tesseract's mean confidence, and the 8-bit image its boxes refer to
    /// (which line re-reads crop from; owned by the reading's holder).
    private struct Reading {
        var lines: [OCRLine]
        var meanConfidence: Double
        var image: UnsafeMutablePointer<PIX>?
    }

    /// One tesseract pass over the prepared image; faint dot-matrix / thermal prints, where tesseract's global
    /// threshold can lose everything (fewer than ``OCRPreprocessing/fallbackBelowCharacters`` confident
    /// characters), are read once more with thickened strokes and the fallback binarisation, and the reading with
    /// more confident text is kept.
    private func firstReading(_ pix: UnsafeMutablePointer<PIX>?, path: String, limits: OCRLimits,
                              started: ContinuousClock.Instant, pageSegmentation: PageSegmentation,
                              steps: inout [String], costs: inout StepCosts) throws -> Reading {
        var (lines, mean) = try run(pix, path: path, limits: limits, started: started, pageSegmentation: pageSegmentation)
        costs.record("read")
        if let fallback = preprocessing.fallbackBinarization, fallback != preprocessing.binarization,
           Self.confidentCharacters(lines) < preprocessing.fallbackBelowCharacters,
           let binarized = Self.withThickenedStrokes(pix, { binarize($0, fallback) }) {
            var retryPix: UnsafeMutablePointer<PIX>? = binarized
            defer { pixDestroy(&retryPix) }
            let (retryLines, retryMean) = try run(
                retryPix, path: path, limits: limits, started: started, pageSegmentation: pageSegmentation)
            if Self.confidentCharacters(retryLines) > Self.confidentCharacters(lines) {
                lines = retryLines
                mean = retryMean
                steps.append("retry:\(fallback.rawValue)")
            }
            costs.record("faint-retry")
        }
        return Reading(lines: lines, meanConfidence: mean, image: pixClone(pix))
    }

    /// Reads the image again as a photo (``readAsPhoto(_:paper:firstLines:path:limits:started:pageSegmentation:)``)
    /// when ``OCRPreprocessing/photoPass`` is `.always` or the reading so far is unsure
    /// (``ReadingCheck/wantsPhotoReading(paperFound:)``); the photo reading replaces it when its parse scores at
    /// least ``OCRPreprocessing/photoMinimumGain`` higher. A reading that is sure is not read again, and its paper
    /// is not looked for. Returns the parse of the first reading while it is still the kept one (nil once the photo
    /// reading replaced it).
    @discardableResult
    private func readAgainAsPhoto(_ pix: UnsafeMutablePointer<PIX>?, _ reading: inout Reading, path: String,
                                  limits: OCRLimits, started: ContinuousClock.Instant, pageSegmentation: PageSegmentation,
                                  scan: Bool, steps: inout [String], costs: inout StepCosts) -> ReadingCheck? {
        let check = ReadingCheck(reading.lines)
        costs.record("check")
        let always = preprocessing.photoPass == .always
        guard always || !check.isSure else {
            steps.append("sure")
            return check
        }
        // The paper, when it is visibly smaller than the frame (a photo, not a scan).
        let paperStart = ContinuousClock.now
        let paper = Self.findPaper(pix)
        var paperMask = paper?.mask
        defer { pixDestroy(&paperMask) }
        let ms = Int(((ContinuousClock.now - paperStart).seconds * 1000).rounded())
        steps.append(paper == nil ? "no-paper(\(ms)ms)" : "paper(\(ms)ms)")
        costs.record("paper")
        guard always || check.wantsPhotoReading(paperFound: paper != nil) else { return check }
        // A flat scan (no paper outline, print at the size it came, paper-light edges all round): read from the body.
        let flat = preprocessing.photoFromBodyOnScans && scan && paper == nil
            && (Self.frameEdgeContrast(pix) ?? 0) >= preprocessing.photoFromBodyMinimumEdge
        // A photo reading that runs out of time (the deadline is wall time, so a loaded machine reaches it sooner)
        // or fails leaves the first reading in place, and says so in the steps stored with the OCR output.
        let photoReading: PhotoReading?
        do {
            photoReading = try readAsPhoto(pix, paper: paper, firstLines: reading.lines, path: path, limits: limits,
                                           started: started, pageSegmentation: pageSegmentation,
                                           fromBody: flat)
        } catch {
            steps.append("photo-failed(\((error as? ReceiptError)?.code.rawValue ?? "error"))")
            costs.record("photo")
            return check
        }
        guard var photo = photoReading else { return check }
        let firstScore = Self.readingScore(reading.lines)
        photo.steps.append(String(format: "score %.1f vs %.1f", photo.score, firstScore))
        if photo.score >= firstScore + preprocessing.photoMinimumGain {
            reading.lines = photo.lines
            reading.meanConfidence = photo.meanConfidence
            steps.append("photo[" + photo.steps.joined(separator: ",") + "]")
            pixDestroy(&reading.image)
            reading.image = photo.image
            costs.record("photo")
            return nil
        } else {
            steps.append("photo-rejected[" + photo.steps.joined(separator: ",") + "]")
            pixDestroy(&photo.image)
        }
        costs.record("photo")
        return check
    }

    /// Single lines read again, cropped from the kept reading's image and scaled up: price cells of item lines
    /// whose price is missing or garbled, only while the items do not add up to the total
    /// (``ReadingCheck/wantsPriceRereads``); lines whose date is misread; the total line when there is no total
    /// or it could be a misreading of the total the other amounts imply (``ReadingCheck/wantsTotalReread``).
    /// `receipt` is false for rendered PDF
    /// pages, which get only the date re-read.
    /// `check`: the parse of `reading.lines` when the caller made it. Returns the parse of the final lines when one
    /// was made after the last change (nil otherwise).
    @discardableResult
    private func rereadLines(_ reading: inout Reading, check initial: ReadingCheck? = nil, receipt: Bool,
                             steps: inout [String], costs: inout StepCosts) -> ReadingCheck? {
        // One parse of the lines serves every gate until a re-read changes them (a parse costs a few ms).
        var check = initial
        func parsed() -> ReadingCheck {
            let current = check ?? ReadingCheck(reading.lines)
            check = current
            return current
        }
        // A re-read that changed lines replaces them (and so the parse) and names its step.
        func take(_ result: ([OCRLine], Int), _ step: String, counted: Bool = false) {
            guard result.1 > 0 else { return }
            reading.lines = result.0
            check = nil
            steps.append(counted ? "\(step)(\(result.1))" : step)
        }
        if receipt, preprocessing.rereadMaxPriceLines > 0 {
            if parsed().wantsPriceRereads {
                take(rereadMissingPrices(reading.lines, in: reading.image, parsed: parsed().receipt), "reread-price", counted: true)
            }
            costs.record("price-cells")
        }
        if preprocessing.rereadMisreadDates {
            take(rereadMisreadDates(reading.lines, in: reading.image), "reread-date", counted: true)
            costs.record("date-line")
        }
        if receipt, preprocessing.rereadMisreadDates {  // a date line the barcode above it garbled (BarcodeLine.swift)
            take(rereadAtBarcode(reading.lines, in: reading.image, hasDate: parsed().hasDate), "reread-barcode-line")
            costs.record("barcode-line")
        }
        if receipt, preprocessing.rereadMisreadDates {  // no date at all: a line that may hold it (DateLine.swift)
            let hasDate = parsed().hasDate
            if !hasDate { take(rereadMissingDate(reading.lines, in: reading.image), "reread-missing-date") }
            costs.record("missing-date")
            if !hasDate, !parsed().hasDate {  // no line held it: the header as a block (DateHeader.swift)
                take(rereadDateHeader(reading.lines, in: reading.image), "reread-date-header")
                costs.record("date-header")
            }
            if hasDate {  // a date whose digits tesseract was unsure of (DateLine.swift)
                // The parse `hasDate` came from (the lines have not changed since).
                take(rereadUnsureDate(reading.lines, in: reading.image, parsed: parsed().receipt), "reread-unsure-date")
                costs.record("unsure-date")
            }
        }
        if receipt, preprocessing.rereadTotal {
            let current = parsed()
            if current.wantsTotalReread {
                take(rereadTotal(reading.lines, in: reading.image, parsed: current.receipt), "reread-total")
            }
            costs.record("total-line")
            // A total that nothing on the receipt confirms: its amount read again as digits (TotalLine.swift).
            let afterTotal = parsed()
            if afterTotal.hasTotal, !afterTotal.addsUp {
                take(rereadUnsureTotal(reading.lines, in: reading.image, parsed: afterTotal.receipt), "reread-unsure-total")
            }
            costs.record("unsure-total")
            // Still no total read: the summary block below the items as a block (SummaryBlock.swift).
            let beforeBlock = parsed()
            if !beforeBlock.hasTotal {
                take(rereadSummaryBlock(reading.lines, in: reading.image, parsed: beforeBlock.receipt), "reread-summary-block")
            }
            costs.record("summary-block")
            // Still no total read from a line: the summary band read at other scales (SummaryBand.swift).
            let beforeBand = parsed()
            if !beforeBand.hasTotal {
                take(rereadSummaryBand(reading.lines, in: reading.image, parsed: beforeBand.receipt), "reread-summary-band")
            }
            costs.record("summary-band")
        }
        return check
    }

    /// Runs `body` on a copy of `pix` whose dark strokes are thickened (grayscale erosion 3×3), which joins
    /// the dots of faint dot-matrix / thermal print.
    static func withThickenedStrokes(_ pix: UnsafeMutablePointer<PIX>?,
                                     _ body: (UnsafeMutablePointer<PIX>?) -> UnsafeMutablePointer<PIX>?) -> UnsafeMutablePointer<PIX>? {
        var eroded: UnsafeMutablePointer<PIX>? = pixErodeGray(pix, 3, 3)
        guard eroded != nil else { return body(pix) }
        defer { pixDestroy(&eroded) }
        return body(eroded)
    }

    /// A date-like token (`19/62/2018`, `O6/C2/2016`, `64-05-2013`): digits, or letters OCR confuses with
    /// digits, in three groups separated by `/`, `-` or `.`.
    static let dateLikePattern = #"(?<![A-Za-z0-9])[0-9OoIlDQCGSB]{1,4}\s?([-/.])\s?[0-9OoIlDQCGSB]{1,2}\s?\1\s?[0-9OoIlDQCGSB]{2,4}(?![A-Za-z0-9])"#

    /// Whether a line holds a date-like token that does not read as a valid date (month 62, day 64,
    /// letters for digits), or whose day and month are padded differently (`2-05-17`: a receipt printer pads
    /// both or neither, so a digit was probably lost), or whose year lies in the future: a misread date worth
    /// reading again.
    static func hasMisreadDate(_ text: String) -> Bool {
        let u = text.uppercased()
        guard let r = u.range(of: dateLikePattern, options: .regularExpression) else { return false }
        let token = u[r]
        // At least four digits, so that codes with slashes ("S/B", "C/O/D") are not taken for dates.
        guard token.filter(\.isNumber).count >= 4 else { return false }
        let fields = token.split(whereSeparator: { "-/.".contains($0) }).map { $0.trimmingCharacters(in: .whitespaces) }
        if fields.count == 3, fields[0].count <= 2, fields[0].count != fields[1].count { return true }
        guard let date = ReceiptParser().parseDate(u, currency: "") else { return true }
        return isFutureYear(date.year)  // "11/10/2044": a digit of the year misread (DateLine.swift)
    }

    /// Reads lines with a misread date (``hasMisreadDate(_:)``) again one at a time: the line's box is cropped
    /// from `pix` with a margin, scaled up (×2, then ×3) and recognised as a single line (PSM 7); the first
    /// re-read whose date is valid (and not itself suspect) replaces the line. Re-reading every line this way was measured worse than
    /// the page read on SROIE (fewer correct numbers), so only lines whose date is already known wrong are
    /// re-read. Returns the lines and how many changed.
    private func rereadMisreadDates(_ lines: [OCRLine], in pix: UnsafeMutablePointer<PIX>?) -> ([OCRLine], Int) {
        guard pixGetDepth(pix) == 8 else { return (lines, 0) }
        let width = Int(pixGetWidth(pix)), height = Int(pixGetHeight(pix))
        var out = lines
        var changed = 0
        var budget = preprocessing.rereadMaxLines
        for (i, line) in lines.enumerated() where budget > 0 && Self.hasMisreadDate(line.text) {
            let b = line.box
            guard b.width > 4, b.height > 4 else { continue }
            budget -= 1
            let mx = max(4, b.height / 3), my = max(3, b.height / 4)
            let x0 = max(0, b.x - mx), y0 = max(0, b.y - my)
            let x1 = min(width, b.x + b.width + mx), y1 = min(height, b.y + b.height + my)
            for scale in preprocessing.rereadScales {
                guard let (text, confidence) = readLine(pix, x: x0, y: y0, width: x1 - x0, height: y1 - y0, scale: scale)
                else { continue }
                if !Self.hasMisreadDate(text), ReceiptParser().parseDate(text.uppercased(), currency: "") != nil {
                    out[i].text = text
                    out[i].confidence = confidence
                    out[i].words = nil  // read again as one line: the page's word boxes no longer apply
                    changed += 1
                    break
                }
            }
        }
        return (out, changed)
    }

    /// Recognises one rectangle of `pix` as a single text line, scaled up; nil when nothing was read.
    /// `characters`, when given, limits what tesseract may read (`tessedit_char_whitelist`, e.g. an amount's digits).
    /// `clean`: binarise the crop (Otsu over the crop) and drop the marks that touch its edges (the cut-off
    /// strokes of the lines above and below), for a cell on uneven photo light.
    func readLine(_ pix: UnsafeMutablePointer<PIX>?, x: Int, y: Int, width: Int, height: Int, scale: Double,
                  characters: String? = nil, clean: Bool = false) -> (String, Double)? {
        guard let box = boxCreate(Int32(x), Int32(y), Int32(width), Int32(height)) else { return nil }
        var boxRef: UnsafeMutablePointer<BOX>? = box
        defer { boxDestroy(&boxRef) }
        var crop: UnsafeMutablePointer<PIX>? = pixClipRectangle(pix, box, nil)
        guard crop != nil else { return nil }
        defer { pixDestroy(&crop) }
        let scale = Float(scale)
        var scaled: UnsafeMutablePointer<PIX>? = scale == 1 ? pixClone(crop) : pixScaleGrayLI(crop, scale, scale)
        guard scaled != nil else { return nil }
        defer { pixDestroy(&scaled) }
        if clean, let binary = Self.cleanedCell(scaled) {
            pixDestroy(&scaled)
            scaled = binary
        }
        var bordered: UnsafeMutablePointer<PIX>? = pixAddBorder(scaled, Int32(10 * scale), pixGetDepth(scaled) == 1 ? 0 : 255)
        guard bordered != nil else { return nil }
        defer { pixDestroy(&bordered) }
        let resolution = pixGetXRes(pix)
        pixSetResolution(bordered, resolution, resolution)
        TessBaseAPISetPageSegMode(handle, PSM_SINGLE_LINE)
        if let characters { _ = TessBaseAPISetVariable(handle, "tessedit_char_whitelist", characters) }
        TessBaseAPISetImage2(handle, bordered)
        defer {
            TessBaseAPIClear(handle)
            if characters != nil { _ = TessBaseAPISetVariable(handle, "tessedit_char_whitelist", "") }
        }
        guard TessBaseAPIRecognize(handle, nil) == 0, let cText = TessBaseAPIGetUTF8Text(handle) else { return nil }
        let text = String(cString: cText).trimmingCharacters(in: .whitespacesAndNewlines)
        TessDeleteText(cText)
        guard !text.isEmpty else { return nil }
        return (text.replacingOccurrences(of: "\n", with: " "), Double(TessBaseAPIMeanTextConf(handle)))
    }

    /// Pixels of an 8-bit image darker than this are ink for ``hasInk(_:_:minimum:)``: print on paper, also on a
    /// photo's unevenly lit (darker) paper or background-normalised paper (at 200); shadows count as ink too,
    /// which costs an OCR call, never a reading.
    static let inkLevel = 170

    /// Whether `rect` of the 8-bit `pix` holds at least `minimum` ink pixels (darker than ``inkLevel``): decides
    /// before an OCR call whether anything is printed there to read. True when the test cannot be made.
    static func hasInk(_ pix: UnsafeMutablePointer<PIX>?, _ rect: PixelRect, minimum: Int) -> Bool {
        var region: UnsafeMutablePointer<PIX>? = crop(pix, rect)
        guard region != nil else { return true }
        defer { pixDestroy(&region) }
        var ink: UnsafeMutablePointer<PIX>? = pixThresholdToBinary(region, Int32(inkLevel))
        guard ink != nil else { return true }
        defer { pixDestroy(&ink) }
        var count: Int32 = 0
        guard pixCountPixels(ink, &count, nil) == 0 else { return true }
        return Int(count) >= minimum
    }

    /// Characters in lines read with confidence ≥ 50.
    static func confidentCharacters(_ lines: [OCRLine]) -> Int {
        lines.filter { $0.confidence >= 50 }.reduce(0) { $0 + $1.text.count }
    }

    /// A binarised copy (caller destroys), or nil for `.none` / on failure.
    private func binarize(_ pix: UnsafeMutablePointer<PIX>?, _ method: OCRPreprocessing.Binarization) -> UnsafeMutablePointer<PIX>? {
        var out: UnsafeMutablePointer<PIX>?
        switch method {
        case .none:
            return nil
        case .otsuAdaptive:
            guard pixOtsuAdaptiveThreshold(pix, 300, 300, 0, 0, 0.1, nil, &out) == 0 else { return nil }
        case .sauvola:
            guard pixSauvolaBinarize(pix, 25, 0.35, 1, nil, nil, nil, &out) == 0 else { return nil }
        }
        return out
    }

    /// One tesseract pass over `pix`, with the deadline counted from `started`; from row `top` down when it is
    /// above 0 (`TessBaseAPISetRectangle`: the lines' boxes stay in `pix`'s coordinates).
    func run(_ pix: UnsafeMutablePointer<PIX>?, path: String, limits: OCRLimits,
                     started: ContinuousClock.Instant, pageSegmentation: PageSegmentation,
                     fromRow top: Int = 0) throws -> ([OCRLine], Double) {
        TessBaseAPISetPageSegMode(handle, TessPageSegMode(rawValue: UInt32(pageSegmentation.rawValue)))
        TessBaseAPISetImage2(handle, pix)
        if top > 0, top < Int(pixGetHeight(pix)) {
            TessBaseAPISetRectangle(handle, 0, Int32(top), pixGetWidth(pix), pixGetHeight(pix) - Int32(top))
        }
        defer { TessBaseAPIClear(handle) }
        let monitor = TessMonitorCreate()
        defer { TessMonitorDelete(monitor) }
        if let limit = limits.timeLimit {
            let remaining = limit - (ContinuousClock.now - started)
            let ms = max(1, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000)
            TessMonitorSetDeadlineMSecs(monitor, Int32(clamping: ms))
        }
        let status = TessBaseAPIRecognize(handle, monitor)
        if let limit = limits.timeLimit, ContinuousClock.now - started >= limit {
            throw ReceiptError(.timedOut, path: path, message: "recognition exceeded the time limit of \(limit)",
                               hint: "Check the image (is it a receipt?), downscale it, or raise timeLimit.")
        }
        guard status == 0 else { throw failure(path, "TessBaseAPIRecognize returned \(status)") }

        var lines: [OCRLine] = []
        if let iterator = TessBaseAPIGetIterator(handle) {
            defer { TessResultIteratorDelete(iterator) }
            let pageIterator = TessResultIteratorGetPageIterator(iterator)
            // Word by word, starting a line at each text line's first word: every line keeps its words' boxes.
            var current: OCRLine?
            repeat {
                if TessPageIteratorIsAtBeginningOf(pageIterator, RIL_TEXTLINE) != 0 {
                    if let line = current, !line.text.isEmpty { lines.append(line) }
                    current = Self.element(iterator, pageIterator, RIL_TEXTLINE).map {
                        OCRLine(text: $0.text, confidence: $0.confidence, box: $0.box, words: [])
                    }
                }
                if current != nil, let word = Self.element(iterator, pageIterator, RIL_WORD) {
                    current?.words?.append(word)
                }
            } while TessResultIteratorNext(iterator, RIL_WORD) != 0
            if let line = current, !line.text.isEmpty { lines.append(line) }
        }
        if pageSegmentation == .singleBlock, preprocessing.rebuildRows != .never {
            lines = WordRows.chooseRows(lines, always: preprocessing.rebuildRows == .always)
        }
        return (lines, Double(TessBaseAPIMeanTextConf(handle)))
    }

    /// The text (trimmed), confidence and box of the element at `level` under the iterator; nil when empty.
    private static func element(_ iterator: OpaquePointer, _ pageIterator: OpaquePointer?,
                                _ level: TessPageIteratorLevel) -> OCRWord? {
        guard let cText = TessResultIteratorGetUTF8Text(iterator, level) else { return nil }
        let text = String(cString: cText).trimmingCharacters(in: .whitespacesAndNewlines)
        TessDeleteText(cText)
        if text.isEmpty { return nil }
        var left: Int32 = 0, top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0
        _ = TessPageIteratorBoundingBox(pageIterator, level, &left, &top, &right, &bottom)
        return OCRWord(text: text, confidence: Double(TessResultIteratorConfidence(iterator, level)),
                       box: OCRBox(x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top)))
    }

    /// Writes a copy of an image turned clockwise by `quarterTurns` × 90° as PNG (test fixtures).
    static func writeRotatedCopy(of path: String, to output: String, quarterTurns: Int) -> Bool {
        var pix: UnsafeMutablePointer<PIX>? = pixRead(fileSystemPath(path))
        guard pix != nil else { return false }
        defer { pixDestroy(&pix) }
        var rotated: UnsafeMutablePointer<PIX>? = pixRotateOrth(pix, Int32(quarterTurns))
        guard rotated != nil else { return false }
        defer { pixDestroy(&rotated) }
        return pixWrite(output, rotated, Int32(IFF_PNG)) == 0
    }

    private func replace(_ pix: inout UnsafeMutablePointer<PIX>?, with new: UnsafeMutablePointer<PIX>?,
                         _ path: String, _ what: String) throws {
        guard let new else { throw failure(path, what) }
        pixDestroy(&pix)
        pix = new
    }

    private func failure(_ path: String, _ what: String) -> ReceiptError {
        ReceiptError(.recognitionFailed, path: path, message: what,
                     hint: "Re-save the image as an 8-bit PNG or JPEG; report the file if it persists.")
    }
}

extension Duration {
    /// The duration in (fractional) seconds.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// A tesseract handle must not be used from two threads at once: one engine per worker thread.
@available(*, unavailable, message: "OCREngine wraps a tesseract handle; create one engine per thread")
extension OCREngine: Sendable {}

/// A path's file-system bytes: LarderCore's `FilePath` carries a file-name byte that is not UTF-8 as the scalar
/// U+10FF00 + byte; leptonica gets the byte back. (LarderOCR does not depend on LarderCore, hence this copy.)
func fileSystemPath(_ path: String) -> [CChar] {
    var bytes: [CChar] = []
    for scalar in path.unicodeScalars {
        if (0x10_FF80...0x10_FFFF).contains(scalar.value) {
            bytes.append(CChar(bitPattern: UInt8(scalar.value - 0x10_FF00)))
        } else {
            bytes += String(scalar).utf8.map { CChar(bitPattern: $0) }
        }
    }
    return bytes + [0]
}
