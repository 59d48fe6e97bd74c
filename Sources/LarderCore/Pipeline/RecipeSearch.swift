import Foundation
import GRDB
import LarderReceipts

/// A search over every ingested recipe (`larder search`).
public struct RecipeSearchQuery: Sendable, Equatable {
    /// Words to find (title, ingredients, steps, tags, cuisine; stemmed: "tomatoes" finds "tomato"); empty lists
    /// every recipe that passes the filters.
    public var text: String = ""
    /// Base ingredients every result must use (its base, its form's parent, or an alternative).
    public var ingredients: [String] = []
    /// Allergens no ingredient may contain.
    public var without: [String] = []
    /// Diets every result must be labelled `yes` for.
    public var diets: [String] = []
    /// Total (else prep + cook) time at most this; recipes without a time are left out.
    public var maxMinutes: Double?
    public var mealType: String?
    public var cuisine: String?
    public var limit: Int = 20

    public init() {}
}

/// One recipe found.
public struct RecipeSearchHit: Codable, Sendable, Equatable {
    public var documentID: Int64
    public var path: String
    /// Index of the recipe in the document's result.
    public var recipe: Int
    public var title: String
    public var minutes: Double?
    public var mealType: String?
    public var cuisine: String?
    public var diets: [String]
    /// bm25 (lower is better); 0 without query words.
    public var rank: Double
}

extension SQLiteCheckpointStore {
    /// Recipes matching `query`, best first.
    /// - Throws: ``LarderError`` `.configuration` for an unknown allergen or diet.
    public func searchRecipes(_ query: RecipeSearchQuery) throws -> [RecipeSearchHit] {
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        let words = query.text.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
        if !words.isEmpty {
            conditions.append("recipe_search MATCH ?")
            arguments.append(words.map { "\"\($0)\"" }.joined(separator: " "))
        }
        for ingredient in query.ingredients {
            let names = Self.baseNames(ingredient)
            conditions.append(
                "e.id IN (SELECT recipe_id FROM recipe_entry_base WHERE base IN (\(names.map { _ in "?" }.joined(separator: ","))))")
            arguments += names
        }
        for allergen in query.without {
            guard let known = Allergen(rawValue: allergen.lowercased()) else {
                throw LarderError(.configuration, "unknown allergen '\(allergen)'",
                                  hint: "use one of: " + Allergen.allCases.map(\.rawValue).joined(separator: ", "))
            }
            conditions.append("e.allergens NOT LIKE ?")
            arguments.append("%,\(known.rawValue),%")
        }
        for diet in query.diets {
            guard let known = Diet(rawValue: diet.lowercased()) else {
                throw LarderError(.configuration, "unknown diet '\(diet)'",
                                  hint: "use one of: " + Diet.allCases.map(\.rawValue).joined(separator: ", "))
            }
            conditions.append("e.diets LIKE ?")
            arguments.append("%,\(known.rawValue),%")
        }
        if let max = query.maxMinutes {
            conditions.append("e.minutes IS NOT NULL AND e.minutes <= ?")
            arguments.append(max)
        }
        if let mealType = query.mealType {
            conditions.append("e.meal_type = ? COLLATE NOCASE")
            arguments.append(mealType)
        }
        if let cuisine = query.cuisine {
            conditions.append("e.cuisine = ? COLLATE NOCASE")
            arguments.append(cuisine)
        }
        let from = words.isEmpty
            ? "recipe_entry e"
            : "recipe_search JOIN recipe_entry e ON e.id = recipe_search.rowid"
        // Title matches weigh most, then ingredients, tags and cuisine, then steps.
        let rank = words.isEmpty ? "0.0" : "bm25(recipe_search, 10.0, 4.0, 1.0, 3.0, 3.0)"
        let sql = """
            SELECT e.document_id, d.path, e.position, e.title, e.minutes, e.meal_type, e.cuisine, e.diets, \(rank) AS rank
            FROM \(from) JOIN document d ON d.id = e.document_id
            \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
            ORDER BY rank, e.title, e.id LIMIT ?
            """
        arguments.append(query.limit)
        do {
            return try pool.read { db in
                try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { row in
                    RecipeSearchHit(
                        documentID: row["document_id"], path: row["path"], recipe: row["position"], title: row["title"],
                        minutes: row["minutes"], mealType: row["meal_type"], cuisine: row["cuisine"],
                        diets: (row["diets"] as String).split(separator: ",").map(String.init), rank: row["rank"])
                }
            }
        } catch {
            throw LarderError(.database, "recipe search failed: \(error)", hint: "rebuild the index with `larder search --reindex`", path: path)
        }
    }

