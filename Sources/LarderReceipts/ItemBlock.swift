import Foundation

/// Where the item block ends, told by the receipt's own arithmetic: a line read as an item whose amount is the sum
/// of the items above it ("-FOOD 29.25", "Counter-Eat In 6.75", "Prev Bal: 29.25" under the purchases) or the printed
/// total is a summary line whose label OCR did not read as one; and discount lines whose amounts the item prices
/// already have taken off (the items add up to the subtotal without them) are notes, not discounts to take again.
extension ReceiptParser {
    /// Drops the items at the end of the item block that repeat a sum: the first item (after at least two) whose
    /// amount is the sum of the items above it, and every item under it that repeats that sum or a printed total
    /// or subtotal; or, failing that, a last item (after at least one) whose amount is the printed total or subtotal.
    /// Nothing is dropped when the items as read already add up to a printed sum.
    func dropSumsReadAsItems(_ s: inout ParseState) {
        let items = s.receipt.items
        guard items.count >= 2 else { return }
        let targets = ItemArithmetic.targets(s.receipt, totalInferred: s.totalInferred)
        let net = ItemArithmetic.net(s.receipt)
        if targets.contains(where: { Self.amountsAgree(net, $0.value) }) { return }
        let printed = [s.receipt.total, s.receipt.subtotal].compactMap { $0 }.filter { $0 > 0 }
        var cut: Int?
        var running = items[0].total
        for k in 1..<items.count {
            if k >= 2, items[k].total > 0, Self.amountsAgree(items[k].total, running) {
                let sum = running
                let rest = items[k...].allSatisfy { item in
                    Self.amountsAgree(item.total, sum) || printed.contains { Self.amountsAgree(item.total, $0) }
                }
                if rest { cut = k; break }
            }
            running += items[k].total
        }
        if cut == nil, let last = items.last, printed.contains(where: { Self.amountsAgree(last.total, $0) }) {
            cut = items.count - 1
        }
        // A name printed again above is the same purchase made twice, not a sum.
        guard let cut, !items[cut...].contains(where: { item in items[..<cut].contains { $0.description == item.description } })
        else { return }
        // Against a printed sum, the drop must bring the items nearer to it ("1 R'berry Flury 5.95" under 2.95 and
        // 3.00, a total of 11.98: a price that happens to equal the items above stays an item).
        let kept = net - items[cut...].reduce(Decimal(0)) { $0 + $1.total }
        if !targets.isEmpty, !targets.contains(where: { abs($0.value - kept) < abs($0.value - net) }) { return }
        // Discounts attached to a dropped line go with it.
        for item in items[cut...] {
            for n in item.lineNumbers where n - 1 < s.kinds.count { s.kinds[n - 1] = .ignored }
            s.notes.append("line \(item.lineNumbers.last ?? 0) (\(item.description) \(Self.format(item.total))) "
                + "repeats a sum of the receipt: read as a summary line, not an item")
        }
        s.receipt.items.removeSubrange(cut...)
        s.receipt.discounts = s.receipt.discounts.map { d in
            var d = d
            if let index = d.itemIndex, index >= cut { d.itemIndex = nil; d.attachment = "unattached" }
            return d
        }
    }

    /// Discount lines that the item prices already include: the items add up to a printed sum (the subtotal, or
    /// the total less tax and rounding) as read, and no longer do once the discounts are taken off. The discount
    /// lines become the items' detail lines ("6.98 Dsc -1.38" under "BURGER SINGLE 5.61").
    func dropDiscountsAlreadyTaken(_ s: inout ParseState) {
        guard !s.receipt.discounts.isEmpty, !s.receipt.items.isEmpty else { return }
        let targets = ItemArithmetic.targets(s.receipt, totalInferred: s.totalInferred)
        let gross = s.receipt.items.reduce(Decimal(0)) { $0 + $1.total }
        let net = ItemArithmetic.net(s.receipt)
        // Only discounts printed among the items: one under a first subtotal is taken off that subtotal.
        let summaryStart = s.kinds.firstIndex { [.subtotal, .tax, .total, .tender].contains($0) } ?? s.kinds.count
        guard s.receipt.discounts.allSatisfy({ $0.lineNumber - 1 < summaryStart }),
              targets.contains(where: { Self.amountsAgree(gross, $0.value) }),
              !targets.contains(where: { Self.amountsAgree(net, $0.value) }) else { return }
        for d in s.receipt.discounts {
            if let index = d.itemIndex, index < s.receipt.items.count { s.receipt.items[index].discount -= d.amount }
            if d.lineNumber - 1 < s.kinds.count { s.kinds[d.lineNumber - 1] = .itemDetail }
        }
        s.notes.append("\(s.receipt.discounts.count) discount line(s) already taken off the item prices: "
            + "the items add up to the printed sum without them")
        s.receipt.discounts = []
    }

