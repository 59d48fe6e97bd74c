import Foundation
import LarderCore
import LarderJSON

/// One document as the review page shows it: the current result, the stage outputs the source view draws from,
/// and the comparison `larder review show` makes.
struct DocumentReview {
    let document: DocumentRecord
    let fileName: String
    let current: ResultVersion
    let result: JSONValue
    let comparison: (from: ResultVersion?, to: ResultVersion)
    let state: ReviewState
    let reasons: [DocumentResult.Reason]
    /// `detect`'s output: format and pixel size.
    let detect: JSONValue?
    /// `extract`'s output: pages with their lines (PDF, text), or a saved page.
    let extract: JSONValue?

    init(document: DocumentRecord, service: ServiceContext) throws {
        self.document = document
        fileName = DocumentView.displayName(document.path)
        current = try service.reviewer.currentResult(for: document.id)
        result = try JSONValue(parsing: current.json)
        comparison = try service.reviewer.comparison(for: document.id)
        state = try service.store.reviewState(of: document.id)
        reasons = try service.reviewer.queue().first { $0.documentID == document.id }?.reasons ?? []
        let stages = try service.store.stages(of: document.id)
        func output(_ name: String) -> JSONValue? {
            stages.first { $0.stage == name }?.output.flatMap { try? JSONValue(parsing: $0) }
        }
        detect = output(StandardStage.detect.rawValue)
        extract = output(StandardStage.extract.rawValue)
    }

    var kind: String { result["kind"]?.stringValue ?? "unknown" }
    var format: DocumentFormat? { detect?["format"]?.stringValue.flatMap(DocumentFormat.init(rawValue:)) }

    func header(into html: inout HTML) {
        html.raw("<header><nav><a href=\"/review\">← Queue</a>")
        html.raw("<span class=\"muted\"><kbd>j</kbd>/<kbd>k</kbd> next/previous, <kbd>a</kbd> accept, <kbd>r</kbd> reject, ")
        html.raw("<kbd>e</kbd> edit, <kbd>u</kbd> queue</span></nav>")
        html.element("h1", text: fileName)
        var facts = ["document \(document.id)", kind, "version \(current.number) (\(current.origin.rawValue))"]
        if let decision = state.decision { facts.append(decision.rawValue + (state.reason.map { ": \($0)" } ?? "")) }
        html.element("p", text: facts.joined(separator: " · "))
        if !reasons.isEmpty {
            html.raw("<ul class=\"reasons\">")
            for reason in reasons {
                html.raw("<li>")
                html.element("code", text: reason.code.rawValue)
                html.put(" " + reason.message)
                html.raw("</li>")
            }
            html.raw("</ul>")
        }
        html.raw("</header>")
    }

    // MARK: The source

    func sourcePanel(into html: inout HTML) {
        html.raw("<section class=\"panel source\"><h2>Source</h2>")
        if let receipt = result["receipt"], receipt != .null, let lines = receipt["lines"]?.arrayValue {
            photo(lines: lines, into: &html)
        } else if extract?["webPage"] != nil || extract?["pages"]?.arrayValue?.isEmpty == false {
            if let page = extract?["webPage"], page != .null { webPage(page, into: &html) }
            for page in (extract?["pages"]?.arrayValue ?? []).prefix(20) { documentPage(page, into: &html) }
        } else {
            html.element("p", ["class": "muted"], text: "Nothing to show for this \(format?.description ?? "document").")
        }
        html.raw("</section>")
    }

