import Foundation

/// Dates whose print OCR damaged in a way the digits still determine (issue 12, photo dates).
extension ReceiptParser {
    /// "56/2016 10:43:03 AM" for 5/6/2016: an unpadded numeric date whose first slash OCR lost. Read only beside a
    /// time of day (where a till prints its date) and only when the two digits before the slash make no month
    /// ("12/2016" is a card's expiry), so each is one field; day and month then take the receipt's order as any
    /// ambiguous date does (``dateOrder(_:separator:currency:receiptOrder:)``).
    func slashLostDate(_ u: String, currency: String, receiptOrder: DateOrderEvidence?) -> ReceiptDate? {
        guard Self.parseTime(u) != nil,
              let regex = RegexCache.regex(#"(?<![\d/.,:-])([1-9])([1-9])/((?:19|20)\d{2})(?![\d/.,-])"#),
              let m = regex.firstMatch(in: u, range: NSRange(u.startIndex..., in: u)),
              let whole = Range(m.range, in: u), let r1 = Range(m.range(at: 1), in: u),
              let r2 = Range(m.range(at: 2), in: u), let r3 = Range(m.range(at: 3), in: u),
              let a = Int(u[r1]), let b = Int(u[r2]), let y = Int(u[r3]), a * 10 + b > 12 else { return nil }
        let printed = String(u[whole])
        if a == b { return ReceiptDate(year: y, month: a, day: b, printed: printed, resolution: "day equals month (a slash lost)") }
        let (order, why) = dateOrder(u, separator: "/", currency: currency, receiptOrder: receiptOrder)
        let (month, day) = order == .monthFirst ? (a, b) : (b, a)
        return ReceiptDate(year: y, month: month, day: day, printed: printed, ambiguous: true,
                           resolution: (order == .monthFirst ? "month-first " : "day-first ") + why + " (a slash lost)")
    }
}
