import Foundation

/// The passes that read one chunk of lines into a ``Recipe`` (see ``RecipeParser`` for what each reads):
/// 1. ``readTitle()`` and ``readFrontMatter()``: the title the chunk was cut at, front-matter fields;
/// 2. ``routeLines()``: each line to the preamble, the ingredients, the method or the notes (section headers,
///    meta lines, a box beside the method, line shapes), one ``route(_:)`` per line;
/// 3. ``readIngredients()``, ``readSteps()``, ``readNotes()``: entries joined into drafts (wrapped lines, groups);
/// 4. ``build()``: ingredients parsed, steps annotated, description, title fallback, confidence.
struct ChunkParser {
    typealias Entry = RecipeParser.Entry
    typealias Draft = RecipeParser.Draft
    typealias Mode = RecipeParser.Mode

    let parser: RecipeParser
    let chunk: Chunk
    let ctx: Context
    let frontMatter: FrontMatter?
    let lines: [Line]

    // Recipe-level values and where they came from.
    var provenance: [String: Provenance] = [:]
    var title: String? = nil
    var titleQuality = 0.0
    var titleSet: Set<Int> = []
    var yields: RecipeYield? = nil
    var prep: Double? = nil, cook: Double? = nil, total: Double? = nil
    var tags: [String] = []
    var cuisine: String? = nil, mealType: String? = nil
    var descriptionFM: String? = nil

    // Routing state.
    var hasIngredientsHeader = false
    var lastMethodHeader = -1
    var hasMethodHeader: Bool { lastMethodHeader >= 0 }
    var mode = Mode.preamble
    var explicitIngredients = false
    var explicitMethod = false
    var ingEntries: [Entry] = []
    var methodEntries: [Entry] = []
    var noteEntries: [Entry] = []
    var descLines: [(Line, Bool)] = []
    var blank = true
    var lastContentWasIngredient = false
    var inlineNoteReturn: Mode? = nil
    var ingredientsPending = false
    var sawContent = false
    var sectionHeadingLevel = 0

    // Drafts.
    var notes: [String] = []
    var groupNames: [String?] = []
    var ingDrafts: [Draft] = []
    var stepDrafts: [Draft] = []

    init(parser: RecipeParser, chunk: Chunk, ctx: Context, frontMatter: FrontMatter?) {
        self.parser = parser
        self.chunk = chunk
        self.ctx = ctx
        self.frontMatter = frontMatter
        self.lines = ctx.lines
    }

    /// All passes; `nil` when the chunk has neither ingredients nor steps. Throws, before the ingredients are
    /// parsed, when the drafts are more than `partsLeft` (of the document's `limit`).
    mutating func parse(partsLeft: Int = .max, limit: Int = .max) throws(RecipePartsOverLimit) -> Recipe? {
        readTitle()
        readFrontMatter()
        prescanHeaders()
        routeLines()
        readIngredients()
        readSteps()
        readNotes()
        guard !ingDrafts.isEmpty || !stepDrafts.isEmpty else { return nil }
        let parts = ingDrafts.count + stepDrafts.count + notes.count
        if parts > partsLeft { throw RecipePartsOverLimit(parts: limit - partsLeft + parts, limit: limit) }
        return build()
    }

    func isSubHeader(_ l: Line, ctx: Context) -> Bool { parser.isSubHeader(l, ctx: ctx) }

    func makeIngredient(_ d: Draft) -> RecipeIngredient { parser.makeIngredient(d) }

    // MARK: Title and meta

    /// The title lines the chunk was cut at.
    mutating func readTitle() {
        if let tl = chunk.titleLines {
            title = tl.map { lines[$0].text }.joined(separator: " ")
            titleQuality = max(chunk.titleQuality, 0.8)
            titleSet = Set(tl)
            let first = lines[tl.lowerBound]
            let lastOnPage = tl.filter { lines[$0].page == first.page }.last ?? tl.lowerBound
            provenance["title"] = Provenance(page: first.page, lineStart: first.number, lineEnd: lines[lastOnPage].number)
        }
    }

