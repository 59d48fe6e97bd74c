import Foundation

/// An error thrown by the strict JSON parser, with a 1-based line and column
/// (column counted in UTF-8 bytes) and the byte offset of the problem.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// 1-based line number.
    public let line: Int
    /// 1-based column (UTF-8 bytes from the line start).
    public let column: Int
    /// 0-based byte offset.
    public let offset: Int

    public var description: String { "JSON parse error at line \(line), column \(column): \(message)" }
}

extension JSONValue {
    /// Parses JSON text strictly (RFC 8259): no comments, no trailing commas, no leading zeros,
    /// no unescaped control characters, valid UTF-8, a single top-level value. Duplicate object
    /// keys are accepted; the last value wins (at the first key's position).
    /// - Throws: ``JSONParseError`` with line/column.
    public init(parsing data: Data) throws {
        var bytes = [UInt8](data)
        self = try bytes.withUnsafeMutableBufferPointer { buf in
            var p = JSONParserImpl(buf: buf)
            return try p.parseDocument()
        }
    }

    /// Parses JSON text strictly (same rules as the `Data` overload).
    public init(parsing text: String) throws {
        try self.init(parsing: Data(text.utf8))
    }
}

struct JSONParserImpl {
    let buf: UnsafeMutableBufferPointer<UInt8>
    var i = 0
    var depth = 0
    static let maxDepth = 1000

    init(buf: UnsafeMutableBufferPointer<UInt8>) { self.buf = buf }

    func error(_ msg: String, at offset: Int? = nil) -> JSONParseError {
        let off = min(offset ?? i, buf.count)
        var line = 1, col = 1
        var k = 0
        while k < off {
            if buf[k] == 10 { line += 1; col = 1 } else { col += 1 }
            k += 1
        }
        return JSONParseError(message: msg, line: line, column: col, offset: off)
    }

    mutating func skipWS() {
        while i < buf.count {
            let c = buf[i]
            if c == 32 || c == 10 || c == 13 || c == 9 { i += 1 } else { break }
        }
    }

    mutating func parseDocument() throws -> JSONValue {
        // Skip UTF-8 BOM.
        if buf.count >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF { i = 3 }
        skipWS()
        if i >= buf.count { throw error("unexpected end of input, expected a value") }
        let v = try parseValue()
        skipWS()
        if i < buf.count { throw error("unexpected content after the top-level value") }
        return v
    }

    func describe(_ c: UInt8) -> String {
        if c >= 32 && c < 127 { return "'\(Character(Unicode.Scalar(c)))'" }
        return String(format: "byte 0x%02X", c)
    }

