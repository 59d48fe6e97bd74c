import Foundation

/// One RFC 6902 JSON Patch operation.
public enum PatchOperation: Sendable, Hashable, CustomStringConvertible {
    /// Adds `value` at `path` (inserting into arrays; `-` appends).
    case add(path: JSONPointer, value: JSONValue)
    /// Removes the value at `path`.
    case remove(path: JSONPointer)
    /// Replaces the existing value at `path`.
    case replace(path: JSONPointer, value: JSONValue)
    /// Moves the value at `from` to `path`.
    case move(from: JSONPointer, path: JSONPointer)
    /// Copies the value at `from` to `path`.
    case copy(from: JSONPointer, path: JSONPointer)
    /// Fails unless the value at `path` equals `value` (semantic JSON equality).
    case test(path: JSONPointer, value: JSONValue)

    /// The `op` name.
    public var name: String {
        switch self {
        case .add: return "add"
        case .remove: return "remove"
        case .replace: return "replace"
        case .move: return "move"
        case .copy: return "copy"
        case .test: return "test"
        }
    }

    /// The target `path`.
    public var path: JSONPointer {
        switch self {
        case .add(let p, _), .remove(let p), .replace(let p, _), .move(_, let p), .copy(_, let p), .test(let p, _): return p
        }
    }

    /// The JSON form, e.g. `{"op":"add","path":"/a","value":1}`.
    public var json: JSONValue {
        var o: JSONObject = ["op": .string(name), "path": .string(path.description)]
        switch self {
        case .add(_, let v), .replace(_, let v), .test(_, let v): o["value"] = v
        case .move(let f, _), .copy(let f, _): o["from"] = .string(f.description)
        case .remove: break
        }
        return .object(o)
    }

    public var description: String { json.serialized() }

    /// Parses one operation object.
    /// - Throws: ``JSONPatchError`` (with `operationIndex` set to `index`).
    public init(json: JSONValue, index: Int = 0) throws {
        func fail(_ why: String, op: String? = nil, path: String? = nil) -> JSONPatchError {
            JSONPatchError(operationIndex: index, operation: op, path: path, reason: why)
        }
        guard case .object(let o) = json else { throw fail("operation must be an object") }
        if o.hadDuplicateKeys { throw fail("operation object has duplicate members") }
        guard case .string(let op)? = o["op"] else { throw fail("missing or non-string 'op'") }
        guard case .string(let pathText)? = o["path"] else { throw fail("missing or non-string 'path'", op: op) }
        guard let path = try? JSONPointer(parsing: pathText) else { throw fail("invalid JSON pointer in 'path'", op: op, path: pathText) }
        func value() throws -> JSONValue {
            guard let v = o["value"] else { throw fail("missing 'value'", op: op, path: pathText) }
            return v
        }
        func from() throws -> JSONPointer {
            guard case .string(let f)? = o["from"] else { throw fail("missing or non-string 'from'", op: op, path: pathText) }
            guard let p = try? JSONPointer(parsing: f) else { throw fail("invalid JSON pointer in 'from': '\(f)'", op: op, path: pathText) }
            return p
        }
        switch op {
        case "add": self = .add(path: path, value: try value())
        case "remove": self = .remove(path: path)
        case "replace": self = .replace(path: path, value: try value())
        case "move": self = .move(from: try from(), path: path)
        case "copy": self = .copy(from: try from(), path: path)
        case "test": self = .test(path: path, value: try value())
        default: throw fail("unknown operation '\(op)'", op: op, path: pathText)
        }
    }
}

/// A JSON Patch failure: which operation (0-based index), which op/path, and why.
public struct JSONPatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Index of the failing operation in the patch, if known.
    public let operationIndex: Int?
    /// The operation name (`add`, `remove`, …), if known.
    public let operation: String?
    /// The operation's `path`, if known.
    public let path: String?
    /// Why it failed.
    public let reason: String

    public var description: String {
        var s = "JSON Patch failed"
        if let operationIndex { s += " at operation \(operationIndex)" }
        if let operation { s += " (\(operation)" + (path.map { " \"\($0)\"" } ?? "") + ")" }
        return s + ": " + reason
    }
}

/// RFC 6902 JSON Patch: applying and generating patches.
public enum JSONPatch {
    /// Parses a patch document (a JSON array of operation objects).
    public static func parse(_ patch: JSONValue) throws -> [PatchOperation] {
        guard case .array(let ops) = patch else {
            throw JSONPatchError(operationIndex: nil, operation: nil, path: nil, reason: "a patch must be a JSON array of operations")
        }
        return try ops.enumerated().map { try PatchOperation(json: $1, index: $0) }
    }

    /// Applies a patch given as JSON. The patch is atomic: either all operations apply or it throws.
    public static func apply(_ patch: JSONValue, to document: JSONValue) throws -> JSONValue {
        try apply(try parse(patch), to: document)
    }

