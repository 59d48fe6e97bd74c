import Foundation

/// One receipt for training or scoring the line model: its lines top to bottom and, per line, its role when
/// the labels say it (nil: unlabelled, the training fills it with the model's best guess).
public struct LabelledReceiptLines: Sendable {
    /// Which set it comes from (`cord`, `sroie`, `photos`), for leave-one-dataset-out splits.
    public var source: String
    /// The receipt's id in its set.
    public var id: String
    public var lines: [OCRLine]
    public var roles: [ReceiptLineRole?]

    public init(source: String, id: String, lines: [OCRLine], roles: [ReceiptLineRole?]) {
        self.source = source
        self.id = id
        self.lines = lines
        self.roles = roles
    }
}

/// Averaged structured-perceptron training of ``ReceiptLineModel``, and its line-level scoring.
public enum ReceiptLineTraining {
    /// Training settings.
    public struct Settings: Sendable, Equatable {
        public var epochs: Int
        public var seed: UInt64
        public var bits: Int
        public init(epochs: Int = 12, seed: UInt64 = 35, bits: Int = 18) {
            self.epochs = epochs
            self.seed = seed
            self.bits = bits
        }
    }

    /// Trains on `receipts` (in a seeded shuffled order each epoch) and returns the averaged model.
    public static func train(_ receipts: [LabelledReceiptLines], settings: Settings = Settings()) -> ReceiptLineModel {
        let L = ReceiptLineModel.roleCount
        var model = ReceiptLineModel(bits: settings.bits)
        let mask = model.mask
        // Averaging: w_avg = w - u / c, with u accumulating c × each update.
        var uWeights = [Float](repeating: 0, count: model.weights.count)
        var uTransitions = [Float](repeating: 0, count: model.transitions.count)
        let prepared = receipts.filter { !$0.lines.isEmpty && $0.roles.contains { $0 != nil } }
            .map { (features: LineFeatures.extract($0.lines), allowed: $0.roles.map { $0?.index }) }
        var order = Array(prepared.indices)
        var rng = LineModelRandom(seed: settings.seed)
        var c: Float = 1
        for _ in 0..<settings.epochs {
            order.shuffle(using: &rng)
            for r in order {
                let (features, allowed) = prepared[r]
                let emit = model.emissions(features)
                let guess = model.decode(emit)
                let gold = allowed.allSatisfy({ $0 != nil }) ? allowed.map { $0! } : model.decode(emit, allowed: allowed)
                if guess != gold {
                    for i in gold.indices where gold[i] != guess[i] {
                        for h in features[i] {
                            let base = Int(h & mask) * L
                            model.weights[base + gold[i]] += 1; uWeights[base + gold[i]] += c
                            model.weights[base + guess[i]] -= 1; uWeights[base + guess[i]] -= c
                        }
                    }
                    for i in gold.indices {
                        let pg = i == 0 ? L : gold[i - 1], pp = i == 0 ? L : guess[i - 1]
                        if pg == pp && gold[i] == guess[i] { continue }
                        model.transitions[pg * L + gold[i]] += 1; uTransitions[pg * L + gold[i]] += c
                        model.transitions[pp * L + guess[i]] -= 1; uTransitions[pp * L + guess[i]] -= c
                    }
                }
                c += 1
            }
        }
        for k in model.weights.indices where uWeights[k] != 0 { model.weights[k] -= uWeights[k] / c }
        for k in model.transitions.indices { model.transitions[k] -= uTransitions[k] / c }
        return model
    }

    /// Line-level figures: accuracy over the labelled lines, and per role precision / recall / F1.
    public struct LineScore: Sendable, Codable, Equatable {
        public var lines = 0
        public var correct = 0
        public var perRole: [String: RoleCounts] = [:]
        public var accuracy: Double { lines == 0 ? 0 : Double(correct) / Double(lines) }
        public init() {}

        public struct RoleCounts: Sendable, Codable, Equatable {
            public var tp = 0, fp = 0, fn = 0
            public init() {}
            public var f1: Double { tp == 0 ? 0 : 2 * Double(tp) / Double(2 * tp + fp + fn) }
        }

        public mutating func add(predicted: [ReceiptLineRole], gold: [ReceiptLineRole?]) {
            for (p, g) in zip(predicted, gold) {
                guard let g else { continue }
                lines += 1
                if p == g { correct += 1; perRole[g.rawValue, default: .init()].tp += 1 } else {
                    perRole[g.rawValue, default: .init()].fn += 1
                    perRole[p.rawValue, default: .init()].fp += 1
                }
            }
        }
    }

    /// Scores `model` on the labelled lines of `receipts`.
    public static func score(_ model: ReceiptLineModel, on receipts: [LabelledReceiptLines]) -> LineScore {
        var s = LineScore()
        for r in receipts { s.add(predicted: model.roles(r.lines), gold: r.roles) }
        return s
    }
}

/// SplitMix64: a small seeded generator, so training orders are the same on every machine.
struct LineModelRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
