/// Byte tests that tell, without running a regular expression, that it cannot match a line: the parser runs its
/// Foundation (ICU) patterns on every line several times, and most lines hold nothing a pattern needs. Each test
/// is a necessary condition of the pattern it guards (it may say "maybe" for a line that then does not match,
/// never "no" for one that does), so the parse is unchanged; `PrefilterTests` checks each against its pattern.
///
/// The patterns are case-insensitive, and ICU folds a few non-ASCII characters to ASCII letters (ſ to s, K to k,
/// ﬁ to fi, İ to i): a test answers "maybe" whenever a non-ASCII character could take part in the match.
enum Prefilter {
    /// ASCII upper case to lower case; other bytes unchanged.
    @inline(__always) static func lower(_ b: UInt8) -> UInt8 { b &- 0x41 < 26 ? b | 0x20 : b }
    @inline(__always) static func isLetter(_ b: UInt8) -> Bool { lower(b) &- 0x61 < 26 }
    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }

    /// The line's first word as lower-case ASCII letters, when the line opens with an ASCII letter and the word
    /// ends at an ASCII byte (or the end); `nil` when it opens with anything else or the word runs into a
    /// non-ASCII character (a test must then say "maybe").
    static func leadingASCIIWord(_ s: some StringProtocol) -> [UInt8]? {
        var word: [UInt8] = []
        for b in s.utf8 {
            if isLetter(b) {
                word.append(lower(b))
            } else {
                if b >= 0x80 { return nil }
                break
            }
        }
        return word.isEmpty ? nil : word
    }

    /// Whether the line may open with one of `starts` (lower-case ASCII words, each the first word of a pattern's
    /// alternative): `false` only when it opens with an ASCII word none of them begins.
    static func mayOpen(_ s: some StringProtocol, with starts: [[UInt8]]) -> Bool {
        guard let first = s.utf8.first else { return false }
        guard isLetter(first) else { return true }
        guard let word = leadingASCIIWord(s) else { return true }
        return starts.contains { word.starts(with: $0) }
    }

    /// Like ``mayOpen(_:with:)`` for a pattern that must open with one of `starts` (no digit or other ASCII
    /// character can): `false` also when the line opens with an ASCII byte that is not a letter.
    static func mayOpenWithWord(_ s: some StringProtocol, _ starts: [[UInt8]]) -> Bool {
        guard let first = s.utf8.first else { return false }
        if first < 0x80 && !isLetter(first) { return false }
        return mayOpen(s, with: starts)
    }

    /// Whether `s`, with ASCII case folded, may contain one of `needles` (lower-case ASCII): `false` only when
    /// none occurs and no character that folds to ASCII letters does.
    static func mayContain(_ s: some StringProtocol, anyOf needles: [[UInt8]]) -> Bool {
        withBytes(s) { scan($0, needles) }
    }

    /// Runs `body` over the UTF-8 bytes of `s` (in place for a native string).
    static func withBytes<R>(_ s: some StringProtocol, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let r = s.utf8.withContiguousStorageIfAvailable(body) { return r }
        return Array(s.utf8).withUnsafeBufferPointer(body)
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ needles: [[UInt8]]) -> Bool {
        // The needles' first bytes as a bit set: most bytes open no needle and are passed over with one test instead
        // of a walk through the needles (the temperature and duration cues ran this on every step, issue 18).
        var opens: (UInt64, UInt64) = (0, 0)  // bit b of .0 (b < 64), bit b - 64 of .1 (64 ≤ b < 128)
        for needle in needles {
            let f = needle[0]
            guard f < 0x80 else { return scanEveryByte(bytes, needles) }  // needles are ASCII; kept general
            if f < 64 { opens.0 |= 1 << UInt64(f) } else { opens.1 |= 1 << UInt64(f - 64) }
        }
        var nonASCII = false
        let n = bytes.count
        for i in 0..<n {
            let raw = bytes[i]
            if raw >= 0x80 {
                nonASCII = true
                continue
            }
            let b = lower(raw)
            guard (b < 64 ? opens.0 >> UInt64(b) : opens.1 >> UInt64(b - 64)) & 1 != 0 else { continue }
            if needleStarts(at: i, bytes, needles) { return true }
        }
        // Only non-ASCII text can hold a character that folds to ASCII letters.
        return nonASCII && foldsToASCII(bytes)
    }

    /// ``scan(_:_:)`` as first written: a needle tried at every byte.
    private static func scanEveryByte(_ bytes: UnsafeBufferPointer<UInt8>, _ needles: [[UInt8]]) -> Bool {
        if foldsToASCII(bytes) { return true }
        return bytes.indices.contains { needleStarts(at: $0, bytes, needles) }
    }

    /// Whether one of `needles` (lower case) starts at byte `i`, ASCII case folded.
    @inline(__always)
    private static func needleStarts(at i: Int, _ bytes: UnsafeBufferPointer<UInt8>, _ needles: [[UInt8]]) -> Bool {
        let b = lower(bytes[i])
        let n = bytes.count
        for needle in needles where needle[0] == b && i + needle.count <= n {
            var k = 1
            while k < needle.count && lower(bytes[i + k]) == needle[k] { k += 1 }
            if k == needle.count { return true }
        }
        return false
    }

    /// Whether ``ChunkParser``'s section-number pattern (`^(?:\S{1,2}\s+)?\d+(?:\.\d+)+\.?\s+(?=\S)`, a Foundation
    /// pattern compiled per call) may match a title: it needs a digit, ".", a digit; `\d` also matches non-ASCII
    /// digits, so a title with any non-ASCII byte says "maybe".
    static func mayHoldSectionNumber(_ title: String) -> Bool {
        withBytes(title) { bytes in
            guard bytes.count >= 3 else { return false }
            for i in 0..<bytes.count {
                if bytes[i] >= 0x80 { return true }
                if i >= 2, bytes[i - 1] == 0x2E, isDigit(bytes[i]), isDigit(bytes[i - 2]) { return true }
            }
            return false
        }
    }

    /// Whether the bytes hold a character ICU's case-insensitive matching folds to ASCII letters: ı and İ
    /// (C4 B0/B1), ſ (C5 BF), K and Å (E2 84 AA/AB), the ligatures ﬀ–ﬆ (EF AC 80–86).
    static func foldsToASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for b in bytes {
            switch (beforePrevious, previous, b) {
            case (_, 0xC4, 0xB0), (_, 0xC4, 0xB1), (_, 0xC5, 0xBF), (0xE2, 0x84, 0xAA), (0xE2, 0x84, 0xAB): return true
            case (0xEF, 0xAC, 0x80...0x86): return true
            default: break
            }
            beforePrevious = previous
            previous = b
        }
        return false
    }
}
