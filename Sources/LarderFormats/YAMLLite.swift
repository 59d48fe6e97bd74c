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
}
