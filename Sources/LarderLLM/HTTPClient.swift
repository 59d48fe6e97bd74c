import Foundation
import LarderCore
internal import CCurl

/// One HTTP request: method, URL, headers and body.
///
/// Header values may hold secrets (API keys); ``description`` masks them, and nothing in this package
/// stores or prints a request's headers.
public struct HTTPRequest: Sendable, CustomStringConvertible {
    /// `POST` or `GET`.
    public var method: String
    /// The absolute URL.
    public var url: String
    /// Header name/value pairs, in order.
    public var headers: [(name: String, value: String)]
    /// The body (POST only).
    public var body: Data
    /// The whole-request timeout in seconds.
    public var timeoutSeconds: Double

    /// Makes a request.
    public init(
        method: String = "POST", url: String, headers: [(name: String, value: String)] = [], body: Data = Data(),
        timeoutSeconds: Double = 60
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeoutSeconds = timeoutSeconds
    }

    /// `METHOD url` with header names only (values are never shown).
    public var description: String {
        "\(method) \(Redactor.redact(url)) headers: \(headers.map(\.name).joined(separator: ", "))"
    }
}

/// An HTTP response: status, headers (names lowercased) and body.
public struct HTTPResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// Response headers with lowercased names; a repeated header keeps its last value.
    public var headers: [String: String]
    /// The body bytes.
    public var body: Data
    /// Wall-clock seconds the request took.
    public var seconds: Double

    /// Makes a response (tests use this to feed recorded examples to providers).
    public init(status: Int, headers: [String: String] = [:], body: Data, seconds: Double = 0) {
        self.status = status
        self.headers = headers
        self.body = body
        self.seconds = seconds
    }

    /// The body as UTF-8 text (lossy).
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// `Retry-After` in seconds: either delta-seconds or an HTTP date (converted using `now`).
    public func retryAfter(now: Date = Date()) -> Double? {
        guard let raw = headers["retry-after"]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
        if let seconds = Double(raw), seconds >= 0 { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        if let date = formatter.date(from: raw) { return max(0, date.timeIntervalSince(now)) }
        return nil
    }
}

/// Sends HTTP requests; tests and the chain depend on this protocol, not on libcurl.
public protocol HTTPTransport: Sendable {
    /// Performs the request. Transport failures (timeout, refused connection) come back as ``LLMError``
    /// with code ``LLMError/Code/timeout`` or ``LLMError/Code/transport``; any HTTP status is a response.
    func send(_ request: HTTPRequest) -> Result<HTTPResponse, LLMError>
}

/// An ``HTTPTransport`` over libcurl that makes one ``HTTPClient`` (one easy handle) per request.
///
/// Sendable: it holds no state; each call owns its own handle, so calls on many threads are safe.
public struct CurlTransport: HTTPTransport {
    /// Makes the transport (and initialises libcurl once per process).
    public init() { HTTPClient.globalInit() }

    public func send(_ request: HTTPRequest) -> Result<HTTPResponse, LLMError> {
        do {
            return .success(try HTTPClient().perform(request))
        } catch let error as LLMError {
            return .failure(error)
        } catch {
            return .failure(LLMError(.transport, "\(error)"))
        }
    }
}

/// Owns one libcurl easy handle and performs blocking requests with it.
///
/// Not Sendable: a libcurl easy handle must be used by one thread at a time. Make one per thread (or per
/// request, as ``CurlTransport`` does). Requests block the calling thread: call it from your own threads or
/// queues, not from the Swift concurrency pool in a hot loop.
public final class HTTPClient {
    private let handle: UnsafeMutableRawPointer

