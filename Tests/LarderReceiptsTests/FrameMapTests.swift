import Foundation
import LarderReceipts
import Testing
@testable import LarderOCR

/// How the first reading's header boxes move into the photo reading's image (cropped or rectified, then scaled),
/// where the date re-reads crop them.
@Suite("Frame map")
struct FrameMapTests {
    static func p(_ x: Double, _ y: Double) -> PixelPoint { PixelPoint(x: x, y: y) }

    @Test func aCropThenScaleMovesAndScalesABox() {
        let map = FrameMap.crop(x: 40, y: 100).scaled(by: 2)
        #expect(map.apply(OCRBox(x: 50, y: 120, width: 30, height: 10)) == OCRBox(x: 20, y: 40, width: 60, height: 20))
    }

    @Test func aRectifiedQuadrilateralSendsItsCornersToTheRectangle() throws {
        // A sheet seen in perspective: its top edge shorter than its bottom.
        let quad = PaperQuad(topLeft: Self.p(120, 50), topRight: Self.p(380, 60), bottomRight: Self.p(450, 700),
                             bottomLeft: Self.p(60, 690))
        let map = try #require(FrameMap.rectify(quad, width: 300, height: 600)).scaled(by: 1.5)
        let expected = [Self.p(0, 0), Self.p(450, 0), Self.p(450, 900), Self.p(0, 900)]
        for (corner, truth) in zip(quad.corners, expected) {
            let mapped = try #require(map.apply(corner))
            #expect(mapped.distance(to: truth) < 1e-6, "\(corner) → \(mapped)")
        }
        // A point inside stays inside, and a line's words move with it.
        let line = OCRLine(text: "12/28/18 03:12 PM", confidence: 50, box: OCRBox(x: 200, y: 300, width: 100, height: 20),
                           words: [OCRWord(text: "12/28/18", box: OCRBox(x: 200, y: 300, width: 50, height: 20))])
        let moved = map.apply(line)
        #expect((0..<450).contains(moved.box.x) && (0..<900).contains(moved.box.y))
        #expect(moved.words?.first?.box.x == moved.box.x)
        #expect(moved.box != line.box)
    }

    @Test func degenerateCornersHaveNoMap() {
        let flat = PaperQuad(topLeft: Self.p(0, 0), topRight: Self.p(0, 0), bottomRight: Self.p(0, 0), bottomLeft: Self.p(0, 0))
        #expect(FrameMap.rectify(flat, width: 10, height: 10) == nil)
    }

    @Test func theHeaderOfTheFirstReadingIsMovedAndTheBodyIsNot() {
        let header = OCRLine(text: "SUPREME NY", confidence: 90, box: OCRBox(x: 100, y: 100, width: 80, height: 10))
        let firstBody = OCRLine(text: "Tennis balls 16.00", confidence: 90, box: OCRBox(x: 100, y: 200, width: 80, height: 10))
        let photoBody = OCRLine(text: "Tennis balls 16.00", confidence: 90, box: OCRBox(x: 120, y: 400, width: 160, height: 20))
        let merged = OCREngine.headerFromFirst([header, firstBody], bodyFrom: [photoBody], map: .crop(x: 50, y: 0).scaled(by: 2))
        #expect(merged.map(\.box) == [OCRBox(x: 100, y: 200, width: 160, height: 20), photoBody.box])
    }
}
