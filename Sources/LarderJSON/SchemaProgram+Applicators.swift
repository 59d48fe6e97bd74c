import Foundation

/// Applicator keywords: they evaluate subschemas against the instance or its members, collect annotations
/// (evaluated properties and items, for `unevaluated*`) and keep the keyword and instance paths for errors.
extension SchemaProgram {
    /// Evaluates `si` against one member of the instance: pushes the keyword token (if any) and the member's
    /// instance token, with fresh annotations (a member's annotations never reach its parent).
    @inline(__always)
    private func member(_ si: Int, _ value: JSONValue, kw: String?, inst token: String, _ ctx: inout EvalContext) -> Bool {
        if let kw { ctx.pushKW(kw) }
        ctx.pushInst(token)
        var childAnn = Annotations()
        let r = eval(si, value, &ctx, &childAnn)
        ctx.popInst()
        if kw != nil { ctx.popKW() }
        return r
    }

    @inline(__always)
    private func item(_ si: Int, _ a: [JSONValue], _ i: Int, kw: String?, _ ctx: inout EvalContext) -> Bool {
        if let kw { ctx.pushKW(kw) }
        ctx.pushInst(i)
        var childAnn = Annotations()
        let r = eval(si, a[i], &ctx, &childAnn)
        ctx.popInst()
        if kw != nil { ctx.popKW() }
        return r
    }

    /// Reports `message` at the keyword itself while its own token is on the keyword path.
    private func failAtKeyword(_ ctx: inout EvalContext, _ node: SchemaNode, _ kw: Keyword, _ message: String) {
        ctx.popKW()
        fail(&ctx, node, kw.name, message)
        ctx.pushKW(kw.name)
    }

    // MARK: Objects

    func evalProperties(_ map: [String: Int], _ kw: Keyword, _ inst: JSONValue, _ ctx: inout EvalContext,
                        _ ann: inout Annotations) -> Bool {
        guard case .object(let o) = inst else { return true }
        var ok = true
        ctx.pushKW(kw.name)
        defer { ctx.popKW() }
        for key in o.keys {
            guard let si = map[key] else { continue }
            if trackAnnotations { ann.props.insert(key) }
            if !member(si, o[key]!, kw: key, inst: key, &ctx) { ok = false; if !ctx.collect { return false } }
        }
        return ok
    }

    func evalPatternProperties(_ pats: [(ECMARegex, Int)], _ kw: Keyword, _ inst: JSONValue,
                               _ ctx: inout EvalContext, _ ann: inout Annotations) -> Bool {
        guard case .object(let o) = inst else { return true }
        var ok = true
        ctx.pushKW(kw.name)
        defer { ctx.popKW() }
        for (re, si) in pats {
            for key in o.keys where re.matches(key) {
                if trackAnnotations { ann.props.insert(key) }
                if !member(si, o[key]!, kw: re.source, inst: key, &ctx) { ok = false; if !ctx.collect { return false } }
            }
        }
        return ok
    }

    func evalAdditionalProperties(_ si: Int, _ names: Set<String>, _ pats: [ECMARegex], _ kw: Keyword,
                                  _ node: SchemaNode, _ inst: JSONValue, _ ctx: inout EvalContext,
                                  _ ann: inout Annotations) -> Bool {
        guard case .object(let o) = inst else { return true }
        let extra = o.keys.filter { key in !names.contains(key) && !pats.contains(where: { $0.matches(key) }) }
        return evalLeftoverProperties(si, extra, o, kw, node, "additional", annotate: true, &ctx, &ann)
    }

    func evalUnevaluatedProperties(_ si: Int, _ kw: Keyword, _ node: SchemaNode, _ inst: JSONValue,
                                   _ ctx: inout EvalContext, _ ann: inout Annotations) -> Bool {
        guard case .object(let o) = inst else { return true }
        if ann.allProps { return true }
        let left = o.keys.filter { !ann.props.contains($0) }
        let ok = evalLeftoverProperties(si, left, o, kw, node, "unevaluated", annotate: false, &ctx, &ann)
        if ok { ann.allProps = true }
        return ok
    }

