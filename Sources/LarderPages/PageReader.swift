import Foundation
import LarderRecipes
import LarderSupport

/// Reads a saved web page (bytes only; no I/O): its address, title, structured data (every JSON-LD script and
/// every microdata `Recipe` item) and visible text, for ``RecipeParser/parse(page:source:)``.
public struct PageReader: Sendable {
    /// What a page holds.
    public struct Reading: Sendable {
        /// Address, title and structured data.
        public var page: WebPage
        /// The visible text, one block per line, Markdown-style (see ``VisibleText``).
        public var text: String { lines.joined(separator: "\n") }
        /// The same, as lines.
        public var lines: [String]
        /// The encoding the bytes were read as.
        public var encoding: String
    }

    public var limits = HTMLDocument.Limits()

    public init() {}

    /// Parses `data` (HTML, or an MHTML archive's HTML part); `encoding` overrides the page's declared charset.
    public func read(_ data: Data, encoding: String? = nil) throws(HTMLParseError) -> Reading {
        var data = data, encoding = encoding
        if let part = MHTML.html(in: data) {
            data = part.html
            encoding = part.charset ?? encoding.flatMap { $0.lowercased().hasPrefix("utf") ? nil : $0 }
        }
        let doc = try HTMLDocument.parse(data, encoding: encoding, limits: limits)
        defer { withExtendedLifetime(doc) {} }  // the element views below point into it
        guard let root = doc.root else { throw .unreadable }
        var index = PageIndex(limits: limits)
        try index.scan(root)
        var nodes: [WebPageNode] = []
        for (n, script) in index.jsonLD.enumerated() {
            let node = WebPageNode(json: script.textContent, origin: "ld+json script \(n + 1)")
            nodes.append(IngredientRows.attach(to: node, root: root, maxDepth: limits.maxDepth))
        }
        for (item, position) in index.microdataRecipes {
            let object = Microdata.item(item)
            if let json = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), let text = String(data: json, encoding: .utf8) {
                nodes.append(WebPageNode(json: text, origin: "microdata element \(position) (\(item.name))"))
            }
        }
        let groups = IngredientGroupMarkup.groups(index.ingredientGroups)
        if !groups.isEmpty { nodes = nodes.map { IngredientGroupMarkup.attach(groups, to: $0) } }
        let page = WebPage(url: index.url, title: PageTitle.choose(index), data: nodes)
        return Reading(page: page, lines: VisibleText.lines(of: root, maxDepth: limits.maxDepth), encoding: doc.encoding)
    }

    /// Reads `data` and parses its recipes: structured data first, else the visible text.
    public func recipes(in data: Data, file: String, sha256: String, parser: RecipeParser = RecipeParser()) throws(HTMLParseError) -> [Recipe] {
        let reading = try read(data)
        let lines = reading.lines.enumerated().map { SourceLine(page: 1, number: $0.offset + 1, text: $0.element) }
        let source = RecipeSource(file: file, sha256: sha256, format: "html", lines: lines)
        return parser.parse(page: reading.page, source: source)
    }
}

/// One pass over the tree collecting what the readers need: head metadata, the first `<h1>`, JSON-LD scripts,
/// microdata `Recipe` items (with their position among the page's elements) and ingredient-group containers;
/// it also enforces the element and time limits.
struct PageIndex {
    var canonical: String?
    var ogURL: String?
    var ogTitle: String?
    var title: String?
    var h1: String?
    var siteName: String?
    var jsonLD: [HTMLElement] = []
    var microdataRecipes: [(HTMLElement, Int)] = []
    var ingredientGroups: [HTMLElement] = []
    let limits: HTMLDocument.Limits
    var count = 0
    let start = PageIndex.cpuSeconds()

    init(limits: HTMLDocument.Limits) { self.limits = limits }

    var url: String? { canonical ?? ogURL }

    static func cpuSeconds() -> Double { ThreadCPUClock.seconds() }

