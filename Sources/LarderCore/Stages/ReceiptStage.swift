import Foundation
import LarderReceipts

/// Stage 6, `receipt`: a document routed as a receipt → store, date, line items with their discounts, totals and
/// the arithmetic check (`schemas/receipt.schema.json`), and the pantry items its food lines become
/// (`schemas/pantry-item.schema.json`), each with the rule or lexicon entry behind it and its allergens.
///
/// Input: the `ocr` stage's lines (photos and scanned PDFs), or the text's lines (a receipt saved as text or PDF). Non-food lines
/// (tax, bag fees, deposits, payments, household goods…) are blocked with the rule that blocked them; unmatched
/// products stay in the pantry flagged for review, never dropped.
public struct ReceiptStage: Stage {
    public static let baseVersion = "receipt@5"
    public let name = "receipt"
    public let version: String
    /// The non-food rules (`receipts.blocklist` in `pipeline.yml`).
    public let blocklist: IngredientBlocklist

    /// The stage's name and version for a configuration: a changed blocklist is part of the version, so the
    /// next run re-examines every receipt with it.
    public static func declaration(for config: PipelineConfig) -> StageDeclaration {
        StageDeclaration(
            name: "receipt",
            version: config.blocklist == .default
                ? baseVersion
                : baseVersion + "+blocklist-" + SHA256.hex(Self.canonical(config.blocklist)).prefix(12))
    }

    private static func canonical(_ blocklist: IngredientBlocklist) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(blocklist)) ?? Data()
    }

    public init(config: PipelineConfig = PipelineConfig()) {
        version = Self.declaration(for: config).version
        blocklist = config.blocklist
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
        let lines: [OCRLine]
        if let ocr = input.outputIfPresent(of: "ocr", as: OCRStageOutput.self), !ocr.skipped {
            lines = ocr.lines
        } else {
            let extracted = try input.output(of: "extract", as: ExtractOutput.self)
            lines = extracted.text.split(separator: "\n").map { OCRLine(text: String($0)) }
        }
        let receipt = ReceiptParser().parse(lines: lines)
        let normalizer = try Self.normalizer(blocklist: blocklist)
        let extraction = PantryExtraction(receipt: receipt, receiptID: input.document.sha256, normalizer: normalizer)
        return try StageOutput(
            ReceiptStageOutput(
                receipt: ReceiptRecord(receipt, ocrLines: lines),
                pantry: extraction.items.map { PantryRecord($0, purchaseDate: receipt.date?.iso) },
                blocked: extraction.blocked.map { BlockedLine(description: $0.description, line: $0.lineNumbers.first ?? 0, rule: $0.rule) },
                skipped: nil))
    }
}

/// What `receipt` found.
public struct ReceiptStageOutput: Codable, Sendable, Equatable {
    public var receipt: ReceiptRecord?
    public var pantry: [PantryRecord]
    /// Lines that never enter the pantry, with the rule that blocked each.
    public var blocked: [BlockedLine]
    public var skipped: String?
}

public struct BlockedLine: Codable, Sendable, Equatable {
    public var description: String
    public var line: Int
    public var rule: String
}

/// The `ocr` stage's output as later stages read it (the stage itself lives in `LarderNative`).
public struct OCRStageOutput: Codable, Sendable, Equatable {
    /// True for documents that need no OCR: text, Markdown, HTML, JSON and PDFs with a text layer (their text
    /// comes from `extract`).
    public var skipped: Bool
    /// The lines top to bottom, page after page; each has its page number, confidence and box (pixels of the
    /// image tesseract saw: for a scanned PDF page, the page rendered at `pages[].resolution` dpi).
    public var lines: [OCRLine]
    /// Tesseract's mean confidence, 0–100 (for a scanned PDF, the pages' means weighted by characters read).
    public var meanConfidence: Double
    /// Preprocessing applied, in order (for a scanned PDF, each step prefixed with its page).
    public var steps: [String]
    /// A scanned PDF's pages as rendered for OCR; empty for photos.
    public var pages: [OCRPage]
    /// What the image codecs (libjpeg, libpng) or poppler reported while decoding the file ("Corrupt JPEG data:
    /// premature end of data segment"), each naming the file; the result lists them as the document's warnings.
    /// Absent when there were none.
    public var warnings: [String]?

