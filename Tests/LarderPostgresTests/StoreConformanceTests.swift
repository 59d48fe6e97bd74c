import Foundation
import LarderCore
import LarderTestSupport
import Testing

@testable import LarderPostgres

/// The store kinds the conformance suite runs against. PostgreSQL is left out when its binaries are absent; then
/// `postgresIsInstalled` is skipped, visibly, naming the missing binary (and CI fails on that skip when they exist).
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    /// PostgreSQL starts a cluster (processes): left to the integration tier, like every test that starts one.
    static var available: [StoreKind] {
        PostgresCluster.binariesPresent && !TestTier.unitOnly ? allCases : [.sqlite]
    }

    var testDescription: String { rawValue }

    /// A new, empty store of this kind: a temporary SQLite file, or a fresh schema in the test cluster.
    func makeStore() throws -> any CheckpointStore {
        switch self {
        case .sqlite:
            let folder = NSTemporaryDirectory() + "larder-conformance-\(UUID().uuidString)"
            return try SQLiteCheckpointStore(path: folder + "/larder.sqlite")
        case .postgres:
            guard let cluster = PostgresCluster.shared else {
                throw ConformanceError(PostgresCluster.unavailableReason ?? "no PostgreSQL cluster")
            }
            return try PostgresCheckpointStore(location: PostgresLocation(url: cluster.url()))
        }
    }
}

struct ConformanceError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension Trait where Self == ConditionTrait {
    /// Needs PostgreSQL 15's binaries (the test starts its own throwaway cluster).
    static var postgres: Self {
        .enabled(
            if: PostgresCluster.binariesPresent,
            "PostgreSQL is not installed: \(PostgresCluster.binaries)/initdb is missing (scripts/setup.sh installs postgresql)")
    }
}

private let stages = ["detect", "extract", "result"]

private func file(_ name: String, _ sha: String, size: Int64 = 10) -> RegisteredFile {
    RegisteredFile(path: "/docs/\(name)", sha256: sha, byteCount: size, modifiedAt: 1_700_000_000.25)
}

private func hash(_ n: Int) -> String { String(repeating: String(n % 10), count: 8) + String(format: "%056x", n) }

@Suite("Store conformance (SQLite and PostgreSQL)", .serialized)
struct StoreConformanceTests {
    @Test(.postgres, .integration) func postgresIsInstalled() throws {
        #expect(PostgresCluster.shared != nil, "\(PostgresCluster.unavailableReason ?? "")")
    }

    @Test(arguments: StoreKind.available) func registrationAndDedup(kind: StoreKind) throws {
        let store = try kind.makeStore()
        let batch = try store.beginBatch(command: "ingest", inputs: ["/docs"])
        let registered = try store.register(
            [file("a.pdf", hash(1)), file("b.pdf", hash(2)), file("copy-of-a.pdf", hash(1)), file("c.pdf", hash(11))],
            batchID: batch, stages: stages)
        guard case .new(let a) = registered[0], case .new(let b) = registered[1] else {
            Issue.record("expected two new documents, got \(registered)")
            return
        }
        #expect(a != b)
        #expect(registered[2] == .duplicate(documentID: a, of: "/docs/a.pdf"))
        // A second batch sees the same bytes as known.
        let second = try store.beginBatch(command: "ingest", inputs: ["/docs"])
        #expect(second > batch)
        #expect(try store.latestBatchID() == second)
        #expect(try store.register([file("a.pdf", hash(1))], batchID: second, stages: stages) == [.known(documentID: a)])
        #expect(try store.paths(of: a) == ["/docs/a.pdf", "/docs/copy-of-a.pdf"])
        #expect(try store.stages(of: a).map(\.stage) == stages)
        #expect(try store.stages(of: a).allSatisfy { $0.status == .pending && $0.attempts == 0 })
        // Unchanged files are not hashed again; a changed size is.
        let identities = [
            FileIdentity(path: "/docs/a.pdf", byteCount: 10, modifiedAt: 1_700_000_000.25),
            FileIdentity(path: "/docs/b.pdf", byteCount: 11, modifiedAt: 1_700_000_000.25),
        ]
        #expect(try store.knownHashes(of: identities) == ["/docs/a.pdf": hash(1)])
        #expect(try store.document(matching: String(a))?.sha256 == hash(1))
        #expect(try store.document(matching: String(hash(2).prefix(12)))?.id == b)
        #expect(try store.document(matching: "/docs/copy-of-a.pdf")?.id == a)
        #expect(try store.document(matching: "/docs/none.pdf") == nil)
        #expect(throws: LarderError.self) { try store.document(matching: "11111111") }  // hash(1) and hash(11)
        try store.recordInputError(batchID: second, path: "/docs/bad", error: LarderError(.badInput, "unreadable"))
        #expect(try store.inputErrors(batchID: second).map(\.path) == ["/docs/bad"])
        #expect(try store.inputErrors(batchID: batch).isEmpty)
        try store.finishBatch(second, summaryJSON: "{}")
    }

