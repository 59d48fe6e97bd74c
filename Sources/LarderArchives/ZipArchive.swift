import Foundation

internal import CZip

/// A ZIP archive opened from bytes in memory through libzip. Owns the libzip handle and the buffer it reads.
/// Nothing is ever extracted to disk: members are read into memory, so a name like `../../etc/passwd` cannot
/// touch a file.
final class ZipArchive {
    struct Entry {
        var index: UInt64
        var name: String
        var size: UInt64
        var compressedSize: UInt64
        var isDirectory: Bool
    }

    enum Failure: Error {
        case notZip(String)
        case read(String)
    }

    private let archive: OpaquePointer

    init(_ data: Data) throws(Failure) {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        // libzip frees the copy (freep = 1) when the source is released with the archive.
        let buffer = malloc(max(data.count, 1))!
        data.copyBytes(to: buffer.assumingMemoryBound(to: UInt8.self), count: data.count)
        guard let source = zip_source_buffer_create(buffer, UInt64(data.count), 1, &error) else {
            free(buffer)
            throw .notZip(String(cString: zip_error_strerror(&error)))
        }
        guard let archive = zip_open_from_source(source, ZIP_RDONLY, &error) else {
            zip_source_free(source)
            throw .notZip(String(cString: zip_error_strerror(&error)))
        }
        self.archive = archive
    }

    deinit { zip_discard(archive) }

    var count: Int { Int(zip_get_num_entries(archive, 0)) }

    func entry(_ index: Int) -> Entry? {
        var st = zip_stat_t()
        zip_stat_init(&st)
        guard zip_stat_index(archive, UInt64(index), zip_flags_t(ZIP_FL_ENC_RAW), &st) == 0, let raw = st.name else { return nil }
        let name = Self.decodeName(raw)
        return Entry(
            index: UInt64(index), name: name, size: st.size, compressedSize: st.comp_size,
            isDirectory: name.hasSuffix("/"))
    }

    /// Names are UTF-8 (with or without the UTF-8 flag; macOS writes decomposed NFD), else code page 437
    /// (approximated as Latin-1); always returned as NFC.
    static func decodeName(_ raw: UnsafePointer<CChar>) -> String {
        let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: strlen(raw)))
        let name = String(validating: bytes, as: UTF8.self) ?? String(bytes.map { Character(Unicode.Scalar($0)) })
        return name.precomposedStringWithCanonicalMapping
    }

    /// Reads one member, stopping with an error past `limit` bytes (declared sizes can lie).
    func read(_ entry: Entry, limit: UInt64) throws(Failure) -> Data {
        guard let file = zip_fopen_index(archive, entry.index, 0) else {
            throw .read(String(cString: zip_strerror(archive)))
        }
        defer { zip_fclose(file) }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { zip_fread(file, $0.baseAddress, UInt64($0.count)) }
            if n < 0 { throw .read(String(cString: zip_file_strerror(file))) }
            if n == 0 { break }
            data.append(contentsOf: chunk[0..<Int(n)])
            if UInt64(data.count) > limit { throw .read("more than \(limit) bytes uncompressed") }
        }
        return data
    }
}

/// Writes a ZIP file through libzip (entries deflated).
public enum ZipWriter {
    public static func write(_ entries: [(path: String, data: Data)], to path: String) throws {
        var code: Int32 = 0
        guard let archive = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &code) else {
            throw ArchiveError(archive: path, member: nil, message: "cannot create the ZIP file (libzip error \(code))")
        }
        for entry in entries {
            let buffer = malloc(max(entry.data.count, 1))!
            entry.data.copyBytes(to: buffer.assumingMemoryBound(to: UInt8.self), count: entry.data.count)
            guard let source = zip_source_buffer(archive, buffer, UInt64(entry.data.count), 1) else {
                free(buffer)
                zip_discard(archive)
                throw ArchiveError(archive: path, member: entry.path, message: "cannot add the entry")
            }
            if zip_file_add(archive, entry.path, source, zip_flags_t(ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE)) < 0 {
                zip_source_free(source)
                let message = String(cString: zip_strerror(archive))
                zip_discard(archive)
                throw ArchiveError(archive: path, member: entry.path, message: message)
            }
        }
        if zip_close(archive) != 0 {
            let message = String(cString: zip_strerror(archive))
            zip_discard(archive)
            throw ArchiveError(archive: path, member: nil, message: "cannot write the ZIP file: \(message)")
        }
    }
}
