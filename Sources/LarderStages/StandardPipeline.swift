import LarderCore
import LarderLLM

extension Pipeline {
    /// The one place that wires Larder's stages: detect → extract → ocr → route → recipe → receipt → llm → result.
    /// It must match `PipelineManifest.standard(for:)` (the worker checks at start, and a test does too).
    ///
    /// - Parameters:
    ///   - config: the batch's configuration (the receipt blocklist, and the `llm` stage's mode, chain, cache and
    ///     budget come from it).
    ///   - llmTokensSpent: tokens the batch spent before this process started, counted against the budget.
    ///   - llmLog: where the `llm` stage's notes go (already redacted).
    public static func standard(
        for config: PipelineConfig, llmTokensSpent: Int = 0, llmLog: LLMLogHandler? = nil
    ) throws -> Pipeline {
        Pipeline(stages: [
            DetectStage(), ExtractStage(), OCRStage(), RouteStage(), RecipeStage(), ReceiptStage(config: config),
            try StructureStage(config: config, alreadySpent: llmTokensSpent, log: llmLog), ResultStage(),
        ])
    }
}
