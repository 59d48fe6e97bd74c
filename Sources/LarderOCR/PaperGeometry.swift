internal import CTesseract
import Foundation

/// A point in pixel coordinates (x to the right, y down).
struct PixelPoint: Equatable, Sendable {
    var x: Double
    var y: Double

    func distance(to other: PixelPoint) -> Double { hypot(x - other.x, y - other.y) }
}

/// The outline of a sheet of paper seen in perspective: four corners, clockwise from the top left.
struct PaperQuad: Equatable, Sendable {
    var topLeft: PixelPoint
    var topRight: PixelPoint
    var bottomRight: PixelPoint
    var bottomLeft: PixelPoint

    var corners: [PixelPoint] { [topLeft, topRight, bottomRight, bottomLeft] }

    /// The size of the paper once rectified: the longer of each pair of opposite sides (perspective shortens
    /// the far side; the near one is closer to the printed size).
    var rectifiedSize: (width: Int, height: Int) {
        let width = max(topLeft.distance(to: topRight), bottomLeft.distance(to: bottomRight))
        let height = max(topLeft.distance(to: bottomLeft), topRight.distance(to: bottomRight))
        return (Int(width.rounded()), Int(height.rounded()))
    }

    /// The quadrilateral with each side moved outwards by `margin` pixels (so that print close to the paper's
    /// edge is not cut off by a corner found a pixel or two inside); itself when the sides are degenerate.
    func expanded(by margin: Double) -> PaperQuad {
        let c = corners
        let cx = c.reduce(0) { $0 + $1.x } / 4, cy = c.reduce(0) { $0 + $1.y } / 4
        var sides: [(PixelPoint, PixelPoint)] = []
        for k in 0..<4 {
            let a = c[k], b = c[(k + 1) % 4]
            let length = a.distance(to: b)
            guard length > 0 else { return self }
            var nx = (b.y - a.y) / length, ny = -(b.x - a.x) / length
            // The normal pointing away from the centre.
            if (a.x - cx) * nx + (a.y - cy) * ny < 0 { nx = -nx; ny = -ny }
            sides.append((PixelPoint(x: a.x + nx * margin, y: a.y + ny * margin), PixelPoint(x: b.x + nx * margin, y: b.y + ny * margin)))
        }
        var out: [PixelPoint] = []
        for k in 0..<4 {
            let previous = sides[(k + 3) % 4], current = sides[k]
            guard let p = PaperGeometry.intersection(previous.0, previous.1, current.0, current.1) else { return self }
            out.append(p)
        }
        return PaperQuad(topLeft: out[0], topRight: out[1], bottomRight: out[2], bottomLeft: out[3])
    }

    /// The quadrilateral with every coordinate multiplied by `factor`.
    func scaled(by factor: Double) -> PaperQuad {
        func s(_ p: PixelPoint) -> PixelPoint { PixelPoint(x: p.x * factor, y: p.y * factor) }
        return PaperQuad(topLeft: s(topLeft), topRight: s(topRight), bottomRight: s(bottomRight), bottomLeft: s(bottomLeft))
    }
}

/// Plane geometry of the paper's outline: the convex hull of a region, the quadrilateral that explains it, and
/// whether that quadrilateral is clear enough to rectify. Pure functions over points (unit-tested on their own).
enum PaperGeometry {
    /// The convex hull (Andrew's monotone chain), clockwise in image coordinates (y down), without repeated
    /// or collinear points.
    static func convexHull(_ points: [PixelPoint]) -> [PixelPoint] {
        let sorted = points.sorted { $0.x != $1.x ? $0.x < $1.x : $0.y < $1.y }
        guard sorted.count > 2 else { return sorted }
        func cross(_ o: PixelPoint, _ a: PixelPoint, _ b: PixelPoint) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        var lower: [PixelPoint] = [], upper: [PixelPoint] = []
        for p in sorted {
            while lower.count >= 2, cross(lower[lower.count - 2], lower[lower.count - 1], p) <= 0 { lower.removeLast() }
            lower.append(p)
        }
        for p in sorted.reversed() {
            while upper.count >= 2, cross(upper[upper.count - 2], upper[upper.count - 1], p) <= 0 { upper.removeLast() }
            upper.append(p)
        }
        // Counter-clockwise in y-up coordinates is clockwise on screen (y down).
        return Array(lower.dropLast() + upper.dropLast())
    }

