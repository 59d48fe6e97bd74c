import Foundation
internal import CLibXML2

/// An element of a parsed HTML page: its lower-case name, attributes and children, in document order.
///
/// A plain Swift tree copied out of libxml2's (see ``HTMLDocument``), so nothing after parsing touches C. Immutable
/// once built, hence `Sendable`.
public final class HTMLElement: Sendable {
    /// The element name, lower case ("div", "script").
    public let name: String
    /// Attributes by lower-case name; for a repeated attribute, the first.
    public let attributes: [String: String]
    /// Child elements and text, in order.
    public let children: [HTMLContent]
    /// The element's 1-based position in document order (a stable address for provenance).
    public let index: Int

    init(name: String, attributes: [String: String], children: [HTMLContent], index: Int) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.index = index
    }

    /// The attribute's value, or `nil`.
    public subscript(attribute: String) -> String? { attributes[attribute] }

    /// All text inside the element, concatenated (as the DOM's `textContent`).
    public var textContent: String {
        var out = ""
        func walk(_ e: HTMLElement) {
            for c in e.children {
                switch c {
                case .text(let t): out += t
                case .element(let child): walk(child)
                }
            }
        }
        walk(self)
        return out
    }

    /// Every element below this one (depth first, document order), not including itself.
    public func descendants(where match: (HTMLElement) -> Bool) -> [HTMLElement] {
        var found: [HTMLElement] = []
        func walk(_ e: HTMLElement) {
            for case .element(let child) in e.children {
                if match(child) { found.append(child) }
                walk(child)
            }
        }
        walk(self)
        return found
    }

    /// The element's class names (split on ASCII white space, as HTML does).
    public var classes: [Substring] {
        guard let c = attributes["class"], !c.isEmpty else { return [] }
        return c.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" })
    }

    /// Whether the class attribute contains `fragment` at all: a cheap test before looking at ``classes``.
    func classMentions(_ fragment: String) -> Bool {
        guard let c = attributes["class"], !c.isEmpty else { return false }
        return c.utf8.count >= fragment.utf8.count && Whitespace.find(Array(fragment.utf8), in: c)
    }
}

/// Fast text helpers for the page readers (the stdlib's Unicode white-space test dominated a profile).
enum Whitespace {
    /// `s` with runs of white space (ASCII, no-break and zero-width spaces, line breaks) made one space, trimmed.
    static func collapse(_ s: String) -> String {
        var scalars = String.UnicodeScalarView()
        var space = true
        for u in s.unicodeScalars {
            switch u.value {
            case 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD: continue
            case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
                if !space { scalars.append(" ") }
                space = true
            default:
                scalars.append(u)
                space = false
            }
        }
        if scalars.last == " " { scalars.removeLast() }
        return String(scalars)
    }

    /// Whether `text` has no visible character.
    static func isBlank(_ s: String) -> Bool { collapse(s).isEmpty }

    /// Byte search of `needle` in `haystack`'s UTF-8.
    static func find(_ needle: [UInt8], in haystack: String) -> Bool {
        var h = haystack
        return h.withUTF8 { buf in
            guard needle.count <= buf.count, let first = needle.first else { return needle.isEmpty }
            var i = 0
            let last = buf.count - needle.count
            while i <= last {
                if buf[i] == first {
                    var j = 1
                    while j < needle.count && buf[i + j] == needle[j] { j += 1 }
                    if j == needle.count { return true }
                }
                i += 1
            }
            return false
        }
    }
}

/// A child of an ``HTMLElement``.
public enum HTMLContent: Sendable {
    case element(HTMLElement)
    case text(String)
}

/// Why a page could not be parsed.
public enum HTMLParseError: Error, Sendable, Equatable {
    /// The page is larger than the size limit (bytes, limit).
    case tooLarge(Int, Int)
    /// libxml2 returned no document at all (not even after recovery).
    case unreadable
    /// Copying the tree took longer than the time limit (seconds).
    case tooSlow(Double)
}

/// A saved web page parsed by libxml2's HTML parser (`htmlReadMemory` with recovery, no network, no error output),
/// copied into a Swift tree of ``HTMLElement``s; the C document is freed before `parse` returns.
///
/// Limits: `maxBytes` on the input; elements nested deeper than `maxDepth` are flattened into their ancestor at
/// that depth (their text is kept); at most `maxElements` elements are copied; copying stops with
/// ``HTMLParseError/tooSlow(_:)`` after `maxSeconds`. libxml2 itself caps nesting (256) unless `HTML_PARSE_HUGE`
/// is given, which it is not.
public struct HTMLDocument: Sendable {
    /// Parsing limits.
    public struct Limits: Sendable {
        public var maxBytes = 32 << 20
        public var maxDepth = 200
        public var maxElements = 400_000
        public var maxSeconds = 10.0
        public init() {}
    }

    /// The `<html>` element (libxml2 adds one when the page has none).
    public let root: HTMLElement
    /// The character encoding the bytes were read as (declared, else UTF-8 when valid, else Windows-1252).
    public let encoding: String

    private static let initialized: Bool = {
        xmlInitParser()  // once, before any thread parses: libxml2 is then thread-safe for separate documents
        return true
    }()

