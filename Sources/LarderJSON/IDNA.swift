import Foundation

/// Approximate IDNA2008 (RFC 5890–5893) hostname checks for `hostname` / `idn-hostname` formats.
///
/// Implements: LDH rules, label/name lengths (in A-label form), Punycode decoding and canonical
/// re-encoding, leading combining marks, the RFC 5892 exception list, the CONTEXTJ/CONTEXTO rules
/// (ZWJ/ZWNJ after virama, middle dot, Greek keraia, Hebrew geresh/gershayim, katakana middle
/// dot, Arabic-Indic digit mixing) and the RFC 5893 Bidi rule (with script-range approximations
/// of bidi classes). Not implemented: the full IDNA2008 derived-property table and NFC checks.
enum IDNA {
    static func isHostname(_ s: String, unicode: Bool) -> Bool {
        var h = s
        if unicode {
            for sep in ["\u{3002}", "\u{FF0E}", "\u{FF61}"] { h = h.replacingOccurrences(of: sep, with: ".") }
        }
        guard !h.isEmpty else { return false }
        var total = 0
        var uLabels: [[Unicode.Scalar]] = []
        for label in h.split(separator: ".", omittingEmptySubsequences: false) {
            guard !label.isEmpty else { return false }
            let scalars = Array(label.unicodeScalars)
            if scalars.allSatisfy({ $0.isASCII }) {
                let lower = label.lowercased()
                if lower.hasPrefix("xn--") {
                    guard scalars.count <= 63 else { return false }
                    let body = String(lower.dropFirst(4))
                    guard let decoded = Punycode.decode(body), !decoded.isEmpty,
                          Punycode.encode(decoded) == body,
                          !decoded.allSatisfy({ $0.isASCII }),
                          isValidULabel(decoded) else { return false }
                    uLabels.append(decoded)
                    total += scalars.count
                } else {
                    guard scalars.count <= 63, isLDH(scalars) else { return false }
                    uLabels.append(scalars)
                    total += scalars.count
                }
            } else {
                guard unicode, isValidULabel(scalars), let enc = Punycode.encode(scalars) else { return false }
                let aLen = 4 + enc.utf8.count
                guard aLen <= 63 else { return false }
                uLabels.append(scalars)
                total += aLen
            }
            total += 1
        }
        guard total - 1 <= 253 else { return false }
        // Bidi rule applies to every label when the name contains any RTL label.
        if uLabels.contains(where: { $0.contains { let c = bidiClass($0); return c == .r || c == .an } }) {
            for l in uLabels where !bidiOK(l) { return false }
        }
        return true
    }

    static func isLDH(_ s: [Unicode.Scalar]) -> Bool {
        guard s.first != "-", s.last != "-" else { return false }
        if s.count >= 4 && s[2] == "-" && s[3] == "-" { return false }
        return s.allSatisfy { c in
            let v = c.value
            return (v >= 48 && v <= 57) || (v >= 65 && v <= 90) || (v >= 97 && v <= 122) || v == 45
        }
    }

    static let disallowedExceptions: Set<UInt32> = [0x0640, 0x07FA, 0x302E, 0x302F, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x303B]
    static let pvalidExceptions: Set<UInt32> = [0x00DF, 0x03C2, 0x06FD, 0x06FE, 0x0F0B, 0x3007]

    static func isGreek(_ u: Unicode.Scalar) -> Bool { (0x0370...0x03FF).contains(u.value) || (0x1F00...0x1FFF).contains(u.value) }
    static func isHebrew(_ u: Unicode.Scalar) -> Bool { (0x0590...0x05FF).contains(u.value) }
    static func isKanaOrHan(_ u: Unicode.Scalar) -> Bool {
        let v = u.value
        if v == 0x30FB { return false }
        return (0x3040...0x30FF).contains(v) || (0x31F0...0x31FF).contains(v) || (0x3400...0x4DBF).contains(v)
            || (0x4E00...0x9FFF).contains(v) || (0xF900...0xFAFF).contains(v) || (0x20000...0x3FFFF).contains(v) || v == 0x3005 || v == 0x3007
    }

    static func isJoiningLetter(_ u: Unicode.Scalar) -> Bool {
        let v = u.value
        let inRange = (0x0620...0x06FF).contains(v) || (0x0700...0x074F).contains(v) || (0x0750...0x077F).contains(v)
            || (0x07C0...0x07FF).contains(v) || (0x0840...0x085F).contains(v) || (0x08A0...0x08FF).contains(v)
        return inRange && u.properties.isAlphabetic
    }

