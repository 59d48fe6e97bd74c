import Foundation
import LarderCore
import Logging
import PostgresNIO

/// The recipe and pantry index of a PostgreSQL store (`larder search`, `larder cook`): the SQLite store's
/// ``RecipeIndex`` in PostgreSQL tables (schema version 3), kept in the same transaction as the result or review
/// decision it is made from, so it is exactly as current and as fenced as the results.
///
/// Full-text search gives the same answers as SQLite's FTS5 table, not merely similar ones: each recipe's title,
/// ingredients, steps, tags and cuisine are split by the very tokenizer `recipe_search` uses (``SearchTokenizer``:
/// FTS5 `porter unicode61`, run in process), and stored as token arrays (`text[]`, a GIN index on the distinct
/// terms). A query's words are tokenized the same way, each word a phrase (its tokens consecutive, as FTS5's
/// `"word"`); a recipe matches when it holds every phrase (FTS5's implicit AND), and ranks by FTS5's own bm25 (k1 1.2, b 0.75, the same column weights, the same IDF
/// floor), computed in SQL over the same counts FTS5 keeps. (PostgreSQL's `tsvector` stems with Snowball, not
/// Porter, and ranks with `ts_rank`, not bm25: it would find and order other recipes; `pg_trgm` matches
/// substrings.) Ties break on the title in byte order (`COLLATE "C"`, SQLite's BINARY), then on index order.
enum PostgresRecipeIndex {
    static let statements: [String] = [
        """
        CREATE TABLE recipe_entry (
            id bigserial PRIMARY KEY, document_id bigint NOT NULL REFERENCES document (id) ON DELETE CASCADE,
            result_version bigint NOT NULL, position integer NOT NULL, title text NOT NULL,
            minutes double precision, meal_type text, cuisine text, servings double precision,
            allergens text NOT NULL, diets text NOT NULL,
            title_tokens text[] NOT NULL, ingredient_tokens text[] NOT NULL, step_tokens text[] NOT NULL,
            tag_tokens text[] NOT NULL, cuisine_tokens text[] NOT NULL, token_count integer NOT NULL,
            terms text[] NOT NULL)
        """,
        "CREATE INDEX recipe_entry_document ON recipe_entry (document_id)",
        // How often a phrase (FTS5: consecutive tokens) occurs in a column's tokens. A query word FTS5 splits into
        // several tokens is such a phrase (a Hindi word: its vowel signs separate tokens).
        """
        CREATE OR REPLACE FUNCTION phrase_count(tokens text[], phrase text[]) RETURNS integer
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT CASE WHEN cardinality(phrase) = 1 THEN cardinality(array_positions(tokens, phrase[1]))
                   ELSE (SELECT COUNT(*)::integer FROM unnest(array_positions(tokens, phrase[1])) AS i
                         WHERE tokens[i:i + cardinality(phrase) - 1] = phrase) END
        $$
        """,
        "CREATE INDEX recipe_entry_terms ON recipe_entry USING gin (terms)",
        """
        CREATE TABLE recipe_entry_ingredient (
            recipe_id bigint NOT NULL REFERENCES recipe_entry (id) ON DELETE CASCADE, position integer NOT NULL,
            text text NOT NULL, base text, parent text, alternatives jsonb NOT NULL, quantity double precision,
            unit text, optional boolean NOT NULL, PRIMARY KEY (recipe_id, position))
        """,
        """
        CREATE TABLE recipe_entry_base (
            recipe_id bigint NOT NULL REFERENCES recipe_entry (id) ON DELETE CASCADE, base text NOT NULL,
            PRIMARY KEY (base, recipe_id))
        """,
        """
        CREATE TABLE pantry_entry (
            document_id bigint NOT NULL REFERENCES document (id) ON DELETE CASCADE, position integer NOT NULL,
            ingredient text NOT NULL, product text NOT NULL, quantity double precision, unit text,
            purchase_date text, receipt text NOT NULL, line integer NOT NULL, needs_review boolean NOT NULL,
            PRIMARY KEY (document_id, position))
        """,
    ]

    static let tables: Set<String> = ["recipe_entry", "recipe_entry_ingredient", "recipe_entry_base", "pantry_entry"]

    /// One recipe's rows, ready to write: worked out (and tokenized) before the transaction when the caller can.
    struct Recipe: Sendable {
        var rows: RecipeIndex.RecipeRows
        /// Tokens of title, ingredients, steps, tags, cuisine (the `recipe_search` columns, in order).
        var columns: [[String]]
        var ingredientsJSON: String
    }

    /// A result's index rows, ready to write.
    struct Prepared: Sendable {
        var recipes: [Recipe]
        var pantryJSON: String
    }

