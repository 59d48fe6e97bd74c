import Foundation

/// Encodes an `Encodable` value as compact JSON with sorted keys, byte for byte what Foundation's `JSONEncoder`
/// writes with `outputFormatting = [.sortedKeys, .withoutEscapingSlashes]` (swift-foundation, Linux), in a
/// fraction of its instructions. Every stage output is stored in this form, so the two must never differ; the
/// tests compare them over every contract type.
///
/// Foundation's rules it follows (`FoundationEssentials/JSON/JSONEncoder.swift`, `JSONWriter.swift`):
/// - keys sorted by their UTF-8 bytes; a key set twice keeps its last value;
/// - strings escape `"`, `\` and the control characters below U+0020 (`\b \f \n \r \t`, else `\u00xx` in lower-case
///   hex); `/` only when `escapesSlashes` is set; nothing else (U+007F, U+2028 stay as they are);
/// - `Double`/`Float` as their `description` without a trailing `.0`; NaN and infinities are an error;
///   integers as their `description`; `Decimal` as its `description`; `URL` as its `absoluteString`; `Data` as
///   Base64; `Date` as its own encoding (seconds since 2001, a `Double`);
/// - a value that encodes nothing is `{}` inside a container and an error at the top level.
///
/// Not `Sendable`-relevant: each call builds its own tree, so one encoder value can be used from several threads.
public struct SortedJSONEncoder: Sendable {
    /// Escape `/` as `\/` (Foundation's default, which `.withoutEscapingSlashes` turns off).
    public var escapesSlashes: Bool

    public init(escapesSlashes: Bool = false) {
        self.escapesSlashes = escapesSlashes
    }

    /// The JSON text as UTF-8 bytes.
    public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        var writer = SortedJSONWriter(escapesSlashes: escapesSlashes)
        writer.write(try Self.tree(of: value))
        return writer.bytes
    }

    /// The JSON text.
    public func encodeToString<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encode(value), as: UTF8.self)
    }

    /// The JSON text, and the encoded tree for a ``JSONValue`` of the same JSON without parsing the text (what a
    /// schema validates).
    ///
    /// `reusing`: values another encoding already holds (``SortedJSONReuse``); where `value` encodes one of them —
    /// the same array storage — the other encoding's tree and bytes are taken as they are instead of encoding it
    /// again. The text is the same either way.
    public func encodeWithTree<T: Encodable>(_ value: T, reusing reuse: [SortedJSONReuse] = []) throws -> SortedJSONEncoding {
        let root = try Self.tree(of: value, reusing: reuse)
        var writer = SortedJSONWriter(escapesSlashes: escapesSlashes)
        let members = writer.writeRoot(root)
        return SortedJSONEncoding(
            text: String(decoding: writer.bytes, as: UTF8.self), root: root, memberRanges: members,
            escapesSlashes: escapesSlashes)
    }

    static func tree<T: Encodable>(of value: T, reusing reuse: [SortedJSONReuse] = []) throws -> SortedJSONNode {
        let state = SortedEncoderState()
        state.reuse = reuse
        guard let node = try state.box(value) else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        return node
    }
}

/// An encoding's text and its tree. Immutable once made (the tree is only read), so it can cross threads.
public final class SortedJSONEncoding: @unchecked Sendable {
    /// The JSON text (``SortedJSONEncoder``'s output).
    public let text: String
    let root: SortedJSONNode
    /// When `root` is an object: where each member's value (by the index of its key in the object) is in `text`'s
    /// UTF-8; an empty range for a key set twice whose value the text does not hold.
    let memberRanges: [Range<Int>]
    let escapesSlashes: Bool

    init(text: String, root: SortedJSONNode, memberRanges: [Range<Int>], escapesSlashes: Bool) {
        self.text = text
        self.root = root
        self.memberRanges = memberRanges
        self.escapesSlashes = escapesSlashes
    }

