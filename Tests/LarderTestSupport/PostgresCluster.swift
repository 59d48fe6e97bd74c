import Foundation

/// A throwaway PostgreSQL 15 cluster for tests: `initdb` in a temporary folder, `pg_ctl start` on a free loopback
/// port, `pg_ctl stop -m immediate` and the folder removed when the test process ends.
///
/// Root may not run `initdb`, so as root the binaries run as the `postgres` user (`runuser`). The cluster asks for
/// a password (scram-sha-256): the tests connect with one, as a real deployment does.
/// ``shared`` is nil when PostgreSQL is not installed; ``unavailableReason`` then names the missing binary, for a
/// visible skip.
public final class PostgresCluster: @unchecked Sendable {
    public static let binaries = ProcessInfo.processInfo.environment["LARDER_PG_BIN"] ?? "/usr/lib/postgresql/15/bin"
    public static let user = "larder"
    public static let password = "s3cret-pg-test-pw"

    public let folder: String
    public let port: Int
    /// The addresses the server listens on (127.0.0.1 first).
    public let listenAddresses: [String]
    /// One count for every cluster of the process: a private cluster may get a port an earlier one used, and a
    /// schema name of its own keeps any process still pointed at the old one out of the new one's tables.
    private static let nextSchema = LockedState(0)

    /// Why there is no cluster (a missing binary, or initdb/pg_ctl failing), nil when there is one.
    public static var unavailableReason: String? {
        startedState().reason
    }

    /// The process's one cluster, started on first use.
    public static var shared: PostgresCluster? {
        startedState().cluster
    }

    private static func startedState() -> State {
        sharedCluster.withLockedValue { state in
            if !state.started {
                state.started = true
                (state.cluster, state.reason) = start()
            }
            return state
        }
    }

    /// Whether the PostgreSQL binaries exist (CI fails when a PostgreSQL test is skipped although they do).
    public static var binariesPresent: Bool {
        FileManager.default.isExecutableFile(atPath: binaries + "/initdb")
            && FileManager.default.isExecutableFile(atPath: binaries + "/pg_ctl")
    }

    /// A URL to the cluster's database with a schema of its own (tests do not see each other's tables).
    /// `host`: another of ``listenAddresses`` (a private cluster's address on a namespace's veth pair).
    public func url(schema: String? = nil, includePassword: Bool = true, host: String = "127.0.0.1") -> String {
        let name = schema ?? freshSchema()
        let credentials = includePassword ? "\(Self.user):\(Self.password)" : Self.user
        return "postgres://\(credentials)@\(host):\(port)/larder?sslmode=disable&schema=\(name)"
    }

    public func freshSchema() -> String {
        let number = Self.nextSchema.withLockedValue { next in
            next += 1
            return next
        }
        return "t\(getpid())_\(number)"
    }

    /// Runs `psql` as the cluster's user (for tests that set up foreign tables).
    @discardableResult
    public func psql(_ sql: String) throws -> String {
        try Self.run(
            [
                Self.binaries + "/psql", "-h", "127.0.0.1", "-p", "\(port)", "-U", Self.user, "-d", "larder",
                "-v", "ON_ERROR_STOP=1", "-qAt", "-c", sql,
            ],
            environment: ["PGPASSWORD": Self.password], asPostgres: false)
    }

    /// Every row of the `larder` database as `pg_dump --data-only` writes it (to look for what must not be stored).
    public func dump() throws -> String {
        try Self.run(
            [Self.binaries + "/pg_dump", "-h", "127.0.0.1", "-p", "\(port)", "-U", Self.user, "--data-only", "larder"],
            environment: ["PGPASSWORD": Self.password], asPostgres: false)
    }

