import Foundation
import LarderCore
import LarderTestSupport
import Testing

@testable import LarderPostgres

/// Many workers on one PostgreSQL queue, as stores with their own names in one process: claims, leases,
/// heartbeats and fencing. A "paused" worker is one whose heartbeat stopped (what SIGSTOP does to it).
@Suite(.postgres, .integration, .serialized) struct ClaimTests {
    private static let stages = ["detect", "result"]

    /// A fresh schema with `documents` registered, and `workers` stores claiming with `ttl`.
    private func fleet(documents: Int, workers: Int, ttl: Double, maxAttempts: Int = 3) throws
        -> (url: String, stores: [PostgresCheckpointStore], ids: [Int64])
    {
        guard let cluster = PostgresCluster.shared else {
            throw ConformanceError(PostgresCluster.unavailableReason ?? "no cluster")
        }
        let url = cluster.url()
        guard case .postgres(let location) = try StoreLocation.parse(url) else { throw ConformanceError("url") }
        let setup = try PostgresCheckpointStore(location: location, workerID: "setup")
        let batch = try setup.beginBatch(command: "ingest", inputs: [])
        let ids = try setup.register(
            (0..<documents).map {
                RegisteredFile(path: "/c/\($0)", sha256: String(format: "%064x", $0 + 1), byteCount: 1, modifiedAt: 0)
            }, batchID: batch, stages: Self.stages
        ).map(\.documentID)
        let stores = try (0..<workers).map { index in
            let store = try PostgresCheckpointStore(location: location, workerID: "w\(index)")
            try store.startClaiming(leaseTTL: ttl, maxAttempts: maxAttempts, pipelineVersion: "p1")
            return store
        }
        return (url, stores, ids)
    }

    /// Runs both stages of `id` on `store` and settles it done.
    private func finish(_ id: Int64, on store: PostgresCheckpointStore, output: String = "{}") throws {
        _ = try store.markRunning(documentID: id, stage: "detect", version: "d@1", at: 1)
        try store.complete(
            documentID: id, stage: "detect", version: "d@1", output: "{}", decodedResult: nil, violations: [],
            isResult: false, startedAt: 1, finishedAt: 2, laterStages: [],
            then: .markRunning(stage: "result", version: "r@1", at: 2))
        try store.complete(
            documentID: id, stage: "result", version: "r@1", output: output, decodedResult: nil, violations: [],
            isResult: true, startedAt: 2, finishedAt: 3, laterStages: [],
            then: .settle(state: .done, pipelineVersion: "p1", batchID: nil))
    }

    /// Runs both stages of `id` at the given `result` stage version and settles it done with `pipeline`.
    private func finish(_ id: Int64, on store: PostgresCheckpointStore, result: String, pipeline: String) throws {
        _ = try store.markRunning(documentID: id, stage: "detect", version: "d@1", at: 1)
        try store.complete(
            documentID: id, stage: "detect", version: "d@1", output: "{}", decodedResult: nil, violations: [],
            isResult: false, startedAt: 1, finishedAt: 2, laterStages: ["result"],
            then: .markRunning(stage: "result", version: result, at: 2))
        try store.complete(
            documentID: id, stage: "result", version: result, output: #"{"by":"\#(result)"}"#, decodedResult: nil,
            violations: [], isResult: true, startedAt: 2, finishedAt: 3, laterStages: [],
            then: .settle(state: .done, pipelineVersion: pipeline, batchID: nil))
    }

    /// A `larder-worker` that died at its memory limit on one host fails the one document it ran alone (claim let
    /// go), and leaves another host's running stage alone: that host's claim still holds, its stage still runs.
    @Test func aMemoryLimitDeathFailsOnlyThisHostsLoneDocument() throws {
        let (_, stores, ids) = try fleet(documents: 2, workers: 2, ttl: 30)
        defer { stores.forEach { $0.stopClaiming() } }
        let (here, there) = (stores[0], stores[1])
        #expect(try here.documentsNeedingWork(pipelineVersion: "p1", after: 0, limit: 1).map(\.id) == [ids[0]])
        #expect(try there.documentsNeedingWork(pipelineVersion: "p1", after: 0, limit: 1).map(\.id) == [ids[1]])
        _ = try here.markRunning(documentID: ids[0], stage: "detect", version: "d@1", at: 1)
        _ = try there.markRunning(documentID: ids[1], stage: "detect", version: "d@1", at: 1)
        #expect(try here.failAfterMemoryLimit(error: WorkerProcess.memoryLimitError(1 << 29)) == ids[0])
        #expect(try here.document(id: ids[0])?.state == .failed)
        #expect(try here.stages(of: ids[0])[0].error?.kind == .overLimit)
        #expect(try there.stages(of: ids[1])[0].status == .running)
        #expect(try there.stages(of: ids[1])[0].attempts == 1, "the other host's attempt is not touched")
        // The other host still holds its claim: it commits.
        try finish(ids[1], on: there)
        #expect(try there.document(id: ids[1])?.state == .done)
    }

