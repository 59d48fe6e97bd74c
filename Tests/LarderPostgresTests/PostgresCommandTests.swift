import Foundation
import LarderCore
import LarderTestSupport
import Testing

/// The real `larder` and `larder-worker` against a PostgreSQL store: the same export as an SQLite run, file for
/// file, and the password nowhere in what they print or store.
@Suite(.postgres, .integration, .serialized) struct PostgresCommandTests {
    struct Run {
        var status: Int32
        var output: String
    }

    static var larder: String {
        get throws {
            let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
            for candidate in [folder + "/larder", Repository.path(".build/debug/larder")]
            where FileManager.default.isExecutableFile(atPath: candidate) {
                return candidate
            }
            throw ConformanceError("the larder executable is not built (swift build --build-tests)")
        }
    }

    /// Runs `larder` with standard output and error together, in `folder`.
    static func larder(_ arguments: [String], in folder: String, environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try larder)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        merged["LARDER_SKIP_LLM"] = "1"
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    static func files(in folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: folder) {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isFolder), !isFolder.boolValue {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
            }
        }
        return files
    }

    @Test func ingestExportAndStatusMatchSQLite() throws {
        guard let cluster = PostgresCluster.shared else {
            throw ConformanceError(PostgresCluster.unavailableReason ?? "no cluster")
        }
        let folder = NSTemporaryDirectory() + "larder-pg-e2e-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["banana-bread.txt", "lemon-drizzle-cake.md", "tomato-soup.txt", "pancakes.pdf", "chewy-oat-cookies.html"] {
            try FileManager.default.copyItem(
                atPath: Repository.path("samples/recipes/" + name), toPath: folder + "/in/" + name)
        }
        let url = cluster.url()
        let sqlite = folder + "/single.sqlite"

        let single = try Self.larder(["ingest", "--db", sqlite, "in"], in: folder)
        #expect(single.status == 0, "\(single.output)")
        let shared = try Self.larder(["ingest", "--db", url, "in"], in: folder)
        #expect(shared.status == 0, "\(shared.output)")
        // A second run finds everything done.
        let again = try Self.larder(["ingest", "in"], in: folder, environment: ["LARDER_DB": url])
        #expect(again.status == 0, "\(again.output)")

        #expect(try Self.larder(["export", "--db", sqlite, "--out", folder + "/out-sqlite"], in: folder).status == 0)
        let exported = try Self.larder(["export", "--db", url, "--out", folder + "/out-pg"], in: folder)
        #expect(exported.status == 0, "\(exported.output)")
        let expected = try Self.files(in: folder + "/out-sqlite")
        let got = try Self.files(in: folder + "/out-pg")
        #expect(expected.count == 5)
        #expect(got.keys.sorted() == expected.keys.sorted())
        for (name, data) in expected { #expect(got[name] == data, "\(name) differs") }

        let status = try Self.larder(["status", "--db", url], in: folder)
        #expect(status.status == 0, "\(status.output)")
        #expect(status.output.contains("documents: 5 (0 pending, 5 done"), "\(status.output)")
        #expect(status.output.contains("postgres://larder:***@127.0.0.1"), "\(status.output)")
        let show = try Self.larder(["show", "--db", url, "in/banana-bread.txt"], in: folder)
        #expect(show.status == 0, "\(show.output)")

        // The password in nothing printed, and nowhere in the database (pg_dump of every row).
        for run in [shared, again, exported, status, show] {
            #expect(!run.output.contains(PostgresCluster.password), "\(run.output)")
        }
        let dump = try cluster.dump()
        #expect(dump.contains("banana-bread.txt"), "the dump holds the data")
        #expect(!dump.contains(PostgresCluster.password))
        // Nor in a file or folder name the commands made (the LLM cache and uploads paths were derived from --db).
        let made = try FileManager.default.subpathsOfDirectory(atPath: folder)
        #expect(!made.contains { $0.contains(PostgresCluster.password) || $0.contains("postgres:") }, "\(made)")
    }

    /// The other commands on a PostgreSQL store answer as on SQLite: `show`, `pantry`, the review flows (`review
    /// list`, `show`, `accept`, `reject`, `edit --patch`, each changing the export as on SQLite), `retry`, `resume`;
    /// `check` runs on a scratch SQLite file of its own whatever the store. Nothing prints the password.
    @Test func everyOtherCommandAnswersAsOnSQLite() throws {
        guard let cluster = PostgresCluster.shared else {
            throw ConformanceError(PostgresCluster.unavailableReason ?? "no cluster")
        }
        let folder = NSTemporaryDirectory() + "larder-pg-cmds-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["samples/recipes/tomato-soup.txt", "samples/recipes/banana-bread.txt", "samples/recipes/two-recipes.pdf",
                     "samples/receipts/corner-grocer.jpg"] {
            try FileManager.default.copyItem(
                atPath: Repository.path(name), toPath: folder + "/in/" + (name as NSString).lastPathComponent)
        }
        let patch = #"[{"op": "replace", "path": "/recipes/0/title", "value": "Soup of Roasted Tomatoes"}]"#
        try patch.write(toFile: folder + "/rename.json", atomically: true, encoding: .utf8)
        let url = cluster.url(), sqlite = folder + "/single.sqlite"
        var runs: [Run] = []
        /// Runs `arguments` on both stores; the outputs, with the store's name taken out, must agree.
        func both(_ arguments: [String], same: Bool = true) throws -> (Run, Run) {
            let a = try Self.larder(arguments + ["--db", sqlite], in: folder)
            let b = try Self.larder(arguments + ["--db", url], in: folder)
            runs.append(b)
            #expect(a.status == b.status, "\(arguments): \(a.output) | \(b.output)")
            if same {
                let redacted = b.output.replacingOccurrences(of: cluster.url(includePassword: false), with: sqlite)
                #expect(a.output == redacted, "\(arguments): \(a.output) | \(b.output)")
            }
            return (a, b)
        }
        func exportsAgree(_ step: String) throws {
            let (a, b) = (folder + "/out-sqlite-" + step, folder + "/out-pg-" + step)
            #expect(try Self.larder(["export", "--db", sqlite, "--out", a], in: folder).status == 0)
            #expect(try Self.larder(["export", "--db", url, "--out", b], in: folder).status == 0)
            let expected = try Self.files(in: a)
            #expect(!expected.isEmpty)
            #expect(try Self.files(in: b) == expected, "\(step)")
        }
        _ = try both(["ingest", "in"], same: false)
        let (_, show) = try both(["show", "in/tomato-soup.txt"], same: false)
        #expect(show.status == 0 && show.output.contains("Roasted Tomato Soup"), "\(show.output)")
        let (_, pantry) = try both(["pantry", "--json"])
        #expect(pantry.output.contains("lentil"), "the receipt's items are there: \(pantry.output)")
        _ = try both(["pantry"])
        _ = try both(["review", "list", "--json"])
        let (_, reviewShow) = try both(["review", "show", "in/banana-bread.txt"], same: false)
        #expect(reviewShow.status == 0, "\(reviewShow.output)")
        try exportsAgree("ingested")
        let (_, reject) = try both(["review", "reject", "--reason", "burnt", "in/banana-bread.txt"], same: false)
        #expect(reject.status == 0, "\(reject.output)")
        try exportsAgree("rejected")
        #expect(try Self.files(in: folder + "/out-pg-rejected") != Self.files(in: folder + "/out-pg-ingested"))
        let (_, accept) = try both(["review", "accept", "in/banana-bread.txt"], same: false)
        #expect(accept.status == 0, "\(accept.output)")
        let (_, edit) = try both(["review", "edit", "--patch", folder + "/rename.json", "in/tomato-soup.txt"], same: false)
        #expect(edit.status == 0, "\(edit.output)")
        try exportsAgree("edited")
        #expect(try Self.files(in: folder + "/out-pg-edited").values.contains {
            String(decoding: $0, as: UTF8.self).contains("Soup of Roasted Tomatoes")
        })
        _ = try both(["review", "list", "--json"])
        let (_, retry) = try both(["retry"], same: false)
        #expect(retry.status == 0 && retry.output.contains("re-queued 0 document(s)"), "\(retry.output)")
        let (_, resume) = try both(["resume"], same: false)
        #expect(resume.status == 0, "\(resume.output)")
        try exportsAgree("resumed")
        let golden = folder + "/golden"
        try FileManager.default.createDirectory(atPath: golden, withIntermediateDirectories: true)
        let check = try Self.larder(["check", "--db", url, "--golden", golden, "--update", "in/tomato-soup.txt"], in: folder)
        #expect(check.status == 0, "\(check.output)")
        let recheck = try Self.larder(["check", "--db", url, "--golden", golden, "in/tomato-soup.txt"], in: folder)
        #expect(recheck.status == 0 && recheck.output.contains("match"), "\(recheck.output)")
        for run in runs + [check, recheck] { #expect(!run.output.contains(PostgresCluster.password), "\(run.output)") }
    }

    /// Workers need no shared filesystem: `ingest --no-work` stores each file's bytes in the database (once per
    /// hash), the folder is then renamed away, and a `larder worker` still finishes every document from the stored
    /// bytes, with an export equal to a single-host SQLite run's, file for file, and errors naming no temporary copy.
    @Test func aWorkerReadsTheStoredBytesWhenTheFilesAreGone() throws {
        guard let cluster = PostgresCluster.shared else {
            throw ConformanceError(PostgresCluster.unavailableReason ?? "no cluster")
        }
        let folder = NSTemporaryDirectory() + "larder-pg-blobs-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["banana-bread.txt", "lemon-drizzle-cake.md", "pancakes.pdf", "chewy-oat-cookies.html"] {
            try FileManager.default.copyItem(
                atPath: Repository.path("samples/recipes/" + name), toPath: folder + "/in/" + name)
        }
        // The same bytes twice: stored once.
        try FileManager.default.copyItem(atPath: folder + "/in/banana-bread.txt", toPath: folder + "/in/copy.txt")
        let sqlite = folder + "/single.sqlite"
        #expect(try Self.larder(["ingest", "--db", sqlite, "in"], in: folder).status == 0)
        let url = cluster.url()
        let registered = try Self.larder(["ingest", "--no-work", "--db", url, "in"], in: folder)
        #expect(registered.status == 0, "\(registered.output)")
        let schema = Self.schema(of: url)
        let blobs = try cluster.psql("SELECT COUNT(*) FROM \(schema).blob")
        #expect(blobs.trimmingCharacters(in: .whitespacesAndNewlines) == "4")

        try FileManager.default.moveItem(atPath: folder + "/in", toPath: folder + "/elsewhere")
        let worker = try Self.larder(
            ["worker", "--exit-when-idle", "--workers", "1"], in: folder, environment: ["LARDER_DB": url])
        #expect(worker.status == 0, "\(worker.output)")
        let status = try Self.larder(["status", "--db", url], in: folder)
        #expect(status.output.contains("documents: 4 (0 pending, 4 done"), "\(status.output)")
        #expect(!worker.output.contains("larder-docs-"), "\(worker.output)")

        #expect(try Self.larder(["export", "--db", sqlite, "--out", folder + "/out-sqlite"], in: folder).status == 0)
        #expect(try Self.larder(["export", "--db", url, "--out", folder + "/out-pg"], in: folder).status == 0)
        let expected = try Self.files(in: folder + "/out-sqlite")
        #expect(expected.count == 4)
        #expect(try Self.files(in: folder + "/out-pg") == expected)

        // Documents are never removed, so their bytes are never pruned; the same bytes registered again (another
        // path, a later batch) reuse the stored blob: no new row, the row not even rewritten (its xmin unchanged).
        let rows = "SELECT string_agg(sha256 || ':' || xmin::text, ',' ORDER BY sha256) FROM \(schema).blob"
        let before = try cluster.psql(rows)
        try FileManager.default.createDirectory(atPath: folder + "/again", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: folder + "/elsewhere/banana-bread.txt", toPath: folder + "/again/renamed-bread.txt")
        let again = try Self.larder(["ingest", "--no-work", "--db", url, "again"], in: folder)
        #expect(again.status == 0, "\(again.output)")
        #expect(again.output.contains("(0 new, 1 known)"), "\(again.output)")
        #expect(try cluster.psql(rows) == before)
        #expect(try cluster.psql("SELECT COUNT(*) FROM \(schema).blob").trimmingCharacters(in: .whitespacesAndNewlines) == "4")
    }

    /// LISTEN/NOTIFY: an idle `larder worker` polling only every 60 s is woken by the registration's NOTIFY and
    /// finishes the new document long before its next poll.
    @Test(.slow) func anIdleWorkerWakesOnNewWorkBeforeItsPoll() throws {
        guard let cluster = PostgresCluster.shared else {
            throw ConformanceError(PostgresCluster.unavailableReason ?? "no cluster")
        }
        let folder = NSTemporaryDirectory() + "larder-pg-notify-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(
            atPath: Repository.path("samples/recipes/banana-bread.txt"), toPath: folder + "/in/banana-bread.txt")
        let url = cluster.url()
        let schema = Self.schema(of: url)
        let listenersBefore = Int(try cluster.psql(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE query ILIKE 'LISTEN%larder_work%'")
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0

        let worker = Process()
        worker.executableURL = URL(fileURLWithPath: try Self.larder)
        worker.arguments = ["worker", "--poll", "60", "--workers", "1"]
        worker.environment = ProcessInfo.processInfo.environment.merging(
            ["LARDER_DB": url, "LARDER_SKIP_LLM": "1", "LARDER_WORKER_ID": "idle"]) { _, b in b }
        worker.currentDirectoryURL = URL(fileURLWithPath: folder)
        worker.standardOutput = FileHandle.nullDevice
        worker.standardError = FileHandle.nullDevice
        try worker.run()
        defer { if worker.isRunning { kill(worker.processIdentifier, SIGKILL) } }
        // Idle: listening, and past the one look it takes when its listener connects.
        var listening = false
        for _ in 0..<100 where !listening {
            Thread.sleep(forTimeInterval: 0.1)
            let count = try cluster.psql(
                "SELECT COUNT(*) FROM pg_stat_activity WHERE query ILIKE 'LISTEN%larder_work%'")
            listening = (Int(count.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > listenersBefore
        }
        #expect(listening, "the worker listens")
        Thread.sleep(forTimeInterval: 1.5)

        let registered = Date()
        #expect(try Self.larder(["ingest", "--no-work", "--db", url, "in"], in: folder).status == 0)
        var state = ""
        while state != "done" && Date().timeIntervalSince(registered) < 30 {
            Thread.sleep(forTimeInterval: 0.1)
            state = (try? cluster.psql("SELECT state FROM \(schema).document"))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        }
        let elapsed = Date().timeIntervalSince(registered)
        #expect(state == "done", "not done \(elapsed) s after registration (the worker polls every 60 s)")
        #expect(elapsed < 20, "took \(elapsed) s")
        kill(worker.processIdentifier, SIGTERM)
        worker.waitUntilExit()
        #expect(worker.terminationStatus == 0)
    }

    /// Two hosts on two versions of the `receipt` stage (its version follows `receipts.default_currency`), one after
    /// the other as in an upgrade: the new host redoes the old host's documents (their receipt stage only), and
    /// the old host, started again, runs nothing: neither redoes the other's newer work.
    @Test(.slow) func realWorkersOnTwoStageVersionsDoNotRedoEachOthersWork() throws {
        guard let cluster = PostgresCluster.shared else {
            throw ConformanceError(PostgresCluster.unavailableReason ?? "no cluster")
        }
        let folder = NSTemporaryDirectory() + "larder-pg-versions-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.inputs(in: folder)
        try "receipts:\n  default_currency: EUR\n".write(toFile: folder + "/new.yml", atomically: true, encoding: .utf8)
        let url = cluster.url()
        let log = folder + "/executions.log"
        let environment = ["LARDER_DB": url, "LARDER_EXECUTION_LOG": log]
        func executions() -> [Substring] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
        }
        #expect(try Self.larder(["ingest", "--no-work", "--db", url, "in"], in: folder).status == 0)
        let old = try Self.larder(["worker", "--exit-when-idle", "--workers", "1"], in: folder, environment: environment)
        #expect(old.status == 0, "\(old.output)")
        let afterOld = executions().count
        #expect(afterOld >= 6 * 5, "every stage of six documents ran: \(afterOld)")

        let new = try Self.larder(
            ["worker", "--exit-when-idle", "--workers", "1", "--config", folder + "/new.yml"], in: folder,
            environment: environment)
        #expect(new.status == 0, "\(new.output)")
        let rerun = executions()[afterOld...]
        #expect(rerun.filter { $0.hasSuffix("\treceipt") }.count == 6, "the new host redid the receipt stage: \(rerun)")
        #expect(rerun.filter { $0.hasSuffix("\tdetect") }.isEmpty, "and nothing before it")

        let oldAgain = try Self.larder(
            ["worker", "--exit-when-idle", "--workers", "1"], in: folder, environment: environment)
        #expect(oldAgain.status == 0, "\(oldAgain.output)")
        #expect(executions().count == afterOld + rerun.count, "the old host ran nothing: \(executions()[(afterOld + rerun.count)...])")
    }

    /// Sample recipes copied into `folder/in`, plus `poison.txt` (its own bytes) that the fault hook crashes on.
    static func inputs(in folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        for name in ["banana-bread.txt", "lemon-drizzle-cake.md", "tomato-soup.txt", "red-lentil-soup.txt", "overnight-oats.md"] {
            try FileManager.default.copyItem(
                atPath: Repository.path("samples/recipes/" + name), toPath: folder + "/in/" + name)
        }
        try "Poison\n\nIngredients\n- 1 cup flour\n\nMethod\n1. Mix.\n".write(
            toFile: folder + "/in/poison.txt", atomically: true, encoding: .utf8)
    }

    /// Two `larder worker` processes on one queue, one of them crashing (SIGSEGV, as a native library would) on
    /// the poison document: it is quarantined after max_attempts, every other document is committed once, and
    /// the export equals a single-host SQLite run's, file for file.
    @Test(.slow) func twoWorkersShareTheQueueAndAPoisonDocumentIsQuarantined() throws {
        guard let cluster = PostgresCluster.shared else {
            throw ConformanceError(PostgresCluster.unavailableReason ?? "no cluster")
        }
        let folder = NSTemporaryDirectory() + "larder-pg-fleet-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.inputs(in: folder)
        let crash = ["LARDER_FAULT_CRASH": "detect:poison"]
        let sqlite = folder + "/single.sqlite"
        let single = try Self.larder(["ingest", "--db", sqlite, "in"], in: folder, environment: crash)
        #expect(single.status == 1, "\(single.output)")  // partial: the poison document is quarantined
        let url = cluster.url()
        let registered = try Self.larder(["ingest", "--no-work", "--db", url, "in"], in: folder)
        #expect(registered.status == 0, "\(registered.output)")
        #expect(registered.output.contains("6 new"), "\(registered.output)")

        // Two workers at once, as two hosts would run them.
        let log = folder + "/executions.log"
        let environment = crash.merging(["LARDER_DB": url, "LARDER_EXECUTION_LOG": log]) { a, _ in a }
        let runs = Locked<[Run]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let run = try? Self.larder(
                ["worker", "--exit-when-idle", "--workers", "1"], in: folder,
                environment: environment.merging(["LARDER_WORKER_ID": "host\(index)"]) { a, _ in a })
            if let run { runs.withLock { $0.append(run) } }
        }
        for run in runs.withLock({ $0 }) { #expect(run.status == 0, "\(run.output)") }
        #expect(runs.withLock { $0.count } == 2)

        let status = try Self.larder(["status", "--db", url, "--json"], in: folder)
        #expect(status.output.contains(#""quarantined":1"#) || status.output.contains(#""quarantined" : 1"#), "\(status.output)")
        #expect(!status.output.contains(PostgresCluster.password))
        // Every other document committed exactly once: one result version each.
        let versions = try cluster.psql(
            "SELECT string_agg(n::text, ',') FROM (SELECT COUNT(*) AS n FROM \(Self.schema(of: url)).result_version GROUP BY document_id) c")
        #expect(versions.trimmingCharacters(in: .whitespacesAndNewlines) == "1,1,1,1,1")
        // The poison document ran max_attempts (3) times; executions may exceed one elsewhere, commits never.
        let executions = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(executions.split(separator: "\n").filter { $0.hasSuffix("\tdetect") }.count >= 6)

        #expect(try Self.larder(["export", "--db", sqlite, "--out", folder + "/out-sqlite"], in: folder).status == 0)
        #expect(try Self.larder(["export", "--db", url, "--out", folder + "/out-pg"], in: folder).status == 0)
        let expected = try Self.files(in: folder + "/out-sqlite")
        let got = try Self.files(in: folder + "/out-pg")
        #expect(expected.count == 5)
        #expect(got == expected)
    }

    /// SIGSTOP (or SIGKILL) a `larder-worker` in the middle of its lease, past the ttl; another worker takes the
    /// document and commits it; SIGCONT: the paused worker's commit is refused (fencing). Either way the document
    /// has exactly one committed result and the export equals a single-host SQLite run's.
    enum Fault: String, CaseIterable, Sendable {
        /// SIGSTOP past the ttl, SIGCONT after the other worker committed: its own commit is refused.
        case pause
        /// SIGKILL of `larder worker` and its `larder-worker` (a host lost): the lease expires, the work returns.
        case kill
    }

    @Test(.slow, arguments: Fault.allCases) func aWorkerStoppedMidLeaseLosesTheDocumentToAnother(fault: Fault) throws {
        guard let cluster = PostgresCluster.shared else {
            throw ConformanceError(PostgresCluster.unavailableReason ?? "no cluster")
        }
        let folder = NSTemporaryDirectory() + "larder-pg-pause-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(
            atPath: Repository.path("samples/recipes/banana-bread.txt"), toPath: folder + "/in/slow-banana.txt")
        let url = cluster.url()
        let schema = Self.schema(of: url)
        #expect(try Self.larder(["ingest", "--no-work", "--db", url, "in"], in: folder).status == 0)
        let log = folder + "/executions.log"
        let common = ["LARDER_DB": url, "LARDER_LEASE_TTL": "3", "LARDER_EXECUTION_LOG": log, "LARDER_SKIP_LLM": "1"]

        // Worker A stalls 8 s in detect; it is paused (SIGSTOP) once its lease is visible.
        let a = Process()
        a.executableURL = URL(fileURLWithPath: try Self.larder)
        a.arguments = ["worker", "--exit-when-idle", "--workers", "1"]
        a.environment = ProcessInfo.processInfo.environment.merging(
            common.merging(["LARDER_WORKER_ID": "hostA", "LARDER_FAULT_STALL": "detect:slow:8"]) { a, _ in a }) { _, b in b }
        a.currentDirectoryURL = URL(fileURLWithPath: folder)
        let aOutput = folder + "/a.log"
        FileManager.default.createFile(atPath: aOutput, contents: nil)
        a.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: aOutput))
        a.standardError = a.standardOutput
        try a.run()
        defer { if a.isRunning { kill(a.processIdentifier, SIGKILL) } }
        var owner = ""
        for _ in 0..<150 where owner != "hostA" {
            Thread.sleep(forTimeInterval: 0.2)
            owner = (try? cluster.psql("SELECT claim_owner FROM \(schema).document"))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        }
        #expect(owner == "hostA")
        let children = try cluster.children(of: a.processIdentifier)
        #expect(children.count == 1, "larder-worker under larder worker: \(children)")
        guard let worker = children.first else { return }
        switch fault {
        case .pause: kill(worker, SIGSTOP)
        case .kill:
            // The supervisor first: it must not live to give the claim back (a lost host gives nothing back).
            kill(a.processIdentifier, SIGKILL)
            kill(worker, SIGKILL)
        }
        Thread.sleep(forTimeInterval: 4.5)  // past the 3 s ttl: no heartbeat renewed it
        // `larder status` shows the lease and that it expired.
        let status = try Self.larder(["status"], in: folder, environment: common)
        #expect(status.output.contains("hostA"), "\(status.output)")
        #expect(status.output.contains("EXPIRED"), "\(status.output)")
        #expect(!status.output.contains(PostgresCluster.password))

        let b = try Self.larder(
            ["worker", "--exit-when-idle", "--workers", "1"], in: folder,
            environment: common.merging(["LARDER_WORKER_ID": "hostB"]) { a, _ in a })
        #expect(b.status == 0, "\(b.output)")
        if fault == .pause {
            kill(worker, SIGCONT)
            a.waitUntilExit()
            let aText = (try? String(contentsOfFile: aOutput, encoding: .utf8)) ?? ""
            #expect(a.terminationStatus == 0, "\(aText)")
            #expect(aText.contains("expired"), "the paused worker was told its claim expired: \(aText)")
        } else {
            a.waitUntilExit()
        }

        let versions = try cluster.psql("SELECT COUNT(*) FROM \(schema).result_version")
        #expect(versions.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "exactly one committed result")
        let state = try cluster.psql("SELECT state FROM \(schema).document")
        #expect(state.trimmingCharacters(in: .whitespacesAndNewlines) == "done")
        let executions = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(executions.split(separator: "\n").filter { $0.hasSuffix("\tdetect") }.count == 2, "ran twice, committed once")

        let sqlite = folder + "/single.sqlite"
        #expect(try Self.larder(["ingest", "--db", sqlite, "in"], in: folder).status == 0)
        #expect(try Self.larder(["export", "--db", sqlite, "--out", folder + "/out-sqlite"], in: folder).status == 0)
        #expect(try Self.larder(["export", "--db", url, "--out", folder + "/out-pg"], in: folder).status == 0)
        #expect(try Self.files(in: folder + "/out-pg") == Self.files(in: folder + "/out-sqlite"))
    }

    static func schema(of url: String) -> String {
        String(url.split(separator: "schema=").last ?? "larder")
    }

    /// `search` and `cook` on a new, empty PostgreSQL store (the schema made on first use) find nothing, plainly.
    @Test func searchAndCookOnAnEmptyStoreFindNothing() throws {
        guard let cluster = PostgresCluster.shared else { throw ConformanceError("no cluster") }
        let url = cluster.url()
        let search = try Self.larder(["search", "--db", url, "soup"], in: NSTemporaryDirectory())
        #expect(search.status == 0 && search.output == "no recipe matches\n", "\(search.output)")
        let cook = try Self.larder(["cook", "--db", url], in: NSTemporaryDirectory())
        #expect(cook.status == 0 && cook.output.hasPrefix("nothing to cook from the pantry yet"), "\(cook.output)")
        #expect(!(search.output + cook.output).contains(PostgresCluster.password))
    }
}
