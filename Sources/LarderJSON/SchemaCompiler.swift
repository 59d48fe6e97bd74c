import Foundation

struct Vocabulary: Sendable {
    var applicator = true
    var unevaluated = true
    var validation = true
    var formatAssertion = false

    static let prefix = "https://json-schema.org/draft/2020-12/vocab/"
    static let known: Set<String> = ["core", "applicator", "unevaluated", "validation", "meta-data", "format-annotation", "format-assertion", "content"]
}

/// Compiles schema JSON into a ``SchemaProgram``. Single-use, not shared.
final class SchemaCompiler {
    struct Loc: Hashable { let doc: Int; let ptr: String }
    struct Resource { let uri: String; let loc: Loc; var vocab: Vocabulary }

    let registry: JSONSchemaRegistry
    let options: JSONSchemaOptions
    var docs: [JSONValue] = []
    var resources: [Resource] = []
    var resourceByURI: [String: Int] = [:]
    var anchors: [String: Loc] = [:]
    var dynAnchors: [[String: Loc]] = []
    var resourceOfLoc: [Loc: Int] = [:]
    var nodeIndex: [Loc: Int] = [:]
    var nodes: [SchemaNode?] = []
    var hasUnevaluated = false

    init(registry: JSONSchemaRegistry, options: JSONSchemaOptions) {
        self.registry = registry
        self.options = options
    }

    static let objectSubschemaMaps: Set<String> = ["$defs", "definitions", "properties", "patternProperties", "dependentSchemas", "dependencies"]
    static let singleSubschemas: Set<String> = ["items", "additionalProperties", "additionalItems", "contains", "propertyNames", "not", "if", "then", "else",
                                                 "unevaluatedItems", "unevaluatedProperties", "contentSchema"]
    static let arraySubschemas: Set<String> = ["prefixItems", "allOf", "anyOf", "oneOf", "items"]

    func compileRoot(_ json: JSONValue, baseURI: String) throws -> SchemaProgram {
        let doc = try addDocument(json, uri: baseURI)
        let rootRes = resourceByURI[URIReference.split(baseURI).0]!
        let root = try compile(Loc(doc: doc, ptr: ""), json, fallback: rootRes)
        // Compile every dynamic anchor of every known resource (loading can add more).
        var done = 0
        var compiledAnchors: [[String: Int]] = []
        while done < resources.count {
            let r = done
            done += 1
            var map: [String: Int] = [:]
            for (name, loc) in dynAnchors[r] {
                map[name] = try compile(loc, try value(at: loc), fallback: r)
            }
            compiledAnchors.append(map)
        }
        let finalNodes = nodes.map { $0! }
        return SchemaProgram(nodes: finalNodes, root: root, rootURI: resources[rootRes].uri, trackAnnotations: hasUnevaluated,
                             dynamicAnchors: compiledAnchors, maxDepth: options.maxDepth)
    }

    func value(at loc: Loc) throws -> JSONValue {
        guard let p = try? JSONPointer(parsing: loc.ptr), let v = p.resolve(in: docs[loc.doc]) else {
            throw SchemaError(kind: .unresolvedReference, location: loc.ptr, message: "internal: cannot resolve location \(loc.ptr)")
        }
        return v
    }

    // MARK: Indexing

    @discardableResult
    func addDocument(_ json: JSONValue, uri: String) throws -> Int {
        let doc = docs.count
        docs.append(json)
        let retrieval = URIReference.split(uri).0
        try index(json, doc: doc, ptr: "", resource: nil, base: retrieval, vocab: Vocabulary())
        if resourceByURI[retrieval] == nil, let r = resourceOfLoc[Loc(doc: doc, ptr: "")] {
            resourceByURI[retrieval] = r
        }
        return doc
    }

    func newResource(uri: String, loc: Loc, vocab: Vocabulary) -> Int {
        let r = resources.count
        resources.append(Resource(uri: uri, loc: loc, vocab: vocab))
        dynAnchors.append([:])
        if resourceByURI[uri] == nil { resourceByURI[uri] = r }
        return r
    }