    /// Applies operations in order; throws ``JSONPatchError`` naming the failing operation.
    ///
    /// Each operation changes the document in place (``update(_:_:_:)``), so N operations cost O(N × depth), not
    /// O(N × size): 50,000 operations on a growing array took 26 s when each one rebuilt the path.
    public static func apply(_ patch: [PatchOperation], to document: JSONValue) throws -> JSONValue {
        var doc = document
        for (i, op) in patch.enumerated() {
            do {
                try applyOne(op, to: &doc)
            } catch let e as Failure {
                throw JSONPatchError(operationIndex: i, operation: op.name, path: op.path.description, reason: e.reason)
            }
        }
        return doc
    }

    struct Failure: Error { let reason: String }

    static func applyOne(_ op: PatchOperation, to doc: inout JSONValue) throws {
        switch op {
        case .add(let p, let v): try add(v, at: p, in: &doc)
        case .remove(let p): _ = try remove(at: p, in: &doc)
        case .replace(let p, let v):
            guard p.resolve(in: doc) != nil else { throw Failure(reason: "path does not exist") }
            if p.isRoot { doc = v; return }
            try update(&doc, p.tokens[...]) { parent, token in
                if var o = takeObject(&parent) {
                    defer { parent = .object(o) }
                    o[token] = v
                } else if var a = takeArray(&parent) {
                    defer { parent = .array(a) }
                    guard let i = JSONPointer.arrayIndex(token), i < a.count else { throw Failure(reason: "array index '\(token)' is out of bounds") }
                    a[i] = v
                } else {
                    throw Failure(reason: "parent is not a container")
                }
            }
        case .move(let from, let p):
            if from == p { guard from.resolve(in: doc) != nil else { throw Failure(reason: "'from' location does not exist") }; return }
            if p.tokens.count > from.tokens.count && Array(p.tokens.prefix(from.tokens.count)) == from.tokens {
                throw Failure(reason: "cannot move a value into one of its own children ('from' \"\(from)\" is a prefix of 'path')")
            }
            // Both steps must apply or neither: work on the document, and put it back if the second fails.
            let before = doc
            do {
                let value = try remove(at: from, in: &doc, what: "'from' location")
                try add(value, at: p, in: &doc)
            } catch {
                doc = before
                throw error
            }
        case .copy(let from, let p):
            guard let v = from.resolve(in: doc) else { throw Failure(reason: "'from' location \"\(from)\" does not exist") }
            try add(v, at: p, in: &doc)
        case .test(let p, let v):
            guard let actual = p.resolve(in: doc) else { throw Failure(reason: "path does not exist") }
            guard actual == v else { throw Failure(reason: "test failed: value is \(SchemaProgram.short(actual)), expected \(SchemaProgram.short(v))") }
        }
    }

    /// The object `value` holds, taken out of it (`value` is `.null` until the caller puts it back), so the caller
    /// holds the only reference and changes it without a copy; nil (and `value` untouched) for anything else.
    /// (A `switch` on `value` would keep a copy of it alive for its whole body: every change would copy.)
    static func takeObject(_ value: inout JSONValue) -> JSONObject? {
        guard case .object(let object) = value else { return nil }
        value = .null
        return object
    }

    /// The array `value` holds, taken out of it, as ``takeObject(_:)``.
    static func takeArray(_ value: inout JSONValue) -> [JSONValue]? {
        guard case .array(let array) = value else { return nil }
        value = .null
        return array
    }

    /// Changes, in place, the container at `tokens.dropLast()` with `leaf(&container, lastToken)`. Each container on
    /// the path is taken out of its parent (which holds `.null` meanwhile) before it changes, so it is uniquely
    /// referenced and changes without a copy: N operations cost O(N × depth), not O(N × size). A failure leaves
    /// `value` as it was.
    static func update(_ value: inout JSONValue, _ tokens: ArraySlice<String>, _ leaf: (inout JSONValue, String) throws -> Void) throws {
        let token = tokens.first!
        if tokens.count == 1 { return try leaf(&value, token) }
        let rest = tokens.dropFirst()
        if var o = takeObject(&value) {
            defer { value = .object(o) }
            guard var child = o[token] else { throw Failure(reason: "path does not exist (missing member '\(token)')") }
            o[token] = .null
            defer { o[token] = child }
            try update(&child, rest, leaf)
        } else if var a = takeArray(&value) {
            defer { value = .array(a) }
            guard let i = JSONPointer.arrayIndex(token), i < a.count else { throw Failure(reason: "path does not exist (bad array index '\(token)')") }
            var child = a[i]
            a[i] = .null
            defer { a[i] = child }
            try update(&child, rest, leaf)
        } else {
            throw Failure(reason: "path does not exist (cannot descend into \(value.typeName) at '\(token)')")
        }
    }

