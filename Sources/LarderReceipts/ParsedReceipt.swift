import Foundation

/// What ``ReceiptParser`` read from a receipt's lines, with its evidence: how each line was classified, why that
/// currency, how an ambiguous date was read. It is the parser's working result, not a contract: Larder stores and
/// exports ``Receipt`` (`schemas/receipt.schema.json`), made from it by ``Receipt/init(_:ocrLines:)``, and the
/// receipt evaluation scores it.
///
/// Money is `Decimal`. Line numbers are 1-based indexes into the OCR lines given to the parser (``lines`` keeps
/// every line with its classification, as evidence).
public struct ParsedReceipt: Sendable, Equatable {
    /// The store name (first name-like line at the top), as printed.
    public var store: String?
    /// The store address (address-like lines under the name, joined with ", "), when present.
    public var address: String?
    /// The purchase date.
    public var date: ReceiptDate?
    /// The purchase time, 24-hour `HH:mm`.
    public var time: String?
    /// ISO 4217 currency code.
    public var currency: String
    /// Why that currency: `"symbol $"`, `"code RM"`, or `"default"`.
    public var currencyEvidence: String
    /// Purchased products, in printed order.
    public var items: [ReceiptItem]
    /// Coupons and discounts; each names the item it was attached to, when any.
    public var discounts: [ReceiptDiscount]
    /// The printed subtotal.
    public var subtotal: Decimal?
    /// The sum of printed tax lines.
    public var tax: Decimal?
    /// A printed rounding adjustment (cash rounding), when any.
    public var rounding: Decimal?
    /// The printed total.
    public var total: Decimal?
    /// Where ``total`` came from: `"printed total"`, `"printed total (rounded)"`,
    /// `"cash 40.00 − change 7.90"` (when the printed total was missing, followed the payment lines, or
    /// disagreed with cash − change while another printed total/subtotal agreed with it).
    public var totalEvidence: String?
    /// Payment lines (cash, card…).
    public var tenders: [ReceiptTender]
    /// Change given.
    public var change: Decimal?
    /// Every input line with how the parser classified it.
    public var lines: [ReceiptLine]
    /// What a person should check (arithmetic mismatch with both numbers, no total, no date, no items, low
    /// OCR confidence) and notes such as how an ambiguous date was read. Empty when all is consistent.
    public var reviewReasons: [String]
    /// `true` when ``reviewReasons`` holds anything other than an ambiguous-date note (a day/month order
    /// resolved by configuration or currency is recorded but does not by itself need review).
    public var needsReview: Bool

    /// Creates an empty receipt in `currency`.
    public init(currency: String, currencyEvidence: String = "default") {
        self.currency = currency
        self.currencyEvidence = currencyEvidence
        self.items = []
        self.discounts = []
        self.tenders = []
        self.lines = []
        self.reviewReasons = []
        self.needsReview = false
    }

    /// How the review reason begins when the total is subtotal + tax because its own line's amount was not read.
    public static let inferredTotalReason = "total inferred"
    /// How a review reason begins for an item whose price the parser supplied (not read from its line).
    public static let unreadPriceReason = "price not read"

    /// The total was inferred from subtotal + tax (``inferredTotalReason``), not read: it agrees with the
    /// items by construction, so it is no evidence that the reading is right.
    public var totalInferred: Bool { reviewReasons.contains { $0.hasPrefix(Self.inferredTotalReason) } }

    /// Some item's price was supplied by the parser (``unreadPriceReason``): the items then agree with the
    /// total by construction.
    public var hasSuppliedPrices: Bool { reviewReasons.contains { $0.hasPrefix(Self.unreadPriceReason) } }
}

/// A calendar date read from a receipt.
public struct ReceiptDate: Codable, Sendable, Equatable {
    /// Four-digit year (two-digit years are read as 20xx).
    public var year: Int
    /// 1–12.
    public var month: Int
    /// 1–31.
    public var day: Int
    /// The date text as printed, e.g. `"03/14/2026"`.
    public var printed: String
    /// `true` when both day-first and month-first readings were valid calendar dates.
    public var ambiguous: Bool
    /// How day/month order was decided, e.g. `"month-first: second field > 12"`,
    /// `"month-first by preference (USD)"`, `"ISO"`, `"month name"`.
    public var resolution: String

