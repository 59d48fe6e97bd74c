import Foundation
import LarderTestSupport
import Testing

@testable import LarderCore
@testable import LarderStages

/// `ocr.profile`: `accurate` (every re-read, the default) or `fast` (one reading). The key is read like every other
/// setting, changes the `ocr` stage's version (so a changed profile re-runs OCR and never reuses the other profile's
/// cache entries), and reaches the engine the stage uses.
@Suite("ocr.profile")
struct OCRProfileTests {
    @Test func readsTheProfile() throws {
        let accurate = try PipelineConfig.parse(yaml: "ocr:\n  profile: accurate\n")
        #expect(accurate == PipelineConfig())
        #expect(accurate.ocr.fingerprint == nil)
        let fast = try PipelineConfig.parse(yaml: "ocr:\n  profile: fast\n")
        #expect(fast.ocr.profile == .fast)
        #expect(fast.ocr.effectivePhotoPass == .never)
        #expect(fast.ocr.fingerprint == "eng-fast")
        let german = try PipelineConfig.parse(yaml: "ocr:\n  languages: eng+deu\n  profile: fast\n  photo_pass: never\n")
        #expect(german.ocr.fingerprint == "eng+deu-fast")
        let ocr = StandardStage.ocr
        #expect(ocr.declaration(for: fast).version != ocr.declaration(for: PipelineConfig()).version)
        #expect(ocr.declaration(for: fast).version != ocr.declaration(for: german).version)
    }

    @Test func badProfileNamesTheKeyAndLine() {
        let error = #expect(throws: LarderError.self) {
            try PipelineConfig.parse(yaml: "workers: 1\nocr:\n  profile: quick\n", path: "p.yml")
        }
        #expect(error?.kind == .configuration && error?.line == 3)
        #expect(error?.message.contains("ocr.profile") == true && error?.message.contains("quick") == true)
    }

    @Test func aPhotoPassBesideTheFastProfileIsAnError() {
        // The fast profile reads each image once: a photo pass asked for beside it would be dropped silently.
        for pass in ["when_unsure", "always"] {
            let error = #expect(throws: LarderError.self) {
                try PipelineConfig.parse(yaml: "ocr:\n  photo_pass: \(pass)\n  profile: fast\n", path: "p.yml")
            }
            #expect(error?.line == 2 && error?.message.contains("ocr.photo_pass") == true, "\(pass)")
        }
    }

    /// The sample receipts through the real pipeline under each profile: the fast one runs none of the re-reads
    /// (its CPU step list has no price-cell, date-line, total or logo-band entry, and no photo reading), the accurate
    /// one runs the re-reads' gates on every receipt.
    @Test(.integration, .slow) func theFastProfileReachesTheEngine() throws {
        let accurate = try steps(PipelineConfig())
        var config = PipelineConfig()
        config.ocr.profile = .fast
        let fast = try steps(config)
        #expect(accurate.count == 3 && fast.count == 3)
        for (path, steps) in accurate {
            let costs = steps.first { $0.hasPrefix("cpu-ms(") } ?? ""
            #expect(costs.hasPrefix("cpu-ms(") && costs.contains("price-cells") && costs.contains("logo-band"), "\(path): \(steps)")
        }
        for (path, steps) in fast {
            let costs = steps.first { $0.hasPrefix("cpu-ms(") } ?? ""
            #expect(costs.hasPrefix("cpu-ms("), "\(path): \(steps)")
            for rereads in ["price-cells", "date-line", "total-line", "logo-band", "photo", "paper"] {
                #expect(!costs.contains(rereads), "\(path): \(steps)")
            }
            #expect(!steps.contains { $0.hasPrefix("reread") || $0.hasPrefix("photo") }, "\(path): \(steps)")
        }
    }

    /// The `ocr` stage's steps of each sample receipt, by path, ingested under `config`.
    private func steps(_ config: PipelineConfig) throws -> [String: [String]] {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        let store = try SQLiteCheckpointStore(path: folder + "/db.sqlite")
        _ = try Intake(store: store, manifest: .standard(for: config), config: config).ingest(
            paths: [TestSupport.repoPath("samples/receipts")], batchID: store.beginBatch(command: "t", inputs: []))
        try WorkQueue(store: store, pipeline: try .standard(for: config), config: config, logger: TestSupport.logger).run()
        var found: [String: [String]] = [:]
        var id: Int64 = 1
        while let document = try store.document(id: id) {
            id += 1
            guard let stage = try store.stages(of: document.id).first(where: { $0.stage == "ocr" }), let text = stage.output else {
                continue
            }
            #expect(stage.version == StandardStage.ocr.declaration(for: config).version)
            found[document.path] = try JSONDecoder().decode(OCRStageOutput.self, from: Data(text.utf8)).steps
        }
        return found
    }
}
