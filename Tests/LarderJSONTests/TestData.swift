import Foundation
import LarderJSON

/// Locates shared test data (`shared/data/<name>`) for conformance tests.
///
/// Order: `$LARDER_SHARED_DATA/<name>`; then, walking up from this file, the first directory
/// `D` where `D/shared/data/<name>` or `D/../shared/data/<name>` exists.
enum TestData {
    static func folder(_ name: String, filePath: String = #filePath) -> URL? {
        let fm = FileManager.default
        func isDir(_ url: URL) -> Bool {
            var d: ObjCBool = false
            return fm.fileExists(atPath: url.path, isDirectory: &d) && d.boolValue
        }
        if let env = ProcessInfo.processInfo.environment["LARDER_SHARED_DATA"], !env.isEmpty {
            let u = URL(fileURLWithPath: env).appendingPathComponent(name)
            if isDir(u) { return u }
        }
        var dir = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while dir.path != "/" && !dir.path.isEmpty {
            for cand in [dir.appendingPathComponent("shared/data/\(name)"),
                         dir.deletingLastPathComponent().appendingPathComponent("shared/data/\(name)")] where isDir(cand) {
                return cand.standardizedFileURL
            }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }

    static func load(_ url: URL) throws -> JSONValue {
        try JSONValue(parsing: Data(contentsOf: url))
    }
}
