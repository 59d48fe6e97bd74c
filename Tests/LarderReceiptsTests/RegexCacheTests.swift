import Foundation
import Testing

@testable import LarderReceipts

/// The receipt parser's patterns are compiled once (issue 11: compiling them per line was two thirds of a parse);
/// the cached helpers must find and replace exactly what Foundation's regular-expression string methods do.
@Suite("regex cache")
struct RegexCacheTests {
    static let texts = [
        "WHOLE MILK 2L 1.89", "Crème fraîche 200g 2,49 €", "RMi 00", "TOTA1 12.33", "16 0Z CAN", "½ kg äpfel 3,5O",
        "", "   ", "2 EGG TART 26,000", "日本語 12:30 PM 2026-11-24",
    ]
    static let patterns = [
        #"(\d)\s?0Z\b"#, #"\d[.,]\d\d[A-Z*]{1,3}$"#, #"(?<=\p{L})\.{2,}"#, #"(\d)([.,]) (\d\d)(?![\d.,])"#,
        #"(?<![A-Z])(?:[JLIF1][O0]|T[0A])TA[L1I]"#, #"\d{1,2}:\d{2}\s*(?:PM|AM)?"#, #"[äö]\w+"#, "^$",
    ]

    @Test func findsWhatFoundationFinds() {
        for text in Self.texts {
            for pattern in Self.patterns {
                #expect(text.range(ofPattern: pattern) == text.range(of: pattern, options: .regularExpression), "\(pattern) in \(text)")
                #expect(
                    text.replacingMatches(of: pattern, with: "<$0>")
                        == text.replacingOccurrences(of: pattern, with: "<$0>", options: .regularExpression))
                // A substring's range is in its base string's indices, as Foundation's is.
                let tail = text.dropFirst(2)
                #expect(tail.range(ofPattern: pattern) == tail.range(of: pattern, options: .regularExpression), "\(pattern) in \(tail)")
            }
        }
    }

    @Test func compilesEachPatternOnce() throws {
        let pattern = #"CACHE-TEST-\d+"#
        let first = try #require(RegexCache.regex(pattern))
        #expect(RegexCache.regex(pattern) === first)
        #expect(RegexCache.regex("(") == nil, "a pattern that does not compile")
    }
}
