internal import CTesseract
import Foundation
import LarderReceipts

/// Curled paper straightened from its own text lines.
///
/// Leptonica's page model (`dewarpa*`) needs about 15 long text lines and builds on no receipt; a receipt has
/// fewer and shorter lines, but tesseract's reading already says which words share a printed line. Each word's
/// centre is a point on its line's curve, so the paper's vertical disparity is fitted to all lines at once: a
/// smooth field `v(x, y)` (the skew and a quadratic curl across x, the curl varying down the page) plus one height per line,
/// by least squares (each line's own height removed, so two-word lines — a name and its price — count as well as
/// long ones). Words far off their line's curve (a price tesseract put on the wrong row) are dropped and the field
/// fitted again. The image is then remapped so that every line becomes straight: `out(x, y) = in(x, y + v(x, y))`.
enum Dewarp {
    /// A word's centre and height, in pixels.
    struct Point: Equatable {
        var x: Double, y: Double, height: Double
    }

    /// The vertical disparity `v(x, y)`: how far below its straight position the print at (x, y) lies. With
    /// `s = (x − cx) / hw`, `t = (y − cy) / hh` (both in −1…1 over the image):
    /// `v = s·(b0 + b1·t + b2·t²) + s²·(c0 + c1·t + c2·t²)`; `coefficients` = [b0, b1, b2, c0, c1, c2].
    struct Field: Equatable {
        var coefficients: [Double]
        var cx: Double, cy: Double, hw: Double, hh: Double

        func basis(x: Double, y: Double) -> [Double] {
            let s = (x - cx) / hw, t = (y - cy) / hh
            return [s, s * t, s * t * t, s * s, s * s * t, s * s * t * t]
        }

        /// The disparity at (x, y) in pixels.
        func shift(x: Double, y: Double) -> Double {
            zip(basis(x: x, y: y), coefficients).reduce(0) { $0 + $1.0 * $1.1 }
        }

        /// The disparity with the page's uniform skew (`b0`, which a rotation removes) taken out.
        func bend(x: Double, y: Double) -> Double { shift(x: x, y: y) - coefficients[0] * (x - cx) / hw }
    }

    /// The curvature worth straightening: at least this many text heights between the highest and lowest point
    /// of a line (uniform skew left out). Geometric, not fitted to scores: receipt lines are about 1.2–1.5 text
    /// heights apart, so a line whose ends drift half a text height off its middle reaches into its neighbours'
    /// band, where a reading by lines (tesseract PSM 6) starts to mix rows.
    static let minimumBend = 0.5
    /// Fewer lines than this (with at least two usable words each) say too little about the paper.
    static let minimumLines = 6
    /// A word this many text heights off its line's fitted curve is dropped before the second fit.
    static let outlierHeights = 0.35

    /// The words of `lines` usable as points, grouped by line: confident words of body-text height (logos and
    /// large headings left out), lines with at least two of them.
    static func points(of lines: [OCRLine]) -> [[Point]] {
        let words = lines.flatMap { $0.words ?? [] }.filter { $0.box.height > 0 && $0.box.width > 0 }
        let heights = words.map { Double($0.box.height) }.sorted()
        guard !heights.isEmpty else { return [] }
        let median = heights[heights.count / 2]
        return lines.compactMap { line -> [Point]? in
            let usable = (line.words ?? []).filter {
                $0.confidence >= 30 && Double($0.box.height) >= 0.6 * median && Double($0.box.height) <= 1.6 * median
            }
            guard usable.count >= 2 else { return nil }
            return usable.map { Point(x: Double($0.box.x) + Double($0.box.width) / 2,
                                      y: Double($0.box.y) + Double($0.box.height) / 2, height: Double($0.box.height)) }
        }
    }

    /// The field fitted to the lines' points in an image of `width` × `height`; nil with fewer than
    /// ``minimumLines`` lines. Fitted: the page's uniform skew (`b0`) and its curl (`c0`), the curl varying down
    /// the page as far as the lines support it (quadratic from 12 lines, linear from 8). A skew varying down the
    /// page (`b1`, `b2`) is not fitted: on receipts-photos it made the field bend on twice as many photos for one
    /// more total (README, *Phone photos*).
    static func fit(_ lines: [[Point]], width: Int, height: Int) -> Field? {
        var field = Field(coefficients: Array(repeating: 0, count: 6), cx: Double(width) / 2, cy: Double(height) / 2,
                          hw: max(1, Double(width) / 2), hh: max(1, Double(height) / 2))
        var kept = lines
        for pass in 0..<2 {
            guard kept.count >= minimumLines else { return nil }
            let terms = kept.count >= 12 ? [0, 3, 4, 5] : kept.count >= 8 ? [0, 3, 4] : [0, 3]
            guard let solution = solve(kept, field: field, terms: terms) else { return nil }
            field.coefficients = Array(repeating: 0, count: 6)
            for (k, term) in terms.enumerated() { field.coefficients[term] = solution[k] }
            if pass == 0 { kept = withoutOutliers(kept, field: field) }
        }
        return field
    }

