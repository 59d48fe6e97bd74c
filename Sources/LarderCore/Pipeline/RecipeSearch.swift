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

extension RecipeSearchQuery {
    /// The query's words: its letters and digits, lowercased; each is looked for as a phrase of its own (so quotes,
    /// `*`, `-`, `AND`, `NEAR` and the like are words or nothing, never query syntax).
    package var words: [String] {
        text.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
    }

    /// The allergens to leave out, as their raw values.
    /// - Throws: ``LarderError`` `.configuration` for an unknown allergen.
    package func knownAllergens() throws -> [String] {
        try without.map { allergen in
            guard let known = Allergen(rawValue: allergen.lowercased()) else {
                throw LarderError(.configuration, "unknown allergen '\(allergen)'",
                                  hint: "use one of: " + Allergen.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return known.rawValue
        }
    }

    /// The diets required, as their raw values.
    /// - Throws: ``LarderError`` `.configuration` for an unknown diet.
    package func knownDiets() throws -> [String] {
        try diets.map { diet in
            guard let known = Diet(rawValue: diet.lowercased()) else {
                throw LarderError(.configuration, "unknown diet '\(diet)'",
                                  hint: "use one of: " + Diet.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return known.rawValue
        }
    }
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

    package init(
        documentID: Int64, path: String, recipe: Int, title: String, minutes: Double?, mealType: String?,
        cuisine: String?, diets: [String], rank: Double
    ) {
        self.documentID = documentID
        self.path = path
        self.recipe = recipe
        self.title = title
        self.minutes = minutes
        self.mealType = mealType
        self.cuisine = cuisine
        self.diets = diets
        self.rank = rank
    }
}

extension SQLiteCheckpointStore: RecipeIndexReader {
    /// The store for `larder search` and `larder cook`, which only read: a read-only connection, without the
    /// writer's setup (the identity check, the WAL switch, a pool, the migration check). A database whose schema
    /// is behind (`PRAGMA user_version` below ``schemaVersion``: the index's migration has not run) or that does not
    /// exist yet is opened for writing instead, which migrates it as before.
    public static func forQueries(path: String) throws -> SQLiteCheckpointStore {
        if FileManager.default.fileExists(atPath: path),
           let store = try? SQLiteCheckpointStore(path: path, readOnly: true),
           let version = try? store.pool.read({ try Int32.fetchOne($0, sql: "PRAGMA user_version") }),
           version >= schemaVersion {
            return store
        }
        return try SQLiteCheckpointStore(path: path)
    }

    /// Recipes matching `query`, best first.
    /// - Throws: ``LarderError`` `.configuration` for an unknown allergen or diet.
    public func searchRecipes(_ query: RecipeSearchQuery) throws -> [RecipeSearchHit] {
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        let words = query.words
        for ingredient in query.ingredients {
            let names = Self.baseNames(ingredient)
            conditions.append(
                "e.id IN (SELECT recipe_id FROM recipe_entry_base WHERE base IN (\(names.map { _ in "?" }.joined(separator: ","))))")
            arguments += names
        }
        for allergen in try query.knownAllergens() {
            conditions.append("e.allergens NOT LIKE ?")
            arguments.append("%,\(allergen),%")
        }
        for diet in try query.knownDiets() {
            conditions.append("e.diets LIKE ?")
            arguments.append("%,\(diet),%")
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
        let sql: String
        let filters = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let columns = "e.id, e.document_id, e.position, e.title, e.minutes, e.meal_type, e.cuisine, e.diets"
        if words.isEmpty {
            sql = "SELECT \(columns), 0.0 AS rank FROM recipe_entry e \(filters) ORDER BY e.title, e.id LIMIT ?"
        } else {
            // Title matches weigh most, then ingredients, tags and cuisine, then steps. (bm25 over every match is
            // most of the query's time; joining only the matches ranked at or above the page's last one measured no
            // faster.)
            arguments.insert(words.map { "\"\($0)\"" }.joined(separator: " "), at: 0)
            sql = """
                SELECT \(columns), bm25(recipe_search, 10.0, 4.0, 1.0, 3.0, 3.0) AS rank
                FROM recipe_search JOIN recipe_entry e ON e.id = recipe_search.rowid
                WHERE \((["recipe_search MATCH ?"] + conditions).joined(separator: " AND "))
                ORDER BY rank, e.title, e.id LIMIT ?
                """
        }
        arguments.append(query.limit)
        // The document's path only for the page shown.
        let page = """
            SELECT p.document_id, d.path, p.position, p.title, p.minutes, p.meal_type, p.cuisine, p.diets, p.rank
            FROM (\(sql)) p JOIN document d ON d.id = p.document_id ORDER BY p.rank, p.title, p.id
            """
        do {
            return try pool.read { db in
                try Row.fetchAll(db, sql: page, arguments: StatementArguments(arguments)).map { row in
                    RecipeSearchHit(
                        documentID: row[0], path: row[1], recipe: row[2], title: row[3], minutes: row[4],
                        mealType: row[5], cuisine: row[6], diets: (row[7] as String).split(separator: ",").map(String.init),
                        rank: row[8])
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
    package static func baseNames(_ ingredient: String) -> [String] {
        var names = [ingredient.lowercased()]
        if let enrichment = try? RecipeEnrichment.bundled(),
           let base = enrichment.base(of: .init(text: ingredient, name: ingredient, provenance: .init(page: 1, lineStart: 1, lineEnd: 1))) {
            names.append(base.ingredient)
        }
        return Array(Set(names)).sorted()
    }

    /// Every indexed pantry item.
    package func indexedPantry() throws -> [CookPlanner.PantryEntry] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                // In a fixed order (the first fresh item of an ingredient is the one `larder cook` names), the same
                // as the PostgreSQL store's.
                sql: "SELECT ingredient, product, quantity, unit, purchase_date, receipt, line FROM pantry_entry ORDER BY document_id, position"
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
        return try indexedRecipes(
            where: "e.id IN (SELECT recipe_id FROM recipe_entry_base WHERE base IN (\(Self.marks(bases.count))))",
            arguments: bases)
    }

    /// Every base ingredient, parent and alternative the indexed recipes use.
    func indexedRecipeBases() throws -> [String] {
        try pool.read { try String.fetchAll($0, sql: "SELECT DISTINCT base FROM recipe_entry_base ORDER BY base") }
    }

    /// The recipes with these index ids, with their ingredients (in id order).
    package func indexedRecipes(ids: [Int64]) throws -> [CookPlanner.RecipeEntry] {
        guard !ids.isEmpty else { return [] }
        return try indexedRecipes(where: "e.id IN (\(Self.marks(ids.count)))", arguments: ids)
    }

    private func indexedRecipes(where condition: String, arguments: [any DatabaseValueConvertible]) throws -> [CookPlanner.RecipeEntry] {
        try pool.read { db in
            var recipes: [CookPlanner.RecipeEntry] = []
            var last: Int64?
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT e.id, e.document_id, d.path, e.position, e.title, i.text, i.base, i.parent,
                           i.alternatives, i.quantity, i.unit, i.optional
                    FROM recipe_entry e JOIN document d ON d.id = e.document_id
                    JOIN recipe_entry_ingredient i ON i.recipe_id = e.id
                    WHERE \(condition)
                    ORDER BY e.id, i.position
                    """,
                arguments: StatementArguments(arguments))
            while let row = try rows.next() {
                let id: Int64 = row[0]
                if id != last {
                    recipes.append(CookPlanner.RecipeEntry(
                        documentID: row[1], path: row[2], recipe: row[3], title: row[4], ingredients: []))
                    last = id
                }
                let text: String = row[8]
                // Most lines have none; a JSONDecoder per row would dominate over a large index.
                let alternatives = text == "[]" ? [] : (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
                recipes[recipes.count - 1].ingredients.append(CookPlanner.IngredientEntry(
                    text: row[5], base: row[6], parent: row[7], alternatives: alternatives,
                    quantity: row[9], unit: row[10], optional: row[11]))
            }
            return recipes
        }
    }

    /// Per indexed recipe, how many of its ingredients the pantry covers, counted in one pass over the index by
    /// the rules of ``CookPlanner``: an ingredient (optional ones and `staples` aside) is covered when its base or
    /// its parent is a `fresh` base ingredient or one of the `forms` (the parents of fresh items), or one of its
    /// alternatives is a `fresh` base ingredient. Recipes covering nothing are left out.
    package func cookCounts(fresh: [String], forms: [String], staples: [String]) throws -> [CookPlanner.CookCount] {
        let known = fresh + forms
        let (f, k) = (Self.marks(fresh.count), Self.marks(known.count))
        let staple = staples.isEmpty ? "" : "AND (i.base IS NULL OR i.base NOT IN (\(Self.marks(staples.count))))"
        let sql = """
            SELECT e.id, e.document_id, e.position, e.title, c.have, c.needed
            FROM (SELECT i.recipe_id,
                         SUM(i.base IS NOT NULL AND (i.base IN (\(k)) OR i.parent IN (\(k))
                             OR (i.alternatives <> '[]'
                                 AND EXISTS (SELECT 1 FROM json_each(i.alternatives) a WHERE a.value IN (\(f)))))) AS have,
                         COUNT(*) AS needed
                  FROM recipe_entry_ingredient i
                  WHERE i.optional = 0 \(staple)
                  GROUP BY i.recipe_id) c
            JOIN recipe_entry e ON e.id = c.recipe_id
            WHERE c.have > 0
            """
        let arguments: [any DatabaseValueConvertible] = known + known + fresh + staples
        return try pool.read { db in
            try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map {
                CookPlanner.CookCount(id: $0[0], documentID: $0[1], recipe: $0[2], title: $0[3], have: $0[4], needed: $0[5])
            }
        }
    }

    /// `?, ?, ?` for `count` arguments.
    static func marks(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}
