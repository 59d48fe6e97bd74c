import ArgumentParser
import Foundation
import LarderCore
import LarderIngredients
import LarderRecipes

struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Measure accuracy (and speed) on labelled data; docs/accuracy.md quotes these figures.",
        subcommands: [
            EvalIngredients.self, EvalRecipes.self, EvalPages.self, EvalPDFs.self, EvalReceipts.self, EvalFormats.self,
        ])
}

struct EvalIngredients: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingredients",
        abstract: "Per-field accuracy of the ingredient-line parser on labelled CSV (the format of shared/data/ingredients).",
        discussion: """
            Columns: input,name,quantity,unit,size,preparation,comment,purpose. Quantities in the `#1$2` token form \
            or as decimals are compared numerically; text fields after the labels' own normalisation. `core` = \
            quantity, unit and name right; `sentence` = every field right.
            """)

    @Option(parsing: .upToNextOption, help: "Labelled CSV files.")
    var labels: [String]

    @Flag(help: "Print one JSON object: count, quantity, unit, name, preparation, comment, core, sentence (fractions 0–1).")
    var json = false

    @Flag(help: "List the sentences the parser gets wrong, with expected and parsed fields.")
    var errors = false

    @Option(help: "Also time N passes of the parser over the sentences on one core and print lines per second.")
    var bench: Int?

    @Option(help: """
        K-fold cross-validation over the --labels sentences (deterministic split): each fold is scored by a model \
        trained on the other folds plus --more, without any sentence whose text equals one in the scored fold. \
        Prints each fold and mean ± sd; the JSON keys hold the means, `sd` the deviations.
        """)
    var folds: Int?

    @Option(help: "With --folds: train and score only this fold (1-based), a quicker check before all folds.")
    var fold: Int?

    @Option(parsing: .upToNextOption, help: """
        Extra training-only CSV files for --folds (default: the *.csv files in a `more` folder beside the first \
        labels file, when there is one).
        """)
    var more: [String] = []

    @Option(help: "With --folds: passes over the training sentences (default: the shipped weights' setting).")
    var epochs: Int = IngredientTraining.Settings().epochs

    @Option(help: "With --folds: seed of the training order (default: the shipped weights' seed).")
    var seed: UInt64 = IngredientTraining.Settings().seed

    @Option(help: "With --folds: training runs in different orders averaged into one model (default: the shipped weights' setting).")
    var ensemble: Int = IngredientTraining.Settings().ensemble

    @Option(help: "Write the parse of every sentence to this CSV (columns of the labels; quantities as decimals). With --folds, each sentence is parsed by the model that did not train on it.")
    var predictions: String?

    func run() throws {
        try reportingErrors {
            for file in labels + more where !FileManager.default.isReadableFile(atPath: file) {
                throw LarderError(.unreadable, "cannot read the labels file", hint: "check the path", path: file)
            }
            if let folds {
                try crossValidate(folds: folds)
                return
            }
            let report = try IngredientEvaluation.evaluate(files: labels, collectMistakes: errors)
            if json {
                print(IngredientEvaluation.json(report.overall))
            } else {
                print(IngredientEvaluation.textReport(report))
            }
            if errors { print(IngredientEvaluation.errorReport(report)) }
            if let predictions {
                var examples: [IngredientEvaluation.Example] = []
                for file in labels { examples += try IngredientEvaluation.loadExamples(path: file) }
                let parser = IngredientParser()
                try write(IngredientEvaluation.predictionsCSV(examples.map { IngredientEvaluation.predict($0, parser: parser) }), to: predictions)
            }
            if let bench {
                var sentences: [String] = []
                for file in labels { sentences += try IngredientEvaluation.loadExamples(path: file).map(\.input) }
                let rate = IngredientEvaluation.benchmarkRates(sentences, repetitions: bench)
                printError(String(format: "speed: %.0f ingredient lines per CPU second on one core, %.0f lines/s wall-clock (best of %d passes over %d lines)", rate.cpu, rate.wall, bench, sentences.count))
            }
        }
    }

    func crossValidate(folds: Int) throws {
        guard folds >= 2 else {
            throw LarderError(.configuration, "--folds must be at least 2", hint: "use --folds 5")
        }
        var extraFiles = more
        if extraFiles.isEmpty, let first = labels.first {
            let folder = URL(fileURLWithPath: first).deletingLastPathComponent().appendingPathComponent("more")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            extraFiles = names.filter { $0.hasSuffix(".csv") }.sorted().map { folder.appendingPathComponent($0).path }
        }
        var dev: [IngredientEvaluation.Example] = [], extra: [IngredientEvaluation.Example] = []
        for file in labels { dev += try IngredientEvaluation.loadExamples(path: file) }
        for file in extraFiles { extra += try IngredientEvaluation.loadExamples(path: file) }
        printError("cross-validating over \(dev.count) sentences in \(folds) folds; extra training sentences: \(extra.count) from \(extraFiles.count) file(s)")
        if let fold, !(1...folds).contains(fold) {
            throw LarderError(.configuration, "--fold must be between 1 and --folds", hint: "use --fold 1")
        }
        let ceiling = IngredientTraining.alignmentCeiling(dev)
        printError(String(format: "the labels' own token alignment through the scorer (the ceiling for tagging): core %.4f, name %.4f, unit %.4f, sentence %.4f", ceiling.core, ceiling.name, ceiling.unit, ceiling.sentence))
        let settings = IngredientTraining.Settings(epochs: epochs, seed: seed, ensemble: ensemble)
        let cv = IngredientTraining.crossValidate(dev: dev, extra: extra, folds: folds, only: fold, settings: settings,
                                                  collectMistakes: errors, log: printError)
        print(json ? IngredientEvaluation.json(cv) : IngredientEvaluation.textReport(cv))
        if errors {
            print(IngredientEvaluation.errorReport(mistakes: cv.mistakes))
        }
        if let predictions { try write(IngredientEvaluation.predictionsCSV(cv.predictions), to: predictions) }
    }

    func write(_ text: String, to path: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw LarderError(.unreadable, "cannot write the predictions: \(error.localizedDescription)",
                              hint: "check that the folder exists and is writable", path: path)
        }
    }
}

