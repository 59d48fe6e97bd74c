internal import CTesseract

/// The receipt on a flat scan: the region that holds the print, when it covers a small part of a light page (a
/// till receipt scanned on an A4 flatbed). Found on a copy about 400 px on its longer side: dark pixels (under
/// ``darkBelow``) closed into blobs, components touching the frame's edge (the scanner lid's shadow) left out, the
/// rest united. The page is cropped to that region plus a margin before anything else, so every reading after
/// (the first one, the photo reading, the line re-reads) costs what the receipt alone costs.
///
/// Only on a light page: when more than ``maximumEdgeInk`` of the copy is ink touching the frame's edge (a
/// countertop, a hand, a dark table around a photographed receipt) there is no crop, and the photo reading finds
/// the paper as before (`OCREngine.findPaper`).
enum InkRegion {
    /// Gray levels under this are ink.
    static let darkBelow: Int32 = 150
    /// No crop when the region covers more than this fraction of the page.
    static let maximumArea = 0.45
    /// No crop when ink touching the frame's edge covers more than this fraction of the copy.
    static let maximumEdgeInk = 0.02
    /// Grey levels under this are marks for the faint-print check.
    static let faintBelow: Int32 = 215
    /// Crop only when at least this fraction of the page's marks lies inside the region.
    static let minimumMarksInside = 0.97

    /// Whether nearly all marks under ``faintBelow`` of `small` lie in the rectangle.
    static func faintMarksInside(_ small: UnsafeMutablePointer<PIX>?, _ x: Int, _ y: Int, _ w: Int, _ h: Int) -> Bool {
        var marks: UnsafeMutablePointer<PIX>? = pixThresholdToBinary(small, faintBelow)
        guard marks != nil else { return false }
        defer { pixDestroy(&marks) }
        var total: Int32 = 0, inside: Int32 = 0
        guard pixCountPixels(marks, &total, nil) == 0, total > 0,
              let box = boxCreate(Int32(x), Int32(y), Int32(w), Int32(h)) else { return false }
        var clip: UnsafeMutablePointer<BOX>? = box
        defer { boxDestroy(&clip) }
        var region: UnsafeMutablePointer<PIX>? = pixClipRectangle(marks, box, nil)
        defer { pixDestroy(&region) }
        guard region != nil, pixCountPixels(region, &inside, nil) == 0 else { return false }
        return Double(inside) >= minimumMarksInside * Double(total)
    }

    /// Only pages of at least this many pixels are looked at (an A4 page at 150 dpi has 2.2 million).
    static let minimumPixels = 1_500_000

