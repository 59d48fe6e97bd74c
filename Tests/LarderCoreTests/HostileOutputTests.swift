import Foundation
import LarderTestSupport
import Testing

@testable import LarderCore

/// Issue 36, finding 14: control characters from titles and file names never reach the terminal raw.
@Suite("hostile: terminal output")
struct TerminalTextTests {
    @Test func controlsAreEscapedNewlinesAndTabsKept() {
        #expect(TerminalText.safe("a\u{1B}]0;pwned\u{07}b") == "a\\x1B]0;pwned\\x07b")
        #expect(TerminalText.safe("line\rover") == "line\\x0Dover")
        #expect(TerminalText.safe("csi\u{9B}31m\u{7F}") == "csi\\u009B31m\\u007F")
        #expect(TerminalText.safe("two\nlines\tand tab, é, 🍞") == "two\nlines\tand tab, é, 🍞")
        // Inside JSON the C1 escape is a valid JSON escape of the same character.
        let json = "{\"t\":\"\u{9B}\"}"
        let decoded = try? JSONSerialization.jsonObject(with: Data(TerminalText.safe(json).utf8)) as? [String: String]
        #expect(decoded?["t"] == "\u{9B}")
    }
}

@Suite("hostile: terminal output of the commands", .serialized, .integration)
struct HostileTerminalTests {
    @Test func noCommandPrintsAnEscapeFromATitleOrName() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        let hostile = "Pan\u{1B}]0;pwned\u{07}\u{1B}[31mcakes"
        try Data(HostileExportTests.recipe(hostile).utf8).write(
            to: URL(fileURLWithPath: folder + "/in/pan\u{1B}[2Jcakes.txt"))
        let database = folder + "/db.sqlite"
        var runs = [try TestSupport.larder(["ingest", "--db", database, folder + "/in"])]
        for arguments in [["search", "pancakes"], ["search", "cakes"], ["status"], ["show", "1"], ["review", "list"],
                          ["export", "--out", folder + "/out"]] {
            runs.append(try TestSupport.larder(arguments + ["--db", database]))
        }
        for run in runs {
            #expect(!run.stdout.contains("\u{1B}") && !run.stderr.contains("\u{1B}"), "\(run.stdout)\n\(run.stderr)")
        }
        #expect(runs.contains { $0.stdout.contains("\\x1B") }, "the name is shown, escaped: \(runs.map(\.stdout))")
    }
}

/// Issue 36, finding 16: a binary or mis-encoded `pipeline.yml` gets a precise error.
@Suite("hostile: configuration file")
struct HostileConfigurationTests {
    @Test func binaryAndNonUTF8ConfigurationsAreNamedPrecisely() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let binary = Data([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00] + (0..<200).map { UInt8(($0 * 37 + 11) % 256) })
        try binary.write(to: URL(fileURLWithPath: folder + "/binary.yml"))
        let nul = #expect(throws: LarderError.self) { try PipelineConfig.load(path: folder + "/binary.yml") }
        #expect(nul?.message.contains("NUL byte at offset 7") == true, "\(nul?.message ?? "")")
        try Data(Array("workers: 2\r\nlimits:\n  # caf".utf8) + [0xE9, 0x0A])
            .write(to: URL(fileURLWithPath: folder + "/latin1.yml"))
        let latin = #expect(throws: LarderError.self) { try PipelineConfig.load(path: folder + "/latin1.yml") }
        #expect(latin?.message.contains("not UTF-8") == true && latin?.line == 3, "\(latin?.message ?? "") \(latin?.line ?? 0)")
        let missing = #expect(throws: LarderError.self) { try PipelineConfig.load(path: folder + "/none.yml") }
        #expect(missing?.message.contains("cannot read the configuration file") == true)
    }
}
