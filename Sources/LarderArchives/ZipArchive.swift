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

    /// Reads one member, stopping with an error past `limit` bytes or past its declared size (declared sizes can
    /// lie: entries sharing one stream each declare little and inflate much). `inflated` counts the bytes inflated,
    /// read or refused, so the caller charges them to the archive's budget either way.
    func read(_ entry: Entry, limit: UInt64, inflated: inout UInt64) throws(Failure) -> Data {
        guard let file = zip_fopen_index(archive, entry.index, 0) else {
            throw .read(String(cString: zip_strerror(archive)))
        }
        defer { zip_fclose(file) }
        let cap = min(limit, entry.size)
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            // Never more than one byte past the cap: enough to know the entry goes on.
            let want = min(UInt64(chunk.count), cap - UInt64(data.count) + 1)
            let n = chunk.withUnsafeMutableBytes { zip_fread(file, $0.baseAddress, want) }
            if n < 0 { throw .read(String(cString: zip_file_strerror(file))) }
            if n == 0 { break }
            inflated += UInt64(n)
            if UInt64(data.count) + UInt64(n) > cap {
                throw .read(
                    cap == entry.size
                        ? "it inflates past its declared size of \(entry.size) bytes (a hostile or damaged archive)"
                        : "more than \(limit) bytes uncompressed")
            }
            data.append(contentsOf: chunk[0..<Int(n)])
        }
        return data
    }

    /// The indices (central-directory order, as libzip numbers them) of entries whose compressed data overlaps
    /// another entry's: a ZIP bomb's shape (many entries sharing one deflate stream), never a real export's. Read
    /// from the central directory in `data`; entries with ZIP64 sizes or offsets are not checked.
    static func overlappingEntries(in data: Data) -> Set<Int> {
        data.withUnsafeBytes { raw -> Set<Int> in
            func u16(_ at: Int) -> Int { at + 2 <= raw.count ? Int(raw.loadUnaligned(fromByteOffset: at, as: UInt16.self).littleEndian) : 0 }
            func u32(_ at: Int) -> UInt64 { at + 4 <= raw.count ? UInt64(raw.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian) : 0 }
            // The end-of-central-directory record: the last signature within its 64 KiB comment's reach.
            var end = raw.count - 22
            let stop = max(0, raw.count - 22 - 65_535)
            while end >= stop && u32(end) != 0x0605_4B50 { end -= 1 }
            guard end >= stop, end >= 0 else { return [] }
            let count = u16(end + 10)
            var at = Int(u32(end + 16))
            guard at != 0xFFFF_FFFF else { return [] }
            // A self-extracting stub before the archive shifts every offset alike: find where the directory really is.
            let shift = (end - Int(u32(end + 12))) - at
            at += shift
            var ranges: [(start: UInt64, end: UInt64, index: Int)] = []
            for index in 0..<count {
                guard at >= 0, u32(at) == 0x0201_4B50 else { break }
                let compressed = u32(at + 20)
                let offset = u32(at + 42)
                if compressed != 0xFFFF_FFFF && offset != 0xFFFF_FFFF {
                    // 30 bytes: the smallest local header; the data starts after it and the entry's name.
                    ranges.append((offset, offset + 30 + compressed, index))
                }
                at += 46 + u16(at + 28) + u16(at + 30) + u16(at + 32)
            }
            ranges.sort { $0.start < $1.start }
            var overlapping = Set<Int>()
            for pair in zip(ranges, ranges.dropFirst()) where pair.1.start < pair.0.end {
                overlapping.insert(pair.0.index)
                overlapping.insert(pair.1.index)
            }
            return overlapping
        }
    }
}

/// Makes a ZIP file through libzip (entries deflated), in memory: the caller writes the bytes (Larder writes every
/// file through `SafeFile`, never through libzip's own temporary file beside the target).
public enum ZipWriter {
    public static func data(_ entries: [(path: String, data: Data)]) throws(ArchiveError) -> Data {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        guard let source = zip_source_buffer_create(nil, 0, 0, &error) else {
            throw ArchiveError(archive: "ZIP", member: nil, message: "cannot start the ZIP file: \(String(cString: zip_error_strerror(&error)))")
        }
        zip_source_keep(source)
        defer { zip_source_free(source) }
        guard let archive = zip_open_from_source(source, ZIP_TRUNCATE, &error) else {
            throw ArchiveError(archive: "ZIP", member: nil, message: "cannot start the ZIP file: \(String(cString: zip_error_strerror(&error)))")
        }
        for entry in entries {
            let buffer = malloc(max(entry.data.count, 1))!
            entry.data.copyBytes(to: buffer.assumingMemoryBound(to: UInt8.self), count: entry.data.count)
            guard let member = zip_source_buffer(archive, buffer, UInt64(entry.data.count), 1) else {
                free(buffer)
                zip_discard(archive)
                throw ArchiveError(archive: "ZIP", member: entry.path, message: "cannot add the entry")
            }
            if zip_file_add(archive, entry.path, member, zip_flags_t(ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE)) < 0 {
                zip_source_free(member)
                let message = String(cString: zip_strerror(archive))
                zip_discard(archive)
                throw ArchiveError(archive: "ZIP", member: entry.path, message: message)
            }
        }
        if zip_close(archive) != 0 {
            let message = String(cString: zip_strerror(archive))
            zip_discard(archive)
            throw ArchiveError(archive: "ZIP", member: nil, message: "cannot make the ZIP file: \(message)")
        }
        return try bytes(of: source)
    }

    /// The bytes libzip wrote into a buffer source.
    private static func bytes(of source: OpaquePointer) throws(ArchiveError) -> Data {
        guard zip_source_open(source) == 0 else {
            throw ArchiveError(archive: "ZIP", member: nil, message: "cannot read back the ZIP file")
        }
        defer { zip_source_close(source) }
        var out = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { zip_source_read(source, $0.baseAddress, UInt64($0.count)) }
            if n < 0 { throw ArchiveError(archive: "ZIP", member: nil, message: "cannot read back the ZIP file") }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<Int(n)])
        }
    }

    /// Writes a ZIP file for a test's fixture (plain `Data.write`; Larder's own exports go through `SafeFile`).
    public static func write(_ entries: [(path: String, data: Data)], to path: String) throws {
        try data(entries).write(to: URL(fileURLWithPath: path))
    }
}
