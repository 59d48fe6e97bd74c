import Foundation
import LarderTestSupport
import Testing

@testable import LarderCore

/// `larder serve` keeps uploads and rendered pages in `<database>.uploads`: one of Larder's own folders, which
/// `larder ingest` never registers, by any name or link. Inputs are made by the test.
@Suite("intake: the server's uploads folder is Larder's own", .serialized)
struct UploadsFolderIntakeTests {
    static let recipe = "Thin Pancakes\n\nIngredients\n- 2 eggs\n- 1 cup milk\n\nMethod\n1. Whisk and fry.\n"

    @Test(.integration) func ingestNeverRegistersTheUploadsFolder() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let one = folder + "/one"
        let uploads = one + "/o.db.uploads"
        let fm = FileManager.default
        try fm.createDirectory(atPath: uploads, withIntermediateDirectories: true)
        try Data(Self.recipe.utf8).write(to: URL(fileURLWithPath: one + "/thin.txt"))
        try Data((Self.recipe + "More.\n").utf8).write(to: URL(fileURLWithPath: uploads + "/upload.txt"))
        try fm.createSymbolicLink(atPath: one + "/another-name", withDestinationPath: uploads)
        let ingest = try TestSupport.larder(["ingest", "--json", "--db", one + "/o.db", one])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let summary = try TestSupport.decode(BatchSummary.self, from: ingest)
        #expect(summary.files == 1 && summary.newDocuments == 1, "only thin.txt: \(summary)")
        let skipped = (summary.skipped ?? []).filter { $0.reason == .larderFile }.map(\.path)
        #expect(skipped.contains { $0.hasSuffix("/o.db.uploads") }, "\(skipped)")
        #expect(skipped.contains { $0.hasSuffix("/another-name") }, "\(skipped)")
        // A file in it named directly is not registered either.
        let direct = try TestSupport.larder(["ingest", "--json", "--db", one + "/o.db", uploads + "/upload.txt"])
        let again = try TestSupport.decode(BatchSummary.self, from: direct)
        #expect(again.newDocuments == 0, "\(again)")
        #expect((again.skipped ?? []).contains { $0.reason == .larderFile && $0.path.hasSuffix("/upload.txt") }, "\(again)")
    }

    /// The folder made after the walk's `OwnFiles` was (the server started meanwhile), and an LLM cache created
    /// during the walk: both known by their real paths.
    @Test func filesMadeAfterTheStartAreKnownByRealPath() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        var config = PipelineConfig()
        config.database = folder + "/o.db"
        config.llm.cachePath = folder + "/cache.sqlite"
        let own = OwnFiles(config: config)
        let uploads = folder + "/o.db.uploads"
        try FileManager.default.createDirectory(atPath: uploads, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: config.llmCachePath))
        try Data("y".utf8).write(to: URL(fileURLWithPath: uploads + "/a.txt"))
        try Data("z".utf8).write(to: URL(fileURLWithPath: folder + "/other.txt"))
        func info(_ path: String) -> stat {
            var info = stat()
            _ = stat(path, &info)
            return info
        }
        #expect(own.isOwnFolder(uploads, info(uploads)))
        #expect(own.isInsideOwnFolder(uploads + "/a.txt"))
        #expect(own.contains(config.llmCachePath, info(config.llmCachePath)))
        #expect(!own.contains(folder + "/other.txt", info(folder + "/other.txt")))
        #expect(!own.isInsideOwnFolder(folder + "/other.txt"))
    }
}
