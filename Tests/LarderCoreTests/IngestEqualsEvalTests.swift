import Foundation
import LarderTestSupport
import Testing

@testable import LarderCore
@testable import LarderStages

/// Proof that every figure is the user's path: each shared corpus goes through a real `larder ingest --config
/// eval/<corpus>.yml` into a temporary database and `larder export`, and every document's exported result must
/// equal what the evaluations score — the result of ``DocumentRunner`` (the in-memory run of the same stages
/// under the same configuration) for that file. A corpus that is absent is skipped visibly.
@Suite("ingest + export equal the evaluation", .serialized, .integration, .slow)
struct IngestEqualsEvalTests {
    /// Ingests `files` with `config`, exports, and compares each file's exported result with the runner's.
    /// - Returns: how many documents were compared.
    @discardableResult
    static func check(_ files: [String], config configFile: String, expectKind: Route? = nil) throws -> Int {
        #expect(!files.isEmpty, "no files to ingest")
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let configPath = TestSupport.repoPath(configFile)
        let db = folder + "/db.sqlite"
        let ingest = try TestSupport.larder(["ingest", "--config", configPath, "--db", db, "--workers", "2"] + files)
        // 0 = all done; 1 = some documents need review or failed (those are compared too: failed ones are absent).
        #expect(ingest.status == 0 || ingest.status == 1, "\(ingest.stderr.suffix(2000))")
        let export = try TestSupport.larder(["export", "--config", configPath, "--db", db, "--out", folder + "/out"])
        #expect(export.status == 0 || export.status == 1, "\(export.stderr.suffix(2000))")
        var exported: [String: DocumentResult] = [:]
        let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/out").filter { $0.hasSuffix(".json") }
        for name in names {
            let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/out/" + name))
            guard let result = try? JSONDecoder().decode(DocumentResult.self, from: data) else { continue }
            exported[result.document.sha256] = result
        }
        let runner = try DocumentRunner(config: try PipelineConfig.load(path: configPath))
        var compared = 0
        var seen = Set<String>()
        for file in files {
            let outcome = runner.run(path: file)
            let sha = try SHA256.hex(fileAt: file)
            guard seen.insert(sha).inserted else { continue }  // the same bytes twice are one document
            let got = exported[sha]
            if got != outcome.result {
                Issue.record("\(file): the export differs from the evaluation's result: \(Self.firstDifference(got, outcome.result))")
            }
            if let expectKind, let kind = outcome.result?.kind {
                #expect(kind == expectKind, "\(file) was routed \(kind.rawValue)")
            }
            compared += 1
        }
        return compared
    }

    /// Where two results' sorted JSON first differ, with some context (the values themselves are too long to print).
    static func firstDifference(_ a: DocumentResult?, _ b: DocumentResult?) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        func text(_ r: DocumentResult?) -> [Character] {
            Array(r.flatMap { try? encoder.encode($0) }.map { String(decoding: $0, as: UTF8.self) } ?? "none")
        }
        let x = text(a), y = text(b)
        let i = (0..<min(x.count, y.count)).first { x[$0] != y[$0] } ?? min(x.count, y.count)
        func around(_ s: [Character]) -> String { String(s[max(0, i - 80)..<min(s.count, i + 80)]) }
        return "export …\(around(x))… vs evaluation …\(around(y))…"
    }

    /// The files under `folder` (recursively) whose names end in one of `suffixes`, sorted.
    static func files(_ folder: String, endingIn suffixes: [String]) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if suffixes.contains(where: { path.lowercased().hasSuffix($0) }) { found.append(folder + "/" + path) }
        }
        return found.sorted()
    }

    @Test(.sharedData("recipes-scraped/html"), .timeLimit(.minutes(20)))
    func allSavedPages() throws {
        let pages = Self.files(try #require(SharedData.path("recipes-scraped/html")), endingIn: [".testhtml", ".html"])
        #expect(pages.count == 302)
        // Every shared page carries a recipe: none may be routed elsewhere (issue 32: 37 were `unknown`).
        let compared = try Self.check(pages, config: "eval/pages.yml", expectKind: .recipe)
        #expect(compared == 302)
    }

    @Test(.sharedData("recipes-pdf"), .timeLimit(.minutes(20)))
    func allRecipePDFs() throws {
        let pdfs = Self.files(try #require(SharedData.path("recipes-pdf")), endingIn: [".pdf"])
        #expect(pdfs.count == 72)
        try Self.check(pdfs, config: "eval/pdfs.yml")
    }

    @Test(.sharedData("recipe-app-exports"), .timeLimit(.minutes(10)))
    func appExportSamples() throws {
        let folder = try #require(SharedData.path("recipe-app-exports"))
        let samples = Self.files(folder, endingIn: [
            ".zip", ".paprikarecipes", ".mmf", ".mxp", ".mx2", ".json", ".cook", ".txt", ".csv", ".gz", ".yml", ".yaml",
        ]).filter { !$0.hasSuffix("README.md") && !$0.contains("/expected") }
        #expect(!samples.isEmpty)
        try Self.check(samples, config: "eval/exports.yml")
    }

    @Test(.sharedData("recipes-markdown"), .timeLimit(.minutes(10)))
    func markdownRecipes() throws {
        let recipes = Self.files(try #require(SharedData.path("recipes-markdown")), endingIn: [".md"])
            .filter { !$0.hasSuffix("README.md") && !$0.hasSuffix("LICENSE-Unlicense.md") }
        #expect(recipes.count >= 300)
        try Self.check(recipes, config: "eval/markdown.yml", expectKind: .recipe)
    }

    /// A bounded subset with real OCR (every tenth photo, 15 of 150: about a minute on one core): the photo
    /// figures themselves come from the same runner (`larder eval receipts --config eval/photos.yml`).
    @Test(.sharedData("receipts-photos"), .timeLimit(.minutes(15)))
    func receiptPhotos() throws {
        let photos = Self.files(try #require(SharedData.path("receipts-photos")), endingIn: [".jpg", ".jpeg", ".png"])
        let subset = photos.enumerated().filter { $0.offset % 10 == 0 }.map(\.element)
        #expect(subset.count >= 10)
        try Self.check(subset, config: "eval/photos.yml", expectKind: .receipt)
    }
}
