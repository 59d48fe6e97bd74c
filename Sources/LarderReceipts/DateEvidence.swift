import Foundation

/// What a receipt itself says about the order of day and month in its all-numeric dates (`07/06/15`): the
/// printer's own convention (another date on the paper whose day is over 12), the country the paper comes from
/// (a non-dollar currency, a US or Canadian address, the language of its till words, decimal commas, a North
/// American phone number). Read once per receipt; ``ReceiptParser/parseDate(_:currency:receiptOrder:)`` uses it
/// for dates both of whose readings are valid, after a weekday printed beside the date and a dotted date.
public struct DateOrderEvidence: Sendable, Equatable {
    /// `.monthFirst` or `.dayFirst`.
    public var order: DateOrder
    /// Why, for the date's ``ReceiptDate/resolution`` ("another date 23/04/2017", "US address CA 94901").
    public var why: String

    /// Creates evidence.
    public init(order: DateOrder, why: String) {
        self.order = order
        self.why = why
    }
}

extension ReceiptParser {
    /// The numeric date shape of ``parseDate(_:currency:receiptOrder:)``: day or month, the same separator twice,
    /// a year of two or four digits. Not a two-digit year followed by a mark and a digit ("06/07/20%6"): that is a
    /// four-digit year with a digit OCR could not read, not 2020 (the line is read again, ``OCREngine/hasMisreadDate(_:)``).
    static let numericDatePattern = #"(?<![\d.,])(\d{1,2})\s?([-/.])\s?(\d{1,2})\s?\2\s?(\d{4}|\d{2})(?![\d:]|[%?#*~°]\d)"#

    /// The day/month order the receipt's lines speak for, strongest evidence first; nil when they say nothing
    /// (then the currency decides: month-first for dollars, day-first otherwise). `currencyEvidence` is
    /// ``ParsedReceipt/currencyEvidence`` (`"default"` when nothing on the paper named a currency).
    static func dateOrderEvidence(_ texts: [String], currency: String, currencyEvidence: String) -> DateOrderEvidence? {
        let upper = texts.map { $0.uppercased() }
        if let printer = printerDateOrder(upper) { return printer }
        // A currency printed on the paper other than the dollar: the rest of the world writes the day first.
        if currencyEvidence != "default", !["USD", "CAD"].contains(currency) {
            return DateOrderEvidence(order: .dayFirst, why: "currency \(currency)")
        }
        let text = upper.joined(separator: "\n")
        if let address = firstMatch(text, Self.northAmericanAddressPattern) {
            return DateOrderEvidence(order: .monthFirst, why: "North American address \(address)")
        }
        if let word = upper.lazy.compactMap(localeWord).first {
            return DateOrderEvidence(order: .dayFirst, why: word)
        }
        if let commas = decimalCommaEvidence(texts) {
            return DateOrderEvidence(order: .dayFirst, why: commas)
        }
        if let phone = firstMatch(text, #"\(\d{3}\)\s?\d{3}[-. ]\d{4}(?!\d)|(?<![\d+])\d{3}[-.]\d{3}[-.]\d{4}(?!\d)"#) {
            return DateOrderEvidence(order: .monthFirst, why: "North American phone \(phone)")
        }
        return nil
    }

    /// Another numeric date on the same paper whose order is plain (a field over 12): the till prints all its
    /// dates one way. Nil when there is none, or when the plain dates disagree (a misread digit).
    static func printerDateOrder(_ upper: [String]) -> DateOrderEvidence? {
        guard let regex = RegexCache.regex(numericDatePattern) else { return nil }
        var dayFirst: String?, monthFirst: String?
        for line in upper {
            for m in regex.matches(in: line, range: NSRange(line.startIndex..., in: line)) {
                guard let all = Range(m.range, in: line), let ra = Range(m.range(at: 1), in: line),
                      let rb = Range(m.range(at: 3), in: line), let a = Int(line[ra]), let b = Int(line[rb]),
                      (1...31).contains(a), (1...31).contains(b) else { continue }
                if a > 12, b <= 12 { dayFirst = dayFirst ?? String(line[all]) }
                if b > 12, a <= 12 { monthFirst = monthFirst ?? String(line[all]) }
            }
        }
        switch (dayFirst, monthFirst) {
        case let (day?, nil): return DateOrderEvidence(order: .dayFirst, why: "another date \(day)")
        case let (nil, month?): return DateOrderEvidence(order: .monthFirst, why: "another date \(month)")
        default: return nil
        }
    }

