import Foundation

/// SHA-256 (FIPS 180-4), streaming. Documents are identified by the SHA-256 of their bytes.
public struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    public init() { buffer.reserveCapacity(64) }

    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    @inline(__always) private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }

    /// Compresses whole 64-byte blocks (`blocks.count` a multiple of 64): the message schedule lives on the stack,
    /// and the state in locals until the last block (no allocation per block).
    private mutating func compress(_ blocks: UnsafeRawBufferPointer) {
        let count = blocks.count / 64
        guard count > 0, let base = blocks.baseAddress else { return }
        var (s0, s1, s2, s3, s4, s5, s6, s7) = state
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            Self.k.withUnsafeBufferPointer { k in
                for n in 0..<count {
                    let block = base.advanced(by: n * 64)
                    for i in 0..<16 {
                        w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
                    }
                    for i in 16..<64 {
                        let x = w[i - 15], y = w[i - 2]
                        let g0 = Self.rotr(x, 7) ^ Self.rotr(x, 18) ^ (x >> 3)
                        let g1 = Self.rotr(y, 17) ^ Self.rotr(y, 19) ^ (y >> 10)
                        w[i] = w[i - 16] &+ g0 &+ w[i - 7] &+ g1
                    }
                    var (a, b, c, d, e, f, g, h) = (s0, s1, s2, s3, s4, s5, s6, s7)
                    for i in 0..<64 {
                        let t1 = h &+ (Self.rotr(e, 6) ^ Self.rotr(e, 11) ^ Self.rotr(e, 25)) &+ ((e & f) ^ (~e & g))
                            &+ k[i] &+ w[i]
                        let t2 = (Self.rotr(a, 2) ^ Self.rotr(a, 13) ^ Self.rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
                        h = g
                        g = f
                        f = e
                        e = d &+ t1
                        d = c
                        c = b
                        b = a
                        a = t1 &+ t2
                    }
                    s0 &+= a; s1 &+= b; s2 &+= c; s3 &+= d; s4 &+= e; s5 &+= f; s6 &+= g; s7 &+= h
                }
            }
        }
        state = (s0, s1, s2, s3, s4, s5, s6, s7)
    }

    /// Adds bytes to the hash.
    public mutating func update(_ data: UnsafeRawBufferPointer) {
        length &+= UInt64(data.count)
        var offset = 0
        if !buffer.isEmpty {
            let take = min(64 - buffer.count, data.count)
            buffer.append(contentsOf: data[0..<take])
            offset = take
            if buffer.count == 64 {
                let block = buffer
                block.withUnsafeBytes { compress($0) }
                buffer.removeAll(keepingCapacity: true)
            }
        }
        let whole = (data.count - offset) / 64 * 64
        if whole > 0 {
            compress(UnsafeRawBufferPointer(rebasing: data[offset..<offset + whole]))
            offset += whole
        }
        if offset < data.count { buffer.append(contentsOf: data[offset...]) }
    }

    public mutating func update(_ data: Data) { data.withUnsafeBytes { update($0) } }

    /// Finishes and returns the digest as lowercase hex.
    public mutating func finalizeHex() -> String {
        let bitLength = length &* 8
        var tail: [UInt8] = [0x80]
        while (buffer.count + tail.count) % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        let savedLength = length
        tail.withUnsafeBytes { update($0) }
        length = savedLength
        let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
        return words.map { word in
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 8 - hex.count) + hex
        }.joined()
    }

    /// The hex digest of `data`.
    public static func hex(_ data: Data) -> String {
        var hasher = SHA256()
        hasher.update(data)
        return hasher.finalizeHex()
    }

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
}
