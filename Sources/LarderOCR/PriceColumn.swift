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

    /// What a price cell may read as (`tessedit_char_whitelist`): digits, separators and a minus sign.
    static let cellCharacters = "0123456789,.-"

    /// A re-read price cell is used only when tesseract's confidence in it is at least this.
    static let minimumCellConfidence = 60.0

    /// Reads again, one at a time, item lines between the header (``bodyStart(_:end:parsed:)``) and the first
    /// total whose price is missing or garbled (``isItemWithoutPrice(_:)``) when the receipt has a price column
    /// (``priceColumn(_:)``). `parsed`: the parse of `lines` (the caller's).
    ///
    /// First the line's price cell alone: when the column's left edge is known (word boxes), the column is
    /// cropped at the height of the line's words that reach into it, scaled ×2 (then ×3) and read as one line of digits
    /// and separators only, then binarised with a `$` allowed when the grey cell gives no sure amount; a reading
    /// that is an amount (``cellAmountPattern``) read with confidence ≥ ``minimumCellConfidence`` replaces the
    /// garbled words after the name. Otherwise the whole line, from its left edge to the column's right edge,
    /// scaled ×2; kept when it ends in an amount. An unsure cell reading, and any reading of a line above the first
    /// priced line, is kept only when the items then add up (``readingsThatAddUp(_:_:)``). At most
    /// ``OCRPreprocessing/rereadMaxPriceLines`` lines per image. Returns the lines and how many changed.
    func rereadMissingPrices(_ lines: [OCRLine], in pix: UnsafeMutablePointer<PIX>?,
                             parsed: ParsedReceipt) -> ([OCRLine], Int) {
        guard pixGetDepth(pix) == 8, let column = Self.priceColumn(lines) else { return (lines, 0) }
        let end = lines.firstIndex { ReceiptParser.isTotalLine($0.text) } ?? lines.count
        let start = Self.bodyStart(lines, end: end, parsed: parsed)
        var out = lines
        var changed = 0
        var budget = preprocessing.rereadMaxPriceLines
        var unsure: [CellReading] = []
        let firstAmount = lines.firstIndex { ReceiptParser.endsWithAmount($0.text) } ?? lines.count
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
            var unsureCell: CellReading?
            if let left = column.left {
                var cell = readPriceCell(lines[i], left: left, right: column.right, in: pix)
                if cell.sure == nil {  // faint or low-contrast print: the cell binarised, a dollar sign allowed
                    let binarised = readPriceCell(lines[i], left: left, right: column.right, in: pix, clean: true,
                                                  characters: Self.cellCharacters + "$")
                    if binarised.sure != nil || (binarised.unsure?.confidence ?? -1) > (cell.unsure?.confidence ?? -1) {
                        cell = binarised
                    }
                }
                // Above the first priced line, a header line may reach into the column: a reading there is taken
                // only where the receipt's arithmetic confirms it, however sure, and the whole line is not read.
                if i < firstAmount {
                    if let line = cell.sure ?? cell.unsure?.line {
                        unsure.append(CellReading(index: i, line: line, confidence: line.confidence))
                    }
                    continue
                }
                if let line = cell.sure {
                    out[i] = line
                    changed += 1
                    continue
                }
                unsureCell = cell.unsure.map { CellReading(index: i, line: $0.line, confidence: $0.confidence) }
            }
            if let line = rereadWholeLine(lines[i], right: column.right, in: pix) {
                out[i] = line
                changed += 1
            } else if let unsureCell {
                unsure.append(unsureCell)
            }
        }
        if let chosen = Self.readingsThatAddUp(out, unsure) {
            for cell in chosen { out[cell.index] = cell.line }
            changed += chosen.count
        }
        return (out, changed)
    }

    /// Where the item lines start, for ``rereadMissingPrices(_:in:parsed:)``: the first line with an amount, or the
    /// line after the last store, address or date line (or a `TEL` line) above it when that is sooner — items
    /// whose prices were all lost or garbled lie between the header and the first priced line (often the
    /// subtotal). Header lines are centred text, not items. (The parser's own `header` kind is not used: it calls
    /// every line above the first amount a header line when no item kept its price.)
    static func bodyStart(_ lines: [OCRLine], end: Int, parsed: ParsedReceipt) -> Int {
        let firstAmount = lines.firstIndex { ReceiptParser.endsWithAmount($0.text) } ?? lines.count
        let kinds = parsed.lines.map(\.kind)
        let header: Set<ReceiptLineKind> = [.store, .address, .date]
        let limit = min(firstAmount, end, kinds.count, lines.count)
        let last = (0..<limit).last { header.contains(kinds[$0]) || lines[$0].text.uppercased().contains("TEL") }
        if firstAmount < end { return min(firstAmount, last.map { $0 + 1 } ?? firstAmount) }
        return last.map { $0 + 1 } ?? end
    }

    /// A price cell read below ``minimumCellConfidence`` (or with a stray separator around its amount): the line
    /// `index` with that amount after its name.
    struct CellReading {
        var index: Int
        var line: OCRLine
        var confidence: Double
    }

    /// The unsure cell readings that make the receipt add up (``ReadingCheck/addsUp``) once they replace their
    /// lines in `lines`: of the (at most four most confident) readings, the largest set that adds up, the more
    /// confident first; nil when none does or `lines` add up already. A reading tesseract was unsure of is taken only
    /// when the receipt's own arithmetic confirms it.
    static func readingsThatAddUp(_ lines: [OCRLine], _ unsure: [CellReading]) -> [CellReading]? {
        guard !unsure.isEmpty else { return nil }
        let cells = Array(unsure.sorted { $0.confidence > $1.confidence }.prefix(4))
        guard !ReadingCheck(lines).addsUp else { return nil }
        func confidence(_ subset: [Int]) -> Double { subset.reduce(0.0) { $0 + cells[$1].confidence } }
        var subsets: [[Int]] = []
        for mask in 1..<(1 << cells.count) { subsets.append(cells.indices.filter { mask & (1 << $0) != 0 }) }
        subsets.sort { $0.count != $1.count ? $0.count > $1.count : confidence($0) > confidence($1) }
        for subset in subsets {
            var trial = lines
            for k in subset { trial[cells[k].index] = cells[k].line }
            if ReadingCheck(trial).addsUp { return subset.map { cells[$0] } }
        }
        return nil
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
        readPriceCell(line, left: left, right: right, in: pix, clean: clean).sure
    }

    /// The line's price cell read alone (digits and separators only), ×2 then ×3: `sure`, the line with the first
    /// reading that is an amount (``cellAmountPattern``) read with confidence ≥ ``minimumCellConfidence``;
    /// `unsure`, otherwise, the most confident reading that is an amount once stray separators around it are
    /// dropped ("20,90," for 20,90), with its confidence. Both nil when the line has no name left of the column.
    func readPriceCell(_ line: OCRLine, left: Int, right: Int, in pix: UnsafeMutablePointer<PIX>?,
                       clean: Bool = false, characters: String = cellCharacters)
        -> (sure: OCRLine?, unsure: (line: OCRLine, confidence: Double)?) {
        guard let cell = Self.priceCell(line, left: left, right: right, in: pix) else { return (nil, nil) }
        var unsure: (line: OCRLine, confidence: Double)?
        for scale in preprocessing.rereadScales {
            guard let (text, confidence) = readLine(pix, x: cell.rect.x, y: cell.rect.y, width: cell.rect.width,
                                                    height: cell.rect.height, scale: scale,
                                                    characters: characters, clean: clean) else { continue }
            let amount = text.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "$", with: "")
            // Below confidence 60 a cell's digits were more often wrong than right (German scans: 0,99 read for
            // 0,35): such a reading is only unsure.
            if confidence >= Self.minimumCellConfidence, Self.isCellAmount(amount) {
                return (Self.line(line, name: cell.name, amount: amount, confidence: confidence), nil)
            }
            let trimmed = amount.trimmingCharacters(in: CharacterSet(charactersIn: ".,"))
            if Self.isCellAmount(trimmed), confidence > unsure?.confidence ?? -1 {
                unsure = (Self.line(line, name: cell.name, amount: trimmed, confidence: confidence), confidence)
            }
        }
        return (nil, unsure)
    }

    /// Whether a cell's text is an amount (``cellAmountPattern``) other than zero (a zero price is a cell read as
    /// noise, not a free item).
    static func isCellAmount(_ amount: String) -> Bool {
        amount.range(of: cellAmountPattern, options: .regularExpression) != nil
            && amount.contains(where: { $0 != "0" && $0.isNumber })
    }

    /// `line` with `amount` after its name's words.
    static func line(_ line: OCRLine, name: [OCRWord], amount: String, confidence: Double) -> OCRLine {
        var reread = line
        reread.text = name.map(\.text).joined(separator: " ") + " " + amount
        reread.confidence = min(line.confidence, confidence)
        reread.words = nil
        return reread
    }

    /// The line's price cell: the column from its left edge less a word height to its right edge plus a third,
    /// at the height of the words that reach into the column (a tilted line's price sits higher or lower than its
    /// name), else of the name's last word; and the name's words left of it. Nil without word boxes or without a
    /// name (three letters) left of the column.
    static func priceCell(_ line: OCRLine, left: Int, right: Int,
                          in pix: UnsafeMutablePointer<PIX>?) -> (name: [OCRWord], rect: PixelRect)? {
        guard let words = line.words, !words.isEmpty else { return nil }
        let height = words.map(\.box.height).sorted()[words.count / 2]
        let name = words.filter { $0.box.x + $0.box.width < left - height / 2 }
        guard name.contains(where: { $0.text.filter(\.isLetter).count >= 3 }) else { return nil }
        let inColumn = words.filter { $0.box.x + $0.box.width >= left - height / 2 }
        let anchor = inColumn.isEmpty ? [name[name.count - 1]] : inColumn
        let top = anchor.map(\.box.y).min()!, bottom = anchor.map { $0.box.y + $0.box.height }.max()!
        let width = Int(pixGetWidth(pix)), imageHeight = Int(pixGetHeight(pix))
        let my = max(3, height / 4)
        let x0 = max(0, left - height), y0 = max(0, top - my)
        let x1 = min(width, right + height / 3), y1 = min(imageHeight, bottom + my)
        guard x1 - x0 > 4, y1 - y0 > 4 else { return nil }
        return (name, PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
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