    @Test(arguments: StoreKind.available) func queueRunsAndSettles(kind: StoreKind) throws {
        let store = try kind.makeStore()
        let batch = try store.beginBatch(command: "ingest", inputs: [])
        let ids = try store.register((1...3).map { file("\($0).pdf", hash($0)) }, batchID: batch, stages: stages)
            .map(\.documentID)
        #expect(try store.countDocumentsNeedingWork(pipelineVersion: "p1") == 3)
        #expect(try store.documentsNeedingWork(pipelineVersion: "p1", after: ids[0], limit: 10).map(\.id) == Array(ids[1...]))
        let id = ids[0]
        #expect(try store.markRunning(documentID: id, stage: "detect", version: "detect@1", at: 1) == 1)
        #expect(try store.markRunning(documentID: id, stage: "detect", version: "detect@1", at: 2) == 2)
        #expect(try store.markRunning(documentID: id, stage: "detect", version: "detect@2", at: 3) == 1)
        let next = try store.complete(
            documentID: id, stage: "detect", version: "detect@2", output: #"{"format":"pdf"}"#, decodedResult: nil,
            violations: [], isResult: false, startedAt: 3, finishedAt: 3.5, laterStages: ["extract", "result"],
            then: .markRunning(stage: "extract", version: "extract@1", at: 4))
        #expect(next == 1)
        try store.complete(
            documentID: id, stage: "extract", version: "extract@1", output: "{}", violations: [], isResult: false,
            startedAt: 4, finishedAt: 5, laterStages: [])
        try store.complete(
            documentID: id, stage: "result", version: "result@1", output: #"{"r":1}"#, decodedResult: nil,
            violations: [], isResult: true, startedAt: 5, finishedAt: 6, laterStages: [],
            then: .settle(state: .done, pipelineVersion: "p1", batchID: batch))
        let records = try store.stages(of: id)
        #expect(records.map(\.status) == [.done, .done, .done])
        #expect(records[0].output == #"{"format":"pdf"}"#)
        #expect(records[0].durationMilliseconds == 500)
        #expect(records[2].output == #"{"r":1}"#, "the result stage's output is read from its result version")
        #expect(try store.stageVersions(of: id).map(\.version) == ["detect@2", "extract@1", "result@1"])
        #expect(try store.document(id: id)?.state == .done)
        #expect(try store.countDocumentsNeedingWork(pipelineVersion: "p1") == 2)
        #expect(try store.countDocumentsNeedingWork(pipelineVersion: "p2") == 3, "a new pipeline version reruns it")
        #expect(try store.settledCounts(batchID: batch, since: 0) == [.done: 1])
        #expect(try store.stageOutputs(stage: "result", finishedSinceBatch: batch) == [])  // batch started after 6
        var seen: [Int64] = []
        try store.forEachDocument(in: .done) { seen.append($0.id) }
        #expect(seen == [id])
    }

