// swift-tools-version:6.1
// Larder: bulk-ingests recipe documents and receipt photos into validated structured JSON.
import PackageDescription

let package = Package(
    name: "Larder",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "LarderCore", targets: ["LarderCore"]),
        .library(name: "LarderJSON", targets: ["LarderJSON"]),
        .library(name: "LarderIngredients", targets: ["LarderIngredients"]),
        .library(name: "LarderRecipes", targets: ["LarderRecipes"]),
        .library(name: "LarderReceipts", targets: ["LarderReceipts"]),
        .library(name: "LarderLLM", targets: ["LarderLLM"]),
        .executable(name: "larder", targets: ["larder"]),
        .executable(name: "larder-worker", targets: ["larder-worker"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The HTTP server of `larder serve`, without its default traits (swift-configuration is not needed).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // Already in the graph through hummingbird; named for the two types the server's middleware uses.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Also through hummingbird; named for the HTTP parts the server's slow-client handler sees.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // The PostgreSQL store (LarderPostgres): only `larder`, `larder-worker` and its tests link it.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // SHA-256 (LarderCore's `SHA256`: BoringSSL's rounds, on the CPU's SHA extensions where it has them). Already in
        // the graph through postgres-nio, whose SCRAM authentication uses it: no new fetch, no new compile.
        .package(url: "https://github.com/apple/swift-crypto.git", "3.9.0"..<"5.0.0"),
    ],
    targets: [
        // MARK: C libraries, one system-library target each, with a minimal shim header.
        .systemLibrary(name: "CPoppler", pkgConfig: "poppler-glib", providers: [.apt(["libpoppler-glib-dev"])]),
        .systemLibrary(
            name: "CTesseract", pkgConfig: "tesseract",
            providers: [.apt(["libtesseract-dev", "libleptonica-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CZip", pkgConfig: "libzip", providers: [.apt(["libzip-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        // MARK: What several targets share and that needs nothing else: `Locked` (a value behind a lock) and the
        // thread CPU clock. No dependencies.
        .target(name: "LarderSupport"),

        // MARK: JSON values, JSON Pointer, JSON Patch (RFC 6902) and a JSON Schema 2020-12 validator. No dependencies.
        .target(name: "LarderJSON"),

        // MARK: Ingredient lines ("1 1/2 cups flour, sifted") → quantity, unit, name, preparation… Depends only on
        // LarderSupport.
        // The tagger's weights are trained from strangetom/ingredient-parser's labelled data (MIT): see
        // Sources/LarderIngredients/Resources/MODEL-CARD.md.
        .target(
            name: "LarderIngredients",
            dependencies: ["LarderSupport"],
            exclude: ["Resources/MODEL-CARD.md"],
            resources: [.copy("Resources/ingredient-tagger.bin")]),

        // MARK: Recipe structure from a document's lines: recipes, sections, ingredients, steps, times, yields.
        .target(name: "LarderRecipes", dependencies: ["LarderIngredients", "LarderJSON"]),

        // MARK: Saved web pages: libxml2's HTML parser behind an owning wrapper, then schema.org Recipe (JSON-LD,
        // microdata) and the visible page as a `WebPage` that LarderRecipes maps. No I/O.
        .target(name: "LarderPages", dependencies: ["CLibXML2", "LarderRecipes", "LarderSupport"]),

        // MARK: Recipe-app exports (Paprika, Nextcloud, Mealie, Tandoor, Chowdown, CSV, MealMaster, MasterCook,
        // Cooklang) → recipe drafts, and Larder recipes → schema.org / Cooklang / Paprika. Pure Swift: archives are
        // read by LarderArchives and handed over as members in memory.
        .target(
            name: "LarderFormats",
            dependencies: ["LarderRecipes", .product(name: "Yams", package: "Yams")]),

        // MARK: ZIP (libzip) and gzip (zlib) read into memory with size, count and ratio limits; never to disk.
        .target(name: "LarderArchives", dependencies: ["CZip", "CZlib"]),

        // MARK: Receipt text → store, date, items, totals; product → base ingredient; allergens; pantry items.
        // The lexicon is derived from USDA FoodData Central (public domain) and Open Food Facts (ODbL): see
        // Sources/LarderReceipts/Resources/LEXICON-LICENSE.md.
        .target(
            name: "LarderReceipts",
            dependencies: ["LarderJSON"],
            exclude: ["Resources/LEXICON-LICENSE.md", "Resources/RECEIPT-MODEL-CARD.md"],
            resources: [.copy("Resources/lexicon.tsv"), .copy("Resources/receipt-lines.bin")]),

        // MARK: Receipt OCR through tesseract + leptonica.
        // Its executables export the libpng setter that LineImageCodec.swift defines, so that leptonica binds to it.
        .target(
            name: "LarderOCR", dependencies: ["LarderReceipts", "CTesseract"],
            linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic-symbol=png_set_compression_level"])]),

        // MARK: Library: model, configuration, the stage contract and the stages' outputs the command reads (Contracts/),
        // the stage list, checkpoint store, work queue, schemas, review.
        // Links no system C library (swift-crypto compiles its BoringSSL in), so the `larder` command starts fast.
        .target(
            name: "LarderCore",
            dependencies: [
                "LarderSupport", "LarderJSON", "LarderRecipes", "LarderReceipts", "LarderFormats",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),

        // MARK: The PostgreSQL checkpoint store behind `CheckpointStore`/`ServiceStore` (`--db postgres://…`): many
        // workers on many hosts share one queue. Over postgres-nio; only the commands and the worker link it.
        .target(
            name: "LarderPostgres",
            dependencies: [
                "LarderCore", "LarderSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),

        // MARK: What the `llm` stage (in LarderStages) calls: providers over libcurl, schema-constrained output, validation with re-ask,
        // grounding, cache, budgets, fallbacks. Prompts and their schemas live in Prompts/ and Schemas/ and are
        // embedded by scripts/embed-files.py.
        .target(
            name: "LarderLLM",
            dependencies: [
                "CCurl", "LarderCore", "LarderJSON", "LarderRecipes", "LarderReceipts",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Prompts", "Schemas"]),

        // MARK: Every stage of the pipeline, one file each, and `Pipeline.standard(for:)` built from the one stage
        // list (`StandardStages` in LarderCore). The stages that call C do it through owning wrappers: poppler
        // (PDF/), tesseract (LarderOCR), libcurl (LarderLLM). Only the worker, the evaluation and the tests link it.
        .target(
            name: "LarderStages",
            dependencies: [
                "LarderCore", "LarderOCR", "LarderLLM", "LarderPages", "LarderArchives", "LarderFormats", "LarderRecipes",
                "LarderIngredients",
                "LarderReceipts", "LarderJSON", "CPoppler", "CTesseract", "CCurl",
            ]),

        // MARK: The evaluations `larder eval receipts|pages|pdfs` runs in the worker (they run OCR, poppler and libxml2):
        // corpora, scoring, reports. Kept out of the library products; linked by the worker and the tests.
        .target(
            name: "LarderEvaluation",
            dependencies: [
                "LarderCore", "LarderStages", "LarderOCR", "LarderReceipts", "LarderPages", "LarderRecipes", "LarderFormats",
            ]),

        // MARK: `larder serve`: the HTTP API, the review page and its assets, over hummingbird 2. Uses the store, queue
        // and review of LarderCore through `DocumentService`; links no C library beyond what NIO compiles in.
        .target(
            name: "LarderServer",
            dependencies: [
                "LarderCore", "LarderJSON", "LarderReceipts", "LarderSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
            ]),

        // MARK: Command-line tool: parses arguments, calls the libraries, maps errors to exit codes.
        .executableTarget(
            name: "larder",
            dependencies: [
                "LarderCore", "LarderJSON", "LarderIngredients", "LarderRecipes", "LarderFormats", "LarderArchives",
                "LarderPages", "LarderServer", "LarderPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),

        // MARK: The worker process `larder` starts: runs the pipeline, with the native libraries loaded.
        .executableTarget(
            name: "larder-worker",
            dependencies: [
                "LarderCore", "LarderStages", "LarderOCR", "LarderReceipts", "LarderLLM", "LarderPages", "LarderEvaluation",
                "LarderPostgres", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),

        // MARK: Tests. LarderTestSupport, which every test target depends on: where the repository and ../shared/data
        // are, the test tiers' marks (`make unit` skips .integration, .sharedData(…) and .slow), the LLM fault server.
        .target(name: "LarderTestSupport", path: "Tests/LarderTestSupport", exclude: ["fault_server.py"]),
        .testTarget(
            name: "LarderCoreTests",
            dependencies: [
                "LarderTestSupport", "LarderCore", "LarderStages", "LarderOCR", "LarderLLM", "LarderJSON", "LarderRecipes", "LarderArchives", "LarderEvaluation", "larder", "larder-worker",
            ]),
        .testTarget(
            name: "LarderServerTests",
            dependencies: [
                "LarderTestSupport", "LarderServer", "LarderCore", "LarderJSON", "larder", "larder-worker",
                .product(name: "Yams", package: "Yams"),
            ],
            exclude: ["review_browser.py"]),
        .testTarget(
            name: "LarderPostgresTests",
            dependencies: ["LarderTestSupport", "LarderPostgres", "LarderCore", "larder", "larder-worker"]),
        .testTarget(name: "LarderJSONTests", dependencies: ["LarderTestSupport", "LarderJSON"]),
        .testTarget(name: "LarderIngredientsTests", dependencies: ["LarderTestSupport", "LarderIngredients"]),
        .testTarget(name: "LarderRecipesTests", dependencies: ["LarderTestSupport", "LarderRecipes"]),
        .testTarget(
            name: "LarderPagesTests",
            dependencies: [
                "LarderTestSupport", "LarderPages", "LarderRecipes", "LarderEvaluation", "LarderStages", "LarderCore",
            ]),
        .testTarget(
            name: "LarderFormatsTests",
            dependencies: [
                "LarderTestSupport", "LarderFormats", "LarderArchives", "LarderPages", "LarderRecipes", "LarderJSON",
                .product(name: "Yams", package: "Yams"),
            ]),
        .testTarget(
            name: "LarderReceiptsTests",
            dependencies: ["LarderTestSupport", "LarderReceipts", "LarderOCR", "LarderEvaluation", "LarderCore"]),
        .testTarget(
            name: "LarderLLMTests",
            dependencies: ["LarderTestSupport", "LarderLLM", "LarderJSON", "LarderCore", "LarderStages", .product(name: "Logging", package: "swift-log")]),
    ]
)
