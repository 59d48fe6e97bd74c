import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes

/// How long a client may take to send a request. A slowloris-style client (headers or body trickled a byte at a time,
/// which the idle timeout never sees: every byte resets it) gets `408 Request Timeout` and the connection is closed.
struct RequestDeadlines: Sendable {
    /// From a request's first byte to the end of its head.
    var headerSeconds: Double = 10
    /// From the end of the head to the end of the body, plus one second for every `minBodyBytesPerSecond` bytes that
    /// arrived (as Apache's mod_reqtimeout `body=10,MinRate=1024`): a large upload on a slow link keeps going, a
    /// trickle does not.
    var bodySeconds: Double = 10
    var minBodyBytesPerSecond: Double = 1024
}

/// Where a connection's current request is, and by when it must have arrived. Pure: the handlers feed it what
/// happens and the time.
struct RequestClock {
    enum Phase: Equatable {
        /// Between requests: hummingbird's idle timeout applies.
        case idle
        /// Bytes of a request arrived; its head is not complete.
        case head(since: NIODeadline)
        /// The head arrived; the body is arriving.
        case body(since: NIODeadline, received: Int)
        /// The whole request arrived; the server is answering it.
        case answering
    }

    let limits: RequestDeadlines
    private(set) var phase = Phase.idle
    /// Bytes arrived while a request was being answered (a pipelined next one): its clock starts when the answer ends.
    private var nextStarted = false

    init(limits: RequestDeadlines) { self.limits = limits }

    mutating func bytesArrived(at now: NIODeadline) {
        switch phase {
        case .idle: phase = .head(since: now)
        case .answering: nextStarted = true
        case .head, .body: break
        }
    }

    mutating func headArrived(at now: NIODeadline) { phase = .body(since: now, received: 0) }

    mutating func bodyArrived(_ count: Int) {
        if case .body(let since, let received) = phase { phase = .body(since: since, received: received + count) }
    }

    mutating func requestEnded() { phase = .answering }

    /// The answer went out. Returns true when the request's body was still arriving: the connection is then closed
    /// rather than kept reading a body nobody will use (a refused 2 GB upload).
    mutating func answerEnded(at now: NIODeadline) -> Bool {
        switch phase {
        case .answering:
            phase = nextStarted ? .head(since: now) : .idle
            nextStarted = false
            return false
        case .body, .head: return true
        case .idle: return false
        }
    }

    /// When the request must have arrived by; nil when no request is arriving.
    var deadline: NIODeadline? {
        switch phase {
        case .idle, .answering: nil
        case .head(let since): since + Self.amount(limits.headerSeconds)
        case .body(let since, let received):
            since + Self.amount(limits.bodySeconds + Double(received) / limits.minBodyBytesPerSecond)
        }
    }

    /// What a timeout says.
    var what: String {
        if case .head = phase { return "its headers" }
        return "its body"
    }

    static func amount(_ seconds: Double) -> TimeAmount { .nanoseconds(Int64(min(seconds, 1e9) * 1e9)) }
}

/// Hummingbird's HTTP/1 channel with the request deadlines: a handler before the HTTP decoder sees bytes arrive (a
/// request begins), one after it sees heads, bodies and answers, and answers 408 when a request is late.
struct DeadlineHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let inner: HTTP1Channel
    let deadlines: RequestDeadlines
    let metrics: ServerMetrics

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let watch = RequestTimeoutHandler(deadlines: deadlines, metrics: metrics, logger: logger)
            try operations.addHandler(watch, position: .before(try operations.handler(type: HTTPConnectionStateHandler.self)))
            try operations.addHandler(ArrivalHandler(watch: watch), position: .first)
            return value
        }
    }

    /// HTTP/1 with hummingbird's idle timeout (between requests) and these deadlines (while one arrives).
    static func builder(settings: ServerSettings, metrics: ServerMetrics) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            DeadlineHTTP1Channel(
                inner: HTTP1Channel(
                    responder: responder, configuration: .init(idleTimeout: .seconds(settings.idleTimeoutSeconds))),
                deadlines: settings.deadlines, metrics: metrics)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

/// First in the pipeline: tells the watch that bytes arrived (the first byte of a request starts its clock).
final class ArrivalHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    private let watch: RequestTimeoutHandler

    init(watch: RequestTimeoutHandler) { self.watch = watch }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        watch.bytesArrived()
        context.fireChannelRead(data)
    }
}

/// After the HTTP decoder: follows each request and its answer on a ``RequestClock``, keeps one timer armed for the
/// clock's deadline, and when it passes answers `408` (JSON, like every API error) and closes the connection. Only
/// the late connection is touched; the timer is one scheduled task per connection on its own event loop.
final class RequestTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var clock: RequestClock
    private let metrics: ServerMetrics
    private let logger: Logger
    private var context: ChannelHandlerContext?
    private var timer: Scheduled<Void>?
    private var answerStarted = false
    private var timedOut = false

    init(deadlines: RequestDeadlines, metrics: ServerMetrics, logger: Logger) {
        clock = RequestClock(limits: deadlines)
        self.metrics = metrics
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func bytesArrived() {
        clock.bytesArrived(at: .now())
        arm()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if timedOut { return }
        switch unwrapInboundIn(data) {
        case .head: clock.headArrived(at: .now())
        case .body(let buffer): clock.bodyArrived(buffer.readableBytes)
        case .end: clock.requestEnded()
        }
        arm()
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !timedOut else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head(var head):
            answerStarted = true
            if case .body = clock.phase { head.headerFields[.connection] = "close" }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            answerStarted = false
            let closing = clock.answerEnded(at: .now())
            arm()
            guard closing else { return context.write(data, promise: promise) }
            let written = context.eventLoop.makePromise(of: Void.self)
            let channel = context.channel
            written.futureResult.whenComplete { _ in channel.close(promise: nil) }
            written.futureResult.cascade(to: promise)
            context.write(data, promise: written)
        }
    }

    /// Keeps one timer for the clock's deadline. Deadlines only move later while a request arrives, so a timer that
    /// fires early is simply set again.
    private func arm() {
        guard let context, let deadline = clock.deadline else {
            timer?.cancel()
            timer = nil
            return
        }
        guard timer == nil else { return }
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: deadline) {
            let handler = bound.value
            handler.timer = nil
            guard let due = handler.clock.deadline else { return }
            if NIODeadline.now() >= due { handler.expire() } else { handler.arm() }
        }
    }

    private func expire() {
        guard let context, !timedOut else { return }
        let answered = answerStarted
        timedOut = true
        logger.notice(
            "408: closed a connection from \(context.remoteAddress?.ipAddress ?? "?") whose request was too slow to send \(clock.what)")
        guard !answered else { return context.close(promise: nil) }
        let body = APIError(
            .requestTimeout, "the request took too long to arrive (\(clock.what) came too slowly)",
            hint: "send the whole request at once; a large upload needs at least \(Int(clock.limits.minBodyBytesPerSecond)) bytes per second"
        ).encodedBody
        var head = HTTPResponse(status: .requestTimeout)
        head.headerFields[.contentType] = "application/json; charset=utf-8"
        head.headerFields[.contentLength] = String(body.count)
        head.headerFields[.connection] = "close"
        head.headerFields[.cacheControl] = "no-store"
        head.headerFields[.xContentTypeOptions] = "nosniff"
        head.headerFields[.contentSecurityPolicy] = SecurityHeadersMiddleware.policy
        metrics.countResponse(status: 408)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(ByteBuffer(bytes: body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
