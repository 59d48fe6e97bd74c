import Foundation
@testable import LarderCore
import LarderTestSupport
import Logging
import Testing

/// Paths and helpers shared by the tests.
enum TestSupport {
    /// The repository root (`Repository.root` from LarderTestSupport).
    static var repoRoot: String { Repository.root }

    static func repoPath(_ relative: String) -> String { Repository.path(relative) }

    /// A fresh temporary folder, removed by the caller with `cleanUp`.
    static func temporaryFolder(_ name: String = #function) throws -> String {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let path = NSTemporaryDirectory() + "larder-test-\(safe)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func cleanUp(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    /// The `larder` executable built next to the test bundle (`swift build --build-tests` builds it).
    static var larderExecutable: String {
        get throws {
            let bundleFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
            let candidates = [
                bundleFolder + "/larder", repoPath(".build/debug/larder"),
            ]
            for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
                return candidate
            }
            throw LarderError(.configuration, "the larder executable is not built", hint: "run `swift build` first")
        }
    }

    static let logger: Logger = {
        var logger = Logger(label: "larder-test") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .error
        return logger
    }()

    /// Result of running a command.
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        var terminatedBySignal: Bool
    }

    /// Runs `larder` with arguments and waits.
    static func larder(_ arguments: [String], environment: [String: String] = [:], in folder: String? = nil) throws
        -> Run
    {
        let process = try start(arguments, environment: environment, in: folder)
        return finish(process)
    }

    struct Started {
        var process: Process
        var stdout: Pipe
        var stderr: Pipe
    }

    static func start(
        _ arguments: [String], environment: [String: String] = [:], in folder: String? = nil,
        executable: String? = nil
    ) throws -> Started {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable ?? larderExecutable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return Started(process: process, stdout: out, stderr: err)
    }

    static func finish(_ started: Started) -> Run {
        // Read both pipes before waiting, so a full pipe cannot block the child.
        let outData = Locked(Data())
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            let data = started.stdout.fileHandleForReading.readDataToEndOfFile()
            outData.withLock { $0 = data }
        }
        let errData = started.stderr.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        started.process.waitUntilExit()
        return Run(
            status: started.process.terminationStatus,
            stdout: String(decoding: outData.withLock { $0 }, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self),
            terminatedBySignal: started.process.terminationReason == .uncaughtSignal)
    }

    /// Runs a shell command line; returns its status and output.
    @discardableResult
    static func shell(_ command: String) throws -> Run {
        try finish(start(["-c", command], executable: "/bin/bash"))
    }

    /// Decodes the JSON printed by `larder … --json`.
    static func decode<T: Decodable>(_ type: T.Type, from run: Run) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(run.stdout.utf8))
        } catch {
            Issue.record("cannot decode \(T.self) from stdout:\n\(run.stdout)\nstderr:\n\(run.stderr)")
            throw error
        }
    }
}
