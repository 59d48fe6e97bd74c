import Foundation

/// Assertion keywords: each checks the instance alone and fails with one message (or, for `required` and
/// `dependentRequired`, one message per missing property).
extension SchemaProgram {
    /// The message for an assertion keyword that `inst` breaks, or nil when it holds (or does not apply to the
    /// instance's type). Messages are built only on failure.
    static func assertionFailure(_ kind: KeywordKind, _ inst: JSONValue) -> String? {
        switch (kind, inst) {
        case (.type(let mask, let names), _):
            if mask.matches(inst) { return nil }
            let expected = names.count == 1 ? names[0] : names.joined(separator: " or ")
            return "expected \(expected), got \(typeDescription(inst)) \(short(inst))"
        case (.enumeration(let values), _):
            return values.contains(inst) ? nil : "value \(short(inst)) is not one of \(short(.array(values)))"
        case (.const(let v), _):
            return v == inst ? nil : "value \(short(inst)) must be \(short(v))"
        case (.minimum, .number), (.maximum, .number), (.exclusiveMinimum, .number), (.exclusiveMaximum, .number),
             (.multipleOf, .number):
            return numberFailure(kind, inst)
        case (.minLength, .string), (.maxLength, .string), (.pattern, .string), (.format, .string):
            return stringFailure(kind, inst)
        case (.minItems, .array), (.maxItems, .array), (.uniqueItems, .array):
            return arrayFailure(kind, inst)
        case (.minProperties(let m), .object(let o)):
            return o.count >= m ? nil : "object has \(o.count) propert\(o.count == 1 ? "y" : "ies"), fewer than the minimum \(m)"
        case (.maxProperties(let m), .object(let o)):
            return o.count <= m ? nil : "object has \(o.count) properties, more than the maximum \(m)"
        default:
            return nil  // the keyword does not apply to this instance's type
        }
    }

    private static func numberFailure(_ kind: KeywordKind, _ inst: JSONValue) -> String? {
        guard case .number(let n) = inst else { return nil }
        switch kind {
        case .minimum(let m): return n >= m ? nil : "\(n) is less than the minimum \(m)"
        case .maximum(let m): return n <= m ? nil : "\(n) is greater than the maximum \(m)"
        case .exclusiveMinimum(let m): return n > m ? nil : "\(n) must be greater than \(m)"
        case .exclusiveMaximum(let m): return n < m ? nil : "\(n) must be less than \(m)"
        case .multipleOf(let m): return n.isMultiple(of: m) ? nil : "\(n) is not a multiple of \(m)"
        default: return nil
        }
    }

    private static func stringFailure(_ kind: KeywordKind, _ inst: JSONValue) -> String? {
        guard case .string(let s) = inst else { return nil }
        switch kind {
        case .minLength(let m):
            if s.utf8.count >= m && s.unicodeScalars.count >= m { return nil }
            return "string is shorter than \(m) character\(m == 1 ? "" : "s")"
        case .maxLength(let m):
            if s.utf8.count <= m || s.unicodeScalars.count <= m { return nil }
            return "string is longer than \(m) character\(m == 1 ? "" : "s")"
        case .pattern(let re):
            return re.matches(s) ? nil : "string \(short(inst)) does not match pattern '\(re.source)'"
        case .format(let name, let assert):
            guard assert, !(FormatValidators.check(name, s) ?? true) else { return nil }
            return "\(short(inst)) is not a valid \(name)"
        default:
            return nil
        }
    }

    private static func arrayFailure(_ kind: KeywordKind, _ inst: JSONValue) -> String? {
        guard case .array(let a) = inst else { return nil }
        switch kind {
        case .minItems(let m):
            return a.count >= m ? nil : "array has \(a.count) item\(a.count == 1 ? "" : "s"), fewer than the minimum \(m)"
        case .maxItems(let m):
            return a.count <= m ? nil : "array has \(a.count) items, more than the maximum \(m)"
        case .uniqueItems:
            guard a.count > 1 else { return nil }
            var seen: [JSONValue: Int] = [:]
            for (i, v) in a.enumerated() {
                if let j = seen[v] { return "array items \(j) and \(i) are equal" }
                seen[v] = i
            }
            return nil
        default:
            return nil
        }
    }

    func evalRequired(_ names: [String], _ kw: Keyword, _ node: SchemaNode, _ inst: JSONValue,
                      _ ctx: inout EvalContext) -> Bool {
        guard case .object(let o) = inst else { return true }
        var ok = true
        for n in names where o[n] == nil {
            ok = false
            fail(&ctx, node, kw.name, "required property '\(n)' is missing")
            if !ctx.collect { return false }
        }
        return ok
    }

    func evalDependentRequired(_ deps: [(String, [String])], _ kw: Keyword, _ node: SchemaNode, _ inst: JSONValue,
                               _ ctx: inout EvalContext) -> Bool {
        guard case .object(let o) = inst else { return true }
        var ok = true
        for (k, names) in deps where o[k] != nil {
            for n in names where o[n] == nil {
                ok = false
                fail(&ctx, node, kw.name, "property '\(n)' is required when '\(k)' is present")
                if !ctx.collect { return false }
            }
        }
        return ok
    }
}
