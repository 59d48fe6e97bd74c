/// Writes a value's JSON from the value's own code instead of through `Encodable` (issue 18): the caller names each
/// member in sorted order and writes its value, and the builder writes the bytes and builds the same tree as
/// ``SortedJSONEncoder/encodeWithTree(_:reusing:)`` — so the result is a ``SortedJSONEncoding`` that a schema check
/// validates and a later encoding reuses (``SortedJSONReuse``) exactly as if the encoder had made it.
///
/// The bytes come from the encoder's own writer (``SortedJSONWriter``: the same string escapes, integer and double
/// forms), so a builder written for a type matches the encoder when it names the members the type's `Encodable`
/// conformance encodes, in UTF-8 byte order, writes an `@ExplicitNull` member as `null` and leaves a plain optional
/// out when nil. That is the caller's to get right and to test (`RecipeJSONTests` compares the recipe contract's
/// builder with the encoder over the samples and the shared data); in debug builds the builder checks the order.
///
/// What it saves is `Encodable`'s machinery: a generic call, an encoder and a container per member, each value's
/// type tested against the special ones, and each object's keys sorted when written.
public struct SortedJSONBuilder {
    private var writer = SortedJSONWriter(escapesSlashes: false)
    /// The containers being written, innermost last: their members are kept here, in the builder's own arrays, and
    /// the container's node is made when it closes (appending to a node's arrays, which are class members, pays a
    /// dynamic exclusivity check per append: a fifth of the encoding, issue 18).
    private var open: [Open] = []
    private var root: SortedJSONNode?
    /// Where each member of a top-level object is in the bytes (``SortedJSONEncoding/memberRanges``).
    private var rootMembers: [Range<Int>] = []
    private var memberStart = 0
    /// The key named last, for the value that follows it.
    private var pendingKey = ""
    /// The edits that make the edited form (``editedText()``), in the order of their positions.
    private var edits: [(range: Range<Int>, replacement: [UInt8])] = []

    /// An open container's members so far (an array's elements are `values`; its `keys` stay empty).
    private struct Open {
        let isObject: Bool
        var keys: [String] = []
        var values: [SortedJSONNode] = []

        init(isObject: Bool) {
            self.isObject = isObject
            if isObject { keys.reserveCapacity(8) }
            values.reserveCapacity(8)
        }
    }

    /// `capacity`: the bytes to reserve (the output grows past it as needed).
    public init(capacity: Int = 4096) {
        writer.bytes.reserveCapacity(capacity)
    }

    /// The text and tree written; every object and array must have been closed.
    public func encoding() -> SortedJSONEncoding {
        precondition(open.isEmpty, "SortedJSONBuilder: a container was not closed")
        guard let root else { preconditionFailure("SortedJSONBuilder: nothing was written") }
        return SortedJSONEncoding(
            text: String(decoding: writer.bytes, as: UTF8.self), root: root, memberRanges: rootMembers,
            escapesSlashes: false)
    }

    // MARK: An edited form

    /// How many bytes were written so far: where the next one goes (for ``edit(_:replacement:)``).
    public var byteCount: Int { writer.bytes.count }

    /// Records that the edited form (``editedText()``) has `replacement` instead of the written bytes in `range`
    /// (an empty range inserts). The text and tree of ``encoding()`` are not changed. Edits must not overlap, and
    /// each must start at or after the previous one's end.
    public mutating func edit(_ range: Range<Int>, replacement: [UInt8]) {
        precondition(range.upperBound <= writer.bytes.count, "SortedJSONBuilder: an edit past the bytes written")
        precondition(
            edits.last.map { $0.range.upperBound <= range.lowerBound } ?? true,
            "SortedJSONBuilder: edits must come in the order of their positions")
        edits.append((range, replacement))
    }

    /// Whether an edit was recorded (else ``editedText()`` is the text).
    public var hasEdits: Bool { !edits.isEmpty }

