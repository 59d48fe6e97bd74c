import Foundation
import LarderCore

/// What `GET /v1/events` streams: a document registered by an upload, and each stage of each document that
/// finished (done, failed or quarantined), whichever process ran it.
struct ServerEvent: Codable, Sendable, Equatable {
    enum Kind: String, Codable, Sendable {
        case registered, stage
    }

    var type: Kind
    var documentID: Int64
    var stage: String?
    var status: StageStatus?
    var durationMilliseconds: Double?
    var error: LarderError.Record?
    var at: Double

    /// The event in Server-Sent Events framing.
    var sse: String {
        let data = (try? JSONResponse.encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return "event: \(type.rawValue)\ndata: \(data)\n\n"
    }
}

/// Fans events out to the open event streams. Stage events are read from the store (every half second while a
/// stream is open), since the worker that makes them is another process.
actor EventHub {
    private let store: any ServiceStore
    private let maxStreams: Int
    private var streams: [Int: AsyncStream<ServerEvent?>.Continuation] = [:]
    private var nextID = 0
    private var cursor = Date().timeIntervalSince1970
    private var poller: Task<Void, Never>?
    private var polls = 0

    init(store: any ServiceStore, maxStreams: Int) {
        self.store = store
        self.maxStreams = maxStreams
    }

    var openStreams: Int { streams.count }

    /// A new stream of the events from now on (nil elements are keep-alives), or nil when `maxStreams` are open.
    func subscribe() -> (id: Int, events: AsyncStream<ServerEvent?>)? {
        guard streams.count < maxStreams else { return nil }
        let (stream, continuation) = AsyncStream<ServerEvent?>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        nextID += 1
        let id = nextID
        if streams.isEmpty { cursor = Date().timeIntervalSince1970 }
        streams[id] = continuation
        if poller == nil {
            poller = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: 500_000_000)
                    guard let self, await self.poll() else { return }
                }
            }
        }
        return (id, stream)
    }

    func unsubscribe(_ id: Int) {
        streams.removeValue(forKey: id)?.finish()
    }

    func publish(_ event: ServerEvent) {
        for continuation in streams.values { continuation.yield(event) }
    }

    /// Ends every stream (at shutdown).
    func close() {
        for continuation in streams.values { continuation.finish() }
        streams.removeAll()
        poller?.cancel()
        poller = nil
    }

    /// Reads the stages finished since the last look and sends them. Returns false (and stops polling) once no
    /// stream is open.
    private func poll() -> Bool {
        guard !streams.isEmpty else {
            poller = nil
            return false
        }
        polls += 1
        if polls % 30 == 0 {  // every 15 s: a comment that keeps proxies from closing an idle stream
            for continuation in streams.values { continuation.yield(nil) }
        }
        guard let events = try? store.stageEvents(finishedAfter: cursor, limit: 1000) else { return true }
        for event in events {
            cursor = max(cursor, event.finishedAt)
            publish(
                ServerEvent(
                    type: .stage, documentID: event.documentID, stage: event.stage, status: event.status,
                    durationMilliseconds: event.durationMilliseconds, error: event.error, at: event.finishedAt))
        }
        return true
    }
}
