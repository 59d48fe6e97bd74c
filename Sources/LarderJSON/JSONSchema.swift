import Foundation

/// One validation failure.
public struct ValidationError: Sendable, Hashable, CustomStringConvertible {
    /// Where in the instance the failure happened, e.g. `/ingredients/3/quantity`.
    public let instanceLocation: JSONPointer
    /// The dynamic path of keywords that led here, e.g. `/properties/ingredients/items/$ref/required`.
    public let keywordLocation: String
    /// Absolute URI of the failing keyword in its schema resource, e.g. `https://x/recipe#/$defs/item/required`.
    public let absoluteKeywordLocation: String?
    /// The failing keyword (`required`, `type`, …).
    public let keyword: String
    /// A readable message, e.g. `required property 'name' is missing`.
    public let message: String

    /// Creates a validation error.
    public init(instanceLocation: JSONPointer, keywordLocation: String, absoluteKeywordLocation: String?, keyword: String, message: String) {
        self.instanceLocation = instanceLocation
        self.keywordLocation = keywordLocation
        self.absoluteKeywordLocation = absoluteKeywordLocation
        self.keyword = keyword
        self.message = message
    }

    /// `"<instanceLocation>: <message>"` (the root is shown as `/`).
    public var description: String {
        let loc = instanceLocation.isRoot ? "/" : instanceLocation.description
        return "\(loc): \(message) (at \(keywordLocation.isEmpty ? "#" : keywordLocation))"
    }
}

/// An error raised while compiling a schema.
public struct SchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Category of schema problem.
    public enum Kind: String, Sendable {
        /// A keyword has an invalid value (e.g. `"type": 12`).
        case invalidSchema
        /// A `$ref`/`$dynamicRef` (or `$schema`) could not be resolved.
        case unresolvedReference
        /// A `pattern`/`patternProperties` regular expression is invalid or unsupported.
        case invalidPattern
        /// A required `$vocabulary` is not supported.
        case unsupportedVocabulary
    }
    /// The category.
    public let kind: Kind
    /// Absolute location of the problem in the schema (URI with JSON-pointer fragment).
    public let location: String
    /// Human-readable message.
    public let message: String

    public var description: String { "\(message) (at \(location))" }
}

/// Preloaded schema documents addressable by URI (for remote `$ref`s and `$schema`).
///
/// The draft 2020-12 meta-schemas (`https://json-schema.org/draft/2020-12/schema` and its
/// vocabulary meta-schemas) are always available and need not be registered.
public struct JSONSchemaRegistry: Sendable {
    var documents: [String: JSONValue] = [:]

    /// An empty registry (meta-schemas are still built in).
    public init() {}

    /// Registers a schema document under `uri` (any fragment is ignored). If the document's root
    /// has its own `$id`, it is registered under that (resolved against `uri`) as well.
    public mutating func register(_ schema: JSONValue, uri: String) {
        let key = URIReference.split(uri).0
        documents[key] = schema
        if case .string(let id)? = schema["$id"] {
            let abs = URIReference.split(URIReference.resolve(id, against: key)).0
            if documents[abs] == nil { documents[abs] = schema }
        }
    }

    /// Loads every `*.json` file under `directory` (recursively) and registers it as
    /// `baseURI` + relative path, e.g. `http://localhost:1234/` + `nested/foo.json`.
    public mutating func registerDirectory(_ directory: URL, baseURI: String) throws {
        let fm = FileManager.default
        guard let en = fm.enumerator(at: directory, includingPropertiesForKeys: nil) else { return }
        let rootPath = directory.standardizedFileURL.path
        for case let url as URL in en where url.pathExtension == "json" {
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(rootPath) else { continue }
            var rel = String(path.dropFirst(rootPath.count))
            if rel.hasPrefix("/") { rel.removeFirst() }
            let value = try JSONValue(parsing: Data(contentsOf: url))
            register(value, uri: baseURI + rel)
        }
    }

