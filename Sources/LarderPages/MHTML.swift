import Foundation

/// A page saved as MHTML (`.mhtml`/`.mht`, "Webpage, single file" in Chrome and Edge): a MIME message whose
/// `multipart/related` body holds the page's HTML (usually quoted-printable) and its resources. ``html(in:)`` finds
/// the first `text/html` part and decodes it, in pure Swift (RFC 2045/2046/2557: folded headers, boundaries,
/// quoted-printable with soft line breaks, base64, the part's `charset`).
enum MHTML {
    /// The HTML part's bytes and declared charset, or `nil` when `data` is not a MIME message holding HTML.
    static func html(in data: Data) -> (html: Data, charset: String?)? {
        guard looksLikeMIME(data), let (headers, bodyStart) = headerBlock(data, from: data.startIndex) else { return nil }
        guard let type = headers["content-type"] else { return nil }
        let body = data[bodyStart...]
        if type.lowercased().hasPrefix("multipart/") {
            guard let boundary = parameter("boundary", in: type) else { return nil }
            for part in parts(of: body, boundary: boundary) {
                guard let (h, start) = headerBlock(data, from: part.lowerBound), start <= part.upperBound,
                    let partType = h["content-type"], partType.lowercased().hasPrefix("text/html")
                else { continue }
                return (decode(data[start..<part.upperBound], h["content-transfer-encoding"]), parameter("charset", in: partType))
            }
            return nil
        }
        guard type.lowercased().hasPrefix("text/html") else { return nil }
        return (decode(body, headers["content-transfer-encoding"]), parameter("charset", in: type))
    }

    /// A MIME message starts with header lines, among them `MIME-Version` (Chrome writes `From: <Saved by Blink>`
    /// first).
    static func looksLikeMIME(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(2048), as: UTF8.self).lowercased()
        guard let first = head.first, first.isLetter else { return false }
        return head.contains("mime-version:") && head.contains("content-type:")
            && (head.hasPrefix("from:") || head.hasPrefix("mime-version:") || head.hasPrefix("content-type:")
                || head.hasPrefix("subject:") || head.hasPrefix("date:") || head.hasPrefix("snapshot-content-location:")
                || head.hasPrefix("content-location:") || head.hasPrefix("message-id:"))
    }

    /// The headers starting at `from` (names lower case, folded lines joined) and where the body starts.
    static func headerBlock(_ data: Data, from: Data.Index) -> ([String: String], Data.Index)? {
        var headers: [String: String] = [:]
        var last: String?
        var i = from
        while i < data.endIndex {
            let end = data[i...].firstIndex(of: 0x0A) ?? data.endIndex
            var line = data[i..<end]
            if line.last == 0x0D { line = line.dropLast() }
            i = end < data.endIndex ? end + 1 : end
            if line.isEmpty { return (headers, i) }
            let text = String(decoding: line, as: UTF8.self)
            if text.first == " " || text.first == "\t", let key = last {
                headers[key, default: ""] += " " + text.trimmingCharacters(in: .whitespaces)
            } else if let colon = text.firstIndex(of: ":") {
                let key = text[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                if headers[key] == nil { headers[key] = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces) }
                last = key
            } else if headers.isEmpty {
                return nil  // not a header line at all
            }
        }
        return headers.isEmpty ? nil : (headers, i)
    }

    /// A parameter of a header value (`boundary="----abc"`, `charset=utf-8`), unquoted.
    static func parameter(_ name: String, in value: String) -> String? {
        for piece in value.split(separator: ";").dropFirst() {
            let kv = piece.split(separator: "=", maxSplits: 1)
            guard kv.count == 2, kv[0].trimmingCharacters(in: .whitespaces).lowercased() == name else { continue }
            var v = kv[1].trimmingCharacters(in: .whitespaces)
            if v.hasPrefix("\""), v.hasSuffix("\""), v.count >= 2 { v = String(v.dropFirst().dropLast()) }
            return v
        }
        return nil
    }

    /// The byte ranges of the body's parts (between `--boundary` lines, the line break before each delimiter
    /// belonging to it).
    static func parts(of body: Data, boundary: String) -> [Range<Data.Index>] {
        let delimiter = Data(("--" + boundary).utf8)
        var starts: [(Data.Index, Data.Index)] = []  // delimiter start, content start
        var from = body.startIndex
        while let r = body.range(of: delimiter, in: from..<body.endIndex) {
            let atLineStart = r.lowerBound == body.startIndex || body[r.lowerBound - 1] == 0x0A
            from = r.upperBound
            guard atLineStart else { continue }
            let lineEnd = body[r.upperBound...].firstIndex(of: 0x0A).map { $0 + 1 } ?? body.endIndex
            starts.append((r.lowerBound, lineEnd))
            if body[r.upperBound...].starts(with: Data("--".utf8)) { break }  // the closing delimiter
        }
        var out: [Range<Data.Index>] = []
        for (k, s) in starts.enumerated() where k + 1 < starts.count {
            var end = starts[k + 1].0
            if end > s.1, body[end - 1] == 0x0A { end -= 1 }
            if end > s.1, body[end - 1] == 0x0D { end -= 1 }
            out.append(s.1..<max(s.1, end))
        }
        return out
    }

    static func decode(_ body: Data, _ encoding: String?) -> Data {
        switch encoding?.lowercased() ?? "" {
        case "quoted-printable": return quotedPrintable(body)
        case "base64": return Data(base64Encoded: body, options: .ignoreUnknownCharacters) ?? Data()
        default: return Data(body)
        }
    }

    /// Quoted-printable: `=XX` is a byte, `=` at a line end a soft break; everything else as is.
    static func quotedPrintable(_ body: Data) -> Data {
        var out = Data()
        out.reserveCapacity(body.count)
        let b = Array(body)
        func hex(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: return c - 0x30
            case 0x41...0x46: return c - 0x41 + 10
            case 0x61...0x66: return c - 0x61 + 10
            default: return nil
            }
        }
        var i = 0
        while i < b.count {
            let c = b[i]
            guard c == 0x3D else { out.append(c); i += 1; continue }
            if i + 1 < b.count, b[i + 1] == 0x0A { i += 2; continue }
            if i + 2 < b.count, b[i + 1] == 0x0D, b[i + 2] == 0x0A { i += 3; continue }
            if i + 2 < b.count, let h = hex(b[i + 1]), let l = hex(b[i + 2]) {
                out.append(h << 4 | l)
                i += 3
                continue
            }
            out.append(c)
            i += 1
        }
        return out
    }
}
