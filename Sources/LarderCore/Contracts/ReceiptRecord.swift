import Foundation
import LarderReceipts
import LarderRecipes

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
    // `check.addsUp`, and a receipt OCR read nothing from (a blank photo) has neither.
    public struct Store: Codable, Sendable, Equatable {
        @ExplicitNull public var name: String?
        @ExplicitNull public var address: String?
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
        @ExplicitNull public var subtotal: Double?
        @ExplicitNull public var tax: Double?
        @ExplicitNull public var total: Double?
        @ExplicitNull public var tendered: Double?
        @ExplicitNull public var change: Double?
    }

    public struct Check: Codable, Sendable, Equatable {
        /// items − discounts + tax ≈ total (or items − discounts ≈ total where prices include tax); null without a
        /// printed total.
        @ExplicitNull public var addsUp: Bool?
        @ExplicitNull public var computed: Double?
        @ExplicitNull public var printed: Double?

        public init(addsUp: Bool?, computed: Double?, printed: Double?) {
            self.addsUp = addsUp
            self.computed = computed
            self.printed = printed
        }

        private enum CodingKeys: String, CodingKey { case addsUp, computed, printed }
        /// The key's spelling before keys were all camelCase, in results stored then.
        private enum LegacyKeys: String, CodingKey { case addsUp = "adds_up" }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            addsUp = try c.decodeIfPresent(Bool.self, forKey: .addsUp)
                ?? decoder.container(keyedBy: LegacyKeys.self).decodeIfPresent(Bool.self, forKey: .addsUp)
            computed = try c.decodeIfPresent(Double.self, forKey: .computed)
            printed = try c.decodeIfPresent(Double.self, forKey: .printed)
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
    @ExplicitNull public var date: String?
    @ExplicitNull public var time: String?
    @ExplicitNull public var dateText: String?
    @ExplicitNull public var currency: String?
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
            addsUp: receipt.total == nil ? nil : !mismatch, computed: money(computed), printed: money(receipt.total))
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
    @ExplicitNull public var quantity: Double?
    @ExplicitNull public var unit: String?
    @ExplicitNull public var price: Double?
    @ExplicitNull public var purchaseDate: String?
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
}
