/// Everything the tagger's features know about a word, found with one probe: the lexicon classes
/// (``TaggerFeatures/lexiconClasses``) and the learnt ``WordClasses``, keyed by the 64-bit FNV-1a hash of the
/// lower-cased word (``TaggerFeatures/fnv(_:)``, the hash the word features use anyway).
///
/// Built once per model (the shipped one loads once per process), so extracting features makes no `String`
/// dictionary lookups. Open addressing with linear probing over a power-of-two table at most half full; a
/// 64-bit hash stands for its word (a collision between two of the few thousand table words and an input word
/// is as unlikely as one between two feature hashes).
struct WordTable: Sendable {
    /// Lexicon bits (``TaggerFeatures/Classes``) and, in the top bit, ``caseSensitiveCandidate``.
    struct Entry: Sendable {
        var lexicon: UInt64 = 0
        var wordClass: UInt32 = TaggerFeatures.unknownWordClass
    }

    /// Set for words whose original spelling may be a case-sensitive unit ("T", "C", "mL"): only those look up
    /// ``Lexicon/caseSensitiveUnits``.
    static let caseSensitiveCandidate: UInt64 = 1 << 63

    private var keys: [UInt64]
    private var entries: [Entry]
    private let mask: Int

    /// The table of the lexicons and `wordClasses`.
    init(_ wordClasses: WordClasses) {
        var words: [UInt64: Entry] = [:]
        for (w, c) in TaggerFeatures.lexiconClasses { words[TaggerFeatures.fnv(w), default: Entry()].lexicon |= c.rawValue }
        for w in Lexicon.caseSensitiveUnits.keys {
            words[TaggerFeatures.fnv(w.lowercased()), default: Entry()].lexicon |= Self.caseSensitiveCandidate
        }
        for (w, v) in wordClasses.table { words[TaggerFeatures.fnv(w), default: Entry()].wordClass = v }
        var size = 16
        while size < 2 * words.count { size <<= 1 }
        mask = size - 1
        keys = [UInt64](repeating: 0, count: size)
        entries = [Entry](repeating: Entry(), count: size)
        for (h, e) in words.sorted(by: { $0.key < $1.key }) {
            var slot = Int(truncatingIfNeeded: h) & mask
            while keys[slot] != 0 { slot = (slot + 1) & mask }
            keys[slot] = h == 0 ? 1 : h
            entries[slot] = e
        }
    }

    /// The entry of the word with hash `h` (an empty entry for words the table does not hold).
    @inline(__always) func entry(_ h: UInt64) -> Entry {
        let key = h == 0 ? 1 : h
        var slot = Int(truncatingIfNeeded: key) & mask
        while true {
            let k = keys[slot]
            if k == key { return entries[slot] }
            if k == 0 { return Entry() }
            slot = (slot + 1) & mask
        }
    }

    /// The lexicon classes alone (no learnt word classes).
    static let lexiconOnly = WordTable(.empty)
}
