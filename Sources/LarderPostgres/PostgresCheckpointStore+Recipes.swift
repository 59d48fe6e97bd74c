import Foundation
import LarderCore
import Logging
import PostgresNIO

// MARK: `larder search` and `larder cook` (the recipe index, ``PostgresRecipeIndex``)

extension PostgresCheckpointStore: RecipeIndexReader {
    /// Recipes matching `query`, best first: the same hits, in the same order, as the SQLite store's
    /// ``SQLiteCheckpointStore/searchRecipes(_:)`` (see ``PostgresRecipeIndex`` for how).
    /// - Throws: ``LarderError`` `.configuration` for an unknown allergen or diet.
    public func searchRecipes(_ query: RecipeSearchQuery) throws -> [RecipeSearchHit] {
        var binds = PostgresBindings()
        func bind<Value: PostgresEncodable>(_ value: Value) throws -> String {
            try binds.append(value)
            return "$\(binds.count)"
        }
        let clean: (String) -> String = PostgresRecipeIndex.clean
        // Each word a phrase of its tokens (one, but for scripts whose marks FTS5 treats as separators).
        let phrases = try query.words.map { try SearchTokenizer.queryTokens($0) }.filter { !$0.isEmpty }
        if !query.words.isEmpty && phrases.isEmpty { return [] }
        var conditions: [String] = []
        for ingredient in query.ingredients {
            let names = SQLiteCheckpointStore.baseNames(clean(ingredient))
            conditions.append(
                "e.id IN (SELECT recipe_id FROM recipe_entry_base WHERE base = ANY(\(try bind(names))::text[]))")
        }
        for allergen in try query.knownAllergens() { conditions.append("e.allergens NOT LIKE \(try bind("%,\(allergen),%"))") }
        for diet in try query.knownDiets() { conditions.append("e.diets LIKE \(try bind("%,\(diet),%"))") }
        if let max = query.maxMinutes { conditions.append("e.minutes IS NOT NULL AND e.minutes <= \(try bind(max))") }
        // SQLite's NOCASE folds ASCII letters only.
        let fold = { (x: String) in "translate(\(x), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')" }
        if let mealType = query.mealType { conditions.append("\(fold("e.meal_type")) = \(fold(try bind(clean(mealType))))") }
        if let cuisine = query.cuisine { conditions.append("\(fold("e.cuisine")) = \(fold(try bind(clean(cuisine))))") }
        let columns = "e.id, e.document_id, e.position, e.title, e.minutes, e.meal_type, e.cuisine, e.diets"
        let sql: String
        if phrases.isEmpty {
            let filters = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            sql = """
                SELECT \(columns), 0.0::float8 AS rank FROM recipe_entry e \(filters)
                ORDER BY e.title COLLATE "C", e.id LIMIT \(try bind(query.limit))
                """
        } else {
            let p = try bind(phrases.map { $0.joined(separator: "\u{1}") }), all = try bind(Array(Set(phrases.joined())).sorted())
            sql = Self.rankedSearch(
                phrases: p, tokens: all, conditions: conditions, columns: columns, limit: try bind(query.limit))
        }
        let page = PostgresQuery(
            unsafeSQL: """
                SELECT p.document_id, d.path, p.position, p.title, p.minutes, p.meal_type, p.cuisine, p.diets, p.rank
                FROM (\(sql)) p JOIN document d ON d.id = p.document_id ORDER BY p.rank, p.title COLLATE "C", p.id
                """, binds: binds)
        return try read { connection, logger in
            try await connection.rows(page, logger).map { row in
                let (id, path, position, title, minutes, mealType, cuisine, diets, rank) = try row.decode(
                    (Int64, String, Int, String, Double?, String?, String?, String, Double).self)
                return RecipeSearchHit(
                    documentID: id, path: path, recipe: position, title: title, minutes: minutes, mealType: mealType,
                    cuisine: cuisine, diets: diets.split(separator: ",").map(String.init), rank: rank)
            }
        }
    }

    /// FTS5's bm25 (`bm25(recipe_search, 10, 4, 1, 3, 3)`: k1 1.2, b 0.75), term for term as fts5_aux.c computes
    /// it: per query phrase, IDF = ln((N − n + 0.5) / (n + 0.5)) floored at 1e-6 (N recipes, n holding the
    /// phrase); its weighted frequency f in the recipe (each occurrence counts its column's weight); the recipe's
    /// length D (tokens in every column) against the mean; rank = −Σ IDF · f(k1 + 1) / (f + k1(1 − b + b·D/avgdl)).
    /// `phrases`: each phrase's tokens joined by U+0001; `tokens`: every token (the GIN index's prefilter).
    private static func rankedSearch(
        phrases: String, tokens: String, conditions: [String], columns: String, limit: String
    ) -> String {
        func frequency(_ r: String, _ phrase: String) -> String {
            """
            (10.0::float8 * phrase_count(\(r).title_tokens, \(phrase))
             + 4.0::float8 * phrase_count(\(r).ingredient_tokens, \(phrase))
             + 1.0::float8 * phrase_count(\(r).step_tokens, \(phrase))
             + 3.0::float8 * phrase_count(\(r).tag_tokens, \(phrase))
             + 3.0::float8 * phrase_count(\(r).cuisine_tokens, \(phrase)))
            """
        }
        return """
            WITH q AS (
                SELECT string_to_array(phrase, chr(1)) AS tokens, n
                FROM unnest(\(phrases)::text[]) WITH ORDINALITY AS q(phrase, n)),
            stats AS (SELECT COUNT(*)::float8 AS rows, COALESCE(SUM(token_count), 0)::float8 AS tokens FROM recipe_entry),
            idf AS (
                SELECT q.n, q.tokens, CASE WHEN l.x <= 0 THEN 1e-6::float8 ELSE l.x END AS idf
                FROM q CROSS JOIN stats CROSS JOIN LATERAL (
                    SELECT ln((stats.rows - c.hits + 0.5::float8) / (c.hits + 0.5::float8)) AS x
                    FROM (SELECT COUNT(*)::float8 AS hits FROM recipe_entry r
                          WHERE r.terms @> q.tokens AND (cardinality(q.tokens) = 1 OR \(frequency("r", "q.tokens")) > 0)
                         ) c) l)
            SELECT \(columns),
                -(SELECT SUM(idf.idf * ((f.f * (1.2::float8 + 1.0::float8))
                                        / (f.f + 1.2::float8 * (1.0::float8 - 0.75::float8
                                                                 + 0.75::float8 * e.token_count / (stats.tokens / stats.rows)))))
                  FROM idf CROSS JOIN LATERAL (SELECT \(frequency("e", "idf.tokens")) AS f) f) AS rank
            FROM recipe_entry e CROSS JOIN stats
            WHERE \((["e.terms @> \(tokens)::text[]"] + conditions).joined(separator: " AND "))
              AND NOT EXISTS (SELECT 1 FROM q WHERE cardinality(q.tokens) > 1 AND \(frequency("e", "q.tokens")) = 0)
            ORDER BY rank, e.title COLLATE "C", e.id LIMIT \(limit)
            """
    }

