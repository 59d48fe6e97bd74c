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

/// A printed total misread in its one printing: OCR changed a glyph or two ("6.69" for 6.65, "$47.96" for 47.31,
/// "27.96" for 327.96) while the receipt's other printed amounts still add up. A sum made of other printed
/// amounts (subtotal + tax, the amount paid) that is a glyph or two away from the total replaces it when the
/// total's own reading is the less sure one (its amount read with lower confidence than every amount of the
/// sum) or when the items' sum agrees with that sum — two independent printings against one.
enum TotalRepair {
    /// A sum of printed amounts that the total should equal: its value, the lowest OCR confidence of its
    /// amounts, and how it was made.
    struct Witness {
        var value: Decimal
        var confidence: Double
        var how: String
    }

    /// The repaired total and its evidence, or nil to keep `total`. `corroborations` are sums that share no
    /// amount with a witness (the items' sum; a tax-inclusive subtotal): a total agreeing with one is kept, and one
    /// agreeing with a witness confirms it, but they never stand alone, since one misread item moves the items'
    /// sum by a glyph as well.
    static func repair(total: Decimal, totalConfidence: Double, witnesses: [Witness], corroborations: [Decimal],
                       tolerance: Decimal) -> (value: Decimal, evidence: String)? {
        func agrees(_ a: Decimal, _ b: Decimal) -> Bool { abs(a - b) <= tolerance }
        if witnesses.contains(where: { agrees($0.value, total) }) || corroborations.contains(where: { agrees($0, total) }) {
            return nil
        }
        var choices: [(value: Decimal, evidence: String, distance: Int)] = []
        for witness in witnesses where witness.value > 0 && !isCashRounding(total, witness.value) {
            // The value the paper most likely printed: the witness, or an agreeing items' sum nearer the total's glyphs.
            let confirmed = corroborations.filter { agrees($0, witness.value) }
            let candidates = [witness.value] + confirmed
            guard let best = candidates.map({ ($0, glyphDistance(total, $0)) }).min(by: { $0.1 < $1.1 }), best.1 <= 2 else { continue }
            // A witness with fewer digits than the total may be the one that lost a glyph: only the items can tell.
            let surer = witness.confidence >= totalConfidence + margin && digitCount(best.0) >= digitCount(total)
            guard surer || !confirmed.isEmpty else { continue }
            let why = surer ? "read surer than the total (\(Int(witness.confidence)) > \(Int(totalConfidence)))" : "the items agree"
            choices.append((best.0, "printed total \(ReceiptParser.format(total)) misread: \(witness.how) = \(ReceiptParser.format(best.0)), \(why)", best.1))
        }
        guard let first = choices.min(by: { $0.distance < $1.distance }) else { return nil }
        // Two witnesses pointing at different values: no repair.
        guard choices.allSatisfy({ agrees($0.value, first.value) }) else { return nil }
        return (first.value, first.evidence)
    }

    /// How much surer (OCR confidence, 0–100) the witness's amounts must be read than the total's: a clear margin,
    /// not the noise between two readings of the same print.
    static let margin: Double = 5

    /// A total rounded to the 5-cent coin the witness's sum was rounded from (41.48 due, 41.50 printed).
    static func isCashRounding(_ total: Decimal, _ sum: Decimal) -> Bool {
        abs(total - sum) < Decimal(5) / 100 && ReceiptParser.isMultiple(total, of: Decimal(5) / 100)
    }

    static func digitCount(_ d: Decimal) -> Int { ReceiptParser.format(abs(d)).filter(\.isNumber).count }

    /// Edit distance between the digits of two amounts printed with two decimals ("6.69" vs "6.65": 1; "27.96"
    /// vs "327.96": 1): how many glyphs OCR would have had to change.
    static func glyphDistance(_ a: Decimal, _ b: Decimal) -> Int {
        func digits(_ d: Decimal) -> [Character] { Array(ReceiptParser.format(abs(d)).filter(\.isNumber)) }
        return EditDistance.levenshtein(digits(a), digits(b))
    }
}

extension ReceiptParser {
    /// Where the summary amounts were printed (line indices), for their OCR confidence.
    struct SummaryLines {
        var subtotals: [(line: Int, value: Decimal)] = []
        var tax: [Int] = []
        var total: Int?
        var tenders: [Int] = []
        var change: Int?
    }