    /// Records meta items (yields, times, tags, cuisine, course), the first of each kind winning.
    mutating func record(_ items: [MetaItem], _ prov: Provenance) {
        for it in items {
            switch it {
            case .yield(let y): if yields == nil { yields = y; provenance["yields"] = prov }
            case .time(let kind, let m):
                switch kind {
                case .prep: if prep == nil { prep = m; provenance["prepMinutes"] = prov }
                case .cook: if cook == nil { cook = m; provenance["cookMinutes"] = prov }
                case .total: if total == nil { total = m; provenance["totalMinutes"] = prov }
                case .other: break
                }
            case .tags(let t): if tags.isEmpty { tags = t; provenance["tags"] = prov }
            case .cuisine(let c): if cuisine == nil { cuisine = c; provenance["cuisine"] = prov }
            case .mealType(let m): if mealType == nil { mealType = m; provenance["mealType"] = prov }
            case .ignored: break
            }
        }
    }

    /// Title, yields, times, tags, cuisine, course and description from YAML front matter.
    mutating func readFrontMatter() {
        if let fm = frontMatter {
            func prov(_ l: SourceLine) -> Provenance { Provenance(page: l.page, lineStart: l.number, lineEnd: l.number) }
            if let (t, l) = fm.string("title", "name"), !t.isEmpty {
                title = t
                titleQuality = 1
                provenance["title"] = prov(l)
                if let tl = chunk.titleLines, Context.normalizeTitle(tl.map { lines[$0].text }.joined(separator: " ")) != Context.normalizeTitle(t) {
                    // A different heading: keep it out of the recipe text anyway.
                }
            }
            if let (v, l) = fm.string("servings", "serves", "yield", "yields", "makes", "portions", "recipeyield") {
                let key = ["servings", "serves", "yield", "yields", "makes", "portions", "recipeyield"].first { fm.values[$0] != nil } ?? "servings"
                let text = l.text.trimmingWhitespace()
                if let y = Patterns.parseYieldValue(v, text: text.isEmpty ? "\(key): \(v)" : text) {
                    yields = y
                    provenance["yields"] = prov(l)
                }
            }
            let times: [(Patterns.TimeKind, [String])] = [
                (.prep, ["prep_time", "preptime", "prep", "preparation_time", "prep-time"]),
                (.cook, ["cook_time", "cooktime", "cook", "cooking_time", "bake_time", "cook-time"]),
                (.total, ["total_time", "totaltime", "total", "time", "ready_in", "total-time"]),
            ]
            for (kind, keys) in times {
                for key in keys {
                    guard let v = fm.values[key], let (m, _) = Patterns.parseMinutes(v.value) else { continue }
                    record([.time(kind, m)], prov(v.line))
                    break
                }
            }
            if let (t, l) = fm.list("tags", "keywords", "categories") { tags = t; provenance["tags"] = prov(l) }
            if let (c, l) = fm.string("cuisine") { cuisine = c; provenance["cuisine"] = prov(l) }
            if let (m, l) = fm.string("category", "course", "meal", "mealtype", "meal_type") {
                mealType = m
                provenance["mealType"] = prov(l)
            }
            if let (d, l) = fm.string("description", "summary") {
                descriptionFM = d
                provenance["description"] = prov(l)
            }
        }
    }

    /// Whether the chunk has an ingredients header, and where its last method header is.
    mutating func prescanHeaders() {
        for k in chunk.range {
            if let (kind, _) = LineReader.section(lines[k]) {
                if kind == .ingredients { hasIngredientsHeader = true }
                if kind == .method { lastMethodHeader = k }
            }
        }
    }

    // MARK: Pass 1: lines to sections

    /// Routes every line of the chunk.
    mutating func routeLines() {
        for k in chunk.range { route(k) }
    }

