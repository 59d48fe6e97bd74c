internal import CTesseract
import Foundation
import LarderReceipts

/// The band of a receipt where its summary (subtotal, tax, total, payment) is printed, found from the lines the
/// page reading did read, and read again with other scales and binarisations while the total is unconfirmed.
///
/// Why: the total is the line a receipt prints largest — double height, often bold or letter-spaced
/// ("TOTAL: $31.05", "TOTAL $19.77") — and the page reading, scaled for the body text, loses it while it reads the
/// subtotal and tax above it. Stretched twice as wide as it is high, a double-height glyph has a body glyph's
/// shape again; an adaptive threshold keeps faint strokes that the page's global threshold broke.
extension OCREngine {
    /// A band of the image to read again: its rectangle, the lines of the page reading it replaces (those in it that
    /// are no item, discount or item detail), where its lines go, and the body text's line height.
    struct SummaryBandPlan: Equatable {
        var rect: PixelRect
        var replace: [Int]
        var insertAt: Int
        var lineHeight: Int

        /// `lines` with the band's reading in place of the lines it replaces.
        func applied(to lines: [OCRLine], _ read: [OCRLine]) -> [OCRLine] {
            let removed = Set(replace)
            var out: [OCRLine] = []
            for i in lines.indices {
                if i == insertAt { out += read }
                if !removed.contains(i) { out.append(lines[i]) }
            }
            if insertAt >= lines.count { out += read }
            return out
        }
    }

    /// Lines the band may span at most, counted in body line heights: subtotal, two taxes or charges, a
    /// double-height total and a payment line with its gaps.
    static let summaryBandMaxHeights = 12

    /// Body line heights the band reaches below its last summary line: a double-height total (two) with the gap
    /// above it (one).
    static let summaryBandReach = 3

    /// Where the summary block of `lines` (parsed as `kinds`) lies: from the last item line (else the first summary
    /// line: a subtotal, tax, charge, total or payment line after the items, read with or without its amount) to
    /// ``summaryBandReach`` line heights below the last one before a payment; across the receipt's text, from the
    /// left edge of those lines to the right edge of the price column. Without a summary line, the band under the
    /// last item line. Nil when no item or summary line says where it is.
    static func summaryBand(_ lines: [OCRLine], kinds: [ReceiptLineKind], imageWidth: Int, imageHeight: Int) -> SummaryBandPlan? {
        let summaryKinds: Set<ReceiptLineKind> = [.subtotal, .tax, .rounding, .total, .change, .tender]
        let body: Set<ReceiptLineKind> = [.item, .itemDetail, .discount]
        let lastItem = kinds.lastIndex { body.contains($0) }
        let from = (lastItem ?? -1) + 1
        guard from <= lines.count else { return nil }
        let anchors = (from..<lines.count).filter { i in
            guard lines[i].box.height > 0, lines[i].box.width > 0 else { return false }
            return (i < kinds.count && summaryKinds.contains(kinds[i])) || isSummaryText(lines[i].text)
        }
        // The summary lines before the first payment: the total is printed above what pays it.
        let tenders = anchors.filter { $0 < kinds.count && [.tender, .change].contains(kinds[$0]) }
        let block = anchors.filter { tenders.first == nil || $0 <= tenders.first! }
        let reference = block.isEmpty ? (lastItem.map { [$0] } ?? []) : block
        guard !reference.isEmpty else { return nil }
        let heights = reference.map { lines[$0].box.height }.sorted()
        let lineHeight = max(6, heights[heights.count / 2])
        // From the last item's foot when it is above the first summary line: a total printed right under the items
        // ("TOTAL EURO 50.00" above "TVA 20%") is inside even when the page reading lost it. Without summary lines,
        // twice as far down. Half a line of margin above (what it catches of the item row is dropped from the reading).
        let itemFoot = lastItem.map { lines[$0].box.y + lines[$0].box.height }
        let firstAnchor = block.map { lines[$0].box.y }.min()
        let fromItems = itemFoot != nil && (firstAnchor.map { itemFoot! < $0 } ?? true)
        let y0 = max(0, (fromItems ? itemFoot! : firstAnchor!) - lineHeight / 2)
        let lastBottom = reference.map { lines[$0].box.y + lines[$0].box.height }.max()!
        let reach = (block.isEmpty ? 2 : 1) * summaryBandReach * lineHeight
        let bottom = min(imageHeight, lastBottom + reach, y0 + summaryBandMaxHeights * lineHeight)
        // Across the text: the summary lines' and the price column's extent, a line height of margin.
        let column = priceColumn(lines)
        let left = reference.map { lines[$0].box.x }.min()!
        let right = max(column?.right ?? 0, reference.map { lines[$0].box.x + lines[$0].box.width }.max()!)
        let x0 = max(0, min(left, column?.left ?? left) - lineHeight), x1 = min(imageWidth, right + 2 * lineHeight)
        guard bottom - y0 > lineHeight, x1 - x0 > 4 * lineHeight else { return nil }
        // The page's lines inside the band (their middle in it) are replaced by the band's reading; items and
        // discounts stay (a reading may hold two passes over the same rows, so only the band's own lines go).
        let inside = lines.indices.filter { i in
            let middle = lines[i].box.y + lines[i].box.height / 2
            return i >= from && middle >= y0 && middle <= bottom && !(i < kinds.count && body.contains(kinds[i]))
        }
        let below = lines.indices.first { $0 >= from && lines[$0].box.y + lines[$0].box.height / 2 > bottom } ?? lines.count
        return SummaryBandPlan(rect: PixelRect(x: x0, y: y0, width: x1 - x0, height: bottom - y0), replace: inside,
                               insertAt: inside.first ?? below, lineHeight: lineHeight)
    }