struct EvalRecipes: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recipes",
        abstract: "Title, ingredient-line and step segmentation accuracy of the recipe parser, and recipes per second.",
        discussion: """
            Corpora: shared/data/recipes-markdown (title from front matter, ingredient lines = bullets, steps = \
            numbered items) and shared/data/recipes-scraped/expected_json (each expected recipe rendered as the \
            plain text a user would paste, saved as a .txt file). Every file is read through the standard stages \
            in memory (the result `larder export` writes, with the --config settings), in larder-worker. Line scores are F1 over the lines and the fraction of \
            recipes with exactly the right lines; `recipes` is the fraction where exactly one recipe came out.
            """)

    @Option(help: "The shared data folder (default: $LARDER_SHARED_DATA, else shared/data found from the current folder up).")
    var data: String?

    @Flag(help: "Print one JSON object: overall and per corpus.")
    var json = false

    @Flag(help: "Include the non-English scraped recipes.")
    var allLanguages = false

    @Option(help: "The pipeline configuration to ingest the files with, as `larder ingest --config` does (eval/markdown.yml); default: the defaults.")
    var config: String?

    func run() throws {
        try reportingErrors {
            let cwd = FileManager.default.currentDirectoryPath
            guard let folder = data ?? RecipeEvaluation.locateSharedData(startingAt: cwd) else {
                throw LarderError(
                    .configuration, "the shared data folder was not found",
                    hint: "pass --data DIR (the folder holding recipes-markdown and recipes-scraped) or set LARDER_SHARED_DATA")
            }
            // Read in larder-worker, through the standard stages, as `larder ingest` reads the files.
            var arguments = ["larder-worker", "eval-recipes", "--data", absolute(folder)]
            if json { arguments.append("--json") }
            if allLanguages { arguments.append("--all-languages") }
            if let config { arguments += ["--config", absolute(config)] }
            try execWorker(arguments)
        }
    }
}

