import Foundation
import LarderCore
import LarderTestSupport
import Testing

@testable import LarderPostgres

/// `larder search` and `larder cook` give the same answers on both stores: the project's samples (recipes and
/// receipts, ingested by the real `larder`) plus recipes in French, German, Russian, Hindi and Chinese, searched with
/// ordinary, non-English and hostile queries (quotes, FTS5 and SQL operators, empty), every filter, and `cook`
/// against the receipts; the same after review decisions, after `--reindex`, and after migrating a version-2
/// PostgreSQL schema (no recipe index) in place.
@Suite(.postgres, .integration, .serialized) struct RecipeIndexConformanceTests {
    static let recipes: [String: String] = [
        "creme-brulee.txt": """
            Crème Brûlée à l'ancienne

            Serves 4
            Prep: 15 mins / Cook: 40 mins

            Ingredients
            500 ml crème fraîche
            5 egg yolks
            100 g sugar
            1 vanilla pod

            Method
            1. Heat the crème fraîche with the vanilla until it steams.
            2. Whisk the yolks with the sugar, pour over the hot crème and bake in a bain-marie for 40 minutes.
            3. Chill, sprinkle with sugar and caramelise the top: the brûlée crust.
            """,
        "borscht.txt": """
            Борщ (Ukrainian beetroot soup)

            Serves 6
            Prep: 20 mins / Cook: 60 mins

            Ingredients
            3 beetroots, grated
            1 onion, chopped
            2 carrots, grated
            300 g cabbage, shredded
            1.5 litres beef stock
            2 tbsp tomato paste
            sour cream, to serve

            Method
            1. Cook the onion and carrots until soft, then add the beetroots and tomato paste.
            2. Add the stock and the cabbage and simmer for 40 minutes. Борщ is better the next day.
            3. Serve with sour cream and dill.
            """,
        "kasespatzle.txt": """
            Käsespätzle mit Röstzwiebeln

            Serves 4
            Prep: 20 mins / Cook: 25 mins

            Ingredients
            400 g flour
            4 eggs
            200 g Emmentaler cheese, grated
            2 onions, sliced into rings
            30 g butter

            Method
            1. Beat the flour and eggs into a smooth dough and press it through a Spätzle press into boiling water.
            2. Layer the Spätzle with the cheese; fry the onions in the butter until brown and scatter on top.
            """,
        "dal-makhani.txt": """
            दाल मखनी Dal Makhani

            Serves 4
            Prep: 15 mins / Cook: 60 mins

            Ingredients
            250 g whole black lentils
            50 g butter
            1 onion, chopped
            2 tomatoes, pureed
            100 ml cream

            Method
            1. Simmer the lentils until soft. नमस्ते to the slow cook: दाल मखनी wants an hour.
            2. Fry the onion in the butter, add the tomatoes, the lentils and the cream.
            """,
        "mapo-tofu.txt": """
            麻婆豆腐 Mapo Tofu

            Serves 2
            Prep: 10 mins / Cook: 15 mins

            Ingredients
            400 g silken tofu, cubed
            150 g minced pork
            2 tbsp doubanjiang
            2 spring onions, sliced

            Method
            1. Fry the pork until crisp, add the doubanjiang and cook until the oil turns red.
            2. Add the tofu and a little water and simmer for 5 minutes. 麻婆豆腐 should be numbing and hot. ते नमस
            """,
    ]

