import Foundation

/// The one place that maps schema.org `Recipe` objects (JSON-LD, also inside lists, `@graph`, a `WebPage`'s
/// `mainEntity`; `@type` a string or a list, any case) and recipe-scrapers style objects (`title`, `ingredients`,
/// `instructions_list`, `yields`, `*_time` in minutes) to ``Recipe``s — for JSON documents and for saved web pages
/// (JSON-LD scripts and microdata, see ``WebPage``).
///
/// Fields are read directly (``SchemaFields`` reads each value kind); every ingredient line goes through the
/// ingredient parser and every step gets its durations, temperatures and ingredients, as for text. Provenance
/// points at the first document line holding the value (line 1 when it cannot be found).
enum JSONRecipes {
    /// A recipe object and its path inside the JSON value ("@graph[3]", "[0].mainEntity").
    struct Found {
        var object: [String: Any]
        var path: String
    }

    /// Recipe-like objects found in `text`, or `nil` when the text is not JSON or holds no recipe.
    static func objects(in text: String) -> [[String: Any]]? {
        guard let root = SchemaFields.jsonValue(text) else { return nil }
        let found = find(in: root).map(\.object)
        return found.isEmpty ? nil : found
    }

    /// Whether an object's `@type` (a string, a URL or a list of them) names `type`, ignoring case.
    static func isType(_ o: [String: Any], _ type: String) -> Bool {
        let raw = o["@type"] ?? o["type"]
        let types = (raw as? [Any])?.compactMap { $0 as? String } ?? [(raw as? String) ?? ""]
        return types.contains { t in
            let last = t.split(separator: "/").last.map(String.init) ?? t
            return last.caseInsensitiveCompare(type) == .orderedSame
        }
    }

    /// Every recipe object inside `root`, depth first, with its path.
    static func find(in root: Any) -> [Found] {
        var found: [Found] = []
        func visit(_ v: Any, path: String, depth: Int) {
            guard depth < 12 else { return }
            if let a = v as? [Any] {
                for (i, e) in a.enumerated() { visit(e, path: path + "[\(i)]", depth: depth + 1) }
                return
            }
            guard let o = v as? [String: Any] else { return }
            if isType(o, "Recipe") || o["recipeIngredient"] != nil
                || (o["ingredients"] is [Any] && (o["title"] != nil || o["name"] != nil))
            {
                found.append(Found(object: o, path: path))
                return
            }
            for key in ["@graph", "mainEntity", "mainEntityOfPage", "itemListElement", "item", "hasPart", "about"] {
                if let g = o[key] { visit(g, path: path + (path.isEmpty ? "" : ".") + key, depth: depth + 1) }
            }
        }
        visit(root, path: "", depth: 0)
        return found
    }

    /// Parses the JSON document in `source`; `nil` when it holds no recipe object.
    static func parse(_ source: RecipeSource, parser: RecipeParser, maxParts: Int = .max) throws(RecipePartsOverLimit)
        -> [Recipe]?
    {
        let text = source.lines.map(\.text).joined(separator: "\n")
        guard let root = SchemaFields.jsonValue(text) else { return nil }
        let found = find(in: root)
        guard !found.isEmpty else { return nil }
        try checkListedParts(found.map(\.object), limit: maxParts)
        let locator = LineLocator(lines: source.lines)
        return found.compactMap { recipe(from: $0.object, source: source, locator: locator, parser: parser, keyLines: true) }
    }

    /// Throws when the recipe objects' ingredient and instruction lists hold more than `limit` items together,
    /// counted before any is mapped (mapping locates each in the document's lines, and parses it).
    static func checkListedParts(_ objects: [[String: Any]], limit: Int) throws(RecipePartsOverLimit) {
        var parts = 0
        for o in objects {
            for key in ["recipeIngredient", "ingredients", "recipeInstructions", "instructions_list", "instructions"] {
                parts += (o[key] as? [Any])?.count ?? 0
            }
        }
        if parts > limit { throw RecipePartsOverLimit(parts: parts, limit: limit) }
    }

