import Foundation
import Testing
@testable import LarderOCR

/// Dewarping curled paper: the disparity field fitted to text lines' word centres, the bend that decides whether
/// to straighten, and the remap, on a synthetic curled page the test draws itself.
@Suite("Dewarp")
struct DewarpTests {
    static let width = 400, height = 300
    /// Eight lines, 32 px apart; a line's centre at x lies `sag` px lower at the sides than in the middle
    /// (a cylinder-like curl), plus `slope` px per px of uniform skew.
    static func lineCentre(_ k: Int, x: Double, sag: Double, slope: Double = 0) -> Double {
        let s = (x - Double(width) / 2) / (Double(width) / 2)
        return 40 + 32 * Double(k) + sag * s * s + slope * (x - Double(width) / 2)
    }

    /// Five words per line, 6 px high, their centres on the curve.
    static func points(sag: Double, slope: Double = 0, lines: Int = 8) -> [[Dewarp.Point]] {
        (0..<lines).map { k in
            [40.0, 120, 200, 280, 360].map { x in Dewarp.Point(x: x, y: lineCentre(k, x: x, sag: sag, slope: slope), height: 6) }
        }
    }

    /// A white page with the eight lines drawn as dark bars 6 px thick.
    static func curledPage(sag: Double) -> GrayscaleImage {
        var pixels = [UInt8](repeating: 255, count: width * height)
        for k in 0..<8 {
            for x in 0..<width {
                let centre = lineCentre(k, x: Double(x), sag: sag)
                for y in Int((centre - 3).rounded())..<Int((centre + 3).rounded()) where (0..<height).contains(y) {
                    pixels[y * width + x] = 20
                }
            }
        }
        return GrayscaleImage(width: width, height: height, resolution: 300, pixels: pixels)
    }

    /// The centre of the dark rows in column `x` between rows `from` and `to`.
    static func darkCentre(_ image: GrayscaleImage, x: Int, from: Int, to: Int) -> Double? {
        let rows = (from..<to).filter { image.pixels[$0 * image.width + x] < 128 }
        return rows.isEmpty ? nil : Double(rows.reduce(0, +)) / Double(rows.count)
    }

    @Test func theFieldOfACurledPageIsFoundAndItsBendMeasured() throws {
        let points = Self.points(sag: 12)
        let field = try #require(Dewarp.fit(points, width: Self.width, height: Self.height))
        // The field is the curve relative to the line's middle: 12 px at the sides, 0 in the middle.
        #expect(abs(field.shift(x: 0, y: 150) - 12) < 0.5, "\(field)")
        #expect(abs(field.shift(x: 200, y: 150)) < 0.5, "\(field)")
        // Between the outer words (x 40…360, s = ±0.8) the lines sag 12 · 0.64 = 7.7 px: 1.28 text heights.
        let bend = Dewarp.bend(of: field, lines: points)
        #expect(abs(bend - 1.28) < 0.1, "bend \(bend)")
        #expect(bend >= Dewarp.minimumBend)
    }

    @Test func straightButSkewedLinesDoNotBend() throws {
        let points = Self.points(sag: 0, slope: 0.05)
        let field = try #require(Dewarp.fit(points, width: Self.width, height: Self.height))
        // The skew is in the field (20 px across the half-width) but not in the bend: a rotation removes it.
        #expect(abs(field.shift(x: 400, y: 150) - 10) < 0.5, "\(field)")
        #expect(Dewarp.bend(of: field, lines: points) < 0.1)
    }

    @Test func aWordOffItsLineIsDroppedAndTooFewLinesGiveNoField() throws {
        var points = Self.points(sag: 12)
        // A price tesseract put on the row above: 20 px off its line's curve.
        points[3][4].y -= 20
        let field = try #require(Dewarp.fit(points, width: Self.width, height: Self.height))
        #expect(abs(field.shift(x: 0, y: 150) - 12) < 0.5, "\(field)")
        #expect(Dewarp.fit(Self.points(sag: 12, lines: Dewarp.minimumLines - 1), width: Self.width, height: Self.height) == nil)
    }

    @Test func theRemapStraightensTheDrawnLines() throws {
        let page = Self.curledPage(sag: 12)
        // Drawn, the second line's centre is ~9 px lower at the sides than in the middle.
        let before = [10, 200, 390].compactMap { Self.darkCentre(page, x: $0, from: 60, to: 95) }
        #expect(before.count == 3 && before[0] - before[1] > 8, "\(before)")

        let field = try #require(Dewarp.fit(Self.points(sag: 12), width: Self.width, height: Self.height))
        let flat = try #require(Dewarp.remap(page, field: field))
        #expect(flat.width == page.width && flat.height == page.height)
        // Remapped, every line is level: the same centre (its middle's) in every column.
        for k in 0..<8 {
            let middle = Self.lineCentre(k, x: 200, sag: 12)
            let centres = stride(from: 10, to: 400, by: 60).compactMap {
                Self.darkCentre(flat, x: $0, from: Int(middle) - 10, to: Int(middle) + 10)
            }
            #expect(centres.count == 7 && centres.allSatisfy { abs($0 - middle) <= 1 }, "line \(k): \(centres) vs \(middle)")
        }
    }
}
