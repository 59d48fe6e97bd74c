import Foundation

/// The text a reader sees on a page, as lines the recipe parser reads: one block (heading, list item, paragraph,
/// table row) per line, headings as Markdown `#`s, list items as "- ", a blank line after each paragraph,
/// heading and list. Dropped: scripts, styles, forms, navigation, page header/footer, asides, comments and hidden
/// elements (`hidden`, `aria-hidden="true"`, `display:none`, `visibility:hidden`, screen-reader-only classes).
enum VisibleText {
    static let skipped: Set<String> = [
        "script", "style", "noscript", "template", "nav", "header", "footer", "aside", "form", "button", "select",
        "svg", "iframe", "head", "dialog", "menu", "textarea", "input", "label", "object", "canvas",
    ]
    static let blocks: Set<String> = [
        "p", "div", "section", "article", "main", "ul", "ol", "dl", "dt", "dd", "table", "tr", "blockquote", "pre",
        "figure", "figcaption", "address", "fieldset", "details", "summary", "center", "hr", "br", "body", "html",
        "tbody", "thead", "li", "h1", "h2", "h3", "h4", "h5", "h6",
    ]
    static let hiddenClasses: Set<String> = ["hidden", "sr-only", "screen-reader-text", "visually-hidden", "visuallyhidden", "d-none"]

    static func isHidden(_ e: HTMLElement) -> Bool {
        guard e.hasAttributes else { return false }
        if e.has("hidden") || e["aria-hidden"]?.lowercased() == "true" { return true }
        if e.attribute("style", contains: "none") || e.attribute("style", contains: "hidden"), let style = e["style"] {
            let compact = Whitespace.collapse(style.lowercased()).replacingOccurrences(of: " ", with: "")
            if compact.contains("display:none") || compact.contains("visibility:hidden") { return true }
        }
        guard e.classMentions("hidden") || e.classMentions("sr-only") || e.classMentions("d-none") else { return false }
        return e.classes.contains { hiddenClasses.contains(String($0)) }
    }

    /// ARIA landmark roles of a page's furniture.
    static let furnitureRoles: Set<String> = ["navigation", "banner", "contentinfo", "complementary", "search", "dialog", "alertdialog"]
    /// Words that name a page's furniture in class names and ids ("comment-list", "sidebar", "related_posts"): the
    /// readers' comments, side bars, lists of other recipes, share buttons, sign-up boxes, cookie notices.
    static let furnitureWords: Set<String> = [
        "comment", "comments", "sidebar", "related", "share", "sharing", "social", "newsletter", "cookie", "cookies",
        "breadcrumb", "breadcrumbs", "subscribe", "advert", "advertisement", "respond",
    ]

    /// What every furniture word and role starts with, lower case, for ``HTMLElement/attributesMention(_:)``.
    static let furnitureStems = StemTable(furnitureStemList)
    static let furnitureStemList: [[UInt8]] = [
        "comment", "sidebar", "related", "shar", "social", "newsletter", "cookie", "breadcrumb", "subscribe", "advert",
        "respond", "navigation", "banner", "contentinfo", "complementary", "search", "dialog", "alertdialog",
    ].map { Array($0.utf8) }

