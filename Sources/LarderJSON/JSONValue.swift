import Foundation

/// A JSON value.
///
/// Objects keep the order of their keys (for printing) but compare as unordered maps;
/// numbers are exact decimals (``JSONNumber``), so `1.0 == 1` and big integers survive.
///
/// Equality is exact JSON equality: strings compare by Unicode scalars (no canonical
/// equivalence, so `"é"` ≠ `"e\u{301}"`), numbers by value, objects ignore key order.
/// Limitation: object *keys* are stored in a Swift `Dictionary`, which treats canonically
/// equivalent keys as the same key.
public enum JSONValue: Sendable, Hashable {
    /// `null`
    case null
    /// `true` / `false`
    case bool(Bool)
    /// A number (exact decimal).
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object with ordered keys.
    case object(JSONObject)

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a.utf8.elementsEqual(b.utf8)
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)): return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(1); hasher.combine(b)
        case .number(let n): hasher.combine(2); hasher.combine(n)
        case .string(let s): hasher.combine(3); hasher.combine(s)
        case .array(let a): hasher.combine(4); hasher.combine(a)
        case .object(let o): hasher.combine(5); hasher.combine(o)
        }
    }

    /// Creates a number value from an integer.
    public static func int<I: BinaryInteger>(_ v: I) -> JSONValue { .number(JSONNumber(v)) }
    /// Creates a number value from a `Double` (`null` for NaN/infinity, which JSON cannot hold).
    public static func double(_ v: Double) -> JSONValue { JSONNumber(v).map(JSONValue.number) ?? .null }

    /// The JSON type name: "null", "boolean", "number", "string", "array" or "object".
    /// (Integers report "number"; use ``isInteger`` to distinguish.)
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// `true` for numbers without fractional part (`1.0` included).
    public var isInteger: Bool { if case .number(let n) = self { return n.isInteger }; return false }
    /// `true` for `.null`.
    public var isNull: Bool { if case .null = self { return true }; return false }
    /// The Boolean payload, if any.
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    /// The string payload, if any.
    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    /// The number payload, if any.
    public var numberValue: JSONNumber? { if case .number(let n) = self { return n }; return nil }
    /// The number as `Double`, if this is a number.
    public var doubleValue: Double? { numberValue?.doubleValue }
    /// The number as `Int`, if this is an integer that fits.
    public var intValue: Int? { numberValue?.intValue }
    /// The array payload, if any.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    /// The object payload, if any.
    public var objectValue: JSONObject? { if case .object(let o) = self { return o }; return nil }

    /// Member lookup for objects (`nil` for other types or missing keys).
    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    /// Element lookup for arrays (`nil` for other types or out-of-range indices).
    public subscript(index: Int) -> JSONValue? {
        if case .array(let a) = self, index >= 0, index < a.count { return a[index] }
        return nil
    }
}

/// A JSON object: string keys in insertion order, compared and hashed as an unordered map.
///
/// Setting an existing key keeps its position; setting a new key appends it.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// Keys in order.
    public private(set) var keys: [String]
    /// Key → value storage.
    public private(set) var dictionary: [String: JSONValue]

    /// `true` when the parser saw the same key more than once in this object's source text
    /// (the last value won). Not part of equality. JSON Patch rejects such operations.
    public internal(set) var hadDuplicateKeys = false

    /// An empty object.
    public init() { keys = []; dictionary = [:] }

    /// Creates an object from ordered pairs; a later duplicate key replaces the earlier value
    /// but keeps the first position.
    public init<S: Sequence>(_ pairs: S) where S.Element == (String, JSONValue) {
        self.init()
        for (k, v) in pairs { self[k] = v }
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }

    /// Number of members.
    public var count: Int { keys.count }
    /// `true` when there are no members.
    public var isEmpty: Bool { keys.isEmpty }

    /// Gets, sets (appending new keys) or removes (with `nil`) a member.
    public subscript(key: String) -> JSONValue? {
        get { dictionary[key] }
        set {
            if let v = newValue {
                if dictionary.updateValue(v, forKey: key) == nil { keys.append(key) }
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Removes a member, returning its value.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let old = dictionary.removeValue(forKey: key) else { return nil }
        if let i = keys.lastIndex(of: key) { keys.remove(at: i) }
        return old
    }

    /// Members in key order.
    public func makeIterator() -> AnyIterator<(key: String, value: JSONValue)> {
        var i = 0
        let keys = self.keys, dict = self.dictionary
        return AnyIterator {
            guard i < keys.count else { return nil }
            defer { i += 1 }
            return (keys[i], dict[keys[i]]!)
        }
    }

    public static func == (a: JSONObject, b: JSONObject) -> Bool { a.dictionary == b.dictionary }
    public func hash(into hasher: inout Hasher) { hasher.combine(dictionary) }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text.
    public var description: String { serialized() }
}

// MARK: - Codable bridging

extension JSONValue {
    /// Converts any `Encodable` value to a `JSONValue` (via `JSONEncoder`, then the strict parser,
    /// so key order and integer/float distinction follow the encoder's output).
    public init<T: Encodable>(encoding value: T, encoder: JSONEncoder = JSONEncoder()) throws {
        let data = try encoder.encode(value)
        try self.init(parsing: data)
    }

    /// Decodes a `Decodable` type from this value (via serialization and `JSONDecoder`).
    public func decode<T: Decodable>(_ type: T.Type = T.self, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(T.self, from: serializedData())
    }
}

extension JSONValue: Codable {
    /// Decodes any JSON from a `Decoder` (numbers go through `Int64`/`UInt64`/`Double`/`Decimal`).
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null; return }
        if let b = try? c.decode(Bool.self) { self = .bool(b); return }
        if let i = try? c.decode(Int64.self) { self = .int(i); return }
        if let u = try? c.decode(UInt64.self) { self = .int(u); return }
        if let d = try? c.decode(Decimal.self), let n = JSONNumber(literal: "\(d)") { self = .number(n); return }
        if let d = try? c.decode(Double.self) { self = .double(d); return }
        if let s = try? c.decode(String.self) { self = .string(s); return }
        if let a = try? c.decode([JSONValue].self) { self = .array(a); return }
        if let o = try? c.decode([String: JSONValue].self) {
            self = .object(JSONObject(o.keys.sorted().map { ($0, o[$0]!) })); return
        }
        throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a JSON value")
    }

    /// Encodes the value (integers as `Int64`/`UInt64` when they fit, other numbers as `Double`).
    public func encode(to encoder: Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer(); try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer(); try c.encode(b)
        case .number(let n):
            var c = encoder.singleValueContainer()
            if let i = n.intValue { try c.encode(i) }
            else if n.isInteger, !n.isNegative, let u = UInt64(n.description) { try c.encode(u) }
            else { try c.encode(n.doubleValue) }
        case .string(let s):
            var c = encoder.singleValueContainer(); try c.encode(s)
        case .array(let a):
            var c = encoder.unkeyedContainer()
            for v in a { try c.encode(v) }
        case .object(let o):
            var c = encoder.container(keyedBy: AnyKey.self)
            for (k, v) in o { try c.encode(v, forKey: AnyKey(k)) }
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }
}
