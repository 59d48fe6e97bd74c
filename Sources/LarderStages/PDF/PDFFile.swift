internal import CPoppler
import Foundation
import LarderCore
import LarderOCR

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
        // A file URI needs an absolute path; GLib takes the path's own bytes (see FilePath), whatever their encoding.
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        guard let uri = g_filename_to_uri(FilePath.cString(absolute), nil, &error) else {
            throw .damaged(Self.consume(&error) ?? "cannot build a file URI")
        }
        defer { g_free(uri) }
        _ = Self.keepGlobalParameters
        guard let document = poppler_document_new_from_file(uri, nil, &error) else {
            let code = error?.pointee.code
            let message = Self.consume(&error) ?? "poppler could not open it"
            if code == Int32(bitPattern: POPPLER_ERROR_ENCRYPTED.rawValue) { throw .encrypted }
            throw .damaged(message)
        }
        handle = document
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    /// poppler makes its global parameters (font configuration: 3.5 M instructions) when a document opens while
    /// none is open, and frees them when the last one closes, so a worker opening one PDF after another paid for
    /// them once per document. One tiny in-memory PDF, opened on first use and never closed, keeps them for the
    /// process. It is never read, so no thread shares it.
    private static let keepGlobalParameters: Void = {
        let bytes = PDFFile.tinyPDF()
        let data = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(data) }  // the document holds its own reference
        var error: UnsafeMutablePointer<GError>?
        _ = poppler_document_new_from_bytes(data, nil, &error)  // kept: never unreferenced
        _ = PDFFile.consume(&error)
    }()

    /// A valid one-page PDF (byte offsets in its cross-reference table exact, so poppler reports nothing).
    static func tinyPDF() -> [UInt8] {
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 1 1] /Resources << >> >>",
        ]
        var text = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (number, object) in objects.enumerated() {
            offsets.append(text.utf8.count)
            text += "\(number + 1) 0 obj\n\(object)\nendobj\n"
        }
        let table = text.utf8.count
        text += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets {
            let digits = String(offset)
            text += String(repeating: "0", count: 10 - digits.count) + digits + " 00000 n \n"
        }
        text += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(table)\n%%EOF\n"
        return Array(text.utf8)
    }

    var pageCount: Int { Int(poppler_document_get_n_pages(handle)) }

    /// The text of page `index` (0-based) with its font runs. Returns nil if poppler cannot load the page.
    func page(_ index: Int) -> PDFPageText? {
        guard let page = poppler_document_get_page(handle, Int32(index)) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        var width = 0.0
        var height = 0.0
        poppler_page_get_size(page, &width, &height)
        // A page size from the file (MediaBox, CropBox) may be any number, an infinite one included: such a page
        // cannot be described (nor stored as JSON), so it fails like a page poppler cannot load.
        guard width.isFinite, height.isFinite else { return nil }
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
        let layout = Self.layout(of: page, text: text, spans: spans, height: height)
        return PDFPageText(
            number: index + 1, width: (width * 10).rounded() / 10, height: (height * 10).rounded() / 10,
            text: text, spans: spans, lines: layout.lines, blocks: layout.blocks)
    }

    /// The page's lines in reading order and its blocks, from poppler's per-glyph boxes (one box per Unicode scalar
    /// of `text`).
    private static func layout(of page: OpaquePointer, text: String, spans: [PDFFontSpan], height: Double)
        -> (lines: [PDFLine], blocks: [PDFBlock])
    {
        var rectangles: UnsafeMutablePointer<PopplerRectangle>?
        var count: guint = 0
        guard poppler_page_get_text_layout(page, &rectangles, &count) != 0, let rectangles else { return ([], []) }
        defer { g_free(rectangles) }
        var glyphs: [ReadingOrder.Glyph] = []
        glyphs.reserveCapacity(Int(count))
        // Once per font run, not per glyph: the locale-aware search cost more than the rest of extract. The runs'
        // ends, sizes and weights in plain arrays, so the loop below copies no span (nor its font name).
        let bold = spans.map { $0.font.localizedCaseInsensitiveContains("bold") }
        let ends = spans.map(\.end), sizes = spans.map(\.size)
        var spanIndex = 0
        var offset = 0
        for scalar in text.unicodeScalars {
            guard offset < Int(count) else { return ([], []) }  // poppler's contract: one box per scalar; never seen broken
            while spanIndex < ends.count - 1, ends[spanIndex] <= offset { spanIndex += 1 }
            let box = rectangles[offset]
            glyphs.append(
                ReadingOrder.Glyph(
                    scalar: scalar, x1: box.x1, y1: box.y1, x2: box.x2, y2: box.y2,
                    size: ends.isEmpty ? 0 : sizes[spanIndex], bold: ends.isEmpty ? false : bold[spanIndex]))
            offset += 1
        }
        guard offset == Int(count) else { return ([], []) }
        return ReadingOrder.layout(glyphs, pageHeight: height)
    }

    /// Page `index` (0-based) rendered to 8-bit grayscale at `dpi`, on white, for OCR. The resolution drops
    /// as far as needed to keep the image within `maxPixels` (a poster-sized page still renders).
    /// Returns nil if poppler cannot load the page or cairo cannot make the image.
    func render(_ index: Int, dpi: Double, maxPixels: Int) -> GrayscaleImage? {
        guard let page = poppler_document_get_page(handle, Int32(index)) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        var widthPoints = 0.0
        var heightPoints = 0.0
        poppler_page_get_size(page, &widthPoints, &heightPoints)
        // The page size comes from the file (MediaBox): any value, 10²⁵ or NaN included. Every conversion to an
        // integer is checked, so a hostile size fails this page instead of trapping the process.
        guard widthPoints.isFinite, heightPoints.isFinite, widthPoints > 0, heightPoints > 0 else { return nil }
        var resolution = dpi
        let fullSize = widthPoints * heightPoints * (dpi / 72) * (dpi / 72)
        if fullSize > Double(maxPixels) { resolution = (dpi * (Double(maxPixels) / fullSize).squareRoot()).rounded(.down) }
        let scale = resolution / 72
        guard scale > 0, let width = Int(exactly: (widthPoints * scale).rounded(.up)),
            let height = Int(exactly: (heightPoints * scale).rounded(.up)),
            width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max),
            width.multipliedReportingOverflow(by: height).partialValue <= maxPixels,
            !width.multipliedReportingOverflow(by: height).overflow
        else { return nil }

        // RGB24: one native-endian 32-bit word per pixel, 0x00RRGGBB.
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)) else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let context = cairo_create(surface) else { return nil }
        cairo_set_source_rgb(context, 1, 1, 1)
        cairo_paint(context)
        cairo_scale(context, scale, scale)
        poppler_page_render_for_printing(page, context)
        cairo_destroy(context)
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return nil }
        let stride = Int(cairo_image_surface_get_stride(surface))
        var gray = [UInt8](repeating: 255, count: width * height)
        gray.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<width {
                    let rgb = row[x]
                    // ITU-R BT.601 luma, in integers.
                    let luma = (77 * ((rgb >> 16) & 0xFF) + 150 * ((rgb >> 8) & 0xFF) + 29 * (rgb & 0xFF)) >> 8
                    out[y * width + x] = UInt8(truncatingIfNeeded: luma)
                }
            }
        }
        return GrayscaleImage(width: width, height: height, resolution: resolution, pixels: gray)
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