    func index(_ json: JSONValue, doc: Int, ptr: String, resource: Int?, base: String, vocab: Vocabulary) throws {
        let loc = Loc(doc: doc, ptr: ptr)
        guard case .object(let o) = json else {
            if resource == nil { resourceOfLoc[loc] = newResource(uri: base, loc: loc, vocab: vocab) }
            else { resourceOfLoc[loc] = resource }
            return
        }
        var res = resource
        var base = base
        var vocab = vocab
        if case .string(let schemaURI)? = o["$schema"] {
            vocab = try vocabulary(for: schemaURI, at: base + "#" + ptr)
        }
        if case .string(let id)? = o["$id"] {
            let abs = URIReference.split(URIReference.resolve(id, against: base)).0
            base = abs
            res = newResource(uri: abs, loc: loc, vocab: vocab)
        } else if res == nil {
            res = newResource(uri: base, loc: loc, vocab: vocab)
        }
        let r = res!
        resourceOfLoc[loc] = r
        if case .string(let a)? = o["$anchor"] { anchors[base + "#" + a] = loc }
        if case .string(let a)? = o["$dynamicAnchor"] {
            anchors[base + "#" + a] = loc
            dynAnchors[r][a] = loc
        }
        let v = resources[r].vocab
        for (key, sub) in o {
            let kp = ptr + "/" + JSONPointer.escape(key)
            if SchemaCompiler.objectSubschemaMaps.contains(key), case .object(let m) = sub {
                for (k, s) in m { try index(s, doc: doc, ptr: kp + "/" + JSONPointer.escape(k), resource: r, base: base, vocab: v) }
            } else if SchemaCompiler.arraySubschemas.contains(key), case .array(let a) = sub {
                for (i, s) in a.enumerated() { try index(s, doc: doc, ptr: kp + "/" + String(i), resource: r, base: base, vocab: v) }
            } else if SchemaCompiler.singleSubschemas.contains(key) {
                try index(sub, doc: doc, ptr: kp, resource: r, base: base, vocab: v)
            }
        }
    }

    func vocabulary(for schemaURI: String, at location: String) throws -> Vocabulary {
        let key = URIReference.split(schemaURI).0
        if key == "https://json-schema.org/draft/2020-12/schema" { return Vocabulary() }
        guard let meta = registry.document(for: key), case .object(let vocabs)? = meta["$vocabulary"] else { return Vocabulary() }
        var v = Vocabulary(applicator: false, unevaluated: false, validation: false, formatAssertion: false)
        for (uri, required) in vocabs {
            if uri.hasPrefix(Vocabulary.prefix), Vocabulary.known.contains(String(uri.dropFirst(Vocabulary.prefix.count))) {
                switch String(uri.dropFirst(Vocabulary.prefix.count)) {
                case "applicator": v.applicator = true
                case "unevaluated": v.unevaluated = true
                case "validation": v.validation = true
                case "format-assertion": v.formatAssertion = true
                default: break
                }
            } else if required == .bool(true) {
                throw SchemaError(kind: .unsupportedVocabulary, location: location, message: "required vocabulary '\(uri)' (from meta-schema '\(schemaURI)') is not supported")
            }
        }
        return v
    }

    // MARK: Reference resolution

    func resource(for uri: String, ref: String, location: String) throws -> Int {
        if let r = resourceByURI[uri] { return r }
        if let d = registry.document(for: uri) {
            try addDocument(d, uri: uri)
            if let r = resourceByURI[uri] { return r }
        }
        throw SchemaError(kind: .unresolvedReference, location: location, message: "cannot resolve reference '\(ref)': no schema is known at '\(uri)'")
    }

    func resolveRef(_ ref: String, from res: Int, location: String) throws -> (Loc, JSONValue, Int) {
        let abs = URIReference.resolve(ref, against: resources[res].uri)
        let (baseURI, frag) = URIReference.split(abs)
        let r = try resource(for: baseURI, ref: ref, location: location)
        let rloc = resources[r].loc
        if frag.isEmpty { return (rloc, try value(at: rloc), r) }
        if frag.hasPrefix("/") {
            let decoded = URIReference.percentDecode(frag)
            guard let p = try? JSONPointer(parsing: decoded) else {
                throw SchemaError(kind: .unresolvedReference, location: location, message: "cannot resolve reference '\(ref)': invalid JSON pointer fragment")
            }
            let resJSON = try value(at: rloc)
            guard let v = p.resolve(in: resJSON) else {
                throw SchemaError(kind: .unresolvedReference, location: location, message: "cannot resolve reference '\(ref)': '\(decoded)' does not exist in '\(baseURI)'")
            }
            return (Loc(doc: rloc.doc, ptr: rloc.ptr + p.description), v, r)
        }
        guard let loc = anchors[baseURI + "#" + frag] else {
            throw SchemaError(kind: .unresolvedReference, location: location, message: "cannot resolve reference '\(ref)': no anchor '\(frag)' in '\(baseURI)'")
        }
        return (loc, try value(at: loc), resourceOfLoc[loc] ?? r)
    }

