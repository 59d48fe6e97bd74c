import Foundation

/// Word classes learnt without labels from raw ingredient sentences, as features for the tagger.
///
/// Two kinds of class per lower-cased word seen at least ``Settings/minCount`` times:
/// - **distributional clusters**: each word is described by the words (and numbers, punctuation, sentence ends)
///   seen directly left and right of it; spherical k-means groups words with similar neighbours, once coarse and
///   once fine. Words the labelled data never shows ("kohlrabi") land beside the ones it does ("celeriac").
/// - **position profiles**: how often the word follows a comma, sits in parentheses, follows a number, precedes a
///   comma or the end, opens the sentence — each bucketed into five levels.
///
/// Learnt from whatever sentences training sees (the labelled ones and the unlabelled rows of `more/`); under
/// cross-validation only from the training side of each fold. Deterministic: initial centroids are the most
/// frequent words, ties broken by the word.
struct WordClasses: Sendable, Equatable {
    /// Packed classes by word: fine cluster (bits 0–7), coarse cluster (8–15), five 3-bit profile levels (16–30).
    var table: [String: UInt32]

    static let empty = WordClasses(table: [:])

    struct Settings {
        var fine = 128
        var coarse = 24
        var minCount = 3
        var contexts = 400
        var iterations = 12
    }

    @inline(__always) func packed(_ lower: String) -> UInt32? { table[lower] }

    // MARK: Learning

    /// The key a token contributes as a neighbour: the word, `<num>` for numbers, the punctuation mark itself.
    static func key(_ t: Token) -> String { t.kind == .number ? "<num>" : t.lower }

    /// Learns the classes from sentences (raw text).
    static func learn(from sentences: [String], settings: Settings = Settings()) -> WordClasses {
        let tokenized = sentences.map(Tokenizer.tokenize)
        var counts: [String: Int] = [:]
        for s in tokenized { for t in s { counts[key(t), default: 0] += 1 } }
        let byFrequency = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        var contextIndex: [String: Int] = ["<s>": 0, "</s>": 1]
        for (w, _) in byFrequency.prefix(settings.contexts) where contextIndex[w] == nil { contextIndex[w] = contextIndex.count }
        let words = byFrequency.filter { $0.value >= settings.minCount && !$0.key.isEmpty }.map(\.key)
        var wordIndex: [String: Int] = [:]
        for (k, w) in words.enumerated() { wordIndex[w] = k }
        let profiles = profileLevels(tokenized, wordIndex)
        let vectors = contextVectors(tokenized, wordIndex, contextIndex)
        let dims = 2 * contextIndex.count
        let fine = kMeans(vectors, dims: dims, k: settings.fine, iterations: settings.iterations)
        let coarse = kMeans(vectors, dims: dims, k: settings.coarse, iterations: settings.iterations)
        var table: [String: UInt32] = [:]
        for (k, w) in words.enumerated() {
            table[w] = UInt32(fine[k]) | UInt32(coarse[k]) << 8 | profiles[k] << 16
        }
        return WordClasses(table: table)
    }

    /// Sparse neighbour vectors (left contexts, then right contexts), log-scaled and L2-normalised.
    static func contextVectors(_ sentences: [[Token]], _ words: [String: Int], _ contexts: [String: Int]) -> [[(Int, Float)]] {
        let c = contexts.count
        var raw = [[Int: Float]](repeating: [:], count: words.count)
        for s in sentences {
            for (i, t) in s.enumerated() {
                guard let w = words[key(t)] else { continue }
                let left = i == 0 ? 0 : contexts[key(s[i - 1])]
                let right = i + 1 == s.count ? 1 : contexts[key(s[i + 1])]
                if let left { raw[w][left, default: 0] += 1 }
                if let right { raw[w][c + right, default: 0] += 1 }
            }
        }
        return raw.map { dict in
            var v = dict.map { ($0.key, Float(log1p(Double($0.value)))) }.sorted { $0.0 < $1.0 }
            let norm = v.reduce(Float(0)) { $0 + $1.1 * $1.1 }.squareRoot()
            if norm > 0 { for k in v.indices { v[k].1 /= norm } }
            return v
        }
    }

