import Foundation

/// How to read an all-numeric date such as `03/04/2026` when both readings are valid.
public enum DateOrder: String, Codable, Sendable, Equatable {
    /// As the receipt says: a weekday printed beside the date, dots (day first), another date on the paper with
    /// a day over 12, its currency, address, till words, decimal commas or phone format (`DateEvidence.swift`);
    /// with no evidence, month first for USD/CAD receipts, day first for every other currency.
    case automatic
    /// `MM/DD/YYYY` (United States).
    case monthFirst
    /// `DD/MM/YYYY` (most of the world).
    case dayFirst
}

/// Settings for ``ReceiptParser``. A plain value with documented defaults.
public struct ReceiptParserConfiguration: Sendable, Equatable {
    /// Currency used when the receipt shows no symbol or code. Default `"USD"`.
    public var defaultCurrency: String
    /// Day/month order for ambiguous numeric dates. Default ``DateOrder/automatic``.
    public var dateOrder: DateOrder
    /// Allowed difference between the computed and the printed total. Default 0.02.
    public var totalTolerance: Decimal
    /// Items read from lines with OCR confidence below this (0–100) add a review reason. Default 60.
    public var minimumLineConfidence: Double
    /// Where the shipped line model (``ReceiptLineModel/shipped``) is evidence inside the rules' parse. Default
    /// `.none`, the rules alone (what OCR's re-read checks parse with, so OCR output does not depend on the model);
    /// the pipeline's receipt stage uses ``pipeline``, with ``ReceiptModelFields/measuredBetter``.
    public var modelFields: ReceiptModelFields

    /// Creates a configuration.
    public init(defaultCurrency: String = "USD", dateOrder: DateOrder = .automatic,
                totalTolerance: Decimal = Decimal(2) / 100, minimumLineConfidence: Double = 60,
                modelFields: ReceiptModelFields = .none) {
        self.defaultCurrency = defaultCurrency
        self.dateOrder = dateOrder
        self.totalTolerance = totalTolerance
        self.minimumLineConfidence = minimumLineConfidence
        self.modelFields = modelFields
    }

    /// The defaults: the rules alone.
    public static let `default` = ReceiptParserConfiguration()

    /// The receipt stage's defaults (`pipeline.yml` without `receipts:` settings): the rules with the line model as
    /// evidence where it measured better (``ReceiptModelFields/measuredBetter``).
    public static let pipeline = ReceiptParserConfiguration(modelFields: .measuredBetter)
}

/// Turns OCR lines into a ``ParsedReceipt``: store, address, date/time, currency, items (with quantities and
/// weights), discounts attached to items, subtotal, tax, total, tenders and change, and an arithmetic check
/// (items − discounts + tax ≈ total) that sends mismatches to review with both numbers.
///
/// Tolerates common OCR confusions: `0Z`→`OZ`, `1b`→`lb`, `S`→`5` and `O`→`0` inside prices, decimal
/// commas. A pure value: `Sendable`, safe to share between threads.
public struct ReceiptParser: Sendable {
    /// The configuration in use.
    public var configuration: ReceiptParserConfiguration

    /// Creates a parser.
    public init(configuration: ReceiptParserConfiguration = .default) {
        self.configuration = configuration
    }

    /// Parses plain text, one printed line per text line (confidence 100).
    public func parse(text: String) -> ParsedReceipt {
        parse(lines: text.split(whereSeparator: \.isNewline).map { OCRLine(text: String($0)) })
    }

    /// Parses OCR lines (top to bottom).
    public func parse(lines input: [OCRLine]) -> ParsedReceipt {
        var state = makeState(input)
        for (i, raw) in state.texts.enumerated() {
            if raw.isEmpty { continue }
            let line = prepareLine(i, raw, wholeUnits: state.wholeUnits, inBody: !state.receipt.items.isEmpty)
            if readDateOrTime(line, &state) { continue }
            if readSummary(line, &state) { continue }
            if state.sawTotal || !state.receipt.tenders.isEmpty {
                // Anything after the total or the payment (tenders aside) is footer: tax summaries, thanks,
                // barcodes — also when OCR lost the total's amount.
                continue
            }
            if state.german, readGermanLine(line, &state) { continue }
            if readDiscount(line, &state) { continue }
            if readIgnorable(line, &state) { continue }
            // Under a subtotal the items add up to, or a tax line, the item block has ended: a priced line there is
            // a charge, a fee or a summary line whose label OCR garbled ("Munci Fee", "Th 2907.00"), not a purchase.
            if state.itemBlockEnded { readRatedCharge(line, &state); continue }  // ItemBlock.swift
            if readDetail(line, &state) { continue }
            if readNameThenPrice(line, &state) { continue }
            if readPricingNote(line, &state) { continue }  // ItemBlock.swift
            if readWeightUnderItem(line, &state) { continue }  // ItemBlock.swift
            if readRatedLineUnderSubtotal(line, &state) { continue }  // ItemBlock.swift
            if readItem(line, &state) { continue }
            readPendingName(line, &state)
        }
        dropRowsReadTwice(&state)
        applyRoundingAfterTotal(&state)
        reconcileTotalWithTender(&state)
        replaceTotalRepeatingTheTax(&state)  // SummaryArithmetic.swift
        if state.german { applyGermanPasses(&state) }
        chooseTotalByArithmetic(&state)
        inferTotalFromRatedTaxes(&state)  // SummaryArithmetic.swift
        inferTotalFromCharges(&state)  // SummaryArithmetic.swift
        inferTotalFromPayment(&state)  // SummaryArithmetic.swift
        repairMisreadTotal(&state)
        addTaxPrintedAfterTotal(&state)
        addChargesUnderItems(&state)  // ItemBlock.swift
        state.receipt.totalEvidence = state.receipt.total == nil ? nil : state.totalEvidence
        dropSumsReadAsItems(&state)  // ItemBlock.swift
        restoreItemsReadAsDiscounts(&state)  // ItemArithmetic.swift
        dropDiscountsAlreadyTaken(&state)  // ItemBlock.swift
        repairItemPriceByArithmetic(&state)
        readHeader(&state)
        if state.german { refineGermanStore(&state) }
        applyDomainEvidence(&state)
        applyChainEvidence(&state)
        applyShippedLineModel(input, &state)  // LineModel/ReceiptModelFields.swift
        return assemble(state)
    }

    // MARK: - Parse passes

    /// The mutable state the passes of ``parse(lines:)`` share.
    struct ParseState {
        let input: [OCRLine]
        let texts: [String]
        let currency: String
        var german: Bool  // a German till receipt (see GermanReceipt.swift): its passes run
        let wholeUnits: Bool
        let sawChangeWord: Bool  // a change line was printed (see makeState)
        let dateOrder: DateOrderEvidence?  // what the receipt says about day/month order (DateEvidence.swift)
        var receipt: ParsedReceipt
        var kinds: [ReceiptLineKind]
        var pendingName: (index: Int, text: String)?  // an item name waiting for its quantity/weight line
        var pendingDetail: (index: Int, detail: Detail)?  // "2 x 0,49" printed above its item ("KIWIS 0,98")
        var firstBodyLine: Int?  // first line that is not header
        var sawTotal = false
        var itemBlockEnded = false  // a subtotal the items add up to, or a tax line, was read (ItemBlock.swift)
        var linesUnderItems: [(i: Int, amount: Decimal)] = []  // priced lines skipped under the closed item block
        var totalCandidates: [Decimal] = []
        var printedTotals: [Decimal] = []  // every total line's amount, also after the payment
        var weakTotal = false  // the total so far is an "AMOUNT" line: a later TOTAL replaces it
        var totalInferred = false  // the total is subtotal + tax: its own line's amount was not read
        var totalEvidence: String?
        var strongTotal = false
        var taxAfterTotal = false       // a tax or service line after the total: a later total is the final one
        var roundingAfterTotal: Decimal?  // "TOTAL 41.48" then "ROUNDING 0.02": the amount due is 41.50
        var summaryLines = SummaryLines()  // where the subtotal, tax, total, tenders and change were printed
        var lastItemLeft: Int?          // left edge of the last item line, to tell indented modifiers apart
        var notes: [String] = []        // review reasons found by the passes (the check adds its own)
    }

    /// One body line as the passes read it: its index, repaired text, upper-case text and trailing amount.
    struct ParseLine {
        let i: Int
        let text: String
        let upper: String
        let amount: Amount?
    }

    /// The parse state before any pass: the lines cleaned, currency, German or not, date-order evidence.
    /// Internal (not private) so tests can run a single pass on it.
    func makeState(_ input: [OCRLine]) -> ParseState {
        var texts = input.map { Self.clean($0.text) }
        var (currency, currencyEvidence) = detectCurrency(texts)
        let german = Self.isGermanReceipt(texts, currency: currency)
        if german, currency != "EUR" { (currency, currencyEvidence) = ("EUR", "German receipt printing EUR") }
        if german { texts = texts.map(Self.germanLineRepairs) }
        let wholeUnits = Self.wholeUnitCurrencies.contains(currency)
        if !wholeUnits, !german { texts = Self.taxFlagsReadAsSeven(texts) }
        // A change line was printed (even one OCR could not read the amount of): a lone tender is then not
        // the exact amount paid.
        let sawChangeWord = texts.contains { Self.hasWord($0.uppercased(), "CHANGE") || Self.hasWord($0.uppercased(), "KEMBALI") }
        return ParseState(
            input: input, texts: texts, currency: currency, german: german, wholeUnits: wholeUnits, sawChangeWord: sawChangeWord,
            dateOrder: Self.dateOrderEvidence(texts, currency: currency, currencyEvidence: currencyEvidence),
            receipt: ParsedReceipt(currency: currency, currencyEvidence: currencyEvidence),
            kinds: [ReceiptLineKind](repeating: .ignored, count: texts.count))
    }

    /// "1 CVS ALOE SANITIZER 22 1.997": a till that glues its tax flag to the price ("1.99T") has the T read as a 7,
    /// a third decimal no price of a two-decimal currency prints. Taken so only where two or more item lines end
    /// that way (the same printer, the same misreading), and only for a word of its own ("4,297", "1.997.").
    static func taxFlagsReadAsSeven(_ texts: [String]) -> [String] {
        let pattern = #"(\s\d{1,4}[.,]\d\d)7\.?$"#
        let flagged = texts.filter { letterCount($0) >= 3 && $0.range(ofPattern: pattern) != nil }
        guard flagged.count >= 2 else { return texts }
        return texts.map { letterCount($0) >= 3 ? $0.replacingMatches(of: pattern, with: "$1 T") : $0 }
    }

