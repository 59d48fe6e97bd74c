import Foundation

/// A rectangle in image pixels (top-left origin) of the image tesseract saw, i.e. after preprocessing.
public struct OCRBox: Sendable, Codable, Equatable, Hashable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    /// Creates a box.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// One word as tesseract read it: its text, confidence and box (the coordinates of ``OCRLine/box``).
public struct OCRWord: Sendable, Codable, Equatable {
    public var text: String
    /// Tesseract's confidence for the word, 0–100.
    public var confidence: Double
    public var box: OCRBox

    /// Creates a word; `confidence` 0–100.
    public init(text: String, confidence: Double = 100, box: OCRBox) {
        self.text = text
        self.confidence = confidence
        self.box = box
    }
}

/// One printed line as tesseract read it.
public struct OCRLine: Sendable, Codable, Equatable {
    /// The line's text, trimmed, without the trailing newline.
    public var text: String
    /// Tesseract's confidence for the line, 0–100.
    public var confidence: Double
    /// Where the line is, in the coordinates of the preprocessed image.
    public var box: OCRBox
    /// The 1-based page the line is on: always 1 for a photo, the PDF page for a scanned PDF.
    public var page: Int
    /// The line's words with their boxes, left to right, when the OCR engine kept them (rows are rebuilt
    /// from them, see `WordRows`); nil for lines from elsewhere and for lines read again on their own. The
    /// `ocr` stage stores them: the receipt parser weighs amounts by their words' confidence, so `larder ingest`
    /// must parse the same lines `larder eval receipts` does.
    public var words: [OCRWord]?

    /// Creates a line; `confidence` 0–100.
    public init(
        text: String, confidence: Double = 100, box: OCRBox = OCRBox(x: 0, y: 0, width: 0, height: 0), page: Int = 1,
        words: [OCRWord]? = nil
    ) {
        self.text = text
        self.confidence = confidence
        self.box = box
        self.page = page
        self.words = words
    }

    private enum CodingKeys: String, CodingKey { case text, confidence, box, page, words }

    /// Decodes a line; `page` is 1 when absent (lines saved before scanned PDFs were read).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        text = try c.decode(String.self, forKey: .text)
        confidence = try c.decode(Double.self, forKey: .confidence)
        box = try c.decode(OCRBox.self, forKey: .box)
        page = try c.decodeIfPresent(Int.self, forKey: .page) ?? 1
        words = try c.decodeIfPresent([OCRWord].self, forKey: .words)
    }
}

/// The outcome of recognising one image.
public struct OCRResult: Sendable, Codable, Equatable {
    /// The image path as given.
    public var path: String
    /// Lines top to bottom.
    public var lines: [OCRLine]
    /// Tesseract's mean text confidence, 0–100.
    public var meanConfidence: Double
    /// Width × height of the original image.
    public var originalSize: OCRBox
    /// Width × height of the image given to tesseract (after upscaling / rotation).
    public var processedSize: OCRBox
    /// Clockwise quarter-turns applied after orientation detection (0 when upright or not detected).
    public var quarterTurnsApplied: Int
    /// The skew angle (degrees) leptonica found and corrected, when deskewing ran.
    public var skewAngle: Double?
    /// Preprocessing steps applied, in order, e.g. `["gray8", "upscale×2", "deskew(-1.2°)"]`.
    public var steps: [String]
    /// Wall-clock seconds spent in preprocessing (including orientation detection) and in recognition.
    public var preprocessSeconds: Double
    /// Wall-clock seconds in `TessBaseAPIRecognize`.
    public var recognizeSeconds: Double
    /// What the image codec reported while decoding the file (libjpeg's "Corrupt JPEG data: premature end of
    /// data segment", a libpng warning), as the codec said it; nil when it reported nothing.
    public var decoderWarnings: [String]?

    public init(
        path: String, lines: [OCRLine], meanConfidence: Double, originalSize: OCRBox, processedSize: OCRBox,
        quarterTurnsApplied: Int, skewAngle: Double?, steps: [String], preprocessSeconds: Double,
        recognizeSeconds: Double
    ) {
        self.path = path
        self.lines = lines
        self.meanConfidence = meanConfidence
        self.originalSize = originalSize
        self.processedSize = processedSize
        self.quarterTurnsApplied = quarterTurnsApplied
        self.skewAngle = skewAngle
        self.steps = steps
        self.preprocessSeconds = preprocessSeconds
        self.recognizeSeconds = recognizeSeconds
    }

    /// All line texts joined with newlines.
    public var text: String { lines.map(\.text).joined(separator: "\n") }
}