    /// The JSON as a ``JSONValue``: equal to `JSONValue(parsing: text)`, objects' keys in the text's (sorted)
    /// order, without reading the text again.
    public func jsonValue() -> JSONValue { Self.value(of: root) }

    static func value(of node: SortedJSONNode) -> JSONValue {
        switch node {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .int(let value): return .number(JSONNumber(value))
        case .uint(let value): return .number(JSONNumber(value))
        case .double(let value): return .number(JSONNumber(value)!)  // finite: checked when encoded
        case .number(let text): return JSONNumber(literal: text).map(JSONValue.number) ?? .null
        case .string(let text): return .string(text)
        case .array(let array): return .array(array.items.map(value(of:)))
        case .object(let object):
            var members = JSONObject()
            for i in SortedJSONWriter.uniqueSortedOrder(object.keys) { members[object.keys[i]] = value(of: object.values[i]) }
            return .object(members)
        case .deferred(let encoder): return value(of: encoder.current() ?? .object(SortedJSONObject()))
        case .reused(let reused): return value(of: reused.node)
        }
    }
}

/// An array another encoding holds (a member of its top-level object), for ``SortedJSONEncoder/encodeWithTree(_:reusing:)``:
/// where the new value encodes an array with the same storage (the same elements, not a copy that was changed), the
/// encoder takes that encoding's tree and its bytes instead of encoding the elements again. Identity, not `==`, decides:
/// equal values can still encode differently (`-0.0 == 0.0`).
public struct SortedJSONReuse: @unchecked Sendable {
    let type: ObjectIdentifier
    /// Whether the value at the pointer (of type `type`) has the kept array's storage.
    let holdsSame: (UnsafeRawPointer) -> Bool
    let reused: SortedJSONReused

    /// `array` as `encoding` holds it under `key` of its top-level object; nil when `encoding` has no such member
    /// or the member is not an array of `array`'s count. The caller vouches that `encoding` encoded `array` there
    /// (a stage's output value and its encoding, made together).
    public init?<Element: Encodable>(_ array: [Element], in encoding: SortedJSONEncoding, member key: String) {
        guard case .object(let root) = encoding.root, !root.hasRepeatedKeys, let i = root.keys.lastIndex(of: key),
            case .array(let node) = root.values[i], node.items.count == array.count, i < encoding.memberRanges.count
        else { return nil }
        type = ObjectIdentifier([Element].self)
        holdsSame = { pointer in
            let other = pointer.assumingMemoryBound(to: [Element].self)
            return other.pointee.count == array.count
                && other.pointee.withUnsafeBufferPointer { theirs in
                    array.withUnsafeBufferPointer { $0.baseAddress == theirs.baseAddress }
                }
        }
        reused = SortedJSONReused(
            node: .array(node), text: encoding.text, range: encoding.memberRanges[i],
            escapesSlashes: encoding.escapesSlashes)
    }
}

/// A node taken from another encoding, with the bytes that encoding wrote for it.
final class SortedJSONReused {
    let node: SortedJSONNode
    let text: String
    let range: Range<Int>
    let escapesSlashes: Bool

    init(node: SortedJSONNode, text: String, range: Range<Int>, escapesSlashes: Bool) {
        self.node = node
        self.text = text
        self.range = range
        self.escapesSlashes = escapesSlashes
    }
}

// MARK: - The tree an encoding builds

/// One encoded value. Containers are references: a container handed out by the `Encoder` API keeps writing into
/// its node after the call that made it returned.
enum SortedJSONNode {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    /// A finite `Double`, written as its `description` without a trailing `.0`.
    case double(Double)
    /// Number text as Foundation writes it (`Float`, `Decimal`).
    case number(String)
    case string(String)
    case array(SortedJSONArray)
    case object(SortedJSONObject)
    /// What an encoder made (a `superEncoder()`), read when the tree is written; `{}` when it made nothing.
    case deferred(SortedEncoderState)
    /// A value another encoding holds (``SortedJSONReuse``): its node, written as the bytes that encoding wrote.
    case reused(SortedJSONReused)
}

