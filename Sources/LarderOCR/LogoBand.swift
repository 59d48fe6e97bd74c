internal import CTesseract
import Foundation
import LarderReceipts

/// The store's name from the logo band (issue 12). Shops print their name at the top in large or stylised type,
/// which the page reading — sized for the receipt's body print — reads as junk or not at all. While the parse has no
/// confident name (``LogoName/need(_:)``), the band above the first address or phone line (found from the first
/// reading's line boxes, ``LogoName/bandEnd(_:)``) is read on its own from the grey, un-thresholded image,
/// scaled so that its tallest print comes out at about ``logoGlyphHeight`` pixels, as one block; a line is taken
/// only when it looks like a name (``LogoName/accepted(_:need:)``: letters, confident, dictionary words or a chain
/// of the gazetteer). The name read goes on top of the kept reading.
extension OCREngine {
    /// The height tesseract reads large type best at (capitals), in pixels.
    static let logoGlyphHeight = 36.0

    /// Reads the logo band of the first reading's image `gray` (`firstLines` are its lines) when the kept reading
    /// `lines` has no confident store name; returns the lines with the name read at the top, and whether it changed.
    /// `parsed`: the parse of `lines` when the caller has it.
    func rereadLogoBand(_ lines: [OCRLine], firstLines: [OCRLine], in gray: UnsafeMutablePointer<PIX>?,
                        parsed: ParsedReceipt? = nil) -> ([OCRLine], Bool) {
        guard pixGetDepth(gray) == 8, let need = LogoName.need(lines, parsed: parsed), let end = LogoName.bandEnd(firstLines) else {
            return (lines, false)
        }
        let width = Int(pixGetWidth(gray)), height = Int(pixGetHeight(gray))
        let bottom = firstLines[end].box.y - 2
        // The band: from the top of the image (or a few body lines above the band's first line) to the address.
        let firstTop = firstLines.first?.box.y ?? 0
        let lineHeight = max(8, firstLines[end].box.height)
        let top = max(0, min(firstTop, bottom) - 6 * lineHeight, bottom - height * 2 / 5)
        guard bottom - top >= 12 else { return (lines, false) }
        let band = PixelRect(x: 0, y: top, width: width, height: bottom - top)
        guard Self.hasInk(gray, band, minimum: 40), let name = readLogoName(gray, band: band, need: need, known: firstLines.filter { $0.confidence >= 60 }.map { LogoName.key($0.text) }) else {
            return (lines, false)
        }
        // The name goes on top; the band's lines stay (a street read there is still the address), and the parser
        // prefers the confident name to the junk they hold.
        let nameLine = OCRLine(text: name.text, confidence: name.confidence,
                               box: OCRBox(x: band.x, y: band.y, width: band.width, height: band.height))
        return ([nameLine] + lines, true)
    }

    /// The name the band reads as, when a line of it looks like one (``LogoName/accepted(_:need:)``).
    private func readLogoName(_ gray: UnsafeMutablePointer<PIX>?, band: PixelRect, need: LogoName.Need,
                              known: [String]) -> (text: String, confidence: Double)? {
        var crop: UnsafeMutablePointer<PIX>? = Self.crop(gray, band)
        guard crop != nil else { return nil }
        defer { pixDestroy(&crop) }
        // The band's tallest print and its middling print (a logo's graphic can pass for tall type): each read at
        // the size tesseract suits, the second only when the two differ by a quarter or more.
        let heights = Self.printHeights(crop)
        var factors: [Double] = []
        for glyph in [heights?.tall ?? Double(band.height) / 2, heights?.middle ?? Double(band.height) / 2] {
            let factor = min(3, max(0.25, Self.logoGlyphHeight / glyph))
            if !factors.contains(where: { abs($0 / factor - 1) < 0.25 }) { factors.append(factor) }
        }
        for factor in factors {
            if let name = readLogoName(crop, scaledBy: factor, resolution: pixGetXRes(gray), need: need, known: known,
                                       band: band) {
                return name
            }
        }
        return nil
    }

