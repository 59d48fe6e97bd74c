internal import CTesseract
import Foundation
import LarderReceipts

/// Preprocessing for receipts photographed with a phone: the paper is found and cropped, the light evened out
/// (background normalisation), the image scaled so the text's height suits tesseract, and binarised. Each
/// function returns a new leptonica image the caller owns, or nil when the step does not apply.
extension OCREngine {
    /// A rectangle in pixel coordinates.
    struct PixelRect: Equatable {
        var x: Int, y: Int, width: Int, height: Int
    }

    /// The paper found in a photo: its rectangle in the image and a mask of the same size (1 = paper).
    struct Paper {
        var rect: PixelRect
        /// 1 bpp, `rect.width` × `rect.height`, caller-owned.
        var mask: UnsafeMutablePointer<PIX>?
        /// The paper's outline when it is a clear quadrilateral (``PaperGeometry/clearQuadrilateral(outline:regionArea:)``),
        /// in the image's coordinates.
        var quad: PaperQuad? = nil
    }

    /// The paper: the largest bright connected region of the image, when it is clearly smaller than the
    /// frame (a receipt on a countertop or in a hand). Works on a copy scaled to ~300 px: Otsu splits paper
    /// from background, a closing fills the text inside the paper, an opening cuts thin bridges to other
    /// bright things, and the largest connected component (its holes filled) is the paper. Nil when that
    /// region covers nearly the whole frame (a scan, or a photo taken close up) or too little of it.
    static func findPaper(_ pix: UnsafeMutablePointer<PIX>?) -> Paper? {
        let width = Int(pixGetWidth(pix)), height = Int(pixGetHeight(pix))
        guard width >= 100, height >= 100 else { return nil }
        let factor = min(1, Float(300) / Float(max(width, height)))
        var small: UnsafeMutablePointer<PIX>? = factor < 1 ? pixScaleAreaMap(pix, factor, factor) : pixClone(pix)
        guard small != nil else { return nil }
        defer { pixDestroy(&small) }
        let sw = Int(pixGetWidth(small)), sh = Int(pixGetHeight(small))
        // Otsu over the whole small image: 1 = dark (background and text), 0 = bright (paper).
        var dark: UnsafeMutablePointer<PIX>?
        guard pixOtsuAdaptiveThreshold(small, Int32(sw), Int32(sh), 0, 0, 0.1, nil, &dark) == 0, dark != nil else { return nil }
        defer { pixDestroy(&dark) }
        var bright: UnsafeMutablePointer<PIX>? = pixInvert(nil, dark)
        guard bright != nil else { return nil }
        defer { pixDestroy(&bright) }
        let close = Int32(max(3, min(sw, sh) / 25) | 1)
        var closed: UnsafeMutablePointer<PIX>? = pixCloseBrick(nil, bright, close, close)
        guard closed != nil else { return nil }
        defer { pixDestroy(&closed) }
        var opened: UnsafeMutablePointer<PIX>? = pixOpenBrick(nil, closed, 5, 5)
        guard opened != nil else { return nil }
        defer { pixDestroy(&opened) }
        var components: UnsafeMutablePointer<PIXA>?
        var boxes: UnsafeMutablePointer<BOXA>? = pixConnComp(opened, &components, 4)
        defer { boxaDestroy(&boxes); pixaDestroy(&components) }
        guard boxes != nil, components != nil else { return nil }
        var best: (index: Int, rect: PixelRect, pixels: Int)?
        for i in 0..<Int(boxaGetCount(boxes)) {
            var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
            guard boxaGetBoxGeometry(boxes, Int32(i), &x, &y, &w, &h) == 0 else { continue }
            if Int(w) * Int(h) > (best.map { $0.rect.width * $0.rect.height } ?? 0) {
                best = (i, PixelRect(x: Int(x), y: Int(y), width: Int(w), height: Int(h)), 0)
            }
        }
        guard let best else { return nil }
        let box = best.rect
        let area = Double(box.width * box.height) / Double(sw * sh)
        // Nearly the whole frame: nothing to crop. Under a tenth: not a receipt-sized region.
        guard area < 0.85, area > 0.10, box.width >= sw / 8 else { return nil }
        // The component with its holes (text, logos) filled, scaled to the full-size rectangle.
        var component: UnsafeMutablePointer<PIX>? = pixaGetPix(components, Int32(best.index), Int32(L_CLONE))
        defer { pixDestroy(&component) }
        var holes: UnsafeMutablePointer<PIX>? = pixHolesByFilling(component, 4)
        defer { pixDestroy(&holes) }
        var filled: UnsafeMutablePointer<PIX>? = holes != nil ? pixOr(nil, component, holes) : pixClone(component)
        defer { pixDestroy(&filled) }
        let scale = 1 / Double(factor)
        let x0 = Int(Double(box.x) * scale), y0 = Int(Double(box.y) * scale)
        let x1 = min(width, Int(Double(box.x + box.width) * scale)), y1 = min(height, Int(Double(box.y + box.height) * scale))
        let rect = PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        guard rect.width > 0, rect.height > 0, filled != nil,
              let mask = pixScaleBySampling(filled, Float(rect.width) / Float(box.width), Float(rect.height) / Float(box.height))
        else { return nil }
        // A side along the frame is where the photo ends, not the paper: only a sheet wholly inside the frame
        // has four sides to rectify by (on receipts-photos, quadrilaterals fitted to paper cut off by the frame
        // sheared the print).
        let inside = box.x > 1 && box.y > 1 && box.x + box.width < sw - 1 && box.y + box.height < sh - 1
        let outline = outline(of: filled, dx: Double(box.x), dy: Double(box.y))
        let quad = inside ? PaperGeometry.clearQuadrilateral(outline: outline.points, regionArea: outline.area) : nil
        return Paper(rect: rect, mask: mask, quad: quad?.scaled(by: scale))
    }