    /// Replaces a printed total that OCR misread by a glyph or two with the sum the receipt's other printed
    /// amounts make (see ``TotalRepair``). Only a total read from its own line is repaired; the evidence names
    /// both figures.
    func repairMisreadTotal(_ s: inout ParseState) {
        let r = s.receipt
        // A total printed twice alike ("Total: 44,50" … "Total Due: 44.50") is no misreading.
        guard let total = r.total, let totalLine = s.summaryLines.total, !s.totalInferred,
              s.totalEvidence?.hasPrefix("printed total") == true, s.printedTotals.filter({ $0 == total }).count < 2,
              !s.strongTotal else { return }  // a rounded or adjusted total differs from the sums on purpose
        let lines = s.summaryLines
        var witnesses: [TotalRepair.Witness] = []
        let round = r.rounding ?? 0
        // The subtotal the tax is added to: the last one printed above the tax ("Food Sub-Total 6.74", discounts,
        // "SUB TOTAL 6.09", "Sales Tax 0.56"); a subtotal printed under the tax lines holds them.
        let firstTax = lines.tax.first ?? totalLine
        if let (sub, subtotal) = lines.subtotals.last(where: { $0.line < firstTax }) {
            if let tax = r.tax, tax != 0, !lines.tax.isEmpty, lines.tax.allSatisfy({ $0 > sub && $0 < totalLine }) {
                let confidence = ([sub] + lines.tax).map { amountConfidence(s, $0) }.min() ?? 0
                witnesses.append(.init(value: subtotal + tax + round, confidence: confidence, how: "subtotal + tax"))
            } else if r.tax == nil, let (line, value) = bareAmountBetween(s, sub, totalLine) {
                // "Subtotal 14,30" / "1,32" / "Total 14,62": the tax whose label OCR lost.
                witnesses.append(.init(value: subtotal + value + round, confidence: min(amountConfidence(s, sub), amountConfidence(s, line)),
                                       how: "subtotal + unlabelled \(Self.format(value))"))
            }
        }
        if lines.tenders.count == 1, let tender = r.tenders.first {
            if let change = r.change, change > 0, let changeLine = lines.change, tender.amount > change {
                witnesses.append(.init(value: tender.amount - change, confidence: min(amountConfidence(s, lines.tenders[0]), amountConfidence(s, changeLine)),
                                       how: "tendered − change"))
            } else if tender.kind == "card" && (r.change ?? 0) == 0 || r.change == nil && !s.sawChangeWord {
                // A card pays the total; cash too when no change was printed (a change line OCR could not read
                // the amount of means the cash was more).
                witnesses.append(.init(value: tender.amount, confidence: amountConfidence(s, lines.tenders[0]), how: "\(tender.kind) payment"))
            }
        }
        let net = r.items.reduce(Decimal(0)) { $0 + $1.total } - r.discounts.reduce(Decimal(0)) { $0 + $1.amount }
        var corroborations: [Decimal] = r.subtotal.map { [$0] } ?? []  // a tax-inclusive subtotal is the total
        // The items alone (not the items + the same tax line a witness holds: that would count the tax twice).
        if r.items.count >= 2 { corroborations.append(net + round) }
        guard let repair = TotalRepair.repair(total: total, totalConfidence: amountConfidence(s, totalLine), witnesses: witnesses,
                                              corroborations: corroborations, tolerance: configuration.totalTolerance) else { return }
        s.receipt.total = repair.value
        s.totalEvidence = repair.evidence
    }

    /// "TOTAL: 44.45" then "SALES TAX (8.875%) 3.95" and no later total: the printed total is the items' sum before
    /// the tax the line after it adds (the tax is its rate times that sum, not the share of a tax-inclusive total),
    /// so the amount due is their sum. The final total line is lost or unread on such receipts.
    func addTaxPrintedAfterTotal(_ s: inout ParseState) {
        let r = s.receipt
        guard s.taxAfterTotal, let total = r.total, let totalLine = s.summaryLines.total, r.subtotal == nil, r.items.count >= 2,
              s.totalEvidence == "printed total", let tax = r.tax, tax > 0 else { return }
        let after = s.summaryLines.tax.filter { $0 > totalLine }
        guard after == s.summaryLines.tax, after.count == 1 else { return }
        let net = r.items.reduce(Decimal(0)) { $0 + $1.total } - r.discounts.reduce(Decimal(0)) { $0 + $1.amount }
        guard abs(net - total) <= configuration.totalTolerance,
              let rate = s.texts[after[0]].firstMatch(ofPattern: #"(\d{1,2}(?:[.,]\d{1,3})?)\s*%"#)?[1],
              let percent = Decimal(string: rate.replacingOccurrences(of: ",", with: ".")), percent > 0 else { return }
        let added = total * percent / 100
        guard abs(added - tax) <= Decimal(1) / 100 else { return }
        s.receipt.total = total + tax
        s.totalEvidence = "printed total \(Self.format(total)) + tax \(Self.format(tax)) printed after it (\(rate)% of it)"
    }

    /// The OCR confidence of a line's amount: its last word holding a digit when the words were kept, else the line's.
    func amountConfidence(_ s: ParseState, _ line: Int) -> Double {
        guard line < s.input.count else { return 0 }
        let input = s.input[line]
        return input.words?.last(where: { $0.text.contains(where: \.isNumber) })?.confidence ?? input.confidence
    }

    /// The one line between two lines that holds nothing but an amount (and no other line with an amount there).
    private func bareAmountBetween(_ s: ParseState, _ from: Int, _ to: Int) -> (Int, Decimal)? {
        guard from + 1 < to else { return nil }
        let between = (from + 1)..<to
        let priced = between.filter { Self.trailingAmount(in: s.texts[$0], wholeUnits: s.wholeUnits) != nil }
        guard priced.count == 1, let line = priced.first, let amount = Self.trailingAmount(in: s.texts[line], wholeUnits: s.wholeUnits),
              !amount.negative, amount.rest.filter(\.isLetter).isEmpty else { return nil }
        return (line, amount.value)
    }
}
