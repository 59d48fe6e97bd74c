import Foundation

/// The kind of a section header.
enum SectionKind: Sendable, Equatable {
    case ingredients, method, notes, other
}

/// One input line after list markers, Markdown syntax and decoration have been read off.
struct Line: Sendable {
    var page: Int
    var number: Int
    /// The raw text.
    var raw: String
    /// The content: list marker, heading marks and inline Markdown removed, trimmed.
    var text: String
    var indent: Int
    var heading: Int = 0
    var bullet = false
    var listNumber: Int? = nil
    var fontSize: Double?
    var bold: Bool
    var isBlank: Bool { text.isEmpty }
    /// Page furniture (page number, running header) removed from the text flow: neither content nor a blank line.
    var skip = false
    /// `true` for the first non-blank line of a page.
    var pageStart = false
    /// Where the page layout puts the line (PDF only).
    var region: SourceLine.Region? = nil

    var provenance: Provenance { Provenance(page: page, lineStart: number, lineEnd: number) }
}

/// Front matter key/value pairs with the line each came from.
struct FrontMatter: Sendable {
    var values: [String: (value: String, list: [String], line: SourceLine)] = [:]

    func string(_ keys: String...) -> (String, SourceLine)? {
        for k in keys {
            if let v = values[k] {
                if !v.value.isEmpty { return (v.value, v.line) }
                if !v.list.isEmpty { return (v.list.joined(separator: ", "), v.line) }
            }
        }
        return nil
    }

    func list(_ keys: String...) -> ([String], SourceLine)? {
        for k in keys {
            guard let v = values[k] else { continue }
            if !v.list.isEmpty { return (v.list, v.line) }
            var s = v.value.trimmingWhitespace()
            if s.hasPrefix("[") && s.hasSuffix("]") { s = String(s.dropFirst().dropLast()) }
            let items = s.split(separator: ",").map { unquote(String($0)) }.filter { !$0.isEmpty }
            if !items.isEmpty { return (items, v.line) }
        }
        return nil
    }
}

func unquote(_ s: String) -> String {
    var t = s.trimmingWhitespace()
    if t.count >= 2, let f = t.first, let l = t.last, (f == "\"" && l == "\"") || (f == "'" && l == "'") {
        t = String(t.dropFirst().dropLast())
    }
    return t.trimmingWhitespace()
}