    @Test(arguments: StoreKind.available) func failuresQuarantineAndRequeue(kind: StoreKind) throws {
        let store = try kind.makeStore()
        let batch = try store.beginBatch(command: "ingest", inputs: [])
        let ids = try store.register((1...3).map { file("\($0).pdf", hash($0)) }, batchID: batch, stages: stages)
            .map(\.documentID)
        // A stage failed for good.
        _ = try store.markRunning(documentID: ids[0], stage: "detect", version: "detect@1", at: 1)
        try store.recordFailure(
            documentID: ids[0], stage: "detect", version: "detect@1", error: LarderError(.badInput, "not a PDF"),
            status: .failed, startedAt: 1, finishedAt: 2)
        try store.settle(documentID: ids[0], state: .failed, pipelineVersion: "p1", batchID: batch)
        // A stage left running by a dead process, twice: quarantined at maxAttempts 2.
        _ = try store.markRunning(documentID: ids[1], stage: "detect", version: "detect@1", at: 1)
        #expect(try store.recoverInterruptedStages(maxAttempts: 2) == [ids[1]])
        _ = try store.markRunning(documentID: ids[1], stage: "detect", version: "detect@1", at: 2)
        #expect(try store.recoverInterruptedStages(maxAttempts: 2) == [])
        #expect(try store.document(id: ids[1])?.state == .quarantined)
        #expect(try store.stages(of: ids[1])[0].error?.kind == .crashed)
        // A worker killed from outside gives its attempt back.
        _ = try store.markRunning(documentID: ids[2], stage: "detect", version: "detect@1", at: 1)
        #expect(try store.releaseInterruptedStages() == 1)
        #expect(try store.stages(of: ids[2])[0].attempts == 0)
        #expect(try store.stages(of: ids[2])[0].status == .pending)

        let problems = try store.problems(batchID: batch, limit: 10)
        #expect(problems.map(\.documentID) == [ids[0], ids[1]])
        #expect(problems.map(\.state) == [.failed, .quarantined])
        #expect(problems[0].error?.message == "not a PDF")
        #expect(try store.problems(batchID: nil, limit: 1).count == 1)
        #expect(try store.documentCounts(batchID: batch) == [.failed: 1, .quarantined: 1, .pending: 1])
        #expect(Set(try store.stageCounts().filter { $0.stage == "detect" }.map(\.status)) == [.failed, .quarantined, .pending])
        #expect(try store.requeueProblems(documentID: ids[0]) == 1)
        #expect(try store.requeueProblems() == 1)
        #expect(try store.documentCounts() == [.pending: 3])
        #expect(try store.stages(of: ids[1])[0].attempts == 0)
    }