    static func isMark(_ u: Unicode.Scalar) -> Bool {
        switch u.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    static func isValidULabel(_ s: [Unicode.Scalar]) -> Bool {
        guard let first = s.first, s.first != "-", s.last != "-" else { return false }
        if s.count >= 4 && s[2] == "-" && s[3] == "-" { return false }
        if isMark(first) { return false }
        var hasArabicIndic = false, hasExtArabicIndic = false
        for (i, u) in s.enumerated() {
            let v = u.value
            if disallowedExceptions.contains(v) { return false }
            if pvalidExceptions.contains(v) { continue }
            let prev: Unicode.Scalar? = i > 0 ? s[i - 1] : nil
            let next: Unicode.Scalar? = i + 1 < s.count ? s[i + 1] : nil
            switch v {
            case 0x200D:
                guard let prev, prev.properties.canonicalCombiningClass == .virama else { return false }
                continue
            case 0x200C:
                if let prev, prev.properties.canonicalCombiningClass == .virama { continue }
                // Joining-type rule, approximated: a joining (Arabic-family) letter on both sides,
                // skipping transparent marks.
                let before = s[..<i].last(where: { !isMark($0) })
                let after = s[(i + 1)...].first(where: { !isMark($0) })
                guard let before, let after, isJoiningLetter(before), isJoiningLetter(after) else { return false }
                continue
            case 0x00B7:
                guard prev == "l", next == "l" else { return false }
                continue
            case 0x0375:
                guard let next, isGreek(next) else { return false }
                continue
            case 0x05F3, 0x05F4:
                guard let prev, isHebrew(prev) else { return false }
                continue
            case 0x30FB:
                guard s.contains(where: isKanaOrHan) else { return false }
                continue
            case 0x0660...0x0669: hasArabicIndic = true
            case 0x06F0...0x06F9: hasExtArabicIndic = true
            default: break
            }
            if u.isASCII {
                let ok = (v >= 48 && v <= 57) || (v >= 97 && v <= 122) || v == 45 || (v >= 65 && v <= 90)
                if !ok { return false }
                continue
            }
            switch u.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .otherLetter, .modifierLetter, .titlecaseLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber:
                break
            default:
                return false
            }
        }
        if hasArabicIndic && hasExtArabicIndic { return false }
        return true
    }

    enum Bidi { case l, r, an, en, nsm, other }

    static func bidiClass(_ u: Unicode.Scalar) -> Bidi {
        let v = u.value
        if (0x0660...0x0669).contains(v) || v == 0x066B || v == 0x066C || v == 0x06DD { return .an }
        if (48...57).contains(v) || (0x06F0...0x06F9).contains(v) { return .en }
        if isMark(u) && u.properties.generalCategory != .spacingMark { return .nsm }
        let rtl = (0x0590...0x08FF).contains(v) || (0xFB1D...0xFDFF).contains(v) || (0xFE70...0xFEFF).contains(v)
            || (0x10800...0x10FFF).contains(v) || (0x1E800...0x1EFFF).contains(v)
        if rtl && u.properties.isAlphabetic { return .r }
        if u.properties.isAlphabetic || u.properties.generalCategory == .spacingMark { return .l }
        return .other
    }

    static func bidiOK(_ s: [Unicode.Scalar]) -> Bool {
        let classes = s.map(bidiClass)
        guard let first = classes.first else { return false }
        let last = classes.last(where: { $0 != .nsm }) ?? first
        if first == .r {
            if classes.contains(.l) { return false }
            if classes.contains(.en) && classes.contains(.an) { return false }
            return last == .r || last == .en || last == .an
        }
        if first == .l {
            if classes.contains(.r) || classes.contains(.an) { return false }
            return last == .l || last == .en
        }
        return false
    }
}

/// RFC 3492 Punycode.
enum Punycode {
    static let base = 36, tmin = 1, tmax = 26, skew = 38, damp = 700, initialBias = 72, initialN = 128

    static func adapt(_ delta: Int, _ numPoints: Int, _ first: Bool) -> Int {
        var d = first ? delta / damp : delta / 2
        d += d / numPoints
        var k = 0
        while d > ((base - tmin) * tmax) / 2 { d /= base - tmin; k += base }
        return k + (base - tmin + 1) * d / (d + skew)
    }

    static func digit(_ d: Int) -> Character { Character(Unicode.Scalar(UInt8(d < 26 ? d + 97 : d + 22))) }

    static func decode(_ s: String) -> [Unicode.Scalar]? {
        var n = initialN, i = 0, bias = initialBias
        var output: [UInt32] = []
        var input = Array(s.unicodeScalars)
        if let d = input.lastIndex(of: "-") {
            for c in input[..<d] { guard c.isASCII else { return nil }; output.append(c.value) }
            input = Array(input[(d + 1)...])
        }
        var pos = 0
        while pos < input.count {
            let oldi = i
            var w = 1
            var k = base
            while true {
                guard pos < input.count else { return nil }
                let c = input[pos].value; pos += 1
                let dg: Int
                if c >= 48 && c <= 57 { dg = Int(c) - 22 } else if c >= 97 && c <= 122 { dg = Int(c) - 97 } else if c >= 65 && c <= 90 { dg = Int(c) - 65 } else { return nil }
                i += dg * w
                if i > 0x7FFF_FFFF { return nil }
                let t = k <= bias ? tmin : (k >= bias + tmax ? tmax : k - bias)
                if dg < t { break }
                w *= base - t
                if w > 0x7FFF_FFFF { return nil }
                k += base
            }
            bias = adapt(i - oldi, output.count + 1, oldi == 0)
            n += i / (output.count + 1)
            i %= output.count + 1
            guard n <= 0x10FFFF, !(0xD800...0xDFFF).contains(n) else { return nil }
            output.insert(UInt32(n), at: i)
            i += 1
        }
        return output.compactMap(Unicode.Scalar.init)
    }

    static func encode(_ input: [Unicode.Scalar]) -> String? {
        var n = initialN, delta = 0, bias = initialBias
        var out = ""
        let basic = input.filter { $0.isASCII }
        for c in basic { out.unicodeScalars.append(c) }
        let b = basic.count
        var h = b
        if b > 0 { out += "-" }
        let values = input.map { Int($0.value) }
        while h < values.count {
            guard let m = values.filter({ $0 >= n }).min() else { return nil }
            delta += (m - n) * (h + 1)
            n = m
            for c in values {
                if c < n { delta += 1 }
                if c == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tmin : (k >= bias + tmax ? tmax : k - bias)
                        if q < t { break }
                        out.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    out.append(digit(q))
                    bias = adapt(delta, h + 1, h == b)
                    delta = 0
                    h += 1
                }
            }
            delta += 1
            n += 1
        }
        return out
    }
}
