import Foundation

/// Passes for German till receipts (EUR, decimal commas, `SUMME`/`zu zahlen`, `MwSt` blocks, `Pfand`/`Leergut`,
/// article-number layouts of DIY stores). They run only when ``isGermanReceipt(_:currency:)`` holds, from
/// ``ReceiptParser/parse(lines:)``: line repairs before parsing, ``readGermanLine(_:_:)`` before the generic item
/// passes, and ``applyGermanPasses(_:)`` after the last line (item lines whose price OCR lost, the date the
/// receipt prints most often).
extension ReceiptParser {
    /// Words German tills print; two of them on a EUR receipt make it German.
    static let germanReceiptWords = ["SUMME", "MWST", "ZU ZAHLEN", "GEGEBEN", "RÜCKGELD", "RUCKGELD", "BETRAG", "NETTO",
                                     "BRUTTO", "KASSENBON", "DATUM", "UHRZEIT", "BARGELD", "POSTEN", "ANZAHL ARTIKEL",
                                     "STEUERNUMMER", "UST-ID", "KUNDENBELEG", "EINKAUF"]

    /// Or three of them and `EUR` printed, or four, whatever stray mark (a `£` or `$` in a footer's noise) set the
    /// currency.
    static func isGermanReceipt(_ texts: [String], currency: String) -> Bool {
        let upper = texts.joined(separator: "\n").uppercased()
        let words = germanReceiptWords.filter { upper.contains($0) }.count
        if currency == "EUR" { return words >= 2 }
        return !wholeUnitCurrencies.contains(currency) && (words >= 3 && (hasWord(upper, "EUR") || hasWord(upper, "EURO")) || words >= 4)
    }

