import Foundation
import LarderCore
import LarderJSON

/// Gemini `generateContent` (`POST {baseURL}/v1beta/models/{model}:generateContent`) with
/// `generationConfig.responseMimeType: application/json` and `responseJsonSchema` set to the target schema.
///
/// The key goes in the `x-goog-api-key` header (never in the URL, so it cannot leak through URLs in logs).
/// `finishReason` `STOP` is complete; `MAX_TOKENS` is truncated; `SAFETY`, `RECITATION`, `BLOCKLIST`,
/// `PROHIBITED_CONTENT`, `SPII` are refused.
public struct GeminiProvider: Provider {
    public let config: ProviderConfig

    /// Makes the provider for a chain entry.
    public init(config: ProviderConfig) { self.config = config }

    public func makeRequest(_ call: ModelCall, apiKey: String?) throws -> HTTPRequest {
        let contents: [JSONValue] = call.messages.map {
            ["role": .string($0.role == .user ? "user" : "model"), "parts": [["text": .string($0.text)]]]
        }
        let body: JSONValue = [
            "systemInstruction": ["parts": [["text": .string(call.system)]]],
            "contents": .array(contents),
            "generationConfig": [
                "responseMimeType": "application/json",
                "responseJsonSchema": call.schema,
                "maxOutputTokens": .int(config.maxTokens),
                "temperature": 0,
            ],
        ]
        var headers: [(name: String, value: String)] = [("Content-Type", "application/json")]
        if let apiKey { headers.append(("x-goog-api-key", apiKey)) }
        let model = config.model.hasPrefix("models/") ? String(config.model.dropFirst(7)) : config.model
        return HTTPRequest(
            url: endpoint("v1beta/models/\(model):generateContent"), headers: headers, body: body.serializedData(),
            timeoutSeconds: config.timeoutSeconds)
    }

    public func parseResponse(_ response: HTTPResponse) throws -> ModelReply {
        let root = try parseObject(response)
        guard let candidate = root["candidates"]?[0] else {
            if let blocked = root["promptFeedback"]?["blockReason"]?.stringValue {
                throw LLMError(.refused, "the prompt was blocked: \(blocked)", provider: config.name, status: response.status)
            }
            throw malformed("candidates[0]", response)
        }
        let raw = candidate["finishReason"]?.stringValue ?? ""
        let finish: FinishReason =
            switch raw {
            case "STOP": .stop
            case "MAX_TOKENS": .length
            case "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY": .refused
            default: .other(raw.isEmpty ? "missing" : raw)
            }
        let parts = candidate["content"]?["parts"]?.arrayValue ?? []
        let texts = parts.compactMap { part -> String? in
            part["thought"]?.boolValue == true ? nil : part["text"]?.stringValue
        }
        if texts.isEmpty && finish == .stop { throw malformed("candidates[0].content.parts[].text", response) }
        let usage = TokenUsage(
            input: root["usageMetadata"]?["promptTokenCount"]?.intValue ?? 0,
            output: (root["usageMetadata"]?["candidatesTokenCount"]?.intValue ?? 0)
                + (root["usageMetadata"]?["thoughtsTokenCount"]?.intValue ?? 0))
        return ModelReply(
            text: texts.joined(), finishReason: finish, rawFinishReason: raw, usage: usage,
            model: root["modelVersion"]?.stringValue ?? config.model)
    }
}
