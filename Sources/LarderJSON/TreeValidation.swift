import Foundation

/// Validation of an encoder's tree (``SortedJSONEncoding``) without building a ``JSONValue`` first: a verdict-only
/// pass over the tree for the keywords Larder's schemas use, compiled once with the schema.
///
/// It answers `true` (valid), `false` (invalid) or nil (a keyword or value it does not model: `unevaluated*`,
/// `$dynamicRef`, an object whose encoding set a key twice). On anything but `true` the caller validates the
/// ``JSONValue`` as before, so the errors, their paths and messages are the full validator's; a valid document —
/// nearly every stage output — costs the tree walk alone. Its verdict equals ``JSONSchema/isValid(_:)`` on the
/// same JSON: `TreeValidationTests` runs the official test suite and mutated results through both.
struct TreeProgram: Sendable {
    /// Per schema node (same indices as ``SchemaProgram/nodes``): nil for a boolean schema.
    let nodes: [[TreeKeyword]?]
    let booleans: [Bool?]
    let root: Int
    let maxDepth: Int

    /// nil when the schema tracks annotations (`unevaluatedProperties`/`Items`): every keyword would then have to
    /// record what it evaluated, which this pass does not do.
    init?(_ program: SchemaProgram) {
        guard !program.trackAnnotations else { return nil }
        nodes = program.nodes.map { node in
            node.boolean == nil ? ObjectShape.merge(node.keywords.map { TreeKeyword($0.kind, program) }) : nil
        }
        booleans = program.nodes.map(\.boolean)
        root = program.root
        maxDepth = program.maxDepth
    }

    func isValid(_ root: SortedJSONNode) -> Bool? {
        eval(self.root, root, depth: 0, ShapeMemo(count: nodes.count))
    }

    private func eval(_ index: Int, _ value: SortedJSONNode, depth: Int, _ memo: ShapeMemo) -> Bool? {
        guard let keywords = nodes[index] else { return booleans[index]! }
        guard depth < maxDepth else { return nil }
        let value = value.resolved
        for keyword in keywords {
            guard let ok = check(keyword, value, depth: depth + 1, memo, node: index) else { return nil }
            if !ok { return false }
        }
        return true
    }

    /// `required`, `properties` and `additionalProperties` of one schema node on an object: what they ask of its
    /// keys is worked out once per key list (objects of one type nearly always have the same keys) and kept in
    /// `memo`, then each member is checked against the subschema its key gets.
    private func checkShape(_ shape: ObjectShape, _ value: SortedJSONNode, depth: Int, _ memo: ShapeMemo, node: Int) -> Bool? {
        guard case .object(let object) = value else { return true }
        if object.hasRepeatedKeys { return nil }
        let plan: ObjectShape.Plan
        if let entry = memo.entries[node], entry.keys == object.keys {
            plan = entry.plan
        } else {
            plan = shape.plan(object.keys)
            memo.entries[node] = (object.keys, plan)
        }
        guard plan.requiredHeld else { return false }
        for (schema, member) in zip(plan.schemas, object.values) where schema >= 0 {
            guard let ok = eval(schema, member, depth: depth, memo) else { return nil }
            if !ok { return false }
        }
        return true
    }

