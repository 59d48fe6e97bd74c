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
    public static let extract = StageDeclaration(name: "extract", version: "extract@2")
    /// `ocr` calls tesseract and lives in `LarderNative` too.
    public static let ocr = StageDeclaration(name: "ocr", version: "ocr@2")
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

    /// detect → extract → ocr → route → recipe → receipt → result.
    public static let standard = PipelineManifest(stages: [
        DetectStage.declaration, .extract, .ocr, RouteStage.declaration, RecipeStage.declaration,
        ReceiptStage.declaration, ResultStage.declaration,
    ])

    public var stageNames: [String] { stages.map(\.name) }

    /// All stage versions together. A document settled under another pipeline version is looked at again; only
    /// the stages whose own version changed (and those after them) actually rerun.
    public var version: String { stages.map(\.version).joined(separator: "+") }

    /// The last stage's output is the document's result: validated, versioned, reviewed, exported.
    public var resultStage: String? { stages.last?.name }
}
