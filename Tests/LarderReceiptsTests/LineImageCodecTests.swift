import CTesseract
import Foundation
import Testing
@testable import LarderOCR

/// Tesseract's line images are written stored (no zlib compression, no row filters) while Larder's OCR runs, and as
/// leptonica asks otherwise: `LineImageCodec.swift`.
@Suite("Line images stored while recognising")
struct LineImageCodecTests {
    /// A 400×60 8-bit page of white with black bars: compresses to a small fraction of its 24,000 bytes.
    private static func barredImage() throws -> UnsafeMutablePointer<PIX> {
        let pix = try #require(pixCreate(400, 60, 8))
        _ = pixSetAllArbitrary(pix, 255)
        for x in stride(from: 10, to: 390, by: 12) {
            for y in 15..<45 { _ = pixSetPixel(pix, Int32(x), Int32(y), 0); _ = pixSetPixel(pix, Int32(x + 1), Int32(y), 40) }
        }
        return pix
    }

    /// The PNG leptonica writes for `pix` (as tesseract's `ImageData` does), and whether it decodes to the same pixels.
    private static func png(_ pix: UnsafeMutablePointer<PIX>) throws -> (bytes: Int, samePixels: Bool) {
        var data: UnsafeMutablePointer<UInt8>?
        var size = 0
        #expect(pixWriteMem(&data, &size, pix, Int32(IFF_PNG)) == 0)
        let bytes = try #require(data)
        defer { lept_free(bytes) }
        var decoded: UnsafeMutablePointer<PIX>? = pixReadMem(bytes, size)
        defer { pixDestroy(&decoded) }
        var same: Int32 = 0
        _ = pixEqual(pix, decoded, &same)
        return (size, same != 0)
    }

    @Test func storedOnlyInsideRecognitionAndLossless() throws {
        var pix: UnsafeMutablePointer<PIX>? = try Self.barredImage()
        defer { pixDestroy(&pix) }
        // The executable's png_set_compression_level is the one leptonica calls (Package.swift exports it).
        #expect(LineImageCodec.libpngSetLevel != nil)
        let outside = try Self.png(pix!)
        let inside = try LineImageCodec.withStoredLineImages { try Self.png(pix!) }
        #expect(!LineImageCodec.isStoring)
        #expect(outside.samePixels && inside.samePixels)
        #expect(outside.bytes < 4_000, "compressed as leptonica asks: \(outside.bytes) bytes")
        #expect(inside.bytes > 24_000, "stored: \(inside.bytes) bytes")
    }
}