    /// The written bytes with the edits made, and every number in ``JSONNumber``'s canonical form (what
    /// `JSONValue.serialized()` writes: "1e-05" becomes "0.00001"); the text itself when there are no edits.
    ///
    /// So when the edits change the written JSON as a change to its ``JSONValue`` would, this is what serialising
    /// that value writes, without parsing the text (the `recipe` stage's stored form with line references, issue 18).
    public func editedText() -> String {
        guard !edits.isEmpty else { return String(decoding: writer.bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(writer.bytes.count)
        var copied = 0
        writer.bytes.withUnsafeBufferPointer { bytes in
            for edit in edits {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<edit.range.lowerBound]))
                out.append(contentsOf: edit.replacement)
                copied = edit.range.upperBound
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Records the canonical form of the number just written from `start`, when it is not already that form.
    private mutating func canonicalizeNumber(from start: Int) {
        let isCanonical = writer.bytes.withUnsafeBufferPointer {
            JSONNumber.isCanonicalLiteral(UnsafeBufferPointer(rebasing: $0[start...]))
        }
        if isCanonical { return }
        let literal = String(decoding: writer.bytes[start...], as: UTF8.self)
        guard let canonical = JSONNumber(literal: literal)?.description, canonical != literal else { return }
        edit(start..<writer.bytes.count, replacement: Array(canonical.utf8))
    }

    // MARK: Containers

    /// Writes an object whose members `body` writes (``key(_:)`` then a value, keys in UTF-8 byte order).
    public mutating func object(_ body: (inout SortedJSONBuilder) throws -> Void) rethrows {
        beforeValue()
        writer.bytes.append(UInt8(ascii: "{"))
        let key = pendingKey  // the object's own key in its parent: the body names others
        open.append(Open(isObject: true))
        try body(&self)
        let members = open.removeLast()
        writer.bytes.append(UInt8(ascii: "}"))
        pendingKey = key
        place(.object(SortedJSONObject(keys: members.keys, values: members.values)))
        afterValue()
    }

    /// Writes an array whose elements `body` writes.
    public mutating func array(_ body: (inout SortedJSONBuilder) throws -> Void) rethrows {
        beforeValue()
        writer.bytes.append(UInt8(ascii: "["))
        let key = pendingKey
        open.append(Open(isObject: false))
        try body(&self)
        let elements = open.removeLast()
        writer.bytes.append(UInt8(ascii: "]"))
        pendingKey = key
        place(.array(SortedJSONArray(items: elements.values)))
        afterValue()
    }

    /// Writes an array of `items`, each written by `element`.
    public mutating func array<C: Collection>(
        _ items: C, _ element: (inout SortedJSONBuilder, C.Element) throws -> Void
    ) rethrows {
        try array { builder in
            for item in items { try element(&builder, item) }
        }
    }

    /// Writes an array of strings.
    public mutating func array(_ strings: [String]) {
        array { builder in
            for text in strings { builder.string(text) }
        }
    }

    /// Writes a `[String: Value]` dictionary as an object, its keys in UTF-8 byte order (as the encoder sorts them).
    public mutating func object<Value>(
        _ dictionary: [String: Value], _ member: (inout SortedJSONBuilder, Value) throws -> Void
    ) rethrows {
        let keys = dictionary.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        try object { builder in
            for key in keys {
                builder.key(key)
                try member(&builder, dictionary[key]!)
            }
        }
    }

    /// Names the next member of the innermost object. Keys must come in UTF-8 byte order, each once.
    public mutating func key(_ name: String) {
        guard let last = open.indices.last, open[last].isObject else {
            preconditionFailure("SortedJSONBuilder: a key outside an object")
        }
        assert(
            open[last].keys.last.map { SortedJSONWriter.precedes($0, name) } ?? true,
            "SortedJSONBuilder: key \"\(name)\" after \"\(open[last].keys.last!)\": keys must be written in UTF-8 byte order")
        if !open[last].keys.isEmpty { writer.bytes.append(UInt8(ascii: ",")) }
        writer.writeString(name)
        writer.bytes.append(UInt8(ascii: ":"))
        pendingKey = name
        if open.count == 1 { memberStart = writer.bytes.count }
    }

    // MARK: Scalars

    public mutating func string(_ text: String) {
        beforeValue()
        writer.writeString(text)
        place(.string(text))
        afterValue()
    }

    /// A string, or `null` (an `@ExplicitNull` member).
    public mutating func string(_ text: String?) {
        if let text { string(text) } else { null() }
    }

    /// A finite double, as the encoder writes it; a NaN or an infinity is an error, as there.
    public mutating func number(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                .init(codingPath: [], debugDescription: "Unable to encode Double.\(value) directly in JSON (member \"\(pendingKey)\")."))
        }
        beforeValue()
        let start = writer.bytes.count
        writer.writeDouble(value)
        canonicalizeNumber(from: start)
        place(.double(value))
        afterValue()
    }

    /// A double, or `null` (an `@ExplicitNull` member).
    public mutating func number(_ value: Double?) throws {
        if let value { try number(value) } else { null() }
    }

    public mutating func number(_ value: Int) {
        beforeValue()
        let start = writer.bytes.count
        writer.writeInteger(UInt64(value.magnitude), negative: value < 0)
        if value.magnitude >= 1_000_000_000_000_000_000 { canonicalizeNumber(from: start) }  // past 18 digits
        place(.int(Int64(value)))
        afterValue()
    }

    public mutating func bool(_ value: Bool) {
        beforeValue()
        writer.bytes.append(contentsOf: value ? [0x74, 0x72, 0x75, 0x65] : [0x66, 0x61, 0x6C, 0x73, 0x65])
        place(.bool(value))
        afterValue()
    }

    public mutating func null() {
        beforeValue()
        writer.bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        place(.null)
        afterValue()
    }

    // MARK: Bookkeeping

    /// The comma before an array's second and later elements (an object's is written with the key).
    private mutating func beforeValue() {
        if let last = open.indices.last, !open[last].isObject, !open[last].values.isEmpty {
            writer.bytes.append(UInt8(ascii: ","))
        }
    }

    /// Adds a value's node to the innermost container (a container's own node is added when it closes).
    private mutating func place(_ node: SortedJSONNode) {
        guard let last = open.indices.last else {
            precondition(root == nil, "SortedJSONBuilder: a second top-level value")
            root = node
            return
        }
        if open[last].isObject { open[last].keys.append(pendingKey) }
        open[last].values.append(node)
    }

    /// Records where a top-level object's member ended.
    private mutating func afterValue() {
        if open.count == 1, open[0].isObject { rootMembers.append(memberStart..<writer.bytes.count) }
    }
}
