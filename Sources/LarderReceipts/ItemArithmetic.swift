import Foundation

/// Item prices checked against the receipt's own arithmetic: the items (less discounts) add up to the printed
/// subtotal, or to the printed total less tax and rounding (or less rounding alone, when the prices include the
/// tax). When they do not, one misread price shows: ``ReceiptParser/repairItemPriceByArithmetic(_:)`` changes a
/// single digit of one price when that alone makes the items add up to a sum printed twice alike.
public enum ItemArithmetic {
    /// A sum of printed amounts that the items less discounts should equal, and how it was made.
    public struct Target: Sendable, Equatable {
        public var value: Decimal
        public var how: String
    }

    /// The targets of a parsed receipt, from printed amounts only: the subtotal, and a total read from its own
    /// line (`printed total…` evidence, not inferred) less tax and rounding, or less rounding alone.
    public static func targets(_ r: ParsedReceipt, totalInferred: Bool) -> [Target] {
        var targets: [Target] = []
        if let subtotal = r.subtotal, subtotal > 0 {
            targets.append(.init(value: subtotal, how: "subtotal \(ReceiptParser.format(subtotal))"))
        }
        if let total = r.total, !totalInferred, r.totalEvidence?.hasPrefix("printed total") == true {
            let round = r.rounding ?? 0
            if let tax = r.tax, tax != 0 {
                targets.append(.init(value: total - tax - round,
                                     how: "total \(ReceiptParser.format(total)) − tax \(ReceiptParser.format(tax))"))
            }
            targets.append(.init(value: total - round, how: "total \(ReceiptParser.format(total))"))
        }
        return targets.filter { $0.value > 0 }
    }

    /// The items' sum less discounts.
    public static func net(_ r: ParsedReceipt) -> Decimal {
        r.items.reduce(Decimal(0)) { $0 + $1.total } - r.discounts.reduce(Decimal(0)) { $0 + $1.amount }
    }

    /// Targets printed twice alike: the subtotal equal to the total less tax and rounding. One printing alone
    /// may hold a tax the parser did not read (a "TOTAL INCLUDES … TAX OF 0.68" line under an untaxed total).
    static func confirmed(_ targets: [Target]) -> [Target] {
        targets.filter { t in targets.contains { $0.how != t.how && ReceiptParser.amountsAgree($0.value, t.value) } }
    }

    /// The one price that, changed in one digit, makes `prices` add up to a target: its index, the new value
    /// and the target's description; nil when the items already add up to a target, or no price or more than
    /// one would. A price its line's quantity × unit price confirms (`quantityPrices`) is not changed.
    static func singleDigitRepair(prices: [Decimal], net: Decimal, targets: [Target],
                                  quantityPrices: [Decimal?]) -> (index: Int, value: Decimal, how: String)? {
        var found: [(index: Int, value: Decimal, how: String)] = []
        for target in targets {
            let gap = target.value - net
            guard gap != 0 else { return nil }
            for (i, price) in prices.enumerated() {
                let candidate = price + gap
                guard candidate > 0, oneDigitApart(price, candidate) else { continue }
                if let product = quantityPrices[i], ReceiptParser.amountsAgree(product, price) { continue }
                if !found.contains(where: { $0.index == i && $0.value == candidate }) {
                    found.append((i, candidate, target.how))
                }
            }
        }
        return found.count == 1 ? found[0] : nil
    }

    /// Whether two amounts print with the same number of digits and differ in exactly one of them.
    static func oneDigitApart(_ a: Decimal, _ b: Decimal) -> Bool {
        let x = Array(ReceiptParser.format(a).filter(\.isNumber)), y = Array(ReceiptParser.format(b).filter(\.isNumber))
        guard x.count == y.count else { return false }
        return zip(x, y).filter { $0 != $1 }.count == 1
    }
}

extension ReceiptParser {
    /// Replaces one item price that OCR misread by a digit when that makes the items add up to a sum printed
    /// twice alike (``ItemArithmetic/confirmed(_:)``); the item is named for review with both amounts.
    func repairItemPriceByArithmetic(_ s: inout ParseState) {
        let items = s.receipt.items
        guard items.count >= 2, !s.wholeUnits else { return }
        let targets = ItemArithmetic.confirmed(ItemArithmetic.targets(s.receipt, totalInferred: s.totalInferred))
        guard !targets.isEmpty else { return }
        let quantityPrices: [Decimal?] = items.map { item in
            guard let q = item.quantity, let each = item.unitPrice, q > 0 else { return nil }
            var product = q * each, rounded = Decimal()
            NSDecimalRound(&rounded, &product, 2, .plain)
            return rounded
        }
        guard let fix = ItemArithmetic.singleDigitRepair(prices: items.map(\.total), net: ItemArithmetic.net(s.receipt),
                                                         targets: targets, quantityPrices: quantityPrices) else { return }
        let old = items[fix.index].total
        s.receipt.items[fix.index].total = fix.value
        s.notes.append("price repaired on line \(items[fix.index].lineNumbers.last ?? 0) (\(items[fix.index].description)): "
            + "read \(Self.format(old)), \(Self.format(fix.value)) makes the items add up to the \(fix.how)")
    }
}
