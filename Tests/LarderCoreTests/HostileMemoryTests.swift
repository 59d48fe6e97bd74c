import Foundation
import LarderTestSupport
import Testing

@testable import LarderCore

/// Issue 36, finding 3: a 15 MB text recipe (inside `limits.max_text_bytes`) took a worker to 4.9 GB. Under
/// `limits.worker_memory` the worker dies at its limit instead, the document is quarantined with a message naming
/// the limit, the other document is done, and the workers' peak resident memory stays near the limit.
@Suite("hostile: worker memory", .serialized, .integration, .slow)
struct HostileMemoryTests {
    /// A seeded 15 MB text recipe: 7.5 MB of ingredient lines, then numbered steps.
    static func bigRecipe(to path: String) throws {
        var generator = SeededGenerator(seed: 36)
        let units = ["cup", "tbsp", "tsp", "g", "ml", "oz"]
        let foods = ["flour", "sugar", "butter", "milk", "eggs", "salt", "onion", "carrot", "stock", "rice"]
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

    @Test func aRunawayIsOneQuarantinedDocumentUnderTheLimit() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        try Self.bigRecipe(to: folder + "/in/stew.txt")
        try Data(HostileExportTests.recipe("Thin Pancakes").utf8).write(to: URL(fileURLWithPath: folder + "/in/thin.txt"))
        let limit = 256 << 20
        try "max_attempts: 1\nlimits:\n  worker_memory: \(limit)\n".write(
            toFile: folder + "/pipeline.yml", atomically: true, encoding: .utf8)
        let run = try TestSupport.shell(
            """
            /usr/bin/python3 -c 'import resource, subprocess, sys
            code = subprocess.run(sys.argv[1:]).returncode
            print("peak", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "status", code)' \
            '\(try TestSupport.larderExecutable)' ingest --config '\(folder)/pipeline.yml' --db '\(folder)/db.sqlite' '\(folder)/in'
            """)
        let words = run.stdout.split(separator: "\n").last?.split(separator: " ") ?? []
        let peakKB = words.count == 4 ? Int(words[1]) ?? 0 : 0
        #expect(words.last == "1", "one document quarantined: exit 1\n\(run.stdout)\n\(run.stderr)")
        // The limit counts the heap; resident memory adds the libraries' code and data (~150 MB in a debug build).
        #expect(peakKB > 0 && peakKB < (limit + (256 << 20)) >> 10, "peak RSS \(peakKB) KB")
        let status = try TestSupport.larder(["status", "--db", folder + "/db.sqlite"])
        #expect(status.status == 1)
        #expect(status.stdout.contains("1 done") && status.stdout.contains("1 quarantined"), "\(status.stdout)")
        #expect(status.stdout.contains("limits.worker_memory"), "\(status.stdout)")
    }
}