    /// A US state or Canadian province before its ZIP or postal code ("San Rafael ca 94901", "BC V6H1L1").
    static let northAmericanAddressPattern = #"\b(?:AL|AK|AZ|AR|CA|CO|CT|DC|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY)\.?,?\s\d{5}(?:-\d{4})?(?!\d)|\b(?:BC|AB|SK|MB|ON|QC|NS|NB|NL|PE)\.?,?\s[A-Z]\d[A-Z]\s?\d[A-Z]\d\b"#

    /// Till words of countries that write the day first (Dutch, German, Spanish, Italian, French, Portuguese,
    /// Malay and Indonesian receipt words; BHD, Berhad, of a Malaysian company's name; tax registration numbers of
    /// the Gulf, India and Australia), and VAT or GST with a rate or an amount (US tills print neither; "GST: 1"
    /// there counts guests).
    static let dayFirstLocaleWords = [
        "DATUM", "TOTAAL", "TAFEL", "KASSA", "BTW", "CONTANT", "BEDANKT", "MWST", "SUMME", "RECHNUNG", "GESAMT",
        "FECHA", "FACTURA", "MESA", "CAMARERO", "EFECTIVO", "IMPORTE", "IVA", "TOTALE", "SCONTRINO", "CONTANTE",
        "GRAZIE", "TVA", "MERCI", "ESPECES", "TROCO", "OBRIGADO", "TANGGAL", "JUMLAH", "TUNAI", "BHD", "GSTIN", "TRN", "ABN",
    ]

    /// The first day-first locale word on a line (upper case), as evidence text.
    static func localeWord(_ u: String) -> String? {
        if let word = dayFirstLocaleWords.first(where: { hasWord(u, $0) }) { return "till word \(word)" }
        if let tax = firstMatch(u, #"\b(?:VAT|GST)\b[^A-Z0-9%]{0,3}(?:\d{1,2}(?:[.,]\d+)?\s?%|[A-Z ]{0,12}\d+[.,]\d{2}(?!\d)|REG|NO\b|INCL)"#) {
            return "tax \(tax)"
        }
        return nil
    }

    /// Amounts written with decimal commas ("4,50", "115,00") in the majority, three or more of them.
    static func decimalCommaEvidence(_ texts: [String]) -> String? {
        let text = texts.joined(separator: "\n")
        let range = NSRange(text.startIndex..., in: text)
        let commas = RegexCache.regex(#"(?<![\d.,])\d{1,4},\d{2}(?![\d.,])"#)?.numberOfMatches(in: text, range: range) ?? 0
        let dots = RegexCache.regex(#"(?<![\d.,])\d{1,4}\.\d{2}(?![\d.,])"#)?.numberOfMatches(in: text, range: range) ?? 0
        return commas >= 3 && commas > dots ? "decimal commas (\(commas) vs \(dots))" : nil
    }

    static func firstMatch(_ text: String, _ pattern: String) -> String? {
        guard let regex = RegexCache.regex(pattern),
              let m = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let r = Range(m.range, in: text) else { return nil }
        return String(text[r])
    }

    // MARK: - Weekdays

    /// Weekday names (English, German, Dutch, French, Spanish) by ISO weekday (1 Monday … 7 Sunday).
    static let weekdayNames: [Int: [String]] = [
        1: ["MON", "MONDAY", "MONTAG", "MAANDAG", "LUNDI", "LUNES"],
        2: ["TUE", "TUES", "TUESDAY", "DIENSTAG", "DINSDAG", "MARDI", "MARTES"],
        3: ["WED", "WEDNESDAY", "MITTWOCH", "WOENSDAG", "MERCREDI", "MIERCOLES"],
        4: ["THU", "THUR", "THURS", "THURSDAY", "DONNERSTAG", "DONDERDAG", "JEUDI", "JUEVES"],
        5: ["FRI", "FRIDAY", "FREITAG", "VRIJDAG", "VENDREDI", "VIERNES"],
        6: ["SAT", "SATURDAY", "SAMSTAG", "ZATERDAG", "SAMEDI", "SABADO"],
        7: ["SUN", "SUNDAY", "SONNTAG", "ZONDAG", "DIMANCHE", "DOMINGO"],
    ]

    /// The ISO weekday named on a line (upper case), when exactly one is.
    static func printedWeekday(_ u: String) -> Int? {
        let named = weekdayNames.filter { $0.value.contains { hasWord(u, $0) } }.map(\.key)
        return named.count == 1 ? named[0] : nil
    }

    /// ISO weekday (1 Monday … 7 Sunday) of a Gregorian date (Sakamoto's method).
    static func weekday(year: Int, month: Int, day: Int) -> Int {
        let t = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4]
        let y = month < 3 ? year - 1 : year
        let sunday0 = (y + y / 4 - y / 100 + y / 400 + t[month - 1] + day) % 7
        return sunday0 == 0 ? 7 : sunday0
    }
}