    /// Routes line `k` to the preamble, ingredients, method or notes.
    mutating func route(_ k: Int) {
        let l = lines[k]
        if titleSet.contains(k) { blank = true; return }
        if l.skip { return }
        if l.isBlank {
            blank = true
            if let back = inlineNoteReturn { mode = back; inlineNoteReturn = nil }
            return
        }
        defer { blank = false; sawContent = true }
        if let back = inlineNoteReturn {
            if l.heading > 0 || l.listNumber != nil || l.bullet || LineReader.section(l) != nil {
                mode = back
                inlineNoteReturn = nil
            } else {
                noteEntries.append(Entry(line: l, blank: false, explicit: true))
                return
            }
        }
        // A lower-case line right under a method line continues it, even when it reads like a header ("combine
        // all of the" / "ingredients.").
        let continuesStep = mode == .method && !blank && !methodEntries.isEmpty && l.text.first?.isLowercase == true
        if !continuesStep && routeSectionHeader(l) { return }
        // An unknown Markdown heading at the level of the section headings ends the method ("## Served With").
        if l.heading > 0 && l.heading <= sectionHeadingLevel && mode == .method {
            mode = .notes
            return
        }
        // Meta lines anywhere but inside the method, where only a labelled one ("Total time: 1 hr") after a
        // blank line counts ("Bake 25 minutes" there is a step).
        if l.listNumber == nil && (mode != .method || (blank && !Context.endsSentence(l.text) && l.text.contains(":"))),
           mode != .notes || l.text.count < 40,
           let items = Meta.parse(l.text) {
            record(items, l.provenance)
            return
        }
        // The first line of a recipe followed by a blank or meta line is its title, whatever it looks like.
        if mode == .preamble && title == nil && !sawContent && l.listNumber == nil && !l.bullet && l.text.count <= 150
            && !l.text.dropLast().contains(". ") {
            let next = lines[(k + 1)...].first { !$0.isBlank || true }
            if next == nil || next!.isBlank || Meta.parse(next!.text) != nil || l.heading > 0 || ctx.isTitleLike(l) {
                title = l.text
                titleQuality = l.heading > 0 || ctx.isBig(l) ? 1 : 0.8
                provenance["title"] = l.provenance
                return
            }
        }
        // A box beside the method without an ingredients header (an ingredient box beside each step, a margin
        // note): its measured lines are ingredients, its other lines notes; none joins a step.
        if l.region == .box && !explicitIngredients && (mode == .method || mode == .preamble) && !methodEntries.isEmpty {
            let previousIsBoxIngredient = ingEntries.last.map { $0.line.region == .box } ?? false
            if let last = ingEntries.indices.last, previousIsBoxIngredient, !blank,
               l.text.first?.isLowercase == true || ingEntries[last].line.text.hasSuffix(",") {
                ingEntries[last].line.text = Draft.joined(ingEntries[last].line.text, l.text)
            } else if ctx.isMeasuredLine(l) || (previousIsBoxIngredient && Context.isNamedAmount(l.text)) {
                ingEntries.append(Entry(line: l, blank: blank, explicit: false))
            } else {
                noteEntries.append(Entry(line: l, blank: true, explicit: false))
            }
            return
        }
        switch mode {
        case .preamble: routePreamble(l, k)
        case .ingredients: routeIngredientLine(l, k)
        case .method: routeMethodLine(l)
        case .notes: noteEntries.append(Entry(line: l, blank: blank, explicit: true))
        case .other: break
        }
    }

    /// A section header ("Ingredients", "Method:", "Note: …"): switches the mode. Returns whether `line` was one.
    mutating func routeSectionHeader(_ line: Line) -> Bool {
        var l = line
        if let (kind, inline) = LineReader.section(l), !(mode == .ingredients && kind == .ingredients && l.heading > 1 && !ingEntries.isEmpty) {
            // "Note: …" wrapped into a numbered step continues the step.
            if inline != nil && mode == .method && !blank && !methodEntries.isEmpty && kind == .notes {
                methodEntries.append(Entry(line: l, blank: false, explicit: explicitMethod))
                return true
            }
            if kind == .notes, inline != nil, mode != .notes {
                inlineNoteReturn = mode
            }
            switch kind {
            case .ingredients: mode = .ingredients; explicitIngredients = true
            case .method:
                mode = .method
                explicitMethod = true
                // "Ingredients" directly followed by "Method" (two columns read header-first): the ingredient
                // lines come first under the method header.
                ingredientsPending = explicitIngredients && ingEntries.isEmpty && methodEntries.isEmpty
            case .notes: mode = .notes
            case .other: mode = .other
            }
            if l.heading > 0 { sectionHeadingLevel = l.heading }
            if let inline {
                l.text = inline
                switch mode {
                case .ingredients: ingEntries.append(Entry(line: l, blank: true, explicit: true))
                case .method: methodEntries.append(Entry(line: l, blank: true, explicit: true))
                case .notes: noteEntries.append(Entry(line: l, blank: true, explicit: true))
                default: break
                }
            }
            blank = true
            return true
        }
        return false
    }