    /// The print's rectangle in `pix` (8-bit) with a margin, or nil when there is nothing worth cropping.
    ///
    /// The region is the ink's (under ``darkBelow``). When the page's grey marks (under ``faintBelow``) do not lie
    /// nearly all inside it — faint print, or a receipt whose paper is greyer than the scanner's lid (the issue's
    /// German A4 scans: thermal paper on a white page) — the region of the grey marks themselves is tried instead:
    /// it must hold the ink's region, cover at most ``maximumArea`` of the page and touch the frame no more than
    /// ink may.
    static func find(_ pix: UnsafeMutablePointer<PIX>?) -> OCREngine.PixelRect? {
        let width = Int(pixGetWidth(pix)), height = Int(pixGetHeight(pix))
        guard pixGetDepth(pix) == 8, width * height >= minimumPixels else { return nil }
        let factor = Float(400) / Float(max(width, height))
        var small: UnsafeMutablePointer<PIX>? = pixScaleAreaMap(pix, factor, factor)
        guard small != nil else { return nil }
        defer { pixDestroy(&small) }
        let sw = Int(pixGetWidth(small))
        guard var box = region(of: small, below: darkBelow) else { return nil }
        if !faintMarksInside(small, box.x, box.y, box.width, box.height) {
            guard let grey = region(of: small, below: faintBelow), grey.x <= box.x, grey.y <= box.y,
                  grey.x + grey.width >= box.x + box.width, grey.y + grey.height >= box.y + box.height,
                  faintMarksInside(small, grey.x, grey.y, grey.width, grey.height) else { return nil }
            box = grey
        }
        let scale = Double(width) / Double(sw)
        let margin = Int(Double(max(width, height)) * 0.02)
        let left = max(0, Int(Double(box.x) * scale) - margin), top = max(0, Int(Double(box.y) * scale) - margin)
        let right = min(width, Int(Double(box.x + box.width) * scale) + margin)
        let bottom = min(height, Int(Double(box.y + box.height) * scale) + margin)
        return OCREngine.PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The union of the blobs of pixels under `threshold` in `small` (closed; blobs touching the frame and specks
    /// left out), or nil when there is none, when more than ``maximumEdgeInk`` of the copy is such pixels touching
    /// the frame, or when the union covers more than ``maximumArea`` of it.
    static func region(of small: UnsafeMutablePointer<PIX>?, below threshold: Int32) -> OCREngine.PixelRect? {
        let sw = Int(pixGetWidth(small)), sh = Int(pixGetHeight(small))
        var dark: UnsafeMutablePointer<PIX>? = pixThresholdToBinary(small, threshold)
        guard dark != nil else { return nil }
        defer { pixDestroy(&dark) }
        let size = Int32(max(5, max(sw, sh) / 30) | 1)
        var closed: UnsafeMutablePointer<PIX>? = pixCloseBrick(nil, dark, size, size)
        guard closed != nil else { return nil }
        defer { pixDestroy(&closed) }
        var boxes: UnsafeMutablePointer<BOXA>? = pixConnCompBB(closed, 8)
        guard boxes != nil else { return nil }
        defer { boxaDestroy(&boxes) }
        var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
        var edgeArea = 0
        for i in 0..<boxaGetCount(boxes) {
            var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
            guard boxaGetBoxGeometry(boxes, i, &x, &y, &w, &h) == 0 else { continue }
            let (bx, by, bw, bh) = (Int(x), Int(y), Int(w), Int(h))
            if bx <= 1 || by <= 1 || bx + bw >= sw - 1 || by + bh >= sh - 1 { edgeArea += bw * bh; continue }
            if bw * bh < 12 { continue }  // specks
            x0 = min(x0, bx); y0 = min(y0, by); x1 = max(x1, bx + bw); y1 = max(y1, by + bh)
        }
        guard x1 > x0, y1 > y0, Double(edgeArea) <= maximumEdgeInk * Double(sw * sh) else { return nil }
        guard Double((x1 - x0) * (y1 - y0)) <= maximumArea * Double(sw * sh) else { return nil }
        return OCREngine.PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

extension InkRegion {
    /// For tests and tools: writes an A4 page at 300 dpi (2480 × 3508, paper grey 240) as PNG to `output`, holding
    /// the receipt image at `receipt` (8-bit) pasted with its top-left corner at (`x`, `y`). False when a file
    /// cannot be read or written.
    static func writeA4Page(holding receipt: String, at x: Int, _ y: Int, to output: String) -> Bool {
        guard let decoded = try? OCREngine.decode(imageAt: receipt, maxPixels: 40_000_000) else { return false }
        var original: UnsafeMutablePointer<PIX>? = decoded.pix
        defer { pixDestroy(&original) }
        var gray: UnsafeMutablePointer<PIX>? = pixConvertTo8(original, 0)
        defer { pixDestroy(&gray) }
        var page: UnsafeMutablePointer<PIX>? = pixCreate(2480, 3508, 8)
        defer { pixDestroy(&page) }
        guard gray != nil, page != nil else { return false }
        pixSetResolution(page, 300, 300)
        pixSetAllArbitrary(page, 240)
        let w = pixGetWidth(gray), h = pixGetHeight(gray)
        guard pixRasterop(page, Int32(x), Int32(y), w, h, PIX_SRC, gray, 0, 0) == 0 else { return false }
        return pixWrite(output, page, Int32(IFF_PNG)) == 0
    }
}

extension InkRegion {
    /// For tests and tools: ``find(_:)`` on the image file at `path` (decoded to 8-bit gray as for reading).
    static func find(imageAt path: String) throws -> OCREngine.PixelRect? {
        let decoded = try OCREngine.decode(imageAt: path, maxPixels: 40_000_000)
        var original: UnsafeMutablePointer<PIX>? = decoded.pix
        defer { pixDestroy(&original) }
        var gray: UnsafeMutablePointer<PIX>? = pixGetDepth(original) == 8 && pixGetColormap(original) == nil
            ? pixClone(original) : pixConvertTo8(original, 0)
        defer { pixDestroy(&gray) }
        return gray == nil ? nil : find(gray)
    }
}
