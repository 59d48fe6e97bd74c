import Foundation
@testable import LarderCore
import Testing

/// The write-ahead log stays short while commits keep arriving (see `WALCheckpointer`).
@Suite("checkpoint store: the log starts over")
struct StoreLogRestartTests {
    /// Commits as fast as one thread can, with the background checkpointer at a 256 KB restart size: the log must
    /// have started over on the way. Without the checkpoint under the write lock, `PASSIVE` checkpoints on another
    /// connection never copy every frame while commits arrive, so the log never starts over and grows with every
    /// commit (179 MB over the 500-PDF benchmark).
    @Test func theLogStartsOverWhileCommitsArrive() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let path = folder + "/db.sqlite"
        let store = try SQLiteCheckpointStore(path: path)
        let batch = try store.beginBatch(command: "ingest", inputs: [])
        _ = try store.register(
            [RegisteredFile(path: "/a", sha256: String(repeating: "a", count: 64), byteCount: 1, modifiedAt: 0)],
            batchID: batch, stages: ["x"])
        let stop = try store.checkpointInBackground(interval: 0.005, restartBytes: 256 << 10)
        let output = String(repeating: "o", count: 16_000)
        let commits = 600
        for index in 0..<commits {
            _ = try store.markRunning(documentID: 1, stage: "x", version: "x@1", at: Double(index))
            try store.complete(
                documentID: 1, stage: "x", version: "x@1", output: output + String(index), decodedResult: nil,
                violations: [], isResult: false, startedAt: Double(index), finishedAt: Double(index), laterStages: [],
                then: .nothing)
        }
        stop()
        // The frames in the log now: those written since it last started over. Each iteration wrote at least six
        // (the 16 KB output's four overflow pages, its row's page, the mark's page), 3,600 in all (7,560 measured
        // without the catch-up checkpoint): a log holding fewer has started over on the way. (Half of that, the bound
        // before, also asked when it last started over; with the tests running in parallel on two cores the
        // checkpointer thread was once starved long enough to leave 1,827.)
        let count = try TestSupport.shell(
            "/usr/bin/python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(\"PRAGMA wal_checkpoint(PASSIVE)\").fetchone()[1])' \(path)")
        let frames = try #require(Int(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(count.stderr)")
        #expect(frames < 6 * commits, "the log holds \(frames) frames: it did not start over")
        #expect(try store.stages(of: 1).first?.output == output + String(commits - 1))
    }
}

/// `larder ingest` starts its worker before registering the files (`WorkerProcess.EarlyStart`), and
/// `LARDER_TRACE` records where the time went.
@Suite("pipeline: the early worker and the trace", .serialized, .integration)
struct PipelineEarlyWorkerTests {
    static func corpus(_ count: Int, in folder: String) throws -> String {
        let corpus = folder + "/corpus"
        let made = try TestSupport.shell(
            "/usr/bin/python3 \(TestSupport.repoPath("scripts/data/make-corpus.py")) \(count) \(corpus) --seed 11")
        #expect(made.status == 0, "\(made.stderr)")
        return corpus
    }

    /// A worker that exits before `larder` opens its gate (here: not a worker at all) is a worker that failed, said
    /// in Larder's words; `larder` does not die of SIGPIPE writing to the closed gate.
    @Test func aWorkerThatExitsBeforeTheGateIsReported() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let corpus = try Self.corpus(2, in: folder)
        let run = try TestSupport.larder(
            ["ingest", "--db", folder + "/db.sqlite", corpus], environment: ["LARDER_WORKER": "/bin/false"])
        #expect(!run.terminatedBySignal, "larder died of a signal: \(run.stderr)")
        #expect(run.status == 1)
        #expect(run.stderr.contains("the worker process exited with status 1"), "\(run.stderr)")
    }

    /// A traced batch of 8 PDFs on 2 threads, then a re-run with nothing to do: every stage of every document is
    /// in the trace, the worker warmed up before the gate, and the re-run's early worker is stopped unused.
    @Test func theTraceCoversEveryStageAndTheRerunStopsTheEarlyWorker() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let corpus = try Self.corpus(8, in: folder)
        let database = folder + "/db.sqlite"
        let trace = folder + "/trace.tsv"
        let run = try TestSupport.larder(
            ["ingest", "--workers", "2", "--db", database, corpus], environment: ["LARDER_TRACE": trace])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        #expect(lines.allSatisfy { $0.count == 9 })
        let marks = Set(lines.filter { $0[2] == "mark" }.map { $0[3] })
        #expect(marks.isSuperset(of: ["spawn", "main", "pipeline", "gate", "queue", "exit"]), "\(marks)")
        #expect(lines.contains { $0[2] == "warm-up" })
        let stages = try Pipeline.standard(for: PipelineConfig()).stageNames
        let ran = Set(lines.filter { $0[2] == "stage" }.map { "\($0[4]) \($0[3])" })
        #expect(ran == Set((1...8).flatMap { document in stages.map { "\(document) \($0)" } }))
        #expect(lines.filter { $0[2] == "thread" }.count == 2)
        #expect(lines.filter { $0[2] == "commit" && $0[3] == "complete" }.count == 8 * stages.count)
        let summary = try TestSupport.shell(
            "/usr/bin/python3 \(TestSupport.repoPath("scripts/dev/trace-summary.py")) \(trace)")
        #expect(summary.status == 0, "\(summary.stderr)")
        #expect(summary.stdout.contains("work threads' utilisation"), "\(summary.stdout)")

        let rerun = try TestSupport.larder(["ingest", "--workers", "2", "--db", database, corpus])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(!WorkerChild.isDatabaseLocked(database), "the re-run's early worker still holds the database")
    }

    /// A re-run of a finished batch starts no worker at all: every document is done and no file is new. A file
    /// added to the folder afterwards starts one at the first new document, and only that file is processed.
    @Test func aFinishedBatchStartsNoWorkerAndANewFileStartsOne() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let corpus = try Self.corpus(3, in: folder)
        let database = folder + "/db.sqlite"
        let first = try TestSupport.larder(["ingest", "--db", database, corpus])
        #expect(first.status == 0, "\(first.stderr)")

        // A stand-in worker that leaves a mark and fails: started, it would fail the re-run too.
        let marker = folder + "/worker-started"
        let worker = folder + "/worker.sh"
        try "#!/bin/sh\ntouch '\(marker)'\nexit 1\n".write(toFile: worker, atomically: true, encoding: .utf8)
        #expect(chmod(worker, 0o755) == 0)
        let rerun = try TestSupport.larder(
            ["ingest", "--db", database, corpus], environment: ["LARDER_WORKER": worker])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker), "the re-run started a worker")

        let added = try TestSupport.shell(
            "/usr/bin/python3 \(TestSupport.repoPath("scripts/data/make-corpus.py")) 1 \(corpus)/added --seed 12")
        #expect(added.status == 0, "\(added.stderr)")
        let third = try TestSupport.larder(["ingest", "--db", database, corpus])
        #expect(third.status == 0, "\(third.stderr)")
        #expect(third.stdout.contains("processed 1 documents"), "\(third.stdout)")
    }
}
