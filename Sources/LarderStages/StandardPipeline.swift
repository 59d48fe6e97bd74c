import LarderCore
import LarderLLM
import Foundation
import Logging

extension Pipeline {
    /// Larder's pipeline: detect → extract → ocr → route → recipe → receipt → llm → result, one stage for each
    /// entry of ``StandardStage`` (the one list), in its order.
    ///
    /// - Parameters:
    ///   - config: the batch's configuration (the receipt blocklist, and the `llm` stage's mode, chain, cache and
    ///     budget come from it).
    ///   - llmTokensSpent: tokens the batch spent before this process started, counted against the budget.
    ///   - llmLog: where the `llm` stage's notes go (already redacted).
    public static func standard(
        for config: PipelineConfig, llmTokensSpent: Int = 0, llmLog: LLMLogHandler? = nil
    ) throws -> Pipeline {
        Pipeline(
            stages: try StandardStage.allCases.map {
                try stage($0, config: config, llmTokensSpent: llmTokensSpent, llmLog: llmLog)
            })
    }

    /// The stage that implements an entry of the list (the switch is exhaustive: a new entry does not compile
    /// until it has its stage).
    static func stage(
        _ entry: StandardStage, config: PipelineConfig, llmTokensSpent: Int, llmLog: LLMLogHandler?
    ) throws -> any Stage {
        switch entry {
        case .detect: DetectStage()
        case .extract: ExtractStage()
        case .ocr: OCRStage(config: config)
        case .route: RouteStage()
        case .recipe: RecipeStage()
        case .receipt: ReceiptStage(config: config)
        case .llm: try LLMStage(config: config, alreadySpent: llmTokensSpent, log: llmLog)
        case .result: ResultStage()
        }
    }
}

/// The one entry point that runs Larder's standard stages on one file, in memory, under a configuration: what the
/// worker does per document, without the checkpoint store (``DocumentRun``), returning the result `larder export`
/// would write. `larder eval` (pages, PDFs, receipts, formats), the worker's warm-up and the ingest-equals-eval
/// tests all read documents through it, so every published figure is the user's path.
public struct DocumentRunner: Sendable {
    public let config: PipelineConfig
    public let pipeline: Pipeline
    /// Stages not run: the warm-up leaves out `llm` (it may call a model).
    public let skipping: Set<String>
    private let schemas: SchemaCatalog

    /// - Throws: ``LarderError`` when the configuration's `llm` stage cannot be built, or the schemas do not load.
    public init(config: PipelineConfig, skipping: Set<StandardStage> = []) throws {
        self.config = config
        self.pipeline = try Pipeline.standard(for: config)
        self.skipping = Set(skipping.map(\.name))
        self.schemas = try SchemaCatalog.embedded.get()
    }

    /// Runs the stages on the file at `path` (hashed and sized as `larder ingest` registers it).
    public func run(path: String, logger: Logger = DocumentRunner.quietLogger) -> DocumentRun.Outcome {
        let document: DocumentRecord
        do {
            let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
            document = DocumentRecord(
                id: 0, sha256: try SHA256.hex(fileAt: path), path: path, byteCount: size, modifiedAt: 0, registeredAt: 0,
                state: .pending)
        } catch {
            return DocumentRun.Outcome(
                state: .failed, result: nil,
                failure: LarderError(.unreadable, "cannot read the file: \(error)", hint: "check the path", path: path),
                violations: [], outputs: [:])
        }
        return DocumentRun.run(
            pipeline, document: document, config: config, logger: logger, skipping: skipping, schemas: schemas)
    }

    /// A logger that drops everything (evaluations report per document, not per stage).
    public static let quietLogger = Logger(label: "larder.document-run") { _ in SwiftLogNoOpLogHandler() }
}
