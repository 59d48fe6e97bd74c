import Foundation

/// What a batch did, printed at the end of every `larder ingest`/`resume`/`retry` (text or `--json`) and kept in
/// the `batch` table.
public struct BatchSummary: Codable, Sendable, Equatable {
    public var batchID: Int64
    /// Files found and hashed by this command (0 for `resume`).
    public var files: Int
    public var newDocuments: Int
    /// Files whose bytes an earlier run registered.
    public var alreadyKnown: Int
    public var duplicates: [Intake.Report.Duplicate]
    /// Paths that never became documents.
    public var inputErrors: [LarderError.Record]
    /// Paths left out on purpose (Larder's own database files, symlinks leading outside the folders given); nil
    /// in summaries stored before they were listed.
    public var skipped: [Intake.Report.Skipped]?
    /// States of the batch's documents after the run.
    public var done: Int
    public var failed: Int
    public var quarantined: Int
    public var pending: Int
    /// Failed and quarantined documents of the batch, with reasons.
    public var failures: [Problem]
    /// Documents processed by this run, and how long it took.
    public var processed: Int
    /// Of `processed`, those that failed or were quarantined: what the progress line counted as failed (it counts
    /// every document this run's worker settled, of this batch or one left pending before). nil in old summaries.
    public var processedFailed: Int?
    public var elapsedSeconds: Double
    public var documentsPerSecond: Double
    /// Worker crashes survived.
    public var crashes: Int
    /// Workers that died at `limits.worker_memory` (not crashes: the document each ran alone failed, naming the
    /// limit; any others ran again). nil in summaries stored before they were counted apart.
    public var memoryDeaths: Int?
    public var interrupted: Bool
    /// The LLM stage's tokens and cost in this run; nil when it did not run (mode off).
    public var llm: LLMBatchReport?

    /// Builds the summary from the store after the workers stopped.
    public static func collect(
        store: any CheckpointStore, batchID: Int64, intake: Intake.Report?, processed: Int, processedFailed: Int = 0,
        elapsed: Double, crashes: Int, interrupted: Bool, memoryDeaths: Int = 0
    ) throws -> BatchSummary {
        let states = try store.documentCounts(batchID: batchID)
        let inputErrors = try intake?.errors ?? store.inputErrors(batchID: batchID).map(\.error)
        return BatchSummary(
            batchID: batchID, files: intake?.files ?? 0, newDocuments: intake?.new ?? 0,
            alreadyKnown: intake?.known ?? 0, duplicates: intake?.duplicates ?? [], inputErrors: inputErrors,
            skipped: intake?.skipped,
            done: states[.done] ?? 0, failed: states[.failed] ?? 0, quarantined: states[.quarantined] ?? 0,
            pending: states[.pending] ?? 0, failures: try store.problems(batchID: batchID, limit: 10_000),
            processed: processed, processedFailed: processedFailed, elapsedSeconds: elapsed,
            documentsPerSecond: elapsed > 0 ? Double(processed) / elapsed : 0, crashes: crashes,
            memoryDeaths: memoryDeaths, interrupted: interrupted, llm: try LLMBatchReport.collect(store: store, batchID: batchID))
    }

    /// True when every input became a document and every document is done.
    public var isClean: Bool { inputErrors.isEmpty && failed == 0 && quarantined == 0 && pending == 0 }

    /// The summary as a person reads it.
    public var text: String {
        var lines: [String] = []
        var intake = "batch \(batchID): \(files) files: \(newDocuments) new, \(alreadyKnown) already known"
        if !duplicates.isEmpty { intake += ", \(duplicates.count) duplicate\(duplicates.count == 1 ? "" : "s")" }
        if !inputErrors.isEmpty { intake += ", \(inputErrors.count) unreadable" }
        lines.append(intake)
        lines.append(
            "documents: \(done) done, \(failed) failed, \(quarantined) quarantined, \(pending) pending"
                + (interrupted ? " (interrupted: run `larder resume` to finish)" : ""))
        var survived = crashes > 0 ? ", survived \(crashes) worker crash(es)" : ""
        if let memoryDeaths, memoryDeaths > 0 {
            survived += ", \(memoryDeaths) worker(s) stopped at limits.worker_memory"
        }
        lines.append(
            String(
                format: "processed %d documents%@ in %.2f s (%.1f docs/s)%@", processed,
                (processedFailed ?? 0) > 0 ? " (\(processedFailed ?? 0) failed)" as NSString : "" as NSString, elapsedSeconds,
                documentsPerSecond, survived as NSString))
        if let llm { lines.append(llm.text) }
        for duplicate in duplicates.prefix(20) {
            lines.append(
                "  duplicate: \(LarderError.displayPath(duplicate.path)) has the same bytes as \(LarderError.displayPath(duplicate.sameAs))")
        }
        if duplicates.count > 20 { lines.append("  … and \(duplicates.count - 20) more duplicates") }
        let links = (skipped ?? []).filter { $0.reason == .symlinkOutside }
        for link in links.prefix(20) {
            lines.append(
                "  skipped: \(LarderError.displayPath(link.path)) is a symlink to \(LarderError.displayPath(link.target ?? "?")), outside the folders given (--follow-symlinks follows it)")
        }
        if links.count > 20 { lines.append("  … and \(links.count - 20) more symlinks leading outside") }
        let own = (skipped ?? []).filter { $0.reason == .larderFile }.count
        if own > 0 { lines.append("  skipped \(own) of Larder's own files (the checkpoint database, the LLM cache, their -wal/-shm/-journal files, and the server's uploads folder)") }
        for error in inputErrors {
            lines.append("  not ingested: \(LarderError(record: error))")
        }
        for failure in failures {
            let error = failure.error.map { LarderError(record: $0) }
            let reason = error.map { e in
                LarderError.displayPath(e.message + (e.hint.map { " — \($0)" } ?? ""))
            } ?? "no reason recorded"
            lines.append("  \(failure.state.rawValue): \(LarderError.displayPath(failure.path)) (doc \(failure.documentID), \(failure.stage)\(error?.page.map { ", page \($0)" } ?? "")): \(reason)")
        }
        return lines.joined(separator: "\n")
    }
}
