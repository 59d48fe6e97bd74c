import Foundation
import LarderTestSupport
import Testing

@testable import LarderCore

/// Issue 36, finding 3: a 15 MB text recipe (inside `limits.max_text_bytes`) took a worker to 4.9 GB, a 15 MB HTML
/// page to 3.4 GB. The recipe parser now stops once a document holds more ingredients, steps and notes than it
/// allows (one per 2 KiB of `limits.max_stage_output_bytes`), so such a file fails at once, over the limit, within the
/// default 1 GiB worker limit; and a worker that does pass `limits.worker_memory` fails the document it ran alone,
/// naming the limit, instead of retrying it like a crash.
@Suite("hostile: worker memory", .serialized, .integration, .slow)
struct HostileMemoryTests {
    static let units = ["cup", "tbsp", "tsp", "g", "ml", "oz"]
    static let foods = ["flour", "sugar", "butter", "milk", "eggs", "salt", "onion", "carrot", "stock", "rice"]

    /// A seeded 15 MB text recipe: 7.5 MB of ingredient lines, then numbered steps.
    static func bigRecipe(to path: String) throws {
        var generator = SeededGenerator(seed: 36)
        var text = "Big Probe Stew\n\nServes 4\n\nIngredients\n"
        while text.utf8.count < 7_500_000 {
            text += "\(Int.random(in: 1...500, using: &generator)) \(units.randomElement(using: &generator)!) "
                + "\(foods.randomElement(using: &generator)!), chopped\n"
        }
        text += "\nMethod\n"
        var step = 1
        while text.utf8.count < 15_000_000 {
            text += "\(step). Stir the \(foods.randomElement(using: &generator)!) into the pan and cook for "
                + "\(Int.random(in: 1...60, using: &generator)) minutes until golden.\n"
            step += 1
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// A seeded 15 MB recipe page: a list of 7.5 MB of ingredients, then an ordered list of steps.
    static func bigPage(to path: String) throws {
        var generator = SeededGenerator(seed: 3636)
        var html = """
            <!doctype html><html><head><title>Big Probe Soup</title></head><body><h1>Big Probe Soup</h1>
            <p>Serves 4</p><h2>Ingredients</h2><ul>

            """
        while html.utf8.count < 7_500_000 {
            html += "<li>\(Int.random(in: 1...500, using: &generator)) \(units.randomElement(using: &generator)!) "
                + "\(foods.randomElement(using: &generator)!), chopped</li>\n"
        }
        html += "</ul><h2>Method</h2><ol>\n"
        while html.utf8.count < 15_000_000 {
            html += "<li>Stir the \(foods.randomElement(using: &generator)!) into the pan and cook for "
                + "\(Int.random(in: 1...60, using: &generator)) minutes until golden.</li>\n"
        }
        html += "</ol></body></html>\n"
        try Data(html.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// What `larder ingest` did and cost: its exit status, output, and the peak resident memory (KB) and CPU seconds
    /// of `larder` and the workers it waited for (`RUSAGE_CHILDREN` of a Python wrapper), under `prlimit --cpu`.
    struct Measured {
        var status: Int
        var peakKB: Int
        var cpuSeconds: Double
        var output: String
    }

    static func ingestMeasured(_ folder: String, workers: Int) throws -> Measured {
        let run = try TestSupport.shell(
            """
            /usr/bin/python3 -c 'import resource, subprocess, sys
            code = subprocess.run(sys.argv[1:]).returncode
            usage = resource.getrusage(resource.RUSAGE_CHILDREN)
            print("measured", usage.ru_maxrss, usage.ru_utime + usage.ru_stime, code)' \
            prlimit --cpu=120 '\(try TestSupport.larderExecutable)' ingest --workers \(workers) \
            --config '\(folder)/pipeline.yml' --db '\(folder)/db.sqlite' '\(folder)/in' 2>&1
            """)
        let words = run.stdout.split(separator: "\n").last?.split(separator: " ") ?? []
        guard words.count == 4, words[0] == "measured", let peak = Int(words[1]), let cpu = Double(words[2]),
            let status = Int(words[3])
        else {
            Issue.record("no measurement: \(run.stdout)\n\(run.stderr)")
            return Measured(status: -1, peakKB: 0, cpuSeconds: 0, output: run.stdout)
        }
        return Measured(status: status, peakKB: peak, cpuSeconds: cpu, output: run.stdout)
    }

    /// The 15 MB text and the 15 MB page, at once (`--workers 2`), under the default limits: each fails at once
    /// as over the limit, naming its file and the limit; the small recipe beside them is done; the worker stays
    /// under its 1 GiB and each input under 30 s of CPU (it was 4.9 GB and 3.4 GB, minutes each).
    @Test func fifteenMegabyteTextAndPageFailAtOnceOverTheLimit() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        try Self.bigRecipe(to: folder + "/in/stew.txt")
        try Self.bigPage(to: folder + "/in/soup.html")
        try Data(HostileExportTests.recipe("Thin Pancakes").utf8).write(to: URL(fileURLWithPath: folder + "/in/thin.txt"))
        try "max_attempts: 1\n".write(toFile: folder + "/pipeline.yml", atomically: true, encoding: .utf8)
        let run = try Self.ingestMeasured(folder, workers: 2)
        #expect(run.status == 1, "two documents failed: exit 1\n\(run.output)")
        // Resident memory adds the libraries' code and data (~150 MB in a debug build) to what the limit counts.
        #expect(run.peakKB > 0 && run.peakKB < (1 << 30) >> 10, "peak RSS \(run.peakKB) KB")
        // 30 s of CPU per input, the issue's target, in a debug build (measured: 41 s for both, larder included).
        #expect(run.cpuSeconds < 2 * 30, "CPU \(run.cpuSeconds) s")
        let status = try TestSupport.larder(["status", "--db", folder + "/db.sqlite"])
        #expect(status.stdout.contains("1 done") && status.stdout.contains("2 failed"), "\(status.stdout)")
        #expect(status.stdout.contains("0 quarantined"), "\(status.stdout)")
        for name in ["stew.txt", "soup.html"] {
            let line = run.output.split(separator: "\n").first { $0.contains("failed: ") && $0.contains(name) }.map(String.init) ?? ""
            #expect(line.contains("limits.max_stage_output_bytes"), "\(name): \(line)")
            #expect(line.contains("more than 32768 ingredients, steps and notes"), "\(name): \(line)")
        }
    }

    /// A worker that passes `limits.worker_memory` (here the recipe-part limit is raised so that the 15 MB text
    /// reaches the memory limit): the document is failed on its first death, naming the limit and what to do, not
    /// retried or quarantined as a crash, and the summary says the worker stopped at the limit (not "worker crash"); the
    /// recipe beside it is done, not blamed (`max_attempts: 1`).
    @Test func aDocumentPastTheMemoryLimitFailsNamingTheLimit() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        try Self.bigRecipe(to: folder + "/in/stew.txt")
        try Data(HostileExportTests.recipe("Thin Pancakes").utf8).write(to: URL(fileURLWithPath: folder + "/in/thin.txt"))
        let limit = 256 << 20
        try "max_attempts: 1\nlimits:\n  worker_memory: \(limit)\n  max_stage_output_bytes: \(4 << 30)\n".write(
            toFile: folder + "/pipeline.yml", atomically: true, encoding: .utf8)
        let run = try Self.ingestMeasured(folder, workers: 2)
        #expect(run.status == 1, "one document failed: exit 1\n\(run.output)")
        #expect(run.output.contains("an allocation failed at limits.worker_memory"), "\(run.output)")
        #expect(!run.output.contains("Backtracing"), "a memory-limit death is not a crash\n\(run.output)")
        // The summary counts it as what it was, not as a worker crash.
        #expect(run.output.contains(" worker(s) stopped at limits.worker_memory"), "\(run.output)")
        #expect(!run.output.contains("worker crash"), "\(run.output)")
        #expect(run.peakKB > 0 && run.peakKB < (limit + (256 << 20)) >> 10, "peak RSS \(run.peakKB) KB")
        let status = try TestSupport.larder(["status", "--db", folder + "/db.sqlite"])
        #expect(status.stdout.contains("1 done") && status.stdout.contains("1 failed"), "\(status.stdout)")
        #expect(status.stdout.contains("0 quarantined"), "\(status.stdout)")
        let line = run.output.split(separator: "\n").first { $0.contains("failed: ") && $0.contains("stew.txt") }
        #expect(line?.contains("recipe): the worker process ran out of memory on this document alone") == true, "\(run.output)")
        #expect(line?.contains("limits.worker_memory (256 MiB)") == true && line?.contains("larder retry") == true)
    }

    /// Issue 36, the app-export readers: 15 MB exports in three formats (one MealMaster recipe of 700,000
    /// ingredient lines, one MasterCook XML recipe of `<IngR>` elements, a Paprika archive whose one entry inflates
    /// to 15 MB of ingredients; `scripts/data/make-hostile-exports.py`), at once (`--workers 2`) under the default
    /// limits: each fails at once as over the recipe-part limit, naming its file; the small recipe beside them is
    /// done; the workers stay under their 1 GiB.
    @Test func fifteenMegabyteAppExportsFailAtOnceOverTheLimit() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        let inputs = [("mealmaster", "big.mmf"), ("mx2", "big.mx2"), ("paprika", "big.paprikarecipes")]
        for (kind, name) in inputs {
            let made = try TestSupport.shell(
                "/usr/bin/python3 '\(TestSupport.repoPath("scripts/data/make-hostile-exports.py"))' \(kind) '\(folder)/in/\(name)'")
            try #require(made.status == 0, "\(made.stderr)")
        }
        try Data(HostileExportTests.recipe("Thin Pancakes").utf8).write(to: URL(fileURLWithPath: folder + "/in/thin.txt"))
        try "max_attempts: 1\n".write(toFile: folder + "/pipeline.yml", atomically: true, encoding: .utf8)
        let run = try Self.ingestMeasured(folder, workers: 2)
        #expect(run.status == 1, "three documents failed: exit 1\n\(run.output)")
        #expect(run.peakKB > 0 && run.peakKB < (1 << 30) >> 10, "peak RSS \(run.peakKB) KB")
        let status = try TestSupport.larder(["status", "--db", folder + "/db.sqlite"])
        #expect(status.stdout.contains("1 done") && status.stdout.contains("3 failed"), "\(status.stdout)")
        for (_, name) in inputs {
            let line = run.output.split(separator: "\n").first { $0.contains("failed: ") && $0.contains(name) }.map(String.init) ?? ""
            #expect(line.contains("more than 32768 ingredients, steps and notes"), "\(name): \(line)")
        }
    }
}

/// The store's side of a memory-limit death (``CheckpointStore/failAfterMemoryLimit(error:)``).
@Suite("hostile: memory-limit deaths in the store")
struct MemoryLimitStoreTests {
    func file(_ path: String, _ sha: String) -> RegisteredFile {
        RegisteredFile(path: path, sha256: String(repeating: sha, count: 32), byteCount: 1, modifiedAt: 0)
    }

