/// The one place that wires the stages: their order is the pipeline.
///
/// To add a stage, write it in `Stages/` (one file per stage) and list it here. Its version joins the
/// pipeline version, so every document is re-examined when any stage changes.
public struct Pipeline: Sendable {
    public let stages: [any Stage]

    public init(stages: [any Stage]) {
        self.stages = stages
    }

    /// detect → extract → route → recipe → result.
    public static let standard = Pipeline(stages: [
        DetectStage(), ExtractStage(), RouteStage(), RecipeStage(), ResultStage(),
    ])

    /// The last stage's output is the document's result: validated, versioned, reviewed, exported.
    public var resultStage: String? { stages.last?.name }

    public var stageNames: [String] { stages.map(\.name) }

    /// All stage versions together. A document settled under another pipeline version is looked at again; only
    /// the stages whose own version changed (and those after them) actually rerun.
    public var version: String { stages.map(\.version).joined(separator: "+") }
}
