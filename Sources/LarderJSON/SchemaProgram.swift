import Foundation

struct TypeMask: OptionSet, Sendable {
    let rawValue: UInt8
    static let null = TypeMask(rawValue: 1)
    static let boolean = TypeMask(rawValue: 2)
    static let integer = TypeMask(rawValue: 4)
    static let number = TypeMask(rawValue: 8)
    static let string = TypeMask(rawValue: 16)
    static let array = TypeMask(rawValue: 32)
    static let object = TypeMask(rawValue: 64)

    static func named(_ s: String) -> TypeMask? {
        switch s {
        case "null": return .null
        case "boolean": return .boolean
        case "integer": return .integer
        case "number": return .number
        case "string": return .string
        case "array": return .array
        case "object": return .object
        default: return nil
        }
    }

    func matches(_ v: JSONValue) -> Bool {
        switch v {
        case .null: return contains(.null)
        case .bool: return contains(.boolean)
        case .number(let n): return contains(.number) || (contains(.integer) && n.isInteger)
        case .string: return contains(.string)
        case .array: return contains(.array)
        case .object: return contains(.object)
        }
    }
}

enum KeywordKind: Sendable {
    case type(TypeMask, [String])
    case enumeration([JSONValue])
    case const(JSONValue)
    case minimum(JSONNumber), maximum(JSONNumber), exclusiveMinimum(JSONNumber), exclusiveMaximum(JSONNumber)
    case multipleOf(JSONNumber)
    case minLength(Int), maxLength(Int)
    case pattern(ECMARegex)
    case format(String, assert: Bool)
    case minItems(Int), maxItems(Int), uniqueItems
    case minProperties(Int), maxProperties(Int)
    case required([String])
    case dependentRequired([(String, [String])])
    case properties([String: Int], [String])
    case patternProperties([(ECMARegex, Int)])
    case additionalProperties(Int, Set<String>, [ECMARegex])
    case propertyNames(Int)
    case prefixItems([Int])
    case items(Int, start: Int)
    case contains(Int, min: Int, max: Int?)
    case allOf([Int]), anyOf([Int]), oneOf([Int])
    case not(Int)
    case ifThenElse(Int, then: Int?, else: Int?)
    case dependentSchemas([(String, Int)])
    case ref(Int)
    case dynamicRef(Int, anchor: String?)
    case unevaluatedProperties(Int)
    case unevaluatedItems(Int)
}

struct Keyword: Sendable {
    let name: String
    let kind: KeywordKind
}

struct SchemaNode: Sendable {
    var boolean: Bool?
    var keywords: [Keyword]
    var resource: Int
    /// Absolute URI of this schema (resource URI + `#` + pointer).
    var absoluteLocation: String
}

struct Annotations {
    var props: Set<String> = []
    var allProps = false
    var itemsPrefix = 0
    var allItems = false
    var itemSet: Set<Int> = []

    mutating func merge(_ o: Annotations) {
        if o.allProps { allProps = true } else if !o.props.isEmpty { props.formUnion(o.props) }
        if o.allItems { allItems = true }
        itemsPrefix = max(itemsPrefix, o.itemsPrefix)
        if !o.itemSet.isEmpty { itemSet.formUnion(o.itemSet) }
    }
}

struct EvalContext {
    let collect: Bool
    let maxDepth: Int
    var errors: [ValidationError] = []
    var instPath: [String] = []
    var kwPath: [String] = []
    var dynScope: [Int] = []
    var depth = 0

    init(collect: Bool, maxDepth: Int) { self.collect = collect; self.maxDepth = maxDepth }

    /// Pushes a raw (unescaped) keyword-path token; escaping happens only when an error is built.
    @inline(__always) mutating func pushKW(_ s: String) { if collect { kwPath.append(s) } }
    @inline(__always) mutating func popKW() { if collect { kwPath.removeLast() } }
    @inline(__always) mutating func pushInst(_ s: String) { if collect { instPath.append(s) } }
    @inline(__always) mutating func pushInst(_ i: Int) { if collect { instPath.append(String(i)) } }
    @inline(__always) mutating func popInst() { if collect { instPath.removeLast() } }
}

/// The compiled, immutable schema program.
struct SchemaProgram: Sendable {
    let nodes: [SchemaNode]
    let root: Int
    let rootURI: String
    let trackAnnotations: Bool
    let dynamicAnchors: [[String: Int]]  // per resource
    let maxDepth: Int

    static func short(_ v: JSONValue) -> String {
        var s = v.serialized()
        if s.count > 60 { s = String(s.prefix(57)) + "..." }
        return s
    }

