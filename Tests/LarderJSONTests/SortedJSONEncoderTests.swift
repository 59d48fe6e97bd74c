import Foundation
import LarderJSON
import Testing

/// `SortedJSONEncoder` must write exactly what Foundation's `JSONEncoder` writes with `[.sortedKeys,
/// .withoutEscapingSlashes]` (and with `.sortedKeys` alone when it escapes slashes): every stored stage output is
/// in that form, so a single differing byte would rerun nothing but silently change stored outputs. Each test
/// compares the two encoders on the same value; the contract types are compared in LarderCoreTests
/// (`ContractEncodingTests`).
@Suite("SortedJSONEncoder writes Foundation's bytes")
struct SortedJSONEncoderTests {
    static func foundation<T: Encodable>(_ value: T, escapingSlashes: Bool = false) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = escapingSlashes ? [.sortedKeys] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func sorted<T: Encodable>(_ value: T, escapingSlashes: Bool = false) throws -> String {
        try SortedJSONEncoder(escapesSlashes: escapingSlashes).encodeToString(value)
    }

    /// Both encoders, both slash settings.
    static func expectSame<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for slashes in [false, true] {
            let expected = try foundation(value, escapingSlashes: slashes)
            let actual = try sorted(value, escapingSlashes: slashes)
            #expect(actual == expected, "escaping slashes: \(slashes)", sourceLocation: sourceLocation)
        }
    }

    /// A fixed xorshift generator: the random cases are the same on every run.
    struct XorShift: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
    }

    struct Everything: Codable {
        var zebra: Int
        var alpha: String
        var Alpha: String?
        var missing: String?
        var explicit: ExplicitNullBox
        var numbers: [Double]
        var decimal: Decimal
        var decimals: [Decimal?]
        var flag: Bool
        var bytes: Data
        var link: URL
        var when: Date
        var nested: [[String: [Int]]]
        var small: [Int8]
        var big: [UInt64]
        var float: Float
    }

    struct ExplicitNullBox: Codable {
        @ExplicitNull var price: Decimal?
        @ExplicitNull var unit: String?
    }

    @Test func aValueWithEveryKindOfMember() throws {
        let value = Everything(
            zebra: -7, alpha: "a/b \"c\" \\ d", Alpha: "upper case sorts first", missing: nil,
            explicit: ExplicitNullBox(price: nil, unit: "g"), numbers: [0, -0.0, 1, 0.1, 2.5, 1e-7, 1e16, 1e300, -123.456],
            decimal: Decimal(string: "12.340")!, decimals: [Decimal(string: "-0.5"), nil, Decimal(3), Decimal(string: "1e-10")],
            flag: false, bytes: Data([0, 1, 2, 250, 255]), link: URL(string: "https://example.org/a b?c=d&e=/f")!,
            when: Date(timeIntervalSinceReferenceDate: 123_456.789), nested: [["b": [1, 2], "a": []], [:]],
            small: [Int8.min, 0, Int8.max], big: [0, UInt64.max], float: 0.1)
        try Self.expectSame(value)
    }

    @Test func stringEscapesAndUnicode() throws {
        var strings = [
            "", "plain", "quote \" backslash \\ slash / end", "\u{0}\u{1}\u{7}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1B}\u{1F}",
            "\u{7F} delete, \u{2028} line and \u{2029} paragraph separators", "é e\u{301} 日本語 😀 👩‍👩‍👧",
            "\r\n", String(repeating: "long text without escapes ", count: 40), "ends in a quote\"",
        ]
        // Random strings from an alphabet of the awkward cases, of every length around the 8-byte chunks.
        let alphabet = ["a", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", " ", "\u{7F}", "é", "日", "😀", "\u{2028}", "z"]
        var random = XorShift(state: 0x9E37_79B9_7F4A_7C15)
        for length in 0..<40 {
            strings.append((0..<length).map { _ in alphabet.randomElement(using: &random)! }.joined())
        }
        try Self.expectSame(strings)
        // As keys too (sorted by their UTF-8 bytes, escaped like values).
        try Self.expectSame(Dictionary(strings.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a }))
    }

    @Test func keysSortByUTF8Bytes() throws {
        // ("é" and "e\u{301}" are one `Dictionary` key: canonically equivalent.)
        let keys = ["b", "a", "B", "A", "_", "aa", "a\u{1}", "é", "e\u{300}", "z", "Z", "10", "9", "ä", "日", "😀", ""]
        try Self.expectSame(Dictionary(uniqueKeysWithValues: keys.map { ($0, $0.unicodeScalars.count) }))
        try Self.expectSame([10: "ten", 9: "nine", -1: "minus one"])  // Int keys are written as strings
    }

    @Test func doublesMatchAcrossTheirRange() throws {
        var values: [Double] = [
            0, -0.0, 1, -1, 0.1, 0.2, 0.3, 1.0 / 3, 1e-7, 1e-5, 1e-4, 123_456_789.125, .leastNonzeroMagnitude,
            .leastNormalMagnitude, .greatestFiniteMagnitude, 9_007_199_254_740_991, 9_007_199_254_740_992,
            4_503_599_627_370_495.5, -9_007_199_254_740_993,
        ]
        var power = 1.0
        for _ in 0..<25 {
            values += [power, -power, power + 0.5, power - 1, power / 3]
            power *= 10
        }
        var random = XorShift(state: 88_172_645_463_325_252)
        for _ in 0..<20_000 {
            let bits = random.next()
            let double = Double(bitPattern: bits)
            if double.isFinite { values.append(double) }
            values.append(Double(Int64(bitPattern: bits) >> Int64(bits % 63)))  // whole numbers of every size
            values.append(Double(bits % 1_000_000) / 100)  // prices and weights
        }
        try Self.expectSame(values)
        try Self.expectSame(values.map { ["v": $0] })  // through a keyed container
        let floats: [Float] = [0, -0.0, 0.1, 1.5, 3, 16_777_216, 1e20, .greatestFiniteMagnitude]
        try Self.expectSame(floats)
    }

    @Test func decimalsAndIntegers() throws {
        let decimals = ["0", "-0", "0.10", "12.345", "-3.50", "1e-20", "123456789012345678901234567890", "0.001"]
            .compactMap { Decimal(string: $0) }
        try Self.expectSame(decimals)
        try Self.expectSame([Decimal(0.1), Decimal(1) / Decimal(3)])
        try Self.expectSame([Int.min, -1, 0, 9, 10, 99, 100, Int.max])
        try Self.expectSame(["i8": Int(Int8.min), "u16": Int(UInt16.max), "i32": Int(Int32.min)])
        try Self.expectSame([UInt.max, 0, 1])
        try Self.expectSame([Int16(-300)])
        try Self.expectSame([UInt32.max])
    }

    struct Empty: Codable {}

    struct Optionals: Codable {
        var none: [Int]? = nil
        var empty: [Int] = []
        var emptyObject: [String: Int] = [:]
        var emptyStruct = Empty()
        var emptyStructs = [Empty(), Empty()]
        var nested: [[Int]] = [[], [1]]
    }

    @Test func emptyContainersAndNothingEncoded() throws {
        try Self.expectSame(Optionals())
        try Self.expectSame([String]())
        try Self.expectSame([String: String]())
        try Self.expectSame(Empty())
        try Self.expectSame(["e": Empty()])
        // Top-level fragments are allowed, as in Foundation.
        try Self.expectSame("text")
        try Self.expectSame(42)
        try Self.expectSame(Optional<Int>.none)
    }

    /// Writes the same key twice, a nested container for a key set before, and a super encoder.
    struct Awkward: Encodable {
        enum Key: String, CodingKey { case a, b, c, `super` }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(1, forKey: .b)
            try container.encode("first", forKey: .a)
            try container.encode("second", forKey: .a)
            var nested = container.nestedContainer(keyedBy: Key.self, forKey: .c)
            try nested.encode(true, forKey: .a)
            var again = container.nestedContainer(keyedBy: Key.self, forKey: .c)
            try again.encode(false, forKey: .b)
            let parent = container.superEncoder()
            var single = parent.singleValueContainer()
            try single.encode([3, 4])
        }
    }

    @Test func repeatedKeysAndSuperEncoders() throws {
        try Self.expectSame(Awkward())
        try Self.expectSame([Awkward(), Awkward()])
    }

    @Test func nonFiniteNumbersAreErrors() throws {
        #expect(throws: EncodingError.self) { try SortedJSONEncoder().encode([1, Double.nan]) }
        #expect(throws: EncodingError.self) { try SortedJSONEncoder().encode(["x": Double.infinity]) }
        #expect(throws: EncodingError.self) { try SortedJSONEncoder().encode(Float.infinity) }
    }
}
