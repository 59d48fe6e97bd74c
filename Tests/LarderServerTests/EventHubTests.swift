import Foundation
import LarderCore
import Testing

@testable import LarderServer

/// The event stream reads finished stages by their sequence number: a stage committed late with an early clock is
/// still sent, and a reader that falls behind is told, not silently thinned.
@Suite("larder serve: the event hub")
struct EventHubTests {
    static func store() throws -> (SQLiteCheckpointStore, String) {
        let folder = NSTemporaryDirectory() + "larder-events-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return (try SQLiteCheckpointStore(path: folder + "/db.sqlite"), folder)
    }

    static func finish(_ store: SQLiteCheckpointStore, _ id: Int64, _ stage: String, at time: Double) throws {
        _ = try store.markRunning(documentID: id, stage: stage, version: stage + "@1", at: time - 1)
        try store.complete(
            documentID: id, stage: stage, version: stage + "@1", output: "{}", violations: [], isResult: false,
            startedAt: time - 1, finishedAt: time, laterStages: [])
    }

    static func register(_ store: SQLiteCheckpointStore, stages: [String]) throws -> Int64 {
        let batch = try store.beginBatch(command: "test", inputs: [])
        let file = RegisteredFile(
            path: "/tmp/x-\(UUID().uuidString)", sha256: String(repeating: "a", count: 63) + String(Int.random(in: 0...9)),
            byteCount: 1, modifiedAt: 0)
        return try #require(try store.register([file], batchID: batch, stages: stages).first).documentID
    }

    static func drain(_ stream: AsyncStream<StreamMessage>) async -> [StreamMessage] {
        var messages: [StreamMessage] = []
        for await message in stream { messages.append(message) }
        return messages
    }

    @Test func stagesCommittedOutOfClockOrderAreAllSent() async throws {
        let (store, folder) = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let id = try Self.register(store, stages: ["a", "b"])
        try Self.finish(store, id, "a", at: 500)  // before the stream opened: not sent
        let hub = EventHub(store: store, maxStreams: 4)
        let (_, stream) = try #require(await hub.subscribe(polling: false))
        // `b` committed first with a late clock, `a` again later with an early clock (another process's clock).
        try Self.finish(store, id, "b", at: 2000)
        _ = await hub.poll()
        _ = try store.markRunning(documentID: id, stage: "a", version: "a@2", at: 999)
        try store.complete(
            documentID: id, stage: "a", version: "a@2", output: "{}", violations: [], isResult: false,
            startedAt: 999, finishedAt: 1000, laterStages: [])
        _ = await hub.poll()
        await hub.close()
        let stages = await Self.drain(stream).compactMap { message -> String? in
            if case .event(let event) = message { return event.stage }
            return nil
        }
        #expect(stages == ["b", "a"])
    }

    @Test func aReaderThatFallsBehindIsToldAndTheStreamEnds() async throws {
        let (store, folder) = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let id = try Self.register(store, stages: ["a", "b", "c", "d"])
        let hub = EventHub(store: store, maxStreams: 4, buffer: 2)
        let (_, stream) = try #require(await hub.subscribe(polling: false))
        for (index, stage) in ["a", "b", "c", "d"].enumerated() { try Self.finish(store, id, stage, at: Double(100 + index)) }
        _ = await hub.poll()
        #expect(await hub.openStreams == 0)
        let messages = await Self.drain(stream)
        #expect(messages.count == 3 && messages.last == .overflow, "\(messages)")
        #expect(messages.last?.sse.hasPrefix("event: overflow\n") == true)
    }
}
