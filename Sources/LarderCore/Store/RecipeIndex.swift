import Foundation
import LarderJSON
import GRDB
import LarderReceipts
import LarderRecipes

/// The search index over every ingested recipe and pantry item, kept in the checkpoint database beside the
/// results it is made from (its own migration, `v2-recipe-index`).
///
/// One row per recipe in each document's exportable result (the accepted version, else the latest valid machine
/// version — what `larder export` writes): an FTS5 table (`recipe_search`: title, ingredients, steps, tags,
/// cuisine; porter stemming, ranked by bm25), the facets the filters read (minutes, meal type, cuisine, allergens,
/// diets), each ingredient's base ingredient with its quantity (what `larder cook` matches against the pantry),
/// and every pantry item. A document's rows are rewritten in the same transaction that gives it a new result or
/// review decision, so the index is current whenever a document finishes, survives a crash with the rest of the
/// database, and is rebuilt from the results by ``rebuild(_:)`` (`larder search --reindex`).
package enum RecipeIndex {
    /// Adds the index's tables and fills them from the results already in the database.
    static func registerMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3-recipe-index") { db in
            try db.execute(
                sql: """
                    PRAGMA user_version = \(SQLiteCheckpointStore.schemaVersion);
                    CREATE TABLE recipe_entry (          -- one row per recipe of a document's exportable result
                        id INTEGER PRIMARY KEY,
                        document_id INTEGER NOT NULL REFERENCES document(id) ON DELETE CASCADE,
                        result_version INTEGER NOT NULL,
                        position INTEGER NOT NULL,       -- index in the result's recipes
                        title TEXT NOT NULL,
                        minutes REAL,                    -- total time, else prep + cook; NULL when unknown
                        meal_type TEXT,
                        cuisine TEXT,
                        servings REAL,
                        allergens TEXT NOT NULL,         -- ',dairy,eggs,': every ingredient's allergens
                        diets TEXT NOT NULL              -- ',vegan,nut-free,': the diets labelled yes
                    );
                    CREATE INDEX recipe_entry_document ON recipe_entry(document_id);
                    CREATE TABLE recipe_entry_ingredient (
                        recipe_id INTEGER NOT NULL REFERENCES recipe_entry(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL,
                        text TEXT NOT NULL,
                        base TEXT,                       -- NULL when the lexicon knew nothing in the name
                        parent TEXT,
                        alternatives TEXT NOT NULL,      -- JSON array of the alternatives' bases
                        quantity REAL,
                        unit TEXT,
                        optional INTEGER NOT NULL,
                        PRIMARY KEY (recipe_id, position)
                    );
                    CREATE TABLE recipe_entry_base (     -- every base, parent and alternative, for lookups
                        recipe_id INTEGER NOT NULL REFERENCES recipe_entry(id) ON DELETE CASCADE,
                        base TEXT NOT NULL,
                        PRIMARY KEY (base, recipe_id)
                    ) WITHOUT ROWID;
                    CREATE VIRTUAL TABLE recipe_search USING fts5(
                        title, ingredients, steps, tags, cuisine, tokenize = 'porter unicode61');
                    CREATE TABLE pantry_entry (
                        document_id INTEGER NOT NULL REFERENCES document(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL,
                        ingredient TEXT NOT NULL,
                        product TEXT NOT NULL,
                        quantity REAL,
                        unit TEXT,
                        purchase_date TEXT,
                        receipt TEXT NOT NULL,
                        line INTEGER NOT NULL,
                        needs_review INTEGER NOT NULL,
                        PRIMARY KEY (document_id, position)
                    );
                    """)
            try rebuild(db)
        }
    }

    /// Rewrites every document's rows. Returns the number of recipes indexed.
    @discardableResult
    static func rebuild(_ db: Database) throws -> Int {
        try db.execute(sql: "DELETE FROM recipe_search; DELETE FROM recipe_entry; DELETE FROM pantry_entry")
        for id in try Int64.fetchAll(db, sql: "SELECT DISTINCT document_id FROM result_version ORDER BY document_id") {
            try update(db, documentID: id)
        }
        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM recipe_entry") ?? 0
    }

    /// The machine version a transaction has just stored: the document's latest machine version.
    struct Stored {
        var number: Int
        var json: String
        /// Stored with no schema violations (`violations = '[]'`).
        var isValid: Bool
        /// The result's index rows (``Rows/init(_:)``), worked out by the caller before its transaction, when it
        /// has the result as the pipeline made it (what `json` encodes).
        var rows: Rows?
    }

    /// A result's index rows: its recipes' (``RecipeRows``) and its pantry items.
    package struct Rows: Sendable {
        package var recipes: [RecipeRows]
        package var pantry: [PantryItem]

        package init(_ result: DocumentResult) throws {
            recipes = try result.recipes.map(RecipeRows.init)
            pantry = result.pantry
        }
    }

    /// One recipe's index rows, worked out from the recipe alone (no SQL): a transaction that stores a result only
    /// writes them, so the write lock is not held while the allergens, diets and alternatives are put together.
    package struct RecipeRows: Sendable {
        package struct Ingredient: Sendable {
            package var text: String
            package var base: String?
            package var parent: String?
            package var alternatives: String  // JSON array of the alternatives' bases
            package var quantity: Double?
            package var unit: String?
            package var optional: Bool
        }
        package var title: String
        package var minutes: Double?
        package var mealType: String?
        package var cuisine: String?
        package var servings: Double?
        package var allergens: String
        package var diets: String
        package var ingredients: [Ingredient]
        package var bases: [String]
        /// The `recipe_search` columns after the title: ingredients, steps, tags, cuisine.
        package var search: (ingredients: String, steps: String, tags: String, cuisine: String)
    }

    /// Rewrites one document's rows from its exportable result (none when it has no exportable result).
    /// `stored` is the machine version the calling transaction just stored: the index then neither reads it back
    /// nor, when it is the exportable one (it is, unless a person's version was accepted), decodes its JSON.
    static func update(_ db: Database, documentID: Int64, stored: Stored? = nil) throws {
        // Cached statements: this runs in the transaction that stores every new result.
        try db.cachedStatement(
            sql: "DELETE FROM recipe_search WHERE rowid IN (SELECT id FROM recipe_entry WHERE document_id = ?)"
        ).execute(arguments: [documentID])
        try db.cachedStatement(sql: "DELETE FROM recipe_entry WHERE document_id = ?").execute(arguments: [documentID])
        try db.cachedStatement(sql: "DELETE FROM pantry_entry WHERE document_id = ?").execute(arguments: [documentID])
        // A result a person wrote by hand may not decode; it is still exported, but not searchable.
        guard let (version, json) = try exportable(db, documentID: documentID, latest: stored),
              let rows = try stored.flatMap({ $0.number == version ? $0.rows : nil })
                ?? (try? JSONDecoder().decode(DocumentResult.self, from: Data(json.utf8))).map(Rows.init)
        else { return }
        for (position, recipe) in rows.recipes.enumerated() {
            try insert(db, recipe: recipe, documentID: documentID, version: version, position: position)
        }
        for (position, item) in rows.pantry.enumerated() {
            try db.cachedStatement(sql: """
                    INSERT INTO pantry_entry (document_id, position, ingredient, product, quantity, unit, purchase_date,
                                              receipt, line, needs_review)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """).execute(arguments: [documentID, position, item.ingredient, item.product, item.quantity, item.unit,
                            item.purchaseDate, item.source.receipt, item.source.line, item.needsReview])
        }
    }

    /// The version `larder export` would write (the same rule as ``Exporter``), as (number, json). `latest`: the
    /// document's latest machine version when the caller just stored it (it is not read again).
    static func exportable(_ db: Database, documentID: Int64, latest stored: Stored? = nil) throws -> (Int, String)? {
        let latest: (number: Int, json: String, isValid: Bool)
        if let stored {
            latest = (stored.number, stored.json, stored.isValid)
        } else {
            guard let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT number, json, violations FROM result_version
                        WHERE document_id = ? AND origin = 'machine' ORDER BY number DESC LIMIT 1
                        """),
                arguments: [documentID])
            else { return nil }
            latest = (row["number"], row["json"], (row["violations"] as String) == "[]")
        }
        let number = latest.number
        let review = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT accepted_version, decision, decided_version FROM review WHERE document_id = ?"),
            arguments: [documentID])
        if let review, (review["decision"] as String?) == "rejected", (review["decided_version"] as Int?) == number {
            return nil
        }
        if let accepted = review?["accepted_version"] as Int?,
           let json = try String.fetchOne(
            db.cachedStatement(sql: "SELECT json FROM result_version WHERE document_id = ? AND number = ?"),
            arguments: [documentID, accepted]) {
            return (accepted, json)
        }
        return latest.isValid ? (number, latest.json) : nil
    }

    private static func insert(_ db: Database, recipe: RecipeRows, documentID: Int64, version: Int, position: Int) throws {
        try db.cachedStatement(sql: """
                INSERT INTO recipe_entry (document_id, result_version, position, title, minutes, meal_type, cuisine,
                                          servings, allergens, diets)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [documentID, version, position, recipe.title, recipe.minutes, recipe.mealType,
                        recipe.cuisine, recipe.servings, recipe.allergens, recipe.diets])
        let id = db.lastInsertedRowID
        for (index, ingredient) in recipe.ingredients.enumerated() {
            try db.cachedStatement(sql: """
                    INSERT INTO recipe_entry_ingredient (recipe_id, position, text, base, parent, alternatives, quantity,
                                                         unit, optional)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """).execute(arguments: [id, index, ingredient.text, ingredient.base, ingredient.parent,
                            ingredient.alternatives, ingredient.quantity, ingredient.unit, ingredient.optional])
        }
        for base in recipe.bases {
            try db.cachedStatement(sql: "INSERT INTO recipe_entry_base (recipe_id, base) VALUES (?, ?)").execute(arguments: [id, base])
        }
        try db.cachedStatement(sql: "INSERT INTO recipe_search (rowid, title, ingredients, steps, tags, cuisine) VALUES (?, ?, ?, ?, ?, ?)").execute(arguments: [id, recipe.title, recipe.search.ingredients,
                        recipe.search.steps, recipe.search.tags, recipe.search.cuisine])
    }
}

