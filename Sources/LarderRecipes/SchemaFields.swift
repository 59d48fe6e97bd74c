import Foundation

/// Readers for the value shapes schema.org `Recipe` fields take on real pages: strings with HTML and entities
/// escaped once or twice, lists, objects (`HowToStep`, `HowToSection`, `ItemList`, `PropertyValue`, `Person`,
/// `ImageObject`), index-keyed objects, ISO 8601 durations and yields as numbers, strings or lists.
enum SchemaFields {
    // MARK: JSON

    /// Parses JSON text leniently: as is, else after removing HTML comment and CDATA wrappers, raw control
    /// characters and trailing commas (all common in hand-written JSON-LD). `nil` when it still is not JSON.
    static func jsonValue(_ text: String) -> Any? {
        if let v = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) { return v }
        var t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        for wrapper in ["<!--", "-->", "//<![CDATA[", "//]]>", "<![CDATA[", "]]>"] {
            t = t.replacingOccurrences(of: wrapper, with: "")
        }
        t = escapingRawControls(t)
        t = t.replacingOccurrences(of: #",\s*([\]}])"#, with: "$1", options: .regularExpression)
        if let v = try? JSONSerialization.jsonObject(with: Data(t.utf8), options: [.fragmentsAllowed]) { return v }
        // Several objects one after another: read them as a list.
        let listed = "[" + t.replacingOccurrences(of: #"\}\s*\{"#, with: "},{", options: .regularExpression) + "]"
        return try? JSONSerialization.jsonObject(with: Data(listed.utf8))
    }

    /// JSON text with the raw control characters hand-written JSON-LD holds made valid: a line break inside a
    /// string is the line break it shows (`\n`: an ingredient list typed as one string of lines), any other
    /// control character a space.
    static func escapingRawControls(_ t: String) -> String {
        var out = String.UnicodeScalarView()
        var inString = false, escaped = false
        for s in t.unicodeScalars {
            if inString {
                if escaped { escaped = false } else if s == "\\" { escaped = true } else if s == "\"" { inString = false }
                if s == "\n" || s == "\r" {
                    if s == "\n" { out.append("\\"); out.append("n") }
                    continue
                }
            } else if s == "\"" {
                inString = true
            }
            out.append(s.value < 0x20 ? " " : s)
        }
        return String(out)
    }

    // MARK: Text

    /// A clean one-line text: entities decoded until stable, tags removed, odd spaces plain, runs of white space
    /// one space. Lists give their first text; objects their `text`, `name` or `@value`.
    static func text(_ v: Any?) -> String? {
        if let s = v as? String { return clean(s) }
        if let n = v as? NSNumber { return n.stringValue }
        if let a = v as? [Any] { return a.lazy.compactMap { text($0) }.first { !$0.isEmpty } }
        if let o = v as? [String: Any] { return text(o["text"] ?? o["name"] ?? o["@value"] ?? o["value"]) }
        return nil
    }

    static let tagPattern = try! NSRegularExpression(pattern: #"<[a-zA-Z/!][^>]*>"#)
    static let blockTagPattern = try! NSRegularExpression(
        pattern: #"<\s*(br|/p|p|/li|li|/div|div|/h[1-6]|h[1-6]|/ol|ol|/ul|ul)\b[^>]*>"#, options: [.caseInsensitive])

    /// Cleans one piece of text (see ``text(_:)``).
    static func clean(_ raw: String) -> String {
        var s = raw
        for _ in 0..<3 {  // "&amp;amp;" → "&amp;" → "&"
            let decoded = Entities.decode(s)
            if decoded == s { break }
            s = decoded
        }
        if s.contains("<") {  // block tags separate words; inline ones ("<b>cheddar</b>,") do not
            s = replace(tagPattern, in: replace(blockTagPattern, in: s, with: " "), with: "")
        }
        var scalars = String.UnicodeScalarView()
        var space = true
        for u in s.unicodeScalars {
            switch u.value {
            case 0xFEFF, 0x200B, 0x200C, 0x200D, 0x2060, 0x00AD: continue
            case 0x09, 0x0A, 0x0D, 0x20, 0x00A0, 0x2007, 0x202F, 0x2000...0x200A:
                if !space { scalars.append(" ") }
                space = true
            default:
                scalars.append(u)
                space = false
            }
        }
        if scalars.last == " " { scalars.removeLast() }
        return String(scalars)
    }

    /// Splits text that holds several items (HTML list items, paragraphs, line breaks) into clean lines.
    static func lines(_ raw: String) -> [String] {
        var s = raw
        for _ in 0..<3 {
            let decoded = Entities.decode(s)
            if decoded == s { break }
            s = decoded
        }
        if s.contains("<") { s = replace(blockTagPattern, in: s, with: "\n") }
        return s.components(separatedBy: .newlines).map(clean).filter { !$0.isEmpty }
    }

    /// Whether `s` contains `needle`, byte for byte (Foundation's `contains` compares as NSString does, which
    /// cost more than the rest of the mapping of a step).
    static func has(_ s: String, _ needle: StaticString) -> Bool {
        var s = s
        let n = needle.utf8CodeUnitCount, q = needle.utf8Start
        return s.withUTF8 { b in
            guard n > 0, b.count >= n else { return n == 0 }
            for i in 0...(b.count - n) where b[i] == q[0] {
                var k = 1
                while k < n, b[i + k] == q[k] { k += 1 }
                if k == n { return true }
            }
            return false
        }
    }

    static func replace(_ re: NSRegularExpression, in s: String, with t: String) -> String {
        re.stringByReplacingMatches(in: s, range: NSRange(s.startIndex..., in: s), withTemplate: t)
    }

    // MARK: Lists and names

    /// The elements of a list, of an index-keyed object ({"0": …, "1": …}) in key order, or the value itself.
    static func elements(_ v: Any?) -> [Any] {
        if let a = v as? [Any] { return a }
        if let o = v as? [String: Any], !o.isEmpty, o.keys.allSatisfy({ Int($0) != nil }) {
            return o.keys.sorted { Int($0)! < Int($1)! }.compactMap { o[$0] }
        }
        return v.map { [$0] } ?? []
    }

    /// Keywords and the like: a comma-separated string or a list, each item cleaned, duplicates removed.
    static func list(_ v: Any?) -> [String] {
        var out: [String] = []
        for e in elements(v) {
            let items = (e as? String).map { $0.split(separator: ",").map(String.init) } ?? [text(e) ?? ""]
            for i in items {
                let c = clean(i)
                if !c.isEmpty, !out.contains(c) { out.append(c) }
            }
        }
        return out
    }

    /// A category or cuisine: the list joined with ", ", or `nil`.
    static func joined(_ v: Any?) -> String? {
        let l = list(v)
        return l.isEmpty ? nil : l.joined(separator: ", ")
    }

    /// A person's or organisation's name (the first when a list).
    static func name(_ v: Any?) -> String? {
        for e in elements(v) {
            if let s = e as? String, !clean(s).isEmpty { return clean(s) }
            if let o = e as? [String: Any], let n = text(o["name"]), !n.isEmpty { return n }
        }
        return nil
    }

    /// A URL: a string, an `ImageObject`'s `url`/`contentUrl`, or the first of a list; never a `data:` URL (an image
    /// inlined as base64 is a photo, kept by `extract` as one, not text in the result).
    static func url(_ v: Any?) -> String? {
        for e in elements(v) {
            if let s = e as? String, !s.isEmpty, !s.hasPrefix("data:") { return s.trimmingCharacters(in: .whitespacesAndNewlines) }
            if let o = e as? [String: Any], let u = url(o["url"] ?? o["contentUrl"] ?? o["@id"]) { return u }
        }
        return nil
    }

    // MARK: Numbers

    /// Minutes in a duration: ISO 8601 (`PT1H30M`, `P0DT0H20M`), a number (minutes) or text ("1 hr 20 min");
    /// for a range (`PT20M/PT30M`, "20-30 min") the lower bound. `nil` for zero or unreadable.
    static func minutes(_ v: Any?) -> Double? {
        if let n = v as? NSNumber { return n.doubleValue > 0 ? n.doubleValue : nil }
        guard let s = text(v)?.uppercased(), !s.isEmpty else { return nil }
        let first = s.split(whereSeparator: { $0 == "/" }).first.map(String.init) ?? s
        let m = first.hasPrefix("P") ? isoMinutes(first) : Patterns.parseMinutes(first.lowercased())?.0
        return m.flatMap { $0 > 0 ? ($0 * 100).rounded() / 100 : nil }
    }

    /// ISO 8601 duration `PnYnWnDTnHnMnS` in minutes, read as pages write it: parts in any order and on either
    /// side of the `T` ("PT0D1H0M", "P1H", "P30M": `M` is minutes, recipes take no months), empty numbers as 0
    /// ("PTH25MS"), decimals. `nil` when `s` is not a duration or is negative ("PT-476070H19M").
    static func isoMinutes(_ s: String) -> Double? {
        guard s.hasPrefix("P"), s.count > 1 else { return nil }
        var total = 0.0, number = "", any = false
        for ch in s.dropFirst() {
            if ch.isNumber || ch == "." || ch == "," { number.append(ch == "," ? "." : ch); continue }
            if ch == "T" { continue }
            let n = number.isEmpty ? 0 : Double(number)
            guard let n else { return nil }
            number = ""
            any = true
            switch ch {
            case "Y": total += n * 525_600
            case "W": total += n * 10_080
            case "D": total += n * 1_440
            case "H": total += n * 60
            case "M": total += n
            case "S": total += n / 60
            default: return nil
            }
        }
        return any && number.isEmpty ? total : nil
    }

    /// A yield: the most informative of a list (one with a number and a word, else one with a number).
    static func yields(_ v: Any?) -> RecipeYield? {
        let candidates = elements(v).compactMap { text($0) }.filter { !$0.isEmpty }
        let chosen = candidates.first { $0.contains(where: \.isNumber) && $0.contains(where: \.isLetter) }
            ?? candidates.first { $0.contains(where: \.isNumber) } ?? candidates.first
        guard let raw = chosen else { return nil }
        if let n = Double(raw) { return n > 0 ? RecipeYield(servings: n, text: raw) : nil }
        return Patterns.parseYieldValue(raw, text: raw)
    }

    /// Nutrition values by schema.org name, as text ("297 kcal"); `nil` when none.
    static func nutrition(_ v: Any?) -> [String: String]? {
        guard let o = elements(v).first as? [String: Any] else { return nil }
        var out: [String: String] = [:]
        for (k, value) in o where !k.hasPrefix("@") {
            if let t = text(value), !t.isEmpty { out[k] = t }
        }
        return out.isEmpty ? nil : out
    }

    // MARK: Ingredients

    struct Group {
        var name: String?
        var lines: [String]
    }

    /// `recipeIngredient` (or `ingredients`) as a list of strings or `PropertyValue`s, or one string of lines;
    /// groups when the page marked them (Larder's `larder:ingredientGroups`, from WP Recipe Maker / Tasty markup)
    /// and they hold the same lines.
    static func ingredientGroups(_ o: [String: Any]) -> [Group] {
        var flat: [String] = []
        for e in elements(o["recipeIngredient"] ?? o["ingredients"]).flatMap({ ($0 as? [Any]) ?? [$0] }) {
            if let s = e as? String {
                let many = has(s, "\n") || has(s, "<li") || has(s, "<br") || has(s, "<p")
                flat += (many ? lines(s) : [clean(s)]).map(unbulleted).filter { !$0.isEmpty }
            } else if let item = e as? [String: Any] {
                if let t = text(item["value"] ?? item["text"] ?? item["name"]), !t.isEmpty { flat.append(t) }
            } else if let t = text(e), !t.isEmpty {
                flat.append(t)
            }
        }
        // Names only, and the page shows each in a row with its amount (see LarderPages.IngredientRows).
        if let rows = o["larder:ingredientLines"] as? [String], rows.count == flat.count {
            flat = rows.map(clean)
        }
        if let marked = o["larder:ingredientGroups"] as? [[String: Any]] {
            let groups = marked.map { Group(name: text($0["name"]).flatMap { $0.isEmpty ? nil : $0 },
                                            lines: elements($0["lines"]).compactMap { text($0) }.filter { !$0.isEmpty }) }
            let all = groups.flatMap(\.lines)
            if groups.count > 1, flat.isEmpty { return groups }
            // The page's groups partition the recipe's own lines (the markup's text may carry checkboxes or
            // converted units, so only its names and sizes are used).
            if groups.count > 1, all.count == flat.count {
                var start = 0
                return groups.map { g in
                    defer { start += g.lines.count }
                    return Group(name: g.name, lines: Array(flat[start..<start + g.lines.count]))
                }
            }
        }
        return [Group(name: nil, lines: flat)]
    }

    /// A line without a leading list bullet ("- 300 g flour", "• 2 eggs").
    static func unbulleted(_ s: String) -> String {
        for b in ["- ", "• ", "* ", "· ", "– "] where s.hasPrefix(b) {
            return String(s.dropFirst(b.count)).trimmingWhitespace()
        }
        return s
    }

    // MARK: Instructions

    struct Step {
        var text: String
        var section: String?
    }

    /// `recipeInstructions` flattened into steps and tips (`HowToTip`, which become notes). A `HowToSection`'s
    /// name becomes its steps' section, not a step; so does a `HowToStep`'s own name when it is a heading
    /// ("Marinate") rather than the start of its text, outside a named section. One string is split into its
    /// lines (or HTML paragraphs and items); each item of a list, and each step's text, is one step unless it holds
    /// an HTML list.
    static func instructions(_ v: Any?) -> ([Step], [String]) {
        var steps: [Step] = []
        var tips: [String] = []
        func add(_ raw: String, split: Bool, section: String?) {
            let parts = split || has(raw, "<li") ? lines(raw) : [clean(raw)]
            steps += parts.map { Step(text: $0, section: section) }
        }
        func visit(_ v: Any, section: String?, depth: Int) {
            guard depth < 8 else { return }
            if let s = v as? String { return add(s, split: depth == 0, section: section) }
            if v is [Any] || (v as? [String: Any]).map({ !$0.isEmpty && $0.keys.allSatisfy { Int($0) != nil } }) == true {
                for e in elements(v) { visit(e, section: section, depth: depth + 1) }
                return
            }
            guard let o = v as? [String: Any] else { return }
            if JSONRecipes.isType(o, "HowToTip") {
                if let t = text(o["text"] ?? o["name"]), !t.isEmpty { tips.append(t) }
                return
            }
            if let items = o["itemListElement"] ?? o["steps"] ?? o["step"] {
                // A method given as one section object, not in a list, is the whole method: its name labels the
                // method ("Inserir título", "Method"), as recipe-scrapers reads it, and is no section.
                let isSection = depth > 0 && (JSONRecipes.isType(o, "HowToSection") || JSONRecipes.isType(o, "ItemList") || o["text"] == nil)
                let name = isSection ? text(o["name"] ?? o["Name"]).flatMap { $0.isEmpty ? nil : $0 } : nil
                visit(items, section: name ?? section, depth: depth + 1)
                return
            }
            guard let raw = (o["text"] as? String) ?? (o["description"] as? String) ?? (o["name"] as? String) ?? (o["item"] as? String)
            else { return }
            add(raw, split: false, section: section ?? stepHeading(o["name"], text: raw))
        }
        visit(v ?? [], section: nil, depth: 0)
        steps = steps.compactMap { s in
            let t = unnumbered(s.text)
            return t.isEmpty ? nil : Step(text: t, section: s.section)
        }
        return (withoutMethodHeading(steps), tips)
    }

    /// What pages call the method as a whole ("Instructions", "Zubereitung", "Modo de preparo"), lower case: as
    /// the name of the only section, or as a first step of its own, it is the method's label, not a part of it.
    static let methodHeadings: Set<String> = [
        "instructions", "directions", "method", "preparation", "steps", "how to make it", "how to make",
        "zubereitung", "anleitung", "zubereitungsschritte", "préparation", "preparation de la recette",
        "étapes", "instructions de préparation", "preparazione", "procedimento", "istruzioni", "modo de preparo",
        "modo de preparação", "preparo", "preparación", "elaboración", "instrucciones", "pasos", "bereiding",
        "bereidingswijze", "werkwijze", "przygotowanie", "sposób przygotowania", "postup", "postup přípravy",
        "fremgangsmåde", "tilberedning", "fremgangsmåte", "gör så här", "tillagning", "valmistus", "elkészítés",
    ]

    static func isMethodHeading(_ s: String) -> Bool {
        var t = s.lowercased()
        while let last = t.last, last == ":" || last == " " || last == "." { t.removeLast() }
        return methodHeadings.contains(t)
    }

    /// `steps` without a label for the whole method: the only section's name, or a first step that is one.
    static func withoutMethodHeading(_ steps: [Step]) -> [Step] {
        var steps = steps
        if steps.count > 1, isMethodHeading(steps[0].text), steps[0].section == nil { steps.removeFirst() }
        if let name = steps.first?.section, isMethodHeading(name), steps.allSatisfy({ $0.section == name }) {
            steps = steps.map { Step(text: $0.text, section: nil) }
        }
        return steps
    }

    /// One instruction text whose paragraphs lost their breaks when the page wrote it ("…schneiden.Öl in einer
    /// Pfanne…", "…until browned.Add the onion…": a sentence end followed by a capital with no space): its
    /// sentences-groups, split where the breaks were; `nil` when there is no such place.
    static func gluedParagraphs(_ text: String) -> [String]? {
        var parts: [String] = []
        var current = ""
        var previous: Character = " ", beforePrevious: Character = " "
        for ch in text {
            if ch.isUppercase, previous == "." || previous == "!" || previous == "?",
                beforePrevious.isLowercase || beforePrevious == ")", current.count > 16
            {
                parts.append(current)
                current = ""
            }
            current.append(ch)
            beforePrevious = previous
            previous = ch
        }
        parts.append(current)
        let cleaned = parts.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return cleaned.count > 1 ? cleaned : nil
    }

    static let genericStepName = try! NSRegularExpression(pattern: #"^(?:step|instruction|schritt|étape|etape|paso|passo|stap)\s*\d*$"#, options: [.caseInsensitive])

    /// A `HowToStep`'s name when it heads the step ("Marinate the meat") rather than repeating the start of its
    /// text or numbering it ("Step 2"); otherwise `nil`.
    static func stepHeading(_ name: Any?, text raw: String) -> String? {
        guard let name = text(name), !name.isEmpty, name.count <= 150 else { return nil }
        let body = clean(raw)
        let stem = name.trimmingCharacters(in: CharacterSet(charactersIn: ".…").union(.whitespaces))  // "Preheat the…"
        if body.hasPrefix(stem) || body.lowercased().hasPrefix(stem.lowercased()) { return nil }
        let ns = name as NSString
        if genericStepName.firstMatch(in: name, range: NSRange(location: 0, length: ns.length)) != nil { return nil }
        return name
    }

    static let stepNumber = try! NSRegularExpression(pattern: #"^(?:step\s*)?\d{1,2}\s*[.):]\s+(?=(?-i:\p{Lu}))|^step\s*\d{1,2}\s*[-–—:]?\s*"#, options: [.caseInsensitive])

    /// A step's text without its own numbering ("1. Heat…", "Step 2: Stir…"): steps are numbered by position.
    static func unnumbered(_ s: String) -> String {
        guard let first = s.first, first.isNumber || first == "S" || first == "s" else { return s }
        let ns = s as NSString
        guard let m = stepNumber.firstMatch(in: s, range: NSRange(location: 0, length: ns.length)) else { return s }
        return ns.substring(from: m.range.location + m.range.length)
    }
}

/// HTML character references: numeric ones and the named ones recipe pages use.
enum Entities {
    static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}", "frac12": "½",
        "frac14": "¼", "frac34": "¾", "frac13": "⅓", "frac23": "⅔", "frac18": "⅛", "deg": "°", "ndash": "–",
        "mdash": "—", "hellip": "…", "rsquo": "’", "lsquo": "‘", "rdquo": "”", "ldquo": "“", "sbquo": "‚",
        "bdquo": "„", "laquo": "«", "raquo": "»", "times": "×", "divide": "÷", "middot": "·", "bull": "•",
        "copy": "©", "reg": "®", "trade": "™", "shy": "\u{00AD}", "thinsp": "\u{2009}", "ensp": "\u{2002}",
        "emsp": "\u{2003}", "zwj": "\u{200D}", "zwnj": "\u{200C}", "prime": "′", "Prime": "″", "micro": "µ",
        "plusmn": "±", "frasl": "⁄", "cent": "¢", "pound": "£", "euro": "€", "sup2": "²", "sup3": "³",
        "eacute": "é", "Eacute": "É", "egrave": "è", "Egrave": "È", "ecirc": "ê", "euml": "ë", "aacute": "á",
        "agrave": "à", "acirc": "â", "auml": "ä", "Auml": "Ä", "aring": "å", "atilde": "ã", "ccedil": "ç",
        "Ccedil": "Ç", "iacute": "í", "igrave": "ì", "icirc": "î", "iuml": "ï", "ntilde": "ñ", "Ntilde": "Ñ",
        "oacute": "ó", "ograve": "ò", "ocirc": "ô", "ouml": "ö", "Ouml": "Ö", "otilde": "õ", "oslash": "ø",
        "uacute": "ú", "ugrave": "ù", "ucirc": "û", "uuml": "ü", "Uuml": "Ü", "szlig": "ß", "aelig": "æ",
        "oelig": "œ", "iexcl": "¡", "iquest": "¿", "ordm": "º", "ordf": "ª",
    ]

    /// Decodes one level of character references (`&amp;amp;` becomes `&amp;`).
    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            result += rest[rest.startIndex..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semi = after.prefix(10).firstIndex(of: ";"), let value = reference(String(after[after.startIndex..<semi])) {
                result += value
                rest = after[after.index(after: semi)...]
            } else {
                result += "&"
                rest = after
            }
        }
        return result + rest
    }

    static func reference(_ name: String) -> String? {
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
            return UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
        }
        if name.hasPrefix("#") { return UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) } }
        return named[name]
    }
}