    /// Paints everything outside the paper white (in place): countertops and fingers never reach tesseract.
    static func whitenOutside(_ pix: UnsafeMutablePointer<PIX>?, paper mask: UnsafeMutablePointer<PIX>?) {
        var outside: UnsafeMutablePointer<PIX>? = pixInvert(nil, mask)
        guard outside != nil else { return }
        defer { pixDestroy(&outside) }
        _ = pixSetMasked(pix, outside, 255)
    }

    /// A copy of `rect` of `pix`.
    static func crop(_ pix: UnsafeMutablePointer<PIX>?, _ rect: PixelRect) -> UnsafeMutablePointer<PIX>? {
        guard let box = boxCreate(Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height)) else { return nil }
        var boxRef: UnsafeMutablePointer<BOX>? = box
        defer { boxDestroy(&boxRef) }
        return pixClipRectangle(pix, box, nil)
    }

    /// The lines whose boxes lie inside `rect`.
    static func lines(_ lines: [OCRLine], inside rect: PixelRect) -> [OCRLine] {
        lines.filter { $0.box.x >= rect.x && $0.box.y >= rect.y
            && $0.box.x + $0.box.width <= rect.x + rect.width && $0.box.y + $0.box.height <= rect.y + rect.height }
    }

    /// Evens out the light: divides the image by an estimate of its background (leptonica
    /// `pixBackgroundNormSimple`: tiles of 10×15, background brought to 200), which removes shadows,
    /// gradients and grey paper.
    static func evenedLight(_ pix: UnsafeMutablePointer<PIX>?) -> UnsafeMutablePointer<PIX>? {
        pixBackgroundNormSimple(pix, nil, nil)
    }

    /// A global threshold of a background-normalised image (background at 200): dark strokes below
    /// `threshold` become black.
    static func threshold(_ pix: UnsafeMutablePointer<PIX>?, at threshold: Int) -> UnsafeMutablePointer<PIX>? {
        pixThresholdToBinary(pix, Int32(threshold))
    }

    /// Scales an 8-bit image by `factor` (linear interpolation up, area mapping down).
    static func scaled(_ pix: UnsafeMutablePointer<PIX>?, by factor: Double) -> UnsafeMutablePointer<PIX>? {
        let f = Float(factor)
        return factor >= 1 ? pixScaleGrayLI(pix, f, f) : pixScaleAreaMap(pix, f, f)
    }

    /// The median height of confidently read text lines, in pixels; nil when fewer than three lines.
    static func medianLineHeight(_ lines: [OCRLine]) -> Double? {
        let heights = lines.filter { $0.confidence >= 40 && $0.text.count >= 3 && $0.box.height > 0 }.map(\.box.height).sorted()
        guard heights.count >= 3 else { return nil }
        return Double(heights[heights.count / 2])
    }

    /// Index of a reading's first body line: the first that ends in an amount or holds a date.
    static func bodyStart(_ lines: [OCRLine]) -> Int {
        lines.firstIndex { ReceiptParser.endsWithAmount($0.text) || ReceiptParser().parseDate($0.text.uppercased(), currency: "") != nil }
            ?? lines.count
    }

    /// The row of the photo reading's image (cropped at `paperTop`, then scaled by `scale`) where its OCR starts:
    /// half a line height above the first reading's first line with an amount anywhere in it ("10,00....0", an
    /// item whose price the first reading garbled) or its first body line (``bodyStart(_:)``), so the header the
    /// first reading already read is not read again, while the photo reading still reads every line its own body
    /// start (``headerFromFirst(_:bodyFrom:)``) could begin at. 0 (the whole image) when the first reading has no
    /// header or no body.
    static func bodyTop(_ first: [OCRLine], paperTop: Int, scale: Double) -> Int {
        let start = bodyStart(first)
        guard start > 0, start < first.count else { return 0 }
        let begin = first[..<start].firstIndex { $0.text.range(of: #"\d[.,]\d\d"#, options: .regularExpression) != nil } ?? start
        guard begin > 0 else { return 0 }
        let line = first[begin]
        return max(0, Int(Double(line.box.y - line.box.height / 2 - paperTop) * scale))
    }

    /// The header (store name, address: large print and logos, which binarisation breaks up) from the first
    /// reading, the body (small print, prices) from the photo reading. Measured on receipts-photos: taking
    /// the whole photo reading lost store names (0.51 → 0.46) while it gained dates, totals and items.
    /// `map` moves the header's boxes into the photo reading's image (``FrameMap``), where the line re-reads crop them.
    static func headerFromFirst(_ first: [OCRLine], bodyFrom photo: [OCRLine], map: FrameMap = .identity) -> [OCRLine] {
        let headerEnd = bodyStart(first), bodyBegin = bodyStart(photo)
        guard headerEnd > 0, bodyBegin < photo.count else { return photo }
        let header = map == .identity ? Array(first[..<headerEnd]) : first[..<headerEnd].map { map.apply($0) }
        return header + Array(photo[bodyBegin...])
    }

    /// How well a reading explains a receipt: what the parser finds in it (a total, a date, items whose
    /// sum agrees with the total, prices) plus confidently read text. Used to choose between readings of
    /// the same image; only differences matter.
    static func readingScore(_ lines: [OCRLine]) -> Double {
        let receipt = ReceiptParser().parse(lines: lines)
        var score = Double(confidentCharacters(lines)) / 200
        // A total inferred from subtotal + tax (its own amount unread) is worth less than one read, and agrees
        // with the items by construction.
        let inferred = receipt.totalInferred
        if receipt.total != nil { score += inferred ? 1 : 3 }
        if receipt.date != nil { score += 2 }
        score += Double(min(receipt.items.count, 25)) * 0.5
        if receipt.total != nil, !inferred, !receipt.items.isEmpty,
           !receipt.reviewReasons.contains(where: { $0.hasPrefix("total mismatch") }) {
            score += 4
        }
        return score
    }
}

/// A reading of a photo after ``OCREngine`` photo preprocessing.
struct PhotoReading {
    var lines: [OCRLine]
    var meanConfidence: Double
    /// The 8-bit image the lines' boxes refer to (for re-reading lines); owned by the caller.
    var image: UnsafeMutablePointer<PIX>?
    var steps: [String]
    var score: Double
}

extension OCREngine {
    /// Reads `pix` again as a photo: the paper (found by the caller, ``findPaper(_:)``) cropped out of the frame, the light evened out, scaled so
    /// that lines are about ``OCRPreprocessing/photoLineHeight`` pixels high (from the first reading's
    /// line heights), then binarised at a global threshold. Nil when a step fails.
    ///
    /// When the paper's outline is a clear quadrilateral seen in perspective (``Paper/quad``), the paper is read
    /// both rectified and cropped, and the reading whose parse explains the receipt better (``readingScore(_:)``)
    /// is returned: on receipts-photos each won on different photos (rectified alone gained as many totals as
    /// it lost), so the choice is made per image by what the parser finds. The cropped reading is made only
    /// when the rectified one is unsure (no total, no date, or items that do not add up to the total).
    func readAsPhoto(_ pix: UnsafeMutablePointer<PIX>?, paper: Paper?, firstLines: [OCRLine], path: String, limits: OCRLimits,
                     started: ContinuousClock.Instant, pageSegmentation: PageSegmentation,
                     fromBody: Bool = false) throws -> PhotoReading? {
        let rectify = preprocessing.photoRectify && paper?.quad.map { PaperGeometry.isSlanted($0) } == true
        guard var best = try readAsPhoto(pix, paper: paper, rectify: rectify, firstLines: firstLines, path: path, limits: limits,
                                         started: started, pageSegmentation: pageSegmentation, fromBody: fromBody) else { return nil }
        // The cropped reading only when the rectified one is unsure (``ReadingCheck``): a rectified reading
        // whose items add up to its total and that has a date is kept without a second photo OCR.
        if rectify, ReadingCheck(best.lines).isSure {
            best.steps.append("rectified-sure")
        } else if rectify, var cropped = try readAsPhoto(pix, paper: paper, rectify: false, firstLines: firstLines, path: path,
                                                  limits: limits, started: started, pageSegmentation: pageSegmentation) {
            if cropped.score > best.score {
                swap(&best, &cropped)
                best.steps.append(String(format: "rectified %.1f", cropped.score))
            } else {
                best.steps.append(String(format: "cropped %.1f", cropped.score))
            }
            pixDestroy(&cropped.image)
        }
        return best
    }

    /// One photo reading: the paper rectified (`rectify`, which needs ``Paper/quad``) or cropped.
    func readAsPhoto(_ pix: UnsafeMutablePointer<PIX>?, paper: Paper?, rectify: Bool, firstLines: [OCRLine], path: String,
                     limits: OCRLimits, started: ContinuousClock.Instant, pageSegmentation: PageSegmentation,
                     fromBody: Bool = false) throws -> PhotoReading? {
        var steps: [String] = []
        var work: UnsafeMutablePointer<PIX>? = pixClone(pix)
        guard work != nil else { return nil }
        var clock = ContinuousClock.now
        func timed(_ name: String) {
            let now = ContinuousClock.now
            steps.append("\(name)(\(Int(((now - clock).seconds * 1000).rounded()))ms)")
            clock = now
        }
        var lineHeight = Self.medianLineHeight(firstLines)
        var rectifiedPaper = false
        var frame = FrameMap.identity  // the first reading's frame → `work` (``headerFromFirst(_:bodyFrom:map:)``)
        var paperMask: UnsafeMutablePointer<PIX>?  // borrowed from `paper`, owned by the caller
        if rectify, let paper, let quad = paper.quad, let flat = Self.rectifiedPaper(work, paper: paper, quad: quad) {
            // A clear quadrilateral seen in perspective: mapped onto a rectangle, which also crops it.
            pixDestroy(&work)
            work = flat
            rectifiedPaper = true
            let outline = Self.rectifiedOutline(quad), size = outline.rectifiedSize
            frame = FrameMap.rectify(outline, width: size.width, height: size.height) ?? frame
            timed("rectify")
            lineHeight = Self.medianLineHeight(Self.lines(firstLines, inside: paper.rect)) ?? lineHeight
        } else if let paper, let cropped = Self.crop(work, paper.rect) {
            pixDestroy(&work)
            work = cropped
            paperMask = paper.mask
            frame = .crop(x: paper.rect.x, y: paper.rect.y)
            timed("crop")
            // Lines of the first reading outside the paper no longer count towards the height.
            lineHeight = Self.medianLineHeight(Self.lines(firstLines, inside: paper.rect)) ?? lineHeight
        }
        guard let even = Self.evenedLight(work) else { pixDestroy(&work); return nil }
        pixDestroy(&work)
        work = even
        if let paperMask, pixGetWidth(paperMask) == pixGetWidth(work), pixGetHeight(paperMask) == pixGetHeight(work) {
            Self.whitenOutside(work, paper: paperMask)
        }
        timed("light")
        let target = preprocessing.photoLineHeight
        let factor: Double
        if let lineHeight { factor = min(3, max(1, target / lineHeight)) } else {
            factor = min(3, max(1, 1200 / Double(pixGetWidth(work))))
        }
        if factor > 1.1, let up = Self.scaled(work, by: factor) {
            pixDestroy(&work)
            work = up
            frame = frame.scaled(by: factor)
            timed(String(format: "scale×%.2f", factor))
        }
        let resolution = pixGetXRes(pix)
        pixSetResolution(work, resolution, resolution)
        // `fromBody` (a flat scan: no paper outline, unscaled print, light frame edges): tesseract reads from the first
        // reading's body down; the header comes from the first reading anyway (``headerFromFirst(_:bodyFrom:)``).
        // Not on photos: there the first reading misses lines above its body that the photo reading finds (on
        // receipts-photos, with or without paper found, dates and totals were lost).
        let bodyTop = fromBody && !rectifiedPaper ? Self.bodyTop(firstLines, paperTop: 0, scale: factor > 1.1 ? factor : 1) : 0
        if bodyTop > 0 { steps.append("body@\(bodyTop)") }
        let thresholds: [Int?] = preprocessing.photoThreshold.map { [$0] + preprocessing.photoFaintThresholds } ?? [nil]
        var best: (lines: [OCRLine], mean: Double, score: Double, raw: [OCRLine], threshold: Int?)?
        for (k, threshold) in thresholds.enumerated() {
            // A further threshold only while the reading so far is unsure (no total, no date, or items that do
            // not add up): faint print that the first threshold broke up is read at a lighter one.
            if let best, k > 0, ReadingCheck(best.lines).isSure { break }
            let (lines, mean) = try binarizedReading(work, threshold: threshold, rectified: rectifiedPaper, path: path,
                                                     limits: limits, started: started, pageSegmentation: pageSegmentation,
                                                     fromRow: bodyTop)
            let merged = Self.headerFromFirst(firstLines, bodyFrom: lines, map: frame)
            let score = Self.readingScore(merged)
            timed(threshold.map { "ocr@\($0)" } ?? "ocr")
            steps.append(String(format: "%.1f", score))
            // A lighter threshold also reads more specks as text: it must find at least what a read total is worth.
            if let current = best, score < current.score + preprocessing.photoFaintMinimumGain { continue }
            if best != nil { steps.append(String(format: "threshold %d won %.1f", threshold ?? 0, score)) }
            best = (merged, mean, score, lines, threshold)
        }
        guard var best else { pixDestroy(&work); return nil }
        // Curled paper (Dewarp.swift), only while the reading is unsure: kept when its parse scores higher.
        if preprocessing.photoDewarp, !ReadingCheck(best.lines).isSure,
           var flat = try dewarpedReading(work, raw: best.raw, firstLines: firstLines, frame: frame, threshold: best.threshold,
                                          rectified: rectifiedPaper, path: path, limits: limits, started: started,
                                          pageSegmentation: pageSegmentation, steps: &steps) {
            if flat.score > best.score {
                swap(&work, &flat.image)
                best = (flat.lines, flat.meanConfidence, flat.score, flat.rawLines, best.threshold)
                steps.append("dewarped")
            }
            pixDestroy(&flat.image)
        }
        return PhotoReading(lines: best.lines, meanConfidence: best.mean, image: work, steps: steps, score: best.score)
    }

    /// The normalised, scaled photo `work` binarised at `threshold` (nil: left grey) and read.
    func binarizedReading(_ work: UnsafeMutablePointer<PIX>?, threshold: Int?, rectified: Bool, path: String,
                                  limits: OCRLimits, started: ContinuousClock.Instant,
                                  pageSegmentation: PageSegmentation, fromRow top: Int = 0) throws -> ([OCRLine], Double) {
        var input: UnsafeMutablePointer<PIX>? = threshold.flatMap { Self.threshold(work, at: $0) } ?? pixClone(work)
        defer { pixDestroy(&input) }
        // What touches the image's border after cropping is the paper's rim or the background, not print.
        if threshold != nil, rectified, let clean = pixRemoveBorderConnComps(input, 8) {
            pixDestroy(&input)
            input = clean
        }
        let debugDir = ProcessInfo.processInfo.environment["LARDER_OCR_DEBUG_DIR"]
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension + "-photo" + (threshold.map { "\($0)" } ?? "")
        if let debugDir {
            _ = pixWrite((debugDir as NSString).appendingPathComponent(name + ".png"), input, Int32(IFF_PNG))
        }
        let (lines, mean) = try run(input, path: path, limits: limits, started: started, pageSegmentation: pageSegmentation,
                                    fromRow: top)
        if let debugDir {
            let text = lines.map { String(format: "%3.0f %@", $0.confidence, $0.text) }.joined(separator: "\n")
            try? text.write(toFile: (debugDir as NSString).appendingPathComponent(name + ".txt"), atomically: true, encoding: .utf8)
        }
        return (lines, mean)
    }
}

