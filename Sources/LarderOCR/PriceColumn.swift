internal import CTesseract
import Foundation
import LarderReceipts

/// The price column of a receipt: item lines whose price OCR lost or garbled are read again.
extension OCREngine {
    /// The price column's edges (pixels): the median left and right edges of the amounts that end priced lines
    /// (from the lines' word boxes; without them, the left edge is unknown and the right edge is the lines'),
    /// when at least three lines end in an amount; nil otherwise.
    static func priceColumn(_ lines: [OCRLine]) -> (left: Int?, right: Int)? {
        var lefts: [Int] = [], rights: [Int] = []
        for line in lines where ReceiptParser.endsWithAmount(line.text) && line.box.width > 0 {
            if let word = line.words?.last(where: { ReceiptParser.endsWithAmount($0.text) }) {
                lefts.append(word.box.x)
                rights.append(word.box.x + word.box.width)
            } else {
                rights.append(line.box.x + line.box.width)
            }
        }
        guard rights.count >= 3 else { return nil }
        func median(_ v: [Int]) -> Int { v.sorted()[v.count / 2] }
        return (lefts.count >= 3 ? median(lefts) : nil, median(rights))
    }

    /// Whether a line looks like an item whose price was lost: it has a name (three letters or more), no
    /// amount at its end, is not a summary or date line, and lies above the first total line.
    static func isItemWithoutPrice(_ line: OCRLine) -> Bool {
        let text = line.text
        guard !ReceiptParser.endsWithAmount(text), text.filter(\.isLetter).count >= 3,
              text.split(separator: " ").count >= 2 else { return false }
        return !ReceiptParser.isSummaryLine(text)
    }

    /// An amount as a price cell reads it: digits, a decimal separator and two decimals (`5,29`, `12.99`,
    /// `0,29-`).
    static let cellAmountPattern = #"^-?\d{1,4}[.,]\d\d-?$"#

    /// A re-read price cell is used only when tesseract's confidence in it is at least this.
    static let minimumCellConfidence = 60.0

    /// Reads again, one at a time, item lines above the first total whose price is missing or garbled
    /// (``isItemWithoutPrice(_:)``) when the receipt has a price column (``priceColumn(_:)``).
    ///
    /// First the line's price cell alone: when the column's left edge is known (word boxes), the column is
    /// cropped at the height of the line's words that reach into it, scaled ×2 (then ×3) and read as one line of digits
    /// and separators only; a reading that is an amount (``cellAmountPattern``) replaces the garbled words after
    /// the name. Otherwise (or when that fails) the whole line, from its left edge to the column's right edge,
    /// scaled ×2; kept when it ends in an amount. At most ``OCRPreprocessing/rereadMaxPriceLines`` lines per
    /// image. Returns the lines and how many changed.
    func rereadMissingPrices(_ lines: [OCRLine], in pix: UnsafeMutablePointer<PIX>?) -> ([OCRLine], Int) {
        guard pixGetDepth(pix) == 8, let column = Self.priceColumn(lines) else { return (lines, 0) }
        let end = lines.firstIndex { ReceiptParser.isTotalLine($0.text) } ?? lines.count
        // The body starts at the first line with an amount: header lines are centred text, not items. When no
        // line above the total kept its price, after the header the parser found (store, address, contact, date).
        var start = lines.firstIndex { ReceiptParser.endsWithAmount($0.text) } ?? lines.count
        if start >= end {
            let kinds = ReceiptParser().parse(lines: lines).lines.map(\.kind)
            let header: Set<ReceiptLineKind> = [.store, .address, .date]
            let last = (0..<min(end, kinds.count)).last { header.contains(kinds[$0]) || lines[$0].text.uppercased().contains("TEL") }
            start = last.map { $0 + 1 } ?? end
        }
        var out = lines
        var changed = 0
        var budget = preprocessing.rereadMaxPriceLines
        for i in start..<max(start, end) where budget > 0 && Self.isItemWithoutPrice(lines[i]) {
            let b = lines[i].box
            // A line whose price was lost altogether ends left of the column: its cell is still read when the
            // column's left edge is known.
            guard b.width > 4, b.height > 4,
                  column.left != nil || b.x + b.width > column.right - column.right / 3 else { continue }
            // Nothing printed in the column beside the name (its price is on the next line, or it is not an item
            // line): nothing to read, and no OCR call is spent on it.
            if let left = column.left, !Self.hasInkInColumn(lines[i], left: left, right: column.right, in: pix) { continue }
            budget -= 1
            if let left = column.left, let line = rereadPriceCell(lines[i], left: left, right: column.right, in: pix) {
                out[i] = line
                changed += 1
            } else if let line = rereadWholeLine(lines[i], right: column.right, in: pix) {
                out[i] = line
                changed += 1
            }
        }
        return (out, changed)
    }