    /// Whether an element is the page's furniture rather than its content: an ARIA landmark for navigation,
    /// banners, footers and side content, or a class or id that is a furniture word or starts with one (not on `body` or `main`).
    static func isFurniture(_ e: HTMLElement) -> Bool {
        guard e.hasAttributes, !e.is("body"), !e.is("html"), !e.is("main") else { return false }
        // A byte test first: most elements have no furniture word anywhere in their class, id or role.
        guard e.attributesMention(furnitureStems) else { return false }
        if e.has("role"), let role = e["role"], furnitureRoles.contains(role.lowercased()) { return true }
        for attribute in ["class", "id"] {
            guard let value = e[attribute], !value.isEmpty else { continue }
            for token in value.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
                if furnitureWords.contains(String(token)) { return true }
                // "comment-list", "related_posts", "share-buttons": the furniture word leads a short name
                // ("content-sidebar-wrap" and "has-sidebar" hold the content).
                let words = token.split(whereSeparator: { $0 == "-" || $0 == "_" })
                if words.count > 1, words.count <= 3, furnitureWords.contains(String(words[0])) { return true }
            }
        }
        return false
    }

    /// The page's visible lines; elements nested deeper than `maxDepth` are read as inline text.
    static func lines(of root: HTMLElement, maxDepth: Int = HTMLDocument.Limits().maxDepth) -> [String] {
        var w = Writer()
        w.maxDepth = maxDepth
        w.walk(root)
        w.flush()
        while w.out.last == "" { w.out.removeLast() }
        return w.out
    }

    /// An element's text with its blocks on separate lines (microdata values such as a whole method). With
    /// `hiddenToo`, hidden elements count (a microdata value is the element's whole text, as the microdata model
    /// defines it: an icon's hidden name "Velocidade inversa" is part of the step); with `breaks` false, a `<br>`
    /// is a space rather than a new line.
    static func blockText(_ e: HTMLElement, hiddenToo: Bool = false, breaks: Bool = true) -> String {
        var w = Writer()
        w.markdown = false
        w.hiddenToo = hiddenToo
        w.breaks = breaks
        w.walk(e)
        w.flush()
        return w.out.filter { !$0.isEmpty }.joined(separator: "\n")
    }

    /// An element's text on one line.
    static func inlineText(_ e: HTMLElement) -> String {
        Whitespace.collapse(e.textContent)
    }

    /// Writes lines from the tree; text is gathered as UTF-8 bytes and made a String once per line.
    struct Writer {
        var out: [String] = []
        var current: [UInt8] = []
        var prefix = ""
        var markdown = true
        var hiddenToo = false
        var breaks = true
        var inItem = false
        var depth = 0
        var maxDepth = Int.max

        mutating func flush() {
            if !current.isEmpty {
                let text = current.withUnsafeBufferPointer { Whitespace.collapse(bytes: $0) }
                if !text.isEmpty { out.append(prefix + text) }
                current.removeAll(keepingCapacity: true)
            }
            prefix = ""
        }

        mutating func blank() {
            flush()
            if markdown, let last = out.last, !last.isEmpty { out.append("") }
        }

        var currentIsBlank: Bool { Whitespace.isBlank(bytes: current) }

        mutating func walk(_ e: HTMLElement) {
            depth += 1
            defer { depth -= 1 }
            for child in e.children {
                switch child {
                case .text(let t): t.append(to: &current)
                case .element(let c):
                    let name = c.name
                    if VisibleText.skipped.contains(name) || (!hiddenToo && VisibleText.isHidden(c)) || VisibleText.isFurniture(c) {
                        continue
                    }
                    element(c, name)
                }
            }
        }

        mutating func element(_ c: HTMLElement, _ name: String) {
            // Inline elements add no space (as in a browser: "bowl<a>or</a>" reads "bowlor"); cells and images do.
            guard depth < maxDepth, VisibleText.blocks.contains(name) else {
                if name == "td" || name == "th" || name == "img" { current.append(0x20) }
                walk(c)
                return
            }
            // Inside a list item, nested blocks (not nested lists) stay on the item's line.
            if inItem && name != "ul" && name != "ol" && name != "li" && name != "br" {
                current.append(0x20)
                walk(c)
                current.append(0x20)
                return
            }
            switch name {
            case "br":
                if breaks { flush() } else { current.append(0x20) }
            case "h1", "h2", "h3", "h4", "h5", "h6":
                blank()
                walk(c)
                if markdown && !currentIsBlank {
                    prefix = String(repeating: "#", count: Int(String(name.last!))!) + " "
                }
                blank()
            case "li", "dt", "dd":
                flush()
                let outer = inItem
                inItem = true
                walk(c)
                inItem = outer
                if markdown && !currentIsBlank && prefix.isEmpty { prefix = "- " }
                flush()
            case "p", "ul", "ol", "table", "blockquote", "pre", "dl":
                blank()
                walk(c)
                blank()
            default:
                flush()
                walk(c)
                flush()
            }
        }
    }
}