    static func typeDescription(_ v: JSONValue) -> String {
        if case .number(let n) = v, n.isInteger { return "integer" }
        return v.typeName
    }

    func fail(_ ctx: inout EvalContext, _ node: SchemaNode, _ kw: String, _ message: @autoclosure () -> String) {
        guard ctx.collect else { return }
        var kwLoc = ""
        for t in ctx.kwPath { kwLoc += "/" + JSONPointer.escape(t) }
        let suffix = kw.isEmpty ? "" : "/" + JSONPointer.escape(kw)
        kwLoc += suffix
        let abs = node.absoluteLocation + suffix
        ctx.errors.append(ValidationError(instanceLocation: JSONPointer(tokens: ctx.instPath), keywordLocation: kwLoc,
                                          absoluteKeywordLocation: abs, keyword: kw, message: message()))
    }

    /// Evaluates a subschema in place (same instance location), under keyword path `kw`.
    @inline(__always)
    func sub(_ idx: Int, _ kw: String, _ inst: JSONValue, _ ctx: inout EvalContext, _ ann: inout Annotations) -> Bool {
        ctx.pushKW(kw)
        defer { ctx.popKW() }
        return eval(idx, inst, &ctx, &ann)
    }

    func eval(_ idx: Int, _ inst: JSONValue, _ ctx: inout EvalContext, _ ann: inout Annotations) -> Bool {
        let node = nodes[idx]
        if let b = node.boolean {
            if !b { fail(&ctx, node, "", "no value is allowed here (schema is false)") }
            return b
        }
        if ctx.depth >= ctx.maxDepth {
            fail(&ctx, node, "", "maximum schema evaluation depth exceeded (recursive $ref?)")
            return false
        }
        ctx.depth += 1
        var pushedScope = false
        if ctx.dynScope.last != node.resource { ctx.dynScope.append(node.resource); pushedScope = true }
        defer {
            ctx.depth -= 1
            if pushedScope { ctx.dynScope.removeLast() }
        }
        var valid = true
        if trackAnnotations {
            var local = Annotations()
            for kw in node.keywords {
                if !evalKeyword(kw, node, inst, &ctx, &local) {
                    valid = false
                    if !ctx.collect { return false }
                }
            }
            if valid { ann.merge(local) }
            return valid
        }
        for kw in node.keywords {
            if !evalKeyword(kw, node, inst, &ctx, &ann) {
                valid = false
                if !ctx.collect { return false }
            }
        }
        return valid
    }