    /// The photo with each OCR line's box, coloured by role; a box shows the field it fed (and the field its box).
    private func photo(lines: [JSONValue], into html: inout HTML) {
        let width = detect?["width"]?.numberValue.map { "\($0)" } ?? "1000"
        let height = detect?["height"]?.numberValue.map { "\($0)" } ?? "1400"
        let shown = format == .png || format == .jpeg
        html.raw("<figure class=\"frame\">")
        if shown {
            html.open("img", ["src": "/review/\(document.id)/source", "alt": "the receipt photo", "id": "photo"])
        } else {
            html.element("p", ["class": "muted"], text: "Your browser cannot show \(format?.description ?? "this file"): the OCR lines are drawn instead.")
        }
        html.open(
            "svg",
            ["class": shown ? "overlay" : "page", "viewBox": "0 0 \(width) \(height)", "preserveAspectRatio": "none",
             "xmlns": "http://www.w3.org/2000/svg"])
        for line in lines {
            guard let box = line["box"], let number = line["number"]?.numberValue else { continue }
            let role = line["role"]?.stringValue ?? "ignored"
            let safeRole = role.filter { $0.isLetter }
            html.open(
                "rect",
                ["class": "box role-\(safeRole)", "data-line": "\(number)", "x": box["x"]?.formText ?? "0",
                 "y": box["y"]?.formText ?? "0", "width": box["width"]?.formText ?? "0", "height": box["height"]?.formText ?? "0"])
            html.element("title", text: "line \(number) (\(role)): " + (line["text"]?.stringValue ?? ""))
            html.close("rect")
            if !shown {
                html.element(
                    "text", ["x": box["x"]?.formText ?? "0", "y": box["y"].map { y in "\((Double(y.formText) ?? 0) + 14)" } ?? "0"],
                    text: line["text"]?.stringValue ?? "")
            }
        }
        html.raw("</svg></figure><p class=\"legend\">")
        for role in ["store", "date", "item", "price", "subtotal", "total"] {
            html.element("span", ["class": "role-\(role)"], text: role)
        }
        html.raw("</p>")
    }

