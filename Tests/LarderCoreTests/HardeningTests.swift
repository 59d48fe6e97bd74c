import Foundation
import Logging
import LarderTestSupport
import Testing

@testable import LarderCore
@testable import LarderStages

/// Issue 11: what a hostile probe of the batch found, each reproduced with real files, real processes, real
/// symlinks and a real full filesystem, and kept fixed.
@Suite("hostile input and faults", .serialized, .integration)
struct HardeningTests {
    static var isRoot: Bool { geteuid() == 0 }

    /// Whether this process may mount a tmpfs (root with CAP_SYS_ADMIN: not in every container).
    static let canMountTmpfs: Bool = {
        guard geteuid() == 0 else { return false }
        let folder = NSTemporaryDirectory() + "larder-mount-probe-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        guard (try? TestSupport.shell("mount -t tmpfs -o size=64k larder-probe \(folder)"))?.status == 0 else { return false }
        _ = try? TestSupport.shell("umount \(folder)")
        return true
    }()

    static func corpus(_ count: Int, in folder: String, seed: Int = 11) throws -> String {
        let path = folder + "/corpus"
        let made = try TestSupport.shell(
            "/usr/bin/python3 \(TestSupport.repoPath("scripts/data/make-corpus.py")) \(count) \(path) --seed \(seed)")
        #expect(made.status == 0, "\(made.stderr)")
        return path
    }

