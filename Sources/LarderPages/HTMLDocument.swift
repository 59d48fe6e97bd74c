import Foundation
internal import CLibXML2

/// A saved web page parsed by libxml2's HTML parser (`htmlReadMemory` with recovery, no network, no error output,
/// compact text nodes). The object owns libxml2's document and frees it when released; the page readers walk the
/// C tree in place through ``HTMLElement`` views (nothing is copied into Swift but the text they keep), so a view
/// must not outlive the document it came from — every reader here uses them inside one call.
///
/// Limits: `maxBytes` on the input; libxml2 itself stops building the tree at nesting depth 256 (it is not given
/// `HTML_PARSE_HUGE`), and the readers treat elements deeper than `maxDepth` as text; at most `maxElements`
/// elements are read, and the reading stops with ``HTMLParseError/tooSlow(_:)`` after `maxSeconds`.
public final class HTMLDocument {
    /// Parsing limits (`pipeline.yml` `limits.html_*`).
    public struct Limits: Sendable, Equatable {
        public var maxBytes = 32 << 20
        public var maxDepth = 200
        public var maxElements = 400_000
        public var maxSeconds = 10.0
        public init() {}
    }

    /// The character encoding the bytes were read as (declared, else UTF-8 when valid, else Windows-1252).
    public let encoding: String
    let limits: Limits
    private let doc: htmlDocPtr

    private init(doc: htmlDocPtr, encoding: String, limits: Limits) {
        self.doc = doc
        self.encoding = encoding
        self.limits = limits
    }

    deinit { xmlFreeDoc(doc) }

    /// The `<html>` element (libxml2 adds one when the page has none); valid while `self` lives.
    var root: HTMLElement? { xmlDocGetRootElement(doc).map(HTMLElement.init) }

    private static let initialized: Bool = {
        xmlInitParser()  // once, before any thread parses: libxml2 is then thread-safe for separate documents
        return true
    }()

    /// Parses `data` as HTML. `encoding` overrides the page's declared charset when given.
    public static func parse(_ data: Data, encoding: String? = nil, limits: Limits = Limits()) throws(HTMLParseError) -> HTMLDocument {
        guard data.count <= limits.maxBytes else { throw .tooLarge(data.count, limits.maxBytes) }
        _ = initialized
        let declared = encoding ?? Charset.declared(in: data)
        let data = RawContentFilter.filter(data) ?? data
        let charset = declared ?? (Charset.isUTF8(data) ? "UTF-8" : "windows-1252")
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
        let document = HTMLDocument(doc: doc, encoding: charset, limits: limits)
        guard document.root != nil else { throw .unreadable }
        return document
    }
}

/// Why a page could not be parsed.
public enum HTMLParseError: Error, Sendable, Equatable {
    /// The page is larger than the size limit (bytes, limit).
    case tooLarge(Int, Int)
    /// libxml2 returned no document at all (not even after recovery).
    case unreadable
    /// Reading the tree took longer than the time limit (seconds).
    case tooSlow(Double)
}

/// An element of a parsed page: a view of libxml2's node, valid while its ``HTMLDocument`` lives. Names are lower
/// case (libxml2's HTML parser lower-cases element and attribute names).
struct HTMLElement {
    let node: xmlNodePtr

    init(_ node: xmlNodePtr) { self.node = node }

    /// The element name, lower case ("div", "script").
    var name: String { node.pointee.name.map { String(cString: $0) } ?? "" }

    /// Whether the element is called `name` (no String is made).
    func `is`(_ name: StaticString) -> Bool {
        guard let n = node.pointee.name else { return false }
        return CBytes.equal(n, name)
    }

    /// The attribute's value (the first when repeated), or `nil`.
    subscript(attribute: String) -> String? {
        var attr = node.pointee.properties
        while let a = attr {
            if let n = a.pointee.name, xmlStrEqual(n, attribute) != 0 { return CBytes.text(of: a.pointee.children) }
            attr = a.pointee.next
        }
        return nil
    }

    /// Whether the element has the attribute at all.
    func has(_ attribute: StaticString) -> Bool {
        var attr = node.pointee.properties
        while let a = attr {
            if let n = a.pointee.name, CBytes.equal(n, attribute) { return true }
            attr = a.pointee.next
        }
        return false
    }