    /// Least squares for the chosen terms with each line's mean removed (its own height), a small ridge keeping
    /// the system well posed.
    static func solve(_ lines: [[Point]], field: Field, terms: [Int]) -> [Double]? {
        let n = terms.count
        var normal = Array(repeating: Array(repeating: 0.0, count: n), count: n)
        var rhs = Array(repeating: 0.0, count: n)
        for line in lines {
            let rows = line.map { p in terms.map { field.basis(x: p.x, y: p.y)[$0] } }
            let count = Double(line.count)
            let meanRow = (0..<n).map { j in rows.reduce(0) { $0 + $1[j] } / count }
            let meanY = line.reduce(0) { $0 + $1.y } / count
            for (p, row) in zip(line, rows) {
                let r = (0..<n).map { row[$0] - meanRow[$0] }
                for i in 0..<n {
                    rhs[i] += r[i] * (p.y - meanY)
                    for j in 0..<n { normal[i][j] += r[i] * r[j] }
                }
            }
        }
        for i in 0..<n { normal[i][i] += 1e-6 * Double(lines.count) }
        return gaussianElimination(normal, rhs)
    }

    /// Solves `a · x = b` (partial pivoting); nil when singular.
    static func gaussianElimination(_ a: [[Double]], _ b: [Double]) -> [Double]? {
        var a = a, b = b
        let n = b.count
        for col in 0..<n {
            guard let pivot = (col..<n).max(by: { abs(a[$0][col]) < abs(a[$1][col]) }), abs(a[pivot][col]) > 1e-12 else { return nil }
            a.swapAt(col, pivot); b.swapAt(col, pivot)
            for row in (col + 1)..<max(col + 1, n) {
                let f = a[row][col] / a[col][col]
                for k in col..<n { a[row][k] -= f * a[col][k] }
                b[row] -= f * b[col]
            }
        }
        var x = Array(repeating: 0.0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            let sum = ((row + 1)..<max(row + 1, n)).reduce(0) { $0 + a[row][$1] * x[$1] }
            x[row] = (b[row] - sum) / a[row][row]
        }
        return x
    }

    /// The lines without words further than ``outlierHeights`` text heights off their line's curve.
    static func withoutOutliers(_ lines: [[Point]], field: Field) -> [[Point]] {
        lines.compactMap { line in
            let straight = line.map { $0.y - field.shift(x: $0.x, y: $0.y) }
            let centre = straight.sorted()[straight.count / 2]
            let kept = zip(line, straight).filter { abs($0.1 - centre) <= outlierHeights * $0.0.height }.map(\.0)
            return kept.count >= 2 ? kept : nil
        }
    }

    /// How far the lines bend, in text heights: the largest difference between the highest and lowest point of
    /// the field along any line through the text (from the leftmost to the rightmost word), uniform skew left out.
    static func bend(of field: Field, lines: [[Point]]) -> Double {
        let all = lines.flatMap { $0 }
        guard let minX = all.map(\.x).min(), let maxX = all.map(\.x).max(),
              let minY = all.map(\.y).min(), let maxY = all.map(\.y).max() else { return 0 }
        let heights = all.map(\.height).sorted()
        let textHeight = max(1, heights[heights.count / 2])
        var largest = 0.0
        for i in 0...8 {
            let y = minY + (maxY - minY) * Double(i) / 8
            let values = (0...16).map { field.bend(x: minX + (maxX - minX) * Double($0) / 16, y: y) }
            largest = max(largest, (values.max() ?? 0) - (values.min() ?? 0))
        }
        return largest / textHeight
    }

