import Foundation
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