    /// The pids whose parent is `pid` (from /proc).
    public func children(of pid: pid_t) throws -> [pid_t] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap { name -> pid_t? in
            guard let child = pid_t(name),
                let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == pid ? child : nil
        }
    }

    // MARK: Starting and stopping

    private struct State {
        var started = false
        var cluster: PostgresCluster?
        var reason: String?
    }

    private static let sharedCluster = LockedState(State())

    private init(folder: String, port: Int, listen: [String]) {
        self.folder = folder
        self.port = port
        self.listenAddresses = listen
    }

    private static func start() -> (PostgresCluster?, String?) {
        if let missing = missingBinary { return (nil, missing) }
        do {
            let cluster = try create(listen: [], allow: [])
            atexit { PostgresCluster.stopShared() }
            return (cluster, nil)
        } catch {
            return (nil, "PostgreSQL could not start a test cluster: \(error)")
        }
    }

    private static var missingBinary: String? {
        for tool in ["initdb", "pg_ctl", "psql"]
        where !FileManager.default.isExecutableFile(atPath: binaries + "/" + tool) {
            return "PostgreSQL is not installed: \(binaries)/\(tool) is missing (scripts/setup.sh installs postgresql)"
        }
        return nil
    }

    /// A cluster of the caller's own, for a test that stops, restarts or cuts off its server (the shared one serves
    /// other tests at the same time). `listen`: addresses beside 127.0.0.1 (a veth end of a network namespace);
    /// `allow`: networks (CIDR) that may log in with the password. ``destroy()`` stops it and removes its folder.
    /// Throws the reason when PostgreSQL is not installed or does not start.
    public static func makePrivate(listen: [String] = [], allow: [String] = []) throws -> PostgresCluster {
        if let missing = missingBinary { throw ClusterError(missing) }
        return try create(listen: listen, allow: allow)
    }

    private static func create(listen: [String], allow: [String]) throws -> PostgresCluster {
        let folder = NSTemporaryDirectory() + "larder-pg-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let port = try freePort()
            try FileManager.default.createDirectory(atPath: folder + "/data", withIntermediateDirectories: true)
            try password.write(toFile: folder + "/pw", atomically: true, encoding: .utf8)
            if getuid() == 0 { try run(["/bin/chown", "-R", "postgres:postgres", folder], asPostgres: false) }
            try run(
                [
                    binaries + "/initdb", "-D", folder + "/data", "-U", user, "--pwfile=" + folder + "/pw",
                    "-A", "scram-sha-256", "-E", "UTF8", "--no-sync",
                ], asPostgres: true)
            if !allow.isEmpty {
                let hba = FileHandle(forWritingAtPath: folder + "/data/pg_hba.conf")
                hba?.seekToEndOfFile()
                hba?.write(Data(allow.map { "host all all \($0) scram-sha-256\n" }.joined().utf8))
                try hba?.close()
            }
            let cluster = PostgresCluster(folder: folder, port: port, listen: ["127.0.0.1"] + listen)
            try cluster.restart()
            try run(
                [
                    binaries + "/psql", "-h", "127.0.0.1", "-p", "\(port)", "-U", user, "-d", "postgres", "-qAt",
                    "-c", "CREATE DATABASE larder",
                ], environment: ["PGPASSWORD": password], asPostgres: false)
            return cluster
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }

    /// Stops a private cluster's server and removes its folder.
    public func destroy() {
        _ = try? stopImmediately()
        try? FileManager.default.removeItem(atPath: folder)
    }

    private static func stopShared() {
        guard let cluster = sharedCluster.withLockedValue({ $0.cluster }) else { return }
        _ = try? run(
            [binaries + "/pg_ctl", "-D", cluster.folder + "/data", "-m", "immediate", "-w", "stop"], asPostgres: true)
        try? FileManager.default.removeItem(atPath: cluster.folder)
    }

    /// Stops the cluster's server at once (`-m immediate`), as a crash would; ``restart()`` brings it back.
    public func stopImmediately() throws {
        try Self.run(
            [Self.binaries + "/pg_ctl", "-D", folder + "/data", "-m", "immediate", "-w", "stop"], asPostgres: true)
    }

    /// Starts the server (again) on the same port and addresses.
    public func restart() throws {
        let listen = listenAddresses.joined(separator: ",")
        try Self.run(
            [
                Self.binaries + "/pg_ctl", "-D", folder + "/data", "-l", folder + "/log", "-w", "-t", "60",
                "-o", "-p \(port) -k \(folder) -c listen_addresses=\(listen) -c fsync=off -c max_connections=200",
                "start",
            ], asPostgres: true)
    }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClusterError("socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { throw ClusterError("bind() failed") }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw ClusterError("getsockname() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs a program to its end, its output (both streams) in a temporary file. posix_spawn and waitpid, not
    /// Foundation's Process: `pg_ctl start` leaves a server running, and Process.waitUntilExit could wait forever
    /// for it.
    @discardableResult
    private static func run(
        _ arguments: [String], environment: [String: String] = [:], asPostgres: Bool
    ) throws
        -> String
    {
        // In /tmp: the postgres user may not enter the working directory.
        let user = asPostgres && getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []
        let argv = ["/bin/sh", "-c", "cd /tmp && exec \"$@\"", "sh"] + user + arguments
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let outputPath = NSTemporaryDirectory() + "larder-pg-run-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, cEnvironment)
        guard spawned == 0 else { throw ClusterError("cannot start \(argv[0]): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exited = (status & 0x7f) == 0
        let code = (status >> 8) & 0xff
        guard exited && code == 0 else {
            let name = URL(fileURLWithPath: arguments[0]).lastPathComponent
            throw ClusterError("\(name) failed (status \(status)): \(text.suffix(400))")
        }
        return text
    }

    struct ClusterError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

/// A value behind a lock (LarderTestSupport depends on nothing else).
final class LockedState<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLockedValue<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