    /// OCR repairs of German receipt lines: a tax class glued to the price by a mark (`0,25«C`, `2,42xB`,
    /// `1,96*B` → `0,25 C`), a tax class printed as digits after the price (`7,95 0`, `20.99 19`: dropped), and
    /// on a `Datum` line a date whose dots were read as commas or spaced (`11,04,20`, `04, 04. 2020`).
    static func germanLineRepairs(_ text: String) -> String {
        var s = text
        s = s.replacingMatches(of: #"(\d[.,]\d\d)[«%xX×*"](?=[A-Z]$)"#, with: "$1 ")
        s = s.replacingMatches(of: #"(\d[.,]\d\d) (?:0|1|2|7|19)$"#, with: "$1")
        s = s.replacingMatches(of: #"(^|\s)~(\d{1,4},\d\d)(?=\s|$)"#, with: "$1-$2")  // "~4,00": a minus read as a tilde
        if s.uppercased().contains("DATUM") {
            s = s.replacingMatches(of: #"(?<![\d.,])(\d{1,2}) ?[.,] ?(\d{1,2}) ?[.,] ?(\d{4}|\d{2})(?!\d)"#, with: "$1.$2.$3")
        }
        return s
    }

    // MARK: - Lines

    /// German line forms the generic passes misread. Returns whether the line was consumed.
    func readGermanLine(_ line: ParseLine, _ s: inout ParseState) -> Bool {
        let upper = line.upper
        if s.kinds[line.i] != .ignored { return true }  // the name line of an item read with the line above
        // "Pos Artikel-Nr. Menge €/Stk €/Ges": the columns' headings, no item name.
        if Self.isColumnHeading(upper) {
            s.pendingName = nil
            return true
        }
        if readPriceAboveName(line, &s) { return true }
        // "1,000 Stk." alone, its price on the next line: the item's name stays pending.
        if line.amount == nil, let pending = s.pendingName, upper.range(of: Self.countUnit + "$", options: .regularExpression) != nil {
            s.kinds[line.i] = .itemDetail
            s.firstBodyLine = s.firstBodyLine ?? pending.index
            return true
        }
        // "kg EURO/kg EURO": the column heading of a weighed item; the item's name stays pending.
        if line.amount == nil, upper.contains("/KG") || upper.contains("/ KG"), !upper.contains(where: \.isNumber) { return true }
        guard let amount = line.amount else { return false }
        if readBottleReturn(line, amount, &s) { return true }
        if readQuantityAbove(line, amount, &s) { return true }
        return readGermanDetail(line, amount, &s)
    }

    /// "LEERGUT MINUS 0,80", "Pfandrückgabe -0,25": bottles returned, a line of its own with a negative total
    /// (not a discount on the item printed before it).
    private func readBottleReturn(_ line: ParseLine, _ amount: Amount, _ s: inout ParseState) -> Bool {
        let compact = line.upper.replacingOccurrences(of: " ", with: "")
        let isReturn = compact.contains("LEERGUT") || compact.contains("PFANDRÜCK") || compact.contains("PFANDRUCK")
            || compact.contains("PFANDRUECK") || (compact.contains("PFAND") && amount.negative)
        guard isReturn, amount.value != 0 else { return false }
        var item = itemLine(amount, lineIndex: line.i, confidence: s.input[line.i].confidence, wholeUnits: false)
        item.description = Self.repairDescription(item.description.replacingMatches(of: #"(?i)\s*\bminus\b"#, with: ""))
        if item.description.isEmpty { item.description = "Leergut" }
        item.total = -amount.value
        s.firstBodyLine = s.firstBodyLine ?? line.i
        s.pendingName = nil
        s.receipt.items.append(item)
        s.kinds[line.i] = .item
        return true
    }

    /// A quantity printed above its item whose "x" or count OCR garbled ("ZX 1,15", "2 x j 0,39"), or, in the
    /// article-number layout, a unit line ("ART/EAN 4002245706880", "5 m² x 18,50", "Bodenunterlage 92,50"):
    /// the next line's price is a whole multiple of this one.
    private func readQuantityAbove(_ line: ParseLine, _ amount: Amount, _ s: inout ParseState) -> Bool {
        let i = line.i
        guard i + 1 < s.texts.count, !amount.negative,
              let next = Self.trailingAmount(in: s.texts[i + 1])?.value, next > amount.value, amount.value > 0 else { return false }
        var ratio = next / amount.value
        var n = Decimal()
        NSDecimalRound(&n, &ratio, 0, .plain)
        guard n >= 2, n <= 99, Self.amountsAgree(n * amount.value, next) else { return false }
        let rest = amount.rest.trimmingCharacters(in: .whitespaces)
        let garbledCount = rest.range(of: #"^[\dZz]{1,2}\s*[xX×*]?\s*\S?$"#, options: .regularExpression) != nil
        let afterArticle = i > 0 && Self.isArticleNumberLine(s.texts[i - 1]) && Self.letterCount(rest) <= 8
            && !rest.contains(" ")
        guard garbledCount || afterArticle else { return false }
        s.pendingDetail = (i, Detail(descriptionPrefix: "", quantity: n, unit: "each", unitPrice: amount.value))
        s.kinds[i] = .itemDetail
        s.firstBodyLine = s.firstBodyLine ?? i
        return true
    }

    /// Detail lines under a pending name: "4,000 STK 20,99" (count, line total), "2,000 * 3,99 7,98" (count,
    /// unit price, total), "0,158 1,19 0,19" (kg, price per kg, total, under a "kg EURO/kg" heading).
    private func readGermanDetail(_ line: ParseLine, _ amount: Amount, _ s: inout ParseState) -> Bool {
        guard let pending = s.pendingName else { return false }
        let rest = amount.rest.uppercased().trimmingCharacters(in: CharacterSet(charactersIn: " |_"))
        let name = Self.withoutArticleNumber(pending.text)
        let named = (index: pending.index, text: Self.letterCount(name) >= 3 ? Self.repairDescription(name) : pending.text)
        if let m = rest.firstMatch(of: Self.countUnit + "?\\s*\\|?$"), let n = Decimal(string: m[1]), n > 0 {
            appendTwoLineItem(named, line.i, &s, quantity: n, unit: "each", unitPrice: amount.value / n, total: amount.value)
            return true
        }
        if let m = rest.firstMatch(of: #"^(\d{1,3})[.,]000\s*[*xX×]\s*(\d+,\d\d)$"#), let n = Decimal(string: m[1]),
           let each = Self.parseAmountToken(m[2])?.value, Self.amountsAgree(n * each, amount.value) {
            appendTwoLineItem(named, line.i, &s, quantity: n, unit: "each", unitPrice: each, total: amount.value)
            return true
        }
        if let m = rest.firstMatch(of: #"^(\d{1,3},\d{3})\s*(?:KG)?\s+(\d+,\d\d)$"#),
           let kg = Decimal(string: m[1].replacingOccurrences(of: ",", with: ".")), let perKg = Self.parseAmountToken(m[2])?.value,
           abs(kg * perKg - amount.value) <= Decimal(1) / 100 {
            appendTwoLineItem(named, line.i, &s, quantity: kg, unit: "kg", unitPrice: perKg, total: amount.value)
            return true
        }
        return false
    }

    /// Column headings of the item block: two or more of these words.
    static func isColumnHeading(_ upper: String) -> Bool {
        let headings: Set<String> = ["POS", "POS.", "ARTIKEL", "ARTIKEL-NR.", "ARTIKEL-NR", "ART.-NR.", "MENGE", "PREIS", "EINZELPREIS",
                                     "BEZEICHNUNG", "ANZ", "ANZ.", "€/STK", "¢/STK", "EUR/STK", "€/GES", "¢/GES", "GESAMT"]
        return upper.split(separator: " ").filter { headings.contains(String($0)) }.count >= 2
    }

    /// A position and article number line with the price, the name on the line below ("1 23530028 03 2,00 14,99
    /// 29,98" / "Duschvorhang"), as some furniture-store tills print them.
    private func readPriceAboveName(_ line: ParseLine, _ s: inout ParseState) -> Bool {
        let i = line.i
        guard let amount = line.amount, !amount.negative, Self.letterCount(amount.rest) < 3,
              amount.rest.range(of: #"^\d{1,3}\s+\d{6,}\s"#, options: .regularExpression) != nil, i + 1 < s.texts.count,
              Self.trailingAmount(in: s.texts[i + 1]) == nil, Self.letterCount(s.texts[i + 1]) >= 3,
              Self.summaryKind(s.texts[i + 1].uppercased()) == nil else { return false }
        s.receipt.items.append(ReceiptItem(
            lineNumbers: [i + 2, i + 1], description: Self.repairDescription(s.texts[i + 1]), total: amount.value,
            confidence: min(s.input[i].confidence, s.input[i + 1].confidence) / 100))
        s.kinds[i] = .itemDetail
        s.kinds[i + 1] = .item
        s.firstBodyLine = s.firstBodyLine ?? i
        s.pendingName = nil
        return true
    }

    /// A count as DIY tills print it, with its unit: "4,000 STK", "1.000 Stk." (OCR: "Sik."), "2,000 Stück".
    static let countUnit = #"^(\d{1,3})[.,]000\s*(?:[S5][TI1][KC]?\.?|ST(?:Ü|UE?)CK)"#

    /// An article-number line: "ART/EAN 4002245701618", "Artikel 50319963 22621", "4078500017343" alone.
    static func isArticleNumberLine(_ text: String) -> Bool {
        text.range(of: #"\d{6,}"#, options: .regularExpression) != nil && letterCount(withoutArticleNumber(text)) < 3
    }

    // MARK: - After the last line

    func applyGermanPasses(_ s: inout ParseState) {
        recoverUnpricedItems(&s)
        voteForDate(&s)
    }
}

/// Item lines whose price OCR lost, and the date most of the receipt's date lines agree on.
extension ReceiptParser {
    /// Where the items are printed, from the lines the parser priced: the names' left edge, the price column's
    /// left edge and the line height (nil without word boxes, for plain text).
    private struct ItemLayout {
        var left: Int?
        var priceLeft: Int?
        var height: Int
    }

    private func itemLayout(_ s: ParseState, itemLines: [Int], totalLine: Int) -> ItemLayout {
        func median(_ xs: [Int]) -> Int? { xs.isEmpty ? nil : xs.sorted()[xs.count / 2] }
        let boxed = (itemLines + [totalLine]).filter { s.input[$0].box.width > 0 }
        var priceLefts: [Int] = []
        for i in itemLines {
            guard let words = s.input[i].words, words.count >= 2,
                  let price = words.dropFirst().last(where: { Self.parseAmountToken($0.text) != nil }) else { continue }
            priceLefts.append(price.box.x)
        }
        return ItemLayout(left: median(boxed.map { s.input[$0].box.x }), priceLeft: median(priceLefts),
                          height: median(boxed.map { s.input[$0].box.height }) ?? 0)
    }

    /// The name on a line without a readable price, and whether something was printed where the price goes:
    /// words in the price column (with word boxes), else trailing tokens with digits or marks ("Os 80ne&").
    private func unpricedName(_ i: Int, _ s: ParseState, _ layout: ItemLayout) -> (name: String, priceMark: Bool) {
        if let words = s.input[i].words, !words.isEmpty, let priceLeft = layout.priceLeft {
            let name = [words[0]] + words.dropFirst().filter { $0.box.x < priceLeft - layout.height }
            return (Self.repairDescription(name.map(\.text).joined(separator: " ")), name.count < words.count)
        }
        var tokens = s.texts[i].split(separator: " ").map(String.init)
        var mark = false
        while tokens.count > 1, let last = tokens.last,
              last.contains(where: { $0.isNumber }) || last.count <= 2 || last.contains(where: { "&$§%|}{]\\[".contains($0) }) {
            tokens.removeLast()
            mark = true
        }
        return (Self.repairDescription(tokens.joined(separator: " ")), mark)
    }

    /// Whether line `i`, which has no price, is printed like an item: aligned with the item names, a product
    /// name (not a summary, contact, address, date, article-number, quantity or count line).
    private func isUnpricedItemLine(_ i: Int, _ s: ParseState, _ layout: ItemLayout, beforeItems: Bool) -> (name: String, priceMark: Bool)? {
        let text = s.texts[i]
        let upper = text.uppercased()
        guard Self.trailingAmount(in: text) == nil, Self.summaryKind(upper) == nil, !Self.isIgnorable(upper),
              !Self.isContactLine(upper), !Self.isArticleNumberLine(text),
              Self.parseDetail(text) == nil, !upper.contains("/KG"), !Self.isColumnHeading(upper), !upper.contains("POSTEN"), !upper.contains("ANZAHL"),
              parseDate(upper, currency: s.currency) == nil, Self.parseTime(upper) == nil else { return nil }
        let box = s.input[i].box
        if box.width > 0, let left = layout.left {
            guard abs(box.x - left) <= max(8, layout.height * 3 / 2) else { return nil }
            // The same printed row read twice (a priced reading of it is on another line): not a second item.
            let twice = s.input.indices.contains { k in
                let other = s.input[k].box
                let overlap = min(box.y + box.height, other.y + other.height) - max(box.y, other.y)
                return k != i && other.width > 0 && overlap * 2 > min(box.height, other.height)
                    && Self.trailingAmount(in: s.texts[k]) != nil
            }
            if twice { return nil }
        }
        let (name, mark) = unpricedName(i, s, layout)
        // The address test on the name alone: a garbled price ("i, 29.E") has the digits and comma of an address.
        guard Self.letterCount(name) >= 3, Self.looksLikeName(name), !Self.looksLikeAddress(name.uppercased()) else { return nil }
        // Before the first priced item only layout (or, in plain text, a garbled price) tells items from header.
        if beforeItems, box.width == 0 || layout.left == nil, !mark { return nil }
        return (name, mark)
    }

    /// Item lines whose price OCR lost ("HARIBO GOLDBAREN Tala", "GUT BIO JOGHURT PUR"), between the header and
    /// the total, become items: priced like the same product elsewhere on the receipt, or by the total when only
    /// one price is missing; else 0 with a review reason naming the line.
    fileprivate func recoverUnpricedItems(_ s: inout ParseState) {
        guard let end = s.kinds.firstIndex(where: { [.total, .subtotal, .tender].contains($0) }) else { return }
        let itemLines = s.receipt.items.compactMap { $0.lineNumbers.first.map { $0 - 1 } }.filter { $0 < end }
        let layout = itemLayout(s, itemLines: itemLines, totalLine: end)
        let first = itemLines.min() ?? end
        var found: [(index: Int, name: String)] = []
        for j in first..<end where s.kinds[j] == .ignored {
            if let hit = isUnpricedItemLine(j, s, layout, beforeItems: false) { found.append((j, hit.name)) }
        }
        var j = first - 1
        while j >= 0, s.kinds[j] == .ignored, let hit = isUnpricedItemLine(j, s, layout, beforeItems: true) {
            found.append((j, hit.name))
            j -= 1
        }
        guard !found.isEmpty else { return }
        var prices: [Int: Decimal] = [:]
        var how: [Int: String] = [:]
        for f in found {
            prices[f.index] = samePrice(f.name, s.receipt.items)
            if prices[f.index] != nil { how[f.index] = "priced like the same product on the receipt" }
        }
        let missing = found.filter { prices[$0.index] == nil }
        if missing.count == 1, let total = s.receipt.total {
            let known = s.receipt.items.reduce(Decimal(0)) { $0 + $1.total } + prices.values.reduce(0, +)
                - s.receipt.discounts.reduce(Decimal(0)) { $0 + $1.amount }
            if total - known > 0 {
                prices[missing[0].index] = total - known
                how[missing[0].index] = "priced as the total less the other items"
            }
        }
        for f in found {
            s.receipt.items.append(ReceiptItem(lineNumbers: [f.index + 1], description: f.name, total: prices[f.index] ?? 0,
                                               confidence: s.input[f.index].confidence / 100))
            s.kinds[f.index] = .item
            s.firstBodyLine = min(s.firstBodyLine ?? f.index, f.index)
            // Every price not read from its own line is named for review (and keeps the OCR's price re-reads on:
            // an amount the parser supplied agrees with the total by construction).
            s.notes.append("\(ParsedReceipt.unreadPriceReason) on line \(f.index + 1) (\(f.name)): \(how[f.index] ?? "counted with 0")")
        }
        sortItemsByLine(&s)
    }

    /// The most common price of the items named like `name` (letters and digits, at most one edit in eight).
    private func samePrice(_ name: String, _ items: [ReceiptItem]) -> Decimal? {
        func key(_ t: String) -> [Character] { Array(t.uppercased().filter { $0.isLetter || $0.isNumber }) }
        let k = key(name)
        let same = items.filter { $0.total > 0 && EditDistance.levenshtein(key($0.description), k) <= max(1, k.count / 8) }
        let counts = Dictionary(grouping: same.map(\.total), by: { $0 }).mapValues(\.count)
        return counts.max { $0.value < $1.value || $0.value == $1.value && $0.key > $1.key }?.key
    }

    /// Items in printed order; discounts keep pointing at their item.
    private func sortItemsByLine(_ s: inout ParseState) {
        let order = s.receipt.items.indices.sorted { (s.receipt.items[$0].lineNumbers.first ?? 0) < (s.receipt.items[$1].lineNumbers.first ?? 0) }
        var newIndex = [Int](repeating: 0, count: order.count)
        for (new, old) in order.enumerated() { newIndex[old] = new }
        s.receipt.items = order.map { s.receipt.items[$0] }
        for k in s.receipt.discounts.indices {
            if let old = s.receipt.discounts[k].itemIndex { s.receipt.discounts[k].itemIndex = newIndex[old] }
        }
    }

    /// The till line, the card slip's `Datum:` and its `AS-Zeit` line print the same day; when OCR misread one
    /// of them, the day most lines agree on wins. A line counts 1, +1 with a time, +1 labelled `Datum`; a
    /// labelled or timed day and month without the year (`AS-Zeit 15.04. 16:14`, OCR: `15.04,16:14`) count for that
    /// day.
    fileprivate func voteForDate(_ s: inout ParseState) {
        guard let current = s.receipt.date else { return }
        var full: [(date: ReceiptDate, weight: Int)] = []
        var partial: [(month: Int, day: Int, weight: Int)] = []
        for (i, text) in s.texts.enumerated() where s.kinds[i] != .item {
            let upper = text.uppercased()
            let labelled = upper.contains("DATUM") || upper.contains("ZEIT")
            let weight = 1 + (Self.parseTime(upper) != nil ? 1 : 0) + (upper.contains("DATUM") ? 1 : 0)
            if let date = parseDate(upper, currency: s.currency) {
                full.append((date, weight))
            } else if labelled || Self.parseTime(upper) != nil,
                      let m = upper.firstMatch(of: #"(?<![\d.,])(\d{1,2})\. ?(\d{1,2})[.,](?:(?!\d)|(?=\d{1,2}:\d\d))"#),
                      let d = Int(m[1]), let mo = Int(m[2]), (1...31).contains(d), (1...12).contains(mo) {
                partial.append((mo, d, weight))
            }
        }
        guard full.count + partial.count >= 2 else { return }
        var best = (date: current, score: 0)
        var currentScore = 0
        for candidate in full {
            let score = full.filter { $0.date.iso == candidate.date.iso }.reduce(0) { $0 + $1.weight }
                + partial.filter { $0.month == candidate.date.month && $0.day == candidate.date.day }.reduce(0) { $0 + $1.weight }
            if candidate.date.iso == current.iso { currentScore = score }
            if score > best.score { best = (candidate.date, score) }
        }
        // A day only the year-less lines print, with the year of the receipt's date.
        for p in partial where !full.contains(where: { $0.date.month == p.month && $0.date.day == p.day }) {
            let score = partial.filter { $0.month == p.month && $0.day == p.day }.reduce(0) { $0 + $1.weight }
            if score > best.score {
                best = (ReceiptDate(year: current.year, month: p.month, day: p.day, printed: "\(p.day).\(p.month).",
                                    resolution: "day-first, year of the receipt's other date"), score)
            }
        }
        if best.date.iso != current.iso, best.score > currentScore {
            s.receipt.date = best.date
        }
    }
}

/// The store on German headers.
extension ReceiptParser {
    /// Shop types printed on a line of their own under the shop's name ("DELPHIN" / "APOTHEKE").
    static let germanShopTypes: Set<String> = ["APOTHEKE", "DROGERIE", "DROGERIEMARKT", "BAUMARKT", "SUPERMARKT", "MARKT",
                                               "BÄCKEREI", "BAECKEREI", "METZGEREI", "GETRÄNKEMARKT", "REFORMHAUS", "KIOSK"]

    /// German headers print the shop's name over its street and postcode ("Marktkauf Lehr" / "Detmolder Str. 4" /
    /// "33102 Paderborn"), sometimes a shop type under the name ("DELPHIN" / "APOTHEKE"); the street line is never
    /// the store (then the company line at the foot names it, if there is one). A store line with a legal form
    /// or a store word stays.
    func refineGermanStore(_ s: inout ParseState) {
        let headerEnd = s.firstBodyLine ?? min(s.texts.count, 12)
        guard let current = s.kinds.firstIndex(of: .store) else { return }
        let upper = s.texts[current].uppercased()
        // The shop type was taken for the name: the name is the line above it ("DELPHIN" / "APOTHEKE").
        if current > 0, Self.germanShopTypes.contains(Self.trimJunk(upper)), s.input[current - 1].confidence >= 60,
           Self.looksLikeName(s.texts[current - 1]), !Self.looksLikeAddress(s.texts[current - 1].uppercased()) {
            s.receipt.store = Self.storeName(s.texts[current - 1]) + " " + Self.trimJunk(s.texts[current])
            s.kinds[current - 1] = .store
            return
        }
        if current + 1 < s.texts.count, Self.germanShopTypes.contains(Self.trimJunk(s.texts[current + 1]).uppercased()) {
            s.receipt.store = Self.storeName(s.texts[current]) + " " + Self.trimJunk(s.texts[current + 1])
            s.kinds[current + 1] = .store
            return
        }
        guard current < headerEnd, !Self.hasLegalForm(upper), !Self.hasStoreWord(upper) else { return }
        let postcode = (0..<headerEnd).first { s.texts[$0].range(of: #"^\W*\d{5}\s+\p{L}"#, options: .regularExpression) != nil }
        guard let p = postcode, p >= 1,
              s.texts[p - 1].range(of: #"\p{L}{3}.*\s\d{1,3}\s?[a-zA-Z]?$"#, options: .regularExpression) != nil else { return }
        var choice: Int?
        if current == p - 1 {
            // The street was taken for the name: the company line at the foot, else nothing.
            choice = s.texts.indices.first { i in
                i >= headerEnd && s.input[i].confidence >= 40 && StoreEvidence.hasCompanyForm(s.texts[i]) && Self.looksLikeName(s.texts[i])
            }
            s.kinds[current] = .address
            s.receipt.store = nil
        } else if p >= 2, current < p - 2, s.input[p - 2].confidence >= 30, Self.looksLikeName(s.texts[p - 2]),
                  !Self.isContactLine(s.texts[p - 2].uppercased()) {
            choice = p - 2  // a slogan or logo above the name was taken for it
            s.kinds[current] = .header
        }
        if let choice {
            s.receipt.store = Self.storeName(s.texts[choice])
            s.kinds[choice] = .store
        }
    }
}

extension String {
    /// The capture groups of the first match of `pattern` (group 0 is the whole match).
    fileprivate func firstMatch(of pattern: String) -> [String]? {
        guard let regex = RegexCache.regex(pattern),
              let m = regex.firstMatch(in: self, range: NSRange(startIndex..., in: self)) else { return nil }
        return (0..<m.numberOfRanges).map { n in Range(m.range(at: n), in: self).map { String(self[$0]) } ?? "" }
    }
}
