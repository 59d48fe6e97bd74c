import Crypto
import Foundation

/// SHA-256 (FIPS 180-4), streaming. Documents are identified by the SHA-256 of their bytes.
///
/// The rounds are swift-crypto's (`Crypto.SHA256`: BoringSSL on Linux, which uses the CPU's SHA extensions or
/// AVX where it has them and portable code elsewhere; CryptoKit on Apple platforms). swift-crypto is already in
/// the build graph through postgres-nio, so this costs no new package.
public struct SHA256: Sendable {
    private var hasher = Crypto.SHA256()

    public init() {}

    /// Adds bytes to the hash.
    public mutating func update(_ data: UnsafeRawBufferPointer) { hasher.update(bufferPointer: data) }

    public mutating func update(_ data: Data) { hasher.update(data: data) }

    /// Finishes and returns the digest as lowercase hex.
    public func finalizeHex() -> String { Self.hex(of: hasher.finalize()) }

    /// The hex digest of `data`.
    public static func hex(_ data: Data) -> String { hex(of: Crypto.SHA256.hash(data: data)) }

    /// Hashes a file in 1 MiB chunks, so memory stays flat whatever its size.
    public static func hex(fileAt path: String) throws -> String {
        guard let handle = FilePath.openForReading(path) else {
            throw LarderError(.unreadable, "cannot open the file for reading", hint: "check its permissions", path: path)
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        while true {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: 1 << 20) ?? Data()
            } catch {
                throw LarderError(
                    .unreadable, "reading the file failed part-way (an I/O error, or it was removed)",
                    hint: "check the disk or the network share, then ingest it again", path: path)
            }
            if chunk.isEmpty { break }
            hasher.update(chunk)
        }
        return hasher.finalizeHex()
    }

    private static let digits = Array("0123456789abcdef".utf8)

    private static func hex(of digest: Crypto.SHA256.Digest) -> String {
        digest.withUnsafeBytes { bytes in
            String(unsafeUninitializedCapacity: bytes.count * 2) { out in
                for (i, byte) in bytes.enumerated() {
                    out[2 * i] = digits[Int(byte >> 4)]
                    out[2 * i + 1] = digits[Int(byte & 0x0F)]
                }
                return bytes.count * 2
            }
        }
    }
}