    @Test(arguments: StoreKind.available) func resultVersionsAndReview(kind: StoreKind) throws {
        let store = try kind.makeStore()
        let batch = try store.beginBatch(command: "ingest", inputs: [])
        let id = try store.register([file("r.pdf", hash(7))], batchID: batch, stages: stages)[0].documentID
        func finish(_ output: String) throws {
            _ = try store.markRunning(documentID: id, stage: "result", version: "result@1", at: 10)
            try store.complete(
                documentID: id, stage: "result", version: "result@1", output: output, violations: [],
                isResult: true, startedAt: 10, finishedAt: 11, laterStages: [])
        }
        try finish(#"{"v":1}"#)
        try finish(#"{"v":1}"#)  // agrees: no new version
        #expect(try store.resultVersions(of: id).map(\.number) == [1])
        try finish(#"{"v":2}"#)
        #expect(try store.resultVersions(of: id).map(\.json) == [#"{"v":1}"#, #"{"v":2}"#])
        #expect(try store.resultVersions(of: id).map(\.note) == ["result@1", "result@1"])
        #expect(try store.reviewState(of: id) == ReviewState())
        try store.decide(documentID: id, decision: .accepted, acceptedVersion: 1, reason: nil)
        #expect(try store.reviewState(of: id) == ReviewState(acceptedVersion: 1, decision: .accepted, decidedVersion: 2))
        try store.decide(documentID: id, decision: .rejected, acceptedVersion: nil, reason: "wrong yield")
        #expect(try store.reviewState(of: id).acceptedVersion == 1, "rejecting keeps the accepted version")
        let human = try store.addHumanVersion(documentID: id, json: #"{"v":3}"#, note: "fixed the yield")
        #expect(human == 3)
        let candidates = try store.reviewCandidates()
        #expect(candidates.count == 1)
        #expect(candidates[0].latestMachine.number == 2)
        #expect(candidates[0].state.acceptedVersion == 3)
        #expect(candidates[0].acceptedIsHuman)
        #expect(try store.resultVersions(of: id).last?.origin == .human)
    }

    /// A worker that died at its memory limit (``CheckpointStore/failAfterMemoryLimit(error:)``): two documents in
    /// flight, neither blamed (attempts given back), both re-run one at a time; then the one that dies alone fails
    /// at once with the limit's message, on its first attempt, and is let go.
    @Test(arguments: StoreKind.available) func aMemoryLimitDeathFailsTheLoneDocument(kind: StoreKind) throws {
        let store = try kind.makeStore()
        let batch = try store.beginBatch(command: "ingest", inputs: [])
        let ids = try store.register([file("a", hash(21)), file("b", hash(22)), file("c", hash(23))], batchID: batch, stages: ["x"])
            .map(\.documentID)
        _ = try store.markRunning(documentID: ids[0], stage: "x", version: "x@1", at: 1)
        _ = try store.markRunning(documentID: ids[1], stage: "x", version: "x@1", at: 1)
        let error = WorkerProcess.memoryLimitError(1 << 30)
        #expect(try store.failAfterMemoryLimit(error: error) == nil)
        // max_attempts 1: had the attempts counted, both would be quarantined now.
        #expect(try store.recoverInterruptedStages(maxAttempts: 1) == [ids[0], ids[1]])
        #expect(try store.markRunning(documentID: ids[0], stage: "x", version: "x@1", at: 2) == 1)
        #expect(try store.failAfterMemoryLimit(error: error) == ids[0])
        #expect(try store.recoverInterruptedStages(maxAttempts: 1) == [])
        let problems = try store.problems(batchID: nil, limit: 10)
        #expect(problems.map(\.documentID) == [ids[0]])
        #expect(problems.first?.state == .failed)
        #expect(problems.first?.error?.kind == .overLimit)
        #expect(problems.first?.error?.stage == "x")
        #expect(problems.first?.error?.message.contains("limits.worker_memory (1024 MiB)") == true)
        #expect(try store.documentCounts() == [.failed: 1, .pending: 2])
        #expect(try store.stages(of: ids[0])[0].status == .failed)
    }

    /// `GET /v1/documents/{id}/result`'s one read agrees with ``Exporter`` (three reads) at every review state: no
    /// result, an invalid one, valid ones, accepted, rejected, a human edit.
    @Test(arguments: StoreKind.available) func exportableVersionAgreesWithTheExporter(kind: StoreKind) throws {
        let store = try #require(try kind.makeStore() as? any ServiceStore)
        let batch = try store.beginBatch(command: "ingest", inputs: [])
        let id = try store.register([file("e.pdf", hash(8))], batchID: batch, stages: stages)[0].documentID
        let bad = try JSONDecoder().decode(
            SchemaViolation.self, from: Data(#"{"instanceLocation":"/v","keywordLocation":"/type","message":"bad"}"#.utf8))
        func finish(_ output: String, _ violations: [SchemaViolation] = []) throws {
            for (stage, version) in [("detect", "detect@2"), ("result", "result@1")] {
                _ = try store.markRunning(documentID: id, stage: stage, version: version, at: 10)
                try store.complete(
                    documentID: id, stage: stage, version: version, output: output,
                    violations: stage == "result" ? violations : [], isResult: stage == "result", startedAt: 10,
                    finishedAt: 11, laterStages: [])
            }
        }
        func check(_ expected: Int?, _ what: String) throws {
            let exporter = Exporter(store: store)
            let slow: ExportableVersion? =
                switch try exporter.exportable(id) {
                case .version(let version):
                    ExportableVersion(number: version.number, json: version.json, pipelineVersion: try exporter.pipelineVersion(of: id))
                default: nil
                }
            let fast = try store.exportableVersion(of: id)
            #expect(fast == slow, "\(what)")
            #expect(fast?.number == expected, "\(what)")
        }
        try check(nil, "no result")
        try finish(#"{"v":0}"#, [bad])
        try check(nil, "invalid")
        try finish(#"{"v":1}"#)
        try check(2, "valid")
        #expect(try store.exportableVersion(of: id)?.pipelineVersion == "detect@2+result@1")
        try finish(#"{"v":2}"#)
        try check(3, "newer")
        try store.decide(documentID: id, decision: .accepted, acceptedVersion: 2, reason: nil)
        try check(2, "accepted")
        try store.decide(documentID: id, decision: .rejected, acceptedVersion: nil, reason: "no")
        try check(nil, "rejected")
        let human = try store.addHumanVersion(documentID: id, json: #"{"v":4}"#, note: "fixed")
        try check(human, "edited")
    }
}