    public init(
        skipped: Bool, lines: [OCRLine], meanConfidence: Double, steps: [String], pages: [OCRPage] = [],
        warnings: [String]? = nil
    ) {
        self.skipped = skipped
        self.lines = lines
        self.meanConfidence = meanConfidence
        self.steps = steps
        self.pages = pages
        self.warnings = warnings
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        skipped = try c.decode(Bool.self, forKey: .skipped)
        lines = try c.decode([OCRLine].self, forKey: .lines)
        meanConfidence = try c.decode(Double.self, forKey: .meanConfidence)
        steps = try c.decode([String].self, forKey: .steps)
        pages = try c.decodeIfPresent([OCRPage].self, forKey: .pages) ?? []
        warnings = try c.decodeIfPresent([String].self, forKey: .warnings)
    }
}

/// One scanned PDF page as the `ocr` stage rendered and read it.
public struct OCRPage: Codable, Sendable, Equatable {
    /// 1-based page number.
    public var number: Int
    /// The rendered image's size in pixels, and its resolution (dots per inch: pixels = points × dpi / 72).
    public var width: Int
    public var height: Int
    public var resolution: Double
    /// Tesseract's mean confidence on this page, 0–100.
    public var meanConfidence: Double

    public init(number: Int, width: Int, height: Int, resolution: Double, meanConfidence: Double) {
        self.number = number
        self.width = width
        self.height = height
        self.resolution = resolution
        self.meanConfidence = meanConfidence
    }
}

/// Money to the cent.
private func money(_ value: Decimal?) -> Double? {
    value.map { (NSDecimalNumber(decimal: $0).doubleValue * 100).rounded() / 100 }
}

/// Quantities (2.134 lb) to the thousandth; zero or less means unknown.
private func amount(_ value: Decimal?) -> Double? {
    value.map { (NSDecimalNumber(decimal: $0).doubleValue * 1000).rounded() / 1000 }.flatMap { $0 > 0 ? $0 : nil }
}

/// A receipt in the shape of `schemas/receipt.schema.json`.
public struct ReceiptRecord: Codable, Sendable, Equatable {
    // Store, Totals and Check write every key, null when unknown: the schema requires `store.name` and
    // `check.adds_up`, and a receipt OCR read nothing from (a blank photo) has neither.
    public struct Store: Codable, Sendable, Equatable {
        public var name: String?
        public var address: String?

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(name, forKey: .name)
            try c.encode(address, forKey: .address)
        }
    }

    public struct Item: Codable, Sendable, Equatable {
        public var description: String
        public var quantity: Double?
        public var unit: String?
        public var unitPrice: Double?
        public var total: Double
        public var discounts: [Discount]
        public var line: Int

        public init(
            description: String, quantity: Double? = nil, unit: String? = nil, unitPrice: Double? = nil, total: Double,
            discounts: [Discount] = [], line: Int
        ) {
            self.description = description
            self.quantity = quantity
            self.unit = unit
            self.unitPrice = unitPrice
            self.total = total
            self.discounts = discounts
            self.line = line
        }
    }

    public struct Discount: Codable, Sendable, Equatable {
        public var description: String
        /// Negative: money off.
        public var amount: Double
        public var line: Int
    }

    public struct Totals: Codable, Sendable, Equatable {
        public var subtotal: Double?
        public var tax: Double?
        public var total: Double?
        public var tendered: Double?
        public var change: Double?

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(subtotal, forKey: .subtotal)
            try c.encode(tax, forKey: .tax)
            try c.encode(total, forKey: .total)
            try c.encode(tendered, forKey: .tendered)
            try c.encode(change, forKey: .change)
        }
    }

    public struct Check: Codable, Sendable, Equatable {
        /// items − discounts + tax ≈ total (or items − discounts ≈ total where prices include tax); null without a
        /// printed total.
        public var adds_up: Bool?
        public var computed: Double?
        public var printed: Double?

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(adds_up, forKey: .adds_up)
            try c.encode(computed, forKey: .computed)
            try c.encode(printed, forKey: .printed)
        }
    }

    public struct Line: Codable, Sendable, Equatable {
        public struct Box: Codable, Sendable, Equatable {
            public var x: Int, y: Int, width: Int, height: Int
        }

        public var number: Int
        public var text: String
        public var confidence: Double
        public var box: Box?
        public var role: String?
    }

    public var store: Store
    public var date: String?
    public var time: String?
    public var dateText: String?
    public var currency: String?
    public var items: [Item]
    public var totals: Totals
    public var check: Check
    public var lines: [Line]
    public var confidence: Double
    /// Why the parser wants a person to look (totals that don't add up, no total, no date…).
    public var reviewReasons: [String]

    public init(_ receipt: Receipt, ocrLines: [OCRLine]) {
        store = Store(name: receipt.store, address: receipt.address)
        date = receipt.date?.iso
        time = receipt.time
        dateText = receipt.date.map { "\($0.printed) (\($0.resolution))" }
        currency = receipt.currency.count == 3 ? receipt.currency.uppercased() : nil
        items = receipt.items.enumerated().map { index, item in
            Item(
                description: item.description, quantity: amount(item.quantity), unit: item.unit,
                unitPrice: money(item.unitPrice), total: money(item.total) ?? 0,
                discounts: receipt.discounts.filter { $0.itemIndex == index }.map {
                    Discount(description: $0.description, amount: -(money($0.amount) ?? 0), line: $0.lineNumber)
                },
                line: item.lineNumbers.first ?? 1)
        }
        let tendered = receipt.tenders.reduce(Decimal(0)) { $0 + $1.amount }
        totals = Totals(
            subtotal: money(receipt.subtotal), tax: money(receipt.tax), total: money(receipt.total),
            tendered: receipt.tenders.isEmpty ? nil : money(tendered), change: money(receipt.change))
        let itemsSum = receipt.items.reduce(Decimal(0)) { $0 + $1.total }
        let discounts = receipt.discounts.reduce(Decimal(0)) { $0 + $1.amount }
        let computed = itemsSum - discounts + (receipt.tax ?? 0) + (receipt.rounding ?? 0)
        let mismatch = receipt.reviewReasons.contains { $0.hasPrefix("total mismatch") }
        check = Check(
            adds_up: receipt.total == nil ? nil : !mismatch, computed: money(computed), printed: money(receipt.total))
        lines = receipt.lines.map { line in
            let box = line.number - 1 < ocrLines.count ? ocrLines[line.number - 1].box : nil
            return Line(
                number: line.number, text: line.text, confidence: min(max(line.confidence, 0), 100),
                box: box.flatMap { $0.width > 0 ? Line.Box(x: $0.x, y: $0.y, width: $0.width, height: $0.height) : nil },
                role: line.kind.rawValue)
        }
        confidence = receipt.items.isEmpty ? 0 : receipt.items.map(\.confidence).reduce(0, +) / Double(receipt.items.count)
        reviewReasons = receipt.needsReview ? receipt.reviewReasons : []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(store, forKey: .store)
        try c.encode(date, forKey: .date)  // null, not absent: every key is always there
        try c.encode(time, forKey: .time)
        try c.encode(dateText, forKey: .dateText)
        try c.encode(currency, forKey: .currency)
        try c.encode(items, forKey: .items)
        try c.encode(totals, forKey: .totals)
        try c.encode(check, forKey: .check)
        try c.encode(lines, forKey: .lines)
        try c.encode(confidence, forKey: .confidence)
        try c.encode(reviewReasons, forKey: .reviewReasons)
    }
}

