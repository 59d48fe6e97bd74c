import ArgumentParser
import Dispatch
import Foundation
import LarderCore
import LarderServer

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the HTTP API and the review page, and work the queue.",
        discussion: """
            Listens on 127.0.0.1:8080 by default. Beyond loopback (--host) an API token is required: from \
            LARDER_API_TOKEN or --token-file, sent by clients as `Authorization: Bearer <token>`; it is never \
            logged or stored. Uploads are kept in <database>.uploads, one file per SHA-256 (in ./larder.uploads \
            with a PostgreSQL store, which also keeps their bytes, so several servers and workers can share \
            it), and go through the same checkpointed pipeline and crash-contained worker as `larder ingest`, which may share the \
            database. SIGINT or SIGTERM stops it; the worker finishes the stages in flight. See docs/guides/service.md.
            """)

    @OptionGroup var options: CommonOptions

    @Option(help: "Address to listen on (127.0.0.1 unless the service must be reached from elsewhere).")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0: any free port, printed at start).")
    var port = 8080

    @Option(help: "File whose first line is the API token (else LARDER_API_TOKEN).")
    var tokenFile: String?

    @Option(help: "Requests per second each client address may make on average (0: no limit).")
    var rateLimit: Double = 50

    @Option(help: "Requests a client address may make at once above the average (the rate limit's bucket size).")
    var burst: Double = 200

    @Option(help: "Seconds a connection may stay silent (a client that stops sending) before it is closed.")
    var idleTimeout: Int64 = 30

    @Option(help: "Seconds a client may take to send a request's headers; later it gets 408 and is disconnected.")
    var headerTimeout: Double = 10

    @Option(help: "Seconds a client may take to send a request's body, plus one per KiB sent (408 after).")
    var bodyTimeout: Double = 10

    @Flag(help: "Do not work the queue: another process (`larder ingest`, `larder resume`) does.")
    var noWork = false

    func run() throws {
        try reportingErrors {
            let config = try options.loadConfig()
            var settings = ServerSettings(uploadsDirectory: ServerSettings.uploadsDirectory(forDatabase: config.database))
            settings.host = host
            settings.port = port
            settings.requestsPerSecond = rateLimit
            settings.burst = burst
            settings.works = !noWork
            settings.idleTimeoutSeconds = idleTimeout
            settings.headerTimeoutSeconds = headerTimeout
            settings.bodyTimeoutSeconds = bodyTimeout
            settings.maxUploadBytes = config.limits.maxFileBytes
            settings.workerArguments = options.forwarded(config)
            if let tokenFile {
                settings.token = try BearerToken(file: tokenFile)
            } else if let text = ProcessInfo.processInfo.environment["LARDER_API_TOKEN"], !text.isEmpty {
                settings.token = try BearerToken(text)
            }
            try settings.check()
            let store = try options.openStore(config)
            let logger = options.makeLogger()
            let outcome = Locked<Result<Void, any Error>>(.success(()))
            let done = DispatchSemaphore(value: 0)
            Task {
                do {
                    try await LarderServer.run(settings: settings, store: store, config: config, logger: logger)
                } catch {
                    outcome.withLock { $0 = .failure(error) }
                }
                done.signal()
            }
            done.wait()
            try outcome.withLock { $0 }.get()
        }
    }
}
