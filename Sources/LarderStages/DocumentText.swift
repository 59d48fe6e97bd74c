import Foundation
import LarderCore
import LarderReceipts

/// The text the stages after `ocr` read: `extract`'s pages, or, for a scanned PDF (no text layer), the `ocr`
/// stage's lines laid out as pages, so `route` and `recipe` read a scan the way they read a PDF with text.
///
/// OCR lines become ``PDFLine``s in points (pixels × 72 / dpi), with a font size estimated from the line's height,
/// so titles still stand out by size.
public enum DocumentText {
    /// `extracted` itself unless it is a scanned PDF that OCR read; then the OCR lines as pages (`needsOCR` false).
    public static func readable(_ extracted: ExtractOutput, ocr: OCRStageOutput?) -> ExtractOutput {
        guard extracted.needsOCR, !extracted.format.isImage, let ocr, ocr.skipped == nil, !ocr.lines.isEmpty else {
            return extracted
        }
        let pages = extracted.pages.isEmpty
            ? Set(ocr.lines.map(\.page)).sorted().map { PDFPageText(number: $0, width: 0, height: 0, text: "", spans: []) }
            : extracted.pages
        let rendered = Dictionary(ocr.pages.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        let scanned = pages.map { page -> PDFPageText in
            let toPoints = 72 / (rendered[page.number]?.resolution ?? 300)
            let lines = ocr.lines.filter { $0.page == page.number }.map { line in
                let height = Double(line.box.height) * toPoints
                return PDFLine(
                    text: line.text, x: round1(Double(line.box.x) * toPoints), y: round1(Double(line.box.y) * toPoints),
                    width: round1(Double(line.box.width) * toPoints), height: round1(height),
                    // A line's box spans ascenders to descenders, about 1.2 × the font size.
                    fontSize: (height / 1.2 * 2).rounded() / 2, bold: false)
            }
            return PDFPageText(
                number: page.number, width: page.width, height: page.height,
                text: lines.map(\.text).joined(separator: "\n"), spans: [], lines: lines)
        }
        return ExtractOutput(format: extracted.format, pages: scanned, needsOCR: false)
    }

    /// Reads `extract`'s and (when present) `ocr`'s outputs from a stage's input.
    public static func readable(_ input: StageInput) throws -> ExtractOutput {
        let extracted = try input.output(of: "extract", as: ExtractOutput.self)
        let ocr = input.outputIfPresent(of: "ocr", as: OCRStageOutput.self)
        return readable(extracted, ocr: ocr)
    }

    private static func round1(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
