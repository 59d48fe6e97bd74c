import Foundation
import LarderCore

/// Page furniture in a page's layout: a running header (short lines in the top 8 % of the page, above the body), a
/// page number, a footer and footnotes (small type in the bottom 12 %) are taken out of the body into their own
/// blocks, so a reader (and `larder show --layout`) sees them apart from the recipe.
enum PageFurniture {
    /// Takes out of `pieces` the short ones in the top 8 % and bottom 12 % of the page that stand apart from the
    /// body (a gap of at least a line height to the nearest body piece): (top, bottom).
    static func margins(of pieces: inout [PDFLine], pageHeight: Double) -> ([PDFLine], [PDFLine]) {
        let topEdge = 0.08 * pageHeight, bottomEdge = 0.88 * pageHeight
        func candidate(_ p: PDFLine) -> Bool {
            p.text.count <= 120 && (p.y + p.height < topEdge || p.y > bottomEdge)
        }
        var body = pieces.filter { !candidate($0) }
        guard !body.isEmpty else { return ([], []) }
        // A heading set larger than the text (a title near the top edge) is not furniture.
        let sizes = pieces.map(\.fontSize).sorted()
        let bodySize = sizes[sizes.count / 2]
        body += pieces.filter { candidate($0) && $0.fontSize > bodySize + 1 }
        func furniture(_ p: PDFLine) -> Bool { candidate(p) && p.fontSize <= bodySize + 1 }
        let bodyTop = body.map(\.y).min()!, bodyBottom = body.map { $0.y + $0.height }.max()!
        var top: [PDFLine] = [], bottom: [PDFLine] = [], rest: [PDFLine] = []
        for p in pieces {
            if furniture(p) && p.y + p.height + p.height <= bodyTop {
                top.append(p)
            } else if furniture(p) && p.y >= bodyBottom + p.height {
                bottom.append(p)
            } else {
                rest.append(p)
            }
        }
        pieces = rest
        return (top, bottom)
    }

    static func separate(_ blocks: [PDFBlock], lines: [PDFLine], pageHeight: Double) -> [PDFBlock] {
        let sizes = lines.map(\.fontSize).sorted()
        let body = sizes.isEmpty ? 0 : sizes[sizes.count / 2]
        var header: [PDFBlock] = []
        var footer: [PDFBlock] = []
        var main: [PDFBlock] = []
        for block in blocks {
            guard block.children.isEmpty, !block.lines.isEmpty else { main.append(block); continue }
            let texts = block.lines.map { lines[$0] }
            if block.y + block.height < 0.08 * pageHeight && texts.allSatisfy({ $0.text.count <= 80 && $0.fontSize <= body + 1 }) {
                var b = block
                b.kind = texts.count == 1 && isPageNumber(texts[0].text) ? .pageNumber : .header
                header.append(b)
            } else if block.y > 0.88 * pageHeight && texts.allSatisfy({ $0.text.count <= 120 && $0.fontSize <= body + 1 }) {
                var b = block
                b.kind = texts.count == 1 && isPageNumber(texts[0].text) ? .pageNumber
                    : texts.allSatisfy({ $0.fontSize < body - 0.5 }) ? .footnote : .footer
                footer.append(b)
            } else {
                main.append(block)
            }
        }
        guard !main.isEmpty else { return header + footer }
        let boxes = main
        let x1 = boxes.map(\.x).min()!, y1 = boxes.map(\.y).min()!
        let x2 = boxes.map { $0.x + $0.width }.max()!, y2 = boxes.map { $0.y + $0.height }.max()!
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
