import Foundation
import LarderCore
import LarderJSON
import LarderTestSupport
import Testing

@testable import LarderLLM

/// Every failure path of the provider chain and the stage, against the loopback fault server over real
/// libcurl. Retry waits are recorded by ``RecordingSleeper`` instead of slept; each scenario is bounded in
/// request count (asserted from the server's log) and in time.
@Suite("Fault paths (loopback fault server)", .integration)
struct FaultPathTests {
    let server = FaultServer.shared

    func stage(_ config: LLMConfig, sleeper: RecordingSleeper = RecordingSleeper(), cache: (any LLMCache)? = nil,
               log: LogCapture? = nil, environment: @escaping @Sendable (String) -> String? = { _ in nil }) -> LLMStructurer {
        LLMStructurer(config: config, cache: cache, sleeper: sleeper, jitter: { 0.5 }, environment: environment, log: log?.handler)
    }

    @Test func rateLimitHonoursRetryAfter() throws {
        let s = FaultServer.scenario("429")
        try server.script(s, [
            Fixtures.step(status: 429, body: ["error": ["message": "slow down"]], headers: ["Retry-After": "7"]),
            Fixtures.ok(),
        ])
        let sleeper = RecordingSleeper()
        let result = try stage(Fixtures.config([Fixtures.provider("a", server.baseURL(s))]), sleeper: sleeper)
            .structure(Fixtures.request())
        #expect(sleeper.recorded == [7])
        #expect(result.requests == 2)
        #expect(try server.log(s).count == 2)
    }

    @Test func serverErrorsBackOffExponentiallyWithJitter() throws {
        let s = FaultServer.scenario("500")
        let boom = Fixtures.step(status: 500, body: "internal error")
        try server.script(s, [boom, boom, Fixtures.ok()])
        let sleeper = RecordingSleeper()
        let result = try stage(Fixtures.config([Fixtures.provider("a", server.baseURL(s))]), sleeper: sleeper)
            .structure(Fixtures.request())
        // base 1 s, doubling, times (0.5 + 0.5 × jitter 0.5)
        #expect(sleeper.recorded == [0.75, 1.5])
        #expect(result.provider == "a")
        #expect(try server.log(s).count == 3)
    }

    @Test func attemptsAreBoundedAndTheDocumentFailsWithItsReason() throws {
        let s = FaultServer.scenario("500-forever")
        try server.script(s, [Fixtures.step(status: 503, body: "unavailable")])
        let stage = stage(Fixtures.config([Fixtures.provider("a", server.baseURL(s))], attempts: 3))
        let error = try #require(throws: LLMError.self) { try stage.structure(Fixtures.request("doc-500")) }
        #expect(error.code == .allProvidersFailed)
        #expect(error.document == "doc-500")
        #expect(error.causes.map(\.code) == [.serverError])
        #expect(error.description.contains("HTTP 503"))
        #expect(try server.log(s).count == 3)
        #expect(stage.costReport.documents.map(\.outcome) == ["all-providers-failed"])
    }

    @Test func slowResponsePastTheTimeoutIsATimeout() throws {
        let s = FaultServer.scenario("slow")
        try server.script(s, [Fixtures.step(body: Fixtures.chat(Fixtures.recipeAnswer.serialized()), delay: 3)])
        let started = Date()
        let stage = stage(Fixtures.config([Fixtures.provider("a", server.baseURL(s), timeout: 0.5)], attempts: 2))
        let error = try #require(throws: LLMError.self) { try stage.structure(Fixtures.request()) }
        #expect(error.causes.first?.code == .timeout)
        #expect(error.description.contains("timeout_seconds"))
        #expect(Date().timeIntervalSince(started) < 2.5)  // two 0.5 s attempts, no real sleeping
        #expect(try server.log(s).count == 2)
    }

    @Test func garbageBodyIsMalformedAndFallsToTheNextProvider() throws {
        let a = FaultServer.scenario("garbage")
        let b = FaultServer.scenario("garbage-b")
        try server.script(a, [Fixtures.step(body: "<html>502 bad gateway</html>")])
        try server.script(b, [Fixtures.ok()])
        let log = LogCapture()
        let result = try stage(
            Fixtures.config([Fixtures.provider("a", server.baseURL(a)), Fixtures.provider("b", server.baseURL(b))]), log: log
        ).structure(Fixtures.request())
        #expect(result.provider == "b")
        #expect(try server.log(a).count == 1)  // malformed bodies are not retried on the same provider
        #expect(log.all.contains { $0.contains("malformed") || $0.contains("not a JSON object") })
    }

