import Foundation
import LarderTestSupport
import Testing

@testable import LarderCore
@testable import LarderStages

/// A text document is read and hashed once per document in the worker (issue 32, pages at the reader's speed):
/// `detect` reads and checks the registered bytes, `extract` parses those same bytes, and neither `extract` nor a
/// skipped `ocr` hashes the file again afterwards. What they read is still exactly the registered document.
@Suite("one read of a text document")
struct ReadOnceTests {
    /// `detect` followed by another program rewriting the file (in place) before `extract` runs.
    struct RewrittenAfterDetect: Stage {
        let inner = DetectStage()
        let replacement: Data
        var name: String { inner.name }
        var version: String { inner.version }
        func run(_ input: StageInput) throws -> StageOutput {
            let output = try inner.run(input)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: input.document.path))
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: replacement)
            try handle.close()
            return output
        }
    }

    static func document(_ path: String) throws -> DocumentRecord {
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber
        return DocumentRecord(
            id: 1, sha256: try SHA256.hex(fileAt: path), path: path, byteCount: size?.int64Value ?? 0, modifiedAt: 0,
            registeredAt: 0, state: .pending)
    }

    /// The page's text comes from the bytes `detect` checked: a rewrite after `detect` changes nothing in the
    /// document's output (and is not read half-way), where a second read would have failed the document.
    @Test func extractParsesTheBytesDetectChecked() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let path = folder + "/shakshuka.html"
        let original = TestSupport.repoPath("samples/recipes/weeknight-shakshuka.html")
        try FileManager.default.copyItem(atPath: original, toPath: path)
        let document = try Self.document(path)
        let replacement = Data("<html><body><p>something else entirely</p></body></html>".utf8)
        let pipeline = Pipeline(stages: [RewrittenAfterDetect(replacement: replacement), ExtractStage(), OCRStage()])
        let outcome = DocumentRun.run(
            pipeline, document: document, config: PipelineConfig(), logger: DocumentRunner.quietLogger,
            schemas: try SchemaCatalog.embedded.get())
        #expect(outcome.state == .done, "\(String(describing: outcome.failure))")
        let extracted = try JSONDecoder().decode(ExtractOutput.self, from: Data(try #require(outcome.outputs["extract"]).utf8))
        let text = extracted.pages.map(\.text).joined(separator: "\n")
        #expect(text.lowercased().contains("shakshuka"), "\(text.prefix(300))")
        #expect(!text.contains("something else entirely"))
    }

    /// Which stages leave the file unhashed after them: `extract` of a text document and a skipped `ocr` do; a PDF's
    /// `extract` (poppler reads the file itself) does not.
    @Test func onlyStagesThatOpenTheFileAreCheckedAfter() throws {
        let html = try Self.document(TestSupport.repoPath("samples/recipes/chewy-oat-cookies.html"))
        let pdf = try Self.document(TestSupport.repoPath("samples/recipes/pancakes.pdf"))
        for (document, extractReads) in [(html, false), (pdf, true)] {
            let decoded = DecodedOutputs()
            var outputs: [String: String] = [:]
            for stage in [DetectStage(), ExtractStage(), OCRStage()] as [any Stage] {
                let input = StageInput(
                    document: document, config: PipelineConfig(), earlierOutputs: outputs, logger: DocumentRunner.quietLogger,
                    decoded: decoded)
                let output = try stage.run(input)
                outputs[stage.name] = output.json
                decoded.seed(stage: stage.name, output: output)
                switch stage.name {
                case "extract": #expect(output.readDocumentFile == extractReads, "\(document.path)")
                case "ocr": #expect(output.readDocumentFile == false, "\(document.path): OCR skipped, nothing opened")
                default: break
                }
            }
        }
    }
}
