import Foundation
import LarderRecipes
import Testing

@testable import LarderFormats

/// Recipe photos in app exports (issue 33): which image is whose, a Paprika entry's embedded photo taken out of its
/// text, and the writers carrying a photo back (Paprika `photo_data`, schema.org `image`).
@Suite struct RecipePhotoTests {
    /// Image-like bytes: the format's signature, then seeded noise.
    static func image(_ signature: [UInt8], seed: UInt64, count: Int = 600) -> Data {
        var state = seed
        var bytes = signature
        while bytes.count < count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes.append(UInt8(truncatingIfNeeded: state >> 33))
        }
        return Data(bytes)
    }

    static let jpeg = image([0xFF, 0xD8, 0xFF, 0xE0], seed: 1)
    static let png = image([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], seed: 2)

    @Test func mediaTypesAreReadFromTheBytes() {
        #expect(RecipePhoto.mediaType(of: Self.jpeg) == "image/jpeg")
        #expect(RecipePhoto.mediaType(of: Self.png) == "image/png")
        #expect(RecipePhoto.mediaType(of: Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == "image/webp")
        #expect(RecipePhoto.mediaType(of: Data("GIF89a....".utf8)) == "image/gif")
        #expect(RecipePhoto.mediaType(of: Data("{\"name\": \"x\"}".utf8)) == nil)
    }

    @Test func eachAppsLayoutFindsItsRecipesPhoto() {
        func match(_ member: String, _ recipes: [String], _ images: [String], field: String? = nil) -> String? {
            RecipePhotos.match(recipeMember: member, recipeMembers: Set(recipes), images: images.map { [$0] }, imageField: field)
                .map { images[$0] }
        }
        // Paprika: embedded in the entry (the image's member is the entry's).
        #expect(match("Exports/Soup.paprikarecipe", ["Exports/Soup.paprikarecipe"], ["Exports/Soup.paprikarecipe"]) == "Exports/Soup.paprikarecipe")
        // Nextcloud: full.jpg beside recipe.json, before the thumbnails.
        let nextcloud = ["Recipes/Quiche/thumb16.jpg", "Recipes/Quiche/thumb.jpg", "Recipes/Quiche/full.jpg", "Recipes/Stew/thumb.jpg"]
        #expect(match("Recipes/Quiche/recipe.json", ["Recipes/Quiche/recipe.json", "Recipes/Stew/recipe.json"], nextcloud) == "Recipes/Quiche/full.jpg")
        #expect(RecipePhotos.isThumbnail("Recipes/Quiche/thumb16.jpg") && !RecipePhotos.isThumbnail("Recipes/Quiche/full.jpg"))
        // Mealie: the recipe's folder's images/original.webp; older backups images/<slug>.jpg.
        #expect(match("recipes/soup/soup.json", ["recipes/soup/soup.json"], ["recipes/soup/images/cover.webp", "recipes/soup/images/original.webp"]) == "recipes/soup/images/original.webp")
        #expect(match("recipes/soup.json", ["recipes/soup.json", "recipes/stew.json"], ["recipes/images/stew.jpg", "recipes/images/soup.jpg"]) == "recipes/images/soup.jpg")
        // Cooklang: the image under the recipe file's name; another recipe's is not it.
        #expect(match("Pasta.cook", ["Pasta.cook", "Salad.cook"], ["Salad.jpg", "Pasta.JPG"]) == "Pasta.JPG")
        #expect(match("Soup.cook", ["Pasta.cook", "Soup.cook"], ["Pasta.jpg"]) == nil)
        // A folder of several recipes: its one "cover" is nobody's.
        #expect(match("a.json", ["a.json", "b.json"], ["cover.jpg"]) == nil)
        // Chowdown: the front matter's image: names the file.
        #expect(match("_recipes/pie.md", ["_recipes/pie.md", "_recipes/tart.md"], ["images/apple-pie.jpg"], field: "apple-pie.jpg") == "images/apple-pie.jpg")
    }

    @Test func aPaprikaEntrysPhotoIsTakenOutOfItsText() throws {
        let entry: [String: Any] = [
            "name": "Soup", "ingredients": "1 onion", "directions": "Cook.", "photo_data": Self.jpeg.base64EncodedString(),
            "photos": [["filename": "a.jpg", "data": Self.png.base64EncodedString()]],
        ]
        let split = try #require(RecipePhotos.paprikaPhoto(in: try JSONSerialization.data(withJSONObject: entry)))
        #expect(split.photo == Self.jpeg)
        let text = String(decoding: split.entry, as: UTF8.self)
        #expect(!text.contains(String(Self.jpeg.base64EncodedString().prefix(24))) && !text.contains(String(Self.png.base64EncodedString().prefix(24))))
        let back = try #require(JSONApps.object(split.entry))
        #expect(JSONApps.paprika(back).title == "Soup")
        // Without photo_data, the first of `photos`; with none, nothing to take.
        let second: [String: Any] = ["name": "Stew", "ingredients": "", "directions": "", "photos": [["data": Self.png.base64EncodedString()]]]
        #expect(RecipePhotos.paprikaPhoto(in: try JSONSerialization.data(withJSONObject: second))?.photo == Self.png)
        let none: [String: Any] = ["name": "Tea", "ingredients": "", "directions": "", "photo_data": NSNull()]
        #expect(RecipePhotos.paprikaPhoto(in: try JSONSerialization.data(withJSONObject: none)) == nil)
    }

    @Test func theWritersCarryThePhoto() throws {
        var r = ExportWriterTests.make("Soup")
        r.photo = RecipePhoto(sha256: String(repeating: "ab", count: 32), mediaType: "image/jpeg", bytes: Self.jpeg.count)
        let paprika = PaprikaWriter.object(r, photo: Self.jpeg)
        #expect(paprika["photo_data"] as? String == Self.jpeg.base64EncodedString())
        #expect(paprika["photo_hash"] as? String == String(repeating: "AB", count: 32))
        #expect((paprika["photo"] as? String)?.hasSuffix(".jpg") == true)
        #expect(PaprikaWriter.object(r)["photo_data"] is NSNull)
        // schema.org: a web address wins; else the photo inline as a data: URL, which the reader takes out again.
        let inline = try SchemaOrgWriter.json(r, photo: Self.jpeg)
        #expect((SchemaOrgWriter.object(r, photo: Self.jpeg)["image"] as? String)?.hasPrefix("data:image/jpeg;base64,") == true)
        let split = try #require(RecipePhotos.dataURIPhoto(in: inline))
        #expect(split.photo == Self.jpeg)
        #expect(!String(decoding: split.entry, as: UTF8.self).contains("data:image"))
        #expect(RecipeDraft.schemaOrg(json: String(decoding: inline, as: UTF8.self))?.first?.image == nil)
        r.image = "https://example.org/soup.jpg"
        #expect(SchemaOrgWriter.object(r, photo: Self.jpeg)["image"] as? String == "https://example.org/soup.jpg")
    }
}
