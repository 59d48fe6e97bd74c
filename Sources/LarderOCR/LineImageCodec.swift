internal import CTesseract
import Foundation

/// Tesseract's line images stored without compression while Larder's OCR runs.
///
/// Tesseract 5.3 hands every text line to its LSTM as an `ImageData`, which keeps the line's pixels as a PNG
/// (`ImageData::SetPixInternal` → leptonica `pixWriteMem(…, IFF_PNG)`) and decodes it again before the network reads
/// it (`GetPixInternal`). Leptonica asks libpng for zlib's default compression, and libpng then tries its five row
/// filters on every row: on a SROIE scan the round trip is 8 % of the reading's instructions (callgrind of the
/// `tesseract` CLI on 322.jpg, `--psm 6`: 3.02 G → 2.80 G instructions with the line images stored, the same text).
/// Neither the level nor the filters are reachable through tesseract's C API (tesseract clips the line images
/// itself, so leptonica's per-image level in `pixSetZlibCompression` never reaches them).
///
/// So Larder's executables define libpng's `png_set_compression_level` themselves (the dynamic linker binds
/// leptonica's call to the executable's definition first) and forward to libpng's: while a thread is inside
/// ``OCREngine``'s recognition (``withStoredLineImages(_:)``), a PNG is written stored (zlib level 0) and unfiltered,
/// which is still a valid PNG that decodes to the same pixels, so what tesseract reads is unchanged. Outside it (a
/// rotated copy written for the user, any other PNG) libpng gets the level leptonica asked for. Where the definition
/// is not bound first (another platform, a static libpng), PNGs are written as before.
enum LineImageCodec {
    /// Set (non-nil) on a thread while it runs OCR.
    private static let storing: pthread_key_t = {
        var key = pthread_key_t()
        _ = pthread_key_create(&key, nil)
        return key
    }()

    /// libpng's own `png_set_compression_level`, found past the executable's definition.
    nonisolated(unsafe) static let libpngSetLevel: (@convention(c) (OpaquePointer?, Int32) -> Void)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: -1), "png_set_compression_level") else { return nil }
        // RTLD_NEXT searches the objects loaded after the one making this call, so never finds the definition below.
        return unsafeBitCast(symbol, to: (@convention(c) (OpaquePointer?, Int32) -> Void).self)
    }()

    /// Whether this thread is inside ``withStoredLineImages(_:)``.
    static var isStoring: Bool { pthread_getspecific(storing) != nil }

    /// Runs `body` with PNGs written on this thread stored and unfiltered (see the type's documentation).
    static func withStoredLineImages<T>(_ body: () throws -> T) rethrows -> T {
        let previous = pthread_getspecific(storing)
        _ = pthread_setspecific(storing, UnsafeRawPointer(bitPattern: 1))
        defer { _ = pthread_setspecific(storing, previous) }
        return try body()
    }

    /// The level and filters for a PNG that leptonica writes at `level`.
    static func setLevel(_ png: OpaquePointer?, _ level: Int32) {
        guard let libpngSetLevel else { return }
        guard isStoring else { return libpngSetLevel(png, level) }
        libpngSetLevel(png, 0)  // Z_NO_COMPRESSION
        png_set_filter(png, 0, Int32(PNG_FILTER_NONE))
    }
}

/// libpng's `png_set_compression_level`, defined by the executable so that leptonica's PNG writer calls it: see
/// ``LineImageCodec``. Not for Swift callers.
@_cdecl("png_set_compression_level")
public func larderPNGSetCompressionLevel(_ png: OpaquePointer?, _ level: Int32) {
    LineImageCodec.setLevel(png, level)
}
