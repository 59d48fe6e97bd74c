import Foundation
import Testing
@testable import LarderReceipts

/// The German passes (GermanReceipt.swift), each on receipt text written for the test.
@Suite("German receipts")
struct GermanReceiptTests {
    /// An OCR line at `x` with its words laid out left to right, the last word (if `price`) at x = 700.
    static func line(_ text: String, x: Int = 20, y: Int, priceWord: Bool = true) -> OCRLine {
        let tokens = text.split(separator: " ").map(String.init)
        var words: [OCRWord] = []
        var cursor = x
        for (k, token) in tokens.enumerated() {
            let at = priceWord && k == tokens.count - 1 && tokens.count > 1 ? 700 : cursor
            words.append(OCRWord(text: token, confidence: 90, box: OCRBox(x: at, y: y, width: token.count * 18, height: 36)))
            cursor = at + token.count * 18 + 18
        }
        let right = (words.last.map { $0.box.x + $0.box.width }) ?? x
        return OCRLine(text: text, confidence: 90, box: OCRBox(x: x, y: y, width: right - x, height: 36), words: words)
    }

    @Test func germanReceiptIsRecognisedByItsWords() {
        #expect(ReceiptParser.isGermanReceipt(["SUMME EUR 3,00", "MwSt 19%"], currency: "EUR"))
        #expect(!ReceiptParser.isGermanReceipt(["SUMME EUR 3,00"], currency: "EUR"))
        #expect(!ReceiptParser.isGermanReceipt(["SUMME 3.00", "MwSt 19%"], currency: "USD"))
    }

    @Test func lineRepairsSplitGluedTaxClassesAndDropTaxDigits() {
        #expect(ReceiptParser.germanLineRepairs("PFAND 0,25«C") == "PFAND 0,25 C")
        #expect(ReceiptParser.germanLineRepairs("SALATBAR 2,42xB") == "SALATBAR 2,42 B")
        #expect(ReceiptParser.germanLineRepairs("1,000 STK 15.79 19") == "1,000 STK 15.79")
        #expect(ReceiptParser.germanLineRepairs("Datum 11,04,20 09:51 Uhr") == "Datum 11.04.20 09:51 Uhr")
        #expect(ReceiptParser.germanLineRepairs("Datum: 04, 04. 2020") == "Datum: 04.04.2020")
        // Not on other lines: "2,50, 3,00" is no date.
        #expect(ReceiptParser.germanLineRepairs("A 7% 0,47 6,69") == "A 7% 0,47 6,69")
    }

    @Test func bottleReturnIsALineOfItsOwnWithANegativeTotal() throws {
        let text = """
            Getränkemarkt
            MINERALWASSER 0,49 B
            PFAND 0,25 C
            LEERGUT MINUS 1,50 C
            SUMME EUR -0,76
            MwSt NETTO MwSt UMSATZ
            """
        let receipt = ReceiptParser().parse(text: text)
        #expect(receipt.items.map(\.total) == [Decimal(string: "0.49")!, Decimal(string: "0.25")!, Decimal(string: "-1.50")!])
        #expect(receipt.items.last?.description == "LEERGUT")
        #expect(receipt.discounts.isEmpty)
        // Deposits and returns are no food: the pantry records them as blocked lines.
        let pantry = PantryExtraction(receipt: receipt, receiptID: "markt", normalizer: try IngredientNormalizer())
        #expect(Set(pantry.blocked.map(\.description)) == ["PFAND", "LEERGUT"])
        #expect(pantry.blocked.allSatisfy { $0.rule.hasPrefix("bottle-deposit") })
    }

    @Test func garbledQuantityAboveItsItemIsADetail() {
        let text = """
            Markt
            ZX 1,15
            MINERALWASSER 2,30 B
            2 x j 0,39
            BROTCHEN 0,78 B
            SUMME EUR 3,08
            MwSt 7%
            """
        let receipt = ReceiptParser().parse(text: text)
        #expect(receipt.items.map(\.description) == ["MINERALWASSER", "BROTCHEN"])
        #expect(receipt.items.map(\.quantity) == [2, 2])
        #expect(receipt.items.first?.unitPrice == Decimal(string: "1.15"))
    }

    @Test func articleNumberLayoutsMakeOneItemPerArticle() {
        let text = """
            Baumarkt GmbH
            ART/EAN 4002245706880
            Fliese 18,50
            Bodenbelag 92,50 1
            4078500017343 Kunststoffeimer
            4,000 STK 20.99 19
            Artikel 50306244
            LAMPE GU10 22237
            2,000 * 3,99 7,98 0
            SUMME EUR 121,47
            GEGEBEN ec-Karte EUR 121,47
            """
        let receipt = ReceiptParser().parse(text: text)
        #expect(receipt.items.map(\.description) == ["Bodenbelag", "Kunststoffeimer", "LAMPE GU10 22237"])
        #expect(receipt.items.map(\.total) == [Decimal(string: "92.50")!, Decimal(string: "20.99")!, Decimal(string: "7.98")!])
        #expect(receipt.items.map(\.quantity) == [5, 4, 2])
    }

