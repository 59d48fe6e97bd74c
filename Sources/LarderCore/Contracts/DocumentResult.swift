import Foundation
import LarderRecipes

/// A document's result (see `schemas/result.schema.json`). Every key is always present (null or empty when it
/// does not apply), so apps read one stable shape.
public struct DocumentResult: Codable, Sendable, Equatable {
    public struct Document: Codable, Sendable, Equatable {
        /// The file's name: paths differ between machines, names and hashes don't.
        public var file: String
        public var sha256: String
        public var format: DocumentFormat
        public var pages: Int

        public init(file: String, sha256: String, format: DocumentFormat, pages: Int) {
            self.file = file
            self.sha256 = sha256
            self.format = format
            self.pages = pages
        }
    }

    public var document: Document
    public var kind: Route
    /// Recipes found in the document (`recipe.schema.json`).
    public var recipes: [Recipe]
    /// The receipt, for documents read as receipts (`receipt.schema.json`).
    public var receipt: ReceiptRecord?
    /// Pantry items from the receipt (`pantry-item.schema.json`).
    public var pantry: [PantryRecord]
    /// What the LLM stage contributed, with provenance; nil when it structured nothing here.
    public var llm: LLMContribution?
    public var review: Review
    public var warnings: [String]

    public init(
        document: Document, kind: Route, recipes: [Recipe], receipt: ReceiptRecord?, pantry: [PantryRecord],
        llm: LLMContribution?, review: Review, warnings: [String]
    ) {
        self.document = document
        self.kind = kind
        self.recipes = recipes
        self.receipt = receipt
        self.pantry = pantry
        self.llm = llm
        self.review = review
        self.warnings = warnings
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(document, forKey: .document)
        try container.encode(kind, forKey: .kind)
        try container.encode(recipes, forKey: .recipes)
        try container.encode(receipt, forKey: .receipt)  // null, not absent
        try container.encode(pantry, forKey: .pantry)
        try container.encode(llm, forKey: .llm)  // null, not absent
        try container.encode(review, forKey: .review)
        try container.encode(warnings, forKey: .warnings)
    }

    /// The LLM stage's answers for this document: who answered, which fields they supplied, what it cost.
    public struct LLMContribution: Codable, Sendable, Equatable {
        public var answers: [LLMStageOutput.Answer]

        public init(answers: [LLMStageOutput.Answer]) {
            self.answers = answers
        }
    }

    /// Whether a person should look, and why.
    public struct Review: Codable, Sendable, Equatable {
        public var needed: Bool
        public var reasons: [Reason]

        public init(needed: Bool, reasons: [Reason]) {
            self.needed = needed
            self.reasons = reasons
        }

        public mutating func add(_ code: Reason.Code, _ message: String) {
            reasons.append(Reason(code: code, message: message, urgency: code.urgency))
            needed = true
        }
    }

    public struct Reason: Codable, Sendable, Equatable {
        public enum Code: String, Codable, Sendable {
            case validation
            case lowConfidence = "low_confidence"
            case notRecognised = "not_recognised"
            case totalsMismatch = "totals_mismatch"
            case unknownProduct = "unknown_product"
            case needsOCR = "needs_ocr"
            /// A reparse made a result different from the one a person accepted (set by the review queue).
            case reparseDisagrees = "reparse_disagrees"

            /// Higher is more urgent: broken output first, then money, then content a person must read.
            public var urgency: Int {
                switch self {
                case .validation: 100
                case .totalsMismatch: 80
                case .reparseDisagrees: 70
                case .notRecognised: 60
                case .unknownProduct: 50
                case .lowConfidence: 40
                case .needsOCR: 30
                }
            }
        }

        public var code: Code
        public var message: String
        public var urgency: Int
    }
}

/// What a document is, as `route` decided.
public enum Route: String, Codable, Sendable {
    case recipe, receipt, unknown
}