    /// Rebuilds the search index from every document's exportable result (`larder search --reindex`); returns
    /// the number of recipes indexed. One transaction over every document: its deadline is an hour (or
    /// `LARDER_PG_RETRY_SECONDS` when longer), not a call's usual bound.
    public func reindexRecipes() throws -> Int {
        try write(seconds: 3600) { connection, logger in try await PostgresRecipeIndex.rebuild(connection, logger) }
    }

    package func indexedPantry() throws -> [CookPlanner.PantryEntry] {
        try read { connection, logger in
            try await connection.rows(
                """
                SELECT ingredient, product, quantity, unit, purchase_date, receipt, line FROM pantry_entry
                ORDER BY document_id, position
                """, logger
            ).map { row in
                let (ingredient, product, quantity, unit, date, receipt, line) = try row.decode(
                    (String, String, Double?, String?, String?, String, Int).self)
                return CookPlanner.PantryEntry(
                    ingredient: ingredient, product: product, quantity: quantity, unit: unit, purchaseDate: date,
                    receipt: receipt, line: line)
            }
        }
    }

    /// As the SQLite store's: an ingredient counts unless optional or a staple; it is covered when its base or
    /// parent is fresh (or a fresh item's form), or an alternative is fresh.
    package func cookCounts(fresh: [String], forms: [String], staples: [String]) throws -> [CookPlanner.CookCount] {
        let known = fresh + forms
        return try read { connection, logger in
            try await connection.rows(
                """
                SELECT e.id, e.document_id, e.position, e.title, c.have, c.needed
                FROM (SELECT i.recipe_id,
                             COUNT(*) FILTER (WHERE i.base IS NOT NULL AND (i.base = ANY(\(known)::text[])
                                 OR i.parent = ANY(\(known)::text[]) OR i.alternatives ?| \(fresh)::text[])) AS have,
                             COUNT(*) AS needed
                      FROM recipe_entry_ingredient i
                      WHERE NOT i.optional AND (i.base IS NULL OR NOT i.base = ANY(\(staples)::text[]))
                      GROUP BY i.recipe_id) c
                JOIN recipe_entry e ON e.id = c.recipe_id
                WHERE c.have > 0
                """, logger
            ).map { row in
                let (id, document, position, title, have, needed) = try row.decode(
                    (Int64, Int64, Int, String, Int, Int).self)
                return CookPlanner.CookCount(
                    id: id, documentID: document, recipe: position, title: title, have: have, needed: needed)
            }
        }
    }

    package func indexedRecipes(ids: [Int64]) throws -> [CookPlanner.RecipeEntry] {
        guard !ids.isEmpty else { return [] }
        return try read { connection, logger in
            var recipes: [CookPlanner.RecipeEntry] = []
            var last: Int64?
            for row in try await connection.rows(
                """
                SELECT e.id, e.document_id, d.path, e.position, e.title, i.text, i.base, i.parent,
                       ARRAY(SELECT jsonb_array_elements_text(i.alternatives)), i.quantity, i.unit, i.optional
                FROM recipe_entry e JOIN document d ON d.id = e.document_id
                JOIN recipe_entry_ingredient i ON i.recipe_id = e.id
                WHERE e.id = ANY(\(ids)::bigint[])
                ORDER BY e.id, i.position
                """, logger)
            {
                let (id, document, path, position, title, text, base, parent, alternatives, quantity, unit, optional) =
                    try row.decode(
                        (Int64, Int64, String, Int, String, String, String?, String?, [String], Double?, String?, Bool)
                            .self)
                if id != last {
                    recipes.append(
                        CookPlanner.RecipeEntry(
                            documentID: document, path: path, recipe: position, title: title, ingredients: []))
                    last = id
                }
                recipes[recipes.count - 1].ingredients.append(
                    CookPlanner.IngredientEntry(
                        text: text, base: base, parent: parent, alternatives: alternatives, quantity: quantity,
                        unit: unit, optional: optional))
            }
            return recipes
        }
    }
}
