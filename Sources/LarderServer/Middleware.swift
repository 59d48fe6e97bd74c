import Foundation
import HTTPTypes
import Hummingbird
import LarderCore
import Logging
import NIOCore

/// The request context: Hummingbird's core storage plus the client's address (rate limits are per address).
struct LarderRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?
    /// The port this connection came in on: the server's port (a `--port 0` server's too).
    let localPort: Int?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        localPort = source.channel.localAddress?.port
    }

    /// The client's address without its port: what the rate limit counts by.
    var clientKey: String { remoteAddress?.ipAddress ?? "unknown" }
}

/// Headers on every response: a strict content security policy (Larder serves every script, style and image
/// itself; none inline), no sniffing, no framing, no referrer, and no caching of API answers. No CORS headers are
/// sent, so browsers keep other sites' pages from reading the API.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = LarderRequestContext
    static let policy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    let metrics: ServerMetrics

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as APIError {
            response = try error.response(from: request, context: context)
        } catch let error as HTTPResponseError {
            response = try APIError(error.status == .notFound ? .notFound : .badRequest, Self.describe(error))
                .response(from: request, context: context)
            response.status = error.status
        } catch let error as LarderError {
            let answer = APIError.from(error)
            response = try (answer.code == .internalError ? Self.failed(error, request, context) : answer)
                .response(from: request, context: context)
        } catch {
            response = try Self.failed(error, request, context).response(from: request, context: context)
        }
        response.headers[.contentSecurityPolicy] = Self.policy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        // `same-origin`, not `no-referrer`: under `no-referrer` browsers send `Origin: null` with the page's own form
        // posts, which the same-origin check must refuse. Other sites still get no referrer.
        response.headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        metrics.countResponse(status: response.status.code)
        return response
    }

    /// A failure of the server's own: the detail (which may name files) goes to the log, the client gets a generic
    /// message.
    static func failed(_ error: any Error, _ request: Request, _ context: Context) -> APIError {
        context.logger.error(
            "\(request.method) \(request.uri.path) failed: \((error as? LarderError).map { "\($0) [\($0.path ?? "")]" } ?? "\(error)")")
        return APIError(
            .internalError, "the server could not complete this request; the details are in the server's log",
            hint: "try again; if it keeps failing, tell whoever runs this server")
    }

    private static func describe(_ error: HTTPResponseError) -> String {
        switch error.status {
        case .notFound: "no such route"
        case .methodNotAllowed: "this method is not allowed here"
        case .contentTooLarge: "the request body is too large"
        default: error.status.reasonPhrase
        }
    }
}

/// Cross-site request forgery and DNS rebinding. A request that changes anything (not GET or HEAD) is refused when
/// the browser says it comes from another site (`Sec-Fetch-Site: cross-site` or `same-site`) or its `Origin` is not
/// this server's own. Without a token, every request must also name this server as `Host`: a loopback name
/// (127.0.0.1, localhost, [::1]) with the server's port, so a hostile page cannot reach it through a name it
/// re-pointed at 127.0.0.1.
struct SameOriginMiddleware: RouterMiddleware {
    typealias Context = LarderRequestContext
    /// No token: the Host must be a loopback name.
    let requireLoopbackHost: Bool

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let host = request.head.authority ?? ""
        if requireLoopbackHost && !Self.isLoopbackHost(host, port: context.localPort) {
            throw APIError(
                .forbidden, "this server answers only to its loopback address",
                hint: "use http://127.0.0.1:\(context.localPort ?? 0) (or set an API token to serve other names)")
        }
        if request.method != .get && request.method != .head {
            if let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!]?.lowercased(), site != "same-origin" && site != "none" {
                throw APIError(.forbidden, "cross-site requests may not change anything", hint: "use the review page on this server")
            }
            if let origin = request.headers[HTTPField.Name("Origin")!], !Self.isSameOrigin(origin, host: host) {
                throw APIError(.forbidden, "requests from another origin may not change anything", hint: "use the review page on this server")
            }
        }
        return try await next(request, context)
    }

    /// `127.0.0.1:<port>`, `localhost:<port>` or `[::1]:<port>` (no port: only when the server's is 80).
    static func isLoopbackHost(_ host: String, port: Int?) -> Bool {
        let lower = host.lowercased()
        let name: Substring
        let given: Int
        if let colon = lower.lastIndex(of: ":"), !lower.hasSuffix("]") {
            name = lower[..<colon]
            guard let number = Int(lower[lower.index(after: colon)...]) else { return false }
            given = number
        } else {
            name = Substring(lower)
            given = 80
        }
        guard ["127.0.0.1", "localhost", "[::1]"].contains(name) else { return false }
        return port == nil || port == given
    }

    /// Whether an `Origin` header (`http://host:port`) names the host the request was sent to.
    static func isSameOrigin(_ origin: String, host: String) -> Bool {
        let lower = origin.lowercased()
        for scheme in ["http://", "https://"] where lower.hasPrefix(scheme) {
            return !host.isEmpty && lower.dropFirst(scheme.count) == host.lowercased()
        }
        return false
    }
}

