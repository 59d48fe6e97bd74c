import Foundation
import Testing

/// Where the repository and the shared data folder are, for every test target.
///
/// The repository root is the folder holding `Package.swift` above this file. Data from outside the repository lives
/// in `../shared/data` beside the repository root (or in `$LARDER_SHARED_DATA`); tests that need it are skipped,
/// visibly, when it is absent: `@Test(.enabled(if: SharedData.has("name"), SharedData.missing("name")))`.
public enum Repository {
    /// The repository root (the folder holding `Package.swift`).
    public static let root: String = {
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while dir.path != "/" {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
                return dir.path
            }
            dir.deleteLastPathComponent()
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    /// A path inside the repository: `Repository.path("samples/recipes")`.
    public static func path(_ relative: String) -> String { root + "/" + relative }

    /// A URL inside the repository.
    public static func url(_ relative: String) -> URL { URL(fileURLWithPath: path(relative)) }
}

/// The shared data folder: `$LARDER_SHARED_DATA` when set, else `../shared/data` beside the repository root.
public enum SharedData {
    /// The folder, or nil when it does not exist.
    public static let folder: String? = {
        let environment = ProcessInfo.processInfo.environment["LARDER_SHARED_DATA"] ?? ""
        let candidate =
            environment.isEmpty
            ? URL(fileURLWithPath: Repository.root + "/../shared/data").standardizedFileURL.path : environment
        return isDirectory(candidate) ? candidate : nil
    }()

    /// `<shared data>/<name>` when it exists (a folder or a file), else nil.
    public static func path(_ name: String) -> String? {
        guard let folder else { return nil }
        let path = folder + "/" + name
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// Whether `<shared data>/<name>` exists.
    public static func has(_ name: String) -> Bool { path(name) != nil }

    /// The reason shown for a test skipped because `<shared data>/<name>` is absent.
    public static func missing(_ name: String) -> Comment {
        Comment(rawValue: "needs ../shared/data/\(name) (or $LARDER_SHARED_DATA/\(name))")
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
