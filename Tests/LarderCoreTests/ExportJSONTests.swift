import Foundation
import LarderJSON
import LarderTestSupport
import Testing

@testable import LarderCore

/// `Exporter.exported` writes with ``ExportJSON`` instead of `JSONSerialization`: these compare the two byte for
/// byte (Foundation is the reference), and check that the fast path is really taken where it should be.
@Suite struct ExportJSONTests {
    static let options: [JSONSerialization.WritingOptions] = [[], .prettyPrinted]

    /// Both writers' bytes for one stored result, for both forms; the fast one must exist when `fast` says so.
    static func compare(_ json: String, fast: Bool = true, name: String = "", sourceLocation: SourceLocation = #_sourceLocation) throws {
        for option in options {
            let reference = try Exporter.foundationExported(json, pipelineVersion: "detect@1+result@2", options: option)
            let mine = Exporter.fastExported(json, pipelineVersion: "detect@1+result@2", options: option)
            if fast { #expect(mine != nil, "the fast path was not taken \(name)", sourceLocation: sourceLocation) }
            if let mine {
                #expect(
                    String(decoding: mine, as: UTF8.self) == String(decoding: reference, as: UTF8.self),
                    sourceLocation: sourceLocation)
            }
            #expect(try Exporter.exported(json, pipelineVersion: "detect@1+result@2", options: option) == reference)
        }
    }

    static let trickyKeys = [
        "b", "B", "a", "A", "_a", "a_", "@x", "x@", "a2", "a10", "a1", "ä", "z", "Z", "é", "e", "f", "10", "9", "1",
        "-", "aB", "ab", "Ab", "AB", "a b", "a-b", "a.b", "$", "~", "日本", "ß", "ss", "", "ingredients",
        "ingredientGroups", "pipelineVersion2", "schemaVersion_", "x_y", "xY", "xy", "x1y", "x01y", "x1", "x01",
        "á", "İ", "i", "ı", "Ω", "ω", "😀", "a😀", "Ǆ", "ǅ", "ǆ", "0", "00", "007", "7", "1.5", "1,5",
        "a\u{0}", "a\t", "a\"", "a\\", "a/b", "URL", "url", "Url", "id", "ID", "Id", "iD",
    ]

    @Test func trickyKeysSortAsFoundationSortsThem() throws {
        var rng = SeededGenerator(seed: 38)
        for round in 0..<20 {
            let keys = round == 0 ? Self.trickyKeys : Self.trickyKeys.shuffled(using: &rng).prefix(Int.random(in: 2...40, using: &rng)).map { $0 }
            let inner = keys.enumerated().map { "\(Self.quoted($1)):\($0)" }.joined(separator: ",")
            try Self.compare("{\(inner),\"nested\":{\(inner)},\"list\":[{\(inner)},[],{}]}")
        }
    }

    @Test func goldensAreWrittenAsFoundationWritesThem() throws {
        let folder = Repository.path("samples/expected/golden")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
        #expect(names.count >= 10, "the goldens are missing from \(folder)")
        for name in names {
            let json = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
            try Self.compare(json, name: name)
            // As the store keeps it: compact, keys in byte order, without the stamps.
            var object = try JSONValue(parsing: json).objectValue!
            object.removeValue(forKey: "pipelineVersion")
            object.removeValue(forKey: "schemaVersion")
            try Self.compare(JSONValue.object(object).serialized(options: [.sortedKeys]), name: name)
        }
    }

    /// Numbers as the store writes them (`Double.description` without `.0`, integers), and other spellings:
    /// the fast path writes what it is sure of, Foundation the rest; the bytes are the same either way.
    @Test func numbersAreWrittenAsFoundationWritesThem() throws {
        var rng = SeededGenerator(seed: 2026)
        var literals = [
            "0", "-0", "0.0", "-0.0", "1.0", "1e2", "1E-7", "0.10", "2.0e0", "-1.5", "1e15", "1e16", "999999999999999",
            "1000000000000000", "9223372036854775807", "9223372036854775808", "18446744073709551616",
            "3.0000000000000001", "12345678901234567890.5", "0.30000000000000004", "1.7976931348623157e+308", "5e-324",
            "0.0001", "0.00001", "1e-05", "123.456e1", "-0e0", "1e+20", "0.1e1",
        ]
        for _ in 0..<400 {
            let magnitude = Double.random(in: -8...18, using: &rng)
            let value = (Bool.random(using: &rng) ? -1 : 1) * pow(10, magnitude) * Double.random(in: 1..<10, using: &rng)
            var text = value.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            literals.append(text)
            let cents = Double(Int.random(in: -1_000_000...1_000_000, using: &rng)) / 100
            literals.append(cents.description.hasSuffix(".0") ? String(cents.description.dropLast(2)) : cents.description)
            literals.append(String(Int64.random(in: Int64.min...Int64.max, using: &rng) >> UInt64.random(in: 0...62, using: &rng)))
        }
        for chunk in stride(from: 0, to: literals.count, by: 50) {
            let list = literals[chunk..<min(chunk + 50, literals.count)]
            try Self.compare("{\"n\":[\(list.joined(separator: ","))]}", fast: false)
        }
        for literal in ["0", "-0", "1.5", "-12.25", "-0.5", "-0.05", "0.1", "123456789012345", "-7", "1.0", "1e2"] {
            try Self.compare("{\"n\":\(literal)}")
        }
    }

    @Test func stringsAreEscapedAsFoundationEscapesThem() throws {
        var rng = SeededGenerator(seed: 7)
        let pieces = ["\\\"", "\\\\", "/", "\\/", "\\n", "\\t", "\\r", "\\b", "\\f", "\\u0000", "\\u001f", "\\u007f",
            "\u{7f}", "\u{2028}", "\\u2028", "é", "\\u00e9", "😀", "\\ud83d\\ude00", "a", " ", "<", "&", "'", "日本"]
        for _ in 0..<50 {
            let text = (0..<Int.random(in: 0...12, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            try Self.compare("{\"s\":\"\(text)\",\"k\(text)\":[\"\(text)\",null,true,false]}")
        }
    }

    /// What Foundation reads differently is left to Foundation: the result is the same, error or not.
    @Test func unusualInputsFallBackToFoundation() throws {
        for json in ["{\"a\":1,\"a\":2}", "{\"a\":{\"b\":1,\"b\":2}}", "{\"schemaVersion\":null}", "{\"schemaVersion\":3}", "{\"a\":[1,-0.0]}", "{\"a\":-0e3}", "{\"a\u{301}\":1,\"á\":2}"] {
            try Self.compare(json, fast: false)
        }
        for json in ["[1,2]", "\"x\"", "{\"a\":\"\\ud800\"}", "{", "{\"a\":01}"] {
            let reference = Result { try Exporter.foundationExported(json, pipelineVersion: "p", options: []) }
            let mine = Result { try Exporter.exported(json, pipelineVersion: "p", options: []) }
            switch (reference, mine) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(json)")
            case (.failure, .failure): break
            default: Issue.record("\(json): Foundation \(reference), fast \(mine)")
            }
        }
    }

    static func quoted(_ key: String) -> String {
        String(decoding: JSONValue.string(key).serializedData(), as: UTF8.self)
    }
}
