import Foundation
import LarderJSON
import LarderReceipts
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

    /// The version of the result's contract (`schemas/result.schema.json` with the recipe, receipt and pantry-item
    /// schemas it refers to). Bump ``currentSchemaVersion`` (and the schema's `const`) whenever their shape
    /// changes, and list the change in the CHANGELOG as a contract change.
    public var schemaVersion: Int
    /// The stage versions that made this result, in order (`detect@3+extract@4+…`): set when the result leaves
    /// Larder (``Exporter``); nil in the database, where each stage run keeps its own version. Kept out of the
    /// stored result so that a rerun that agrees adds no result version and goldens do not change with every
    /// stage version.
    @ExplicitNull public var pipelineVersion: String?
    public var document: Document
    public var kind: Route
    /// Recipes found in the document (`recipe.schema.json`).
    public var recipes: [Recipe]
    /// The receipt, for documents read as receipts (`receipt.schema.json`).
    @ExplicitNull public var receipt: Receipt?
    /// Pantry items from the receipt (`pantry-item.schema.json`).
    public var pantry: [PantryItem]
    /// What the LLM stage contributed, with provenance; nil when it structured nothing here.
    @ExplicitNull public var llm: LLMContribution?
    public var review: Review
    public var warnings: [String]

    /// The result contract's version this code writes.
    public static let currentSchemaVersion = 2

    public init(
        document: Document, kind: Route, recipes: [Recipe], receipt: Receipt?, pantry: [PantryItem],
        llm: LLMContribution?, review: Review, warnings: [String]
    ) {
        self.schemaVersion = Self.currentSchemaVersion
        self.pipelineVersion = nil
        self.document = document
        self.kind = kind
        self.recipes = recipes
        self.receipt = receipt
        self.pantry = pantry
        self.llm = llm
        self.review = review
        self.warnings = warnings
    }

    private enum CodingKeys: String, CodingKey {
        case schemaVersion, pipelineVersion, document, kind, recipes, receipt, pantry, llm, review, warnings
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // Results stored before the contract was versioned have neither key: they are version 1's shape.
        schemaVersion = try c.decodeIfPresent(Int.self, forKey: .schemaVersion) ?? 1
        pipelineVersion = try c.decodeIfPresent(String.self, forKey: .pipelineVersion)
        document = try c.decode(Document.self, forKey: .document)
        kind = try c.decode(Route.self, forKey: .kind)
        recipes = try c.decode([Recipe].self, forKey: .recipes)
        receipt = try c.decodeIfPresent(Receipt.self, forKey: .receipt)
        pantry = try c.decode([PantryItem].self, forKey: .pantry)
        llm = try c.decodeIfPresent(LLMContribution.self, forKey: .llm)
        review = try c.decode(Review.self, forKey: .review)
        warnings = try c.decode([String].self, forKey: .warnings)
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
        /// Codes are kebab-case, as every code Larder writes (``LarderError/Kind``, `LLMError`, `ReceiptError`).
        public enum Code: String, Codable, Sendable {
            case validation
            case lowConfidence = "low-confidence"
            case notRecognised = "not-recognised"
            case totalsMismatch = "totals-mismatch"
            case unknownProduct = "unknown-product"
            case needsOCR = "needs-ocr"
            /// A reparse made a result different from the one a person accepted (set by the review queue).
            case reparseDisagrees = "reparse-disagrees"

            /// Reads the snake_case spelling of results stored before the codes were unified too.
            public init(from decoder: any Decoder) throws {
                let text = try decoder.singleValueContainer().decode(String.self)
                guard let code = Self(rawValue: text.replacingOccurrences(of: "_", with: "-")) else {
                    throw DecodingError.dataCorrupted(
                        .init(codingPath: decoder.codingPath, debugDescription: "unknown review code '\(text)'"))
                }
                self = code
            }

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
