import Foundation
import LarderCore
import LarderFormats
import LarderRecipes

/// The photos `extract` keeps from a recipe app's export (``ExtractOutput/images``): each image once by its SHA-256,
/// under the limit each text member has (`limits.max_text_bytes`), and in all a quarter of
/// `limits.max_stage_output_bytes` (counted as the base64 that is stored) — a budget of their own, so photos never
/// crowd out the recipes' text, which has half.
struct PhotoCollector {
    let limits: PipelineConfig.Limits
    private(set) var images: [ExtractedImage] = []
    private var index: [String: Int] = [:]
    private var kept = 0

    init(limits: PipelineConfig.Limits) { self.limits = limits }

    /// Keeps `data` (an image, by its signature) found at `member`; the same bytes found again add only the
    /// member. Returns the entry error when a limit refuses it.
    mutating func add(_ data: Data, member: String) -> String? {
        guard let mediaType = RecipePhoto.mediaType(of: data) else { return nil }
        let hash = SHA256.hex(data)
        if let i = index[hash] {
            images[i].members.append(member)
            return nil
        }
        let maxBytes = Int(clamping: limits.maxTextBytes)
        if data.count > maxBytes {
            return "\(member): a photo of \(data.count) bytes, over limits.max_text_bytes (\(maxBytes)): not kept"
        }
        let encoded = data.base64EncodedString()
        if kept + encoded.utf8.count > limits.maxStageOutputBytes / 4 {
            return "\(member): the photos passed a quarter of limits.max_stage_output_bytes "
                + "(\(limits.maxStageOutputBytes)): photo not kept, its recipe is"
        }
        kept += encoded.utf8.count
        index[hash] = images.count
        images.append(
            ExtractedImage(photo: RecipePhoto(sha256: hash, mediaType: mediaType, bytes: data.count), members: [member], data: encoded))
        return nil
    }

    /// The photo kept beside a single recipe file, as its app or Larder's exports put it: `full.jpg` beside a
    /// Nextcloud Cookbook `recipe.json`; the image under the file's own name beside a `.cook` file (`Pasta.cook` +
    /// `Pasta.jpg`, Cooklang's convention). `nil` when there is none, or it is not an image, or it is over
    /// `limits.max_text_bytes` (the recipe is read without it).
    static func photoBeside(recipeFile path: String, text: String, limits: PipelineConfig.Limits) -> [ExtractedImage]? {
        let url = URL(fileURLWithPath: path)
        let ext = url.pathExtension.lowercased()
        var folder = url.deletingLastPathComponent()
        let stem = url.deletingPathExtension().lastPathComponent
        var names: [String]
        if url.lastPathComponent == "recipe.json" {
            names = ["full.jpg", "full.png"]
        } else if ext == "cook" {
            names = RecipePhotos.extensions.sorted().map { stem + "." + $0 }
        } else if ["md", "markdown"].contains(ext), ["_recipes", "_components"].contains(folder.lastPathComponent),
            let image = ChowdownReader.parse(text)?.image, !image.hasPrefix("http")
        {
            // A Chowdown site: `image: okra.jpg` is `images/okra.jpg` beside `_recipes/`.
            let file = image.split(separator: "/").last.map(String.init) ?? image
            guard !file.isEmpty, !file.hasPrefix(".") else { return nil }
            folder = folder.deletingLastPathComponent().appendingPathComponent("images")
            names = [file]
        } else {
            return nil
        }
        var collector = PhotoCollector(limits: limits)
        for name in names {
            let file = folder.appendingPathComponent(name).path
            guard let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int,
                size <= limits.maxTextBytes, let data = FileManager.default.contents(atPath: file)
            else { continue }
            _ = collector.add(data, member: folder.lastPathComponent == "images" ? "images/" + name : name)
            if !collector.images.isEmpty { return collector.images }
        }
        return nil
    }

    /// A single JSON file's photo inlined as a `data:` URL (``RecipePhotos/dataURIPhoto(in:)``): kept as an image
    /// under the file's name, and the page's text without it.
    static func takeInlinedPhoto(_ output: inout ExtractOutput, file path: String, limits: PipelineConfig.Limits) {
        guard output.pages.count == 1, let split = RecipePhotos.dataURIPhoto(in: Data(output.pages[0].text.utf8)) else { return }
        var collector = PhotoCollector(limits: limits)
        let name = URL(fileURLWithPath: path).lastPathComponent
        if let refused = collector.add(split.photo, member: name) {
            output.warnings = (output.warnings ?? []) + [refused]
            return
        }
        output.pages[0].text = TextNormalizer.normalize(String(decoding: split.entry, as: UTF8.self))
        output.images = (output.images ?? []) + collector.images
    }
}
