import Foundation
import LarderTestSupport
import Testing

@testable import LarderCore

/// Issue 36, "one safe way to write files": every export format writes through `SafeFile` (a unique temporary file
/// created with O_EXCL | O_NOFOLLOW, fsync, rename). Inputs are made by the tests.
@Suite("hostile: safe file writing")
struct SafeFileNameTests {
    @Test func namesAreCutOnACharacterBoundaryToTheFileSystemLimit() {
        let stem = String(repeating: "é", count: 200)  // 400 bytes
        let name = SafeFile.fileName(stem: stem, suffix: ".8ccd73f9e4aa.json")
        #expect(name.utf8.count <= 255)
        #expect(name.utf8.count >= 254, "cut no shorter than it must be: \(name.utf8.count)")
        #expect(name.hasSuffix(".8ccd73f9e4aa.json"))
        #expect(name.dropLast(18).allSatisfy { $0 == "é" }, "no half character left")
    }

    @Test func namesNeverStartWithADotNorHoldSeparatorsOrControls() {
        for (stem, expected) in [(".", "_"), ("..", "_."), (".hidden", "_hidden"), ("a/b\u{1B}[31m", "a_b_[31m"), ("", "document")] {
            #expect(SafeFile.fileName(stem: stem, suffix: ".json") == expected + ".json")
        }
        let escapedByte = FilePath.string(fromBytes: [0x63, 0x61, 0x66, 0xE9])
        #expect(SafeFile.fileName(stem: escapedByte, suffix: ".json") == "caf_.json")
    }

    @Test func uniqueNamesStayUniqueWhenCut() {
        var names = SafeFile.UniqueNames()
        let stem = String(repeating: "x", count: 300)
        let claimed = (0..<5).map { _ in names.claim(stem: stem, suffix: ".cook") }
        #expect(Set(claimed).count == 5)
        #expect(claimed.allSatisfy { $0.utf8.count <= 255 })
        #expect(claimed[1].hasSuffix("-2.cook"))
    }

    @Test func aPlantedSymlinkAtTheTargetIsReplacedNeverWrittenThrough() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let victim = folder + "/victim"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/out/a.json", withDestinationPath: victim)
        try SafeFile.write(Data("{}".utf8), to: folder + "/out/a.json")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        #expect(try FileManager.default.attributesOfItem(atPath: folder + "/out/a.json")[.type] as? FileAttributeType == .typeRegular)
        #expect(try String(contentsOfFile: folder + "/out/a.json", encoding: .utf8) == "{}")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/out") == ["a.json"], "no temporary left")
    }
}

/// The exports through the real `larder`, on a database ingested once from recipes the test writes.
@Suite("hostile: exports", .serialized, .integration)
struct HostileExportTests {
    static let formats = ["json", "schema-org", "cooklang", "paprika"]

    static func recipe(_ title: String) -> String {
        """
        \(title)

        Serves 4

        Ingredients
        - 200 g flour
        - 2 eggs
        - 300 ml milk

        Method
        1. Whisk the flour, eggs and milk into a smooth batter.
        2. Fry thin pancakes in a hot pan, a minute a side.
        """
    }

    /// A folder with a database ingested from three recipes, one of them under a 240-byte name.
    static func ingested() throws -> (folder: String, database: String, longStem: String) {
        let folder = try TestSupport.temporaryFolder()
        let input = folder + "/in"
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        let longStem = String(repeating: "é", count: 120)
        for (name, title) in [("pancakes", "Thin Pancakes"), ("crepes", "Crêpes"), (longStem, "Long Name Pancakes")] {
            try Data(recipe(title).utf8).write(to: URL(fileURLWithPath: input + "/" + name + ".txt"))
        }
        let database = folder + "/larder.db"
        let run = try TestSupport.larder(["ingest", "--db", database, input])
        #expect(run.status == 0, "\(run.stderr)")
        return (folder, database, longStem)
    }

    static func export(_ format: String, _ database: String, to out: String, prefix: String = "") throws -> TestSupport.Run {
        try TestSupport.shell(
            prefix + "'\(try TestSupport.larderExecutable)' export --format \(format) --db '\(database)' --out '\(out)'")
    }

    /// Finding 1: a symlink planted at every name an export writes (and at the old fixed `.part` names) is replaced,
    /// never written through, by every format; the victim keeps its bytes.
    @Test func noFormatWritesThroughAPlantedSymlink() throws {
        let (folder, database, _) = try Self.ingested()
        defer { TestSupport.cleanUp(folder) }
        for format in Self.formats {
            let clean = folder + "/clean-" + format
            let first = try Self.export(format, database, to: clean)
            #expect(first.status == 0, "\(format): \(first.stderr)")
            let names = try FileManager.default.contentsOfDirectory(atPath: clean)
            #expect(!names.isEmpty, "\(format) wrote nothing")
            let out = folder + "/out-" + format
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            var victims: [String] = []
            for (index, name) in names.enumerated() {
                for planted in [name, name + ".part"] where planted.utf8.count <= 255 {
                    let victim = folder + "/victim-\(format)-\(index)-\(planted.hasSuffix(".part") ? "p" : "f")"
                    try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
                    try FileManager.default.createSymbolicLink(atPath: out + "/" + planted, withDestinationPath: victim)
                    victims.append(victim)
                }
            }
            let run = try Self.export(format, database, to: out)
            #expect(run.status == 0, "\(format): \(run.stderr)")
            for victim in victims {
                #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious", "\(format) wrote through \(victim)")
            }
            for name in names {
                let type = try FileManager.default.attributesOfItem(atPath: out + "/" + name)[.type] as? FileAttributeType
                #expect(type == .typeRegular, "\(format): \(name) is still a symlink")
                #expect(FileManager.default.contents(atPath: out + "/" + name) == FileManager.default.contents(atPath: clean + "/" + name))
            }
        }
    }