    /// Maps one recipe object. `nil` when it has neither ingredients nor steps. With `keyLines`, recipe-level
    /// provenance points at the line naming the key (JSON documents); otherwise at the line showing the value.
    static func recipe(from o: [String: Any], source: RecipeSource, locator: LineLocator, parser: RecipeParser,
                       keyLines: Bool) -> Recipe? {
        let F = SchemaFields.self
        let title = F.text(o["name"] ?? o["headline"] ?? o["title"]) ?? ""
        var schemaGroups = F.ingredientGroups(o)
        // One ingredient text the document shows as list items: those are the lines.
        if schemaGroups.count == 1, schemaGroups[0].lines.count == 1, schemaGroups[0].lines[0].count > 60,
            let items = locator.listItems(making: schemaGroups[0].lines[0])
        {
            schemaGroups[0].lines = items
        }
        var (stepTexts, notes) = F.instructions(o["recipeInstructions"] ?? o["instructions_list"] ?? o["instructions"])
        // One long instruction text the document itself shows as paragraphs or items: those are the steps.
        if stepTexts.count == 1, stepTexts[0].text.count > 120,
            let parts = locator.split(stepTexts[0].text) ?? SchemaFields.gluedParagraphs(stepTexts[0].text)
        {
            stepTexts = parts.map { SchemaFields.Step(text: $0, section: stepTexts[0].section) }
        }
        guard schemaGroups.contains(where: { !$0.lines.isEmpty }) || !stepTexts.isEmpty else { return nil }

        let groups = locator.headedGroups(locator.withAmounts(schemaGroups))
        var ingredientGroups: [IngredientGroup] = []
        var confidences: [Double] = []
        for g in groups where !g.lines.isEmpty {
            let items = g.lines.map { schemaLine -> RecipeIngredient in
                let line = locator.withCutAmount(schemaLine)
                let p = locator.find(line)
                let d = RecipeParser.Draft(text: line, page: p.page, start: p.lineStart, end: p.lineEnd)
                return parser.makeIngredient(d)
            }
            confidences += items.map(\.confidence)
            ingredientGroups.append(IngredientGroup(name: g.name, ingredients: items))
        }
        let matcher = IngredientMatcher(groups: ingredientGroups)
        let steps = stepTexts.enumerated().map { (i, s) in
            RecipeStep(number: i + 1, text: s.text, durations: mayNameDuration(s.text) ? Patterns.stepDurations(in: s.text) : [],
                       temperatures: Patterns.temperatures(in: s.text), ingredients: matcher.match(s.text),
                       provenance: locator.find(s.text), section: s.section)
        }
        var r = Recipe(title: title.isEmpty ? "Untitled recipe" : title, ingredientGroups: ingredientGroups, steps: steps,
                       notes: notes, source: RecipeSourceInfo(file: source.file, sha256: source.sha256,
                                                               pages: locator.pages, format: source.format))
        readMeta(o, into: &r)
        r.provenance = provenance(of: r, o, locator: locator, keyLines: keyLines)
        let ingScore = confidences.isEmpty ? 0 : confidences.reduce(0, +) / Double(confidences.count)
        // Structured data names every part: title and structure count fully (see RecipeParser's formula).
        let confidence = 0.2 * (title.isEmpty ? 0.3 : 1) + 0.35 * ingScore + 0.3 * (steps.isEmpty ? 0 : 1) + 0.15
        r.confidence = (min(1, max(0, confidence)) * 100).rounded() / 100
        return r
    }

    /// Whether `text` may hold a duration as ``Patterns/durations(in:)`` reads one: it has a unit word's start
    /// ("hour", "hr", "min", "sec", "day", any case) or a digit (or non-ASCII character) right before "h" or "m".
    /// Most steps have neither, and the regular expressions are then not run.
    static func mayNameDuration(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { b in
            var previous: UInt8 = 0
            for i in 0..<b.count {
                let c = b[i] >= 0x41 && b[i] <= 0x5A ? b[i] | 0x20 : b[i]
                defer { previous = c }
                guard c == 0x68 || c == 0x6D || c == 0x73 || c == 0x64 else { continue }  // h m s d
                if c == 0x68 || c == 0x6D, (previous >= 0x30 && previous <= 0x39) || previous >= 0x80 { return true }
                func next(_ word: StaticString) -> Bool {
                    let n = word.utf8CodeUnitCount
                    guard i + n <= b.count else { return false }
                    for k in 1..<n where (b[i + k] >= 0x41 && b[i + k] <= 0x5A ? b[i + k] | 0x20 : b[i + k]) != word.utf8Start[k] {
                        return false
                    }
                    return true
                }
                switch c {
                case 0x68: if next("hour") || next("hr") { return true }
                case 0x6D: if next("min") { return true }
                case 0x73: if next("sec") { return true }
                default: if next("day") { return true }
                }
            }
            return false
        }
    }

