import Foundation
import LarderCore
import LarderTestSupport

/// A `larder serve` process on loopback, on a free port, over a database in a fresh temporary folder.
final class ServerProcess: @unchecked Sendable {
    // @unchecked: `process` and the pipes are set in init and only read afterwards; `output` is behind a lock.
    let folder: String
    let database: String
    let port: Int
    private let process: Process
    private let output = Locked("")

    /// Starts the server and waits for its "serving" line (at most `timeout` seconds). With `postgres` (a URL) it
    /// serves that database, given in `LARDER_DB` (a password stays off the command line), and runs in `folder`
    /// (where a PostgreSQL server keeps its `larder.uploads`); else an SQLite file in `folder`, run in the repository.
    init(
        arguments: [String] = [], environment: [String: String] = [:], folder: String? = nil, postgres: String? = nil,
        timeout: Double = 60
    ) throws {
        let folder = try folder ?? Self.temporaryFolder()
        self.folder = folder
        database = postgres ?? folder + "/larder.sqlite"
        process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.larderExecutable)
        process.arguments = ["serve"] + (postgres == nil ? ["--db", database] : []) + ["--port", "0"] + arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "LARDER_API_TOKEN")
        if let postgres { env["LARDER_DB"] = postgres }
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.currentDirectoryURL = URL(fileURLWithPath: postgres == nil ? Repository.root : folder)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let found = Locked<Int?>(nil)
        let output = self.output
        out.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                return
            }
            let text = output.withLock { all -> String in
                all += String(decoding: data, as: UTF8.self)
                return all
            }
            if let range = text.range(of: "serving http://127.0.0.1:") {
                let digits = text[range.upperBound...].prefix { $0.isNumber }
                found.withLock { $0 = Int(digits) }
            }
        }
        let deadline = Date().addingTimeInterval(timeout)
        while found.withLock({ $0 }) == nil && process.isRunning && Date() < deadline { usleep(50_000) }
        guard let port = found.withLock({ $0 }) else {
            if process.isRunning { process.terminate() }
            throw ServerTestError("the server did not start: \(output.withLock { $0 })")
        }
        self.port = port
    }

    /// What the server printed so far (standard output and error).
    var log: String { output.withLock { $0 } }
    var isRunning: Bool { process.isRunning }

    /// SIGTERM, then waits for the exit (the worker finishes its stages in flight). Returns the exit status.
    @discardableResult
    func stop(timeout: Double = 60) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    func request(
        _ method: String, _ path: String, headers: [String: String] = [:], body: Data = Data()
    ) throws -> HTTPReply {
        try HTTPClient.request(port: port, method: method, path: path, headers: headers, body: body)
    }

    func json(_ method: String, _ path: String, headers: [String: String] = [:], body: Data = Data()) throws -> (Int, Any) {
        let reply = try request(method, path, headers: headers, body: body)
        return (reply.status, try JSONSerialization.jsonObject(with: reply.body, options: [.fragmentsAllowed]))
    }

    /// Waits until the document is settled (done, failed or quarantined); returns its state.
    func waitSettled(_ id: Int, timeout: Double = 300) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let (_, value) = try json("GET", "/v1/documents/\(id)")
            if let state = (value as? [String: Any])?["state"] as? String, state != "pending" { return state }
            usleep(250_000)
        }
        throw ServerTestError("document \(id) did not finish in \(Int(timeout)) s; log: \(log.suffix(2000))")
    }

    static func temporaryFolder(_ name: String = #function) throws -> String {
        let path = NSTemporaryDirectory() + "larder-serve-\(name.filter(\.isLetter).prefix(30))-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static var larderExecutable: String {
        get throws {
            let bundleFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
            for candidate in [bundleFolder + "/larder", Repository.path(".build/debug/larder")]
            where FileManager.default.isExecutableFile(atPath: candidate) {
                return candidate
            }
            throw ServerTestError("the larder executable is not built: run `swift build` first")
        }
    }

    /// Runs `larder` with arguments (not the server) and returns its status and output.
    static func larder(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try larderExecutable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: Repository.root)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

struct ServerTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// An HTTP reply: status, headers (names lower-cased) and body.
struct HTTPReply {
    var status: Int
    var headers: [String: String]
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A small HTTP/1.1 client over a plain socket, so the tests control every byte: bodies larger than they say,
/// clients that stop half way, raw content types.
enum HTTPClient {
    static func connect(port: Int, timeoutSeconds: Int = 120) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerTestError("socket: \(errno)") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            close(fd)
            throw ServerTestError("cannot connect to 127.0.0.1:\(port): errno \(errno)")
        }
        return fd
    }

    /// Sends all of `data`; false when the peer closed the connection.
    @discardableResult
    static func send(_ fd: Int32, _ data: Data) -> Bool {
        var offset = 0
        while offset < data.count {
            let sent = data.withUnsafeBytes { buffer in
                Foundation.send(fd, buffer.baseAddress! + offset, data.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    /// Reads until the peer closes (or the receive timeout).
    static func readAll(_ fd: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return data
    }

    static func request(
        port: Int, method: String, path: String, headers: [String: String] = [:], body: Data = Data()
    ) throws -> HTTPReply {
        let fd = try connect(port: port)
        defer { close(fd) }
        var headers = headers
        let host = headers.removeValue(forKey: "Host") ?? "127.0.0.1:\(port)"
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
        if headers["Content-Length"] == nil && (!body.isEmpty || method == "POST" || method == "PATCH") {
            headers["Content-Length"] = String(body.count)
        }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        send(fd, Data((head + "\r\n").utf8) + body)
        return try parse(readAll(fd))
    }

    static func parse(_ data: Data) throws -> HTTPReply {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else {
            throw ServerTestError("no HTTP reply (\(data.count) bytes)")
        }
        let lines = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw ServerTestError("bad status line \(lines[0])") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(data[end.upperBound...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = dechunk(body) }
        return HTTPReply(status: status, headers: headers, body: body)
    }

    static func dechunk(_ data: Data) -> Data {
        var out = Data()
        var cursor = data.startIndex
        while let lineEnd = data.range(of: Data("\r\n".utf8), in: cursor..<data.endIndex) {
            let sizeText = String(decoding: data[cursor..<lineEnd.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16), size > 0 else { break }
            let start = lineEnd.upperBound
            let stop = min(data.endIndex, start + size)
            out.append(data[start..<stop])
            cursor = min(data.endIndex, stop + 2)
        }
        return out
    }

    /// A multipart/form-data body with one file part.
    static func multipart(fileName: String, data: Data, boundary: String = "larder-test-boundary-7d1f") -> (String, Data) {
        var body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n".utf8)
        body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(fileName)\"\r\n".utf8)
        body += Data("Content-Type: application/octet-stream\r\n\r\n".utf8) + data
        body += Data("\r\n--\(boundary)--\r\n".utf8)
        return ("multipart/form-data; boundary=\(boundary)", body)
    }
}
