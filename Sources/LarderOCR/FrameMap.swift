import Foundation
import LarderReceipts

/// How a point of the first reading's image lands in the photo reading's image: the paper cropped out of the frame
/// (an offset) or rectified (a projective map of its quadrilateral onto a rectangle), then scaled. The photo
/// reading keeps the first reading's header lines (``OCREngine/headerFromFirst(_:bodyFrom:map:)``); their boxes
/// are moved through this map so that the re-reads that crop lines from the photo image (the date re-reads,
/// DateLine.swift) crop where the line is in that image, not where it was in the first one. A dewarped reading is
/// not followed (its field bends rows by a fraction of a line).
struct FrameMap: Equatable {
    /// Row-major 3×3 homography (h[8] = 1) from the first frame to the cropped or rectified paper, before scaling.
    var homography: [Double]
    /// The scale applied after cropping or rectifying (1 when none).
    var scale: Double

    /// The identity (no paper found, print not rescaled).
    static let identity = FrameMap(homography: [1, 0, 0, 0, 1, 0, 0, 0, 1], scale: 1)

    /// The paper cropped at `(x, y)`.
    static func crop(x: Int, y: Int) -> FrameMap {
        FrameMap(homography: [1, 0, -Double(x), 0, 1, -Double(y), 0, 0, 1], scale: 1)
    }

    /// The quadrilateral `quad` mapped onto the upright rectangle of `width` × `height` whose corners are
    /// (0, 0), (width, 0), (width, height), (0, height), as ``OCREngine/rectified(_:quad:)`` maps it; nil when the
    /// quadrilateral is degenerate.
    static func rectify(_ quad: PaperQuad, width: Int, height: Int) -> FrameMap? {
        let target = [PixelPoint(x: 0, y: 0), PixelPoint(x: Double(width), y: 0),
                      PixelPoint(x: Double(width), y: Double(height)), PixelPoint(x: 0, y: Double(height))]
        guard let h = homography(from: quad.corners, to: target) else { return nil }
        return FrameMap(homography: h, scale: 1)
    }

    /// This map followed by scaling by `factor`.
    func scaled(by factor: Double) -> FrameMap {
        FrameMap(homography: homography, scale: scale * factor)
    }

    /// Where `p` lands; nil when it maps to infinity.
    func apply(_ p: PixelPoint) -> PixelPoint? {
        let h = homography
        let w = h[6] * p.x + h[7] * p.y + h[8]
        guard abs(w) > 1e-9 else { return nil }
        return PixelPoint(x: (h[0] * p.x + h[1] * p.y + h[2]) / w * scale, y: (h[3] * p.x + h[4] * p.y + h[5]) / w * scale)
    }

    /// The bounding box of `box`'s mapped corners; `box` unchanged when a corner does not map.
    func apply(_ box: OCRBox) -> OCRBox {
        let corners = [(box.x, box.y), (box.x + box.width, box.y), (box.x + box.width, box.y + box.height), (box.x, box.y + box.height)]
        let mapped = corners.compactMap { apply(PixelPoint(x: Double($0.0), y: Double($0.1))) }
        guard mapped.count == 4 else { return box }
        let x0 = mapped.map(\.x).min()!, x1 = mapped.map(\.x).max()!
        let y0 = mapped.map(\.y).min()!, y1 = mapped.map(\.y).max()!
        return OCRBox(x: Int(x0.rounded()), y: Int(y0.rounded()), width: Int((x1 - x0).rounded()), height: Int((y1 - y0).rounded()))
    }

    /// `line` with its box and its words' boxes mapped.
    func apply(_ line: OCRLine) -> OCRLine {
        line.mappingBoxes { apply($0) }
    }

    /// The homography taking the four points `source` to `target` (direct linear transform, h[8] = 1; Gaussian
    /// elimination with partial pivoting); nil when the points are degenerate.
    static func homography(from source: [PixelPoint], to target: [PixelPoint]) -> [Double]? {
        guard source.count == 4, target.count == 4 else { return nil }
        var a: [[Double]] = []
        for (s, t) in zip(source, target) {
            a.append([s.x, s.y, 1, 0, 0, 0, -s.x * t.x, -s.y * t.x, t.x])
            a.append([0, 0, 0, s.x, s.y, 1, -s.x * t.y, -s.y * t.y, t.y])
        }
        for col in 0..<8 {
            guard let pivot = (col..<8).max(by: { abs(a[$0][col]) < abs(a[$1][col]) }), abs(a[pivot][col]) > 1e-12 else { return nil }
            a.swapAt(col, pivot)
            for row in 0..<8 where row != col {
                let f = a[row][col] / a[col][col]
                guard f != 0 else { continue }
                for k in col..<9 { a[row][k] -= f * a[col][k] }
            }
        }
        return (0..<8).map { a[$0][8] / a[$0][$0] } + [1]
    }
}

extension OCRLine {
    /// The line with its box and its words' boxes moved by `map` (into another image's frame).
    func mappingBoxes(_ map: (OCRBox) -> OCRBox) -> OCRLine {
        var out = self
        out.box = map(box)
        out.words = words?.map { word in
            var moved = word
            moved.box = map(word.box)
            return moved
        }
        return out
    }
}
