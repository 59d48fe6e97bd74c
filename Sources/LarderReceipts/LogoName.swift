import Foundation

/// The store's name from its logo band (issue 12): the rules the OCR engine's logo re-read
/// (`LarderOCR/LogoBand.swift`) asks before and after it reads the band above the address.
///
/// *Before*: a receipt's name is looked for in its logo band only while the parse has no confident name — none,
/// read with confidence under 60, only short fragments (``StoreEvidence/isDoubtful(_:confidence:)``), or a name
/// under lines read as junk (a logo above it that OCR lost) — and no other evidence names the business (a chain of
/// the gazetteer, a thank-you line, a web domain). *After*: a reading of the band is taken only when it looks like
/// a name: letters, few other characters, confidently read, and words tesseract's dictionary knows or a chain of
/// the gazetteer (``StoreChains``); under a confident name only a chain is taken.
public enum LogoName {
    /// Why the band is read: the parse's name is doubtful (any name-like reading may replace it) or it sits under
    /// junk (only a chain of the gazetteer may replace it).
    public enum Need: Sendable, Equatable {
        case doubtful
        case underJunk
    }

    /// A word of the band's reading: its text, tesseract's confidence (0–100) and whether tesseract's dictionary
    /// holds it.
    public struct Word: Sendable, Equatable {
        public var text: String
        public var confidence: Double
        public var inDictionary: Bool

        public init(text: String, confidence: Double, inDictionary: Bool) {
            self.text = text
            self.confidence = confidence
            self.inDictionary = inDictionary
        }
    }

    /// Lines looked at for the band's end: the header is at most this long.
    static let headerLines = 8

    /// The index of the first line among the first ones that is no logo: an address or contact line (a street with a
    /// number, a phone number, a ZIP code line), a date, a label with its value or a heading ("Bill", "Table 27").
    /// The logo band is what is printed above it. Nil when the header has none.
    public static func bandEnd(_ lines: [OCRLine]) -> Int? {
        lines.prefix(headerLines).indices.first { i in
            let text = lines[i].text, upper = text.uppercased()
            guard lines[i].confidence >= 40 else { return false }
            return ReceiptParser.isContactLine(upper)
                || (ReceiptParser.looksLikeAddress(upper) && upper.contains(where: \.isNumber)
                    && !StoreEvidence.isNameWithStoreNumber(upper))
                || text.range(of: #"\d{3}\D{0,2}\d{3}\D?\d{4}|\b\d{1,4}[/.\-]\d{1,2}[/.\-]\d{2,4}\b"#, options: .regularExpression) != nil
                || StoreEvidence.isLabelOrHeading(text)
        }
    }

    /// Whether the logo band is worth reading for `lines` (a reading of a receipt), and why; nil when the parse has a
    /// confident name or other evidence names the business. `parsed`: the parse of `lines` when the caller has it.
    public static func need(_ lines: [OCRLine], parsed: ParsedReceipt? = nil) -> Need? {
        let receipt = parsed ?? ReceiptParser().parse(lines: lines)
        let texts = lines.map(\.text)
        if let store = receipt.store, StoreChains.chain(in: store) != nil { return nil }
        if StoreEvidence.named(in: texts) != nil || StoreEvidence.domain(in: texts) != nil { return nil }
        guard let storeLine = receipt.lines.firstIndex(where: { $0.kind == .store }) else { return .doubtful }
        if StoreEvidence.isDoubtful(receipt.store, confidence: receipt.lines[storeLine].confidence) { return .doubtful }
        // A confident name with lines read as junk above it: a logo OCR did not read.
        let junkAbove = lines.prefix(storeLine).contains { $0.confidence < 50 || !ReceiptParser.looksLikeName($0.text) }
        return junkAbove ? .underJunk : nil
    }

    /// The name a line of the band's reading gives, when it looks like one; nil otherwise. `need` says how sure it
    /// must be.
    public static func accepted(_ words: [Word], need: Need) -> String? {
        // Marks without letters ("|", "—") are dropped; a number on the line makes it no name line.
        guard !words.contains(where: { $0.text.contains(where: \.isNumber) }) else { return nil }
        let kept = words.filter { $0.text.contains(where: \.isLetter) }
        guard !kept.isEmpty, kept.count <= 5 else { return nil }
        let text = kept.map(\.text).joined(separator: " ")
        let name = ReceiptParser.trimJunk(text)
        let letters = name.filter(\.isLetter).count
        // Letters and the marks of names (&'-.), little else.
        let other = name.filter { !$0.isLetter && !$0.isWhitespace && !"&'’-.".contains($0) }.count
        guard letters >= 4, other * 5 <= letters, ReceiptParser.looksLikeName(name) else { return nil }
        let upper = name.uppercased()
        guard !ReceiptParser.looksLikeAddress(upper), !ReceiptParser.isContactLine(upper),
              !StoreEvidence.isLabelOrHeading(name), !StoreEvidence.isSlogan(name), !StoreEvidence.isFunctionWord(name),
              StoreEvidence.namedInPhrase(name) == nil else { return nil }
        let confidence = kept.map(\.confidence).reduce(0, +) / Double(kept.count)
        if let chain = StoreChains.chain(in: name), confidence >= 50 { return chain.name }
        guard need == .doubtful, confidence >= 70 else { return nil }
        // Words of three letters or more that tesseract's dictionary holds, or read with high confidence.
        let long = kept.filter { $0.text.filter(\.isLetter).count >= 3 }
        guard !long.isEmpty, long.allSatisfy({ $0.inDictionary || $0.confidence >= 85 }),
              long.contains(where: { $0.text.filter(\.isLetter).count >= 4 }) else { return nil }
        return name
    }
}

extension LogoName {
    /// Letters and digits in lower case: how a band's line is compared with the lines the page reading read.
    public static func key(_ text: String) -> String { StoreEvidence.key(text) }
}