    /// Description, yields, times, tags, cuisine, category, author, image, nutrition and URL.
    static func readMeta(_ o: [String: Any], into r: inout Recipe) {
        let F = SchemaFields.self
        if let d = F.text(o["description"]), !d.isEmpty { r.description = d }
        r.yields = F.yields(o["recipeYield"] ?? o["yield"] ?? o["yields"])
        r.prepMinutes = F.minutes(o["prepTime"] ?? o["prep_time"])
        r.cookMinutes = F.minutes(o["cookTime"] ?? o["cook_time"])
        r.totalMinutes = F.minutes(o["totalTime"] ?? o["total_time"])
        r.tags = F.list(o["keywords"])
        r.cuisine = F.joined(o["recipeCuisine"] ?? o["cuisine"])
        r.mealType = F.joined(o["recipeCategory"] ?? o["category"])
        r.author = F.name(o["author"] ?? o["creator"])
        r.image = F.url(o["image"] ?? o["thumbnailUrl"])
        r.nutrition = F.nutrition(o["nutrition"] ?? o["nutrients"])
        r.source.url = F.url(o["url"] ?? o["canonical_url"])
    }

    /// Where each recipe-level value came from.
    static func provenance(of r: Recipe, _ o: [String: Any], locator: LineLocator, keyLines: Bool) -> [String: Provenance] {
        let fields: [(String, Bool, [String], String?)] = [
            ("title", true, [], r.title),
            ("description", r.description != nil, [], r.description),
            ("yields", r.yields != nil, ["recipeYield", "yields"], r.yields?.text),
            ("prepMinutes", r.prepMinutes != nil, ["prepTime", "prep_time"], nil),
            ("cookMinutes", r.cookMinutes != nil, ["cookTime", "cook_time"], nil),
            ("totalMinutes", r.totalMinutes != nil, ["totalTime", "total_time"], nil),
            ("tags", !r.tags.isEmpty, ["keywords"], nil),
            ("cuisine", r.cuisine != nil, ["recipeCuisine", "cuisine"], r.cuisine),
            ("mealType", r.mealType != nil, ["recipeCategory", "category"], r.mealType),
        ]
        var prov: [String: Provenance] = [:]
        for (name, present, keys, value) in fields where present {
            if keyLines, !keys.isEmpty {
                prov[name] = locator.findAny(keys.map { "\"\($0)\"" })
            } else {
                prov[name] = locator.find(value ?? "")
            }
        }
        return prov
    }
}

/// Finds the first document line showing a value (by its first 24 characters), for provenance: one byte search
/// over the document's text.
struct LineLocator {
    let lines: [SourceLine]
    /// The lines' UTF-8, each followed by a newline, and where each line starts in it.
    private let bytes: [UInt8]
    private let starts: [Int]

    init(lines: [SourceLine]) {
        self.lines = lines
        var bytes: [UInt8] = []
        var starts: [Int] = []
        starts.reserveCapacity(lines.count)
        for l in lines {
            starts.append(bytes.count)
            bytes += l.text.utf8
            bytes.append(0x0A)
        }
        self.bytes = bytes
        self.starts = starts
    }

    var pages: [Int] {
        let p = Array(Set(lines.map(\.page))).sorted()
        return p.isEmpty ? [1] : p
    }

