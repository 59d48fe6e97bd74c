import Foundation
import LarderJSON
import Logging

/// One step of the pipeline: reads a document (and the outputs of the stages before it) and returns JSON.
///
/// The contract, in plain words:
/// - `name` is stable; it keys the checkpoint rows.
/// - `version` changes whenever the code changes what the stage outputs. A different version in the code than in
///   the database reruns this stage and every stage after it, for every document.
/// - `run` is synchronous and may block (native libraries): the work queue calls it on its own threads, never on
///   the Swift concurrency pool. It must not keep state between documents, and must be safe to call from several
///   threads at once.
/// - `run` throws ``LarderError``: `.badInput`/`.overLimit` fail the document at once (retrying cannot help),
///   anything else is retried up to `max_attempts` times, then the document is quarantined.
/// - `outputSchema` names a file in `schemas/` when the output has a schema: the work queue validates every
///   output against it. An output that breaks its schema is kept (a person can see and fix it) but the document
///   goes to review with the violations, and the output never reaches an export.
public protocol Stage: Sendable {
    var name: String { get }
    var version: String { get }
    var outputSchema: String? { get }
    /// True for a stage that reads the document's file (not only earlier outputs): the work queue checks after it
    /// ran that the file still has the registered SHA-256, so a file rewritten while the stage read it is
    /// reported as changed instead of giving a result that mixes two versions under the old hash.
    var readsDocumentFile: Bool { get }
    /// False for a stage with its own timeouts (the `llm` stage's requests): `limits.stage_seconds` does not
    /// apply to it.
    var runsUnderDeadline: Bool { get }
    func run(_ input: StageInput) throws -> StageOutput
}

extension Stage {
    public var outputSchema: String? { nil }
    public var readsDocumentFile: Bool { false }
    public var runsUnderDeadline: Bool { true }
}

/// What a stage gets: the document, the configuration, and the outputs of the stages before it.
public struct StageInput: Sendable {
    public var document: DocumentRecord
    public var config: PipelineConfig
    /// Outputs of earlier stages, by stage name, as JSON text.
    public var earlierOutputs: [String: String]
    public var logger: Logger
    /// Earlier outputs already decoded for this document: several stages read `extract`'s (the largest), and
    /// each decodes it once per document, not once per stage.
    let decoded: DecodedOutputs

    /// Makes a stage's input. The work queue passes one `decoded` per document to all of its stages.
    public init(
        document: DocumentRecord, config: PipelineConfig, earlierOutputs: [String: String], logger: Logger,
        decoded: DecodedOutputs = DecodedOutputs()
    ) {
        self.document = document
        self.config = config
        self.earlierOutputs = earlierOutputs
        self.logger = logger
        self.decoded = decoded
    }

    /// Decodes an earlier stage's output (once per document and type).
    public func output<T: Decodable & Sendable>(of stage: String, as type: T.Type) throws -> T {
        guard let text = earlierOutputs[stage] else {
            throw LarderError(.transient, "the output of stage '\(stage)' is missing", stage: stage)
        }
        return try decoded.value(stage: stage, text: text) { try JSONDecoder().decode(T.self, from: Data(text.utf8)) }
    }

    /// An earlier stage's output value as it was made in this process, with the encoder's encoding of that value
    /// (for a stage stored in another form, its own encoding, not the stored text): a later stage that puts part of
    /// it into its own output reuses those bytes (``SortedJSONReuse``). Nil when the stage ran in another process
    /// (its value is then decoded from the stored text) or its output since changed.
    public func encodedOutput<T: Sendable>(of stage: String, as type: T.Type) -> (value: T, encoding: SortedJSONEncoding)? {
        guard let text = earlierOutputs[stage] else { return nil }
        return decoded.encoding(stage: stage, text: text, as: type)
    }