    static func add(_ v: JSONValue, at p: JSONPointer, in doc: inout JSONValue) throws {
        if p.isRoot { doc = v; return }
        try update(&doc, p.tokens[...]) { parent, token in
            if var o = takeObject(&parent) {
                defer { parent = .object(o) }
                o[token] = v
            } else if var a = takeArray(&parent) {
                defer { parent = .array(a) }
                if token == "-" { a.append(v); return }
                guard let i = JSONPointer.arrayIndex(token) else { throw Failure(reason: "invalid array index '\(token)'") }
                guard i <= a.count else { throw Failure(reason: "array index \(i) is out of bounds (count \(a.count))") }
                a.insert(v, at: i)
            } else {
                throw Failure(reason: "cannot add a member to a \(parent.typeName)")
            }
        }
    }

    /// Removes the value at `p` in place and returns it.
    static func remove(at p: JSONPointer, in doc: inout JSONValue, what: String = "path") throws -> JSONValue {
        guard let old = p.resolve(in: doc) else { throw Failure(reason: "\(what) \"\(p)\" does not exist") }
        if p.isRoot { throw Failure(reason: "cannot remove the whole document") }
        try update(&doc, p.tokens[...]) { parent, token in
            if var o = takeObject(&parent) {
                defer { parent = .object(o) }
                o.removeValue(forKey: token)
            } else if var a = takeArray(&parent) {
                defer { parent = .array(a) }
                guard let i = JSONPointer.arrayIndex(token), i < a.count else { throw Failure(reason: "\(what) \"\(p)\" does not exist") }
                a.remove(at: i)
            } else {
                throw Failure(reason: "\(what) \"\(p)\" does not exist")
            }
        }
        return old
    }

    // MARK: Diff

    /// Computes a patch that turns `source` into `target`
    /// (`apply(diff(from: a, to: b), to: a) == b`).
    ///
    /// Objects are diffed member-wise; arrays use a longest-common-subsequence alignment
    /// (for arrays up to 1,000 elements between the common prefix and suffix; larger ones
    /// fall back to index-wise replacement), with in-place recursive diffs for changed elements.
    public static func diff(from source: JSONValue, to target: JSONValue) -> [PatchOperation] {
        var ops: [PatchOperation] = []
        diff(source, target, JSONPointer.root, &ops)
        return ops
    }

    static func diff(_ a: JSONValue, _ b: JSONValue, _ path: JSONPointer, _ ops: inout [PatchOperation]) {
        if a == b { return }
        switch (a, b) {
        case let (.object(x), .object(y)):
            for k in x.keys where y[k] == nil { ops.append(.remove(path: path.appending(k))) }
            for k in y.keys {
                if let xv = x[k] { diff(xv, y[k]!, path.appending(k), &ops) }
                else { ops.append(.add(path: path.appending(k), value: y[k]!)) }
            }
        case let (.array(x), .array(y)):
            diffArrays(x, y, path, &ops)
        default:
            ops.append(.replace(path: path, value: b))
        }
    }

    static func diffArrays(_ x: [JSONValue], _ y: [JSONValue], _ path: JSONPointer, _ ops: inout [PatchOperation]) {
        var pre = 0
        while pre < x.count && pre < y.count && x[pre] == y[pre] { pre += 1 }
        var suf = 0
        while suf < x.count - pre && suf < y.count - pre && x[x.count - 1 - suf] == y[y.count - 1 - suf] { suf += 1 }
        let a = Array(x[pre..<(x.count - suf)]), b = Array(y[pre..<(y.count - suf)])
        let n = a.count, m = b.count
        var i = pre  // current index in the evolving array
        if n > 1000 || m > 1000 || n == 0 || m == 0 || n * m > 1_000_000 {
            let common = min(n, m)
            for k in 0..<common { diff(a[k], b[k], path.appending(pre + k), &ops) }
            if n > m { for _ in m..<n { ops.append(.remove(path: path.appending(pre + m))) } }
            if m > n { for k in n..<m { ops.append(.add(path: path.appending(pre + k), value: b[k])) } }
            return
        }
        // dp[xi][yi] = LCS length of a[xi...] and b[yi...]
        var dp = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for xi in stride(from: n - 1, through: 0, by: -1) {
            for yi in stride(from: m - 1, through: 0, by: -1) {
                dp[xi][yi] = a[xi] == b[yi] ? dp[xi + 1][yi + 1] + 1 : max(dp[xi + 1][yi], dp[xi][yi + 1])
            }
        }
        var xi = 0, yi = 0
        while xi < n || yi < m {
            if xi < n && yi < m && a[xi] == b[yi] {
                xi += 1; yi += 1; i += 1
            } else if xi < n && yi < m && dp[xi + 1][yi + 1] == dp[xi][yi] {
                diff(a[xi], b[yi], path.appending(i), &ops)
                xi += 1; yi += 1; i += 1
            } else if xi < n && (yi == m || dp[xi + 1][yi] >= dp[xi][yi + 1]) {
                ops.append(.remove(path: path.appending(i)))
                xi += 1
            } else {
                ops.append(.add(path: path.appending(i), value: b[yi]))
                yi += 1; i += 1
            }
        }
    }
}