    /// The index of the first line containing `probe`, or `nil` (`memchr` to each candidate first byte, then
    /// `memcmp`: this runs for every ingredient and step of a page).
    func lineIndex(of probe: String) -> Int? {
        var probe = probe
        let at: Int? = probe.withUTF8 { needle in
            guard let first = needle.first, !needle.contains(0x0A), needle.count <= bytes.count else { return nil }
            return bytes.withUnsafeBufferPointer { hay -> Int? in
                guard let base = hay.baseAddress else { return nil }
                let last = hay.count - needle.count
                var i = 0
                while i <= last {
                    guard let hit = memchr(base + i, Int32(first), last - i + 1) else { return nil }
                    let p = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + p, needle.baseAddress!, needle.count) == 0 { return p }
                    i = p + 1
                }
                return nil
            }
        }
        guard let i = at else { return nil }
        var lo = 0, hi = starts.count - 1  // the last line starting at or before i
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= i { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    func find(_ s: String) -> Provenance {
        let hit = lineIndex(of: String(s.prefix(24))).map { lines[$0] } ?? lines.first
        return Provenance(page: hit?.page ?? 1, lineStart: hit?.number ?? 1, lineEnd: hit?.number ?? 1)
    }

    /// The document lines that, in order, make up `text` (at least two, covering 80 % of it), or `nil`: how a
    /// page shows one long schema.org instruction as its paragraphs. Markdown list and heading marks are ignored.
    func split(_ text: String) -> [String]? {
        let blob = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        var parts: [(Range<String.Index>, String)] = []
        for line in lines {
            var t = Substring(line.text)
            if t.hasPrefix("- ") { t = t.dropFirst(2) }
            while t.hasPrefix("#") { t = t.dropFirst() }
            let candidate = t.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            guard candidate.count >= 20, let r = blob.range(of: candidate) else { continue }
            if parts.contains(where: { $0.0.overlaps(r) }) { continue }
            parts.append((r, candidate))
        }
        guard parts.count >= 2 else { return nil }
        let covered = parts.reduce(0) { $0 + $1.1.count }
        guard Double(covered) >= 0.8 * Double(blob.count) else { return nil }
        return parts.sorted { $0.0.lowerBound < $1.0.lowerBound }.map(\.1)
    }

    /// `line` with the start of its amount that the structured data cut off, as the document shows it: "5 tsp
    /// ginger" when the page lists "1.5 tsp ginger" (a generator that split its list at "1."); else `line`.
    func withCutAmount(_ line: String) -> String {
        guard line.first?.isNumber == true, let i = lineIndex(of: String(line.prefix(24))) else { return line }
        var t = Substring(lines[i].text)
        if t.hasPrefix("- ") { t = t.dropFirst(2) }
        guard t.count > line.count, t.hasSuffix(line) else { return line }
        let head = t.dropLast(line.count)
        guard head.count <= 4, head.last == "." || head.last == ",", head.dropLast().allSatisfy(\.isNumber), head.count >= 2
        else { return line }
        return String(t)
    }

    /// The document's consecutive lines (list items or plain lines, not headings) that, run together, are
    /// `text` (white space aside), at least two; `nil` when there are none: how a page shows a list its
    /// structured data ran into one string ("…sesame oil2 small onions, chopped.3 cloves…").
    func listItems(making text: String) -> [String]? {
        func squeezed(_ s: Substring) -> [UInt8] { s.utf8.filter { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A } }
        let blob = squeezed(Substring(text))
        guard let first = blob.first else { return nil }
        func item(_ k: Int) -> Substring? {
            let t = Substring(lines[k].text)
            if t.hasPrefix("#") || t.isEmpty { return nil }
            return t.hasPrefix("- ") ? t.dropFirst(2) : t
        }
        for i in lines.indices {
            guard let start = item(i), squeezed(start).first == first else { continue }
            var matched = 0
            var items: [String] = []
            var j = i
            while j < lines.count, let item = item(j) {
                let bytes = squeezed(item)
                guard !bytes.isEmpty, matched + bytes.count <= blob.count,
                    blob[matched..<(matched + bytes.count)].elementsEqual(bytes)
                else { break }
                matched += bytes.count
                items.append(String(item))
                if matched == blob.count { return items.count >= 2 ? items : nil }
                j += 1
            }
        }
        return nil
    }

    /// Ingredient lines with the amounts the document shows beside them: when most schema lines have no number
    /// ("Tequila") and consecutive document lines hold each of them in order with more text ("4 cl Tequila"), the
    /// document's lines are the ingredients (a page that marks up only the names).
    func withAmounts(_ groups: [SchemaFields.Group]) -> [SchemaFields.Group] {
        let all = groups.flatMap(\.lines)
        guard all.count >= 2, all.filter({ !$0.contains(where: \.isNumber) }).count * 2 > all.count else { return groups }
        let texts = lines.map { l -> String in
            var t = Substring(l.text)
            if t.hasPrefix("- ") { t = t.dropFirst(2) }
            return String(t)
        }
        let lowered = all.map { $0.lowercased() }
        guard texts.count >= all.count else { return groups }
        for start in 0...(texts.count - all.count) {
            var ok = true
            var richer = false
            for (k, name) in lowered.enumerated() {
                let t = texts[start + k]
                guard t.count <= name.count + 40, t.lowercased().contains(name) else { ok = false; break }
                if t.count > name.count { richer = true }
            }
            if ok && richer {
                var k = start
                return groups.map { g in
                    defer { k += g.lines.count }
                    return SchemaFields.Group(name: g.name, lines: Array(texts[k..<k + g.lines.count]))
                }
            }
        }
        return groups
    }

    /// Ingredient lists that carry their group headings as lines ("For the sauce:", "Meatballs"): in a recipe
    /// with one unnamed group, a line with no number and at most six words that ends with ":", or that the
    /// document shows as a heading or as plain text while it shows the other lines as list items, starts a group.
    func headedGroups(_ groups: [SchemaFields.Group]) -> [SchemaFields.Group] {
        guard groups.count == 1, groups[0].name == nil, groups[0].lines.count >= 3 else { return groups }
        let all = groups[0].lines
        func candidate(_ s: String) -> Bool {
            !s.contains(where: \.isNumber) && s.split(separator: " ").count <= 6 && s.count <= 60
        }
        // How the document shows a line: "-" a list item, "#" a heading, "." other text; nil when not shown whole.
        func shown(_ s: String) -> Character? {
            let bare = (s.hasSuffix(":") ? String(s.dropLast()) : s).lowercased()
            let n = bare.utf8.count
            for l in lines {
                var t = Substring(l.text)
                var how: Character = "."
                if t.hasPrefix("- ") {
                    t = t.dropFirst(2)
                    how = "-"
                } else if t.hasPrefix("#") {
                    t = t.drop { $0 == "#" }.drop { $0 == " " }
                    how = "#"
                }
                if t.hasSuffix(":") { t = t.dropLast() }
                if t.utf8.count == n, t.lowercased() == bare { return how }
            }
            return nil
        }
        let needsPage = all.indices.dropLast().contains { candidate(all[$0]) && !all[$0].hasSuffix(":") }
        let listed = needsPage ? all.filter { !candidate($0) }.map(shown) : []
        let pageLists = listed.count >= 2 && listed.filter { $0 == "-" }.count * 4 >= listed.count * 3
        var isHeading = all.enumerated().map { (k, s) -> Bool in
            guard candidate(s), k + 1 < all.count else { return false }
            if s.hasSuffix(":") { return true }
            guard pageLists, let how = shown(s) else { return false }
            return how != "-"
        }
        // Two headings in a row: the first heads nothing, so it is a line after all (unless it ends with ":").
        for k in isHeading.indices.dropLast() where isHeading[k] && isHeading[k + 1] && !all[k].hasSuffix(":") { isHeading[k] = false }
        guard isHeading.contains(true) else { return groups }
        var out: [SchemaFields.Group] = []
        for (k, s) in all.enumerated() {
            if isHeading[k] {
                out.append(SchemaFields.Group(name: String(s.hasSuffix(":") ? s.dropLast() : Substring(s)), lines: []))
            } else if out.isEmpty {
                out.append(SchemaFields.Group(name: nil, lines: [s]))
            } else {
                out[out.count - 1].lines.append(s)
            }
        }
        return out.filter { !$0.lines.isEmpty }
    }

    func findAny(_ probes: [String]) -> Provenance {
        for p in probes {
            if let i = lineIndex(of: p) {
                return Provenance(page: lines[i].page, lineStart: lines[i].number, lineEnd: lines[i].number)
            }
        }
        return find("")
    }
}
