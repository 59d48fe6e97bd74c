import Foundation
import LarderJSON
import LarderSupport

/// Writes a stored result the way `JSONSerialization.data(withJSONObject:options: [.sortedKeys,
/// .withoutEscapingSlashes] (+ .prettyPrinted))` writes it on Linux, byte for byte, without its cost.
///
/// Foundation (swift-corelibs-foundation) sorts keys with `compare(_:options: [.numeric, .caseInsensitive,
/// .forcedOrdering], locale: NSLocale.system)`: ICU collation, so `_a` < `-` < `@x` < `1` < `9` < `10` < `a` < `A` <
/// `á` < `ab` < `aB` < `Ab`, not byte order. That comparison was 98 % of an export's instructions. Here the same
/// comparison still decides every order, but once per distinct key set: the order is cached (``KeyOrders``), and the
/// keys of a result's objects come from a few contract types.
///
/// Everything else Foundation does is copied for what stored results hold and checked against Foundation by
/// `ExportJSONTests` (the goldens, tricky keys, seeded random numbers and strings): strings escape `"`, `\`,
/// `\b \f \n \r \t`, other controls as `\u00xx`; `/` as it is; pretty-printing indents by two spaces, writes
/// `"key" : value` and `[\n\n]` for an empty container. Numbers take the fast path only where Foundation's text is
/// certain: integers below 10^15 and decimals without exponent that `Double` gives back as they are written. A
/// result with any other number, or a repeated key, returns `nil` and the caller uses Foundation itself.
enum ExportJSON {
    /// The bytes, or `nil` when `object` holds something only Foundation's own writer is sure to write the same.
    static func data(_ object: JSONObject, pretty: Bool) -> Data? {
        var writer = Writer(pretty: pretty)
        guard writer.object(object, depth: 0) else { return nil }
        return Data(writer.out)
    }

    /// Foundation's order of a set of keys, remembered per key list (in the order the stored text lists them).
    static let keyOrders = KeyOrders()

    final class KeyOrders: Sendable {
        private let cache = Locked([[String]: [Int]]())
        /// Enough for every contract object and then some; when full it starts again (correct, only slower).
        let limit = 4096

        func order(of keys: [String]) -> [Int] {
            if let known = cache.withLock({ $0[keys] }) { return known }
            let order = keys.indices.sorted { Self.foundationPrecedes(keys[$0], keys[$1]) }
            cache.withLock { cache in
                if cache.count >= limit { cache.removeAll(keepingCapacity: true) }
                cache[keys] = order
            }
            return order
        }

        /// Exactly the comparison `JSONSerialization` sorts keys with (swift-corelibs-foundation,
        /// `JSONWriter.serializeDictionary`).
        static func foundationPrecedes(_ a: String, _ b: String) -> Bool {
            let options: String.CompareOptions = [.numeric, .caseInsensitive, .forcedOrdering]
            return a.compare(b, options: options, range: a.startIndex..<a.endIndex, locale: NSLocale.system)
                == .orderedAscending
        }
    }

    struct Writer {
        let pretty: Bool
        var out: [UInt8] = []

        init(pretty: Bool) {
            self.pretty = pretty
            out.reserveCapacity(16 * 1024)
        }

        mutating func value(_ value: JSONValue, depth: Int) -> Bool {
            switch value {
            case .null: out.append(contentsOf: "null".utf8)
            case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
            case .number(let n):
                guard let text = ExportJSON.numberText(n) else { return false }
                out.append(contentsOf: text.utf8)
            case .string(let s): string(s)
            case .array(let items):
                out.append(UInt8(ascii: "["))
                open(depth)
                for (i, item) in items.enumerated() {
                    element(i, depth + 1)
                    guard self.value(item, depth: depth + 1) else { return false }
                }
                close(depth)
                out.append(UInt8(ascii: "]"))
            case .object(let object): return self.object(object, depth: depth)
            }
            return true
        }

        mutating func object(_ object: JSONObject, depth: Int) -> Bool {
            guard !object.hadDuplicateKeys else { return false }
            out.append(UInt8(ascii: "{"))
            open(depth)
            let keys = object.keys
            for (i, k) in ExportJSON.keyOrders.order(of: keys).enumerated() {
                element(i, depth + 1)
                string(keys[k])
                out.append(contentsOf: pretty ? " : ".utf8 : ":".utf8)
                guard let member = object[keys[k]], value(member, depth: depth + 1) else { return false }
            }
            close(depth)
            out.append(UInt8(ascii: "}"))
            return true
        }

        /// After `[`/`{`: Foundation's pretty form starts a new line even for an empty container (`[\n\n  ]`).
        private mutating func open(_ depth: Int) {
            if pretty { out.append(10) }
        }

        private mutating func close(_ depth: Int) {
            guard pretty else { return }
            out.append(10)
            indent(depth)
        }

        /// Before the element or member at `index`: `,` (and a new line) after the first, then the indent.
        private mutating func element(_ index: Int, _ depth: Int) {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            guard pretty else { return }
            if index > 0 { out.append(10) }
            indent(depth)
        }

        private mutating func indent(_ depth: Int) {
            out.append(contentsOf: repeatElement(32, count: 2 * depth))
        }

        private mutating func string(_ s: String) {
            JSONValue.writeString(s, into: &out)
        }
    }

    /// Foundation's text for a number, where it is certain: an integer below 10^15 (Foundation writes it as it is
    /// whether it read it as an integer or a `Double`), or a decimal without exponent that `Double` prints as it is
    /// written. `nil` otherwise.
    static func numberText(_ n: JSONNumber) -> String? {
        let digits = String(decoding: n.digits.map { $0 + 48 }, as: UTF8.self)
        let sign = n.isNegative ? "-" : ""
        if n.digits.isEmpty { return "0" }
        if n.exponent >= 0 {
            guard n.digits.count + n.exponent <= 15 else { return nil }
            return sign + digits + String(repeating: "0", count: n.exponent)
        }
        let point = n.digits.count + n.exponent
        let text =
            point > 0
            ? sign + digits.prefix(point) + "." + digits.dropFirst(point)
            : sign + "0." + String(repeating: "0", count: -point) + digits
        guard let double = Double(text), double.description == text else { return nil }
        return text
    }
}
