internal import CTesseract
import Foundation
import LarderReceipts

/// The head of the paper read again for large type. Stores print their name at the top, often as a logo: big,
/// stylised, sometimes white on a dark box. The page read (tuned to the body's small print) reads such type as
/// junk or drops it, and the parser then takes a tagline or the town for the name. When the first reading names
/// no store confidently, or big type sits above the name it found, the band above the first line with digits
/// (street, phone, date: the address block) is read again on its own: dark boxes inverted, scaled so the big
/// type's height suits tesseract, sparse-text segmentation (PSM 11). Name-like lines it reads that the page read
/// did not are inserted where they are printed; the parser weighs them by position, size and evidence.
extension OCREngine {
    /// Height (pixels) tesseract reads capitals best at; the big type is scaled to it.
    static let headGlyphHeight = 40.0

    /// The head band and what lies in it.
    struct HeadBand {
        var rect: PixelRect
        /// Median height of the reading's lines (pixels).
        var lineHeight: Double
    }

    /// The band above the first confident line with three digits or more (a street, phone, date or price),
    /// at most ten line heights tall, across the text's column; nil when there is no such band.
    static func headBand(_ lines: [OCRLine], imageWidth: Int, imageHeight: Int) -> HeadBand? {
        guard let lineHeight = medianLineHeight(lines) else { return nil }
        let placed = lines.filter { $0.box.height > 0 && $0.box.width > 0 }
        guard let first = placed.first(where: { $0.confidence >= 40 && $0.text.filter(\.isNumber).count >= 3 }) else { return nil }
        let bottom = min(imageHeight, first.box.y + Int(lineHeight / 4))
        let top = max(0, bottom - Int(10 * lineHeight))
        let confident = placed.filter { $0.confidence >= 60 }
        let left = max(0, (confident.map(\.box.x).min() ?? 0) - Int(lineHeight))
        let right = min(imageWidth, (confident.map { $0.box.x + $0.box.width }.max() ?? imageWidth) + Int(lineHeight))
        guard bottom - top >= Int(lineHeight), right - left >= Int(2 * lineHeight) else { return nil }
        return HeadBand(rect: PixelRect(x: left, y: top, width: right - left, height: bottom - top), lineHeight: lineHeight)
    }

    /// Whether the parse of `lines` names its store confidently: a store line read with confidence ≥ 80 and
    /// four letters or more. Returns the store line's box too (nil without one).
    static func confidentStore(_ lines: [OCRLine]) -> (confident: Bool, box: OCRBox?) {
        let receipt = ReceiptParser().parse(lines: lines)
        guard let store = receipt.store, let line = receipt.lines.first(where: { $0.kind == .store }),
              lines.indices.contains(line.number - 1) else { return (false, nil) }
        let box = lines[line.number - 1].box
        return (line.confidence >= 80 && store.filter(\.isLetter).count >= 4, box)
    }

    /// The re-read (hook in ``recognize``): returns `lines` with the head's name lines inserted, or unchanged.
    func readHead(_ pix: UnsafeMutablePointer<PIX>?, lines: [OCRLine], steps: inout [String]) -> [OCRLine] {
        guard pixGetDepth(pix) == 8 else { return lines }
        let width = Int(pixGetWidth(pix)), height = Int(pixGetHeight(pix))
        guard let band = Self.headBand(lines, imageWidth: width, imageHeight: height) else { return lines }
        let (confident, storeBox) = Self.confidentStore(lines)
        var binary: UnsafeMutablePointer<PIX>? = Self.headBinary(pix, band)
        guard binary != nil else { return lines }
        defer { pixDestroy(&binary) }
        let big = Self.bigTypeRow(binary, lineHeight: band.lineHeight)
        // Big type above (or at) the store line the page read found: the logo may be the name.
        let bigAboveStore = big.map { row in storeBox.map { row.top + band.rect.y < $0.y + $0.height / 2 } ?? true } ?? false
        guard !confident || bigAboveStore else { return lines }
        let glyph = big?.glyphHeight ?? band.lineHeight * 0.7
        let scale = min(3, max(0.2, Self.headGlyphHeight / glyph))
        let read = readSparse(binary, scale: scale).map { line -> OCRLine in
            var out = line
            out.box = OCRBox(x: band.rect.x + Int(Double(line.box.x) / scale), y: band.rect.y + Int(Double(line.box.y) / scale),
                             width: Int(Double(line.box.width) / scale), height: Int(Double(line.box.height) / scale))
            return out
        }
        let known = lines.filter { $0.box.y < band.rect.y + band.rect.height }.map { ReceiptParser.nameKey($0.text) }
        let names = read.filter { line in
            let key = ReceiptParser.nameKey(line.text)
            return line.confidence >= 60 && ReceiptParser.couldBeStoreName(line.text) && !known.contains { $0.contains(key) }
        }
        steps.append("head(\(big == nil ? "" : "big,")×\(String(format: "%.2f", scale)): "
                     + (names.isEmpty ? "-" : names.map { $0.text }.joined(separator: " / ")) + ")")
        guard !names.isEmpty else { return lines }
        var out = lines
        for name in names.prefix(2) {
            let at = out.firstIndex { $0.box.height > 0 && $0.box.y > name.box.y } ?? out.count
            out.insert(name, at: at)
        }
        return out
    }

