import Foundation

/// A recipe whose structure another app already knows (an export: Paprika, MealMaster, Cooklang, schema.org…):
/// title, ingredient lines by group, steps, yield and times as the app gave them. ``RecipeDraft/recipe(source:)``
/// builds a ``Recipe`` from it with the same ingredient, step, yield and time parsing as text documents, but
/// without guessing the structure: the title, the ingredient lines and the steps are kept exactly.
public struct RecipeDraft: Sendable, Equatable {
    /// A named (or the main, `nil`) list of ingredient lines.
    public struct Group: Sendable, Equatable {
        public var name: String?
        public var lines: [String]

        public init(name: String? = nil, lines: [String]) {
            self.name = name
            self.lines = lines
        }
    }

    public var title: String
    public var description: String?
    /// The yield as the app wrote it ("4", "about 20 rolls", "Serves 6").
    public var yield: String?
    public var prepMinutes: Double?
    public var cookMinutes: Double?
    public var totalMinutes: Double?
    public var cuisine: String?
    /// Categories / courses (the first becomes the recipe's meal type; the rest join the tags).
    public var categories: [String]
    public var tags: [String]
    public var ingredientGroups: [Group]
    public var steps: [String]
    public var notes: [String]
    /// The recipe's web page, when the app knew it.
    public var url: String?
    /// The recipe's image URL or archive member, when known.
    public var image: String?
    public var author: String?
    /// Nutrition facts as the app gave them ("calories" → "150 kcal").
    public var nutrition: [String: String] = [:]
    /// The archive member (path inside the archive, nested archives joined with "/") the recipe came from.
    public var member: String?

    public init(
        title: String, description: String? = nil, yield: String? = nil, prepMinutes: Double? = nil,
        cookMinutes: Double? = nil, totalMinutes: Double? = nil, cuisine: String? = nil, categories: [String] = [],
        tags: [String] = [], ingredientGroups: [Group] = [], steps: [String] = [], notes: [String] = [],
        url: String? = nil, image: String? = nil, author: String? = nil, member: String? = nil
    ) {
        self.title = title
        self.description = description
        self.yield = yield
        self.prepMinutes = prepMinutes
        self.cookMinutes = cookMinutes
        self.totalMinutes = totalMinutes
        self.cuisine = cuisine
        self.categories = categories
        self.tags = tags
        self.ingredientGroups = ingredientGroups
        self.steps = steps
        self.notes = notes
        self.url = url
        self.image = image
        self.author = author
        self.member = member
    }

    /// All ingredient lines in order.
    public var ingredientLines: [String] { ingredientGroups.flatMap(\.lines) }

    /// Minutes in a free-text or ISO 8601 time ("30 minutes", "1 hr 15 min", "PT0H15M", "45"); `nil` when none.
    public static func minutes(_ text: String?) -> Double? {
        guard let text, !text.trimmingWhitespace().isEmpty else { return nil }
        return Patterns.parseMinutes(text)?.0
    }

    /// Builds the recipe. Provenance: the draft has no lines of its own, so every value points at `line` (the
    /// line of the document or archive member where the recipe starts).
    public func recipe(source: RecipeSourceInfo, page: Int = 1, line: Int = 1) -> Recipe {
        let at = Provenance(page: page, lineStart: line, lineEnd: line)
        let parser = RecipeParser()
        var groups: [IngredientGroup] = []
        for group in ingredientGroups where !group.lines.isEmpty {
            let ingredients = group.lines.map { parser.makeIngredient(.init(text: $0, page: page, start: line, end: line)) }
            groups.append(IngredientGroup(name: group.name, ingredients: ingredients))
        }
        let matcher = IngredientMatcher(groups: groups)
        // A step's own numbering ("1. Bring…") goes, as for every other source: steps are numbered by position.
        // Runs of white space (non-breaking spaces included) become one space, as schema.org text is read.
        let steps = steps.map { SchemaFields.unnumbered($0.split(whereSeparator: \.isWhitespace).joined(separator: " ")) }
            .filter { !$0.isEmpty }.enumerated().map { i, text in
            RecipeStep(
                number: i + 1, text: text, durations: Patterns.stepDurations(in: text),
                temperatures: Patterns.temperatures(in: text), ingredients: matcher.match(text), provenance: at)
        }
        let yields = yield.flatMap { y -> RecipeYield? in
            let t = y.trimmingCharacters(in: .whitespacesAndNewlines)
            return t.isEmpty ? nil : Patterns.parseYieldValue(t, text: t) ?? RecipeYield(text: t)
        }
        var tags = tags
        for c in categories.dropFirst() where !tags.contains(c) { tags.append(c) }
        var recipe = Recipe(
            title: title, description: description, yields: yields, prepMinutes: prepMinutes, cookMinutes: cookMinutes,
            totalMinutes: totalMinutes, cuisine: cuisine, mealType: categories.first, tags: tags,
            ingredientGroups: groups, steps: steps, notes: notes, source: source)
        var provenance: [String: Provenance] = ["title": at]
        if description != nil { provenance["description"] = at }
        if yields != nil { provenance["yields"] = at }
        if prepMinutes != nil { provenance["prepMinutes"] = at }
        if cookMinutes != nil { provenance["cookMinutes"] = at }
        if totalMinutes != nil { provenance["totalMinutes"] = at }
        if cuisine != nil { provenance["cuisine"] = at }
        if !categories.isEmpty { provenance["mealType"] = at }
        if !tags.isEmpty { provenance["tags"] = at }
        recipe.provenance = provenance
        recipe.image = image.flatMap { $0.isEmpty ? nil : $0 }
        recipe.author = author.flatMap { $0.isEmpty ? nil : $0 }
        recipe.nutrition = nutrition.isEmpty ? nil : nutrition
        let confidences = groups.flatMap(\.ingredients).map(\.confidence)
        let ingredientScore = confidences.isEmpty ? 0.5 : confidences.reduce(0, +) / Double(confidences.count)
        // The structure is the app's, not a guess: only the ingredient parsing is uncertain.
        let structure = (groups.isEmpty ? 0.0 : 0.5) + (steps.isEmpty ? 0.0 : 0.5)
        recipe.confidence = ((0.5 * ingredientScore + 0.5 * structure) * 100).rounded() / 100
        return recipe
    }
}

