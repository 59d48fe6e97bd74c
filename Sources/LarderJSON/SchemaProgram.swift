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

    /// Evaluates one keyword of `node` against `inst`: assertions report at most one message, applicators
    /// evaluate subschemas (see SchemaProgram+Applicators.swift).
    func evalKeyword(_ kw: Keyword, _ node: SchemaNode, _ inst: JSONValue, _ ctx: inout EvalContext, _ ann: inout Annotations) -> Bool {
        switch kw.kind {
        case .type, .enumeration, .const, .minimum, .maximum, .exclusiveMinimum, .exclusiveMaximum, .multipleOf,
             .minLength, .maxLength, .pattern, .format, .minItems, .maxItems, .uniqueItems, .minProperties,
             .maxProperties:
            guard let message = SchemaProgram.assertionFailure(kw.kind, inst) else { return true }
            fail(&ctx, node, kw.name, message)
            return false
        case .required(let names):
            return evalRequired(names, kw, node, inst, &ctx)
        case .dependentRequired(let deps):
            return evalDependentRequired(deps, kw, node, inst, &ctx)
        case .properties(let map, _):
            return evalProperties(map, kw, inst, &ctx, &ann)
        case .patternProperties(let pats):
            return evalPatternProperties(pats, kw, inst, &ctx, &ann)
        case .additionalProperties(let si, let names, let pats):
            return evalAdditionalProperties(si, names, pats, kw, node, inst, &ctx, &ann)
        case .propertyNames(let si):
            return evalPropertyNames(si, kw, node, inst, &ctx)
        case .prefixItems(let subs):
            return evalPrefixItems(subs, kw, inst, &ctx, &ann)
        case .items(let si, let start):
            return evalItems(si, start, kw, node, inst, &ctx, &ann)
        case .contains(let si, let minC, let maxC):
            return evalContains(si, minC, maxC, kw, node, inst, &ctx, &ann)
        case .allOf(let subs):
            return evalAllOf(subs, kw, inst, &ctx, &ann)
        case .anyOf(let subs):
            return evalAnyOf(subs, kw, node, inst, &ctx, &ann)
        case .oneOf(let subs):
            return evalOneOf(subs, kw, node, inst, &ctx, &ann)
        case .not(let s):
            return evalNot(s, kw, node, inst, &ctx)
        case .ifThenElse(let ifS, let thenS, let elseS):
            return evalIfThenElse(ifS, thenS, elseS, inst, &ctx, &ann)
        case .dependentSchemas(let deps):
            return evalDependentSchemas(deps, kw, inst, &ctx, &ann)
        case .ref(let target):
            return sub(target, kw.name, inst, &ctx, &ann)
        case .dynamicRef(let initial, let anchor):
            return sub(dynamicTarget(initial, anchor, ctx), kw.name, inst, &ctx, &ann)
        case .unevaluatedProperties(let si):
            return evalUnevaluatedProperties(si, kw, node, inst, &ctx, &ann)
        case .unevaluatedItems(let si):
            return evalUnevaluatedItems(si, kw, node, inst, &ctx, &ann)
        }
    }
}