    /// The machine version a transaction has just stored (see ``RecipeIndex/Stored``).
    struct Stored: Sendable {
        var number: Int
        var json: String
        var isValid: Bool
        var prepared: Prepared?
    }

    private struct IngredientRow: Encodable {
        var position: Int
        var text: String
        var base: String?
        var parent: String?
        var alternatives: [String]
        var quantity: Double?
        var unit: String?
        var optional: Bool
    }

    private struct PantryRow: Encodable {
        var position: Int
        var ingredient: String
        var product: String
        /// As written (a decimal), read as float8 as SQLite reads it into its REAL column.
        var quantity: String?
        var unit: String?
        var purchaseDate: String?
        var receipt: String
        var line: Int
        var needsReview: Bool
    }

    /// PostgreSQL text holds no NUL character (SQLite's does): the index drops it (the result keeps it, escaped).
    static func clean(_ text: String) -> String { text.contains("\0") ? text.replacingOccurrences(of: "\0", with: "") : text }
    static func clean(_ text: String?) -> String? { text.map { clean($0) } }
    /// JSON has no NaN or infinity.
    private static func finite(_ value: Double?) -> Double? { value.flatMap { $0.isFinite ? $0 : nil } }

    static func prepare(_ rows: RecipeIndex.Rows) throws -> Prepared {
        let encoder = JSONEncoder()
        let recipes = try rows.recipes.map { recipe -> Recipe in
            let texts = [recipe.title, recipe.search.ingredients, recipe.search.steps, recipe.search.tags, recipe.search.cuisine]
            let ingredients = try recipe.ingredients.enumerated().map { position, ingredient in
                IngredientRow(
                    position: position, text: clean(ingredient.text), base: clean(ingredient.base),
                    parent: clean(ingredient.parent),
                    alternatives: ingredient.alternatives == "[]"
                        ? [] : try JSONDecoder().decode([String].self, from: Data(ingredient.alternatives.utf8)).map { clean($0) },
                    quantity: finite(ingredient.quantity), unit: clean(ingredient.unit), optional: ingredient.optional)
            }
            return Recipe(
                rows: recipe, columns: try texts.map { try SearchTokenizer.tokens($0) },
                ingredientsJSON: String(decoding: try encoder.encode(ingredients), as: UTF8.self))
        }
        let pantry = rows.pantry.enumerated().map { position, item in
            PantryRow(
                position: position, ingredient: clean(item.ingredient), product: clean(item.product),
                quantity: item.quantity.map { NSDecimalNumber(decimal: $0).description(withLocale: Locale(identifier: "en_US_POSIX")) },
                unit: clean(item.unit), purchaseDate: clean(item.purchaseDate),
                receipt: clean(item.source.receipt), line: item.source.line, needsReview: item.needsReview)
        }
        return Prepared(recipes: recipes, pantryJSON: String(decoding: try encoder.encode(pantry), as: UTF8.self))
    }

    /// A stored result's rows; nil when it does not decode (a hand-written result: exported, not searchable).
    static func prepare(json: String) throws -> Prepared? {
        guard let result = try? JSONDecoder().decode(DocumentResult.self, from: Data(json.utf8)) else { return nil }
        return try prepare(RecipeIndex.Rows(result))
    }

    /// Rewrites one document's rows from its exportable result (none when it has none), as ``RecipeIndex/update``.
    static func update(
        _ connection: PostgresConnection, _ logger: Logger, documentID: Int64, stored: Stored? = nil
    ) async throws {
        // The document's row lock (a worker's fenced commit holds it already) orders two rewrites of one document:
        // a review decision, a reindex and a commit at once would otherwise each keep their rows (READ COMMITTED).
        try await connection.run("SELECT id FROM document WHERE id = \(documentID) FOR UPDATE", logger)
        try await connection.run("DELETE FROM recipe_entry WHERE document_id = \(documentID)", logger)
        try await connection.run("DELETE FROM pantry_entry WHERE document_id = \(documentID)", logger)
        guard let (version, json) = try await exportable(connection, logger, documentID: documentID, latest: stored)
        else { return }
        let ready = stored?.number == version ? stored?.prepared : nil
        guard let prepared = try ready ?? prepare(json: json) else { return }
        for (position, recipe) in prepared.recipes.enumerated() {
            try await insert(connection, logger, recipe: recipe, documentID: documentID, version: version, position: position)
        }
        if prepared.pantryJSON != "[]" {
            try await connection.run(
                """
                INSERT INTO pantry_entry (document_id, position, ingredient, product, quantity, unit, purchase_date,
                                          receipt, line, needs_review)
                SELECT \(documentID), position, ingredient, product, quantity::float8, unit, "purchaseDate", receipt, line,
                       "needsReview"
                FROM jsonb_to_recordset(\(prepared.pantryJSON)::jsonb) AS p(
                    position integer, ingredient text, product text, quantity text, unit text, "purchaseDate" text,
                    receipt text, line integer, "needsReview" boolean)
                """, logger)
        }
    }