    /// Parses `data` as HTML. `encoding` overrides the page's declared charset when given.
    public static func parse(_ data: Data, encoding: String? = nil, limits: Limits = Limits()) throws(HTMLParseError) -> HTMLDocument {
        guard data.count <= limits.maxBytes else { throw .tooLarge(data.count, limits.maxBytes) }
        _ = initialized
        let charset = encoding ?? Charset.declared(in: data) ?? (Charset.isUTF8(data) ? "UTF-8" : "windows-1252")
        let options = Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
            | HTML_PARSE_NONET.rawValue | HTML_PARSE_COMPACT.rawValue)
        let doc: htmlDocPtr? = data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return nil }
            var d = htmlReadMemory(base.assumingMemoryBound(to: CChar.self), Int32(raw.count), nil, charset, options)
            if d == nil, charset != "UTF-8" {  // an encoding name iconv does not know: read as UTF-8
                d = htmlReadMemory(base.assumingMemoryBound(to: CChar.self), Int32(raw.count), nil, "UTF-8", options)
            }
            return d
        }
        guard let doc else { throw .unreadable }
        defer { xmlFreeDoc(doc) }
        var copier = TreeCopier(limits: limits)
        guard let rootNode = xmlDocGetRootElement(doc), let root = try copier.copy(rootNode, depth: 0) else {
            throw .unreadable
        }
        return HTMLDocument(root: root, encoding: charset)
    }
}

/// Copies libxml2's tree into ``HTMLElement``s, enforcing the depth, count and time limits.
private struct TreeCopier {
    let limits: HTMLDocument.Limits
    var count = 0
    let start = Date()

    init(limits: HTMLDocument.Limits) { self.limits = limits }

    mutating func copy(_ node: xmlNodePtr, depth: Int) throws(HTMLParseError) -> HTMLElement? {
        guard node.pointee.type == XML_ELEMENT_NODE else { return nil }
        count += 1
        let index = count
        if count % 4096 == 0, Date().timeIntervalSince(start) > limits.maxSeconds { throw .tooSlow(limits.maxSeconds) }
        // libxml2's HTML parser lower-cases element and attribute names itself.
        let name = node.pointee.name.map { String(cString: $0) } ?? ""
        var attributes: [String: String] = [:]
        var attr = node.pointee.properties
        while let a = attr {
            if let n = a.pointee.name {
                let key = String(cString: n)
                if Self.keptAttributes.contains(key), attributes[key] == nil { attributes[key] = Self.text(of: a.pointee.children) }
            }
            attr = a.pointee.next
        }
        var children: [HTMLContent] = []
        if !Self.skipsContent(name, attributes) { appendChildren(of: node, depth: depth, into: &children) }
        return HTMLElement(name: name, attributes: attributes, children: children, index: index)
    }

    /// Appends `node`'s children; past the depth or element limit, only their text.
    mutating func appendChildren(of node: xmlNodePtr, depth: Int, into children: inout [HTMLContent]) {
        var child = node.pointee.children
        while let c = child {
            switch c.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = c.pointee.content { children.append(.text(Self.string(content))) }
            case XML_ELEMENT_NODE:
                if depth + 1 < limits.maxDepth, count < limits.maxElements,
                    let e = try? copy(c, depth: depth + 1)
                {
                    children.append(.element(e))
                } else {
                    appendChildren(of: c, depth: depth, into: &children)
                }
            default:
                break  // comments, processing instructions, DTD nodes
            }
            child = c.pointee.next
        }
    }

    /// The attributes the page readers look at; the rest (`data-*`, `srcset`, event handlers…) are not copied.
    static let keptAttributes: Set<String> = [
        "class", "id", "style", "hidden", "aria-hidden", "itemprop", "itemscope", "itemtype", "itemid", "content",
        "href", "src", "datetime", "value", "type", "rel", "property", "name", "charset", "http-equiv",
    ]

    /// Elements whose content no reader uses: styles, drawings, embedded frames and scripts other than JSON-LD.
    /// Not copying them saves most of the work on a typical page.
    static func skipsContent(_ name: String, _ attributes: [String: String]) -> Bool {
        switch name {
        case "style", "svg", "iframe", "template", "math", "canvas", "video", "audio", "picture", "select": return true
        case "script": return !(attributes["type"] ?? "").lowercased().contains("ld+json")
        default: return false
        }
    }

    /// A text node's string; white space alone (most text nodes of a page) becomes one shared space.
    static func string(_ content: UnsafePointer<xmlChar>) -> String {
        var p = content
        while p.pointee == 0x20 || p.pointee == 0x0A || p.pointee == 0x09 || p.pointee == 0x0D { p += 1 }
        return p.pointee == 0 ? " " : String(cString: content)
    }

    /// The concatenated text of an attribute's value nodes.
    static func text(of first: xmlNodePtr?) -> String {
        var out = ""
        var node = first
        while let n = node {
            if let content = n.pointee.content { out += String(cString: content) }
            node = n.pointee.next
        }
        return out
    }
}

/// The page's declared character set, read from the first bytes as browsers do (`<meta charset>`,
/// `<meta http-equiv="Content-Type" content="…; charset=…">`), and a UTF-8 validity check.
enum Charset {
    static func declared(in data: Data) -> String? {
        let head = String(decoding: data.prefix(4096), as: UTF8.self).lowercased()
        guard let range = head.range(of: "charset=") else { return nil }
        var rest = head[range.upperBound...].drop { $0 == "\"" || $0 == "'" || $0 == " " }
        rest = rest.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ":" || $0 == "." }
        let name = String(rest)
        guard !name.isEmpty else { return nil }
        // Browsers read a declared Latin-1 as Windows-1252 (WHATWG Encoding), and so does Larder.
        if ["iso-8859-1", "latin1", "latin-1", "us-ascii", "ascii"].contains(name) { return "windows-1252" }
        if name == "utf8" { return "UTF-8" }
        return name
    }

    static func isUTF8(_ data: Data) -> Bool { String(validating: data, as: UTF8.self) != nil }
}
