import Foundation
import LarderJSON
import LarderTestSupport
import Testing

/// The tree pass (``JSONSchema/validate(_:)-(SortedJSONEncoding)``) must give the full validator's verdict and
/// errors on every instance: it is checked on the official test suite's instances, encoded through
/// ``SortedJSONEncoder``, and on seeded random mutations of a document shaped like Larder's results.
@Suite("Schema validation of an encoder's tree")
struct TreeValidationTests {
    /// The instance as the encoder's tree, and the same JSON as a `JSONValue` (what the full validator reads).
    static func encoded(_ value: JSONValue) throws -> (SortedJSONEncoding, JSONValue) {
        let encoding = try SortedJSONEncoder().encodeWithTree(value)
        return (encoding, encoding.jsonValue())
    }

    @Test("every instance of the official suite: the tree's verdict and errors are the full validator's",
          .enabled(if: TestData.folder("json-schema-test-suite") != nil, "../shared/data/json-schema-test-suite is absent"))
    func officialSuite() throws {
        let suite = try #require(TestData.folder("json-schema-test-suite"))
        var registry = JSONSchemaRegistry()
        try registry.registerDirectory(suite.appendingPathComponent("remotes"), baseURI: "http://localhost:1234/")
        let folder = suite.appendingPathComponent("tests/draft2020-12")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
        var decided = 0, total = 0, decidedInvalid = 0
        var mismatches: [String] = []
        for file in files {
            for group in try TestData.load(file).arrayValue ?? [] {
                guard let schemaJSON = group["schema"],
                    let schema = try? JSONSchema(schemaJSON, registry: registry)
                else { continue }
                for test in group["tests"]?.arrayValue ?? [] {
                    // An instance the encoder cannot write (a number past Double's range) is not a stage output.
                    guard let (encoding, value) = try? Self.encoded(test["data"]!) else { continue }
                    total += 1
                    let full = schema.validate(value)
                    if let verdict = schema.treeVerdict(encoding) {
                        decided += 1
                        if !verdict { decidedInvalid += 1 }
                        if verdict != full.isEmpty {
                            mismatches.append("\(file.lastPathComponent) / \(group["description"]?.stringValue ?? "?") / \(test["description"]?.stringValue ?? "?"): tree \(verdict), full \(full.isEmpty)")
                        }
                    }
                    if schema.validate(encoding) != full {
                        mismatches.append("\(file.lastPathComponent) / \(test["description"]?.stringValue ?? "?"): errors differ")
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
        // The pass must actually decide most instances (both ways), or it would test nothing.
        #expect(total > 1000)
        #expect(decided * 10 > total * 6, "decided \(decided) of \(total)")
        #expect(decidedInvalid > 200)
    }

    static let schema: JSONValue = [
        "type": "object",
        "required": ["name", "count", "items", "kind"],
        "additionalProperties": false,
        "properties": [
            "name": ["type": "string", "minLength": 1, "pattern": "^[a-z]"],
            "count": ["type": "integer", "minimum": 0, "maximum": 100],
            "ratio": ["type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1.5],
            "kind": ["enum": ["recipe", "receipt", "unknown"]],
            "note": ["type": ["string", "null"]],
            "big": ["minimum": 0.1],
            "items": [
                "type": "array", "minItems": 1, "maxItems": 4,
                "items": [
                    "type": "object", "required": ["text"], "additionalProperties": false,
                    "properties": [
                        "text": ["type": "string"],
                        "quantity": ["oneOf": [["type": "null"], ["$ref": "#/$defs/quantity"]]],
                        "flag": ["anyOf": [["const": true], ["type": "integer"]]],
                        "other": ["not": ["type": "boolean"]],
                    ],
                ],
            ],
        ],
        "$defs": [
            "quantity": [
                "type": "object", "required": ["value"], "minProperties": 1, "maxProperties": 2,
                "properties": ["value": ["type": "number", "minimum": 0], "unit": ["type": "string", "maxLength": 8]],
            ]
        ],
    ]

    static let document: JSONValue = [
        "name": "soup", "count": 3, "ratio": 0.5, "kind": "recipe", "note": nil, "big": 0.1,
        "items": [
            ["text": "1 cup rice", "quantity": ["value": 1, "unit": "cup"], "flag": true, "other": 2],
            ["text": "salt", "quantity": nil, "flag": 7],
        ],
    ]

    /// Replacement values a mutation puts anywhere in the document.
    static let replacements: [JSONValue] = [
        nil, true, false, 0, -1, 1, 100, 101, 0.1, 0.09999999999999999, 1.5, 1.4999999999999998, 2.5,
        9_007_199_254_740_993, "", "a", "Soup", "recipe", "cup of", [], [1], ["x": 1], [:],
    ]

    /// Every path to a member or item of `value`.
    static func paths(_ value: JSONValue, _ prefix: [JSONPointerToken] = []) -> [[JSONPointerToken]] {
        switch value {
        case .object(let object):
            return object.keys.flatMap { [prefix + [.key($0)]] + paths(object[$0]!, prefix + [.key($0)]) }
        case .array(let items):
            return items.indices.flatMap { [prefix + [.index($0)]] + paths(items[$0], prefix + [.index($0)]) }
        default: return []
        }
    }

    enum JSONPointerToken { case key(String), index(Int) }

    /// `value` with the member at `path` replaced (or removed, when `new` is nil); unchanged when `path` is gone.
    static func mutate(_ value: JSONValue, at path: ArraySlice<JSONPointerToken>, to new: JSONValue?) -> JSONValue {
        guard let first = path.first else { return new ?? .null }
        switch (value, first) {
        case (.object(let object), .key(let key)):
            var members = object.keys.map { ($0, object[$0]!) }
            guard let i = members.firstIndex(where: { $0.0 == key }) else { return value }  // gone after a first mutation
            if path.count == 1, new == nil { members.remove(at: i) } else {
                members[i].1 = mutate(members[i].1, at: path.dropFirst(), to: new)
            }
            return .object(JSONObject(members))
        case (.array(var items), .index(let i)) where items.indices.contains(i):
            if path.count == 1, new == nil { items.remove(at: i) } else {
                items[i] = mutate(items[i], at: path.dropFirst(), to: new)
            }
            return .array(items)
        default: return value
        }
    }

    @Test("seeded mutations of a result-shaped document: the same verdict and errors both ways")
    func mutations() throws {
        let schema = try JSONSchema(Self.schema)
        var instances: [JSONValue] = [Self.document]
        for path in Self.paths(Self.document) {
            instances.append(Self.mutate(Self.document, at: path[...], to: nil))
            for replacement in Self.replacements {
                instances.append(Self.mutate(Self.document, at: path[...], to: replacement))
            }
        }
        // Pairs of mutations, from a seeded generator.
        var random = SeededGenerator(seed: 18)
        let paths = Self.paths(Self.document)
        for _ in 0..<2000 {
            var value = Self.document
            for _ in 0..<2 {
                let path = paths[Int(random.next() % UInt64(paths.count))]
                let new = Self.replacements[Int(random.next() % UInt64(Self.replacements.count))]
                value = Self.mutate(value, at: path[...], to: new)
            }
            instances.append(value)
        }
        var verdicts: [Bool: Int] = [:]
        for instance in instances {
            let (encoding, value) = try Self.encoded(instance)
            let full = schema.validate(value)
            #expect(schema.validate(encoding) == full)
            // Every keyword here is modelled: only an integer past 2^53 under a numeric bound is left undecided.
            guard let verdict = schema.treeVerdict(encoding) else {
                #expect(value.description.contains("9007199254740993"), "undecided: \(value)")
                continue
            }
            verdicts[verdict, default: 0] += 1
            #expect(verdict == full.isEmpty, "\(value)")
        }
        #expect(verdicts[true, default: 0] > 100 && verdicts[false, default: 0] > 100)
    }

    /// One array of objects whose key lists vary from item to item (missing required keys, extra keys, other
    /// orders, repeats of the same list): what the shape of a schema node asks of a key list is kept from one object
    /// to the next (``ObjectShape``), and must still be decided for each object's own keys.
    @Test("objects with varied key lists in one array: the same verdict and errors both ways")
    func variedKeyLists() throws {
        let schema = try JSONSchema(Self.schema)
        let keys = ["text", "quantity", "flag", "other", "extra", "text2"]
        let values: [String: JSONValue] = [
            "text": "a", "quantity": .null, "flag": 3, "other": 1, "extra": "x", "text2": "b",
        ]
        var random = SeededGenerator(seed: 5)
        var verdicts: [Bool: Int] = [:]
        for _ in 0..<400 {
            var items: [JSONValue] = []
            for _ in 0..<4 {
                // Half the time the previous item's key list again.
                if !items.isEmpty, random.next() % 2 == 0 {
                    items.append(items[items.count - 1])
                    continue
                }
                var object = JSONObject()
                // "text" is required and "extra", "text2" are not allowed: each breaks the item one time in eight.
                for key in keys.shuffled(using: &random) {
                    let keep = ["text"].contains(key) ? random.next() % 8 != 0
                        : ["extra", "text2"].contains(key) ? random.next() % 8 == 0 : random.next() % 3 != 0
                    if keep { object[key] = values[key] }
                }
                items.append(.object(object))
            }
            var document = Self.document
            document = Self.mutate(document, at: [JSONPointerToken.key("items")][...], to: .array(items))
            let (encoding, value) = try Self.encoded(document)
            let full = schema.validate(value)
            #expect(schema.validate(encoding) == full)
            let verdict = try #require(schema.treeVerdict(encoding))
            #expect(verdict == full.isEmpty, "\(value)")
            verdicts[verdict, default: 0] += 1
        }
        #expect(verdicts[true, default: 0] > 20 && verdicts[false, default: 0] > 20, "\(verdicts)")
    }

    @Test("a key the encoder set twice leaves the object to the full validator")
    func repeatedKeys() throws {
        struct Twice: Encodable {
            enum Key: String, CodingKey { case a }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                try container.encode("x", forKey: .a)
                try container.encode(1, forKey: .a)
            }
        }
        let schema = try JSONSchema(["properties": ["a": ["type": "integer"]]])
        let encoding = try SortedJSONEncoder().encodeWithTree(Twice())
        #expect(encoding.text == #"{"a":1}"#)
        #expect(schema.treeVerdict(encoding) == nil)
        #expect(schema.validate(encoding).isEmpty)
    }
}
