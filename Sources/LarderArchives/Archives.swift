import Foundation

internal import CZlib

/// Limits on what one archive may expand to. A ZIP bomb (a member expanding past the ratio or the size) is an
/// error naming the archive and the member; the archive's other members are still read.
public struct ArchiveLimits: Sendable, Equatable {
    /// All members together, uncompressed.
    public var maxTotalBytes: UInt64
    /// One member, uncompressed.
    public var maxEntryBytes: UInt64
    public var maxEntries: Int
    /// Uncompressed ÷ compressed size, checked for members over `ratioFloorBytes`.
    public var maxRatio: Double
    public var ratioFloorBytes: UInt64
    /// Archives inside archives (Tandoor nests one ZIP per recipe).
    public var maxDepth: Int

    public init(
        maxTotalBytes: UInt64 = 1 << 30, maxEntryBytes: UInt64 = 256 << 20, maxEntries: Int = 20_000,
        maxRatio: Double = 200, ratioFloorBytes: UInt64 = 1 << 20, maxDepth: Int = 3
    ) {
        self.maxTotalBytes = maxTotalBytes
        self.maxEntryBytes = maxEntryBytes
        self.maxEntries = maxEntries
        self.maxRatio = maxRatio
        self.ratioFloorBytes = ratioFloorBytes
        self.maxDepth = maxDepth
    }
}

extension ArchiveLimits {
    /// What the worker's `extract` allows: members of at most 64 MiB (a recipe export's largest entries — a
    /// Paprika recipe with its photos — are a few MiB), so an archive nested three deep holds at most a few hundred
    /// MiB at once, inside the worker's memory limit; the rest as ``init(maxTotalBytes:maxEntryBytes:maxEntries:maxRatio:ratioFloorBytes:maxDepth:)``.
    public static func worker(maxEntryBytes: UInt64 = 64 << 20) -> ArchiveLimits {
        ArchiveLimits(maxEntryBytes: maxEntryBytes)
    }
}

/// An archive that cannot be read, or one member of it that cannot.
public struct ArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    public var archive: String
    /// The member's path (nested archives joined with "/"), or nil for the whole archive.
    public var member: String?
    public var message: String

    public var description: String { "\(archive)\(member.map { ": \($0)" } ?? ""): \(message)" }
}

/// One member read into memory; gzip-compressed members (Paprika's `.paprikarecipe`) are already decompressed.
public struct ArchiveMember: Sendable, Equatable {
    public var path: String
    public var data: Data
}

public enum ArchiveFormat: String, Sendable { case zip, gzip }

/// Reads ZIP (libzip) and gzip (zlib) archives into memory, member by member, nested ZIPs included.
public enum Archives {
    public static func format(of data: Data) -> ArchiveFormat? {
        if data.starts(with: [0x50, 0x4B, 0x03, 0x04]) || data.starts(with: [0x50, 0x4B, 0x05, 0x06]) { return .zip }
        if data.starts(with: [0x1F, 0x8B]) { return .gzip }
        return nil
    }

    /// The members of a ZIP or gzip archive named `name`, and the members that could not be read. Throws only
    /// when the archive itself cannot be opened or is over the entry-count limit.
    public static func read(_ data: Data, name: String, limits: ArchiveLimits = .init()) throws(ArchiveError) -> (members: [ArchiveMember], errors: [ArchiveError]) {
        var members: [ArchiveMember] = []
        let errors = try forEachMember(data, name: name, limits: limits) { members.append($0) }
        return (members, errors)
    }

    /// Hands each member of a ZIP or gzip archive to `visit` as soon as it is read (so a caller that keeps only what
    /// it needs holds one member at a time), and returns the members that could not be read. Every limit is
    /// enforced while the bytes are inflated, never after: a member stops at its declared size (one that inflates
    /// past it is lying, the shape of a bomb whose entries share one stream), at `maxEntryBytes`, and at what is
    /// left of `maxTotalBytes`, which every inflated byte is charged to — read or refused. Entries whose compressed
    /// data overlap another's are refused unread (a known bomb shape); the others are still read.
    public static func forEachMember(
        _ data: Data, name: String, limits: ArchiveLimits = .init(), _ visit: (ArchiveMember) -> Void
    ) throws(ArchiveError) -> [ArchiveError] {
        var budget = Budget(remaining: limits.maxTotalBytes)
        var errors: [ArchiveError] = []
        switch format(of: data) {
        case .gzip:
            do {
                let stem = ((name as NSString).lastPathComponent as NSString).deletingPathExtension
                visit(ArchiveMember(path: stem, data: try gunzip(data, limit: min(limits.maxEntryBytes, limits.maxTotalBytes))))
            } catch {
                throw ArchiveError(archive: name, member: nil, message: error.message)
            }
        case .zip:
            try readZip(data, name: name, prefix: "", depth: 0, limits: limits, budget: &budget, visit: visit, errors: &errors)
        case nil:
            throw ArchiveError(archive: name, member: nil, message: "not a ZIP or gzip archive")
        }
        return errors
    }

    struct Budget {
        var remaining: UInt64

        mutating func charge(_ bytes: UInt64) { remaining -= min(remaining, bytes) }
    }

