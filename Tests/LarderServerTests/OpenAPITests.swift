import Foundation
import LarderCore
import LarderJSON
import LarderTestSupport
import Testing
import Yams

/// docs/reference/openapi.yaml, read as JSON Schema 2020-12 (what OpenAPI 3.1 schemas are) by Larder's own validator.
struct OpenAPISpec {
    static let uri = "https://larder.example/openapi.json"
    let document: JSONValue
    let registry: JSONSchemaRegistry

    init() throws {
        let text = try String(contentsOfFile: Repository.path("docs/reference/openapi.yaml"), encoding: .utf8)
        document = try Self.json(from: Yams.load(yaml: text) as Any)
        var registry = JSONSchemaRegistry()
        registry.register(document, uri: Self.uri)
        self.registry = registry
    }

    static func json(from value: Any) throws -> JSONValue {
        switch value {
        case let map as [String: Any]:
            return .object(JSONObject(try map.map { ($0.key, try json(from: $0.value)) }))
        case let map as [AnyHashable: Any]:
            return .object(JSONObject(try map.map { ("\($0.key)", try json(from: $0.value)) }))
        case let list as [Any]: return .array(try list.map(json(from:)))
        case let flag as Bool: return .bool(flag)
        case let number as Int: return .int(number)
        case let number as Double: return .double(number)
        case let text as String: return .string(text)
        case is NSNull: return .null
        default: throw ServerTestError("openapi.yaml: cannot read \(type(of: value))")
        }
    }

    /// `#/components/…` references made absolute, so a schema taken out of the document still finds them.
    static func absolute(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(JSONObject(object.keys.map { key -> (String, JSONValue) in
                let member = object[key]!
                if key == "$ref", let ref = member.stringValue, ref.hasPrefix("#") { return (key, .string(uri + ref)) }
                return (key, absolute(member))
            }))
        case .array(let items): return .array(items.map(absolute))
        default: return value
        }
    }

    private func resolve(_ value: JSONValue?) -> JSONValue? {
        guard let ref = value?["$ref"]?.stringValue, ref.hasPrefix("#/") else { return value }
        return ref.dropFirst(2).split(separator: "/").reduce(document as JSONValue?) { $0?[String($1)] }
    }

    /// What is wrong with `reply` as an answer to `method path` (`path` as the spec writes it, `{id}` and all).
    func problems(_ method: String, _ path: String, _ reply: HTTPReply) throws -> [String] {
        guard let operation = document["paths"]?[path]?[method.lowercased()] else { return ["\(method) \(path) is not in the spec"] }
        guard let response = resolve(operation["responses"]?[String(reply.status)]) else {
            return ["\(method) \(path): status \(reply.status) is not documented (\(reply.text.prefix(300)))"]
        }
        let type = reply.headers["content-type"]?.split(separator: ";").first.map(String.init) ?? ""
        guard let content = response["content"]?[type] else {
            return ["\(method) \(path) \(reply.status): content type '\(type)' is not documented"]
        }
        guard type == "application/json", let schema = content["schema"] else { return [] }
        let validator = try JSONSchema(Self.absolute(schema), baseURI: "urn:larder:response", registry: registry)
        let instance = try JSONValue(parsing: reply.body)
        return validator.validate(instance).map { "\(method) \(path) \(reply.status): \($0)" }
    }
}

