import Foundation
import LarderIngredients

/// Turns the lines of a recipe document into structured ``Recipe``s.
///
/// What it reads:
/// - **Splitting.** A file may hold several recipes. Boundaries are, in order of trust: PDF lines set notably
///   larger than the body text (≥ 1.2× and ≥ 1.5 pt above the median line size), Markdown `#` headings, and an
///   "Ingredients" header that follows a method section, in which case the new recipe starts at the nearest
///   title-like line above it (a short line without final punctuation that starts a paragraph).
///   A recipe that runs onto the next page is joined (page numbers and running headers/footers are dropped,
///   and a repeated or "(continued)" title does not start a new recipe).
/// - **Title** from front matter `title:`, the large-font line(s), the first Markdown heading, else the first
///   short line (else the file name).
/// - **Sections** "Ingredients", "Method", "Directions", "Instructions", "Preparation", "Steps", "Notes", "Tips",
///   "You will need…" and similar, any case, with or without a colon or Markdown `#`s. Inside ingredients a line
///   ending in ":" ("For the drizzle:") or a Markdown sub-heading starts a named group. Without headers, lines are
///   classified: ingredient lines start with a quantity, are short and have no final period; steps are long
///   sentences, often starting with a verb.
/// - **Steps**: numbered items ("1.", "1)", "Step 1") or bullets start steps and wrapped lines join them; without
///   numbering, blank-line separated paragraphs are steps (or, when there are no blank lines, lines ending a
///   sentence). Each step gets its durations, temperatures and the ingredients it mentions.
/// - **Meta**: yields, prep/cook/total times, tags, cuisine and course from short lines anywhere outside the method
///   or from front matter.
///
/// - **JSON** documents (format "json") holding schema.org `Recipe` objects (JSON-LD, `@graph`) or recipe-scrapers
///   style objects are read field by field; other JSON is parsed as text.
///
/// **Confidence.** Each ingredient's confidence is the ingredient parser's, × 0.85 when the line was recognised
/// without an ingredients header, × 0.9 when it was joined from wrapped lines, and at most 0.3 without a name.
/// The recipe's confidence is `0.2·title + 0.35·ingredients + 0.3·steps + 0.15·structure`, where `title` is 1 for
/// front matter / heading / large font, 0.8 for a first short line and 0.3 for the file-name fallback;
/// `ingredients` is the mean ingredient confidence (0 without ingredients); `steps` is 1 with a method header,
/// 0.75 for steps found without one and 0 without steps; `structure` is 1 with both an ingredients and a method
/// header, 0.7 with one and 0.5 with none.
public struct RecipeParser: Sendable {
    let ingredientParser = IngredientParser()

    /// Creates a parser.
    public init() {}

    /// Parses every recipe in `source`, in document order. Returns an empty array when nothing recipe-like is found
    /// (no ingredients and no steps).
    public func parse(_ source: RecipeSource) -> [Recipe] {
        (try? parse(source, maxParts: .max)) ?? []  // no document holds Int.max parts
    }

