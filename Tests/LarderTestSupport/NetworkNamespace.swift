import Foundation

/// A Linux network namespace joined to this host by a veth pair on a private /30 (`10.231.N.1` on the host side,
/// `10.231.N.2` inside), made by a test to stand for a second host: a process started through ``command(_:)``
/// runs inside, reaches the host only over the pair, and ``cut()`` / ``heal()`` partition and rejoin it (the
/// host end of the pair down, then up: packets are dropped, connections are not reset).
///
/// Needs root and `ip` (iproute2; `scripts/setup.sh` installs it): ``unavailableReason`` says why not, for a
/// visible skip. Names carry this process's pid, so tests running at once (and pg-bench's scripts) do not collide;
/// ``remove()`` deletes the pair and the namespace, and a test calls it in a `defer`.
public final class NetworkNamespace: @unchecked Sendable {
    public static let ip = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    public let name: String
    public let hostInterface: String
    public let hostAddress: String
    public let namespaceAddress: String

    /// Why namespaces cannot be made here (not root, no `ip`), nil when they can.
    public static var unavailableReason: String? {
        if getuid() != 0 { return "network namespaces need root (ip netns add); this test runs as uid \(getuid())" }
        if ip == nil { return "ip (iproute2) is not installed (scripts/setup.sh installs it)" }
        return nil
    }

    /// Makes the namespace, the veth pair and the addresses, on the first `10.231.N.0/30` (N from 100 + `slot`)
    /// that no interface here uses.
    public init(slot: Int = 0) throws {
        if let reason = Self.unavailableReason { throw NamespaceError(reason) }
        let tag = "\(getpid() % 100_000)\(slot)"
        name = "larder-ns-\(tag)"
        hostInterface = "lnh\(tag)"
        let inside = "lnn\(tag)"
        var subnet: Int?
        let used = (try? Self.ip(["-4", "-o", "addr", "show"])) ?? ""
        for n in (100 + slot)..<250 where !used.contains("10.231.\(n).") {
            subnet = n
            break
        }
        guard let subnet else { throw NamespaceError("every 10.231.N.0/30 from N = \(100 + slot) is in use") }
        hostAddress = "10.231.\(subnet).1"
        namespaceAddress = "10.231.\(subnet).2"
        try Self.ip(["netns", "add", name])
        do {
            try Self.ip(["link", "add", hostInterface, "type", "veth", "peer", "name", inside])
            try Self.ip(["link", "set", inside, "netns", name])
            try Self.ip(["addr", "add", hostAddress + "/30", "dev", hostInterface])
            try Self.ip(["link", "set", hostInterface, "up"])
            try Self.ip(["netns", "exec", name, Self.ip!, "addr", "add", namespaceAddress + "/30", "dev", inside])
            try Self.ip(["netns", "exec", name, Self.ip!, "link", "set", inside, "up"])
            try Self.ip(["netns", "exec", name, Self.ip!, "link", "set", "lo", "up"])
        } catch {
            remove()
            throw error
        }
    }

    /// The subnet a server must accept logins from (pg_hba).
    public var subnet: String { hostAddress.split(separator: ".").prefix(3).joined(separator: ".") + ".0/30" }

    /// `argv` run inside the namespace: the executable and arguments for a `Process`.
    public func command(_ argv: [String]) -> (executable: String, arguments: [String]) {
        (Self.ip!, ["netns", "exec", name] + argv)
    }

    /// Partitions the namespace from the host: the host end of the pair goes down (packets are dropped both ways).
    public func cut() throws { try Self.ip(["link", "set", hostInterface, "down"]) }

    /// Rejoins it: the host end up again, its address back (taking a link down keeps the address on Linux, but
    /// this does not rely on it).
    public func heal() throws {
        try Self.ip(["link", "set", hostInterface, "up"])
        _ = try? Self.ip(["addr", "add", hostAddress + "/30", "dev", hostInterface])
    }

    /// Partitions one way: the host's packets to the namespace (a server's replies, its TCP acknowledgements) are
    /// dropped, while the namespace's packets still reach the host — a blackhole route for the namespace's
    /// address. (The kernel here has no netem or nftables; with reverse-path filtering off, the default, the
    /// incoming packets are not dropped with it.)
    public func dropReplies() throws { try Self.ip(["route", "add", "blackhole", namespaceAddress + "/32"]) }

    /// Ends ``dropReplies()``.
    public func restoreReplies() throws { try Self.ip(["route", "del", "blackhole", namespaceAddress + "/32"]) }

    /// Deletes the pair (both ends) and the namespace; safe to call twice.
    public func remove() {
        _ = try? Self.ip(["route", "del", "blackhole", namespaceAddress + "/32"])
        _ = try? Self.ip(["link", "del", hostInterface])
        _ = try? Self.ip(["netns", "del", name])
    }

    @discardableResult
    static func ip(_ arguments: [String]) throws -> String {
        guard let ip else { throw NamespaceError("ip (iproute2) is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ip)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw NamespaceError("ip \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }

    struct NamespaceError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
