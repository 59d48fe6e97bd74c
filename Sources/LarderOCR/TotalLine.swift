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
    /// `parsed`: the parse of `lines` when the caller has it (``ReadingCheck/receipt``).
    func rereadTotal(_ lines: [OCRLine], in pix: UnsafeMutablePointer<PIX>?, parsed: ParsedReceipt? = nil) -> ([OCRLine], Int) {
        guard pixGetDepth(pix) == 8 else { return (lines, 0) }
        let receipt = parsed ?? ReceiptParser().parse(lines: lines)
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

/// A total that nothing on the receipt confirms, read again as digits.
extension OCREngine {
    /// Whether the receipt's own figures confirm its total: the items add up to it (``ReadingCheck/addsUp``), or
    /// the printed subtotal plus tax, or the cash tendered less the change, equals it. A payment line equal to
    /// the total is no confirmation: the same print defect misreads both alike ("TL *207.00" / "CASH *207.00").
    static func totalIsConfirmed(_ receipt: ParsedReceipt, tolerance: Decimal = Decimal(2) / 100) -> Bool {
        guard let total = receipt.total else { return false }
        if ReadingCheck(receipt).addsUp { return true }
        if let subtotal = receipt.subtotal, let tax = receipt.tax, tax != 0,
           abs(subtotal + tax + (receipt.rounding ?? 0) - total) <= tolerance { return true }
        if let change = receipt.change, change > 0, receipt.tenders.contains(where: { abs($0.amount - change - total) <= tolerance }) {
            return true
        }
        return false
    }

    /// Reads again, digits only, the amount of each line that printed an unconfirmed total (``totalIsConfirmed``):
    /// the total line and a payment line with the same amount. A page reading misreads a glyph or two of a faint
    /// or curled amount ("108.42" for 105.42, "*207.00" for 297.00); the amount's cell alone, scaled up, reads
    /// them right more often. A re-read replaces the line's amount when two readings of the cell (×2 and ×3,
    /// grey and binarised: ``readAmountCell(_:in:)``) agree on an amount a glyph or two from the page's
    /// (``ReadingCheck/couldBeMisread(_:as:)``) with confidence at least ``minimumCellConfidence`` and
    /// ``surerCellMargin`` above the page's reading of it, and the receipt parsed with it still has a total. Returns the lines and how many changed.
    /// `parsed`: the parse of `lines` when the caller has it (``ReadingCheck/receipt``).
    func rereadUnsureTotal(_ lines: [OCRLine], in pix: UnsafeMutablePointer<PIX>?, parsed: ParsedReceipt? = nil) -> ([OCRLine], Int) {
        guard pixGetDepth(pix) == 8 else { return (lines, 0) }
        let receipt = parsed ?? ReceiptParser().parse(lines: lines)
        guard let total = receipt.total, !receipt.totalInferred, !Self.totalIsConfirmed(receipt) else { return (lines, 0) }
        let printed = receipt.lines.indices.filter { i in
            i < lines.count && [.total, .tender].contains(receipt.lines[i].kind) && ReceiptParser.amountAtEnd(lines[i].text) == abs(total)
        }
        var out = lines
        var changed = 0
        for i in printed.prefix(preprocessing.rereadMaxLines) {
            guard let (amount, prefix, confidence, other) = readAmountCell(lines[i], in: pix),
                  let value = ReceiptParser.amountAtEnd("TOTAL " + amount), value != abs(total),
                  ReceiptParser.amountAtEnd(prefix + " " + amount) == value,
                  confidence >= Self.pageAmountConfidence(lines[i]) + Self.surerCellMargin,
                  ReadingCheck.couldBeMisread(abs(total), as: value) else { continue }
            Self.traceReread("unsure total \(lines[i].text) (\(lines[i].words?.last.map { Int($0.confidence) } ?? -1)) → \(amount) (\(Int(confidence)), \(Int(other)))")
            out[i].text = prefix + " " + amount
            out[i].words = nil  // read again: the page's word boxes no longer hold the amount
            changed += 1
        }
        guard changed > 0, ReceiptParser().parse(lines: out).total != nil else { return (lines, 0) }
        return (out, changed)
    }

    /// The amount a line ends in, read again alone: its last words without letters (the amount and its currency sign),
    /// cropped with a margin of a word height, scaled ×2 then ×3, grey and binarised (``cleanedCell(_:)``),
    /// as one line of digits, separators and `$-` (``readLine``). Returns the amount two readings agree on
    /// (confidence ≥ ``minimumCellConfidence`` in one of them) and the line's words before it; nil otherwise.
    func readAmountCell(_ line: OCRLine, in pix: UnsafeMutablePointer<PIX>?) -> (String, String, Double, Double)? {
        guard let words = line.words, let last = Self.amountCellStart(words) else { return nil }
        let cell = words[last...]
        let h = cell.map(\.box.height).max()!
        let width = Int(pixGetWidth(pix)), imageHeight = Int(pixGetHeight(pix))
        let x0 = max(0, cell.map(\.box.x).min()! - h), x1 = min(width, cell.map { $0.box.x + $0.box.width }.max()! + h / 2)
        let y0 = max(0, cell.map(\.box.y).min()! - h / 4), y1 = min(imageHeight, cell.map { $0.box.y + $0.box.height }.max()! + h / 4)
        guard h > 4, x1 - x0 > 4, y1 - y0 > 4 else { return nil }
        var readings: [(amount: String, value: Decimal, confidence: Double)] = []
        for scale in preprocessing.rereadScales {
            for clean in [false, true] {
                guard let (text, confidence) = readLine(pix, x: x0, y: y0, width: x1 - x0, height: y1 - y0, scale: scale,
                                                        characters: "0123456789.,$-", clean: clean) else { continue }
                let amount = text.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "$", with: "")
                guard amount.range(of: Self.totalAmountPattern, options: .regularExpression) != nil,
                      let value = ReceiptParser.amountAtEnd("TOTAL " + amount) else { continue }
                if let twin = readings.first(where: { $0.value == value }),
                   max(twin.confidence, confidence) >= Self.minimumCellConfidence {
                    return (confidence >= twin.confidence ? amount : twin.amount, words[..<last].map(\.text).joined(separator: " "),
                            max(confidence, twin.confidence), min(confidence, twin.confidence))
                }
                readings.append((amount, value, confidence))
            }
        }
        return nil
    }

    /// How much surer (tesseract confidence, 0–100) the cell's best re-read must be than the page's reading of the
    /// amount: a crop of the same print read twice agrees with itself also when both readings are wrong (on scans
    /// "23.66" for 23.60 at 70 over the page's 60, "37.48" for 37.45 at 63 over 54), while the right re-reads were
    /// 29–59 points surer (83 over 50, 72 over 35, 95 over 66, 68 over 9). Chosen on those six development cases.
    static let surerCellMargin = 20.0

    /// The page's confidence in a line's amount: its last word's, else the line's.
    static func pageAmountConfidence(_ line: OCRLine) -> Double {
        line.words?.last?.confidence ?? line.confidence
    }

    /// Where the amount's words begin: the line's last words without letters ("€28 .00", "$108. 85-"), the last
    /// of them holding a digit; nil when the line does not end so.
    static func amountCellStart(_ words: [OCRWord]) -> Int? {
        guard words.last?.text.contains(where: \.isNumber) == true else { return nil }
        var start = (words.lastIndex { $0.text.contains(where: \.isLetter) }).map { $0 + 1 } ?? 0
        // Marks before the amount ("|", ":") are no part of it; a currency sign is.
        while start < words.count - 1, !words[start].text.contains(where: { $0.isNumber || "$€£".contains($0) }) { start += 1 }
        return start < words.count ? start : nil  // "Tota}5.00": the amount is glued to a word
    }

    /// An amount as a re-read total cell gives it: up to six digits before two decimals (`1,455.20`, `105.42`).
    static let totalAmountPattern = #"^-?\d{1,3}(,?\d{3})?[.,]\d\d-?$"#
}
