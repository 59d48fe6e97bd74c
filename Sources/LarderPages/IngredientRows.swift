import Foundation
import LarderRecipes

/// Ingredient lines for structured data that names only the ingredients ("ziemniaki", "flour") while the page
/// shows each with its amount in a row of its own (a table row, a list item, a `div` with an amount and a name
/// part). The rows are found by structure: the elements showing the names in order, each widened to its largest
/// ancestor that holds no other name of the list; the row's text is the line. Added to the JSON-LD recipe as
/// `larder:ingredientLines`, which ``LarderRecipes`` uses when the counts agree.
enum IngredientRows {
    /// Whether most of the `recipeIngredient` strings of a JSON-LD script (its first list) have no digit (names
    /// only): a byte scan, so that scripts with amounts (nearly all) are not parsed here.
    static func namesOnly(in json: String) -> Bool {
        var json = json
        return json.withUTF8 { b -> Bool in
            guard let key = find(b, "\"recipeIngredient\"", from: 0) else { return false }
            var i = key + 18
            while i < b.count, b[i] == 0x20 || b[i] == 0x3A || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
            guard i < b.count, b[i] == 0x5B else { return false }  // "["
            var strings = 0, withDigits = 0
            var inString = false, digit = false
            while i < b.count {
                let c = b[i]
                if inString {
                    if c == 0x5C { i += b.count > i + 1 && b[i + 1] == 0x75 ? 6 : 2; continue }  // \uXXXX, \n…
                    if c == 0x22 {
                        inString = false
                        strings += 1
                        if digit { withDigits += 1 }
                    } else if c >= 0x30 && c <= 0x39 {
                        digit = true
                    }
                } else if c == 0x22 {
                    inString = true
                    digit = false
                } else if c == 0x5D {
                    break
                }
                i += 1
            }
            return strings >= 2 && withDigits * 2 < strings
        }
    }

    static func find(_ b: UnsafeBufferPointer<UInt8>, _ s: StaticString, from: Int) -> Int? {
        let n = s.utf8CodeUnitCount
        guard b.count >= n else { return nil }
        var i = from
        while i + n <= b.count {
            if b[i] == s.utf8Start[0], (1..<n).allSatisfy({ b[i + $0] == s.utf8Start[$0] }) { return i }
            i += 1
        }
        return nil
    }

    /// The JSON-LD node with `larder:ingredientLines` added to its names-only recipe when the page shows the
    /// rows; the node unchanged otherwise.
    static func attach(to node: WebPageNode, root: HTMLElement, maxDepth: Int) -> WebPageNode {
        guard namesOnly(in: node.json), let data = node.json.data(using: .utf8),
            let parsed = try? JSONSerialization.jsonObject(with: data)
        else { return node }
        var changed = false
        func visit(_ v: Any, depth: Int) -> Any {
            guard depth < 10, !changed else { return v }
            if let a = v as? [Any] { return a.map { visit($0, depth: depth + 1) } }
            guard var o = v as? [String: Any] else { return v }
            if let names = o["recipeIngredient"] as? [String] {
                if let lines = rows(for: names, in: root, maxDepth: maxDepth) {
                    o["larder:ingredientLines"] = lines
                    changed = true
                }
                return o
            }
            for (k, child) in o where child is [Any] || child is [String: Any] { o[k] = visit(child, depth: depth + 1) }
            return o
        }
        let out = visit(parsed, depth: 0)
        guard changed, let json = try? JSONSerialization.data(withJSONObject: out, options: [.sortedKeys]), let text = String(data: json, encoding: .utf8)
        else { return node }
        return WebPageNode(json: text, origin: node.origin)
    }