    /// ``parse(_:)``, stopping as soon as the recipes found hold more than `maxParts` ingredients, steps and notes
    /// together: each recipe's lines are sorted into drafts (cheap) and counted before its ingredients are parsed,
    /// so a document built to hold millions of them costs a pass over its lines, not gigabytes of recipes.
    public func parse(_ source: RecipeSource, maxParts: Int) throws(RecipePartsOverLimit) -> [Recipe] {
        let format = source.format.lowercased()
        if format == "json", let recipes = try JSONRecipes.parse(source, parser: self, maxParts: maxParts) {
            try RecipePartsOverLimit.check(recipes, limit: maxParts)
            return recipes
        }
        let (frontMatter, bodyStart) = LineReader.frontMatter(source.lines)
        let markdown = format == "markdown" || format == "md" || frontMatter != nil
        var lines = LineReader.read(Array(source.lines[bodyStart...]), markdown: markdown)
        var headers: [Int: String] = [:]
        var footnotes: [Int: [String]] = [:]
        if format == "pdf" {
            for l in lines where l.region == .header && !l.isBlank && headers[l.page] == nil { headers[l.page] = l.text }
            footnotes = Self.footnotes(lines)
            LineReader.removeLayoutFurniture(&lines)
            LineReader.removePageFurniture(&lines)
        }
        var ctx = Context(source: source, format: format, markdown: markdown, lines: lines)
        let (chunks, skipped) = ctx.chunks()
        for k in skipped { ctx.lines[k].text = ""; ctx.lines[k].skip = true }

        var recipes: [Recipe] = []
        var frontMatterUsed = false
        var partsLeft = maxParts
        for chunk in chunks {
            let fm = frontMatterUsed ? nil : frontMatter
            guard var recipe = try parseChunk(chunk, ctx: ctx, frontMatter: fm, partsLeft: partsLeft, limit: maxParts)
            else { continue }
            partsLeft -= RecipePartsOverLimit.parts(of: recipe)
            // No title in the recipe's own lines: the running header of its first page names it.
            if recipe.provenance["title"] == nil, let header = recipe.source.pages.first.flatMap({ headers[$0] }),
               let title = Self.titleFromHeader(header) {
                recipe.title = title
                recipe.provenance["title"] = Provenance(page: recipe.source.pages[0], lineStart: 1, lineEnd: 1)
            }
            // The foot of its pages (a source note, a footnote) is kept as the recipe's notes, once per page.
            for page in recipe.source.pages {
                recipe.notes += footnotes.removeValue(forKey: page) ?? []
            }
            if fm != nil { frontMatterUsed = true }
            if recipe.title.isEmpty { recipe.title = "Untitled recipe" }
            recipe.language = RecipeLanguage.detect(recipe)
            recipes.append(recipe)
        }
        return recipes
    }
}