    func evalKeyword(_ kw: Keyword, _ node: SchemaNode, _ inst: JSONValue, _ ctx: inout EvalContext, _ ann: inout Annotations) -> Bool {
        let track = trackAnnotations
        switch kw.kind {
        case .type(let mask, let names):
            if mask.matches(inst) { return true }
            let expected = names.count == 1 ? names[0] : names.joined(separator: " or ")
            fail(&ctx, node, kw.name, "expected \(expected), got \(SchemaProgram.typeDescription(inst)) \(SchemaProgram.short(inst))")
            return false
        case .enumeration(let values):
            if values.contains(inst) { return true }
            fail(&ctx, node, kw.name, "value \(SchemaProgram.short(inst)) is not one of \(SchemaProgram.short(.array(values)))")
            return false
        case .const(let v):
            if v == inst { return true }
            fail(&ctx, node, kw.name, "value \(SchemaProgram.short(inst)) must be \(SchemaProgram.short(v))")
            return false
        case .minimum(let m):
            guard case .number(let n) = inst else { return true }
            if n >= m { return true }
            fail(&ctx, node, kw.name, "\(n) is less than the minimum \(m)")
            return false
        case .maximum(let m):
            guard case .number(let n) = inst else { return true }
            if n <= m { return true }
            fail(&ctx, node, kw.name, "\(n) is greater than the maximum \(m)")
            return false
        case .exclusiveMinimum(let m):
            guard case .number(let n) = inst else { return true }
            if n > m { return true }
            fail(&ctx, node, kw.name, "\(n) must be greater than \(m)")
            return false
        case .exclusiveMaximum(let m):
            guard case .number(let n) = inst else { return true }
            if n < m { return true }
            fail(&ctx, node, kw.name, "\(n) must be less than \(m)")
            return false
        case .multipleOf(let m):
            guard case .number(let n) = inst else { return true }
            if n.isMultiple(of: m) { return true }
            fail(&ctx, node, kw.name, "\(n) is not a multiple of \(m)")
            return false
        case .minLength(let m):
            guard case .string(let s) = inst else { return true }
            if s.utf8.count >= m && s.unicodeScalars.count >= m { return true }
            fail(&ctx, node, kw.name, "string is shorter than \(m) character\(m == 1 ? "" : "s")")
            return false
        case .maxLength(let m):
            guard case .string(let s) = inst else { return true }
            if s.utf8.count <= m || s.unicodeScalars.count <= m { return true }
            fail(&ctx, node, kw.name, "string is longer than \(m) character\(m == 1 ? "" : "s")")
            return false
        case .pattern(let re):
            guard case .string(let s) = inst else { return true }
            if re.matches(s) { return true }
            fail(&ctx, node, kw.name, "string \(SchemaProgram.short(inst)) does not match pattern '\(re.source)'")
            return false
        case .format(let name, let assert):
            guard assert, case .string(let s) = inst else { return true }
            if FormatValidators.check(name, s) ?? true { return true }
            fail(&ctx, node, kw.name, "\(SchemaProgram.short(inst)) is not a valid \(name)")
            return false
        case .minItems(let m):
            guard case .array(let a) = inst else { return true }
            if a.count >= m { return true }
            fail(&ctx, node, kw.name, "array has \(a.count) item\(a.count == 1 ? "" : "s"), fewer than the minimum \(m)")
            return false
        case .maxItems(let m):
            guard case .array(let a) = inst else { return true }
            if a.count <= m { return true }
            fail(&ctx, node, kw.name, "array has \(a.count) items, more than the maximum \(m)")
            return false
        case .uniqueItems:
            guard case .array(let a) = inst, a.count > 1 else { return true }
            var seen: [JSONValue: Int] = [:]
            for (i, v) in a.enumerated() {
                if let j = seen[v] {
                    fail(&ctx, node, kw.name, "array items \(j) and \(i) are equal")
                    return false
                }
                seen[v] = i
            }
            return true
        case .minProperties(let m):
            guard case .object(let o) = inst else { return true }
            if o.count >= m { return true }
            fail(&ctx, node, kw.name, "object has \(o.count) propert\(o.count == 1 ? "y" : "ies"), fewer than the minimum \(m)")
            return false
        case .maxProperties(let m):
            guard case .object(let o) = inst else { return true }
            if o.count <= m { return true }
            fail(&ctx, node, kw.name, "object has \(o.count) properties, more than the maximum \(m)")
            return false
        case .required(let names):
            guard case .object(let o) = inst else { return true }
            var ok = true
            for n in names where o[n] == nil {
                ok = false
                fail(&ctx, node, kw.name, "required property '\(n)' is missing")
                if !ctx.collect { return false }
            }
            return ok
        case .dependentRequired(let deps):
            guard case .object(let o) = inst else { return true }
            var ok = true
            for (k, names) in deps where o[k] != nil {
                for n in names where o[n] == nil {
                    ok = false
                    fail(&ctx, node, kw.name, "property '\(n)' is required when '\(k)' is present")
                    if !ctx.collect { return false }
                }
            }
            return ok
        case .properties(let map, _):
            guard case .object(let o) = inst else { return true }
            var ok = true
            ctx.pushKW(kw.name)
            defer { ctx.popKW() }
            // Iterate over the smaller side.
            for key in o.keys {
                guard let si = map[key] else { continue }
                if track { ann.props.insert(key) }
                ctx.pushKW(key); ctx.pushInst(key)
                var childAnn = Annotations()
                let r = eval(si, o[key]!, &ctx, &childAnn)
                ctx.popInst(); ctx.popKW()
                if !r { ok = false; if !ctx.collect { return false } }
            }
            return ok
        case .patternProperties(let pats):
            guard case .object(let o) = inst else { return true }
            var ok = true
            ctx.pushKW(kw.name)
            defer { ctx.popKW() }
            for (re, si) in pats {
                for key in o.keys where re.matches(key) {
                    if track { ann.props.insert(key) }
                    ctx.pushKW(re.source); ctx.pushInst(key)
                    var childAnn = Annotations()
                    let r = eval(si, o[key]!, &ctx, &childAnn)
                    ctx.popInst(); ctx.popKW()
                    if !r { ok = false; if !ctx.collect { return false } }
                }
            }
            return ok
        case .additionalProperties(let si, let names, let pats):
            guard case .object(let o) = inst else { return true }
            var ok = true
            ctx.pushKW(kw.name)
            defer { ctx.popKW() }
            let isFalse = nodes[si].boolean == false
            for key in o.keys where !names.contains(key) && !pats.contains(where: { $0.matches(key) }) {
                if track { ann.props.insert(key) }
                if isFalse {
                    ctx.popKW()
                    fail(&ctx, node, kw.name, "additional property '\(key)' is not allowed")
                    ctx.pushKW(kw.name)
                    ok = false
                    if !ctx.collect { return false }
                    continue
                }
                ctx.pushInst(key)
                var childAnn = Annotations()
                let r = eval(si, o[key]!, &ctx, &childAnn)
                ctx.popInst()
                if !r { ok = false; if !ctx.collect { return false } }
            }
            return ok
        case .propertyNames(let si):
            guard case .object(let o) = inst else { return true }
            var ok = true
            ctx.pushKW(kw.name)
            defer { ctx.popKW() }
            for key in o.keys {
                var childAnn = Annotations()
                let before = ctx.errors.count
                if !eval(si, .string(key), &ctx, &childAnn) {
                    ok = false
                    if !ctx.collect { return false }
                    ctx.errors.removeSubrange(before...)
                    ctx.popKW()
                    fail(&ctx, node, kw.name, "property name '\(key)' is invalid")
                    ctx.pushKW(kw.name)
                }
            }
            return ok
        case .prefixItems(let subs):
            guard case .array(let a) = inst else { return true }
            var ok = true
            ctx.pushKW(kw.name)
            defer { ctx.popKW() }
            let n = min(a.count, subs.count)
            for i in 0..<n {
                ctx.pushKW(String(i)); ctx.pushInst(i)
                var childAnn = Annotations()
                let r = eval(subs[i], a[i], &ctx, &childAnn)
                ctx.popInst(); ctx.popKW()
                if !r { ok = false; if !ctx.collect { return false } }
            }
            if track { ann.itemsPrefix = max(ann.itemsPrefix, n) }
            return ok
        case .items(let si, let start):
            guard case .array(let a) = inst else { return true }
            var ok = true
            ctx.pushKW(kw.name)
            defer { ctx.popKW() }
            let isFalse = nodes[si].boolean == false
            if start < a.count {
                if isFalse {
                    ctx.popKW()
                    fail(&ctx, node, kw.name, "array has \(a.count) items, at most \(start) allowed")
                    ctx.pushKW(kw.name)
                    return false
                }
                for i in start..<a.count {
                    ctx.pushInst(i)
                    var childAnn = Annotations()
                    let r = eval(si, a[i], &ctx, &childAnn)
                    ctx.popInst()
                    if !r { ok = false; if !ctx.collect { return false } }
                }
            }
            if track { ann.allItems = true }
            return ok
        case .contains(let si, let minC, let maxC):
            guard case .array(let a) = inst else { return true }
            var count = 0
            ctx.pushKW(kw.name)
            var matched: Set<Int> = []
            for (i, v) in a.enumerated() {
                let before = ctx.errors.count
                var childAnn = Annotations()
                ctx.pushInst(i)
                let r = eval(si, v, &ctx, &childAnn)
                ctx.popInst()
                if ctx.errors.count > before { ctx.errors.removeSubrange(before...) }
                if r { count += 1; if track { matched.insert(i) } }
                if !track, let maxC, count > maxC { break }
                if !track, maxC == nil, count >= minC, !ctx.collect { break }
            }
            ctx.popKW()
            if track { ann.itemSet.formUnion(matched) }
            if count < minC {
                fail(&ctx, node, kw.name, minC == 1 ? "array does not contain a matching item" : "array contains \(count) matching items, fewer than minContains \(minC)")
                return false
            }
            if let maxC, count > maxC {
                fail(&ctx, node, kw.name, "array contains more than maxContains \(maxC) matching items")
                return false
            }
            return true
        case .allOf(let subs):
            var ok = true
            ctx.pushKW(kw.name)
            defer { ctx.popKW() }
            for (i, s) in subs.enumerated() {
                ctx.pushKW(String(i))
                let r = eval(s, inst, &ctx, &ann)
                ctx.popKW()
                if !r { ok = false; if !ctx.collect { return false } }
            }
            return ok
        case .anyOf(let subs):
            ctx.pushKW(kw.name)
            var any = false
            let before = ctx.errors.count
            for (i, s) in subs.enumerated() {
                var childAnn = Annotations()
                ctx.pushKW(String(i))
                let r = eval(s, inst, &ctx, &childAnn)
                ctx.popKW()
                if r {
                    any = true
                    if track { ann.merge(childAnn) } else { break }
                }
            }
            ctx.popKW()
            if any {
                if ctx.errors.count > before { ctx.errors.removeSubrange(before...) }
                return true
            }
            fail(&ctx, node, kw.name, "value does not match any of the \(subs.count) alternatives in anyOf")
            return false
        case .oneOf(let subs):
            ctx.pushKW(kw.name)
            var matches: [Int] = []
            let before = ctx.errors.count
            var merged = Annotations()
            for (i, s) in subs.enumerated() {
                var childAnn = Annotations()
                ctx.pushKW(String(i))
                let r = eval(s, inst, &ctx, &childAnn)
                ctx.popKW()
                if r {
                    matches.append(i)
                    if track { merged.merge(childAnn) }
                    if matches.count > 1 && !ctx.collect { break }
                }
            }
            ctx.popKW()
            if matches.count == 1 {
                if ctx.errors.count > before { ctx.errors.removeSubrange(before...) }
                if track { ann.merge(merged) }
                return true
            }
            if matches.isEmpty {
                fail(&ctx, node, kw.name, "value does not match any of the \(subs.count) alternatives in oneOf")
            } else {
                if ctx.errors.count > before { ctx.errors.removeSubrange(before...) }
                fail(&ctx, node, kw.name, "value matches more than one alternative in oneOf (indices \(matches.map(String.init).joined(separator: ", ")))")
            }
            return false
        case .not(let s):
            let before = ctx.errors.count
            var childAnn = Annotations()
            ctx.pushKW(kw.name)
            let r = eval(s, inst, &ctx, &childAnn)
            ctx.popKW()
            if ctx.errors.count > before { ctx.errors.removeSubrange(before...) }
            if !r { return true }
            fail(&ctx, node, kw.name, "value must not match the schema in 'not'")
            return false
        case .ifThenElse(let ifS, let thenS, let elseS):
            let before = ctx.errors.count
            var ifAnn = Annotations()
            ctx.pushKW("if")
            let cond = eval(ifS, inst, &ctx, &ifAnn)
            ctx.popKW()
            if ctx.errors.count > before { ctx.errors.removeSubrange(before...) }
            if cond {
                if track { ann.merge(ifAnn) }
                guard let thenS else { return true }
                return sub(thenS, "then", inst, &ctx, &ann)
            } else {
                guard let elseS else { return true }
                return sub(elseS, "else", inst, &ctx, &ann)
            }
        case .dependentSchemas(let deps):
            guard case .object(let o) = inst else { return true }
            var ok = true
            ctx.pushKW(kw.name)
            defer { ctx.popKW() }
            for (k, s) in deps where o[k] != nil {
                ctx.pushKW(k)
                let r = eval(s, inst, &ctx, &ann)
                ctx.popKW()
                if !r { ok = false; if !ctx.collect { return false } }
            }
            return ok
        case .ref(let target):
            return sub(target, kw.name, inst, &ctx, &ann)
        case .dynamicRef(let initial, let anchor):
            var target = initial
            if let anchor {
                for r in ctx.dynScope {
                    if let t = dynamicAnchors[r][anchor] { target = t; break }
                }
            }
            return sub(target, kw.name, inst, &ctx, &ann)
        case .unevaluatedProperties(let si):
            guard case .object(let o) = inst else { return true }
            if ann.allProps { return true }
            var ok = true
            ctx.pushKW(kw.name)
            defer { ctx.popKW() }
            let isFalse = nodes[si].boolean == false
            for key in o.keys where !ann.props.contains(key) {
                if isFalse {
                    ctx.popKW()
                    fail(&ctx, node, kw.name, "unevaluated property '\(key)' is not allowed")
                    ctx.pushKW(kw.name)
                    ok = false
                    if !ctx.collect { return false }
                    continue
                }
                ctx.pushInst(key)
                var childAnn = Annotations()
                let r = eval(si, o[key]!, &ctx, &childAnn)
                ctx.popInst()
                if !r { ok = false; if !ctx.collect { return false } }
            }
            if ok { ann.allProps = true }
            return ok
        case .unevaluatedItems(let si):
            guard case .array(let a) = inst else { return true }
            if ann.allItems { return true }
            var ok = true
            ctx.pushKW(kw.name)
            defer { ctx.popKW() }
            let isFalse = nodes[si].boolean == false
            for i in ann.itemsPrefix..<max(ann.itemsPrefix, a.count) where !ann.itemSet.contains(i) {
                if isFalse {
                    ctx.popKW()
                    fail(&ctx, node, kw.name, "unevaluated item \(i) is not allowed")
                    ctx.pushKW(kw.name)
                    ok = false
                    if !ctx.collect { return false }
                    continue
                }
                ctx.pushInst(i)
                var childAnn = Annotations()
                let r = eval(si, a[i], &ctx, &childAnn)
                ctx.popInst()
                if !r { ok = false; if !ctx.collect { return false } }
            }
            if ok { ann.allItems = true }
            return ok
        }
    }
}
