internal import CTesseract

/// How tall the print of an image is, estimated before any OCR: the median height of the glyph-shaped connected
/// components of an Otsu-binarised half-size copy. Receipts print mostly capitals and digits, so the median is about
/// the capital height. Tesseract's LSTM normalises every line image to a fixed height (36 px for the `eng` model)
/// whatever the resolution, so print far larger than tesseract's sweet spot (capitals about 30 px high) only costs
/// thresholding, layout analysis and the line images' copies (`ImageData::SetPix` encodes every line as PNG): such an
/// image is read scaled down (``OCRPreprocessing/downscaleGlyphsAbove``).
enum TextSize {
    /// Components shorter than this (in the half-size copy) are specks, taller ones logos, rules or the paper's edge.
    static let glyphHeights = 3...120
    /// At least this many glyph-shaped components, or there is no estimate (a blank page, a photo of a countertop).
    static let minimumGlyphs = 30

    /// The median glyph height in pixels of the 8-bit image `pix`, or nil when it holds too few glyph-shaped marks.
    /// Costs 2–3 ms on a 1000×2000 scan (one 2× area reduction, Otsu, one connected-component pass).
    static func medianGlyphHeight(_ pix: UnsafeMutablePointer<PIX>?) -> Double? {
        guard pixGetDepth(pix) == 8, pixGetWidth(pix) >= 64, pixGetHeight(pix) >= 64 else { return nil }
        var half: UnsafeMutablePointer<PIX>? = pixScaleAreaMap2(pix)
        guard half != nil else { return nil }
        defer { pixDestroy(&half) }
        // One Otsu threshold for the whole copy (a tile larger than the image).
        var binary: UnsafeMutablePointer<PIX>?
        let side = max(pixGetWidth(half), pixGetHeight(half)) + 1
        guard pixOtsuAdaptiveThreshold(half, side, side, 0, 0, 0.1, nil, &binary) == 0, binary != nil else { return nil }
        defer { pixDestroy(&binary) }
        var boxes: UnsafeMutablePointer<BOXA>? = pixConnCompBB(binary, 8)
        guard boxes != nil else { return nil }
        defer { boxaDestroy(&boxes) }
        var heights: [Int] = []
        let count = boxaGetCount(boxes)
        heights.reserveCapacity(Int(count))
        for i in 0..<count {
            var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
            guard boxaGetBoxGeometry(boxes, i, &x, &y, &w, &h) == 0 else { continue }
            // Glyph-shaped: not a speck, a rule or a block (at most twice as wide as tall).
            if glyphHeights.contains(Int(h)), w >= 1, w <= 2 * h { heights.append(Int(h)) }
        }
        guard heights.count >= minimumGlyphs else { return nil }
        heights.sort()
        return Double(2 * heights[heights.count / 2])
    }

    /// An image is never scaled down further than this: a misread estimate (a countertop's texture taken for print)
    /// must not shrink the receipt's own print out of reach.
    static let smallestFactor = 0.5

    /// The factor to scale an image by so that glyphs of `height` pixels come out `target` high (at most halved),
    /// when they are taller than `above`; nil when the image is to be read as it is.
    static func downscaleFactor(glyphHeight height: Double?, above: Double, target: Double) -> Double? {
        guard let height, height > above, target > 0 else { return nil }
        let factor = max(smallestFactor, target / height)
        return factor < 0.95 ? factor : nil
    }
}

extension TextSize {
    /// ``medianGlyphHeight(_:)`` of an image in memory (for tests and tools).
    static func medianGlyphHeight(_ image: GrayscaleImage) -> Double? {
        var pix = OCREngine.leptonicaImage(image)
        defer { pixDestroy(&pix) }
        return pix == nil ? nil : medianGlyphHeight(pix)
    }
}
