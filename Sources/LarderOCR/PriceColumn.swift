internal import CTesseract
import Foundation
import LarderReceipts

/// The price column of a receipt: item lines whose price OCR lost or garbled are read again.
extension OCREngine {
    /// The right edge (pixels) of the price column: the median right edge of the lines that end in an amount,
    /// when at least three do; nil otherwise.
    static func priceColumnRight(_ lines: [OCRLine]) -> Int? {
        let rights = lines.filter { ReceiptParser.endsWithAmount($0.text) && $0.box.width > 0 }
            .map { $0.box.x + $0.box.width }.sorted()
        guard rights.count >= 3 else { return nil }
        return rights[rights.count / 2]
    }

    /// Whether a line looks like an item whose price was lost: it has a name (three letters or more), no
    /// amount at its end, is not a summary or date line, and lies above the first total line.
    static func isItemWithoutPrice(_ line: OCRLine) -> Bool {
        let text = line.text
        guard !ReceiptParser.endsWithAmount(text), text.filter(\.isLetter).count >= 3,
              text.split(separator: " ").count >= 2 else { return false }
        return !ReceiptParser.isSummaryLine(text)
    }

    /// Reads again, one at a time, item lines above the first total whose price is missing or garbled
    /// (``isItemWithoutPrice(_:)``) when the receipt has a price column (``priceColumnRight(_:)``): the line
    /// is cropped from its left edge to the column's right edge (plus a margin), scaled ×2 and recognised as
    /// a single line; the re-read replaces the line when it ends in an amount. At most
    /// ``OCRPreprocessing/rereadMaxPriceLines`` lines per image. Returns the lines and how many changed.
    func rereadMissingPrices(_ lines: [OCRLine], in pix: UnsafeMutablePointer<PIX>?) -> ([OCRLine], Int) {
        guard pixGetDepth(pix) == 8, let right = Self.priceColumnRight(lines) else { return (lines, 0) }
        let width = Int(pixGetWidth(pix)), height = Int(pixGetHeight(pix))
        let end = lines.firstIndex { ReceiptParser.isTotalLine($0.text) } ?? lines.count
        // The body starts at the first line with an amount: header lines are centred text, not items.
        let start = lines.firstIndex { ReceiptParser.endsWithAmount($0.text) } ?? lines.count
        var out = lines
        var changed = 0
        var budget = preprocessing.rereadMaxPriceLines
        for i in start..<max(start, end) where budget > 0 && Self.isItemWithoutPrice(lines[i]) {
            let b = lines[i].box
            guard b.width > 4, b.height > 4, b.x + b.width > right - right / 3 else { continue }
            budget -= 1
            let mx = max(4, b.height / 2), my = max(3, b.height / 4)
            let x0 = max(0, b.x - mx), y0 = max(0, b.y - my)
            let x1 = min(width, max(b.x + b.width, right) + mx), y1 = min(height, b.y + b.height + my)
            guard let (text, confidence) = readLine(pix, x: x0, y: y0, width: x1 - x0, height: y1 - y0, scale: 2),
                  ReceiptParser.endsWithAmount(text),
                  text.filter(\.isLetter).count >= 3 else { continue }
            out[i].text = text
            out[i].confidence = confidence
            out[i].words = nil
            changed += 1
        }
        return (out, changed)
    }
}
