import Foundation
import LarderTestSupport
import Logging
import Testing

@testable import LarderCore

/// Stages log through the logger in their input, whose metadata names the document, its path and the stage.
@Suite("stage logging")
struct StageLoggingTests {
    /// Keeps every line logged, with its metadata.
    final class Capture: Sendable {
        let lines = Locked<[(message: String, metadata: [String: String])]>([])

        struct Handler: LogHandler {
            let capture: Capture
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace

            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }

            func log(event: LogEvent) {
                let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
                capture.lines.withLock {
                    $0.append(("\(event.message)", all.mapValues { "\($0)" }))
                }
            }
        }
    }

    /// A stage that only logs.
    struct Talker: Stage {
        let name: String
        let version = "talker@1"
        func run(_ input: StageInput) throws -> StageOutput {
            input.logger.notice("\(name) ran")
            return try StageOutput(["ok": true])
        }
    }

    @Test func linesCarryDocumentPathAndStage() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        try "Dear Sam, see you on Tuesday.\n".write(toFile: folder + "/letter.txt", atomically: true, encoding: .utf8)
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        let pipeline = Pipeline(stages: [Talker(name: "first"), Talker(name: "second")])
        _ = try Intake(store: store, manifest: pipeline.manifest, config: PipelineConfig())
            .ingest(paths: [folder + "/letter.txt"], batchID: store.beginBatch(command: "test", inputs: []))
        let capture = Capture()
        let logger = Logger(label: "test") { _ in Capture.Handler(capture: capture) }
        try WorkQueue(store: store, pipeline: pipeline, config: PipelineConfig(), logger: logger).run()

        let lines = capture.lines.withLock { $0 }.filter { $0.message.hasSuffix(" ran") }
        #expect(lines.map(\.message) == ["first ran", "second ran"])
        #expect(lines.map { $0.metadata["stage"] } == ["first", "second"])
        let document = try #require(try store.document(id: 1))
        for line in lines {
            #expect(line.metadata["document"] == "\(document.id)")
            #expect(line.metadata["path"] == document.path)
        }
    }
}
