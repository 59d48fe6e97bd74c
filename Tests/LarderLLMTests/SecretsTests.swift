import Foundation
import LarderCore
import LarderJSON
import LarderTestSupport
import Testing

@testable import LarderLLM

/// API keys come only from the environment and never reach the database, logs, error text or results.
///
/// The test plants a key in the real process environment, sends requests (all three provider kinds) to the
/// fault server — which echoes the request headers, key included, back in error bodies — and to a
/// succeeding scenario with an SQLite cache, then searches every byte the package wrote for the key.
@Suite("Secrets")
struct SecretsTests {
    @Test(.integration) func plantedKeyNeverReachesAnythingWritten() throws {
        let server = FaultServer.shared
        let variable = "LARDER_SECRET_TEST_KEY_\(UUID().uuidString.prefix(6))"
        let key = "planted-\(UUID().uuidString)"
        setenv(variable, key, 1)
        defer { unsetenv(variable) }

        let echo = FaultServer.scenario("echo")
        let ok = FaultServer.scenario("secret-ok")
        try server.script(echo, [["status": 401, "echo_headers": true]])
        try server.script(ok, [Fixtures.ok()])
        let echoBase = "http://127.0.0.1:\(server.port)/\(echo)"
        let providers = [
            Fixtures.provider("openai", echoBase + "/v1", keyEnv: variable),
            Fixtures.provider("claude", echoBase, keyEnv: variable, kind: .anthropic),
            Fixtures.provider("gemini", echoBase, keyEnv: variable, kind: .gemini),
            Fixtures.provider("fallback", server.baseURL(ok), keyEnv: variable),
        ]
        let dir = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = LogCapture()
        let stage = LLMStructurer(
            config: Fixtures.config(providers), cache: try SQLiteLLMCache(path: dir.appendingPathComponent("cache.sqlite").path),
            sleeper: RecordingSleeper(), log: log.handler)

        // A success after three echoed 401s, then a failure whose error text carries the three echoes.
        let result = try stage.structure(Fixtures.request("doc-ok"))
        try server.script(ok, [["status": 500, "echo_headers": true]])
        let failed = LLMStructurer(config: Fixtures.config(Array(providers), attempts: 1), sleeper: RecordingSleeper(), log: log.handler)
        var request = try Fixtures.request("doc-fail")
        request.lines = KeyedLines(["something else"])
        let error = try #require(throws: LLMError.self) { try failed.structure(request) }

        // The key was really sent (so the search below means something)…
        let sent = try server.log(echo).map { $0.serialized() }.joined()
        #expect(sent.contains(key))
        #expect(error.causes.count == 4)
        #expect(error.causes.allSatisfy { $0.code == .unauthorized || $0.code == .serverError })

        // …and appears nowhere the package wrote.
        var written: [(String, Data)] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) {  // cache.sqlite, -wal, -shm
            written.append((name, try Data(contentsOf: dir.appendingPathComponent(name))))
        }
        written.append(("log", Data(log.all.joined(separator: "\n").utf8)))
        written.append(("error", Data(error.description.utf8)))
        written.append(("error causes", Data(error.causes.map { "\($0.message) \($0.hint ?? "")" }.joined().utf8)))
        written.append(("result", result.output.serializedData()))
        written.append(("result-llm", result.llmOutput.serializedData()))
        written.append(("result-meta", Data("\(result)".utf8)))
        written.append(("cost report", try JSONEncoder().encode(stage.costReport)))
        written.append(("failed cost report", try JSONEncoder().encode(failed.costReport)))
        let needle = Data(key.utf8)
        for (name, bytes) in written {
            #expect(bytes.range(of: needle) == nil, "the planted key leaked into \(name)")
        }
        #expect(written.count >= 9)
        #expect(log.all.contains { $0.contains("<REDACTED>") })  // the echoes were there, masked
    }

    @Test func redactorMasksHeadersAndKeyShapes() {
        let text = #"Authorization: Bearer abc.def-123 x-api-key: "k1k1k1k1" url?key=AIzaSyA1234567890123456789012 sk-proj-abcdefghijkl"#
        let masked = Redactor.redact(text)
        for secret in ["abc.def-123", "k1k1k1k1", "AIzaSyA1234567890123456789012", "sk-proj-abcdefghijkl"] {
            #expect(!masked.contains(secret), "\(secret) in \(masked)")
        }
        #expect(masked.contains("<REDACTED>"))
        let request = HTTPRequest(url: "https://x/v1?key=secret123", headers: [("Authorization", "Bearer topsecret")])
        #expect(!request.description.contains("topsecret") && !request.description.contains("secret123"))
    }
}