    /// The area of a simple polygon (shoelace), always positive.
    static func area(_ polygon: [PixelPoint]) -> Double {
        guard polygon.count >= 3 else { return 0 }
        var sum = 0.0
        for i in polygon.indices {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            sum += a.x * b.y - b.x * a.y
        }
        return abs(sum) / 2
    }

    /// The polygon reduced to `count` vertices by repeatedly dropping the vertex whose triangle with its
    /// neighbours is smallest (Visvalingam–Whyatt): what remains are the corners that carry the shape.
    static func simplified(_ polygon: [PixelPoint], to count: Int) -> [PixelPoint] {
        var p = polygon
        while p.count > count {
            var smallest = Double.infinity, index = 0
            for i in p.indices {
                let t = area([p[(i + p.count - 1) % p.count], p[i], p[(i + 1) % p.count]])
                if t < smallest { smallest = t; index = i }
            }
            p.remove(at: index)
        }
        return p
    }

    /// Where the lines through `a1`–`a2` and `b1`–`b2` cross; nil when they are (nearly) parallel.
    static func intersection(_ a1: PixelPoint, _ a2: PixelPoint, _ b1: PixelPoint, _ b2: PixelPoint) -> PixelPoint? {
        let d = (a1.x - a2.x) * (b1.y - b2.y) - (a1.y - a2.y) * (b1.x - b2.x)
        guard abs(d) > 1e-9 else { return nil }
        let ta = a1.x * a2.y - a1.y * a2.x, tb = b1.x * b2.y - b1.y * b2.x
        return PixelPoint(x: (ta * (b1.x - b2.x) - (a1.x - a2.x) * tb) / d, y: (ta * (b1.y - b2.y) - (a1.y - a2.y) * tb) / d)
    }

    /// The four sides of a hull: the hull's four main corners (``simplified(_:to:)``) split it into four
    /// chains; each side is the chain's longest hull edge, refined by a line fitted (``fittedLine(_:)``) to the
    /// chain's vertices within 2 % of the paper's size of it (a straight edge in a raster is a staircase). A
    /// corner rounded or cut off by the morphology (or a thumb) does not pull the side inwards. The corners are
    /// where the sides meet.
    static func sides(ofHull hull: [PixelPoint]) -> [PixelPoint]? {
        guard hull.count >= 4 else { return nil }
        let corners = simplified(hull, to: 4)
        let cornerIndices = corners.compactMap { c in hull.firstIndex(of: c) }
        guard cornerIndices.count == 4 else { return nil }
        let xs = hull.map(\.x), ys = hull.map(\.y)
        let tolerance = 0.02 * max(xs.max()! - xs.min()!, ys.max()! - ys.min()!)
        var lines: [(PixelPoint, PixelPoint)] = []
        for k in 0..<4 {
            var chain: [PixelPoint] = [], i = cornerIndices[k]
            while true {
                chain.append(hull[i])
                if i == cornerIndices[(k + 1) % 4] { break }
                i = (i + 1) % hull.count
            }
            let edges = zip(chain, chain.dropFirst())
            guard let longest = edges.max(by: { $0.0.distance(to: $0.1) < $1.0.distance(to: $1.1) }),
                  longest.0.distance(to: longest.1) > 0 else { return nil }
            let near = chain.filter { distance(of: $0, toLineThrough: longest.0, longest.1) <= tolerance }
            lines.append(near.count > 2 ? fittedLine(near) : longest)
        }
        var out: [PixelPoint] = []
        for k in 0..<4 {
            let previous = lines[(k + 3) % 4], current = lines[k]
            guard let corner = intersection(previous.0, previous.1, current.0, current.1) else { return nil }
            out.append(corner)
        }
        return out
    }

