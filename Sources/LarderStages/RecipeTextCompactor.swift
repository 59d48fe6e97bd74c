import LarderJSON
import LarderRecipes

/// ``LineReferences/compactRecipes(_:lines:)`` in one pass over the encoded bytes (issue 18): the stage's JSON is
/// copied through, and only what the stored form changes is rewritten — an object's `text` member that is a piece of
/// the lines its `provenance` names is dropped and `"textAt":[from,to]` written before the object's closing brace,
/// and a number literal not in ``JSONNumber``'s canonical form is written in that form. That is byte for byte what
/// parsing the text into a ``JSONValue``, replacing the members and serialising it again writes (the reference,
/// ``LineReferences/compactRecipesByParsing(_:lines:)``, which `LineReferenceTests` compares it with), without
/// building the value.
///
/// The scanner reads what ``SortedJSONEncoder`` writes: compact JSON, no whitespace, each key once. Anything else
/// (whitespace, a `textAt` key already there, an escape other than the encoder's, a provenance number that is not
/// a plain integer) makes it give up, and the caller parses instead: a different input costs time, never bytes.
struct RecipeTextCompactor {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index: LineReferences.LineIndex?
    private let lines: [SourceLine]
    private var position = 0
    private var edits: [(range: Range<Int>, replacement: [UInt8])] = []

