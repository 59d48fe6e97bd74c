import Foundation

/// The receipt's own arithmetic as evidence for its total: subtotal + tax, items − discounts + tax, and for a
/// tax-inclusive receipt the items alone. Used by ``ReceiptParser`` to choose between the amounts printed on
/// total and payment lines when OCR misread one of them.
enum TotalArithmetic {
    /// The sums the total should equal, most telling first, with how each was made.
    static func expectedSums(subtotal: Decimal?, tax: Decimal?, rounding: Decimal?, itemsNet: Decimal?) -> [(Decimal, String)] {
        var sums: [(Decimal, String)] = []
        let round = rounding ?? 0
        if let tax, tax != 0 {
            if let subtotal { sums.append((subtotal + tax + round, "subtotal + tax")) }
            if let itemsNet { sums.append((itemsNet + tax + round, "items + tax")) }
        } else {
            if let itemsNet { sums.append((itemsNet + round, "items")) }
        }
        return sums.filter { $0.0 > 0 }
    }

    /// A different total when `total` agrees with none of the expected sums and a printed total or payment
    /// does (the first such, printed totals first); nil to keep `total`.
    static func choose(total: Decimal?, printedTotals: [Decimal], payments: [Decimal], subtotal: Decimal?,
                       tax: Decimal?, rounding: Decimal?, itemsNet: Decimal?, tolerance: Decimal) -> (value: Decimal, evidence: String)? {
        let sums = expectedSums(subtotal: subtotal, tax: tax, rounding: rounding, itemsNet: itemsNet)
        guard !sums.isEmpty else { return nil }
        func agreement(_ x: Decimal) -> String? { sums.first { abs($0.0 - x) <= tolerance }?.1 }
        if let total, agreement(total) != nil { return nil }
        for (value, source) in printedTotals.map({ ($0, "printed total") }) + payments.map({ ($0, "payment") }) where value > 0 {
            if let how = agreement(value) { return (value, "\(source) \(ReceiptParser.format(value)) = \(how)") }
        }
        return nil
    }
}