struct EvalPDFs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pdfs",
        abstract: "Title, ingredient-line and step accuracy on real recipe PDFs (shared/data/recipes-pdf).",
        discussion: """
            Each PDF is ingested through the standard stages in memory (the result `larder export` writes, with \
            the --config settings) and compared with its \
            <name>.truth.json: the title after folding case, spaces and punctuation; ingredient lines and steps \
            matched one-to-one after NFKC, lower-casing and keeping letters, digits and fraction characters \
            (similarity ratio ≥ 0.85); micro-averaged F1; in a book every recipe counts. quantity/unit/name are \
            checked on matched lines whose truth fields come from the source's markup. Runs in larder-worker, \
            which links poppler.
            """)

    @Option(help: "The shared data folder or the recipes-pdf folder itself (default: $LARDER_SHARED_DATA, else shared/data found from the current folder up).")
    var data: String?

    @Flag(help: "Print one JSON object: documents, recipes, title, ingredients_f1, steps_f1, quantity, unit, name, per_source, per_language.")
    var json = false

    @Flag(help: "List each document's mistakes: wrong titles, missed and extra lines.")
    var errors = false

    @Option(help: "The pipeline configuration to ingest the PDFs with, as `larder ingest --config` does (eval/pdfs.yml); default: the defaults.")
    var config: String?

    @Flag(help: "Leave one source out: each source repository's figures held out beside the other sources', marked dev (looked at while the rules were written: a development-set figure) or unseen; then the mean and worst over held-out sources.")
    var leaveOneSourceOut = false

    func run() throws {
        try reportingErrors {
            let cwd = FileManager.default.currentDirectoryPath
            guard var folder = data ?? RecipeEvaluation.locateSharedData(startingAt: cwd) else {
                throw LarderError(
                    .configuration, "the shared data folder was not found",
                    hint: "pass --data DIR (the folder holding recipes-pdf) or set LARDER_SHARED_DATA")
            }
            if FileManager.default.fileExists(atPath: folder + "/recipes-pdf") { folder += "/recipes-pdf" }
            folder = URL(fileURLWithPath: folder).standardizedFileURL.path
            var arguments = ["larder-worker", "eval-pdfs", folder]
            if json { arguments.append("--json") }
            if errors { arguments.append("--errors") }
            if leaveOneSourceOut { arguments.append("--leave-one-source-out") }
            if let config { arguments += ["--config", absolute(config)] }
            try execWorker(arguments)
        }
    }
}

struct EvalReceipts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receipts",
        abstract: "Receipt accuracy: OCR and parsing over labelled images, or the parser alone on CORD annotations.",
        discussion: """
            DIR holds receipt images, each with a label <id>.json {"store", "date": "YYYY-MM-DD", "total", "items": \
            [{"name", "price"}]} beside it or in --labels DIR; or DIR is the SROIE layout (img/, key/). --cord DIR \
            scores the line-item parser alone on CORD annotations (lines built from the labelled word boxes, no \
            OCR). Prints count, store, date, total (fractions right), item_precision, item_recall and item_f1, and \
            item_count (labels with "item_count"). Fair scoring (default): an item matches when its price is equal \
            to the cent and its name, letters and digits only in lower case, contains or is contained in the \
            label's or is at least 0.6 similar; stores by containment or similarity 0.8; precision only over \
            receipts whose index.csv says complete_items = 1. --strict: names equal after case and spaces. Runs \
            in larder-worker, which links tesseract.
            """)

    @Argument(help: "A folder of receipt images with labels, or the SROIE folder.")
    var folder: String?

    @Option(help: "Where the labels are, when not beside the images.")
    var labels: String?

    @Option(help: "Score the parser alone on CORD annotations (shared/data/receipts-cord/json).")
    var cord: String?

    @Flag(help: "Print one JSON object.")
    var json = false

    @Flag(help: "Include per-receipt results.")
    var details = false

    @Flag(help: "Strict scoring: item names equal after normalising case and spaces (the rule before the fair one).")
    var strict = false

    @Option(help: "The pipeline configuration to read the images with, as `larder ingest --config` does (eval/sroie.yml, eval/photos.yml…: OCR models, photo pass, default currency, date order); default: the defaults.")
    var config: String?

    @Option(help: "Keep each image's OCR output in this folder and reuse it, to measure parser changes quickly (the ocr.cache key).")
    var ocrCache: String?

    func run() throws {
        try reportingErrors {
            var arguments = ["larder-worker", "eval-receipts"]
            if let ocrCache { arguments += ["--ocr-cache", ocrCache] }
            if let folder { arguments.append(folder) }
            if let labels { arguments += ["--labels", labels] }
            if let cord { arguments += ["--cord", cord] }
            if json { arguments.append("--json") }
            if details { arguments.append("--details") }
            if strict { arguments.append("--strict") }
            if let config { arguments += ["--config", absolute(config)] }
            // The worker links tesseract, whose OpenMP threads must be limited before it starts.
            setenv("OMP_THREAD_LIMIT", "1", 1)
            try execWorker(arguments)
        }
    }
}

