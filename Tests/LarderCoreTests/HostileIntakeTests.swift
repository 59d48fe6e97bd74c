import Foundation
import LarderTestSupport
import Testing

@testable import LarderCore
@testable import LarderStages

/// Issue 36, "intake knows its own files": the database inside the folder being ingested, a `..` symlink, a
/// symlink to a file outside the folder. Inputs are made by the test.
@Suite("hostile: intake", .serialized, .integration)
struct HostileIntakeTests {
    /// Finding 2: `larder ingest one/ --db one/o.db` ingests the folder's documents (a PDF, a text recipe), never
    /// its own database, -wal or -shm (nor through a `..` symlink that walks back out to them), exit 0, twice.
    @Test func theDatabaseInsideTheFolderIsNeverADocument() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let one = folder + "/one"
        let fm = FileManager.default
        try fm.createDirectory(atPath: one, withIntermediateDirectories: true)
        try fm.copyItem(atPath: TestSupport.repoPath("samples/recipes/pancakes.pdf"), toPath: one + "/pancakes.pdf")
        try Data(HostileExportTests.recipe("Thin Pancakes").utf8).write(to: URL(fileURLWithPath: one + "/thin.txt"))
        try fm.createSymbolicLink(atPath: one + "/up", withDestinationPath: "..")
        try Data("root:x:0:0:outside\n".utf8).write(to: URL(fileURLWithPath: folder + "/outside.txt"))
        try fm.createSymbolicLink(atPath: one + "/outside.txt", withDestinationPath: folder + "/outside.txt")
        // Another name for the database, inside the folder: known by its inode, not its name.
        for run in 1...2 {
            let ingest = try TestSupport.larder(["ingest", "--json", "--db", one + "/o.db", one])
            #expect(ingest.status == 0, "run \(run): \(ingest.stderr)")
            let summary = try TestSupport.decode(BatchSummary.self, from: ingest)
            #expect(summary.files == 2, "run \(run): the PDF and the text, nothing else: \(summary)")
            #expect(summary.done == 2 && summary.failed == 0 && summary.pending == 0, "run \(run): \(summary)")
            #expect(summary.processed == (run == 1 ? 2 : 0), "run \(run): \(summary)")
            let skipped = summary.skipped ?? []
            #expect(skipped.contains { $0.reason == .symlinkOutside && $0.path.hasSuffix("/one/up") }, "\(skipped)")
            #expect(skipped.contains { $0.reason == .symlinkOutside && $0.path.hasSuffix("/one/outside.txt") })
            #expect(skipped.contains { $0.reason == .larderFile && $0.path.hasSuffix("/o.db") }, "\(skipped)")
            #expect(!ingest.stderr.contains("malformed"))
            if run == 1 { try fm.linkItem(atPath: one + "/o.db", toPath: one + "/copy-of-the-database.db") }
        }
        let status = try TestSupport.larder(["status", "--db", one + "/o.db"])
        #expect(status.status == 0, "\(status.stderr)")
        // --follow-symlinks takes the file outside the folder (the `..` link is a loop back to `one`, which says so).
        let followed = try TestSupport.larder(["ingest", "--json", "--follow-symlinks", "--db", one + "/o.db", one])
        let summary = try TestSupport.decode(BatchSummary.self, from: followed)
        #expect(summary.newDocuments == 1, "the outside file, once: \(summary)")
        #expect(!(summary.skipped ?? []).contains { $0.reason == .symlinkOutside })
    }
}

@Suite("hostile: the database as a document")
struct HostileOwnFileTests {
    /// A database an older Larder registered as one of its own documents is refused by `detect`, never opened:
    /// closing a descriptor of it would drop SQLite's locks in the worker.
    @Test func detectRefusesTheDatabaseRegisteredByAnOlderLarder() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        var config = PipelineConfig()
        config.database = folder + "/o.db"
        let store = try SQLiteCheckpointStore(path: config.database)
        let pipeline = try Pipeline.standard(for: config)
        let batch = try store.beginBatch(command: "older", inputs: [])
        _ = try store.register(
            [RegisteredFile(path: config.database, sha256: String(repeating: "0", count: 64), byteCount: 1, modifiedAt: 0)],
            batchID: batch, stages: pipeline.manifest.stageNames)
        try WorkQueue(store: store, pipeline: pipeline, config: config, logger: TestSupport.logger).run()
        let problems = try store.problems(batchID: nil, limit: 10)
        #expect(problems.count == 1 && problems[0].stage == "detect")
        #expect(problems.first?.error?.message.contains("Larder's own checkpoint database") == true, "\(problems)")
    }
}