    /// Rebuilds the search index from every document's exportable result; returns the number of recipes indexed.
    public func reindexRecipes() throws -> Int {
        do { return try pool.write { try RecipeIndex.rebuild($0) } } catch {
            throw LarderError(.database, "cannot rebuild the recipe index: \(error)", path: path)
        }
    }

    /// The names an ingredient filter matches: as typed, and the base the normaliser gives it ("cheddar" →
    /// "cheddar cheese").
    static func baseNames(_ ingredient: String) -> [String] {
        var names = [ingredient.lowercased()]
        if let enrichment = try? RecipeEnrichment.bundled(),
           let base = enrichment.base(of: .init(text: ingredient, name: ingredient, provenance: .init(page: 1, lineStart: 1, lineEnd: 1))) {
            names.append(base.ingredient)
        }
        return Array(Set(names)).sorted()
    }

    /// Every indexed pantry item.
    func indexedPantry() throws -> [CookPlanner.PantryEntry] {
        try pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT ingredient, product, quantity, unit, purchase_date, receipt, line FROM pantry_entry"
            ).map {
                CookPlanner.PantryEntry(
                    ingredient: $0["ingredient"], product: $0["product"], quantity: $0["quantity"], unit: $0["unit"],
                    purchaseDate: $0["purchase_date"], receipt: $0["receipt"], line: $0["line"])
            }
        }
    }

    /// The recipes using at least one of `bases`, with their ingredients.
    func indexedRecipes(using bases: [String]) throws -> [CookPlanner.RecipeEntry] {
        guard !bases.isEmpty else { return [] }
        let marks = bases.map { _ in "?" }.joined(separator: ",")
        return try pool.read { db in
            var recipes: [Int64: CookPlanner.RecipeEntry] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT e.id, e.document_id, d.path, e.position AS recipe, e.title, i.text, i.base, i.parent,
                           i.alternatives, i.quantity, i.unit, i.optional
                    FROM recipe_entry e JOIN document d ON d.id = e.document_id
                    JOIN recipe_entry_ingredient i ON i.recipe_id = e.id
                    WHERE e.id IN (SELECT recipe_id FROM recipe_entry_base WHERE base IN (\(marks)))
                    ORDER BY e.id, i.position
                    """,
                arguments: StatementArguments(bases))
            while let row = try rows.next() {
                let id: Int64 = row["id"]
                if recipes[id] == nil {
                    recipes[id] = CookPlanner.RecipeEntry(
                        documentID: row["document_id"], path: row["path"], recipe: row["recipe"], title: row["title"],
                        ingredients: [])
                }
                let text: String = row["alternatives"]
                // Most lines have none; a JSONDecoder per row would dominate `larder cook` over a large index.
                let alternatives = text == "[]" ? [] : (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
                recipes[id]!.ingredients.append(CookPlanner.IngredientEntry(
                    text: row["text"], base: row["base"], parent: row["parent"], alternatives: alternatives,
                    quantity: row["quantity"], unit: row["unit"], optional: row["optional"]))
            }
            return recipes.keys.sorted().map { recipes[$0]! }
        }
    }
}
