import Foundation

/// Evidence for the store's name beyond the header's first confident line: a receipt names its business again
/// in the footer ("Thank you for visiting PYT", "Thanks for shopping at Caltex", "www.itsugar.com"), in a
/// second header line, or on an item ("BOLSA CARREFOUR"). A logo read as junk or a tagline printed under it
/// ("DRESS FOR LESS", "Americas Craaaziest Burgers!") is then not taken for the name.
enum StoreEvidence {
    /// The name a line gives the business in a thank-you or welcome phrase, if any: "Thank You for Visiting,
    /// PYT" → "PYT", "Thanks for visiting Subway. Please let" → "Subway", "Thank you for shopping at Caltex".
    static func namedInPhrase(_ text: String) -> String? {
        guard let g = text.firstMatch(ofPattern: namingPhrase + #"[\s,:]+(.+)$"#), g.count > 1 else { return nil }
        // The name runs to the end of the sentence.
        var name = g[1]
        if let end = name.firstIndex(where: { ".!?;|".contains($0) }) { name = String(name[..<end]) }
        name = ReceiptParser.trimJunk(name)
        let words = name.split(separator: " ")
        // "Welcome to the Family": the article is not part of the name (the store here is FamilyMart).
        if name.uppercased().hasPrefix("THE ") && words.count > 1 { name = String(name.dropFirst(4)) }
        guard (1...4).contains(words.count), ReceiptParser.letterCount(name) >= 2,
              !["US", "OUR", "THE", "OUR STORE", "US AGAIN"].contains(name.uppercased()) else { return nil }
        return name
    }

    /// The phrases that name the business after them: thanks for a visit, a welcome, a gift card ("Give the gift
    /// of Lure Fish House!").
    static let namingPhrase = #"(?i)\b(?:for\s+visiting|for\s+shopping\s+(?:at|with)|for\s+dining\s+(?:at|with)|for\s+choosing|welcome\s+to|the\s+gift\s+of)"#

    /// The first business a line names in a phrase (``namedInPhrase(_:)``), and that line; a phrase that ends its
    /// line names the business on the next one ("Give the gift of" / "Lure Fish House!"), as narrow papers wrap.
    static func named(in texts: [String]) -> (line: Int, name: String)? {
        for i in texts.indices {
            if let name = namedInPhrase(texts[i]) { return (i, name) }
            if i + 1 < texts.count, texts[i].firstMatch(ofPattern: namingPhrase + #"[\s,:]*[^\p{L}\d]{0,3}$"#) != nil,
               let name = namedInPhrase(texts[i] + " " + texts[i + 1]) {
                return (i + 1, name)
            }
        }
        return nil
    }

    /// The domain a line prints ("www.itsugar.com", "GavindeGraw.cam", "chipotle .com", "rossmann.de"; OCR's comma
    /// for the dot only glued to a generic domain: "cottoron,con", never "DENVER, CO"), as letters
    /// in lower case. Not a social network, mail or review site, payment scheme or terminal maker, nor a survey or
    /// rewards site ("smashburgersurvey.com"): those name someone else.
    static func domainName(_ text: String) -> String? {
        // A country domain only glued to its dot ("roller.de", OCR "rossmann.do"): "UST-ID-NR. DE 1249…" is no domain.
        let pattern = #"(?i)(?:www\s*[.,]\s*)?(?:([a-z][a-z0-9\-]{2,30})(?:\s?\.\s?(?:com|co|net|org|cam|corn|con)|,(?:com|con|net|org))|([a-z][a-z0-9\-]{2,30})\.(?:de|do|at|ch|uk|eu|fr|it|es|nl|ie|au))\b"#
        guard let g = text.firstMatch(ofPattern: pattern), g.count > 2 else { return nil }
        let name = (g[1].isEmpty ? g[2] : g[1]).lowercased().filter { $0.isLetter || $0.isNumber }
        let generic: Set<String> = ["www", "facebook", "twitter", "instagram", "google", "yelp", "tripadvisor", "survey",
                                    "feedback", "gmail", "hotmail", "yahoo", "paypal", "visa", "mastercard", "ingenico",
                                    "verifone", "com"]
        let elsewhere = ["survey", "reward", "feedback", "voice", "listens"]
        guard name.count >= 4, !generic.contains(name), !elsewhere.contains(where: name.contains) else { return nil }
        return name
    }

    /// The first web domain the receipt prints (``domainName(_:)``).
    static func domain(in texts: [String]) -> String? {
        texts.lazy.compactMap(domainName).first
    }

    /// Whether a line is a name followed by the store's number ("ARCO AMPM 42259", "SAFEWAY #1234"): words, then
    /// one number of three to six digits at the end, and nothing else of an address (no street word, comma,
    /// postcode before a town or state before a ZIP code) — a five-digit store number is no postcode.
    static func isNameWithStoreNumber(_ upper: String) -> Bool {
        // A state before a ZIP code ("MINNEAPOLIS MN 55414") is a town's line.
        guard upper.range(of: #"\b[A-Z]{2}\s+\d{5}$"#, options: .regularExpression) == nil,
              let g = upper.firstMatch(ofPattern: #"^(\p{L}[\p{L}&'.\- ]*?)\s+#?\d{3,6}$"#), g.count > 1 else { return false }
        // With a house number the words must still be no street ("Warburger Straße 130").
        return ReceiptParser.letterCount(g[1]) >= 3 && !ReceiptParser.looksLikeAddress(g[1] + " 1")
    }

    /// Whether a line speaks to the customer or for the shop ("You decide what's inside", "Mein Drogeriemarkt",
    /// "Your neighbourhood store"): a slogan, not the business's name.
    static func isSlogan(_ text: String) -> Bool {
        let pronouns: Set<String> = ["YOU", "YOUR", "WE", "OUR", "MY", "MEIN", "MEINE", "IHR", "IHRE", "DEIN", "DEINE",
                                     "UNSER", "UNSERE"]
        return text.uppercased().split(whereSeparator: { !$0.isLetter }).contains { pronouns.contains(String($0)) }
    }

    /// Whether a line names the business's owner, not the shop: "UNIT OF KRISHNARPAN", "A division of …",
    /// "Operated by …", "A member of …".
    static func namesTheOwner(_ text: String) -> Bool {
        text.range(of: #"(?i)^\W*(?:an?\s+)?(?:unit|division|subsidiary|member|franchisee?|part)\s+of\b|^\W*(?:operated|owned|managed)\s+by\b"#,
                   options: .regularExpression) != nil
    }

    /// Whether a line is one English function word ("Than,", "With"): a word of a sentence OCR kept from a logo or
    /// a tagline, never a business's name.
    static func isFunctionWord(_ text: String) -> Bool {
        let words = text.uppercased().split(whereSeparator: { !$0.isLetter })
        let function: Set<String> = ["THE", "AND", "THAN", "THEN", "WITH", "FROM", "THIS", "THAT", "THESE", "THOSE",
                                     "FOR", "YOUR", "YOU", "ARE", "WAS", "WERE", "HAVE", "HAS", "BUT", "NOT", "WHEN",
                                     "WHERE", "WHICH", "WHILE", "INTO", "ONTO", "OVER", "UNDER", "ABOUT", "AFTER",
                                     "BEFORE", "THEIR", "THERE", "THEY", "WILL", "WOULD", "SHOULD", "COULD"]
        return words.count == 1 && function.contains(String(words[0]))
    }

    /// Whether a store name read from the header is doubtful: none, a line read with confidence under 60, or only
    /// words of three letters or fewer (a logo read as fragments: "L DIT", "top f", "SSA").
    static func isDoubtful(_ name: String?, confidence: Double) -> Bool {
        guard let name else { return true }
        return confidence < 60 || !name.split(whereSeparator: { !$0.isLetter }).contains { $0.count >= 4 }
    }

    /// Whether a line carries a company legal form as printed ("Aldi GmbH & Co. KG", "IKEA Deutschland GmbH"), not
    /// in lower case: "kg EURO/kg" is a weight.
    static func hasCompanyForm(_ text: String) -> Bool {
        text.split(whereSeparator: { !$0.isLetter }).contains { token in
            ReceiptParser.legalForms.contains(token.uppercased()) && token != token.lowercased()
        }
    }

    /// The store's name with a word corrected by its printing elsewhere: a line of one or two words below the
    /// header, read with confidence ≥ 60, one of whose words (four letters or more) has the same length as a word
    /// of the name and differs from it in one letter ("TKEA Deutschland GmbH" and "IKEA" in the footer), unless the
    /// name's word is itself printed again below.
    static func respelled(_ name: String, by texts: [String], confidences: [Double], from start: Int) -> String {
        var words = name.split(separator: " ").map(String.init)
        // A word printed again as it is read is kept.
        let below = Set(texts[min(start, texts.count)...].flatMap { $0.uppercased().split(whereSeparator: { !$0.isLetter }).map(String.init) })
        for i in texts.indices where i >= start && confidences[i] >= 60 {
            let printed = texts[i].split(whereSeparator: { !$0.isLetter }).map(String.init)
            guard (1...2).contains(printed.count) else { continue }
            for (w, word) in words.enumerated() where word.count >= 4 && word.allSatisfy(\.isLetter) && !below.contains(word.uppercased()) {
                if let match = printed.first(where: { $0.count == word.count && $0.uppercased() != word.uppercased()
                    && zip($0.uppercased(), word.uppercased()).filter { $0 != $1 }.count == 1 }) {
                    words[w] = match
                }
            }
        }
        return words.joined(separator: " ")
    }

    /// A domain as a store name: "chipotle" → "Chipotle".
    static func nameFromDomain(_ domain: String) -> String {
        domain.prefix(1).uppercased() + domain.dropFirst()
    }

    /// The name printed before a phone or fax number on one line ("Subway#1926-0 Phone 858-673-8362" →
    /// "Subway#1926-0"), when it looks like a name.
    static func nameBeforeContact(_ text: String) -> String? {
        guard let g = text.firstMatch(ofPattern: #"(?i)^(.+?)\s+(?:phone|tel|fax)\b[.:]?\s*[\d(+]"#), g.count > 1 else { return nil }
        let name = ReceiptParser.trimJunk(g[1])
        // A store number glued on ("#1926-0") does not count against the name.
        let letters = name.prefix { $0 != "#" }
        guard ReceiptParser.looksLikeName(String(letters)), !ReceiptParser.looksLikeAddress(name.uppercased()) else { return nil }
        return name
    }

    /// Letters and digits in lower case: how names are compared.
    static func key(_ s: String) -> String {
        s.lowercased().filter { $0.isLetter || $0.isNumber }
    }

    /// Whether a header line is a label with its value ("Server: Marcos", "Operator: Jamey Vance") or a
    /// document heading ("Bill", "Guest Check", "Visit us at"): such lines name no business.
    static func isLabelOrHeading(_ text: String) -> Bool {
        let t = ReceiptParser.trimJunk(text)
        let u = t.uppercased()
        if u.range(of: #"^[A-Z][A-Z .#]{1,15}[:;]\s*\S"#, options: .regularExpression) != nil { return true }
        // Document headings and order types, in the languages the receipts print ("FACTURA SIMPLIFICADA",
        // "Quittung", "DINE IN").
        let headings: Set<String> = ["BILL", "CHECK", "GUEST CHECK", "ORDER", "SALE", "SALES", "DUPLICATE", "COPY",
                                     "CUSTOMER COPY", "MERCHANT COPY", "RESTAURANT", "CAFE", "BAR", "FACTURA",
                                     "FACTURA SIMPLIFICADA", "TICKET", "RECHNUNG", "QUITTUNG", "KASSENBON", "BELEG",
                                     "TAX INVOICE", "DINE IN", "EAT IN", "TAKE OUT", "TAKEAWAY", "TAKE AWAY", "TO GO"]
        if headings.contains(u.trimmingCharacters(in: .punctuationCharacters.union(.whitespaces))) { return true }
        if isTableNumber(u) { return true }
        return u.hasPrefix("VISIT US") || u.hasPrefix("FOLLOW US") || u.hasPrefix("LIKE US") || u.hasPrefix("FIND US")
    }

    /// Whether a line (upper case) is a restaurant's table number, its word read with one slip ("fables 27",
    /// "Tafel #85", "MESA 4"): a word of five letters or more one letter from a table word (shorter ones as
    /// printed), then the number alone.
    static func isTableNumber(_ upper: String) -> Bool {
        guard let g = upper.firstMatch(ofPattern: #"^\W*(\p{L}{3,7})\s*[#:.]?\s*\d{1,4}\W*$"#), g.count > 1 else { return false }
        let word = Array(g[1])
        return ["TABLE", "TABLES", "TISCH", "TAVOLO", "TAFEL", "MESA", "TAB"].contains { table in
            word == Array(table) || (table.count >= 5 && EditDistance.levenshtein(word, Array(table)) <= 1)
        }
    }

    /// Whether a word (5 letters or more, no store or place word) of a candidate name is printed again below
    /// the header (`from` on: the footer, a web address, an item): a name repeated is a name. Within the
    /// header a word also repeats in the mall's or town's name ("MERRY HILL CENTRE", "MERRY HILL").
    static func isRepeated(_ text: String, in texts: [String], from start: Int) -> Bool {
        let words = text.uppercased().split(whereSeparator: { !$0.isLetter }).map(String.init).filter {
            $0.count >= 5 && !ReceiptParser.placeWords.contains($0) && !ReceiptParser.storeWords.contains($0)
        }
        guard !words.isEmpty else { return false }
        let others = texts[min(start, texts.count)...].map { key($0) }
        return words.contains { word in
            let w = word.lowercased()
            return others.contains { $0.contains(w) }
        }
    }
}

extension String {
    /// The first match of `pattern` with its capture groups (empty strings for groups that did not take part).
    func firstMatch(ofPattern pattern: String) -> [String]? {
        guard let regex = RegexCache.regex(pattern),
              let m = regex.firstMatch(in: self, range: NSRange(startIndex..., in: self)) else { return nil }
        return (0..<m.numberOfRanges).map { n in Range(m.range(at: n), in: self).map { String(self[$0]) } ?? "" }
    }
}
