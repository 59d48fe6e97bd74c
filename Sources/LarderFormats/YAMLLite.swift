import Foundation
import Yams

/// Front-matter values through Yams: strings (numbers as written) and lists (a YAML list or a comma string).
struct YAMLLite {
    let map: [String: Any]

    static func load(_ yaml: String) -> YAMLLite? {
        guard let value = try? Yams.load(yaml: yaml), let map = value as? [String: Any] else { return nil }
        return YAMLLite(map: map)
    }

    func string(_ key: String) -> String? {
        switch map[key] {
        case let s as String: s.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : s.trimmingCharacters(in: .whitespacesAndNewlines)
        case let i as Int: String(i)
        case let d as Double: String(d)
        default: nil
        }
    }

    func list(_ key: String) -> [String] {
        if let a = map[key] as? [Any] {
            return a.compactMap { v -> String? in
                if let s = v as? String { return s.trimmingCharacters(in: .whitespaces) }
                if let i = v as? Int { return String(i) }
                if let d = v as? Double { return String(d) }
                return nil
            }.filter { !$0.isEmpty }
        }
        return (string(key) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// A list that may hold groups: plain items go to the unnamed group, a `- Name: [items]` entry (or
    /// `- Name:` followed by a nested list) is a group of its own. Empty groups are left out.
    func groups(_ key: String) -> [(name: String?, lines: [String])] {
        guard let a = map[key] as? [Any] else {
            let lines = list(key)
            return lines.isEmpty ? [] : [(nil, lines)]
        }
        var out: [(name: String?, lines: [String])] = [(nil, [])]
        for v in a {
            if let o = v as? [String: Any] {
                for (name, value) in o.sorted(by: { $0.key < $1.key }) {
                    guard let items = value as? [Any] else {
                        // "- Note: use fresh" is a line with a colon, not a group.
                        if let s = Self.scalar(value) { out[out.count - 1].lines.append(name + ": " + s) }
                        continue
                    }
                    out.append((name.trimmingCharacters(in: .whitespaces), items.compactMap(Self.scalar).filter { !$0.isEmpty }))
                }
            } else if let s = Self.scalar(v), !s.isEmpty {
                out[out.count - 1].lines.append(s)
            }
        }
        return out.filter { !$0.lines.isEmpty }
    }

    static func scalar(_ v: Any) -> String? {
        if let s = v as? String { return s.trimmingCharacters(in: .whitespaces) }
        if let i = v as? Int { return String(i) }
        if let d = v as? Double { return String(d) }
        if let b = v as? Bool { return b ? "yes" : "no" }
        return nil
    }
}
