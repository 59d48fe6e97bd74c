internal import CTesseract
import Foundation
import LarderReceipts

/// The line printed against a barcode, read without the bars. Tills print the date and time right under (or over)
/// the receipt's barcode (Lidl: "3182 748433/01 02.03.20 15:59"); the bars reach down to the digits' tops, and the
/// page read takes bars and digits for one line of noise ("3182 U3) 15:59") or drops it (found on two of the 26
/// German scans, whose dates were otherwise lost). When a reading has no date and holds a barcode — ten or more
/// vertical strokes over three line heights tall, found by a vertical opening of the Otsu-binarised image — the
/// strip just under the bars' ends is read as one line (the digits' touching tops cut off), then the same strip
/// with the bars painted white, then the strips over the barcode; the first that holds a valid date is kept.
extension OCREngine {
    /// The bounding boxes of the 8-connected components of a 1-bpp image.
    static func components(_ binary: UnsafeMutablePointer<PIX>?) -> [PixelRect] {
        var boxes: UnsafeMutablePointer<BOXA>? = pixConnCompBB(binary, 8)
        guard boxes != nil else { return [] }
        defer { boxaDestroy(&boxes) }
        return (0..<Int(boxaGetCount(boxes))).compactMap { i in
            var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
            guard boxaGetBoxGeometry(boxes, Int32(i), &x, &y, &w, &h) == 0 else { return nil }
            return PixelRect(x: Int(x), y: Int(y), width: Int(w), height: Int(h))
        }
    }

    /// A barcode's rectangle: at least ten bars (ink runs ≥ three line heights tall, at most a line height wide)
    /// side by side at the same height.
    static func barcode(inBars boxes: [PixelRect], lineHeight: Double) -> PixelRect? {
        let bars = boxes.filter { Double($0.height) >= 3 * lineHeight && Double($0.width) <= lineHeight }
        var best: [PixelRect] = []
        for bar in bars {
            let group = bars.filter { abs(($0.y + $0.height / 2) - (bar.y + bar.height / 2)) < Int(lineHeight) }
            if group.count > best.count { best = group }
        }
        guard best.count >= 10 else { return nil }
        let x0 = best.map(\.x).min()!, x1 = best.map { $0.x + $0.width }.max()!
        // The median top and bottom: one bar glued to a digit under it would pull the union down.
        let tops = best.map(\.y).sorted(), bottoms = best.map { $0.y + $0.height }.sorted()
        let y0 = tops[tops.count / 2], y1 = bottoms[bottoms.count / 2]
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Re-reads the lines against a barcode when the reading has no date (hook in ``rereadLines``); a re-read
    /// that holds a valid date replaces the line it overlaps, or is inserted where it is printed. Returns the
    /// lines and how many changed. `hasDate`: whether the parse of `lines` has a date (the caller's parse).
    func rereadAtBarcode(_ lines: [OCRLine], in pix: UnsafeMutablePointer<PIX>?, hasDate: Bool) -> ([OCRLine], Int) {
        guard pixGetDepth(pix) == 8, !hasDate, let lineHeight = Self.medianLineHeight(lines) else { return (lines, 0) }
        let width = Int(pixGetWidth(pix)), height = Int(pixGetHeight(pix))
        var binary: UnsafeMutablePointer<PIX>?
        guard pixOtsuAdaptiveThreshold(pix, Int32(width), Int32(height), 0, 0, 0.1, nil, &binary) == 0, binary != nil else { return (lines, 0) }
        defer { pixDestroy(&binary) }
        var bars: UnsafeMutablePointer<PIX>? = pixOpenBrick(nil, binary, 1, Int32(3 * lineHeight))
        guard bars != nil else { return (lines, 0) }
        defer { pixDestroy(&bars) }
        guard let code = Self.barcode(inBars: Self.components(bars), lineHeight: lineHeight) else { return (lines, 0) }
        // The gray image with the bars (a pixel wider) painted white: the digits keep their gray edges.
        var wider: UnsafeMutablePointer<PIX>? = pixDilateBrick(nil, bars, 3, 3)
        guard wider != nil else { return (lines, 0) }
        defer { pixDestroy(&wider) }
        var gray: UnsafeMutablePointer<PIX>? = pixCopy(nil, pix)
        guard gray != nil, pixSetMasked(gray, wider, 255) == 0 else { pixDestroy(&gray); return (lines, 0) }
        defer { pixDestroy(&gray) }
        let lh = Int(lineHeight)
        let bottom = code.y + code.height
        // Under the barcode from the bars' ends (the digits' tops, which the bars touch, cut off), then with the
        // bars painted out; over it likewise.
        let strips: [(UnsafeMutablePointer<PIX>?, Int, Int)] = [
            (pix, bottom, bottom + 5 * lh / 4), (gray, bottom - lh / 4, bottom + 5 * lh / 4),
            (pix, code.y - 5 * lh / 4, code.y), (gray, code.y - 5 * lh / 4, code.y + lh / 4),
        ]
        var out = lines
        var changed = 0
        search: for (image, top, end) in strips {
            let y0 = max(0, top), y1 = min(height, end)
            guard y1 - y0 > lh / 2 else { continue }
            for scale in [1.0, 2.0] {
                guard let (text, confidence) = readLine(image, x: 0, y: y0, width: width, height: y1 - y0, scale: scale), ReceiptParser().parseDate(text.uppercased(), currency: "") != nil else { continue }
                let line = OCRLine(text: text, confidence: confidence, box: OCRBox(x: 0, y: y0, width: width, height: y1 - y0))
                let centre = (y0 + y1) / 2
                if let i = out.firstIndex(where: { $0.box.height > 0 && $0.box.y <= centre && $0.box.y + $0.box.height >= centre }) {
                    out[i] = line
                } else {
                    out.insert(line, at: out.firstIndex { $0.box.height > 0 && $0.box.y > y0 } ?? out.count)
                }
                changed += 1
                break search
            }
        }
        return (out, changed)
    }
}