    // MARK: Compilation

    func compile(_ loc: Loc, _ json: JSONValue, fallback: Int) throws -> Int {
        if let i = nodeIndex[loc] { return i }
        let res = resourceOfLoc[loc] ?? fallback
        let idx = nodes.count
        nodes.append(nil)
        nodeIndex[loc] = idx
        let rloc = resources[res].loc
        let rel = (rloc.doc == loc.doc && loc.ptr.hasPrefix(rloc.ptr)) ? String(loc.ptr.dropFirst(rloc.ptr.count)) : loc.ptr
        let abs = resources[res].uri + "#" + rel
        switch json {
        case .bool(let b):
            nodes[idx] = SchemaNode(boolean: b, keywords: [], resource: res, absoluteLocation: abs)
        case .object(let o):
            let kws = try compileKeywords(o, loc: loc, res: res, abs: abs)
            nodes[idx] = SchemaNode(boolean: nil, keywords: kws, resource: res, absoluteLocation: abs)
        default:
            throw SchemaError(kind: .invalidSchema, location: abs, message: "a schema must be an object or a boolean, got \(json.typeName) \(SchemaProgram.short(json))")
        }
        return idx
    }

    /// A schema object's keywords, in the vocabularies its resource enables: references, then the validation
    /// vocabulary, `format`, the applicators and the unevaluated keywords (the order the nodes are compiled in).
    func compileKeywords(_ o: JSONObject, loc: Loc, res: Int, abs: String) throws -> [Keyword] {
        let s = KeywordSource(compiler: self, object: o, loc: loc, res: res, abs: abs)
        let vocab = resources[res].vocab
        if let v = o["$id"], v.stringValue == nil { throw s.bad("$id", "expected a string") }
        var out = try referenceKeywords(s)
        if vocab.validation {
            out += try valueKeywords(s)
            out += try collectionKeywords(s)
        }
        out += try formatKeywords(s, vocab: vocab)
        if vocab.applicator {
            out += try objectApplicators(s)
            out += try arrayApplicators(s)
            out += try logicApplicators(s)
            out += try dependencyApplicators(s)
        }
        // Subschemas in $defs are compiled eagerly so that invalid definitions are reported
        // even when unused.
        _ = try s.schMap("$defs")
        if vocab.unevaluated { out += try unevaluatedKeywords(s) }
        return out
    }

    /// `$ref` and `$dynamicRef`.
    private func referenceKeywords(_ s: KeywordSource) throws -> [Keyword] {
        var out: [Keyword] = []
        let o = s.object
        if let v = o["$ref"] {
            guard case .string(let ref) = v else { throw s.bad("$ref", "expected a string") }
            let (tloc, tjson, tres) = try resolveRef(ref, from: s.res, location: s.abs + "/$ref")
            out.append(Keyword(name: "$ref", kind: .ref(try compile(tloc, tjson, fallback: tres))))
        }
        if let v = o["$dynamicRef"] {
            guard case .string(let ref) = v else { throw s.bad("$dynamicRef", "expected a string") }
            let (tloc, tjson, tres) = try resolveRef(ref, from: s.res, location: s.abs + "/$dynamicRef")
            let target = try compile(tloc, tjson, fallback: tres)
            let frag = URIReference.split(ref).1
            var anchor: String?
            if !frag.isEmpty, !frag.hasPrefix("/"), tjson["$dynamicAnchor"]?.stringValue == frag { anchor = frag }
            out.append(Keyword(name: "$dynamicRef", kind: .dynamicRef(target, anchor: anchor)))
        }
        return out
    }