    /// Decodes an earlier stage's output whose stored JSON refers to text other stages hold (the `recipe` and
    /// `receipt` stages store the document's lines once, in `extract` or `ocr`, and refer to them): `expand`
    /// turns the stored JSON back into `T`'s own encoding. A value made in this process is used as it is.
    public func output<T: Decodable & Sendable>(
        of stage: String, as type: T.Type, expanding expand: (String) throws -> String
    ) throws -> T {
        guard let text = earlierOutputs[stage] else {
            throw LarderError(.transient, "the output of stage '\(stage)' is missing", stage: stage)
        }
        return try decoded.value(stage: stage, text: text) {
            try JSONDecoder().decode(T.self, from: Data(try expand(text).utf8))
        }
    }

    /// The document's bytes, checked against its registered SHA-256 by `read` (which reads and hashes the file):
    /// once per document in this process, whichever stage asks first (`detect`); the later stages (`extract` of a
    /// text document) parse those very bytes instead of reading and hashing the file again. A stage that takes its
    /// text only from them sets ``StageOutput/readDocumentFile`` false.
    public func registeredBytes(read: (DocumentRecord) throws -> Data) throws -> Data {
        try decoded.bytes(of: document, read: read)
    }

    /// An earlier stage's output if it is there and decodes as `T`, else nil.
    public func outputIfPresent<T: Decodable & Sendable>(of stage: String, as type: T.Type) -> T? {
        guard earlierOutputs[stage] != nil else { return nil }
        return try? output(of: stage, as: type)
    }
}

/// One document's decoded stage outputs, by stage and type, shared by its stages (see ``StageInput``). An entry is
/// keyed by the JSON text too, so a stage that reran (new text) is decoded again.
public final class DecodedOutputs: Sendable {
    private struct Key: Hashable {
        let stage: String
        let type: ObjectIdentifier
    }

    private let entries = Locked<[Key: (text: String, value: any Sendable)]>([:])
    /// By stage: the output's stored text, the value made in this process and the encoder's encoding of it.
    private let encodings = Locked<[String: (text: String, value: any Sendable, encoding: SortedJSONEncoding)]>([:])

    /// The document's checked bytes (``StageInput/registeredBytes(read:)``), with the hash they were checked against.
    private let documentBytes = Locked<(sha256: String, data: Data)?>(nil)

    public init() {}

    func bytes(of document: DocumentRecord, read: (DocumentRecord) throws -> Data) throws -> Data {
        if let kept = documentBytes.withLock({ $0 }), kept.sha256 == document.sha256 { return kept.data }
        let data = try read(document)
        documentBytes.withLock { $0 = (document.sha256, data) }
        return data
    }

    /// Records a stage's output value made in this process (``StageOutput/value``), under its dynamic type, and the
    /// encoding of that value.
    func seed(stage: String, output: StageOutput) {
        guard let value = output.value else { return }
        let key = Key(stage: stage, type: ObjectIdentifier(type(of: value)))
        entries.withLock { $0[key] = (output.json, value) }
        if let encoding = output.valueEncoding { encodings.withLock { $0[stage] = (output.json, value, encoding) } }
    }

    /// The value and its encoding that ``seed(stage:output:)`` recorded for `stage`, while its stored text is `text`.
    func encoding<T>(stage: String, text: String, as type: T.Type) -> (value: T, encoding: SortedJSONEncoding)? {
        guard let entry = encodings.withLock({ $0[stage] }), entry.text == text, let value = entry.value as? T else {
            return nil
        }
        return (value, entry.encoding)
    }

    func value<T: Sendable>(stage: String, text: String, decode: () throws -> T) throws -> T {
        let key = Key(stage: stage, type: ObjectIdentifier(T.self))
        if let entry = entries.withLock({ $0[key] }), entry.text == text, let value = entry.value as? T { return value }
        let value = try decode()
        entries.withLock { $0[key] = (text, value) }
        return value
    }
}