final class SortedJSONArray {
    var items: [SortedJSONNode]

    init(items: [SortedJSONNode] = []) {
        self.items = items
    }

    func append(_ node: SortedJSONNode) { items.append(node) }
}

final class SortedJSONObject {
    var keys: [String] = []
    var values: [SortedJSONNode] = []
    /// The `CodingKey` type the keys came from, when they all came from one: its sorted order is worked out once
    /// per encoding (``SortedJSONWriter``).
    let keyType: ObjectIdentifier?
    /// Set by the writer when a key was set twice (the text keeps the last value): the tree validator leaves such
    /// an object to the full validator (``TreeProgram``). The tree is validated only after it was written.
    var hasRepeatedKeys = false

    init(keyType: ObjectIdentifier? = nil) {
        self.keyType = keyType
        keys.reserveCapacity(8)
        values.reserveCapacity(8)
    }

    /// An object whose members are all known (``SortedJSONBuilder``'s: each key once, in UTF-8 byte order).
    init(keys: [String], values: [SortedJSONNode]) {
        keyType = nil
        self.keys = keys
        self.values = values
    }

    /// Sets `key`. A key set twice is written once, with the last value (Foundation keeps a dictionary); the
    /// writer drops the earlier one, so setting stays O(1).
    func set(_ node: SortedJSONNode, for key: String) {
        keys.append(key)
        values.append(node)
    }

    /// The object under `key`, made when missing (or when `key` held a plain value), as Foundation does.
    func nestedObject(for key: String, keyType: ObjectIdentifier) -> SortedJSONObject {
        if let i = keys.lastIndex(of: key), case .object(let existing) = values[i] { return existing }
        let object = SortedJSONObject(keyType: keyType)
        set(.object(object), for: key)
        return object
    }

    /// The array under `key`, made when missing (or when `key` held a plain value).
    func nestedArray(for key: String) -> SortedJSONArray {
        if let i = keys.lastIndex(of: key), case .array(let existing) = values[i] { return existing }
        let array = SortedJSONArray()
        set(.array(array), for: key)
        return array
    }
}

// MARK: - Encoder

/// The `Encoder` the values see: holds what one value encoded (a single value, or the one container it asked for).
final class SortedEncoderState: Encoder {
    private(set) var single: SortedJSONNode?
    private(set) var object: SortedJSONObject?
    private(set) var array: SortedJSONArray?
    /// Where this encoder sits, for `codingPath` (only errors and custom `encode(to:)` methods read it).
    private var parent: SortedEncoderState?
    private var key: (any CodingKey)?
    /// An encoder for nested values, reused from value to value (as Foundation does).
    private var spare: SortedEncoderState?
    /// Values other encodings hold (``SortedJSONReuse``), passed down to nested encoders; empty nearly always.
    var reuse: [SortedJSONReuse] = []

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(parent: SortedEncoderState? = nil, key: (any CodingKey)? = nil) {
        self.parent = parent
        self.key = key
        if let parent, !parent.reuse.isEmpty { reuse = parent.reuse }
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var encoder: SortedEncoderState? = self
        while let current = encoder {
            if let key = current.key { path.append(key) }
            encoder = current.parent
        }
        return path.reversed()
    }

    /// What this encoder holds.
    func current() -> SortedJSONNode? {
        if let object { return .object(object) }
        if let array { return .array(array) }
        return single
    }

    /// What this encoder holds, emptied for reuse.
    func take() -> SortedJSONNode? {
        defer { (single, object, array) = (nil, nil, nil) }
        return current()
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if object == nil {
            precondition(single == nil && array == nil, "a keyed container after another value at this path")
            object = SortedJSONObject(keyType: ObjectIdentifier(Key.self))
        }
        return KeyedEncodingContainer(SortedKeyedContainer<Key>(encoder: self, object: object!))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if array == nil {
            precondition(single == nil && object == nil, "an unkeyed container after another value at this path")
            array = SortedJSONArray()
        }
        return SortedUnkeyedContainer(encoder: self, array: array!)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SortedSingleValueContainer(encoder: self) }

