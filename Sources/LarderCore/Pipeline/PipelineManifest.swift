import Foundation

/// A stage as the queue knows it: its name (which keys the checkpoint rows) and its version.
public struct StageDeclaration: Sendable, Equatable, Hashable {
    public var name: String
    public var version: String

    public init(name: String, version: String) {
        self.name = name
        self.version = version
    }

    /// Declared here rather than beside the stage because `extract` lives in `LarderNative` (it calls poppler),
    /// which the `larder` command does not link; the command still needs the name and version to register
    /// documents and count their work. Bump the version here when `ExtractStage` changes what it outputs.
    public static let extract = StageDeclaration(name: "extract", version: "extract@5")
    /// `ocr` calls tesseract and lives in `LarderNative` too.
    public static let ocr = StageDeclaration(name: "ocr", version: "ocr@5")

    /// The prompts the `llm` stage uses, each with the first 12 hex digits of its schema's hash. `llm` lives in
    /// `LarderLLM` (it calls libcurl); the worker refuses to start if this disagrees with its prompt library, and
    /// a test checks it. Update it (with `StructureStage.version`) whenever a prompt or its schema changes.
    public static let llmPrompts = "recipe-v1+d59945aeb770,receipt-v1+7199d0bdb7e9"

    /// `llm`, the optional LLM structuring stage. Its version holds the prompts' versions and schema hashes, and
    /// (hashed) the mode, threshold and provider chain from `pipeline.yml`: changing any of them re-examines
    /// every document's `llm` and `result` stages (answers already made come from the cache).
    public static func llm(_ config: LLMConfig) -> StageDeclaration {
        let settings = config.mode == .off ? "off" : "\(config.mode.rawValue)-" + SHA256.hex(Data(config.fingerprint.utf8)).prefix(12)
        return StageDeclaration(name: "llm", version: "llm@1/\(settings)/\(llmPrompts)")
    }
}

/// The standard pipeline's stages, in order, by name and version: what `larder` needs to register documents and
/// find their work without loading the stages themselves (and the native libraries some of them link).
///
/// `Pipeline.standard` (in `LarderNative`) holds the stages; a test checks that it matches this manifest.
public struct PipelineManifest: Sendable, Equatable {
    public var stages: [StageDeclaration]

    public init(stages: [StageDeclaration]) {
        self.stages = stages
    }

    /// detect → extract → ocr → route → recipe → receipt → llm → result, for a configuration (the `llm` stage's
    /// version depends on its settings).
    public static func standard(for config: PipelineConfig) -> PipelineManifest {
        PipelineManifest(stages: [
            DetectStage.declaration, .extract, .ocr, RouteStage.declaration, RecipeStage.declaration,
            ReceiptStage.declaration(for: config), .llm(config.llm), ResultStage.declaration,
        ])
    }

    /// The standard stages' names, in order (the same for every configuration).
    public static var standardStageNames: [String] { standard(for: PipelineConfig()).stageNames }

    public var stageNames: [String] { stages.map(\.name) }

    /// All stage versions together. A document settled under another pipeline version is looked at again; only
    /// the stages whose own version changed (and those after them) actually rerun.
    public var version: String { stages.map(\.version).joined(separator: "+") }

    /// The last stage's output is the document's result: validated, versioned, reviewed, exported.
    public var resultStage: String? { stages.last?.name }
}