    /// `type`, `enum`, `const`, the numeric bounds and the string keywords.
    private func valueKeywords(_ s: KeywordSource) throws -> [Keyword] {
        var out: [Keyword] = []
        let o = s.object
        if let v = o["type"] {
            var names: [String] = []
            switch v {
            case .string(let name): names = [name]
            case .array(let a):
                guard a.allSatisfy({ $0.stringValue != nil }) else { throw s.bad("type", "expected a type name or an array of type names") }
                names = a.map { $0.stringValue! }
            default: throw s.bad("type", "expected a type name or an array of type names")
            }
            var mask = TypeMask()
            for n in names {
                guard let m = TypeMask.named(n) else { throw s.bad("type", "unknown type '\(n)'") }
                mask.insert(m)
            }
            out.append(Keyword(name: "type", kind: .type(mask, names)))
        }
        if let v = o["enum"] {
            guard case .array(let a) = v else { throw s.bad("enum", "expected an array") }
            out.append(Keyword(name: "enum", kind: .enumeration(a)))
        }
        if let v = o["const"] { out.append(Keyword(name: "const", kind: .const(v))) }
        if let n = try s.number("minimum") { out.append(Keyword(name: "minimum", kind: .minimum(n))) }
        if let n = try s.number("maximum") { out.append(Keyword(name: "maximum", kind: .maximum(n))) }
        if let n = try s.number("exclusiveMinimum") { out.append(Keyword(name: "exclusiveMinimum", kind: .exclusiveMinimum(n))) }
        if let n = try s.number("exclusiveMaximum") { out.append(Keyword(name: "exclusiveMaximum", kind: .exclusiveMaximum(n))) }
        if let n = try s.number("multipleOf") {
            guard !n.isNegative && !n.isZero else { throw s.bad("multipleOf", "expected a number greater than 0") }
            out.append(Keyword(name: "multipleOf", kind: .multipleOf(n)))
        }
        if let n = try s.count("minLength") { out.append(Keyword(name: "minLength", kind: .minLength(n))) }
        if let n = try s.count("maxLength") { out.append(Keyword(name: "maxLength", kind: .maxLength(n))) }
        if let v = o["pattern"] {
            guard case .string(let p) = v else { throw s.bad("pattern", "expected a string") }
            out.append(Keyword(name: "pattern", kind: .pattern(try s.regex("pattern", p))))
        }
        return out
    }

    /// The array and object assertions: item and property counts, `uniqueItems`, `required`, `dependentRequired`.
    private func collectionKeywords(_ s: KeywordSource) throws -> [Keyword] {
        var out: [Keyword] = []
        let o = s.object
        if let n = try s.count("minItems") { out.append(Keyword(name: "minItems", kind: .minItems(n))) }
        if let n = try s.count("maxItems") { out.append(Keyword(name: "maxItems", kind: .maxItems(n))) }
        if let v = o["uniqueItems"] {
            guard case .bool(let b) = v else { throw s.bad("uniqueItems", "expected a boolean") }
            if b { out.append(Keyword(name: "uniqueItems", kind: .uniqueItems)) }
        }
        if let n = try s.count("minProperties") { out.append(Keyword(name: "minProperties", kind: .minProperties(n))) }
        if let n = try s.count("maxProperties") { out.append(Keyword(name: "maxProperties", kind: .maxProperties(n))) }
        if let v = o["required"] {
            guard case .array(let a) = v, a.allSatisfy({ $0.stringValue != nil }) else { throw s.bad("required", "expected an array of strings") }
            if !a.isEmpty { out.append(Keyword(name: "required", kind: .required(a.map { $0.stringValue! }))) }
        }
        if let v = o["dependentRequired"] {
            guard case .object(let m) = v else { throw s.bad("dependentRequired", "expected an object of string arrays") }
            var deps: [(String, [String])] = []
            for (k, names) in m {
                guard case .array(let a) = names, a.allSatisfy({ $0.stringValue != nil }) else { throw s.bad("dependentRequired", "member '\(k)' must be an array of strings") }
                deps.append((k, a.map { $0.stringValue! }))
            }
            out.append(Keyword(name: "dependentRequired", kind: .dependentRequired(deps)))
        }
        return out
    }