    /// Before any section: the title, a stats row, the first ingredient or step line, or the description.
    mutating func routePreamble(_ l: Line, _ k: Int) {
        if title == nil && ctx.isTitleLike(l) {
            title = l.text
            titleQuality = l.heading > 0 || ctx.isBig(l) ? 1 : 0.8
            provenance["title"] = l.provenance
            return
        }
        // "Three Quick Suppers" / blank / "Garlic Butter Pasta" / "Serves 2": the recipe's own title is the
        // title-like line that is followed by meta lines or a section header.
        if title != nil && titleQuality < 1 && descLines.isEmpty && chunk.titleLines == nil && frontMatter == nil
            && ctx.isTitleLike(l) && blank {
            let following = lines[(k + 1)..<chunk.range.upperBound].filter { !$0.isBlank }.prefix(3)
            if let next = following.first, Meta.parse(next.text) != nil || LineReader.section(next) != nil
                || following.dropFirst().contains(where: { Meta.parse($0.text) != nil || LineReader.section($0)?.0 == .ingredients }) {
                title = l.text
                provenance["title"] = l.provenance
                return
            }
        }
        if l.heading > 0 { return }
        // A stats row before the recipe body ("30 min  30 min", "8 / 25 hr  Lisa Bryan"): times, servings and
        // credits, never an ingredient.
        if ingEntries.isEmpty && methodEntries.isEmpty && ctx.isStatsRow(l) { return }
        if !hasIngredientsHeader && ctx.ingredientScore(l) >= 2.5 {
            mode = .ingredients
            ingEntries.append(Entry(line: l, blank: blank, explicit: false))
            lastContentWasIngredient = true
        } else if l.listNumber != nil && !hasMethodHeader && (!ingEntries.isEmpty || !hasIngredientsHeader) {
            mode = .method
            methodEntries.append(Entry(line: l, blank: blank, explicit: false))
        } else {
            descLines.append((l, blank))
        }
    }

    /// Inside the ingredients: an ingredient line, or the first step when the method starts without a header.
    mutating func routeIngredientLine(_ line: Line, _ k: Int) {
        var l = line
        let methodAhead = k < lastMethodHeader
        if !methodAhead && !l.bullet {
            let score = ctx.ingredientScore(l)
            let stepLike = l.listNumber != nil || score < 0
                || (blank && l.text.count > 60 && Context.endsSentence(l.text))
                || (!explicitIngredients && score < 1 && !(lastContentWasIngredient && !blank && score >= 0.5))
            // A record of an ingredient table right after another ("Lemon wedges" below "1 tbsp oil") stays an
            // ingredient: the table's geometry said so.
            let tableRecord = l.region == .tableRecord && l.listNumber == nil && ingEntries.last?.line.region == .tableRecord
            if stepLike && !tableRecord && !ingEntries.isEmpty && !isSubHeader(l, ctx: ctx) {
                mode = .method
                methodEntries.append(Entry(line: l, blank: true, explicit: false))
                return
            }
        }
        if l.listNumber != nil {
            // A numbered ingredient line keeps its number ("2 - Brown onions, diced").
            l.text = LineReader.cleanInline(l.raw.trimmingWhitespace(), markdown: ctx.markdown)
            l.listNumber = nil
        }
        ingEntries.append(Entry(line: l, blank: blank, explicit: explicitIngredients))
        lastContentWasIngredient = true
    }

    /// Inside the method: a step line, or an ingredient pending after "Ingredients" directly followed by "Method".
    mutating func routeMethodLine(_ l: Line) {
        if ingredientsPending {
            let continuation = !blank && !ingEntries.isEmpty && l.listNumber == nil && !l.bullet
                && (l.text.first?.isLowercase ?? false)
            if l.listNumber == nil && (l.bullet || ctx.ingredientScore(l) >= 2.5 || continuation) {
                ingEntries.append(Entry(line: l, blank: blank, explicit: true))
                return
            }
            ingredientsPending = false
        }
        methodEntries.append(Entry(line: l, blank: blank, explicit: explicitMethod))
    }

    // MARK: Pass 2: drafts

