import Foundation
import LarderCore
import LarderJSON

/// Anthropic Messages (`POST {baseURL}/v1/messages`), with one tool whose `input_schema` is the target schema
/// and `tool_choice` forcing that tool; the tool call's `input` is the answer.
///
/// Headers: `x-api-key`, `anthropic-version: 2023-06-01`. `stop_reason` `tool_use` / `end_turn` /
/// `stop_sequence` is complete; `max_tokens` is truncated; `refusal` is refused.
public struct AnthropicProvider: Provider {
    public let config: ProviderConfig
    /// The `anthropic-version` header sent.
    public static let apiVersion = "2023-06-01"

    /// Makes the provider for a chain entry.
    public init(config: ProviderConfig) { self.config = config }

    /// The name of the tool that carries the structured answer.
    public static func toolName(for call: ModelCall) -> String { "record_\(call.schemaName)" }

    public func makeRequest(_ call: ModelCall, apiKey: String?) throws -> HTTPRequest {
        let tool = Self.toolName(for: call)
        let body: JSONValue = [
            "model": .string(config.model),
            "max_tokens": .int(config.maxTokens),
            "system": .string(call.system),
            "messages": .array(call.messages.map { ["role": .string($0.role.rawValue), "content": .string($0.text)] }),
            "tools": [
                [
                    "name": .string(tool),
                    "description": "Record the structured result. Its input must follow the schema exactly.",
                    "input_schema": call.schema,
                ]
            ],
            "tool_choice": ["type": "tool", "name": .string(tool)],
            "temperature": 0,
        ]
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "application/json"), ("anthropic-version", Self.apiVersion),
        ]
        if let apiKey { headers.append(("x-api-key", apiKey)) }
        return HTTPRequest(
            url: endpoint("v1/messages"), headers: headers, body: body.serializedData(),
            timeoutSeconds: config.timeoutSeconds)
    }

    public func parseResponse(_ response: HTTPResponse) throws -> ModelReply {
        let root = try parseObject(response)
        guard let content = root["content"]?.arrayValue else { throw malformed("content", response) }
        let raw = root["stop_reason"]?.stringValue ?? ""
        let finish: FinishReason =
            switch raw {
            case "tool_use", "end_turn", "stop_sequence": .stop
            case "max_tokens": .length
            case "refusal": .refused
            default: .other(raw.isEmpty ? "missing" : raw)
            }
        let text: String
        if let toolUse = content.first(where: { $0["type"]?.stringValue == "tool_use" }), let input = toolUse["input"] {
            text = input.serialized()
        } else if finish == .length || finish == .refused {
            // A truncated or refused answer may carry no tool call; the chain reports it by its finish reason.
            text = content.compactMap { $0["text"]?.stringValue }.joined()
        } else if let texts = Optional(content.compactMap { $0["text"]?.stringValue }), !texts.isEmpty {
            text = texts.joined()  // the model answered in text instead of calling the tool
        } else {
            throw malformed("tool_use block", response)
        }
        let usage = TokenUsage(
            input: root["usage"]?["input_tokens"]?.intValue ?? 0, output: root["usage"]?["output_tokens"]?.intValue ?? 0)
        return ModelReply(
            text: text, finishReason: finish, rawFinishReason: raw, usage: usage,
            model: root["model"]?.stringValue ?? config.model)
    }
}
