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

/// What an event stream carries: an event, a keep-alive, or word that this stream fell behind and lost events (it
/// ends after that; the client reconnects and reads the documents' states afresh).
enum StreamMessage: Sendable, Equatable {
    case event(ServerEvent)
    case keepAlive
    case overflow

    var sse: String {
        switch self {
        case .event(let event): event.sse
        case .keepAlive: ": keep-alive\n\n"
        case .overflow:
            "event: overflow\ndata: {\"type\":\"overflow\",\"message\":\"this stream fell behind and events were lost; "
                + "reconnect and read GET /v1/documents\"}\n\n"
        }
    }
}

/// Fans events out to the open event streams. Stage events are read from the store (every half second while a
/// stream is open) by their sequence number, since the worker that makes them is another process: none is missed
/// for being committed late or by a process with another clock. A stream whose reader falls `buffer` events behind
/// is told so and ended, never silently thinned.
actor EventHub {
    private let store: any ServiceStore
    private let blocking: BlockingPool
    private let maxStreams: Int
    private let buffer: Int
    private var streams: [Int: AsyncStream<StreamMessage>.Continuation] = [:]
    private var nextID = 0
    private var cursor: Int64 = 0
    private var poller: Task<Void, Never>?
    private var polls = 0

    init(store: any ServiceStore, maxStreams: Int, buffer: Int = 1024, blocking: BlockingPool = .shared) {
        self.store = store
        self.blocking = blocking
        self.maxStreams = maxStreams
        self.buffer = max(1, buffer)
    }

    var openStreams: Int { streams.count }

    /// A new stream of the events from now on, or nil when `maxStreams` are open.
    func subscribe(polling: Bool = true) async -> (id: Int, events: AsyncStream<StreamMessage>)? {
        guard streams.count < maxStreams else { return nil }
        // The store is read off the actor (see BlockingPool); the checks are made again after it.
        let store = self.store
        let last = streams.isEmpty ? try? await blocking.run { try store.lastStageEventSequence() } : nil
        guard streams.count < maxStreams else { return nil }
        // One more than the buffer: room for the overflow notice after a full buffer.
        let (stream, continuation) = AsyncStream<StreamMessage>.makeStream(bufferingPolicy: .bufferingOldest(buffer + 1))
        nextID += 1
        let id = nextID
        if streams.isEmpty, let last { cursor = max(cursor, last) }
        streams[id] = continuation
        if polling && poller == nil {
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
        send(.event(event))
    }

    /// Sends to every stream. A stream whose buffer this fills (its reader is `buffer` messages behind) gets the
    /// overflow notice in the place kept for it, and ends.
    private func send(_ message: StreamMessage) {
        for (id, continuation) in streams {
            switch continuation.yield(message) {
            case .enqueued(let remaining) where remaining > 1: continue
            case .enqueued:
                continuation.yield(.overflow)
                continuation.finish()
            case .dropped, .terminated:
                continuation.finish()
            @unknown default:
                continuation.finish()
            }
            streams.removeValue(forKey: id)
        }
    }

    /// Ends every stream (at shutdown).
    func close() {
        for continuation in streams.values { continuation.finish() }
        streams.removeAll()
        poller?.cancel()
        poller = nil
    }

    /// Reads the stages finished since the last look, page by page, and sends them. Returns false (and stops
    /// polling) once no stream is open.
    func poll() async -> Bool {
        guard !streams.isEmpty else {
            poller = nil
            return false
        }
        polls += 1
        if polls % 30 == 0 { send(.keepAlive) }  // every 15 s: keeps proxies from closing an idle stream
        let store = self.store
        for _ in 0..<10 {
            let after = cursor
            guard let events = try? await blocking.run({ try store.stageEvents(after: after, limit: 1000) }), !events.isEmpty
            else { break }
            for event in events {
                cursor = max(cursor, event.sequence)
                publish(
                    ServerEvent(
                        type: .stage, documentID: event.documentID, stage: event.stage, status: event.status,
                        durationMilliseconds: event.durationMilliseconds, error: event.error, at: event.finishedAt))
            }
            if events.count < 1000 { break }
        }
        return true
    }
}
