import Foundation

/// A first-order linear sequence tagger over ``TaggerFeatures``: one weight per (feature bucket, label), one per
/// (previous label, label) transition, decoded with Viterbi. Trained as an averaged structured perceptron
/// (``train(_:bits:epochs:seed:)``); deterministic for a given seed and training order.
struct SequenceTagger: Sendable {
    /// The labels in weight order.
    static let labels: [TokenLabel] = [.qty, .unit, .size, .name, .prep, .comment, .purpose, .punc]
    static let labelCount = labels.count
    static let puncIndex = labels.firstIndex(of: .punc)!

    /// log2 of the number of feature buckets.
    let bits: Int
    /// `weights[bucket * labelCount + label]` while training (empty in a loaded model, which has only
    /// ``quantized``).
    var weights: [Float]
    /// The weights as 16-bit integers times ``scale``, one row of eight labels per bucket: what ``tag(_:)``
    /// decodes with (half the memory of `Float`, so more of the table stays in cache), in trained and loaded
    /// models alike, so cross-validation scores the same arithmetic as the shipped weights.
    var quantized: [SIMD8<Int16>] = []
    var scale: Float = 1
    /// `transitions[previous * labelCount + label]`; row `labelCount` is the start of the sentence.
    var transitions: [Float]
    /// Word classes learnt from unlabelled sentences (features of ``TaggerFeatures``).
    var wordClasses: WordClasses = .empty { didSet { wordTable = WordTable(wordClasses) } }
    /// The lexicons and ``wordClasses`` by word hash.
    private(set) var wordTable = WordTable.lexiconOnly

    init(bits: Int) {
        precondition(Self.labelCount == 8, "decode() keeps the eight labels in one SIMD8")
        self.bits = bits
        weights = [Float](repeating: 0, count: (1 << bits) * Self.labelCount)
        transitions = [Float](repeating: 0, count: (Self.labelCount + 1) * Self.labelCount)
        quantize()
    }

    /// Fills ``quantized`` and ``scale`` from ``weights`` (one scale: the largest weight maps to 32767).
    mutating func quantize() {
        let L = Self.labelCount
        let maxAbs = weights.reduce(Float(0)) { Swift.max($0, abs($1)) }
        scale = maxAbs > 0 ? maxAbs / 32767 : 1
        quantized = [SIMD8<Int16>](repeating: .zero, count: 1 << bits)
        for b in quantized.indices {
            for y in 0..<L { quantized[b][y] = Int16(clamping: Int((weights[b * L + y] / scale).rounded())) }
        }
    }

    // MARK: Decoding

    /// The label of every token (indices into ``labels``), with the quantised weights. Features go straight
    /// into the emission scores (no feature matrix); punctuation tokens, always PUNC, get none.
    func tag(_ tokens: [Token]) -> [Int] {
        guard !tokens.isEmpty else { return [] }
        return quantized.withUnsafeBufferPointer { rows in
            var sink = EmissionSink(rows: rows, tokens: tokens, scale: scale)
            TaggerFeatures.extract(tokens, bits: bits, table: wordTable, into: &sink)
            return viterbi(sink.emit)
        }
    }

    /// Sums the quantised weight rows of each token's features into its emission scores.
    struct EmissionSink: TaggerFeatures.Sink {
        let rows: UnsafeBufferPointer<SIMD8<Int16>>
        let tokens: [Token]
        let scale: Float
        var sum = SIMD8<Int32>.zero
        var emit: [SIMD8<Float>] = []

        init(rows: UnsafeBufferPointer<SIMD8<Int16>>, tokens: [Token], scale: Float) {
            self.rows = rows; self.tokens = tokens; self.scale = scale
            emit.reserveCapacity(tokens.count)
        }

        @inline(__always) func wants(_ i: Int) -> Bool { tokens[i].kind != .punct }
        @inline(__always) mutating func add(_ bucket: Int32) {
            sum &+= SIMD8<Int32>(truncatingIfNeeded: rows[Int(bucket)])
        }
        @inline(__always) mutating func endToken() {
            // A punctuation token (no features) can only be PUNC; the other scores come from the weights.
            emit.append(tokens[emit.count].kind == .punct ? SequenceTagger.punctOnly : SIMD8<Float>(sum) * scale)
            sum = .zero
        }
    }

    /// Emission of a punctuation token: PUNC, nothing else.
    static let punctOnly: SIMD8<Float> = {
        var m = SIMD8<Float>(repeating: -1e30)
        m[puncIndex] = 0
        return m
    }()

    /// Viterbi decoding of a feature matrix with the 32-bit training weights (the perceptron decodes with these
    /// while it learns). Punctuation tokens are always PUNC.
    func decode(_ m: TaggerFeatures.Matrix, _ tokens: [Token]) -> [Int] {
        m.count == 0 ? [] : viterbi(emissions(m, tokens))
    }

