import LarderCore

extension Pipeline {
    /// The one place that wires Larder's stages: detect → extract → ocr → route → recipe → receipt → result.
    /// It must match `PipelineManifest.standard` (checked by a test).
    public static let standard = Pipeline(stages: [
        DetectStage(), ExtractStage(), OCRStage(), RouteStage(), RecipeStage(), ReceiptStage(), ResultStage(),
    ])
}
