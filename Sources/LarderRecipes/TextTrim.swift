import Foundation

/// Whitespace trimming on Unicode scalars, with the results of Foundation's `trimmingCharacters(in:)`: that call
/// goes through `NSString` (a UTF-16 copy of the line and a new `String` from it), and the parser makes it tens of
/// thousands of times per book (9 % of the ingest profile's instructions, 2026-11-24). An ASCII scalar is decided on
/// its value; any other by the `CharacterSet` itself, so the result is the same for every string.
extension StringProtocol {
    /// `trimmingCharacters(in: .whitespaces)` (tab and the space separators, Unicode category Zs).
    public func trimmingWhitespace() -> String {
        trimmingScalars { $0.isASCII ? $0 == " " || $0 == "\t" : CharacterSet.whitespaces.contains($0) }
    }

    /// `trimmingCharacters(in: .whitespaces ∪ {U+00A0, U+200B, U+FEFF})`: a line's padding, zero-width spaces and
    /// byte-order marks included.
    func trimmingLinePadding() -> String {
        trimmingScalars {
            $0.isASCII
                ? $0 == " " || $0 == "\t"
                : $0 == "\u{00A0}" || $0 == "\u{200B}" || $0 == "\u{FEFF}" || CharacterSet.whitespaces.contains($0)
        }
    }

    /// The string without the leading and trailing scalars `trimmed` accepts (scalar by scalar, as `NSString`
    /// trims: a combining mark after a space stays).
    @inline(__always)
    func trimmingScalars(_ trimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = Substring(self).unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, trimmed(scalars[start]) { start = scalars.index(after: start) }
        while end > start {
            let last = scalars.index(before: end)
            guard trimmed(scalars[last]) else { break }
            end = last
        }
        return String(Substring(scalars[start..<end]))
    }
}
