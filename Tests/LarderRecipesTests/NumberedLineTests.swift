import Foundation
import LarderTestSupport
import Testing
@testable import LarderRecipes

/// Issue 18: a numbered line ("1. Mix", "Step 2) Bake", "3 - Serve") is read on its bytes when it is printable ASCII
/// (``LineReader/numberedASCII(_:)``) instead of by the ICU pattern ``LineReader/numbered``. The two must give the
/// same verdict and groups on every line: compared here on the samples' lines, edge lines and seeded random lines
/// made of the pattern's parts.
@Suite("numbered lines: the byte reader matches the ICU pattern")
struct NumberedLineTests {
    /// The ICU pattern's verdict and groups.
    static func icu(_ line: String) -> (number: Int, rest: String)? {
        guard let m = LineReader.numbered.firstMatch(line), let n = m.groups[0].flatMap({ Int($0) }) else { return nil }
        return (n, m.groups[1] ?? "")
    }

    /// Compares the two on `line`; true when the byte reader decided (the line is printable ASCII).
    @discardableResult
    static func compare(_ line: String) -> Bool {
        let expected = icu(line)
        let groups = LineReader.numberedGroups(line)
        #expect(groups?.number == expected?.number && groups?.rest == expected?.rest, "\(line.debugDescription)")
        guard let decided = LineReader.numberedASCII(line) else { return false }
        #expect(decided?.number == expected?.number && decided?.rest == expected?.rest, "\(line.debugDescription)")
        return true
    }

    static let edges = [
        "1. Mix", "12) Bake", "123. Too many", "1.5 cups", "1 - Stir", "1  -  Stir", "1 -Stir", "1- Stir", "1:  Rest",
        "Step 3: Serve", "STEP 2 - Stir", "step3. Go", "Step 12) x", "Steps 1. x", "step", "step 1", "step 1.", "1.",
        "1. ", "1.  two spaces", "01. zero", "99) last", "100) over", " 1. indented", "1 . spaced", "1 ) spaced",
        "1\t. tab", "1.\tTab after", "1. trailing   ", "Stepp 1. x", "stEp    7 : go", "x1. no", "1.x", "1..", "1. .",
        "٣. Mix", "1. Crème", "١٢. Arabic digits", "1.\u{00A0}no-break", "1\u{2009}. thin space", "",
    ]

    @Test func edgeLines() {
        var decided = 0
        for line in Self.edges where Self.compare(line) { decided += 1 }
        #expect(decided >= 30)
    }

    @Test func theSamplesLines() throws {
        let dir = Repository.path("samples/recipes")
        var decided = 0
        var matched = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: dir) where !name.hasSuffix(".pdf") {
            for line in try String(contentsOfFile: dir + "/" + name, encoding: .utf8).split(separator: "\n") {
                let text = String(line).trimmingLinePadding()
                if Self.compare(text) { decided += 1 }
                if Self.icu(text) != nil { matched += 1 }
            }
        }
        #expect(decided > 200)
        #expect(matched >= 20, "the samples have numbered steps")
    }

    @Test func seededRandomLines() {
        var rng = SeededGenerator(seed: 18)
        let parts = ["step", "Step", "STEP", "steps", " ", "  ", "1", "2", "12", "123", "0", ".", ")", ":", "-", "x",
                     "Mix", "5", "(", "é", "\t", "½"]
        var decided = 0
        for _ in 0..<20_000 {
            let line = (0..<Int.random(in: 0...7, using: &rng)).map { _ in parts.randomElement(using: &rng)! }.joined()
            if Self.compare(line) { decided += 1 }
        }
        #expect(decided > 10_000)
    }
}