    mutating func parseValue() throws -> JSONValue {
        guard i < buf.count else { throw error("unexpected end of input, expected a value") }
        let c = buf[i]
        switch c {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), 48...57: return .number(try parseNumber())
        default: throw error("unexpected \(describe(c)), expected a value")
        }
    }

    mutating func literal(_ word: StaticString) throws {
        let n = word.utf8CodeUnitCount
        let p = word.utf8Start
        guard i + n <= buf.count else { throw error("invalid literal, expected '\(word)'") }
        for k in 0..<n where buf[i + k] != p[k] { throw error("invalid literal, expected '\(word)'") }
        i += n
    }

    mutating func parseNumber() throws -> JSONNumber {
        let start = i
        if buf[i] == UInt8(ascii: "-") { i += 1 }
        while i < buf.count {
            let c = buf[i]
            if (c >= 48 && c <= 57) || c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E")
                || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") { i += 1 } else { break }
        }
        guard let n = JSONNumber.parse(buf, start, i, strict: true) else {
            throw error("invalid number '\(String(decoding: UnsafeBufferPointer(rebasing: buf[start..<i]), as: UTF8.self))'", at: start)
        }
        return n
    }

    mutating func parseArray() throws -> JSONValue {
        depth += 1
        if depth > JSONParserImpl.maxDepth { throw error("nesting too deep") }
        defer { depth -= 1 }
        i += 1
        var arr: [JSONValue] = []
        skipWS()
        if i < buf.count && buf[i] == UInt8(ascii: "]") { i += 1; return .array(arr) }
        while true {
            skipWS()
            arr.append(try parseValue())
            skipWS()
            guard i < buf.count else { throw error("unexpected end of input in array, expected ',' or ']'") }
            if buf[i] == UInt8(ascii: ",") { i += 1; continue }
            if buf[i] == UInt8(ascii: "]") { i += 1; return .array(arr) }
            throw error("unexpected \(describe(buf[i])) in array, expected ',' or ']'")
        }
    }

    mutating func parseObject() throws -> JSONValue {
        depth += 1
        if depth > JSONParserImpl.maxDepth { throw error("nesting too deep") }
        defer { depth -= 1 }
        i += 1
        var obj = JSONObject()
        skipWS()
        if i < buf.count && buf[i] == UInt8(ascii: "}") { i += 1; return .object(obj) }
        while true {
            skipWS()
            guard i < buf.count else { throw error("unexpected end of input in object, expected a key") }
            guard buf[i] == UInt8(ascii: "\"") else { throw error("unexpected \(describe(buf[i])), expected a string key") }
            let key = try parseString()
            skipWS()
            guard i < buf.count, buf[i] == UInt8(ascii: ":") else { throw error("expected ':' after object key") }
            i += 1
            skipWS()
            let v = try parseValue()
            if obj[key] != nil { obj.hadDuplicateKeys = true }
            obj[key] = v
            skipWS()
            guard i < buf.count else { throw error("unexpected end of input in object, expected ',' or '}'") }
            if buf[i] == UInt8(ascii: ",") { i += 1; continue }
            if buf[i] == UInt8(ascii: "}") { i += 1; return .object(obj) }
            throw error("unexpected \(describe(buf[i])) in object, expected ',' or '}'")
        }
    }

    mutating func hex4() throws -> UInt32 {
        guard i + 4 <= buf.count else { throw error("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = buf[i]
            var d: UInt32
            switch c {
            case 48...57: d = UInt32(c - 48)
            case 97...102: d = UInt32(c - 87)
            case 65...70: d = UInt32(c - 55)
            default: throw error("invalid hex digit in \\u escape")
            }
            v = v * 16 + d
            i += 1
        }
        return v
    }

    mutating func parseString() throws -> String {
        let open = i
        i += 1
        let start = i
        // Fast path: no escapes.
        while i < buf.count {
            let c = buf[i]
            if c == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: buf[start..<i])
                guard let s = String(validating: slice, as: UTF8.self) else { throw error("invalid UTF-8 in string", at: start) }
                i += 1
                return s
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw error("unescaped control character in string") }
            i += 1
        }
        if i >= buf.count { throw error("unterminated string", at: open) }
        // Slow path with escapes.
        var out = [UInt8](UnsafeBufferPointer(rebasing: buf[start..<i]))
        while i < buf.count {
            let c = buf[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                guard let s = String(validating: out, as: UTF8.self) else { throw error("invalid UTF-8 in string", at: start) }
                return s
            }
            if c < 0x20 { throw error("unescaped control character in string") }
            if c != UInt8(ascii: "\\") { out.append(c); i += 1; continue }
            i += 1
            guard i < buf.count else { break }
            let e = buf[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(34)
            case UInt8(ascii: "\\"): out.append(92)
            case UInt8(ascii: "/"): out.append(47)
            case UInt8(ascii: "b"): out.append(8)
            case UInt8(ascii: "f"): out.append(12)
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "u"):
                var cp = try hex4()
                if cp >= 0xD800 && cp < 0xDC00 {
                    guard i + 6 <= buf.count, buf[i] == UInt8(ascii: "\\"), buf[i + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired high surrogate in \\u escape")
                    }
                    i += 2
                    let lo = try hex4()
                    guard lo >= 0xDC00 && lo < 0xE000 else { throw error("invalid low surrogate in \\u escape") }
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00)
                } else if cp >= 0xDC00 && cp < 0xE000 {
                    throw error("unpaired low surrogate in \\u escape")
                }
                out.append(contentsOf: Array(String(Character(Unicode.Scalar(cp)!)).utf8))
            default:
                throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'", at: i - 2)
            }
        }
        throw error("unterminated string", at: open)
    }
}

