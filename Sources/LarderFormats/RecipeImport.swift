import Foundation
import LarderRecipes

/// The recipe-app formats Larder imports.
public enum AppFormat: String, Codable, Sendable, CaseIterable {
    case paprika, nextcloud, schemaOrg = "schema-org", mealie, tandoor, chowdown, planToEat = "plan-to-eat"
    case myRecipeBox = "my-recipe-box", csv, cooklang, mealmaster, mastercookText = "mastercook-mxp"
    case mastercookXML = "mastercook-mx2"
}

/// One file of an export: a file on disk, or an archive member read into memory (never extracted to disk).
public struct ExportMember: Sendable {
    /// The member's path inside its archive (nested archives joined with "/"), or the file's name.
    public var path: String
    public var data: Data

    public init(path: String, data: Data) {
        self.path = path
        self.data = data
    }
}

/// A recipe read from an export, with the member it came from.
public struct ImportedRecipe: Sendable {
    public var draft: RecipeDraft
    public var format: AppFormat
    public var member: String
    /// The 1-based line (or CSV row's line, or recipe number in an XML file) where it starts in the member.
    public var line: Int
}

/// A member that could not be read; the other members still import.
public struct EntryError: Error, Codable, Sendable, Equatable {
    public var member: String
    public var message: String

    public init(member: String, message: String) {
        self.member = member
        self.message = message
    }
}

/// Reads recipes from export members, each recognised by its content (and its name where the format has no
/// signature of its own: `.cook`, `.csv`, `.paprikarecipe`, `recipe.json`).
public enum RecipeImport {
    public struct Outcome: Sendable {
        public var recipes: [ImportedRecipe] = []
        public var errors: [EntryError] = []
        /// Members that hold no recipe (images, `__MACOSX/` and dot files, site files).
        public var skipped: [String] = []
        /// What was imported but not as the export had it: a recipe kept with no ingredients, a component it
        /// names that is missing, a component file read as part of other recipes. Each names its recipe.
        public var warnings: [EntryError] = []
    }

    /// macOS resource forks, Finder files and other hidden files.
    public static func isJunk(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        return parts.contains { $0 == "__MACOSX" || $0.hasPrefix(".") }
    }

    public static func read(_ members: [ExportMember]) -> Outcome {
        var budget = PartBudget.unlimited
        return (try? read(members, budget: &budget)) ?? Outcome()  // no export holds Int.max parts
    }

    /// ``read(_:)``, charging every recipe's ingredients, steps and notes to `budget` while each member is read: a
    /// member that passes its limit stops there and is skipped with an entry error (its charge given back), the
    /// other members are read; a single member that passes it throws (``RecipePartsOverLimit``).
    public static func read(_ members: [ExportMember], budget: inout PartBudget) throws(RecipePartsOverLimit) -> Outcome {
        var outcome = Outcome()
        let library = chowdownComponents(members)
        for member in members {
            if ChowdownReader.isComponent(path: member.path), !isJunk(member.path),
                ChowdownReader.isChowdown(TextBytes.decode(member.data.prefix(16 * 1024)))
            {
                outcome.skipped.append(member.path)
                if library.isEmpty || members.count == 1 {
                    outcome.warnings.append(EntryError(
                        member: member.path,
                        message: "a Chowdown component (part of the recipes that name it in `components:`), not a recipe of its own: import the whole site (its folder zipped) to read it with them"))
                }
                continue
            }
            // A member that passes the budget is skipped, named, and the others are imported; a file on its own
            // fails whole.
            let before = budget
            do {
                try read(member, into: &outcome, components: library, budget: &budget)
            } catch {
                if members.count == 1 { throw error }
                budget = before
                outcome.errors.append(EntryError(
                    member: member.path,
                    message: "skipped: its recipes would take the export past \(error.limit) ingredients, steps and notes "
                        + "(the limit, one per 2 KiB of limits.max_stage_output_bytes; \(before.used) used by the members "
                        + "before it): split the export, or raise limits.max_stage_output_bytes in pipeline.yml"))
            }
        }
        for k in outcome.recipes.indices {
            outcome.recipes[k].draft.normalize()
            let draft = outcome.recipes[k].draft
            if draft.ingredientLines.isEmpty {
                outcome.warnings.append(EntryError(
                    member: outcome.recipes[k].member, message: "recipe '\(draft.title)' has no ingredients: kept with 0 ingredients"))
            }
        }
        return outcome
    }

