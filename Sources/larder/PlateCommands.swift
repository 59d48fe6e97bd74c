import ArgumentParser
import Foundation
import LarderCore
import LarderPostgres
import LarderRecipes

struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find recipes across everything ingested (full-text, ranked), with filters.",
        discussion: """
            Words are looked for in titles, ingredients, steps, tags and cuisine, stemmed ("tomatoes" finds \
            "tomato"), all of them required, ranked by bm25 (title matches count most). Without words, every \
            recipe passing the filters is listed by title.
            """)

    @OptionGroup var options: CommonOptions

    @Argument(help: "Words to find.")
    var words: [String] = []

    @Option(help: "A base ingredient the recipe must use (repeatable): 'cheddar', 'cumin'.")
    var ingredient: [String] = []

    @Option(help: "An allergen no ingredient may contain (repeatable): dairy, eggs, peanuts, 'tree nuts', wheat, gluten…")
    var without: [String] = []

    @Option(help: "A diet the recipe must suit (repeatable): vegan, vegetarian, gluten-free, dairy-free, nut-free.")
    var diet: [String] = []

    @Option(help: "Total (else prep + cook) minutes at most; recipes without a time are left out.")
    var maxMinutes: Double?

    @Option(help: "Meal type, e.g. dessert.")
    var mealType: String?

    @Option(help: "Cuisine, e.g. Italian.")
    var cuisine: String?

    @Option(help: "At most this many results.")
    var limit = 20

    @Flag(help: "Rebuild the index from every document's exported result first.")
    var reindex = false

    func run() throws {
        try reportingErrors {
            let config = try options.loadConfig()
            let store = try Self.store(config, reindex: reindex)
            if reindex {
                let count = try store.reindex()
                if words.isEmpty && ingredient.isEmpty && without.isEmpty && diet.isEmpty && maxMinutes == nil
                    && mealType == nil && cuisine == nil {
                    if options.json { return try printJSON(["indexed": count]) }
                    return print("indexed \(count) recipe(s)")
                }
            }
            var query = RecipeSearchQuery()
            query.text = words.joined(separator: " ")
            query.ingredients = ingredient
            query.without = without
            query.diets = diet
            query.maxMinutes = maxMinutes
            query.mealType = mealType
            query.cuisine = cuisine
            query.limit = limit
            let hits = try store.searchRecipes(query)
            if options.json { return try printJSON(hits) }
            if hits.isEmpty { print("no recipe matches") }
            for hit in hits {
                let minutes = hit.minutes.map { String(format: "%g min", $0) } ?? "time not given"
                let diets = hit.diets.isEmpty ? "" : "  [" + hit.diets.joined(separator: ", ") + "]"
                print("\(hit.title)  (\(minutes))\(diets)  — doc \(hit.documentID) \(hit.path)")
            }
        }
    }
}

extension Search {
    /// What `search` reads: the SQLite file (read-only unless reindexing) or the PostgreSQL store.
    struct Store {
        var store: any ServiceStore
        var reindex: () throws -> Int
        func searchRecipes(_ query: RecipeSearchQuery) throws -> [RecipeSearchHit] { try store.searchRecipes(query) }
    }

    static func store(_ config: PipelineConfig, reindex: Bool) throws -> Store {
        if StoreLocation.isPostgres(config.database) {
            guard let store = try StoreOpener.open(config) as? PostgresCheckpointStore else {
                throw LarderError(.database, "the store for larder search is not a PostgreSQL store")
            }
            return Store(store: store, reindex: store.reindexRecipes)
        }
        let store = try reindex ? SQLiteCheckpointStore(path: config.database) : SQLiteCheckpointStore.forQueries(path: config.database)
        return Store(store: store, reindex: store.reindexRecipes)
    }
}

