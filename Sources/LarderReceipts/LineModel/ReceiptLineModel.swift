import Foundation

/// A linear-chain model of a receipt's lines: one weight per (hashed feature, role) and one per (previous role,
/// role), decoded with first-order Viterbi over the receipt's lines. Trained as an averaged structured perceptron
/// (``ReceiptLineTraining``) on labelled receipts in which some lines may be unlabelled: the gold path is then the
/// best path through the labelled lines (a latent-variable perceptron). Deterministic for a given seed and data.
///
/// The shipped weights are `Resources/receipt-lines.bin` (see `Resources/RECEIPT-MODEL-CARD.md`).
public struct ReceiptLineModel: Sendable {
    /// log2 of the number of feature buckets.
    public let bits: Int
    /// `weights[bucket * roleCount + role]`.
    var weights: [Float]
    /// `transitions[previous * roleCount + role]`, `previous == roleCount` the receipt's start.
    var transitions: [Float]

    static let roleCount = ReceiptLineRole.count

    /// An untrained model.
    public init(bits: Int = 18) {
        self.bits = bits
        weights = [Float](repeating: 0, count: (1 << bits) * Self.roleCount)
        transitions = [Float](repeating: 0, count: (Self.roleCount + 1) * Self.roleCount)
    }

    var mask: UInt32 { UInt32((1 << bits) - 1) }

    /// The role of every line.
    public func roles(_ lines: [OCRLine]) -> [ReceiptLineRole] {
        decode(emissions(LineFeatures.extract(lines))).map { ReceiptLineRole.ordered[$0] }
    }

    /// Per line, the score of each role (before transitions), for callers that weigh the model's certainty.
    func emissions(_ features: [[UInt32]]) -> [[Float]] {
        let L = Self.roleCount
        return features.map { hashes in
            var e = [Float](repeating: 0, count: L)
            for h in hashes {
                let base = Int(h & mask) * L
                for y in 0..<L { e[y] += weights[base + y] }
            }
            return e
        }
    }

    /// Viterbi over the lines; `allowed[i]`, when given, is the only role line `i` may take.
    func decode(_ emit: [[Float]], allowed: [Int?]? = nil) -> [Int] {
        let n = emit.count, L = Self.roleCount
        guard n > 0 else { return [] }
        let forbidden: Float = -1e30
        var score = [Float](repeating: forbidden, count: L)
        var back = [[Int]](repeating: [Int](repeating: 0, count: L), count: n)
        for y in 0..<L where allowed?[0] == nil || allowed?[0] == y {
            score[y] = emit[0][y] + transitions[L * L + y]
        }
        for i in 1..<n {
            var next = [Float](repeating: forbidden, count: L)
            for y in 0..<L where allowed?[i] == nil || allowed?[i] == y {
                var best = forbidden, arg = 0
                for p in 0..<L where score[p] > forbidden {
                    let s = score[p] + transitions[p * L + y]
                    if s > best { best = s; arg = p }
                }
                next[y] = best + emit[i][y]
                back[i][y] = arg
            }
            score = next
        }
        var y = score.indices.max { score[$0] < score[$1] }!
        var path = [Int](repeating: 0, count: n)
        for i in stride(from: n - 1, through: 0, by: -1) {
            path[i] = y
            y = back[i][y]
        }
        return path
    }

    // MARK: Weights file

    /// The file: "RLM1", bits (UInt32), the transitions (Float32), then the non-zero rows as (bucket UInt32, one
    /// Int16 per role) with one Float32 scale for all of them; little-endian.
    public func serialized() -> Data {
        let L = Self.roleCount
        var data = Data("RLM1".utf8)
        func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        put(UInt32(bits))
        for t in transitions { put(t.bitPattern) }
        let maxAbs = weights.reduce(Float(0)) { max($0, abs($1)) }
        let scale = maxAbs > 0 ? maxAbs / 32767 : 1
        put(scale.bitPattern)
        var rows: [UInt32] = []
        for b in 0..<(1 << bits) {
            let row = weights[(b * L)..<(b * L + L)]
            if row.contains(where: { Int(($0 / scale).rounded()) != 0 }) { rows.append(UInt32(b)) }
        }
        put(UInt32(rows.count))
        for b in rows {
            put(b)
            for y in 0..<L { put(Int16(clamping: Int((weights[Int(b) * L + y] / scale).rounded()))) }
        }
        return data
    }

    /// Reads ``serialized()``.
    /// - Throws: ``ReceiptLineModelError`` when the data is not a weights file of this model.
    public init(serialized data: Data) throws {
        let L = Self.roleCount
        let bytes = [UInt8](data)
        var at = 0
        func read32() throws -> UInt32 {
            guard at + 4 <= bytes.count else { throw ReceiptLineModelError.truncated }
            defer { at += 4 }
            return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        func read16() throws -> Int16 {
            guard at + 2 <= bytes.count else { throw ReceiptLineModelError.truncated }
            defer { at += 2 }
            return Int16(bitPattern: UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8)
        }
        guard bytes.count >= 8, String(decoding: bytes[0..<4], as: UTF8.self) == "RLM1" else {
            throw ReceiptLineModelError.notAModel
        }
        at = 4
        let bits = Int(try read32())
        guard (8...24).contains(bits) else { throw ReceiptLineModelError.notAModel }
        self.init(bits: bits)
        for k in transitions.indices { transitions[k] = Float(bitPattern: try read32()) }
        let scale = Float(bitPattern: try read32())
        let rows = Int(try read32())
        for _ in 0..<rows {
            let b = Int(try read32())
            guard b < (1 << bits) else { throw ReceiptLineModelError.notAModel }
            for y in 0..<L { weights[b * L + y] = Float(try read16()) * scale }
        }
    }

    /// The shipped model, loaded once; nil when the resource is missing or unreadable.
    public static let shipped: ReceiptLineModel? = {
        guard let url = Bundle.module.url(forResource: "receipt-lines", withExtension: "bin"),
              let data = try? Data(contentsOf: url) else { return nil }
        return try? ReceiptLineModel(serialized: data)
    }()
}

/// Why a receipt line model's weights could not be read.
public enum ReceiptLineModelError: Error, Equatable, CustomStringConvertible {
    case notAModel
    case truncated

    public var description: String {
        switch self {
        case .notAModel: "not a receipt line model weights file (expected the RLM1 header): retrain with scripts/data/train-receipts.sh"
        case .truncated: "the receipt line model weights file is truncated: retrain with scripts/data/train-receipts.sh"
        }
    }
}