    /// Re-probe of finding 1: a directory planted at every name an export writes is passed over, never a stop: every
    /// format writes all its files under the next free names, and the directories keep their contents.
    @Test func aDirectoryPlantedAtAnExportNameIsPassedOver() throws {
        let (folder, database, _) = try Self.ingested()
        defer { TestSupport.cleanUp(folder) }
        for format in Self.formats {
            let clean = folder + "/clean-" + format
            #expect(try Self.export(format, database, to: clean).status == 0)
            let names = try FileManager.default.contentsOfDirectory(atPath: clean)
            let out = folder + "/out-" + format
            for name in names {
                try FileManager.default.createDirectory(atPath: out + "/" + name, withIntermediateDirectories: true)
                try Data("kept".utf8).write(to: URL(fileURLWithPath: out + "/" + name + "/inside"))
            }
            let run = try Self.export(format, database, to: out)
            #expect(run.status == 0, "\(format): \(run.stderr)")
            let written = try FileManager.default.contentsOfDirectory(atPath: out).filter { !names.contains($0) }
            #expect(written.count == names.count, "\(format): \(written) beside \(names)")
            for name in names {
                #expect(FileManager.default.contents(atPath: out + "/" + name + "/inside") == Data("kept".utf8))
            }
        }
    }

    /// Finding 10: a 240-byte source name (120 × "é") is exported by every format, its name cut to 255 bytes.
    @Test func longNamesAreCutNotFatal() throws {
        let (folder, database, longStem) = try Self.ingested()
        defer { TestSupport.cleanUp(folder) }
        let run = try Self.export("json", database, to: folder + "/out")
        #expect(run.status == 0, "\(run.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/out")
        #expect(names.count == 3, "\(names)")
        #expect(names.allSatisfy { $0.utf8.count <= 255 && !$0.hasPrefix(".") })
        #expect(names.contains { $0.hasPrefix(String(longStem.prefix(100))) })
    }

    /// Finding 12: six exports of each format into one folder at once all succeed, and no temporary file is left.
    @Test func sixConcurrentExportsIntoOneFolderAllSucceed() throws {
        let (folder, database, _) = try Self.ingested()
        defer { TestSupport.cleanUp(folder) }
        for format in Self.formats {
            let out = folder + "/out-" + format
            let larder = try TestSupport.larderExecutable
            let started = try (0..<6).map { _ in
                try TestSupport.start(["export", "--format", format, "--db", database, "--out", out], executable: larder)
            }
            for run in started.map(TestSupport.finish) {
                #expect(run.status == 0, "\(format): \(run.stderr)")
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: out)
            #expect(!names.contains { $0.hasSuffix(".part") || $0.hasPrefix(".") }, "\(format): \(names)")
        }
    }

    /// Finding 15: a file-size limit is a clear error naming the file, never a signal, and leaves no temporary file.
    @Test func aFileSizeLimitIsAClearError() throws {
        let (folder, database, _) = try Self.ingested()
        defer { TestSupport.cleanUp(folder) }
        for format in Self.formats {
            let out = folder + "/small-" + format
            let run = try Self.export(format, database, to: out, prefix: "ulimit -f 1; ")
            let left = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
            #expect(!run.terminatedBySignal, "\(format): \(run.stderr)")
            if run.status == 0 {
                // Small enough for 1 KB (Cooklang, schema.org): every file whole.
                #expect(format != "json", "a result is over 1 KB")
                for name in left {
                    #expect((try FileManager.default.attributesOfItem(atPath: out + "/" + name)[.size] as? Int ?? 0) <= 1024)
                }
            } else {
                #expect(run.status == 3, "\(format): \(run.status) \(run.stderr)")
                #expect(run.stderr.contains("ulimit -f") && run.stderr.contains(out), "\(format): \(run.stderr)")
            }
            #expect(!left.contains { $0.hasSuffix(".part") }, "\(format): \(left)")
        }
    }

    /// Finding 11 (read-only part): a read-only folder is exit 2 with a message naming the file, Paprika included.
    /// Root ignores permissions, so as root the folder is a read-only tmpfs.
    @Test(.enabled(if: geteuid() != 0 || HardeningTests.canMountTmpfs, "root without CAP_SYS_ADMIN cannot make a read-only folder"))
    func aReadOnlyFolderIsAClearError() throws {
        let (folder, database, _) = try Self.ingested()
        defer { TestSupport.cleanUp(folder) }
        let readOnly = folder + "/read-only"
        try FileManager.default.createDirectory(atPath: readOnly, withIntermediateDirectories: true)
        let mounted = geteuid() == 0
        if mounted {
            let mount = try TestSupport.shell("mount -t tmpfs -o size=64k,ro larder-ro '\(readOnly)'")
            try #require(mount.status == 0, "\(mount.stderr)")
        } else {
            chmod(readOnly, 0o555)
        }
        defer { if mounted { _ = try? TestSupport.shell("umount '\(readOnly)'") } }
        for format in Self.formats {
            let run = try Self.export(format, database, to: readOnly)
            #expect(run.status == 2, "\(format): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("read-only") && run.stderr.contains(readOnly), "\(format): \(run.stderr)")
        }
    }
}