    /// Ingredient entries → drafts: named groups, wrapped lines joined, prose around a list as notes.
    mutating func readIngredients() {
        let anyBullets = ingEntries.contains { $0.line.bullet }
        var currentGroup: Int? = nil
        var lastIndent = 0
        for e in ingEntries {
            let l = e.line
            if isSubHeader(l, ctx: ctx) && !(anyBullets && l.bullet && !l.text.hasSuffix(":")) {
                var name = l.text
                while name.hasSuffix(":") { name.removeLast() }
                groupNames.append(name.trimmingWhitespace())
                currentGroup = groupNames.count - 1
                continue
            }
            if anyBullets && !l.bullet {
                let lowerStart = l.text.first?.isLowercase ?? false
                if let last = ingDrafts.indices.last, !e.blank && (l.indent > 0 || lowerStart || ctx.isPDF) {
                    ingDrafts[last].join(l)
                    continue
                }
                // Prose around a bulleted list ("The quantities are for four.") is a note, not an ingredient.
                if ctx.markdown || ctx.ingredientScore(l) < 1 {
                    notes.append(l.text)
                    continue
                }
            } else if !anyBullets && !e.blank, let last = ingDrafts.indices.last, l.indent > lastIndent + 1,
                      !(l.text.first?.isNumber ?? false) {
                ingDrafts[last].join(l)
                continue
            }
            if currentGroup == nil {
                groupNames.append(nil)
                currentGroup = groupNames.count - 1
            }
            lastIndent = l.indent
            ingDrafts.append(Draft(text: l.text, page: l.page, start: l.number, end: l.number, explicit: e.explicit, group: currentGroup!))
        }
    }

    /// Method entries → steps: numbered or bulleted items with their wrapped lines, else paragraphs.
    mutating func readSteps() {
        let numberedMode = methodEntries.contains { $0.line.listNumber != nil }
        let bulletMode = methodEntries.contains { $0.line.bullet }
        let blankSeparated = methodEntries.dropFirst().contains { $0.blank }
        let maxLen = methodEntries.map { $0.line.raw.count }.max() ?? 0
        var previousText = ""
        var proseNote = false
        for e in methodEntries {
            let l = e.line
            if l.heading > 0 { previousText = ""; continue }
            let isLabel = l.listNumber == nil && !l.bullet && l.text.hasSuffix(":") && l.text.count <= 50
            if isLabel && (numberedMode || bulletMode || e.blank) { previousText = ""; continue }
            if l.listNumber != nil || l.bullet || stepDrafts.isEmpty {
                proseNote = false
                stepDrafts.append(Draft(text: l.text, page: l.page, start: l.number, end: l.number, explicit: e.explicit))
            } else if numberedMode || bulletMode {
                if proseNote && !e.blank {
                    notes[notes.count - 1] += " " + l.text
                } else if !e.blank || l.indent >= 2 {
                    proseNote = false
                    stepDrafts[stepDrafts.count - 1].join(l)
                } else if ctx.markdown {
                    // A paragraph after a Markdown list is not part of it.
                    notes.append(l.text)
                    proseNote = true
                } else {
                    stepDrafts.append(Draft(text: l.text, page: l.page, start: l.number, end: l.number, explicit: e.explicit))
                }
            } else {
                var newStep = e.blank
                if !e.blank && !blankSeparated && Context.endsSentence(previousText) {
                    // In a PDF a full-width line ending a sentence may just wrap; a short one ends the paragraph,
                    // and so does a next line opening with an imperative verb ("Stir", "Bake").
                    let firstWord = l.text.split(separator: " ").first.map { $0.lowercased() } ?? ""
                    newStep = !ctx.isPDF || Double(previousText.count) < Double(maxLen) * 0.8
                        || (l.text.first?.isUppercase == true && Context.verbs.contains(firstWord))
                }
                if newStep {
                    stepDrafts.append(Draft(text: l.text, page: l.page, start: l.number, end: l.number, explicit: e.explicit))
                } else {
                    stepDrafts[stepDrafts.count - 1].join(l)
                }
            }
            previousText = l.raw.trimmingWhitespace()
        }
    }

