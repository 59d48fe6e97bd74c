import Foundation
import LarderTestSupport
import Testing

/// Property-based tests of the running server against docs/reference/openapi.yaml: PyPI `schemathesis` in a throwaway
/// virtualenv (`.build/schemathesis-venv`) sends generated requests to every operation and checks that no answer is
/// a 5xx and every answer (status, content type, body, headers) is one the spec documents.
@Suite("larder serve: schemathesis against the OpenAPI file", .serialized)
struct SchemathesisTests {
    @Test(.slow) func generatedRequestsGetDocumentedAnswersAndNo5xx() throws {
        let venv = Repository.path(".build/schemathesis-venv")
        if !FileManager.default.fileExists(atPath: venv + "/bin/schemathesis") {
            let made = try ServerProcess.shell("python3 -m venv '\(venv)' && '\(venv)/bin/pip' install -q 'schemathesis>=4,<5'")
            try #require(made.status == 0, "cannot make the schemathesis virtualenv: \(made.output)")
        }
        let server = try ServerProcess(arguments: ["--no-work", "--rate-limit", "0"])
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: server.folder)
        }
        // A document with a result is not needed: the operations' answers for unknown ids are documented too.
        let checks = [
            "not_a_server_error", "status_code_conformance", "content_type_conformance", "response_schema_conformance",
            "response_headers_conformance",
        ].joined(separator: ",")
        let run = try ServerProcess.shell(
            "cd '\(server.folder)' && '\(venv)/bin/schemathesis' run '\(Repository.path("docs/reference/openapi.yaml"))' "
                + "--url http://127.0.0.1:\(server.port) --checks \(checks) --max-examples 30 --seed 38 "
                + "--exclude-path /v1/events --request-timeout 20 2>&1")
        #expect(run.status == 0, "\(run.output.suffix(6000))")
        // It ran: schemathesis's summary counts the test cases it generated (938 on seed 38 when written).
        #expect(run.output.contains(" generated, "), "\(run.output.suffix(2000))")
        #expect(server.isRunning)
    }
}
