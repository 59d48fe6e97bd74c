internal import CTesseract
import Foundation
import LarderReceipts

/// The receipt's header (the print above its first priced line) read again as a block when no line re-read
/// found the date: the page reading can lose a date line entirely (small or faint print, a signature or a
/// handwritten note across it, a shadow), so there is no line of it to crop.
extension OCREngine {
    /// Scaled header lines are made about this high (px): small print (6–8 px in a phone photo) is read
    /// better larger.
    static let headerLineHeight = 40.0

    /// A header larger than this once scaled (pixels) is not read again: its reading would cost more than a
    /// second of CPU.
    static let headerMaxPixels = 3_000_000

    /// The header band of `lines`: from above the first line to the top of the first line that ends in an
    /// amount (the first item or summary line). Nil when the receipt has no priced line or nothing is read above
    /// it.
    static func headerBand(_ lines: [OCRLine], imageHeight: Int) -> (top: Int, bottom: Int, lineHeight: Int)? {
        guard let firstPriced = lines.firstIndex(where: { ReceiptParser.endsWithAmount($0.text) }), firstPriced > 0
        else { return nil }
        let header = lines[..<firstPriced].filter { $0.box.width > 0 && $0.box.height > 0 }
        guard !header.isEmpty else { return nil }
        let heights = header.map(\.box.height).sorted()
        let lineHeight = max(4, heights[heights.count / 2])
        let top = max(0, header.map(\.box.y).min()! - lineHeight)
        let bottom = min(imageHeight, lines[firstPriced].box.y)
        guard bottom - top > 2 * lineHeight else { return nil }
        return (top, bottom, lineHeight)
    }

    /// When no line re-read found the receipt's date, the header band (``headerBand(_:imageHeight:)``) across
    /// the whole width of the image, scaled so its lines are ~``headerLineHeight`` px high (×1 to ×3), is read
    /// as one block (PSM 6). The first block line on which the parser (with the receipt's own currency and
    /// evidence for day- or month-first) reads a date, not in the future, is added to the lines where it lies
    /// (before the first page line below it); the page's own lines stay as they were read. Returns the lines and
    /// how many were added (0, with `lines` unchanged, when no block line holds a date; else 1).
    func rereadDateHeader(_ lines: [OCRLine], in pix: UnsafeMutablePointer<PIX>?) -> ([OCRLine], Int) {
        guard pixGetDepth(pix) == 8, let candidate = readHeaderForDate(lines, in: pix) else { return (lines, 0) }
        return (candidate, 1)
    }

    private func readHeaderForDate(_ lines: [OCRLine], in pix: UnsafeMutablePointer<PIX>?) -> [OCRLine]? {
        let parser = ReceiptParser()
        let width = Int(pixGetWidth(pix)), height = Int(pixGetHeight(pix))
        guard let band = Self.headerBand(lines, imageHeight: height) else { return nil }
        let scale = min(3, max(1, Self.headerLineHeight / Double(band.lineHeight)))
        guard Double(width * (band.bottom - band.top)) * scale * scale <= Double(Self.headerMaxPixels) else { return nil }
        guard let read = readBlock(pix, x: 0, y: band.top, width: width, height: band.bottom - band.top, scale: scale,
                                   segmentation: .singleBlock) else { return nil }
        Self.traceReread("date header ×\(scale): " + read.map(\.text).joined(separator: " / "))
        return Self.withDateLine(from: read, in: lines, parser: parser)
    }

    /// `lines` with the first of `read` on which the parser reads a date (not in the future) added where it lies
    /// (before the first line below it); nil when none of them holds one.
    static func withDateLine(from read: [OCRLine], in lines: [OCRLine], parser: ReceiptParser) -> [OCRLine]? {
        for line in read where line.text.contains(where: \.isNumber) {
            var candidate = lines
            let at = lines.firstIndex { $0.box.y > line.box.y } ?? lines.count
            candidate.insert(line, at: at)
            let parsed = parser.parse(lines: candidate)
            guard let date = parsed.date, at < parsed.lines.count, parsed.lines[at].kind == .date,
                  !isFutureYear(date.year) else { continue }
            return candidate
        }
        return nil
    }
}