    /// A multi-buy price printed under an item ("0.20 EA 5 FOR 0.99" under "3 ORANGES 0.59", "4 FOR 0.99"): the
    /// price of a deal, not a purchase of its own. Read as the item's detail line while an item stands above it
    /// and no name waits for its price.
    func readPricingNote(_ line: ParseLine, _ s: inout ParseState) -> Bool {
        guard line.amount != nil, s.pendingName == nil, !s.receipt.items.isEmpty,
              line.upper.range(ofPattern: #"(?<![\d.,])\d{1,2}\s*FOR\s+[$€£]?\s?\d+[.,]\d{2}\W*$"#) != nil,
              Self.letterCount(line.upper.replacingMatches(of: #"\b(?:[A-Z]?EA|EACH|FOR|LBS?|KG)\d*\b"#, with: "")) < 2
        else { return false }
        s.kinds[line.i] = .itemDetail
        s.receipt.items[s.receipt.items.count - 1].lineNumbers.append(line.i + 1)
        return true
    }

    /// Whether a subtotal closes the item block: the items read so far, less their discounts, add up to it.
    func subtotalClosesItems(_ subtotal: Decimal, _ s: ParseState) -> Bool {
        !s.receipt.items.isEmpty && Self.amountsAgree(ItemArithmetic.net(s.receipt), subtotal)
    }

    /// A priced line under the closed item block that prints a rate whose share of the subtotal is its amount
    /// ("Food - Bulk 6.625% + 0.44" under "Sub Total 6.58"): a tax or charge whose label OCR did not read.
    func readRatedCharge(_ line: ParseLine, _ s: inout ParseState) {
        guard let amount = line.amount, !amount.negative, let subtotal = s.receipt.subtotal,
              let rate = Self.printedRate(amount.rest), rate > 0, rate < 100,
              Self.amountsAgree(Self.cents(subtotal * rate / 100), amount.value) else {
            if let amount = line.amount, !amount.negative { s.linesUnderItems.append((line.i, amount.value)) }
            return
        }
        s.receipt.tax = (s.receipt.tax ?? 0) + amount.value
        s.summaryLines.tax.append(line.i)
        s.kinds[line.i] = .tax
    }

    /// Priced lines under the closed item block that the printed total adds ("Living Wage 0.05" between "SubTotal
    /// 1.09" and "Total Tax 0.11", "Total 1.25"): surcharges, read as tax when the items less discounts, the tax and
    /// rounding fall short of the printed total by exactly their sum.
    func addChargesUnderItems(_ s: inout ParseState) {
        guard !s.linesUnderItems.isEmpty, let total = s.receipt.total, !s.totalInferred else { return }
        let before = ItemArithmetic.net(s.receipt) + (s.receipt.tax ?? 0) + (s.receipt.rounding ?? 0)
        let charges = s.linesUnderItems.reduce(Decimal(0)) { $0 + $1.amount }
        guard !Self.amountsAgree(before, total), Self.amountsAgree(before + charges, total) else { return }
        s.receipt.tax = (s.receipt.tax ?? 0) + charges
        for line in s.linesUnderItems { s.kinds[line.i] = .tax; s.summaryLines.tax.append(line.i) }
    }
}

/// Item structure across lines: the line that prices a name above it, weight lines, and product codes in names.
extension ReceiptParser {
    /// Whether the text before a line's amount prints numbers and their marks but no name: a quantity, unit-price
    /// or weight column ("1,000 x 100,00 G-", "@ 10.00", "3.00", "Bx ( 0,43 )", "0.44 lb @ 14.96", "0.71 lbs 60.79
    /// Ib TW"). Unit words and tax flags may stand among the numbers; a word of three letters or more that is no unit,
    /// or more than three loose letters, is a name ("1 Tea", "SODA 2 x"). Needs a digit or an `@`.
    static func isNumbersOnly(_ rest: String) -> Bool {
        guard rest.contains(where: { $0.isNumber || $0 == "@" }) else { return false }
        var loose = 0
        for token in rest.split(separator: " ") {
            let letters = String(token.filter(\.isLetter)).uppercased()
            if letters.isEmpty || isUnitWord(letters) { continue }
            if letters.count >= 3 { return false }
            loose += letters.count
        }
        return loose <= 3
    }

    /// A unit or quantity word as tills print it and OCR reads it: LB (IB, 1B read as letters), KG, OZ, EA, QTY, PCS.
    static func isUnitWord(_ letters: String) -> Bool {
        ["LB", "LBS", "IB", "IBS", "KG", "KGS", "OZ", "EA", "EACH", "QTY", "PCS", "PC", "X"].contains(letters)
            || letters.count <= 3 && (letters.hasPrefix("LB") || letters.hasPrefix("IB"))
    }

    /// Whether a line starts with a weight ("0.44 lb", "1.29 Ibs", "0,350 kg"), OCR's readings of the unit included.
    static func startsWithWeight(_ text: String) -> Bool {
        text.range(ofPattern: #"^\d{1,3}[.,]\d{1,3}\s?(?i:[l1I|]bs?|kg)(?![a-z])"#) != nil
    }

    /// A weight line under an item with no name waiting ("0.71 lbs @ 0.79 /lb" under "PEPPER (GREEN) 0.56", its
    /// `@` read as a 6): the weighing of the item above, its detail line, not an item of its own.
    func readWeightUnderItem(_ line: ParseLine, _ s: inout ParseState) -> Bool {
        guard s.pendingName == nil, let last = s.receipt.items.indices.last, line.i > 0,
              [.item, .itemDetail].contains(s.kinds[line.i - 1]), Self.startsWithWeight(line.text),
              Self.isNumbersOnly(line.amount?.rest ?? line.text) else { return false }
        s.kinds[line.i] = .itemDetail
        s.receipt.items[last].lineNumbers.append(line.i + 1)
        return true
    }

    /// The name without the product codes printed in it: UPC, EAN and PLU numbers (a word of eight digits or more,
    /// "400168560758 8.5oz Dark Bag", "TODD GRLS APPAR 400898406210 C") and a lone flag letter after a code at the
    /// end. People read the name, not the code. A name left with fewer than three letters keeps its code.
    static func withoutProductCode(_ text: String) -> String {
        var tokens = text.split(separator: " ").map(String.init)
        let isCode = { (t: String) in t.count >= 8 && t.allSatisfy(\.isNumber) }
        guard tokens.contains(where: isCode) else { return text }
        if tokens.count >= 2, tokens[tokens.count - 1].count == 1, isCode(tokens[tokens.count - 2]) { tokens.removeLast() }
        let kept = tokens.filter { !isCode($0) }.joined(separator: " ")
        return letterCount(kept) >= 3 ? kept : text
    }
}

/// Priced and unpriced lines that are no purchases: fields printed as "Label: value" and rated charges under a subtotal.
extension ReceiptParser {
    /// A field as tills print them, a label of one or two words, a colon and one value ("Current Term: touch3",
    /// "GALLONS: 6.28", "Balance: 100.00"): a line of the receipt's form, not an item or an item's name.
    static func isFieldLabel(_ text: String) -> Bool {
        text.range(ofPattern: #"^\p{L}+(?: \p{L}+)?:\s*\S+$"#) != nil
    }

    /// A priced line under a printed subtotal whose text starts with a rate ("10% Svc Chg 29.10" under "Subtotal
    /// 291.00"): a charge on the items, not a purchase, also when the items read do not add up to the subtotal. It is
    /// kept as a charge the printed total may add (``addChargesUnderItems(_:)``).
    func readRatedLineUnderSubtotal(_ line: ParseLine, _ s: inout ParseState) -> Bool {
        guard let amount = line.amount, !amount.negative, !s.summaryLines.subtotals.isEmpty,
              amount.rest.range(ofPattern: #"^\d{1,2}(?:[.,]\d{1,3})?\s?%"#) != nil else { return false }
        s.linesUnderItems.append((line.i, amount.value))
        return true
    }
}