    func setSingle(_ node: SortedJSONNode) {
        precondition(single == nil, "a second value through a single value container")
        single = node
    }

    /// A new encoder whose value is read when the tree is written (`superEncoder()`).
    func deferredEncoder(key: any CodingKey) -> SortedEncoderState {
        SortedEncoderState(parent: self, key: key)
    }
}

extension SortedEncoderState {
    /// Encodes one value: the types Foundation treats specially, the primitives without a nested encoder, any
    /// other value through its own `encode(to:)`. Nil when the value encoded nothing.
    func box<T: Encodable>(_ value: T, key: (any CodingKey)? = nil) throws -> SortedJSONNode? {
        if let node = try Self.primitive(value, path: { self.codingPath + (key.map { [$0] } ?? []) }) { return node }
        if !reuse.isEmpty, let node = reused(value) { return node }
        var sub = spare ?? SortedEncoderState()
        spare = nil
        sub.parent = self
        sub.key = key
        sub.reuse = reuse
        defer {
            if isKnownUniquelyReferenced(&sub) {
                sub.parent = nil
                sub.key = nil
                spare = sub
            }
        }
        try value.encode(to: sub)
        return sub.take()
    }

    /// The node another encoding holds for `value` (``SortedJSONReuse``), if any.
    private func reused<T>(_ value: T) -> SortedJSONNode? {
        let type = ObjectIdentifier(T.self)
        for candidate in reuse where candidate.type == type {
            if withUnsafePointer(to: value, { candidate.holdsSame(UnsafeRawPointer($0)) }) { return .reused(candidate.reused) }
        }
        return nil
    }

    /// A box that is `{}` when the value encoded nothing (Foundation's rule for values inside containers).
    func boxInside<T: Encodable>(_ value: T, key: (any CodingKey)? = nil) throws -> SortedJSONNode {
        try box(value, key: key) ?? .object(SortedJSONObject())
    }

    /// The node of a value whose type has a fixed JSON form, nil for any other type. Types are compared by
    /// metatype (cheap) before the value is cast.
    static func primitive<T>(_ value: T, path: () -> [any CodingKey]) throws -> SortedJSONNode? {
        let type = T.self
        if type == String.self { return .string(cast(value, String.self)) }
        if type == Int.self { return .int(Int64(cast(value, Int.self))) }
        if type == Double.self { return try double(cast(value, Double.self), path: path) }
        if type == Bool.self { return .bool(cast(value, Bool.self)) }
        if type == Decimal.self { return .number(cast(value, Decimal.self).description) }
        if type == URL.self { return .string(cast(value, URL.self).absoluteString) }
        if type == Data.self { return .string(cast(value, Data.self).base64EncodedString()) }
        if type == Float.self { return try float(cast(value, Float.self), path: path) }
        if type == Int64.self { return .int(cast(value, Int64.self)) }
        if type == Int32.self { return .int(Int64(cast(value, Int32.self))) }
        if type == Int16.self { return .int(Int64(cast(value, Int16.self))) }
        if type == Int8.self { return .int(Int64(cast(value, Int8.self))) }
        if type == UInt.self { return .uint(UInt64(cast(value, UInt.self))) }
        if type == UInt64.self { return .uint(cast(value, UInt64.self)) }
        if type == UInt32.self { return .uint(UInt64(cast(value, UInt32.self))) }
        if type == UInt16.self { return .uint(UInt64(cast(value, UInt16.self))) }
        if type == UInt8.self { return .uint(UInt64(cast(value, UInt8.self))) }
        return nil
    }

    /// `value` as `U`, which the caller has checked is `T` (a copy of the bits, with its references retained).
    @inline(__always)
    static func cast<T, U>(_ value: T, _ type: U.Type) -> U {
        withUnsafePointer(to: value) { UnsafeRawPointer($0).load(as: U.self) }
    }

