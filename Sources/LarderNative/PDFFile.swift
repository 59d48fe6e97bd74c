import CPoppler
import Foundation
import LarderCore

/// A PDF opened with poppler-glib. Owns the `PopplerDocument` and releases it in `deinit`.
///
/// Not Sendable: poppler documents and pages must not be shared between threads. Open one per document, on the
/// worker thread that processes it.
final class PDFFile {
    private let handle: OpaquePointer
    let path: String

    /// Why poppler refused a file.
    enum OpenFailure: Error {
        case encrypted
        case damaged(String)
    }

    init(path: String) throws(OpenFailure) {
        self.path = path
        var error: UnsafeMutablePointer<GError>?
        guard let uri = g_filename_to_uri(path, nil, &error) else {
            throw .damaged(Self.consume(&error) ?? "cannot build a file URI")
        }
        defer { g_free(uri) }
        guard let document = poppler_document_new_from_file(uri, nil, &error) else {
            let code = error?.pointee.code
            let message = Self.consume(&error) ?? "poppler could not open it"
            if code == Int32(bitPattern: POPPLER_ERROR_ENCRYPTED.rawValue) { throw .encrypted }
            throw .damaged(message)
        }
        handle = document
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    var pageCount: Int { Int(poppler_document_get_n_pages(handle)) }

    /// The text of page `index` (0-based) with its font runs. Returns nil if poppler cannot load the page.
    func page(_ index: Int) -> PDFPageText? {
        guard let page = poppler_document_get_page(handle, Int32(index)) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        var width = 0.0
        var height = 0.0
        poppler_page_get_size(page, &width, &height)
        var text = ""
        if let raw = poppler_page_get_text(page) {
            text = String(cString: raw)
            g_free(raw)
        }
        var spans: [PDFFontSpan] = []
        if let list = poppler_page_get_text_attributes(page) {
            defer { poppler_page_free_text_attributes(list) }
            var node: UnsafeMutablePointer<GList>? = list
            while let current = node {
                if let data = current.pointee.data {
                    let attributes = data.assumingMemoryBound(to: PopplerTextAttributes.self).pointee
                    let font = attributes.font_name.map { String(cString: $0) } ?? ""
                    let size = (attributes.font_size * 10).rounded() / 10
                    // poppler's indices are inclusive; spans use an exclusive end.
                    let start = Int(attributes.start_index)
                    let end = Int(attributes.end_index) + 1
                    if let last = spans.last, last.font == font, last.size == size, last.end >= start {
                        spans[spans.count - 1].end = end
                    } else {
                        spans.append(PDFFontSpan(start: start, end: end, font: font, size: size))
                    }
                }
                node = current.pointee.next
            }
        }
        return PDFPageText(
            number: index + 1, width: (width * 10).rounded() / 10, height: (height * 10).rounded() / 10,
            text: text, spans: spans, lines: Self.lines(of: page, text: text, spans: spans))
    }

    /// The page's lines in reading order, from poppler's per-glyph boxes (one box per Unicode scalar of `text`).
    private static func lines(of page: OpaquePointer, text: String, spans: [PDFFontSpan]) -> [PDFLine] {
        var rectangles: UnsafeMutablePointer<PopplerRectangle>?
        var count: guint = 0
        guard poppler_page_get_text_layout(page, &rectangles, &count) != 0, let rectangles else { return [] }
        defer { g_free(rectangles) }
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == Int(count) else { return [] }  // poppler's contract; never seen broken
        var glyphs: [ReadingOrder.Glyph] = []
        glyphs.reserveCapacity(scalars.count)
        var spanIndex = 0
        for (offset, scalar) in scalars.enumerated() {
            while spanIndex < spans.count - 1, spans[spanIndex].end <= offset { spanIndex += 1 }
            let span = spans.isEmpty ? nil : spans[spanIndex]
            let box = rectangles[offset]
            glyphs.append(
                ReadingOrder.Glyph(
                    character: Character(scalar), x1: box.x1, y1: box.y1, x2: box.x2, y2: box.y2,
                    size: span?.size ?? 0, bold: span?.font.localizedCaseInsensitiveContains("bold") ?? false))
        }
        return ReadingOrder.lines(glyphs)
    }

    /// The poppler-glib version this process runs.
    static var libraryVersion: String { String(cString: poppler_get_version()) }

    private static func consume(_ error: inout UnsafeMutablePointer<GError>?) -> String? {
        guard let pointer = error else { return nil }
        defer {
            g_error_free(pointer)
            error = nil
        }
        return pointer.pointee.message.map { String(cString: $0) }
    }
}

