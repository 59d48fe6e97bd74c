import Foundation

/// The loopback fault server (`fault_server.py` beside this file): real HTTP on 127.0.0.1 that plays a provider's
/// faults as a test scripts them, per scenario. One per test process, started on a free port the first time it is
/// used; it exits when this process ends (it watches its stdin). Scripting it and reading its log take an HTTP
/// client, which the test target brings (LarderLLMTests uses LarderLLM's `HTTPClient`).
public final class FaultServer: @unchecked Sendable {
    // @unchecked: every stored property is a `let` set in `init`; `process` and `stdin` are only kept alive (the
    // server exits when the pipe closes) and never touched again.
    public static let shared: FaultServer = {
        do { return try FaultServer() } catch { fatalError("cannot start the fault server: \(error)") }
    }()

    public let port: Int
    private let process: Process
    private let stdin: Pipe

    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    private init() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Repository.path("Tests/LarderTestSupport/fault_server.py")]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { throw StartError(description: "the fault server exited before printing its port") }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let port = text.split(separator: "\n").first.flatMap({ Int($0.dropFirst("PORT ".count)) }) else {
            throw StartError(description: "the fault server printed '\(text)'")
        }
        self.port = port
        self.process = process
        self.stdin = stdin
    }

    /// A unique scenario name.
    public static func scenario(_ name: String) -> String { "\(name)-\(UUID().uuidString.prefix(8))" }

    /// The base URL for a scenario (OpenAI-compatible providers append `/chat/completions`).
    public func baseURL(_ scenario: String) -> String { "http://127.0.0.1:\(port)/\(scenario)/v1" }

    /// Where a scenario's answers are scripted (POST a JSON list of steps; see `fault_server.py`).
    public func scriptURL(_ scenario: String) -> String { "http://127.0.0.1:\(port)/_script/\(scenario)" }

    /// Where the requests a scenario received are listed (GET).
    public func logURL(_ scenario: String) -> String { "http://127.0.0.1:\(port)/_log/\(scenario)" }
}
