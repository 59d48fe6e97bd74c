import Foundation
import Testing
@testable import LarderOCR

/// The paper's outline and its rectification: plane geometry on points, then leptonica on a synthetic photo of a
/// sheet seen in perspective.
@Suite("Paper geometry")
struct PaperGeometryTests {
    static func p(_ x: Double, _ y: Double) -> PixelPoint { PixelPoint(x: x, y: y) }

    @Test func hullOfASquareWithPointsInsideIsItsFourCorners() {
        var points: [PixelPoint] = []
        for x in stride(from: 0.0, through: 10, by: 2.5) { for y in stride(from: 0.0, through: 10, by: 2.5) { points.append(Self.p(x, y)) } }
        let hull = PaperGeometry.convexHull(points)
        #expect(Set(hull.map { "\($0.x),\($0.y)" }) == ["0.0,0.0", "10.0,0.0", "10.0,10.0", "0.0,10.0"])
        #expect(PaperGeometry.area(hull) == 100)
    }

    @Test func cutCornersAreRestoredWhereTheSidesMeet() throws {
        // A 100×200 rectangle whose corners were cut off by 6 px (as a morphological closing rounds them).
        let hull = [Self.p(6, 0), Self.p(94, 0), Self.p(100, 6), Self.p(100, 194), Self.p(94, 200), Self.p(6, 200),
                    Self.p(0, 194), Self.p(0, 6)]
        let quad = try #require(PaperGeometry.clearQuadrilateral(outline: hull, regionArea: 100 * 200 - 4 * 18))
        let expected = [Self.p(0, 0), Self.p(100, 0), Self.p(100, 200), Self.p(0, 200)]
        for (corner, truth) in zip(quad.corners, expected) { #expect(corner.distance(to: truth) < 0.5, "\(quad)") }
        #expect(!PaperGeometry.isSlanted(quad))
    }

    @Test func raggedOrCurledOutlinesAreNotQuadrilaterals() {
        // An L: its hull is a quadrilateral-ish pentagon, but the region fills only three quarters of it.
        let l = [Self.p(0, 0), Self.p(50, 0), Self.p(50, 50), Self.p(100, 50), Self.p(100, 100), Self.p(0, 100)]
        #expect(PaperGeometry.clearQuadrilateral(outline: l, regionArea: 7500) == nil)
        // A sheet curling like a banana: both long sides bow the same way, so the region fills only part of its
        // hull.
        var left: [PixelPoint] = [], right: [PixelPoint] = []
        for k in 0...20 {
            let t = Double(k) / 20
            left.append(Self.p(40 * sin(.pi * t), 300 * t))
            right.append(Self.p(100 + 40 * sin(.pi * t), 300 * t))
        }
        #expect(PaperGeometry.clearQuadrilateral(outline: left + right, regionArea: 100 * 300) == nil)
    }

    @Test func expandingMovesEverySideOutwards() {
        let square = PaperQuad(topLeft: Self.p(0, 0), topRight: Self.p(10, 0), bottomRight: Self.p(10, 10), bottomLeft: Self.p(0, 10))
        let wider = square.expanded(by: 1)
        #expect(wider.topLeft.distance(to: Self.p(-1, -1)) < 1e-9)
        #expect(wider.bottomRight.distance(to: Self.p(11, 11)) < 1e-9)
    }

    /// A 300×400 page of paper-light grey (235) with rows of dark print, and the same with `border` columns of
    /// cloth (150) at its left edge.
    static func printedPage(clothColumns border: Int = 0) -> GrayscaleImage {
        let width = 300, height = 400
        var pixels = [UInt8](repeating: 235, count: width * height)
        for y in 0..<height where (y / 12) % 2 == 1 && y > 40 && y < 360 {
            for x in 60..<240 where (x / 5) % 3 != 2 { pixels[y * width + x] = 30 }
        }
        for y in 0..<height { for x in 0..<border { pixels[y * width + x] = 150 } }
        return GrayscaleImage(width: width, height: height, resolution: 300, pixels: pixels)
    }

    @Test func aFlatScansEdgesAreAsLightAsItsPaperAndClothAtAnEdgeIsNot() throws {
        let flat = try #require(OCREngine.frameEdgeContrast(in: Self.printedPage()))
        #expect(flat > 0.95, "\(flat)")
        let cloth = try #require(OCREngine.frameEdgeContrast(in: Self.printedPage(clothColumns: 30)))
        #expect(cloth < 0.7, "\(cloth)")
        #expect(OCREngine.frameEdgeContrast(in: GrayscaleImage(width: 50, height: 50, resolution: 300,
                                                                pixels: [UInt8](repeating: 235, count: 2500))) == nil)
    }

    /// A 420×540 "photo": dark countertop, a bright sheet seen in perspective, and on the sheet a dark frame
    /// printed 12–16 px inside its edges (lines parallel to the sheet's sides).
    static let sheet = PaperQuad(topLeft: p(90, 70), topRight: p(310, 45), bottomRight: p(340, 480), bottomLeft: p(65, 455))

    static func syntheticPhoto() -> GrayscaleImage {
        let width = 420, height = 540
        let c = sheet.corners
        var pixels = [UInt8](repeating: 45, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                // Distance to each side, positive inside (the corners run clockwise on screen).
                let distances = (0..<4).map { k -> Double in
                    let a = c[k], b = c[(k + 1) % 4]
                    let length = a.distance(to: b)
                    return ((b.x - a.x) * (Double(y) + 0.5 - a.y) - (b.y - a.y) * (Double(x) + 0.5 - a.x)) / length
                }
                guard let nearest = distances.min(), nearest >= 0 else { continue }
                pixels[y * width + x] = (12...16).contains(nearest) ? 30 : 230
            }
        }
        return GrayscaleImage(width: width, height: height, resolution: 300, pixels: pixels)
    }

    /// The first dark pixel on the paper (after the first bright one) from the top of each of the given columns,
    /// or from the left of each row.
    static func firstDark(_ image: GrayscaleImage, columns: [Int]) -> [Int] {
        columns.map { x in firstDark((0..<image.height).map { image.pixels[$0 * image.width + x] }) }
    }

    static func firstDark(_ image: GrayscaleImage, rows: [Int]) -> [Int] {
        rows.map { y in firstDark(Array(image.pixels[(y * image.width)..<((y + 1) * image.width)])) }
    }

    static func firstDark(_ run: [UInt8]) -> Int {
        guard let paper = run.firstIndex(where: { $0 >= 128 }) else { return -1 }
        return run[paper...].firstIndex { $0 < 128 } ?? -1
    }

    @Test func aSheetSeenInPerspectiveIsFoundAndRectified() throws {
        let photo = Self.syntheticPhoto()
        let found = try #require(OCREngine.paperOutline(in: photo), "the sheet is smaller than the frame: found")
        let quad = try #require(found.quad, "the sheet's outline is a clear quadrilateral")
        for (corner, truth) in zip(quad.corners, Self.sheet.corners) {
            #expect(corner.distance(to: truth) < 5, "corner \(corner) vs \(truth)")
        }
        #expect(PaperGeometry.isSlanted(quad))

        // In the photo the frame's top line rises 25 px across the sheet.
        let columns = [150, 200, 250], rows = [200, 260, 320]
        let topInPhoto = Self.firstDark(photo, columns: columns)
        #expect(topInPhoto.max()! - topInPhoto.min()! > 8, "\(topInPhoto)")

        let flat = try #require(OCREngine.rectified(photo, quad: quad))
        let size = Self.sheet.rectifiedSize
        #expect(abs(flat.width - size.width) <= 6 && abs(flat.height - size.height) <= 6, "\(flat.width)×\(flat.height) vs \(size)")
        // Rectified, the frame's lines are straight and level: the same distance from the edges everywhere.
        let top = Self.firstDark(flat, columns: [flat.width * 3 / 10, flat.width / 2, flat.width * 7 / 10])
        let left = Self.firstDark(flat, rows: rows.map { $0 * flat.height / 540 })
        #expect(top.allSatisfy { (8...20).contains($0) } && top.max()! - top.min()! <= 3, "top line at \(top)")
        #expect(left.allSatisfy { (8...20).contains($0) } && left.max()! - left.min()! <= 3, "left line at \(left)")
    }

    @Test func aScanFillingTheFrameHasNoPaperToFind() {
        let scan = GrayscaleImage(width: 300, height: 400, resolution: 300, pixels: [UInt8](repeating: 235, count: 300 * 400))
        #expect(OCREngine.paperOutline(in: scan) == nil)
    }
}
