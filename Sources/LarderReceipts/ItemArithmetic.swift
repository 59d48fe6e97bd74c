import Foundation

/// Item prices checked against the receipt's own arithmetic: the items (less discounts) add up to the printed
/// subtotal, or to the printed total less tax and rounding (or less rounding alone, when the prices include the
/// tax). When they do not, one misread price shows: ``ReceiptParser/repairItemPriceByArithmetic(_:)`` changes a
/// single digit of one price, or restores one digit it lost, when that alone makes the items add up to a sum
/// printed twice alike, or to a sum printed once whose amounts OCR read clearly more surely than that price.
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

    /// The one price that, changed in one digit or given back one digit OCR lost, makes `prices` add up to a target:
    /// its index, the new value and the target's description; nil when the items already add up to a target, or no
    /// price would, or more than one would and `confidences` (the OCR confidence of each price's word) do not single
    /// one out. A price its line's quantity × unit price confirms (`quantityPrices`) is not changed.
    static func singleDigitRepair(prices: [Decimal], net: Decimal, targets: [Target], quantityPrices: [Decimal?],
                                  confidences: [Double]? = nil) -> (index: Int, value: Decimal, how: String)? {
        var found: [(index: Int, value: Decimal, how: String)] = []
        for target in targets {
            let gap = target.value - net
            guard gap != 0 else { return nil }
            for (i, price) in prices.enumerated() {
                let candidate = price + gap
                guard candidate > 0, oneDigitApart(price, candidate) || oneDigitLost(read: price, printed: candidate) else { continue }
                if let product = quantityPrices[i], ReceiptParser.amountsAgree(product, price) { continue }
                if !found.contains(where: { $0.index == i && $0.value == candidate }) {
                    found.append((i, candidate, target.how))
                }
            }
        }
        if found.count == 1 { return found[0] }
        guard let confidences, confidences.count == prices.count else { return nil }
        return leastSure(found, confidences: confidences)
    }

    /// Of several prices that would each make the items add up, the one whose word OCR read clearly less surely
    /// than every other's (by ``margin`` and more): "ACQUA PANNA 0 5L 5.00" read at 42 beside
    /// "CONTORNO 5.00" at 87, where one of the two was printed 3.00. Nil when no price stands out so, or when one
    /// price could take two values.
    static func leastSure(_ found: [(index: Int, value: Decimal, how: String)], confidences: [Double]) -> (index: Int, value: Decimal, how: String)? {
        guard let low = found.min(by: { confidences[$0.index] < confidences[$1.index] }),
              found.filter({ $0.index == low.index }).count == 1,
              found.allSatisfy({ $0.index == low.index || confidences[$0.index] >= confidences[low.index] + margin })
        else { return nil }
        return low
    }

    /// How much less surely (OCR confidence, 0–100) a price's word must be read than a rival price's or a sum's
    /// amount to be taken as the misread one: twice ``TotalRepair/margin``, the noise between two readings of a print.
    static let margin: Double = 2 * TotalRepair.margin

    /// Whether `read` is `printed` with one digit lost ("9.00" read for "90.00", "2.00" for "25.00"): OCR dropped
    /// a glyph of the print.
    static func oneDigitLost(read: Decimal, printed: Decimal) -> Bool {
        let x = Array(ReceiptParser.format(read).filter(\.isNumber)), y = Array(ReceiptParser.format(printed).filter(\.isNumber))
        guard y.count == x.count + 1 else { return false }
        return y.indices.contains { k in Array(y[..<k] + y[(k + 1)...]) == x }
    }

    /// Whether two amounts print with the same number of digits and differ in exactly one of them.
    static func oneDigitApart(_ a: Decimal, _ b: Decimal) -> Bool {
        let x = Array(ReceiptParser.format(a).filter(\.isNumber)), y = Array(ReceiptParser.format(b).filter(\.isNumber))
        guard x.count == y.count else { return false }
        return zip(x, y).filter { $0 != $1 }.count == 1
    }
}

