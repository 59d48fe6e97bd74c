import Foundation
import LarderCore
import LarderJSON
import LarderFormats
import LarderReceipts
import LarderRecipes

/// Stage 4, `recipe`: the recipes in a document routed as a recipe (`LarderRecipes`).
///
/// Input: `extract`'s lines — for PDFs the reading-order lines with their font sizes (titles stand out by size),
/// for text the normalised lines, for a scanned PDF the OCR lines (``DocumentText``) — each with its page and line
/// number, so every value keeps its provenance.
/// Output: ``RecipeStageOutput``, each ingredient tagged with the allergens its name contains and its base
/// ingredient (as the pantry names it), each recipe with its diet labels (``RecipeEnrichment``). Documents routed
/// elsewhere pass through with no recipes. A recipe app's export (``DetectOutput/appFormat``) is read by
/// `LarderFormats` instead: one recipe per entry, each naming its archive member, and members that cannot be read
/// as per-entry errors (``RecipeStageOutput/entryErrors``) while the others still import.
public struct RecipeStage: Stage {
    public static let declaration = StandardStage.recipe.declaration()
    public let name = declaration.name
    public let version = declaration.version

    public init() {}

    public func run(_ input: StageInput) throws -> StageOutput {
        let routed = try input.output(of: "route", as: RouteOutput.self)
        guard routed.route == .recipe else {
            return try StageOutput(RecipeStageOutput(recipes: [], skipped: "routed as \(routed.route.rawValue)"))
        }
        let detected = try input.output(of: "detect", as: DetectOutput.self)
        let extracted = try DocumentText.readable(input)  // a scanned page: its OCR lines
        let file = URL(fileURLWithPath: input.document.path).lastPathComponent
        let lines = Self.lines(of: extracted)
        if detected.appFormat != nil {
            var output = try Self.importExport(
                extracted, file: file, sha256: input.document.sha256, format: detected.format,
                memberPath: Self.memberPath(input.document.path), limits: input.config.limits,
                path: input.document.path)
            try RecipeEnrichment.bundled().enrich(&output.recipes)
            return try output.stageOutput(lines: lines)
        }
        let source = RecipeSource(file: file, sha256: input.document.sha256, format: detected.format.rawValue, lines: lines)
        // A saved web page: its schema.org recipes, else its visible text (``RecipeParser/parse(page:source:)``).
        var recipes = try Self.parse(source, page: extracted.webPage, limits: input.config.limits, path: input.document.path)
        // The 16 allergens (whole words: "eggplant" is not egg), the base ingredient from the pantry's normaliser
        // and lexicon, and the diet labels.
        try RecipeEnrichment.bundled().enrich(&recipes)
        // Stored without copies of the text: ingredients and steps refer to their lines (``LineReferences``).
        return try RecipeStageOutput(recipes: recipes, skipped: nil).stageOutput(lines: lines)
    }

    /// The document's recipes, the parse stopped (`overLimit`) once they hold more than `limits.maxRecipeParts`
    /// ingredients, steps and notes: an output that large would pass `limits.max_stage_output_bytes` anyway, after
    /// minutes and gigabytes (a 15 MB text of 300,000 ingredient lines took a worker to 4.9 GB).
    static func parse(
        _ source: RecipeSource, page: WebPage?, limits: PipelineConfig.Limits, path: String
    ) throws -> [Recipe] {
        let parser = RecipeParser()
        do {
            if let page { return try parser.parse(page: page, source: source, maxParts: limits.maxRecipeParts) }
            return try parser.parse(source, maxParts: limits.maxRecipeParts)
        } catch {
            throw overLimit(error, limits: limits, path: path)
        }
    }

