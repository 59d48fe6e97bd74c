import Foundation
import Testing

@testable import LarderCore

/// A Nextcloud Cookbook data folder (`Recipes/<name>/recipe.json` + `full.jpg`/`thumb.jpg`/`thumb16.jpg`): the
/// photos are the recipe's, never documents of their own (issue 33); a photo elsewhere still is one.
@Suite struct NextcloudFolderIntakeTests {
    @Test func photosBesideARecipeJSONAreNotWalked() throws {
        let root = NSTemporaryDirectory() + "larder-nextcloud-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        for path in ["Recipes/Quiche/recipe.json", "Recipes/Quiche/full.jpg", "Recipes/Quiche/thumb.jpg", "Recipes/Quiche/thumb16.jpg", "receipts/full.jpg"] {
            let file = root + "/" + path
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        }
        var walker = Walker(maxFileBytes: 1 << 20)
        var found: [String] = []
        try walker.walk(root) { event in
            if case .file(let file) = event { found.append(String(file.path.dropFirst(root.count + 1))) }
        }
        #expect(found.sorted() == ["Recipes/Quiche/recipe.json", "receipts/full.jpg"])
    }
}
