import Foundation
import LarderCore
import LarderJSON

/// A versioned prompt tied to the schema it targets.
///
/// Prompt files live in `Sources/LarderLLM/Prompts/NAME-vN.md`: a front matter with `id`, `version` and
/// `schema`, then a `## system` and a `## user` section; the user section's `{{lines}}` is replaced by the
/// keyed input lines. A changed prompt gets a new version (a new file), so cached answers and outputs made
/// with the old one are told apart by ``stageVersion``.
public struct Prompt: Sendable {
    /// The task, e.g. `recipe`.
    public let id: String
    /// The prompt version, e.g. `recipe-v1`.
    public let version: String
    /// The target schema's name, e.g. `llm-recipe`.
    public let schemaName: String
    /// The system instructions.
    public let system: String
    /// The user message template, containing `{{lines}}`.
    public let userTemplate: String
    /// The target schema (as validated; `$schema`/`$id` included).
    public let schema: JSONValue
    /// The compiled target schema.
    public let validator: JSONSchema
    /// SHA-256 of the schema's canonical serialisation (sorted keys).
    public let schemaHash: String

    /// The schema as sent to providers: without `$schema`, `$id` and `title`/`description` at the root,
    /// which some strict structured-output implementations reject.
    public var wireSchema: JSONValue {
        guard var object = schema.objectValue else { return schema }
        for key in ["$schema", "$id", "title", "description"] { _ = object.removeValue(forKey: key) }
        return .object(object)
    }

    /// The schema as sent to providers for one document: ``wireSchema`` with every line-key string
    /// (`"pattern": "^L[0-9]{1,4}$"`) narrowed to an `enum` of the document's non-blank line keys, so that
    /// constrained decoding cannot cite a line that does not exist, and every array's `maxItems` capped at the
    /// number of those lines (a document cannot hold more items than lines), which bounds a looping model's
    /// output. Validation still uses ``schema``; the cache key uses ``schemaHash`` (the narrowing is a function
    /// of the input, which is part of the key).
    public func wireSchema(for lines: KeyedLines) -> JSONValue {
        let keys = lines.lines.indices.filter { !lines.lines[$0].trimmingCharacters(in: .whitespaces).isEmpty }
            .map { JSONValue.string(KeyedLines.key($0)) }
        guard !keys.isEmpty else { return wireSchema }
        func narrow(_ value: JSONValue) -> JSONValue {
            switch value {
            case .object(var object):
                if object["pattern"]?.stringValue == Self.lineKeyPattern {
                    _ = object.removeValue(forKey: "pattern")
                    object["enum"] = .array(keys)
                    return .object(object)
                }
                if object["type"] == "array" {
                    let cap = min(object["maxItems"]?.intValue ?? Int.max, keys.count)
                    object["maxItems"] = .int(cap)
                }
                for key in object.keys { object[key] = narrow(object[key]!) }
                return .object(object)
            case .array(let items): return .array(items.map(narrow))
            default: return value
            }
        }
        return narrow(wireSchema)
    }

    /// The pattern the target schemas use for line keys.
    public static let lineKeyPattern = "^L[0-9]{1,4}$"

    /// The stage version this prompt gives: prompt version plus the first 12 hex digits of the schema hash
    /// (``LLMPromptFiles/stageVersion(prompt:schemaHash:)``, which `larder` derives the same way).
    public var stageVersion: String { LLMPromptFiles.stageVersion(prompt: version, schemaHash: schemaHash) }

    /// A name safe for providers' schema-name fields (`llm_recipe`).
    public var wireSchemaName: String {
        String(schemaName.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    /// Parses a prompt file's text with its schema.
    /// - Throws: ``LLMError/Code/configuration`` naming what is missing.
    public init(parsing text: String, schema: JSONValue) throws {
        let lines = text.components(separatedBy: "\n")
        guard lines.first == "---", let end = lines.dropFirst().firstIndex(of: "---") else {
            throw LLMError(.configuration, "a prompt file must start with a --- front matter block")
        }
        var meta: [String: String] = [:]
        for line in lines[1..<end] {
            guard let colon = line.firstIndex(of: ":") else { continue }
            meta[line[..<colon].trimmingCharacters(in: .whitespaces)] =
                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var sections: [String: [String]] = [:]
        var current: String? = nil
        for line in lines[(end + 1)...] {
            if line.hasPrefix("## ") {
                current = line.dropFirst(3).trimmingCharacters(in: .whitespaces).lowercased()
                sections[current!] = []
            } else if let current {
                sections[current]!.append(line)
            }
        }
        guard let id = meta["id"], let version = meta["version"], let schemaName = meta["schema"] else {
            throw LLMError(.configuration, "a prompt's front matter needs id, version and schema")
        }
        guard let system = sections["system"], let user = sections["user"] else {
            throw LLMError(.configuration, "prompt \(version) needs a '## system' and a '## user' section")
        }
        let userText = user.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        guard userText.contains("{{lines}}") else {
            throw LLMError(.configuration, "prompt \(version): the user section must contain {{lines}}")
        }
        self.id = id
        self.version = version
        self.schemaName = schemaName
        self.system = system.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        self.userTemplate = userText
        self.schema = schema
        do {
            self.validator = try JSONSchema(schema)
        } catch {
            throw LLMError(.configuration, "schema \(schemaName) does not compile: \(error)")
        }
        self.schemaHash = LLMPromptFiles.schemaHash(schema)
    }

    /// The user message for `lines`.
    public func userMessage(_ lines: KeyedLines) -> String {
        userTemplate.replacingOccurrences(of: "{{lines}}", with: lines.rendered)
    }
}

/// The prompts and schemas embedded in LarderCore (``LLMPromptFiles``), parsed.
public enum PromptLibrary {
    /// The current recipe prompt (``LLMPromptFiles/recipe``, schema `llm-recipe`).
    public static var recipe: Prompt { get throws { try prompt(LLMPromptFiles.recipe) } }
    /// The current receipt prompt (``LLMPromptFiles/receipt``, schema `llm-receipt`).
    public static var receipt: Prompt { get throws { try prompt(LLMPromptFiles.receipt) } }

    /// Every embedded prompt version, e.g. `["receipt-v1", "recipe-v1"]`.
    public static var versions: [String] { LLMPromptFiles.versions }

    /// The prompt with this version (file `Prompts/VERSION.md`), with its schema loaded.
    /// - Throws: ``LLMError/Code/configuration`` if it or its schema is missing or broken.
    public static func prompt(_ version: String) throws -> Prompt {
        guard let text = LLMPromptFiles.promptText(version) else {
            throw LLMError(
                .configuration, "no prompt version \(version)", hint: "known versions: \(versions.joined(separator: ", "))")
        }
        guard let name = LLMPromptFiles.schemaName(ofPrompt: text) else {
            throw LLMError(.configuration, "prompt \(version) names no schema")
        }
        return try Prompt(parsing: text, schema: schema(name))
    }

    /// The embedded schema `NAME` (file `Schemas/NAME.schema.json`).
    public static func schema(_ name: String) throws -> JSONValue {
        guard let text = LLMPromptFiles.schemaText(name) else {
            throw LLMError(.configuration, "no embedded schema \(name)")
        }
        do { return try JSONValue(parsing: text) } catch {
            throw LLMError(.configuration, "schema \(name) is not valid JSON: \(error)")
        }
    }
}