    /// The registered document for `uri`, if any (meta-schemas included).
    public func document(for uri: String) -> JSONValue? {
        let key = URIReference.split(uri).0
        if let d = documents[key] { return d }
        return MetaSchemas.document(for: key)
    }
}

/// Validation options.
public struct JSONSchemaOptions: Sendable {
    /// Treat `format` as an assertion (invalid formats fail validation). Default: `false`
    /// (annotation only, as 2020-12 specifies), unless the schema's meta-schema enables the
    /// format-assertion vocabulary.
    public var formatAssertion: Bool
    /// Maximum nesting of schema evaluation (guards against infinitely recursive `$ref`s).
    public var maxDepth: Int

    /// Creates options.
    public init(formatAssertion: Bool = false, maxDepth: Int = 256) {
        self.formatAssertion = formatAssertion
        self.maxDepth = maxDepth
    }
}

/// A compiled JSON Schema (draft 2020-12).
///
/// Compile once, then call ``validate(_:)`` or ``isValid(_:)`` from any thread.
/// All `$ref`s are resolved at compile time; an unknown reference throws a ``SchemaError``
/// naming it.
public final class JSONSchema: Sendable {
    let program: SchemaProgram
    /// The verdict-only pass over an encoder's tree (``validate(_:)-(SortedJSONEncoding)``); nil for a schema that
    /// tracks annotations.
    let tree: TreeProgram?
    /// The base URI of the root schema.
    public let baseURI: String

    /// Compiles `schema`.
    /// - Parameters:
    ///   - schema: the schema document (object or boolean).
    ///   - baseURI: retrieval URI used to resolve a relative `$id`/`$ref` (default `urn:larder:schema`).
    ///   - registry: documents for remote references.
    ///   - options: validation options.
    /// - Throws: ``SchemaError``.
    public init(_ schema: JSONValue, baseURI: String = "urn:larder:schema", registry: JSONSchemaRegistry = JSONSchemaRegistry(), options: JSONSchemaOptions = JSONSchemaOptions()) throws {
        let compiler = SchemaCompiler(registry: registry, options: options)
        self.program = try compiler.compileRoot(schema, baseURI: baseURI)
        self.baseURI = program.rootURI
        self.tree = TreeProgram(program)
    }

    /// Parses and compiles a schema from JSON data.
    public convenience init(parsing data: Data, baseURI: String = "urn:larder:schema", registry: JSONSchemaRegistry = JSONSchemaRegistry(), options: JSONSchemaOptions = JSONSchemaOptions()) throws {
        try self.init(try JSONValue(parsing: data), baseURI: baseURI, registry: registry, options: options)
    }

    /// Validates `instance`, returning all errors (empty when valid).
    public func validate(_ instance: JSONValue) -> [ValidationError] {
        var ctx = EvalContext(collect: true, maxDepth: program.maxDepth)
        var ann = Annotations()
        _ = program.eval(program.root, instance, &ctx, &ann)
        return ctx.errors
    }

    /// `true` when `instance` is valid (stops at the first failure).
    public func isValid(_ instance: JSONValue) -> Bool {
        var ctx = EvalContext(collect: false, maxDepth: program.maxDepth)
        var ann = Annotations()
        return program.eval(program.root, instance, &ctx, &ann)
    }

    /// Validates what ``SortedJSONEncoder/encodeWithTree(_:)`` encoded, returning all errors (empty when valid): the
    /// same errors as ``validate(_:)-(JSONValue)`` on ``SortedJSONEncoding/jsonValue()``. A valid encoding is
    /// checked on the encoder's tree alone, without building a ``JSONValue`` or any error path (``TreeProgram``);
    /// anything else is validated as a ``JSONValue``, for the messages.
    public func validate(_ encoding: SortedJSONEncoding) -> [ValidationError] {
        if treeVerdict(encoding) == true { return [] }
        return validate(encoding.jsonValue())
    }

    /// The tree pass's verdict alone: nil when it leaves the encoding to the full validator (for tests).
    public func treeVerdict(_ encoding: SortedJSONEncoding) -> Bool? {
        tree?.isValid(encoding.root)
    }
}
