import Foundation
import Testing
import LarderJSON

@Suite("JSONValue")
struct JSONValueTests {
    @Test func parsesAndKeepsKeyOrder() throws {
        let v = try JSONValue(parsing: #"{"b": 1, "a": [true, null, "x\u00e9\n"], "c": {"z": 1.5, "y": -2e3}}"#)
        #expect(v.objectValue?.keys == ["b", "a", "c"])
        #expect(v.serialized() == #"{"b":1,"a":[true,null,"xé\n"],"c":{"z":1.5,"y":-2000}}"#)
        #expect(v.serialized(options: .sortedKeys) == #"{"a":[true,null,"xé\n"],"b":1,"c":{"y":-2000,"z":1.5}}"#)
        #expect(v.serialized(options: [.prettyPrinted, .sortedKeys]) == """
        {
          "a": [
            true,
            null,
            "xé\\n"
          ],
          "b": 1,
          "c": {
            "y": -2000,
            "z": 1.5
          }
        }
        """)
    }

    @Test func semanticEquality() throws {
        let a = try JSONValue(parsing: #"{"x": 1.0, "y": [1, 2]}"#)
        let b = try JSONValue(parsing: #"{"y": [1e0, 2.00], "x": 1}"#)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(try JSONValue(parsing: "[1, 2]") != JSONValue(parsing: "[2, 1]"))
        #expect(JSONValue.string("\u{e9}") != JSONValue.string("e\u{301}"))
        #expect(JSONValue.bool(false) != JSONValue.int(0))
    }

    @Test func numbers() throws {
        let big = try JSONValue(parsing: "123456789012345678901234567890")
        #expect(big.isInteger)
        #expect(big.serialized() == "123456789012345678901234567890")
        #expect(try JSONValue(parsing: "1.0").isInteger)
        #expect(try JSONValue(parsing: "1.0").intValue == 1)
        #expect(try !JSONValue(parsing: "1.5").isInteger)
        #expect(try JSONValue(parsing: "0.0075").serialized() == "0.0075")
        #expect(try JSONValue(parsing: "1e308").serialized() == "1e+308")
        #expect(try JSONValue(parsing: "-0").serialized() == "0")
        let n = JSONNumber(literal: "0.0075")!
        #expect(n.isMultiple(of: JSONNumber(literal: "0.0001")!))
        #expect(!JSONNumber(literal: "0.00751")!.isMultiple(of: JSONNumber(literal: "0.0001")!))
        #expect(!JSONNumber(literal: "1e308")!.isMultiple(of: JSONNumber(literal: "0.123456789")!))
        #expect(JSONNumber(literal: "1e308")!.isMultiple(of: JSONNumber(literal: "0.5")!))
        #expect(JSONNumber(literal: "2.5")! < JSONNumber(literal: "10")!)
        #expect(JSONNumber(literal: "-10")! < JSONNumber(literal: "-2.5")!)
        #expect(JSONNumber(0.1)?.description == "0.1")
        #expect(JSONValue.double(3.25).doubleValue == 3.25)
    }

    @Test func parseErrorsCarryLineAndColumn() {
        let cases: [(String, Int, Int)] = [
            ("{\n  \"a\": 1,\n}", 3, 1),
            ("[1, 2", 1, 6),
            ("{\"a\" 1}", 1, 6),
            ("[01]", 1, 2),
            ("\"abc", 1, 1),
            ("[1] x", 1, 5),
            ("{\"a\": tru}", 1, 7),
            ("\"\\x\"", 1, 2),
        ]
        for (text, line, col) in cases {
            do {
                _ = try JSONValue(parsing: text)
                Issue.record("expected an error for \(text)")
            } catch let e as JSONParseError {
                #expect(e.line == line && e.column == col, "\(text): \(e)")
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: Data([0x22, 0xFF, 0x22])) }
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: "\"\\ud800\"") }
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: "[1,]") }
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: "") }
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: String(repeating: "[", count: 5000)) }
    }

    @Test func unicodeEscapes() throws {
        let v = try JSONValue(parsing: #""\ud83d\ude00 \u0041\/\"""#)
        #expect(v.stringValue == "😀 A/\"")
        #expect(JSONValue.string("a\u{1}\"\\").serialized() == #""a\u0001\"\\""#)
    }

    struct Recipe: Codable, Equatable {
        var name: String
        var servings: Int
        var ratio: Double
        var tags: [String]
    }

    @Test func codableBridging() throws {
        let r = Recipe(name: "Soup", servings: 4, ratio: 0.5, tags: ["hot"])
        let v = try JSONValue(encoding: r)
        #expect(v["servings"] == 4)
        #expect(v["name"] == "Soup")
        let back: Recipe = try v.decode()
        #expect(back == r)
        // JSONValue itself is Codable.
        let data = try JSONEncoder().encode(v)
        let again = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(again == v)
    }

    @Test func objectEditing() {
        var o: JSONObject = ["a": 1, "b": 2]
        o["a"] = 3
        o["c"] = 4
        o["b"] = nil
        #expect(o.keys == ["a", "c"])
        #expect(JSONValue.object(o).serialized() == #"{"a":3,"c":4}"#)
    }

    @Test func pointers() throws {
        let doc = try JSONValue(parsing: #"{"a/b": {"m~n": [10, 20]}, "": 1}"#)
        let p = try JSONPointer(parsing: "/a~1b/m~0n/1")
        #expect(p.tokens == ["a/b", "m~n", "1"])
        #expect(p.description == "/a~1b/m~0n/1")
        #expect(p.resolve(in: doc) == 20)
        #expect(try JSONPointer(parsing: "/").resolve(in: doc) == 1)
        #expect(JSONPointer.root.resolve(in: doc) == doc)
        #expect(try JSONPointer(parsing: "/a~1b/m~0n/01").resolve(in: doc) == nil)
        #expect(throws: JSONPointer.ParseError.self) { try JSONPointer(parsing: "a") }
        #expect(throws: JSONPointer.ParseError.self) { try JSONPointer(parsing: "/~2") }
        #expect(JSONPointer.root.appending("x/y").appending(3).description == "/x~1y/3")
    }
}