    /// `additionalProperties` and `unevaluatedProperties`: the properties no other keyword evaluated, each
    /// against `si` (or refused outright when `si` is `false`). `annotate` records them as evaluated
    /// (`additionalProperties` does; `unevaluatedProperties` marks all properties evaluated when it passes).
    private func evalLeftoverProperties(_ si: Int, _ keys: [String], _ o: JSONObject, _ kw: Keyword,
                                        _ node: SchemaNode, _ adjective: String, annotate: Bool, _ ctx: inout EvalContext,
                                        _ ann: inout Annotations) -> Bool {
        var ok = true
        ctx.pushKW(kw.name)
        defer { ctx.popKW() }
        let isFalse = nodes[si].boolean == false
        for key in keys {
            if annotate && trackAnnotations { ann.props.insert(key) }
            if isFalse {
                failAtKeyword(&ctx, node, kw, "\(adjective) property '\(key)' is not allowed")
                ok = false
                if !ctx.collect { return false }
                continue
            }
            if !member(si, o[key]!, kw: nil, inst: key, &ctx) { ok = false; if !ctx.collect { return false } }
        }
        return ok
    }

    func evalPropertyNames(_ si: Int, _ kw: Keyword, _ node: SchemaNode, _ inst: JSONValue,
                           _ ctx: inout EvalContext) -> Bool {
        guard case .object(let o) = inst else { return true }
        var ok = true
        ctx.pushKW(kw.name)
        defer { ctx.popKW() }
        for key in o.keys {
            var childAnn = Annotations()
            let before = ctx.errors.count
            if !eval(si, .string(key), &ctx, &childAnn) {
                ok = false
                if !ctx.collect { return false }
                ctx.errors.removeSubrange(before...)
                failAtKeyword(&ctx, node, kw, "property name '\(key)' is invalid")
            }
        }
        return ok
    }

    func evalDependentSchemas(_ deps: [(String, Int)], _ kw: Keyword, _ inst: JSONValue, _ ctx: inout EvalContext,
                              _ ann: inout Annotations) -> Bool {
        guard case .object(let o) = inst else { return true }
        var ok = true
        ctx.pushKW(kw.name)
        defer { ctx.popKW() }
        for (k, s) in deps where o[k] != nil {
            ctx.pushKW(k)
            let r = eval(s, inst, &ctx, &ann)
            ctx.popKW()
            if !r { ok = false; if !ctx.collect { return false } }
        }
        return ok
    }

    // MARK: Arrays

    func evalPrefixItems(_ subs: [Int], _ kw: Keyword, _ inst: JSONValue, _ ctx: inout EvalContext,
                         _ ann: inout Annotations) -> Bool {
        guard case .array(let a) = inst else { return true }
        var ok = true
        ctx.pushKW(kw.name)
        defer { ctx.popKW() }
        let n = min(a.count, subs.count)
        for i in 0..<n where !item(subs[i], a, i, kw: String(i), &ctx) {
            ok = false
            if !ctx.collect { return false }
        }
        if trackAnnotations { ann.itemsPrefix = max(ann.itemsPrefix, n) }
        return ok
    }

    func evalItems(_ si: Int, _ start: Int, _ kw: Keyword, _ node: SchemaNode, _ inst: JSONValue,
                   _ ctx: inout EvalContext, _ ann: inout Annotations) -> Bool {
        guard case .array(let a) = inst else { return true }
        var ok = true
        ctx.pushKW(kw.name)
        defer { ctx.popKW() }
        if start < a.count {
            if nodes[si].boolean == false {
                failAtKeyword(&ctx, node, kw, "array has \(a.count) items, at most \(start) allowed")
                return false
            }
            for i in start..<a.count where !item(si, a, i, kw: nil, &ctx) {
                ok = false
                if !ctx.collect { return false }
            }
        }
        if trackAnnotations { ann.allItems = true }
        return ok
    }