    /// Two documents in flight: neither is blamed (attempts given back), both run again one at a time; then the
    /// one that dies alone fails at once with the limit's message, on its first attempt.
    @Test func othersInFlightAreNotBlamedAndTheLoneOneFails() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        let batch = try store.beginBatch(command: "ingest", inputs: [])
        _ = try store.register([file("/a", "aa"), file("/b", "bb")], batchID: batch, stages: ["x"])
        _ = try store.markRunning(documentID: 1, stage: "x", version: "x@1", at: 1)
        _ = try store.markRunning(documentID: 2, stage: "x", version: "x@1", at: 1)
        let error = WorkerProcess.memoryLimitError(1 << 30)
        #expect(try store.failAfterMemoryLimit(error: error) == nil)
        // max_attempts 1: had the attempts counted, both would be quarantined now.
        #expect(try store.recoverInterruptedStages(maxAttempts: 1) == [1, 2])
        #expect(try store.markRunning(documentID: 1, stage: "x", version: "x@1", at: 2) == 1)
        #expect(try store.failAfterMemoryLimit(error: error) == 1)
        #expect(try store.recoverInterruptedStages(maxAttempts: 1) == [])
        let problems = try store.problems(batchID: nil, limit: 10)
        #expect(problems.count == 1)
        #expect(problems.first?.state == .failed)
        #expect(problems.first?.error?.kind == .overLimit)
        #expect(problems.first?.error?.stage == "x")
        #expect(problems.first?.error?.message.contains("limits.worker_memory (1024 MiB)") == true)
        #expect(try store.documentCounts()[.pending] == 1)
    }

}