    static func double(_ value: Double, path: () -> [any CodingKey]) throws -> SortedJSONNode {
        guard value.isFinite else { throw nonFinite(value, path: path()) }
        return .double(value)
    }

    static func float(_ value: Float, path: () -> [any CodingKey]) throws -> SortedJSONNode {
        guard value.isFinite else { throw nonFinite(value, path: path()) }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .number(text)
    }

    static func nonFinite<F: BinaryFloatingPoint>(_ value: F, path: [any CodingKey]) -> EncodingError {
        EncodingError.invalidValue(
            value, .init(codingPath: path, debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."))
    }
}

// MARK: - Containers

struct SortedKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: SortedEncoderState
    let object: SortedJSONObject

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil(forKey key: Key) throws { object.set(.null, for: key.stringValue) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { object.set(.bool(value), for: key.stringValue) }
    mutating func encode(_ value: String, forKey key: Key) throws { object.set(.string(value), for: key.stringValue) }
    mutating func encode(_ value: Int, forKey key: Key) throws { object.set(.int(Int64(value)), for: key.stringValue) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { object.set(.int(value), for: key.stringValue) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        object.set(try SortedEncoderState.double(value, path: { encoder.codingPath + [key] }), for: key.stringValue)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        object.set(try SortedEncoderState.float(value, path: { encoder.codingPath + [key] }), for: key.stringValue)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.set(try encoder.boxInside(value, key: key), for: key.stringValue)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = SortedEncoderState(parent: encoder, key: key)
        return KeyedEncodingContainer(
            SortedKeyedContainer<NestedKey>(
                encoder: nested, object: object.nestedObject(for: key.stringValue, keyType: ObjectIdentifier(NestedKey.self))))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = SortedEncoderState(parent: encoder, key: key)
        return SortedUnkeyedContainer(encoder: nested, array: object.nestedArray(for: key.stringValue))
    }

    mutating func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let sub = encoder.deferredEncoder(key: key)
        object.set(.deferred(sub), for: key.stringValue)
        return sub
    }
}

struct SortedUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: SortedEncoderState
    let array: SortedJSONArray

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { array.items.count }

    mutating func encodeNil() throws { array.append(.null) }
    mutating func encode(_ value: Bool) throws { array.append(.bool(value)) }
    mutating func encode(_ value: String) throws { array.append(.string(value)) }
    mutating func encode(_ value: Int) throws { array.append(.int(Int64(value))) }
    mutating func encode(_ value: Double) throws {
        array.append(try SortedEncoderState.double(value, path: { encoder.codingPath + [IndexKey(count)] }))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        array.append(try encoder.boxInside(value, key: IndexKey(count)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let object = SortedJSONObject(keyType: ObjectIdentifier(NestedKey.self))
        let nested = SortedEncoderState(parent: encoder, key: IndexKey(count))
        array.append(.object(object))
        return KeyedEncodingContainer(SortedKeyedContainer<NestedKey>(encoder: nested, object: object))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nestedArray = SortedJSONArray()
        let nested = SortedEncoderState(parent: encoder, key: IndexKey(count))
        array.append(.array(nestedArray))
        return SortedUnkeyedContainer(encoder: nested, array: nestedArray)
    }

    mutating func superEncoder() -> any Encoder {
        let sub = encoder.deferredEncoder(key: IndexKey(count))
        array.append(.deferred(sub))
        return sub
    }
}

struct SortedSingleValueContainer: SingleValueEncodingContainer {
    let encoder: SortedEncoderState

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.setSingle(.null) }
    mutating func encode(_ value: Bool) throws { encoder.setSingle(.bool(value)) }
    mutating func encode(_ value: String) throws { encoder.setSingle(.string(value)) }
    mutating func encode(_ value: Int) throws { encoder.setSingle(.int(Int64(value))) }
    mutating func encode(_ value: Double) throws {
        encoder.setSingle(try SortedEncoderState.double(value, path: { encoder.codingPath }))
    }
    mutating func encode(_ value: Float) throws {
        encoder.setSingle(try SortedEncoderState.float(value, path: { encoder.codingPath }))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        // As Foundation: a value that encodes nothing is `{}` here too.
        encoder.setSingle(try encoder.boxInside(value))
    }
}

/// An array position in a coding path.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

// MARK: - Writer

/// Writes a tree as compact JSON, each object's keys sorted by their UTF-8 bytes.
struct SortedJSONWriter {
    var bytes: [UInt8] = []
    let escapesSlashes: Bool
    /// Per `CodingKey` type, the last key list seen and its sorted order: the objects of one type nearly always
    /// hold the same keys in the same order, so they are sorted once per encoding.
    private var orders: [ObjectIdentifier: (keys: [String], order: [Int])] = [:]

    init(escapesSlashes: Bool) {
        self.escapesSlashes = escapesSlashes
        bytes.reserveCapacity(4096)
    }

    mutating func write(_ node: SortedJSONNode) {
        switch node {
        case .null: append("null")
        case .bool(let value): append(value ? "true" : "false")
        case .int(let value): writeInteger(value.magnitude, negative: value < 0)
        case .uint(let value): writeInteger(value, negative: false)
        case .double(let value): writeDouble(value)
        case .number(let text): appendUTF8(text)
        case .string(let text): writeString(text)
        case .array(let array): writeArray(array.items)
        case .object(let object): writeObject(object)
        case .deferred(let encoder):
            write(encoder.current() ?? .object(SortedJSONObject()))
        case .reused(let reused):
            guard reused.escapesSlashes == escapesSlashes,
                reused.text.utf8.withContiguousStorageIfAvailable({
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[reused.range]))
                }) != nil
            else { return write(reused.node) }
        }
    }

