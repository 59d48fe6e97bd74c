import Foundation
import LarderCore
import LarderTestSupport
import Testing

/// Issue 36: a worker that passes `limits.worker_memory` under `larder serve` is one failed document with the memory
/// message, as under `larder ingest`: not a crash retried and quarantined as a crasher.
@Suite("hostile: larder serve at the worker memory limit", .serialized)
struct HostileServeTests {
    /// A 15 MB text recipe of plain ingredient and step lines: with the recipe-part limit raised, its parse passes
    /// 256 MiB of worker memory.
    static func bigRecipe() -> Data {
        var text = "Big Probe Stew\n\nServes 4\n\nIngredients\n"
        var line = 0
        while text.utf8.count < 7_500_000 {
            line += 1
            text += "\(line % 500 + 1) g flour number \(line), chopped\n"
        }
        text += "\nMethod\n"
        while text.utf8.count < 15_000_000 {
            line += 1
            text += "\(line). Stir the butter into the pan and cook for \(line % 60 + 1) minutes until golden.\n"
        }
        return Data(text.utf8)
    }

    /// The big recipe and a small one uploaded to a server whose worker has 256 MiB (`max_attempts: 1`, so a death
    /// counted as a crash would quarantine): the big one is `failed` on its first death, naming the limit and what to
    /// do; the small one is done; the log says the worker passed the limit, not that it crashed.
    @Test(.integration, .slow) func aDocumentPastTheWorkerMemoryLimitFailsNamingTheLimit() throws {
        let folder = try ServerProcess.temporaryFolder()
        try "max_attempts: 1\nlimits:\n  worker_memory: \(256 << 20)\n  max_stage_output_bytes: \(4 << 30)\n".write(
            toFile: folder + "/pipeline.yml", atomically: true, encoding: .utf8)
        let server = try ServerProcess(arguments: ["--config", folder + "/pipeline.yml"], folder: folder)
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: server.folder)
        }
        let (bigStatus, big) = try server.json(
            "POST", "/v1/documents?filename=stew.txt", headers: ["Content-Type": "text/plain"], body: Self.bigRecipe())
        #expect(bigStatus == 201, "\(big)")
        let bigID = try #require((big as? [String: Any])?["id"] as? Int)
        let (smallStatus, small) = try server.json(
            "POST", "/v1/documents?filename=soup.txt", headers: ["Content-Type": "text/plain"],
            body: try APITests.sample("recipes/red-lentil-soup.txt"))
        #expect(smallStatus == 201, "\(small)")
        let smallID = try #require((small as? [String: Any])?["id"] as? Int)

        #expect(try server.waitSettled(bigID, timeout: 600) == "failed", "\(server.log.suffix(3000))")
        #expect(try server.waitSettled(smallID, timeout: 600) == "done", "\(server.log.suffix(3000))")
        let (_, shown) = try server.json("GET", "/v1/documents/\(bigID)")
        let stages = (shown as? [String: Any])?["stages"] as? [[String: Any]] ?? []
        let failed = stages.first { $0["status"] as? String == "failed" }
        let error = failed?["error"] as? [String: Any] ?? [:]
        let message = (error["message"] as? String ?? "") + " " + (error["hint"] as? String ?? "")
        #expect(message.contains("ran out of memory on this document alone"), "\(shown)")
        #expect(message.contains("limits.worker_memory (256 MiB)") && message.contains("larder retry"), "\(message)")
        #expect(server.log.contains("passed limits.worker_memory"), "\(server.log.suffix(3000))")
        #expect(!server.log.contains("died of signal"), "a memory-limit death is not a crash\n\(server.log.suffix(3000))")
    }
}