extension ReceiptParser {
    /// Replaces one item price that OCR misread by a digit (or read with a digit lost) when that makes the items add up
    /// to a sum printed twice alike (``ItemArithmetic/confirmed(_:)``; of several such prices, the one read clearly
    /// less surely); failing a sum printed twice, a sum printed once (a subtotal, or a total as read on its own line:
    /// not rounded to the coin, repaired or made of several lines) when exactly one price does it and its word was read
    /// clearly less surely than that sum's amounts. The item is named for review with both amounts.
    func repairItemPriceByArithmetic(_ s: inout ParseState) {
        let items = s.receipt.items
        guard items.count >= 2, !s.wholeUnits else { return }
        let all = ItemArithmetic.targets(s.receipt, totalInferred: s.totalInferred)
        let confirmed = ItemArithmetic.confirmed(all)
        let targets = !confirmed.isEmpty ? confirmed : all.filter { $0.how.hasPrefix("subtotal") || s.totalEvidence == "printed total" }
        guard !targets.isEmpty else { return }
        let quantityPrices: [Decimal?] = items.map { item in
            guard let q = item.quantity, let each = item.unitPrice, q > 0 else { return nil }
            return Self.cents(q * each)
        }
        let confidences = items.map { priceConfidence(s, ($0.lineNumbers.last ?? 1) - 1) }
        guard let fix = ItemArithmetic.singleDigitRepair(prices: items.map(\.total), net: ItemArithmetic.net(s.receipt),
                                                         targets: targets, quantityPrices: quantityPrices,
                                                         confidences: confirmed.isEmpty ? nil : confidences) else { return }
        if confirmed.isEmpty, confidences[fix.index] + ItemArithmetic.margin > sumConfidence(s, fix.how) { return }
        let old = items[fix.index].total
        s.receipt.items[fix.index].total = fix.value
        s.notes.append("price repaired on line \(items[fix.index].lineNumbers.last ?? 0) (\(items[fix.index].description)): "
            + "read \(Self.format(old)), \(Self.format(fix.value)) makes the items add up to the \(fix.how)")
    }
}

extension ReceiptParser {
    /// The lowest OCR confidence of the printed amounts a target (``ItemArithmetic/targets(_:totalInferred:)``)
    /// was made of: the subtotal's, or the total's (and the tax's).
    func sumConfidence(_ s: ParseState, _ how: String) -> Double {
        let lines = s.summaryLines
        if how.hasPrefix("subtotal") {
            return lines.subtotals.last(where: { $0.value == s.receipt.subtotal }).map { amountConfidence(s, $0.line) } ?? 0
        }
        guard let total = lines.total else { return 0 }
        return ([total] + (how.contains("tax") ? lines.tax : [])).map { amountConfidence(s, $0) }.min() ?? 0
    }