// MARK: - Serialization

/// Options for ``JSONValue/serialized(options:)``.
public struct JSONWriteOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Indent with two spaces, one member/element per line, `"key": value`.
    public static let prettyPrinted = JSONWriteOptions(rawValue: 1)
    /// Sort object keys (by Unicode code points) instead of keeping insertion order.
    public static let sortedKeys = JSONWriteOptions(rawValue: 2)
    /// Escape `/` as `\/`.
    public static let escapeSlashes = JSONWriteOptions(rawValue: 4)
}

extension JSONValue {
    /// JSON text for this value (compact by default).
    public func serialized(options: JSONWriteOptions = []) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(into: &out, options: options, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// UTF-8 JSON data for this value.
    public func serializedData(options: JSONWriteOptions = []) -> Data {
        var out: [UInt8] = []
        write(into: &out, options: options, indent: 0)
        return Data(out)
    }

    private func newline(_ out: inout [UInt8], _ indent: Int) {
        out.append(10)
        for _ in 0..<(indent * 2) { out.append(32) }
    }

    func write(into out: inout [UInt8], options: JSONWriteOptions, indent: Int) {
        let pretty = options.contains(.prettyPrinted)
        switch self {
        case .null: out.append(contentsOf: Array("null".utf8))
        case .bool(let b): out.append(contentsOf: Array((b ? "true" : "false").utf8))
        case .number(let n): out.append(contentsOf: Array(n.description.utf8))
        case .string(let s): JSONValue.writeString(s, into: &out, escapeSlashes: options.contains(.escapeSlashes))
        case .array(let a):
            out.append(UInt8(ascii: "["))
            if a.isEmpty { out.append(UInt8(ascii: "]")); return }
            for (k, v) in a.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { newline(&out, indent + 1) }
                v.write(into: &out, options: options, indent: indent + 1)
            }
            if pretty { newline(&out, indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            out.append(UInt8(ascii: "{"))
            if o.isEmpty { out.append(UInt8(ascii: "}")); return }
            let keys = options.contains(.sortedKeys) ? o.keys.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) } : o.keys
            for (k, key) in keys.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { newline(&out, indent + 1) }
                JSONValue.writeString(key, into: &out, escapeSlashes: options.contains(.escapeSlashes))
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(32) }
                o[key]!.write(into: &out, options: options, indent: indent + 1)
            }
            if pretty { newline(&out, indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A JSON string literal of `s`: `"`, `\` and control characters escaped (`/` only when asked), the rest as
    /// UTF-8. The export writer (`ExportJSON`) uses it too: it is the escaping Foundation's writer does.
    package static func writeString(_ s: String, into out: inout [UInt8], escapeSlashes: Bool = false) {
        out.append(34)
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        for c in s.utf8 {
            switch c {
            case 34: out.append(92); out.append(34)
            case 92: out.append(92); out.append(92)
            case 10: out.append(92); out.append(UInt8(ascii: "n"))
            case 13: out.append(92); out.append(UInt8(ascii: "r"))
            case 9: out.append(92); out.append(UInt8(ascii: "t"))
            case 8: out.append(92); out.append(UInt8(ascii: "b"))
            case 12: out.append(92); out.append(UInt8(ascii: "f"))
            case 47 where escapeSlashes: out.append(92); out.append(47)
            case 0..<32:
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(hex[Int(c >> 4)]); out.append(hex[Int(c & 15)])
            default: out.append(c)
            }
        }
        out.append(34)
    }
}