extension RecipeParser {
    /// The notes at the foot of each page (lines the layout marked as footnotes: source notes, footnotes, cited
    /// references), each note's wrapped lines joined and its marker ("1", "[2]", "*") dropped.
    static func footnotes(_ lines: [Line]) -> [Int: [String]] {
        var notes: [Int: [String]] = [:]
        var open = false
        for l in lines where l.region == .footnote {
            let text = l.raw.trimmingWhitespace()
            guard !text.isEmpty else { continue }
            let marked = text.range(of: #"^(?:\[\d{1,3}\]|\d{1,3}|[*†‡])\s+"#, options: .regularExpression)
            let note = marked.map { String(text[$0.upperBound...]) } ?? text
            if open, marked == nil, var page = notes[l.page], !page.isEmpty {
                page[page.count - 1] += " " + note
                notes[l.page] = page
            } else {
                notes[l.page, default: []].append(note)
            }
            open = !(note.hasSuffix(".") || note.hasSuffix(")") || note.hasSuffix("!"))
        }
        return notes
    }

    /// A running header as a title: without a page number or a section number around it ("1.1. BUCKEYES" →
    /// "BUCKEYES"), and not a bare number.
    static func titleFromHeader(_ header: String) -> String? {
        var t = header.trimmingWhitespace()
        t = t.replacingOccurrences(of: #"^(?:\d+(?:\.\d+)*\.?\s+)|\s+\d{1,4}$"#, with: "", options: .regularExpression)
        t = t.replacingOccurrences(of: #"\s{2,}.*$"#, with: "", options: .regularExpression)
        guard t.contains(where: \.isLetter), t.count <= 80 else { return nil }
        return t
    }
}

/// A range of lines that holds (at most) one recipe, and where its title is if already known.
struct Chunk {
    var range: Range<Int>
    var titleLines: ClosedRange<Int>?
    var titleQuality: Double
}

/// Per-document state shared by the passes.
struct Context {
    var source: RecipeSource
    var format: String
    var markdown: Bool
    var lines: [Line]
    var bodyFontSize: Double?
    /// The largest font size of a line with letters (PDF): recipe titles are set near it.
    var largestFontSize: Double = 0

    init(source: RecipeSource, format: String, markdown: Bool, lines: [Line]) {
        self.source = source
        self.format = format
        self.markdown = markdown
        self.lines = lines
        let sizes = lines.filter { !$0.isBlank }.compactMap(\.fontSize).sorted()
        let nonBlank = lines.filter { !$0.isBlank }.count
        bodyFontSize = sizes.count * 2 >= max(1, nonBlank) && !sizes.isEmpty ? sizes[sizes.count / 2] : nil
        largestFontSize = lines.filter { Self.hasLetter($0.text) }.compactMap(\.fontSize).max() ?? 0
    }

    /// `text.contains(where: \.isLetter)`, on bytes for ASCII text (its letters are A–Z and a–z).
    static func hasLetter(_ text: String) -> Bool {
        var ascii = true
        for byte in text.utf8 {
            if byte >= 0x80 { ascii = false; break }
            if Prefilter.isLetter(byte) { return true }
        }
        return ascii ? false : text.contains(where: \.isLetter)
    }

    /// A large line set at least 0.6 × the document's largest size: a recipe title, not a sub-heading ("Meat" in
    /// 12 pt under a 25 pt title).
    func isTitleSized(_ l: Line) -> Bool {
        isBig(l) && (l.fontSize ?? 0) >= 0.6 * largestFontSize
    }

    var isPDF: Bool { format == "pdf" }

    func isBig(_ l: Line) -> Bool {
        guard let body = bodyFontSize, let fs = l.fontSize else { return false }
        return fs >= body * 1.2 && fs - body >= 1.5
    }

    // MARK: Line classes

    static func endsSentence(_ s: String) -> Bool {
        guard let last = s.last else { return false }
        return ".!?".contains(last) || s.hasSuffix(".)") || s.hasSuffix(".\"") || s.hasSuffix(".”")
    }

    /// A short line that could be a title: no list marker, no final punctuation, not a header or meta line.
    func isTitleLike(_ l: Line) -> Bool {
        guard !l.isBlank, l.listNumber == nil, !l.bullet else { return false }
        if LineReader.section(l) != nil { return false }
        if l.heading > 0 { return true }
        let t = l.text
        guard t.count >= 2, t.count <= 100, t.split(separator: " ").count <= 16 else { return false }
        if let last = t.last, ".,;:".contains(last) { return false }
        if Meta.parse(t) != nil { return false }
        guard let first = t.first, !first.isNumber, !Patterns.fractions.keys.contains(first), !first.isLowercase else { return false }
        return true
    }

    static let verbs: Set<String> = [
        "heat", "preheat", "add", "mix", "stir", "bake", "cook", "combine", "whisk", "place", "put", "pour", "serve",
        "bring", "remove", "cut", "chop", "slice", "melt", "beat", "fold", "spread", "roll", "let", "allow", "transfer",
        "season", "sprinkle", "drain", "boil", "simmer", "fry", "saute", "sauté", "roast", "grill", "toss", "blend",
        "process", "cover", "leave", "set", "make", "in", "on", "meanwhile", "when", "once", "while", "using", "return",
        "divide", "arrange", "top", "garnish", "finish", "repeat", "spoon", "scrape", "line", "grease", "wash", "rinse",
        "peel", "dice", "mince", "grate", "squeeze", "knead", "shape", "form", "brush", "drizzle", "turn", "reduce",
        "increase", "check", "taste", "adjust", "enjoy", "store", "keep", "refrigerate", "chill", "freeze", "cool",
        "warm", "toast", "crack", "separate", "sift", "pat", "soak", "marinate", "rub", "stuff", "wrap", "insert",
        "lift", "carve", "tip", "blitz", "pulse", "puree", "purée", "strain", "discard", "flip", "prepare", "start",
        "begin", "first", "next", "then", "finally", "after", "to", "if", "for", "into", "use", "pick", "trim", "score",
        "sear", "brown", "deglaze", "whip", "cream", "dissolve", "measure", "weigh", "you", "this", "it", "the", "at",
        "with", "heat,", "stir-fry", "microwave", "steam", "poach", "blanch", "mash", "press", "pinch", "knock", "punch",
        "rest", "unmold", "invert", "slide", "take", "get", "give", "do", "don't", "be", "if", "as", "now", "finally,",
        "eat", "enjoy", "pour", "fill", "layer", "sit", "stand", "plate", "ladle",
    ]
    static let ingredientStarts: Set<String> = [
        "a", "an", "one", "two", "three", "four", "five", "six", "half", "pinch", "handful", "dash", "splash", "few",
        "some", "juice", "zest", "salt", "pepper", "oil", "butter", "sugar", "flour", "water", "fresh", "freshly",
        "large", "small", "medium", "ground", "grated", "chopped", "optional", "about", "approx", "generous", "several",
    ]

    /// A short line holding a duration and no sentence: a row of times, servings and credits in a recipe's header.
    func isStatsRow(_ l: Line) -> Bool {
        let t = l.text
        guard t.count <= 80, t.split(separator: " ").count <= 10, !Context.endsSentence(t) else { return false }
        return !Patterns.durations(in: t).isEmpty
    }

    /// A short line with an amount in it that is not a sentence or an instruction ("Salt, 1/8 teaspoon").
    func isMeasuredLine(_ l: Line) -> Bool {
        let t = l.text
        guard t.count <= 70, t.split(separator: " ").count <= 10, !Context.endsSentence(t) else { return false }
        let firstWord = t.split(separator: " ").first.map { $0.lowercased() } ?? ""
        if Context.verbs.contains(firstWord) && !Context.ingredientStarts.contains(firstWord) { return false }
        if t.contains(where: { $0.isNumber || Patterns.fractions.keys.contains($0) }) { return true }
        // An amount in words: "Salt, a pinch", "Pepper, to taste".
        let words = Set(t.lowercased().split { !$0.isLetter }.map(String.init))
        return !words.isDisjoint(with: Self.amountWords) || t.lowercased().contains("to taste")
    }

    /// Words that measure without a number.
    static let amountWords: Set<String> = ["pinch", "dash", "handful", "splash", "sprinkle", "prise", "msp", "pincée"]

    /// A line set as "Name, amount" as its neighbours in an ingredient box are ("Feta cheese, Cover mug"): a
    /// capitalised name, a comma, and a short amount; no sentence.
    static func isNamedAmount(_ t: String) -> Bool {
        guard let comma = t.lastIndex(of: ","), t.first?.isUppercase == true, !endsSentence(t) else { return false }
        let amount = t[t.index(after: comma)...].split(separator: " ")
        return !amount.isEmpty && amount.count <= 3 && t.split(separator: " ").count <= 8
    }

    /// How much a line looks like an ingredient line (≥ 2.5: clearly; < 0: clearly not).
    func ingredientScore(_ l: Line) -> Double {
        let t = l.text
        var s = 0.0
        if l.bullet { s += 2 }
        if l.listNumber != nil { s -= 1 }
        guard let first = t.first else { return -10 }
        let firstWord = t.split(separator: " ").first.map { $0.lowercased().trimmingCharacters(in: .punctuationCharacters) } ?? ""
        if first.isNumber || Patterns.fractions.keys.contains(first) { s += 2.5 }
        else if Context.ingredientStarts.contains(firstWord) { s += 1 }
        if t.count <= 50 { s += 1 } else if t.count > 90 { s -= 2 }
        if Context.endsSentence(t) { s -= 1.5 }
        if Context.verbs.contains(firstWord) && !Context.ingredientStarts.contains(firstWord) { s -= 3 }
        if t.split(separator: " ").count > 14 { s -= 2 }
        let lower = t.lowercased()
        if lower.contains(" minutes") || lower.contains(" mins") || t.contains("°") { s -= 2 }
        return s
    }

    // MARK: Splitting

    /// Splits the document into recipe-sized chunks.
    func chunks() -> ([Chunk], Set<Int>) {
        // 1. Title lines: large font (PDF) or Markdown level-1 headings.
        var runs: [ClosedRange<Int>] = []
        var skipped: Set<Int> = []
        var previousTitle: String? = nil
        var k = 0
        while k < lines.count {
            let l = lines[k]
            // The size or heading test first: the header and meta tests run on the few lines it leaves.
            if isTitleSized(l) || (markdown && l.heading == 1), !l.isBlank, l.listNumber == nil, !l.bullet,
               l.text.count <= 120, LineReader.section(l) == nil, Meta.parse(l.text) == nil {
                var end = k
                while !(markdown && l.heading == 1), end + 1 < lines.count, isTitleSized(lines[end + 1]),
                      abs((lines[end + 1].fontSize ?? 0) - (l.fontSize ?? 0)) < 0.6, lines[end + 1].listNumber == nil,
                      LineReader.section(lines[end + 1]) == nil {
                    end += 1
                }
                let text = (k...end).map { lines[$0].text }.joined(separator: " ")
                let key = Context.normalizeTitle(text)
                if key.contains("continued") || key == previousTitle {
                    for j in k...end { skipped.insert(j) }
                } else {
                    runs.append(k...end)
                    previousTitle = key
                }
                k = end + 1
                continue
            }
            k += 1
        }
        var coarse: [Chunk] = []
        let firstStart = runs.first?.lowerBound ?? lines.count
        if lines[0..<firstStart].contains(where: { !$0.isBlank }) {
            coarse.append(Chunk(range: 0..<firstStart, titleLines: nil, titleQuality: 0))
        }
        for (i, r) in runs.enumerated() {
            let end = i + 1 < runs.count ? runs[i + 1].lowerBound : lines.count
            coarse.append(Chunk(range: r.lowerBound..<end, titleLines: r, titleQuality: 1))
        }
        // 2. A new "Ingredients" header after a method section starts another recipe.
        var result: [Chunk] = []
        for c in coarse {
            var current = c
            var inMethod = false
            var methodContent = false
            var lowerBound = c.range.lowerBound
            for j in c.range where !skipped.contains(j) {
                let l = lines[j]
                if let (kind, _) = LineReader.section(l) {
                    if kind == .ingredients && methodContent {
                        let title = findTitle(above: j, notBefore: lowerBound)
                        let cut = title ?? j
                        if cut > current.range.lowerBound {
                            result.append(Chunk(range: current.range.lowerBound..<cut, titleLines: current.titleLines, titleQuality: current.titleQuality))
                            current = Chunk(range: cut..<c.range.upperBound, titleLines: title.map { $0...$0 }, titleQuality: title == nil ? 0 : 0.8)
                        }
                        methodContent = false
                    }
                    inMethod = kind == .method
                    lowerBound = j + 1
                } else if inMethod && !l.isBlank {
                    methodContent = true
                }
                if l.listNumber != nil { lowerBound = j + 1 }
            }
            result.append(current)
        }
        return (result.filter { !$0.range.isEmpty }, skipped)
    }

    /// The nearest title-like line above `index` that starts a paragraph, not crossing `notBefore`.
    func findTitle(above index: Int, notBefore: Int) -> Int? {
        var j = index - 1
        var fallback: Int? = nil
        var seen = 0
        while j >= notBefore && seen < 15 {
            let l = lines[j]
            if l.isBlank { j -= 1; continue }
            if l.listNumber != nil || LineReader.section(l) != nil { break }
            seen += 1
            if isTitleLike(l) {
                let prevBlank = j == 0 || lines[j - 1].isBlank || l.pageStart || l.heading > 0
                    || Context.endsSentence(lines[j - 1].text) || isBig(l)
                if prevBlank { return j }
                if fallback == nil { fallback = j }
            }
            j -= 1
        }
        return fallback
    }

    static func normalizeTitle(_ s: String) -> String {
        s.lowercased().filter { $0.isLetter || $0.isNumber }
    }
}

// MARK: - Chunk parsing

extension RecipeParser {
    struct Entry {
        var line: Line
        var blank: Bool
        var explicit: Bool
    }

    struct Draft {
        var text: String
        var page: Int
        var start: Int
        var end: Int
        var joined = false
        var explicit = true
        var group = 0

        /// `a` and `b` as one text: a word hyphenated at the line end is joined without its space.
        static func joined(_ a: String, _ b: String) -> String {
            a.hasSuffix("-") && !a.hasSuffix(" -") ? String(a.dropLast()) + b : a + " " + b
        }

        mutating func join(_ l: Line) {
            text += (text.hasSuffix("-") && !text.hasSuffix(" -") ? "" : " ") + l.text
            joined = true
            if l.page == page { end = l.number }
        }

        var provenance: Provenance { Provenance(page: page, lineStart: start, lineEnd: end) }
    }

    enum Mode { case preamble, ingredients, method, notes, other }

    func parseChunk(
        _ chunk: Chunk, ctx: Context, frontMatter: FrontMatter?, partsLeft: Int = .max, limit: Int = .max
    ) throws(RecipePartsOverLimit) -> Recipe? {
        var reader = ChunkParser(parser: self, chunk: chunk, ctx: ctx, frontMatter: frontMatter)
        return try reader.parse(partsLeft: partsLeft, limit: limit)
    }

    /// A named-group header inside an ingredient list ("For the drizzle:", "### Filling", a bold "Topping").
    func isSubHeader(_ l: Line, ctx: Context) -> Bool {
        if l.heading > 0 { return true }
        let t = l.text
        guard t.count <= 60, let first = t.first, !first.isNumber, !Patterns.fractions.keys.contains(first) else { return false }
        if t.hasSuffix(":") { return true }
        // A bold line without an amount ("Topping"); "Flour, 4 tablespoons" in bold is an ingredient.
        if ctx.isPDF && l.bold && t.count <= 40 && !l.bullet && !t.contains(where: \.isNumber)
            && !Context.isNamedAmount(t) && !ctx.isMeasuredLine(l) { return true }
        let lower = t.lowercased()
        if (lower.hasPrefix("for the ") || lower.hasPrefix("for ")) && t.split(separator: " ").count <= 6 && !l.bullet
            && !t.contains(where: { $0.isNumber }) && !Context.endsSentence(t) && !lower.contains(" to ") {
            return true
        }
        return false
    }

    func makeIngredient(_ d: Draft) -> RecipeIngredient {
        let p = ingredientParser.parse(d.text)
        var confidence = p.confidence
        if !d.explicit { confidence *= 0.85 }
        if d.joined { confidence *= 0.9 }
        if p.name.trimmingWhitespace().isEmpty { confidence = min(confidence, 0.3) }
        confidence = (min(1, max(0, confidence)) * 100).rounded() / 100
        let q = p.quantity.map { RecipeQuantity(value: max(0, $0.value), max: $0.max.map { max(0, $0) }) }
        let extra: [RecipeAmount] = p.additionalAmounts.compactMap { a in
            guard let q = a.quantity else { return nil }
            return RecipeAmount(quantity: RecipeQuantity(value: max(0, q.value), max: q.max.map { max(0, $0) }), unit: a.unit)
        }
        return RecipeIngredient(text: d.text, quantity: q, unit: p.unit, unitText: p.unitText, additionalAmounts: extra,
                                name: p.name, size: p.size, preparation: p.preparation, comment: p.comment,
                                optional: p.optional, purpose: p.purpose, alternatives: p.alternatives,
                                confidence: confidence, provenance: d.provenance)
    }
}

/// A document whose recipes hold more parts (ingredients, steps and notes together) than a parse may make
/// (``RecipeParser/parse(_:maxParts:)``): the `recipe` stage's limit, derived from `limits.max_stage_output_bytes`.
public struct RecipePartsOverLimit: Error, Sendable, Equatable {
    /// The parts counted when the parse stopped (more than `limit`; the document may hold more still).
    public let parts: Int
    public let limit: Int

    public init(parts: Int, limit: Int) {
        self.parts = parts
        self.limit = limit
    }

    /// A recipe's ingredients, steps and notes.
    public static func parts(of recipe: Recipe) -> Int {
        recipe.allIngredients.count + recipe.steps.count + recipe.notes.count
    }

    /// Throws when `recipes` hold more than `limit` parts together.
    static func check(_ recipes: [Recipe], limit: Int) throws(RecipePartsOverLimit) {
        let parts = recipes.reduce(0) { $0 + Self.parts(of: $1) }
        if parts > limit { throw RecipePartsOverLimit(parts: parts, limit: limit) }
    }
}