extension RecipeIndex.RecipeRows {
    private static let alternativesEncoder = SortedJSONEncoder(escapesSlashes: true)

    package init(_ recipe: Recipe) throws {
        let ingredients = recipe.allIngredients
        let allergens = Set(ingredients.flatMap { $0.allergens.map(\.allergen) }).sorted()
        let diets = (recipe.diets ?? []).filter { $0.status == "yes" }.map(\.diet)
        title = recipe.title
        minutes = recipe.totalMinutes
            ?? (recipe.prepMinutes == nil && recipe.cookMinutes == nil ? nil : (recipe.prepMinutes ?? 0) + (recipe.cookMinutes ?? 0))
        mealType = recipe.mealType
        cuisine = recipe.cuisine
        servings = recipe.yields?.servings
        self.allergens = "," + allergens.joined(separator: ",") + ","
        self.diets = "," + diets.joined(separator: ",") + ","
        var bases: Set<String> = []
        self.ingredients = try ingredients.map { ingredient in
            let base = ingredient.base
            if let base { bases.formUnion([base.ingredient] + [base.parent].compactMap { $0 } + base.alternatives) }
            return Ingredient(
                // `JSONEncoder()`'s bytes (slashes escaped), without a Foundation encoder per ingredient.
                text: ingredient.text, base: base?.ingredient, parent: base?.parent,
                alternatives: try Self.alternativesEncoder.encodeToString(base?.alternatives ?? []),
                quantity: ingredient.quantity?.value, unit: ingredient.unit, optional: ingredient.optional)
        }
        self.bases = Array(bases)
        let ingredientText = ingredients.map { [$0.text, $0.base?.ingredient ?? ""].joined(separator: " ") }
        search = (
            ingredientText.joined(separator: "\n"), recipe.steps.map(\.text).joined(separator: "\n"),
            recipe.tags.joined(separator: ", "), [recipe.cuisine, recipe.mealType].compactMap { $0 }.joined(separator: ", ")
        )
    }
}