/// A pantry item in the shape of `schemas/pantry-item.schema.json`.
public struct PantryRecord: Codable, Sendable, Equatable {
    public struct Source: Codable, Sendable, Equatable {
        public var receipt: String
        public var line: Int
    }

    public struct Allergen: Codable, Sendable, Equatable {
        public var allergen: String
        public var keyword: String
    }

    public var ingredient: String
    public var product: String
    public var quantity: Double?
    public var unit: String?
    public var price: Double?
    public var purchaseDate: String?
    public var source: Source
    public var allergens: [Allergen]
    public var confidence: Double
    public var evidence: String
    /// No lexicon entry matched well enough: a person should confirm the ingredient.
    public var needsReview: Bool

    public init(_ item: PantryItem, purchaseDate: String?) {
        ingredient = item.baseIngredient ?? item.productDescription.lowercased()
        product = item.productDescription
        quantity = amount(item.quantity)
        unit = item.unit
        price = money(item.price)
        self.purchaseDate = purchaseDate
        source = Source(receipt: item.sourceReceipt, line: item.lineNumbers.first ?? 1)
        allergens = item.allergens.map { Allergen(allergen: $0.allergen.rawValue, keyword: $0.keyword) }
        confidence = min(max(item.confidence, 0), 1)
        evidence = item.evidence.isEmpty ? "no lexicon match" : item.evidence.joined(separator: "; ")
        needsReview = item.needsReview
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(ingredient, forKey: .ingredient)
        try c.encode(product, forKey: .product)
        try c.encode(quantity, forKey: .quantity)
        try c.encode(unit, forKey: .unit)
        try c.encode(price, forKey: .price)
        try c.encode(purchaseDate, forKey: .purchaseDate)
        try c.encode(source, forKey: .source)
        try c.encode(allergens, forKey: .allergens)
        try c.encode(confidence, forKey: .confidence)
        try c.encode(evidence, forKey: .evidence)
        try c.encode(needsReview, forKey: .needsReview)
    }
}