    /// The stored form of `json`, or nil when it is not the encoder's compact form (then parse it).
    static func compact(_ json: String, lines: [SourceLine]) -> String? {
        var json = json
        return json.withUTF8 { buffer -> String? in
            var compactor = RecipeTextCompactor(bytes: buffer, lines: lines)
            return compactor.run()
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, lines: [SourceLine]) {
        self.bytes = bytes
        self.lines = lines
    }

    private mutating func run() -> String? {
        guard value(compacting: true), position == bytes.count else { return nil }
        return String(decoding: edited(), as: UTF8.self)
    }

    // MARK: Output

    /// Writes `replacement` instead of `bytes[range]` (recorded: the text member is replaced when its object ends,
    /// after the members that follow it were read).
    private mutating func replace(_ range: Range<Int>, with replacement: [UInt8]) {
        edits.append((range, replacement))
    }

    /// The input with the edits made.
    private func edited() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var copied = 0
        for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<edit.range.lowerBound]))
            out.append(contentsOf: edit.replacement)
            copied = edit.range.upperBound
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
        return out
    }

    // MARK: Values

    private func byte(_ at: Int) -> UInt8? { at < bytes.count ? bytes[at] : nil }

    /// Whether the key at `name` (its bytes without the quotes) is `word`: lengths first, then the bytes (a generic
    /// `elementsEqual` against a `String`'s UTF-8 cost a quarter of the rewrite).
    @inline(__always)
    private func isKey(_ name: Range<Int>, _ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard name.count == count else { return false }
        let start = word.utf8Start
        for offset in 0..<count where bytes[name.lowerBound + offset] != start[offset] { return false }
        return true
    }

    /// Reads one value at `position`; `compacting` is false under a `provenance` key (not looked into).
    private mutating func value(compacting: Bool) -> Bool {
        guard let first = byte(position) else { return false }
        switch first {
        case UInt8(ascii: "{"): return object(compacting: compacting)
        case UInt8(ascii: "["): return array(compacting: compacting)
        case UInt8(ascii: "\""): return skipString() != nil
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return number()
        }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] { return false }
        position += count
        return true
    }

    private mutating func array(compacting: Bool) -> Bool {
        position += 1
        if byte(position) == UInt8(ascii: "]") { position += 1; return true }
        while true {
            guard value(compacting: compacting) else { return false }
            switch byte(position) {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return true
            default: return false
            }
        }
    }

    /// What an object holds that its stored form needs: its `text` member and its provenance's lines.
    private struct Members {
        /// The `text` member from its key's quote to its value's end, and whether a comma came before it.
        var text: (member: Range<Int>, value: Range<Int>, escaped: Bool, afterComma: Bool)?
        var provenance: (page: Int, first: Int, last: Int)?
    }

    private mutating func object(compacting: Bool) -> Bool {
        position += 1
        var members = Members()
        var count = 0
        if byte(position) == UInt8(ascii: "}") { position += 1; return true }
        while true {
            let keyStart = position
            guard byte(position) == UInt8(ascii: "\""), let key = skipString(), !key.escaped,
                byte(position) == UInt8(ascii: ":")
            else { return false }
            position += 1
            let name = (key.range.lowerBound + 1)..<(key.range.upperBound - 1)
            if isKey(name, "textAt") { return false }  // the stored form's own key: parse instead
            if compacting, isKey(name, "text"), byte(position) == UInt8(ascii: "\"") {
                guard let string = skipString() else { return false }
                members.text = (keyStart..<position, string.range, string.escaped, count > 0)
            } else if isKey(name, "provenance") {
                guard let lines = provenance() else { return false }
                members.provenance = lines
            } else {
                guard value(compacting: compacting) else { return false }
            }
            count += 1
            switch byte(position) {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                let close = position
                position += 1
                return compacting ? store(members, closingAt: close) : true
            default: return false
            }
        }
    }

    /// Replaces the `text` member by its range in the lines, when it is a piece of them (as the reference does).
    private mutating func store(_ members: Members, closingAt close: Int) -> Bool {
        guard let text = members.text, let provenance = members.provenance else { return true }
        guard text.value.count - 2 >= LineReferences.minimumBytes else { return true }
        guard let needle = unescaped(text.value, escaped: text.escaped) else { return false }
        guard needle.count >= LineReferences.minimumBytes else { return true }
        if index == nil { index = LineReferences.LineIndex(lines) }
        guard let joined = index!.joined(page: provenance.page, first: provenance.first, last: provenance.last),
            let range = LineReferences.find(needle, in: joined)
        else { return true }
        // Without the member and one comma beside it; `textAt` appended last, as `JSONObject` appends a new key.
        var member = text.member
        if text.afterComma {
            member = (member.lowerBound - 1)..<member.upperBound
        } else {
            guard bytes[member.upperBound] == UInt8(ascii: ",") else { return false }  // the only member
            member = member.lowerBound..<(member.upperBound + 1)
        }
        replace(member, with: [])
        replace(close..<close, with: Array(",\"textAt\":[\(range.lowerBound),\(range.upperBound)]".utf8))
        return true
    }

    // MARK: Strings and numbers

    /// Skips a string at `position` (its quote); its range with the quotes, and whether it has escapes.
    private mutating func skipString() -> (range: Range<Int>, escaped: Bool)? {
        let start = position
        var at = position + 1
        var escaped = false
        let raw = UnsafeRawBufferPointer(bytes)
        while at < bytes.count {
            // Eight bytes at a time while none is a quote or a backslash (most of a string).
            if at + 8 <= bytes.count, !Self.quoteOrBackslash(raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)) {
                at += 8
                continue
            }
            switch bytes[at] {
            case UInt8(ascii: "\""):
                position = at + 1
                return (start..<position, escaped)
            case UInt8(ascii: "\\"):
                // Only the escapes the encoder writes: another is written otherwise by the reference.
                guard let length = Self.encoderEscape(at, in: bytes) else { return nil }
                escaped = true
                at += length
            default:
                at += 1
            }
        }
        return nil
    }

    /// Whether any of eight bytes is `"` or `\\` (a byte of 0x80 and above never is: each test flags a byte only when
    /// its top bit is clear).
    @inline(__always)
    static func quoteOrBackslash(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        func zeroByte(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & high }
        return zeroByte(word ^ (ones &* 0x22)) | zeroByte(word ^ (ones &* 0x5C)) != 0
    }

    /// The length of the escape at `at` when it is one the encoder writes (and the reference writes again the same
    /// way): `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, or `\u00xx` in lower-case hex for another control character.
    static func encoderEscape(_ at: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard at + 1 < bytes.count else { return nil }
        switch bytes[at + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
            UInt8(ascii: "r"), UInt8(ascii: "t"):
            return 2
        case UInt8(ascii: "u"):
            guard at + 5 < bytes.count, bytes[at + 2] == UInt8(ascii: "0"), bytes[at + 3] == UInt8(ascii: "0"),
                bytes[at + 4] == UInt8(ascii: "0") || bytes[at + 4] == UInt8(ascii: "1")
            else { return nil }
            let low = bytes[at + 5]
            let digit = low >= UInt8(ascii: "0") && low <= UInt8(ascii: "9")
            guard digit || (low >= UInt8(ascii: "a") && low <= UInt8(ascii: "f")) else { return nil }
            let value = (bytes[at + 4] - UInt8(ascii: "0")) << 4 | (digit ? low - 48 : low - 87)
            return [8, 9, 10, 12, 13].contains(value) ? nil : 6
        default:
            return nil
        }
    }

    /// A string's UTF-8 (the range with its quotes); nil for an escape the encoder does not write.
    private func unescaped(_ range: Range<Int>, escaped: Bool) -> [UInt8]? {
        let inner = (range.lowerBound + 1)..<(range.upperBound - 1)
        guard escaped else { return Array(bytes[inner]) }
        var result: [UInt8] = []
        result.reserveCapacity(inner.count)
        var at = inner.lowerBound
        while at < inner.upperBound {
            let byte = bytes[at]
            guard byte == UInt8(ascii: "\\") else { result.append(byte); at += 1; continue }
            guard at + 1 < inner.upperBound else { return nil }
            switch bytes[at + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): result.append(bytes[at + 1])
            case UInt8(ascii: "b"): result.append(8)
            case UInt8(ascii: "f"): result.append(12)
            case UInt8(ascii: "n"): result.append(10)
            case UInt8(ascii: "r"): result.append(13)
            case UInt8(ascii: "t"): result.append(9)
            case UInt8(ascii: "u"):
                // The encoder writes `\u00xx` for control characters only.
                guard at + 5 < inner.upperBound, bytes[at + 2] == UInt8(ascii: "0"), bytes[at + 3] == UInt8(ascii: "0"),
                    let high = Self.hexDigit(bytes[at + 4]), let low = Self.hexDigit(bytes[at + 5]), high < 8
                else { return nil }
                result.append(high << 4 | low)
                at += 6
                continue
            default: return nil
            }
            at += 2
        }
        return result
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Skips a number; one not in ``JSONNumber``'s canonical form (what the reference writes) is rewritten.
    private mutating func number() -> Bool {
        let start = position
        while let byte = byte(position), Self.isNumberByte(byte) { position += 1 }
        let token = UnsafeBufferPointer(rebasing: bytes[start..<position])
        guard !token.isEmpty else { return false }
        if JSONNumber.isCanonicalLiteral(token) { return true }
        guard let number = JSONNumber(literal: String(decoding: token, as: UTF8.self)) else { return false }
        let canonical = number.description
        if !canonical.utf8.elementsEqual(token) { replace(start..<position, with: Array(canonical.utf8)) }
        return true
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
            UInt8(ascii: "e"), UInt8(ascii: "E"):
            return true
        default: return false
        }
    }

    /// Skips a `provenance` value (not looked into further); its page and lines when it is an object with those
    /// three members, each a plain integer. False (give up) when one of them is another kind of value.
    private mutating func provenance() -> (page: Int, first: Int, last: Int)?? {
        guard byte(position) == UInt8(ascii: "{") else { return value(compacting: false) ? .some(nil) : nil }
        position += 1
        var page: Int?, first: Int?, last: Int?
        if byte(position) == UInt8(ascii: "}") { position += 1; return .some(nil) }
        while true {
            guard byte(position) == UInt8(ascii: "\""), let key = skipString(), !key.escaped,
                byte(position) == UInt8(ascii: ":")
            else { return nil }
            position += 1
            let name = (key.range.lowerBound + 1)..<(key.range.upperBound - 1)
            let start = position
            guard value(compacting: false) else { return nil }
            var number: Int? {
                let token = UnsafeBufferPointer(rebasing: bytes[start..<position])
                guard JSONNumber.isCanonicalLiteral(token), !token.contains(UInt8(ascii: ".")) else { return nil }
                return Int(String(decoding: token, as: UTF8.self))
            }
            if isKey(name, "page") {
                guard let number else { return nil }
                page = number
            } else if isKey(name, "lineStart") {
                guard let number else { return nil }
                first = number
            } else if isKey(name, "lineEnd") {
                guard let number else { return nil }
                last = number
            }
            switch byte(position) {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                guard let page, let first, let last else { return .some(nil) }
                return (page, first, last)
            default: return nil
            }
        }
    }
}