    /// Emission scores: one SIMD8 (the eight labels) per token, summed over its feature rows; punctuation tokens
    /// can only be PUNC.
    func emissions(_ m: TaggerFeatures.Matrix, _ tokens: [Token]) -> [SIMD8<Float>] {
        let n = m.count
        var emit = [SIMD8<Float>](repeating: .zero, count: n)
        var punctMask = SIMD8<Float>(repeating: -1e30)
        punctMask[Self.puncIndex] = 0
        weights.withUnsafeBytes { raw in
            m.buckets.withUnsafeBufferPointer { buckets in
                m.offsets.withUnsafeBufferPointer { offsets in
                    for i in 0..<n {
                        var e = SIMD8<Float>.zero
                        for k in offsets[i]..<offsets[i + 1] {
                            e += raw.loadUnaligned(fromByteOffset: Int(buckets[k]) &* 32, as: SIMD8<Float>.self)
                        }
                        emit[i] = tokens[i].kind == .punct ? e + punctMask : e
                    }
                }
            }
        }
        return emit
    }

    var transitionRows: [SIMD8<Float>] {
        let L = Self.labelCount
        var trans = [SIMD8<Float>](repeating: .zero, count: L + 1)  // trans[p][y]
        for p in 0...L { for y in 0..<L { trans[p][y] = transitions[p * L + y] } }
        return trans
    }

    /// The best label path for per-token emission scores under the transition weights.
    func viterbi(_ emit: [SIMD8<Float>]) -> [Int] {
        let n = emit.count, L = Self.labelCount
        let trans = transitionRows
        var score = trans[L] + emit[0]
        var back = [SIMD8<Int32>](repeating: .zero, count: n)
        for i in 1..<max(n, 1) {
            var best = SIMD8<Float>(repeating: -.infinity)
            var arg = SIMD8<Int32>.zero
            for p in 0..<L {
                let s = SIMD8<Float>(repeating: score[p]) + trans[p]
                let better = s .> best
                best.replace(with: s, where: better)
                arg.replace(with: Int32(p), where: better)
            }
            score = best + emit[i]
            back[i] = arg
        }
        var y = 0
        for k in 1..<L where score[k] > score[y] { y = k }
        var path = [Int](repeating: 0, count: n)
        for i in stride(from: n - 1, through: 0, by: -1) {
            path[i] = y
            y = Int(back[i][y])
        }
        return path
    }

    // MARK: Training

    /// One training sentence: its tokens and gold label indices.
    struct Example: Sendable {
        var tokens: [Token]
        var gold: [Int]
    }

    /// A deterministic generator (SplitMix64) for the training order.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Trains an averaged structured perceptron: each epoch visits the examples in a seeded shuffle, decodes,
    /// and on a wrong path adds the gold path's features and subtracts the predicted path's. The returned
    /// weights are the average over all steps (w − u / c).
    static func train(_ examples: [Example], bits: Int = 18, epochs: Int = 10, seed: UInt64 = 15,
                      wordClasses: WordClasses = .empty,
                      progress: (Int, Int) -> Void = { _, _ in }) -> SequenceTagger {
        var model = SequenceTagger(bits: bits)
        model.wordClasses = wordClasses
        let matrices = examples.map { TaggerFeatures.extract($0.tokens, bits: bits, table: model.wordTable) }
        let L = labelCount
        var accW = [Double](repeating: 0, count: model.weights.count)
        var accT = [Double](repeating: 0, count: model.transitions.count)
        var c = 1.0
        var rng = SplitMix(state: seed)
        var order = Array(examples.indices)
        for epoch in 0..<epochs {
            order.shuffle(using: &rng)
            var mistakes = 0
            for idx in order {
                let ex = examples[idx]
                let m = matrices[idx]
                let pred = model.decode(m, ex.tokens)
                if pred != ex.gold {
                    mistakes += 1
                    for i in 0..<ex.gold.count where pred[i] != ex.gold[i] {
                        for k in m.offsets[i]..<m.offsets[i + 1] {
                            let row = Int(m.buckets[k]) * L
                            model.weights[row + ex.gold[i]] += 1; accW[row + ex.gold[i]] += c
                            model.weights[row + pred[i]] -= 1; accW[row + pred[i]] -= c
                        }
                    }
                    for i in 0..<ex.gold.count {
                        let gp = i == 0 ? L : ex.gold[i - 1], pp = i == 0 ? L : pred[i - 1]
                        if gp == pp && ex.gold[i] == pred[i] { continue }
                        model.transitions[gp * L + ex.gold[i]] += 1; accT[gp * L + ex.gold[i]] += c
                        model.transitions[pp * L + pred[i]] -= 1; accT[pp * L + pred[i]] -= c
                    }
                }
                c += 1
            }
            progress(epoch + 1, mistakes)
        }
        for k in model.weights.indices { model.weights[k] -= Float(accW[k] / c) }
        for k in model.transitions.indices { model.transitions[k] -= Float(accT[k] / c) }
        model.quantize()
        return model
    }