    func evalContains(_ si: Int, _ minC: Int, _ maxC: Int?, _ kw: Keyword, _ node: SchemaNode, _ inst: JSONValue,
                      _ ctx: inout EvalContext, _ ann: inout Annotations) -> Bool {
        guard case .array(let a) = inst else { return true }
        let track = trackAnnotations
        var count = 0
        var matched: Set<Int> = []
        ctx.pushKW(kw.name)
        for i in a.indices {
            let before = ctx.errors.count
            let r = item(si, a, i, kw: nil, &ctx)
            if ctx.errors.count > before { ctx.errors.removeSubrange(before...) }
            if r { count += 1; if track { matched.insert(i) } }
            if !track, let maxC, count > maxC { break }
            if !track, maxC == nil, count >= minC, !ctx.collect { break }
        }
        ctx.popKW()
        if track { ann.itemSet.formUnion(matched) }
        if count < minC {
            fail(&ctx, node, kw.name, minC == 1 ? "array does not contain a matching item"
                : "array contains \(count) matching items, fewer than minContains \(minC)")
            return false
        }
        if let maxC, count > maxC {
            fail(&ctx, node, kw.name, "array contains more than maxContains \(maxC) matching items")
            return false
        }
        return true
    }

    func evalUnevaluatedItems(_ si: Int, _ kw: Keyword, _ node: SchemaNode, _ inst: JSONValue,
                              _ ctx: inout EvalContext, _ ann: inout Annotations) -> Bool {
        guard case .array(let a) = inst else { return true }
        if ann.allItems { return true }
        var ok = true
        ctx.pushKW(kw.name)
        defer { ctx.popKW() }
        let isFalse = nodes[si].boolean == false
        for i in ann.itemsPrefix..<max(ann.itemsPrefix, a.count) where !ann.itemSet.contains(i) {
            if isFalse {
                failAtKeyword(&ctx, node, kw, "unevaluated item \(i) is not allowed")
                ok = false
                if !ctx.collect { return false }
                continue
            }
            if !item(si, a, i, kw: nil, &ctx) { ok = false; if !ctx.collect { return false } }
        }
        if ok { ann.allItems = true }
        return ok
    }

    // MARK: Combinators and references

    func evalAllOf(_ subs: [Int], _ kw: Keyword, _ inst: JSONValue, _ ctx: inout EvalContext,
                   _ ann: inout Annotations) -> Bool {
        var ok = true
        ctx.pushKW(kw.name)
        defer { ctx.popKW() }
        for (i, s) in subs.enumerated() {
            ctx.pushKW(String(i))
            let r = eval(s, inst, &ctx, &ann)
            ctx.popKW()
            if !r { ok = false; if !ctx.collect { return false } }
        }
        return ok
    }

    /// Evaluates each alternative with its own annotations; returns the indices that matched and their merged
    /// annotations. Stops early when `stop` says the outcome is known.
    private func alternatives(_ subs: [Int], _ kw: Keyword, _ inst: JSONValue, _ ctx: inout EvalContext,
                              stop: (Int) -> Bool) -> (matches: [Int], annotations: Annotations) {
        var matches: [Int] = []
        var merged = Annotations()
        ctx.pushKW(kw.name)
        for (i, s) in subs.enumerated() {
            var childAnn = Annotations()
            ctx.pushKW(String(i))
            let r = eval(s, inst, &ctx, &childAnn)
            ctx.popKW()
            if r {
                matches.append(i)
                if trackAnnotations { merged.merge(childAnn) }
                if stop(matches.count) { break }
            }
        }
        ctx.popKW()
        return (matches, merged)
    }

    /// How many alternatives match, counted without building error messages (up to `limit`): collecting errors
    /// in alternatives that are then discarded (every `oneOf` branch but one) costs most of a valid document's
    /// validation. nil when annotations are tracked (then the full pass must run for them).
    private func quickMatches(_ subs: [Int], _ inst: JSONValue, _ ctx: EvalContext, limit: Int) -> Int? {
        guard ctx.collect, !trackAnnotations else { return nil }
        var quick = EvalContext(collect: false, maxDepth: ctx.maxDepth)
        quick.depth = ctx.depth
        quick.dynScope = ctx.dynScope
        var count = 0
        for s in subs {
            var childAnn = Annotations()
            if eval(s, inst, &quick, &childAnn) {
                count += 1
                if count >= limit { break }
            }
        }
        return count
    }