    static func executions(_ log: String) -> [String] {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// A one-page PDF with the given MediaBox and content stream, with a correct xref table.
    static func pdf(mediaBox: String, content: String, pageKeys: String = "") -> Data {
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [\(mediaBox)] \(pageKeys) /Contents 4 0 R /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
        ]
        var text = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(text.utf8.count)
            text += "\(index + 1) 0 obj\n\(object)\nendobj\n"
        }
        let xref = text.utf8.count
        text += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { text += String(format: "%010d 00000 n \n", offset) }
        text += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Data(text.utf8)
    }

    // MARK: 2 and 11: the worker lock belongs to the database; summaries count what their batch did

    /// Two ingests of one batch on one database, one through a symlink to it: every stage runs once in all, no
    /// attempt is counted twice, and the two summaries together processed each document once.
    @Test func twoIngestsThroughASymlinkShareOneLock() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let count = 60
        let corpus = try Self.corpus(count, in: folder)
        let database = folder + "/db.sqlite"
        let link = folder + "/link/db.sqlite"
        try FileManager.default.createDirectory(atPath: folder + "/link", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: database)
        let first = try TestSupport.start(
            ["ingest", "--json", "--workers", "2", "--db", database, corpus],
            environment: ["LARDER_EXECUTION_LOG": folder + "/first.log"])
        // The second starts once the first's worker is at work.
        for _ in 0..<2000 where Self.executions(folder + "/first.log").count < 20 { usleep(5_000) }
        let second = try TestSupport.start(
            ["ingest", "--json", "--workers", "2", "--db", link, corpus],
            environment: ["LARDER_EXECUTION_LOG": folder + "/second.log"])
        let firstRun = TestSupport.finish(first)
        let secondRun = TestSupport.finish(second)
        #expect(firstRun.status == 0, "\(firstRun.stderr)")
        #expect(secondRun.status == 0, "\(secondRun.stderr)")
        let stages = try Pipeline.standard(for: PipelineConfig()).stages.count
        let all = Self.executions(folder + "/first.log") + Self.executions(folder + "/second.log")
        #expect(Set(all).count == count * stages)
        #expect(all.count == count * stages, "no stage ran twice: \(all.count - count * stages) re-ran")
        let store = try SQLiteCheckpointStore(path: database)
        for id in 1...Int64(count) {
            #expect(try store.stages(of: id).allSatisfy { $0.attempts == 1 && $0.status == .done })
        }
        let a = try TestSupport.decode(BatchSummary.self, from: firstRun)
        let b = try TestSupport.decode(BatchSummary.self, from: secondRun)
        #expect(a.processed + b.processed == count, "each document processed once: \(a.processed) + \(b.processed)")
        #expect(a.done == count && b.done == count, "each batch's documents are all done: \(a.done), \(b.done)")
    }

    // MARK: 9: another application's database is refused

    @Test func anotherApplicationsDatabaseIsRefusedAndLeftUntouched() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let other = folder + "/notes.sqlite"
        let python = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1]); db.execute('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)')
            db.execute("INSERT INTO notes (body) VALUES ('keep me')"); db.commit()
            """
        try python.write(toFile: folder + "/make.py", atomically: true, encoding: .utf8)
        try TestSupport.shell("/usr/bin/python3 \(folder)/make.py \(other)")
        let before = try Data(contentsOf: URL(fileURLWithPath: other))
        let sample = TestSupport.repoPath("samples/recipes/tomato-soup.txt")
        let run = try TestSupport.larder(["ingest", "--db", other, sample])
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains("not a Larder checkpoint database"), "\(run.stderr)")
        #expect(run.stderr.contains("notes"), "names what it found: \(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before, "the file is byte for byte untouched")
        #expect(!FileManager.default.fileExists(atPath: other + "-wal"))
        let status = try TestSupport.larder(["status", "--db", other])
        #expect(status.status == 3)

        // A file that is not SQLite at all.
        let text = folder + "/text.sqlite"
        try "just some text, not a database\n".write(toFile: text, atomically: true, encoding: .utf8)
        let textRun = try TestSupport.larder(["ingest", "--db", text, sample])
        #expect(textRun.status == 3, "\(textRun.stderr)")
        #expect(textRun.stderr.contains("not a database"), "\(textRun.stderr)")

        // Larder's own databases carry its application id.
        let ours = folder + "/ours.sqlite"
        #expect(try TestSupport.larder(["ingest", "--db", ours, sample]).status == 0)
        let id = try TestSupport.shell(
            "/usr/bin/python3 -c \"import sqlite3; print(sqlite3.connect('\(ours)').execute('PRAGMA application_id').fetchone()[0])\"")
        #expect(id.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == String(SQLiteCheckpointStore.applicationID))
    }

    // MARK: 10: read-only commands on a read-only database

    @Test(.enabled(if: isRoot, "runs the commands as `nobody` (setpriv) so the file is really read-only; needs root"))
    func readOnlyDatabaseCanBeLookedAt() throws {
        let folder = try TestSupport.temporaryFolder()
        defer {
            _ = try? TestSupport.shell("chmod -R u+w \(folder)")
            TestSupport.cleanUp(folder)
        }
        let data = folder + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let database = data + "/db.sqlite"
        let ingest = try TestSupport.larder(
            ["ingest", "--db", database, TestSupport.repoPath("samples/recipes/tomato-soup.txt")])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let out = folder + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try TestSupport.shell("chmod 755 \(folder); chmod 777 \(out); chmod 444 \(data)/*; chmod 555 \(data)")
        func asNobody(_ arguments: [String]) throws -> TestSupport.Run {
            TestSupport.finish(
                try TestSupport.start(
                    ["--reuid=65534", "--regid=65534", "--clear-groups", try TestSupport.larderExecutable] + arguments,
                    in: folder, executable: "/usr/bin/setpriv"))
        }
        for arguments in [["status"], ["show", "1"], ["review", "list"], ["export", "--out", out], ["pantry"]] {
            let run = try asNobody(arguments + ["--db", database])
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("SQLite error"), "\(run.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).count == 1, "the export was written")
        // A command that writes says why it cannot, in Larder's words, and exits 3.
        let retry = try asNobody(["retry", "--db", database])
        #expect(retry.status == 3, "\(retry.stderr)")
        #expect(retry.stderr.contains("read-only") || retry.stderr.contains("cannot open"), "\(retry.stderr)")
    }

    // MARK: 7: bad options are refused before anything is registered

    @Test func badWorkerOptionsExit2BeforeAnythingIsRegistered() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let database = folder + "/db.sqlite"
        let sample = TestSupport.repoPath("samples/recipes/tomato-soup.txt")
        for workers in ["-1", "100000"] {
            let run = try TestSupport.larder(["ingest", "--workers", workers, "--db", database, sample])
            #expect(run.status == 2, "--workers \(workers): \(run.stderr)")
            #expect(run.stderr.contains("--workers"), "\(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: database), "nothing was registered")
        let notANumber = try TestSupport.larder(["ingest", "--workers", "many", "--db", database, sample])
        #expect(notANumber.status == 2, "ArgumentParser's usage errors exit 2 too: \(notANumber.stderr)")
        let resume = try TestSupport.larder(["resume", "--workers", "-3", "--db", database])
        #expect(resume.status == 2, "\(resume.stderr)")
        let worker = URL(fileURLWithPath: try TestSupport.larderExecutable).deletingLastPathComponent().path + "/larder-worker"
        let direct = TestSupport.finish(
            try TestSupport.start(["--workers", "-1", "--db", database], executable: worker))
        #expect(direct.status == 2, "\(direct.stderr)")
    }

    // MARK: 5: an API key pasted into api_key_env

    @Test func apiKeyEnvMustBeAVariableName() throws {
        func yaml(_ value: String) -> String {
            """
            llm:
              mode: fallback
              providers:
                - name: p
                  kind: openai-compatible
                  base_url: http://127.0.0.1:1/v1
                  model: m
                  api_key_env: \(value)
            """
        }
        for name in ["OPENAI_API_KEY", "GROQ_API_KEY", "HF_TOKEN", "MY_KEY_2"] {
            let config = try PipelineConfig.parse(yaml: yaml(name))
            #expect(config.llm.providers.first?.apiKeyEnv == name)
        }
        let keys = [
            "gsk_8fJ2kLm9QrT4vWx7Yz1AbCdEfGhIjKlMnOpQrStUv",  // letters, digits and _: passed before
            "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
            "sk-proj-abcdefghijklmnop1234567890",
            "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW",
            "xai-AbCdEfGhIjKlMnOpQrStUvWxYz",
            "A1B2C3D4E5F6G7H8I9J0K1L2M3N4P5Q6",  // a key in capitals: one long random run
            "openai_api_key",  // lower case
        ]
        for key in keys {
            do {
                _ = try PipelineConfig.parse(yaml: yaml(key))
                Issue.record("accepted \(key.prefix(4))… as a variable name")
            } catch let error as LarderError {
                #expect(error.kind == .configuration)
                #expect(!error.description.contains(key), "the key is never echoed")
                #expect(error.line == 8)
            }
        }
    }

    // MARK: 4: numbers from the file are converted with checks

    /// A scanned page (no text) 10²⁵ points tall whose CropBox is 10⁻¹⁵ points wide: rendering it for OCR
    /// trapped in `PDFFile.render` ("Double value cannot be converted to Int because the result would be greater
    /// than Int.max"), and the worker's three deaths quarantined the file, blaming a native library. A page whose
    /// height has 400 digits (infinite for a Double) was quarantined after three "EncodingError.invalidValue: inf"
    /// retries. Now both fail with a message and nothing crashes.
    @Test func hugePageSizesFailThePageWithoutACrash() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        let tall = "1" + String(repeating: "0", count: 25)
        let infinite = "1" + String(repeating: "0", count: 400)
        let pages = [
            ("narrow", "0 0 612 \(tall)", "/CropBox [0 0 0.000000000000001 \(tall)]"),
            ("infinite", "0 0 612 \(infinite)", ""),
        ]
        for (name, box, keys) in pages {
            try Self.pdf(mediaBox: box, content: "0 0 1 rg 0 0 1 1 re f", pageKeys: keys).write(
                to: URL(fileURLWithPath: folder + "/in/\(name).pdf"))
        }
        try FileManager.default.copyItem(
            atPath: TestSupport.repoPath("samples/recipes/tomato-soup.txt"), toPath: folder + "/in/good.txt")
        let run = try TestSupport.larder(["ingest", "--json", "--db", folder + "/db.sqlite", folder + "/in"])
        let summary = try TestSupport.decode(BatchSummary.self, from: run)
        #expect(summary.crashes == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("Fatal error"), "\(run.stderr)")
        #expect(summary.quarantined == 0)
        #expect(summary.done == 1)
        #expect(summary.failed == 2)
        for failure in summary.failures {
            #expect(failure.error?.kind == .badInput, "\(failure.path): \(String(describing: failure.error))")
            #expect(failure.error?.hint?.isEmpty == false)
        }
    }

    // MARK: 1: a file rewritten while extract runs

    /// A stand-in for another program rewriting the file while `extract` reads it: the real extract stage runs,
    /// and the file is replaced (in place, same inode) before the stage returns.
    struct RewrittenDuringExtract: Stage {
        let inner = ExtractStage()
        let replacement: Data
        var name: String { inner.name }
        var version: String { inner.version }
        var readsDocumentFile: Bool { inner.readsDocumentFile }
        func run(_ input: StageInput) throws -> StageOutput {
            let output = try inner.run(input)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: input.document.path))
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: replacement)
            try handle.close()
            return output
        }
    }

    @Test func fileRewrittenWhileExtractReadsItIsReportedAsChanged() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let path = folder + "/pancakes.pdf"
        try FileManager.default.copyItem(atPath: TestSupport.repoPath("samples/recipes/pancakes.pdf"), toPath: path)
        let replacement = try Data(contentsOf: URL(fileURLWithPath: TestSupport.repoPath("samples/recipes/two-column.pdf")))
        let pipeline = Pipeline(stages: [DetectStage(), RewrittenDuringExtract(replacement: replacement)])
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        let config = PipelineConfig()
        let batch = try store.beginBatch(command: "test", inputs: [path])
        _ = try Intake(store: store, manifest: pipeline.manifest, config: config).ingest(paths: [path], batchID: batch)
        let counters = try WorkQueue(store: store, pipeline: pipeline, config: config, logger: TestSupport.logger).run()
        #expect(counters.failed == 1)
        let extract = try #require(try store.stages(of: 1).first { $0.stage == "extract" })
        #expect(extract.status == .failed)
        #expect(extract.output == nil, "no result mixing two versions is kept")
        #expect(extract.error?.message.contains("changed while extract read it") == true, "\(String(describing: extract.error))")
        #expect(extract.error?.kind == .badInput)
    }

    // MARK: 3 and 14: file names that are not UTF-8 or hold a newline

    @Test func fileNamesThatAreNotUTF8AreIngestedAndShownEscaped() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let made = try TestSupport.shell(
            "mkdir -p \(folder)/in && cp \(TestSupport.repoPath("samples/recipes/tomato-soup.txt")) \(folder)/in/$'caf\\xe9.txt'"
                + " && cp \(TestSupport.repoPath("samples/recipes/pancakes.pdf")) \(folder)/in/$'cr\\xeape.pdf'"
                + " && printf 'not a pdf at all' > \(folder)/in/$'bad\\xff.pdf'")
        #expect(made.status == 0, "\(made.stderr)")
        let run = try TestSupport.larder(["ingest", "--db", folder + "/db.sqlite", folder + "/in"])
        #expect(run.status == 1, "\(run.stderr)\n\(run.stdout)")
        #expect(run.stdout.contains("2 done, 1 failed"), "\(run.stdout)")
        #expect(run.stdout.contains("bad\\xFF.pdf"), "shown escaped: \(run.stdout)")
        #expect(!run.stdout.contains("no such file"))
        // Given directly on the command line (raw bytes in argv), too.
        let direct = try TestSupport.shell(
            "\(try TestSupport.larderExecutable) ingest --db \(folder)/db2.sqlite \(folder)/in/$'caf\\xe9.txt'")
        #expect(direct.status == 0, "\(direct.stderr)")
        #expect(direct.stdout.contains("1 done"), "\(direct.stdout)")
        let show = try TestSupport.larder(["show", "--db", folder + "/db2.sqlite", "1"])
        #expect(show.stdout.contains("caf\\xE9.txt"), "\(show.stdout)")
    }

    /// A torn JPEG (libjpeg: "Premature end of JPEG file") and a PDF with an unknown operator (poppler: "Syntax
    /// error … Unknown operator"), through the real worker: libjpeg's line no longer reaches standard error, and
    /// both (poppler's went to GLib's log, dropped) become warnings in the document's result, naming the file.
    @Test func nativeLibraryWarningsBecomeTheDocumentsWarnings() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let batch = folder + "/in"
        try FileManager.default.createDirectory(atPath: batch, withIntermediateDirectories: true)
        let photo = try Data(contentsOf: URL(fileURLWithPath: TestSupport.repoPath("samples/receipts/corner-grocer.jpg")))
        FileManager.default.createFile(atPath: batch + "/torn receipt.jpg", contents: photo.prefix(photo.count * 3 / 4))
        let pdf = Self.pdf(mediaBox: "0 0 300 200", content: "BT /F1 12 Tf 20 150 Td (Pancakes) Tj ET zork")
        FileManager.default.createFile(atPath: batch + "/bad operator.pdf", contents: pdf)

        // G_MESSAGES_DEBUG=all makes GLib print poppler's messages, unless Larder takes them.
        let run = try TestSupport.larder(
            ["ingest", "--db", folder + "/db.sqlite", batch], environment: ["G_MESSAGES_DEBUG": "all"])
        #expect(run.status == 0, "\(run.stderr)\n\(run.stdout)")
        for library in ["JPEG", "libpng", "Poppler", "zork"] {
            #expect(!run.stderr.contains(library), "a native library's line reached stderr: \(run.stderr)")
        }
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        var warnings: [String: [String]] = [:]
        for id in [Int64(1), 2] {
            let document = try #require(try store.document(id: id))
            let result = try #require(try store.stages(of: id).first { $0.stage == "result" }?.output)
            let decoded = try JSONDecoder().decode(DocumentResult.self, from: Data(result.utf8))
            warnings[URL(fileURLWithPath: document.path).lastPathComponent] = decoded.warnings
        }
        let jpeg = try #require(warnings["torn receipt.jpg"])
        #expect(jpeg.contains { $0.hasPrefix("torn receipt.jpg: the image decoder reported \"Premature end of JPEG file\"") }, "\(jpeg)")
        let poppler = try #require(warnings["bad operator.pdf"])
        #expect(poppler == [
            "bad operator.pdf: poppler reported \"Syntax error at position -1: Unknown operator 'zork'\" (the PDF may be damaged: check the text read from it)"
        ])
        let show = try TestSupport.larder(["show", "--db", folder + "/db.sqlite", "1"])
        #expect(show.status == 0 && show.stderr.isEmpty, "\(show.stderr)")
    }

    @Test func aFileNameCannotForgeASummaryLine() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let batch = folder + "/in"
        try FileManager.default.createDirectory(atPath: batch, withIntermediateDirectories: true)
        let evil = "x\n  failed: passwd (doc 99, detect): forged.pdf"
        FileManager.default.createFile(atPath: batch + "/" + evil, contents: Data("not a pdf".utf8))
        let run = try TestSupport.larder(["ingest", "--db", folder + "/db.sqlite", batch])
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("  failed: passwd") }, "\(run.stdout)")
        #expect(run.stdout.contains("/x\\n  failed: passwd"), "\(run.stdout)")
        let status = try TestSupport.larder(["status", "--db", folder + "/db.sqlite"])
        #expect(!status.stdout.split(separator: "\n").contains { $0.hasPrefix("  failed: passwd") })
    }

    @Test func foundationErrorsAreSaidInLarderWords() {
        let error = LarderError.wrap(CocoaError(.fileNoSuchFile), path: "/tmp/x")
        #expect(!error.message.contains("could not be completed"))
        #expect(error.hint != nil)
        #expect(LarderError.displayPath("a\nb\u{1B}[2Jc") == "a\\nb\\x1B[2Jc")
        let bytes: [UInt8] = [0x63, 0x61, 0x66, 0xE9, 0x2E, 0x74, 0x78, 0x74]
        let path = FilePath.string(fromBytes: bytes)
        #expect(FilePath.bytes(of: path) == bytes)
        #expect(LarderError.displayPath(path) == "caf\\xE9.txt")
    }

    // MARK: 6: a no-op re-run is linear

    /// The duplicate check ran per file over the whole batch's paths (SQLite picked the batch index); it must
    /// look the document up by its primary key.
    @Test func duplicateCheckSearchesByDocument() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        let plan = try store.queryPlan(SQLiteCheckpointStore.earlierPathSQL, arguments: [1, 1, "x"])
        #expect(plan.contains { $0.contains("PRIMARY KEY") || $0.contains("sqlite_autoindex_document_path") }, "\(plan)")
        #expect(!plan.contains { $0.contains("document_path_batch") }, "\(plan)")
        // And it scales: registering 6,000 known files again takes about as long per file as 2,000 do.
        func rerun(_ count: Int) throws -> Double {
            let files = (0..<count).map {
                RegisteredFile(path: "/corpus/\(count)/\($0).pdf", sha256: String(format: "%064x", count * 100_000 + $0),
                               byteCount: 1, modifiedAt: 1)
            }
            _ = try store.register(files, batchID: try store.beginBatch(command: "t", inputs: []), stages: ["detect"])
            let batch = try store.beginBatch(command: "t", inputs: [])
            let started = Date()
            _ = try store.register(files, batchID: batch, stages: ["detect"])
            return Date().timeIntervalSince(started) / Double(count)
        }
        let small = try rerun(2_000)
        let large = try rerun(6_000)
        #expect(large < small * 2.5, "per-file time grew with the batch: \(small * 1e6) µs → \(large * 1e6) µs")
    }

    // MARK: 12: outside kills are not crashes

    @Test func onlyCrashSignalsBlameTheDocument() {
        for signal in [SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE, SIGTRAP] {
            #expect(WorkerProcess.blamesDocuments(signal: signal, oomKilled: false))
        }
        for signal in [SIGKILL, SIGTERM, SIGHUP, SIGPIPE, SIGUSR1] {
            #expect(!WorkerProcess.blamesDocuments(signal: signal, oomKilled: false))
        }
        #expect(WorkerProcess.blamesDocuments(signal: SIGKILL, oomKilled: true), "an OOM kill counts")
    }

    /// Killing the worker from outside again and again: no document is blamed or quarantined, and the batch
    /// ends exactly as a clean run would.
    @Test func workerKilledFromOutsideQuarantinesNothing() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let count = 40
        let corpus = try Self.corpus(count, in: folder, seed: 12)
        let database = folder + "/db.sqlite"
        let started = try TestSupport.start(["ingest", "--json", "--workers", "2", "--db", database, corpus])
        let parent = started.process.processIdentifier
        var kills = 0
        while started.process.isRunning && kills < 12 {
            usleep(useconds_t(Int.random(in: 30_000...120_000)))
            // Mostly SIGKILL; every third a SIGTERM to the worker alone, which stops it cleanly (exit 143).
            for worker in ResumeTests.children(of: parent) {
                kill(worker, kills % 3 == 2 ? SIGTERM : SIGKILL)
                kills += 1
            }
        }
        let run = TestSupport.finish(started)
        #expect(kills >= 3, "the worker was killed several times")
        #expect(run.status == 0, "\(run.stderr)")
        let summary = try TestSupport.decode(BatchSummary.self, from: run)
        #expect(summary.done == count)
        #expect(summary.quarantined == 0)
        #expect(summary.crashes == 0, "outside kills are not crashes")
        #expect(run.stderr.contains("from outside"))
    }

    // MARK: 8: a full disk

    @Test(.enabled(if: canMountTmpfs, "mounts a 1 MiB tmpfs to fill: needs root allowed to mount (CAP_SYS_ADMIN)"))
    func fullDiskSaysSoOnceStopsAndResumes() throws {
        let folder = try TestSupport.temporaryFolder()
        let disk = folder + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let mounted = try TestSupport.shell("mount -t tmpfs -o size=1m larder-full \(disk)")
        defer {
            _ = try? TestSupport.shell("umount \(disk)")
            TestSupport.cleanUp(folder)
        }
        try #require(mounted.status == 0, "mount failed: \(mounted.stderr)")
        let count = 150
        let corpus = try Self.corpus(count, in: folder, seed: 13)
        let database = disk + "/db.sqlite"
        let run = try TestSupport.larder(["ingest", "--workers", "2", "--db", database, corpus])
        #expect(run.status == 3, "\(run.stderr)\n\(run.stdout)")
        let mentions = run.stderr.components(separatedBy: "is full").count - 1
        #expect(mentions >= 1 && mentions <= 2, "said once (by the worker, maybe echoed by larder): \(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count < 10, "\(run.stderr)")

        // An export onto a full disk says so too.
        let fill = try TestSupport.shell("dd if=/dev/zero of=\(disk)/filler bs=64k 2>/dev/null; true")
        #expect(fill.status == 0)
        let export = try TestSupport.larder(["export", "--db", database, "--out", disk + "/out"])
        if export.status != 0 {
            #expect(export.status == 3, "\(export.stderr)")
            #expect(export.stderr.contains("full"), "\(export.stderr)")
        }

        // Free space: resume finishes the batch.
        try TestSupport.shell("rm -f \(disk)/filler; mount -o remount,size=64m \(disk)")
        let resume = try TestSupport.larder(["resume", "--json", "--db", database])
        #expect(resume.status == 0, "\(resume.stderr)")
        #expect(try TestSupport.decode(BatchSummary.self, from: resume).done == count)
    }

    // MARK: the pipeline.yml reader under mutation

    /// 3,000 seeded mutations of the repository's pipeline.yml (bytes flipped, lines dropped, duplicated or
    /// swapped, numbers inflated): each parses or is refused with a LarderError naming the file; none traps.
    @Test func mutatedPipelineYAMLIsParsedOrRefused() throws {
        let original = Array(try String(contentsOfFile: TestSupport.repoPath("pipeline.yml"), encoding: .utf8).utf8)
        var generator = SeededGenerator(seed: 11)
        var refused = 0
        for _ in 0..<3_000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<5, using: &generator) {
                case 0: bytes[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &generator))
                case 1: bytes.insert(contentsOf: Array("99999999999999999999".utf8), at: at)
                case 2: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...200, using: &generator)))
                case 3: bytes.insert(contentsOf: Array(": [{\n- &a *a !!binary".utf8), at: at)
                default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 300)], at: at)
                }
                if bytes.isEmpty { bytes = original }
            }
            do {
                _ = try PipelineConfig.parse(yaml: String(decoding: bytes, as: UTF8.self), path: "fuzz.yml")
            } catch let error as LarderError {
                #expect(error.kind == .configuration)
                #expect(error.path == "fuzz.yml")
                refused += 1
            }
        }
        #expect(refused > 1_000, "most mutations break the file: \(refused)")
    }

    // MARK: 13: time and size limits

    /// A 360 KB PDF of 6 million text operators holds poppler for seconds (pdftotext alone takes 3.7 s on an idle
    /// machine; 1.5 million took about 1 s, too close to the limit to fail reliably); with `limits.stage_seconds: 1` the
    /// worker gives up on it (the document fails, over the limit), restarts, and every other document is done.
    /// A text file of one 60,000-character line fails at detect.
    @Test func stageDeadlineAndTextLimits() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let count = 6
        let corpus = try Self.corpus(count, in: folder, seed: 14)
        let made = try TestSupport.shell(
            "/usr/bin/python3 \(TestSupport.repoPath("scripts/data/make-hostile.py")) slow-pdf \(corpus)/slow.pdf 6000000")
        #expect(made.status == 0, "\(made.stderr)")
        try String(repeating: "flour sugar butter ", count: 3_200).write(
            toFile: corpus + "/one-line.txt", atomically: true, encoding: .utf8)
        try "limits:\n  stage_seconds: 1\n".write(toFile: folder + "/pipeline.yml", atomically: true, encoding: .utf8)
        let started = Date()
        let run = try TestSupport.larder(
            ["ingest", "--json", "--workers", "2", "--config", folder + "/pipeline.yml", "--db", folder + "/db.sqlite", corpus])
        #expect(run.status == 1, "\(run.stderr)")
        let summary = try TestSupport.decode(BatchSummary.self, from: run)
        #expect(summary.done == count, "\(run.stderr)")
        #expect(summary.failed == 2)
        #expect(summary.crashes == 0)
        #expect(summary.quarantined == 0)
        let slow = try #require(summary.failures.first { $0.path.hasSuffix("/slow.pdf") })
        #expect(slow.error?.kind == .overLimit)
        #expect(slow.error?.message.contains("limits.stage_seconds") == true, "\(String(describing: slow.error))")
        let line = try #require(summary.failures.first { $0.path.hasSuffix("/one-line.txt") })
        #expect(line.stage == "detect")
        #expect(line.error?.message.contains("over the limit of 20000") == true, "\(String(describing: line.error))")
        #expect(Date().timeIntervalSince(started) < 60)
    }

    @Test func limitKeysAreReadAndChecked() throws {
        let config = try PipelineConfig.parse(
            yaml: """
                limits:
                  stage_seconds: 0
                  max_text_bytes: 5000
                  max_line_chars: 300
                  max_stage_output_bytes: 4096
                """)
        #expect(config.limits.stageSeconds == 0)
        #expect(config.limits.maxTextBytes == 5000)
        #expect(config.limits.maxLineCharacters == 300)
        #expect(config.limits.maxStageOutputBytes == 4096)
        for bad in ["stage_seconds: -1", "max_line_chars: 10", "max_stage_output_bytes: 12", "max_text_bytes: 0"] {
            #expect(throws: LarderError.self, "\(bad)") { try PipelineConfig.parse(yaml: "limits:\n  \(bad)\n") }
        }
    }

    @Test func oversizedStageOutputIsNotStored() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let path = folder + "/pancakes.pdf"
        try FileManager.default.copyItem(atPath: TestSupport.repoPath("samples/recipes/pancakes.pdf"), toPath: path)
        var config = PipelineConfig()
        config.limits.maxStageOutputBytes = 2_000
        let pipeline = Pipeline(stages: [DetectStage(), ExtractStage()])
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        let batch = try store.beginBatch(command: "test", inputs: [path])
        _ = try Intake(store: store, manifest: pipeline.manifest, config: config).ingest(paths: [path], batchID: batch)
        let counters = try WorkQueue(store: store, pipeline: pipeline, config: config, logger: TestSupport.logger).run()
        #expect(counters.failed == 1)
        let extract = try #require(try store.stages(of: 1).first { $0.stage == "extract" })
        #expect(extract.output == nil)
        #expect(extract.error?.kind == .overLimit)
        #expect(extract.error?.message.contains("over the limit of 2000") == true)
    }
}

/// The kill test, grown (issue 11): 20 random SIGKILLs of `larder ingest` over a 300-document batch, and 20 of
/// the worker alone, each batch resumed and its export compared with a clean run's, file for file.
@Suite("many kills", .serialized, .integration, .slow)
struct ManyKillsTests {
    static let documentCount = 300
    static let kills = 20

    static func export(_ database: String, to folder: String) throws -> [String: Data] {
        let run = try TestSupport.larder(["export", "--db", database, "--out", folder])
        #expect(run.status == 0, "\(run.stderr)")
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return files
    }

    static func doneStages(_ database: String) -> Int {
        guard FileManager.default.fileExists(atPath: database),
            let store = try? SQLiteCheckpointStore(path: database, readOnly: true),
            let counts = try? store.stageCounts()
        else { return 0 }
        return counts.filter { $0.status == .done }.map(\.count).reduce(0, +)
    }

    @Test func twentyKillsOfIngestAndOfTheWorkerResumeToACleanRunsExport() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let corpus = try HardeningTests.corpus(Self.documentCount, in: folder, seed: 21)
        let reference = folder + "/reference.sqlite"
        let clean = try TestSupport.larder(["ingest", "--db", reference, corpus])
        #expect(clean.status == 0, "\(clean.stderr)")
        let expected = try Self.export(reference, to: folder + "/reference-out")
        #expect(expected.count == Self.documentCount)
        let total = Self.documentCount * (try Pipeline.standard(for: PipelineConfig()).stages.count)
        var generator = SystemRandomNumberGenerator()

        // 1. SIGKILL `larder ingest` and its worker at 20 random points, running the same command again each time.
        let killed = folder + "/killed.sqlite"
        var kills = 0
        while true {
            let started = try TestSupport.start(["ingest", "--db", killed, corpus])
            if kills < Self.kills {
                // A random share of what is left, so the 20 kills spread over the whole batch.
                let before = Self.doneStages(killed)
                let step = max(1, Int.random(in: 1...max(2, (total - before) / (Self.kills - kills + 1)), using: &generator))
                while started.process.isRunning, Self.doneStages(killed) < before + step { usleep(20_000) }
                if started.process.isRunning {
                    let pid = started.process.processIdentifier
                    let workers = ResumeTests.children(of: pid)
                    kill(pid, SIGKILL)
                    for worker in workers { kill(worker, SIGKILL) }
                    kills += 1
                    _ = TestSupport.finish(started)
                    ResumeTests.waitForWorkerExit(killed)
                    continue
                }
            }
            let last = TestSupport.finish(started)
            #expect(last.status == 0, "\(last.stderr)")
            break
        }
        #expect(kills == Self.kills, "killed \(kills) times")
        #expect(try Self.export(killed, to: folder + "/killed-out") == expected)

        // 2. SIGKILL only the worker, 20 times: `larder ingest` restarts it and blames no document.
        let workerKilled = folder + "/worker-killed.sqlite"
        let started = try TestSupport.start(["ingest", "--json", "--db", workerKilled, corpus])
        var workerKills = 0
        while started.process.isRunning && workerKills < Self.kills {
            usleep(UInt32.random(in: 100_000...600_000, using: &generator))
            for worker in ResumeTests.children(of: started.process.processIdentifier) where kill(worker, SIGKILL) == 0 {
                workerKills += 1
            }
        }
        let run = TestSupport.finish(started)
        #expect(run.status == 0, "\(run.stderr)")
        let summary = try TestSupport.decode(BatchSummary.self, from: run)
        #expect(summary.quarantined == 0 && summary.crashes == 0)
        #expect(workerKills >= Self.kills / 2, "the worker was killed \(workerKills) times before the batch ended")
        #expect(try Self.export(workerKilled, to: folder + "/worker-killed-out") == expected)
    }
}
