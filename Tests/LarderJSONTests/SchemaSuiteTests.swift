import Foundation
import LarderJSON
import LarderTestSupport
import Testing

/// Runs the official JSON-Schema-Test-Suite (draft 2020-12) against ``JSONSchema``.
@Suite("JSON Schema Test Suite (draft 2020-12)", .sharedData("json-schema-test-suite"))
struct SchemaSuiteTests {
    /// Test files that are not required to pass, and why. Keep this list short.
    static let unsupportedFiles: [String: String] = [:]

    /// Individual test cases (file / case description) that are known not to pass, and why.
    static let unsupportedCases: [String: String] = [:]

    struct Outcome {
        var passed = 0
        var total = 0
        var failures: [String] = []
        var skipped = 0
    }

    static func suiteFolder() -> URL? { TestData.folder("json-schema-test-suite") }

    static func registry(_ suite: URL) throws -> JSONSchemaRegistry {
        var reg = JSONSchemaRegistry()
        try reg.registerDirectory(suite.appendingPathComponent("remotes"), baseURI: "http://localhost:1234/")
        return reg
    }

    static func run(files: [URL], registry: JSONSchemaRegistry, formatAssertion: Bool) throws -> Outcome {
        var out = Outcome()
        for file in files.sorted(by: { $0.lastPathComponent < $1.lastPathComponent }) {
            let name = file.lastPathComponent
            let cases = try TestData.load(file)
            for c in cases.arrayValue ?? [] {
                let desc = c["description"]?.stringValue ?? "?"
                let tests = c["tests"]?.arrayValue ?? []
                let schema: JSONSchema
                do {
                    schema = try JSONSchema(c["schema"]!, registry: registry, options: JSONSchemaOptions(formatAssertion: formatAssertion))
                } catch {
                    out.total += tests.count
                    out.failures.append("\(name) / \(desc): schema did not compile: \(error)")
                    continue
                }
                for t in tests {
                    out.total += 1
                    let expected = t["valid"]?.boolValue ?? false
                    let data = t["data"]!
                    let errors = schema.validate(data)
                    let quick = schema.isValid(data)
                    if errors.isEmpty == expected && quick == expected {
                        out.passed += 1
                    } else {
                        out.failures.append("\(name) / \(desc) / \(t["description"]?.stringValue ?? "?"): expected \(expected ? "valid" : "invalid"), validate() gave \(errors.isEmpty ? "valid" : "invalid: \(errors.map(\.description))"), isValid() gave \(quick)")
                    }
                }
            }
        }
        return out
    }

    static func jsonFiles(_ dir: URL) -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "json" }
    }

    @Test("draft2020-12 required tests")
    func required() throws {
        let suite = try #require(Self.suiteFolder())
        let reg = try Self.registry(suite)
        let files = Self.jsonFiles(suite.appendingPathComponent("tests/draft2020-12"))
            .filter { Self.unsupportedFiles[$0.lastPathComponent] == nil }
        let out = try Self.run(files: files, registry: reg, formatAssertion: false)
        print("draft2020-12 required: \(out.passed)/\(out.total) passed")
        for f in out.failures { print("  FAIL \(f)") }
        let unexpected = out.failures.filter { f in !Self.unsupportedCases.keys.contains { f.hasPrefix($0) } }
        #expect(unexpected.isEmpty, "\(unexpected.count) unexpected failures")
    }

    @Test("draft2020-12 optional/format tests (format assertion on)")
    func optionalFormat() throws {
        let suite = try #require(Self.suiteFolder())
        let reg = try Self.registry(suite)
        let files = Self.jsonFiles(suite.appendingPathComponent("tests/draft2020-12/optional/format"))
        let out = try Self.run(files: files, registry: reg, formatAssertion: true)
        print("draft2020-12 optional/format: \(out.passed)/\(out.total) passed")
        for f in out.failures { print("  FAIL \(f)") }
        #expect(out.passed >= Self.formatFloor, "format conformance dropped below \(Self.formatFloor)")
    }

    /// Floor for optional/format passes (just below the count achieved).
    static let formatFloor = 760

    @Test("draft2020-12 other optional tests (informational)")
    func optionalOther() throws {
        let suite = try #require(Self.suiteFolder())
        let reg = try Self.registry(suite)
        let files = Self.jsonFiles(suite.appendingPathComponent("tests/draft2020-12/optional"))
        let out = try Self.run(files: files, registry: reg, formatAssertion: false)
        print("draft2020-12 optional (non-format): \(out.passed)/\(out.total) passed")
        for f in out.failures { print("  FAIL \(f)") }
        #expect(out.passed >= Self.optionalFloor)
    }

    static let optionalFloor = 160
}
