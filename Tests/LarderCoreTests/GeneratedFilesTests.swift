import Foundation
import LarderJSON
import LarderTestSupport
import Testing

@testable import LarderCore

/// The generated Swift files (schemas and LLM prompts embedded as strings) equal what `scripts/embed-files.py`
/// writes from their sources today: regenerating changes nothing.
@Suite("generated files")
struct GeneratedFilesTests {
    @Test func generatedFilesAreUpToDate() throws {
        let run = try TestSupport.shell("python3 '\(Repository.path("scripts/embed-files.py"))' --check")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    }

    @Test func everySchemaFileIsEmbedded() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Repository.path("schemas"))
            .filter { $0.hasSuffix(".schema.json") }
        #expect(!files.isEmpty)
        #expect(Set(files) == Set(EmbeddedSchemas.files.keys), "run scripts/embed-files.py")
    }
}

/// The `llm` stage's version is derived from the embedded prompts and schemas (nothing copied by hand), and every
/// schema names itself in one `$id` style.
@Suite("embedded prompts and schema ids")
struct EmbeddedPromptTests {
    @Test func theLLMStageVersionIsDerivedFromTheEmbeddedSchemas() throws {
        let schema = try JSONValue(parsing: try #require(LLMPromptFiles.schemaText("llm-recipe")))
        let hash = LLMPromptFiles.schemaHash(schema)
        #expect(StageDeclaration.llmPrompts.hasPrefix("recipe-v1+\(hash.prefix(12)),receipt-v1+"))
        #expect(!StageDeclaration.llmPrompts.contains("unreadable"))
        // The file's layout does not change the hash; its content does, `$id` included.
        #expect(LLMPromptFiles.schemaHash(try JSONValue(parsing: schema.serialized())) == hash)
        var object = try #require(schema.objectValue)
        object["$id"] = "urn:larder:schema:llm-recipe"
        #expect(LLMPromptFiles.schemaHash(.object(object)) != hash)
        #expect(LLMPromptFiles.stageVersion(of: "recipe-v0") == "recipe-v0+unreadable")
    }

    @Test func everySchemaHasAnHTTPSIdNamingItsFile() throws {
        let schemas =
            EmbeddedSchemas.files.map { ($0.key, $0.value) }
            + EmbeddedPrompts.files.filter { $0.key.hasPrefix("Schemas/") }.map {
                (String($0.key.dropFirst(8)), $0.value)
            }
        #expect(schemas.count >= 8)
        for (file, text) in schemas {
            let id = try JSONValue(parsing: text)["$id"]?.stringValue
            #expect(id == "https://larder.example/schemas/\(file)", "\(file)")
        }
    }
}

/// The documents that list the stages follow the one list (`StandardStage`): a stage added, moved or renamed there
/// fails here until docs/design/pipeline.md and ARCHITECTURE.md say so, and each stage has its file in LarderStages.
@Suite("stage list in the docs")
struct StageListDocsTests {
    @Test func docsAndFilesFollowTheStageList() throws {
        let names = StandardStage.allCases.map(\.name)
        let pipeline = try String(contentsOfFile: Repository.path("docs/design/pipeline.md"), encoding: .utf8)
        #expect(pipeline.contains(names.joined(separator: " ──► ")), "the flow line in docs/design/pipeline.md")
        let rows = pipeline.components(separatedBy: "\n").filter { $0.hasPrefix("| `") }
            .compactMap { $0.dropFirst(3).split(separator: "`").first.map(String.init) }
        #expect(rows == names, "the stage table in docs/design/pipeline.md")
        let architecture = try String(contentsOfFile: Repository.path("ARCHITECTURE.md"), encoding: .utf8)
        #expect(
            architecture.contains("**" + names.joined(separator: " → ") + "**"), "the stage order in ARCHITECTURE.md")
        for name in names {
            let type =
                ["ocr", "llm"].contains(name) ? name.uppercased() : name.prefix(1).uppercased() + name.dropFirst()
            let file = "Sources/LarderStages/\(type)Stage.swift"
            #expect(FileManager.default.fileExists(atPath: Repository.path(file)), "\(file)")
            #expect(architecture.contains("`\(type)Stage`"), "ARCHITECTURE.md names \(type)Stage")
        }
    }
}