    /// The band binarised (Otsu over the band; 1 = ink), with solid dark boxes (white-on-dark logos) inverted so
    /// their letters are ink; caller destroys.
    static func headBinary(_ pix: UnsafeMutablePointer<PIX>?, _ band: HeadBand) -> UnsafeMutablePointer<PIX>? {
        var gray: UnsafeMutablePointer<PIX>? = crop(pix, band.rect)
        guard gray != nil else { return nil }
        defer { pixDestroy(&gray) }
        var binary: UnsafeMutablePointer<PIX>?
        guard pixOtsuAdaptiveThreshold(gray, pixGetWidth(gray), pixGetHeight(gray), 0, 0, 0.1, nil, &binary) == 0,
              binary != nil else { return nil }
        // A box three quarters ink (a logo's letters touching each other stay below that).
        for box in components(binary) where box.height >= Int(band.lineHeight) && box.width >= box.height {
            var count: Int32 = 0
            var region: UnsafeMutablePointer<PIX>? = crop(binary, box)
            defer { pixDestroy(&region) }
            guard region != nil, pixCountPixels(region, &count, nil) == 0,
                  Double(count) >= 0.75 * Double(box.width * box.height) else { continue }
            // PIX_NOT(PIX_DST): invert the box in place.
            _ = pixRasterop(binary, Int32(box.x), Int32(box.y), Int32(box.width), Int32(box.height), 0xa ^ 0xf, nil, 0, 0)
        }
        return binary
    }

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

    /// The topmost row of big type in the band: at least two glyph-shaped components (1.5–6 line heights tall,
    /// at most eight times as wide as tall) side by side at the same height, or one twice as wide as tall (a
    /// word whose letters touch). Returns its top (band
    /// coordinates) and the glyphs' median height.
    static func bigTypeRow(_ binary: UnsafeMutablePointer<PIX>?, lineHeight: Double) -> (top: Int, glyphHeight: Double)? {
        let glyphs = components(binary).filter { box in
            Double(box.height) >= 1.5 * lineHeight && Double(box.height) <= 6 * lineHeight && box.width <= 8 * box.height
                && box.width * 6 >= box.height
        }.sorted { $0.y < $1.y }
        for g in glyphs {
            let row = glyphs.filter { abs(($0.y + $0.height / 2) - (g.y + g.height / 2)) < g.height / 3 }
            if row.count >= 2 || row.contains(where: { $0.width >= 2 * $0.height }) {
                let heights = row.map(\.height).sorted()
                return (row.map(\.y).min()!, Double(heights[heights.count / 2]))
            }
        }
        return nil
    }

    /// Tesseract with sparse-text segmentation (PSM 11) over a 1-bpp image scaled by `scale` (as 8-bit gray),
    /// with a white border; its text lines, boxes in the scaled image's coordinates (border removed).
    func readSparse(_ binary: UnsafeMutablePointer<PIX>?, scale: Double) -> [OCRLine] {
        var gray: UnsafeMutablePointer<PIX>? = pixConvert1To8(nil, binary, 255, 0)
        guard gray != nil else { return [] }
        defer { pixDestroy(&gray) }
        var scaled: UnsafeMutablePointer<PIX>? = abs(scale - 1) < 0.01 ? pixClone(gray) : pixScale(gray, Float(scale), Float(scale))
        guard scaled != nil else { return [] }
        defer { pixDestroy(&scaled) }
        let border: Int32 = 20
        var bordered: UnsafeMutablePointer<PIX>? = pixAddBorder(scaled, border, 255)
        guard bordered != nil else { return [] }
        defer { pixDestroy(&bordered) }
        pixSetResolution(bordered, 300, 300)
        TessBaseAPISetPageSegMode(handle, PSM_SPARSE_TEXT)
        TessBaseAPISetImage2(handle, bordered)
        defer { TessBaseAPIClear(handle) }
        guard TessBaseAPIRecognize(handle, nil) == 0, let iterator = TessBaseAPIGetIterator(handle) else { return [] }
        defer { TessResultIteratorDelete(iterator) }
        let pageIterator = TessResultIteratorGetPageIterator(iterator)
        var lines: [OCRLine] = []
        repeat {
            guard let cText = TessResultIteratorGetUTF8Text(iterator, RIL_TEXTLINE) else { continue }
            let text = String(cString: cText).trimmingCharacters(in: .whitespacesAndNewlines)
            TessDeleteText(cText)
            guard !text.isEmpty else { continue }
            var left: Int32 = 0, top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0
            _ = TessPageIteratorBoundingBox(pageIterator, RIL_TEXTLINE, &left, &top, &right, &bottom)
            lines.append(OCRLine(text: text, confidence: Double(TessResultIteratorConfidence(iterator, RIL_TEXTLINE)),
                                 box: OCRBox(x: Int(left - border), y: Int(top - border),
                                             width: Int(right - left), height: Int(bottom - top))))
        } while TessResultIteratorNext(iterator, RIL_TEXTLINE) != 0
        return lines
    }
}