    /// What a document past `limits.maxRecipeParts` fails with.
    static func overLimit(_ error: RecipePartsOverLimit, limits: PipelineConfig.Limits, path: String) -> LarderError {
        LarderError(
            .overLimit,
            "the document holds more than \(error.limit) ingredients, steps and notes (counted \(error.parts) when "
                + "reading stopped): the limit is one per \(PipelineConfig.Limits.recipePartBytes) bytes of "
                + "limits.max_stage_output_bytes (\(limits.maxStageOutputBytes))",
            hint: "split the file into its recipes, or raise limits.max_stage_output_bytes in pipeline.yml "
                + "(with limits.worker_memory: each part takes ~13 KB while the results are written)",
            path: path)
    }

    /// This stage's output as a later stage reads it: stored, its ingredients and steps refer to the document's
    /// lines (``LineReferences``), which are put back here from `extract` (and `ocr`).
    public static func output(from input: StageInput) throws -> RecipeStageOutput {
        try input.output(of: declaration.name, as: RecipeStageOutput.self) { json in
            try LineReferences.expandRecipes(json, lines: lines(of: DocumentText.readable(input)))
        }
    }

    /// An export's recipes: each page is a file (an archive member, or the document itself), all read together so
    /// that one member can use another (a Chowdown recipe its `_components/`). The readers charge what they read to
    /// `limits.maxRecipeParts` (``PartBudget``): an export that holds more fails, over the limit, as it is read.
    static func importExport(
        _ extracted: ExtractOutput, file: String, sha256: String, format: DocumentFormat, memberPath: String? = nil,
        limits: PipelineConfig.Limits = .init(), path: String? = nil
    ) throws -> RecipeStageOutput {
        var recipes: [Recipe] = []
        var errors = extracted.memberErrors ?? []
        var pageOf: [String: PDFPageText] = [:]
        let members = extracted.pages.map { page -> ExportMember in
            let path = page.member ?? memberPath ?? file
            pageOf[path] = pageOf[path] ?? page
            return ExportMember(path: path, data: Data(page.text.utf8))
        }
        var budget = PartBudget(limit: limits.maxRecipeParts)
        let outcome: RecipeImport.Outcome
        do {
            outcome = try RecipeImport.read(members, budget: &budget)
        } catch {
            throw Self.overLimit(error, limits: limits, path: path ?? file)
        }
        let images = extracted.images ?? []
        let recipeMembers = Set(outcome.recipes.map(\.member))
        for imported in outcome.recipes {
            guard let page = pageOf[imported.member] else { continue }
            let source = RecipeSourceInfo(
                file: file, sha256: sha256, pages: [page.number], format: format.rawValue,
                member: page.member, url: imported.draft.url)
            var recipe = imported.draft.recipe(source: source, page: page.number, line: imported.line)
            // Its photo, by reference: the bytes stay in `extract`'s output.
            if let i = RecipePhotos.match(
                recipeMember: imported.member, recipeMembers: recipeMembers, images: images.map(\.members),
                imageField: imported.draft.image)
            {
                recipe.photo = images[i].photo
            }
            recipes.append(recipe)
        }
        errors += outcome.errors.map { "\($0.member): \($0.message)" }
        let warnings = outcome.warnings.map { "\($0.member): \($0.message)" }
        return RecipeStageOutput(
            recipes: recipes, skipped: nil, entryErrors: errors.isEmpty ? nil : errors,
            entryWarnings: warnings.isEmpty ? nil : warnings)
    }

    /// A single file's name as an export member; in a Jekyll collection folder (Chowdown's `_recipes/`,
    /// `_components/`) with that folder, which says what the file is, and nothing above it.
    static func memberPath(_ path: String) -> String {
        let parts = path.split(separator: "/")
        guard parts.count >= 2, parts[parts.count - 2].hasPrefix("_") else { return parts.last.map(String.init) ?? path }
        return parts.suffix(2).joined(separator: "/")
    }

