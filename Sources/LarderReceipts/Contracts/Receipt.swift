import Foundation
import LarderJSON

/// A receipt as Larder stores and exports it: the one Swift type for `schemas/receipt.schema.json`.
///
/// Money is `Decimal`, rounded to the cent, and quantities to the thousandth (``Decimal/rounded(places:)``): JSON
/// numbers with exactly the printed digits, and sums (``Check/computed``) without binary rounding error. The parser's
/// working result, with its evidence, is ``ParsedReceipt``; ``init(_:ocrLines:)`` makes this from it.
public struct Receipt: Codable, Sendable, Equatable {
    // Store, Totals and Check write every key, null when unknown: the schema requires `store.name` and
    // `check.addsUp`, and a receipt OCR read nothing from (a blank photo) has neither.
    public struct Store: Codable, Sendable, Equatable {
        @ExplicitNull public var name: String?
        @ExplicitNull public var address: String?

        public init(name: String?, address: String?) {
            self.name = name
            self.address = address
        }
    }

    public struct Item: Codable, Sendable, Equatable {
        public var description: String
        public var quantity: Decimal?
        public var unit: String?
        public var unitPrice: Decimal?
        public var total: Decimal
        public var discounts: [Discount]
        /// The OCR line the item starts on (1-based).
        public var line: Int

        public init(
            description: String, quantity: Decimal? = nil, unit: String? = nil, unitPrice: Decimal? = nil,
            total: Decimal, discounts: [Discount] = [], line: Int
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
        public var amount: Decimal
        public var line: Int

        public init(description: String, amount: Decimal, line: Int) {
            self.description = description
            self.amount = amount
            self.line = line
        }
    }

    public struct Totals: Codable, Sendable, Equatable {
        @ExplicitNull public var subtotal: Decimal?
        @ExplicitNull public var tax: Decimal?
        @ExplicitNull public var total: Decimal?
        @ExplicitNull public var tendered: Decimal?
        @ExplicitNull public var change: Decimal?

        public init(subtotal: Decimal?, tax: Decimal?, total: Decimal?, tendered: Decimal?, change: Decimal?) {
            self.subtotal = subtotal
            self.tax = tax
            self.total = total
            self.tendered = tendered
            self.change = change
        }
    }

    public struct Check: Codable, Sendable, Equatable {
        /// items − discounts + tax ≈ total (or items − discounts ≈ total where prices include tax); null without a
        /// printed total.
        @ExplicitNull public var addsUp: Bool?
        @ExplicitNull public var computed: Decimal?
        @ExplicitNull public var printed: Decimal?

        public init(addsUp: Bool?, computed: Decimal?, printed: Decimal?) {
            self.addsUp = addsUp
            self.computed = computed
            self.printed = printed
        }

        private enum CodingKeys: String, CodingKey { case addsUp, computed, printed }
        /// The key's spelling before keys were all camelCase, in results stored then.
        private enum LegacyKeys: String, CodingKey { case addsUp = "adds_up" }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            addsUp =
                try c.decodeIfPresent(Bool.self, forKey: .addsUp)
                ?? decoder.container(keyedBy: LegacyKeys.self).decodeIfPresent(Bool.self, forKey: .addsUp)
            computed = try c.decodeIfPresent(Decimal.self, forKey: .computed)
            printed = try c.decodeIfPresent(Decimal.self, forKey: .printed)
        }
    }

    public struct Line: Codable, Sendable, Equatable {
        public struct Box: Codable, Sendable, Equatable {
            public var x: Int, y: Int, width: Int, height: Int
        }

        public var number: Int
        public var text: String
        /// OCR confidence, 0–100.
        public var confidence: Double
        public var box: Box?
        /// What the parser took the line to be (``ReceiptLineKind``).
        public var role: String?
    }

    public var store: Store
    @ExplicitNull public var date: String?
    @ExplicitNull public var time: String?
    @ExplicitNull public var dateText: String?
    @ExplicitNull public var currency: String?
    public var items: [Item]
    public var totals: Totals
    public var check: Check
    public var lines: [Line]
    /// The items' mean OCR confidence, 0–1 (0 without items).
    public var confidence: Double
    /// Why the parser wants a person to look (totals that don't add up, no total, no date…).
    public var reviewReasons: [String]
}

extension Receipt {
    /// The contract for what the parser read from `ocrLines` (their boxes become the lines' boxes).
    public init(_ receipt: ParsedReceipt, ocrLines: [OCRLine]) {
        store = Store(name: receipt.store, address: receipt.address)
        date = receipt.date?.iso
        time = receipt.time
        dateText = receipt.date.map { "\($0.printed) (\($0.resolution))" }
        currency = receipt.currency.count == 3 ? receipt.currency.uppercased() : nil
        items = receipt.items.enumerated().map { index, item in
            Item(
                description: item.description, quantity: item.quantity?.rounded(places: 3).positive,
                unit: item.unit, unitPrice: item.unitPrice?.rounded(places: 2), total: item.total.rounded(places: 2),
                discounts: receipt.discounts.filter { $0.itemIndex == index }.map {
                    Discount(description: $0.description, amount: -$0.amount.rounded(places: 2), line: $0.lineNumber)
                },
                line: item.lineNumbers.first ?? 1)
        }
        let tendered = receipt.tenders.reduce(Decimal(0)) { $0 + $1.amount }
        totals = Totals(
            subtotal: receipt.subtotal?.rounded(places: 2), tax: receipt.tax?.rounded(places: 2),
            total: receipt.total?.rounded(places: 2),
            tendered: receipt.tenders.isEmpty ? nil : tendered.rounded(places: 2),
            change: receipt.change?.rounded(places: 2))
        let itemsSum = receipt.items.reduce(Decimal(0)) { $0 + $1.total }
        let discounts = receipt.discounts.reduce(Decimal(0)) { $0 + $1.amount }
        let computed = itemsSum - discounts + (receipt.tax ?? 0) + (receipt.rounding ?? 0)
        let mismatch = receipt.reviewReasons.contains { $0.hasPrefix("total mismatch") }
        check = Check(
            addsUp: receipt.total == nil ? nil : !mismatch, computed: computed.rounded(places: 2),
            printed: receipt.total?.rounded(places: 2))
        lines = receipt.lines.map { line in
            let box = line.number - 1 < ocrLines.count ? ocrLines[line.number - 1].box : nil
            return Line(
                number: line.number, text: line.text, confidence: min(max(line.confidence, 0), 100),
                box: box.flatMap {
                    $0.width > 0 ? Line.Box(x: $0.x, y: $0.y, width: $0.width, height: $0.height) : nil
                },
                role: line.kind.rawValue)
        }
        confidence =
            receipt.items.isEmpty ? 0 : receipt.items.map(\.confidence).reduce(0, +) / Double(receipt.items.count)
        reviewReasons = receipt.needsReview ? receipt.reviewReasons : []
    }
}

extension Decimal {
    /// Rounded to `places` decimal places, halves away from zero (money to the cent: `places` 2).
    public func rounded(places: Int) -> Decimal {
        var value = self
        var result = Decimal()
        NSDecimalRound(&result, &value, places, .plain)
        return result
    }

    /// Self when above zero, else nil (a quantity of zero or less is unknown).
    var positive: Decimal? { self > 0 ? self : nil }
}
