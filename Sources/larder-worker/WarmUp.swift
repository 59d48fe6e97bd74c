import Foundation
import LarderCore
import LarderStages

/// Runs the pipeline's stages once, in memory, over a small text recipe: the first document of a batch then finds
/// the food lexicon, the ingredient tagger's model and the parser's tables loaded. Only an early-started worker
/// does this (see `WorkerProcess.EarlyStart`), on the core `larder` leaves free while it walks and hashes the
/// files; otherwise the first documents load them, as before.
///
/// Nothing is stored and every error is ignored (the documents' own runs report theirs). The `llm` stage is skipped:
/// it may call a model.
enum WarmUp {
    static let text = """
        Warm-up Pancakes
        Serves 4

        Ingredients
        200 g plain flour
        2 large eggs, beaten
        300 ml milk
        1 tbsp butter, melted

        Method
        1. Whisk the flour, eggs and milk until smooth.
        2. Fry ladlefuls in the butter for 2 minutes on each side at 180°C.
        """

    static func run(config: PipelineConfig) {
        let started = WorkTrace.Stamp.now()
        defer { WorkTrace.shared?.record("warm-up", "stages", since: started) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("larder-warm-up-\(getpid())")
        let file = folder.appendingPathComponent("warm-up.txt").path
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        } catch {
            return
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        // The one in-memory runner (what every evaluation uses), without the `llm` stage.
        _ = try? DocumentRunner(config: config, skipping: [.llm]).run(path: file)
    }
}