    /// A stage commit does not wait for its WAL flush, so a server crash can lose it while the worker goes on. The
    /// lost commit is imitated by putting the rows back as they were before it; the worker's next commit (the next
    /// stage, which that lost commit marked running) finds its stage not `running`, so it is refused (`LeaseLost`)
    /// instead of settling a document with a stage missing: the claim is let go at once, the running stage gets its
    /// attempt back, and the next claim runs the lost stage again, once.
    /// A worker's stage commit and mark-running run twice for one run (a retry after the first COMMIT reached the
    /// server unseen) answer as their first run did: the attempt counted once, the claim kept, nothing refused.
    @Test func aRetriedStageCommitAnswersAsItsFirstRun() throws {
        let (_, stores, ids) = try fleet(documents: 1, workers: 1, ttl: 30)
        defer { stores.forEach { $0.stopClaiming() } }
        let (worker, id) = (stores[0], ids[0])
        #expect(try worker.documentsNeedingWork(pipelineVersion: "p1", after: 0, limit: 1).map(\.id) == [id])
        #expect(try worker.markRunning(documentID: id, stage: "detect", version: "d@1", at: 1) == 1)
        #expect(try worker.markRunning(documentID: id, stage: "detect", version: "d@1", at: 1) == 1, "one run")
        for run in 1...2 {
            let next = try worker.complete(
                documentID: id, stage: "detect", version: "d@1", output: "{}", decodedResult: nil, violations: [],
                isResult: false, startedAt: 1, finishedAt: 2, laterStages: [],
                then: .markRunning(stage: "result", version: "r@1", at: 2))
            #expect(next == 1, "run \(run)")
        }
        #expect(try worker.stages(of: id).map(\.status) == [.done, .running])
        #expect(try worker.fleet(leaseTTL: 30).flatMap(\.claims).count == 1, "the claim is kept")
        #expect(try worker.markRunning(documentID: id, stage: "detect", version: "d@1", at: 3) == 2, "a new run")
    }

