import Foundation
import Testing
@testable import LarderOCR

/// The print-height estimate that decides whether an image is read scaled down (``TextSize``), on images the test
/// draws: rows of dark "glyphs" (upright bars with a counter, like an O or a 0) of a known height on light paper.
@Suite("Text size (OCR downscale)")
struct TextSizeTests {
    /// A 900×1400 gray page (paper at 235) with `rows` rows of 24 glyphs `glyphHeight` px tall, 0.6 of that wide,
    /// and a few specks and one long rule that are no glyphs.
    static func page(glyphHeight: Int, rows: Int = 12) -> GrayscaleImage {
        let width = 900, height = 1400
        var pixels = [UInt8](repeating: 235, count: width * height)
        func fill(_ x0: Int, _ y0: Int, _ w: Int, _ h: Int, _ value: UInt8) {
            for y in max(0, y0)..<min(height, y0 + h) { for x in max(0, x0)..<min(width, x0 + w) { pixels[y * width + x] = value } }
        }
        let glyphWidth = max(3, glyphHeight * 6 / 10), stroke = max(2, glyphHeight / 7)
        for row in 0..<rows {
            let top = 40 + row * glyphHeight * 2
            guard top + glyphHeight < height - 40 else { break }
            for k in 0..<24 {
                let left = 30 + k * (glyphWidth + glyphWidth / 2)
                guard left + glyphWidth < width - 30 else { break }
                fill(left, top, glyphWidth, glyphHeight, 30)
                fill(left + stroke, top + stroke, glyphWidth - 2 * stroke, glyphHeight - 2 * stroke, 235)
            }
        }
        for k in 0..<40 { fill(50 + 20 * k, height - 20, 1, 1, 20) }  // specks
        fill(20, height - 60, width - 40, 3, 20)  // a rule
        return GrayscaleImage(width: width, height: height, resolution: 300, pixels: pixels)
    }

    @Test(arguments: [16, 30, 48])
    func medianGlyphHeightIsTheDrawnHeight(glyphHeight: Int) throws {
        let estimate = try #require(TextSize.medianGlyphHeight(Self.page(glyphHeight: glyphHeight)))
        // Measured on a half-size copy: within a pixel of the copy's precision.
        #expect(abs(estimate - Double(glyphHeight)) <= 2, "estimated \(estimate) for \(glyphHeight)")
    }

    @Test func blankPaperOrAFewMarksGiveNoEstimate() {
        #expect(TextSize.medianGlyphHeight(Self.page(glyphHeight: 30, rows: 0)) == nil)
        // One row of 24 glyphs is under the 30 a page must hold.
        #expect(TextSize.medianGlyphHeight(Self.page(glyphHeight: 30, rows: 1)) == nil)
    }

    @Test func onlyPrintTallerThanTheThresholdIsScaledDownAndNeverBelowHalf() {
        #expect(TextSize.downscaleFactor(glyphHeight: 30, above: 40, target: 32) == nil)
        #expect(TextSize.downscaleFactor(glyphHeight: nil, above: 40, target: 32) == nil)
        #expect(TextSize.downscaleFactor(glyphHeight: 48, above: 40, target: 32) == 32.0 / 48)
        #expect(TextSize.downscaleFactor(glyphHeight: 200, above: 40, target: 32) == TextSize.smallestFactor)
        // Barely taller than the target: not worth a resampling.
        #expect(TextSize.downscaleFactor(glyphHeight: 33, above: 32, target: 32) == nil)
    }
}