    private func check(_ keyword: TreeKeyword, _ value: SortedJSONNode, depth: Int, _ memo: ShapeMemo, node: Int) -> Bool? {
        switch keyword {
        case .shape(let shape): return checkShape(shape, value, depth: depth, memo, node: node)
        case .type(let mask): return value.matches(mask)
        case .stringEnum(let strings):
            guard case .string(let text) = value else { return false }
            let count = text.utf8.count
            return strings.contains { $0.utf8.count == count && $0.utf8.elementsEqual(text.utf8) }
        case .bound(let kind, let bound): return value.holds(kind, bound)
        case .assertion(let kind): return value.assertionHolds(kind)
        case .required(let names):
            guard case .object(let object) = value else { return true }
            if object.hasRepeatedKeys { return nil }
            return names.allSatisfy(object.keys.contains)
        case .properties(let map):
            guard case .object(let object) = value else { return true }
            if object.hasRepeatedKeys { return nil }
            for (key, member) in zip(object.keys, object.values) {
                guard let schema = map[key] else { continue }
                guard let ok = eval(schema, member, depth: depth, memo) else { return nil }
                if !ok { return false }
            }
            return true
        case .additionalProperties(let schema, let names, let patterns):
            guard case .object(let object) = value else { return true }
            if object.hasRepeatedKeys { return nil }
            for (key, member) in zip(object.keys, object.values)
            where !names.contains(key) && !patterns.contains(where: { $0.matches(key) }) {
                guard let ok = eval(schema, member, depth: depth, memo) else { return nil }
                if !ok { return false }
            }
            return true
        case .items(let schema, let start):
            guard case .array(let array) = value else { return true }
            for item in array.items.dropFirst(start) {
                guard let ok = eval(schema, item, depth: depth, memo) else { return nil }
                if !ok { return false }
            }
            return true
        case .prefixItems(let schemas):
            guard case .array(let array) = value else { return true }
            for (schema, item) in zip(schemas, array.items) {
                guard let ok = eval(schema, item, depth: depth, memo) else { return nil }
                if !ok { return false }
            }
            return true
        case .count(let kind):
            switch value {
            case .array(let array): return kind.holds(array: array.items.count)
            case .object(let object):
                if object.hasRepeatedKeys { return nil }
                return kind.holds(object: object.keys.count)
            default: return true
            }
        case .allOf(let schemas): return all(schemas, value, depth: depth, memo)
        case .anyOf(let schemas):
            for schema in schemas {
                guard let ok = eval(schema, value, depth: depth, memo) else { return nil }
                if ok { return true }
            }
            return false
        case .oneOf(let schemas):
            var matches = 0
            for schema in schemas {
                guard let ok = eval(schema, value, depth: depth, memo) else { return nil }
                if ok { matches += 1 }
                if matches > 1 { return false }
            }
            return matches == 1
        case .not(let schema): return eval(schema, value, depth: depth, memo).map { !$0 }
        case .ifThenElse(let condition, let then, let otherwise):
            guard let holds = eval(condition, value, depth: depth, memo) else { return nil }
            guard let next = holds ? then : otherwise else { return true }
            return eval(next, value, depth: depth, memo)
        case .ref(let schema): return eval(schema, value, depth: depth, memo)
        case .unmodelled: return nil
        }
    }

    private func all(_ schemas: [Int], _ value: SortedJSONNode, depth: Int, _ memo: ShapeMemo) -> Bool? {
        for schema in schemas {
            guard let ok = eval(schema, value, depth: depth, memo) else { return nil }
            if !ok { return false }
        }
        return true
    }
}

/// Per schema node, the last key list an object had there and what the node's ``ObjectShape`` asks of it; one per
/// validation (the program itself is shared by threads).
final class ShapeMemo {
    var entries: [(keys: [String], plan: ObjectShape.Plan)?]

    init(count: Int) { entries = Array(repeating: nil, count: count) }
}

/// A schema node's `required`, `properties` and `additionalProperties` together, so an object's keys are looked up
/// once (not once per keyword) and only once per key list (``ShapeMemo``).
final class ObjectShape: Sendable {
    let required: [String]
    let properties: [String: Int]
    /// `additionalProperties`' schema with the names and patterns whose keys it skips.
    let additional: (schema: Int, names: Set<String>, patterns: [ECMARegex])?

    /// What the keywords ask of one key list: whether the required keys are there, and per key the subschema its
    /// member is checked against (-1: none).
    struct Plan {
        let requiredHeld: Bool
        let schemas: [Int]
    }

    init(required: [String], properties: [String: Int], additional: (schema: Int, names: Set<String>, patterns: [ECMARegex])?) {
        self.required = required
        self.properties = properties
        self.additional = additional
    }

    func plan(_ keys: [String]) -> Plan {
        let schemas = keys.map { key -> Int in
            if let schema = properties[key] { return schema }
            guard let additional, !additional.names.contains(key), !additional.patterns.contains(where: { $0.matches(key) })
            else { return -1 }
            return additional.schema
        }
        return Plan(requiredHeld: required.allSatisfy(keys.contains), schemas: schemas)
    }