extension RecipeDraft {
    /// The schema.org `Recipe` objects in a JSON text (JSON-LD, `@graph`, arrays; through ``JSONRecipes``, the one
    /// place that maps schema.org), as drafts; `nil` when the text holds none.
    public static func schemaOrg(json text: String) -> [RecipeDraft]? {
        guard let objects = JSONRecipes.objects(in: text) else { return nil }
        return objects.map(schemaOrg(object:))
    }

    /// One schema.org `Recipe` object as a draft, read field by field through ``SchemaFields`` (the same reading
    /// as saved web pages: entities, tags, lists, `HowToSection`s, ISO 8601 durations).
    public static func schemaOrg(object o: [String: Any]) -> RecipeDraft {
        let f = SchemaFields.self
        func nonEmpty(_ s: String?) -> String? { s.flatMap { $0.isEmpty ? nil : $0 } }
        var draft = RecipeDraft(title: nonEmpty(f.text(o["name"] ?? o["title"])) ?? "Untitled recipe")
        draft.description = nonEmpty(f.text(o["description"]))
        // A list ([4, "4 loaves"]): the most telling item, one with a number and a word.
        let yields = f.elements(o["recipeYield"] ?? o["yields"]).compactMap { nonEmpty(f.text($0)) }
        draft.yield = yields.first { $0.contains(where: \.isNumber) && $0.contains(where: \.isLetter) } ?? yields.first
        draft.prepMinutes = f.minutes(o["prepTime"] ?? o["prep_time"])
        draft.cookMinutes = f.minutes(o["cookTime"] ?? o["cook_time"])
        draft.totalMinutes = f.minutes(o["totalTime"] ?? o["total_time"])
        draft.cuisine = f.list(o["recipeCuisine"]).first
        draft.categories = f.list(o["recipeCategory"])
        draft.tags = f.list(o["keywords"])
        if let whole = wholeLines(o["recipeIngredient"]) {
            // An app's list (Nextcloud Cookbook): each string is one ingredient, a line break inside it
            // ("80 g\r\n de lardons") is no split.
            draft.ingredientGroups = [Group(lines: whole)]
        } else {
            draft.ingredientGroups = f.ingredientGroups(o).filter { !$0.lines.isEmpty }.map { Group(name: $0.name, lines: $0.lines) }
        }
        let method = o["recipeInstructions"] ?? o["instructions_list"] ?? o["instructions"]
        draft.steps = blockSteps(method) ?? f.instructions(method).0.map(\.text)
        draft.url = f.url(o["url"])
        draft.image = f.url(o["image"])
        draft.author = f.name(o["author"])
        draft.nutrition = f.nutrition(o["nutrition"]) ?? [:]
        return draft
    }

    /// A list of two or more plain strings (no HTML), each cleaned as one line; `nil` for any other shape.
    static func wholeLines(_ v: Any?) -> [String]? {
        guard let list = v as? [Any], list.count > 1 else { return nil }
        var out: [String] = []
        for e in list {
            guard let s = e as? String, !s.contains("<") else { return nil }
            let t = SchemaFields.clean(s)
            if !t.isEmpty { out.append(t) }
        }
        return out
    }

    /// A list of plain strings where some hold line breaks (an app's instruction blocks, with sub-headings such as
    /// "For the sauce:"): each line is a step, a line that continues a sentence ("and stir.") joins the line before
    /// it. `nil` for any other shape (read by ``SchemaFields``).
    static func blockSteps(_ v: Any?) -> [String]? {
        guard let list = v as? [Any], !list.isEmpty,
            list.allSatisfy({ ($0 as? String).map { !$0.contains("<") } ?? false }),
            list.contains(where: { ($0 as! String).contains(where: \.isNewline) })
        else { return nil }
        var steps: [String] = []
        for case let block as String in list {
            var joinNext = false
            for raw in block.components(separatedBy: .newlines) {
                let line = SchemaFields.unnumbered(SchemaFields.clean(raw))
                if line.isEmpty { joinNext = false; continue }
                if joinNext, let last = steps.last, line.first?.isLowercase == true {
                    steps[steps.count - 1] = last + " " + line
                } else {
                    steps.append(line)
                }
                joinNext = !(line.last.map { ".!?:)".contains($0) } ?? true)
            }
        }
        return steps
    }
}