    /// A PDF or text page drawn from its extracted lines, at their places; the lines an ingredient or step came from
    /// are marked and linked to their fields.
    private func documentPage(_ page: JSONValue, into html: inout HTML) {
        let number = page["number"]?.numberValue.map { "\($0)" } ?? "1"
        let used = Set(usedLines().filter { $0.page == number }.map(\.line))
        html.element("h3", text: "Page \(number)")
        if let lines = page["lines"]?.arrayValue, !lines.isEmpty,
            let width = page["width"]?.numberValue, let height = page["height"]?.numberValue
        {
            // The page rendered by poppler, with the lines drawn over it; without pdftoppm, the lines' text alone.
            let rendered = format == .pdf && PageImages.tool != nil
            if rendered {
                html.raw("<figure class=\"frame\">")
                html.open("img", ["src": "/review/\(document.id)/page/\(number)", "alt": "page \(number)", "class": "pdfpage"])
            }
            html.open(
                "svg",
                ["class": rendered ? "overlay" : "page", "viewBox": "0 0 \(width) \(height)", "preserveAspectRatio": "none",
                 "xmlns": "http://www.w3.org/2000/svg"])
            for (index, line) in lines.enumerated() {
                let x = line["x"]?.formText ?? "0", y = line["y"]?.formText ?? "0"
                let key = "p\(number)-\(index + 1)"
                html.open(
                    "rect",
                    ["class": used.contains(index + 1) ? "pline used" : "pline", "data-line": key, "x": x, "y": y,
                     "width": line["width"]?.formText ?? "0", "height": line["height"]?.formText ?? "0"])
                html.close("rect")
                if rendered { continue }
                let baseline = (Double(y) ?? 0) + (Double(line["height"]?.formText ?? "10") ?? 10) * 0.8
                html.element(
                    "text",
                    ["x": x, "y": "\(baseline)", "data-line": key, "textLength": line["width"]?.formText ?? "0",
                     "lengthAdjust": "spacingAndGlyphs"],
                    text: line["text"]?.stringValue ?? "")
            }
            html.raw(rendered ? "</svg></figure>" : "</svg>")
        } else {
            html.raw("<ol class=\"lines\">")
            for (index, text) in (page["text"]?.stringValue ?? "").split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                html.element(
                    "li", ["class": used.contains(index + 1) ? "used" : "", "data-line": "p\(number)-\(index + 1)"], text: String(text))
            }
            html.raw("</ol>")
        }
    }

    /// A saved web page: its title, address, and the structured-data node the recipe was read from.
    private func webPage(_ page: JSONValue, into html: inout HTML) {
        html.element("p", text: "Title: " + (page["title"]?.stringValue ?? "(none)"))
        if let url = page["url"]?.stringValue {
            html.raw("<p>Address: ")
            html.element("code", text: url)
            html.raw("</p>")
        }
        let nodes = page["data"]?.arrayValue ?? []
        let recipeNode = nodes.first { $0["json"]?.stringValue?.contains("Recipe") == true } ?? nodes.first
        if let node = recipeNode, let json = node["json"]?.stringValue {
            html.element("h3", text: "Structured data used (\(node["origin"]?.stringValue ?? "JSON-LD"))")
            let pretty = (try? JSONValue(parsing: json).serialized(options: [.prettyPrinted])) ?? json
            html.element("pre", text: pretty)
        } else {
            html.element("p", ["class": "muted"], text: "No structured data: the recipe was read from the visible page.")
        }
    }

    /// (page, line) of every line an ingredient or step of the result came from.
    func usedLines() -> [(page: String, line: Int)] {
        var out: [(String, Int)] = []
        for recipe in result["recipes"]?.arrayValue ?? [] {
            var spans: [JSONValue] = []
            for group in recipe["ingredientGroups"]?.arrayValue ?? [] {
                spans += (group["ingredients"]?.arrayValue ?? []).compactMap { $0["provenance"] }
            }
            spans += (recipe["steps"]?.arrayValue ?? []).compactMap { $0["provenance"] }
            for span in spans {
                guard let start = span["lineStart"].flatMap({ Int($0.formText) }),
                    let end = span["lineEnd"].flatMap({ Int($0.formText) }), start <= end, end - start < 200
                else { continue }
                let page = span["page"]?.formText ?? "1"
                for line in start...end { out.append((page, line)) }
            }
        }
        return out
    }

    // MARK: Fields, diff, JSON

    func fieldsPanel(into html: inout HTML) {
        html.raw("<section class=\"panel fields\"><h2>Fields</h2>")
        html.open("form", ["method": "post", "action": "/review/\(document.id)/decide", "id": "fields"])
        for field in FieldEdits.fields(of: result) {
            html.open("div", ["class": "field", "data-lines": field.lines])
            html.element("label", ["for": "f" + field.id], text: field.label)
            FieldEdits.control(for: field, into: &html)
            html.raw("</div>")
        }
        html.raw("<div class=\"actions\"><button class=\"primary\" id=\"accept\" type=\"submit\">Accept (a)</button>")
        html.raw("<span class=\"muted\">Changed fields are saved as a new version, accepted.</span></div></form>")
        html.open("form", ["method": "post", "action": "/review/\(document.id)/reject", "id": "reject-form"])
        html.raw("<div class=\"field\"><label for=\"reason\">Reason</label><input id=\"reason\" name=\"reason\" ")
        html.raw("placeholder=\"why it is wrong\"></div><div class=\"actions\">")
        html.raw("<button class=\"danger\" id=\"reject\" type=\"submit\">Reject (r)</button></div></form></section>")
    }

    func diffPanel(into html: inout HTML) {
        html.raw("<section class=\"panel diff\">")
        guard let from = comparison.from, let diff = try? ResultDiff(fromJSON: from.json, toJSON: comparison.to.json) else {
            html.element("h2", text: "Changes")
            html.element("p", ["class": "muted"], text: "Only one version (\(comparison.to.number)): nothing to compare.")
            html.raw("</section>")
            return
        }
        html.element(
            "h2", text: "Changes: version \(from.number) (\(from.origin.rawValue)) → \(comparison.to.number) (\(comparison.to.origin.rawValue))")
        let lines = diff.lines(colour: false)
        html.raw("<ul>")
        for line in lines {
            let kind = line.hasPrefix("+") ? "add" : line.hasPrefix("-") ? "remove" : line.hasPrefix("~") ? "replace" : ""
            html.element("li", ["class": kind], text: line)
        }
        if lines.isEmpty { html.raw("<li>no differences</li>") }
        html.raw("</ul></section>")
    }

    func jsonPanel(into html: inout HTML) {
        html.raw("<section class=\"panel\"><details><summary>The whole result as JSON (edit and save)</summary>")
        html.open("form", ["method": "post", "action": "/review/\(document.id)/edit"])
        html.open("textarea", ["name": "json", "rows": "24", "cols": "80", "spellcheck": "false"])
        html.put(result.serialized(options: [.prettyPrinted, .sortedKeys]))
        html.raw("</textarea><div class=\"actions\"><button type=\"submit\">Save as a new version</button></div></form>")
        html.raw("</details></section>")
    }
}