    @Test func weighedItemUnderAKilogramHeading() {
        let text = """
            Markt
            BANANEN LOSE C
            kg EURO/kg EURO
            0,158 1,19 0,19
            ZUCKER 0,89 C
            ZU ZAHLEN EURO 1,08
            MWST Netto BRUTTO
            """
        let receipt = ReceiptParser().parse(text: text)
        #expect(receipt.items.map(\.description) == ["BANANEN LOSE C", "ZUCKER"])
        #expect(receipt.items.first?.quantity == Decimal(string: "0.158"))
        #expect(receipt.items.first?.unit == "kg")
    }

    @Test func itemLinesWithALostPriceAreCountedAndPricedWhereTheReceiptSays() {
        // Word boxes as tesseract gives them: names at x = 20, prices at x = 700.
        var lines = [Self.line("Markt", x: 300, y: 0, priceWord: false), Self.line("Tel. 05251 12345", x: 300, y: 40, priceWord: false)]
        let body = ["JOGHURT NATUR 0,35", "HONIG 3,29", "JOGHURT NATUR Os8&", "KEKSE Tala", "JOGHURT NATUR"]
        lines += body.enumerated().map { Self.line($1, y: 100 + 40 * $0, priceWord: !$1.hasSuffix("NATUR")) }
        lines += [Self.line("SUMME EUR 5,33", y: 400), Self.line("MwSt 7% 0,35", y: 440), Self.line("02.03.20 09:48", y: 480)]
        let receipt = ReceiptParser().parse(lines: lines)
        #expect(receipt.items.map(\.description) == ["JOGHURT NATUR", "HONIG", "JOGHURT NATUR", "KEKSE", "JOGHURT NATUR"])
        // The yoghurts cost what the priced one costs; the one price left is the total's remainder.
        #expect(receipt.items.map(\.total) == ["0.35", "3.29", "0.35", "0.99", "0.35"].map { Decimal(string: $0)! })
        // Each price the parser supplied is named for review: none of them was read from its own line.
        let unread = receipt.reviewReasons.filter { $0.hasPrefix(ParsedReceipt.unreadPriceReason) }
        #expect(unread.count == 3, "\(receipt.reviewReasons)")
        #expect(unread.filter { $0.hasSuffix("priced like the same product on the receipt") }.count == 2)
        #expect(unread.filter { $0.hasSuffix("priced as the total less the other items") }.count == 1)
        #expect(receipt.needsReview)
    }

    @Test func unpricedLinesBeforeTheFirstPricedItemFollowTheItemsLeftEdge() {
        var lines = [Self.line("Markt GmbH", x: 300, y: 0, priceWord: false), Self.line("Tel.: 0 52 51/68 90 80", x: 300, y: 40, priceWord: false)]
        lines += [Self.line("KAROTTENSALAT Vile", y: 100), Self.line("MARZIPANBROT", y: 140, priceWord: false),
                  Self.line("APFELSAFT 1,29 V", y: 180), Self.line("3 x 1,99", x: 5, y: 220, priceWord: false),
                  Self.line("SCHOKOLADE 5,97", y: 260), Self.line("SUMME EUR 9,95", y: 300), Self.line("MwSt 19%", y: 340)]
        let receipt = ReceiptParser().parse(lines: lines)
        #expect(receipt.items.map(\.description) == ["KAROTTENSALAT", "MARZIPANBROT", "APFELSAFT", "SCHOKOLADE"])
        #expect(receipt.items.prefix(2).map(\.total) == [0, 0])  // two prices lost: not guessed
        #expect(receipt.reviewReasons.filter { $0.hasSuffix("counted with 0") }.count == 2)
        #expect(receipt.store == "Markt GmbH")
    }

    @Test func theDayMostDateLinesPrintWins() {
        let text = """
            Markt
            BROT 1,99 A
            zu zahlen 1,99
            MWST% MWST + Netto = Brutto
            3182 073850/05 17.04.20 09:51
            Kartenzahlung
            Datum 11,04,20 09:51 Uhr
            """
        #expect(ReceiptParser().parse(text: text).date?.iso == "2020-04-11")
        let yearless = """
            Markt
            BROT 1,99 A
            SUMME EUR 1,99
            MwSt 7%
            16.04.20 16:15 8665111 0176
            Datum: 15.04, 202x
            AS-Zeit 15.04. 16:14 Uhr
            """
        #expect(ReceiptParser().parse(text: yearless).date?.iso == "2020-04-15")
        // A promotion's date without a time does not outvote the till's.
        let promo = """
            Drogerie
            TUCH 1,95 A
            Bar 2,00
            MwSt A 19% 1,64
            27.02.2020 15:56 Kasse 02
            Produkte vom 28.01.2020
            """
        #expect(ReceiptParser().parse(text: promo).date?.iso == "2020-02-27")
    }

