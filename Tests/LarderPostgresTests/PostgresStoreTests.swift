import Foundation
import LarderCore
import LarderTestSupport
import Testing

@testable import LarderPostgres

/// The store URL: parsing, and the password never printed.
@Suite struct StoreLocationTests {
    @Test func parsesPostgresURLs() throws {
        let location = try StoreLocation.parse("postgres://larder:p%40ss@db.example:6543/queue?sslmode=require&schema=fleet")
        guard case .postgres(let pg) = location else {
            Issue.record("not read as PostgreSQL: \(location)")
            return
        }
        #expect(pg.host == "db.example")
        #expect(pg.port == 6543)
        #expect(pg.user == "larder")
        #expect(pg.password == "p@ss")
        #expect(pg.database == "queue")
        #expect(pg.sslMode == .require)
        #expect(pg.schema == "fleet")
        #expect(try StoreLocation.parse("postgresql://u@h/d") == .postgres(PostgresLocation(host: "h", user: "u", database: "d")))
        #expect(try StoreLocation.parse("larder.sqlite") == .sqlite(path: FileManager.default.currentDirectoryPath + "/larder.sqlite"))
    }

    @Test func refusesBadURLs() {
        for bad in [
            "postgres://host/db", "postgres://u@host/", "postgres://u@host/db?sslmode=sometimes",
            "postgres://u@host/db?schema=Bad-Name", "postgres://u@host/db?password=x", "postgres://u@host/db?colour=red",
        ] {
            #expect(throws: LarderError.self, "\(bad)") { try StoreLocation.parse(bad) }
        }
    }

    @Test func passwordNeverPrinted() throws {
        let secret = "hunter2-very-secret"
        let text = "postgres://larder:\(secret)@db.example:5432/larder?sslmode=verify-full"
        let location = try StoreLocation.parse(text)
        guard case .postgres(let pg) = location else { return }
        var dumped = ""
        dump(pg, to: &dumped)
        for shown in [location.description, "\(location)", String(reflecting: pg), "\(pg)", dumped] {
            #expect(!shown.contains(secret), "\(shown)")
        }
        #expect(location.description == "postgres://larder:***@db.example:5432/larder?sslmode=verify-full")
        #expect(StoreLocation.redact("cannot reach \(text) now") == "cannot reach postgres://larder:***@db.example:5432/larder?sslmode=verify-full now")
        var config = PipelineConfig()
        config.database = text
        #expect(!config.storeDescription.contains(secret))
        #expect(!config.llmCachePath.contains(secret))
        #expect(!Intake.uploadsDirectory(forDatabase: text).contains(secret))
        // A URL that does not parse is not echoed with its password either.
        do {
            _ = try StoreLocation.parse("postgres://larder:\(secret)@/larder")
            Issue.record("a URL without a host was accepted")
        } catch let error as LarderError {
            #expect(!"\(error)".contains(secret))
        }
    }

    @Test func configReadsStoreURLAndLeaseTTL() throws {
        let config = try PipelineConfig.parse(
            yaml: "database: x.sqlite\nstore:\n  url: postgres://u@h/d\nqueue:\n  lease_ttl: 30\n")
        #expect(config.database == "postgres://u@h/d")
        #expect(config.leaseTTL == 30)
        #expect(PipelineConfig().leaseTTL == 60)
        #expect(throws: LarderError.self) { try PipelineConfig.parse(yaml: "store:\n  url: x.sqlite\n") }
        #expect(throws: LarderError.self) { try PipelineConfig.parse(yaml: "queue:\n  lease_ttl: 1\n") }
    }
}

/// What only the PostgreSQL store does: its schema, its errors, its event order, document bytes, the worker lock.
@Suite(.postgres, .integration, .serialized) struct PostgresStoreTests {
    private func cluster() throws -> PostgresCluster {
        guard let cluster = PostgresCluster.shared else {
            throw ConformanceError(PostgresCluster.unavailableReason ?? "no cluster")
        }
        return cluster
    }

    private func open(_ url: String) throws -> PostgresCheckpointStore {
        guard case .postgres(let location) = try StoreLocation.parse(url) else { throw ConformanceError("not pg") }
        return try PostgresCheckpointStore(location: location)
    }

    @Test func refusesASchemaHoldingOtherTables() throws {
        let cluster = try cluster()
        let schema = cluster.freshSchema()
        try cluster.psql("CREATE SCHEMA \(schema); CREATE TABLE \(schema).invoices (id int)")
        do {
            _ = try open(cluster.url(schema: schema))
            Issue.record("a schema with another application's table was accepted")
        } catch let error as LarderError {
            #expect(error.message.contains("invoices"))
            #expect(error.message.contains("not Larder's"))
        }
        // Untouched: no Larder table was added.
        let tables = try cluster.psql(
            "SELECT string_agg(table_name, ',') FROM information_schema.tables WHERE table_schema = '\(schema)'")
        #expect(tables.trimmingCharacters(in: .whitespacesAndNewlines) == "invoices")
        // Opening twice (a second process) finds its own schema and accepts it.
        let url = cluster.url()
        _ = try open(url)
        _ = try open(url)
    }

    @Test func wrongPasswordFailsWithoutShowingIt() throws {
        let cluster = try cluster()
        let secret = "wrong-password-\(UInt32.random(in: 0...UInt32.max))"
        let url = cluster.url().replacingOccurrences(of: PostgresCluster.password, with: secret)
        do {
            _ = try open(url)
            Issue.record("a wrong password was accepted")
        } catch let error as LarderError {
            let text = "\(error) \(error.hint ?? "") \(error.path ?? "")"
            #expect(!text.contains(secret), "\(text)")
            #expect(error.kind == .database)
            #expect(text.contains("password authentication failed"), "\(text)")
        }
    }

