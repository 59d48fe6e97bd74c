import Foundation
import LarderArchives
import LarderTestSupport
import Testing

@testable import LarderCore

/// Issue 36, findings 3–5: archives whose entries lie about their size, share one stream, or nest gigabytes of
/// leaves. Each ZIP is built by `scripts/data/make-hostile-zips.py` in a temporary folder (a few KB to 170 KB).
@Suite("hostile: archives", .serialized, .slow)
struct HostileArchiveTests {
    static func make(_ kind: String, in folder: String) throws -> String {
        let path = folder + "/\(kind).zip"
        let made = try TestSupport.shell(
            "/usr/bin/python3 '\(TestSupport.repoPath("scripts/data/make-hostile-zips.py"))' \(kind) '\(path)'")
        #expect(made.status == 0, "\(made.stderr)")
        return path
    }

    /// Finding 4: 2,000 entries sharing one stream are refused unread as a bomb's shape; the good member is read.
    @Test func entriesSharingOneStreamAreRefusedAndTheGoodMemberRead() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let data = try Data(contentsOf: URL(fileURLWithPath: try Self.make("lying", in: folder)))
        let started = Date()
        let (members, errors) = try Archives.read(data, name: "lying.zip", limits: .worker())
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(members.map(\.path) == ["good.cook"])
        #expect(errors.count == 2000)
        #expect(errors.allSatisfy { $0.message.contains("ZIP-bomb shape") }, "\(errors.first?.message ?? "")")
    }

    /// An entry that inflates past its declared size stops one byte past it, and is an error; the budget is
    /// charged with what was inflated.
    @Test func anEntryThatLiesAboutItsSizeStopsAtIt() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let data = try Data(contentsOf: URL(fileURLWithPath: try Self.make("liar", in: folder)))
        let (members, errors) = try Archives.read(data, name: "liar.zip", limits: .worker())
        #expect(members.map(\.path) == ["good.cook"])
        #expect(errors.count == 1 && errors[0].message.contains("past its declared size of 1000 bytes"), "\(errors)")
    }

    /// Findings 3 and 5: 4 GiB of nested leaves are inflated one at a time and charged to the 1 GiB budget; the
    /// member beside them is read.
    @Test func nestedLeavesAreChargedAndTheGoodMemberRead() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let data = try Data(contentsOf: URL(fileURLWithPath: try Self.make("nested", in: folder)))
        var seen = 0
        var good = false
        let errors = try Archives.forEachMember(data, name: "nested.zip", limits: .worker()) { member in
            seen += 1
            if member.path == "good.cook" { good = true }
        }
        #expect(good)
        #expect(seen <= 1 + 1024, "at most the 1 GiB budget of 1 MiB leaves: \(seen)")
        #expect(errors.contains { $0.message.contains("limit of 1073741824 bytes in all") }, "\(errors.prefix(3))")
    }
}

/// The same archives through `larder ingest`: each finishes in seconds, its good member is imported, and the
/// worker's peak resident memory stays under its 1 GiB limit.
@Suite("hostile: archives through the batch", .serialized, .integration, .slow)
struct HostileArchiveBatchTests {
    @Test func hostileArchivesAreOneDocumentEachWithTheirGoodMember() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        for kind in ["lying", "liar", "nested"] { _ = try HostileArchiveTests.make(kind, in: folder + "/in") }
        let database = folder + "/db.sqlite"
        let started = Date()
        // RUSAGE_CHILDREN of the wrapper: the largest of `larder` and the workers it waited for, in KB.
        let run = try TestSupport.shell(
            """
            /usr/bin/python3 -c 'import resource, subprocess, sys
            code = subprocess.run(sys.argv[1:]).returncode
            print("peak", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "status", code)' \
            '\(try TestSupport.larderExecutable)' ingest --db '\(database)' '\(folder)/in'
            """)
        let seconds = Date().timeIntervalSince(started)
        let words = run.stdout.split(separator: "\n").last?.split(separator: " ") ?? []
        let peakKB = words.count == 4 ? Int(words[1]) ?? 0 : 0
        #expect(words.last == "0", "\(run.stdout)\n\(run.stderr)")
        #expect(peakKB > 0 && peakKB < 1 << 20, "peak RSS \(peakKB) KB")
        #expect(seconds < 120, "\(seconds) s")
        let export = try TestSupport.larder(["export", "--db", database, "--out", folder + "/out"])
        #expect(export.status == 0, "\(export.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder + "/out")
        #expect(files.count == 3, "\(files)")
        for file in files {
            let text = try String(contentsOfFile: folder + "/out/" + file, encoding: .utf8)
            #expect(text.contains("Good Probe Soup"), "\(file) lost its good member")
        }
    }
}