    private static let initialised: Bool = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
    }()

    /// Initialises libcurl for the process. Called by ``init()``; call it yourself before starting threads
    /// if you want to be strict about libcurl's rule that global init happens before any thread uses it.
    public static func globalInit() { _ = initialised }

    /// Creates a handle. Throws ``LLMError/Code/transport`` if libcurl cannot make one.
    public init() throws {
        Self.globalInit()
        guard let handle = curl_easy_init() else { throw LLMError(.transport, "libcurl could not create a handle") }
        self.handle = handle
    }

    deinit { curl_easy_cleanup(handle) }

    private final class Sink {
        var body = Data()
        var headers: [String: String] = [:]
    }

    /// Performs `request` and waits for the whole response.
    ///
    /// - Throws: ``LLMError`` with ``LLMError/Code/timeout`` when `request.timeoutSeconds` passes, or
    ///   ``LLMError/Code/transport`` for other libcurl failures. HTTP error statuses are not thrown.
    public func perform(_ request: HTTPRequest) throws -> HTTPResponse {
        curl_easy_reset(handle)
        let sink = Sink()
        let sinkPointer = Unmanaged.passUnretained(sink).toOpaque()
        var list: UnsafeMutablePointer<curl_slist>? = nil
        defer { curl_slist_free_all(list) }
        for header in request.headers { list = curl_slist_append(list, "\(header.name): \(header.value)") }
        // libcurl adds "Expect: 100-continue" to large POSTs; a blank value turns it off.
        list = curl_slist_append(list, "Expect:")

        let writeBody: larder_curl_write_callback = { data, size, count, user in
            guard let data, let user else { return 0 }
            let sink = Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue()
            sink.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: size * count)
            return size * count
        }
        let writeHeader: larder_curl_write_callback = { data, size, count, user in
            guard let data, let user else { return 0 }
            let sink = Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue()
            let line = String(decoding: UnsafeRawBufferPointer(start: data, count: size * count), as: UTF8.self)
            if line.hasPrefix("HTTP/") { sink.headers = [:] }  // a new response (after redirects / 100)
            if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
                sink.headers[name] = value
            }
            return size * count
        }

        var codes: [CURLcode] = []
        codes.append(larder_curl_setopt_string(handle, CURLOPT_URL, request.url))
        codes.append(larder_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        codes.append(larder_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, max(1, Int(request.timeoutSeconds * 1000))))
        codes.append(
            larder_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(min(request.timeoutSeconds, 10) * 1000))))
        codes.append(larder_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0))
        codes.append(larder_curl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, ""))
        if request.method == "POST" {
            codes.append(larder_curl_setopt_long(handle, CURLOPT_POST, 1))
            codes.append(larder_curl_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)))
            codes.append(request.body.withUnsafeBytes { bytes in
                // COPYPOSTFIELDS copies now, so the Swift buffer may go away after this call.
                larder_curl_setopt_pointer(
                    handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
            })
        } else if request.method != "GET" {
            codes.append(larder_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method))
        }
        codes.append(larder_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, list))
        codes.append(larder_curl_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION, writeBody))
        codes.append(larder_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, sinkPointer))
        codes.append(larder_curl_setopt_write_callback(handle, CURLOPT_HEADERFUNCTION, writeHeader))
        codes.append(larder_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, sinkPointer))
        if let bad = codes.first(where: { $0 != CURLE_OK }) {
            throw LLMError(.transport, "libcurl rejected an option: \(String(cString: curl_easy_strerror(bad)))")
        }

        let started = Date()
        let result = withExtendedLifetime(sink) { curl_easy_perform(handle) }
        let seconds = Date().timeIntervalSince(started)
        guard result == CURLE_OK else {
            let reason = String(cString: curl_easy_strerror(result))
            if result == CURLE_OPERATION_TIMEDOUT {
                throw LLMError(
                    .timeout, "no complete answer within \(request.timeoutSeconds) s (\(reason))",
                    hint: "raise timeout_seconds for this provider (llm.providers), or lower its max_tokens")
            }
            throw LLMError(.transport, "request failed: \(reason)", hint: "check the provider's base_url and that it is reachable")
        }
        var status = 0
        _ = larder_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return HTTPResponse(status: status, headers: sink.headers, body: sink.body, seconds: seconds)
    }
}

/// A libcurl easy handle must not be used from two threads at once.
@available(*, unavailable, message: "an easy handle is single-threaded: make one HTTPClient per thread")
extension HTTPClient: Sendable {}