    /// Spherical k-means; centroids start at the first `k` vectors (the most frequent words).
    static func kMeans(_ vectors: [[(Int, Float)]], dims: Int, k wanted: Int, iterations: Int) -> [Int] {
        let k = min(wanted, vectors.count)
        guard k > 0 else { return [Int](repeating: 0, count: vectors.count) }
        var centroids = [Float](repeating: 0, count: k * dims)
        for j in 0..<k { for (d, x) in vectors[j] { centroids[j * dims + d] = x } }
        var assignment = [Int](repeating: -1, count: vectors.count)
        for _ in 0..<iterations {
            var changed = false
            for (n, v) in vectors.enumerated() {
                var best = 0, bestScore = -Float.infinity
                for j in 0..<k {
                    var s: Float = 0
                    let base = j * dims
                    for (d, x) in v { s += centroids[base + d] * x }
                    if s > bestScore { bestScore = s; best = j }
                }
                if assignment[n] != best { assignment[n] = best; changed = true }
            }
            if !changed { break }
            var sums = [Float](repeating: 0, count: k * dims)
            var members = [Int](repeating: 0, count: k)
            for (n, v) in vectors.enumerated() {
                let base = assignment[n] * dims
                members[assignment[n]] += 1
                for (d, x) in v { sums[base + d] += x }
            }
            for j in 0..<k where members[j] > 0 {
                let base = j * dims
                var norm: Float = 0
                for d in 0..<dims { norm += sums[base + d] * sums[base + d] }
                norm = norm.squareRoot()
                for d in 0..<dims { centroids[base + d] = norm > 0 ? sums[base + d] / norm : 0 }
            }
        }
        return assignment
    }

    /// Five position rates per word, each bucketed into levels 0–4, packed 3 bits apiece.
    static func profileLevels(_ sentences: [[Token]], _ words: [String: Int]) -> [UInt32] {
        var totals = [Int](repeating: 0, count: words.count)
        var hits = [[Int]](repeating: [0, 0, 0, 0, 0], count: words.count)
        for s in sentences {
            var depth = 0
            var lastWordWasNumber = false
            for (i, t) in s.enumerated() {
                if t.text == "(" || t.text == "[" { depth += 1 }
                if t.text == ")" || t.text == "]" { depth = max(0, depth - 1) }
                defer { if t.kind != .punct { lastWordWasNumber = t.kind == .number } }
                guard let w = words[key(t)], t.kind == .word else { continue }
                totals[w] += 1
                if i > 0, s[i - 1].text == "," || s[i - 1].text == ";" { hits[w][0] += 1 }
                if depth > 0 { hits[w][1] += 1 }
                if lastWordWasNumber { hits[w][2] += 1 }
                if i + 1 == s.count || s[i + 1].text == "," || s[i + 1].text == ";" { hits[w][3] += 1 }
                if i == 0 { hits[w][4] += 1 }
            }
        }
        return (0..<words.count).map { w in
            var packed: UInt32 = 0
            guard totals[w] > 0 else { return 7 | 7 << 3 | 7 << 6 | 7 << 9 | 7 << 12 }
            for k in 0..<5 {
                let p = Double(hits[w][k]) / Double(totals[w])
                let level: UInt32 = p < 0.05 ? 0 : p < 0.2 ? 1 : p < 0.5 ? 2 : p < 0.8 ? 3 : 4
                packed |= level << (3 * UInt32(k))
            }
            return packed
        }
    }

    // MARK: Serialisation

    /// Appends the table (count, then per word: UTF-8 length, bytes, packed classes), sorted by word.
    func serialize(into out: inout Data) {
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        u32(UInt32(table.count))
        for (w, v) in table.sorted(by: { $0.key < $1.key }) {
            let bytes = Array(w.utf8)
            u32(UInt32(bytes.count)); out.append(contentsOf: bytes); u32(v)
        }
    }

    /// Reads a table written by ``serialize(into:)`` from `bytes` at `pos`.
    init(bytes: [UInt8], pos: inout Int) throws {
        func u32() throws -> UInt32 {
            guard pos + 4 <= bytes.count else { throw SequenceTagger.FormatError(description: "word classes truncated at byte \(pos)") }
            let v = UInt32(bytes[pos]) | UInt32(bytes[pos + 1]) << 8 | UInt32(bytes[pos + 2]) << 16 | UInt32(bytes[pos + 3]) << 24
            pos += 4
            return v
        }
        let count = Int(try u32())
        var table: [String: UInt32] = [:]
        table.reserveCapacity(count)
        for _ in 0..<count {
            let len = Int(try u32())
            guard len <= 256, pos + len <= bytes.count else { throw SequenceTagger.FormatError(description: "word classes truncated") }
            let w = String(decoding: bytes[pos..<(pos + len)], as: UTF8.self)
            pos += len
            table[w] = try u32()
        }
        self.table = table
    }

    init(table: [String: UInt32]) { self.table = table }
}