/// A stage's result, as JSON text. Warnings worth showing the user belong inside the JSON (`warnings`).
///
/// It also keeps the value the JSON encodes, so the later stages of the same document in the same process read
/// that value instead of decoding the text again (``DecodedOutputs``); a stage that runs in a later process (a
/// resumed run) decodes the stored text. Only `Equatable` outputs are kept, and the kill-and-resume tests compare
/// resumed results with uninterrupted ones, so both paths must see the same input. (A debug-build check of the
/// round trip inside `init` counted against `limits.stage_seconds` and pushed debug recipe stages past 1 s.)
public struct StageOutput: Sendable {
    public var json: String
    /// What `json` encodes; nil for an output type that is not `Equatable` (then later stages decode `json`).
    let value: (any Sendable)?
    /// The encoder's tree of `json`: the schema check validates it as a `JSONValue` without parsing `json` again
    /// (``treeEncoding``). Nil for an output stored in another form.
    private let encoding: SortedJSONEncoding?
    /// The encoder's encoding of `value` (equal to `encoding` unless the output is stored in another form): later
    /// stages of the document reuse parts of it (``StageInput/encodedOutput(of:as:)``).
    let valueEncoding: SortedJSONEncoding?
    /// False when the stage did not open the document's file (it read nothing, or only the bytes `detect` checked,
    /// ``StageInput/registeredBytes(read:)``): then the file is not hashed again after the stage, as it is after a
    /// stage that reads the file itself (``Stage/readsDocumentFile``: poppler, tesseract).
    public var readDocumentFile = true

    public init<T: Encodable>(_ value: T) throws {
        encoding = try SortedJSONEncoder().encodeWithTree(value)
        json = encoding!.text
        self.value = nil
        valueEncoding = nil
    }

    public init<T: Codable & Sendable & Equatable>(_ value: T) throws {
        try self.init(value, reusing: [])
    }

    /// `value`'s output, taking parts an earlier stage already encoded (``SortedJSONReuse``, from
    /// ``StageInput/encodedOutput(of:as:)``) as they are: the same text as ``init(_:)-(T)``.
    public init<T: Codable & Sendable & Equatable>(_ value: T, reusing reuse: [SortedJSONReuse]) throws {
        encoding = try SortedJSONEncoder().encodeWithTree(value, reusing: reuse)
        json = encoding!.text
        self.value = value
        valueEncoding = encoding
    }

    /// The encoder's text and tree while `json` is still the text it wrote (comparing two strings that share their
    /// storage is immediate): the schema check validates the tree without parsing `json` (or building a
    /// `JSONValue`, when it is valid). Nil otherwise (then parse `json`).
    var treeEncoding: SortedJSONEncoding? {
        guard let encoding, encoding.text == json else { return nil }
        return encoding
    }

    /// An output stored in another form than `value`'s own encoding: `store` turns that encoding into what the
    /// checkpoint database keeps (the `recipe` and `receipt` stages replace copies of the document's lines by
    /// references to them); later stages of the same document in this process read `value` itself, a later
    /// process expands the stored JSON (``StageInput/output(of:as:expanding:)``).
    ///
    /// `store` gets compact JSON with sorted keys and unescaped slashes: byte for byte what `JSONEncoder` writes with
    /// `[.sortedKeys, .withoutEscapingSlashes]` (``SortedJSONEncoder``; `SortedJSONEncoderTests` compares the two on
    /// every contract type). That encoding is kept for later stages of the document (``valueEncoding``).
    public init<T: Codable & Sendable & Equatable>(_ value: T, storedAs store: (String) throws -> String) throws {
        try self.init(value, encoded: SortedJSONEncoder().encodeWithTree(value), storedAs: store)
    }

    /// ``init(_:storedAs:)`` with `value`'s encoding made by the caller: it must be what ``SortedJSONEncoder`` makes
    /// of `value` (a type's ``SortedJSONBuilder`` code, tested against the encoder: the `recipe` stage's output).
    public init<T: Codable & Sendable & Equatable>(
        _ value: T, encoded: SortedJSONEncoding, storedAs store: (String) throws -> String
    ) throws {
        json = try store(encoded.text)
        self.value = value
        encoding = nil
        valueEncoding = encoded
    }
}
