import Foundation

/// Minimal RFC 3986 URI reference handling (parsing, resolution, fragments).
struct URIReference: Sendable, Equatable {
    var scheme: String?
    var authority: String?
    var path: String
    var query: String?
    var fragment: String?

    init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
        self.scheme = scheme; self.authority = authority; self.path = path; self.query = query; self.fragment = fragment
    }

    init(_ s: String) {
        var rest = Substring(s)
        fragment = nil; query = nil; scheme = nil; authority = nil
        if let h = rest.firstIndex(of: "#") { fragment = String(rest[rest.index(after: h)...]); rest = rest[..<h] }
        if let q = rest.firstIndex(of: "?") { query = String(rest[rest.index(after: q)...]); rest = rest[..<q] }
        if let c = rest.firstIndex(of: ":") {
            let cand = rest[..<c]
            if let f = cand.first, f.isASCII, f.isLetter,
               cand.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }) {
                scheme = String(cand)
                rest = rest[rest.index(after: c)...]
            }
        }
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            authority = String(rest[..<end])
            rest = rest[end...]
        }
        path = String(rest)
    }

    var string: String {
        var s = ""
        if let scheme { s += scheme + ":" }
        if let authority { s += "//" + authority }
        s += path
        if let query { s += "?" + query }
        if let fragment { s += "#" + fragment }
        return s
    }

    var withoutFragment: URIReference { var c = self; c.fragment = nil; return c }

    static func removeDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output: [Substring] = []
        var result = ""
        // Simple segment-based implementation.
        let absolute = input.hasPrefix("/")
        if absolute { input = input.dropFirst() }
        let segs = input.split(separator: "/", omittingEmptySubsequences: false)
        for (k, seg) in segs.enumerated() {
            let last = k == segs.count - 1
            if seg == "." { if last { output.append("") }; continue }
            if seg == ".." { if !output.isEmpty { output.removeLast() }; if last { output.append("") }; continue }
            output.append(seg)
        }
        result = (absolute ? "/" : "") + output.joined(separator: "/")
        return result
    }

    /// Resolves `ref` against `self` (RFC 3986 §5.2.2).
    func resolving(_ ref: URIReference) -> URIReference {
        var t = URIReference(scheme: nil, authority: nil, path: "", query: nil, fragment: ref.fragment)
        if let rs = ref.scheme {
            t.scheme = rs; t.authority = ref.authority; t.path = URIReference.removeDotSegments(ref.path); t.query = ref.query
        } else {
            if ref.authority != nil {
                t.authority = ref.authority; t.path = URIReference.removeDotSegments(ref.path); t.query = ref.query
            } else {
                if ref.path.isEmpty {
                    t.path = path
                    t.query = ref.query ?? query
                } else {
                    if ref.path.hasPrefix("/") {
                        t.path = URIReference.removeDotSegments(ref.path)
                    } else {
                        var merged: String
                        if authority != nil && path.isEmpty { merged = "/" + ref.path }
                        else if let slash = path.lastIndex(of: "/") { merged = String(path[...slash]) + ref.path }
                        else { merged = ref.path }
                        if scheme != nil && authority == nil && !path.hasPrefix("/") && !merged.hasPrefix("/") {
                            // e.g. urn:... — no hierarchical merging
                            merged = ref.path
                        }
                        t.path = URIReference.removeDotSegments(merged)
                    }
                    t.query = ref.query
                }
                t.authority = authority
            }
            t.scheme = scheme
        }
        return t
    }

    static func resolve(_ ref: String, against base: String) -> String {
        URIReference(base).resolving(URIReference(ref)).string
    }

    /// Splits "abs#frag" into ("abs", "frag").
    static func split(_ s: String) -> (String, String) {
        if let h = s.firstIndex(of: "#") { return (String(s[..<h]), String(s[s.index(after: h)...])) }
        return (s, "")
    }

    static func percentDecode(_ s: String) -> String {
        if !s.contains("%") { return s }
        return s.removingPercentEncoding ?? s
    }
}