    /// The OCR confidence of an item line's price: its last word shaped like an amount ("20,00" in "20,00 0", not
    /// the tax class after it), else ``amountConfidence(_:_:)``.
    func priceConfidence(_ s: ParseState, _ line: Int) -> Double {
        guard line >= 0, line < s.input.count else { return 0 }
        return s.input[line].words?.last(where: { $0.text.range(ofPattern: #"\d[.,]\d\d"#) != nil })?.confidence
            ?? amountConfidence(s, line)
    }
}

extension ReceiptParser {
    /// An item line's total checked against its own quantity × unit price ("2 Lunga 13.90 27.60", "KESARI BATH
    /// 1.00 85.00 88.00", "FREYIN (4 @130.00) 20.00"): when the product differs from the printed total in one
    /// digit, or by one leading digit the print lost, and tesseract was less sure of the total's word than of the
    /// unit price's, the product is the total. The count is the word before the unit price, else `quantity` (a
    /// leading count), else 1. Returns the product and the printed unit price, or nil. The
    /// words are the line's own (`OCRLine.words`); without them, or without a unit price column, nothing changes.
    static func totalByQuantity(_ words: [OCRWord]?, total: Decimal, quantity printedCount: Decimal?, wholeUnits: Bool) -> (total: Decimal, unitPrice: Decimal)? {
        guard !wholeUnits, let words, words.count >= 3 else { return nil }
        func amount(_ w: OCRWord) -> Decimal? {
            var t = Substring(w.text)
            while let c = t.first, "@(".contains(c) { t = t.dropFirst() }
            while let c = t.last, ")".contains(c) { t = t.dropLast() }
            guard t.contains(where: { $0 == "." || $0 == "," }), let a = parseAmountToken(String(t)), !a.negative else { return nil }
            return a.value
        }
        guard let t = words.lastIndex(where: { amount($0) != nil }), amount(words[t]) == total, t >= 1,
              let unit = amount(words[t - 1]), unit > 0 else { return nil }
        var quantity = printedCount ?? 1
        if t >= 2, words[t - 2].text.range(ofPattern: #"^\(?\d{1,3}([.,]\d{1,3})?[xX×]?$"#) != nil,
           let q = Decimal(string: words[t - 2].text.filter { $0.isNumber || $0 == "." || $0 == "," }
               .replacingOccurrences(of: ",", with: ".")), q > 0 {
            quantity = q
        }
        let rounded = cents(quantity * unit)
        guard rounded != total, words[t].confidence < words[t - 1].confidence else { return nil }
        let p = format(rounded).filter(\.isNumber), x = format(total).filter(\.isNumber)
        // A lost leading digit only against a count of its own: with a count of one, the unit price may as well
        // have gained a digit ("(313.00 13.00": "(3 Pcs) 13.00" glued).
        let lostLeadingDigit = quantity != 1 && p.count == x.count + 1 && p.hasSuffix(x)
        guard ItemArithmetic.oneDigitApart(rounded, total) || lostLeadingDigit else { return nil }
        return (rounded, unit)
    }
}

extension ReceiptParser {
    /// "400102111190 DK BL 508 TWILL - 22.99 R": a hyphen ending an item's name, read as the amount's minus sign.
    /// A discount read from a minus standing apart (no discount word on its line) is an item again when that alone
    /// makes the items add up to a printed sum (the subtotal, the total less tax) they otherwise miss; exactly one
    /// such line must do it.
    func restoreItemsReadAsDiscounts(_ s: inout ParseState) {
        let targets = ItemArithmetic.targets(s.receipt, totalInferred: s.totalInferred)
        let net = ItemArithmetic.net(s.receipt)
        guard !targets.isEmpty, !targets.contains(where: { Self.amountsAgree(net, $0.value) }) else { return }
        let found = s.receipt.discounts.indices.filter { k in
            let d = s.receipt.discounts[k], i = d.lineNumber - 1
            guard i >= 0, i < s.texts.count, !Self.isDiscountText(s.texts[i].uppercased()), Self.letterCount(d.description) >= 3,
                  s.texts[i].range(ofPattern: #"\s-\s+\S*\d[.,]\d\d(\s+[A-Z*]{1,3})?$"#) != nil else { return false }
            return targets.contains { Self.amountsAgree(net + 2 * d.amount, $0.value) }
        }
        guard found.count == 1 else { return }
        let d = s.receipt.discounts.remove(at: found[0]), i = d.lineNumber - 1
        if let k = d.itemIndex { s.receipt.items[k].discount -= d.amount }
        let at = s.receipt.items.firstIndex { ($0.lineNumbers.first ?? 0) > d.lineNumber } ?? s.receipt.items.count
        s.receipt.items.insert(ReceiptItem(lineNumbers: [d.lineNumber], description: d.description, total: d.amount,
                                           confidence: s.input[i].confidence / 100), at: at)
        for k in s.receipt.discounts.indices { if let j = s.receipt.discounts[k].itemIndex, j >= at { s.receipt.discounts[k].itemIndex = j + 1 } }
        s.kinds[i] = .item
        s.notes.append("line \(d.lineNumber) (\(d.description)) read as an item: its minus is the name's hyphen "
            + "(the items then add up to the printed sum)")
    }
}
