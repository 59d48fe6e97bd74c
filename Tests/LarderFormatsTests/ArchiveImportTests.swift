import Foundation
import LarderArchives
import LarderPages
import LarderRecipes
import LarderTestSupport
import Testing

@testable import LarderFormats

/// Reads a file (an archive or not) as the pipeline does: archive members into memory, then each member by content.
func importFile(_ path: String, limits: ArchiveLimits = .init()) throws -> RecipeImport.Outcome {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let name = (path as NSString).lastPathComponent
    guard Archives.format(of: data) != nil else { return RecipeImport.read([ExportMember(path: name, data: data)]) }
    let (members, errors) = try Archives.read(data, name: name, limits: limits)
    var outcome = RecipeImport.read(members.map { ExportMember(path: $0.path, data: $0.data) })
    outcome.errors += errors.map { EntryError(member: $0.member ?? name, message: $0.message) }
    return outcome
}

@Suite struct SharedExportTests {
    /// Every sample export with the number of recipes its README counts.
    static let expected: [(String, Int, AppFormat)] = [
        ("mealie/paprika.zip", 5, .paprika), ("mealie/nextcloud.zip", 3, .nextcloud), ("mealie/chowdown.zip", 2, .chowdown),
        ("mealie/mealie.zip", 3, .mealie), ("mealie/tandoor.zip", 1, .tandoor), ("mealie/plantoeat.zip", 2, .planToEat),
        ("mealie/myrecipebox.csv", 10, .myRecipeBox), ("gourmet/mealmaster.mmf", 5, .mealmaster),
        ("gourmet/mealmaster_2_col.mmf", 1, .mealmaster), ("gourmet/athenos.mx2", 100, .mastercookXML),
    ]

    @Test(.sharedData("recipe-app-exports/README.md"))
    func everySampleExportImportsItsRecipes() throws {
        for (file, count, format) in Self.expected {
            let outcome = try importFile(appExports! + "/" + file)
            #expect(outcome.recipes.count == count, "\(file): \(outcome.recipes.map(\.draft.title)) \(outcome.errors)")
            #expect(outcome.errors.isEmpty, "\(file): \(outcome.errors)")
            for r in outcome.recipes {
                #expect(r.format == format, "\(file) \(r.member)")
                #expect(!r.draft.title.isEmpty && !r.draft.ingredientLines.isEmpty, "\(file) \(r.member)")
                #expect(r.draft.member == r.member)
            }
        }
    }

    @Test(.sharedData("recipe-app-exports/README.md"))
    func paprikaNamesAreNFCAndJunkIsSkipped() throws {
        let outcome = try importFile(appExports! + "/mealie/paprika.zip")
        #expect(outcome.recipes.allSatisfy { $0.member.hasPrefix("My Recipes/") && $0.member.hasSuffix(".paprikarecipe") })
        #expect(outcome.recipes.contains { $0.member.contains("Hähnchen") })
        #expect(outcome.recipes.allSatisfy { $0.member == $0.member.precomposedStringWithCanonicalMapping })
        #expect(outcome.skipped.contains { $0.hasPrefix("__MACOSX/") })
        // Titles are trimmed ("name" values ending in "\n").
        #expect(outcome.recipes.allSatisfy { $0.draft.title == $0.draft.title.trimmingCharacters(in: .whitespacesAndNewlines) })
    }

    @Test(.sharedData("recipe-app-exports/README.md"))
    func tandoorMembersNameTheNestedArchive() throws {
        let outcome = try importFile(appExports! + "/mealie/tandoor.zip")
        #expect(outcome.recipes.map(\.member) == ["1.zip/recipe.json"])
        #expect(outcome.recipes.first?.draft.title == "“Texas Red” Chili")
    }

