import Foundation

/// The summary block's own arithmetic where the total line was lost: tax lines print their rate and the amount
/// it was applied to, and payments add up to what was due. Each inference names its figures in the receipt's
/// total evidence, and a total that was not read from its own line is flagged for review (`total inferred`).
extension ReceiptParser {
    /// A tax line that states its rate: its line, the rate (percent) and the amount read for it.
    struct RatedTax {
        var line: Int
        var rate: Decimal
        var amount: Decimal
    }

    /// The percentage a line prints ("VAT @12.50% ON 885.00", "+ 19,0% MwSt:"), nil without one.
    static func printedRate(_ text: String) -> Decimal? {
        guard let rate = text.firstMatch(ofPattern: #"(\d{1,2}(?:[.,]\d{1,3})?)\s*%"#)?[1] else { return nil }
        return Decimal(string: rate.replacingOccurrences(of: ",", with: "."), locale: Locale(identifier: "en_US_POSIX"))
    }

    /// `value` rounded to the cent, half away from zero (as tills round a tax).
    static func cents(_ value: Decimal) -> Decimal {
        var input = value, out = Decimal()
        NSDecimalRound(&out, &input, 2, .plain)
        return out
    }

    /// The tax lines below `baseLine` whose printed rate of `base` is their amount to the cent. A tax amount whose
    /// decimal point OCR read as a dash ("43-37" for 4.90 % of 885.00 = 43.37) is taken when its digits are the
    /// rate's amount: the arithmetic chooses between the readings of the token. Nil when a tax line prints no rate,
    /// another amount or none (a tax the arithmetic cannot explain).
    func ratedTaxes(_ s: ParseState, base: Decimal, baseLine: Int) -> [RatedTax]? {
        var rated: [RatedTax] = []
        for i in (baseLine + 1)..<s.texts.count {
            let text = s.texts[i]
            let amount = Self.trailingAmount(in: text, wholeUnits: s.wholeUnits)?.value
            // Tax lines: read as tax, or a tax label whose amount was not read ("GRU-TAX @ 4.90% ON 85. oo 43-37").
            guard s.kinds[i] == .tax || amount == nil && Self.summaryKind(text.uppercased() + " 1.00") == .tax else { continue }
            // A tax the arithmetic cannot explain (no rate, another amount, its amount lost): no inference.
            guard let rate = Self.printedRate(text), rate > 0, rate < 100 else { return nil }
            let due = Self.cents(base * rate / 100)
            let lastToken = text.split(separator: " ").last.map(String.init) ?? ""
            if let amount, abs(amount - due) <= Decimal(1) / 100 {
                rated.append(RatedTax(line: i, rate: rate, amount: amount))
            } else if amount == nil, due > 0, lastToken.filter(\.isNumber) == Self.format(due).filter(\.isNumber),
                      lastToken.range(ofPattern: #"^\d{1,6}[-=~]\d\d$"#) != nil {
                rated.append(RatedTax(line: i, rate: rate, amount: due))
            } else {
                return nil
            }
        }
        return rated
    }

    /// No total read at all, but a subtotal — or a net amount ("Netto(1) Eur 129,75") — and tax lines that each
    /// print their rate and the amount that rate makes of it ("VAT @12.50% ON 885.00 110.63", "GRU-TAX @ 4.90%
    /// 43-37"; "+ 19,0% MwSt: 24,65"): the receipt states its total as their sum, also when the total's own line
    /// is unreadable. Flagged for review as inferred, its evidence naming each figure.
    func inferTotalFromRatedTaxes(_ s: inout ParseState) {
        guard s.receipt.total == nil else { return }
        let base: (line: Int, value: Decimal, what: String)
        if let sub = s.summaryLines.subtotals.first {
            base = (sub.line, sub.value, "subtotal")
        } else if let net = netAmountLine(s) {
            base = (net.line, net.value, "net")
        } else {
            return
        }
        guard base.value > 0, let taxes = ratedTaxes(s, base: base.value, baseLine: base.line), !taxes.isEmpty else { return }
        let taxSum = taxes.reduce(Decimal(0)) { $0 + $1.amount }
        s.receipt.total = base.value + taxSum + (s.receipt.rounding ?? 0)
        s.receipt.tax = taxSum
        let parts = taxes.map { "\(NSDecimalNumber(decimal: $0.rate).stringValue)% \(Self.format($0.amount))" }
        s.totalEvidence = "\(base.what) \(Self.format(base.value)) + tax at its printed rate (\(parts.joined(separator: ", "))); no total line read"
        s.totalInferred = true
    }

    /// A line that prints the net amount the tax is added to ("Netto(1) Eur 129,75", "NET 12.00"), before any item-free
    /// summary line; nil when there is none or several disagree.
    func netAmountLine(_ s: ParseState) -> (line: Int, value: Decimal)? {
        let nets = s.texts.indices.compactMap { i -> (line: Int, value: Decimal)? in
            let upper = s.texts[i].uppercased()
            guard upper.range(ofPattern: #"^\W*NET(TO)?\b"#) != nil,
                  let amount = Self.trailingAmount(in: s.texts[i], wholeUnits: s.wholeUnits), !amount.negative else { return nil }
            return (i, amount.value)
        }
        guard let first = nets.first, nets.allSatisfy({ $0.value == first.value }) else { return nil }
        return first
    }
}

extension ReceiptParser {
    /// "A 10.40% TAX 10.86" then "TOTAL TAK 10.86" under the card payment: a total line repeating the amount of the
    /// tax line right above it is the tax's own total (its TAX misread), not the amount due — the items cost far more.
    /// The card payment nearest the items' sum (within 5 %) is the total then; without one the total is kept.
    func replaceTotalRepeatingTheTax(_ s: inout ParseState) {
        guard let total = s.receipt.total, total > 0, let line = s.summaryLines.total, line > 0, s.kinds[line - 1] == .tax,
              Self.trailingAmount(in: s.texts[line - 1], wholeUnits: s.wholeUnits)?.value == total else { return }
        let net = ItemArithmetic.net(s.receipt)
        guard net > 2 * total, (s.receipt.change ?? 0) == 0,
              let card = s.receipt.tenders.filter({ $0.kind == "card" && $0.amount > total }).min(by: { abs($0.amount - net) < abs($1.amount - net) }),
              abs(card.amount - net) <= net * 5 / 100 else { return }
        s.receipt.total = card.amount
        s.totalEvidence = "card payment \(Self.format(card.amount)), near the items' \(Self.format(net)); the total line "
            + "\(Self.format(total)) repeats the tax above it"
    }
}

extension ReceiptParser {
    /// No total line read at all, but a subtotal and the charges printed under it (tax, service, tip): the amount
    /// due is their sum, as the summary block adds it ("SUBTOTAL $16.80", "Svc CHG $1.68", "J $1.29" — the GST
    /// line whose label OCR lost — and the total's own line unread). An amount line right under the charges
    /// whose label was lost (at most one letter before the amount) is one more charge, or the total itself when it
    /// equals the sum so far. A charge printing a rate that the arithmetic does not explain stops the inference, and
    /// taxes a European receipt prints as included (MwSt, TVA, IVA, BTW, USt) are not added.
    /// Flagged for review as inferred, the evidence naming each figure.
    func inferTotalFromCharges(_ s: inout ParseState) {
        guard s.receipt.total == nil, !s.german, let sub = s.summaryLines.subtotals.last, sub.value > 0,
              let lastTax = s.summaryLines.tax.last, s.summaryLines.tax.allSatisfy({ $0 > sub.line }),
              !s.kinds.contains(.total), let tax = s.receipt.tax, tax > 0 else { return }
        let included = ["MWST", "UST", "TVA", "IVA", "BTW"]
        guard !s.summaryLines.tax.contains(where: { i in
            let u = s.texts[i].uppercased()
            return included.contains { Self.hasWord(u, $0) } || u.contains("INCL")
        }) else { return }
        // A charge that prints its rate must be that rate of the subtotal, or of the subtotal and the charges above it
        // (GST on the service charge too): a rate the arithmetic does not explain says an amount was misread.
        var running = sub.value
        for i in s.summaryLines.tax {
            guard let amount = Self.trailingAmount(in: s.texts[i], wholeUnits: s.wholeUnits)?.signed else { return }
            if let rate = Self.printedRate(s.texts[i]) {
                guard [sub.value, running].contains(where: { abs(Self.cents($0 * rate / 100) - amount) <= Decimal(1) / 100 }) else { return }
            }
            running += amount
        }
        let round = s.receipt.rounding ?? 0
        var total = sub.value + tax + round
        var evidence = "subtotal \(Self.format(sub.value)) + charges \(Self.format(tax))"
        if let lost = unlabelledAmount(s, after: lastTax) {
            if abs(lost - total) <= configuration.totalTolerance {
                evidence += " = \(Self.format(lost)) printed under them"
            } else if lost < sub.value {
                total += lost
                evidence += " + \(Self.format(lost)) printed under them without its label"
            }
        }
        s.receipt.total = total
        s.totalEvidence = evidence + "; no total line read"
        s.totalInferred = true
    }

    /// The amount of the line right after `line` when OCR lost its label (at most one letter before the amount).
    private func unlabelledAmount(_ s: ParseState, after line: Int) -> Decimal? {
        guard line + 1 < s.texts.count, s.kinds[line + 1] == .ignored,
              let amount = Self.trailingAmount(in: s.texts[line + 1], wholeUnits: s.wholeUnits), !amount.negative,
              amount.value > 0, Self.letterCount(amount.rest) <= 1 else { return nil }
        return amount.value
    }

    /// No total line read and no charges to add, but a subtotal and a payment under it: the payment that covers the
    /// subtotal with at most ``maximumSurcharge`` on top (tax, service) is what was due ("Subtotal 8.57", the total's
    /// line misread, "Tendered 9.35"); a payment less the change when a change was read. Several such payments that
    /// disagree, or none, infer nothing. Flagged for review as inferred.
    func inferTotalFromPayment(_ s: inout ParseState) {
        guard s.receipt.total == nil, !s.german, let sub = s.summaryLines.subtotals.last, sub.value > 0,
              !s.kinds.contains(.total) else { return }
        let change = s.receipt.change ?? 0
        let paid = s.summaryLines.tenders.filter { $0 > sub.line }.compactMap { i -> Decimal? in
            guard let amount = Self.trailingAmount(in: s.texts[i], wholeUnits: s.wholeUnits), !amount.negative else { return nil }
            return amount.value > change ? amount.value - change : amount.value
        }
        let floor = sub.value + max(0, s.receipt.tax ?? 0)
        let covering = Set(paid.filter { $0 >= floor && $0 <= sub.value * (1 + Self.maximumSurcharge) })
        guard covering.count == 1, let value = covering.first else { return }
        s.receipt.total = value
        s.totalEvidence = "payment \(Self.format(value)) covering the subtotal \(Self.format(sub.value)); no total line read"
        s.totalInferred = true
    }

    /// Tax, service and tip on top of a subtotal: at most this share of it.
    static let maximumSurcharge = Decimal(30) / 100
}
