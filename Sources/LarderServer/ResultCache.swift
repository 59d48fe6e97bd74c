import Foundation
import LarderCore

/// Encoded results, so that `GET /v1/documents/{id}/result` does not parse and re-serialise the stored JSON on every
/// request (Foundation's sorted-keys serialisation was 78 % of the route's time under callgrind and perf).
///
/// Correct under edits: every request still asks the store which version leaves Larder (an edit, accept or reject,
/// by this server, another one or `larder review`, changes that answer at once: one read, see
/// ``ServiceStore/exportableVersion(of:)``), and an entry is used only when that version's stored JSON and the
/// document's pipeline version are exactly those it was made from: the exported bytes depend on nothing else. Bounded: at most `budgetBytes` of JSON held, the oldest entries dropped first.
final class ResultCache: Sendable {
    struct Encoded: Sendable {
        var data: Data
        /// A strong validator for `ETag`: the first 32 hex digits of the body's SHA-256, quoted.
        var etag: String
    }

    private struct Entry {
        var source: String
        var pipelineVersion: String
        var encoded: Encoded
        var bytes: Int { source.utf8.count + encoded.data.count }
    }

    private struct Table {
        var entries: [Int64: Entry] = [:]
        var order: [Int64] = []
        var bytes = 0
    }

    private let budgetBytes: Int
    private let table = Locked(Table())

    init(budgetBytes: Int = 16 * 1024 * 1024) { self.budgetBytes = budgetBytes }

    /// The encoded result for `version` of document `id`: from the cache when it was made from exactly this JSON and
    /// pipeline version, else made by `encode` (outside the lock) and kept.
    func encoded(_ version: ExportableVersion, of id: Int64, encode: () throws -> Data) rethrows -> Encoded {
        let pipelineVersion = version.pipelineVersion
        let hit = table.withLock { table -> Encoded? in
            guard let entry = table.entries[id], entry.pipelineVersion == pipelineVersion, entry.source == version.json
            else { return nil }
            return entry.encoded
        }
        if let hit { return hit }
        let data = try encode()
        let encoded = Encoded(data: data, etag: "\"" + SHA256.hex(data).prefix(32) + "\"")
        let entry = Entry(source: version.json, pipelineVersion: pipelineVersion, encoded: encoded)
        guard entry.bytes <= budgetBytes / 4 else { return encoded }  // too big to be worth a quarter of the cache
        table.withLock { table in
            if let old = table.entries.updateValue(entry, forKey: id) {
                table.bytes -= old.bytes
            } else {
                table.order.append(id)
            }
            table.bytes += entry.bytes
            while table.bytes > budgetBytes, !table.order.isEmpty {
                let oldest = table.order.removeFirst()
                if let dropped = table.entries.removeValue(forKey: oldest) { table.bytes -= dropped.bytes }
            }
        }
        return encoded
    }

    /// Entries held now (for tests).
    var count: Int { table.withLock { $0.entries.count } }

    /// Whether an `If-None-Match` header names `etag` (or is `*`); weak validators (`W/"…"`) compare equal too, as
    /// RFC 9110 has it for If-None-Match.
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { item in
            let tag = item.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || (tag.hasPrefix("W/") && tag.dropFirst(2) == etag)
        }
    }
}
