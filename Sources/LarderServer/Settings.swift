import Foundation
import LarderCore

/// How `larder serve` runs: where it listens, what it allows, and whether it works the queue itself.
public struct ServerSettings: Sendable {
    /// The address to bind: 127.0.0.1 unless told otherwise. Beyond loopback a token is required.
    public var host = "127.0.0.1"
    /// 0 picks a free port (tests); the server prints the one it got.
    public var port = 8080
    /// The bearer token clients must send; nil on loopback without one.
    public var token: BearerToken?
    /// The largest upload accepted (413 above it): `limits.max_file_bytes` of pipeline.yml.
    public var maxUploadBytes: Int64 = 100 * 1024 * 1024
    /// The deadlines a request must arrive within.
    var deadlines: RequestDeadlines {
        RequestDeadlines(headerSeconds: headerTimeoutSeconds, bodySeconds: bodyTimeoutSeconds)
    }
    /// The largest JSON request body (a patch, a reject reason).
    public var maxJSONBytes = 1024 * 1024
    /// Requests per second each client (by address) may make on average; 0 = no limit.
    public var requestsPerSecond: Double = 50
    /// Requests a client may make at once above the average.
    public var burst: Double = 200
    /// Seconds a connection may stay silent (a client that stops sending half way) before it is closed.
    public var idleTimeoutSeconds: Int64 = 30
    /// How long a client may take to send a request's head, and its body (plus a second per KiB that arrived):
    /// later, it gets 408 and the connection is closed.
    public var headerTimeoutSeconds: Double = 10
    public var bodyTimeoutSeconds: Double = 10
    /// Threads for the store and other blocking work of requests (see `BlockingPool`).
    public var blockingThreads = 4
    /// Event streams open at once; more get 503.
    public var maxEventStreams = 64
    /// Where uploads are kept, one file per SHA-256: `<database>.uploads` beside the database.
    public var uploadsDirectory: String
    /// Works the queue with `larder-worker` processes (false: `--no-work`, another process does).
    public var works = true
    /// `larder-worker`'s arguments (database, configuration, batch).
    public var workerArguments: [String] = []
    /// How often the queue is looked at for work another process added (an upload wakes it at once).
    public var pollSeconds: Double = 2

    public init(uploadsDirectory: String) {
        self.uploadsDirectory = uploadsDirectory
    }

    /// The uploads folder that goes with a database.
    public static func uploadsDirectory(forDatabase path: String) -> String {
        Intake.uploadsDirectory(forDatabase: path)
    }

    /// Whether `host` is a loopback address: 127.0.0.0/8, ::1 or localhost.
    public static func isLoopback(_ host: String) -> Bool {
        let lower = host.lowercased()
        if lower == "localhost" || lower == "::1" || lower == "[::1]" { return true }
        let parts = lower.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// Refuses settings that would expose the service: beyond loopback without a token.
    public func check() throws {
        if token == nil && !Self.isLoopback(host) {
            throw LarderError(
                .configuration, "--host \(host) listens beyond this machine, and no API token is set",
                hint: "set LARDER_API_TOKEN or --token-file, or keep the default --host 127.0.0.1")
        }
        guard (0...65535).contains(port) else {
            throw LarderError(.configuration, "--port \(port) is not a port number", hint: "give 1 to 65535, or 0 for any free port")
        }
        guard (1...3600).contains(idleTimeoutSeconds) else {
            throw LarderError(.configuration, "--idle-timeout must be 1 to 3600 seconds", hint: "the default is 30")
        }
        guard (0.1...3600).contains(headerTimeoutSeconds), (0.1...3600).contains(bodyTimeoutSeconds) else {
            throw LarderError(.configuration, "--header-timeout and --body-timeout must be 0.1 to 3600 seconds", hint: "the defaults are 10")
        }
        guard burst >= 1 else {
            throw LarderError(.configuration, "--burst must be at least 1", hint: "the default is 200")
        }
        guard requestsPerSecond >= 0 else {
            throw LarderError(.configuration, "--rate-limit must not be negative", hint: "give requests per second, or 0 for no limit")
        }
    }
}

/// The API token. It is compared in constant time and never printed: its description is redacted, so it cannot
/// reach a log line or an error message by accident.
public struct BearerToken: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    private let bytes: [UInt8]

    /// At least 16 characters, no whitespace inside.
    public init(_ text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count >= 16, !trimmed.contains(where: \.isWhitespace) else {
            throw LarderError(
                .configuration, "the API token must be at least 16 characters without spaces",
                hint: "make one with `openssl rand -hex 32`")
        }
        bytes = Array(trimmed.utf8)
    }

    /// Reads the token from a file (its first line).
    public init(file path: String) throws {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw LarderError(.configuration, "cannot read the token file", hint: "check --token-file", path: path)
        }
        try self.init(String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? ""))
    }

    /// Whether `candidate` is the token, in time that depends only on the lengths.
    public func matches(_ candidate: Substring) -> Bool {
        let other = Array(candidate.utf8)
        var difference = UInt8(other.count == bytes.count ? 0 : 1)
        for index in 0..<bytes.count {
            difference |= bytes[index] ^ (index < other.count ? other[index] : 0)
        }
        return difference == 0
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
}