    @Test func unreachableServerFailsClearly() throws {
        let url = "postgres://larder:pw-not-shown@127.0.0.1:1/larder?sslmode=disable"
        do {
            _ = try open(url)
            Issue.record("a closed port was accepted")
        } catch let error as LarderError {
            #expect(!"\(error)".contains("pw-not-shown"))
            #expect(error.hint?.contains("127.0.0.1:1") == true)
        }
    }

    @Test func stageEventsAreNumberedInCommitOrder() throws {
        let store = try open(try cluster().url())
        let batch = try store.beginBatch(command: "ingest", inputs: [])
        let count = 40
        let ids = try store.register(
            (0..<count).map { RegisteredFile(path: "/e/\($0)", sha256: String(format: "%064x", $0 + 1), byteCount: 1, modifiedAt: 0) },
            batchID: batch, stages: ["detect"]
        ).map(\.documentID)
        #expect(try store.lastStageEventSequence() == 0)
        // Many threads commit at once; the events must come out once each, numbered without gaps.
        DispatchQueue.concurrentPerform(iterations: count) { index in
            _ = try? store.markRunning(documentID: ids[index], stage: "detect", version: "d@1", at: 0)
            try? store.complete(
                documentID: ids[index], stage: "detect", version: "d@1", output: "{}", violations: [],
                isResult: false, startedAt: 0, finishedAt: Double(index), laterStages: [])
        }
        let events = try store.stageEvents(after: 0, limit: 1000)
        #expect(events.map(\.sequence) == Array(1...Int64(count)))
        #expect(Set(events.map(\.documentID)) == Set(ids))
        #expect(try store.lastStageEventSequence() == Int64(count))
        let latencies = try store.stageLatencies(boundsMilliseconds: [0, 1e9])
        #expect(latencies.map(\.stage) == ["detect"])
        #expect(latencies.first?.counts == [1, count])  // index 0 took 0 ms
        let page = try store.documentPage(state: .pending, kind: nil, after: 0, limit: 5)
        #expect(page.map(\.document.id) == Array(ids.prefix(5)))
        #expect(try store.documentPage(state: nil, kind: .receipt, after: 0, limit: 5).isEmpty)
    }

    /// Schema 4: no index on `stage_run.status` (so stage updates can be HOT), fillfactor and autovacuum settings
    /// on the queue tables; a version-3 schema is upgraded in place on first use, its rows kept.
    @Test func aVersion3SchemaGetsTheQueueStorageSettings() throws {
        let cluster = try cluster()
        let schema = cluster.freshSchema()
        let url = cluster.url(schema: schema)
        let store = try open(url)
        let batch = try store.beginBatch(command: "ingest", inputs: [])
        _ = try store.register(
            [RegisteredFile(path: "/s/1", sha256: String(repeating: "5", count: 64), byteCount: 1, modifiedAt: 0)],
            batchID: batch, stages: ["detect"])
        func settings() throws -> String {
            try cluster.psql(
                """
                SELECT (SELECT string_agg(relname || ':' || array_to_string(reloptions, ','), ' ' ORDER BY relname)
                        FROM pg_class
                        WHERE relnamespace = '\(schema)'::regnamespace AND relname IN ('document', 'stage_run'))
                    || '|' || (SELECT COUNT(*) FROM pg_indexes
                               WHERE schemaname = '\(schema)' AND indexname = 'stage_run_status')
                    || '|' || (SELECT value FROM \(schema).larder_meta WHERE key = 'schema_version')
                """
            ).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let fresh = try settings()
        #expect(fresh.contains("stage_run:fillfactor=70"), "\(fresh)")
        #expect(fresh.contains("autovacuum_vacuum_scale_factor=0.02"), "\(fresh)")
        #expect(fresh.hasSuffix("|0|4"), "\(fresh)")
        // As version 3 left it.
        try cluster.psql(
            """
            CREATE INDEX stage_run_status ON \(schema).stage_run (status);
            ALTER TABLE \(schema).stage_run RESET (fillfactor, autovacuum_vacuum_scale_factor,
                autovacuum_vacuum_threshold, autovacuum_vacuum_insert_scale_factor, autovacuum_analyze_scale_factor,
                autovacuum_vacuum_cost_delay);
            ALTER TABLE \(schema).stage_run SET (fillfactor = 80);
            ALTER TABLE \(schema).document RESET (autovacuum_vacuum_scale_factor, autovacuum_vacuum_threshold,
                autovacuum_vacuum_insert_scale_factor, autovacuum_analyze_scale_factor, autovacuum_vacuum_cost_delay);
            UPDATE \(schema).larder_meta SET value = '3' WHERE key = 'schema_version'
            """)
        let old = try settings()
        #expect(old.contains("stage_run:fillfactor=80|1|3"), "\(old)")
        let upgraded = try open(url)
        #expect(try settings() == fresh)
        #expect(try upgraded.stages(of: 1).map(\.stage) == ["detect"])
    }

    @Test func documentBytesAreStoredOnceByHash() throws {
        let store = try open(try cluster().url())
        let bytes: [UInt8] = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try store.storeBytes(bytes, sha256: "abc")
        try store.storeBytes([1, 2, 3], sha256: "abc")  // the same hash: kept as first stored
        #expect(try store.bytes(sha256: "abc") == bytes)
        #expect(try store.bytes(sha256: "missing") == nil)
    }
}
