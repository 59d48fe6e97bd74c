internal import CTesseract
import Foundation
import LarderReceipts

/// The summary block of a receipt (subtotal, tax, total, payment below the last item) read again as a block
/// when the page reading found no total in it.
extension OCREngine {
    /// Lines of the summary block read again at most: subtotal, tax, total and a payment or two.
    static let summaryBlockLines = 6

    /// Where the summary block starts in `lines` (parsed as `kinds`): the first summary label (read with or
    /// without its amount) after the first item line; without items, the first summary label of the receipt
    /// (amounts split off their labels are often taken for items below it, so the last item does not mark it).
    /// Nil when there is no such label (nothing says where the block is).
    static func summaryBlockStart(_ lines: [OCRLine], kinds: [ReceiptLineKind]) -> Int? {
        let firstItem = kinds.firstIndex { $0 == .item || $0 == .itemDetail }
        let from = firstItem.map { $0 + 1 } ?? 0
        guard from < lines.count else { return nil }
        return (from..<lines.count).first { i in
            let text = lines[i].text
            return ReceiptParser.isSummaryLine(text) || isTotalLabel(text)
                || ReceiptParser.isSummaryLine(text + " 1.00")
        }
    }

    /// When the parse has no total (or only one inferred from subtotal + tax), the summary block
    /// (``summaryBlockStart(_:kinds:)`` and the ``summaryBlockLines`` lines from there) is cropped across the
    /// whole width of the image — right-aligned amounts that the page reading lost or split off their labels are
    /// inside — scaled so its lines are ~36 px high, and read as one block (PSM 6, then PSM 4). The block's lines
    /// replace the page's when the receipt then has a total read from a line and the reading scores higher
    /// (``readingScore(_:)``). Returns the lines and how many block readings were kept (0 or 1).
    /// `parsed`: the parse of `lines` when the caller has it (``ReadingCheck/receipt``).
    func rereadSummaryBlock(_ lines: [OCRLine], in pix: UnsafeMutablePointer<PIX>?,
                            parsed: ParsedReceipt? = nil) -> ([OCRLine], Int) {
        guard pixGetDepth(pix) == 8 else { return (lines, 0) }
        let receipt = parsed ?? ReceiptParser().parse(lines: lines)
        guard receipt.total == nil || receipt.totalInferred,
              let start = Self.summaryBlockStart(lines, kinds: receipt.lines.map(\.kind)) else { return (lines, 0) }
        let end = min(lines.count, start + Self.summaryBlockLines)
        let block = lines[start..<end].filter { $0.box.width > 0 && $0.box.height > 0 }
        guard !block.isEmpty else { return (lines, 0) }
        let width = Int(pixGetWidth(pix)), height = Int(pixGetHeight(pix))
        let heights = block.map(\.box.height).sorted()
        let lineHeight = max(4, heights[heights.count / 2])
        let top = max(0, block.map(\.box.y).min()! - lineHeight / 2)
        let bottom = min(height, block.map { $0.box.y + $0.box.height }.max()! + lineHeight / 2)
        guard bottom - top > 4 else { return (lines, 0) }
        let scale = min(4, max(1, 36 / Double(lineHeight)))
        let before = Self.readingScore(lines)
        for segmentation in [PageSegmentation.singleBlock, .singleColumn] {
            guard let read = readBlock(pix, x: 0, y: top, width: width, height: bottom - top, scale: scale,
                                       segmentation: segmentation), !read.isEmpty else { continue }
            Self.traceReread("block PSM \(segmentation.rawValue) ×\(scale): " + read.map(\.text).joined(separator: " / "))
            var candidate = lines
            candidate.replaceSubrange(start..<end, with: read)
            let parsed = ReceiptParser().parse(lines: candidate)
            guard parsed.total != nil, !parsed.totalInferred, Self.readingScore(candidate) > before else { continue }
            return (candidate, 1)
        }
        return (lines, 0)
    }

    /// Recognises one rectangle of the 8-bit `pix` as a block of lines (scaled by `scale`, with a white border),
    /// the lines' boxes mapped back into `pix`'s coordinates; nil when the crop or the reading fails.
    func readBlock(_ pix: UnsafeMutablePointer<PIX>?, x: Int, y: Int, width: Int, height: Int, scale: Double,
                   segmentation: PageSegmentation) -> [OCRLine]? {
        var crop: UnsafeMutablePointer<PIX>? = Self.crop(pix, PixelRect(x: x, y: y, width: width, height: height))
        guard crop != nil else { return nil }
        defer { pixDestroy(&crop) }
        let factor = Float(scale)
        var scaled: UnsafeMutablePointer<PIX>? = factor == 1 ? pixClone(crop) : pixScaleGrayLI(crop, factor, factor)
        guard scaled != nil else { return nil }
        defer { pixDestroy(&scaled) }
        let border = Int32(10 * scale)
        var bordered: UnsafeMutablePointer<PIX>? = pixAddBorder(scaled, border, 255)
        guard bordered != nil else { return nil }
        defer { pixDestroy(&bordered) }
        let resolution = pixGetXRes(pix)
        pixSetResolution(bordered, resolution, resolution)
        guard let (read, _) = try? run(bordered, path: "", limits: OCRLimits(timeLimit: .seconds(20)), started: .now,
                                      pageSegmentation: segmentation) else { return nil }
        return Self.linesInPage(read, cropX: x, cropY: y, border: Int(border), scaleX: scale, scaleY: scale)
    }

    /// Lines read from a crop that was scaled and given a border, with their boxes and their words' boxes moved back
    /// into the page's coordinates (the crop's top left at `cropX`, `cropY`).
    static func linesInPage(_ lines: [OCRLine], cropX: Int, cropY: Int, border: Int, scaleX: Double,
                            scaleY: Double) -> [OCRLine] {
        func mapped(_ b: OCRBox) -> OCRBox {
            OCRBox(x: cropX + Int((Double(b.x - border) / scaleX).rounded()),
                   y: cropY + Int((Double(b.y - border) / scaleY).rounded()),
                   width: Int((Double(b.width) / scaleX).rounded()), height: Int((Double(b.height) / scaleY).rounded()))
        }
        return lines.map { $0.mappingBoxes(mapped) }
    }
}