    /// One reading of the band's crop scaled by `factor`: the first line that looks like a name and is no line the
    /// page reading read confidently (`known`, keys).
    private func readLogoName(_ crop: UnsafeMutablePointer<PIX>?, scaledBy factor: Double, resolution: Int32,
                              need: LogoName.Need, known: [String], band: PixelRect) -> (text: String, confidence: Double)? {
        var scaled: UnsafeMutablePointer<PIX>? = abs(factor - 1) < 0.05 ? pixClone(crop) : Self.scaled(crop, by: factor)
        guard scaled != nil else { return nil }
        defer { pixDestroy(&scaled) }
        var bordered: UnsafeMutablePointer<PIX>? = pixAddBorder(scaled, 20, 255)
        guard bordered != nil else { return nil }
        defer { pixDestroy(&bordered) }
        pixSetResolution(bordered, resolution, resolution)
        let lines = readWordLines(bordered)
        for line in lines {
            // What the page reading read confidently is no lost logo.
            let key = LogoName.key(line.map(\.text).joined())
            if key.isEmpty || known.contains(where: { $0.contains(key) }) { continue }
            if let name = LogoName.accepted(line, need: need) {
                let words = line.filter { $0.text.contains(where: \.isLetter) }
                return (name, words.map(\.confidence).reduce(0, +) / Double(max(1, words.count)))
            }
        }
        return nil
    }

    /// The heights of the band's print: the 80th percentile (its tallest type) and the median of its glyph-shaped
    /// components' heights (Otsu over the band); nil with fewer than three.
    static func printHeights(_ pix: UnsafeMutablePointer<PIX>?) -> (tall: Double, middle: Double)? {
        var binary: UnsafeMutablePointer<PIX>?
        let side = max(pixGetWidth(pix), pixGetHeight(pix)) + 1
        guard pixOtsuAdaptiveThreshold(pix, side, side, 0, 0, 0.1, nil, &binary) == 0, binary != nil else { return nil }
        defer { pixDestroy(&binary) }
        let heights = components(binary).filter { $0.height >= 6 && $0.width <= 2 * $0.height && $0.width >= 2 }
            .map(\.height).sorted()
        guard heights.count >= 3 else { return nil }
        return (Double(heights[heights.count * 4 / 5]), Double(heights[heights.count / 2]))
    }

    /// One block reading of `pix`, line by line, each word with its confidence and whether tesseract's dictionary
    /// holds it.
    private func readWordLines(_ pix: UnsafeMutablePointer<PIX>?) -> [[LogoName.Word]] {
        TessBaseAPISetPageSegMode(handle, PSM_SINGLE_BLOCK)
        TessBaseAPISetImage2(handle, pix)
        defer { TessBaseAPIClear(handle) }
        guard TessBaseAPIRecognize(handle, nil) == 0, let iterator = TessBaseAPIGetIterator(handle) else { return [] }
        defer { TessResultIteratorDelete(iterator) }
        let pageIterator = TessResultIteratorGetPageIterator(iterator)
        var lines: [[LogoName.Word]] = []
        repeat {
            if TessPageIteratorIsAtBeginningOf(pageIterator, RIL_TEXTLINE) != 0 || lines.isEmpty { lines.append([]) }
            guard let cText = TessResultIteratorGetUTF8Text(iterator, RIL_WORD) else { continue }
            let text = String(cString: cText).trimmingCharacters(in: .whitespacesAndNewlines)
            TessDeleteText(cText)
            if text.isEmpty { continue }
            lines[lines.count - 1].append(LogoName.Word(
                text: text, confidence: Double(TessResultIteratorConfidence(iterator, RIL_WORD)),
                inDictionary: TessResultIteratorWordIsFromDictionary(iterator) != 0))
        } while TessResultIteratorNext(iterator, RIL_WORD) != 0
        return lines.filter { !$0.isEmpty }
    }
}