    /// The distance of `p` from the line through `a` and `b` (`a` ≠ `b`).
    static func distance(of p: PixelPoint, toLineThrough a: PixelPoint, _ b: PixelPoint) -> Double {
        abs((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)) / a.distance(to: b)
    }

    /// The total-least-squares line through points (their mean and principal direction), as two points on it.
    static func fittedLine(_ points: [PixelPoint]) -> (PixelPoint, PixelPoint) {
        let n = Double(points.count)
        let mx = points.reduce(0) { $0 + $1.x } / n, my = points.reduce(0) { $0 + $1.y } / n
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for p in points { sxx += (p.x - mx) * (p.x - mx); syy += (p.y - my) * (p.y - my); sxy += (p.x - mx) * (p.y - my) }
        let theta = 0.5 * atan2(2 * sxy, sxx - syy)
        let mean = PixelPoint(x: mx, y: my)
        return (mean, PixelPoint(x: mx + 100 * cos(theta), y: my + 100 * sin(theta)))
    }

    /// Four corners (clockwise) as a ``PaperQuad``: the top-left corner is the one nearest the top-left of
    /// their bounding box (x + y smallest), which holds for paper turned by less than 45°.
    static func ordered(_ corners: [PixelPoint]) -> PaperQuad? {
        guard corners.count == 4 else { return nil }
        let start = corners.indices.min { corners[$0].x + corners[$0].y < corners[$1].x + corners[$1].y }!
        let c = (0..<4).map { corners[(start + $0) % 4] }
        return PaperQuad(topLeft: c[0], topRight: c[1], bottomRight: c[2], bottomLeft: c[3])
    }

    /// The interior angles of a quadrilateral, in degrees.
    static func angles(_ quad: PaperQuad) -> [Double] {
        let c = quad.corners
        return (0..<4).map { k in
            let p = c[(k + 3) % 4], q = c[k], r = c[(k + 1) % 4]
            let a = atan2(p.y - q.y, p.x - q.x), b = atan2(r.y - q.y, r.x - q.x)
            var d = abs(a - b) * 180 / .pi
            if d > 180 { d = 360 - d }
            return d
        }
    }

    /// Thresholds of ``clearQuadrilateral(outline:regionArea:)``.
    enum Clear {
        /// The quadrilateral covers at least this much of the hull, and the region this much of the
        /// quadrilateral: a sheet, not a curl, a fold or a hand around it.
        static let minimumFit = 0.93
        /// Corners between these angles: perspective of a phone held over a table, not a sliver.
        static let angleRange = 50.0...130.0
    }

    /// The quadrilateral that explains a region's outline (its boundary points), when it does so clearly: the
    /// hull's four sides meet at corners near the hull's own (within 3 % of its size), forming a quadrilateral
    /// whose area matches the hull's and the region's within ``Clear/minimumFit`` and whose angles are in
    /// ``Clear/angleRange``. Nil for curled,
    /// torn or ragged outlines, where cropping is all that is safe.
    static func clearQuadrilateral(outline: [PixelPoint], regionArea: Double) -> PaperQuad? {
        let hull = convexHull(outline)
        guard let corners = sides(ofHull: hull), let quad = ordered(corners) else { return nil }
        let quadArea = area(quad.corners), hullArea = area(hull)
        guard quadArea > 0, hullArea > 0 else { return nil }
        // Every corner near the region: a side fitted to a ragged edge must not send a corner far outside it.
        let xs = hull.map(\.x), ys = hull.map(\.y)
        let reach = 0.03 * max(xs.max()! - xs.min()!, ys.max()! - ys.min()!)
        guard quad.corners.allSatisfy({ c in hull.contains { $0.distance(to: c) <= reach } }) else { return nil }
        let fit = min(hullArea / quadArea, quadArea / hullArea, regionArea / quadArea)
        guard fit >= Clear.minimumFit, angles(quad).allSatisfy({ Clear.angleRange.contains($0) }),
              abs(angles(quad).reduce(0, +) - 360) < 1 else { return nil }
        return quad
    }