    private static func insert(
        _ connection: PostgresConnection, _ logger: Logger, recipe: Recipe, documentID: Int64, version: Int,
        position: Int
    ) async throws {
        let rows = recipe.rows, columns = recipe.columns
        let terms = Array(Set(columns.joined())).sorted()
        let count = columns.reduce(0) { $0 + $1.count }
        let id = try await connection.rows(
            """
            INSERT INTO recipe_entry (document_id, result_version, position, title, minutes, meal_type, cuisine,
                servings, allergens, diets, title_tokens, ingredient_tokens, step_tokens, tag_tokens, cuisine_tokens,
                token_count, terms)
            VALUES (\(documentID), \(version), \(position), \(clean(rows.title)), \(rows.minutes),
                \(clean(rows.mealType)), \(clean(rows.cuisine)), \(rows.servings), \(rows.allergens), \(rows.diets),
                \(columns[0])::text[], \(columns[1])::text[], \(columns[2])::text[], \(columns[3])::text[],
                \(columns[4])::text[], \(count), \(terms)::text[])
            RETURNING id
            """, logger)[0].decode(Int64.self)
        if !rows.ingredients.isEmpty {
            try await connection.run(
                """
                INSERT INTO recipe_entry_ingredient (recipe_id, position, text, base, parent, alternatives, quantity,
                                                     unit, optional)
                SELECT \(id), position, text, base, parent, alternatives, quantity, unit, optional
                FROM jsonb_to_recordset(\(recipe.ingredientsJSON)::jsonb) AS i(
                    position integer, text text, base text, parent text, alternatives jsonb, quantity float8,
                    unit text, optional boolean)
                """, logger)
        }
        if !rows.bases.isEmpty {
            try await connection.run(
                """
                INSERT INTO recipe_entry_base (recipe_id, base)
                SELECT DISTINCT \(id), b FROM unnest(\(rows.bases.map { clean($0) })::text[]) AS b
                """, logger)
        }
    }

    /// The version `larder export` would write (``RecipeIndex/exportable``'s rule), as (number, json).
    static func exportable(
        _ connection: PostgresConnection, _ logger: Logger, documentID: Int64, latest stored: Stored?
    ) async throws -> (Int, String)? {
        let latest: (number: Int, json: String, isValid: Bool)
        if let stored {
            latest = (stored.number, stored.json, stored.isValid)
        } else {
            guard let row = try await connection.rows(
                """
                SELECT number, json, violations FROM result_version
                WHERE document_id = \(documentID) AND origin = 'machine' ORDER BY number DESC LIMIT 1
                """, logger
            ).first else { return nil }
            let (number, json, violations) = try row.decode((Int, String, String).self)
            latest = (number, json, violations == "[]")
        }
        let review = try await connection.rows(
            "SELECT accepted_version, decision, decided_version FROM review WHERE document_id = \(documentID)", logger
        ).first?.decode((Int?, String?, Int?).self)
        if rejects(decision: review?.1, decided: review?.2, latest: latest.number) { return nil }
        var accepted: (Int, String)?
        if let number = review?.0,
            let json = try await connection.rows(
                "SELECT json FROM result_version WHERE document_id = \(documentID) AND number = \(number)", logger
            ).first?.decode(String.self)
        {
            accepted = (number, json)
        }
        return choose(latest: latest, accepted: accepted)
    }

    /// ``Exporter``'s rule, for both readers of it here (the index and `/result`'s one-statement read): a review that
    /// rejected the latest machine version lets nothing out.
    static func rejects(decision: String?, decided: Int?, latest: Int) -> Bool {
        decision == "rejected" && decided == latest
    }

    /// ``Exporter``'s rule past a rejection: the accepted version when there is one, else the latest when valid.
    static func choose(latest: (number: Int, json: String, isValid: Bool), accepted: (Int, String)?) -> (Int, String)? {
        accepted ?? (latest.isValid ? (latest.number, latest.json) : nil)
    }

    /// Rewrites every document's rows; returns the number of recipes indexed.
    @discardableResult
    static func rebuild(_ connection: PostgresConnection, _ logger: Logger) async throws -> Int {
        try await connection.run("DELETE FROM recipe_entry", logger)
        try await connection.run("DELETE FROM pantry_entry", logger)
        let ids = try await connection.rows(
            "SELECT DISTINCT document_id FROM result_version ORDER BY document_id", logger
        ).map { try $0.decode(Int64.self) }
        for id in ids { try await update(connection, logger, documentID: id) }
        return try await connection.rows("SELECT COUNT(*) FROM recipe_entry", logger)[0].decode(Int.self)
    }
}
