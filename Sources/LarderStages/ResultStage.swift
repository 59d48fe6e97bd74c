import Foundation
import LarderCore
import LarderJSON
import LarderRecipes

/// The last stage, `result`: what Larder made of the document, in the shape of `schemas/result.schema.json`.
///
/// It gathers the earlier stages' outputs into one result (the document's identity, its kind, its recipes) and
/// says whether a person should look at it and why. Its output is the document's result: validated against the
/// schema, kept as a version whenever it changes, reviewed, exported and compared with goldens.
public struct ResultStage: Stage {
    public static let declaration = StandardStage.result.declaration()
    public let name = declaration.name
    public let version = declaration.version
    public let outputSchema: String? = "result.schema.json"
    /// Recipes parsed with less confidence than this go to review.
    public static let lowConfidence = 0.5
    /// A scanned PDF whose OCR mean confidence (0–100) is below this goes to review.
    public static let lowOCRConfidence = 60.0

    public init() {}

    public func run(_ input: StageInput) throws -> StageOutput {
        let detected = try input.output(of: "detect", as: DetectOutput.self)
        let extracted = try input.output(of: "extract", as: ExtractOutput.self)
        let routed = try input.output(of: "route", as: RouteOutput.self)
        let ocr = input.outputIfPresent(of: "ocr", as: OCRStageOutput.self)
        let scanned = extracted.needsOCR && !extracted.format.isImage
        // A scan is readable once OCR found text in it.
        let unread = DocumentText.readable(extracted, ocr: ocr).needsOCR
        var result = DocumentResult(
            document: .init(
                file: URL(fileURLWithPath: input.document.path).lastPathComponent, sha256: input.document.sha256,
                format: detected.format, pages: extracted.pages.count),
            kind: routed.route, recipes: [], receipt: nil, pantry: [], llm: nil, review: .init(needed: false, reasons: []),
            warnings: detected.warnings + (extracted.warnings ?? []) + (ocr?.warnings ?? []))
        // The parsers' recipes, receipt and pantry; what the `llm` stage structured replaces them. Review reasons
        // are about what the result holds, so they come after the merge.
        var recipeStageRan = false
        // The recipes as the `recipe` stage encoded them in this process: written into the result as they are.
        var reuse: [SortedJSONReuse] = []
        if input.earlierOutputs["recipe"] != nil {
            let found = try RecipeStage.output(from: input)
            result.recipes = found.recipes
            if let made = input.encodedOutput(of: RecipeStage.declaration.name, as: RecipeStageOutput.self),
                let recipes = SortedJSONReuse(made.value.recipes, in: made.encoding, member: "recipes")
            {
                reuse.append(recipes)
            }
            // An export's entries that could not be read, each naming the archive member.
            result.warnings += (found.entryErrors ?? []).map { "entry not imported: \($0)" }
            result.warnings += found.entryWarnings ?? []
            recipeStageRan = true
        }
        if input.earlierOutputs["receipt"] != nil {
            let found = try ReceiptStage.output(from: input)
            result.receipt = found.receipt
            result.pantry = found.pantry
        }
        if input.earlierOutputs["llm"] != nil {
            Self.merge(try input.output(of: "llm", as: LLMStageOutput.self), into: &result)
            // Recipes the model structured get the same allergens, base ingredients and diet labels as parsed ones.
            if result.llm != nil { try RecipeEnrichment.bundled().enrich(&result.recipes) }
        }
        if recipeStageRan {
            if routed.route == .recipe && result.recipes.isEmpty && !unread {
                result.review.add(.notRecognised, "routed as a recipe, but no recipe structure was found")
            }
            for recipe in result.recipes where recipe.confidence < Self.lowConfidence {
                result.review.add(
                    .lowConfidence,
                    String(format: "'%@' parsed with confidence %.2f (below %.2f)", recipe.title, recipe.confidence, Self.lowConfidence))
            }
        }
        if let receipt = result.receipt {
            if receipt.check.addsUp == false, let reason = receipt.reviewReasons.first(where: { $0.hasPrefix("total mismatch") }) {
                result.review.add(.totalsMismatch, reason)
            }
            for reason in receipt.reviewReasons where !reason.hasPrefix("total mismatch") {
                result.review.add(.lowConfidence, reason)
            }
            let unknown = result.pantry.filter(\.needsReview).map(\.product)
            if !unknown.isEmpty {
                result.review.add(.unknownProduct, "\(unknown.count) product(s) not matched to an ingredient: " + unknown.prefix(5).joined(separator: "; "))
            }
        }
        if scanned && unread {
            result.review.add(.needsOCR, "the PDF has no text layer (a scan) and OCR found no text in it")
        } else if routed.route == .unknown {
            // Unsure, not dropped: a person sees what `route` found.
            let signals = routed.signals.isEmpty ? "no signals" : "signals: " + routed.signals.joined(separator: "; ")
            result.review.add(.notRecognised, "not recognised as a recipe or a receipt (\(signals))")
        }
        if scanned, !unread, let ocr, ocr.meanConfidence < Self.lowOCRConfidence {
            result.review.add(
                .lowConfidence,
                String(format: "OCR read the scan with mean confidence %.0f (below %.0f): check the text", ocr.meanConfidence, Self.lowOCRConfidence))
        }
        // Recipes the `llm` stage replaced are other arrays: the encoder takes the reused bytes only for the very
        // array the `recipe` stage encoded.
        return try StageOutput(result, reusing: reuse)
    }
}

extension ResultStage {
    /// What the `llm` stage structured replaces the parsers' recipes or receipt (and pantry); the answers'
    /// provenance goes under `llm`.
    static func merge(_ llm: LLMStageOutput, into result: inout DocumentResult) {
        if llm.budgetReached {
            result.warnings.append(
                "not sent to the LLM: the batch's token budget was spent (raise llm.batch_token_budget and run `larder resume`)")
        }
        // A budget spent part-way through a document leaves it all to the parsers (its answers' tokens still count).
        guard !llm.answers.isEmpty, !llm.budgetReached else { return }
        if let recipes = llm.recipes { result.recipes = recipes }
        if let receipt = llm.receipt { result.receipt = receipt }
        if let pantry = llm.pantry { result.pantry = pantry }
        result.llm = DocumentResult.LLMContribution(answers: llm.answers)
    }
}