    /// Whether rectifying `quad` changes anything worth the cost: some corner lies more than `tolerance`
    /// (a fraction of the paper's size) from the corner of its axis-aligned bounding box.
    static func isSlanted(_ quad: PaperQuad, tolerance: Double = 0.015) -> Bool {
        let xs = quad.corners.map(\.x), ys = quad.corners.map(\.y)
        let minX = xs.min()!, maxX = xs.max()!, minY = ys.min()!, maxY = ys.max()!
        let box = [PixelPoint(x: minX, y: minY), PixelPoint(x: maxX, y: minY), PixelPoint(x: maxX, y: maxY), PixelPoint(x: minX, y: maxY)]
        let size = max(maxX - minX, maxY - minY)
        return zip(quad.corners, box).contains { $0.distance(to: $1) > tolerance * size }
    }
}

/// Leptonica side of the paper's geometry: the outline of a region in a mask, and the projective rectification.
extension OCREngine {
    /// The boundary points of a 1 bpp region: the first and last set pixel of every row (their convex hull is
    /// the region's), at pixel centres, offset by (`dx`, `dy`). Also the region's area in pixels.
    static func outline(of mask: UnsafeMutablePointer<PIX>?, dx: Double = 0, dy: Double = 0) -> (points: [PixelPoint], area: Double) {
        guard pixGetDepth(mask) == 1 else { return ([], 0) }
        let width = Int(pixGetWidth(mask)), height = Int(pixGetHeight(mask))
        var points: [PixelPoint] = [], count = 0
        var value: UInt32 = 0
        for y in 0..<height {
            var first: Int?, last = 0
            for x in 0..<width {
                _ = pixGetPixel(mask, Int32(x), Int32(y), &value)
                if value != 0 {
                    count += 1
                    if first == nil { first = x }
                    last = x
                }
            }
            if let first {
                // The outer edges of the border pixels, so that a full row spans its whole width.
                points.append(PixelPoint(x: Double(first) + dx, y: Double(y) + dy))
                points.append(PixelPoint(x: Double(last + 1) + dx, y: Double(y) + dy))
                points.append(PixelPoint(x: Double(first) + dx, y: Double(y + 1) + dy))
                points.append(PixelPoint(x: Double(last + 1) + dx, y: Double(y + 1) + dy))
            }
        }
        return (points, Double(count))
    }

    /// The paper of `pix` seen as `quad` mapped onto an upright rectangle of its ``PaperQuad/rectifiedSize``
    /// (leptonica `pixProjectivePta`: linear interpolation for 8 bpp, sampling for a 1 bpp mask; white, or
    /// "not paper", brought in from outside the image). Nil when the size is degenerate or leptonica fails.
    static func rectified(_ pix: UnsafeMutablePointer<PIX>?, quad: PaperQuad) -> UnsafeMutablePointer<PIX>? {
        let (width, height) = quad.rectifiedSize
        guard width >= 16, height >= 16 else { return nil }
        // leptonica's projective transform keeps the input's size: pad it so the rectangle fits.
        let padRight = max(0, width - Int(pixGetWidth(pix))), padBottom = max(0, height - Int(pixGetHeight(pix)))
        let white: UInt32 = pixGetDepth(pix) == 1 ? 0 : 255
        var canvas: UnsafeMutablePointer<PIX>? = padRight + padBottom > 0
            ? pixAddBorderGeneral(pix, 0, Int32(padRight), 0, Int32(padBottom), white) : pixClone(pix)
        guard canvas != nil else { return nil }
        defer { pixDestroy(&canvas) }
        var source: UnsafeMutablePointer<PTA>? = ptaCreate(4), target: UnsafeMutablePointer<PTA>? = ptaCreate(4)
        defer { ptaDestroy(&source); ptaDestroy(&target) }
        for corner in quad.corners { ptaAddPt(source, Float(corner.x), Float(corner.y)) }
        for (x, y) in [(0, 0), (width, 0), (width, height), (0, height)] { ptaAddPt(target, Float(x), Float(y)) }
        var warped: UnsafeMutablePointer<PIX>? = pixProjectivePta(canvas, target, source, Int32(L_BRING_IN_WHITE))
        guard warped != nil else { return nil }
        defer { pixDestroy(&warped) }
        return crop(warped, PixelRect(x: 0, y: 0, width: width, height: height))
    }