enum LineReader {
    static let numbered = RX(#"^(?:step\s*)?(\d{1,2})\s*(?:[.):]|\s-)\s+(.*)$"#)
    static let stepWord = RX(#"^step\s+(\d{1,2})\s*[:.\-–—]?\s*(.*)$"#)
    static let bulletRX = RX(#"^(?:[-*+•·▪◦●‣►➤✓✔□■]|–|—)\s+(?:\[[ xX]\]\s+)?(.*)$"#)
    static let headingRX = RX(#"^(#{1,6})\s+(.*?)\s*#*\s*$"#)
    static let image = RX(#"!\[[^\]]*\]\([^)]*\)"#)
    static let link = RX(#"\[([^\]]*)\]\([^)]*\)"#)
    static let html = RX(#"</?[a-zA-Z][^>]*>"#)
    static let emphasis = RX(#"(\*\*|__)"#)
    static let escape = RX(#"\\([\\`*_{}\[\]()#+\-.!])"#)
    static let stepStart: [[UInt8]] = [Array("step".utf8)]
    static let pageNumber = RX(#"^(?:page\s+)?\d{1,4}(?:\s+of\s+\d{1,4})?$|^[-–—]\s*\d{1,4}\s*[-–—]$"#)

    /// Removes inline Markdown: images, links (keeping their text), emphasis markers, HTML tags, code ticks.
    static func cleanInline(_ s: String, markdown: Bool) -> String {
        // Each pattern needs a character most lines lack: test the bytes before running it (this runs per line).
        var t = s
        if t.utf8.contains(0x5D), t.contains("](") {  // images and links need "]("
            t = image.replace(t, with: "")
            t = link.replace(t, with: "$1")
        }
        if markdown {
            if t.utf8.contains(0x3C) { t = html.replace(t, with: "") }
            if t.utf8.contains(0x60) { t = t.replacingOccurrences(of: "`", with: "") }
        }
        if t.utf8.contains(where: { $0 == 0x2A || $0 == 0x5F }), t.contains("**") || t.contains("__") { t = emphasis.replace(t, with: "") }
        if markdown && t.utf8.contains(0x5C) { t = escape.replace(t, with: "$1") }
        return t
    }

    /// Splits off YAML front matter ("---" … "---" at the start).
    static func frontMatter(_ lines: [SourceLine]) -> (FrontMatter?, Int) {
        guard let first = lines.firstIndex(where: { !$0.text.trimmingWhitespace().isEmpty }),
              lines[first].text.trimmingWhitespace() == "---" else { return (nil, 0) }
        var fm = FrontMatter()
        var lastKey: String? = nil
        var i = first + 1
        while i < lines.count {
            let t = lines[i].text
            let trimmed = t.trimmingWhitespace()
            if trimmed == "---" || trimmed == "..." { return (fm, i + 1) }
            if trimmed.hasPrefix("- "), let k = lastKey {
                fm.values[k]?.list.append(unquote(String(trimmed.dropFirst(2))))
            } else if let colon = t.firstIndex(of: ":"), !t.hasPrefix(" ") {
                let key = t[..<colon].trimmingWhitespace().lowercased()
                let value = unquote(String(t[t.index(after: colon)...]))
                fm.values[key] = (value, [], lines[i])
                lastKey = key
            }
            i += 1
            if i - first > 200 { break }
        }
        return (nil, 0) // unterminated: not front matter
    }

    /// Reads source lines into ``Line``s.
    static func read(_ source: [SourceLine], markdown: Bool) -> [Line] {
        var out: [Line] = []
        var lastPage = -1
        var inFence = false
        var inComment = false
        for s in source {
            // Foundation's replacement is a search per line: only for lines with a tab.
            let expanded = s.text.utf8.contains(0x09) ? s.text.replacingOccurrences(of: "\t", with: "    ") : s.text
            let indent = Self.indent(of: expanded)
            var t = expanded.trimmingLinePadding()
            var line = Line(page: s.page, number: s.number, raw: s.text, text: "", indent: indent, fontSize: s.fontSize, bold: s.bold)
            line.region = s.region
            if markdown {
                if t.hasPrefix("```") || t.hasPrefix("~~~") { inFence.toggle(); out.append(line); continue }
                if inFence { out.append(line); continue }
                if t.hasPrefix("<!--") { inComment = !t.contains("-->") ; out.append(line); continue }
                if inComment { if t.contains("-->") { inComment = false }; out.append(line); continue }
                if t.hasPrefix(">") { t = String(t.drop(while: { $0 == ">" })).trimmingWhitespace() }
                if t.hasPrefix("|") || t == "***" || t == "---" || t == "___" { out.append(line); continue }
                if t.utf8.first == 0x23, let m = headingRX.firstMatch(t), let marks = m.groups[0] {
                    line.heading = marks.count
                    t = m.groups[1] ?? ""
                }
            }
            if line.heading == 0 {
                // Each pattern needs its opening: a bullet (an ASCII "-*+" or a non-ASCII mark), "step", a digit.
                let first = t.utf8.first ?? 0
                let step = Prefilter.mayOpenWithWord(t, Self.stepStart)
                if first == 0x2D || first == 0x2A || first == 0x2B || first >= 0x80, let m = bulletRX.firstMatch(t) {
                    line.bullet = true
                    t = m.groups[0] ?? ""
                } else if step, let m = stepWord.firstMatch(t), let n = m.groups[0].flatMap({ Int($0) }) {
                    line.listNumber = n
                    t = m.groups[1] ?? ""
                } else if step || (Prefilter.isDigit(first) && Self.mayBeNumbered(t)) || first >= 0x80,
                          let m = numberedGroups(t) {
                    line.listNumber = m.number
                    t = m.rest
                }
            }
            t = cleanInline(t, markdown: markdown).trimmingWhitespace()
            // A line that was only an image or decoration is blank.
            if line.listNumber == nil && !Self.hasLetterOrNumber(t) { t = "" }
            line.text = t
            if s.page != lastPage && !t.isEmpty {
                line.pageStart = true
                lastPage = s.page
            }
            out.append(line)
        }
        return out
    }

    /// The line's indent: its leading spaces and no-break spaces, as `Character`s (counted on bytes when the run
    /// ends at an ASCII byte, so no combining mark makes the last space another character).
    static func indent(of line: String) -> Int {
        var count = 0
        for byte in line.utf8 {
            if byte == 0x20 { count += 1; continue }
            if byte >= 0x80 { break }
            return count
        }
        if count == line.utf8.count { return count }
        return line.prefix(while: { $0 == " " || $0 == "\u{00A0}" }).count
    }

    /// ``numbered``'s two groups (the number, the text after the marker), or nil when it does not match; read on
    /// the bytes for a line of printable ASCII (``numberedASCII(_:)``), by ICU otherwise.
    static func numberedGroups(_ line: String) -> (number: Int, rest: String)? {
        if let decided = numberedASCII(line) { return decided }
        guard let m = numbered.firstMatch(line), let n = m.groups[0].flatMap({ Int($0) }) else { return nil }
        return (n, m.groups[1] ?? "")
    }

    /// ``numbered`` (`^(?:step\s*)?(\d{1,2})\s*(?:[.):]|\s-)\s+(.*)$`, case-insensitive) on a line whose bytes are
    /// all printable ASCII (0x20–0x7E: ICU's `\s` is then the space, `\d` an ASCII digit, and `.*$` takes the rest):
    /// `.some(nil)` when it does not match, nil for any other line (ICU decides). The match ICU finds, worked out:
    /// a line opening with "step" can only match through it (a digit cannot match its "s"), its spaces all taken;
    /// then one or two digits (a third digit fails at every backtrack); any spaces, then ".", ")" or ":", or "-"
    /// after at least one of those spaces; then one or more spaces, all taken, and the rest is the text.
    static func numberedASCII(_ line: String) -> (number: Int, rest: String)?? {
        var line = line
        return line.withUTF8 { b -> (number: Int, rest: String)?? in
            for byte in b where byte &- 0x20 > 0x5E { return nil }
            var i = 0
            if b.count >= 4, Prefilter.lower(b[0]) == UInt8(ascii: "s"), Prefilter.lower(b[1]) == UInt8(ascii: "t"),
                Prefilter.lower(b[2]) == UInt8(ascii: "e"), Prefilter.lower(b[3]) == UInt8(ascii: "p")
            {
                i = 4
                while i < b.count, b[i] == 0x20 { i += 1 }
            }
            let digitsStart = i
            var number = 0
            while i < b.count, i - digitsStart < 2, Prefilter.isDigit(b[i]) {
                number = number * 10 + Int(b[i] - 0x30)
                i += 1
            }
            guard i > digitsStart, i == b.count || !Prefilter.isDigit(b[i]) else { return .some(nil) }
            let afterDigits = i
            while i < b.count, b[i] == 0x20 { i += 1 }
            guard i < b.count else { return .some(nil) }
            let marker = b[i]
            guard marker == UInt8(ascii: ".") || marker == UInt8(ascii: ")") || marker == UInt8(ascii: ":")
                || (marker == UInt8(ascii: "-") && i > afterDigits)
            else { return .some(nil) }
            i += 1
            let spaces = i
            while i < b.count, b[i] == 0x20 { i += 1 }
            guard i > spaces else { return .some(nil) }
            return .some((number, String(decoding: UnsafeBufferPointer(rebasing: b[i...]), as: UTF8.self)))
        }
    }

    /// Whether a line opening with an ASCII digit may match ``numbered`` (`^(\d{1,2})\s*(?:[.):]|\s-)\s+`): one or two
    /// digits, then after any spaces ".", ")" or ":", or "-" after at least one space. "Maybe" when a non-ASCII byte
    /// comes first (ICU's `\d` and `\s` know more than ASCII); "no" for the ingredient lines that open with an amount
    /// ("2 cups flour", "250 g sugar"), which then skip the pattern.
    static func mayBeNumbered(_ line: String) -> Bool {
        var digits = 0
        var spaces = 0
        for byte in line.utf8 {
            if byte >= 0x80 { return true }
            if spaces == 0 && Prefilter.isDigit(byte) {
                digits += 1
                if digits > 2 { return false }
                continue
            }
            switch byte {
            case 0x20, 0x09...0x0D: spaces += 1
            case UInt8(ascii: "."), UInt8(ascii: ")"), UInt8(ascii: ":"): return true
            case UInt8(ascii: "-"): return spaces > 0
            default: return false
            }
        }
        return false
    }

    /// Whether the text holds a letter or a number (`Character.isLetter || .isNumber`), on bytes for ASCII text.
    static func hasLetterOrNumber(_ text: String) -> Bool {
        var ascii = true
        for byte in text.utf8 {
            if byte >= 0x80 { ascii = false; break }
            if Prefilter.isLetter(byte) || Prefilter.isDigit(byte) { return true }
        }
        return ascii ? false : text.contains(where: { $0.isLetter || $0.isNumber })
    }

    /// Blanks the lines the page layout marked as page numbers, footers and footnotes; running headers are kept
    /// aside (`header`), as a title of last resort.
    static func removeLayoutFurniture(_ lines: inout [Line]) {
        for k in lines.indices {
            switch lines[k].region {
            case .pageNumber, .footer, .footnote, .header:
                lines[k].text = ""
                lines[k].skip = true
            default: break
            }
        }
    }

    /// A line's text as running headers and footers are compared: lower case, without numbers and whitespace. On
    /// bytes for ASCII text (its numbers are the digits, its whitespace tab to CR and space, one `Character` each but
    /// CR LF, which goes as a whole), else by `Character`.
    static func furnitureKey(_ s: String) -> String {
        guard s.utf8.allSatisfy({ $0 < 0x80 }) else { return s.lowercased().filter { !$0.isNumber && !$0.isWhitespace } }
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        for byte in s.utf8 where !Prefilter.isDigit(byte) && byte != 0x20 && !(0x09...0x0D).contains(byte) {
            out.append(Prefilter.lower(byte))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Blanks PDF page furniture: page numbers and running headers/footers repeated on several pages.
    static func removePageFurniture(_ lines: inout [Line]) {
        let pages = Set(lines.map(\.page))
        guard pages.count > 1 else { return }
        var firstLast: [Int: (Int, Int)] = [:]
        for (k, l) in lines.enumerated() where !l.isBlank {
            if let fl = firstLast[l.page] { firstLast[l.page] = (fl.0, k) } else { firstLast[l.page] = (k, k) }
        }
        func key(_ s: String) -> String { furnitureKey(s) }
        var counts: [String: Int] = [:]
        for (_, fl) in firstLast {
            for k in Set([fl.0, fl.1]) where !lines[k].isBlank { counts[key(lines[k].text), default: 0] += 1 }
        }
        for (_, fl) in firstLast {
            for k in Set([fl.0, fl.1]) {
                let t = lines[k].text
                if pageNumber.test(t) || (t.count < 60 && (counts[key(t)] ?? 0) >= 2 && !key(t).isEmpty && pages.count >= 3) {
                    lines[k].text = ""
                    lines[k].skip = true
                }
            }
        }
        // Recompute page starts.
        var lastPage = -1
        for k in lines.indices {
            lines[k].pageStart = false
            if lines[k].page != lastPage && !lines[k].isBlank {
                lines[k].pageStart = true
                lastPage = lines[k].page
            }
        }
    }

    // MARK: Section headers

    static let ingredientHeaders: Set<String> = [
        "ingredients", "ingredient", "ingredient list", "ingredients list", "list of ingredients", "you will need",
        "you'll need", "you will also need", "what you need", "what you'll need", "what you will need", "shopping list",
        "ingredients needed", "for the recipe", "ingredienser", "zutaten", "ingrédients", "ingredientes", "ingrediënten",
    ]
    static let methodHeaders: Set<String> = [
        "method", "methods", "directions", "direction", "instructions", "instruction", "preparation", "steps",
        "step by step", "step-by-step", "how to make it", "how to make", "procedure", "cooking instructions",
        "method of preparation", "to prepare", "making it", "how to cook", "cooking method", "the method",
        "zubereitung", "préparation", "preparación", "bereiding", "recipe instructions", "recipe method",
    ]
    static let noteHeaders: Set<String> = [
        "notes", "note", "tips", "tip", "cook's notes", "cooks notes", "cook's note", "cook's tip", "cook's tips",
        "recipe notes", "chef's notes", "chef's tips", "chef's note", "tips and notes", "notes and tips",
        "tips & notes", "notes & tips", "storage", "storage notes", "to store", "variations", "variation",
        "make ahead", "make-ahead", "serving suggestions", "serving suggestion", "recipe tips", "hints", "hints and tips",
    ]
    static let otherHeaders: Set<String> = [
        "equipment", "nutrition", "nutrition facts", "nutrition information", "nutritional information",
        "nutrition info", "nutrition per serving", "special equipment", "tools", "utensils", "comments", "reviews",
        "source", "sources", "recipe source", "credits", "quelle", "quellen",
    ]

    static func normalizedHeader(_ s: String) -> String {
        asciiNormalizedHeader(s) ?? unicodeNormalizedHeader(s)
    }

    /// ``normalizedHeader(_:)`` for any text, through Foundation.
    static func unicodeNormalizedHeader(_ s: String) -> String {
        // Each replacement only when the text holds its needle's bytes (no other text is canonically equivalent to
        // "’", "…" or "..."), and the trimmed set built once: Foundation's calls were 130 K instructions a line.
        var t = s.lowercased()
        if Self.holds(t, "’") { t = t.replacingOccurrences(of: "’", with: "'") }
        if Self.holds(t, "…") { t = t.replacingOccurrences(of: "…", with: "") }
        if Self.holds(t, "...") { t = t.replacingOccurrences(of: "...", with: "") }
        if let p = t.firstIndex(of: "("), t.hasSuffix(")") || t.hasSuffix("):") { t = String(t[..<p]) }
        t = t.trimmingCharacters(in: headerTrimmed)
        return t.split(separator: " ").joined(separator: " ")
    }

    /// What a header is trimmed of: whitespace, punctuation and symbols.
    static let headerTrimmed = CharacterSet.whitespaces.union(.punctuationCharacters).union(.symbols)

    /// Whether the UTF-8 bytes of `text` hold those of `needle`.
    static func holds(_ text: String, _ needle: String) -> Bool {
        let hay = Array(text.utf8), sought = Array(needle.utf8)
        guard !sought.isEmpty, hay.count >= sought.count else { return false }
        for i in 0...(hay.count - sought.count) where hay[i] == sought[0] {
            if hay[i..<(i + sought.count)].elementsEqual(sought) { return true }
        }
        return false
    }

    /// ``normalizedHeader(_:)`` of ASCII text, on its bytes (it runs for every line, several times); nil for other
    /// text. In ASCII the curly quote and ellipsis do not occur, and the whitespace, punctuation and symbol
    /// characters trimmed are tab, space and every printable character that is not a letter or digit.
    static func asciiNormalizedHeader(_ s: String) -> String? {
        var lower: [UInt8] = []
        lower.reserveCapacity(s.utf8.count)
        for byte in s.utf8 {
            guard byte < 0x80 else { return nil }
            lower.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
        }
        let dot = UInt8(ascii: ".")
        var t: [UInt8] = []  // "..." removed, left to right
        t.reserveCapacity(lower.count)
        var i = 0
        while i < lower.count {
            if i + 2 < lower.count, lower[i] == dot, lower[i + 1] == dot, lower[i + 2] == dot {
                i += 3
            } else {
                t.append(lower[i])
                i += 1
            }
        }
        let close = UInt8(ascii: ")")
        if let p = t.firstIndex(of: UInt8(ascii: "(")),
            t.last == close || (t.count >= 2 && t[t.count - 2] == close && t.last == UInt8(ascii: ":"))
        {
            t.removeSubrange(p...)
        }
        func trimmed(_ byte: UInt8) -> Bool {
            switch byte {
            case 0x09, 0x20...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E: true
            default: false
            }
        }
        guard let first = t.firstIndex(where: { !trimmed($0) }), let last = t.lastIndex(where: { !trimmed($0) }) else {
            return ""
        }
        // Split at spaces and joined by one: each run of spaces becomes one (none at the ends, which are kept bytes).
        var out: [UInt8] = []
        out.reserveCapacity(last - first + 1)
        var afterSpace = false
        for byte in t[first...last] {
            if byte == 0x20 && afterSpace { continue }
            afterSpace = byte == 0x20
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The most bytes a header's normalised form has (``ingredientHeaders`` and the other sets).
    static let longestHeader = [ingredientHeaders, methodHeaders, noteHeaders, otherHeaders]
        .flatMap { $0 }.map(\.utf8.count).max() ?? 0

    /// Whether the ASCII text `s` may normalise to a header: false when it holds more letters and digits than the
    /// longest header before any "(" (``normalizedHeader(_:)`` keeps every letter and digit before a final "(…)",
    /// and lower-cases ASCII one for one). Text with other characters may (Foundation normalises it).
    static func mayBeHeader(_ s: String) -> Bool {
        var count = 0
        for byte in s.utf8 {
            if byte >= 0x80 { return true }
            if byte == UInt8(ascii: "(") { return true }
            if Prefilter.isLetter(byte) || Prefilter.isDigit(byte) {
                count += 1
                if count > longestHeader { return false }
            }
        }
        return true
    }

    /// Whether the first byte of `text` that ``normalizedHeader(_:)`` keeps is an ASCII digit, read on ASCII bytes
    /// (false when a non-ASCII byte comes first). Then neither `text` nor any head of it before a ":" normalises to a
    /// header: trimming keeps that digit first (or, when a "(" comes before it and is cut off, leaves nothing), and
    /// every header opens with a letter.
    static func opensWithDigit(_ text: String) -> Bool {
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39: return true
            case 0x09, 0x20...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E: continue
            default: return false
            }
        }
        return false
    }

    /// Every header opens with a letter (what ``opensWithDigit(_:)`` relies on).
    static let headersOpenWithLetters = [ingredientHeaders, methodHeaders, noteHeaders, otherHeaders]
        .allSatisfy { $0.allSatisfy { $0.first?.isLetter == true } }

    /// The section a header line starts, and any text after "Header:" on the same line.
    static func section(_ line: Line) -> (SectionKind, String?)? {
        guard line.listNumber == nil, !line.isBlank else { return nil }
        let t = line.text
        // An ingredient line ("2 cups flour") is never a header: no header opens with a digit.
        if opensWithDigit(t) { return nil }
        // Counted on bytes when that settles it (as many bytes as characters in ASCII without "\r\n", never fewer).
        let ascii = t.utf8.allSatisfy { $0 < 0x80 }
        let short = t.utf8.count <= 60 || ((!ascii || t.utf8.contains(0x0D)) && t.count <= 60)
        // A colon as a `Character` is its byte in ASCII text.
        let colon = ascii ? t.utf8.firstIndex(of: UInt8(ascii: ":")) : t.firstIndex(of: ":")
        guard short || colon != nil else { return nil }
        // "ingredients." in lower case with a full stop ends a wrapped sentence ("combine all of the" /
        // "ingredients."); a header is capitalised or has no full stop.
        if t.hasSuffix(".") && t.first?.isLowercase == true { return nil }
        func kind(_ h: String) -> SectionKind? {
            if ingredientHeaders.contains(h) { return .ingredients }
            if methodHeaders.contains(h) { return .method }
            if noteHeaders.contains(h) { return .notes }
            if otherHeaders.contains(h) { return .other }
            return nil
        }
        if short, mayBeHeader(t), let k = kind(normalizedHeader(t)) { return (k, nil) }
        if let colon {
            let head = normalizedHeader(String(t[..<colon]))
            let rest = t[t.index(after: colon)...].trimmingWhitespace()
            if let k = kind(head) {
                if rest.isEmpty { return (k, nil) }
                // "Preparation: 10 minutes" is a time, not a header.
                if k == .method && Patterns.parseMinutes(rest) != nil { return nil }
                if k == .other { return (k, nil) }
                return (k, rest)
            }
        }
        return nil
    }
}
