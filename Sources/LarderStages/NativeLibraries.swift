internal import CCurl
internal import CPoppler
internal import CTesseract
import Foundation
import LarderCore

/// Versions of the native libraries `larder-worker` links, for `larder-worker --version` and bug reports.
public enum NativeLibraries {
    public static var versions: [String: String] {
        var versions: [String: String] = [:]
        versions["poppler-glib"] = PDFFile.libraryVersion
        versions["tesseract"] = TessVersion().map { String(cString: $0) } ?? "unknown"
        versions["leptonica"] = {
            guard let raw = getLeptonicaVersion() else { return "unknown" }
            defer { lept_free(raw) }
            return String(cString: raw)
        }()
        versions["libcurl"] = curl_version().map { String(cString: $0) } ?? "unknown"
        return versions
    }
}