    /// The paper's mask (``Paper/mask``, the size of ``Paper/rect``) placed in a 1 bpp image of the full frame.
    static func fullFrameMask(_ paper: Paper, width: Int, height: Int) -> UnsafeMutablePointer<PIX>? {
        guard let full = pixCreate(Int32(width), Int32(height), 1) else { return nil }
        let r = paper.rect
        _ = pixRasterop(full, Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height), PIX_SRC, paper.mask, 0, 0)
        return full
    }

    /// The quadrilateral ``rectifiedPaper(_:paper:quad:)`` maps onto its rectangle: `quad` widened by 1 % of its size.
    static func rectifiedOutline(_ quad: PaperQuad) -> PaperQuad {
        let size = quad.rectifiedSize
        return quad.expanded(by: 0.01 * Double(max(size.width, size.height)))
    }

    /// The paper of `pix` rectified (``rectified(_:quad:)``) within a margin of 1.5 % of its size, with what lies
    /// outside the paper's mask painted white; nil when leptonica fails.
    static func rectifiedPaper(_ pix: UnsafeMutablePointer<PIX>?, paper: Paper, quad: PaperQuad) -> UnsafeMutablePointer<PIX>? {
        let wider = rectifiedOutline(quad)
        guard let flat = rectified(pix, quad: wider) else { return nil }
        var full: UnsafeMutablePointer<PIX>? = fullFrameMask(paper, width: Int(pixGetWidth(pix)), height: Int(pixGetHeight(pix)))
        defer { pixDestroy(&full) }
        // The mask comes from a ~300-px copy: its edge may lie a pixel of that copy outside the paper, where the
        // paper's shadowed rim would become a black bar. Shrink it by about that much.
        let shrink = Int32(2 * Int((0.004 * Double(max(pixGetWidth(pix), pixGetHeight(pix)))).rounded()) + 1)
        if full != nil, shrink > 1, let eroded = pixErodeBrick(nil, full, shrink, shrink) {
            pixDestroy(&full)
            full = eroded
        }
        var mask: UnsafeMutablePointer<PIX>? = full != nil ? rectified(full, quad: wider) : nil
        defer { pixDestroy(&mask) }
        if mask != nil, pixGetWidth(mask) == pixGetWidth(flat), pixGetHeight(mask) == pixGetHeight(flat) {
            whitenOutside(flat, paper: mask)
        }
        return flat
    }
}

/// The paper's geometry on images in Swift memory (tests, tools): the same leptonica calls as the photo reading.
extension OCREngine {
    /// The paper found in `image` (``findPaper(_:)``) and its outline as a clear quadrilateral, if any.
    static func paperOutline(in image: GrayscaleImage) -> (rect: PixelRect, quad: PaperQuad?)? {
        var pix = leptonicaImage(image)
        defer { pixDestroy(&pix) }
        guard var paper = findPaper(pix) else { return nil }
        defer { pixDestroy(&paper.mask) }
        return (paper.rect, paper.quad)
    }

    /// `image` with `quad` mapped onto an upright rectangle (``rectified(_:quad:)``).
    static func rectified(_ image: GrayscaleImage, quad: PaperQuad) -> GrayscaleImage? {
        var pix = leptonicaImage(image)
        defer { pixDestroy(&pix) }
        var flat = rectified(pix, quad: quad)
        defer { pixDestroy(&flat) }
        return flat.map { grayscaleImage($0) }
    }

    /// An 8 bpp leptonica image of `image` (caller destroys); nil for an inconsistent size.
    static func leptonicaImage(_ image: GrayscaleImage) -> UnsafeMutablePointer<PIX>? {
        guard image.width > 0, image.height > 0, image.pixels.count == image.width * image.height,
              let pix = pixCreate(Int32(image.width), Int32(image.height), 8) else { return nil }
        let resolution = Int32(image.resolution.rounded())
        pixSetResolution(pix, resolution, resolution)
        for y in 0..<image.height {
            for x in 0..<image.width { pixSetPixel(pix, Int32(x), Int32(y), UInt32(image.pixels[y * image.width + x])) }
        }
        return pix
    }