    /// One way of reading the band: horizontal and vertical scale relative to the body text's
    /// ``summaryBandLineHeight``, and whether to binarise adaptively (Sauvola) after scaling.
    struct BandVariant: Equatable {
        var stretch: Double
        var adaptive: Bool
    }

    /// The variants tried, cheapest guess first: stretched (double-height print read as normal glyphs), adaptive
    /// threshold (faint print on uneven light), both. The page's own reading (grey, isotropic) is what failed.
    static let bandVariants = [BandVariant(stretch: 2, adaptive: false), BandVariant(stretch: 1, adaptive: true),
                               BandVariant(stretch: 2, adaptive: true)]

    /// Body text height (pixels) the band is scaled to: tesseract's best x-height range for 30-px lines.
    static let summaryBandLineHeight = 30.0

    /// While the parse has no total read from a line (none, or one inferred from the other amounts), the summary
    /// band (``summaryBand(_:kinds:imageWidth:imageHeight:)``) is read again as a block (PSM 6) in each of
    /// ``bandVariants``; its lines replace the page's summary lines in the band when the receipt then has a total
    /// read from a line that the receipt's arithmetic confirms (``totalIsConfirmed(_:tolerance:)``: subtotal + tax,
    /// the items, cash − change), or one that pays for the items with a plausible surcharge (``coversItems(_:_:)``)
    /// in a reading that scores higher (``readingScore(_:)``). Returns the lines and how many band readings were
    /// kept (0 or 1).
    /// `parsed`: the parse of `lines` when the caller has it (``ReadingCheck/receipt``).
    func rereadSummaryBand(_ lines: [OCRLine], in pix: UnsafeMutablePointer<PIX>?,
                           parsed: ParsedReceipt? = nil) -> ([OCRLine], Int) {
        guard pixGetDepth(pix) == 8 else { return (lines, 0) }
        let receipt = parsed ?? ReceiptParser().parse(lines: lines)
        // Only a total not read at all: a band reading also loses amounts the page read ("Balance Due O.00" of a
        // comped meal, read as "Balance Due"), and a read total that nothing confirms is the digit re-read's.
        guard receipt.total == nil || receipt.totalInferred,
              let plan = Self.summaryBand(lines, kinds: receipt.lines.map(\.kind), imageWidth: Int(pixGetWidth(pix)),
                                          imageHeight: Int(pixGetHeight(pix))) else { return (lines, 0) }
        let before = Self.readingScore(lines)
        let scale = min(4, max(0.5, Self.summaryBandLineHeight / Double(plan.lineHeight)))
        for variant in Self.bandVariants {
            // The band's lines from its first summary line on: what it caught of the last item row above is no item.
            guard let band = readBand(pix, plan.rect, scaleX: scale * variant.stretch, scaleY: scale, adaptive: variant.adaptive),
                  let first = band.firstIndex(where: { Self.isSummaryText($0.text) }) else { continue }
            let read = Array(band[first...])
            let candidate = plan.applied(to: lines, read)
            let parsed = ReceiptParser().parse(lines: candidate)
            Self.traceReread("summary band ×\(variant.stretch) adaptive \(variant.adaptive): " + read.map(\.text).joined(separator: " / ")
                             + " → total \(parsed.total.map { "\($0)" } ?? "-")")
            guard let total = parsed.total, !parsed.totalInferred else { continue }
            if Self.totalIsConfirmed(parsed) || Self.coversItems(total, parsed) && Self.readingScore(candidate) > before {
                return (candidate, 1)
            }
        }
        return (lines, 0)
    }

