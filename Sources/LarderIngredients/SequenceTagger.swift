import Foundation

/// A second-order linear sequence tagger over ``TaggerFeatures``: one weight per (feature bucket, label), one per
/// (punctuation between, previous label, label) transition and one per (label before the previous, previous label,
/// label), decoded with second-order Viterbi. Punctuation tokens are always
/// PUNC, so the chain runs over the other tokens (the words) and each transition knows what punctuation sits
/// between the two words ("butter, soft": NAME then a comma). Trained as an averaged structured perceptron with
/// passive-aggressive steps, several runs in different orders averaged into one table
/// (``train(_:bits:epochs:seed:ensemble:wordClasses:progress:)``); deterministic for a given seed and training order.
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
    /// `transitions[(gap * (labelCount + 1) + previous) * labelCount + label]`, `gap` the punctuation between
    /// the two words (``chain(_:)``); row `labelCount` of each gap is the start of the sentence.
    var transitions: [Float]
    /// ``transitions`` as one SIMD8 row per (gap, previous label), what decoding adds.
    private(set) var transitionRows: [SIMD8<Float>] = []
    /// First-order transitions (per gap), then the second-order ones: `transitions[secondOrderBase + (before *
    /// labelCount + previous) * labelCount + label]`, `before` the label two words back (`labelCount`: the start).
    static let transitionCount = secondOrderBase + (labelCount + 1) * labelCount * labelCount
    static let secondOrderBase = gapCount * (labelCount + 1) * labelCount
    /// The row of ``transitionRows`` where the second-order rows begin.
    static let secondOrderRow = secondOrderBase / labelCount
    /// Word classes learnt from unlabelled sentences (features of ``TaggerFeatures``).
    var wordClasses: WordClasses = .empty { didSet { wordTable = WordTable(wordClasses) } }
    /// The lexicons and ``wordClasses`` by word hash.
    private(set) var wordTable = WordTable.lexiconOnly

    init(bits: Int) {
        precondition(Self.labelCount == 8, "decode() keeps the eight labels in one SIMD8")
        self.bits = bits
        weights = [Float](repeating: 0, count: (1 << bits) * Self.labelCount)
        transitions = [Float](repeating: 0, count: Self.transitionCount)
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
        transitionRows = Self.rows(of: transitions)
    }

    /// One SIMD8 of eight labels per (gap, previous label).
    static func rows(of transitions: [Float]) -> [SIMD8<Float>] {
        let L = labelCount
        var rows = [SIMD8<Float>](repeating: .zero, count: transitions.count / L)
        for r in rows.indices { for y in 0..<L { rows[r][y] = transitions[r * L + y] } }
        return rows
    }

    // MARK: The chain of words

    /// Kinds of punctuation between two words: none, a comma (or semicolon, colon), an opening parenthesis, a
    /// closing one, a closing one and a comma, other punctuation ("/", "-", "+").
    static let gapCount = 6

    /// The words of a sentence (tokens that are not punctuation) and, for each, the punctuation before it.
    static func chain(_ tokens: [Token]) -> (words: [Int], gaps: [Int]) {
        var words: [Int] = [], gaps: [Int] = []
        words.reserveCapacity(tokens.count)
        gaps.reserveCapacity(tokens.count)
        var open = false, close = false, comma = false, other = false
        for k in tokens.indices {
            guard tokens[k].kind == .punct else {
                words.append(k)
                gaps.append(open ? 2 : close ? (comma ? 4 : 3) : comma ? 1 : other ? 5 : 0)
                open = false; close = false; comma = false; other = false
                continue
            }
            switch TaggerFeatures.punctByte(tokens[k]) {
            case UInt8(ascii: "("), UInt8(ascii: "["): open = true
            case UInt8(ascii: ")"), UInt8(ascii: "]"): close = true
            case UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"): comma = true
            default: other = true
            }
        }
        return (words, gaps)
    }

    // MARK: Decoding

    /// The label of every token (indices into ``labels``), with the quantised weights. Features go straight
    /// into the emission scores (no feature matrix); punctuation tokens, always PUNC, get none.
    func tag(_ tokens: [Token]) -> [Int] {
        guard !tokens.isEmpty else { return [] }
        return quantized.withUnsafeBufferPointer { rows in
            var sink = EmissionSink(rows: rows, tokens: tokens, scale: scale)
            TaggerFeatures.extract(tokens, bits: bits, table: wordTable, into: &sink)
            return viterbi(sink.emit, sink.pairEmit, tokens, transitionRows)
        }
    }

    /// The score of the best label path of `tokens` (see ``scoredViterbi(_:_:_:_:)``): how well the tagger can
    /// read them as one ingredient sentence, comparable between readings of the same words.
    func bestScore(_ tokens: [Token]) -> Float {
        guard !tokens.isEmpty else { return 0 }
        return quantized.withUnsafeBufferPointer { rows in
            var sink = EmissionSink(rows: rows, tokens: tokens, scale: scale)
            TaggerFeatures.extract(tokens, bits: bits, table: wordTable, into: &sink)
            return scoredViterbi(sink.emit, sink.pairEmit, tokens, transitionRows).score
        }
    }

    /// Sums the quantised weight rows of each token's features into its emission scores.
    struct EmissionSink: TaggerFeatures.Sink {
        let rows: UnsafeBufferPointer<SIMD8<Int16>>
        let tokens: [Token]
        let scale: Float
        var sum = SIMD8<Int32>.zero
        var emit: [SIMD8<Float>] = []
        /// `pairEmit[i * pairSlots + p]`: the scores of token `i`'s pair features after previous label `p`.
        var pairEmit: [SIMD8<Float>] = []
        var pairSum = [SIMD8<Int32>](repeating: .zero, count: TaggerFeatures.pairSlots)

        init(rows: UnsafeBufferPointer<SIMD8<Int16>>, tokens: [Token], scale: Float) {
            self.rows = rows; self.tokens = tokens; self.scale = scale
            emit.reserveCapacity(tokens.count)
            pairEmit.reserveCapacity(tokens.count * TaggerFeatures.pairSlots)
        }

        @inline(__always) func wants(_ i: Int) -> Bool { tokens[i].kind != .punct }
        @inline(__always) mutating func add(_ bucket: Int32) {
            sum &+= SIMD8<Int32>(truncatingIfNeeded: rows[Int(bucket)])
        }
        @inline(__always) mutating func addPair(_ b: TaggerFeatures.PairBuckets) {
            for p in 0..<TaggerFeatures.pairSlots {
                pairSum[p] &+= SIMD8<Int32>(truncatingIfNeeded: rows[Int(b[p])])
            }
        }
        @inline(__always) mutating func endToken() {
            // A punctuation token (no features) is not in the chain: its emission is never read.
            emit.append(SIMD8<Float>(sum) * scale)
            sum = .zero
            for p in 0..<TaggerFeatures.pairSlots {
                pairEmit.append(SIMD8<Float>(pairSum[p]) * scale)
                pairSum[p] = .zero
            }
        }
    }

    /// Viterbi decoding of a feature matrix with the 32-bit training weights (the perceptron decodes with these
    /// while it learns). Punctuation tokens are always PUNC.
    func decode(_ m: TaggerFeatures.Matrix, _ tokens: [Token], _ rows: [SIMD8<Float>]) -> [Int] {
        m.count == 0 ? [] : viterbi(emissions(m, tokens), pairEmissions(m), tokens, rows)
    }

    /// Scores of the pair features: `[i * pairSlots + p]` for token `i` after previous label `p`.
    func pairEmissions(_ m: TaggerFeatures.Matrix) -> [SIMD8<Float>] {
        let P = TaggerFeatures.pairSlots
        var out = [SIMD8<Float>](repeating: .zero, count: m.count * P)
        weights.withUnsafeBytes { raw in
            for i in 0..<m.count {
                for k in m.pairOffsets[i]..<m.pairOffsets[i + 1] {
                    let b = m.pairs[k]
                    for p in 0..<P {
                        out[i * P + p] += raw.loadUnaligned(fromByteOffset: Int(b[p]) &* 32, as: SIMD8<Float>.self)
                    }
                }
            }
        }
        return out
    }

    /// Emission scores: one SIMD8 (the eight labels) per token, summed over its feature rows.
    func emissions(_ m: TaggerFeatures.Matrix, _ tokens: [Token]) -> [SIMD8<Float>] {
        let n = m.count
        var emit = [SIMD8<Float>](repeating: .zero, count: n)
        weights.withUnsafeBytes { raw in
            m.buckets.withUnsafeBufferPointer { buckets in
                m.offsets.withUnsafeBufferPointer { offsets in
                    for i in 0..<n {
                        var e = SIMD8<Float>.zero
                        for k in offsets[i]..<offsets[i + 1] {
                            e += raw.loadUnaligned(fromByteOffset: Int(buckets[k]) &* 32, as: SIMD8<Float>.self)
                        }
                        emit[i] = e
                    }
                }
            }
        }
        return emit
    }

    /// The best label path for per-token emission scores under the transition rows (``transitionRows``):
    /// punctuation tokens are PUNC, the words' labels come from second-order Viterbi over the chain of words (the
    /// state is the (previous, current) label pair; a step adds the gap-keyed first-order and the second-order rows).
    func viterbi(_ emit: [SIMD8<Float>], _ pairEmit: [SIMD8<Float>], _ tokens: [Token], _ trans: [SIMD8<Float>]) -> [Int] {
        scoredViterbi(emit, pairEmit, tokens, trans).path
    }

    /// ``viterbi(_:_:_:_:)``'s best path and its score (the sum of its emission and transition weights; 0 for a
    /// sentence without words).
    func scoredViterbi(_ emit: [SIMD8<Float>], _ pairEmit: [SIMD8<Float>], _ tokens: [Token], _ trans: [SIMD8<Float>])
        -> (path: [Int], score: Float)
    {
        let L = Self.labelCount, P = TaggerFeatures.pairSlots, T2 = Self.secondOrderRow
        var path = [Int](repeating: Self.puncIndex, count: tokens.count)
        let (words, gaps) = Self.chain(tokens)
        guard let first = words.first else { return (path, 0) }
        // score[p]: the best score of a path whose last two labels are p (row; `L` = the start) and y (lane).
        var score = [SIMD8<Float>](repeating: SIMD8(repeating: -.infinity), count: L + 1)
        score[L] = trans[gaps[0] * (L + 1) + L] + emit[first] + pairEmit[first * P + L]
        var next = score
        var back = [SIMD8<Int32>](repeating: .zero, count: words.count * L)
        for j in 1..<words.count {
            let base = gaps[j] * (L + 1), w = words[j]
            let rows = j == 1 ? L...L : 0...(L - 1)  // the label two words back (or the start)
            for p in 0..<L {
                var best = SIMD8<Float>(repeating: -.infinity)
                var arg = SIMD8<Int32>.zero
                for q in rows {
                    let s = SIMD8<Float>(repeating: score[q][p]) + trans[T2 + q * L + p]
                    let better = s .> best
                    best.replace(with: s, where: better)
                    arg.replace(with: Int32(q), where: better)
                }
                next[p] = best + trans[base + p] + pairEmit[w * P + p] + emit[w]
                back[j * L + p] = arg
            }
            next[L] = SIMD8(repeating: -.infinity)
            swap(&score, &next)
        }
        var bp = L, y = 0, top = -Float.infinity
        for p in 0...L { for k in 0..<L where score[p][k] > top { top = score[p][k]; bp = p; y = k } }
        for j in stride(from: words.count - 1, through: 0, by: -1) {
            path[words[j]] = y
            guard j > 0 else { break }
            let q = Int(back[j * L + bp][y])
            y = bp
            bp = q
        }
        return (path, top)
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

    /// The size of a passive-aggressive step (PA with the 0/1 loss of a wrong sentence): the smallest τ that gives
    /// the gold path a score one above the predicted path's, τ = (1 − margin) / ‖Δφ‖², where `delta`/`deltaT` hold
    /// Δφ = φ(gold) − φ(predicted) by weight index. Mistakes the weights nearly got right move them less than
    /// ones they got badly wrong, unlike the plain perceptron's step of 1 (the figures are in the model card). Keys
    /// are visited in order so the sum, and the weights, do not depend on the dictionary's order.
    static func step(_ delta: [Int: Float], _ deltaT: [Int: Float], _ model: SequenceTagger) -> Float {
        var margin: Float = 0, norm: Float = 0
        for k in delta.keys.sorted() { let d = delta[k]!; margin += d * model.weights[k]; norm += d * d }
        for k in deltaT.keys.sorted() { let d = deltaT[k]!; margin += d * model.transitions[k]; norm += d * d }
        return norm > 0 ? Swift.max(0, (1 - margin) / norm) : 0
    }

    /// Trains an averaged structured perceptron with passive-aggressive steps: each epoch visits the examples in a
    /// seeded shuffle, decodes, and on a wrong path adds the gold path's features and subtracts the predicted
    /// path's, scaled by ``step(_:_:_:)``. The returned weights are the average over all steps (w − u / c).
    /// With `ensemble` > 1, that many such runs in different seeded orders (seed, seed + 1, …) are averaged into
    /// one weight table: the same size and decoding cost, less of the order's luck in the weights.
    static func train(_ examples: [Example], bits: Int = 18, epochs: Int = 10, seed: UInt64 = 15, ensemble: Int = 1,
                      wordClasses: WordClasses = .empty,
                      progress: (Int, Int) -> Void = { _, _ in }) -> SequenceTagger {
        var model = SequenceTagger(bits: bits)
        model.wordClasses = wordClasses
        let matrices = examples.map { TaggerFeatures.extract($0.tokens, bits: bits, table: model.wordTable) }
        let chains = examples.map { chain($0.tokens) }
        var sumW = [Float](repeating: 0, count: model.weights.count)
        var sumT = [Float](repeating: 0, count: model.transitions.count)
        for run in 0..<max(1, ensemble) {
            var member = model
            member.learn(examples, matrices, chains, epochs: epochs, seed: seed &+ UInt64(run), progress: progress)
            if ensemble <= 1 { member.quantize(); return member }
            for k in sumW.indices { sumW[k] += member.weights[k] }
            for k in sumT.indices { sumT[k] += member.transitions[k] }
        }
        let n = Float(ensemble)
        model.weights = sumW.map { $0 / n }
        model.transitions = sumT.map { $0 / n }
        model.quantize()
        return model
    }

    /// One averaged passive-aggressive perceptron run over the examples in a seeded order (see
    /// ``train(_:bits:epochs:seed:ensemble:wordClasses:progress:)``); leaves the averaged 32-bit weights.
    mutating func learn(_ examples: [Example], _ matrices: [TaggerFeatures.Matrix], _ chains: [(words: [Int], gaps: [Int])],
                        epochs: Int, seed: UInt64, progress: (Int, Int) -> Void) {
        let L = Self.labelCount
        var accW = [Double](repeating: 0, count: weights.count)
        var accT = [Double](repeating: 0, count: transitions.count)
        var c = 1.0
        var rng = SplitMix(state: seed)
        var order = Array(examples.indices)
        for epoch in 0..<epochs {
            order.shuffle(using: &rng)
            var mistakes = 0
            for idx in order {
                let ex = examples[idx]
                let m = matrices[idx]
                let pred = decode(m, ex.tokens, Self.rows(of: transitions))
                let (words, gaps) = chains[idx]
                if words.contains(where: { pred[$0] != ex.gold[$0] }) {
                    mistakes += 1
                    var delta: [Int: Float] = [:]      // weight index → gold count − predicted count
                    var deltaT: [Int: Float] = [:]
                    for i in words where pred[i] != ex.gold[i] {
                        for k in m.offsets[i]..<m.offsets[i + 1] {
                            let row = Int(m.buckets[k]) * L
                            delta[row + ex.gold[i], default: 0] += 1
                            delta[row + pred[i], default: 0] -= 1
                        }
                    }
                    for (j, i) in words.enumerated() {
                        let gp = j == 0 ? L : ex.gold[words[j - 1]], pp = j == 0 ? L : pred[words[j - 1]]
                        if j > 0 {
                            let gq = j == 1 ? L : ex.gold[words[j - 2]], pq = j == 1 ? L : pred[words[j - 2]]
                            if gq != pq || gp != pp || ex.gold[i] != pred[i] {
                                deltaT[Self.secondOrderBase + (gq * L + gp) * L + ex.gold[i], default: 0] += 1
                                deltaT[Self.secondOrderBase + (pq * L + pp) * L + pred[i], default: 0] -= 1
                            }
                        }
                        if gp == pp && ex.gold[i] == pred[i] { continue }
                        let base = gaps[j] * (L + 1)
                        deltaT[(base + gp) * L + ex.gold[i], default: 0] += 1
                        deltaT[(base + pp) * L + pred[i], default: 0] -= 1
                        for k in m.pairOffsets[i]..<m.pairOffsets[i + 1] {
                            delta[Int(m.pairs[k][gp]) * L + ex.gold[i], default: 0] += 1
                            delta[Int(m.pairs[k][pp]) * L + pred[i], default: 0] -= 1
                        }
                    }
                    let tau = Self.step(delta, deltaT, self)
                    let tc = Double(tau) * c
                    for (k, d) in delta where d != 0 { weights[k] += tau * d; accW[k] += tc * Double(d) }
                    for (k, d) in deltaT where d != 0 { transitions[k] += tau * d; accT[k] += tc * Double(d) }
                }
                c += 1
            }
            progress(epoch + 1, mistakes)
        }
        for k in weights.indices { weights[k] -= Float(accW[k] / c) }
        for k in transitions.indices { transitions[k] -= Float(accT[k] / c) }
    }

    // MARK: Serialisation

    /// Errors reading a weights file.
    struct FormatError: Error, CustomStringConvertible {
        var description: String
    }

    static let magic: UInt32 = 0x4741_544C  // "LTAG"
    /// Layout of the file: 2 added the word classes after the weight rows, 3 the transitions per gap, 4 the
    /// second-order transitions after them.
    static let fileVersion: UInt32 = 4

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
            throw FormatError(description: "not a tagger weights file (version \(Self.fileVersion)): retrain with scripts/data/train-ingredients.sh")
        }
        let fv = try u32()
        guard fv == TaggerFeatures.version else {
            throw FormatError(description: "weights use feature set \(fv), the code has \(TaggerFeatures.version): retrain with scripts/data/train-ingredients.sh")
        }
        let bits = Int(try u32()), L = Int(try u32())
        guard L == Self.labelCount, (8...24).contains(bits) else { throw FormatError(description: "weights have \(L) labels and \(bits) bits") }
        let scale = Float(bitPattern: try u32())
        self.bits = bits
        weights = []
        transitions = [Float](repeating: 0, count: Self.transitionCount)
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
        transitionRows = Self.rows(of: transitions)
        wordClasses = try WordClasses(bytes: bytes, pos: &pos)
        wordTable = WordTable(wordClasses)
        guard pos == bytes.count else { throw FormatError(description: "\(bytes.count - pos) unexpected bytes after the word classes") }
    }

    /// The weights shipped with the package (`Resources/ingredient-tagger.bin`), loaded once per process.
    static let bundled: SequenceTagger = {
        guard let url = Bundle.module.url(forResource: "ingredient-tagger", withExtension: "bin") else {
            fatalError("LarderIngredients: Resources/ingredient-tagger.bin is missing from the bundle; run scripts/data/train-ingredients.sh")
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