    /// `format`: asserted only when the options or the vocabulary ask for it, and only for known formats.
    private func formatKeywords(_ s: KeywordSource, vocab: Vocabulary) throws -> [Keyword] {
        guard let v = s.object["format"] else { return [] }
        guard case .string(let f) = v else { throw s.bad("format", "expected a string") }
        let assert = options.formatAssertion || vocab.formatAssertion
        return assert && FormatValidators.known.contains(f) ? [Keyword(name: "format", kind: .format(f, assert: true))] : []
    }

    /// `properties`, `patternProperties`, `additionalProperties` (which needs the other two) and `propertyNames`.
    private func objectApplicators(_ s: KeywordSource) throws -> [Keyword] {
        var out: [Keyword] = []
        var propNames: [String] = []
        if let props = try s.schMap("properties") {
            propNames = props.map { $0.0 }
            out.append(Keyword(name: "properties", kind: .properties(Dictionary(props, uniquingKeysWith: { a, _ in a }), propNames)))
        }
        var patterns: [ECMARegex] = []
        if let pp = try s.schMap("patternProperties") {
            let compiled = try pp.map { (p, sub) in (try s.regex("patternProperties", p), sub) }
            patterns = compiled.map { $0.0 }
            out.append(Keyword(name: "patternProperties", kind: .patternProperties(compiled)))
        }
        if let ap = try s.sch("additionalProperties") {
            out.append(Keyword(name: "additionalProperties", kind: .additionalProperties(ap, Set(propNames), patterns)))
        }
        if let pn = try s.sch("propertyNames") { out.append(Keyword(name: "propertyNames", kind: .propertyNames(pn))) }
        return out
    }

    /// `prefixItems`, `items` (the 2019-09 array form too, with `additionalItems`) and `contains` with its bounds.
    private func arrayApplicators(_ s: KeywordSource) throws -> [Keyword] {
        var out: [Keyword] = []
        var prefixCount = 0
        if let pi = try s.schArr("prefixItems") {
            prefixCount = pi.count
            out.append(Keyword(name: "prefixItems", kind: .prefixItems(pi)))
        }
        if let v = s.object["items"] {
            if case .array = v {
                // Draft 2019-09 style tuple form: treat as prefixItems + additionalItems.
                let pi = try s.schArr("items")!
                out.append(Keyword(name: "items", kind: .prefixItems(pi)))
                if let ai = try s.sch("additionalItems") { out.append(Keyword(name: "additionalItems", kind: .items(ai, start: pi.count))) }
            } else if let it = try s.sch("items") {
                out.append(Keyword(name: "items", kind: .items(it, start: prefixCount)))
            }
        }
        if let c = try s.sch("contains") {
            let minC = try s.count("minContains") ?? 1
            let maxC = try s.count("maxContains")
            out.append(Keyword(name: "contains", kind: .contains(c, min: minC, max: maxC)))
        }
        return out
    }

    /// `allOf`, `anyOf`, `oneOf`, `not` and `if`/`then`/`else` (`then` and `else` are compiled without `if` too, so
    /// that invalid ones are reported).
    private func logicApplicators(_ s: KeywordSource) throws -> [Keyword] {
        var out: [Keyword] = []
        if let a = try s.schArr("allOf") { out.append(Keyword(name: "allOf", kind: .allOf(a))) }
        if let a = try s.schArr("anyOf") { out.append(Keyword(name: "anyOf", kind: .anyOf(a))) }
        if let a = try s.schArr("oneOf") { out.append(Keyword(name: "oneOf", kind: .oneOf(a))) }
        if let n = try s.sch("not") { out.append(Keyword(name: "not", kind: .not(n))) }
        if let i = try s.sch("if") {
            out.append(Keyword(name: "if", kind: .ifThenElse(i, then: try s.sch("then"), else: try s.sch("else"))))
        } else {
            _ = try s.sch("then"); _ = try s.sch("else")
        }
        return out
    }

