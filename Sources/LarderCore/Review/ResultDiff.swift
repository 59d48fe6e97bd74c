import Foundation
import LarderJSON

/// A field-level difference between two results: as RFC 6902 JSON Patch for machines, and as lines a person reads
/// in a terminal (ingredients added/removed/changed, quantities, steps, line items…).
public struct ResultDiff: Sendable {
    public let from: JSONValue
    public let to: JSONValue
    public let operations: [PatchOperation]

    public init(from: JSONValue, to: JSONValue) {
        self.from = from
        self.to = to
        operations = JSONPatch.diff(from: from, to: to)
    }

    public init(fromJSON: String, toJSON: String) throws {
        self.init(from: try JSONValue(parsing: Data(fromJSON.utf8)), to: try JSONValue(parsing: Data(toJSON.utf8)))
    }

    /// The JSON Patch that turns `from` into `to`.
    public var patch: JSONValue { .array(operations.map(\.json)) }

    /// One line per change: `- path: old`, `+ path: new`, `~ path: old → new`; coloured when `colour` is set.
    public func lines(colour: Bool) -> [String] {
        func paint(_ text: String, _ code: String) -> String { colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        func show(_ value: JSONValue?) -> String {
            guard let value else { return "(none)" }
            let text = value.serialized(options: [.sortedKeys])
            return text.count > 160 ? String(text.prefix(157)) + "…" : text
        }
        return operations.map { operation in
            switch operation {
            case .add(let path, let value):
                return paint("+ \(path): \(show(value))", "32")
            case .remove(let path):
                return paint("- \(path): \(show(path.resolve(in: from)))", "31")
            case .replace(let path, let value):
                return paint("~ \(path): \(show(path.resolve(in: from))) → \(show(value))", "33")
            case .move(let source, let path):
                return paint("> \(source) moved to \(path)", "36")
            case .copy(let source, let path):
                return paint("> \(source) copied to \(path)", "36")
            case .test(let path, _):
                return "  \(path) unchanged"
            }
        }
    }
}