    /// `pix` (8-bit gray) remapped so that the field's lines become straight: each output pixel is the input
    /// interpolated between the two rows at `y + v(x, y)`; outside the image is white. The caller owns the result.
    static func remap(_ pix: UnsafeMutablePointer<PIX>?, field: Field) -> UnsafeMutablePointer<PIX>? {
        guard pixGetDepth(pix) == 8, pixGetColormap(pix) == nil, let out = pixCreateTemplate(pix),
              let source = pixGetData(pix), let target = pixGetData(out) else { return nil }
        let width = Int(pixGetWidth(pix)), height = Int(pixGetHeight(pix)), wpl = Int(pixGetWpl(pix))
        let input = UnsafeRawPointer(source).assumingMemoryBound(to: UInt8.self)
        let output = UnsafeMutableRawPointer(target).assumingMemoryBound(to: UInt8.self)
        // Leptonica keeps 8-bit pixels in 32-bit words, the first pixel in the most significant byte: on a
        // little-endian machine pixel x of a row is byte x ^ 3 (leptonica's GET_DATA_BYTE).
        let rowBytes = 4 * wpl, swizzle = 1.littleEndian == 1 ? 3 : 0
        let c = field.coefficients
        let s = (0..<width).map { (Double($0) - field.cx) / field.hw }
        for y in 0..<height {
            // v = s·B(t) + s²·C(t): B and C are fixed along a row.
            let t = (Double(y) - field.cy) / field.hh
            let b = c[0] + t * (c[1] + t * c[2]), q = c[3] + t * (c[4] + t * c[5])
            let outRow = output + y * rowBytes
            for x in 0..<width {
                let sy = Double(y) + s[x] * (b + s[x] * q)
                let y0 = Int(sy.rounded(.down))
                let f = sy - Double(y0)
                let byte = x ^ swizzle
                let above = y0 >= 0 && y0 < height ? Double(input[y0 * rowBytes + byte]) : 255
                let below = y0 + 1 >= 0 && y0 + 1 < height ? Double(input[(y0 + 1) * rowBytes + byte]) : 255
                outRow[byte] = UInt8(max(0, min(255, (above + (below - above) * f).rounded())))
            }
        }
        return out
    }
}

/// A photo reading made on the dewarped image.
struct DewarpedReading {
    /// The dewarped 8-bit image (owned by the caller).
    var image: UnsafeMutablePointer<PIX>?
    var rawLines: [OCRLine]
    var lines: [OCRLine]
    var meanConfidence: Double
    var score: Double
}

extension OCREngine {
    /// The photo reading made again on `work` (the normalised, scaled gray image) dewarped by the field its own
    /// reading's lines (`raw`, boxes in `work`'s coordinates) describe, when they bend by at least
    /// ``Dewarp/minimumBend`` text heights; binarised at `threshold` as the reading it may replace. Nil when the
    /// lines are too few or too straight; the caller keeps it only when its parse scores higher. Appends the
    /// measured bend and the CPU time of the fit and remap, and of the OCR, to `steps`.
    func dewarpedReading(_ work: UnsafeMutablePointer<PIX>?, raw: [OCRLine], firstLines: [OCRLine], frame: FrameMap = .identity,
                         threshold: Int?,
                         rectified: Bool, path: String, limits: OCRLimits, started: ContinuousClock.Instant,
                         pageSegmentation: PageSegmentation, steps: inout [String]) throws -> DewarpedReading? {
        let start = StepCosts.now()
        let points = Dewarp.points(of: raw)
        guard let field = Dewarp.fit(points, width: Int(pixGetWidth(work)), height: Int(pixGetHeight(work))) else {
            steps.append("dewarp-few-lines(\(points.count))")
            return nil
        }
        let bend = Dewarp.bend(of: field, lines: points)
        guard bend >= Dewarp.minimumBend else {
            steps.append(String(format: "straight(%.2f)", bend))
            return nil
        }
        var flat = Dewarp.remap(work, field: field)
        guard flat != nil else { return nil }
        let resolution = pixGetXRes(work)
        pixSetResolution(flat, resolution, resolution)
        let remapped = StepCosts.now()
        let reading: ([OCRLine], Double)
        do {
            reading = try binarizedReading(flat, threshold: threshold, rectified: rectified, path: path, limits: limits,
                                           started: started, pageSegmentation: pageSegmentation)
        } catch {
            pixDestroy(&flat)
            throw error
        }
        let merged = Self.headerFromFirst(firstLines, bodyFrom: reading.0, map: frame)
        let score = Self.readingScore(merged)
        steps.append(String(format: "dewarp(bend %.2f, cpu %.0f+%.0fms) %.1f", bend, remapped - start,
                            StepCosts.now() - remapped, score))
        return DewarpedReading(image: flat, rawLines: reading.0, lines: merged, meanConfidence: reading.1, score: score)
    }
}

extension Dewarp {
    /// `image` remapped by `field` (``remap(_:field:)``), on Swift memory: for tests and tools.
    static func remap(_ image: GrayscaleImage, field: Field) -> GrayscaleImage? {
        var pix = OCREngine.leptonicaImage(image)
        defer { pixDestroy(&pix) }
        var flat = remap(pix, field: field)
        defer { pixDestroy(&flat) }
        return flat.map { OCREngine.grayscaleImage($0) }
    }
}