    /// `dependentSchemas`, and draft 7's `dependencies` (arrays → dependentRequired, schemas → dependentSchemas).
    private func dependencyApplicators(_ s: KeywordSource) throws -> [Keyword] {
        var out: [Keyword] = []
        if let ds = try s.schMap("dependentSchemas") { out.append(Keyword(name: "dependentSchemas", kind: .dependentSchemas(ds))) }
        if case .object(let deps)? = s.object["dependencies"] {
            var req: [(String, [String])] = []
            var schemas: [(String, Int)] = []
            for (k, d) in deps {
                if case .array(let a) = d, a.allSatisfy({ $0.stringValue != nil }) { req.append((k, a.map { $0.stringValue! })) }
                else if d.boolValue != nil || d.objectValue != nil { schemas.append((k, try compile(s.childLoc("dependencies", k), d, fallback: s.res))) }
                else { throw s.bad("dependencies", "member '\(k)' must be an array of strings or a schema") }
            }
            if !req.isEmpty { out.append(Keyword(name: "dependencies", kind: .dependentRequired(req))) }
            if !schemas.isEmpty { out.append(Keyword(name: "dependencies", kind: .dependentSchemas(schemas))) }
        }
        return out
    }

    /// `unevaluatedItems` and `unevaluatedProperties` (their presence makes validation track evaluated items).
    private func unevaluatedKeywords(_ s: KeywordSource) throws -> [Keyword] {
        var out: [Keyword] = []
        if let u = try s.sch("unevaluatedItems") {
            hasUnevaluated = true
            out.append(Keyword(name: "unevaluatedItems", kind: .unevaluatedItems(u)))
        }
        if let u = try s.sch("unevaluatedProperties") {
            hasUnevaluated = true
            out.append(Keyword(name: "unevaluatedProperties", kind: .unevaluatedProperties(u)))
        }
        return out
    }

    /// One schema object being compiled, with the readers its keywords share: each checks a keyword's value and
    /// says what was expected when it is wrong, and compiles subschemas in the object's resource.
    struct KeywordSource {
        let compiler: SchemaCompiler
        let object: JSONObject
        let loc: Loc
        let res: Int
        let abs: String

        func bad(_ key: String, _ why: String) -> SchemaError {
            SchemaError(kind: .invalidSchema, location: abs + "/" + JSONPointer.escape(key), message: "invalid value for '\(key)': \(why), got \(SchemaProgram.short(object[key]!))")
        }

        func childLoc(_ parts: String...) -> Loc {
            Loc(doc: loc.doc, ptr: loc.ptr + parts.map { "/" + JSONPointer.escape($0) }.joined())
        }

        /// A subschema.
        func sch(_ key: String) throws -> Int? {
            guard let v = object[key] else { return nil }
            guard v.boolValue != nil || v.objectValue != nil else { throw bad(key, "expected a schema (object or boolean)") }
            return try compiler.compile(childLoc(key), v, fallback: res)
        }

        /// A non-empty array of subschemas.
        func schArr(_ key: String) throws -> [Int]? {
            guard let v = object[key] else { return nil }
            guard case .array(let a) = v, !a.isEmpty else { throw bad(key, "expected a non-empty array of schemas") }
            return try a.enumerated().map { (i, s) in
                guard s.boolValue != nil || s.objectValue != nil else { throw bad(key, "item \(i) is not a schema") }
                return try compiler.compile(childLoc(key, String(i)), s, fallback: res)
            }
        }

        /// An object of subschemas.
        func schMap(_ key: String) throws -> [(String, Int)]? {
            guard let v = object[key] else { return nil }
            guard case .object(let m) = v else { throw bad(key, "expected an object of schemas") }
            return try m.map { (k, s) in
                guard s.boolValue != nil || s.objectValue != nil else { throw bad(key, "member '\(k)' is not a schema") }
                return (k, try compiler.compile(childLoc(key, k), s, fallback: res))
            }
        }

        func count(_ key: String) throws -> Int? {
            guard let v = object[key] else { return nil }
            guard case .number(let n) = v, n.isInteger, !n.isNegative else { throw bad(key, "expected a non-negative integer") }
            return n.intValue ?? Int.max
        }

        func number(_ key: String) throws -> JSONNumber? {
            guard let v = object[key] else { return nil }
            guard case .number(let n) = v else { throw bad(key, "expected a number") }
            return n
        }

        func regex(_ key: String, _ src: String) throws -> ECMARegex {
            do { return try ECMARegex(src) } catch let e as ECMARegex.SyntaxError {
                throw SchemaError(kind: .invalidPattern, location: abs + "/" + JSONPointer.escape(key), message: "unsupported or invalid regular expression '\(src)' in '\(key)': \(e.message)")
            }
        }
    }
}