    private func prepareLine(_ i: Int, _ raw: String, wholeUnits: Bool, inBody: Bool) -> ParseLine {
        var text = raw
        // "MALLESHWARAM 18 1.00 130-00 130-00": a dot-matrix decimal point read as a hyphen. Only below an item
        // already read (above the items, "Meja : 4-08" is a table number); no leading zero ("01-81" is a unit).
        if inBody, !wholeUnits {
            text = text.replacingMatches(of: #"(\s)([1-9]\d{0,4}|0)-(\d\d)(\s*[|A-Z*]{0,2})$"#, with: "$1$2.$3$4")
        }
        // "TOTAL 42 50" / "CHANGE 38 00": a lost decimal point on a money line.
        if !wholeUnits, Self.moneyLineWords.contains(where: { text.uppercased().contains($0) }) {
            text = text.replacingMatches(of: #"(\s\d{1,4}) (\d\d)$"#, with: "$1.$2")
        }
        // "18 000": a space as the thousands separator of a currency without minor units.
        if wholeUnits {
            text = text.replacingMatches(of: #"(^|\s)(\d{1,3}) (\d{3})$"#, with: "$1$2$3")
        }
        let upper = Self.repairTotalWord(text.uppercased())
        let amount = Self.trailingAmount(in: text, wholeUnits: wholeUnits)
        return ParseLine(i: i, text: text, upper: upper, amount: amount)
    }

    /// Date and time lines. Returns whether the line was consumed (a date line); a time alone is noted and
    /// the line passed on.
    private func readDateOrTime(_ line: ParseLine, _ s: inout ParseState) -> Bool {
        let (i, upper, amount) = (line.i, line.upper, line.amount)
        // Date and time (take the first found; prefer lines that say DATE).
        if amount == nil || upper.contains("DATE"), let date = parseDate(upper, currency: s.currency, receiptOrder: s.dateOrder) {
            if s.receipt.date == nil { s.receipt.date = date }
            if s.receipt.time == nil { s.receipt.time = Self.parseTime(upper) }
            s.kinds[i] = .date
            s.firstBodyLine = s.firstBodyLine ?? i
            return true
        }
        if s.receipt.time == nil, amount == nil, let time = Self.parseTime(upper) {
            s.receipt.time = time
        }
        return false
    }

    /// Summary lines: subtotal, tax, rounding, total, change, tenders.
    private func readSummary(_ line: ParseLine, _ s: inout ParseState) -> Bool {
        let (i, text, upper) = (line.i, line.text, line.upper)
        // Summary lines.
        guard let amount = line.amount, let summary = Self.summaryKind(upper) else { return false }
        s.firstBodyLine = s.firstBodyLine ?? i
        s.pendingName = nil
        let afterTender = !s.receipt.tenders.isEmpty
        var kind = summary
        // "ROUNDING RM 52.10" after "ROUNDING ADJUSTMENT": a cash-rounded total, not an adjustment
        // (an adjustment is less than the smallest coin, so RM 1.00 and more is never one).
        if kind == .rounding, amount.value > Decimal(10) / 100, let total = s.receipt.total,
           abs(amount.value - total) <= Decimal(10) / 100 || amount.value >= 1 {
            kind = .total
        }
        switch kind {
        case .subtotal:
            s.itemBlockEnded = s.itemBlockEnded || !afterTender && subtotalClosesItems(amount.value, s)
            if s.receipt.subtotal == nil { s.receipt.subtotal = amount.value }
            if !afterTender { s.summaryLines.subtotals.append((i, amount.value)) }
            s.totalCandidates.append(amount.value)
        case .tax:
            // A tax is a share of the items above it: its line closes the item block too.
            s.itemBlockEnded = s.itemBlockEnded || !afterTender && amount.value < ItemArithmetic.net(s.receipt)
            if !afterTender { s.receipt.tax = (s.receipt.tax ?? 0) + amount.signed; s.summaryLines.tax.append(i) }
            if s.sawTotal && !afterTender { s.taxAfterTotal = true }
        case .rounding:
            if !afterTender { s.receipt.rounding = (s.receipt.rounding ?? 0) + amount.signed }
            if s.sawTotal && !afterTender { s.roundingAfterTotal = (s.roundingAfterTotal ?? 0) + amount.signed }
        case .total:
            let before = s.receipt.total
            readTotal(amount, upper: upper, afterTender: afterTender, &s)
            if s.receipt.total != before { s.summaryLines.total = i }
        case .change: if s.receipt.change == nil { s.receipt.change = amount.value; s.summaryLines.change = i }
        case .tender:
            s.summaryLines.tenders.append(i)
            let kind = Self.cashWords.contains(where: { Self.hasWord(upper, $0) }) ? "cash" : "card"
            s.receipt.tenders.append(ReceiptTender(kind: kind, text: text, amount: amount.value))
        default: break
        }
        s.kinds[i] = kind
        return true
    }

    /// A total line: the first one printed, or a later final one.
    private func readTotal(_ amount: Amount, upper: String, afterTender: Bool, _ s: inout ParseState) {
        let compact = upper.replacingOccurrences(of: " ", with: "")
        let strong = ["GRAND", "AFTERADJ", "ADJ", "ROUNDED", "ROUNDING", "NETT", "NETTOTAL", "BALANCEDUE",
                      "AMOUNTDUE", "TOTALDUE"].contains(where: compact.contains)
        // A refund's total printed with a minus ("TOTAL $108.85-", "TOTAL -3.29") is money paid back: negative.
        // Parentheses are left as printed amounts: receipts also bracket amounts that are not refunds.
        let value = amount.negative && !amount.token.hasPrefix("(") ? amount.signed : amount.value
        if !afterTender { s.totalCandidates.append(value) }
        s.printedTotals.append(value)
        // "AMOUNT $85.58" then "TIP $12.84", "TOTAL $98.42": an amount line is a total only until a total follows.
        let weak = Self.repairSummaryWords(upper).split(whereSeparator: { !$0.isLetter }).filter { !["USD", "RM", "EUR", "GBP", "AUD", "US"].contains($0) } == ["AMOUNT"]
        if !s.sawTotal {
            s.receipt.total = value
            s.totalEvidence = afterTender ? "total line after payment" : "printed total"
            s.strongTotal = strong
            s.weakTotal = weak
        } else if (strong || s.taxAfterTotal || s.weakTotal && !weak) && !afterTender {
            s.weakTotal = false
            // "NET TOTAL 194,726", "SERVICE 9,736", "TAX 20,446", "TOTAL 224,908": charges added
            // after a total make the next total the final one.
            s.receipt.total = value
            s.totalEvidence = "printed total (\(compact.contains("ROUND") ? "rounded" : "final"))"
            s.strongTotal = s.strongTotal || strong
            s.roundingAfterTotal = nil
            s.taxAfterTotal = false
        }
        s.sawTotal = true
    }

    /// Discount lines, attached to the item they name (or the last one).
    private func readDiscount(_ line: ParseLine, _ s: inout ParseState) -> Bool {
        let (i, upper) = (line.i, line.upper)
        // Discounts ("DISCOUNT 0" is no discount, and no item either).
        if let amount = line.amount, amount.value == 0, Self.isDiscountText(upper) {
            s.kinds[i] = .ignored
            return true
        }
        if let amount = line.amount, amount.value != 0, amount.negative || Self.isDiscountText(upper) {
            s.firstBodyLine = s.firstBodyLine ?? i
            s.pendingName = nil
            let description = Self.repairDescription(Self.stripItemColumns(amount.rest, wholeUnits: s.wholeUnits).description)
            let (index, how) = attachDiscount(description, to: s.receipt.items)
            if let index { s.receipt.items[index].discount += amount.value }
            s.receipt.discounts.append(ReceiptDiscount(lineNumber: i + 1, description: description,
                                                       amount: amount.value, itemIndex: index, attachment: how))
            s.kinds[i] = .discount
            return true
        }
        return false
    }

    private func readIgnorable(_ line: ParseLine, _ s: inout ParseState) -> Bool {
        guard Self.isIgnorable(line.upper) else { return false }
        if line.amount != nil || s.firstBodyLine != nil { s.firstBodyLine = s.firstBodyLine ?? line.i }
        return true
    }

    /// A two-line item: the pending name line and this line (lines `pending.index + 1` and `i + 1`).
    func appendTwoLineItem(_ pending: (index: Int, text: String), _ i: Int, _ s: inout ParseState,
                                   quantity: Decimal? = nil, unit: String? = nil, unitPrice: Decimal? = nil,
                                   total: Decimal) {
        s.firstBodyLine = min(s.firstBodyLine ?? pending.index, pending.index)
        s.receipt.items.append(ReceiptItem(
            lineNumbers: [pending.index + 1, i + 1], description: pending.text,
            quantity: quantity, unit: unit, unitPrice: unitPrice, total: total,
            confidence: min(s.input[pending.index].confidence, s.input[i].confidence) / 100))
        s.kinds[pending.index] = .item
        s.kinds[i] = .itemDetail
        s.lastItemLeft = s.input[pending.index].box.x
        s.pendingName = nil
    }

    private func readDetail(_ line: ParseLine, _ s: inout ParseState) -> Bool {
        let (i, text, amount) = (line.i, line.text, line.amount)
        // Quantity / weight detail lines ("2.134 lb @ 3.99/lb 8.51", "3 @ 0.50 1.50", "QTY 3").
        guard let detail = Self.parseDetail(text, wholeUnits: s.wholeUnits), detail.descriptionPrefix.isEmpty else { return false }
        s.firstBodyLine = s.firstBodyLine ?? i
        if let pending = s.pendingName, let total = detail.total {
            appendTwoLineItem(pending, i, &s, quantity: detail.quantity, unit: detail.unit, unitPrice: detail.unitPrice,
                              total: total)
            return true
        }
        if let pending = s.pendingName, let amount, detail.total == nil {
            // "NAME" then "2x 4.000": the amount on the detail line is the item's.
            appendTwoLineItem(pending, i, &s, quantity: detail.quantity, unit: detail.unit, unitPrice: detail.unitPrice,
                              total: detail.unit == "each" ? (detail.unitPrice ?? amount.value) * (detail.quantity ?? 1) : amount.value)
            return true
        }
        if detail.total == nil, s.pendingName == nil, let count = detail.quantity, let each = detail.unitPrice,
           !Self.amountsAgree(s.receipt.items.last?.total, count * each), i + 1 < s.texts.count,
           Self.amountsAgree(Self.trailingAmount(in: s.texts[i + 1], wholeUnits: s.wholeUnits)?.value, count * each) {
            // "2 x 0,49" then "KIWIS 0,98": German tills print the quantity above its item; the arithmetic says
            // which item it explains.
            s.pendingDetail = (i, detail)
            s.kinds[i] = .itemDetail
            return true
        }
        if detail.total == nil || explainsLastItem(detail, s.receipt.items.last), s.pendingName == nil,
           let last = s.receipt.items.indices.last,
           s.receipt.items[last].quantity == nil || s.receipt.items[last].quantity == 1 && s.receipt.items[last].unitPrice == nil {
            // "NAME 3.98" then "2 @ 1.99": the detail explains the previous item; also when the detail line ends in
            // an amount of its own that is not the item's (a misread "/lb": "0.71 lbs @0.79 Ib TW 0.01" under
            // "PEPPER 0.56") but its quantity times its unit price is the item's total. A count of one printed before
            // the name ("1 PEPPER (GREEN) 0.56") is no quantity the detail contradicts.
            s.receipt.items[last].quantity = detail.quantity
            s.receipt.items[last].unit = detail.unit
            s.receipt.items[last].unitPrice = detail.unitPrice
            s.receipt.items[last].lineNumbers.append(i + 1)
            s.kinds[i] = .itemDetail
            return true
        }
        return false
    }

    /// Whether a detail's quantity times its unit price is the item's total (to the cent, after rounding).
    func explainsLastItem(_ detail: Detail, _ item: ReceiptItem?) -> Bool {
        guard let item, let quantity = detail.quantity, let each = detail.unitPrice else { return false }
        var product = quantity * each, rounded = Decimal()
        NSDecimalRound(&rounded, &product, 2, .plain)
        return Self.amountsAgree(rounded, item.total)
    }

    private func readNameThenPrice(_ line: ParseLine, _ s: inout ParseState) -> Bool {
        // Name line, then a line of codes/quantities ending in the price ("8809059 7,90*3 23.70 Z").
        // A product code (UPC-A/EAN-13, 12–13 digits) before the price marks an article line also before the first item.
        // A code line may carry a specks' letters or two ("bs 720873462272 4.99 T" under "CARD MDAY GRANDMOTHER").
        guard let amount = line.amount, let pending = s.pendingName,
              Self.letterCount(amount.rest) < 2 || Self.isNumbersOnly(amount.rest) || Self.hasProductCode(amount.rest)
                && Self.letterCount(Self.withoutArticleNumber(amount.rest)) <= 2,
              s.firstBodyLine != nil || s.receipt.date != nil || Self.isCountPriceTotal(amount, wholeUnits: s.wholeUnits)
                || Self.hasProductCode(amount.rest) || Self.startsWithWeight(line.text)
        else { return false }
        // "GALLONS FUEL Totar" over "9.505 $19.00": a label ending in the total word, its amount on the line below.
        let label = Self.repairTotalWord(s.texts[pending.index].uppercased())
        if s.receipt.total == nil, label.filter(\.isLetter).hasSuffix("TOTAL"),
           Self.summaryKind(s.texts[pending.index].uppercased() + " 1.00") == .total {
            readTotal(amount, upper: label, afterTender: false, &s)
            s.summaryLines.total = line.i
            s.kinds[pending.index] = .total
            s.kinds[line.i] = .total
            s.pendingName = nil
            return true
        }
        appendTwoLineItem(pending, line.i, &s, total: amount.value)
        return true
    }

    private func readItem(_ line: ParseLine, _ s: inout ParseState) -> Bool {
        let i = line.i
        // Item lines: a description and a price.
        guard let amount = line.amount, Self.letterCount(amount.rest) >= 2 else { return false }
        s.firstBodyLine = s.firstBodyLine ?? i
        s.pendingName = nil
        if Self.isFieldLabel(line.text) { return true }  // "GALLONS: 6.28", "Balance: 100.00": a field, no item
        // An indented zero-price line under an item is a modifier ("  Less Ice 0", "  Top Oreo 0").
        let box = s.input[i].box
        if amount.value == 0, let left = s.lastItemLeft,
           (box.width > 0 || box.x > 0) && box.x - left > max(5, box.height * 3 / 10)
            || amount.rest.range(of: #"^(\d{1,2}\s+)?[*+>-]"#, options: .regularExpression) != nil {
            s.kinds[i] = .itemDetail
            return true
        }
        var item = itemLine(amount, lineIndex: i, confidence: s.input[i].confidence, wholeUnits: s.wholeUnits)
        if let pending = s.pendingDetail, pending.index == i - 1, item.quantity == nil {
            item.quantity = pending.detail.quantity
            item.unit = pending.detail.unit
            item.unitPrice = pending.detail.unitPrice
            item.lineNumbers.insert(pending.index + 1, at: 0)
        }
        s.pendingDetail = nil
        if item.description.isEmpty { return true }
        if let fix = Self.totalByQuantity(s.input[i].words, total: item.total, quantity: item.quantity, wholeUnits: s.wholeUnits) {
            s.notes.append("price on line \(i + 1) (\(item.description)) read \(Self.format(item.total)), its quantity × "
                + "unit price \(Self.format(fix.unitPrice)) is \(Self.format(fix.total)) (the total's word read less surely)")
            item.total = fix.total
            if (item.quantity ?? 1) != 1 { item.unitPrice = fix.unitPrice }
        }
        s.receipt.items.append(item)
        s.kinds[i] = .item
        s.lastItemLeft = box.x
        return true
    }

    /// The item on a one-line item: description, quantity and unit price from the text before the price.
    func itemLine(_ amount: Amount, lineIndex i: Int, confidence: Double, wholeUnits: Bool) -> ReceiptItem {
        var description = amount.rest
        var item = ReceiptItem(lineNumbers: [i + 1], description: "", total: amount.value,
                               confidence: confidence / 100)
        if let detail = Self.parseDetail(description + " " + amount.token, wholeUnits: wholeUnits),
           !detail.descriptionPrefix.isEmpty {
            description = detail.descriptionPrefix
            item.quantity = detail.quantity
            item.unit = detail.unit
            item.unitPrice = detail.unitPrice
        }
        // Quantity and unit-price columns between the name and the line total ("NAME 2 35.00 70.00");
        // after a leading count ("2 SERBU 1 40,000") a trailing number belongs to the name.
        let leading = description.range(ofPattern: Self.leadingCount) != nil
        let columns = Self.stripItemColumns(description, wholeUnits: wholeUnits, counts: !leading)
        description = columns.description
        if item.quantity == nil, let n = columns.quantity {
            item.quantity = n
            item.unitPrice = columns.unitPrice ?? (n > 1 ? amount.value / n : nil)
        } else if item.unitPrice == nil, let unitPrice = columns.unitPrice {
            item.unitPrice = unitPrice
        }
        // A leading count, as restaurant and bakery receipts print it: "2 EGG TART 26,000", "1PRS SOP".
        if item.quantity == nil, let count = description.range(ofPattern: Self.leadingCount),
            let n = Int(description[count].filter(\.isNumber)), n > 0
        {
            item.quantity = Decimal(n)
            if n > 1 { item.unitPrice = amount.value / Decimal(n) }
            description = String(description[count.upperBound...])
        }
        item.description = Self.repairDescription(Self.withoutProductCode(description))
        return item
    }

    private func readPendingName(_ line: ParseLine, _ s: inout ParseState) {
        // A name line without a price: maybe an item whose weight line follows, maybe header text. An
        // article-number line ("ART/EAN 4002245701618") names no item.
        if line.amount == nil, Self.letterCount(line.text) >= 3,
           Self.letterCount(Self.withoutArticleNumber(line.text)) < 3 {
            s.pendingName = nil  // an article number starts the next item
        } else if line.amount == nil, Self.parseTime(line.upper) != nil || Self.isFieldLabel(line.text) {
            s.pendingName = nil  // a header line with its time ("JANOS 9:03PM") or a field ("Server: Lisa"): no item's name
        } else if line.amount == nil, Self.letterCount(line.text) >= 3 {
            let name = Self.stripItemColumns(Self.withoutProductCode(line.text), wholeUnits: s.wholeUnits).description
            s.pendingName = (line.i, Self.repairDescription(name))
        }
    }

    /// The same printed row read twice (OCR returns a row twice when its words split into two lines): two
    /// items in a row with the same name and price whose lines overlap vertically by more than half their height
    /// are one item. Needs the lines' boxes (plain text has none, and a repeated line there is bought twice).
    private func dropRowsReadTwice(_ s: inout ParseState) {
        var kept: [ReceiptItem] = []
        for item in s.receipt.items {
            if let last = kept.last, last.description == item.description, last.total == item.total,
               let a = last.lineNumbers.last, let b = item.lineNumbers.first, a != b,
               a - 1 < s.input.count, b - 1 < s.input.count, Self.sameRow(s.input[a - 1].box, s.input[b - 1].box) {
                s.kinds[b - 1] = .ignored
                continue
            }
            kept.append(item)
        }
        s.receipt.items = kept
    }

    /// Whether two line boxes lie on one printed row: they overlap vertically by more than half the smaller height.
    static func sameRow(_ a: OCRBox, _ b: OCRBox) -> Bool {
        guard a.width > 0, b.width > 0, a.height > 0, b.height > 0 else { return false }
        let overlap = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
        return overlap * 2 > min(a.height, b.height)
    }

    private func applyRoundingAfterTotal(_ s: inout ParseState) {
        // "TOTAL 41.48" then "ROUNDING 0.02" (and no later total): the amount due is the rounded one.
        if let adjustment = s.roundingAfterTotal, adjustment != 0, let total = s.receipt.total, abs(adjustment) < 1 {
            s.receipt.total = total + adjustment
            s.totalEvidence = "printed total \(Self.format(total)) + rounding \(Self.format(adjustment))"
        }
    }

    private func reconcileTotalWithTender(_ s: inout ParseState) {
        // Reconcile the total with what was paid: cash tendered − change, both printed and independent of an
        // OCR slip in the total line; or a lone tender with no change (card payments are exact).
        var paid: Decimal?
        var paidByCash = false
        var paidEvidence = ""
        if let cash = s.receipt.tenders.first(where: { $0.kind == "cash" }), let change = s.receipt.change, cash.amount >= change {
            paid = cash.amount - change
            paidByCash = true
            paidEvidence = "cash \(Self.format(cash.amount)) − change \(Self.format(change))"
        } else if s.receipt.tenders.count == 1, s.receipt.change == 0 || s.receipt.change == nil && !s.sawChangeWord,
                  let tender = s.receipt.tenders.first {
            // A refund paid out ("CASH $ -3.29" under a refunded fuel prepayment) pays a negative total.
            let refund = Self.trailingAmount(in: tender.text).map { $0.negative && !$0.token.hasPrefix("(") } ?? false
            paid = refund ? -tender.amount : tender.amount
            paidEvidence = "\(tender.kind) payment \(Self.format(paid!))"
        }
        if let paid, paid != 0, s.receipt.total != paid,
           shouldUsePaid(paid, byCash: paidByCash, s) {
            s.receipt.total = paid
            s.totalEvidence = paidEvidence
        }
    }

    /// When the total agrees with none of the receipt's own sums (subtotal + tax, items + tax, the items of a
    /// tax-inclusive receipt) but another printed total or payment does, that one is the total: an OCR slip in
    /// one figure ("Balance Due 25,65" under "Total 28.65") or a tax line read as the total ("VAT included in
    /// total 2.72") is outvoted by two figures that add up.
    private func chooseTotalByArithmetic(_ s: inout ParseState) {
        let r = s.receipt
        let net = r.items.reduce(Decimal(0)) { $0 + $1.total } - r.discounts.reduce(Decimal(0)) { $0 + $1.amount }
        var paid = r.tenders.map(\.amount)
        if let change = r.change, change > 0 { paid += r.tenders.filter { $0.amount > change }.map { $0.amount - change } }
        let choice = TotalArithmetic.choose(
            total: r.total, printedTotals: s.printedTotals, payments: paid, subtotal: r.subtotal, tax: r.tax,
            rounding: r.rounding, itemsNet: r.items.count >= 2 ? net : nil, tolerance: configuration.totalTolerance)
        if let choice, choice.value != r.total {
            s.receipt.total = choice.value
            s.totalEvidence = choice.evidence
        } else if r.total == nil, let subtotal = r.subtotal, let tax = r.tax, tax > 0, subtotal > 0,
                  let line = unreadTotalLine(s) {
            // "Total (Take Out)" printed without a readable amount under "Sub Total 7.24" and "Sales Tax 0.47":
            // the total the receipt states is their sum; flagged for review as inferred.
            s.receipt.total = subtotal + tax + (r.rounding ?? 0)
            s.totalEvidence = "subtotal + tax (the amount on line \(line + 1) was not read)"
            s.totalInferred = true
        } else if r.total == nil, r.subtotal == nil, r.items.count >= 2, net > 0, let line = unreadTotalLine(s),
                  s.summaryLines.tax.allSatisfy({ $0 > line }), !taxLabelWithoutAmount(s, before: line) {
            // "Total: ©" under the items with no tax added above it (a tax-inclusive bill, its VAT lines printed
            // below the total): the total the receipt states is the items' sum; flagged for review as inferred.
            s.receipt.total = net + (r.rounding ?? 0)
            s.totalEvidence = "items (the amount on line \(line + 1) was not read)"
            s.totalInferred = true
        }
    }

    /// The last total line read without an amount ("Total (Take Out)", "TOTAL: ©"), read with some confidence.
    private func unreadTotalLine(_ s: ParseState) -> Int? {
        s.texts.indices.last(where: { s.kinds[$0] == .ignored && s.input[$0].confidence >= 50
            && Self.trailingAmount(in: s.texts[$0]) == nil && Self.summaryKind(s.texts[$0].uppercased() + " 1.00") == .total })
    }

    /// Whether a tax or service line whose amount was not read ("Tax 1:") lies between the last item and `line`:
    /// then something unread was added to the items.
    private func taxLabelWithoutAmount(_ s: ParseState, before line: Int) -> Bool {
        let lastItem = s.kinds[..<line].lastIndex { $0 == .item || $0 == .itemDetail } ?? -1
        return (lastItem + 1..<line).contains { Self.trailingAmount(in: s.texts[$0]) == nil
            && Self.summaryKind(s.texts[$0].uppercased() + " 1.00") == .tax }
    }

    /// Whether the amount paid should replace the printed total.
    private func shouldUsePaid(_ paid: Decimal, byCash paidByCash: Bool, _ s: ParseState) -> Bool {
        let receipt = s.receipt
        let net = receipt.items.reduce(Decimal(0)) { $0 + $1.total } - receipt.discounts.reduce(Decimal(0)) { $0 + $1.amount }
        let tol = configuration.totalTolerance
        func agreesWithItems(_ x: Decimal) -> Bool {
            !receipt.items.isEmpty && (abs(net + (receipt.tax ?? 0) + (receipt.rounding ?? 0) - x) <= tol
                                       || abs(net + (receipt.rounding ?? 0) - x) <= tol)
        }
        var use = false
        if let total = receipt.total {
            if total == 0 || s.totalEvidence == "total line after payment" {
                use = paidByCash
            } else if s.strongTotal && s.totalCandidates.contains(paid) {
                use = false  // paid matches the figure before rounding/adjustment: cash or change was misread
            } else if agreesWithItems(paid) && !agreesWithItems(total) {
                use = true  // two printed numbers and the items agree against one OCR reading
            } else if paidByCash, !s.strongTotal, s.totalCandidates.contains(paid) {
                use = true
            } else if paidByCash, !s.wholeUnits, abs(paid - total) < Decimal(5) / 100,
                      Self.isMultiple(paid, of: Decimal(5) / 100), !Self.isMultiple(total, of: Decimal(5) / 100) {
                use = true  // cash rounding to 5 cents: 41.48 due, 41.50 paid in cash
            }
        } else {
            use = true
        }
        return use
    }

    private func readHeader(_ s: inout ParseState) {
        // Header: store name and address from the lines before the body.
        let headerEnd = s.firstBodyLine ?? min(s.texts.count, 6)
        let best = bestStoreLine(s, headerEnd: headerEnd)
        var addressLines: [String] = []
        // The address follows the store's line; when the store came from the foot, it is in the header.
        let storeIndex = best.map { $0 < headerEnd ? $0 : 0 } ?? headerEnd
        if let best {
            s.receipt.store = Self.storeName(s.texts[best])
            s.kinds[best] = .store
            // The kind of place printed alone under the name belongs to it ("IL10'S" / "Restaurant").
            if let place = Self.placeWordUnder(best, s.texts), best + 1 < headerEnd, let name = s.receipt.store {
                s.receipt.store = name + " " + place
                s.kinds[best + 1] = .header
            }
        }
        // No name line, but a contact line that starts with one ("Subway#1926-0 Phone 858-673-8362").
        let headerTexts = s.texts
        if s.receipt.store == nil, let (line, name) = (0..<headerEnd).lazy.compactMap({ i in
            StoreEvidence.nameBeforeContact(headerTexts[i]).map { (i, $0) } }).first {
            s.receipt.store = name
            if s.kinds[line] == .ignored { s.kinds[line] = .store }
        }
        // A business the receipt names in words ("Thank You for Visiting, PYT") over a header line that does not
        // contain that name (a tagline, a logo read as junk).
        let texts = s.texts
        if let (line, name) = StoreEvidence.named(in: texts),
           !(s.receipt.store.map { StoreEvidence.key($0).contains(StoreEvidence.key(name)) } ?? false) {
            s.receipt.store = name
            if let best { s.kinds[best] = .ignored }
            if s.kinds[line] == .ignored { s.kinds[line] = .store }
        }
        for i in storeIndex..<max(storeIndex, headerEnd) where s.kinds[i] == .ignored {
            let text = s.texts[i]
            let upper = text.uppercased()
            if Self.isContactLine(upper) { s.kinds[i] = .header; if !addressLines.isEmpty { break } else { continue } }
            if addressLines.count < 3, Self.looksLikeAddress(upper) {
                addressLines.append(Self.trimJunk(text))
                s.kinds[i] = .address
            } else if !addressLines.isEmpty {
                break
            }
        }
        if !addressLines.isEmpty { s.receipt.address = addressLines.joined(separator: ", ") }
        for i in 0..<headerEnd where s.kinds[i] == .ignored { s.kinds[i] = .header }
    }

    /// The kind of place printed alone on the line under `index` ("Restaurant", "PIZZERIA"), if any.
    static func placeWordUnder(_ index: Int, _ texts: [String]) -> String? {
        guard index + 1 < texts.count else { return nil }
        let next = trimJunk(texts[index + 1])
        return placeWords.contains(next.uppercased()) ? next : nil
    }

    /// The store line's index, if any.
    private func bestStoreLine(_ s: ParseState, headerEnd: Int) -> Int? {
        // Store: the best of the first name-like lines (confident OCR, store words, early position).
        var best: (index: Int, score: Double)?
        var considered = 0
        var sawStreet = false  // a street address line: the name is printed above it
        // The name a thank-you or welcome line gives the business ("Thank You for Visiting, PYT").
        let named = StoreEvidence.named(in: s.texts)?.name
        for i in 0..<headerEnd where s.kinds[i] == .ignored && considered < 6 {
            let text = s.texts[i]
            let upper = text.uppercased()
            if Self.looksLikeAddress(upper) && upper.contains(where: \.isNumber) && considered > 0 { sawStreet = true }
            guard s.input[i].confidence >= 40, Self.looksLikeName(text), !StoreEvidence.isLabelOrHeading(text),
                  StoreEvidence.namedInPhrase(text) == nil, !StoreEvidence.isSlogan(text),
                  !StoreEvidence.namesTheOwner(text), !StoreEvidence.isFunctionWord(text)
            else { continue }
            considered += 1
            let storeWord = Self.hasStoreWord(upper) || Self.hasLegalForm(upper) || Self.placeWordUnder(i, s.texts) != nil
            // A street word without a number is a name that holds one ("ONE MILL STREET"), not an address.
            if !storeWord && Self.looksLikeAddress(upper) && (upper.contains(where: \.isNumber) || upper.contains(","))
                && !StoreEvidence.isNameWithStoreNumber(upper) { continue }
            // Evidence beyond the line itself: the business named again (footer, web address, an item), and
            // lines after the street address are the city or a tagline.
            let namedHere = named.map { StoreEvidence.key($0).count >= 3 && StoreEvidence.key(text).contains(StoreEvidence.key($0)) } ?? false
            let repeated = StoreEvidence.isRepeated(text, in: s.texts, from: headerEnd)
            // Only words of three letters or fewer ("SSA", "ios"): a logo read in fragments, unless nothing better.
            let fragments = StoreEvidence.isDoubtful(text, confidence: 100) && !storeWord
            let score = s.input[i].confidence / 100 + (storeWord ? 0.6 : 0) - Double(considered - 1) * 0.15
                + (namedHere ? 2 : 0) + (repeated ? 0.5 : 0) - (sawStreet ? 0.5 : 0) - (fragments ? 0.6 : 0)
            if score > (best?.score ?? -1) { best = (i, score) }
        }
        if best.map({ (s.input[$0.index].confidence < 50 || StoreEvidence.isDoubtful(s.texts[$0.index], confidence: 100))
                && !Self.hasStoreWord(s.texts[$0.index].uppercased()) }) ?? true {
            // No name in the header, or only a doubtful one (a logo read as letters, then the address): the
            // company line, which tills often print at the foot ("Aldi GmbH & Co. KG, Schloß Holte").
            let company = s.texts.indices.first { i in
                s.kinds[i] == .ignored && i >= headerEnd && s.input[i].confidence >= 40
                    && StoreEvidence.hasCompanyForm(s.texts[i]) && Self.looksLikeName(s.texts[i])
            }
            if let company { return company }
        }
        return best?.index
    }

    /// The store name's spelling checked against its printing below the header (``StoreEvidence/respelled(_:by:confidences:from:)``),
    /// then the business's web domain as evidence for its name: a web address read as the store line ("WW. RYSTAL .COM")
    /// names it by its domain; a header line the domain repeats ("chipotle.com" over a tagline) is the store; a
    /// doubtful name or none (``StoreEvidence/isDoubtful(_:confidence:)``) gives way to the domain.
    private func applyDomainEvidence(_ s: inout ParseState) {
        if let store = s.receipt.store {
            let start = max(s.firstBodyLine ?? 0, (s.kinds.firstIndex(of: .store) ?? 0) + 1)
            s.receipt.store = StoreEvidence.respelled(store, by: s.texts, confidences: s.input.map(\.confidence), from: start)
        }
        guard let domain = StoreEvidence.domain(in: s.texts) else { return }
        let storeLine = s.kinds.firstIndex(of: .store)
        if let storeLine, StoreEvidence.domainName(s.texts[storeLine]) != nil {
            s.receipt.store = StoreEvidence.nameFromDomain(StoreEvidence.domainName(s.texts[storeLine])!)
            return
        }
        if let store = s.receipt.store, StoreEvidence.key(store).contains(domain) || domain.contains(StoreEvidence.key(store)) { return }
        let headerEnd = s.firstBodyLine ?? min(s.texts.count, 6)
        if let line = (0..<headerEnd).first(where: { StoreEvidence.domainName(s.texts[$0]) == nil && s.input[$0].confidence >= 40
            && Self.looksLikeName(s.texts[$0]) && StoreEvidence.key(s.texts[$0]).contains(domain) }) {
            if let storeLine { s.kinds[storeLine] = .header }
            s.receipt.store = Self.storeName(s.texts[line])
            s.kinds[line] = .store
            return
        }
        if StoreEvidence.isDoubtful(s.receipt.store, confidence: storeLine.map { s.input[$0].confidence } ?? 0) {
            s.receipt.store = StoreEvidence.nameFromDomain(domain)
        }
    }

    /// A chain the receipt names (``StoreChains``) as evidence for the store, when its logo was not read: the store
    /// line being the rest of the chain's full name ("DRESS FOR LESS" under ROSS), or the chain named on a line
    /// that is no item or amount — a header or address line, its web address, its loyalty programme, a coupon. The
    /// chain's name replaces a store line that does not name it, unless that line is a company's (a legal form or a
    /// store word: "AEON CO. (M) BHD") or the business a thank-you line names; a store line that names the chain
    /// stays as read when it is a confident name of three words or fewer ("MARINA SHELL") or the chain's name is at least
    /// half of it ("99 SPEED HART S/B", OCR for MART).
    private func applyChainEvidence(_ s: inout ParseState) {
        let storeLine = s.kinds.firstIndex(of: .store)
        let store = s.receipt.store
        if let store, let chain = StoreChains.chainByRestOfName(store) {
            s.receipt.store = chain.name
            return
        }
        let evidence: Set<ReceiptLineKind> = [.store, .header, .address, .ignored]
        let (texts, kinds, input) = (s.texts, s.kinds, s.input)
        guard let (line, chain) = texts.indices.lazy.filter({ evidence.contains(kinds[$0]) && input[$0].confidence >= 20 })
            .compactMap({ i in StoreChains.chain(in: texts[i]).map { (i, $0) } }).first else { return }
        // A company's legal name over a chain's name in the header: the franchisee's company above the brand it
        // runs ("Golden Arches Restaurants Sdn Bhd" / "McDonald's Nong Chik"); the shop is the brand.
        let headerEnd = s.firstBodyLine ?? min(s.texts.count, 6)
        let brandUnderCompany = storeLine.map { line > $0 && line < headerEnd && Self.hasLegalForm(texts[$0].uppercased()) } ?? false
        let confidence = storeLine.map { s.input[$0].confidence } ?? 0
        if let store {
            let upper = store.uppercased()
            let company = Self.hasLegalForm(upper) || Self.storeWords.contains { upper.split(whereSeparator: { !$0.isLetter }).contains(Substring($0)) }
            if StoreChains.chain(in: store) == chain {
                // As read, unless the chain is a small part of a long or unsure line ("Valid at participating US
                // McDonald's").
                let covered = chain.keys.map(\.count).max().map { Double($0) / Double(max(1, StoreEvidence.key(store).count)) } ?? 0
                if company || (confidence >= 60 && (store.split(separator: " ").count <= 3 || covered >= 0.5)) { return }
            } else {
                let named = StoreEvidence.named(in: s.texts)?.name
                if (company && !brandUnderCompany) || named.map({ StoreEvidence.key($0) == StoreEvidence.key(store) }) == true { return }
            }
        }
        s.receipt.store = chain.name
    }

    private func assemble(_ s: ParseState) -> ParsedReceipt {
        var receipt = s.receipt
        receipt.lines = s.input.indices.map {
            ReceiptLine(number: $0 + 1, text: s.input[$0].text, kind: s.kinds[$0], confidence: s.input[$0].confidence)
        }
        check(&receipt)
        if !s.notes.isEmpty {
            receipt.reviewReasons += s.notes
            receipt.needsReview = true
        }
        if s.totalInferred {
            receipt.reviewReasons.append("\(ParsedReceipt.inferredTotalReason): \(s.totalEvidence ?? "subtotal + tax")")
            receipt.needsReview = true
        }
        return receipt
    }

    // MARK: - Arithmetic check and review

    private func check(_ receipt: inout ParsedReceipt) {
        var reasons: [String] = []
        let itemsSum = receipt.items.reduce(Decimal(0)) { $0 + $1.total }
        let discounts = receipt.discounts.reduce(Decimal(0)) { $0 + $1.amount }
        let tax = receipt.tax ?? 0
        let rounding = receipt.rounding ?? 0
        if receipt.items.isEmpty { reasons.append("no items found") }
        if let total = receipt.total {
            let computed = itemsSum - discounts + tax + rounding
            let taxIncluded = itemsSum - discounts + rounding
            let tol = configuration.totalTolerance
            if abs(computed - total) > tol && !(tax != 0 && abs(taxIncluded - total) <= tol) {
                reasons.append("total mismatch: items \(Self.format(itemsSum)) − discounts \(Self.format(discounts)) + tax \(Self.format(tax))"
                    + (rounding != 0 ? " + rounding \(Self.format(rounding))" : "")
                    + " = \(Self.format(computed)), printed total \(Self.format(total))")
            }
        } else {
            reasons.append("no total found")
        }
        if receipt.date == nil { reasons.append("no date found") }
        if let date = receipt.date, date.ambiguous {
            reasons.append("ambiguous date \(date.printed) read as \(date.iso) (\(date.resolution))")
        }
        let low = receipt.items.filter { $0.confidence * 100 < configuration.minimumLineConfidence }
        if !low.isEmpty {
            reasons.append("low OCR confidence on \(low.count) item line(s): " + low.map(\.description).joined(separator: "; "))
        }
        receipt.reviewReasons = reasons
        // An ambiguous date resolved by preference alone is recorded but does not by itself need review.
        receipt.needsReview = reasons.contains { !$0.hasPrefix("ambiguous date") }
    }

    /// Whether an amount equals `expected` to the cent.
    static func amountsAgree(_ value: Decimal?, _ expected: Decimal) -> Bool {
        guard let value else { return false }
        return abs(value - expected) < Decimal(1) / 200
    }

    static func isMultiple(_ value: Decimal, of step: Decimal) -> Bool {
        var q = value / step
        var rounded = Decimal()
        NSDecimalRound(&rounded, &q, 0, .plain)
        return rounded == q
    }

    static func format(_ d: Decimal) -> String {
        var value = d
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 2, .plain)
        return String(format: "%.2f", NSDecimalNumber(decimal: rounded).doubleValue)
    }

    // MARK: - Amounts

    struct Amount {
        var value: Decimal      // magnitude
        var negative: Bool
        var rest: String        // the text before the amount (and flags)
        var token: String       // the amount as printed
        var signed: Decimal { negative ? -value : value }
    }

    /// The money amount at the end of a line, with OCR repairs (`S`→5, `O`→0, decimal comma), an optional
    /// currency prefix, a leading or trailing minus, and trailing tax flags (`T`, `F`, `SR`, `ZRL`, `*`).
    /// Currencies without minor units: their prices are whole numbers with thousands separators ("16,500").
    static let wholeUnitCurrencies: Set<String> = ["IDR", "JPY", "KRW", "VND", "CLP", "ISK", "UGX", "PYG"]

    static func trailingAmount(in text: String, wholeUnits: Bool = false) -> Amount? {
        var tokens = text.split(separator: " ").map(String.init)
        guard !tokens.isEmpty else { return nil }
        var trailingMinus = false
        // Drop one trailing flag token when the token before it is an amount: a tax letter ("1,49 C"), or on a
        // decimal-comma receipt a tax class or rate printed as digits ("9,70 1", "4,99 19", "7,95 0").
        // Also a single digit after a price and an amount column ("1 PATATES 3.00 3.00 3": a VAT code column).
        let taxClassDigits = tokens.count >= 2 && ["0", "1", "2", "3", "7", "19"].contains(tokens[tokens.count - 1])
            && tokens[tokens.count - 2].range(of: #"^-?\d{1,5},\d\d-?$"#, options: .regularExpression) != nil
            || tokens.count >= 3 && tokens[tokens.count - 1].count == 1 && tokens[tokens.count - 1].first!.isNumber
            && tokens[tokens.count - 2].range(of: #"^\d{1,5}[.,]\d\d$"#, options: .regularExpression) != nil
            && tokens[tokens.count - 3].range(of: #"^\d{1,5}[.,]\d\d$"#, options: .regularExpression) != nil
        // "4.45 PM", "9.03 AM": a time whose colon OCR read as a point, no amount.
        if tokens.count >= 2, ["AM", "PM", "A.M.", "P.M."].contains(tokens[tokens.count - 1].uppercased()) { return nil }
        if tokens.count >= 2, let last = tokens.last, last.count <= 3,
           last.allSatisfy({ $0.isLetter || $0 == "*" }) || last == "-" || last == "¢" || taxClassDigits
            || last.range(of: #"^[A-Z][0-9]$"#, options: .regularExpression) != nil,  // "2.40 T1": a tax code
           parseAmountToken(tokens[tokens.count - 2], wholeUnits: wholeUnits) != nil {
            if last == "-" { trailingMinus = true }
            tokens.removeLast()
        }
        guard let lastToken = tokens.last, var parsed = parseAmountToken(lastToken, wholeUnits: wholeUnits) else { return nil }
        tokens.removeLast()
        // "$ 3.49", "- 0.50", "RM 2.50"
        if let prev = tokens.last, ["$", "£", "€", "RM", "-", "USD", "EUR", "GBP", "MYR"].contains(prev.uppercased()) {
            if prev == "-" { parsed.negative = true }
            tokens.removeLast()
        }
        // A percentage just before (TAX 6.00% 1.21) is kept in the description.
        parsed.negative = parsed.negative || trailingMinus
        var rest = tokens.joined(separator: " ")
        while let c = rest.last, c == ":" || c == " " || c == "-" || c == "=" || c == "." { rest.removeLast() }
        return Amount(value: parsed.value, negative: parsed.negative, rest: rest, token: lastToken)
    }

    /// `wholeUnits`: the currency has no minor units, so "16,500", "16.500" and "16500" are whole amounts.
    static func parseAmountToken(_ raw: String, wholeUnits: Bool = false) -> (value: Decimal, negative: Bool)? {
        var s = Substring(raw)
        var negative = false
        while s.first == "=" { s = s.dropFirst() }  // "=RM108.50"
        // "CASH +297.00", "*297.00": a mark glued before the digits.
        if s.count >= 5, s.first == "+" || s.first == "*", s.dropFirst().first?.isNumber == true { s = s.dropFirst() }
        if s.hasPrefix("(") && s.hasSuffix(")") { s = s.dropFirst().dropLast(); negative = true }
        if s.hasPrefix("-") { negative = true; s = s.dropFirst() }
        if s.hasSuffix("-") { negative = true; s = s.dropLast() }
        // "R288.40": the rand's R, only right before the digits.
        for prefix in ["RM", "$", "£", "€", "USD", "MYR", "R"] where s.uppercased().hasPrefix(prefix)
            && (prefix != "R" || s.dropFirst().first?.isNumber == true) {
            s = s.dropFirst(prefix.count)
            // "RML.25", "RMLL.40": right after the currency, L is a misread 1.
            let ls = s.prefix(while: { $0 == "L" }).count
            if prefix == "RM", ls > 0, ls <= 2, s.dropFirst(ls).range(ofPattern: #"^\d*[.,]\d\d$"#) != nil {
                s = Substring(String(repeating: "1", count: ls) + s.dropFirst(ls))
            }
            break
        }
        if s.hasPrefix("-") { negative = true; s = s.dropFirst() }
        // "Change $.00": US tills print a zero amount without its leading 0, after the currency sign.
        if s.count == 3, s.first == ".", raw.contains(where: { "$£€".contains($0) }), s.dropFirst().allSatisfy(\.isNumber) {
            s = "0" + s
        }
        // Trailing tax flag glued on: "75.00SR", "3.55ZRL" (not "3.4S", where S is a misread 5).
        if let flag = s.range(ofPattern: #"\d[.,]\d\d[A-Z*]{1,3}$"#) {
            s = s[..<s.index(flag.lowerBound, offsetBy: 4)]
        }
        if wholeUnits, s.range(ofPattern: #"^(\d{1,3}([.,]\d{3})+|\d{3,7}|0)$"#) != nil {
            return Decimal(string: s.filter(\.isNumber)).map { ($0, negative) }
        }
        // Decimal separator: the last '.' or ',' followed by exactly two characters.
        let chars = Array(s)
        guard chars.count >= 4, chars[chars.count - 3] == "." || chars[chars.count - 3] == "," else { return nil }
        let intPart = chars[0..<(chars.count - 3)].filter { $0 != "," && $0 != "." }
        let fracPart = chars[(chars.count - 2)...]
        func repair(_ c: Character) -> Character? {
            switch c {
            case "0"..."9": return c
            case "S", "s": return "5"
            case "O", "o", "D": return "0"
            case "l", "I": return "1"
            default: return nil
            }
        }
        let digitsInt = intPart.map(repair)
        let digitsFrac = fracPart.map(repair)
        guard !intPart.isEmpty, intPart.count <= 7, !digitsInt.contains(nil), !digitsFrac.contains(nil) else { return nil }
        // At least one real digit, and the thousands grouping (if any) is plausible.
        guard chars.contains(where: \.isNumber) else { return nil }
        let str = String(digitsInt.compactMap { $0 }) + "." + String(digitsFrac.compactMap { $0 })
        guard let value = Decimal(string: str, locale: Locale(identifier: "en_US_POSIX")) else { return nil }
        return (value, negative)
    }

    // MARK: - Line classes

    static let cashWords = ["CASH", "TUNAI", "BAR", "GEGEBEN", "CONTANT", "CONTANTI", "ESPECES", "ESPÈCES",
                            "EFECTIVO", "DINHEIRO", "KONTANT", "KONTANTER", "SULARAHA", "GOTÓWKA", "GOTOWKA", "NAKIT",
                            "HOTOVOST", "KÉSZPÉNZ", "KESZPENZ"]
    /// Change given back, as tills abroad print it: Spanish, Portuguese, French, Dutch, Estonian, Polish,
    /// Swedish, Czech, Hungarian.
    static let changeWords = ["CAMBIO", "VUELTO", "VUELTA", "TROCO", "RENDU", "WISSELGELD", "TAGASI", "RESZTA",
                              "VÄXEL", "VAXEL", "VRÁCENO", "VRACENO", "VISSZAJÁRÓ", "VISSZAJARO"]
    static let tenderWords = ["CASH", "TUNAI", "CARD", "VISA", "MASTERCARD", "MC", "AMEX", "DEBIT", "CREDIT", "EBT",
                              "TENDER", "TENDERED", "PAID", "PAYMENT", "DISCOVER", "CHECK", "GIFT CARD", "NETS",
                              "EFTPOS", "CONTACTLESS", "GEGEBEN", "EC-CASH", "EC", "KARTE", "GIROCARD",
                              "MAESTRO", "PIN", "CONTANT", "CONTANTI", "PINNEN", "BANCOMAT",
                              "EFECTIVO", "TARJETA", "DINHEIRO", "CARTÃO", "CARTAO", "KONTANT", "KORT", "SULARAHA", "KAART",
                              "GOTÓWKA", "GOTOWKA", "KARTA", "NAKIT", "HOTOVOST", "KÉSZPÉNZ", "KESZPENZ"]

    /// `TOTAL` as OCR misreads it on faint prints: `TATAL`, `T0TAL`, `LOTAL`, `JOTAL`, `FOTAL`, `TOTA1`.
    /// Also `TOTA]`, `TOTA}`, `TOTA)`, `TOTA|` (the L read as a bracket) and `TOTAR` at a word's end.
    static func repairTotalWord(_ u: String) -> String {
        let repaired = u.replacingMatches(of: #"(?<![A-Z])(?:[JLIF1][O0]|T[0A])TA[L1I]|(?<![A-Z])TOTA(?:1|[\]})|R](?![A-Z]))"#, with: "TOTAL")
        // One letter off ("TETAL", "OTAL:", "TOTAI"), as a word of its own before an amount.
        guard repaired.contains(where: \.isNumber), !repaired.contains("TOTAL") else { return repaired }
        let total = Array("TOTAL")
        let tokens = repaired.split(separator: " ", omittingEmptySubsequences: false)
        return tokens.indices.map { k -> String in
            let token = tokens[k]
            // Q is a misread O ("QTAL:").
            let word = token.trimmingCharacters(in: CharacterSet(charactersIn: ":;.,")).replacingOccurrences(of: "Q", with: "O")
            // Not after a misread SUB ("SUN- TOTA"): a subtotal is no total.
            guard (4...5).contains(word.count), word.allSatisfy(\.isLetter),
                  k == 0 || !tokens[k - 1].hasPrefix("SU"),
                  EditDistance.levenshtein(Array(word), total) == 1 else { return String(token) }
            let printed = token.trimmingCharacters(in: CharacterSet(charactersIn: ":;.,"))
            return String(token).replacingOccurrences(of: printed, with: "TOTAL")
        }.joined(separator: " ")
    }

    /// `SUBTOTAL` as OCR misreads it on photos ("SUBTOTE!", "SohTotal", "btotal", "Subtota", "SUBTOT"): a word of
    /// 6–9 letters at most two letters off SUBTOTAL (`!` and `|` read as L), and `TAK` first on a line for TAX.
    /// Upper-case input.
    static func repairSummaryWords(_ u: String) -> String {
        let subtotal = Array("SUBTOTAL")
        var tokens = u.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        for k in tokens.indices {
            let word = tokens[k].replacingOccurrences(of: "!", with: "L").replacingOccurrences(of: "|", with: "L")
                .trimmingCharacters(in: CharacterSet(charactersIn: ":;.,"))
            guard (6...9).contains(word.count), word.allSatisfy(\.isLetter), !word.contains("SUBTOTAL"),
                  EditDistance.levenshtein(Array(word), subtotal) <= 2 else { continue }
            tokens[k] = "SUBTOTAL"
        }
        // AMOUNT with its M split in two ("AINOUNT:$, 2.00", "ARNOUNT"): tesseract's commonest split of a glyph.
        for k in tokens.indices {
            let letters = String(tokens[k].prefix(while: \.isLetter))
            guard (7...8).contains(letters.count), letters != "AMOUNT" else { continue }
            let joined = letters.replacingOccurrences(of: "RN", with: "M").replacingOccurrences(of: "IN", with: "M")
            if joined == "AMOUNT" { tokens[k] = "AMOUNT" + tokens[k].dropFirst(letters.count) }
        }
        if tokens.first == "TAK", tokens.count >= 2 { tokens[0] = "TAX" }
        return tokens.joined(separator: " ")
    }

    static func summaryKind(_ raw: String) -> ReceiptLineKind? {
        let u = repairTotalWord(repairSummaryWords(raw))
        let compact = u.replacingOccurrences(of: " ", with: "")
        if hasWord(u, "CHANGE") || compact.contains("CHANGEDUE") || compact.contains("CHANGEAMT")
            || hasWord(u, "KEMBALI") || hasWord(u, "KEMBALIAN")
            || hasWord(u, "RÜCKGELD") || hasWord(u, "RUCKGELD") || hasWord(u, "ZURÜCK") || hasWord(u, "ZURUCK")
            || changeWords.contains(where: { hasWord(u, $0) }) { return .change }
        // "SUB.TOT. ITM2 885.00", "SUB_TOT.": the subtotal abbreviated (its TOT is no total).
        if compact.contains("SUBTOTAL") || compact.contains("SUB-TOTAL") || compact.contains("SUBTTL")
            || compact.filter(\.isLetter).hasPrefix("SUBTOT")
            || compact.hasPrefix("NETSALES") || compact.hasPrefix("NETAMOUNT") || compact.hasPrefix("NETAMT") { return .subtotal }
        if compact.contains("ROUNDING") || compact.contains("ROUNDADJ") || compact.contains("RNDADJ") { return .rounding }
        // German, Dutch, Italian, French: ZWISCHENSUMME / SUBTOTAAL / SUBTOTALE / SOUS-TOTAL are subtotals.
        if compact.contains("ZWISCHENSUMME") || compact.contains("SOUS-TOTAL") || compact.contains("SOUSTOTAL") { return .subtotal }
        if hasWord(u, "MWST") || hasWord(u, "UST") || hasWord(u, "BTW") || hasWord(u, "IVA") || hasWord(u, "TVA") {
            // "MwSt 19% 1,23", "Summe MwSt", "enthaltene MwSt": tax (included in European totals).
            if !(compact.contains("SUMME") && !compact.contains("MWST")) { return .tax }
        }
        let europeanTotal = hasWord(u, "SUMME") || hasWord(u, "SOMME") || hasWord(u, "TOT") || compact.hasPrefix("SUMME") || hasWord(u, "GESAMT") || compact.contains("GESAMTBETRAG")
            || compact.contains("ZUZAHLEN") || hasWord(u, "ZAHLEN") || hasWord(u, "TOTAAL") || hasWord(u, "TOTALE") || hasWord(u, "BETRAG")
            // Croatian/Serbian/Bosnian, Polish, Czech/Slovak, Finnish, Scandinavian.
            || ["UKUPNO", "RAZEM", "CELKEM", "SPOLU", "YHTEENSÄ", "YHTEENSA", "TOTALT", "SUMMA"].contains { hasWord(u, $0) }
            // French: "NET A PAYER", "RESTE A PAYER" (the amount due).
            || compact.contains("APAYER") || compact.contains("ÀPAYER")
        // "Amount 117.00" alone (a card slip's or a bill's sum): the label is the one word AMOUNT.
        let labelWords = u.split(whereSeparator: { !$0.isLetter }).filter { !["USD", "RM", "EUR", "GBP", "AUD", "US"].contains($0) }
        let hasTotal = compact.contains("TOTAL") || compact.contains("BALANCEDUE") || compact.contains("AMOUNTDUE")
            || labelWords == ["AMOUNT"] && !u.contains("-")  // "AMOUNT -7,800" under "DISC ITEM" is a discount
            || compact.contains("BALDUE") || europeanTotal || hasWord(u, "DUE") && !compact.contains("DUEDATE")
        // Indonesian restaurant tax: PB1 / "PB 1", PPN, PAJAK (RESTO), "P. REST 10%".
        // India prints GST in halves: central and state (CGST, SGST), or integrated (IGST, UTGST).
        let taxWords = ["TAX", "GST", "VAT", "HST", "PST", "SST", "PPN", "PAJAK", "CGST", "SGST", "IGST", "UTGST"]
        let hasTaxWord = taxWords.contains { hasWord(u, $0) } || compact.contains("SALESTAX") || compact.contains("TOTALGST")
            || compact.hasPrefix("PB1") || compact.hasPrefix("P.REST")
        // "Incl", "Inc", "After Adj", OCR-garbled "Inc] GST", "Atter Adj".
        // A tax named only in parentheses qualifies the total: "Total Sales (Inclusive GST)", "(Ineluszve GST)".
        let inclusive = compact.contains("INCL") || compact.contains("INC") || compact.contains("ADJ") || compact.contains("WITH")
            || u.range(ofPattern: #"\([^)]*\b(GST|VAT|TAX|SST)\b"#) != nil
        if hasTotal {
            let notTotal = ["TOTQTY", "TOTITEM", "TOTALQTY", "TOTALQUANTITY", "TOTALITEM", "TOTALSAVING", "TOTALDISCOUNT", "TOTALNUMBER",
                            "TOTALPCS", "TOTALUNITS", "YOUSAVED", "TOTALSAVED", "TOTALTAXABLE",
                            "SAVINGS"]  // "TOTAL COUPON SAVINGS $18.00"
            if notTotal.contains(where: compact.contains) { return .ignored }
            if compact.contains("EXCL") { return .subtotal }
            if hasTaxWord && !inclusive { return .tax }
            return .total
        }
        if hasTaxWord {
            let notTax = ["TAXINVOICE", "GSTID", "GSTREG", "GSTNO", "TAXCODE", "GSTSUMMARY", "TAXID", "VATNO", "VATREG", "TAXABLE"]
            if notTax.contains(where: compact.contains) { return nil }
            return .tax
        }
        // Service charges are added like tax: "SERVICE CHARGE 5%", "SVC CHG 6%", "Srv Ch".
        if compact.hasPrefix("SERVICE") || compact.range(ofPattern: #"^(SERVI|SRV|SVC)(CHARGE|CHG|CH)"#) != nil
            || hasWord(u, "SERVICE") && hasWord(u, "CHARGE") || hasWord(u, "SERVIZIO")
            || (hasWord(u, "SVC") || hasWord(u, "SRV")) && (hasWord(u, "CHG") || hasWord(u, "CHARGE")) {
            return .tax
        }
        // A tip is added like a service charge: "GRATUITY : $8.10", "Tip: 8,90", "TIP $12.84" (the first word and then
        // the amount: "SIRLOIN TIP" is beef, "TIP GESCHIRRTUECHER" a house brand).
        if hasWord(u, "GRATUITY") || u.range(of: #"^\W*TIPS?\s*(:|[$€£]?\s*\d)"#, options: .regularExpression) != nil { return .tax }
        // "CARD MDAY MOTHER 720473842807 6.99 T": a product's code makes it an article (a greeting card), no payment.
        if tenderWords.contains(where: { hasWord(u, $0) }) && !compact.contains("CASHIER") && !hasProductCode(u) { return .tender }
        // "BAR 20,00" / "Bar EUR 50,00": German cash, only as the line's first word ("GRANOLA BAR" is food).
        if compact.hasPrefix("BAR"), letterCount(u) <= 6 || compact.hasPrefix("BARGELD") { return .tender }
        // Item counts: "ITEMS: 3", "4.00xITEMs", "QTY 5 ITEMS".
        if compact.hasPrefix("ITEMS") || compact.hasPrefix("QTYITEM") || compact.contains("XITEMS") || compact.hasSuffix("ITEMS") {
            return .ignored
        }
        return nil
    }

    /// Words of the lines that carry the money totals; on these "42 50" at the end is read as 42.50.
    static let moneyLineWords = ["TOTAL", "CASH", "CHANGE", "ROUNDING", "AMOUNT", "DUE", "TENDER", "BALANCE"]

    /// A count at the start of an item description: "2 EGG TART", "2x TEA", "*2 TART", "1PRS SOP" (unit glued on).
    static let leadingCount = #"^\*?\d{1,2}(?:\s*[xX×]|(?i:PRS|PCS|PC|GLS|BTL|PKT|CUP|EA))?\s+(?=\p{L}|[<*(]|\d{1,3}%\s)"#

    /// Splits the quantity and unit-price columns off the end of an item description: "Kopi Susu 1" (count),
    /// "S-Ovaltine 20,000" / "Black Tea @28,000" (unit price), "Isi Campur 1 43,636", "Giant Squid x1 Rp",
    /// "Tea X2"; a trailing currency word ("Rp", "RM", "$") goes too. Counts are 1–99, and a bare number counts
    /// only for whole-unit currencies or before a unit price ("EGGS 12 3.99" keeps its 12); a description that
    /// would be left with fewer than two letters is returned unchanged.
    static func stripItemColumns(_ text: String, wholeUnits: Bool, counts: Bool = true) -> (description: String, quantity: Decimal?, unitPrice: Decimal?) {
        var tokens = text.split(separator: " ").map(String.init)
        var quantity: Decimal?
        var unitPrice: Decimal?
        func isCurrency(_ t: String) -> Bool {
            ["RP", "RP.", "-RP", "IDR", "RM", "$", "-", "@", "X"].contains(t.uppercased())
        }
        var changed = true
        while changed, tokens.count >= 2 {
            changed = false
            let last = tokens[tokens.count - 1]
            if isCurrency(last) {
                tokens.removeLast(); changed = true; continue
            }
            if unitPrice == nil, quantity == nil {
                let bare = last.hasPrefix("@") ? String(last.dropFirst()) : last
                if last.hasPrefix("@") || bare.contains(where: { $0 == "." || $0 == "," }),
                   let price = parseAmountToken(bare, wholeUnits: wholeUnits), !price.negative {
                    unitPrice = price.value
                    tokens.removeLast(); changed = true; continue
                }
            }
            // A bare number ("EGGS 12") is a count only where quantity columns are the custom (whole-unit
            // currencies, e.g. rupiah receipts) or next to a unit price; "x2" / "2x" always is.
            let marked = last.contains(where: { "xX×".contains($0) })
            if counts, quantity == nil, marked || wholeUnits || unitPrice != nil,
               let m = last.range(ofPattern: #"^[xX×]?\d{1,2}[xX×]?$"#),
               let n = Int(last[m].filter(\.isNumber)), n > 0 {
                quantity = Decimal(n)
                tokens.removeLast(); changed = true; continue
            }
        }
        let description = tokens.joined(separator: " ")
        guard letterCount(description) >= 2 else { return (text, nil, nil) }
        return (description, quantity, unitPrice)
    }

    /// A line of only a count, a unit price and the line total that agree: "1 19,000 19,000", "2 4.00 8.00",
    /// "40.000 x1 40.000", "30000 30000" (count 1 left out).
    static func isCountPriceTotal(_ amount: Amount, wholeUnits: Bool) -> Bool {
        let tokens = amount.rest.split(separator: " ").map(String.init)
        func count(_ t: String) -> Int? {
            guard t.range(ofPattern: #"^[xX×]?\d{1,3}[xX×]?$"#) != nil else { return nil }
            return Int(t.filter(\.isNumber))
        }
        func price(_ t: String) -> Decimal? {
            parseAmountToken(t.hasPrefix("@") ? String(t.dropFirst()) : t, wholeUnits: wholeUnits)?.value
        }
        switch tokens.count {
        case 1:
            return price(tokens[0]) == amount.value
        case 2:
            if let n = count(tokens[0]), n > 0, let unit = price(tokens[1]), unit * Decimal(n) == amount.value { return true }
            if let n = count(tokens[1]), n > 0, let unit = price(tokens[0]), unit * Decimal(n) == amount.value { return true }
            return false
        default:
            return false
        }
    }

    static let discountWords = ["COUPON", "DISCOUNT", "DISC", "SAVINGS", "SAVING", "SAVED", "PROMO", "MARKDOWN",
                                "REDUCED", "MFR", "VOUCHER", "REBATE", "OFF", "LESS"]

    static func isDiscountText(_ u: String) -> Bool {
        discountWords.contains { hasWord(u, $0) }
    }

    static func isIgnorable(_ u: String) -> Bool {
        let compact = u.replacingOccurrences(of: " ", with: "")
        let phrases = ["ITEMSSOLD", "ITEMCOUNT", "NO.OFITEMS", "THANKYOU", "CASHIER", "INVOICE", "RECEIPT#",
                       "GSTID", "GSTREG", "TRANS", "TERMINAL", "OPERATOR", "APPROV", "AUTH", "ACCOUNT", "ACCT",
                       "SHOPPINGHOURS", "MEMBERNO", "POINTS", "QTYITEM", "S/PRICE", "PLEASECOME", "RETURN",
                       "TAXABLE",
                       "YOUSAVE", "REGULARPRICE", "PREVBAL"]  // savings and account notes under an item, no item
        // TABLE as a word ("TABLE: 21", "Table 52/1"), not inside VEGETABLE.
        return phrases.contains(where: compact.contains) || hasWord(u, "TEL") || hasWord(u, "PHONE") || hasWord(u, "FAX")
            || hasWord(u, "TABLE")
    }

    static func isContactLine(_ u: String) -> Bool {
        // "GST" as a word or glued to its label ("GST ID", "GSTREG"), not inside a name ("DRUGSTORE").
        hasWord(u, "TEL") || hasWord(u, "PHONE") || hasWord(u, "FAX") || hasWord(u, "GST") || u.contains("GSTID")
            || u.contains("GSTREG") || u.contains("GSTNO") || u.contains("WWW")
            || u.contains("@") || u.contains("HTTP") || u.contains("CO. REG") || u.contains("CO.REG")
            || hasWord(u, "STORE") || hasWord(u, "CASHIER") || hasWord(u, "REG") || hasWord(u, "TERMINAL")
    }

    /// Whole words (or word endings: "FAMILYMART", "MINIMARKET") from ``storeWords``; "HARTAMAS" is no MART.
    static func hasStoreWord(_ u: String) -> Bool {
        let tokens = u.split(whereSeparator: { !($0.isLetter || $0 == "/" || $0 == "-") }).map(String.init)
        return tokens.contains { token in
            placeWords.contains(token) || storeWords.contains { token == $0 || (token.count > $0.count && token.hasSuffix($0)) }
        }
    }

    /// A company registration number printed after the name: "(519537-X)", "(126926-H)", "{519537-X)".
    static let registrationNumber = #"\s*[({\[]?\s*[0-9S$]{5,8}\s*[-~]\s*[A-Za-z]\s*[)}\]?]?\s*$"#

    /// The store line without border junk, a leading stray mark ("* AEON") or a trailing registration number.
    static func storeName(_ text: String) -> String {
        var t = trimJunk(text)
        // A stray mark or digit before the name ("* AEON", "7 AEGON"), or a lone letter before a number ("P 99 SPEED").
        while case let tokens = t.split(separator: " "), tokens.count > 2, let first = tokens.first, first.count == 1,
              !first.allSatisfy(\.isLetter) || tokens[1].first?.isNumber == true {
            t = trimJunk(String(t.dropFirst(first.count)))
        }
        // A stray lower-case letter ("i The Wild") or a token with brackets or bars inside ("atzsss} BERGDORF")
        // before a capitalised name.
        if case let tokens = t.split(separator: " "), tokens.count >= 2, let first = tokens.first,
           tokens[1].first?.isUppercase == true, tokens.dropFirst().contains(where: { $0.filter(\.isLetter).count >= 3 }),
           (first.count == 1 && first.first?.isLowercase == true) || first.contains(where: { "{}[]|<>\\".contains($0) }) {
            t = trimJunk(String(t.dropFirst(first.count)))
        }
        // Fragments of a logo before a name in capitals ("aA rt SINCLAIR"): short tokens not in capitals.
        while case let tokens = t.split(separator: " "), tokens.count >= 2, let first = tokens.first,
              first.filter(\.isLetter).count <= 2, first != first.uppercased(),
              tokens.dropFirst().contains(where: { $0.count >= 4 && $0.allSatisfy { $0.isUppercase } }) {
            t = trimJunk(String(t.dropFirst(first.count)))
        }
        // A logo read as a run of fragments (four or more tokens of one or two characters: "N y et 7 Pt 1. ; =
        // BREWERY") before a word in capitals.
        if case let tokens = t.split(separator: " "), let name = tokens.firstIndex(where: { $0.count > 2 }), name >= 4,
           tokens[name].count >= 4, tokens[name].allSatisfy({ !$0.isLetter || $0.isUppercase }) {
            t = trimJunk(tokens[name...].joined(separator: " "))
        }
        t = withoutTrailingFragments(t)
        let stripped = t.replacingMatches(of: registrationNumber, with: "")
        if letterCount(stripped) >= 3 { t = trimJunk(stripped) }
        return t
    }

    /// A name in capitals without the fragments OCR read after it ("VFS RANGOU eo Ree"): trailing tokens of up to
    /// three letters not in capitals (not a legal form such as "Inc").
    static func withoutTrailingFragments(_ text: String) -> String {
        var tokens = text.split(separator: " ")
        var cut = tokens.count
        while cut > 1, case let token = tokens[cut - 1], token.filter(\.isLetter).count <= 3, token != token.uppercased(),
              !legalForms.contains(token.uppercased().filter(\.isLetter)) {
            cut -= 1
        }
        guard cut < tokens.count, tokens[..<cut].contains(where: { $0.filter(\.isLetter).count >= 4 }),
              tokens[..<cut].allSatisfy({ $0 == $0.uppercased() }) else { return text }
        tokens.removeSubrange(cut...)
        return trimJunk(tokens.joined(separator: " "))
    }

    static func looksLikeName(_ text: String) -> Bool {
        // Registration numbers and other digit runs ("(519537-X)") do not count against a name.
        let t = trimJunk(text).split(separator: " ").filter { $0.filter(\.isNumber).count < 4 }.joined(separator: " ")
        let letters = letterCount(t)
        guard letters >= 3 else { return false }
        let words = t.split(separator: " ").filter { $0.filter(\.isLetter).count >= 2 }
        guard !words.isEmpty else { return false }
        let u = t.uppercased()
        if ["EUR", "USD", "GBP", "MYR", "CHF", "EURO"].contains(u) { return false }  // the currency column's heading
        if u.hasPrefix("WELCOME") || u.contains("SHOPPING HOURS") || u.contains("HRS") || u.contains("ZEITEN") || isContactLine(u) || u.contains("RECEIPT") || u.contains("INVOICE") { return false }
        return Double(letters) / Double(max(1, t.filter { !$0.isWhitespace }.count)) >= 0.5
    }

    /// Words that mark a line as a store name.
    static let storeWords = ["MARKET", "GROCER", "MART", "FOODS", "STORE", "SUPERMARKET", "CO-OP", "COOP", "DELI",
                             "BAKERY", "FARM", "FRESH", "SDN", "BHD", "S/B", "ENTERPRISE", "TRADING", "WHOLESALE",
                             "PHARMACY", "LTD", "INC", "LLC", "PASARAYA", "KEDAI", "MARKT"]

    /// Places that sell food and drink, as whole words ("WARBURGER" is a street, not a BURGER place).
    static let placeWords: Set<String> = [
        "RESTAURANT", "RESTAURANTE", "RISTORANTE", "CAFE", "CAFÉ", "CAFFE", "COFFEE", "BAR", "GRILL", "PUB", "BREWERY",
        "BURGER", "BURGERS", "PIZZA", "PIZZERIA", "KITCHEN", "TAVERN", "BISTRO", "DINER", "TRATTORIA", "STEAKHOUSE",
        "SUSHI", "HOTEL",
    ]

    /// Company legal forms, as whole words: a line that carries one names the business ("HORNBACH Baumarkt AG",
    /// "toom Baumarkt GmbH", "Aldi GmbH & Co. KG").
    static let legalForms: Set<String> = ["GMBH", "AG", "KG", "OHG", "GBR", "LTD", "INC", "LLC", "PLC", "CORP", "BHD",
                                          "SARL", "SRL", "SPA", "BV", "NV"]

    static func hasLegalForm(_ u: String) -> Bool {
        u.split(whereSeparator: { !$0.isLetter }).contains { legalForms.contains(String($0)) }
    }

    static func looksLikeAddress(_ u: String) -> Bool {
        let hasDigit = u.contains(where: \.isNumber)
        let words = u.split(whereSeparator: { !$0.isLetter }).filter { $0.count >= 3 }
        guard !words.isEmpty else { return false }
        let streetWords: Set<String> = ["ST", "STREET", "AVE", "AVENUE", "RD", "ROAD", "BLVD", "DR", "DRIVE", "LANE", "LN",
                                        "WAY", "HWY", "HIGHWAY", "JALAN", "JLN", "TAMAN", "LOT", "NO", "PLAZA", "SQ",
                                        "SQUARE", "CT", "COURT", "PL", "PLACE", "SUITE", "STE", "FLOOR", "FLR", "UNIT", "BATU"]
        let tokens = Set(u.split(whereSeparator: { !$0.isLetter }).map(String.init))
        if !tokens.isDisjoint(with: streetWords) { return true }
        // German street names end in -straße (OCR: -strabe), -str., -weg, -platz, -allee, -damm, -gasse, and come
        // with a house number: "Pohlweg 110", "Warburger Straße 130".
        let streetEndings = ["STRASSE", "STRAßE", "STRABE", "STR", "WEG", "PLATZ", "ALLEE", "DAMM", "GASSE"]
        if hasDigit, tokens.contains(where: { token in streetEndings.contains { token.hasSuffix($0) } }) { return true }
        if u.range(of: #"\b[A-Z]{2}\s+\d{5}(-\d{4})?\b"#, options: .regularExpression) != nil { return true }  // VT 05401
        if u.range(of: #"\b\d{5}\b"#, options: .regularExpression) != nil { return true }  // postcodes
        return hasDigit && u.contains(",")
    }

    public static func hasWord(_ u: String, _ word: String) -> Bool {
        var searchRange = u.startIndex..<u.endIndex
        while let r = u.range(of: word, range: searchRange) {
            let beforeOK = r.lowerBound == u.startIndex || !u[u.index(before: r.lowerBound)].isLetter
            let afterOK = r.upperBound == u.endIndex || !u[r.upperBound].isLetter
            if beforeOK && afterOK { return true }
            searchRange = r.upperBound..<u.endIndex
        }
        return false
    }

    static func letterCount(_ s: String) -> Int { s.filter(\.isLetter).count }

    /// Whether a line prints a product code as a word of its own: a UPC-A or EAN-13 (12 or 13 digits). Card numbers
    /// are printed masked ("XXXX1234") and longer.
    static func hasProductCode(_ text: String) -> Bool {
        text.range(of: #"(^|\s)\d{12,13}(\s|$)"#, options: .regularExpression) != nil
    }

    /// The text without article-number labels and codes ("ART/EAN 4002245701618", "Artikel 50319963 22621").
    static func withoutArticleNumber(_ text: String) -> String {
        let labels: Set<String> = ["ART/EAN", "EAN", "ART", "ART.", "ARTIKEL", "ARTIKEL-NR", "ARTIKEL-NR.", "ART-NR", "ART.-NR.",
                                   "PLU", "SKU", "UPC", "NR", "NR."]
        return text.split(separator: " ")
            .filter { !labels.contains($0.uppercased()) && $0.filter(\.isNumber).count < 6 }
            .joined(separator: " ")
    }

    static func clean(_ text: String) -> String {
        var s = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        // OCR border noise at the ends of lines ("CASH RM 11.40 |", "| ASIA MART").
        let junk: Set<Character> = ["|", "«", "»", "~", "_", "‘", "’", "“", "”", "\"", "'", "`", "¦", "=", "—", "–", "{", "}", "[", "]"]
        while let c = s.last, junk.contains(c) || c == " " { s.removeLast() }
        while let c = s.first, junk.contains(c) || c == " " { s.removeFirst() }
        // "Subtotal 50.45 .", "TAX 4.28:", "Total: $47.96 )", "Subtotal 46.00 +", "14.95 =": stray marks after the
        // closing amount (not the bracket of a negative "(3.29)", a minus, or a percent sign after a rate).
        s = s.replacingMatches(of: #"(?<![(\d.,$€£])([$€£]?\d{1,7}[.,]\d\d)(?: ?[.:;,)!+=>\\])+$"#, with: "$1")
        // "177, 26" / "5. 09" (a space after the decimal separator) and "RM3 90" (a lost separator).
        // Not before a date or a time ("WCash2, 02/20/16, 04:39 PM").
        s = s.replacingMatches(of: #"(\d)([.,]) (\d\d)(?![\d.,:/])"#, with: "$1$2$3")
        s = s.replacingMatches(of: #"(?<=RM|RM )[iIl](?=\d{0,3} \d\d$)"#, with: "1")  // "RMi 00"
        s = s.replacingMatches(of: #"(RM ?\d{1,4}) (\d\d)$"#, with: "$1.$2")
        // "TOTAL...16,70", "Total:$5.00": leader dots or a colon glued to the amount.
        s = s.replacingMatches(of: #"(?<=\p{L})(?:\.{2,}|:)(?=[$€£]?\d+[.,]\d\d\b)"#, with: " ")
        s = s.replacingMatches(of: #"(?<=\p{L})\.{2,}"#, with: " ")
        // "$52 .97": a space before the decimal separator.
        s = s.replacingMatches(of: #"(\d) ([.,]\d\d)$"#, with: "$1$2")
        return s
    }

    /// Strips OCR border junk (`|`, `—`, `‘`) from the ends of a line.
    static func trimJunk(_ text: String) -> String {
        let junk = CharacterSet(charactersIn: "|_—–‘’'\"`~«»:;,.!¡ ").union(.whitespaces)
        return text.trimmingCharacters(in: junk)
    }

    /// `150Z`→`15OZ`, `12 0Z`→`12 OZ`, `2 1B`→`2 LB`, whitespace collapsed, junk trimmed.
    static func repairDescription(_ text: String) -> String {
        var s = trimJunk(text)
        s = s.replacingMatches(of: #"(\d)\s?0Z\b"#, with: "$1OZ")
        s = s.replacingMatches(of: #"(\d)\s?0z\b"#, with: "$1oz")
        s = s.replacingMatches(of: #"(\d)(\s?)[1I][Bb]\b"#, with: "$1$2LB")
        return s
    }

    // MARK: - Quantities and weights

    struct Detail {
        var descriptionPrefix: String
        var quantity: Decimal?
        var unit: String?
        var unitPrice: Decimal?
        var total: Decimal?
    }

    /// Reads `0.75 lb @ 2.99/lb 2.24`, `1.234 kg`, `2 @ 1.99 3.98`, `2 x 1.99`, `QTY 3`; the text before
    /// the match is returned as `descriptionPrefix` (empty on a detail-only line).
    static func parseDetail(_ raw: String, wholeUnits: Bool = false) -> Detail? {
        var s = raw.uppercased()
        s = s.replacingMatches(of: #"(\d)\s?[1I]B\b"#, with: "$1 LB")
        s = s.replacingMatches(of: #"(\d)\s?0Z\b"#, with: "$1 OZ")
        s = s.replacingMatches(of: #"/\s?[1I]B\b"#, with: "/LB")
        s = s.replacingMatches(of: #"\bK9\b"#, with: "KG")
        let num = #"(\d+(?:[.,]\d+)?)"#
        let price = wholeUnits ? #"(?:RP\.?)?\$?\s?(\d{1,3}(?:[.,]\d{3})+|\d+)"# : #"\$?\s?(\d+[.,]\d{2,3})"#
        let unit = #"(LBS?|KG|OZ|G)"#
        let patterns: [String] = [
            // weight @ price / unit; the "/unit" may be missing or garbled ("0.71 lbs @0.79 Ib")
            "^(.*?)\\s*" + num + "\\s*" + unit + "\\s*(?:@|AT|X)\\s*" + price + "(?:\\s*/\\s*" + unit + "\\b)?",
            // count @ price   /  count x price
            "^(.*?)\\s*(\\d{1,3})\\s*(?:(?:STK|ST|STUCK|STÜCK|ROLLE|PCS|PC|PK)\\.?\\s*)?(?:X\\s*@|@|X|×|AT)\\s*" + price
                + "(?:\\s*(?:EA|EACH|/EA))?\\b",
            // QTY 3
            "^(.*?)\\s*QTY\\s*:?\\s*(\\d{1,3})\\b",
            // bare weight: "1.234 KG"
            "^(.*?)\\s*(\\d+[.,]\\d+)\\s*(KG|LBS?)\\b",
            // price x count, as German tills print it: "0,99 X 2"
            "^(.*?)\\s*" + price + "\\s*(?:X|×)\\s*(\\d{1,3})(?![\\d.,])",
        ]
        for (index, pattern) in patterns.enumerated() {
            guard let regex = RegexCache.regex(pattern),
                  let m = regex.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) else { continue }
            func group(_ n: Int) -> String? {
                guard n < m.numberOfRanges, let r = Range(m.range(at: n), in: s) else { return nil }
                return String(s[r])
            }
            func dec(_ n: Int) -> Decimal? {
                if wholeUnits, n >= 3, let g = group(n) { return Decimal(string: g.filter(\.isNumber)) }
                return group(n).flatMap { Decimal(string: $0.replacingOccurrences(of: ",", with: "."), locale: Locale(identifier: "en_US_POSIX")) }
            }
            var detail = Detail(descriptionPrefix: "")
            // Keep the original casing for the description.
            let prefixLength = group(1)?.count ?? 0
            detail.descriptionPrefix = String(raw.prefix(prefixLength)).trimmingCharacters(in: .whitespaces)
            switch index {
            case 0:
                detail.quantity = dec(2)
                detail.unit = normalizedUnit(group(3))
                detail.unitPrice = dec(4)
            case 1:
                detail.quantity = dec(2)
                detail.unit = "each"
                detail.unitPrice = dec(3)
            case 2:
                detail.quantity = dec(2)
                detail.unit = "each"
            case 4:
                detail.quantity = Decimal(string: group(3) ?? "")
                detail.unit = "each"
                detail.unitPrice = dec(2)
            default:
                detail.quantity = dec(2)
                detail.unit = normalizedUnit(group(3))
            }
            // The line total: an amount after the match.
            let after = Range(m.range, in: s).map { String(s[$0.upperBound...]).trimmingCharacters(in: .whitespaces) } ?? ""
            if !after.isEmpty, let amount = trailingAmount(in: after, wholeUnits: wholeUnits) {
                detail.total = amount.value
            }
            return detail
        }
        return nil
    }

    static func normalizedUnit(_ u: String?) -> String? {
        switch u {
        case "LB", "LBS": return "lb"
        case "KG": return "kg"
        case "OZ": return "oz"
        case "G": return "g"
        default: return u?.lowercased()
        }
    }

    // MARK: - Discount attachment

    private func attachDiscount(_ description: String, to items: [ReceiptItem]) -> (Int?, String) {
        guard !items.isEmpty else { return (nil, "unattached") }
        let generic: Set<String> = ["COUPON", "STORE", "DISCOUNT", "DISC", "MEMBER", "SAVINGS", "SAVING", "OFF",
                                    "MFR", "MANUFACTURER", "PROMO", "DIGITAL", "INSTANT", "SALE", "YOU", "SAVED",
                                    "CARD", "CLUB", "BONUS", "VOUCHER", "LESS", "PRICE", "REDUCED"]
        let words = Set(Self.words(description).filter { $0.count >= 3 && !generic.contains($0) })
        if !words.isEmpty {
            var best: (index: Int, score: Int)?
            for (index, item) in items.enumerated() {
                let score = words.intersection(Self.words(item.description)).count
                if score > 0, score >= (best?.score ?? 0) { best = (index, score) }
            }
            if let best { return (best.index, "names item") }
        }
        return (items.count - 1, "follows item")
    }

    static func words(_ s: String) -> [String] {
        s.uppercased().split(whereSeparator: { !$0.isLetter }).map(String.init)
    }

    // MARK: - Currency

    private func detectCurrency(_ lines: [String]) -> (String, String) {
        let text = lines.joined(separator: "\n")
        let upper = text.uppercased()
        // The symbol printed most: a stray £ or € read from a smudge does not outvote ten dollar signs.
        // £ and € count beside an amount ("£3.50", "3,50 €"): read from a smudge inside a number ("£60927"), one
        // would make a US receipt's dates day-first.
        func besideAmounts(_ symbol: Character) -> Int {
            guard text.contains(symbol) else { return 0 }
            let amount = "[0-9OS]{1,6}[.,][0-9OS]{2}"
            let pattern = "\(symbol)\\s?\(amount)|\(amount)\\s?\(symbol)"
            return RegexCache.regex(pattern)?.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text)) ?? 0
        }
        let dollars = text.filter { $0 == "$" }.count, pounds = besideAmounts("£")
        let euros = besideAmounts("€")
        if pounds > 0, pounds >= euros, pounds >= dollars { return ("GBP", "symbol £") }
        if euros > 0, euros >= dollars { return ("EUR", "symbol €") }
        for code in ["MYR", "USD", "EUR", "GBP", "CAD", "AUD", "NZD", "SGD", "CHF", "INR"] where Self.hasWord(upper, code) {
            return (code, "code \(code)")
        }
        if upper.range(ofPattern: #"(^|[^A-Z])RM\s?\d|\(RM\)|\bRM\b"#) != nil {
            return ("MYR", "code RM")
        }
        // German receipts name the euro rarely but print SUMME, MwSt and EC-Cash.
        let germanWords = ["SUMME", "MWST", "ZU ZAHLEN", "EC-CASH", "RÜCKGELD", "GEGEBEN", "BETRAG"]
        if let word = germanWords.first(where: { upper.contains($0) }), !text.contains("$") {
            return ("EUR", "German receipt word \(word)")
        }
        if text.contains("$") {
            let dollar: Set<String> = ["USD", "CAD", "AUD", "NZD", "SGD", "HKD"]
            let code = dollar.contains(configuration.defaultCurrency) ? configuration.defaultCurrency : "USD"
            return (code, "symbol $")
        }
        return (configuration.defaultCurrency, "default")
    }

    // MARK: - Dates and times

    static let monthNames = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]

    /// A date on one line (`raw`, upper case). An all-numeric date both of whose readings are valid
    /// (`07/06/15`) is read in the order of a weekday printed on the line, else day-first when dotted, else as
    /// `receiptOrder` says (what the rest of the receipt says, ``dateOrderEvidence(_:currency:currencyEvidence:)``),
    /// else by `currency` (month-first for dollars). Two-digit years 90–99 are the 1990s, the others 20xx.
    public func parseDate(_ raw: String, currency: String, receiptOrder: DateOrderEvidence? = nil) -> ReceiptDate? {
        let u = Self.repairDateDigits(raw)
        func match(_ pattern: String) -> [String]? {
            guard let regex = RegexCache.regex(pattern),
                  let m = regex.firstMatch(in: u, range: NSRange(u.startIndex..., in: u)) else { return nil }
            return (0..<m.numberOfRanges).map { n in
                Range(m.range(at: n), in: u).map { String(u[$0]) } ?? ""
            }
        }
        func year(_ s: String) -> Int? {
            guard let y = Int(s) else { return nil }
            if s.count == 2 { return y >= 90 ? 1900 + y : 2000 + y }
            return (1990...2099).contains(y) ? y : nil
        }
        func valid(_ y: Int, _ m: Int, _ d: Int) -> Bool {
            guard (1...12).contains(m), d >= 1 else { return false }
            let days = [31, (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            return d <= days[m - 1]
        }
        func month(_ name: String) -> Int? {
            Self.monthNames.firstIndex(of: String(name.prefix(3))).map { $0 + 1 }
        }
        // ISO 2026-03-14 / 2026/03/14
        if let g = match(#"(?<![\d])(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?![\d])"#),
           let y = year(g[1]), let m = Int(g[2]), let d = Int(g[3]), valid(y, m, d) {
            return ReceiptDate(year: y, month: m, day: d, printed: g[0], resolution: "ISO")
        }
        if let named = Self.monthNameDate(u, match: match, year: year, valid: valid) { return named }
        // 03/14/2026, 14/03/2026, 03-14-26, 14.03.26 (not "15.04. 16:14", a day and a time)
        if let g = match(Self.numericDatePattern), let a = Int(g[1]), let b = Int(g[3]), let y = year(g[4]) {
            let monthFirstOK = valid(y, a, b)
            let dayFirstOK = valid(y, b, a)
            var (preference, why) = dateOrder(u, separator: g[2], currency: currency, receiptOrder: receiptOrder)
            // Without a configured order, a weekday printed beside the date names the order when only one reading
            // falls on it.
            if configuration.dateOrder == .automatic, monthFirstOK, dayFirstOK, let named = Self.printedWeekday(u) {
                let monthFirstDay = Self.weekday(year: y, month: a, day: b), dayFirstDay = Self.weekday(year: y, month: b, day: a)
                if monthFirstDay == named, dayFirstDay != named { (preference, why) = (.monthFirst, "by the weekday printed") }
                if dayFirstDay == named, monthFirstDay != named { (preference, why) = (.dayFirst, "by the weekday printed") }
            }
            if monthFirstOK && dayFirstOK {
                if a == b {
                    return ReceiptDate(year: y, month: a, day: b, printed: g[0], resolution: "day equals month")
                }
                if preference == .monthFirst {
                    return ReceiptDate(year: y, month: a, day: b, printed: g[0], ambiguous: true, resolution: "month-first \(why)")
                }
                return ReceiptDate(year: y, month: b, day: a, printed: g[0], ambiguous: true, resolution: "day-first \(why)")
            }
            if monthFirstOK {
                return ReceiptDate(year: y, month: a, day: b, printed: g[0], resolution: "month-first: second field > 12")
            }
            if dayFirstOK {
                return ReceiptDate(year: y, month: b, day: a, printed: g[0], resolution: "day-first: first field > 12")
            }
        }
        // "19. 09, 2014": a dotted date whose second dot OCR read as a comma (a four-digit year, one dot at least).
        if let g = match(#"(?<![\d.,])(\d{1,2})\s?\.\s?(\d{1,2})\s?,\s?(\d{4})(?![\d.,])"#),
           let d = Int(g[1]), let m = Int(g[2]), let y = year(g[3]), valid(y, m, d) {
            return ReceiptDate(year: y, month: m, day: d, printed: g[0], resolution: "day-first (dotted date, one dot read as a comma)")
        }
        // "13.05 2017 16:48:54": a dotted date whose second dot was lost, on a line with a date label or a time.
        if u.contains("DAT") || Self.parseTime(u) != nil,
           let g = match(#"(?<![\d.,])(\d{1,2})\.(\d{1,2})\s(\d{4})(?![\d.,])"#),
           let d = Int(g[1]), let m = Int(g[2]), let y = year(g[3]), valid(y, m, d) {
            return ReceiptDate(year: y, month: m, day: d, printed: g[0], resolution: "day-first (dotted date, second dot lost)")
        }
        if let lost = slashLostDate(u, currency: currency, receiptOrder: receiptOrder) { return lost }
        // 20180304 after DATE
        if u.contains("DATE"), let g = match(#"(?<![\d])(20\d{2})(\d{2})(\d{2})(?![\d])"#),
           let y = year(g[1]), let m = Int(g[2]), let d = Int(g[3]), valid(y, m, d) {
            return ReceiptDate(year: y, month: m, day: d, printed: g[0], resolution: "compact ISO")
        }
        return nil
    }

    /// A printed month name: its first three letters, then any letters (`MAR`, `MARCH`, `SEPT`), as few as let the
    /// rest match (so `JUNO3` is June and a day read with the letter O).
    static let monthNamePattern = "(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]*?"

    /// A date with a printed month name, in the shapes receipt printers use: `14 Mar 2026`, `05-AUG-2017`,
    /// `14MAR26`, `22Nov'12`; `Mar 14, 2026`, `JULY 20,2011`, `Aug262017`; and the restaurant printers'
    /// `May08'14` / `Jul03' 12` (a two-digit year after an apostrophe, which OCR also reads as `’` or `°`). A day
    /// read with the letter O for a zero (`JUNO3'14`, `O4NOV'17`) is read as the digit.
    static func monthNameDate(
        _ u: String, match: (String) -> [String]?, year: (String) -> Int?, valid: (Int, Int, Int) -> Bool
    ) -> ReceiptDate? {
        func month(_ name: String) -> Int? { monthNames.firstIndex(of: String(name.prefix(3))).map { $0 + 1 } }
        func day(_ s: String) -> Int? { Int(s.replacingOccurrences(of: "O", with: "0")) }
        let name = monthNamePattern, apostrophe = "['’‘`°]"
        let dayDigits = "((?<![\\dA-Z])O\\d|(?<!\\d)\\d{1,2})"
        // Day first: 14 Mar 2026, 05-AUG-2017, 14MAR26, 22NOV'12.
        if let g = match("\(dayDigits)[\\s\\-/.]?\(name)\\.?[\\s\\-/.,]*\(apostrophe)?\\s?(\\d{4}|\\d{2})(?![\\d])"),
           let y = year(g[3]), let m = month(g[2]), let d = day(g[1]), valid(y, m, d) {
            return ReceiptDate(year: y, month: m, day: d, printed: g[0], resolution: "month name")
        }
        // Month first, four-digit year: Mar 14, 2026 / OCT 3, 2016 / JULY 20,2011 / AUG262017.
        if let g = match("(?<![A-Z])\(name)\\.?\\s*\(dayDigits)(?:ST|ND|RD|TH)?\\s*[,.]?\\s*(\\d{4})(?![\\d])"),
           let y = year(g[3]), let m = month(g[1]), let d = day(g[2]), valid(y, m, d) {
            return ReceiptDate(year: y, month: m, day: d, printed: g[0], resolution: "month name")
        }
        // Month first, two-digit year after an apostrophe: MAY08'14, JUL03' 12, OCT30°18, OCT.10'15.
        if let g = match("(?<![A-Z])\(name)\\.?\\s?\(dayDigits)\\s?\(apostrophe)\\s?(\\d{2})(?![\\d])"),
           let y = year(g[3]), let m = month(g[1]), let d = day(g[2]), valid(y, m, d) {
            return ReceiptDate(year: y, month: m, day: d, printed: g[0], resolution: "month name")
        }
        return nil
    }

    /// The order of an ambiguous numeric date: the configuration's when it names one, else
    /// ``automaticDateOrder(_:separator:currency:receiptOrder:)``; and why.
    func dateOrder(_ u: String, separator: String, currency: String,
                   receiptOrder: DateOrderEvidence?) -> (DateOrder, String) {
        switch configuration.dateOrder {
        case .monthFirst: return (.monthFirst, "by configuration")
        case .dayFirst: return (.dayFirst, "by configuration")
        case .automatic: return automaticDateOrder(u, separator: separator, currency: currency, receiptOrder: receiptOrder)
        }
    }

    /// The order of an ambiguous numeric date without configuration or weekday: dots separate day-first dates
    /// ("25.04.2020": Germany and most of Europe); else what the receipt says; else by currency.
    private func automaticDateOrder(_ u: String, separator: String, currency: String,
                                    receiptOrder: DateOrderEvidence?) -> (DateOrder, String) {
        if separator == "." { return (.dayFirst, "by preference (dotted date)") }
        if let receiptOrder { return (receiptOrder.order, "by the receipt (\(receiptOrder.why))") }
        return (["USD", "CAD"].contains(currency) ? .monthFirst : .dayFirst, "by preference (\(currency))")
    }

    /// OCR letters for digits inside a numeric date: `O6/03/2018`, `l2-01-18`, `12/O1/2O18` → digits.
    static func repairDateDigits(_ raw: String) -> String {
        let u = repairDateSlash(raw)
        let d = "[0-9OoIlDQ]"
        guard let regex = RegexCache.regex("(?<![A-Za-z0-9])\(d){1,4}\\s?[-/.]\\s?\(d){1,2}\\s?[-/.]\\s?\(d){2,4}(?![A-Za-z0-9])")
        else { return u }
        var out = u
        for m in regex.matches(in: u, range: NSRange(u.startIndex..., in: u)).reversed() {
            guard let r = Range(m.range, in: out) else { continue }
            let fixed = String(out[r].map { c -> Character in
                switch c {
                case "O", "o", "D", "Q": return "0"
                case "I", "l": return "1"
                default: return c
                }
            })
            // Only when at least most of it was digits already.
            if out[r].filter(\.isNumber).count * 2 > out[r].filter({ $0 != "/" && $0 != "-" && $0 != "." && $0 != " " }).count {
                out.replaceSubrange(r, with: fixed)
            }
        }
        return out
    }

    /// A slash of a numeric date read as a parenthesis, bracket or bar while its other slash was read:
    /// `3/7)2017`, `12|28/18` → `3/7/2017`, `12/28/18`.
    static func repairDateSlash(_ u: String) -> String {
        guard u.contains("/"), u.contains(where: { ")]|(".contains($0) }) else { return u }
        var out = u
        for pattern in [#"(?<![\d/])(\d{1,2})/(\d{1,2})[)\]|(](\d{2}|\d{4})(?![\d/])"#,
                        #"(?<![\d/])(\d{1,2})[)\]|(](\d{1,2})/(\d{2}|\d{4})(?![\d/])"#] {
            guard let regex = RegexCache.regex(pattern) else { continue }
            out = regex.stringByReplacingMatches(in: out, range: NSRange(out.startIndex..., in: out), withTemplate: "$1/$2/$3")
        }
        return out
    }

    /// `14:22`, `2:22 PM`, `10:43AM`, `00:06:00` → 24-hour `HH:mm`.
    public static func parseTime(_ u: String) -> String? {
        guard let regex = RegexCache.regex(#"(?<![\d:])(\d{1,2}):(\d{2})(?::\d{2})?\s*([AP])?\.?M?\.?(?![\d])"#),
              let m = regex.firstMatch(in: u, range: NSRange(u.startIndex..., in: u)),
              let hr = Range(m.range(at: 1), in: u), let mr = Range(m.range(at: 2), in: u),
              var hour = Int(u[hr]), let minute = Int(u[mr]), minute < 60 else { return nil }
        if let ar = Range(m.range(at: 3), in: u) {
            guard (1...12).contains(hour) else { return nil }
            let pm = u[ar] == "P"
            if pm && hour != 12 { hour += 12 }
            if !pm && hour == 12 { hour = 0 }
        }
        guard hour < 24 else { return nil }
        return String(format: "%02d:%02d", hour, minute)
    }
}

// MARK: - Line classes for OCR decisions

extension ReceiptParser {
    /// Whether an OCR line ends in a money amount (after the parser's OCR repairs).
    public static func endsWithAmount(_ line: String) -> Bool {
        trailingAmount(in: clean(line)) != nil
    }

    /// Whether an OCR line is a summary line (subtotal, tax, total, tender, change…), not an item.
    public static func isSummaryLine(_ line: String) -> Bool {
        summaryKind(clean(line).uppercased()) != nil
    }

    /// The money amount an OCR line ends in (its magnitude, after the parser's OCR repairs), nil without one.
    public static func amountAtEnd(_ line: String) -> Decimal? {
        trailingAmount(in: clean(line))?.value
    }

    /// Whether an OCR line is a total line with its amount.
    public static func isTotalLine(_ line: String) -> Bool {
        summaryKind(clean(line).uppercased()) == .total && endsWithAmount(line)
    }
}
