import Foundation
import Testing
@testable import LarderIngredients

/// Accuracy regression test over the labelled development data in `shared/data/ingredients`.
///
/// The data folder is found through the environment variable `LARDER_SHARED_DATA` (pointing at the folder
/// that holds the CSV files), or by walking up from this file until a directory containing
/// `shared/data/ingredients` is found. When neither exists the test prints a message and returns.
@Suite("Ingredient accuracy")
struct IngredientAccuracyTests {
    static func dataFolder() -> String? {
        let fm = FileManager.default
        if let env = ProcessInfo.processInfo.environment["LARDER_SHARED_DATA"], !env.isEmpty {
            var isDir: ObjCBool = false
            if fm.fileExists(atPath: env, isDirectory: &isDir), isDir.boolValue { return env }
        }
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent("shared/data/ingredients").path
            var isDir: ObjCBool = false
            if fm.fileExists(atPath: candidate, isDirectory: &isDir), isDir.boolValue { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }

    static func csvFiles(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".csv") }.sorted().map { folder + "/" + $0 }
    }

    /// Floors set just below the figures measured over all rows of the three files
    /// (see the report in the package README). The test evaluates every row; a debug build takes a few
    /// seconds.
    @Test func accuracyFloors() throws {
        guard let folder = Self.dataFolder() else {
            print("IngredientAccuracyTests: skipped — no shared/data/ingredients folder found (set LARDER_SHARED_DATA)")
            return
        }
        let files = Self.csvFiles(in: folder)
        guard !files.isEmpty else {
            print("IngredientAccuracyTests: skipped — no CSV files in \(folder)")
            return
        }
        let report = try IngredientEvaluation.evaluate(files: files)
        print(IngredientEvaluation.textReport(report))
        let s = report.overall
        #expect(s.count >= 36_000)
        #expect(s.quantity >= Floors.quantity)
        #expect(s.unit >= Floors.unit)
        #expect(s.name >= Floors.name)
        #expect(s.preparation >= Floors.preparation)
        #expect(s.comment >= Floors.comment)
        #expect(s.core >= Floors.core)
        #expect(s.sentence >= Floors.sentence)
    }

    enum Floors {
        // measured over all 36,320 rows: quantity 0.9878, unit 0.9833, name 0.9534, preparation 0.9633,
        // comment 0.9551, core 0.9455, sentence 0.9288
        static let quantity = 0.985
        static let unit = 0.980
        static let name = 0.950
        static let preparation = 0.960
        static let comment = 0.952
        static let core = 0.942
        static let sentence = 0.925
    }
}
