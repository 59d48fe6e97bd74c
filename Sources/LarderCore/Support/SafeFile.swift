import Foundation

/// The one way Larder writes a file (every export format, `review edit`'s file, reports, goldens).
///
/// The bytes go to a new temporary file in the target's own folder, created with `O_CREAT | O_EXCL | O_NOFOLLOW`
/// under a random name (so nothing planted there — a symlink, a file of that name — is ever opened or written
/// through, and two writers never share one), are `fsync`ed, and the file is renamed onto the target (a rename
/// replaces a symlink planted at the target's name; it never follows it). A failure removes the temporary file and
/// says why in Larder's words: a read-only folder, a full disk, a file-size limit (`ulimit -f`: SIGXFSZ is ignored,
/// so the write fails with `EFBIG` instead of killing the process). Concurrent writers of one target all succeed;
/// the last rename wins, whole.
public enum SafeFile {
    /// The longest file name Linux file systems take, in bytes.
    public static let maxNameBytes = 255

    /// Ignore SIGXFSZ so that writing past `ulimit -f` is an error (`EFBIG`) Larder reports, not a silent death.
    public static func ignoreFileSizeSignal() {
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Writes `data` to `path` whole or not at all. `what` names the file in errors ("the export file").
    public static func write(_ data: Data, to path: String, what: String = "the export file") throws {
        ignoreFileSizeSignal()
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let directory = FilePath.withCString(folder.isEmpty ? "." : folder) {
            open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        guard directory >= 0 else { throw failure(errno, what: what, path: path) }
        defer { close(directory) }
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<16 where fd < 0 {
            temporary = ".larder-\(UInt64.random(in: 0...UInt64.max)).part"
            fd = createTemporary(in: directory, temporary)
            if fd < 0 && errno != EEXIST { throw failure(errno, what: what, path: path) }
        }
        guard fd >= 0 else { throw failure(EEXIST, what: what, path: path) }
        var error = writeAll(data, to: fd)
        if error == 0 && fsync(fd) != 0 { error = errno }
        if close(fd) != 0 && error == 0 { error = errno }
        if error == 0 {
            let renamed = FilePath.withCString(name) { target in renameat(directory, temporary, directory, target) }
            if renamed != 0 { error = errno }
        }
        guard error == 0 else {
            unlinkat(directory, temporary, 0)
            throw failure(error, what: what, path: path)
        }
        _ = fsync(directory)
    }

    private static func createTemporary(in directory: Int32, _ name: String) -> Int32 {
        openat(directory, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    }

    private static func writeAll(_ data: Data, to fd: Int32) -> Int32 {
        data.withUnsafeBytes { raw -> Int32 in
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return 0
        }
    }

    /// A failed write in Larder's words, naming the file and what to do.
    static func failure(_ code: Int32, what: String, path: String) -> LarderError {
        let reason = String(cString: strerror(code))
        switch code {
        case ENOSPC, EDQUOT:
            return LarderError(
                .database, "the disk is full: cannot write \(what)",
                hint: "free some space there (df -h), or write elsewhere; then run the command again", path: path)
        case EFBIG:
            return LarderError(
                .database, "cannot write \(what): it is larger than this process may write (\(reason); see `ulimit -f`)",
                hint: "raise the file-size limit (ulimit -f unlimited) or write elsewhere; then run the command again",
                path: path)
        case EACCES, EPERM, EROFS:
            return LarderError(
                .configuration, "cannot write \(what): the folder is read-only or not yours (\(reason))",
                hint: "choose a folder you can write to", path: path)
        default:
            return LarderError(
                .configuration, "cannot write \(what): \(reason)", hint: "check that the folder exists and can be written to",
                path: path)
        }
    }

    /// A file name made of `stem` and `suffix` (".8ccd73f9e4aa.json"), safe in one folder: control characters,
    /// `/`, NUL and bytes that are not UTF-8 become `_`; a leading dot becomes `_` (never a hidden file, never `.`
    /// or `..`); the stem is cut on a character boundary so the name holds at most ``maxNameBytes`` bytes.
    public static func fileName(stem: String, suffix: String, fallback: String = "document") -> String {
        var cleaned = String.UnicodeScalarView()
        for scalar in stem.unicodeScalars {
            let unsafe = FilePath.rawByte(scalar) != nil || scalar.value < 0x20 || scalar.value == 0x7F || scalar == "/"
            cleaned.append(unsafe ? "_" : scalar)
        }
        var text = String(cleaned)
        if text.isEmpty { text = fallback }
        if text.hasPrefix(".") { text = "_" + text.dropFirst() }
        let room = max(1, maxNameBytes - suffix.utf8.count)
        var cut = ""
        var bytes = 0
        for character in text {
            let size = character.utf8.count
            if bytes + size > room { break }
            cut.append(character)
            bytes += size
        }
        return (cut.isEmpty ? String(fallback.prefix(room)) : cut) + suffix
    }

    /// Names handed out once each within one folder: a second "soup.json" becomes "soup-2.json" (still at most
    /// ``maxNameBytes`` bytes).
    public struct UniqueNames: Sendable {
        private var used = Set<String>()
        /// The folder the names are for: a name held there by a directory (or anything but a file or a symlink,
        /// which the write replaces) is passed over, so one planted at an export's name does not stop the export.
        private let folder: String?

        public init(in folder: String? = nil) {
            self.folder = folder
        }

        public mutating func claim(stem: String, suffix: String, fallback: String = "document") -> String {
            var name = SafeFile.fileName(stem: stem, suffix: suffix, fallback: fallback)
            var n = 2
            while used.contains(name) || isHeld(name) {
                name = SafeFile.fileName(stem: stem, suffix: "-\(n)" + suffix, fallback: fallback)
                n += 1
            }
            used.insert(name)
            return name
        }

        private func isHeld(_ name: String) -> Bool {
            guard let folder else { return false }
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0 else { return false }
            let type = info.st_mode & S_IFMT
            return type != S_IFREG && type != S_IFLNK
        }
    }
}
