/// ``Patterns/durationLead``'s first match read on UTF-8 bytes (ICU ran it for nearly every duration of a step):
///
///     (?:\b([a-z]+)\s+)?((?:(?:for|about|another|a further|further|around|approximately|roughly|up to|at least|or)\s+)*)$
///
/// case-insensitive. At a start the optional word is tried first: a maximal run of letters (a shorter one leaves a
/// letter where `\s+` needs a space) and the maximal run of spaces after it; then the connectors must reach the end.
/// Each connector is one or two words that no other connector begins with the same word (the two-word ones are
/// "a further", "up to", "at least", whose first words are no connectors), so the connectors read the rest in one
/// way only. The first start where either reading reaches the end is the match. A text with a line break (`$`
/// also matches before a final one) or a character ``CharacterClass`` does not model is left to ICU (`nil`).
struct LeadScanner {
    /// The match: byte offsets of the whole match, the word (group 1) and the connectors (group 2).
    struct Lead: Equatable {
        var range: Range<Int>
        var word: Range<Int>?
        var connectors: Range<Int>
    }

    let scanner: DurationScanner
    var bytes: UnsafeBufferPointer<UInt8> { scanner.bytes }
    var count: Int { bytes.count }

    /// The first match in `text` (there is always one: the empty match at the end), or `nil` when ICU must decide.
    static func firstMatch(in text: some StringProtocol) -> Lead? {
        Prefilter.withBytes(text) { bytes in
            guard CharacterClass.modelsAll(bytes), !bytes.contains(where: { $0 >= 0x0A && $0 <= 0x0D }) else { return nil }
            return LeadScanner(scanner: DurationScanner(bytes: bytes)).firstMatch()
        }
    }

    func firstMatch() -> Lead {
        var p = 0
        while p < count {
            if bytes[p] & 0xC0 != 0x80, let lead = match(at: p) { return lead }
            p += 1
        }
        return Lead(range: count..<count, word: nil, connectors: count..<count)
    }

    func match(at p: Int) -> Lead? {
        if Prefilter.isLetter(bytes[p]), !scanner.isWordBefore(p) {
            var w = p
            while w < count && Prefilter.isLetter(bytes[w]) { w += 1 }
            var q = w
            while let length = CharacterClass.spaceLength(bytes, at: q) { q += length }
            if q > w && connectorsReachEnd(from: q) { return Lead(range: p..<count, word: p..<w, connectors: q..<count) }
        }
        return connectorsReachEnd(from: p) ? Lead(range: p..<count, word: nil, connectors: p..<count) : nil
    }

    static let single: [[UInt8]] = ["for", "about", "another", "further", "around", "approximately", "roughly", "or"]
        .map { Array($0.utf8) }
    static let pairs: [[UInt8]] = ["a further", "up to", "at least"].map { Array($0.utf8) }
    /// The two-word connectors, then the others: at most one of them is followed by a space at any position.
    static let connectors = pairs + single

    /// Whether `(?:connector\s+)*` read from `i` ends exactly at the end of the text.
    func connectorsReachEnd(from i: Int) -> Bool {
        var q = i
        while q < count {
            guard let e = connector(at: q) else { return false }
            var s = e
            while let length = CharacterClass.spaceLength(bytes, at: s) { s += length }
            guard s > e else { return false }
            q = s
        }
        return true
    }

    /// The end of the connector at `i` followed by a space, if one is there.
    func connector(at i: Int) -> Int? {
        for word in Self.connectors {
            if let e = scanner.literal(word, at: i), CharacterClass.spaceLength(bytes, at: e) != nil { return e }
        }
        return nil
    }
}
