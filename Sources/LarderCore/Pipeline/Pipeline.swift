/// A pipeline: stages in order. The standard one, `Pipeline.standard`, is made in `LarderStages` from the one
/// stage list, ``StandardStage``; tests build their own.
///
/// Every stage's version joins the pipeline version, so every document is re-examined when any stage changes.
public struct Pipeline: Sendable {
    public let stages: [any Stage]

    public init(stages: [any Stage]) {
        self.stages = stages
    }

    /// The stages' names and versions.
    public var manifest: PipelineManifest {
        PipelineManifest(stages: stages.map { StageDeclaration(name: $0.name, version: $0.version) })
    }

    public var stageNames: [String] { manifest.stageNames }
    public var version: String { manifest.version }
    public var resultStage: String? { manifest.resultStage }
}