@Suite("larder serve: responses match docs/reference/openapi.yaml", .serialized)
struct OpenAPITests {
    @Test func theSpecIsOpenAPI31WithAnOperationForEveryRoute() throws {
        let spec = try OpenAPISpec()
        #expect(spec.document["openapi"]?.stringValue == "3.1.0")
        let paths = spec.document["paths"]?.objectValue?.keys ?? []
        for route in [
            "/healthz", "/metrics", "/v1/documents", "/v1/documents/{id}", "/v1/documents/{id}/result",
            "/v1/documents/{id}/retry", "/v1/pantry", "/v1/cook", "/v1/search", "/v1/review", "/v1/review/{id}",
            "/v1/review/{id}/accept", "/v1/review/{id}/reject", "/v1/events",
        ] {
            #expect(paths.contains(route), "\(route) is missing from openapi.yaml")
        }
        // Every schema compiles.
        for (name, schema) in spec.document["components"]?["schemas"]?.objectValue.map({ o in o.keys.map { ($0, o[$0]!) } }) ?? [] {
            #expect(throws: Never.self, "\(name)") {
                _ = try JSONSchema(OpenAPISpec.absolute(schema), baseURI: "urn:larder:\(name)", registry: spec.registry)
            }
        }
    }

    /// A wrong answer is caught: the check can fail.
    @Test func aResponseThatBreaksTheSpecIsReported() throws {
        let spec = try OpenAPISpec()
        let reply = HTTPReply(
            status: 201, headers: ["content-type": "application/json"], body: Data(#"{"id": 1, "sha256": "xyz"}"#.utf8))
        #expect(try !spec.problems("POST", "/v1/documents", reply).isEmpty)
        let undocumented = HTTPReply(status: 418, headers: ["content-type": "application/json"], body: Data("{}".utf8))
        #expect(try !spec.problems("GET", "/healthz", undocumented).isEmpty)
    }

    @Test(.integration) func theRunningServerAnswersAsTheSpecSays() throws {
        let spec = try OpenAPISpec()
        let server = try ServerProcess()
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: server.folder)
        }
        var problems: [String] = []
        func check(_ method: String, _ template: String, _ path: String, headers: [String: String] = [:], body: Data = Data()) throws
            -> HTTPReply
        {
            let reply = try server.request(method, path, headers: headers, body: body)
            problems += try spec.problems(method, template, reply)
            return reply
        }
        let sample = try Data(contentsOf: URL(fileURLWithPath: Repository.path("samples/recipes/red-lentil-soup.txt")))
        let created = try check("POST", "/v1/documents", "/v1/documents?filename=soup.txt", headers: ["Content-Type": "text/plain"], body: sample)
        let id = try #require((try JSONSerialization.jsonObject(with: created.body) as? [String: Any])?["id"] as? Int)
        _ = try check("POST", "/v1/documents", "/v1/documents", headers: ["Content-Type": "text/plain"], body: sample)
        _ = try check("POST", "/v1/documents", "/v1/documents", headers: ["Content-Type": "application/octet-stream"], body: Data([0, 1, 2, 3]))
        #expect(try server.waitSettled(id) == "done")
        for (template, path) in [
            ("/healthz", "/healthz"), ("/metrics", "/metrics"), ("/v1/documents", "/v1/documents"),
            ("/v1/documents", "/v1/documents?status=done&kind=recipe&limit=1"), ("/v1/documents", "/v1/documents?status=nope"),
            ("/v1/documents/{id}", "/v1/documents/\(id)"), ("/v1/documents/{id}", "/v1/documents/999999"),
            ("/v1/documents/{id}/result", "/v1/documents/\(id)/result"), ("/v1/pantry", "/v1/pantry"),
            ("/v1/cook", "/v1/cook"), ("/v1/cook", "/v1/cook?asOf=yesterday"), ("/v1/search", "/v1/search?q=lentil"),
            ("/v1/search", "/v1/search"), ("/v1/review", "/v1/review"), ("/v1/review/{id}", "/v1/review/\(id)"),
        ] {
            _ = try check("GET", template, path)
        }
        // The result as the API serves it, before the review below rejects it.
        let result = try server.request("GET", "/v1/documents/\(id)/result")
        let patch = Data(#"[{"op": "replace", "path": "/recipes/0/title", "value": "Red lentil soup"}]"#.utf8)
        _ = try check("PATCH", "/v1/review/{id}", "/v1/review/\(id)", headers: ["Content-Type": "application/json-patch+json"], body: patch)
        _ = try check("PATCH", "/v1/review/{id}", "/v1/review/\(id)", headers: ["Content-Type": "application/json"], body: Data(#"[{"op": "remove", "path": "/nope"}]"#.utf8))
        _ = try check("GET", "/v1/review/{id}", "/v1/review/\(id)")
        _ = try check("POST", "/v1/review/{id}/accept", "/v1/review/\(id)/accept")
        _ = try check("POST", "/v1/review/{id}/reject", "/v1/review/\(id)/reject", headers: ["Content-Type": "application/json"], body: Data(#"{"reason": "test"}"#.utf8))
        _ = try check("POST", "/v1/documents/{id}/retry", "/v1/documents/\(id)/retry")
        let refused = try check("GET", "/v1/documents/{id}/result", "/v1/documents/\(id)/result")
        #expect(refused.status == 409, "a rejected result is not served: \(refused.text)")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")

        // The result also follows the result schema itself.
        #expect(result.status == 200, "\(result.text)")
        let violations = try SchemaCatalog.embedded.get().validate(try JSONValue(parsing: result.body), against: "result.schema.json")
        #expect(violations.isEmpty, "\(violations)")
    }
}