    /// Every page's lines, numbered from 1 within the page.
    public static func lines(of extracted: ExtractOutput) -> [SourceLine] {
        extracted.pages.flatMap { page -> [SourceLine] in
            if !page.lines.isEmpty {
                let regions = Self.regions(of: page)
                return page.lines.enumerated().map { index, line in
                    SourceLine(
                        page: page.number, number: index + 1, text: line.text, fontSize: line.fontSize, bold: line.bold,
                        region: regions[index])
                }
            }
            return page.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, text in
                SourceLine(page: page.number, number: index + 1, text: String(text))
            }
        }
    }
}

extension RecipeStage {
    /// Each line's region from the page's layout: the outermost furniture or box block holding it.
    static func regions(of page: PDFPageText) -> [Int: SourceLine.Region] {
        var result: [Int: SourceLine.Region] = [:]
        func visit(_ block: PDFBlock, inherited: SourceLine.Region?) {
            var region = inherited
            if region == nil {
                switch block.kind {
                case .box: region = .box
                case .header: region = .header
                case .pageNumber: region = .pageNumber
                case .footer: region = .footer
                case .footnote: region = .footnote
                case .table: region = .tableRecord
                default: break
                }
            }
            if let region { for index in block.lines { result[index] = region } }
            for child in block.children { visit(child, inherited: region) }
        }
        for block in page.blocks { visit(block, inherited: nil) }
        return result
    }
}

/// What `recipe` found.
public struct RecipeStageOutput: Codable, Sendable, Equatable {
    public var recipes: [Recipe]
    /// Why no recipes were looked for (the document was routed elsewhere).
    public var skipped: String?
    /// For a recipe app's export: the entries that could not be read ("member: why"); absent otherwise.
    public var entryErrors: [String]?
    /// For a recipe app's export: recipes imported otherwise than the export had them ("member: recipe 'X' has no
    /// ingredients: kept with 0 ingredients"); absent when none.
    public var entryWarnings: [String]?

    public init(recipes: [Recipe], skipped: String?, entryErrors: [String]? = nil, entryWarnings: [String]? = nil) {
        self.recipes = recipes
        self.skipped = skipped
        self.entryErrors = entryErrors
        self.entryWarnings = entryWarnings
    }
}

extension RecipeStageOutput {
    /// The output's encoding, written by the recipe contract's builder (``SortedJSONBuilder``): the same text and
    /// tree as `SortedJSONEncoder().encodeWithTree(self)` in a fraction of the instructions (issue 18;
    /// `RecipeJSONTests` compares the two).
    public func encoded() throws -> SortedJSONEncoding {
        try built(locator: nil).encoding()
    }

    /// The encoding and the stored form (``LineReferences``) in one pass: the builder records where each text is in
    /// its lines as it writes it (``RecipeTextLocator``), instead of a second pass over the encoded text finding the
    /// texts again (``RecipeTextCompactor``, which `RecipeJSONTests` compares it with).
    public func encodedAndStored(lines: [SourceLine]) throws -> (encoding: SortedJSONEncoding, stored: String) {
        let json = try built(locator: LineReferences.Locator(lines))
        let encoding = json.encoding()
        return (encoding, json.hasEdits ? json.editedText() : encoding.text)
    }

    /// The stage's output: the value, its encoding for later stages in this process, its stored form.
    func stageOutput(lines: [SourceLine]) throws -> StageOutput {
        let made = try encodedAndStored(lines: lines)
        return try StageOutput(self, encoded: made.encoding) { _ in made.stored }
    }

    private func built(locator: (any RecipeTextLocator)?) throws -> SortedJSONBuilder {
        var json = SortedJSONBuilder(capacity: 16 * 1024)
        try json.object { json in
            if let entryErrors { json.key("entryErrors"); json.array(entryErrors) }
            if let entryWarnings { json.key("entryWarnings"); json.array(entryWarnings) }
            json.key("recipes"); try json.array(recipes) { try $1.write(to: &$0, locator: locator) }
            if let skipped { json.key("skipped"); json.string(skipped) }
        }
        return json
    }
}