struct Cook: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cook",
        abstract: "What can I cook with what I bought: recipes ranked by how much of them the pantry covers.",
        discussion: """
            For each recipe: the ingredients you have (with the pantry item and its date), those assumed on hand \
            (pantry.staples), and those to buy; whether the quantity bought suffices when the units compare. \
            Items older than pantry.fresh_days for their kind do not count.
            """)

    @OptionGroup var options: CommonOptions

    @Option(help: "At most this many recipes.")
    var limit = 10

    @Option(help: "Only recipes missing at most this many ingredients.")
    var missingAtMost: Int?

    @Option(help: "Count freshness to this day (YYYY-MM-DD; default today).")
    var asOf: String?

    func run() throws {
        try reportingErrors {
            let config = try options.loadConfig()
            let store: any ServiceStore =
                try StoreLocation.isPostgres(config.database)
                ? StoreOpener.open(config) : SQLiteCheckpointStore.forQueries(path: config.database)
            let today = asOf ?? ISO8601DateFormatter.string(from: Date(), timeZone: .current, formatOptions: [.withFullDate])
            guard CookPlanner.day(today) != nil else {
                throw LarderError(.configuration, "bad date '\(today)' for --as-of", hint: "write it as YYYY-MM-DD")
            }
            let planner = CookPlanner(config: config.pantry, asOf: today)
            let suggestions = try store.cookSuggestions(planner, limit: limit, missingAtMost: missingAtMost)
            if options.json { return try printJSON(suggestions) }
            if suggestions.isEmpty {
                print("nothing to cook from the pantry yet: ingest some receipts and recipes (`larder pantry` shows the pantry)")
            }
            for (n, s) in suggestions.enumerated() {
                print("\(n + 1). \(s.title) — \(Int((s.coverage * 100).rounded()))% on hand, \(s.missing.count) to buy  (doc \(s.documentID))")
                for have in s.have {
                    print("   have  \(have.ingredient)  ← \(have.pantryItem) (\(have.purchaseDate ?? "no date"))  [\(have.quantity.status == "unknown" ? "" : have.quantity.status + ": ")\(have.quantity.detail)]")
                }
                for missing in s.missing {
                    print("   buy   \(missing.ingredient)\(missing.base.map { "  (\($0))" } ?? "")\(missing.stale.map { "  — stale: \($0)" } ?? "")")
                }
                if !s.assumed.isEmpty { print("   staples: " + s.assumed.joined(separator: "; ")) }
            }
        }
    }
}

/// `--servings N [--units metric|us]` for `export` and `show`.
struct ScalingOptions: ParsableArguments {
    @Option(help: "Scale every recipe to this many servings (quantities rounded the way a cook measures).")
    var servings: Double?

    @Option(help: "With --servings: convert quantities to metric or us units.")
    var units: String?

    func scaler() throws -> RecipeScaler? {
        let system = try units.map { name -> RecipeScaler.Units in
            guard let u = RecipeScaler.Units(rawValue: name) else {
                throw LarderError(.configuration, "unknown units '\(name)'", hint: "use --units metric or --units us")
            }
            return u
        }
        guard let servings else {
            if system != nil { throw LarderError(.configuration, "--units needs --servings", hint: "add --servings N") }
            return nil
        }
        guard servings > 0 else { throw LarderError(.configuration, "--servings must be above 0", hint: "e.g. --servings 8") }
        return RecipeScaler(servings: servings, units: system)
    }
}

/// A scaled recipe as a cook reads it.
func printScaled(_ recipe: Recipe) {
    let servings = recipe.yields?.servings.map { String(format: "%g", $0) } ?? "?"
    print("\(recipe.title) — serves \(servings)\(recipe.scaling.map { String(format: " (×%g of '%@')", $0.factor, recipe.yields?.text ?? "") } ?? "")")
    for group in recipe.ingredientGroups {
        if let name = group.name { print("  \(name):") }
        for ingredient in group.ingredients {
            let amount = ingredient.quantity.map { q in
                KitchenFractions.text(q.value) + (q.max.map { "–" + KitchenFractions.text($0) } ?? "")
            } ?? ""
            let note = ingredient.scaledFrom?.note.map { "  (\($0))" } ?? ""
            let plural = (ingredient.quantity?.max ?? ingredient.quantity?.value ?? 0) > 1 && ingredient.unit != nil
            let unit = (ingredient.unit ?? "") + (plural && !(ingredient.unit ?? "").hasSuffix("s") ? "s" : "")
            print("  \([amount, unit, ingredient.name].filter { !$0.isEmpty }.joined(separator: " "))    ← \(ingredient.text)\(note)")
        }
    }
}

/// 2.125 → "2 1/8".
enum KitchenFractions {
    static func text(_ value: Double) -> String {
        let whole = value.rounded(.down)
        let eighths = Int(((value - whole) * 8).rounded())
        if eighths == 0 || eighths == 8 { return String(format: "%g", eighths == 8 ? whole + 1 : whole) }
        if abs(value * 8 - (value * 8).rounded()) > 0.01 { return String(format: "%g", (value * 100).rounded() / 100) }
        let (n, d) = [(1, 8), (1, 4), (3, 8), (1, 2), (5, 8), (3, 4), (7, 8)][eighths - 1]
        return (whole > 0 ? String(format: "%g ", whole) : "") + "\(n)/\(d)"
    }
}