    /// `YYYY-MM-DD`.
    public var iso: String { String(format: "%04d-%02d-%02d", year, month, day) }

    /// Creates a date.
    public init(year: Int, month: Int, day: Int, printed: String, ambiguous: Bool = false, resolution: String) {
        self.year = year
        self.month = month
        self.day = day
        self.printed = printed
        self.ambiguous = ambiguous
        self.resolution = resolution
    }
}

/// One purchased product.
public struct ReceiptItem: Codable, Sendable, Equatable {
    /// 1-based line numbers this item was read from (two for the name-line + weight-line form).
    public var lineNumbers: [Int]
    /// The product description as printed, with OCR repairs (`150Z` → `15OZ`).
    public var description: String
    /// Count or weight, when printed (`2 @ 1.99` → 2; `0.75 lb @ 2.99/lb` → 0.75).
    public var quantity: Decimal?
    /// `"each"`, `"lb"`, `"kg"`, `"oz"`, `"g"` when a quantity was printed.
    public var unit: String?
    /// Price per unit, when printed.
    public var unitPrice: Decimal?
    /// The line total as printed (before discounts).
    public var total: Decimal
    /// The sum of discounts attached to this item (positive).
    public var discount: Decimal
    /// OCR confidence of the lines involved, 0–1 (the lowest).
    public var confidence: Double

    /// Creates an item.
    public init(lineNumbers: [Int], description: String, quantity: Decimal? = nil, unit: String? = nil,
                unitPrice: Decimal? = nil, total: Decimal, discount: Decimal = 0, confidence: Double = 1) {
        self.lineNumbers = lineNumbers
        self.description = description
        self.quantity = quantity
        self.unit = unit
        self.unitPrice = unitPrice
        self.total = total
        self.discount = discount
        self.confidence = confidence
    }
}

/// A coupon or discount line.
public struct ReceiptDiscount: Codable, Sendable, Equatable {
    /// 1-based line number.
    public var lineNumber: Int
    /// The text as printed without the amount, e.g. `"COUPON GOYA CORN"`.
    public var description: String
    /// The amount taken off, positive.
    public var amount: Decimal
    /// Index into ``ParsedReceipt/items`` of the item it applies to, when one was found.
    public var itemIndex: Int?
    /// How it was attached: `"names item"` (shares words with the item's description), `"follows item"`,
    /// or `"unattached"`.
    public var attachment: String

    /// Creates a discount.
    public init(lineNumber: Int, description: String, amount: Decimal, itemIndex: Int?, attachment: String) {
        self.lineNumber = lineNumber
        self.description = description
        self.amount = amount
        self.itemIndex = itemIndex
        self.attachment = attachment
    }
}

/// A payment line.
public struct ReceiptTender: Codable, Sendable, Equatable {
    /// `"cash"`, `"card"` or `"other"`.
    public var kind: String
    /// The line as printed.
    public var text: String
    /// The amount tendered.
    public var amount: Decimal

    /// Creates a tender.
    public init(kind: String, text: String, amount: Decimal) {
        self.kind = kind
        self.text = text
        self.amount = amount
    }
}

/// How the parser classified one input line.
public enum ReceiptLineKind: String, Codable, Sendable, Equatable {
    /// The store name; address lines; other header text (phone, register, cashier…).
    case store, address, header
    /// The date/time line.
    case date
    /// A product line; a quantity/weight line belonging to the item above it.
    case item, itemDetail
    /// A coupon or discount.
    case discount
    /// Summary lines.
    case subtotal, tax, rounding, total
    /// Payment and change lines.
    case tender, change
    /// Anything else (footer, item counts, barcodes, OCR noise).
    case ignored
}

/// One input line and its classification.
public struct ReceiptLine: Codable, Sendable, Equatable {
    /// 1-based line number.
    public var number: Int
    /// The text as given.
    public var text: String
    /// What the parser took it to be.
    public var kind: ReceiptLineKind
    /// OCR confidence 0–100 (100 for typed text).
    public var confidence: Double

    /// Creates a line record.
    public init(number: Int, text: String, kind: ReceiptLineKind, confidence: Double) {
        self.number = number
        self.text = text
        self.kind = kind
        self.confidence = confidence
    }
}
