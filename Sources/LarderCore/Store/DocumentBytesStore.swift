import Foundation

/// A store that keeps the documents' bytes itself, by SHA-256 (the PostgreSQL store), so a worker on another host
/// needs no shared filesystem: `larder ingest` stores each new file's bytes before registering it, and the work
/// queue runs the stages on a private copy of the stored bytes (``DocumentCopy``), never on the registered path.
public protocol DocumentBytesStore: CheckpointStore {
    /// Stores a document's bytes once (a second store of the same hash does nothing).
    func storeBytes(_ bytes: [UInt8], sha256: String) throws
    /// A document's bytes, or nil when none were stored (a document registered by an older Larder).
    func bytes(sha256: String) throws -> [UInt8]?
    /// Of `hashes`, those whose bytes are not stored yet.
    func missingBytes(_ hashes: [String]) throws -> Set<String>
}

/// A document's stored bytes written to a private folder of this process, under the registered file's name (and its
/// `_folder/` for an archive member), so a stage reads them as it reads the registered file and sees the same name.
/// ``remove()`` deletes the copy.
package struct DocumentCopy {
    /// The document as the stages see it: its path is the copy's.
    package let document: DocumentRecord
    private let folder: URL

    /// nil when the store holds no bytes for the document (the stages then read its registered path).
    package init?(of document: DocumentRecord, from store: any DocumentBytesStore) throws {
        guard let bytes = try store.bytes(sha256: document.sha256) else { return nil }
        let parts = document.path.split(separator: "/").map(String.init)
        let keepsFolder = parts.count >= 2 && parts[parts.count - 2].hasPrefix("_")
        let name = keepsFolder ? parts.suffix(2).joined(separator: "/") : (parts.last ?? document.sha256)
        folder = Self.folder(of: getpid())
            .appendingPathComponent("\(document.id)-\(document.sha256.prefix(16))", isDirectory: true)
        let file = folder.appendingPathComponent(name)
        do {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            try Data(bytes).write(to: file)
        } catch {
            throw LarderError(
                .transient, "could not write document \(document.id)'s stored bytes to \(file.path): \(error)",
                hint: "free space in the temporary folder (TMPDIR), or point TMPDIR at a disk with room",
                path: document.path)
        }
        var copy = document
        copy.path = file.path
        self.document = copy
    }

    package func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The folder of process `pid`'s copies: `$TMPDIR/larder-docs-PID`.
    package static func folder(of pid: pid_t) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("larder-docs-\(pid)", isDirectory: true)
    }

    /// Removes the copies a worker left when it died mid-document (SIGKILL, a native crash, the OOM killer):
    /// its supervisor calls this once the worker has exited.
    package static func removeCopies(ofExited pid: pid_t) {
        try? FileManager.default.removeItem(at: folder(of: pid))
    }

    /// Removes the copy folders in `$TMPDIR` of processes that no longer run (a worker whose supervisor died with
    /// it, a lost host come back): a supervisor calls this when it starts. Only this user's folders; a folder
    /// whose process still runs (or is another user's, or whose pid was reused) is left alone.
    package static func removeCopiesOfDeadProcesses() {
        let temporary = FileManager.default.temporaryDirectory
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: temporary.path) else { return }
        for name in names where name.hasPrefix("larder-docs-") {
            guard let pid = pid_t(name.dropFirst("larder-docs-".count)), pid > 0 else { continue }
            var info = stat()
            guard lstat(temporary.appendingPathComponent(name).path, &info) == 0, info.st_uid == getuid(),
                (info.st_mode & S_IFMT) == S_IFDIR, kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            removeCopies(ofExited: pid)
        }
    }
}
