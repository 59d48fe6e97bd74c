import Foundation
import LarderRecipes

/// What `extract` found: one entry per page (one page for text formats).
public struct ExtractOutput: Codable, Sendable, Equatable {
    public var format: DocumentFormat
    public var pages: [PDFPageText]
    /// True for images and for PDFs without a text layer: only OCR can read them.
    public var needsOCR: Bool
    /// HTML only: the page's address, title and structured data (the page text is its visible text).
    public var webPage: WebPage?
    /// For an archive: its members that could not be read ("member: why"), each a per-entry error; the other
    /// members are the pages. Absent for other documents.
    public var memberErrors: [String]?
    /// What a native library reported about the file while reading it (poppler's syntax errors in a damaged PDF),
    /// each naming the file; the result lists them as the document's warnings. Absent when there were none.
    public var warnings: [String]?
    /// The photos a recipe app's export carried (image members of an archive, a Paprika entry's `photo_data`, the
    /// photo beside a Nextcloud `recipe.json` or a `.cook` file), each once by its SHA-256: the one place Larder
    /// keeps their bytes. A recipe refers to one by hash (``RecipePhoto``); the exports read the bytes here. Absent
    /// when there were none.
    public var images: [ExtractedImage]?

    public init(format: DocumentFormat, pages: [PDFPageText], needsOCR: Bool, webPage: WebPage? = nil) {
        self.format = format
        self.pages = pages
        self.needsOCR = needsOCR
        self.webPage = webPage
    }

    /// All pages' text, separated by form feeds.
    public var text: String { pages.map(\.text).joined(separator: "\u{0C}") }
}

/// An image kept by `extract` (``ExtractOutput/images``): its bytes once, and where it was found.
public struct ExtractedImage: Codable, Sendable, Equatable {
    /// The reference a recipe holds: SHA-256, media type and size.
    public var photo: RecipePhoto
    /// Where these bytes were found: archive members (nested archives joined with "/"), a file's name beside a
    /// single recipe file, or the member of the recipe entry that embedded it (Paprika's `photo_data`).
    public var members: [String]
    /// The bytes, base64.
    public var data: String

    public init(photo: RecipePhoto, members: [String], data: String) {
        self.photo = photo
        self.members = members
        self.data = data
    }

    /// The decoded bytes, or `nil` if the stored text is not base64.
    public var bytes: Data? { Data(base64Encoded: data) }
}

/// One page's text as poppler reads it, with runs of the same font and size.
public struct PDFPageText: Codable, Sendable, Equatable {
    /// 1-based page number.
    public var number: Int
    /// Page size in points.
    public var width: Double
    public var height: Double
    public var text: String
    /// Runs of one font and size over `text`, as Unicode-scalar offsets `[start, end)`.
    public var spans: [PDFFontSpan]
    /// The lines in reading order (columns side by side never interleave), with boxes and font sizes.
    /// Empty for text documents, whose lines are `text`'s.
    public var lines: [PDFLine] = []
    /// The page's layout: its blocks in reading order (furniture, columns, paragraphs, tables, boxes), each leaf
    /// naming its lines in `lines`. Empty for text documents and OCR pages.
    public var blocks: [PDFBlock] = []
    /// For an archive: the member this page is (its path inside the archive, nested archives joined with "/").
    public var member: String?

    public init(
        number: Int, width: Double, height: Double, text: String, spans: [PDFFontSpan], lines: [PDFLine] = [],
        blocks: [PDFBlock] = []
    ) {
        self.number = number
        self.width = width
        self.height = height
        self.text = text
        self.spans = spans
        self.lines = lines
        self.blocks = blocks
    }

    enum CodingKeys: String, CodingKey { case number, width, height, text, spans, lines, blocks, member }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        number = try c.decode(Int.self, forKey: .number)
        width = try c.decode(Double.self, forKey: .width)
        height = try c.decode(Double.self, forKey: .height)
        text = try c.decode(String.self, forKey: .text)
        spans = try c.decode([PDFFontSpan].self, forKey: .spans)
        lines = try c.decodeIfPresent([PDFLine].self, forKey: .lines) ?? []
        blocks = try c.decodeIfPresent([PDFBlock].self, forKey: .blocks) ?? []
        member = try c.decodeIfPresent(String.self, forKey: .member)
    }

    /// `blocks` is written only when the page has any, `member` only for an archive's pages (text documents' output
    /// is unchanged).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(number, forKey: .number)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(text, forKey: .text)
        try c.encode(spans, forKey: .spans)
        try c.encode(lines, forKey: .lines)
        if !blocks.isEmpty { try c.encode(blocks, forKey: .blocks) }
        try c.encodeIfPresent(member, forKey: .member)
    }
}

public struct PDFFontSpan: Codable, Sendable, Equatable {
    public var start: Int
    public var end: Int
    public var font: String
    /// Font size in points; headings stand out by size.
    public var size: Double

    public init(start: Int, end: Int, font: String, size: Double) {
        self.start = start
        self.end = end
        self.font = font
        self.size = size
    }
}

/// A line of a PDF page in reading order, with its box (points, origin top-left) and largest font size.
public struct PDFLine: Codable, Sendable, Equatable {
    public var text: String
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public var fontSize: Double
    /// Most of its glyphs are in a bold font.
    public var bold: Bool

    public init(text: String, x: Double, y: Double, width: Double, height: Double, fontSize: Double, bold: Bool) {
        self.text = text
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.fontSize = fontSize
        self.bold = bold
    }
}
