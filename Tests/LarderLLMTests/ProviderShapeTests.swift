import Foundation
import LarderCore
import LarderJSON
import Testing

@testable import LarderLLM

/// Request and response shapes of the three provider kinds.
///
/// The response bodies below follow the examples in the providers' public API documentation (Anthropic
/// Messages "tool use" responses; Gemini `generateContent` responses with `usageMetadata`; OpenAI chat
/// completions). They were written from the documented shapes (field names, nesting, stop/finish reason
/// values), not captured from live traffic: no network is reachable from this machine. Ids and texts are
/// shortened.
@Suite("Provider request/response shapes")
struct ProviderShapeTests {
    let call = ModelCall(
        system: "Turn the recipe into JSON.", messages: [ChatMessage(.user, "L1\tPancakes")],
        schema: ["type": "object", "properties": ["title": ["type": "string"]], "required": ["title"]], schemaName: "llm_recipe")

    func body(_ request: HTTPRequest) throws -> JSONValue { try JSONValue(parsing: request.body) }
    func header(_ request: HTTPRequest, _ name: String) -> String? {
        request.headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    // MARK: Anthropic Messages

    static let anthropicToolUse = """
        {
          "id": "msg_01Aq9w938a90dw8q",
          "type": "message",
          "role": "assistant",
          "model": "claude-3-5-sonnet-20241022",
          "content": [
            {
              "type": "tool_use",
              "id": "toolu_01A09q90qw90lq917835lq9",
              "name": "record_llm_recipe",
              "input": {"title": "Pancakes"}
            }
          ],
          "stop_reason": "tool_use",
          "stop_sequence": null,
          "usage": {"input_tokens": 472, "output_tokens": 89}
        }
        """

    static let anthropicMaxTokens = """
        {
          "id": "msg_02", "type": "message", "role": "assistant", "model": "claude-3-5-sonnet-20241022",
          "content": [{"type": "text", "text": "{\\"title\\": \\"Panc"}],
          "stop_reason": "max_tokens", "stop_sequence": null,
          "usage": {"input_tokens": 472, "output_tokens": 16}
        }
        """

    static let anthropicError = """
        {"type": "error", "error": {"type": "rate_limit_error", "message": "Number of request tokens has exceeded your per-minute rate limit"}}
        """

    @Test func anthropicRequestShape() throws {
        let provider = AnthropicProvider(
            config: ProviderConfig(name: "claude", kind: .anthropic, baseURL: "https://api.anthropic.com/", model: "claude-3-5-sonnet-20241022", apiKeyEnv: "ANTHROPIC_API_KEY", maxTokens: 1024))
        let request = try provider.makeRequest(call, apiKey: "sk-ant-test")
        #expect(request.url == "https://api.anthropic.com/v1/messages")
        #expect(header(request, "x-api-key") == "sk-ant-test")
        #expect(header(request, "anthropic-version") == "2023-06-01")
        #expect(header(request, "authorization") == nil)
        let json = try body(request)
        #expect(json["model"] == "claude-3-5-sonnet-20241022")
        #expect(json["max_tokens"] == 1024)
        #expect(json["system"] == "Turn the recipe into JSON.")
        #expect(json["messages"] == [["role": "user", "content": "L1\tPancakes"]])
        #expect(json["tools"]?[0]?["name"] == "record_llm_recipe")
        #expect(json["tools"]?[0]?["input_schema"] == call.schema)
        #expect(json["tool_choice"] == ["type": "tool", "name": "record_llm_recipe"])
    }

    @Test func anthropicResponses() throws {
        let provider = AnthropicProvider(config: ProviderConfig(name: "claude", kind: .anthropic, baseURL: "https://api.anthropic.com", model: "m"))
        let reply = try provider.parseResponse(HTTPResponse(status: 200, body: Data(Self.anthropicToolUse.utf8)))
        #expect(try JSONValue(parsing: reply.text) == ["title": "Pancakes"])
        #expect(reply.finishReason == .stop)
        #expect(reply.rawFinishReason == "tool_use")
        #expect(reply.usage == TokenUsage(input: 472, output: 89))
        #expect(reply.model == "claude-3-5-sonnet-20241022")

        let cut = try provider.parseResponse(HTTPResponse(status: 200, body: Data(Self.anthropicMaxTokens.utf8)))
        #expect(cut.finishReason == .length)

        let limited = provider.classifyFailure(HTTPResponse(status: 429, headers: ["retry-after": "12"], body: Data(Self.anthropicError.utf8)))
        #expect(limited.code == .rateLimited && limited.retryAfter == 12)
        let overloaded = provider.classifyFailure(
            HTTPResponse(status: 529, body: Data(#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#.utf8)))
        #expect(overloaded.code == .serverError)
        let tooLong = provider.classifyFailure(
            HTTPResponse(status: 400, body: Data(#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}"#.utf8)))
        #expect(tooLong.code == .contextTooLong)
    }

    // MARK: Gemini generateContent

    static let geminiResponse = """
        {
          "candidates": [
            {
              "content": {"parts": [{"text": "{\\"title\\": \\"Pancakes\\"}"}], "role": "model"},
              "finishReason": "STOP",
              "index": 0,
              "safetyRatings": [
                {"category": "HARM_CATEGORY_SEXUALLY_EXPLICIT", "probability": "NEGLIGIBLE"},
                {"category": "HARM_CATEGORY_HATE_SPEECH", "probability": "NEGLIGIBLE"}
              ]
            }
          ],
          "usageMetadata": {"promptTokenCount": 37, "candidatesTokenCount": 12, "totalTokenCount": 49},
          "modelVersion": "gemini-2.0-flash"
        }
        """

    static let geminiMaxTokens = """
        {
          "candidates": [{"content": {"parts": [{"text": "{\\"title\\": \\"Pan"}], "role": "model"}, "finishReason": "MAX_TOKENS", "index": 0}],
          "usageMetadata": {"promptTokenCount": 37, "candidatesTokenCount": 8, "totalTokenCount": 45},
          "modelVersion": "gemini-2.0-flash"
        }
        """

    static let geminiBlocked = """
        {"promptFeedback": {"blockReason": "SAFETY", "safetyRatings": []}, "usageMetadata": {"promptTokenCount": 8, "totalTokenCount": 8}}
        """

    static let geminiError = """
        {"error": {"code": 429, "message": "Resource has been exhausted (e.g. check quota).", "status": "RESOURCE_EXHAUSTED"}}
        """

    @Test func geminiRequestShape() throws {
        let provider = GeminiProvider(
            config: ProviderConfig(name: "gemini", kind: .gemini, baseURL: "https://generativelanguage.googleapis.com", model: "gemini-2.0-flash", apiKeyEnv: "GEMINI_API_KEY", maxTokens: 2048))
        let request = try provider.makeRequest(call, apiKey: "AIza-test-key")
        #expect(request.url == "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent")
        #expect(!request.url.contains("key="))  // the key travels in a header, never in the URL
        #expect(header(request, "x-goog-api-key") == "AIza-test-key")
        let json = try body(request)
        #expect(json["systemInstruction"] == ["parts": [["text": "Turn the recipe into JSON."]]])
        #expect(json["contents"] == [["role": "user", "parts": [["text": "L1\tPancakes"]]]])
        #expect(json["generationConfig"]?["responseMimeType"] == "application/json")
        #expect(json["generationConfig"]?["responseJsonSchema"] == call.schema)
        #expect(json["generationConfig"]?["maxOutputTokens"] == 2048)

        let reask = ModelCall(system: "s", messages: [ChatMessage(.user, "a"), ChatMessage(.assistant, "b"), ChatMessage(.user, "c")], schema: [:], schemaName: "x")
        #expect(try body(provider.makeRequest(reask, apiKey: nil))["contents"]?.arrayValue?.map { $0["role"] } == ["user", "model", "user"])
    }

    @Test func geminiResponses() throws {
        let provider = GeminiProvider(config: ProviderConfig(name: "gemini", kind: .gemini, baseURL: "https://x", model: "m"))
        let reply = try provider.parseResponse(HTTPResponse(status: 200, body: Data(Self.geminiResponse.utf8)))
        #expect(try JSONValue(parsing: reply.text) == ["title": "Pancakes"])
        #expect(reply.finishReason == .stop)
        #expect(reply.usage == TokenUsage(input: 37, output: 12))
        #expect(reply.model == "gemini-2.0-flash")
        #expect(try provider.parseResponse(HTTPResponse(status: 200, body: Data(Self.geminiMaxTokens.utf8))).finishReason == .length)
        let blocked = try #require(throws: LLMError.self) {
            try provider.parseResponse(HTTPResponse(status: 200, body: Data(Self.geminiBlocked.utf8)))
        }
        #expect(blocked.code == .refused)
        #expect(provider.classifyFailure(HTTPResponse(status: 429, body: Data(Self.geminiError.utf8))).code == .rateLimited)
        let denied = provider.classifyFailure(
            HTTPResponse(status: 403, body: Data(#"{"error":{"code":403,"message":"Method doesn't allow unregistered callers.","status":"PERMISSION_DENIED"}}"#.utf8)))
        #expect(denied.code == .unauthorized)
    }

    // MARK: OpenAI-compatible

    @Test func openAIRequestAndResponseShape() throws {
        let provider = OpenAICompatibleProvider(
            config: ProviderConfig(name: "openai", kind: .openAICompatible, baseURL: "https://api.openai.com/v1/", model: "gpt-4o-mini", apiKeyEnv: "OPENAI_API_KEY", maxTokens: 300))
        let request = try provider.makeRequest(call, apiKey: "sk-test-123456")
        #expect(request.url == "https://api.openai.com/v1/chat/completions")
        #expect(header(request, "authorization") == "Bearer sk-test-123456")
        let json = try body(request)
        #expect(json["max_tokens"] == 300)
        #expect(json["messages"]?[0] == ["role": "system", "content": "Turn the recipe into JSON."])
        #expect(json["response_format"] == ["type": "json_schema", "json_schema": ["name": "llm_recipe", "schema": call.schema, "strict": true]])

        let reply = try provider.parseResponse(HTTPResponse(status: 200, body: Fixtures.chat(#"{"title":"Pancakes"}"#).serializedData()))
        #expect(reply.finishReason == .stop && reply.usage == TokenUsage(input: 100, output: 50))
        let refusal: JSONValue = ["choices": [["message": ["role": "assistant", "content": nil, "refusal": "I can't help with that."], "finish_reason": "stop"]]]
        #expect(throws: LLMError.self) { try provider.parseResponse(HTTPResponse(status: 200, body: refusal.serializedData())) }
        #expect(throws: LLMError.self) { try provider.parseResponse(HTTPResponse(status: 200, body: Data("{}".utf8))) }
    }

    @Test func retryAfterAsHTTPDate() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT
        let response = HTTPResponse(status: 429, headers: ["retry-after": "Tue, 14 Nov 2023 22:13:50 GMT"], body: Data())
        #expect(response.retryAfter(now: now) == 30)
        #expect(HTTPResponse(status: 429, headers: ["retry-after": "5"], body: Data()).retryAfter() == 5)
        #expect(HTTPResponse(status: 429, headers: ["retry-after": "soon"], body: Data()).retryAfter() == nil)
    }
}
