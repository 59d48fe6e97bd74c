import Foundation
import LarderFormats
import LarderJSON
import LarderRecipes

/// `larder export --format schema-org|cooklang|paprika`: the recipes of every exportable result (the version
/// ``Exporter`` would write) in a format other apps read. schema.org: one `<name>.json` JSON-LD file per recipe,
/// each validated against `schema-org-recipe.schema.json` (an invalid one is an error, not a file). Cooklang: one
/// `<name>.cook` per recipe. Paprika: one `recipes.paprikarecipes` (a ZIP of gzip JSON entries), made in memory by
/// the caller's `zip` (the ZIP and gzip code lives in `LarderArchives`, which links libzip and zlib). Every file is
/// written by ``SafeFile`` (a unique temporary file, never through a planted symlink, renamed into place).
public struct RecipeExport: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case schemaOrg = "schema-org", cooklang, paprika
    }

    public struct Report: Codable, Sendable, Equatable {
        public var format: String
        public var recipes = 0
        public var files: [String] = []
        /// Documents without an exportable result (failed, pending, rejected, invalid).
        public var skippedDocuments = 0
        /// The documents skipped because their result breaks its schema: `larder export` names them and exits 1.
        public var invalidResults: [Exporter.Invalid] = []
        public var directory: String
    }

    public let store: any CheckpointStore

    public init(store: any CheckpointStore) {
        self.store = store
    }

    /// Every exportable document's recipes, in document order.
    public func recipes() throws -> (recipes: [(document: DocumentRecord, recipe: Recipe)], skipped: Int) {
        let (recipes, skipped, _) = try recipesAndInvalid()
        return (recipes.map { ($0.document, $0.recipe) }, skipped)
    }

    /// Every exportable document's recipes, the count of documents skipped, and those skipped as invalid.
    /// Each recipe comes with the time its result was made (a Paprika entry's `created`, so exports are repeatable).
    func recipesAndInvalid() throws -> (
        recipes: [(document: DocumentRecord, recipe: Recipe, created: Date)], skipped: Int, invalid: [Exporter.Invalid]
    ) {
        let exporter = Exporter(store: store)
        var out: [(document: DocumentRecord, recipe: Recipe, created: Date)] = []
        var skipped = 0
        var invalid: [Exporter.Invalid] = []
        for state in DocumentState.allCases {
            try store.forEachDocument(in: state) { document in
                let exportable = try exporter.exportable(document.id)
                if case .invalid(let version) = exportable {
                    invalid.append(.init(documentID: document.id, path: document.path, violation: version.violations.first?.description ?? "?"))
                }
                guard case .version(let version) = exportable else { skipped += 1; return }
                let result = try JSONDecoder().decode(DocumentResult.self, from: Data(version.json.utf8))
                let created = Date(timeIntervalSince1970: version.createdAt)
                out += result.recipes.map { (document, $0, created) }
            }
        }
        return (out, skipped, invalid)
    }

    public func export(
        _ format: Format, to directory: String, gzip: (Data) -> Data,
        zip: ([(path: String, data: Data)]) throws -> Data
    ) throws -> Report {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw LarderError(.configuration, "cannot create the export folder", hint: "check --out", path: directory)
        }
        let (all, skipped, invalid) = try recipesAndInvalid()
        var report = Report(format: format.rawValue, skippedDocuments: skipped, invalidResults: invalid, directory: directory)
        var names = SafeFile.UniqueNames(in: directory)
        func uniqueName(_ r: Recipe, ext: String) -> String {
            names.claim(stem: Self.slug(r.title), suffix: "." + ext, fallback: "recipe")
        }
        var photos = PhotoStore(store: store)
        switch format {
        case .schemaOrg:
            let catalog = try SchemaCatalog.embedded.get()
            for (document, recipe, _) in all {
                let data = try SchemaOrgWriter.json(recipe, photo: try photos.bytes(of: recipe, in: document))
                let violations = try catalog.validate(json: String(decoding: data, as: UTF8.self), against: "schema-org-recipe.schema.json")
                if let first = violations.first {
                    throw LarderError(
                        .badInput, "the schema.org export of '\(recipe.title)' breaks schema-org-recipe.schema.json: \(SchemaViolation(first))",
                        hint: "fix the recipe with `larder review edit`, or report the bug", path: document.path)
                }
                try write(data, name: uniqueName(recipe, ext: "json"), in: directory, report: &report)
            }
        case .cooklang:
            for (document, recipe, _) in all {
                let name = uniqueName(recipe, ext: "cook")
                try write(Data(CooklangWriter.text(recipe).utf8), name: name, in: directory, report: &report)
                // Cooklang's convention: the photo beside the recipe, under its name (`Pasta.cook`, `Pasta.jpg`).
                if let photo = recipe.photo, let bytes = try photos.bytes(of: recipe, in: document) {
                    try write(bytes, name: String(name.dropLast(".cook".count)) + "." + photo.fileExtension, in: directory, report: &report)
                }
            }
        case .paprika:
            var entries: [(path: String, data: Data)] = []
            var entryNames = Set<String>()
            for (document, recipe, created) in all {
                var index = 0
                var name = PaprikaWriter.entryName(recipe, index: 0)
                while entryNames.contains(name) { index += 1; name = PaprikaWriter.entryName(recipe, index: index) }
                entryNames.insert(name)
                let photo = try photos.bytes(of: recipe, in: document)
                entries.append((name, gzip(try PaprikaWriter.json(recipe, index: entries.count, created: created, photo: photo))))
            }
            let name = names.claim(stem: "recipes", suffix: ".paprikarecipes")
            try write(try zip(entries), name: name, in: directory, report: &report)
        }
        report.recipes = all.count
        return report
    }

    private func write(_ data: Data, name: String, in directory: String, report: inout Report) throws {
        let path = directory + "/" + name
        try SafeFile.write(data, to: path)
        report.files.append(path)
    }

    /// "Grandma's Apple Pie!" → "grandmas-apple-pie".
    static func slug(_ title: String) -> String {
        var out = ""
        for c in title.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased() {
            if c.isLetter || c.isNumber { out.append(c) } else if c == " " || c == "-" || c == "_", !out.hasSuffix("-") { out.append("-") }
        }
        let s = String(out.trimmingCharacters(in: CharacterSet(charactersIn: "-")).prefix(80))
        return s.isEmpty ? "recipe" : s
    }
}

/// The bytes of recipes' photos, read from where Larder keeps them once: `extract`'s output of the recipe's document
/// (``ExtractOutput/images``), one document at a time.
struct PhotoStore {
    let store: any CheckpointStore
    private var documentID: Int64?
    private var images: [String: String] = [:]

    init(store: any CheckpointStore) { self.store = store }

    private struct Images: Decodable { var images: [ExtractedImage]? }

    /// The photo's bytes, or `nil` when the recipe has none or its document's `extract` output no longer holds them
    /// (the recipe is exported without it).
    mutating func bytes(of recipe: Recipe, in document: DocumentRecord) throws -> Data? {
        guard let photo = recipe.photo else { return nil }
        if documentID != document.id {
            documentID = document.id
            images = [:]
            let output = try store.stages(of: document.id).first { $0.stage == StandardStage.extract.name }?.output
            let decoded = output.flatMap { try? JSONDecoder().decode(Images.self, from: Data($0.utf8)) }
            for image in decoded?.images ?? [] { images[image.photo.sha256] = image.data }
        }
        return images[photo.sha256].flatMap { Data(base64Encoded: $0) }
    }
}