    @Test(.sharedData("recipe-app-exports/README.md"))
    func copyMeThatReadThroughHTMLExports() throws {
        // Without libxml2 (LarderFormats alone) the HTML file is an honest per-entry error…
        let raw = try importFile(appExports! + "/mealie/copymethat.zip")
        #expect(raw.recipes.isEmpty)
        #expect(raw.errors.map(\.member) == ["recipes.html"])
        // …and read as schema.org once LarderPages has turned it into JSON-LD, as `extract` does.
        let data = try Data(contentsOf: URL(fileURLWithPath: appExports! + "/mealie/copymethat.zip"))
        let (members, _) = try Archives.read(data, name: "copymethat.zip")
        let converted = members.map { m in
            ExportMember(path: m.path, data: HTMLExports.isHTML(m.path) ? HTMLExports.schemaOrgJSON(m.data) ?? m.data : m.data)
        }
        let outcome = RecipeImport.read(converted)
        #expect(outcome.recipes.count == 3, "\(outcome.errors)")
        #expect(outcome.recipes.allSatisfy { $0.member == "recipes.html" && !$0.draft.ingredientLines.isEmpty && !$0.draft.steps.isEmpty })
        #expect(outcome.recipes.allSatisfy { $0.draft.url?.hasPrefix("https://") == true })
    }

    @Test(.sharedData("recipe-app-exports/README.md"))
    func myRecipeBoxShiftedRowsKeepTheirURL() throws {
        let outcome = try importFile(appExports! + "/mealie/myrecipebox.csv")
        let apple = try #require(outcome.recipes.first { $0.draft.title == "Apple Spinach Salad" })
        #expect(apple.draft.url?.hasPrefix("https://www.gimmesomeoven.com/") == true)
        #expect(apple.draft.image?.contains("wp-content/uploads") == true)
    }
}

@Suite struct ArchiveLimitTests {
    static func tempDir() throws -> String {
        let dir = NSTemporaryDirectory() + "larder-formats-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    static let cook = Data("---\ntitle: Toast\n---\nToast the @bread{2%slices} for ~{3%minutes}.\n\nSpread the @butter{1%tbsp}.\n".utf8)

    @Test func aZipBombEntryIsAnErrorAndTheOtherEntriesImport() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/bomb.zip"
        try ZipWriter.write([("bomb.txt", Data(count: 4 << 20)), ("toast.cook", Self.cook)], to: path)
        let outcome = try importFile(path)
        #expect(outcome.recipes.map(\.draft.title) == ["Toast"])
        #expect(outcome.errors.count == 1)
        #expect(outcome.errors.first?.member == "bomb.txt")
        #expect(outcome.errors.first?.message.contains("ZIP bomb") == true)
    }

    @Test func totalAndCountLimitsNameTheArchive() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/many.zip"
        try ZipWriter.write((0..<5).map { ("r\($0).cook", Self.cook) }, to: path)
        var limits = ArchiveLimits()
        limits.maxEntries = 3
        #expect(throws: ArchiveError.self) { try importFile(path, limits: limits) }
        limits = ArchiveLimits()
        limits.maxTotalBytes = UInt64(Self.cook.count * 2)
        let outcome = try importFile(path, limits: limits)
        #expect(outcome.recipes.count == 2)
        #expect(outcome.errors.count == 3)
    }

    @Test func dotDotPathsAreReportedAndNothingIsWritten() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/evil.zip"
        try ZipWriter.write([("../escaped.cook", Self.cook), ("ok.cook", Self.cook)], to: path)
        let outcome = try importFile(path)
        #expect(outcome.recipes.map(\.member) == ["ok.cook"])
        #expect(outcome.errors.first?.member == "../escaped.cook")
        #expect(!FileManager.default.fileExists(atPath: dir + "/../escaped.cook"))
    }

    @Test func gzipRoundTripsAndADamagedStreamFails() throws {
        let text = Data(String(repeating: "1 cup flour\n", count: 200).utf8)
        let packed = Archives.gzip(text)
        #expect(packed.starts(with: [0x1F, 0x8B]))
        #expect(try Archives.gunzip(packed, limit: 1 << 20) == text)
        #expect(throws: Archives.GzipError.self) { try Archives.gunzip(packed.prefix(packed.count / 2), limit: 1 << 20) }
        #expect(throws: Archives.GzipError.self) { try Archives.gunzip(packed, limit: 100) }
    }
}
