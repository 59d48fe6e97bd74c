import Foundation
import HTTPTypes
import Hummingbird
import LarderCore

/// A request the API refuses, answered as JSON: `{"error": {"status", "code", "message", "hint"}}`.
struct APIError: HTTPResponseError {
    /// What went wrong, as a stable kebab-case code a client can switch on.
    enum Code: String, Sendable {
        case notFound = "not-found"
        case badRequest = "bad-request"
        case unauthorized
        case forbidden
        case tooLarge = "too-large"
        case unsupportedMediaType = "unsupported-media-type"
        case rateLimited = "rate-limited"
        case requestTimeout = "request-timeout"
        case conflict
        case invalidPatch = "invalid-patch"
        case unavailable
        case internalError = "internal-error"

        var status: HTTPResponse.Status {
            switch self {
            case .notFound: .notFound
            case .badRequest: .badRequest
            case .unauthorized: .unauthorized
            case .forbidden: .forbidden
            case .tooLarge: .contentTooLarge
            case .unsupportedMediaType: .unsupportedMediaType
            case .rateLimited: .tooManyRequests
            case .requestTimeout: .requestTimeout
            case .conflict: .conflict
            case .invalidPatch: .unprocessableContent
            case .unavailable: .serviceUnavailable
            case .internalError: .internalServerError
            }
        }
    }

    var code: Code
    var message: String
    var hint: String?
    var headers: HTTPFields = [:]

    init(_ code: Code, _ message: String, hint: String? = nil) {
        self.code = code
        self.message = message
        self.hint = hint
    }

    var status: HTTPResponse.Status { code.status }

    private struct Body: Encodable {
        struct Detail: Encodable {
            var status: Int
            var code: String
            var message: String
            var hint: String?
        }
        var error: Detail
    }

    /// The JSON body: `{"error": {…}}`.
    var encodedBody: Data {
        JSONResponse.encode(Body(error: .init(status: status.code, code: code.rawValue, message: message, hint: hint)))
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = JSONResponse.raw(encodedBody, status: status)
        response.headers.append(contentsOf: headers)
        if code == .unauthorized { response.headers[.wwwAuthenticate] = "Bearer realm=\"larder\"" }
        return response
    }

    static func notFound(document id: String) -> APIError {
        APIError(.notFound, "no document \(id)", hint: "list documents with GET /v1/documents")
    }

    /// A Larder error met while serving a request: bad input is the client's (400), the rest is the server's (500,
    /// with the message: it names no secret, and the operator needs it).
    static func from(_ error: LarderError) -> APIError {
        switch error.kind {
        case .badInput, .configuration: APIError(.badRequest, error.message, hint: error.hint)
        case .overLimit: APIError(.tooLarge, error.message, hint: error.hint)
        default: APIError(.internalError, error.message, hint: error.hint)
        }
    }
}

/// JSON responses, keys sorted, slashes unescaped.
enum JSONResponse {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        raw(encode(value), status: status)
    }

    static func encode(_ value: some Encodable) -> Data {
        (try? encoder.encode(value)) ?? Data(#"{"error":{"code":"internal-error"}}"#.utf8)
    }

    /// A body that already is JSON text (a stored result).
    static func raw(_ data: Data, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func raw(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
