import Foundation
import LarderJSON
import LarderTestSupport
import Testing

@testable import LarderCore
@testable import LarderStages

/// Stage outputs are written by `SortedJSONEncoder`; they must be byte for byte what Foundation's `JSONEncoder`
/// (`[.sortedKeys, .withoutEscapingSlashes]`) wrote before it. The samples (text, Markdown, HTML, PDFs, receipt
/// photos) go through the real pipeline and SQLite store; every stage output is read back as its contract type and
/// encoded again by Foundation, which must give the stored text (the stages that store references to the
/// document's lines, `recipe` and `receipt`, are compared on their values).
@Suite("contract types encode as Foundation encodes them")
struct ContractEncodingTests {
    static func foundation<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test(.integration, .slow) func everyStageOutputOfTheSamples() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        let config = PipelineConfig()
        _ = try Intake(store: store, manifest: .standard(for: config), config: config).ingest(
            paths: [TestSupport.repoPath("samples/recipes"), TestSupport.repoPath("samples/receipts")],
            batchID: store.beginBatch(command: "t", inputs: []))
        try WorkQueue(store: store, pipeline: try .standard(for: config), config: config, logger: TestSupport.logger).run()

        var compared: [String: Int] = [:]
        var id: Int64 = 1
        while let document = try store.document(id: id) {
            id += 1
            var outputs: [String: String] = [:]
            for stage in try store.stages(of: document.id) { outputs[stage.stage] = stage.output }
            let input = StageInput(document: document, config: config, earlierOutputs: outputs, logger: TestSupport.logger)
            func stored<T: Codable & Sendable>(_ stage: String, _ type: T.Type) throws {
                guard let text = outputs[stage] else { return }
                let value = try input.output(of: stage, as: type)
                #expect(try Self.foundation(value) == text, "\(stage) of \(document.path)")
                #expect(try SortedJSONEncoder().encodeToString(value) == text, "\(stage) of \(document.path)")
                compared[stage, default: 0] += 1
            }
            try stored("detect", DetectOutput.self)
            try stored("extract", ExtractOutput.self)
            try stored("ocr", OCRStageOutput.self)
            try stored("route", RouteOutput.self)
            try stored("llm", LLMStageOutput.self)
            try stored("result", DocumentResult.self)
            if outputs["recipe"] != nil {
                let value = try RecipeStage.output(from: input)
                #expect(try SortedJSONEncoder().encodeToString(value) == Self.foundation(value), "\(document.path)")
                compared["recipe", default: 0] += 1
            }
            if outputs["receipt"] != nil {
                let value = try ReceiptStage.output(from: input)
                #expect(try SortedJSONEncoder().encodeToString(value) == Self.foundation(value), "\(document.path)")
                compared["receipt", default: 0] += 1
            }
        }
        // 11 recipe files and 3 receipt photos: every stage compared on each document that ran it.
        #expect(id - 1 == 14)
        #expect(compared["detect"] == 14 && compared["result"] == 14, "\(compared)")
        #expect(compared["extract", default: 0] >= 11 && compared["recipe", default: 0] >= 11, "\(compared)")
        #expect(compared["ocr", default: 0] >= 3 && compared["receipt", default: 0] >= 3, "\(compared)")
    }
}