    /// `larder search` arguments: words (stemmed, non-English, hostile) and filters.
    static let searches: [[String]] = [
        [], ["soup"], ["tomatoes"], ["blending"], ["the"], ["lentil", "soup"], ["zzzunknown"],
        ["crème"], ["CREME"], ["brulee"], ["Brûlée"], ["fraîche"], ["Борщ"], ["борщ"], ["麻婆豆腐"], ["豆腐"],
        ["käsespätzle"], ["नमस्ते"], ["दाल", "मखनी"], ["मखनी"], ["\u{93E}"], ["\u{93E}", "soup"], ["kasespatzle"], ["Spätzle"],
        ["\""], ["\"soup"], ["soup\" OR \"cake"], ["NEAR(soup", "cake)"], ["--", "-soup"], ["*"], ["soup*"], ["^soup"],
        ["title:soup"], ["soup", "AND", "NOT", "cake"], ["'; DROP TABLE recipe_entry; --"], ["%"], ["_"],
        ["\u{0}soup"], ["   "], ["e\u{301}"],
        ["--ingredient", "cumin"], ["--ingredient", "cumin", "--ingredient", "lentils"], ["--ingredient", "cheddar"],
        ["--diet", "vegan"], ["--diet", "vegetarian", "soup"], ["--without", "dairy", "--limit", "50"],
        ["--without", "eggs", "--without", "tree nuts"], ["--max-minutes", "30"], ["--meal-type", "BREAKFAST"],
        ["--cuisine", "indian"], ["--cuisine", "INDIAN", "lentil"], ["--limit", "2", "the"], ["--limit", "3"],
        ["--diet", "paleo"],
    ]

    static let cooks: [[String]] = [
        ["--as-of", "2026-11-05"], ["--as-of", "2026-11-05", "--missing-at-most", "2"],
        ["--as-of", "2027-06-01", "--limit", "3"], ["--as-of", "2026-11-05", "--limit", "50"],
    ]

    /// Runs every search and cook on both stores; each must print the same JSON (or fail the same way).
    func expectSameAnswers(sqlite: String, url: String, in folder: String, _ context: String) throws {
        for arguments in Self.searches {
            try expectSame(["search", "--json"] + arguments, sqlite: sqlite, url: url, in: folder, context)
        }
        for arguments in Self.cooks {
            try expectSame(["cook", "--json"] + arguments, sqlite: sqlite, url: url, in: folder, context)
        }
    }

