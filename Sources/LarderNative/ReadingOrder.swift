import Foundation
import LarderCore

/// Rebuilds a page's reading order from glyph positions, so that columns side by side never interleave.
///
/// poppler's text flow is not enough on its own: it joins pieces of two columns that share a baseline
/// ("IngredientsMethod") and can put a column's lines out of order. So the order is rebuilt from geometry:
/// 1. Each poppler line is cut into pieces at wide gaps (wider than 1.5 line heights).
/// 2. A column gutter is an x that no piece crosses over the band where the left and right columns overlap;
///    the band runs down to the first piece that spans the gutter (a full-width line below the columns).
/// 3. Reading order is: what lies above the band, the left column top to bottom, the right column, then what
///    lies below (each part ordered the same way, so three columns or stacked column sections work too).
/// 4. Without a gutter, pieces are read top to bottom and pieces on the same row are joined again, so the rows
///    of a table ("2 cups      flour") stay whole. A "gutter" whose two sides pair up row by row is such a table.
enum ReadingOrder {
    /// One glyph: its character and box (points, origin top-left).
    struct Glyph {
        var character: Character
        var x1: Double
        var y1: Double
        var x2: Double
        var y2: Double
        var size: Double
        var bold: Bool
    }

    /// Lines in reading order, from the page's glyphs in poppler's order (line breaks are `\n` glyphs).
    static func lines(_ glyphs: [Glyph]) -> [PDFLine] {
        var raw: [[Glyph]] = [[]]
        for glyph in glyphs {
            if glyph.character == "\n" { raw.append([]) } else { raw[raw.count - 1].append(glyph) }
        }
        return order(raw.flatMap(splitAtGaps), depth: 0)
    }

    private static func order(_ pieces: [PDFLine], depth: Int) -> [PDFLine] {
        guard depth < 6, pieces.count >= 4, let split = columnSplit(pieces) else { return rows(pieces) }
        return order(split.above, depth: depth + 1) + order(split.left, depth: depth + 1)
            + order(split.right, depth: depth + 1) + order(split.below, depth: depth + 1)
    }

    private struct Split {
        var above: [PDFLine]
        var left: [PDFLine]
        var right: [PDFLine]
        var below: [PDFLine]
    }

    /// The best column gutter among the pieces, if any.
    private static func columnSplit(_ pieces: [PDFLine]) -> Split? {
        var best: (split: Split, score: Int)? = nil
        let minX = pieces.map(\.x).min() ?? 0
        // A column starts where at least two pieces start.
        var starts: [Double: Int] = [:]
        for piece in pieces { starts[piece.x.rounded(), default: 0] += 1 }
        let candidates = starts.filter { $0.value >= 2 && $0.key > minX + 20 }.keys.sorted()
        for start in candidates {
            let gutter = pieces.filter { abs($0.x.rounded() - start) < 0.5 }.map(\.x).min() ?? start
            let g = gutter - 2
            let leftSide = pieces.filter { $0.x + $0.width < g }
            let rightSide = pieces.filter { $0.x >= g }
            guard let leftTop = leftSide.map(\.y).min(), let rightTop = rightSide.map(\.y).min() else { continue }
            let bandTop = max(leftTop, rightTop) - 1
            let crossing = pieces.filter { $0.x < g && $0.x + $0.width >= g }
            // The band ends at the first full-width piece below its top.
            let bandBottom = crossing.filter { $0.y > bandTop }.map(\.y).min() ?? .infinity
            let left = leftSide.filter { $0.y >= bandTop && $0.y < bandBottom }
            let right = rightSide.filter { $0.y >= bandTop && $0.y < bandBottom }
            guard left.count >= 2, right.count >= 2 else { continue }
            // Both columns must reach into the band together (no full-width piece between their tops).
            guard crossing.allSatisfy({ $0.y < bandTop || $0.y >= bandBottom }) else { continue }
            // Rows of a table pair up: nearly every right piece has a left piece on its row.
            let paired = right.filter { r in left.contains { abs($0.y - r.y) < 1.5 } }.count
            if paired * 10 >= right.count * 9 { continue }
            let score = min(left.count, right.count)
            if best == nil || score > best!.score {
                let inBand = Set((left + right).map { PieceKey($0) })
                let rest = pieces.filter { !inBand.contains(PieceKey($0)) }
                best = (
                    Split(
                        above: rest.filter { $0.y < bandTop }, left: left, right: right,
                        below: rest.filter { $0.y >= bandTop }),
                    score
                )
            }
        }
        return best?.split
    }

    private struct PieceKey: Hashable {
        var x: Double
        var y: Double
        var text: String
        init(_ line: PDFLine) {
            x = line.x
            y = line.y
            text = line.text
        }
    }

    /// Top to bottom; pieces on the same row (tops within 2 pt) joined left to right.
    private static func rows(_ pieces: [PDFLine]) -> [PDFLine] {
        let sorted = pieces.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
        var result: [PDFLine] = []
        var row: [PDFLine] = []
        for piece in sorted {
            if let first = row.first, abs(piece.y - first.y) >= 2 {
                result.append(merge(row.sorted { $0.x < $1.x }))
                row = []
            }
            row.append(piece)
        }
        if !row.isEmpty { result.append(merge(row.sorted { $0.x < $1.x })) }
        return result
    }

    /// Splits one poppler line into pieces wherever two glyphs are farther apart than a wide gap.
    private static func splitAtGaps(_ glyphs: [Glyph]) -> [PDFLine] {
        let visible = glyphs.filter { !$0.character.isWhitespace }
        guard let first = visible.first else { return [] }
        let height = visible.map { $0.y2 - $0.y1 }.max() ?? 10
        let wideGap = max(12, 1.5 * height)
        var pieces: [[Glyph]] = [[]]
        var previous: Glyph? = nil
        for glyph in glyphs {
            if !glyph.character.isWhitespace, let previous, glyph.x1 - previous.x2 > wideGap, glyph.x1 > first.x1 {
                pieces.append([])
            }
            pieces[pieces.count - 1].append(glyph)
            if !glyph.character.isWhitespace { previous = glyph }
        }
        return pieces.compactMap(line)
    }

    private static func line(_ glyphs: [Glyph]) -> PDFLine? {
        let visible = glyphs.filter { !$0.character.isWhitespace }
        guard !visible.isEmpty else { return nil }
        let text = String(glyphs.map(\.character)).trimmingCharacters(in: .whitespaces)
        let x = visible.map(\.x1).min()!
        let y = visible.map(\.y1).min()!
        let size = visible.map(\.size).max() ?? 0
        let boldCount = visible.filter(\.bold).count
        return PDFLine(
            text: text, x: round1(x), y: round1(y), width: round1(visible.map(\.x2).max()! - x),
            height: round1(visible.map(\.y2).max()! - y), fontSize: size, bold: boldCount * 2 > visible.count)
    }

    private static func merge(_ pieces: [PDFLine]) -> PDFLine {
        guard var merged = pieces.first, pieces.count > 1 else { return pieces[0] }
        for piece in pieces.dropFirst() {
            merged.text += "  " + piece.text
            merged.width = round1(piece.x + piece.width - merged.x)
            merged.fontSize = max(merged.fontSize, piece.fontSize)
        }
        return merged
    }

    private static func round1(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}

