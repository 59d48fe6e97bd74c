import Foundation

/// Validators for the JSON Schema `format` keyword.
enum FormatValidators {
    /// Names of formats that are checked. Others are accepted without checks.
    static let known: Set<String> = [
        "date", "date-time", "time", "duration", "email", "idn-email", "hostname", "idn-hostname",
        "ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uri-template", "uuid",
        "json-pointer", "relative-json-pointer", "regex",
    ]

    /// `nil` when the format is unknown, else whether `s` conforms.
    static func check(_ format: String, _ s: String) -> Bool? {
        switch format {
        case "date": return isDate(s)
        case "date-time": return isDateTime(s)
        case "time": return isTime(s)
        case "duration": return isDuration(s)
        case "email": return isEmail(s, idn: false)
        case "idn-email": return isEmail(s, idn: true)
        case "hostname": return IDNA.isHostname(s, unicode: false)
        case "idn-hostname": return IDNA.isHostname(s, unicode: true)
        case "ipv4": return isIPv4(s)
        case "ipv6": return isIPv6(s)
        case "uri": return isURI(s, reference: false, iri: false)
        case "uri-reference": return isURI(s, reference: true, iri: false)
        case "iri": return isURI(s, reference: false, iri: true)
        case "iri-reference": return isURI(s, reference: true, iri: true)
        case "uri-template": return isURITemplate(s)
        case "uuid": return isUUID(s)
        case "json-pointer": return (try? JSONPointer(parsing: s)) != nil
        case "relative-json-pointer": return isRelativeJSONPointer(s)
        case "regex": return ECMARegex.isValidECMA(s)
        default: return nil
        }
    }

    static func digits(_ b: ArraySlice<UInt8>) -> Int? {
        guard !b.isEmpty, b.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return b.reduce(0) { $0 * 10 + Int($1 - 48) }
    }

    static func isDate(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard b.count == 10, b[4] == 45, b[7] == 45,
              let y = digits(b[0..<4]), let m = digits(b[5..<7]), let d = digits(b[8..<10]) else { return false }
        guard m >= 1 && m <= 12 && d >= 1 else { return false }
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return d <= days[m - 1]
    }

    static func isTime(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard b.count >= 9, b[2] == 58, b[5] == 58,
              let h = digits(b[0..<2]), let mi = digits(b[3..<5]), let sec = digits(b[6..<8]) else { return false }
        var i = 8
        if b[i] == 46 {
            i += 1
            let st = i
            while i < b.count && b[i] >= 48 && b[i] <= 57 { i += 1 }
            if i == st { return false }
        }
        guard i < b.count else { return false }
        var offH = 0, offM = 0
        if b[i] == 90 || b[i] == 122 { // Z z
            i += 1
        } else if b[i] == 43 || b[i] == 45 {
            let sign = b[i] == 43 ? 1 : -1
            guard b.count - i == 6, b[i + 3] == 58, let oh = digits(b[(i + 1)..<(i + 3)]), let om = digits(b[(i + 4)..<(i + 6)]),
                  oh <= 23, om <= 59 else { return false }
            offH = sign * oh; offM = sign * om
            i += 6
        } else { return false }
        guard i == b.count, h <= 23, mi <= 59, sec <= 60 else { return false }
        if sec == 60 {
            // Leap second: must be 23:59:60 in UTC.
            var total = h * 60 + mi - (offH * 60 + offM)
            total = ((total % 1440) + 1440) % 1440
            return total == 23 * 60 + 59
        }
        return true
    }

    static func isDateTime(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard b.count > 11, b[10] == 84 || b[10] == 116 else { return false }
        return isDate(String(decoding: b[0..<10], as: UTF8.self)) && isTime(String(decoding: b[11...], as: UTF8.self))
    }

    static let durationRegex = try! NSRegularExpression(pattern:
        "^P(?:[0-9]+W|(?:[0-9]+Y(?:[0-9]+M(?:[0-9]+D)?)?|[0-9]+M(?:[0-9]+D)?|[0-9]+D)(?:T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S))?|T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S))\\z")

    static func full(_ re: NSRegularExpression, _ s: String) -> Bool {
        re.firstMatch(in: s, range: NSRange(location: 0, length: (s as NSString).length)) != nil
    }

    static func isDuration(_ s: String) -> Bool { s.utf8.allSatisfy { $0 < 128 } && full(durationRegex, s) }

