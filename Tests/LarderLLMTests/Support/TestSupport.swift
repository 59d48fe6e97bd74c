import Foundation
import LarderCore
import LarderJSON
import LarderTestSupport
import Testing

@testable import LarderLLM

/// Scripting the fault server (LarderTestSupport's `FaultServer`) and reading its log, through LarderLLM's client.
extension FaultServer {
    /// Scripts the scenario's answers.
    func script(_ scenario: String, _ steps: [JSONValue]) throws {
        let response = try HTTPClient().perform(
            HTTPRequest(url: scriptURL(scenario), body: JSONValue.array(steps).serializedData(), timeoutSeconds: 5))
        #expect(response.status == 200)
    }

    /// The requests the scenario received.
    func log(_ scenario: String) throws -> [JSONValue] {
        let response = try HTTPClient().perform(
            HTTPRequest(method: "GET", url: logURL(scenario), timeoutSeconds: 5))
        return try JSONValue(parsing: response.body).arrayValue ?? []
    }
}

/// Records retry delays instead of sleeping.
final class RecordingSleeper: RetrySleeper {
    private let delays = Locked<[Double]>([])
    func sleep(seconds: Double) { delays.withLock { $0.append(seconds) } }
    var recorded: [Double] { delays.withLock { $0 } }
}

/// Collects log lines.
final class LogCapture: Sendable {
    private let lines = Locked<[String]>([])
    var handler: LLMLogHandler { { line in self.lines.withLock { $0.append(line) } } }
    var all: [String] { lines.withLock { $0 } }
}

enum Fixtures {
    static let recipeLines = KeyedLines(text: """
        Lemon Pancakes
        Serves 4

        Ingredients
        2 cups flour
        1 tbsp sugar
        2 eggs
        1 1/2 cups milk
        Method
        Whisk the flour and sugar in a bowl.
        Beat in the eggs and milk until smooth.
        Fry ladlefuls in a hot pan until golden.
        """)

    /// A schema-valid, grounded answer for ``recipeLines``.
    static let recipeAnswer: JSONValue = [
        "title": "Lemon Pancakes",
        "ingredients": [
            ["line": "L5", "text": "2 cups flour", "quantity": 2, "unit": "cups", "name": "flour"],
            ["line": "L6", "text": "1 tbsp sugar", "quantity": 1, "unit": "tbsp", "name": "sugar"],
            ["line": "L7", "text": "2 eggs", "quantity": 2, "unit": nil, "name": "eggs"],
            ["line": "L8", "text": "1 1/2 cups milk", "quantity": 1.5, "unit": "cups", "name": "milk"],
        ],
        "steps": [
            ["lines": ["L10"], "text": "Whisk the flour and sugar in a bowl."],
            ["lines": ["L11"], "text": "Beat in the eggs and milk until smooth."],
            ["lines": ["L12"], "text": "Fry ladlefuls in a hot pan until golden."],
        ],
    ]

    /// An OpenAI-style chat completion body.
    static func chat(_ content: String, finish: String = "stop", model: String = "fault-model", input: Int = 100, output: Int = 50) -> JSONValue {
        [
            "id": "chatcmpl-1", "object": "chat.completion", "model": .string(model),
            "choices": [["index": 0, "message": ["role": "assistant", "content": .string(content)], "finish_reason": .string(finish)]],
            "usage": ["prompt_tokens": .int(input), "completion_tokens": .int(output), "total_tokens": .int(input + output)],
        ]
    }

    static func step(status: Int = 200, body: JSONValue, headers: JSONValue = [:], delay: Double = 0) -> JSONValue {
        ["status": .int(status), "body": body, "headers": headers, "delay": .double(delay)]
    }

    static func ok(_ answer: JSONValue = recipeAnswer) -> JSONValue { step(body: chat(answer.serialized())) }

    static func provider(_ name: String, _ baseURL: String, keyEnv: String? = nil, timeout: Double = 10, kind: ProviderKind = .openAICompatible)
        -> ProviderConfig
    {
        ProviderConfig(
            name: name, kind: kind, baseURL: baseURL, model: "\(name)-model", apiKeyEnv: keyEnv, timeoutSeconds: timeout, maxTokens: 512,
            pricePerInputToken: 0.000001, pricePerOutputToken: 0.000002, concurrency: 2)
    }

    static func config(_ providers: [ProviderConfig], attempts: Int = 3, maxReasks: Int = 2, budget: Int? = nil) -> LLMConfig {
        LLMConfig(
            mode: .always, providers: providers, maxReasks: maxReasks, batchTokenBudget: budget,
            retry: RetryPolicy(attemptsPerProvider: attempts, baseDelaySeconds: 1, maxDelaySeconds: 8, maxRetryAfterSeconds: 30))
    }

    static func request(_ id: String = "doc-1", lines: KeyedLines = recipeLines, deterministic: JSONValue? = nil) throws -> StructuringRequest {
        StructuringRequest(documentID: id, prompt: try PromptLibrary.recipe, lines: lines, deterministic: deterministic)
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("larder-llm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