    static func readZip(
        _ data: Data, name: String, prefix: String, depth: Int, limits: ArchiveLimits, budget: inout Budget,
        visit: (ArchiveMember) -> Void, errors: inout [ArchiveError]
    ) throws(ArchiveError) {
        let zip: ZipArchive
        do { zip = try ZipArchive(data) } catch {
            throw ArchiveError(archive: name, member: prefix.isEmpty ? nil : String(prefix.dropLast()), message: "not a readable ZIP archive (\(error)): download or export it again")
        }
        if zip.count > limits.maxEntries {
            throw ArchiveError(archive: name, member: nil, message: "\(zip.count) entries, over the limit of \(limits.maxEntries): split the export")
        }
        let overlapping = ZipArchive.overlappingEntries(in: data)
        for index in 0..<zip.count {
            guard let entry = zip.entry(index), !entry.isDirectory else { continue }
            let path = prefix + entry.name
            func fail(_ message: String) { errors.append(ArchiveError(archive: name, member: path, message: message)) }
            let parts = entry.name.split(separator: "/", omittingEmptySubsequences: false)
            if entry.name.hasPrefix("/") || parts.contains("..") {
                fail("unsafe path (absolute or with ..): skipped; nothing is written to disk")
                continue
            }
            if overlapping.contains(index) {
                fail("shares its compressed data with another entry (a known ZIP-bomb shape): skipped")
                continue
            }
            if let problem = check(entry, limits: limits, budget: budget) { fail(problem); continue }
            var inflated: UInt64 = 0
            var bytes: Data
            do {
                bytes = try zip.read(entry, limit: min(limits.maxEntryBytes, budget.remaining), inflated: &inflated)
                budget.charge(inflated)
            } catch {
                budget.charge(inflated)
                fail("cannot be read (\(error)): a damaged, oversized or hostile entry; skipped")
                continue
            }
            if format(of: bytes) == .gzip {
                do { bytes = try gunzip(bytes, limit: min(limits.maxEntryBytes, budget.remaining)) } catch {
                    fail("its gzip data cannot be read (\(error.message))")
                    continue
                }
                budget.charge(UInt64(bytes.count))
            }
            if format(of: bytes) == .zip, entry.name.lowercased().hasSuffix(".zip") {
                guard depth + 1 <= limits.maxDepth else { fail("archives nested deeper than \(limits.maxDepth)"); continue }
                do {
                    try readZip(bytes, name: name, prefix: path + "/", depth: depth + 1, limits: limits, budget: &budget, visit: visit, errors: &errors)
                } catch { errors.append(error) }
                continue
            }
            visit(ArchiveMember(path: path, data: bytes))
        }
    }

    /// Why an entry must not be expanded, or nil.
    static func check(_ entry: ZipArchive.Entry, limits: ArchiveLimits, budget: Budget) -> String? {
        if entry.size > limits.maxEntryBytes {
            return "expands to \(entry.size) bytes, over the limit of \(limits.maxEntryBytes) per entry (a ZIP bomb?)"
        }
        if entry.size > budget.remaining {
            return "expands past the archive's limit of \(limits.maxTotalBytes) bytes in all (a ZIP bomb?)"
        }
        if entry.size > limits.ratioFloorBytes, entry.compressedSize > 0,
            Double(entry.size) / Double(entry.compressedSize) > limits.maxRatio
        {
            return String(format: "compression ratio %.0f:1, over the limit of %.0f:1 (a ZIP bomb?)", Double(entry.size) / Double(entry.compressedSize), limits.maxRatio)
        }
        return nil
    }

    public struct GzipError: Error, Sendable { public var message: String }

    /// Decompresses gzip (or zlib) data, failing past `limit` bytes.
    public static func gunzip(_ data: Data, limit: UInt64) throws(GzipError) -> Data {
        var stream = z_stream()
        guard larder_inflate_init2(&stream, 15 + 32) == Z_OK else { throw GzipError(message: "zlib could not start") }
        defer { inflateEnd(&stream) }
        var input = [UInt8](data)
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var status: Int32 = Z_OK
        input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = uInt(inputBuffer.count)
            repeat {
                let produced: Int = chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    return out.count - Int(stream.avail_out)
                }
                output.append(contentsOf: chunk[0..<produced])
                if UInt64(output.count) > limit { status = Z_MEM_ERROR; break }
            } while status == Z_OK
        }
        if UInt64(output.count) > limit { throw GzipError(message: "expands past \(limit) bytes (a gzip bomb?)") }
        guard status == Z_STREAM_END else { throw GzipError(message: "damaged or truncated gzip data (zlib status \(status))") }
        return output
    }

    /// Compresses to gzip.
    public static func gzip(_ data: Data) -> Data {
        var stream = z_stream()
        guard larder_deflate_init2(&stream, Z_DEFAULT_COMPRESSION, 15 + 16) == Z_OK else { return Data() }
        defer { deflateEnd(&stream) }
        var input = [UInt8](data)
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = uInt(inputBuffer.count)
            var status: Int32 = Z_OK
            repeat {
                let produced: Int = chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    status = deflate(&stream, Z_FINISH)
                    return out.count - Int(stream.avail_out)
                }
                output.append(contentsOf: chunk[0..<produced])
            } while status == Z_OK || status == Z_BUF_ERROR && stream.avail_out == 0
        }
        return output
    }
}
