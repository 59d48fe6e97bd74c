import Foundation
import LarderCore
import LarderReceipts

/// Stage 6, `receipt`: a document routed as a receipt → store, date, line items with their discounts, totals and
/// the arithmetic check (`schemas/receipt.schema.json`), and the pantry items its food lines become
/// (`schemas/pantry-item.schema.json`), each with the rule or lexicon entry behind it and its allergens.
///
/// Input: the `ocr` stage's lines (photos and scanned PDFs), or the text's lines (a receipt saved as text or PDF). Non-food lines
/// (tax, bag fees, deposits, payments, household goods…) are blocked with the rule that blocked them; unmatched
/// products stay in the pantry flagged for review, never dropped.
public struct ReceiptStage: Stage {
    public let name = StandardStage.receipt.name
    public let version: String
    /// The non-food rules (`receipts.blocklist` in `pipeline.yml`).
    public let blocklist: IngredientBlocklist
    /// `receipts.default_currency` and `receipts.date_order`.
    public let parser: ReceiptParser

    /// The stage's name and version for a configuration: a changed blocklist is part of the version, so the
    /// next run re-examines every receipt with it.
    public static func declaration(for config: PipelineConfig) -> StageDeclaration {
        StandardStage.receipt.declaration(for: config)
    }

    public init(config: PipelineConfig = PipelineConfig()) {
        version = Self.declaration(for: config).version
        blocklist = config.blocklist
        parser = ReceiptParser(configuration: config.receiptParser)
    }

    /// Loaded once: the lexicon has thousands of entries.
    private static let lexicon = Result { try FoodLexicon.bundled() }

    /// The normaliser with `blocklist` over the bundled lexicon.
    public static func normalizer(blocklist: IngredientBlocklist) throws -> IngredientNormalizer {
        do {
            return IngredientNormalizer(lexicon: try lexicon.get(), blocklist: blocklist)
        } catch {
            throw LarderError(.transient, "cannot load the food lexicon: \(error)", hint: "reinstall larder")
        }
    }

    public func run(_ input: StageInput) throws -> StageOutput {
        let routed = try input.output(of: "route", as: RouteOutput.self)
        guard routed.route == .receipt else {
            return try StageOutput(ReceiptStageOutput(receipt: nil, pantry: [], blocked: [], skipped: "routed as \(routed.route.rawValue)"))
        }
        let lines = try Self.lines(of: input)
        let receipt = parser.parse(lines: lines)
        let normalizer = try Self.normalizer(blocklist: blocklist)
        let extraction = PantryExtraction(receipt: receipt, receiptID: input.document.sha256, normalizer: normalizer)
        // Stored without copies of the text: the receipt's lines refer to the lines read (``LineReferences``).
        return try StageOutput(
            ReceiptStageOutput(
                receipt: Receipt(receipt, ocrLines: lines), pantry: extraction.items, blocked: extraction.blocked,
                skipped: nil)
        ) { try LineReferences.compactReceipt($0, lines: lines) }
    }

    /// The lines the stage reads: the `ocr` stage's, or the text's non-empty lines.
    static func lines(of input: StageInput) throws -> [OCRLine] {
        if let ocr = input.outputIfPresent(of: "ocr", as: OCRStageOutput.self), ocr.skipped == nil {
            return ocr.lines
        }
        let extracted = try input.output(of: "extract", as: ExtractOutput.self)
        return extracted.text.split(separator: "\n").map { OCRLine(text: String($0)) }
    }

    /// This stage's output as a later stage reads it: stored, the receipt's lines refer to the lines read
    /// (``LineReferences``), which are put back here from `ocr` or `extract`.
    public static func output(from input: StageInput) throws -> ReceiptStageOutput {
        try input.output(of: StandardStage.receipt.name, as: ReceiptStageOutput.self) { json in
            try LineReferences.expandReceipt(json, lines: lines(of: input))
        }
    }
}

/// What `receipt` found.
public struct ReceiptStageOutput: Codable, Sendable, Equatable {
    public var receipt: Receipt?
    public var pantry: [PantryItem]
    /// Lines that never enter the pantry, with the rule that blocked each.
    public var blocked: [BlockedLine]
    public var skipped: String?
}
