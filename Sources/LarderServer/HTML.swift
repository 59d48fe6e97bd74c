import Foundation
import Hummingbird
import LarderJSON

/// HTML built as text, with every value escaped on the way in: the page never puts a stored or submitted string
/// into the markup unescaped (a recipe titled `<script>` stays text).
struct HTML {
    private(set) var text = ""

    /// Escapes `&`, `<`, `>`, `"` and `'`: safe in text and in double-quoted attribute values.
    static func escape(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for character in value.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// Markup written by the page itself (tags, fixed attributes), never a value.
    mutating func raw(_ markup: String) { text += markup }

    /// A value, escaped.
    mutating func put(_ value: String) { text += Self.escape(value) }

    /// `<tag attributes>escaped text</tag>`; attribute values are escaped.
    mutating func element(_ tag: String, _ attributes: KeyValuePairs<String, String> = [:], text value: String) {
        open(tag, attributes)
        put(value)
        text += "</\(tag)>"
    }

    mutating func open(_ tag: String, _ attributes: KeyValuePairs<String, String> = [:]) {
        text += "<" + tag
        for (name, value) in attributes { text += " \(name)=\"\(Self.escape(value))\"" }
        text += ">"
    }

    mutating func close(_ tag: String) { text += "</\(tag)>" }

    /// The whole page: head with the served style sheet and script, and `body`'s data attributes.
    static func page(title: String, data: KeyValuePairs<String, String>, _ build: (inout HTML) -> Void) -> Response {
        var html = HTML()
        html.raw("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        html.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        html.element("title", text: title)
        html.raw("<link rel=\"stylesheet\" href=\"/assets/review.css\"><script src=\"/assets/review.js\" defer></script>")
        html.raw("</head>")
        html.raw("<body")
        for (name, value) in data where !value.isEmpty { html.raw(" data-\(name)=\"\(escape(value))\"") }
        html.raw(">")
        build(&html)
        html.raw("</body></html>\n")
        return Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: html.text)))
    }
}

/// `application/x-www-form-urlencoded` bodies.
enum FormBody {
    static func parse(_ data: Data) -> [(String, String)] {
        String(decoding: data, as: UTF8.self).split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]) else { return nil }
            return (name, parts.count > 1 ? decode(parts[1]) ?? "" : "")
        }
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}

extension JSONValue {
    /// A scalar as a form field shows it.
    var formText: String {
        switch self {
        case .string(let text): text
        case .number(let number): "\(number)"
        case .bool(let flag): flag ? "true" : "false"
        case .null: ""
        default: serialized()
        }
    }
}