    @Test func aDayFollowedByATimeIsNoDate() {
        #expect(ReceiptParser().parseDate("AS-ZEIT 15.04. 16:14 UHR", currency: "EUR") == nil)
        #expect(ReceiptParser().parseDate("AS-ZEIT 15.04.16:14 UHR", currency: "EUR") == nil)
        #expect(ReceiptParser().parseDate("15.04.20 16:14", currency: "EUR")?.iso == "2020-04-15")
    }

    @Test func aTildeBeforeAnAmountIsAMinus() {
        #expect(ReceiptParser.germanLineRepairs("LEERGUT MINUS ~4,00*C") == "LEERGUT MINUS -4,00 C")
    }

    @Test func strayPoundSignInFooterNoiseDoesNotHideAGermanReceipt() {
        let texts = ["SUMME EUR 29,78", "Mehrwertst. ohne MwSt", "Datum: 29.04.2020", "O22 £56 Fes 98"]
        #expect(ReceiptParser.isGermanReceipt(texts, currency: "GBP"))
        let receipt = ReceiptParser().parse(text: (["Markt", "BROT 29,78"] + texts).joined(separator: "\n"))
        #expect(receipt.currency == "EUR")
    }

    @Test func aCountLineAloneKeepsTheNamePendingForThePriceBelow() {
        let text = """
            Baumarkt GmbH
            4078500023542 Rechen
            1,000 Stk.
            11.99 19
            SUMME EUR 11.99
            GEGEBEN Karte 11.99
            """
        let receipt = ReceiptParser().parse(text: text)
        #expect(receipt.items.count == 1)
        #expect(receipt.items.first?.total == Decimal(string: "11.99"))
    }

    @Test func aRowReadTwiceIsOneItem() {
        // OCR returned the same printed row twice, once with a garbled price: the priced reading is the item.
        let lines = [Self.line("Markt GmbH", x: 300, y: 0, priceWord: false), Self.line("KASE STICK 1,99.", y: 100),
                     Self.line("KASE STICK 1,99 A", y: 100), Self.line("BROT 0,99 A", y: 140), Self.line("SUMME EUR 2,98", y: 180),
                     Self.line("MwSt 7%", y: 220)]
        #expect(ReceiptParser().parse(lines: lines).items.map(\.description) == ["KASE STICK", "BROT"])
    }

    @Test func storeIsTheNameOverTheStreetAndPostcode() {
        let text = """
            WUNSCHLOS GLUCKLICH?
            Hansen Nord
            Hauptstraße 12
            12345 Musterstadt
            EUR
            BROT 1,99 A
            SUMME EUR 1,99
            MwSt 7% 0,13
            """
        #expect(ReceiptParser().parse(text: text).store == "Hansen Nord")
    }

    @Test func theStreetIsNeverTheStoreAndAShopTypeLineJoinsTheName() {
        let street = """
            Am Lindenhof 110
            12345 Musterstadt
            BROT 1,99 A
            SUMME EUR 1,99
            MwSt 7% 0,13
            Beispiel GmbH & Co. KG, Musterstadt
            """
        #expect(ReceiptParser().parse(text: street).store == "Beispiel GmbH & Co. KG, Musterstadt")
        let pharmacy = """
            SONNEN
            APOTHEKE
            Marktplatz 3
            12345 Musterstadt
            Kassenbon
            Salbe 9,95
            Summe EUR 9,95
            Typ Netto MwSt Brutto
            """
        #expect(ReceiptParser().parse(text: pharmacy).store == "SONNEN APOTHEKE")
    }

    @Test func columnHeadingsAreNoItemsAndAPriceLineAboveItsName() {
        let text = """
            Möbelhaus
            Datum: 26.09.2016 13:56
            Pos Artikel-Nr. Menge €/Stk €/Ges M
            1 23530028 03 2,00 14,99 29,98 1
            Duschvorhang
            2 02770034 01 1,00 9,99 9,99 1
            Garnitur
            elec.-cash 39,97
            Netto MwSt.
            Vielen Dank für Ihren Einkauf
            """
        let receipt = ReceiptParser().parse(text: text)
        #expect(receipt.items.map(\.description) == ["Duschvorhang", "Garnitur"])
        #expect(receipt.items.map(\.total) == [Decimal(string: "29.98")!, Decimal(string: "9.99")!])
    }
}