/// The fields the page offers for editing, by JSON Pointer, and the patch a submitted form makes.
enum FieldEdits {
    struct Field {
        var id: String
        var label: String
        var pointer: String
        var value: JSONValue
        /// The source lines (receipt line numbers, or `p<page>-<line>`) it came from, space-separated.
        var lines: String
    }

    static func fields(of result: JSONValue) -> [Field] {
        var fields: [Field] = []
        func add(_ label: String, _ pointer: String, lines: String = "") {
            guard let value = resolve(pointer, in: result), value.isScalar else { return }
            fields.append(Field(id: String(fields.count), label: label, pointer: pointer, value: value, lines: lines))
        }
        if let receipt = result["receipt"], receipt != .null {
            let lines = receipt["lines"]?.arrayValue ?? []
            func linesOf(role: String) -> String {
                lines.filter { $0["role"]?.stringValue == role }.compactMap { $0["number"]?.formText }.joined(separator: " ")
            }
            add("Store", "/receipt/store/name", lines: linesOf(role: "store"))
            add("Date", "/receipt/date", lines: linesOf(role: "date"))
            for (index, item) in (receipt["items"]?.arrayValue ?? []).enumerated().prefix(200) {
                let line = item["line"]?.formText ?? ""
                add("Item \(index + 1)", "/receipt/items/\(index)/description", lines: line)
                add("Price \(index + 1)", "/receipt/items/\(index)/total", lines: line)
            }
            add("Subtotal", "/receipt/totals/subtotal", lines: linesOf(role: "subtotal"))
            add("Tax", "/receipt/totals/tax", lines: linesOf(role: "tax"))
            add("Total", "/receipt/totals/total", lines: linesOf(role: "total"))
        }
        for (r, recipe) in (result["recipes"]?.arrayValue ?? []).enumerated().prefix(20) {
            add("Title", "/recipes/\(r)/title", lines: span(recipe["provenance"]?["title"]))
            add("Servings", "/recipes/\(r)/yields/servings", lines: span(recipe["provenance"]?["yields"]))
            for (g, group) in (recipe["ingredientGroups"]?.arrayValue ?? []).enumerated() {
                for (i, ingredient) in (group["ingredients"]?.arrayValue ?? []).enumerated().prefix(200) {
                    add("Ingredient", "/recipes/\(r)/ingredientGroups/\(g)/ingredients/\(i)/text", lines: span(ingredient["provenance"]))
                }
            }
            for (s, step) in (recipe["steps"]?.arrayValue ?? []).enumerated().prefix(200) {
                add("Step \(s + 1)", "/recipes/\(r)/steps/\(s)/text", lines: span(step["provenance"]))
            }
        }
        return fields
    }

    /// `p<page>-<line>` for every line of a provenance span.
    static func span(_ provenance: JSONValue?) -> String {
        guard let provenance, let start = provenance["lineStart"].flatMap({ Int($0.formText) }),
            let end = provenance["lineEnd"].flatMap({ Int($0.formText) }), start <= end, end - start < 200
        else { return "" }
        let page = provenance["page"]?.formText ?? "1"
        return (start...end).map { "p\(page)-\($0)" }.joined(separator: " ")
    }

