import Foundation
import LarderTestSupport
import Testing

@testable import LarderCore
@testable import LarderStages

/// The real `larder` binary on real files, a real SQLite database and real processes.
@Suite("larder command line", .serialized, .integration)
struct CLIIntegrationTests {
    /// Every kind of bad input from the issue, mixed into a batch of good files: each gets a clear per-file error
    /// that names the file and says what to do, and every good document is ingested.
    @Test func badInputsFailAloneAndTheBatchFinishes() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let batch = folder + "/batch"
        let fm = FileManager.default
        try fm.createDirectory(atPath: batch, withIntermediateDirectories: true)
        for name in ["tomato-soup.txt", "pancakes.pdf", "two-column.pdf"] {
            try fm.copyItem(atPath: TestSupport.repoPath("samples/recipes/" + name), toPath: batch + "/" + name)
        }
        for name in ["truncated.pdf", "encrypted.pdf", "html-saved-as.pdf", "zero-pages.pdf", "latin1.txt"] {
            try fm.copyItem(atPath: TestSupport.repoPath("Tests/Fixtures/" + name), toPath: batch + "/" + name)
        }
        fm.createFile(atPath: batch + "/empty.txt", contents: Data())
        var generator = SystemRandomNumberGenerator()
        fm.createFile(atPath: batch + "/random.bin", contents: Data((0..<3000).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        fm.createFile(atPath: batch + "/huge.txt", contents: Data(repeating: UInt8(ascii: "a"), count: 300_000))
        fm.createFile(atPath: batch + "/secret.txt", contents: Data("2 cups flour\n".utf8), attributes: [.posixPermissions: 0o000])
        try fm.createSymbolicLink(atPath: batch + "/loop-a", withDestinationPath: "loop-b")
        try fm.createSymbolicLink(atPath: batch + "/loop-b", withDestinationPath: "loop-a")
        try "limits:\n  max_file_bytes: 200000\n".write(toFile: folder + "/pipeline.yml", atomically: true, encoding: .utf8)
        // root reads any file, so run as `nobody` to make the unreadable file unreadable.
        try TestSupport.shell("chmod 777 \(folder) \(batch)")
        var arguments = ["ingest", "--json", "--config", folder + "/pipeline.yml", "--db", folder + "/db.sqlite",
                         batch, folder + "/does-not-exist.pdf"]
        var executable: String? = nil
        if geteuid() == 0 {
            arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", try TestSupport.larderExecutable] + arguments
            executable = "/usr/bin/setpriv"
        }
        let run = TestSupport.finish(try TestSupport.start(arguments, executable: executable))
        #expect(run.status == 1, "partial success exits 1\n\(run.stderr)")
        let summary = try TestSupport.decode(BatchSummary.self, from: run)

        #expect(summary.done == 4, "three good samples and the Latin-1 text")
        func inputError(_ name: String) -> LarderError.Record? { summary.inputErrors.first { $0.path?.hasSuffix("/" + name) == true } }
        func failure(_ name: String) -> LarderError.Record? { summary.failures.first { $0.path.hasSuffix("/" + name) }?.error }
        let expectations: [(LarderError.Record?, String)] = [
            (inputError("does-not-exist.pdf"), "no such file"),
            (inputError("loop-a"), "symlink loop"),
            (inputError("huge.txt"), "over the limit"),
            (inputError("secret.txt"), "permission denied"),
            (failure("empty.txt"), "empty file"),
            (failure("random.bin"), "unrecognised binary"),
            (failure("html-saved-as.pdf"), "HTML"),
            (failure("truncated.pdf"), "truncated"),
            (failure("encrypted.pdf"), "encrypted"),
            (failure("zero-pages.pdf"), "no pages"),
        ]
        for (record, phrase) in expectations {
            let record = try #require(record, "missing error containing '\(phrase)'\n\(run.stdout)")
            #expect(record.message.contains(phrase), "\(record.message)")
            #expect(record.hint?.isEmpty == false, "every error says what to do: \(record.message)")
            #expect(record.path?.hasPrefix(folder) == true, "every error names the file")
        }
        #expect(summary.failures.count == 6)
        #expect(summary.inputErrors.count == 5, "\(summary.inputErrors.map { $0.path ?? "" })")  // loop-a and loop-b

        // The Latin-1 file is ingested, with a warning that says what to do.
        let show = try TestSupport.larder(["show", "--db", folder + "/db.sqlite", "--stage", "detect", batch + "/latin1.txt"])
        #expect(show.stdout.contains("latin-1"))
        #expect(show.stdout.contains("re-save the file as UTF-8"))
        // The text summary says the same for a person.
        let status = try TestSupport.larder(["status", "--db", folder + "/db.sqlite"])
        #expect(status.status == 1, "failed documents: status exits 1 (issue 36)")
        #expect(status.stdout.contains("encrypted PDF"))
        #expect(status.stdout.contains("qpdf --decrypt"))
    }

    @Test func configurationErrorsNameKeyAndLine() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        try "workers: 2\nmax_atempts: 4\n".write(toFile: folder + "/p.yml", atomically: true, encoding: .utf8)
        let run = try TestSupport.larder(["status", "--config", folder + "/p.yml"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("p.yml:2"))
        #expect(run.stderr.contains("unknown key 'max_atempts'"))
    }

    /// A document that crashes the worker process (standing in for a poppler crash on a malicious file) is
    /// quarantined after max_attempts crashes; the batch finishes and every other document is done.
    @Test func nativeCrashIsContainedAndQuarantined() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        try TestSupport.shell("/usr/bin/python3 \(TestSupport.repoPath("scripts/data/make-corpus.py")) 12 \(folder)/in --seed 7")
        try FileManager.default.copyItem(
            atPath: TestSupport.repoPath("samples/recipes/pancakes.pdf"), toPath: folder + "/in/poison.pdf")
        let run = try TestSupport.larder(
            ["ingest", "--json", "--workers", "2", "--db", folder + "/db.sqlite", folder + "/in"],
            environment: ["LARDER_FAULT_CRASH": "extract:poison"])
        #expect(run.status == 1, "\(run.stderr)")
        let summary = try TestSupport.decode(BatchSummary.self, from: run)
        #expect(summary.done == 12)
        #expect(summary.quarantined == 1)
        #expect(summary.crashes == 3, "max_attempts = 3 crashes, then quarantine")
        let poison = try #require(summary.failures.first)
        #expect(poison.path.hasSuffix("poison.pdf"))
        #expect(poison.stage == "extract")
        #expect(poison.error?.kind == .crashed)
        #expect(run.stderr.contains("restarting"))
        // `larder retry` re-queues it; without the fault it now passes.
        let retry = try TestSupport.larder(["retry", "--json", "--db", folder + "/db.sqlite"])
        #expect(retry.status == 0, "\(retry.stderr)")
        #expect(try TestSupport.decode(BatchSummary.self, from: retry).done == 13)
    }
}

