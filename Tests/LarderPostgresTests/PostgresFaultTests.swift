import Foundation
import LarderCore
import LarderTestSupport
import Testing

/// Faults of the server and the network under real `larder` processes, each on a PostgreSQL cluster of its own
/// (the shared one serves other tests meanwhile): a restart mid-batch, a permanent outage. Each ends, as the
/// fleet tests do, with exactly one committed result per document and the export equal to a single-host SQLite
/// run's, file for file.
@Suite(.postgres, .integration, .serialized) struct PostgresFaultTests {
    /// A `larder` process started in the background, its output (both streams) in a file.
    final class Background {
        let process = Process()
        let output: String

        init(_ arguments: [String], in folder: String, name: String, environment: [String: String]) throws {
            output = folder + "/\(name).log"
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            process.executableURL = URL(fileURLWithPath: try PostgresCommandTests.larder)
            process.arguments = arguments
            var merged = ProcessInfo.processInfo.environment
            merged["LARDER_SKIP_LLM"] = "1"
            for (key, value) in environment { merged[key] = value }
            process.environment = merged
            process.currentDirectoryURL = URL(fileURLWithPath: folder)
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
            process.standardError = process.standardOutput
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }

        /// Waits for the process to end, at most `seconds` (then kills it: the test fails, it does not hang).
        func finish(within seconds: Double) -> (status: Int32, output: String, timedOut: Bool) {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
            let timedOut = process.isRunning
            if timedOut { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            return (process.terminationStatus, text, timedOut)
        }

        deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    }

    static func privateCluster() throws -> PostgresCluster {
        do { return try PostgresCluster.makePrivate() } catch { throw ConformanceError("\(error)") }
    }

    /// Polls `psql` until `condition` holds for its (trimmed) answer, at most `seconds`.
    static func await(
        _ cluster: PostgresCluster, _ sql: String, within seconds: Double = 60, _ condition: (String) -> Bool
    ) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let answer = (try? cluster.psql(sql))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            if condition(answer) { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }

    /// Every document of `schema` done with exactly one committed result, and the export equal to a single-host
    /// SQLite run's over the same inputs, file for file.
    static func expectOneResultEachAndTheSQLiteExport(
        _ cluster: PostgresCluster, url: String, documents: Int, in folder: String
    ) throws {
        let schema = PostgresCommandTests.schema(of: url)
        let states = try cluster.psql("SELECT string_agg(state, ',' ORDER BY id) FROM \(schema).document")
        #expect(
            states.trimmingCharacters(in: .whitespacesAndNewlines)
                == Array(repeating: "done", count: documents).joined(separator: ","))
        let versions = try cluster.psql(
            """
            SELECT string_agg(n::text, ',') FROM (SELECT COUNT(*) AS n FROM \(schema).document d
            LEFT JOIN \(schema).result_version r ON r.document_id = d.id GROUP BY d.id) c
            """)
        #expect(
            versions.trimmingCharacters(in: .whitespacesAndNewlines)
                == Array(repeating: "1", count: documents).joined(separator: ","), "one committed result each")
        let sqlite = folder + "/single.sqlite"
        let single = try PostgresCommandTests.larder(["ingest", "--db", sqlite, "in"], in: folder)
        #expect(single.status == 0, "\(single.output)")
        #expect(
            try PostgresCommandTests.larder(["export", "--db", sqlite, "--out", folder + "/out-sqlite"], in: folder)
                .status == 0)
        let exported = try PostgresCommandTests.larder(["export", "--db", url, "--out", folder + "/out-pg"], in: folder)
        #expect(exported.status == 0, "\(exported.output)")
        let expected = try PostgresCommandTests.files(in: folder + "/out-sqlite")
        #expect(expected.count == documents)
        #expect(try PostgresCommandTests.files(in: folder + "/out-pg") == expected)
    }

    /// `pg_ctl stop -m immediate` while two `larder worker`s and a `larder ingest` are in the middle of a batch
    /// (every document stalls 3 s in detect, so claims are held and stages run across the outage), then start on
    /// the same port: every process rides it out (retrying, with a warning that names the server and not the
    /// password) and exits 0; every document is committed exactly once.
    @Test(.slow) func aFleetRidesOutAPostgreSQLRestartMidBatch() throws {
        guard PostgresCluster.shared != nil else {
            throw ConformanceError(PostgresCluster.unavailableReason ?? "no cluster")
        }
        let cluster = try Self.privateCluster()
        defer { cluster.destroy() }
        let folder = NSTemporaryDirectory() + "larder-pg-restart-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try PostgresCommandTests.inputs(in: folder)
        let url = cluster.url()
        let schema = PostgresCommandTests.schema(of: url)
        let environment = [
            "LARDER_DB": url, "LARDER_FAULT_STALL": "detect:.:3", "LARDER_LEASE_TTL": "30",
            "LARDER_PG_RETRY_SECONDS": "60",
        ]

        let ingest = try Background(
            ["ingest", "--workers", "1", "in"], in: folder, name: "ingest",
            environment: environment.merging(["LARDER_WORKER_ID": "ingest"]) { a, _ in a })
        #expect(Self.await(cluster, "SELECT COUNT(*) FROM \(schema).document") { $0 == "6" }, "registered")
        let workers = try (0..<2).map { index in
            try Background(
                ["worker", "--exit-when-idle", "--workers", "1"], in: folder, name: "worker\(index)",
                environment: environment.merging(["LARDER_WORKER_ID": "host\(index)"]) { a, _ in a })
        }
        // Mid-batch: three documents claimed at once (one per process), stages running.
        #expect(
            Self.await(cluster, "SELECT COUNT(DISTINCT claim_owner) FROM \(schema).document") { (Int($0) ?? 0) >= 2 },
            "two processes hold claims")
        Thread.sleep(forTimeInterval: 1)
        try cluster.stopImmediately()
        // Down longer than a call waits for a connection (10 s): every process's next call fails and is retried.
        Thread.sleep(forTimeInterval: 12)
        try cluster.restart()

        var outputs: [String] = []
        for (name, process) in [("ingest", ingest)] + workers.enumerated().map({ ("worker\($0.offset)", $0.element) }) {
            let run = process.finish(within: 240)
            outputs.append(run.output)
            #expect(!run.timedOut, "\(name) still ran after 240 s: \(run.output)")
            // `larder ingest` exits 1 when documents of its batch are still held by other workers as its own
            // worker runs out of claimable ones ("pending" in its summary); never with a failure.
            #expect(
                run.status == 0 || (name == "ingest" && run.status == 1 && run.output.contains(" 0 failed, 0 quarantined")),
                "\(name): \(run.output)")
            #expect(!run.output.contains(PostgresCluster.password), "\(name) printed the password")
        }
        let all = outputs.joined(separator: "\n")
        #expect(all.contains("warning: lost PostgreSQL at postgres://larder:***@127.0.0.1"), "\(all)")
        #expect(all.contains("answers again"), "\(all)")
        try Self.expectOneResultEachAndTheSQLiteExport(cluster, url: url, documents: 6, in: folder)
    }

    /// PostgreSQL stopped for good while a `larder worker` holds a claim: the worker retries for its budget
    /// (`LARDER_PG_RETRY_SECONDS=3`), then ends with a database error (exit 3) that names the server, not the
    /// password, and does not hang.
    @Test(.slow) func aPermanentOutageEndsInAClearErrorNotAHang() throws {
        guard PostgresCluster.shared != nil else {
            throw ConformanceError(PostgresCluster.unavailableReason ?? "no cluster")
        }
        let cluster = try Self.privateCluster()
        defer { cluster.destroy() }
        let folder = NSTemporaryDirectory() + "larder-pg-outage-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try PostgresCommandTests.inputs(in: folder)
        let url = cluster.url()
        let schema = PostgresCommandTests.schema(of: url)
        #expect(try PostgresCommandTests.larder(["ingest", "--no-work", "--db", url, "in"], in: folder).status == 0)
        let worker = try Background(
            ["worker", "--exit-when-idle", "--workers", "1"], in: folder, name: "worker",
            environment: ["LARDER_DB": url, "LARDER_FAULT_STALL": "detect:.:3", "LARDER_PG_RETRY_SECONDS": "3"])
        #expect(Self.await(cluster, "SELECT COUNT(*) FROM \(schema).document WHERE claim_owner IS NOT NULL") { $0 != "0" && !$0.isEmpty })
        try cluster.stopImmediately()
        let started = Date()
        let run = worker.finish(within: 120)
        #expect(!run.timedOut, "the worker still ran 120 s after the server stopped: \(run.output)")
        #expect(run.status == 3, "\(run.output)")
        #expect(run.output.contains("still after retrying"), "\(run.output)")
        #expect(run.output.contains("postgres://larder:***@127.0.0.1:\(cluster.port)"), "\(run.output)")
        #expect(!run.output.contains(PostgresCluster.password))
        // Bounded: the worker's calls and its supervisor's each give up within the budget plus a connection wait (about 30 s here).
        #expect(Date().timeIntervalSince(started) < 90)
    }

    /// A `larder-worker` SIGKILLed mid-document leaves its private copy of the stored bytes
    /// (`$TMPDIR/larder-docs-PID`): its supervisor removes it once the worker has exited, and at start removes
    /// such folders of processes that no longer run. The document is then committed once by the restarted worker.
    @Test(.slow) func aKilledWorkersPrivateCopyIsRemovedBySupervisor() throws {
        guard let cluster = PostgresCluster.shared else {
            throw ConformanceError(PostgresCluster.unavailableReason ?? "no cluster")
        }
        let folder = NSTemporaryDirectory() + "larder-pg-copies-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let temporary = folder + "/tmp"
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Repository.path("samples/recipes/banana-bread.txt"), toPath: folder + "/in/slow-banana.txt")
        // A copy folder of a process that has ended (a host that died with its worker).
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let stale = temporary + "/larder-docs-\(ended.processIdentifier)"
        try FileManager.default.createDirectory(atPath: stale + "/1-abc", withIntermediateDirectories: true)
        try "left".write(toFile: stale + "/1-abc/slow-banana.txt", atomically: true, encoding: .utf8)

        let url = cluster.url()
        let schema = PostgresCommandTests.schema(of: url)
        #expect(try PostgresCommandTests.larder(["ingest", "--no-work", "--db", url, "in"], in: folder).status == 0)
        let supervisor = try Background(
            ["worker", "--exit-when-idle", "--workers", "1"], in: folder, name: "worker",
            environment: [
                "LARDER_DB": url, "TMPDIR": temporary, "LARDER_FAULT_STALL": "detect:slow:4",
                "LARDER_WORKER_ID": "copies",
            ])
        #expect(Self.await(cluster, "SELECT claim_owner FROM \(schema).document") { $0 == "copies" })
        let children = try cluster.children(of: supervisor.process.processIdentifier)
        #expect(children.count == 1, "larder-worker under larder worker: \(children)")
        guard let worker = children.first else { return }
        let copy = temporary + "/larder-docs-\(worker)"
        #expect(FileManager.default.fileExists(atPath: copy), "the worker runs the stages on its private copy")
        #expect(!FileManager.default.fileExists(atPath: stale), "the supervisor removed a dead process's copies at start")
        kill(worker, SIGKILL)
        var removed = false
        for _ in 0..<100 where !removed {
            Thread.sleep(forTimeInterval: 0.1)
            removed = !FileManager.default.fileExists(atPath: copy)
        }
        #expect(removed, "the killed worker's copy is removed")

        let run = supervisor.finish(within: 120)
        #expect(run.status == 0, "\(run.output)")
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary).filter { $0.hasPrefix("larder-docs-") }
        #expect(left.isEmpty, "copies left: \(left)")
        let versions = try cluster.psql("SELECT COUNT(*) FROM \(schema).result_version")
        #expect(versions.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "exactly one committed result")
    }
}