    /// A summary line, read with or without its amount: a total, subtotal, tax, charge or payment label.
    static func isSummaryText(_ text: String) -> Bool {
        isTotalLabel(text) || ReceiptParser.isSummaryLine(text) || ReceiptParser.isSummaryLine(text + " 1.00")
    }

    /// Whether a total nothing confirms is at least plausible: it pays for the items (less discounts) and adds at
    /// most ``maximumSurcharge`` of them in tax, service and tip. A receipt without items cannot tell: true.
    static func coversItems(_ total: Decimal, _ receipt: ParsedReceipt) -> Bool {
        guard total > 0 else { return false }
        guard !receipt.items.isEmpty else { return true }
        let net = receipt.items.reduce(Decimal(0)) { $0 + $1.total } - receipt.discounts.reduce(Decimal(0)) { $0 + $1.amount }
        return total >= net - Decimal(2) / 100 && total <= net * (1 + maximumSurcharge)
    }

    /// Tax, service charge and tip together, as a share of the items: at most this much.
    static let maximumSurcharge = Decimal(30) / 100

    /// Recognises `rect` of the 8-bit `pix` as a block of lines, scaled by `scaleX` across and `scaleY` down,
    /// binarised adaptively (Sauvola, a window of about two line heights) when `adaptive`; the lines' boxes mapped
    /// back into `pix`'s coordinates. Nil when the crop or the reading fails.
    func readBand(_ pix: UnsafeMutablePointer<PIX>?, _ rect: PixelRect, scaleX: Double, scaleY: Double, adaptive: Bool) -> [OCRLine]? {
        var crop: UnsafeMutablePointer<PIX>? = Self.crop(pix, rect)
        guard crop != nil else { return nil }
        defer { pixDestroy(&crop) }
        var scaled: UnsafeMutablePointer<PIX>? = pixScaleGrayLI(crop, Float(scaleX), Float(scaleY))
        guard scaled != nil else { return nil }
        defer { pixDestroy(&scaled) }
        var image: UnsafeMutablePointer<PIX>? = pixClone(scaled)
        if adaptive {
            var binary: UnsafeMutablePointer<PIX>?
            let window = Int32(max(8, Self.summaryBandLineHeight))
            if pixSauvolaBinarize(scaled, window, 0.34, 1, nil, nil, nil, &binary) == 0, binary != nil {
                pixDestroy(&image)
                image = binary
            }
        }
        defer { pixDestroy(&image) }
        let border = Int32(10 * max(1, scaleY))
        var bordered: UnsafeMutablePointer<PIX>? = pixAddBorder(image, border, pixGetDepth(image) == 1 ? 0 : 255)
        guard bordered != nil else { return nil }
        defer { pixDestroy(&bordered) }
        let resolution = pixGetXRes(pix)
        pixSetResolution(bordered, resolution, resolution)
        guard let (read, _) = try? run(bordered, path: "", limits: OCRLimits(timeLimit: .seconds(20)), started: .now,
                                      pageSegmentation: .singleBlock) else { return nil }
        return Self.linesInPage(read, cropX: rect.x, cropY: rect.y, border: Int(border), scaleX: scaleX, scaleY: scaleY)
    }
}