/// With a token configured: every route but `/healthz` and the page assets needs `Authorization: Bearer <token>`
/// (the review page's login form sets the same token as an HTTP-only, same-site cookie).
struct AuthMiddleware: RouterMiddleware {
    typealias Context = LarderRequestContext
    let token: BearerToken
    static let cookieName = "larder_token"
    static let open: Set<String> = ["/healthz", "/review/login", "/assets/review.css", "/assets/review.js"]

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if Self.open.contains(request.uri.path) || isAuthorised(request) { return try await next(request, context) }
        if request.uri.path.hasPrefix("/review") && request.method == .get {
            return Response(status: .seeOther, headers: [.location: "/review/login"])
        }
        throw APIError(.unauthorized, "this request needs the API token", hint: "send `Authorization: Bearer <token>`")
    }

    private func isAuthorised(_ request: Request) -> Bool {
        if let header = request.headers[.authorization], header.count > 7, header.prefix(7).lowercased() == "bearer " {
            return token.matches(header.dropFirst(7))
        }
        for cookie in request.headers[values: .cookie].flatMap({ $0.split(separator: ";") }) {
            let pair = cookie.trimmingCharacters(in: .whitespaces)
            if pair.hasPrefix(Self.cookieName + "=") {
                return token.matches(pair.dropFirst(Self.cookieName.count + 1))
            }
        }
        return false
    }
}

/// A token bucket per client address: `requestsPerSecond` on average, `burst` at once; over it, 429 with
/// Retry-After. Buckets idle for a minute are forgotten, so the table stays small.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = LarderRequestContext
    let limiter: RateLimiter

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let wait = limiter.take(context.clientKey) {
            var error = APIError(.rateLimited, "too many requests from this address", hint: "slow down; try again shortly")
            error.headers[.retryAfter] = String(max(1, Int(wait.rounded(.up))))
            throw error
        }
        return try await next(request, context)
    }
}

final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    private let rate: Double
    private let burst: Double
    private let buckets = Locked<[String: Bucket]>([:])

    init(requestsPerSecond: Double, burst: Double) {
        rate = requestsPerSecond
        self.burst = max(1, burst)
    }

    /// nil when the request may go ahead; else the seconds until it could.
    func take(_ key: String, now: Double = Date().timeIntervalSince1970) -> Double? {
        guard rate > 0 else { return nil }
        return buckets.withLock { buckets in
            if buckets.count > 10_000 { buckets = buckets.filter { now - $0.value.updated < 60 } }
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + (now - bucket.updated) * rate)
            bucket.updated = now
            defer { buckets[key] = bucket }
            guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / rate }
            bucket.tokens -= 1
            return nil
        }
    }
}
