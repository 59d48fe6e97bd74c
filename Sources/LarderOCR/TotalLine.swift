internal import CTesseract
import Foundation
import LarderReceipts

/// The total line of a receipt read again on its own when the page reading lost or garbled its amount.
extension OCREngine {
    /// Whether a line names a total (TOTAL, SUMME, BAL DUE…, as the parser reads them), with or without an
    /// amount: the parser's total rule applied to the line with an amount put after it.
    static func isTotalLabel(_ text: String) -> Bool {
        let label = ReceiptParser.endsWithAmount(text) ? text : text + " 1.00"
        return ReceiptParser.isTotalLine(label)
    }

    /// Reads total lines again, cropped from the line's left edge to the right edge of the image (where the
    /// amount is), scaled ×2 then ×3 and recognised as one line (PSM 7, ``readLine(_:x:y:width:height:scale:)``,
    /// as the date re-read does). Two cases, decided by what the parser finds in `lines`:
    /// - no total: a total line without an amount is replaced by the first re-read that gives the receipt one;
    /// - a total that disagrees with the rest (`total mismatch`): a total line is replaced by a re-read whose
    ///   total equals the subtotal plus tax, or the items less discounts plus tax (``expectedTotal(_:)``).
    /// At most ``OCRPreprocessing/rereadMaxLines`` lines are tried. Returns the lines and how many changed.
    func rereadTotal(_ lines: [OCRLine], in pix: UnsafeMutablePointer<PIX>?) -> ([OCRLine], Int) {
        guard pixGetDepth(pix) == 8 else { return (lines, 0) }
        let receipt = ReceiptParser().parse(lines: lines)
        let expected = Self.expectedTotal(receipt)
        let mismatch = receipt.total != nil && receipt.reviewReasons.contains { $0.hasPrefix("total mismatch") }
        // A total inferred from subtotal + tax (its own amount unread) is read again like a missing one.
        let inferred = receipt.totalInferred
        guard receipt.total == nil || inferred || (mismatch && expected != nil) else { return (lines, 0) }
        let width = Int(pixGetWidth(pix)), height = Int(pixGetHeight(pix))
        var budget = preprocessing.rereadMaxLines
        let column = Self.priceColumn(lines)
        // The last total lines first: the grand total is printed below subtotals.
        for i in lines.indices.reversed() where budget > 0 && Self.isTotalLabel(lines[i].text) {
            let line = lines[i], b = line.box
            guard b.width > 4, b.height > 4 else { continue }
            budget -= 1
            // The amount's cell alone first (digits only, in the price column), as for item lines: a faint
            // amount far right of its label is lost again when read with the label.
            if let left = column?.left, let cell = rereadPriceCell(line, left: left, right: column!.right, in: pix)
                ?? rereadPriceCell(line, left: left, right: column!.right, in: pix, clean: true) {
                var candidate = lines
                candidate[i] = cell
                // A single cell's digits are checked against the receipt's own sum when it has one ("7.71"
                // read as "7.11" under a subtotal and tax that add up to 7.71).
                let parsed = ReceiptParser().parse(lines: candidate)
                if let total = parsed.total, !parsed.totalInferred, expected == nil || total == expected {
                    return (candidate, 1)
                }
            }
            let mx = max(4, b.height / 2), my = max(3, b.height / 4)
            let x0 = max(0, b.x - mx), y0 = max(0, b.y - my), y1 = min(height, b.y + b.height + my)
            for scale in preprocessing.rereadScales {
                guard let (text, confidence) = readLine(pix, x: x0, y: y0, width: width - x0, height: y1 - y0, scale: scale),
                      ReceiptParser.isTotalLine(text), text != line.text else { continue }
                var candidate = lines
                candidate[i].text = text
                candidate[i].confidence = confidence
                let parsed = ReceiptParser().parse(lines: candidate)
                guard let total = parsed.total, !parsed.totalInferred else { continue }
                if !mismatch || total == expected { return (candidate, 1) }
            }
        }
        return (lines, 0)
    }

    /// The total a receipt's other amounts imply: subtotal plus tax when a subtotal was read, else the items
    /// less discounts plus tax; nil without either.
    static func expectedTotal(_ receipt: ParsedReceipt) -> Decimal? {
        let tax = receipt.tax ?? 0
        if let subtotal = receipt.subtotal { return subtotal + tax }
        guard !receipt.items.isEmpty else { return nil }
        let items = receipt.items.reduce(Decimal(0)) { $0 + $1.total }
        let discounts = receipt.discounts.reduce(Decimal(0)) { $0 + $1.amount }
        return items - discounts + tax
    }
}