    func evalAnyOf(_ subs: [Int], _ kw: Keyword, _ node: SchemaNode, _ inst: JSONValue, _ ctx: inout EvalContext,
                   _ ann: inout Annotations) -> Bool {
        // A match found without collecting: the full pass would discard every error it collected.
        if let quick = quickMatches(subs, inst, ctx, limit: 1), quick >= 1 { return true }
        let before = ctx.errors.count
        let track = trackAnnotations
        let (matches, merged) = alternatives(subs, kw, inst, &ctx, stop: { _ in !track })
        if !matches.isEmpty {
            if ctx.errors.count > before { ctx.errors.removeSubrange(before...) }
            if track { ann.merge(merged) }
            return true
        }
        fail(&ctx, node, kw.name, "value does not match any of the \(subs.count) alternatives in anyOf")
        return false
    }

    func evalOneOf(_ subs: [Int], _ kw: Keyword, _ node: SchemaNode, _ inst: JSONValue, _ ctx: inout EvalContext,
                   _ ann: inout Annotations) -> Bool {
        // Exactly one match found without collecting: the full pass would discard every error it collected.
        if let quick = quickMatches(subs, inst, ctx, limit: 2), quick == 1 { return true }
        let before = ctx.errors.count
        let collect = ctx.collect
        let (matches, merged) = alternatives(subs, kw, inst, &ctx, stop: { $0 > 1 && !collect })
        if matches.count == 1 {
            if ctx.errors.count > before { ctx.errors.removeSubrange(before...) }
            if trackAnnotations { ann.merge(merged) }
            return true
        }
        if matches.isEmpty {
            fail(&ctx, node, kw.name, "value does not match any of the \(subs.count) alternatives in oneOf")
        } else {
            if ctx.errors.count > before { ctx.errors.removeSubrange(before...) }
            let indices = matches.map(String.init).joined(separator: ", ")
            fail(&ctx, node, kw.name, "value matches more than one alternative in oneOf (indices \(indices))")
        }
        return false
    }

    func evalNot(_ s: Int, _ kw: Keyword, _ node: SchemaNode, _ inst: JSONValue, _ ctx: inout EvalContext) -> Bool {
        let before = ctx.errors.count
        var childAnn = Annotations()
        ctx.pushKW(kw.name)
        let r = eval(s, inst, &ctx, &childAnn)
        ctx.popKW()
        if ctx.errors.count > before { ctx.errors.removeSubrange(before...) }
        if !r { return true }
        fail(&ctx, node, kw.name, "value must not match the schema in 'not'")
        return false
    }

    func evalIfThenElse(_ ifS: Int, _ thenS: Int?, _ elseS: Int?, _ inst: JSONValue, _ ctx: inout EvalContext,
                        _ ann: inout Annotations) -> Bool {
        let before = ctx.errors.count
        var ifAnn = Annotations()
        ctx.pushKW("if")
        let cond = eval(ifS, inst, &ctx, &ifAnn)
        ctx.popKW()
        if ctx.errors.count > before { ctx.errors.removeSubrange(before...) }
        if cond {
            if trackAnnotations { ann.merge(ifAnn) }
            guard let thenS else { return true }
            return sub(thenS, "then", inst, &ctx, &ann)
        }
        guard let elseS else { return true }
        return sub(elseS, "else", inst, &ctx, &ann)
    }

    /// `$dynamicRef`: the outermost resource in the dynamic scope that declares the anchor, else the static target.
    func dynamicTarget(_ initial: Int, _ anchor: String?, _ ctx: EvalContext) -> Int {
        guard let anchor else { return initial }
        for r in ctx.dynScope {
            if let t = dynamicAnchors[r][anchor] { return t }
        }
        return initial
    }
}