    @Test func truncatedAnswerIsAnErrorNotData() throws {
        let s = FaultServer.scenario("truncated")
        let cut = String(Fixtures.recipeAnswer.serialized().prefix(60))
        try server.script(s, [Fixtures.step(body: Fixtures.chat(cut, finish: "length"))])
        let stage = stage(Fixtures.config([Fixtures.provider("a", server.baseURL(s))]))
        let error = try #require(throws: LLMError.self) { try stage.structure(Fixtures.request()) }
        #expect(error.causes.map(\.code) == [.truncated])
        #expect(error.description.contains("max_tokens"))
        #expect(try server.log(s).count == 1)
        // The tokens of the truncated answer were still spent and are reported.
        #expect(stage.costReport.usage.total == 150)
    }

    @Test func schemaInvalidAnswerIsReaskedWithTheErrors() throws {
        let s = FaultServer.scenario("reask")
        try server.script(s, [
            Fixtures.step(body: Fixtures.chat(#"{"title": "Lemon Pancakes", "ingredients": "flour"}"#)),
            Fixtures.ok(),
        ])
        let result = try stage(Fixtures.config([Fixtures.provider("a", server.baseURL(s))])).structure(Fixtures.request())
        #expect(result.reasks == 1)
        #expect(result.usage.total == 300)
        let requests = try server.log(s)
        #expect(requests.count == 2)
        let second = try JSONValue(parsing: try #require(requests[1]["body"]?.stringValue))
        let messages = try #require(second["messages"]?.arrayValue)
        #expect(messages.count == 4)  // system, user, assistant (the invalid answer), user (the errors)
        #expect(messages[3]["content"]?.stringValue?.contains("not valid") == true)
        #expect(messages[3]["content"]?.stringValue?.contains("/ingredients") == true)
    }

    @Test func reasksAreBounded() throws {
        let s = FaultServer.scenario("invalid-forever")
        try server.script(s, [Fixtures.step(body: Fixtures.chat("not json at all"))])
        let stage = stage(Fixtures.config([Fixtures.provider("a", server.baseURL(s))], maxReasks: 2))
        let error = try #require(throws: LLMError.self) { try stage.structure(Fixtures.request()) }
        #expect(error.code == .schemaInvalid)
        #expect(try server.log(s).count == 3)
    }

    @Test func fallsBackToTheNextProviderWithProvenance() throws {
        let a = FaultServer.scenario("down")
        let b = FaultServer.scenario("up")
        try server.script(a, [Fixtures.step(status: 500, body: "down")])
        try server.script(b, [Fixtures.ok()])
        let deterministic: JSONValue = ["title": "Lemon Pancakes (parsed)", "ingredients": [], "steps": []]
        var config = Fixtures.config([Fixtures.provider("a", server.baseURL(a)), Fixtures.provider("b", server.baseURL(b))], attempts: 2)
        config.mode = .fallback
        let result = try stage(config).structure(Fixtures.request(deterministic: deterministic))
        #expect(result.provider == "b")
        #expect(try server.log(a).count == 2)
        #expect(try server.log(b).count == 1)
        // Field by field: the parser's title wins in fallback mode; the LLM fills the empty arrays.
        #expect(result.output["title"] == "Lemon Pancakes (parsed)")
        #expect(result.provenance["title"] == .deterministic)
        #expect(result.provenance["ingredients"] == .llm(provider: "b", model: "fault-model"))
        #expect(try PromptLibrary.recipe.validator.isValid(result.output))
    }

    @Test func missingKeyNamesTheVariableAndFallsThrough() throws {
        let b = FaultServer.scenario("after-missing-key")
        try server.script(b, [Fixtures.ok()])
        let stage = stage(Fixtures.config([
            Fixtures.provider("paid", "http://127.0.0.1:1/never", keyEnv: "LARDER_TEST_UNSET_KEY"),
            Fixtures.provider("local", server.baseURL(b)),
        ]))
        let result = try stage.structure(Fixtures.request())
        #expect(result.provider == "local")
        let alone = self.stage(Fixtures.config([Fixtures.provider("paid", "http://127.0.0.1:1/never", keyEnv: "LARDER_TEST_UNSET_KEY")]))
        let error = try #require(throws: LLMError.self) { try alone.structure(Fixtures.request()) }
        #expect(error.causes.first?.code == .missingAPIKey)
        #expect(error.description.contains("LARDER_TEST_UNSET_KEY"))
    }

    @Test func unauthorizedIsNotRetriedAndNamesTheVariable() throws {
        let s = FaultServer.scenario("401")
        try server.script(s, [Fixtures.step(status: 401, body: ["error": ["message": "invalid api key"]])])
        let stage = stage(
            Fixtures.config([Fixtures.provider("a", server.baseURL(s), keyEnv: "LARDER_FAKE_KEY")]),
            environment: { $0 == "LARDER_FAKE_KEY" ? "fake-key-for-401-test" : nil })
        let error = try #require(throws: LLMError.self) { try stage.structure(Fixtures.request()) }
        #expect(error.causes.first?.code == .unauthorized)
        #expect(error.description.contains("LARDER_FAKE_KEY"))
        #expect(try server.log(s).count == 1)
    }

    @Test func contextTooLongIsRecognised() throws {
        let s = FaultServer.scenario("ctx")
        try server.script(s, [
            Fixtures.step(status: 400, body: ["error": ["message": "This model's maximum context length is 4096 tokens", "code": "context_length_exceeded"]])
        ])
        let stage = stage(Fixtures.config([Fixtures.provider("a", server.baseURL(s))]))
        let error = try #require(throws: LLMError.self) { try stage.structure(Fixtures.request()) }
        #expect(error.causes.first?.code == .contextTooLong)
        #expect(error.description.contains("split the document"))
    }

    @Test func retryAfterLongerThanTheLimitMovesOn() throws {
        let a = FaultServer.scenario("429-long")
        let b = FaultServer.scenario("429-long-b")
        try server.script(a, [Fixtures.step(status: 429, body: "quota", headers: ["Retry-After": "3600"])])
        try server.script(b, [Fixtures.ok()])
        let sleeper = RecordingSleeper()
        let result = try stage(
            Fixtures.config([Fixtures.provider("a", server.baseURL(a)), Fixtures.provider("b", server.baseURL(b))]), sleeper: sleeper
        ).structure(Fixtures.request())
        #expect(result.provider == "b")
        #expect(sleeper.recorded.isEmpty)
    }

    @Test func budgetStopsSpendingCleanly() throws {
        let s = FaultServer.scenario("budget")
        try server.script(s, [Fixtures.ok()])
        let stage = stage(Fixtures.config([Fixtures.provider("a", server.baseURL(s))], budget: 100))
        _ = try stage.structure(Fixtures.request("doc-1"))  // spends 150 tokens, passing the budget
        let error = try #require(throws: LLMError.self) { try stage.structure(Fixtures.request("doc-2")) }
        #expect(error.code == .budgetExhausted)
        #expect(error.description.contains("budget reached"))
        #expect(try server.log(s).count == 1)  // doc-2 sent nothing
        let report = stage.costReport
        #expect(report.budgetReached)
        #expect(report.documents.map(\.outcome) == ["structured", "budget-exhausted"])
        #expect(report.usage == TokenUsage(input: 100, output: 50))
        #expect(abs(report.cost - (100 * 0.000001 + 50 * 0.000002)) < 1e-12)
        #expect(report.summary.contains("budget reached"))
    }

    @Test func sqliteCacheMakesAReRunFree() throws {
        let s = FaultServer.scenario("cache")
        try server.script(s, [Fixtures.ok()])
        let dir = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("llm-cache.sqlite").path
        let config = Fixtures.config([Fixtures.provider("a", server.baseURL(s))])
        let first = try stage(config, cache: try SQLiteLLMCache(path: path)).structure(Fixtures.request())
        #expect(!first.cached && first.requests == 1)
        let rerun = stage(config, cache: try SQLiteLLMCache(path: path))
        let second = try rerun.structure(Fixtures.request())
        #expect(second.cached && second.requests == 0 && second.usage.total == 0)
        #expect(second.output == first.output)
        #expect(rerun.costReport.cost == 0)
        #expect(try server.log(s).count == 1)
        // A different prompt version, model or input misses.
        var other = try Fixtures.request()
        other.lines = KeyedLines(Fixtures.recipeLines.lines + ["Serve warm."])
        _ = try rerun.structure(other)
        #expect(try server.log(s).count == 2)
    }

    @Test func ungroundedItemsAreRejectedNeverInvented() throws {
        let s = FaultServer.scenario("grounding")
        var answer = Fixtures.recipeAnswer.objectValue!
        var ingredients = answer["ingredients"]!.arrayValue!
        ingredients.append(["line": "L99", "text": "1 cup cream", "quantity": 1, "unit": "cup", "name": "cream"])
        ingredients.append(["line": "L5", "text": "2 cups flour", "quantity": 3, "unit": "g", "name": "saffron threads"])
        answer["ingredients"] = .array(ingredients)
        try server.script(s, [Fixtures.ok(.object(answer))])
        let result = try stage(Fixtures.config([Fixtures.provider("a", server.baseURL(s))])).structure(Fixtures.request())
        #expect(result.rejected.map(\.path) == ["/ingredients/4", "/ingredients/5"])
        #expect(result.rejected[0].reason.contains("not a line of the input"))
        #expect(result.output["ingredients"]?.arrayValue?.count == 4)
        #expect(try PromptLibrary.recipe.validator.isValid(result.output))
        // The model was asked again about the ungrounded items (twice, the limit), then they were dropped.
        let requests = try server.log(s)
        #expect(requests.count == 3 && result.reasks == 2)
        let reask = try JSONValue(parsing: try #require(requests[1]["body"]?.stringValue))["messages"]?[3]?["content"]?.stringValue
        #expect(reask?.contains("L5 is \"2 cups flour\"") == true)
    }

    @Test func groundingReaskCanFixCitations() throws {
        let s = FaultServer.scenario("grounding-fixed")
        var answer = Fixtures.recipeAnswer.objectValue!
        var ingredients = answer["ingredients"]!.arrayValue!
        ingredients[0] = ["line": "L4", "text": "2 cups flour", "quantity": 2, "unit": "cups", "name": "flour"]  // off by one
        answer["ingredients"] = .array(ingredients)
        try server.script(s, [Fixtures.ok(.object(answer)), Fixtures.ok()])
        let result = try stage(Fixtures.config([Fixtures.provider("a", server.baseURL(s))])).structure(Fixtures.request())
        #expect(result.rejected.isEmpty && result.reasks == 1)
        #expect(result.output["ingredients"]?.arrayValue?.count == 4)
        #expect(try server.log(s).count == 2)
    }

    @Test func codeFencesAreStripped() throws {
        let s = FaultServer.scenario("fences")
        try server.script(s, [Fixtures.step(body: Fixtures.chat("Here you go:\n```json\n\(Fixtures.recipeAnswer.serialized(options: [.prettyPrinted]))\n```\n"))])
        let result = try stage(Fixtures.config([Fixtures.provider("a", server.baseURL(s))])).structure(Fixtures.request())
        #expect(result.reasks == 0)
        #expect(result.output["title"] == "Lemon Pancakes")
    }

    @Test func concurrencyLimitHoldsRequestsBack() async throws {
        let s = FaultServer.scenario("concurrency")
        try server.script(s, [Fixtures.step(body: Fixtures.chat(Fixtures.recipeAnswer.serialized()), delay: 0.4)])
        var provider = Fixtures.provider("a", server.baseURL(s))
        provider.concurrency = 1
        let stage = stage(Fixtures.config([provider]))
        let started = Date()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<3 {
                group.addTask {
                    var request = try Fixtures.request("doc-\(i)")
                    request.lines = KeyedLines(Fixtures.recipeLines.lines + ["# \(i)"])
                    _ = try await stage.structureAsync(request)
                }
            }
            try await group.waitForAll()
        }
        // One at a time: three 0.4 s answers take at least 1.2 s.
        #expect(Date().timeIntervalSince(started) >= 1.15)
        #expect(stage.costReport.documents.count == 3)
    }
}