    /// A node's keywords with its `required`, `properties` and `additionalProperties` as one ``TreeKeyword/shape(_:)``
    /// where the first of them was. A member whose key `properties` names gets only that schema: the compiler gives
    /// `additionalProperties` the same schema object's property names, so it skips them.
    static func merge(_ keywords: [TreeKeyword]) -> [TreeKeyword] {
        var required: [String] = []
        var properties: [String: Int] = [:]
        var additional: (schema: Int, names: Set<String>, patterns: [ECMARegex])?
        var first: Int?
        var rest: [TreeKeyword] = []
        for keyword in keywords {
            switch keyword {
            case .required(let names): required += names
            case .properties(let map): properties.merge(map) { a, _ in a }
            case .additionalProperties(let schema, let names, let patterns): additional = (schema, names, patterns)
            default:
                rest.append(keyword)
                continue
            }
            if first == nil { first = rest.count }
        }
        guard let first else { return keywords }
        guard additional.map({ Set(properties.keys).isSubset(of: $0.names) }) ?? true,
            keywords.count { if case .properties = $0 { true } else { false } } <= 1
        else { return keywords }
        rest.insert(.shape(ObjectShape(required: required, properties: properties, additional: additional)), at: first)
        return rest
    }
}

/// One keyword as the tree pass checks it.
enum TreeKeyword: Sendable {
    /// `required`, `properties` and `additionalProperties` of one node (``ObjectShape``).
    case shape(ObjectShape)
    case type(TypeMask)
    /// An `enum` of strings only: compared by UTF-8 bytes, as ``JSONValue``'s equality does.
    case stringEnum([String])
    /// `minimum`, `maximum` and the exclusive ones, with a bound a `Double` holds exactly (see ``BoundKind``).
    case bound(BoundKind, Double)
    /// Any other assertion: the value (a scalar, or a container made into a ``JSONValue``) checked as before.
    case assertion(KeywordKind)
    case required([String])
    case properties([String: Int])
    case additionalProperties(Int, Set<String>, [ECMARegex])
    case items(Int, start: Int)
    case prefixItems([Int])
    /// `minItems`/`maxItems`/`minProperties`/`maxProperties`.
    case count(CountKind)
    case allOf([Int]), anyOf([Int]), oneOf([Int])
    case not(Int)
    case ifThenElse(Int, then: Int?, else: Int?)
    case ref(Int)
    /// A keyword the pass leaves to the full validator (`$dynamicRef`, `contains`, `patternProperties`, …).
    case unmodelled

    init(_ kind: KeywordKind, _ program: SchemaProgram) {
        switch kind {
        case .type(let mask, _): self = .type(mask)
        case .enumeration(let values):
            let strings = values.compactMap { value -> String? in
                if case .string(let text) = value { return text }
                return nil
            }
            self = strings.count == values.count ? .stringEnum(strings) : .assertion(kind)
        case .minimum(let n): self = BoundKind.minimum.keyword(n, kind)
        case .maximum(let n): self = BoundKind.maximum.keyword(n, kind)
        case .exclusiveMinimum(let n): self = BoundKind.exclusiveMinimum.keyword(n, kind)
        case .exclusiveMaximum(let n): self = BoundKind.exclusiveMaximum.keyword(n, kind)
        case .const, .multipleOf, .minLength, .maxLength, .pattern, .format, .uniqueItems: self = .assertion(kind)
        case .minItems(let n): self = .count(.minItems(n))
        case .maxItems(let n): self = .count(.maxItems(n))
        case .minProperties(let n): self = .count(.minProperties(n))
        case .maxProperties(let n): self = .count(.maxProperties(n))
        case .required(let names): self = .required(names)
        case .properties(let map, _): self = .properties(map)
        case .additionalProperties(let schema, let names, let patterns):
            self = .additionalProperties(schema, names, patterns)
        case .items(let schema, let start): self = .items(schema, start: start)
        case .prefixItems(let schemas): self = .prefixItems(schemas)
        case .allOf(let schemas): self = .allOf(schemas)
        case .anyOf(let schemas): self = .anyOf(schemas)
        case .oneOf(let schemas): self = .oneOf(schemas)
        case .not(let schema): self = .not(schema)
        case .ifThenElse(let condition, let then, let otherwise): self = .ifThenElse(condition, then: then, else: otherwise)
        case .ref(let schema): self = .ref(schema)
        case .dependentRequired, .patternProperties, .propertyNames, .contains, .dependentSchemas, .dynamicRef,
            .unevaluatedProperties, .unevaluatedItems:
            self = .unmodelled
        }
    }
}