    /// Scans `e` and everything below it; inside a microdata recipe only elements are counted and groups found
    /// (a recipe's nested items, scripts and headings are its own).
    mutating func scan(_ e: HTMLElement, depth: Int = 0, inRecipe: Bool = false) throws(HTMLParseError) {
        count += 1
        if count % 2048 == 0, Self.cpuSeconds() - start > limits.maxSeconds { throw .tooSlow(limits.maxSeconds) }
        if e.hasAttributes, e.classMentions("group"), IngredientGroupMarkup.isContainer(e) { ingredientGroups.append(e) }
        var inside = inRecipe
        if !inRecipe {
            look(at: e)
            if e.hasAttributes, e.has("itemscope"), let type = e["itemtype"], type.lowercased().hasSuffix("/recipe") {
                microdataRecipes.append((e, count))
                inside = true
            }
        }
        guard depth + 1 < limits.maxDepth else { return }
        for case .element(let child) in e.children where count < limits.maxElements {
            try scan(child, depth: depth + 1, inRecipe: inside)
        }
    }

    mutating func look(at e: HTMLElement) {
        // Only these few elements matter; test the name's bytes before making a String of it.
        guard e.is("link") || e.is("meta") || e.is("title") || e.is("h1") || e.is("script") else { return }
        switch e.name {
        case "link":
            if canonical == nil, (e["rel"] ?? "").lowercased().split(separator: " ").contains("canonical"),
                let href = e["href"], href.hasPrefix("http")
            {
                canonical = href.trimmingCharacters(in: .whitespaces)
            }
        case "meta":
            let property = (e["property"] ?? e["name"] ?? "").lowercased()
            if property == "og:url", ogURL == nil, let c = e["content"], c.hasPrefix("http") { ogURL = c }
            if property == "og:title", ogTitle == nil, let c = e["content"] { ogTitle = c }
            if property == "og:site_name", siteName == nil, let c = e["content"] { siteName = c }
        case "title":
            if title == nil { title = e.textContent }
        case "h1":
            if h1 == nil { h1 = e.textContent }
        case "script":
            if (e["type"] ?? "").lowercased().contains("ld+json") { jsonLD.append(e) }
        default:
            break
        }
    }
}

/// The page title: `og:title`, else `<title>`, else the first `<h1>`, with the site name after " | ", " - ",
/// " – ", " — " or " :: " removed; the `<h1>` when it is the same title without decoration.
enum PageTitle {
    static let separators = [" | ", " – ", " — ", " - ", " :: ", " · ", " • ", " « ", " » "]

    static func choose(_ index: PageIndex) -> String? {
        let h1 = index.h1.map(clean).flatMap { $0.isEmpty ? nil : $0 }
        for raw in [index.ogTitle, index.title] {
            guard let raw else { continue }
            let full = clean(raw)
            // A title that is only the site's name says nothing about the recipe.
            guard !full.isEmpty, full.lowercased() != index.siteName.map(clean)?.lowercased() else { continue }
            if let h1, full.lowercased().contains(h1.lowercased()), h1.count >= 3 { return h1 }
            return stripSite(full)
        }
        return h1
    }

    /// "Dan Dan Noodles | I Am A Food Blog" → "Dan Dan Noodles": the text before the last separator, when what
    /// follows it is short (a site name).
    /// A title whose site name follows a section after another " | " ("Creamed Chicken | Chicken Recipes |
    /// 30Seconds Food": a category) loses both; other separators repeat inside titles ("Salt - Pepper - Site").
    static func stripSite(_ title: String) -> String {
        guard let range = separators.compactMap({ title.range(of: $0, options: .backwards) }).max(by: { $0.lowerBound < $1.lowerBound })
        else { return title }
        let head = String(title[..<range.lowerBound]).trimmingCharacters(in: .whitespaces)
        guard head.count >= 3 && title[range.upperBound...].count <= 40 else { return title }
        if title[range] == " | ", let inner = head.range(of: " | ", options: .backwards), head[inner.upperBound...].count <= 40 {
            let first = String(head[..<inner.lowerBound]).trimmingCharacters(in: .whitespaces)
            if first.count >= 3 { return first }
        }
        return head
    }

    static func clean(_ s: String) -> String {
        Whitespace.collapse(s)
    }
}