    @Test func aCommitAfterLostUnflushedCommitsIsRefusedAndTheDocumentRunsAgain() throws {
        guard let cluster = PostgresCluster.shared else { throw ConformanceError("no cluster") }
        let (url, stores, ids) = try fleet(documents: 1, workers: 1, ttl: 30)
        defer { stores.forEach { $0.stopClaiming() } }
        let (worker, id) = (stores[0], ids[0])
        let schema = try #require(url.split(separator: "schema=").last.map(String.init))
        #expect(try worker.documentsNeedingWork(pipelineVersion: "p1", after: 0, limit: 1).map(\.id) == [id])
        // A stage commit in one statement (commit_stage): its mark-running lost.
        #expect(try worker.markRunning(documentID: id, stage: "detect", version: "d@1", at: 1) == 1)
        try cluster.psql("UPDATE \(schema).stage_run SET status = 'pending', attempts = 0 WHERE stage = 'detect'")
        #expect(throws: LeaseLost.self) {
            try worker.complete(
                documentID: id, stage: "detect", version: "d@1", output: "{}", decodedResult: nil, violations: [],
                isResult: false, startedAt: 1, finishedAt: 2, laterStages: [],
                then: .markRunning(stage: "result", version: "r@1", at: 2))
        }
        #expect(try worker.stages(of: id).map(\.status) == [.pending, .pending])
        #expect(try worker.fleet(leaseTTL: 30).flatMap(\.claims).isEmpty, "the claim is let go")
        // The result stage's commit (a transaction): the commit before it lost.
        #expect(try worker.documentsNeedingWork(pipelineVersion: "p1", after: 0, limit: 1).map(\.id) == [id])
        #expect(try worker.markRunning(documentID: id, stage: "detect", version: "d@1", at: 1) == 1)
        try worker.complete(
            documentID: id, stage: "detect", version: "d@1", output: "{}", decodedResult: nil, violations: [],
            isResult: false, startedAt: 1, finishedAt: 2, laterStages: [],
            then: .markRunning(stage: "result", version: "r@1", at: 2))
        // The crash loses that commit: detect is running again, result pending.
        try cluster.psql(
            """
            UPDATE \(schema).stage_run SET status = 'running', output = NULL WHERE stage = 'detect';
            UPDATE \(schema).stage_run SET status = 'pending', attempts = 0 WHERE stage = 'result'
            """)
        #expect(throws: LeaseLost.self) {
            try worker.complete(
                documentID: id, stage: "result", version: "r@1", output: "{}", decodedResult: nil, violations: [],
                isResult: true, startedAt: 2, finishedAt: 3, laterStages: [],
                then: .settle(state: .done, pipelineVersion: "p1", batchID: nil))
        }
        #expect(try worker.document(id: id)?.state == .pending, "not settled with a stage missing")
        let detect = try #require(try worker.stages(of: id).first)
        #expect(detect.status == .pending && detect.attempts == 0, "\(detect)")
        #expect(try worker.fleet(leaseTTL: 30).flatMap(\.claims).isEmpty, "the claim is let go")
        // Claimed again at once (no ttl to wait), and finished once.
        #expect(try worker.documentsNeedingWork(pipelineVersion: "p1", after: 0, limit: 1).map(\.id) == [id])
        try finish(id, on: worker)
        #expect(try worker.document(id: id)?.state == .done)
        #expect(try worker.stages(of: id).map(\.status) == [.done, .done])
    }

    /// `larder status` on PostgreSQL lists every worker with its leases, their age and time to expiry (the issue's
    /// operations requirement), read from the shared state by a process that is not one of the workers.
    @Test func statusShowsWorkersLeasesAndTheirAge() throws {
        let (url, stores, ids) = try fleet(documents: 2, workers: 2, ttl: 30)
        defer { stores.forEach { $0.stopClaiming() } }
        #expect(try stores[0].documentsNeedingWork(pipelineVersion: "p1", after: 0, limit: 1).map(\.id) == [ids[0]])
        #expect(try stores[1].documentsNeedingWork(pipelineVersion: "p1", after: 0, limit: 1).map(\.id) == [ids[1]])
        Thread.sleep(forTimeInterval: 1.5)
        let fleet = try stores[0].fleet(leaseTTL: 30)
        for (index, id) in ids.enumerated() {
            let worker = try #require(fleet.first { $0.id == "w\(index)" }, "\(fleet)")
            #expect(worker.claims.map(\.documentID) == [id])
            #expect(worker.pipelineVersion == "p1")
            let claim = try #require(worker.claims.first)
            #expect(claim.ageSeconds >= 1 && claim.ageSeconds < 30, "\(claim)")
            #expect(claim.expiresInSeconds > 0 && claim.expiresInSeconds <= 29, "\(claim)")
            #expect(worker.lastSeenSecondsAgo >= 0 && worker.lastSeenSecondsAgo < 30, "\(worker)")
        }
        let folder = NSTemporaryDirectory()
        let status = try PostgresCommandTests.larder(["status", "--db", url], in: folder)
        #expect(status.status == 0, "\(status.output)")
        for line in ["w0 (seen", "w1 (seen", "1 lease(s)", "doc \(ids[0]): lease age", "doc \(ids[1]): lease age", "expires in"] {
            #expect(status.output.contains(line), "\(line): \(status.output)")
        }
        #expect(!status.output.contains("EXPIRED"), "\(status.output)")
        let json = try PostgresCommandTests.larder(["status", "--json", "--db", url], in: folder)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let workers = try #require(report["workers"] as? [[String: Any]], "\(json.output)")
        #expect(Set(workers.compactMap { $0["id"] as? String }).isSuperset(of: ["w0", "w1"]), "\(json.output)")
    }

    /// The search index moves only with the result, in its fenced transaction: a paused worker whose lease was
    /// taken over cannot index its result (a renamed recipe stays unfindable); the holder's commit indexes it.
    @Test func theSearchIndexIsFencedWithTheResult() throws {
        let (_, stores, ids) = try fleet(documents: 1, workers: 2, ttl: 1)
        defer { stores.forEach { $0.stopClaiming() } }
        let (paused, healthy) = (stores[0], stores[1])
        let id = ids[0]
        let json = try String(
            contentsOfFile: Repository.path("samples/expected/golden/overnight-oats.md.json"), encoding: .utf8)
        var result = try JSONDecoder().decode(DocumentResult.self, from: Data(json.utf8))
        func search(_ text: String) throws -> [String] {
            var query = RecipeSearchQuery()
            query.text = text
            return try healthy.searchRecipes(query).map(\.title)
        }
        #expect(try paused.documentsNeedingWork(pipelineVersion: "p1", after: 0, limit: 1).map(\.id) == [id])
        _ = try paused.markRunning(documentID: id, stage: "result", version: "r@1", at: 1)
        paused.claims.stopHeartbeat.withLock { $0 = true }
        Thread.sleep(forTimeInterval: 1.6)
        #expect(try healthy.documentsNeedingWork(pipelineVersion: "p1", after: 0, limit: 1).map(\.id) == [id])
        let title = result.recipes[0].title
        result.recipes[0].title = "Pausenbrot Zombie"
        let stale = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
        #expect(throws: LeaseLost.self) {
            try paused.complete(
                documentID: id, stage: "result", version: "r@1", output: stale, decodedResult: result, violations: [],
                isResult: true, startedAt: 1, finishedAt: 2, laterStages: [], then: .nothing)
        }
        #expect(try search("zombie").isEmpty)
        _ = try healthy.markRunning(documentID: id, stage: "result", version: "r@1", at: 3)
        try healthy.complete(
            documentID: id, stage: "result", version: "r@1", output: json,
            decodedResult: try JSONDecoder().decode(DocumentResult.self, from: Data(json.utf8)), violations: [],
            isResult: true, startedAt: 3, finishedAt: 4, laterStages: [],
            then: .settle(state: .done, pipelineVersion: "p1", batchID: nil))
        #expect(try search("zombie").isEmpty)
        #expect(try search("overnight") == [title])
    }

    /// Two hosts on two versions of the `result` stage at once (an upgrade host by host): the newer one redoes
    /// what the older one finished; the older one never takes a document a stage of which ran at the newer
    /// version (finished, or left pending after a failed attempt), so neither redoes the other's newer work.
    @Test func workersOnTwoStageVersionsDoNotRedoEachOthersNewerWork() throws {
        let (url, _, ids) = try fleet(documents: 3, workers: 0, ttl: 30)
        guard case .postgres(let location) = try StoreLocation.parse(url) else { throw ConformanceError("url") }
        let oldStages = [StageDeclaration(name: "detect", version: "d@1"), StageDeclaration(name: "result", version: "r@1")]
        let newStages = [StageDeclaration(name: "detect", version: "d@1"), StageDeclaration(name: "result", version: "r@2")]
        func worker(_ name: String, _ pipeline: String, _ stages: [StageDeclaration]) throws -> PostgresCheckpointStore {
            let store = try PostgresCheckpointStore(location: location, workerID: name)
            try store.startClaiming(leaseTTL: 30, maxAttempts: 3, pipelineVersion: pipeline, stages: stages)
            return store
        }
        func claimAll(_ store: PostgresCheckpointStore, _ pipeline: String) throws -> [Int64] {
            var taken: [Int64] = []
            while let page = try Optional(store.documentsNeedingWork(pipelineVersion: pipeline, after: taken.last ?? 0, limit: 10)),
                !page.isEmpty, taken.count < 10
            {
                taken += page.map(\.id)
            }
            return taken
        }
        // The old version runs first and finishes the first document.
        let old = try worker("old", "p1", oldStages)
        #expect(try old.documentsNeedingWork(pipelineVersion: "p1", after: 0, limit: 1).map(\.id) == [ids[0]])
        try finish(ids[0], on: old, result: "r@1", pipeline: "p1")
        old.stopClaiming()

        // A host with the newer result stage joins: it takes everything, the old version's work included.
        let new = try worker("new", "p2", newStages)
        #expect(try claimAll(new, "p2") == ids)
        try finish(ids[0], on: new, result: "r@2", pipeline: "p2")
        try finish(ids[1], on: new, result: "r@2", pipeline: "p2")
        // The third: detect done, its result stage failed once at r@2 and waits for a retry.
        _ = try new.markRunning(documentID: ids[2], stage: "detect", version: "d@1", at: 1)
        try new.complete(
            documentID: ids[2], stage: "detect", version: "d@1", output: "{}", decodedResult: nil, violations: [],
            isResult: false, startedAt: 1, finishedAt: 2, laterStages: ["result"],
            then: .markRunning(stage: "result", version: "r@2", at: 2))
        try new.recordFailure(
            documentID: ids[2], stage: "result", version: "r@2", error: LarderError(.transient, "once"),
            status: .pending, startedAt: 2, finishedAt: 3)
        new.stopClaiming()  // its claims are let go: only the version rule keeps the old host away now

        let oldAgain = try worker("old-again", "p1", oldStages)
        defer { oldAgain.stopClaiming() }
        #expect(try oldAgain.claimableCount(pipelineVersion: "p1", stages: oldStages) == 0)
        #expect(try claimAll(oldAgain, "p1").isEmpty)
        #expect(try oldAgain.claimableCount(pipelineVersion: "p2", stages: newStages) == 1)
        // The newer results stand: the old host committed nothing more.
        #expect(try oldAgain.resultVersions(of: ids[0]).count == 2)
        #expect(try oldAgain.resultVersions(of: ids[1]).count == 1)
    }

    @Test func everyDocumentIsClaimedOnceByConcurrentWorkers() throws {
        let (_, stores, ids) = try fleet(documents: 60, workers: 4, ttl: 30)
        defer { stores.forEach { $0.stopClaiming() } }
        let taken = Locked<[Int64: [String]]>([:])
        DispatchQueue.concurrentPerform(iterations: stores.count) { index in
            let store = stores[index]
            var after: Int64 = 0
            while let page = try? store.documentsNeedingWork(pipelineVersion: "p1", after: after, limit: 64), !page.isEmpty {
                for document in page {
                    taken.withLock { $0[document.id, default: []].append("w\(index)") }
                    try? finish(document.id, on: store)
                }
                after = page.last!.id
            }
        }
        let claims = taken.withLock { $0 }
        #expect(Set(claims.keys) == Set(ids))
        #expect(claims.values.allSatisfy { $0.count == 1 }, "a document was claimed twice: \(claims.filter { $0.value.count > 1 })")
        #expect(try stores[0].documentCounts() == [.done: 60])
        #expect(Set(claims.values.flatMap { $0 }).count > 1, "the work was shared")
        // Each document has one result version: one commit each.
        for id in ids { #expect(try stores[0].resultVersions(of: id).count == 1) }
    }

    @Test func aPausedWorkerCannotCommitAfterItsLeaseWasTakenOver() throws {
        let (_, stores, ids) = try fleet(documents: 1, workers: 2, ttl: 1)
        defer { stores.forEach { $0.stopClaiming() } }
        let (paused, healthy) = (stores[0], stores[1])
        let id = ids[0]
        #expect(try paused.documentsNeedingWork(pipelineVersion: "p1", after: 0, limit: 1).map(\.id) == [id])
        _ = try paused.markRunning(documentID: id, stage: "detect", version: "d@1", at: 1)
        // While its lease lives, nobody else can take the document.
        #expect(try healthy.documentsNeedingWork(pipelineVersion: "p1", after: 0, limit: 1).isEmpty)
        // SIGSTOP: the heartbeat stops; past the ttl the other worker claims the document and finishes it.
        paused.claims.stopHeartbeat.withLock { $0 = true }
        Thread.sleep(forTimeInterval: 1.6)
        #expect(try healthy.documentsNeedingWork(pipelineVersion: "p1", after: 0, limit: 1).map(\.id) == [id])
        try finish(id, on: healthy, output: #"{"by":"healthy"}"#)
        // SIGCONT: the paused worker's commit is refused, and so is its heartbeat's renewal.
        #expect(throws: LeaseLost.self) {
            try paused.complete(
                documentID: id, stage: "detect", version: "d@1", output: #"{"by":"paused"}"#, decodedResult: nil,
                violations: [], isResult: false, startedAt: 1, finishedAt: 5, laterStages: [],
                then: .nothing)
        }
        #expect(throws: LeaseLost.self) {
            try paused.settle(documentID: id, state: .failed, pipelineVersion: "p1", batchID: nil)
        }
        let stages = try healthy.stages(of: id)
        #expect(stages.map(\.status) == [.done, .done])
        #expect(stages[1].output == #"{"by":"healthy"}"#)
        #expect(try healthy.resultVersions(of: id).count == 1, "exactly one committed result")
        #expect(try healthy.document(id: id)?.state == .done)
    }

    @Test func heartbeatsKeepALeaseAlivePastItsTTL() throws {
        let (_, stores, ids) = try fleet(documents: 1, workers: 2, ttl: 1)
        defer { stores.forEach { $0.stopClaiming() } }
        let id = ids[0]
        #expect(try stores[0].documentsNeedingWork(pipelineVersion: "p1", after: 0, limit: 1).map(\.id) == [id])
        Thread.sleep(forTimeInterval: 2.5)  // two and a half ttls: only the heartbeat (every ttl/3) keeps it
        #expect(try stores[1].documentsNeedingWork(pipelineVersion: "p1", after: 0, limit: 1).isEmpty)
        try finish(id, on: stores[0])
        let fleet = try stores[0].fleet(leaseTTL: 1)
        #expect(fleet.map(\.id).contains("w0"))
        #expect(fleet.allSatisfy { $0.claims.isEmpty }, "settling let the claim go")
    }

    @Test func aDocumentThatKillsEveryWorkerIsQuarantined() throws {
        let (_, stores, ids) = try fleet(documents: 2, workers: 3, ttl: 1, maxAttempts: 2)
        defer { stores.forEach { $0.stopClaiming() } }
        let poison = ids[0]
        // Two workers in turn take the document, start its first stage and die (their heartbeats stop).
        for (lost, store) in stores.prefix(2).enumerated() {
            let page = try store.documentsNeedingWork(pipelineVersion: "p1", after: 0, limit: 1)
            #expect(page.map(\.id) == [poison])
            _ = try store.markRunning(documentID: poison, stage: "detect", version: "d@1", at: 1)
            store.claims.stopHeartbeat.withLock { $0 = true }
            // Past the ttl, plus the backoff for the claims the document already lost.
            Thread.sleep(forTimeInterval: 1.4 + ClaimState.backoffSeconds * Double(lost))
        }
        // The third worker finds it at max_attempts: quarantined, and it moves on to the other document.
        let page = try stores[2].documentsNeedingWork(pipelineVersion: "p1", after: 0, limit: 2)
        #expect(page.map(\.id) == [ids[1]])
        try finish(ids[1], on: stores[2])
        #expect(try stores[2].document(id: poison)?.state == .quarantined)
        #expect(try stores[2].stages(of: poison)[0].error?.kind == .crashed)
        #expect(try stores[2].documentCounts() == [.done: 1, .quarantined: 1])
    }

    @Test func aRestartedWorkerTakesItsPredecessorsClaimsBackAtOnce() throws {
        let (url, stores, ids) = try fleet(documents: 1, workers: 1, ttl: 30)
        let id = ids[0]
        #expect(try stores[0].documentsNeedingWork(pipelineVersion: "p1", after: 0, limit: 1).map(\.id) == [id])
        _ = try stores[0].markRunning(documentID: id, stage: "detect", version: "d@1", at: 1)
        stores[0].claims.stopHeartbeat.withLock { $0 = true }  // it crashed; its supervisor restarts it
        guard case .postgres(let location) = try StoreLocation.parse(url) else { return }
        let restarted = try PostgresCheckpointStore(location: location, workerID: "w0")
        try restarted.startClaiming(leaseTTL: 30, maxAttempts: 3, pipelineVersion: "p1")
        defer { restarted.stopClaiming() }
        // Well inside the ttl: the claim is its own name's, so it is recovered now, not in 30 s.
        #expect(try restarted.recoverInterruptedStages(maxAttempts: 3) == [id])
        try finish(id, on: restarted)
        #expect(try restarted.stages(of: id)[0].attempts == 2, "the crashed attempt counts")
    }
}