    /// Note entries → notes, before the prose notes found in the other passes.
    mutating func readNotes() {
        var noteDrafts: [Draft] = []
        let notesBlankSeparated = noteEntries.dropFirst().contains { $0.blank }
        for e in noteEntries {
            let l = e.line
            if l.heading > 0 { continue }
            if noteDrafts.isEmpty || l.bullet || l.listNumber != nil || e.blank
                || (!notesBlankSeparated && Context.endsSentence(noteDrafts[noteDrafts.count - 1].text)) {
                noteDrafts.append(Draft(text: l.text, page: l.page, start: l.number, end: l.number))
            } else {
                noteDrafts[noteDrafts.count - 1].join(l)
            }
        }
        notes = noteDrafts.map(\.text) + notes
    }

    // MARK: Build

    /// The recipe from the drafts.
    mutating func build() -> Recipe {
        // Build ingredients.
        var groups: [IngredientGroup] = groupNames.map { IngredientGroup(name: $0) }
        var ingConfidences: [Double] = []
        for d in ingDrafts {
            let ing = makeIngredient(d)
            ingConfidences.append(ing.confidence)
            groups[d.group].ingredients.append(ing)
        }
        groups.removeAll { $0.ingredients.isEmpty }

        // Build steps.
        let matcher = IngredientMatcher(groups: groups)
        let steps: [RecipeStep] = stepDrafts.enumerated().map { (i, d) in
            RecipeStep(number: i + 1, text: d.text, durations: Patterns.stepDurations(in: d.text),
                       temperatures: Patterns.temperatures(in: d.text), ingredients: matcher.match(d.text),
                       provenance: d.provenance)
        }

        // Description.
        var description: String? = descriptionFM
        if description == nil && !descLines.isEmpty {
            var paragraphs: [String] = []
            for (l, b) in descLines {
                if b || paragraphs.isEmpty { paragraphs.append(l.text) } else { paragraphs[paragraphs.count - 1] += " " + l.text }
            }
            description = paragraphs.joined(separator: "\n\n")
            let first = descLines[0].0
            let lastSamePage = descLines.last { $0.0.page == first.page }!.0
            provenance["description"] = Provenance(page: first.page, lineStart: first.number, lineEnd: lastSamePage.number)
        }

        // "1.1 Orange Oatmeal Cookies", "R 1.1  Buckeyes": a section number is not part of the title.
        if let t = title, Prefilter.mayHoldSectionNumber(t),
           let r = t.range(of: #"^(?:\S{1,2}\s+)?\d+(?:\.\d+)+\.?\s+(?=\S)"#, options: .regularExpression) {
            title = String(t[r.upperBound...])
        }
        // "Recipe: Tomato Soup" → "Tomato Soup".
        if let t = title, let colon = t.firstIndex(of: ":"), t[..<colon].lowercased() == "recipe" {
            let rest = t[t.index(after: colon)...].trimmingWhitespace()
            if !rest.isEmpty { title = rest }
        }
        // Title fallback.
        if title == nil || title!.isEmpty {
            let base = (ctx.source.file as NSString).lastPathComponent
            let stem = (base as NSString).deletingPathExtension.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ")
            title = stem.isEmpty ? "Untitled recipe" : stem.prefix(1).uppercased() + stem.dropFirst()
            titleQuality = 0.3
        }

        // Pages.
        var pages = Set<Int>()
        for k in chunk.range where !lines[k].isBlank { pages.insert(lines[k].page) }
        if pages.isEmpty { pages.insert(1) }

        // Confidence.
        let ingScore = ingConfidences.isEmpty ? 0 : ingConfidences.reduce(0, +) / Double(ingConfidences.count)
        let stepScore = steps.isEmpty ? 0 : (explicitMethod ? 1 : 0.75)
        let structure = explicitIngredients && explicitMethod ? 1 : (explicitIngredients || explicitMethod ? 0.7 : 0.5)
        let confidence = ((0.2 * titleQuality + 0.35 * ingScore + 0.3 * stepScore + 0.15 * structure) * 100).rounded() / 100

        return Recipe(title: title!, description: description, yields: yields, prepMinutes: prep, cookMinutes: cook,
                      totalMinutes: total, cuisine: cuisine, mealType: mealType, tags: tags, ingredientGroups: groups,
                      steps: steps, notes: notes,
                      source: RecipeSourceInfo(file: ctx.source.file, sha256: ctx.source.sha256, pages: pages.sorted(), format: ctx.format),
                      provenance: provenance, confidence: min(1, max(0, confidence)))
    }
}
