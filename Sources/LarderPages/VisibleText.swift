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
        if e["hidden"] != nil || e["aria-hidden"]?.lowercased() == "true" { return true }
        if let style = e["style"], Whitespace.find(Array("none".utf8), in: style) || Whitespace.find(Array("hidden".utf8), in: style) {
            let compact = Whitespace.collapse(style.lowercased()).replacingOccurrences(of: " ", with: "")
            if compact.contains("display:none") || compact.contains("visibility:hidden") { return true }
        }
        guard e.classMentions("hidden") || e.classMentions("sr-only") || e.classMentions("d-none") else { return false }
        return e.classes.contains { hiddenClasses.contains(String($0)) }
    }

    /// The page's visible lines.
    static func lines(of root: HTMLElement) -> [String] {
        var w = Writer()
        w.walk(root)
        w.flush()
        while w.out.last == "" { w.out.removeLast() }
        return w.out
    }

    /// An element's text with its blocks on separate lines (microdata values such as a whole method).
    static func blockText(_ e: HTMLElement) -> String {
        var w = Writer()
        w.markdown = false
        w.walk(e)
        w.flush()
        return w.out.filter { !$0.isEmpty }.joined(separator: "\n")
    }

    /// An element's text on one line.
    static func inlineText(_ e: HTMLElement) -> String {
        Whitespace.collapse(e.textContent)
    }

    struct Writer {
        var out: [String] = []
        var current = ""
        var prefix = ""
        var markdown = true
        var inItem = false

        mutating func flush() {
            let text = Whitespace.collapse(current)
            if !text.isEmpty { out.append(prefix + text) }
            current = ""
            prefix = ""
        }

        mutating func blank() {
            flush()
            if markdown, let last = out.last, !last.isEmpty { out.append("") }
        }

        mutating func walk(_ e: HTMLElement) {
            for child in e.children {
                switch child {
                case .text(let t): current += t
                case .element(let c):
                    if Self.skip(c) { continue }
                    element(c)
                }
            }
        }

        static func skip(_ e: HTMLElement) -> Bool { VisibleText.skipped.contains(e.name) || VisibleText.isHidden(e) }

        mutating func element(_ c: HTMLElement) {
            // Inline elements add no space (as in a browser: "bowl<a>or</a>" reads "bowlor"); cells and images do.
            guard VisibleText.blocks.contains(c.name) else {
                if c.name == "td" || c.name == "th" || c.name == "img" { current += " " }
                walk(c)
                return
            }
            // Inside a list item, nested blocks (not nested lists) stay on the item's line.
            if inItem && c.name != "ul" && c.name != "ol" && c.name != "li" && c.name != "br" {
                current += " "
                walk(c)
                current += " "
                return
            }
            switch c.name {
            case "br":
                flush()
            case "h1", "h2", "h3", "h4", "h5", "h6":
                blank()
                walk(c)
                if markdown && !Whitespace.isBlank(current) {
                    prefix = String(repeating: "#", count: Int(String(c.name.last!))!) + " "
                }
                blank()
            case "li", "dt", "dd":
                flush()
                let outer = inItem
                inItem = true
                walk(c)
                inItem = outer
                if markdown && !Whitespace.isBlank(current) && prefix.isEmpty { prefix = "- " }
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