    /// Child elements and text, in order; none for elements whose content no reader uses (styles, drawings,
    /// frames, scripts other than JSON-LD).
    var children: HTMLChildren { HTMLChildren(first: skipsContent ? nil : node.pointee.children) }

    /// Child elements only.
    var childElements: [HTMLElement] {
        var out: [HTMLElement] = []
        for case .element(let e) in children { out.append(e) }
        return out
    }

    /// All text inside the element, concatenated (as the DOM's `textContent`, without skipped content).
    var textContent: String {
        var bytes: [UInt8] = []
        appendText(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    func appendText(to bytes: inout [UInt8]) {
        for child in children {
            switch child {
            case .text(let t): t.append(to: &bytes)
            case .element(let e): e.appendText(to: &bytes)
            }
        }
    }

    /// Every element below this one (depth first, document order), not including itself.
    func descendants(where match: (HTMLElement) -> Bool) -> [HTMLElement] {
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
    var classes: [Substring] {
        guard let c = self["class"], !c.isEmpty else { return [] }
        return c.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" })
    }

    /// Whether the `class`, `id` or `role` attribute contains one of `stems` (lower-case ASCII), ignoring ASCII
    /// case; no String is made.
    func attributesMention(_ stems: StemTable) -> Bool {
        var attr = node.pointee.properties
        while let a = attr {
            if let n = a.pointee.name, CBytes.equal(n, "class") || CBytes.equal(n, "id") || CBytes.equal(n, "role") {
                var v = a.pointee.children
                while let t = v {
                    if let content = t.pointee.content, stems.occurs(in: content) { return true }
                    v = t.pointee.next
                }
            }
            attr = a.pointee.next
        }
        return false
    }

    /// Whether the element has any attribute.
    var hasAttributes: Bool { node.pointee.properties != nil }

    /// The parent element, or `nil` at the root.
    var parent: HTMLElement? {
        guard let p = node.pointee.parent, p.pointee.type == XML_ELEMENT_NODE else { return nil }
        return HTMLElement(p)
    }

    /// Whether `other` is this element or below it.
    func isAncestor(of other: HTMLElement) -> Bool {
        var n: xmlNodePtr? = other.node
        while let c = n {
            if c == node { return true }
            n = c.pointee.parent
        }
        return false
    }

    /// Whether the class attribute contains `fragment` at all: a cheap byte test before looking at ``classes``.
    func classMentions(_ fragment: StaticString) -> Bool { attribute("class", contains: fragment) }

    /// Whether the attribute's value contains `fragment` (bytes, case as written); no String is made.
    func attribute(_ name: StaticString, contains fragment: StaticString) -> Bool {
        var attr = node.pointee.properties
        while let a = attr {
            if let n = a.pointee.name, CBytes.equal(n, name) {
                var v = a.pointee.children
                while let t = v {
                    if let content = t.pointee.content, CBytes.contains(content, fragment) { return true }
                    v = t.pointee.next
                }
                return false
            }
            attr = a.pointee.next
        }
        return false
    }

    /// Elements whose content no reader uses: styles, drawings, embedded frames and scripts other than JSON-LD.
    var skipsContent: Bool {
        guard let n = node.pointee.name else { return true }
        switch n[0] {
        case UInt8(ascii: "s"):
            if CBytes.equal(n, "script") { return !(self["type"] ?? "").lowercased().contains("ld+json") }
            return CBytes.equal(n, "style") || CBytes.equal(n, "svg") || CBytes.equal(n, "select")
        case UInt8(ascii: "i"): return CBytes.equal(n, "iframe")
        case UInt8(ascii: "t"): return CBytes.equal(n, "template")
        case UInt8(ascii: "m"): return CBytes.equal(n, "math")
        case UInt8(ascii: "c"): return CBytes.equal(n, "canvas")
        case UInt8(ascii: "v"): return CBytes.equal(n, "video")
        case UInt8(ascii: "a"): return CBytes.equal(n, "audio")
        case UInt8(ascii: "p"): return CBytes.equal(n, "picture")
        default: return false
        }
    }
}

/// A text node of a parsed page (a view, as ``HTMLElement``).
struct HTMLText {
    let content: UnsafePointer<xmlChar>

    var string: String { String(cString: content) }

    /// The text with white space collapsed, or `nil` when it is longer than `limit` bytes (not read further).
    func collapsedIfShorter(than limit: Int) -> String? {
        var n = 0
        while content[n] != 0 {
            n += 1
            if n > limit { return nil }
        }
        return Whitespace.collapse(bytes: UnsafeBufferPointer(start: content, count: n))
    }

    func append(to bytes: inout [UInt8]) {
        var p = content
        while p.pointee != 0 {
            bytes.append(p.pointee)
            p += 1
        }
    }
}

/// A child of an ``HTMLElement``.
enum HTMLContent {
    case element(HTMLElement)
    case text(HTMLText)
}

/// An element's children as a sequence (text and CDATA nodes as text; comments, processing instructions and DTD
/// nodes left out).
struct HTMLChildren: Sequence, IteratorProtocol {
    var cursor: xmlNodePtr?

    init(first: xmlNodePtr?) { cursor = first }

    mutating func next() -> HTMLContent? {
        while let n = cursor {
            cursor = n.pointee.next
            switch n.pointee.type {
            case XML_ELEMENT_NODE: return .element(HTMLElement(n))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let c = n.pointee.content { return .text(HTMLText(content: UnsafePointer(c))) }
            default: break
            }
        }
        return nil
    }
}

/// Lower-case ASCII stems grouped by their first byte, to look for all of them in one pass over a string.
struct StemTable: Sendable {
    let byFirst: [[[UInt8]]]

    init(_ stems: [[UInt8]]) {
        var table = [[[UInt8]]](repeating: [], count: 256)
        for s in stems where !s.isEmpty { table[Int(s[0])].append(s) }
        byFirst = table
    }

    /// Whether one of the stems occurs in the NUL-terminated `p`, ignoring ASCII case (as
    /// ``CBytes/containsCaseless(_:_:)`` for each stem).
    func occurs(in p: UnsafePointer<xmlChar>) -> Bool {
        var i = 0
        while p[i] != 0 {
            for stem in byFirst[Int(p[i] | 0x20)] {
                var j = 1
                while j < stem.count, p[i + j] != 0, p[i + j] | 0x20 == stem[j] { j += 1 }
                if j == stem.count { return true }
            }
            i += 1
        }
        return false
    }
}

/// Byte helpers over libxml2's NUL-terminated UTF-8 strings.
enum CBytes {
    static func equal(_ p: UnsafePointer<xmlChar>, _ s: StaticString) -> Bool {
        let q = s.utf8Start
        var i = 0
        while i < s.utf8CodeUnitCount {
            if p[i] != q[i] { return false }
            i += 1
        }
        return p[i] == 0
    }

    /// Whether `needle` occurs in the NUL-terminated `p`.
    static func contains(_ p: UnsafePointer<xmlChar>, _ needle: StaticString) -> Bool {
        let q = needle.utf8Start, n = needle.utf8CodeUnitCount
        guard n > 0 else { return true }
        var i = 0
        while p[i] != 0 {
            if p[i] == q[0] {
                var j = 1
                while j < n && p[i + j] == q[j] { j += 1 }
                if j == n { return true }
            }
            i += 1
        }
        return false
    }

    /// Whether lower-case ASCII `needle` occurs in the NUL-terminated `p`, ignoring ASCII case.
    static func containsCaseless(_ p: UnsafePointer<xmlChar>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        let n = needle.count
        var i = 0
        while p[i] != 0 {
            if p[i] | 0x20 == first {
                var j = 1
                while j < n, p[i + j] != 0, p[i + j] | 0x20 == needle[j] { j += 1 }
                if j == n { return true }
            }
            i += 1
        }
        return false
    }

    /// The concatenated text of an attribute's value nodes.
    static func text(of first: xmlNodePtr?) -> String {
        guard let f = first else { return "" }
        if f.pointee.next == nil { return f.pointee.content.map { String(cString: $0) } ?? "" }
        var out = ""
        var node: xmlNodePtr? = f
        while let n = node {
            if let content = n.pointee.content { out += String(cString: content) }
            node = n.pointee.next
        }
        return out
    }
}

/// Fast text helpers for the page readers (the stdlib's Unicode white-space test dominated a profile).
enum Whitespace {
    /// `s` with runs of white space (ASCII, no-break and zero-width spaces, line breaks) made one space, trimmed.
    static func collapse(_ s: String) -> String {
        var s = s
        return s.withUTF8 { collapse(bytes: $0) }
    }

    /// The same over UTF-8 bytes, without decoding anything but the few multi-byte spaces.
    static func collapse(bytes b: UnsafeBufferPointer<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var space = true
        var i = 0
        let n = b.count
        while i < n {
            let c = b[i]
            var width = 1
            var kind = 0  // 0 keep, 1 space, 2 drop
            switch c {
            case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20: kind = 1
            case 0xC2 where i + 1 < n:
                width = 2
                if b[i + 1] == 0xA0 || b[i + 1] == 0x85 { kind = 1 } else if b[i + 1] == 0xAD { kind = 2 }
            case 0xE1 where i + 2 < n:
                width = 3
                if b[i + 1] == 0x9A && b[i + 2] == 0x80 { kind = 1 }  // U+1680
            case 0xE2 where i + 2 < n:
                width = 3
                if b[i + 1] == 0x80 {
                    switch b[i + 2] {
                    case 0x80...0x8A, 0xA8, 0xA9, 0xAF: kind = 1  // U+2000–200A, 2028, 2029, 202F
                    case 0x8B, 0x8C, 0x8D: kind = 2  // zero-width space, non-joiner, joiner
                    default: break
                    }
                } else if b[i + 1] == 0x81 {
                    if b[i + 2] == 0x9F { kind = 1 } else if b[i + 2] == 0xA0 { kind = 2 }  // U+205F; U+2060
                }
            case 0xE3 where i + 2 < n:
                width = 3
                if b[i + 1] == 0x80 && b[i + 2] == 0x80 { kind = 1 }  // U+3000
            case 0xEF where i + 2 < n:
                width = 3
                if b[i + 1] == 0xBB && b[i + 2] == 0xBF { kind = 2 }  // U+FEFF
            default: break
            }
            switch kind {
            case 1:
                if !space { out.append(0x20) }
                space = true
                i += width
            case 2:
                i += width
            default:
                out.append(c)  // one byte at a time: the rest of a multi-byte character follows unchanged
                space = false
                i += 1
            }
        }
        if out.last == 0x20 { out.removeLast() }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether the bytes hold no visible character.
    static func isBlank(bytes b: [UInt8]) -> Bool {
        b.withUnsafeBufferPointer { collapse(bytes: $0).isEmpty }
    }

    /// Whether `text` has no visible character.
    static func isBlank(_ s: String) -> Bool { collapse(s).isEmpty }
}

/// The page's declared character set, read from the first bytes as browsers do (`<meta charset>`,
/// `<meta http-equiv="Content-Type" content="…; charset=…">`), and a UTF-8 validity check.
enum Charset {
    static func declared(in data: Data) -> String? {
        // A byte search in the first 4 KiB, any case (no String of the head is made: this runs for every page).
        let head = data.prefix(4096)
        let word = Array("charset=".utf8)
        var name = ""
        head.withUnsafeBytes { raw in
            let b = raw.bindMemory(to: UInt8.self)
            guard b.count >= word.count else { return }
            var i = 0
            while i + word.count <= b.count {
                if b[i] | 0x20 == 0x63, (1..<word.count).allSatisfy({ k in
                    let c = b[i + k]
                    return (c >= 0x41 && c <= 0x5A ? c | 0x20 : c) == word[k]
                }) {
                    var j = i + word.count
                    while j < b.count, b[j] == 0x22 || b[j] == 0x27 || b[j] == 0x20 { j += 1 }
                    var bytes: [UInt8] = []
                    while j < b.count {
                        let c = b[j]
                        let ok = (c >= 0x30 && c <= 0x39) || RawContentFilter.isLetter(c) || c == 0x2D || c == 0x5F || c == 0x3A || c == 0x2E
                        guard ok else { break }
                        bytes.append(c >= 0x41 && c <= 0x5A ? c | 0x20 : c)
                        j += 1
                    }
                    name = String(decoding: bytes, as: UTF8.self)
                    return
                }
                i += 1
            }
        }
        guard !name.isEmpty else { return nil }
        // Browsers read a declared Latin-1 as Windows-1252 (WHATWG Encoding), and so does Larder.
        if ["iso-8859-1", "latin1", "latin-1", "us-ascii", "ascii"].contains(name) { return "windows-1252" }
        if name == "utf8" { return "UTF-8" }
        return name
    }

    static func isUTF8(_ data: Data) -> Bool { String(validating: data, as: UTF8.self) != nil }
}

/// Empties, before libxml2 sees them, the elements whose content no reader uses and that make up about half of a
/// typical saved page's bytes: scripts other than JSON-LD, styles and inline SVG drawings. The elements stay (with
/// their attributes), so the tree libxml2 builds is the same but for their content. Tags are found as HTML
/// tokenises them (comments skipped, quoted attribute values stepped over); a script or style ends at `</script`
/// or `</style` in any case, as libxml2 ends it in recovery mode; an SVG only when it holds no nested `<svg`. An
/// element with no end is left alone.
enum RawContentFilter {
    /// The filtered bytes, or `nil` when there is nothing to remove.
    static func filter(_ data: Data) -> Data? {
        data.withUnsafeBytes { raw -> Data? in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
            let b = UnsafeBufferPointer(start: base, count: raw.count)
            var out = Data()
            out.reserveCapacity(raw.count)
            var attributes: [Attribute] = []
            var copied = 0  // bytes of b before this are in `out` or dropped
            var i = 0
            let n = b.count
            while i < n {
                guard let hit = memchr(base + i, 0x3C, n - i) else { break }  // "<"
                let p = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                i = p + 1
                guard i < n else { break }
                if b[i] == 0x21 {  // "<!": a comment runs to "-->", anything else to ">"
                    if has(b, at: i + 1, "--") {
                        i = find(b, from: i + 3, "-->").map { $0 + 3 } ?? n
                    } else {
                        i = find(b, from: i, ">").map { $0 + 1 } ?? n
                    }
                    continue
                }
                guard isLetter(b[i]) else { continue }
                var e = i
                while e < n, isLetter(b[e]) || (b[e] >= 0x30 && b[e] <= 0x39) || b[e] == 0x2D { e += 1 }
                let kind = kindOf(b, i, e)
                attributes.removeAll(keepingCapacity: true)
                let close = scanAttributes(b, from: e, into: &attributes)
                guard let close else { break }
                for a in attributes where !keeps(b, a, attributes, tag: i..<e) {
                    out.append(base + copied, count: a.start - copied)
                    copied = a.end
                }
                i = close + 1
                guard kind != 0 else { continue }
                if kind == 1, containsCaseless(b, e, close, "ld+json") {  // kept whole: its "<" are JSON text
                    if let end = contentEnd(b, from: i, kind: 1) { i = end }
                    continue
                }
                guard let end = contentEnd(b, from: i, kind: kind) else { continue }
                if end > i {
                    out.append(base + copied, count: i - copied)
                    copied = end
                }
                i = end
            }
            guard copied > 0 else { return nil }
            out.append(base + copied, count: n - copied)
            return out
        }
    }

    static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D || c == 0x0C }

    /// An attribute of a start tag: `start` is where the white space before it begins, `end` just after its value.
    struct Attribute {
        var start: Int
        var name: Range<Int>
        var end: Int
    }

    /// The attributes of a start tag whose name ends at `from`, and the index of the `>` that ends it (quoted
    /// values stepped over); `nil` when the tag does not end.
    static func scanAttributes(_ b: UnsafeBufferPointer<UInt8>, from: Int, into attributes: inout [Attribute]) -> Int? {
        let n = b.count
        var j = from
        while true {
            let start = j
            while j < n, isSpace(b[j]) { j += 1 }
            guard j < n else { return nil }
            if b[j] == 0x3E { return j }  // ">"
            let nameStart = j
            while j < n, !isSpace(b[j]), b[j] != 0x3E, b[j] != 0x3D, b[j] != 0x2F { j += 1 }
            if j == nameStart {  // "/" or a stray "=": not an attribute
                j += 1
                continue
            }
            let nameEnd = j
            var k = j
            while k < n, isSpace(b[k]) { k += 1 }
            if k < n, b[k] == 0x3D {  // "="
                k += 1
                while k < n, isSpace(b[k]) { k += 1 }
                if k < n, b[k] == 0x22 || b[k] == 0x27 {
                    let quote = b[k]
                    k += 1
                    while k < n, b[k] != quote { k += 1 }
                    guard k < n else { return nil }
                    k += 1
                } else {
                    while k < n, !isSpace(b[k]), b[k] != 0x3E { k += 1 }
                }
                j = k
            }
            attributes.append(Attribute(start: start, name: nameStart..<nameEnd, end: j))
        }
    }

    /// The attributes some reader uses (any case); all others (`data-*`, `srcset`, `alt`, `onclick`…, a third of
    /// a saved page's bytes) are removed before libxml2 parses the page, so that it never decodes them.
    static let used: [[UInt8]] = [
        "class", "id", "role", "style", "hidden", "aria-hidden", "itemprop", "itemscope", "itemtype", "itemid",
        "itemref", "content", "datetime", "value", "rel", "property", "name", "type", "charset", "http-equiv",
    ].map { Array($0.utf8) }

    static func named(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, _ word: [UInt8]) -> Bool {
        guard r.count == word.count else { return false }
        var k = 0
        for i in r {
            let c = b[i]
            if (isLetter(c) ? c | 0x20 : c) != word[k] { return false }
            k += 1
        }
        return true
    }

    static let href = Array("href".utf8), src = Array("src".utf8), itemprop = Array("itemprop".utf8), id = Array("id".utf8)
    static let link = Array("link".utf8), img = Array("img".utf8)

    /// Whether attribute `a` of a tag is kept: a used one; `href` on `link` and on elements with an `itemprop` or
    /// an `id` (microdata values, app exports' links); `src` on images and elements with an `itemprop`.
    static func keeps(_ b: UnsafeBufferPointer<UInt8>, _ a: Attribute, _ all: [Attribute], tag: Range<Int>) -> Bool {
        if used.contains(where: { named(b, a.name, $0) }) { return true }
        let isHref = named(b, a.name, href)
        guard isHref || named(b, a.name, src) else { return false }
        if named(b, tag, isHref ? link : img) { return true }
        return all.contains { named(b, $0.name, itemprop) || (isHref && named(b, $0.name, id)) }
    }

    /// 1 script, 2 style, 3 svg, 0 anything else, for the tag name in b[s..<e].
    static func kindOf(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> Int {
        func named(_ word: StaticString) -> Bool {
            e - s == word.utf8CodeUnitCount && (0..<(e - s)).allSatisfy { b[s + $0] | 0x20 == word.utf8Start[$0] }
        }
        switch e - s {
        case 6: return named("script") ? 1 : 0
        case 5: return named("style") ? 2 : 0
        case 3: return named("svg") ? 3 : 0
        default: return 0
        }
    }

    /// Where an element's content ends (the `<` of its end tag), or `nil` when it has none (or, for SVG, nests).
    static func contentEnd(_ b: UnsafeBufferPointer<UInt8>, from: Int, kind: Int) -> Int? {
        let endTag: StaticString = kind == 1 ? "</script" : kind == 2 ? "</style" : "</svg"
        guard let end = findCaseless(b, from: from, endTag) else { return nil }
        if kind == 3, let nested = findCaseless(b, from: from, "<svg"), nested < end { return nil }
        return end
    }

    static func has(_ b: UnsafeBufferPointer<UInt8>, at i: Int, _ s: StaticString) -> Bool {
        guard i + s.utf8CodeUnitCount <= b.count else { return false }
        return (0..<s.utf8CodeUnitCount).allSatisfy { b[i + $0] == s.utf8Start[$0] }
    }

    static func find(_ b: UnsafeBufferPointer<UInt8>, from: Int, _ s: StaticString) -> Int? {
        var i = from
        let first = s.utf8Start[0]
        while i < b.count {
            guard let hit = memchr(b.baseAddress! + i, Int32(first), b.count - i) else { return nil }
            let p = b.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if has(b, at: p, s) { return p }
            i = p + 1
        }
        return nil
    }

    /// The first `s` (lower case ASCII, starting with "<") at or after `from`, ignoring case.
    static func findCaseless(_ b: UnsafeBufferPointer<UInt8>, from: Int, _ s: StaticString) -> Int? {
        var i = from
        let n = s.utf8CodeUnitCount
        while i < b.count {
            guard let hit = memchr(b.baseAddress! + i, 0x3C, b.count - i) else { return nil }
            let p = b.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if p + n <= b.count, (1..<n).allSatisfy({ b[p + $0] | (isLetter(b[p + $0]) ? 0x20 : 0) == s.utf8Start[$0] }) {
                return p
            }
            i = p + 1
        }
        return nil
    }

    static func containsCaseless(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int, _ s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard to - from >= n else { return false }
        for i in from...(to - n) where (0..<n).allSatisfy({ b[i + $0] | (isLetter(b[i + $0]) ? 0x20 : 0) == s.utf8Start[$0] }) {
            return true
        }
        return false
    }
}