    /// A Chowdown site's components (`_components/*.md`), by title and by file stem.
    static func chowdownComponents(_ members: [ExportMember]) -> [String: RecipeDraft] {
        var library: [String: RecipeDraft] = [:]
        for member in members where ChowdownReader.isComponent(path: member.path) && !isJunk(member.path) {
            let text = TextBytes.decode(member.data)
            guard ChowdownReader.isChowdown(text), let d = ChowdownReader.parse(text) else { continue }
            let stem = ((member.path as NSString).lastPathComponent as NSString).deletingPathExtension
            library[ChowdownReader.key(d.title)] = d
            library[ChowdownReader.key(stem)] = library[ChowdownReader.key(stem)] ?? d
        }
        return library
    }

    /// The text format a single file is in, by content; `nil` for anything else (ordinary text, other JSON, HTML).
    /// A JSON file that holds a recipe app's entry or schema.org recipes (a Nextcloud `recipe.json`, a file of
    /// Larder's schema.org export) is read as that app's export, by the one reader such JSON has in an archive.
    /// A JSON export that lists more than `maxParts` recipe parts is not parsed here (`JSONPartScan`): its format is
    /// told by the keys it uses, and the `recipe` stage fails it as over the limit.
    public static func textFormat(fileName: String, data: Data, maxParts: Int = .max) -> AppFormat? {
        let ext = (fileName as NSString).pathExtension.lowercased()
        if ext == "json" || data.first == UInt8(ascii: "{") {
            var budget = PartBudget(limit: maxParts)
            do {
                if case .recipes(_, let format, _, _) = try readJSON(ExportMember(path: fileName, data: data), budget: &budget) {
                    return format
                }
                return nil
            } catch {
                return jsonFormatByKeys(fileName: fileName, head: data.prefix(64 * 1024))
            }
        }
        // A cheap look first (`detect` asks this of every text file; splitting a saved page's 64 KB lines took
        // more than reading the page): past the extensions named below, every format needs one of these marks.
        guard Self.namingExtensions.contains(ext) || Self.hasFormatMark(data.prefix(64 * 1024)) else { return nil }
        let text = TextBytes.decode(data.prefix(64 * 1024))
        if ext == "cook" { return .cooklang }
        if text.contains("<mx2") { return .mastercookXML }
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).prefix(400).map(String.init)
        if lines.contains(where: MasterCookReader.isHeader) { return .mastercookText }
        if lines.contains(where: MealMasterReader.isProgramHeader),
            text.contains("Meal-Master") || lines.contains(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("Title:") })
        {
            return .mealmaster
        }
        if ext == "mmf" { return .mealmaster }
        if ext == "mxp" { return .mastercookText }
        if ext == "csv" || ext == "tsv", CSVRecipes.isRecipeCSV(text) { return .csv }
        if ext == "md" || ext == "markdown", ChowdownReader.isChowdown(text) { return .chowdown }
        return nil
    }

    /// The app a JSON export too large to parse comes from, by the keys in its first bytes.
    static func jsonFormatByKeys(fileName: String, head: Data) -> AppFormat {
        let text = String(decoding: head, as: UTF8.self)
        if fileName.lowercased().hasSuffix(".paprikarecipe") || text.contains("\"directions\"") { return .paprika }
        if text.contains("\"recipe_ingredient\"") { return .mealie }
        if text.contains("\"working_time\"") { return .tandoor }
        return fileName.lowercased().hasSuffix("recipe.json") ? .nextcloud : .schemaOrg
    }

    /// The extensions `textFormat` reads a format from (or checks one for) without a mark in the text.
    private static let namingExtensions: Set<String> = ["cook", "mmf", "mxp", "csv", "tsv", "md", "markdown"]
    /// The ASCII marks one of which each format `textFormat` recognises by content holds: MasterCook XML's `<mx2`,
    /// MasterCook text's `* Exported from MasterCook *`, MealMaster's `MMMMM` or `-----` header.
    private static let formatMarks = ["<mx2", "MasterCook", "MMMMM", "-----"].map { Array($0.utf8) }

    static func hasFormatMark(_ bytes: Data) -> Bool {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return false }
            // memchr to each candidate first byte, then memcmp (a byte loop per mark cost 1.5 M instructions per page).
            return formatMarks.contains { mark in
                mark.withUnsafeBytes { needle in
                    let n = raw.count, m = needle.count
                    var i = 0
                    while i + m <= n, let hit = memchr(base + i, Int32(needle[0]), n - m + 1 - i) {
                        if memcmp(hit, needle.baseAddress!, m) == 0 { return true }
                        i = base.distance(to: UnsafeRawPointer(hit)) + 1
                    }
                    return false
                }
            }
        }
    }

    /// What one member held.
    enum Read {
        case recipes([(RecipeDraft, Int)], AppFormat, errors: [String] = [], warnings: [String] = [])
        case skipped
        case failed(String)
    }

    static func read(
        _ member: ExportMember, into outcome: inout Outcome, components: [String: RecipeDraft] = [:],
        budget: inout PartBudget
    ) throws(RecipePartsOverLimit) {
        let path = member.path
        switch try read(member, components: components, budget: &budget) {
        case .skipped: outcome.skipped.append(path)
        case .failed(let message): outcome.errors.append(EntryError(member: path, message: message))
        case .recipes(let drafts, let format, let errors, let warnings):
            for (draft, line) in drafts {
                var d = draft
                d.member = path
                outcome.recipes.append(ImportedRecipe(draft: d, format: format, member: path, line: line))
            }
            outcome.errors += errors.map { EntryError(member: path, message: $0) }
            outcome.warnings += warnings.map { EntryError(member: path, message: $0) }
        }
    }

    static func read(_ member: ExportMember, components: [String: RecipeDraft] = [:]) -> Read {
        var budget = PartBudget.unlimited
        return (try? read(member, components: components, budget: &budget)) ?? .skipped  // never over Int.max
    }

    static func read(_ member: ExportMember, components: [String: RecipeDraft] = [:], budget: inout PartBudget)
        throws(RecipePartsOverLimit) -> Read
    {
        let path = member.path
        let name = (path as NSString).lastPathComponent.lowercased()
        let ext = (name as NSString).pathExtension
        if isJunk(path) || member.data.isEmpty { return .skipped }
        if ["jpg", "jpeg", "png", "webp", "gif", "heic", "css", "js", "svg", "ico", "yml", "xml"].contains(ext) || name == "license" {
            return .skipped
        }
        if ext == "json" || ext == "paprikarecipe" || member.data.first == UInt8(ascii: "{") {
            return try readJSON(member, budget: &budget)
        }
        if ext == "md" || ext == "markdown" {
            let text = TextBytes.decode(member.data)
            guard ChowdownReader.isChowdown(text), let (draft, names) = ChowdownReader.parseWithComponents(text) else { return .skipped }
            var d = draft
            let missing = ChowdownReader.attach(names, from: components, to: &d)
            try budget.charge(d)
            let warnings = missing.map {
                "recipe '\(d.title)' uses the Chowdown component '\($0)', which is not in the import: kept without it (import the whole site, its folder zipped, to include it)"
            }
            return .recipes([(d, 1)], .chowdown, warnings: warnings)
        }
        if ext == "html" || ext == "htm" {
            guard name == "recipes.html" else { return .skipped }
            return .failed("an HTML recipe export (Copy Me That / Recipe Keeper style) that could not be read: check the export is complete, or export the recipes as JSON, Paprika or schema.org instead")
        }
        return try readText(member, budget: &budget)
    }

    static func readJSON(_ member: ExportMember) -> Read {
        var budget = PartBudget.unlimited
        return (try? readJSON(member, budget: &budget)) ?? .skipped  // never over Int.max
    }

    /// One JSON member: its app's entry, or schema.org recipes, each charged to `budget`.
    static func readJSON(_ member: ExportMember, budget: inout PartBudget) throws(RecipePartsOverLimit) -> Read {
        // Counted from the bytes first: parsing a file that lists too many would take gigabytes.
        if budget.limit < .max {
            let left = budget.limit - budget.used
            let listed = JSONPartScan.listedParts(member.data, limit: left)
            if listed > left { throw RecipePartsOverLimit(parts: budget.used + listed, limit: budget.limit) }
        }
        guard let root = try? JSONSerialization.jsonObject(with: member.data) else {
            let gz = member.data.starts(with: [0x1F, 0x8B])
            return .failed(gz ? "still gzip-compressed: the archive reader should have decompressed it" : "not valid JSON: the file is damaged; re-export it")
        }
        let isPaprikaEntry = (member.path as NSString).pathExtension.lowercased() == "paprikarecipe"
        if let o = root as? [String: Any] {
            let app: (RecipeDraft, AppFormat)? =
                if JSONApps.isPaprika(o) || (isPaprikaEntry && (o["name"] != nil || o["uid"] != nil)) {
                    (JSONApps.paprika(o), .paprika)
                } else if JSONApps.isMealie(o) {
                    (JSONApps.mealie(o), .mealie)
                } else if JSONApps.isTandoor(o) {
                    (JSONApps.tandoor(o), .tandoor)
                } else {
                    nil
                }
            if let (draft, format) = app {
                try budget.charge(draft)
                return .recipes([(draft, 1)], format)
            }
        }
        let text = String(decoding: member.data, as: UTF8.self)
        if let drafts = RecipeDraft.schemaOrg(json: text) {
            let format: AppFormat = member.path.lowercased().hasSuffix("recipe.json") ? .nextcloud : .schemaOrg
            for draft in drafts { try budget.charge(draft) }
            return .recipes(drafts.map { ($0, 1) }, format)
        }
        if isPaprikaEntry {
            return .failed("a .paprikarecipe entry that is not a Paprika recipe (no `name` or `uid`): re-export it from Paprika")
        }
        return .skipped
    }

    /// One text member in its app's format, its recipes charged to `budget` as they are read.
    static func readText(_ member: ExportMember, budget: inout PartBudget) throws(RecipePartsOverLimit) -> Read {
        guard let format = textFormat(fileName: member.path, data: member.data) else { return .skipped }
        let text = TextBytes.decode(member.data)
        switch format {
        case .cooklang:
            let draft = CooklangReader.parse(text).draft(fileName: member.path)
            try budget.charge(draft)
            return .recipes([(draft, 1)], .cooklang)
        case .mealmaster:
            let recipes = try MealMasterReader.parse(text, budget: &budget)
            if recipes.isEmpty { return .failed("a MealMaster file with no recipe in it") }
            return .recipes(recipes.map { ($0.draft, $0.line) }, .mealmaster)
        case .mastercookText:
            let recipes = try MasterCookReader.parse(text, budget: &budget)
            if recipes.isEmpty { return .failed("a MasterCook file with no recipe in it") }
            return .recipes(recipes.map { ($0.draft, $0.line) }, .mastercookText)
        case .mastercookXML:
            do {
                return .recipes(try MX2Reader.parse(member.data, budget: &budget).map { ($0.draft, $0.line) }, .mastercookXML)
            } catch let error as RecipePartsOverLimit {
                throw error
            } catch {
                return .failed("the MasterCook XML cannot be read (\(error)): re-export it from MasterCook")
            }
        default:
            let (recipes, errors) = try CSVRecipes.parse(text, budget: &budget)
            let header = text.prefix(200).lowercased()
            let kind: AppFormat = header.hasPrefix("title,course") ? .planToEat : header.hasPrefix("title,description,preparationtime") ? .myRecipeBox : .csv
            return .recipes(recipes.map { ($0.draft, $0.row) }, kind, errors: errors.map(\.message))
        }
    }
}

extension RecipeDraft {
    /// An empty field is an absent one: text trimmed, empty strings (a Cooklang `source.url:` with no value, a
    /// Paprika `""`) and empty list items removed, non-positive times dropped, so no result breaks its schema on
    /// an empty field.
    mutating func normalize() {
        func clean(_ s: String?) -> String? {
            guard let t = s?.trimmingCharacters(in: .whitespacesAndNewlines), !t.isEmpty else { return nil }
            return t
        }
        func positive(_ m: Double?) -> Double? { m.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } }
        title = clean(title) ?? "Untitled recipe"
        description = clean(description)
        yield = clean(yield)
        cuisine = clean(cuisine)
        url = clean(url)
        image = clean(image)
        author = clean(author)
        prepMinutes = positive(prepMinutes)
        cookMinutes = positive(cookMinutes)
        totalMinutes = positive(totalMinutes)
        categories = categories.compactMap(clean)
        tags = tags.compactMap(clean)
        ingredientGroups = ingredientGroups.map { Group(name: clean($0.name), lines: $0.lines.compactMap(clean)) }
            .filter { !$0.lines.isEmpty }
        steps = steps.compactMap(clean)
        notes = notes.compactMap(clean)
        nutrition = nutrition.compactMapValues(clean)
    }
}