    static func isUUID(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard b.count == 36 else { return false }
        for (i, c) in b.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 { if c != 45 { return false } }
            else if !((c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70)) { return false }
        }
        return true
    }

    static func isIPv4(_ s: String) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        for p in parts {
            let b = Array(p.utf8)
            guard b.count >= 1 && b.count <= 3, let v = digits(b[...]), v <= 255 else { return false }
            if b.count > 1 && b[0] == 48 { return false }
        }
        return true
    }

    static func isIPv6(_ s: String) -> Bool {
        guard !s.isEmpty, s.utf8.allSatisfy({ $0 < 128 }) else { return false }
        var str = Substring(s)
        var groupsNeeded = 8
        // IPv4 suffix
        if let lastColon = str.lastIndex(of: ":"), str[str.index(after: lastColon)...].contains(".") {
            let v4 = String(str[str.index(after: lastColon)...])
            guard isIPv4(v4) else { return false }
            str = str[...lastColon]
            if str.hasSuffix("::") { } else { str = str.dropLast() }
            groupsNeeded = 6
        }
        let dbl = str.components(separatedBy: "::")
        if dbl.count > 2 { return false }
        func groups(_ p: String) -> [Substring]? {
            if p.isEmpty { return [] }
            let g = p.split(separator: ":", omittingEmptySubsequences: false)
            for x in g {
                guard x.count >= 1 && x.count <= 4, x.allSatisfy({ $0.isHexDigit }) else { return nil }
            }
            return g
        }
        if dbl.count == 2 {
            guard let a = groups(dbl[0]), let b = groups(dbl[1]) else { return false }
            return a.count + b.count <= groupsNeeded - 1
        }
        guard let g = groups(String(str)) else { return false }
        return g.count == groupsNeeded
    }

    static func isHostname(_ s: String, idn: Bool) -> Bool {
        var h = s
        if idn {
            // Normalise IDNA label separators.
            for sep in ["\u{3002}", "\u{FF0E}", "\u{FF61}"] { h = h.replacingOccurrences(of: sep, with: ".") }
        }
        guard !h.isEmpty, h.utf8.count <= 253 || idn else { return false }
        for label in h.split(separator: ".", omittingEmptySubsequences: false) {
            guard !label.isEmpty, label.utf8.count <= 63 || idn, label.first != "-", label.last != "-" else { return false }
            let lower = label.lowercased()
            if lower.count >= 4, Array(lower)[2] == "-", Array(lower)[3] == "-", !lower.hasPrefix("xn--") { return false }
            if lower.hasPrefix("xn--") && !idn {
                guard label.utf8.count > 4, Punycode.decode(String(lower.dropFirst(4))) != nil else { return false }
            }
            for u in label.unicodeScalars {
                if u.isASCII {
                    let c = u.value
                    let ok = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 45
                    if !ok { return false }
                } else if !idn {
                    return false
                } else {
                    let p = u.properties
                    if p.generalCategory == .spaceSeparator || p.generalCategory == .control || p.generalCategory == .format && u.value != 0x200C && u.value != 0x200D { return false }
                    if p.generalCategory == .otherPunctuation || p.generalCategory == .mathSymbol && u.value != 0x00B7 { return false }
                }
            }
        }
        return true
    }


    static func isEmail(_ s: String, idn: Bool) -> Bool {
        guard let at = s.lastIndex(of: "@") else { return false }
        let local = s[..<at], domain = s[s.index(after: at)...]
        guard !local.isEmpty, !domain.isEmpty else { return false }
        if local.hasPrefix("\"") {
            guard local.count >= 2, local.hasSuffix("\"") else { return false }
        } else {
            if local.hasPrefix(".") || local.hasSuffix(".") || local.contains("..") { return false }
            let allowed = Set("!#$%&'*+-/=?^_`{|}~.".unicodeScalars)
            for u in local.unicodeScalars {
                if u.isASCII {
                    if !(u.properties.isAlphabetic || ("0"..."9").contains(u) || allowed.contains(u)) { return false }
                } else if !idn { return false }
            }
        }
        if domain.hasPrefix("[") {
            guard domain.hasSuffix("]") else { return false }
            let inner = domain.dropFirst().dropLast()
            if inner.lowercased().hasPrefix("ipv6:") { return isIPv6(String(inner.dropFirst(5))) }
            return isIPv4(String(inner))
        }
        return IDNA.isHostname(String(domain), unicode: idn)
    }

    static func isRelativeJSONPointer(_ s: String) -> Bool {
        let b = Array(s.utf8)
        var i = 0
        while i < b.count && b[i] >= 48 && b[i] <= 57 { i += 1 }
        if i == 0 { return false }
        if i > 1 && b[0] == 48 { return false }
        let rest = String(decoding: b[i...], as: UTF8.self)
        if rest == "#" { return true }
        return (try? JSONPointer(parsing: rest)) != nil
    }

    /// RFC 6570 (level 4) syntax check.
    static func isURITemplate(_ s: String) -> Bool {
        let chars = Array(s.unicodeScalars)
        var i = 0
        func isVarchar(_ u: Unicode.Scalar) -> Bool {
            u.isASCII && (u.properties.isAlphabetic || ("0"..."9").contains(u) || u == "_")
        }
        while i < chars.count {
            let u = chars[i]
            if u == "{" {
                guard let close = chars[i...].firstIndex(of: "}") else { return false }
                var body = Array(chars[(i + 1)..<close])
                if body.isEmpty { return false }
                if "+#./;?&".unicodeScalars.contains(body[0]) { body.removeFirst() }
                else if "=,!@|".unicodeScalars.contains(body[0]) { return false }
                let specs = body.split(separator: ",", omittingEmptySubsequences: false)
                for spec in specs {
                    var spec = Array(spec)
                    if spec.isEmpty { return false }
                    if spec.last == "*" { spec.removeLast() }
                    else if let colon = spec.firstIndex(of: ":") {
                        let num = spec[(colon + 1)...]
                        guard (1...4).contains(num.count), num.allSatisfy({ ("0"..."9").contains($0) }), num.first != "0" else { return false }
                        spec = Array(spec[..<colon])
                    }
                    // varname = varchar *( ["."] varchar ), varchar includes pct-encoded
                    var k = 0
                    var prevDot = true
                    if spec.isEmpty { return false }
                    while k < spec.count {
                        let c = spec[k]
                        if c == "." { if prevDot { return false }; prevDot = true; k += 1; continue }
                        if c == "%" { guard FormatValidators.validPercent(spec, k) else { return false }; k += 3; prevDot = false; continue }
                        guard isVarchar(c) else { return false }
                        prevDot = false
                        k += 1
                    }
                    if prevDot { return false }
                }
                i = close + 1
                continue
            }
            if u == "}" { return false }
            if u.value < 0x21 || u.value == 0x7F || "\"<>\\^`|".unicodeScalars.contains(u) { return false }
            if u == "%" { guard validPercent(chars, i) else { return false }; i += 3; continue }
            i += 1
        }
        return true
    }

    static func isUnreservedOrSub(_ u: Unicode.Scalar, iri: Bool) -> Bool {
        if !u.isASCII { return iri && u.value >= 0xA0 && !(0xE000...0xF8FF).contains(u.value) && !(0xFFF0...0xFFFF).contains(u.value) }
        let c = u.value
        if (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) { return true }
        return "-._~!$&'()*+,;=".unicodeScalars.contains(u)
    }

    static func validPercent(_ chars: [Unicode.Scalar], _ i: Int) -> Bool {
        i + 2 < chars.count && chars[i + 1].properties.isASCIIHexDigit && chars[i + 2].properties.isASCIIHexDigit
    }

    /// Checks chars against `extra` allowed characters (plus unreserved, sub-delims, pct-encoded).
    static func checkPart(_ part: Substring, extra: String, iri: Bool) -> Bool {
        let chars = Array(part.unicodeScalars)
        var i = 0
        while i < chars.count {
            let u = chars[i]
            if u == "%" { if !validPercent(chars, i) { return false }; i += 3; continue }
            if !(isUnreservedOrSub(u, iri: iri) || extra.unicodeScalars.contains(u)) { return false }
            i += 1
        }
        return true
    }

    static func isURI(_ s: String, reference: Bool, iri: Bool) -> Bool {
        let r = URIReference(s)
        if r.scheme == nil {
            if !reference { return false }
            // A relative reference's first segment must not contain ':' (it would be a scheme).
            if r.authority == nil, let firstSeg = r.path.split(separator: "/", omittingEmptySubsequences: false).first, firstSeg.contains(":") { return false }
        }
        if let scheme = r.scheme, scheme.isEmpty { return false }
        if let auth = r.authority {
            var hostPort = Substring(auth)
            if let at = auth.lastIndex(of: "@") {
                if !checkPart(auth[..<at], extra: ":", iri: iri) { return false }
                hostPort = auth[auth.index(after: at)...]
            }
            if hostPort.hasPrefix("[") {
                guard let close = hostPort.firstIndex(of: "]") else { return false }
                let ip = hostPort[hostPort.index(after: hostPort.startIndex)..<close]
                if !(isIPv6(String(ip)) || ip.lowercased().hasPrefix("v")) { return false }
                let rest = hostPort[hostPort.index(after: close)...]
                if !rest.isEmpty { guard rest.hasPrefix(":"), rest.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) else { return false } }
            } else {
                var host = hostPort
                if let colon = hostPort.lastIndex(of: ":") {
                    let port = hostPort[hostPort.index(after: colon)...]
                    guard port.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
                    host = hostPort[..<colon]
                }
                if !checkPart(host, extra: "", iri: iri) { return false }
            }
        }
        if !checkPart(Substring(r.path), extra: ":@/", iri: iri) { return false }
        if let q = r.query, !checkPart(Substring(q), extra: ":@/?", iri: iri) { return false }
        if let f = r.fragment, !checkPart(Substring(f), extra: ":@/?", iri: iri) { return false }
        return true
    }
}
