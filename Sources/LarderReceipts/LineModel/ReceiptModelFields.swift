import Foundation

/// The receipt fields the line model may decide instead of the rules (``ReceiptParserConfiguration/modelFields``):
/// each is taken from the model only where it measured better than the rules on held-out receipts
/// (`docs/design/receipt-model.md`).
public struct ReceiptModelFields: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The store name from the first line the model calls `store`.
    public static let store = ReceiptModelFields(rawValue: 1)
    /// The total from the lines the model calls `total` (the largest of their amounts).
    public static let total = ReceiptModelFields(rawValue: 2)
    /// The date from the first line the model calls `date` that reads as a date.
    public static let date = ReceiptModelFields(rawValue: 4)
    /// The items: every line the model calls `item` that ends in an amount.
    public static let items = ReceiptModelFields(rawValue: 8)
    /// Evidence, not replacement: the model's store only where the rules found none.
    public static let storeWhenMissing = ReceiptModelFields(rawValue: 16)
    /// The model's date only where the rules found none.
    public static let dateWhenMissing = ReceiptModelFields(rawValue: 32)
    /// The model's total only where the rules found none or inferred it (no printed total line was read).
    public static let totalWhenUnsure = ReceiptModelFields(rawValue: 64)
    /// A veto on the rules' items: an item whose every line the model calls a header or summary line (store,
    /// address, date, time, subtotal, tax, total, tender, change) is dropped.
    public static let itemVeto = ReceiptModelFields(rawValue: 128)
    /// None: the rules decide every field.
    public static let none: ReceiptModelFields = []
    /// What the parser uses by default: the uses where the model, trained on the tesseract lines of the photos'
    /// other folds (plus CORD and SROIE), measured better than the rules on the held-out fold and cost nothing on
    /// the sets it never saw (`docs/design/receipt-model.md`, 2026-12-08): the item veto and the store where the
    /// rules found none.
    public static let measuredBetter: ReceiptModelFields = [.itemVeto, .storeWhenMissing]
}

extension ReceiptParser {
    /// The shipped model as evidence inside the parse (``ReceiptParserConfiguration/modelFields``), before the
    /// receipt is assembled (its arithmetic checks see the vetoed items). Not on German till receipts: no German
    /// receipt has line labels, and there the veto dropped true items (receipts-de item count 0.808 → 0.538). Not on
    /// lines without geometry (a text receipt): the model learned lines with their boxes (position, price column,
    /// height), and without them it vetoed a plain item ("CANDLE 2.00" above the total, `BlocklistConfigTests`).
    func applyShippedLineModel(_ lines: [OCRLine], _ s: inout ParseState) {
        guard !configuration.modelFields.isEmpty, !s.german, let model = ReceiptLineModel.shipped,
            lines.contains(where: { $0.box.width > 0 && $0.box.height > 0 })
        else { return }
        applyLineModel(model, fields: configuration.modelFields, lines: lines, to: &s.receipt)
    }
}

extension ReceiptParser {
    /// Replaces the `fields` of a rules parse with what the line model reads from the same lines, where the model
    /// finds them (a field the model does not find keeps the rules' value).
    public func applyLineModel(_ model: ReceiptLineModel, fields: ReceiptModelFields, lines: [OCRLine],
                               to receipt: inout ParsedReceipt) {
        guard !fields.isEmpty, !lines.isEmpty else { return }
        let texts = lines.map { Self.clean($0.text) }
        let roles = model.roles(lines)
        let wholeUnits = Self.wholeUnitCurrencies.contains(receipt.currency)
        if fields.contains(.store), let i = roles.firstIndex(of: .store) {
            let name = Self.storeName(texts[i])
            if name.filter(\.isLetter).count >= 2 { receipt.store = name }
        }
        if fields.contains(.total) {
            let totals = roles.indices.filter { roles[$0] == .total }
                .compactMap { Self.trailingAmount(in: texts[$0], wholeUnits: wholeUnits)?.value }
            if let best = totals.max() { receipt.total = best }
        }
        if fields.contains(.date) {
            let evidence = Self.dateOrderEvidence(texts, currency: receipt.currency, currencyEvidence: receipt.currencyEvidence)
            for i in roles.indices where roles[i] == .date {
                if let d = parseDate(texts[i], currency: receipt.currency, receiptOrder: evidence) { receipt.date = d; break }
            }
        }
        applyEvidence(roles: roles, texts: texts, fields: fields, wholeUnits: wholeUnits, lines: lines, to: &receipt)
        if fields.contains(.items) {
            var items: [ReceiptItem] = []
            for i in roles.indices where roles[i] == .item {
                guard let a = Self.trailingAmount(in: texts[i], wholeUnits: wholeUnits), !a.negative else { continue }
                let name = Self.stripItemColumns(a.rest, wholeUnits: wholeUnits).description
                guard name.contains(where: \.isLetter) else { continue }
                items.append(ReceiptItem(lineNumbers: [i + 1], description: name, total: a.value,
                                         confidence: lines[i].confidence / 100))
            }
            if !items.isEmpty { receipt.items = items }
        }
    }

    /// The roles whose lines never hold a purchased item.
    static let notItemRoles: Set<ReceiptLineRole> = [.store, .address, .date, .time, .subtotal, .tax, .total, .tender, .change]

    /// The evidence uses (``ReceiptModelFields/storeWhenMissing``, ``ReceiptModelFields/dateWhenMissing``,
    /// ``ReceiptModelFields/totalWhenUnsure``, ``ReceiptModelFields/itemVeto``): the model fills a field the rules
    /// left empty or vetoes what it reads as a header or summary line, and otherwise the rules' parse stands.
    private func applyEvidence(roles: [ReceiptLineRole], texts: [String], fields: ReceiptModelFields, wholeUnits: Bool,
                               lines: [OCRLine], to receipt: inout ParsedReceipt) {
        if fields.contains(.storeWhenMissing), receipt.store == nil, let i = roles.firstIndex(of: .store) {
            let name = Self.storeName(texts[i])
            if name.filter(\.isLetter).count >= 2 { receipt.store = name }
        }
        if fields.contains(.dateWhenMissing), receipt.date == nil {
            let evidence = Self.dateOrderEvidence(texts, currency: receipt.currency, currencyEvidence: receipt.currencyEvidence)
            for i in roles.indices where roles[i] == .date {
                if let d = parseDate(texts[i], currency: receipt.currency, receiptOrder: evidence) { receipt.date = d; break }
            }
        }
        if fields.contains(.totalWhenUnsure), receipt.total == nil || receipt.totalInferred {
            let totals = roles.indices.filter { roles[$0] == .total }
                .compactMap { Self.trailingAmount(in: texts[$0], wholeUnits: wholeUnits)?.value }
            if let best = totals.max() { receipt.total = best }
        }
        if fields.contains(.itemVeto) {
            receipt.items.removeAll { item in
                !item.lineNumbers.isEmpty && item.lineNumbers.allSatisfy { n in
                    roles.indices.contains(n - 1) && Self.notItemRoles.contains(roles[n - 1])
                }
            }
        }
    }
}
