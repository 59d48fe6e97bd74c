import Dispatch
import Foundation
import Hummingbird
import LarderCore
import LarderReceipts
import LarderSupport
import Logging
import NIOCore

/// `larder serve`: the HTTP API and the review page over one store, working the queue unless told not to.
public enum LarderServer {
    /// Runs until SIGINT or SIGTERM: the server stops taking requests, the event streams end, and the worker
    /// finishes the stages it has in flight (a second SIGINT exits at once).
    public static func run(
        settings: ServerSettings, store: any ServiceStore, config: PipelineConfig, logger: Logger
    ) async throws {
        try settings.check()
        let manifest = PipelineManifest.standard(for: config)
        let batchID = try store.beginBatch(command: "serve", inputs: [])
        let workerArguments = settings.workerArguments + ["--batch", String(batchID)]
        let runner =
            settings.works
            ? QueueRunner(
                store: store, pipelineVersion: manifest.version, arguments: workerArguments,
                pollSeconds: settings.pollSeconds, memoryLimit: config.limits.workerMemory, logger: logger)
            : nil
        let lexicon = try? FoodLexicon.bundled()
        let pantry = config.pantry
        let blocking = BlockingPool.start(threads: settings.blockingThreads)
        let service = ServiceContext(
            store: store, reviewer: Reviewer(store: store, schemas: try SchemaCatalog.embedded.get()),
            uploads: UploadStore(
                directory: settings.uploadsDirectory, store: store, stages: manifest.stageNames, batchID: batchID),
            settings: settings, config: config, pipelineVersion: manifest.version, metrics: ServerMetrics(),
            events: EventHub(store: store, maxStreams: settings.maxEventStreams, blocking: blocking), runner: runner,
            lexicon: FoodLexiconBox { CookPlanner(config: pantry, asOf: $0, lexicon: lexicon) }, blocking: blocking,
            results: ResultCache())
        let app = Application(
            router: makeRouter(service),
            server: DeadlineHTTP1Channel.builder(settings: settings, metrics: service.metrics),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "larder"),
            onServerRunning: { channel in
                // The one line a script (or a test) waits for: the address, with the port a `--port 0` got.
                let port = channel.localAddress?.port ?? settings.port
                FileHandle.standardOutput.write(
                    Data("larder: serving http://\(settings.host):\(port) (review page: /review)\n".utf8))
            },
            logger: logger)
        runner?.start()
        let serving = Task { try await app.run() }
        let signals = StopSignals.handle { _ in
            Task {
                await service.events.close()
                serving.cancel()
            }
        }
        defer { signals.forEach { $0.cancel() } }
        let outcome = await serving.result
        await service.events.close()
        if let runner { await stopRunner(runner) }
        try? store.finishBatch(batchID, summaryJSON: "{}")
        await blocking.shutdown()
        if case .failure(let error) = outcome, !(error is CancellationError) { throw error }
    }

    /// The routes: the API, the review page and its assets, behind the security headers, the rate limit and (with a
    /// token) authentication.
    static func makeRouter(_ service: ServiceContext) -> Router<LarderRequestContext> {
        let router = Router(context: LarderRequestContext.self)
        router.add(middleware: SecurityHeadersMiddleware(metrics: service.metrics))
        router.add(
            middleware: RateLimitMiddleware(
                limiter: RateLimiter(requestsPerSecond: service.settings.requestsPerSecond, burst: service.settings.burst)))
        router.add(middleware: SameOriginMiddleware(requireLoopbackHost: service.settings.token == nil))
        if let token = service.settings.token { router.add(middleware: AuthMiddleware(token: token)) }
        DocumentRoutes.add(to: router, service)
        ReviewRoutes.add(to: router, service)
        ServiceRoutes.add(to: router, service)
        ReviewPages.add(to: router, service)
        return router
    }

    /// Waits, off the concurrency pool, for the worker to finish its stages in flight.
    private static func stopRunner(_ runner: QueueRunner) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                runner.stop()
                continuation.resume()
            }
            thread.start()
        }
    }
}