/// SIGKILL at several points, then resume: the final database equals an uninterrupted run's, and no stage that
/// was marked done ever runs again (executions counted through LARDER_EXECUTION_LOG).
@Suite("kill and resume", .serialized, .integration, .slow)
struct ResumeTests {
    static let documentCount = 400

    struct Snapshot: Equatable {
        /// sha256 → document state and, per stage, status/version/output/error.
        var documents: [String: String]
        var done: Set<String>
    }

    static func snapshot(_ database: String) throws -> Snapshot {
        let store = try SQLiteCheckpointStore(path: database)
        var documents: [String: String] = [:]
        var done = Set<String>()
        var id: Int64 = 1
        while let document = try store.document(id: id) {
            var rows: [String] = ["state=\(document.state.rawValue)"]
            for row in try store.stages(of: document.id).sorted(by: { $0.stage < $1.stage }) {
                rows.append("\(row.stage) \(row.status.rawValue) \(row.version ?? "-") \(row.output ?? "-") \(row.error?.message ?? "-")")
                if row.status == .done { done.insert("\(document.sha256)\t\(row.stage)") }
            }
            documents[document.sha256] = rows.joined(separator: "\n")
            id += 1
        }
        return Snapshot(documents: documents, done: done)
    }

    static func executions(_ log: String) throws -> [String] {
        guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init)
    }

    static func doneStages(_ database: String) throws -> Int {
        guard FileManager.default.fileExists(atPath: database) else { return 0 }
        return try SQLiteCheckpointStore(path: database).stageCounts().filter { $0.status == .done }.map(\.count).reduce(0, +)
    }

    static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == parent ? pid : nil
        }
    }

    /// Waits until no worker holds the database lock (the killed worker is gone).
    static func waitForWorkerExit(_ database: String) {
        for _ in 0..<500 where WorkerChild.isDatabaseLocked(database) { usleep(10_000) }
    }

    @Test func killedBatchesResumeToTheSameDatabase() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let corpus = folder + "/corpus"
        let made = try TestSupport.shell("/usr/bin/python3 \(TestSupport.repoPath("scripts/data/make-corpus.py")) \(Self.documentCount) \(corpus) --seed 3")
        #expect(made.status == 0, "\(made.stderr)")
        let stagesPerDocument = try Pipeline.standard(for: PipelineConfig()).stages.count
        let total = Self.documentCount * stagesPerDocument

        // The reference: one uninterrupted run. Every stage runs exactly once.
        let reference = folder + "/reference.sqlite"
        let referenceRun = try TestSupport.larder(
            ["ingest", "--db", reference, corpus], environment: ["LARDER_EXECUTION_LOG": folder + "/reference.log"])
        #expect(referenceRun.status == 0, "\(referenceRun.stderr)")
        let referenceLog = try Self.executions(folder + "/reference.log")
        #expect(referenceLog.count == total)
        #expect(Set(referenceLog).count == total)
        let expected = try Self.snapshot(reference)
        #expect(expected.documents.count == Self.documentCount)

        // The same batch, SIGKILLed at several points, each time resumed by running the same command.
        let database = folder + "/killed.sqlite"
        var kills = 0
        var run = 0
        for target in [0.15, 0.45, 0.75, 2.0] {
            run += 1
            let doneBefore = try Self.snapshot(database).done
            let log = folder + "/run\(run).log"
            let started = try TestSupport.start(
                ["ingest", "--db", database, corpus], environment: ["LARDER_EXECUTION_LOG": log])
            if target <= 1 {
                while started.process.isRunning, try Self.doneStages(database) < Int(Double(total) * target) {
                    usleep(5_000)
                }
                if started.process.isRunning {
                    let pid = started.process.processIdentifier
                    let workers = Self.children(of: pid)
                    kill(pid, SIGKILL)  // the supervisor, then its worker: as sudden as a power cut
                    for worker in workers { kill(worker, SIGKILL) }
                    kills += 1
                }
            }
            let result = TestSupport.finish(started)
            Self.waitForWorkerExit(database)
            if target > 1 { #expect(result.status == 0, "the last run finishes the batch\n\(result.stderr)") }
            // No stage that was done before this run started ran again in it.
            let rerun = try Self.executions(log).filter { doneBefore.contains($0) }
            #expect(rerun.isEmpty, "run \(run) re-executed \(rerun.count) finished stages")
        }
        #expect(kills >= 2, "the batch was killed mid-way at least twice")
        let final = try Self.snapshot(database)
        #expect(final.documents == expected.documents)
        // Across all runs, each stage ran once, plus at most once more per kill for the stages that were in flight.
        var all: [String] = []
        for index in 1...run { all += try Self.executions(folder + "/run\(index).log") }
        #expect(Set(all).count == total)
        #expect(all.count <= total + kills * 4)
    }

    @Test func sigintStopsCleanlyAndResumeFinishes() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let corpus = folder + "/corpus"
        let made = try TestSupport.shell("/usr/bin/python3 \(TestSupport.repoPath("scripts/data/make-corpus.py")) 300 \(corpus) --seed 5")
        #expect(made.status == 0, "\(made.stderr)")
        let database = folder + "/db.sqlite"
        let started = try TestSupport.start(["ingest", "--json", "--db", database, corpus])
        while started.process.isRunning, try Self.doneStages(database) < 150 { usleep(5_000) }
        let interrupted = started.process.isRunning
        if interrupted { kill(started.process.processIdentifier, SIGINT) }
        let result = TestSupport.finish(started)
        if interrupted {
            #expect(result.status == 130, "\(result.stderr)")
            let summary = try TestSupport.decode(BatchSummary.self, from: result)
            #expect(summary.interrupted)
            #expect(summary.pending > 0)
            // In-flight stages finished or were released: nothing is left marked running.
            let running = try SQLiteCheckpointStore(path: database).stageCounts().filter { $0.status == .running }
            #expect(running.isEmpty)
        } else {
            #expect(result.status == 0, "the batch finished before the SIGINT: \(result.stderr)")
        }
        let resume = try TestSupport.larder(["resume", "--json", "--db", database])
        #expect(resume.status == 0, "\(resume.stderr)")
        let summary = try TestSupport.decode(BatchSummary.self, from: resume)
        #expect(summary.done == 300)
        #expect(summary.pending == 0)
    }
}