/// A numeric bound compared as `Double`s. Exact when the bound's `Double` prints back as the bound itself: a
/// finite `Double` instance is then below, at or above the bound exactly when its shortest decimal (what
/// ``JSONNumber/init(_:)-(Double)`` keeps) is, since shortest decimals keep the order of the doubles they round to;
/// integers are taken as `Double`s only below 2^53, where they are exact. Other bounds stay ``TreeKeyword/assertion(_:)``.
enum BoundKind: Sendable {
    case minimum, maximum, exclusiveMinimum, exclusiveMaximum

    func keyword(_ bound: JSONNumber, _ kind: KeywordKind) -> TreeKeyword {
        let double = bound.doubleValue
        guard double.isFinite, JSONNumber(double) == bound else { return .assertion(kind) }
        return .bound(self, double)
    }

    func holds(_ value: Double, _ bound: Double) -> Bool {
        switch self {
        case .minimum: value >= bound
        case .maximum: value <= bound
        case .exclusiveMinimum: value > bound
        case .exclusiveMaximum: value < bound
        }
    }
}

enum CountKind: Sendable {
    case minItems(Int), maxItems(Int), minProperties(Int), maxProperties(Int)

    func holds(array count: Int) -> Bool {
        switch self {
        case .minItems(let n): count >= n
        case .maxItems(let n): count <= n
        case .minProperties, .maxProperties: true
        }
    }

    func holds(object count: Int) -> Bool {
        switch self {
        case .minProperties(let n): count >= n
        case .maxProperties(let n): count <= n
        case .minItems, .maxItems: true
        }
    }
}

extension SortedJSONNode {
    /// What a `deferred` node (a super encoder) holds, as the writer reads it.
    var resolved: SortedJSONNode {
        switch self {
        case .deferred(let encoder): (encoder.current() ?? .object(SortedJSONObject())).resolved
        case .reused(let reused): reused.node.resolved
        default: self
        }
    }

    func matches(_ mask: TypeMask) -> Bool {
        switch self {
        case .null: mask.contains(.null)
        case .bool: mask.contains(.boolean)
        case .int, .uint: mask.contains(.number) || mask.contains(.integer)
        case .double(let value): mask.contains(.number) || (mask.contains(.integer) && value.rounded(.towardZero) == value)
        case .number(let text):
            mask.contains(.number) || (mask.contains(.integer) && (JSONNumber(literal: text)?.isInteger ?? false))
        case .string: mask.contains(.string)
        case .array: mask.contains(.array)
        case .object: mask.contains(.object)
        case .deferred, .reused: resolved.matches(mask)
        }
    }

    /// Whether a numeric bound holds: compared as `Double`s when the value is one exactly (see ``BoundKind``), nil
    /// for a number that is not (an integer past 2^53, a `Float` or `Decimal`: the full validator compares those),
    /// true for a value that is not a number (the bound does not apply).
    func holds(_ kind: BoundKind, _ bound: Double) -> Bool? {
        switch self {
        case .int(let value) where value.magnitude < 1 << 53: kind.holds(Double(value), bound)
        case .uint(let value) where value < 1 << 53: kind.holds(Double(value), bound)
        case .double(let value): kind.holds(value, bound)
        case .int, .uint, .number: nil
        default: true
        }
    }

    private var jsonNumber: JSONNumber? {
        switch self {
        case .int(let value): JSONNumber(value)
        case .uint(let value): JSONNumber(value)
        case .double(let value): JSONNumber(value)
        case .number(let text): JSONNumber(literal: text)
        default: nil
        }
    }

    /// An assertion that is not a numeric bound: on a scalar (no tree to build), or on a container made into a
    /// ``JSONValue`` (`const`/`enum`/`uniqueItems` on objects and arrays: rare).
    func assertionHolds(_ kind: KeywordKind) -> Bool? {
        let value: JSONValue
        switch self {
        case .null: value = .null
        case .bool(let flag): value = .bool(flag)
        case .string(let text): value = .string(text)
        case .int, .uint, .double, .number:
            guard let number = jsonNumber else { return nil }
            value = .number(number)
        case .array, .object, .deferred, .reused:
            value = SortedJSONEncoding.value(of: self)
        }
        return SchemaProgram.assertionFailure(kind, value) == nil
    }
}
