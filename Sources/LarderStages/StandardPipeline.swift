import LarderCore
import LarderLLM

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
        case .ocr: OCRStage()
        case .route: RouteStage()
        case .recipe: RecipeStage()
        case .receipt: ReceiptStage(config: config)
        case .llm: try LLMStage(config: config, alreadySpent: llmTokensSpent, log: llmLog)
        case .result: ResultStage()
        }
    }
}
