import Foundation
import LarderJSON
import LarderTestSupport
import Testing

/// RFC 6902 conformance (json-patch-tests) and diff round-trips.
@Suite("JSON Patch")
struct PatchSuiteTests {
    static let suite = TestData.folder("json-patch-tests")

    static func records() throws -> [(String, JSONValue)] {
        let dir = try #require(suite)
        var out: [(String, JSONValue)] = []
        for f in ["tests.json", "spec_tests.json"] {
            let all = try TestData.load(dir.appendingPathComponent(f))
            for (i, r) in (all.arrayValue ?? []).enumerated() {
                out.append(("\(f)#\(i) \(r["comment"]?.stringValue ?? "")", r))
            }
        }
        return out
    }

    @Test("json-patch-tests conformance", .sharedData("json-patch-tests"))
    func conformance() throws {
        let records = try Self.records()
        var passed = 0, total = 0, disabled = 0
        var failures: [String] = []
        for (name, r) in records {
            if r["disabled"]?.boolValue == true { disabled += 1; continue }
            guard let doc = r["doc"], let patch = r["patch"] else { continue }
            total += 1
            do {
                let result = try JSONPatch.apply(patch, to: doc)
                if r["error"] != nil {
                    failures.append("\(name): expected error '\(r["error"]!.stringValue ?? "")', got \(result)")
                } else if let expected = r["expected"], expected != result {
                    failures.append("\(name): expected \(expected), got \(result)")
                } else {
                    passed += 1
                }
            } catch {
                if r["error"] != nil { passed += 1 } else { failures.append("\(name): unexpected error \(error)") }
            }
        }
        print("json-patch-tests: \(passed)/\(total) passed (\(disabled) disabled skipped)")
        for f in failures { print("  FAIL \(f)") }
        #expect(failures.isEmpty)
        #expect(total > 100)
    }

    @Test("diff round-trips on every (doc, expected) pair", .sharedData("json-patch-tests"))
    func diffRoundTrip() throws {
        let records = try Self.records()
        var pairs = 0
        for (name, r) in records {
            guard let a = r["doc"], let b = r["expected"] else { continue }
            for (x, y) in [(a, b), (b, a)] {
                pairs += 1
                let ops = JSONPatch.diff(from: x, to: y)
                let applied = try JSONPatch.apply(ops, to: x)
                #expect(applied == y, "\(name): diff \(ops) applied to \(x) gave \(applied), expected \(y)")
                // The JSON form must round-trip too.
                let reparsed = try JSONPatch.parse(.array(ops.map(\.json)))
                #expect(reparsed == ops)
            }
        }
        print("json-patch diff round-trip: \(pairs) pairs")
    }

    @Test("diff round-trips on random documents")
    func randomDiff() throws {
        var rng = SplitMix(seed: 42)
        for _ in 0..<500 {
            let a = randomValue(&rng, depth: 3), b = randomValue(&rng, depth: 3)
            let ops = JSONPatch.diff(from: a, to: b)
            #expect(try JSONPatch.apply(ops, to: a) == b, "\(a) -> \(b) via \(ops)")
            // Mutated variant (closer documents exercise the LCS path).
            let c = mutate(a, &rng)
            let ops2 = JSONPatch.diff(from: a, to: c)
            #expect(try JSONPatch.apply(ops2, to: a) == c, "\(a) -> \(c) via \(ops2)")
        }
    }

    @Test("errors name the operation index, path and reason")
    func errors() throws {
        let doc: JSONValue = ["a": [1, 2, 3]]
        do {
            _ = try JSONPatch.apply([["op": "test", "path": "/a/0", "value": 1], ["op": "remove", "path": "/a/7"]], to: doc)
            Issue.record("expected failure")
        } catch let e as JSONPatchError {
            #expect(e.operationIndex == 1)
            #expect(e.operation == "remove")
            #expect(e.path == "/a/7")
            #expect(e.description.contains("operation 1"))
        }
        #expect(throws: JSONPatchError.self) { try JSONPatch.apply([["op": "move", "from": "/a", "path": "/a/0"]], to: doc) }
        let moved = try JSONPatch.apply([["op": "move", "from": "/a/0", "path": "/b"]], to: doc)
        #expect(moved == ["a": [2, 3], "b": 1])
    }
}

struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

func randomValue(_ rng: inout SplitMix, depth: Int) -> JSONValue {
    let k = rng.int(depth > 0 ? 7 : 4)
    switch k {
    case 0: return .null
    case 1: return .bool(rng.int(2) == 0)
    case 2: return .int(rng.int(5))
    case 3: return .string(["a", "b", "c", "~/", ""][rng.int(5)])
    case 4, 5: return .array((0..<rng.int(6)).map { _ in randomValue(&rng, depth: depth - 1) })
    default:
        var o = JSONObject()
        for _ in 0..<rng.int(5) { o[["x", "y", "z", "a/b", "~"][rng.int(5)]] = randomValue(&rng, depth: depth - 1) }
        return .object(o)
    }
}

func mutate(_ v: JSONValue, _ rng: inout SplitMix) -> JSONValue {
    switch v {
    case .array(var a):
        for _ in 0..<rng.int(3) {
            switch rng.int(3) {
            case 0: a.insert(randomValue(&rng, depth: 1), at: rng.int(a.count + 1))
            case 1: if !a.isEmpty { a.remove(at: rng.int(a.count)) }
            default: if !a.isEmpty { let i = rng.int(a.count); a[i] = mutate(a[i], &rng) }
            }
        }
        return .array(a)
    case .object(var o):
        if let k = o.keys.first, rng.int(2) == 0 { o[k] = mutate(o[k]!, &rng) } else { o["n\(rng.int(3))"] = randomValue(&rng, depth: 1) }
        return .object(o)
    default:
        return rng.int(2) == 0 ? v : randomValue(&rng, depth: 2)
    }
}