    /// The page's rows for `names`, in order, or `nil` when the page does not show every name in a row of its
    /// own, the rows alike (the same element) and at least half of them with more text than the name.
    static func rows(for names: [String], in root: HTMLElement, maxDepth: Int) -> [String]? {
        let keys = names.map { Whitespace.collapse($0).lowercased() }
        guard keys.count >= 2, !keys.contains(where: \.isEmpty) else { return nil }
        let limit = (keys.map(\.utf8.count).max() ?? 0) + 40
        // Short texts in document order, each with its element: where the page may show a name ("flour" in
        // "all-purpose flour").
        var shown: [(text: String, element: HTMLElement)] = []
        func walk(_ e: HTMLElement, depth: Int) {
            guard depth < maxDepth else { return }
            for child in e.children {
                switch child {
                case .text(let t):
                    guard let text = t.collapsedIfShorter(than: limit)?.lowercased(), !text.isEmpty else { continue }
                    shown.append((text, e))
                case .element(let c):
                    walk(c, depth: depth + 1)
                }
            }
        }
        walk(root, depth: 0)
        // From each place the first name is shown (a few at most), the first run naming them all in order.
        for start in shown.indices.filter({ shows(shown[$0].text, keys[0]) }).prefix(20) {
            guard let chosen = inOrder(keys, shown, from: start) else { return nil }  // nor will a later start
            if let lines = rowTexts(chosen, keys) { return lines }
        }
        return nil
    }

    /// Each chosen element widened to its row (its largest ancestor below `body` holding neither neighbour), the
    /// row's text; `nil` unless the rows are alike and hold their names.
    static func rowTexts(_ chosen: [HTMLElement], _ keys: [String]) -> [String]? {
        var lines: [String] = []
        var rowName: String?
        for (k, e) in chosen.enumerated() {
            let neighbours = [k > 0 ? chosen[k - 1] : nil, k + 1 < chosen.count ? chosen[k + 1] : nil].compactMap { $0 }
            var row = e
            while let up = row.parent, !up.is("body"), !neighbours.contains(where: { up.isAncestor(of: $0) }) { row = up }
            let text = rowText(row)
            guard text.lowercased().contains(keys[k]), text.count <= keys[k].count + 80, rowName == nil || rowName == row.name
            else { return nil }
            rowName = row.name
            lines.append(text)
        }
        let richer = zip(lines, keys).filter { $0.0.lowercased() != $0.1 }.count
        return richer * 2 >= lines.count ? lines : nil
    }

    /// A row's text on one line: its text nodes, with a space where blocks, cells, line breaks and images
    /// separate them (inline elements join their text as a browser shows it).
    static func rowText(_ row: HTMLElement) -> String {
        var bytes: [UInt8] = []
        func walk(_ e: HTMLElement) {
            for child in e.children {
                switch child {
                case .text(let t): t.append(to: &bytes)
                case .element(let c):
                    let name = c.name
                    let spaced = VisibleText.blocks.contains(name) || name == "td" || name == "th" || name == "img"
                    if spaced { bytes.append(0x20) }
                    walk(c)
                    if spaced { bytes.append(0x20) }
                }
            }
        }
        walk(row)
        return bytes.withUnsafeBufferPointer { Whitespace.collapse(bytes: $0) }
    }

    /// Whether a shown text names `key`: it is the key, or holds it as whole words ("all-purpose flour").
    static func shows(_ text: String, _ key: String) -> Bool {
        guard text != key else { return true }
        guard let r = text.range(of: key) else { return false }
        let before = r.lowerBound == text.startIndex ? " " : text[text.index(before: r.lowerBound)]
        let after = r.upperBound == text.endIndex ? " " : text[r.upperBound]
        return !before.isLetter && !after.isLetter
    }

    /// The elements of the first run of shown texts from `start` that names every key in order (other texts may
    /// come between).
    static func inOrder(_ keys: [String], _ shown: [(text: String, element: HTMLElement)], from start: Int) -> [HTMLElement]? {
        var chosen = [shown[start].element]
        var i = start + 1
        while chosen.count < keys.count, i < shown.count {
            if shows(shown[i].text, keys[chosen.count]) { chosen.append(shown[i].element) }
            i += 1
        }
        return chosen.count == keys.count ? chosen : nil
    }
}
