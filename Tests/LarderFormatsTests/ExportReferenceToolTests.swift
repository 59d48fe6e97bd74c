import Foundation
import LarderArchives
import LarderRecipes
import LarderTestSupport
import Testing

@testable import LarderFormats

enum Pip {
    static let available: Bool = (try? ExportReferenceToolTests.run("/usr/bin/env", ["python3", "-m", "pip", "--version"]).status) == 0
}

/// Larder's exports read by the formats' own tools: the official Cooklang parser (cooklang-rs, PyPI
/// `cooklang-bindings`) and `paprika-to-sqlite`, installed by the test into a throwaway virtualenv with
/// `scripts/dev/read-exports.py`. Skipped, with the reason, where `python3 -m pip` is unavailable.
@Suite(.slow, .integration, .sharedData("recipe-app-exports/README.md"), .enabled(if: Pip.available, "python3 -m pip is unavailable"))
struct ExportReferenceToolTests {
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func collapsed(_ s: String) -> String { s.split(whereSeparator: \.isWhitespace).joined(separator: " ") }

    @Test func theOfficialToolsReadLardersExports() throws {
        let recipes = try SharedRecipes.all() + ["[MH] Pasta Carbonara", ".hidden", "Bell\u{7}"].map { ExportWriterTests.make($0) }
        let dir = try ArchiveLimitTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/cook", withIntermediateDirectories: true)
        var entries: [(path: String, data: Data)] = []
        for (i, r) in recipes.enumerated() {
            try Data(CooklangWriter.text(r).utf8).write(to: URL(fileURLWithPath: dir + "/cook/" + String(format: "%04d.cook", i)))
            // The three made here carry a photo, as a recipe with one is exported.
            var r = r
            let photo = i >= recipes.count - 3 ? RecipePhotoTests.jpeg : nil
            if let photo { r.photo = RecipePhoto(sha256: String(repeating: "0", count: 64), mediaType: "image/jpeg", bytes: photo.count) }
            entries.append((String(format: "%04d ", i) + PaprikaWriter.entryName(r, index: 0), Archives.gzip(try PaprikaWriter.json(r, index: i, photo: photo))))
        }
        try ZipWriter.write(entries, to: dir + "/all.paprikarecipes")

        let venv = dir + "/venv"
        let made = try Self.run("/usr/bin/env", ["python3", "-m", "venv", venv])
        try #require(made.status == 0, "python3 -m venv: \(made.output)")
        let pip = try Self.run(venv + "/bin/pip", ["install", "-q", "--disable-pip-version-check", "cooklang-bindings", "paprika-to-sqlite"])
        try #require(pip.status == 0, "pip install: \(pip.output)")
        let read = try Self.run(venv + "/bin/python", [Repository.path("scripts/dev/read-exports.py"), dir + "/cook", dir + "/all.paprikarecipes", dir + "/read.json"])
        try #require(read.status == 0, "read-exports.py: \(read.output)")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/read.json"))) as? [String: Any])

        // Paprika: every entry a row, every uid distinct.
        let paprika = try #require(result["paprika"] as? [String: Any])
        #expect(paprika["returncode"] as? Int == 0, "\(paprika["output"] ?? "")")
        #expect(paprika["rows"] as? Int == recipes.count && paprika["uids"] as? Int == recipes.count, "\(paprika)")
        if let photos = paprika["photos"] as? Int { #expect(photos == 3, "paprika-to-sqlite kept \(photos) photos of 3") }

        // Cooklang: every file parses; ingredients (name, quantity, unit) and steps as Larder wrote them.
        let cook = try #require(result["cooklang"] as? [String: [String: Any]])
        var failed: [String] = [], lines = 0, sameLines = 0, steps = 0, sameSteps = 0, misses: [String] = []
        for (i, r) in recipes.enumerated() {
            let file = String(format: "%04d.cook", i)
            guard let read = cook[file], read["error"] == nil else { failed.append("\(file) \(r.title): \(cook[file]?["error"] ?? "missing")"); continue }
            let got = read["ingredients"] as? [[Any]] ?? []
            let want = r.allIngredients.map(CooklangWriter.parts)
            lines += want.count
            for (k, w) in want.enumerated() {
                guard k < got.count else { break }
                let name = got[k][0] as? String ?? "", unit = got[k][2] as? String ?? ""
                let quantityMatches: Bool
                switch CooklangReader.quantity(w.quantity) {
                case .none: quantityMatches = got[k][1] is NSNull
                case .number(let v): quantityMatches = (got[k][1] as? Double).map { abs($0 - v) < 1e-3 } ?? false
                case .text: quantityMatches = !(got[k][1] is NSNull)
                }
                if name == Self.collapsed(w.name) && unit == w.unit && quantityMatches { sameLines += 1 } else if misses.count < 12 {
                    misses.append("\(w) → \(got[k])")
                }
            }
            let official = (read["steps"] as? [String] ?? []).map(Self.collapsed)
            let mine = r.steps.map { Self.collapsed($0.text) }
            steps += mine.count
            sameSteps += mine.count - official.difference(from: mine).removals.count
            if official != mine, misses.count < 12 { misses.append("steps of \(r.title): \(official.difference(from: mine).removals.prefix(1))") }
        }
        #expect(failed.isEmpty, "\(failed.count) of \(recipes.count) files not read: \(failed.prefix(5))")
        #expect(Double(sameLines) >= 0.97 * Double(lines), "ingredients \(sameLines)/\(lines): \(misses)")
        #expect(Double(sameSteps) >= 0.97 * Double(steps), "steps \(sameSteps)/\(steps): \(misses)")
        print("reference tools: cooklang files \(recipes.count - failed.count)/\(recipes.count), ingredients \(sameLines)/\(lines), steps \(sameSteps)/\(steps); paprika-to-sqlite rows \(paprika["rows"] ?? 0)/\(recipes.count), uids \(paprika["uids"] ?? 0), photos \(paprika["photos"] ?? "no column")/3")
    }
}
