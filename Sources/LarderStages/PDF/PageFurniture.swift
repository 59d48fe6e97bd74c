import Foundation
import LarderCore

/// Page furniture in a page's layout: a running header (short lines in the top 8 % of the page, set apart above the
/// body and no larger than its text), a page number, a footer and footnotes (the same in the bottom 12 %) are taken
/// out of the body into their own blocks, so a reader (and `larder show --layout`) sees them apart from the recipe.
enum PageFurniture {
    /// Takes out of `pieces` the short ones in the top 8 % and bottom 12 % of the page, no larger than the text, that
    /// stand apart from the body: from the first such piece with a gap of a line height to the piece nearest it on
    /// the body's side, out to the page edge. Returns (top, bottom).
    static func margins(of pieces: inout [PDFLine], pageHeight: Double) -> ([PDFLine], [PDFLine]) {
        guard !pieces.isEmpty else { return ([], []) }
        let sizes = pieces.map(\.fontSize).sorted()
        let bodySize = sizes[sizes.count / 2]
        func small(_ p: PDFLine) -> Bool { p.text.count <= 120 && p.fontSize <= bodySize + 1 }
        // Bottom: going down, the first candidate set apart from the piece above it starts the footer.
        var bottom = Set<Int>()
        let low = pieces.indices.filter { pieces[$0].y > 0.88 * pageHeight }.sorted { pieces[$0].y < pieces[$1].y }
        if let start = low.firstIndex(where: { k in
            let above = pieces.filter { $0.y < pieces[k].y - 0.5 }.map { $0.y + $0.height }.max() ?? 0
            return pieces[k].y - above >= pieces[k].height
        }) {
            bottom = Set(low[start...])
        }
        if !bottom.allSatisfy({ small(pieces[$0]) }) { bottom = [] }
        // Top: going up, the first candidate set apart from the piece below it ends the header.
        var top = Set<Int>()
        let high = pieces.indices.filter { pieces[$0].y + pieces[$0].height < 0.08 * pageHeight }
            .sorted { pieces[$0].y > pieces[$1].y }
        if let start = high.firstIndex(where: { k in
            let below = pieces.filter { $0.y > pieces[k].y + 0.5 }.map(\.y).min() ?? pageHeight
            return below - (pieces[k].y + pieces[k].height) >= pieces[k].height
        }) {
            top = Set(high[start...])
        }
        if !top.allSatisfy({ small(pieces[$0]) }) { top = [] }
        let header = top.sorted().map { pieces[$0] }, footer = bottom.sorted().map { pieces[$0] }
        pieces = pieces.indices.filter { !top.contains($0) && !bottom.contains($0) }.map { pieces[$0] }
        return (header, footer)
    }

    /// Takes out of `pieces` a list of references at the foot of the body: from the first piece that opens with a
    /// reference label ("[1]  Lisa Bryan. Falafel. 2019…") cited in another piece above it ("Lisa Bryan [1]"),
    /// down to the end of the page. Returns them in reading order.
    static func references(of pieces: inout [PDFLine], pageHeight: Double) -> [PDFLine] {
        guard pageHeight > 0 else { return [] }
        let labelled = pieces.indices.compactMap { k -> (Int, String)? in
            // (The pattern needs a "[" first: other pieces skip the regular expression.)
            guard pieces[k].text.utf8.first == UInt8(ascii: "["),
                  let r = pieces[k].text.range(of: #"^\[\d{1,3}\]"#, options: .regularExpression) else { return nil }
            return (k, String(pieces[k].text[r]))
        }
        guard let start = labelled.first(where: { k, label in
            // The citation: "[1]", or "[1, p. 114]".
            pieces.contains { $0.y < pieces[k].y - 1 && $0.text.dropFirst().contains(label.dropLast()) }
        }).map({ pieces[$0.0].y }) else { return [] }
        let notes = pieces.filter { $0.y >= start - 0.5 }
        pieces.removeAll { $0.y >= start - 0.5 }
        return notes
    }

    /// The page's blocks as furniture and body: the first `headers` blocks (from ``margins(of:pageHeight:)``) are
    /// its running header or page number, the last `footers` its page number, footnotes (set smaller than the text)
    /// or footer; the rest is wrapped in one `body` block.
    static func separate(_ blocks: [PDFBlock], headers: Int, footers: Int, lines: [PDFLine]) -> [PDFBlock] {
        let sizes = lines.map(\.fontSize).sorted()
        let body = sizes.isEmpty ? 0 : sizes[sizes.count / 2]
        func classify(_ block: PDFBlock, top: Bool) -> PDFBlock {
            var b = block
            let texts = block.lines.map { lines[$0] }
            if block.kind == .footnote {
                return b
            } else if texts.count == 1 && isPageNumber(texts[0].text) {
                b.kind = .pageNumber
            } else if top {
                b.kind = .header
            } else {
                b.kind = texts.allSatisfy({ $0.fontSize < body - 0.5 }) ? .footnote : .footer
            }
            return b
        }
        let header = blocks.prefix(headers).map { classify($0, top: true) }
        let footer = blocks.suffix(footers).map { classify($0, top: false) }
        let main = Array(blocks.dropFirst(headers).dropLast(footers))
        guard !main.isEmpty else { return header + footer }
        let x1 = main.map(\.x).min()!, y1 = main.map(\.y).min()!
        let x2 = main.map { $0.x + $0.width }.max()!, y2 = main.map { $0.y + $0.height }.max()!
        let bodyBlock = PDFBlock(
            kind: .body, x: x1, y: y1, width: ((x2 - x1) * 10).rounded() / 10, height: ((y2 - y1) * 10).rounded() / 10,
            children: main)
        return header + [bodyBlock] + footer
    }

    /// "12", "- 12 -", "Page 3", "3 of 10".
    static func isPageNumber(_ text: String) -> Bool {
        text.range(of: #"^(?:page\s+)?\d{1,4}(?:\s+of\s+\d{1,4})?$|^[-–—]\s*\d{1,4}\s*[-–—]$"#,
                   options: [.regularExpression, .caseInsensitive]) != nil
    }
}