    /// The pixels of an 8 bpp leptonica image.
    static func grayscaleImage(_ pix: UnsafeMutablePointer<PIX>) -> GrayscaleImage {
        let width = Int(pixGetWidth(pix)), height = Int(pixGetHeight(pix))
        var pixels = [UInt8](repeating: 255, count: width * height)
        var value: UInt32 = 0
        for y in 0..<height {
            for x in 0..<width {
                _ = pixGetPixel(pix, Int32(x), Int32(y), &value)
                pixels[y * width + x] = UInt8(clamping: value)
            }
        }
        return GrayscaleImage(width: width, height: height, resolution: Double(pixGetXRes(pix)), pixels: pixels)
    }
}

extension OCREngine {
    /// The paper found in the image file at `path` (decoded by leptonica, converted to 8 bpp; no deskew), and
    /// its outline as a clear quadrilateral, if any: ``findPaper(_:)`` on a file, for tests and tools.
    static func paperOutline(imageAt path: String) -> (rect: PixelRect, quad: PaperQuad?)? {
        var pix: UnsafeMutablePointer<PIX>? = pixRead(fileSystemPath(path))
        defer { pixDestroy(&pix) }
        var gray: UnsafeMutablePointer<PIX>? = pix != nil ? pixConvertTo8(pix, 0) : nil
        defer { pixDestroy(&gray) }
        guard gray != nil, var paper = findPaper(gray) else { return nil }
        defer { pixDestroy(&paper.mask) }
        return (paper.rect, paper.quad)
    }
}

extension OCREngine {
    /// How dark the darkest edge of the frame is against the paper: the lowest median grey of the four edge
    /// strips (each ``frameStripFraction`` of the image's height or width deep) over the image's 90th-percentile
    /// grey (the paper). A flat scan, or a photo whose paper fills the frame, has paper or the scanner's white bed
    /// at every edge (about 1); a photo that shows the table, cloth or shadow around the receipt has a darker edge,
    /// even where ``findPaper(_:)`` finds no clear paper outline. Nil for an image too small to measure.
    static func frameEdgeContrast(_ pix: UnsafeMutablePointer<PIX>?) -> Double? {
        let width = Int(pixGetWidth(pix)), height = Int(pixGetHeight(pix))
        guard pixGetDepth(pix) == 8, width >= 100, height >= 100 else { return nil }
        func rank(_ x: Int, _ y: Int, _ w: Int, _ h: Int, _ rank: Float) -> Double? {
            var box = boxCreate(Int32(x), Int32(y), Int32(w), Int32(h))
            defer { boxDestroy(&box) }
            var strip: UnsafeMutablePointer<PIX>? = pixClipRectangle(pix, box, nil)
            defer { pixDestroy(&strip) }
            var value: UInt32 = 0
            guard strip != nil, pixGetRankValue(strip, 2, rank, &value) == 0 else { return nil }
            return Double(value)
        }
        guard let paper = rank(0, 0, width, height, 0.9), paper > 0 else { return nil }
        let dy = max(4, Int(Double(height) * frameStripFraction)), dx = max(4, Int(Double(width) * frameStripFraction))
        let edges = [rank(0, 0, width, dy, 0.5), rank(0, height - dy, width, dy, 0.5),
                     rank(0, 0, dx, height, 0.5), rank(width - dx, 0, dx, height, 0.5)]
        guard edges.allSatisfy({ $0 != nil }) else { return nil }
        return edges.compactMap { $0 }.min()! / paper
    }

    /// ``frameEdgeContrast(_:)`` of an image in Swift memory (tests, tools).
    static func frameEdgeContrast(in image: GrayscaleImage) -> Double? {
        var pix = leptonicaImage(image)
        defer { pixDestroy(&pix) }
        return frameEdgeContrast(pix)
    }

    /// Depth of the edge strips ``frameEdgeContrast(_:)`` measures, as a fraction of the image's size.
    static let frameStripFraction = 0.03
}
