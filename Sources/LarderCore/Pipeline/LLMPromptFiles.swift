import Foundation
import LarderJSON

/// The `llm` stage's prompts and their target schemas, as compiled in (sources: `Sources/LarderLLM/Prompts/*.md`
/// and `Schemas/*.schema.json`, embedded by `scripts/embed-files.py`).
///
/// They are embedded here, in LarderCore, rather than in LarderLLM (which links libcurl) so that `larder` derives the
/// `llm` stage's version from them (``currentStageVersions``, part of ``StageDeclaration/llm(_:)``) without loading
/// the stage: nothing is copied by hand. The stage's `PromptLibrary` parses the same files with the same hash.
public enum LLMPromptFiles {
    /// The prompt version the `recipe` task uses. A changed prompt gets a new file and version
    /// (docs/design/llm-internals.md): change it here then.
    public static let recipe = "recipe-v1"
    /// The prompt version the `receipt` task uses.
    public static let receipt = "receipt-v1"

    /// Every embedded prompt version, e.g. `["receipt-v1", "recipe-v1"]`.
    public static var versions: [String] {
        EmbeddedPrompts.files.keys.filter { $0.hasPrefix("Prompts/") }
            .map { String($0.dropFirst("Prompts/".count).dropLast(".md".count)) }.sorted()
    }

    /// The prompt file `Prompts/VERSION.md`, if embedded.
    public static func promptText(_ version: String) -> String? {
        EmbeddedPrompts.files["Prompts/\(version).md"]
    }

    /// The schema file `Schemas/NAME.schema.json`, if embedded.
    public static func schemaText(_ name: String) -> String? {
        EmbeddedPrompts.files["Schemas/\(name).schema.json"]
    }

    /// The schema a prompt file names in its front matter (`schema: llm-recipe`).
    public static func schemaName(ofPrompt text: String) -> String? {
        guard let line = text.components(separatedBy: "\n").first(where: { $0.hasPrefix("schema:") }) else {
            return nil
        }
        return line.dropFirst("schema:".count).trimmingCharacters(in: .whitespaces)
    }

    /// SHA-256 (hex) of a schema's canonical serialisation (sorted keys): the cache key's schema part. Whitespace
    /// and key order in the file do not change it; anything else in the schema (`$id` included) does.
    public static func schemaHash(_ schema: JSONValue) -> String {
        SHA256.hex(schema.serializedData(options: [.sortedKeys]))
    }

    /// A prompt's part of the stage version: the prompt version and the first 12 hex digits of its schema's hash
    /// (`recipe-v1+bdfad2b386fa`).
    public static func stageVersion(prompt version: String, schemaHash: String) -> String {
        "\(version)+\(schemaHash.prefix(12))"
    }

    /// ``stageVersion(prompt:schemaHash:)`` for an embedded prompt; `VERSION+unreadable` when it or its schema is
    /// missing or not JSON (the worker then refuses to start: its `PromptLibrary` cannot load the prompt either).
    public static func stageVersion(of version: String) -> String {
        guard let text = promptText(version), let name = schemaName(ofPrompt: text),
            let schemaText = schemaText(name), let schema = try? JSONValue(parsing: schemaText)
        else { return "\(version)+unreadable" }
        return stageVersion(prompt: version, schemaHash: schemaHash(schema))
    }

    /// The current prompts' stage versions, derived from the embedded files: `recipe-v1+…,receipt-v1+…`.
    public static let currentStageVersions = [recipe, receipt].map(stageVersion(of:)).joined(separator: ",")
}
