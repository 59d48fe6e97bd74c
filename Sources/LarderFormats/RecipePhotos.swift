import Foundation
import LarderRecipes

/// Recipe photos in app exports: which image belongs to which recipe, and the photo a Paprika entry embeds.
///
/// Where exports keep them: Paprika in each entry (`photo_data`, base64, else the first of `photos`); Nextcloud
/// Cookbook beside each `recipe.json` (`full.jpg`, `thumb.jpg`, `thumb16.jpg`); Tandoor's zip-in-zip beside each
/// `recipe.json` (`image.jpg`/`.png`); Mealie in the recipe's folder (`recipes/<slug>/images/original.webp`, older
/// backups `images/<slug>.jpg`); Cooklang beside the recipe file under the same name (`Pasta.cook`, `Pasta.jpg`);
/// Chowdown's front matter names its `image:` file.
public enum RecipePhotos {
    /// The file names (without extension, lower case) a folder's photo of its one recipe goes by, best first.
    static let folderPhotoStems = ["full", "original", "image", "cover", "photo"]

    /// The smaller copies apps keep beside a photo (Nextcloud's `thumb.jpg`/`thumb16.jpg`, Mealie's
    /// `min-original.webp`/`tiny-original.webp`): not kept, the photo is.
    public static func isThumbnail(_ path: String) -> Bool {
        let (_, stem) = split(path)
        return ["thumb", "thumb16", "min-original", "tiny-original"].contains(stem)
    }

    /// Image file extensions a photo beside a recipe may have.
    public static let extensions: Set<String> = ["jpg", "jpeg", "png", "webp", "gif"]

    /// The image that belongs to the recipe read from `member`, as an index into `images` (each the list of members
    /// holding those bytes), or `nil`. In order: the photo the entry itself embedded (the same member); an image
    /// beside it under its name (`Pasta.cook` → `Pasta.jpg`) or named after it (`images/<stem>.jpg`); the folder's
    /// photo (`full.jpg`, `original.webp`, `image.png`…, in that order, in its folder or an `images/` folder below)
    /// when that folder holds no other recipe; the file the recipe's own `image` field names.
    public static func match(
        recipeMember member: String, recipeMembers: Set<String>, images: [[String]], imageField: String?
    ) -> Int? {
        if let i = images.firstIndex(where: { $0.contains(member) }) { return i }
        let (folder, stem) = split(member)
        let candidates = images.enumerated().flatMap { i, members in members.map { (i, split($0)) } }
        if let hit = candidates.first(where: {
            ($0.1.folder == folder || $0.1.folder == join(folder, "images")) && $0.1.stem == stem.lowercased()
        }) {
            return hit.0
        }
        let recipesHere = recipeMembers.filter { split($0).folder == folder }.count
        if recipesHere <= 1 {
            for name in folderPhotoStems {
                if let hit = candidates.first(where: {
                    ($0.1.folder == folder || $0.1.folder == join(folder, "images")) && $0.1.stem == name
                }) {
                    return hit.0
                }
            }
        }
        if let field = imageField, !field.hasPrefix("http"), !field.isEmpty {
            let file = field.split(separator: "/").last.map(String.init)?.lowercased()
            if let hit = images.firstIndex(where: { $0.contains { $0.split(separator: "/").last.map(String.init)?.lowercased() == file } }) {
                return hit
            }
        }
        return nil
    }

    /// "a/b/Pasta.cook" → ("a/b", "pasta"); the stem lower-cased only for image names (see `match`).
    static func split(_ path: String) -> (folder: String, stem: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        let folder = parts.dropLast().joined(separator: "/")
        let name = String(parts.last ?? "")
        let ext = (name as NSString).pathExtension.lowercased()
        let stem = extensions.contains(ext) ? (name as NSString).deletingPathExtension.lowercased() : (name as NSString).deletingPathExtension
        return (folder, stem)
    }

    static func join(_ folder: String, _ name: String) -> String { folder.isEmpty ? name : folder + "/" + name }

    /// A Paprika entry's photo taken out of its JSON: the entry without the photo's base64 (`photo_data`, and each
    /// of `photos`' `data`, set to null, so the text kept is the recipe's), and the photo's bytes (`photo_data`,
    /// else the first of `photos`). `nil` when the data is not a Paprika entry or carries no photo.
    public static func paprikaPhoto(in data: Data) -> (entry: Data, photo: Data)? {
        guard data.range(of: Data("photo".utf8)) != nil, var object = JSONApps.object(data), JSONApps.isPaprika(object)
        else { return nil }
        func decoded(_ value: Any?) -> Data? {
            guard let text = value as? String, !text.isEmpty,
                let bytes = Data(base64Encoded: text, options: .ignoreUnknownCharacters), !bytes.isEmpty
            else { return nil }
            return bytes
        }
        var photo = decoded(object["photo_data"])
        if object["photo_data"] is String { object["photo_data"] = NSNull() }
        if var photos = object["photos"] as? [[String: Any]] {
            for i in photos.indices where photos[i]["data"] is String {
                photo = photo ?? decoded(photos[i]["data"])
                photos[i]["data"] = NSNull()
            }
            object["photos"] = photos
        }
        guard let photo, RecipePhoto.mediaType(of: photo) != nil,
            let entry = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return nil }
        return (entry, photo)
    }

    /// A schema.org recipe's photo inlined as a `data:image/…;base64,…` URL in its `image` (as Larder's schema.org
    /// export writes a photo that has no web address): the JSON with that `image` removed, and the photo's bytes.
    /// `nil` when there is none.
    public static func dataURIPhoto(in data: Data) -> (entry: Data, photo: Data)? {
        guard data.range(of: Data("data:image/".utf8)) != nil,
            let root = try? JSONSerialization.jsonObject(with: data)
        else { return nil }
        var photo: Data?
        func bytes(_ value: Any?) -> Data? {
            if let s = value as? String, s.hasPrefix("data:image/"), let comma = s.firstIndex(of: ","),
                s[..<comma].hasSuffix(";base64"),
                let d = Data(base64Encoded: String(s[s.index(after: comma)...]), options: .ignoreUnknownCharacters),
                RecipePhoto.mediaType(of: d) != nil
            {
                return d
            }
            if let list = value as? [Any] { return list.lazy.compactMap { bytes($0) }.first }
            if let o = value as? [String: Any] { return bytes(o["contentUrl"]) ?? bytes(o["url"]) }
            return nil
        }
        func strip(_ value: Any) -> Any {
            if var o = value as? [String: Any] {
                if let found = bytes(o["image"]) {
                    photo = photo ?? found
                    o["image"] = nil
                }
                for (k, v) in o { o[k] = strip(v) }
                return o
            }
            if let list = value as? [Any] { return list.map(strip) }
            return value
        }
        let stripped = strip(root)
        guard let photo,
            let entry = try? JSONSerialization.data(withJSONObject: stripped, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return nil }
        return (entry, photo)
    }
}