    static func resolve(_ pointer: String, in value: JSONValue) -> JSONValue? {
        guard pointer.hasPrefix("/") else { return nil }
        var node: JSONValue? = value
        for token in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let array = node?.arrayValue {
                guard let index = Int(key), array.indices.contains(index) else { return nil }
                node = array[index]
            } else {
                node = node?[key]
            }
        }
        return node
    }

    /// The prefix of the hidden field that carries a field's value as the page showed it.
    static let originalPrefix = "original:"

    /// A field's control: a text area for text over one line, a yes/no choice for a boolean, else an input; each
    /// with a hidden copy of the value shown, so that only what the person changed becomes an edit.
    static func control(for field: Field, into html: inout HTML) {
        let text = field.value.formText
        switch field.value {
        case .bool(let value):
            html.open("select", ["id": "f" + field.id, "name": field.pointer])
            html.open("option", value ? ["value": "true", "selected": "selected"] : ["value": "true"])
            html.raw("yes</option>")
            html.open("option", value ? ["value": "false"] : ["value": "false", "selected": "selected"])
            html.raw("no</option></select>")
        case .string(let string) where string.contains("\n"):
            html.open("textarea", ["id": "f" + field.id, "name": field.pointer, "rows": String(min(12, string.split(separator: "\n").count + 1))])
            // A text area drops one leading newline of its content: put one there so the value's own is kept.
            html.raw("\n")
            html.put(string)
            html.raw("</textarea>")
        default:
            html.open("input", ["id": "f" + field.id, "name": field.pointer, "value": text])
        }
        html.open("input", ["type": "hidden", "name": originalPrefix + field.pointer, "value": text])
    }

    /// Replace operations for the fields the person changed: a submitted value that differs from the value the page
    /// showed (its hidden copy; without one, the current value). Unchanged values are never touched, trimmed or
    /// retyped. A changed number must stay a number; an emptied field that was null stays null. Only pointers the
    /// page offers are taken.
    static func patch(
        _ submitted: [(String, String)], originals: [String: String] = [:], against current: JSONValue
    ) throws -> [JSONValue] {
        let offered = Dictionary(fields(of: current).map { ($0.pointer, $0.value) }, uniquingKeysWith: { a, _ in a })
        var operations: [JSONValue] = []
        for (pointer, submittedText) in submitted {
            guard let old = offered[pointer] else { continue }
            // Browsers send a text area's line ends as CRLF.
            let text = submittedText.replacingOccurrences(of: "\r\n", with: "\n")
            let shown = originals[pointer]?.replacingOccurrences(of: "\r\n", with: "\n") ?? old.formText
            if text == shown { continue }
            guard let new = try value(text, replacing: old, at: pointer), new != old else { continue }
            operations.append(.object(["op": "replace", "path": .string(pointer), "value": new]))
        }
        return operations
    }

    /// The value a changed field's text stands for, of the old value's type; nil to leave it alone.
    private static func value(_ text: String, replacing old: JSONValue, at pointer: String) throws -> JSONValue? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch old {
        case .number:
            guard let number = JSONNumber(literal: trimmed) else {
                throw APIError(.badRequest, "\(pointer) must be a number, not '\(trimmed.prefix(40))'")
            }
            return .number(number)
        case .null:
            if trimmed.isEmpty { return nil }
            return JSONNumber(literal: trimmed).map(JSONValue.number) ?? .string(text)
        case .bool:
            guard trimmed == "true" || trimmed == "false" else {
                throw APIError(.badRequest, "\(pointer) must be true or false, not '\(trimmed.prefix(40))'")
            }
            return .bool(trimmed == "true")
        default:
            return .string(text)
        }
    }

    /// The patch a submitted fields form makes: its field values against their hidden originals.
    static func patch(form: [(String, String)], against current: JSONValue) throws -> [JSONValue] {
        var originals: [String: String] = [:]
        for (name, value) in form where name.hasPrefix(originalPrefix) { originals[String(name.dropFirst(originalPrefix.count))] = value }
        return try patch(form.filter { $0.0.hasPrefix("/") }, originals: originals, against: current)
    }
}

extension JSONValue {
    var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }
}
