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
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("larder-docs-\(getpid())", isDirectory: true)
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
}