    /// A grayscale cell binarised by Otsu's threshold over the whole cell, without the components that touch
    /// its border (strokes of the neighbouring lines cut by the crop); nil when leptonica fails.
    static func cleanedCell(_ gray: UnsafeMutablePointer<PIX>?) -> UnsafeMutablePointer<PIX>? {
        let w = pixGetWidth(gray), h = pixGetHeight(gray)
        var binary: UnsafeMutablePointer<PIX>?
        guard pixOtsuAdaptiveThreshold(gray, w, h, 0, 0, 0.1, nil, &binary) == 0, binary != nil else { return nil }
        defer { pixDestroy(&binary) }
        return pixRemoveBorderConnComps(binary, 8)
    }

    /// Whether anything is printed in the price column at the line's height: at least a twentieth of a square
    /// word height of pixels darker than ``OCREngine/inkLevel`` (less than one digit's ink) between the column's
    /// left edge less half a word height (where the name's words end) and its right edge. True without word boxes.
    static func hasInkInColumn(_ line: OCRLine, left: Int, right: Int, in pix: UnsafeMutablePointer<PIX>?) -> Bool {
        guard let words = line.words, !words.isEmpty else { return true }
        let height = words.map(\.box.height).sorted()[words.count / 2]
        let inColumn = words.filter { $0.box.x + $0.box.width >= left - height / 2 }
        // The height of the words that reach into the column, else of the rightmost word (as the cell's read).
        let anchor = inColumn.isEmpty ? [words.max { $0.box.x < $1.box.x }!] : inColumn
        let top = anchor.map(\.box.y).min()!, bottom = anchor.map { $0.box.y + $0.box.height }.max()!
        let width = Int(pixGetWidth(pix)), imageHeight = Int(pixGetHeight(pix))
        let x0 = max(0, left - height / 2), y0 = max(0, top - height / 4)
        let x1 = min(width, right + height / 3), y1 = min(imageHeight, bottom + height / 4)
        guard x1 - x0 > 4, y1 - y0 > 4 else { return true }
        return hasInk(pix, PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), minimum: max(4, height * height / 20))
    }

    /// The line with its price cell read again alone (digits and separators only), or nil when the cell does
    /// not read as an amount or the line has no name left of the column.
    func rereadPriceCell(_ line: OCRLine, left: Int, right: Int, in pix: UnsafeMutablePointer<PIX>?,
                         clean: Bool = false) -> OCRLine? {
        guard let words = line.words, !words.isEmpty else { return nil }
        let height = words.map(\.box.height).sorted()[words.count / 2]
        let name = words.filter { $0.box.x + $0.box.width < left - height / 2 }
        guard name.contains(where: { $0.text.filter(\.isLetter).count >= 3 }) else { return nil }
        // The cell's height: the words that reach into the column (a tilted line's price sits higher or lower
        // than its name), else the name's last word.
        let inColumn = words.filter { $0.box.x + $0.box.width >= left - height / 2 }
        let anchor = inColumn.isEmpty ? [name[name.count - 1]] : inColumn
        let top = anchor.map(\.box.y).min()!, bottom = anchor.map { $0.box.y + $0.box.height }.max()!
        let width = Int(pixGetWidth(pix)), imageHeight = Int(pixGetHeight(pix))
        let my = max(3, height / 4)
        let x0 = max(0, left - height), y0 = max(0, top - my)
        let x1 = min(width, right + height / 3), y1 = min(imageHeight, bottom + my)
        guard x1 - x0 > 4, y1 - y0 > 4 else { return nil }
        for scale in preprocessing.rereadScales {
            guard let (text, confidence) = readLine(pix, x: x0, y: y0, width: x1 - x0, height: y1 - y0, scale: scale,
                                                    characters: "0123456789,.-", clean: clean) else { continue }
            let amount = text.replacingOccurrences(of: " ", with: "")
            // A zero price is a cell read as noise, not a free item; below confidence 60 a cell's digits were
            // more often wrong than right (German scans: 0,99 read for 0,35).
            guard confidence >= Self.minimumCellConfidence,
                  amount.range(of: Self.cellAmountPattern, options: .regularExpression) != nil,
                  amount.contains(where: { $0 != "0" && $0.isNumber }) else { continue }
            var reread = line
            reread.text = name.map(\.text).joined(separator: " ") + " " + amount
            reread.confidence = min(line.confidence, confidence)
            reread.words = nil
            return reread
        }
        return nil
    }

    /// The line read again whole, from its left edge to the column's right edge; nil unless it ends in an
    /// amount and keeps a name.
    private func rereadWholeLine(_ line: OCRLine, right: Int, in pix: UnsafeMutablePointer<PIX>?) -> OCRLine? {
        let b = line.box
        let width = Int(pixGetWidth(pix)), height = Int(pixGetHeight(pix))
        let mx = max(4, b.height / 2), my = max(3, b.height / 4)
        let x0 = max(0, b.x - mx), y0 = max(0, b.y - my)
        let x1 = min(width, max(b.x + b.width, right) + mx), y1 = min(height, b.y + b.height + my)
        guard let (text, confidence) = readLine(pix, x: x0, y: y0, width: x1 - x0, height: y1 - y0, scale: 2),
              ReceiptParser.endsWithAmount(text),
              text.filter(\.isLetter).count >= 3 else { return nil }
        var reread = line
        reread.text = text
        reread.confidence = confidence
        reread.words = nil
        return reread
    }
}