struct EvalPages: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pages",
        abstract: "Saved recipe web pages: title, ingredient lines, steps, yields, total time, pages per second.",
        discussion: """
            Ingests recipes-scraped/html/<host>/<name>.testhtml through the standard stages in memory (the result \
            `larder export` writes, with the --config settings) and compares its first recipe with \
            expected_json/<host>/<name>.json: title right (case and punctuation aside), ingredient-line and step F1 \
            (lines lower-cased, letters and digits kept), exact (both F1s 1), yields (first number) and total time \
            (stated, else prep + cook) right, and pages per second on one core (pages per CPU second of the \
            evaluating thread through every stage). --predictions scores another reader's output with the same code (scripts/bench/compare-pages.sh). \
            Runs in larder-worker, which links libxml2.
            """)

    @Option(help: "The shared data folder, or the recipes-scraped folder itself (default: $LARDER_SHARED_DATA, else shared/data found from the current folder up).")
    var data: String?

    @Flag(help: "Print one JSON object: pages, title, ingredients_f1, steps_f1, exact, yields, total_time, pages_per_second.")
    var json = false

    @Flag(help: "List the pages with a wrong field, with what was expected and what was read.")
    var errors = false

    @Option(help: "Also score another reader's predictions (JSON: {\"host/name\": {title, ingredients, instructions_list, yields, total_time}}).")
    var predictions: String?

    @Option(help: "The name of --predictions in the report.")
    var predictionsLabel = "other"

    @Option(help: "The pipeline configuration to ingest the pages with, as `larder ingest --config` does (eval/pages.yml); default: the defaults.")
    var config: String?

    func run() throws {
        try reportingErrors {
            let cwd = FileManager.default.currentDirectoryPath
            guard let folder = data ?? RecipeEvaluation.locateSharedData(startingAt: cwd) else {
                throw LarderError(
                    .configuration, "the shared data folder was not found",
                    hint: "pass --data DIR (the folder holding recipes-scraped) or set LARDER_SHARED_DATA")
            }
            let scraped = FileManager.default.fileExists(atPath: folder + "/html") ? folder : folder + "/recipes-scraped"
            guard FileManager.default.fileExists(atPath: scraped + "/html") else {
                throw LarderError(.configuration, "no html/ folder of saved pages here", hint: "pass --data DIR", path: scraped)
            }
            var arguments = ["larder-worker", "eval-pages", "--data", scraped, "--predictions-label", predictionsLabel]
            if json { arguments.append("--json") }
            if errors { arguments.append("--errors") }
            if let predictions { arguments += ["--predictions", predictions] }
            if let config { arguments += ["--config", absolute(config)] }
            try execWorker(arguments)
        }
    }
}

/// `path` from the current folder.
func absolute(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
}

/// Replaces this process with `larder-worker` run with `arguments` (`arguments[0]` is its name): the evaluations that
/// need poppler, tesseract or libxml2 run there, since `larder` links none of them. Returns only by throwing.
func execWorker(_ arguments: [String]) throws -> Never {
    let worker = try WorkerProcess.workerExecutable()
    let argv = arguments.map { strdup($0) } + [nil]
    execv(worker, argv)
    throw LarderError(
        .configuration, "cannot start larder-worker: \(String(cString: strerror(errno)))", path: worker)
}