    // MARK: Serialisation

    /// Errors reading a weights file.
    struct FormatError: Error, CustomStringConvertible {
        var description: String
    }

    static let magic: UInt32 = 0x4741_544C  // "LTAG"
    /// Layout of the file: 2 added the word classes after the weight rows.
    static let fileVersion: UInt32 = 2

    /// The weights as a compact little-endian binary: header, transitions (Float32), then each non-zero bucket
    /// row as (bucket UInt32, labelCount × Int16), quantised with one scale.
    func serialized() -> Data {
        let L = Self.labelCount
        var out = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        func f32(_ v: Float) { u32(v.bitPattern) }
        u32(Self.magic); u32(Self.fileVersion); u32(TaggerFeatures.version); u32(UInt32(bits)); u32(UInt32(L)); f32(scale)
        for t in transitions { f32(t) }
        let rows = quantized.indices.filter { quantized[$0] != .zero }
        u32(UInt32(rows.count))
        for b in rows {
            u32(UInt32(b))
            for y in 0..<L { withUnsafeBytes(of: quantized[b][y].littleEndian) { out.append(contentsOf: $0) } }
        }
        wordClasses.serialize(into: &out)
        return out
    }

    /// Reads weights written by ``serialized()``.
    init(data: Data) throws {
        let bytes = [UInt8](data)
        var pos = 0
        func u32() throws -> UInt32 {
            guard pos + 4 <= bytes.count else { throw FormatError(description: "weights file truncated at byte \(pos)") }
            let v = UInt32(bytes[pos]) | UInt32(bytes[pos + 1]) << 8 | UInt32(bytes[pos + 2]) << 16 | UInt32(bytes[pos + 3]) << 24
            pos += 4
            return v
        }
        guard try u32() == Self.magic, try u32() == Self.fileVersion else {
            throw FormatError(description: "not a tagger weights file (version \(Self.fileVersion)): retrain with scripts/train-ingredients.sh")
        }
        let fv = try u32()
        guard fv == TaggerFeatures.version else {
            throw FormatError(description: "weights use feature set \(fv), the code has \(TaggerFeatures.version): retrain with scripts/train-ingredients.sh")
        }
        let bits = Int(try u32()), L = Int(try u32())
        guard L == Self.labelCount, (8...24).contains(bits) else { throw FormatError(description: "weights have \(L) labels and \(bits) bits") }
        let scale = Float(bitPattern: try u32())
        self.bits = bits
        weights = []
        transitions = [Float](repeating: 0, count: (L + 1) * L)
        quantized = [SIMD8<Int16>](repeating: .zero, count: 1 << bits)
        self.scale = scale
        for k in transitions.indices { transitions[k] = Float(bitPattern: try u32()) }
        let rows = Int(try u32())
        guard pos + rows * (4 + 2 * L) <= bytes.count else { throw FormatError(description: "weights file truncated") }
        for _ in 0..<rows {
            let b = Int(try u32())
            guard b < (1 << bits) else { throw FormatError(description: "bucket \(b) out of range") }
            for y in 0..<L {
                quantized[b][y] = Int16(bitPattern: UInt16(bytes[pos]) | UInt16(bytes[pos + 1]) << 8)
                pos += 2
            }
        }
        wordClasses = try WordClasses(bytes: bytes, pos: &pos)
        wordTable = WordTable(wordClasses)
        guard pos == bytes.count else { throw FormatError(description: "\(bytes.count - pos) unexpected bytes after the word classes") }
    }

    /// The weights shipped with the package (`Resources/ingredient-tagger.bin`), loaded once per process.
    static let bundled: SequenceTagger = {
        guard let url = Bundle.module.url(forResource: "ingredient-tagger", withExtension: "bin") else {
            fatalError("LarderIngredients: Resources/ingredient-tagger.bin is missing from the bundle; run scripts/train-ingredients.sh")
        }
        do {
            loadCount += 1
            return try SequenceTagger(data: Data(contentsOf: url))
        } catch {
            fatalError("LarderIngredients: cannot load \(url.path): \(error)")
        }
    }()

    /// How many times ``bundled`` has been loaded (for the load-once test).
    nonisolated(unsafe) static var loadCount = 0
}