    func expectSame(_ arguments: [String], sqlite: String, url: String, in folder: String, _ context: String) throws {
        let a = try PostgresCommandTests.larder(arguments + ["--db", sqlite], in: folder)
        let b = try PostgresCommandTests.larder(arguments + ["--db", url], in: folder)
        #expect(a.status == b.status, "\(context) \(arguments): \(a.output) vs \(b.output)")
        guard a.status == 0, b.status == 0 else {
            #expect(arguments.contains("paleo"), "\(context) \(arguments) failed: \(a.output) \(b.output)")
            return
        }
        if arguments.first == "search" && arguments.contains("--json") {
            // bm25 is summed in another order in SQL: the ranks agree to rounding, everything else exactly.
            let x = try JSONDecoder().decode([RecipeSearchHit].self, from: Data(a.output.utf8))
            let y = try JSONDecoder().decode([RecipeSearchHit].self, from: Data(b.output.utf8))
            func rankless(_ hits: [RecipeSearchHit]) -> [RecipeSearchHit] {
                hits.map { var hit = $0; hit.rank = 0; return hit }
            }
            #expect(rankless(x) == rankless(y), "\(context) \(arguments)")
            #expect(x.count == y.count && zip(x, y).allSatisfy { abs($0.rank - $1.rank) <= 1e-9 * max(1, abs($0.rank)) },
                    "\(context) \(arguments): ranks \(x.map(\.rank)) vs \(y.map(\.rank))")
        } else {
            #expect(a.output == b.output, "\(context) \(arguments)")
        }
    }

    @Test func searchAndCookAnswerAsOnSQLite() throws {
        guard let cluster = PostgresCluster.shared else {
            throw ConformanceError(PostgresCluster.unavailableReason ?? "no cluster")
        }
        let folder = NSTemporaryDirectory() + "larder-pg-search-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for sub in ["samples/recipes", "samples/receipts"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: Repository.path(sub)) {
                try FileManager.default.copyItem(atPath: Repository.path(sub + "/" + name), toPath: folder + "/in/" + name)
            }
        }
        for (name, text) in Self.recipes { try text.write(toFile: folder + "/in/" + name, atomically: true, encoding: .utf8) }
        let schema = cluster.freshSchema()
        let url = cluster.url(schema: schema), sqlite = folder + "/single.sqlite"
        let single = try PostgresCommandTests.larder(["ingest", "--db", sqlite, "in"], in: folder)
        #expect(single.status == 0, "\(single.output)")
        let shared = try PostgresCommandTests.larder(["ingest", "--db", url, "in"], in: folder)
        #expect(shared.status == 0, "\(shared.output)")
        // Not vacuous: the queries find things, non-English ones included.
        let found = try PostgresCommandTests.larder(["search", "--db", url, "борщ"], in: folder)
        #expect(found.output.contains("Борщ (Ukrainian beetroot soup)"), "\(found.output)")
        let creme = try PostgresCommandTests.larder(["search", "--db", url, "CREME"], in: folder)
        #expect(creme.output.contains("Crème Brûlée"), "\(creme.output)")
        // A Hindi word is a phrase of several FTS5 tokens: found where they are consecutive, not where they are not.
        let hindi = try PostgresCommandTests.larder(["search", "--db", url, "नमस्ते"], in: folder)
        #expect(hindi.output.contains("Dal Makhani") && !hindi.output.contains("Mapo"), "\(hindi.output)")
        let cook = try PostgresCommandTests.larder(["cook", "--db", url, "--as-of", "2026-11-05"], in: folder)
        #expect(cook.output.contains("1. Red Lentil Soup"), "\(cook.output)")
        try expectSameAnswers(sqlite: sqlite, url: url, in: folder, "ingested")

        // Review decisions move the index in the same transaction, on both stores alike.
        let stores: [any ServiceStore] = [
            try SQLiteCheckpointStore(path: sqlite), try PostgresCheckpointStore(location: PostgresLocation(url: url)),
        ]
        for store in stores {
            func first(_ text: String) throws -> RecipeSearchHit? {
                var query = RecipeSearchQuery()
                query.text = text
                return try store.searchRecipes(query).first
            }
            let lentil = try #require(try first("lentil"))
            try store.decide(documentID: lentil.documentID, decision: .rejected, acceptedVersion: nil, reason: "test")
            #expect(try first("lentil")?.title != "Red Lentil Soup", "\(type(of: store))")
            let borscht = try #require(try first("борщ")).documentID
            var result = try #require(try Exporter(store: store).exportableResult(borscht))
            result.recipes[0].title = "Борщ по-київськи"
            _ = try store.addHumanVersion(
                documentID: borscht, json: String(decoding: try JSONEncoder().encode(result), as: UTF8.self),
                note: "renamed")
            #expect(try first("київськи")?.documentID == borscht, "\(type(of: store))")
        }
        try expectSameAnswers(sqlite: sqlite, url: url, in: folder, "reviewed")
        let reindexed = try PostgresCommandTests.larder(["search", "--reindex", "--db", url], in: folder)
        #expect(reindexed.status == 0 && reindexed.output.hasPrefix("indexed 16 recipe(s)"), "\(reindexed.output)")
        try expectSame(["search", "--reindex"], sqlite: sqlite, url: url, in: folder, "reindexed")
        try expectSame(["search", "--json", "--limit", "50"], sqlite: sqlite, url: url, in: folder, "reindexed")
        try expectSame(["search", "--json", "київськи"], sqlite: sqlite, url: url, in: folder, "reindexed")

        // A version-2 schema (made before the recipe index) is migrated in place on first use, index built.
        try cluster.psql(
            """
            DROP TABLE \(schema).recipe_entry_base, \(schema).recipe_entry_ingredient, \(schema).recipe_entry,
                \(schema).pantry_entry;
            DROP FUNCTION \(schema).phrase_count;
            UPDATE \(schema).larder_meta SET value = '2' WHERE key = 'schema_version'
            """)
        try expectSameAnswers(sqlite: sqlite, url: url, in: folder, "migrated")
        let version = try cluster.psql("SELECT value FROM \(schema).larder_meta WHERE key = 'schema_version'")
        #expect(version.trimmingCharacters(in: .whitespacesAndNewlines) == "\(PostgresSchema.version)")
    }
}
