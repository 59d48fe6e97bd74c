import Foundation

/// File names are bytes on Linux, and not every name is valid UTF-8 (a file copied from an old Latin-1 system:
/// `caf\xE9.txt`). Larder keeps paths as Swift strings (in the store, in messages), so a byte that is not part of
/// valid UTF-8 is carried in the string as one private-use scalar, U+10FF00 + the byte (U+10FF80…U+10FFFF), and
/// turned back into that byte whenever the path goes to the file system. Messages show such a byte as `\xNN`
/// (``LarderError/displayPath(_:)``).
///
/// Every place that opens a registered path goes through here (``withCString(_:_:)``, ``readAll(_:)``,
/// ``openForReading(_:)``): Foundation's own path APIs would encode the private-use scalars as UTF-8 and miss
/// the file. (A real file name holding a scalar of U+10FF80…U+10FFFF, which no text uses, would be read as the
/// escaped byte: the one name this scheme cannot carry.)
public enum FilePath {
    private static let base: UInt32 = 0x10_FF00

    /// The raw byte a scalar stands for, if it is an escaped byte.
    public static func rawByte(_ scalar: Unicode.Scalar) -> UInt8? {
        (base + 0x80...base + 0xFF).contains(scalar.value) ? UInt8(scalar.value - base) : nil
    }

    /// A path from the file system's bytes: valid UTF-8 as it is, any other byte escaped.
    public static func string(fromBytes bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length = lead < 0x80 ? 1 : lead >> 5 == 0b110 ? 2 : lead >> 4 == 0b1110 ? 3 : lead >> 3 == 0b11110 ? 4 : 0
            if length > 0, index + length <= bytes.count,
                let piece = String(validating: bytes[index..<index + length], as: UTF8.self),
                piece.unicodeScalars.count == 1
            {
                scalars.append(piece.unicodeScalars.first!)
                index += length
            } else {
                scalars.append(Unicode.Scalar(base + UInt32(lead))!)
                index += 1
            }
        }
        return String(scalars)
    }

    /// The bytes a path stands for on the file system.
    public static func bytes(of path: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if let byte = rawByte(scalar) { out.append(byte) } else { out.append(contentsOf: String(scalar).utf8) }
        }
        return out
    }

    /// Calls `body` with the path as the file system's NUL-terminated bytes (for `open`, `stat`, C libraries).
    public static func withCString<T>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        let bytes = bytes(of: path).map { CChar(bitPattern: $0) } + [0]
        return try bytes.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// The path's bytes as a NUL-terminated array, for C functions that take `const char *`.
    public static func cString(_ path: String) -> [CChar] {
        bytes(of: path).map { CChar(bitPattern: $0) } + [0]
    }

    /// Opens a file for reading, or nil (with `errno` set).
    public static func openForReading(_ path: String) -> FileHandle? {
        let fd = withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
        return fd < 0 ? nil : FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    /// The whole file, read (never mapped: a mapped file truncated by another program kills the reader with
    /// SIGBUS). Throws a ``LarderError`` in Larder's words.
    public static func readAll(_ path: String) throws -> Data {
        guard let handle = openForReading(path) else {
            throw LarderError(
                .unreadable, "cannot open the file: \(String(cString: strerror(errno)))",
                hint: "check that it exists and can be read", path: path)
        }
        defer { try? handle.close() }
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw LarderError(
                .unreadable, "reading the file failed part-way (an I/O error, or it was removed)",
                hint: "check the disk or the network share, then ingest it again", path: path)
        }
    }

    /// The names in a folder, from the file system's bytes (hidden ones included), or nil (with `errno` set).
    public static func contentsOfDirectory(_ path: String) -> [String]? {
        guard let directory = withCString(path, { opendir($0) }) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> String in
                let bytes = raw.prefix { $0 != 0 }
                return string(fromBytes: bytes)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
