import Foundation

/// Locates test data outside the package. Tests that need it are disabled (with a printed message) when
/// it is absent.
enum TestData {
    /// Walks up from this file looking for `relative`; returns the first match.
    static func findUp(_ relative: String) -> String? {
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate.path }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }

    /// The SROIE folder: `$LARDER_SHARED_DATA/receipts-sroie`, or `shared/data/receipts-sroie` found walking up.
    static let sroieFolder: String? = {
        if let env = ProcessInfo.processInfo.environment["LARDER_SHARED_DATA"] {
            let path = (env as NSString).appendingPathComponent("receipts-sroie")
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        if let found = findUp("shared/data/receipts-sroie") { return found }
        print("skipping SROIE evaluation: receipts-sroie not found (set LARDER_SHARED_DATA to the shared data folder)")
        return nil
    }()

    /// A folder of `shared/data` (`receipts-photos`, `receipts-de`): `$LARDER_SHARED_DATA/<name>`, or
    /// `shared/data/<name>` found walking up.
    static func sharedFolder(_ name: String) -> String? {
        if let env = ProcessInfo.processInfo.environment["LARDER_SHARED_DATA"] {
            let path = (env as NSString).appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        if let found = findUp("shared/data/" + name) { return found }
        print("skipping tests on \(name): not found (set LARDER_SHARED_DATA to the shared data folder)")
        return nil
    }

    /// Real phone photos of receipts with labels (`shared/data/receipts-photos`).
    static let photosFolder: String? = sharedFolder("receipts-photos")
    /// German till receipts (`shared/data/receipts-de`).
    static let germanFolder: String? = sharedFolder("receipts-de")

    /// The project's receipt samples: `samples/receipts` found walking up, or `$LARDER_SAMPLES`.
    static let samplesFolder: String? = {
        if let env = ProcessInfo.processInfo.environment["LARDER_SAMPLES"],
           FileManager.default.fileExists(atPath: (env as NSString).appendingPathComponent("receipts")) {
            return env
        }
        if let found = findUp("samples/receipts") { return (found as NSString).deletingLastPathComponent }
        print("skipping sample-receipt OCR tests: samples/receipts not found (set LARDER_SAMPLES)")
        return nil
    }()
}
