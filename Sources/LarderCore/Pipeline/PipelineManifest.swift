import Foundation
import LarderReceipts

/// A stage as the queue knows it: its name (which keys the checkpoint rows) and its version.
public struct StageDeclaration: Sendable, Equatable, Hashable {
    public var name: String
    public var version: String

    public init(name: String, version: String) {
        self.name = name
        self.version = version
    }

    /// The prompts the `llm` stage uses, each with the first 12 hex digits of its schema's hash
    /// (`recipe-v1+bdfad2b386fa,…`), derived from the embedded prompt files (``LLMPromptFiles``): a changed prompt
    /// or schema changes the stage's version with nothing to update by hand.
    public static var llmPrompts: String { LLMPromptFiles.currentStageVersions }

    /// `llm`, the optional LLM structuring stage. Its version holds the prompts' versions and schema hashes, and
    /// (hashed) the mode, threshold and provider chain from `pipeline.yml`: changing any of them re-examines
    /// every document's `llm` and `result` stages (answers already made come from the cache).
    public static func llm(_ config: LLMConfig) -> StageDeclaration {
        let settings = config.mode == .off ? "off" : "\(config.mode.rawValue)-" + SHA256.hex(Data(config.fingerprint.utf8)).prefix(12)
        return StageDeclaration(name: "llm", version: "\(StandardStage.llm.codeVersion)/\(settings)/\(llmPrompts)")
    }
}

/// Larder's stages, in order: the one list. `PipelineManifest.standard(for:)` (names and versions, what `larder`
/// needs to register documents and find their work without loading the stages and the native libraries some of
/// them link) and `Pipeline.standard(for:)` (the stages themselves, in `LarderStages`, one file each) are both
/// made from it; a case without a stage does not compile there.
///
/// To add a stage: add its case here at its place with its version, write `Sources/LarderStages/NameStage.swift`
/// (its `name` and `version` come from its case), and return it in `Pipeline.stage(_:…)`.
public enum StandardStage: String, CaseIterable, Sendable {
    case detect, extract, ocr, route, recipe, receipt, llm, result

    /// The version of the stage's code. Bump it whenever the stage changes what it outputs: a version in the code
    /// that differs from the database's reruns that stage and every stage after it, for every document.
    public var codeVersion: String {
        switch self {
        case .detect: "detect@6"
        case .extract: "extract@15"
        case .ocr: "ocr@27"
        case .route: "route@6"
        case .recipe: "recipe@21"
        case .receipt: "receipt@22"
        case .llm: "llm@1"
        case .result: "result@13"
        }
    }

    /// The stage's name: it keys the checkpoint rows.
    public var name: String { rawValue }

    /// The stage's name and version under a configuration. Three stages' versions depend on it: `ocr` (its models
    /// and photo pass), `receipt` (a changed blocklist, default currency or date order re-examines every receipt)
    /// and `llm` (see ``StageDeclaration/llm(_:)``).
    public func declaration(for config: PipelineConfig = PipelineConfig()) -> StageDeclaration {
        switch self {
        case .receipt:
            StageDeclaration(
                name: name,
                version: (config.blocklist == .default
                    ? codeVersion
                    : codeVersion + "+blocklist-" + SHA256.hex(Self.canonical(config.blocklist)).prefix(12))
                    + (config.receiptParser == .pipeline
                        ? "" : "+\(config.receiptParser.defaultCurrency)-\(config.receiptParser.dateOrder.rawValue)"))
        case .ocr:
            StageDeclaration(name: name, version: codeVersion + (config.ocr.fingerprint.map { "+" + $0 } ?? ""))
        case .llm: .llm(config.llm)
        default: StageDeclaration(name: name, version: codeVersion)
        }
    }

    private static func canonical(_ blocklist: IngredientBlocklist) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(blocklist)) ?? Data()
    }
}

/// The standard pipeline's stages, in order, by name and version (see ``StandardStage``).
public struct PipelineManifest: Sendable, Equatable {
    public var stages: [StageDeclaration]

    public init(stages: [StageDeclaration]) {
        self.stages = stages
    }

    /// detect → extract → ocr → route → recipe → receipt → llm → result, for a configuration (the `receipt` and
    /// `llm` stages' versions depend on its settings).
    public static func standard(for config: PipelineConfig) -> PipelineManifest {
        PipelineManifest(stages: StandardStage.allCases.map { $0.declaration(for: config) })
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
