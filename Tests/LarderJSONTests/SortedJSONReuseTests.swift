import Foundation
import LarderJSON
import LarderTestSupport
import Testing

/// ``SortedJSONReuse``: an array another encoding holds is written as that encoding wrote it, and only when the new
/// value holds that very array. The text must be what encoding the value afresh writes, on every input.
@Suite("Sorted JSON encoder: reusing an earlier encoding")
struct SortedJSONReuseTests {
    struct Item: Codable, Equatable {
        var name: String
        var amount: Double?
        var tags: [String]
    }

    /// What an earlier stage encodes (the array is one member of it).
    struct Earlier: Codable, Equatable {
        var items: [Item]
        var note: String?
    }

    /// What a later stage encodes, with the same array inside.
    struct Later: Codable, Equatable {
        var title: String
        var items: [Item]
        var extra: [Item]
        var count: Int
    }

    static func randomItems(_ rng: inout SeededGenerator) -> [Item] {
        let pieces = ["a", "Zucker", "\"", "\\", "/", "\n", "\u{1}", "é", "½", "😀", " ", "2 cups", "\u{2028}", "\u{7F}"]
        func text() -> String { (0..<Int.random(in: 0...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined() }
        let amounts: [Double?] = [nil, 0, -0.0, 1.5, 1e21, 0.1, -3, 123_456_789.25]
        return (0..<Int.random(in: 0...5, using: &rng)).map { _ in
            Item(name: text(), amount: amounts.randomElement(using: &rng)!, tags: (0..<Int.random(in: 0...3, using: &rng)).map { _ in text() })
        }
    }

    @Test("the same text as a fresh encoding, 500 seeded values, with and without escaped slashes")
    func sameText() throws {
        var rng = SeededGenerator(seed: 7)
        var reused = 0
        for _ in 0..<500 {
            let earlier = Earlier(items: Self.randomItems(&rng), note: Bool.random(using: &rng) ? "n" : nil)
            for slashes in [false, true] {
                let encoder = SortedJSONEncoder(escapesSlashes: slashes)
                let earlierEncoding = try encoder.encodeWithTree(earlier)
                let reuse = try #require(SortedJSONReuse(earlier.items, in: earlierEncoding, member: "items"))
                // The later value holds the earlier array itself, and once more as a copy that was changed.
                var changed = earlier.items
                changed.append(Item(name: "x/y", amount: 2, tags: []))
                let later = Later(title: "t/\(reused)", items: earlier.items, extra: changed, count: earlier.items.count)
                // Encoded with the other slash setting than the earlier encoding too: its bytes must not be taken.
                for laterEncoder in [encoder, SortedJSONEncoder(escapesSlashes: !slashes)] {
                    let fresh = try laterEncoder.encodeWithTree(later)
                    let withReuse = try laterEncoder.encodeWithTree(later, reusing: [reuse])
                    #expect(withReuse.text == fresh.text)
                    #expect(withReuse.jsonValue() == fresh.jsonValue())
                    #expect(try JSONValue(parsing: Data(withReuse.text.utf8)) == fresh.jsonValue())
                }
                reused += 1
            }
        }
        #expect(reused == 1000)
    }

    /// An equal array in other storage is encoded afresh: `-0.0 == 0.0`, but they are written "-0" and "0".
    @Test func equalButOtherArrayIsEncodedAfresh() throws {
        let earlier = Earlier(items: [Item(name: "a", amount: 0, tags: [])], note: nil)
        let encoding = try SortedJSONEncoder().encodeWithTree(earlier)
        let reuse = try #require(SortedJSONReuse(earlier.items, in: encoding, member: "items"))
        let other = [Item(name: "a", amount: -0.0, tags: [])]
        #expect(other == earlier.items)
        let later = Later(title: "", items: other, extra: [], count: 1)
        let text = try SortedJSONEncoder().encodeWithTree(later, reusing: [reuse]).text
        #expect(text.contains("\"amount\":-0"))
        #expect(text == (try SortedJSONEncoder().encodeToString(later)))
    }

    @Test func missingMemberOrOtherShapeIsNoReuse() throws {
        let earlier = Earlier(items: [Item(name: "a", amount: nil, tags: [])], note: "n")
        let encoding = try SortedJSONEncoder().encodeWithTree(earlier)
        #expect(SortedJSONReuse(earlier.items, in: encoding, member: "recipes") == nil)
        #expect(SortedJSONReuse([Item](), in: encoding, member: "items") == nil)  // another count
        #expect(SortedJSONReuse(["n"], in: encoding, member: "note") == nil)  // not an array there
        let top = try SortedJSONEncoder().encodeWithTree(earlier.items)
        #expect(SortedJSONReuse(earlier.items, in: top, member: "items") == nil)  // no top-level object
    }

    /// The schema check reads the reused tree: a reused array that breaks the schema is still rejected, with the
    /// same errors as the fresh encoding's.
    @Test func reusedPartsAreValidated() throws {
        let schema = try JSONSchema([
            "type": "object", "required": ["title", "items"],
            "properties": [
                "title": ["type": "string"],
                "items": ["type": "array", "items": [
                    "type": "object", "required": ["name", "tags"], "additionalProperties": false,
                    "properties": ["name": ["type": "string", "minLength": 1], "amount": ["type": "number", "minimum": 0], "tags": ["type": "array"]],
                ]],
            ],
        ])
        var rng = SeededGenerator(seed: 11)
        var invalid = 0, valid = 0
        for _ in 0..<300 {
            let earlier = Earlier(items: Self.randomItems(&rng), note: nil)
            let reuse = try #require(SortedJSONReuse(earlier.items, in: try SortedJSONEncoder().encodeWithTree(earlier), member: "items"))
            let later = Later(title: "t", items: earlier.items, extra: [], count: 0)
            let fresh = try SortedJSONEncoder().encodeWithTree(later)
            let withReuse = try SortedJSONEncoder().encodeWithTree(later, reusing: [reuse])
            let errors = schema.validate(withReuse)
            #expect(errors == schema.validate(fresh))
            #expect(errors == schema.validate(fresh.jsonValue()))
            #expect(schema.treeVerdict(withReuse) == schema.treeVerdict(fresh))
            if errors.isEmpty { valid += 1 } else { invalid += 1 }
        }
        // Empty names and negative amounts make some invalid: both answers are tested.
        #expect(valid > 30 && invalid > 30, "valid \(valid), invalid \(invalid)")
    }
}
