import Foundation
import LarderCore
import LarderJSON

/// OpenAI-compatible chat completions (`POST {baseURL}/chat/completions`) with
/// `response_format: {type: "json_schema", json_schema: {name, schema, strict: true}}`.
///
/// Works with OpenAI, Ollama, llama.cpp's `llama-server`, vLLM, LM Studio and OpenRouter. The key, if any,
/// goes in `Authorization: Bearer …`. `finish_reason` `stop` is a complete answer; `length` is truncated.
public struct OpenAICompatibleProvider: Provider {
    public let config: ProviderConfig

    /// Makes the provider for a chain entry.
    public init(config: ProviderConfig) { self.config = config }

    public func makeRequest(_ call: ModelCall, apiKey: String?) throws -> HTTPRequest {
        var messages: [JSONValue] = [["role": "system", "content": .string(call.system)]]
        messages += call.messages.map { ["role": .string($0.role.rawValue), "content": .string($0.text)] }
        let body: JSONValue = [
            "model": .string(config.model),
            "messages": .array(messages),
            "max_tokens": .int(config.maxTokens),
            "temperature": 0,
            "stream": false,
            "response_format": [
                "type": "json_schema",
                "json_schema": ["name": .string(call.schemaName), "schema": call.schema, "strict": true],
            ],
        ]
        var headers: [(name: String, value: String)] = [("Content-Type", "application/json"), ("Accept", "application/json")]
        if let apiKey { headers.append(("Authorization", "Bearer \(apiKey)")) }
        return HTTPRequest(
            url: endpoint("chat/completions"), headers: headers, body: body.serializedData(),
            timeoutSeconds: config.timeoutSeconds)
    }

    public func parseResponse(_ response: HTTPResponse) throws -> ModelReply {
        let root = try parseObject(response)
        guard let choice = root["choices"]?[0] else { throw malformed("choices[0]", response) }
        let raw = choice["finish_reason"]?.stringValue ?? ""
        let message = choice["message"]
        let text: String
        if let content = message?["content"]?.stringValue {
            text = content
        } else if let refusal = message?["refusal"]?.stringValue {
            throw LLMError(.refused, "the model refused: \(refusal)", provider: config.name, status: response.status)
        } else {
            throw malformed("choices[0].message.content", response)
        }
        let usage = TokenUsage(
            input: root["usage"]?["prompt_tokens"]?.intValue ?? 0,
            output: root["usage"]?["completion_tokens"]?.intValue ?? 0)
        let finish: FinishReason =
            switch raw {
            case "stop": .stop
            case "length": .length
            case "content_filter": .refused
            default: .other(raw.isEmpty ? "missing" : raw)
            }
        return ModelReply(
            text: text, finishReason: finish, rawFinishReason: raw, usage: usage,
            model: root["model"]?.stringValue ?? config.model)
    }
}