    /// Writes the top-level value; when it is an object, returns where each member's value is in `bytes` (by key
    /// index; an empty range for a key set twice whose earlier value is not written).
    mutating func writeRoot(_ node: SortedJSONNode) -> [Range<Int>] {
        guard case .object(let object) = node else {
            write(node)
            return []
        }
        var ranges = [Range<Int>](repeating: 0..<0, count: object.keys.count)
        writeObject(object) { i, range in ranges[i] = range }
        return ranges
    }

    private mutating func writeArray(_ items: [SortedJSONNode]) {
        bytes.append(UInt8(ascii: "["))
        for (i, item) in items.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            write(item)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    private mutating func writeObject(_ object: SortedJSONObject) {
        writeObject(object, member: nil)
    }

    /// `member` is told where each member's value went (the top-level object's, ``writeRoot(_:)``).
    private mutating func writeObject(_ object: SortedJSONObject, member: ((Int, Range<Int>) -> Void)?) {
        bytes.append(UInt8(ascii: "{"))
        let keys = object.keys
        let order = sortedOrder(object)
        if order.count != keys.count { object.hasRepeatedKeys = true }
        for (n, i) in order.enumerated() {
            if n > 0 { bytes.append(UInt8(ascii: ",")) }
            writeString(keys[i])
            bytes.append(UInt8(ascii: ":"))
            let start = bytes.count
            write(object.values[i])
            member?(i, start..<bytes.count)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func sortedOrder(_ object: SortedJSONObject) -> [Int] {
        guard let type = object.keyType else { return Self.uniqueSortedOrder(object.keys) }
        if let cached = orders[type], cached.keys == object.keys { return cached.order }
        let order = Self.uniqueSortedOrder(object.keys)
        orders[type] = (object.keys, order)
        return order
    }

    /// The positions of `keys` in UTF-8 byte order, a key set twice at its last position only (Foundation keeps a
    /// dictionary: the last value wins). The sort is stable, so the last of a run of equal keys is the last set.
    static func uniqueSortedOrder(_ keys: [String]) -> [Int] {
        var order = sortedOrder(keys)
        var n = order.count - 1
        while n > 0 {
            if keys[order[n - 1]] == keys[order[n]] { order.remove(at: n - 1) }
            n -= 1
        }
        return order
    }

    /// The positions of `keys` in UTF-8 byte order; stable (insertion sort: objects are small).
    static func sortedOrder(_ keys: [String]) -> [Int] {
        var order = Array(keys.indices)
        guard order.count > 1 else { return order }
        for i in 1..<order.count {
            let current = order[i]
            var j = i
            while j > 0, precedes(keys[current], keys[order[j - 1]]) {
                order[j] = order[j - 1]
                j -= 1
            }
            order[j] = current
        }
        return order
    }

    /// UTF-8 byte order of two keys.
    static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    private mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func appendUTF8(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            bytes.append(contentsOf: text.utf8)
        }
    }

    mutating func writeInteger(_ magnitude: UInt64, negative: Bool) {
        if negative { bytes.append(UInt8(ascii: "-")) }
        if magnitude < 10 {
            bytes.append(UInt8(truncatingIfNeeded: magnitude) &+ 0x30)
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for the 20 digits of UInt64.max
        withUnsafeMutableBytes(of: &digits) { buffer in
            var value = magnitude
            var start = buffer.count
            while value > 0 {
                start -= 1
                buffer[start] = UInt8(truncatingIfNeeded: value % 10) &+ 0x30
                value /= 10
            }
            bytes.append(contentsOf: buffer[start...])
        }
    }

    /// `value.description` without a trailing `.0`. A whole number below 2^53 is written as an integer: its
    /// description is the digits and ".0" (Swift switches to an exponent at 1e16); -0.0 keeps its sign ("-0").
    mutating func writeDouble(_ value: Double) {
        if value.rounded(.towardZero) == value, value.magnitude < 9_007_199_254_740_992, !(value == 0 && value.sign == .minus) {
            writeInteger(UInt64(value.magnitude), negative: value < 0)
            return
        }
        appendUTF8(value.description)
        let count = bytes.count
        if count >= 2, bytes[count - 2] == UInt8(ascii: "."), bytes[count - 1] == UInt8(ascii: "0") {
            bytes.removeLast(2)
        }
    }

    /// A string with Foundation's escapes; runs of plain bytes are copied at once.
    mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        if text.utf8.withContiguousStorageIfAvailable({ writeEscaped($0) }) == nil {
            let copy = Array(text.utf8)
            copy.withUnsafeBufferPointer { writeEscaped($0) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var mark = 0
        var i = 0
        let count = utf8.count
        let raw = UnsafeRawBufferPointer(utf8)
        while i < count {
            // Eight bytes at a time while none of them needs an escape (most text needs none).
            if i + 8 <= count, !Self.needsEscape(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self), escapesSlashes) {
                i += 8
                continue
            }
            let byte = utf8[i]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C || (byte == 0x2F && escapesSlashes) {
                if i > mark { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark..<i])) }
                appendEscape(byte)
                mark = i + 1
            }
            i += 1
        }
        if count > mark { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark...])) }
    }

    /// Whether any of eight bytes is below 0x20, `"`, `\` (or `/` when slashes are escaped). Bytes of 0x80 and
    /// above (UTF-8 sequences) never are: each test flags a byte only when its top bit is clear.
    @inline(__always)
    static func needsEscape(_ word: UInt64, _ slashes: Bool) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        func zeroByte(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & high }
        var flags = (word &- ones &* 0x20) & ~word & high  // a byte below 0x20
        flags |= zeroByte(word ^ (ones &* 0x22)) | zeroByte(word ^ (ones &* 0x5C))
        if slashes { flags |= zeroByte(word ^ (ones &* 0x2F)) }
        return flags != 0
    }

    private mutating func appendEscape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x22, 0x5C, 0x2F: bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex: StaticString = "0123456789abcdef"
            bytes.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30])
            bytes.append(hex.utf8Start[Int(byte >> 4)])
            bytes.append(hex.utf8Start[Int(byte & 0x0F)])
        }
    }
}
