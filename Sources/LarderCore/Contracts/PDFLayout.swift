import Foundation

/// A block of a PDF page found by layout analysis (``PDFPageText/blocks``): a region of the page whose lines are
/// read together, in reading order, with the blocks it holds.
///
/// The tree: a page holds its **furniture** (running header, page number, footer, footnotes) and its **body**;
/// the body holds **columns** side by side (read left to right) or **paragraphs**, **tables** (rows whose cells align
/// in x; each row is one line, its cells joined in reading order) and **boxes** (a narrow block beside the main text,
/// such as an ingredient box to the right of the method or one beside each step, read after what it stands beside).
/// Leaf blocks name the indices of their lines in ``PDFPageText/lines``, which are already in reading order.
public struct PDFBlock: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        case body, column, paragraph, table, box, header, footer, pageNumber, footnote
    }

    public var kind: Kind
    /// The box around the block's lines (points, origin top-left).
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    /// Indices into the page's ``PDFPageText/lines`` (leaf blocks only).
    public var lines: [Int]
    public var children: [PDFBlock]

    public init(kind: Kind, x: Double, y: Double, width: Double, height: Double, lines: [Int] = [], children: [PDFBlock] = []) {
        self.kind = kind
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.lines = lines
        self.children = children
    }

    /// Every line index in the block and its children, in reading order.
    public var allLines: [Int] { lines + children.flatMap(\.allLines) }
}

/// The layout as indented text, for `larder show DOC --layout`: each block as `kind  x,y width×height`, its lines
/// beneath it.
public enum LayoutText {
    public static func render(_ extracted: ExtractOutput) -> String {
        var out = ""
        for page in extracted.pages {
            out += "page \(page.number)  \(fmt(page.width))×\(fmt(page.height))\n"
            if page.blocks.isEmpty {
                for line in page.lines { out += "  " + describe(line) + "\n" }
                continue
            }
            for block in page.blocks { render(block, page: page, depth: 1, into: &out) }
        }
        return out
    }

    private static func render(_ block: PDFBlock, page: PDFPageText, depth: Int, into out: inout String) {
        let pad = String(repeating: "  ", count: depth)
        out += "\(pad)[\(block.kind.rawValue)] \(fmt(block.x)),\(fmt(block.y)) \(fmt(block.width))×\(fmt(block.height))\n"
        for index in block.lines where page.lines.indices.contains(index) {
            out += "\(pad)  " + describe(page.lines[index]) + "\n"
        }
        for child in block.children { render(child, page: page, depth: depth + 1, into: &out) }
    }

    /// A line as `x,y size  text`.
    private static func describe(_ line: PDFLine) -> String {
        let position = "\(fmt(line.x)),\(fmt(line.y))".padding(toLength: 12, withPad: " ", startingAt: 0)
        let size = (fmt(line.fontSize) + (line.bold ? "b" : "")).padding(toLength: 6, withPad: " ", startingAt: 0)
        return position + size + line.text
    }

    private static func fmt(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(format: "%.1f", v)
    }
}
