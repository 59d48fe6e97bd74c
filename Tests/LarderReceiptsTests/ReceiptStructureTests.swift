import Foundation
import LarderTestSupport
import Testing
@testable import LarderEvaluation
@testable import LarderOCR
@testable import LarderReceipts

/// What a receipt's structure says about its store and its purchased lines (German tills, photos' headers).
@Suite("Receipt structure: store and purchased lines")
struct ReceiptStructureTests {
    @Test func aStreetWithAHouseNumberIsAnAddressAndTheFooterCompanyNamesTheStore() {
        // Aldi prints its logo (read as letters at low confidence), then the street; the company is in the foot.
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("fad lunbeL nell", 40), ("Pohlweg 110", 70), ("33100 Paderborn", 95), ("UNSERE ÖFFNUNGSZEITEN", 86),
            ("KIWI, VORGEREIFT 1,49 C", 90), ("ZU ZAHLEN EURO 1,49", 92), ("Vielen Dank für Ihren Einkauf!", 90),
            ("Aldi GmbH & Co. KG, Schloß Holte", 88), ("02.03.2020 09:48", 90),
        ]))
        #expect(receipt.store == "Aldi GmbH & Co. KG, Schloß Holte")
        #expect(receipt.address?.contains("Pohlweg 110") == true)
        #expect(ReceiptParser.looksLikeAddress("WARBURGER STRABE 130"))
        #expect(ReceiptParser.looksLikeAddress("HEISENBERGSTRASSE 2"))
        #expect(!ReceiptParser.looksLikeAddress("HORNBACH BAUMARKT AG"))
    }

    @Test func aLegalFormOrAStoreWordBeatsASloganAbove() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("Es gibt immer was zu tun.", 90), ("HORNBACH Baumarkt AG", 88), ("Filiale 547", 90),
            ("Heisenbergstraße 2", 90), ("33104 Paderborn", 95), ("PARKETTZUBEHÖR 9,70 1", 90), ("SUMME EUR 9,70", 95),
        ]))
        #expect(receipt.store == "HORNBACH Baumarkt AG")
        let restaurant = ReceiptParser().parse(lines: ocrLines([
            ("YOUR GUEST NUMBER IS", 91), ("24", 96), ("IN-N-OUT BURGER DALLAS", 59), ("DOUBLE DOUBLE 3.60", 90),
            ("TOTAL 3.60", 95),
        ]))
        // The name line wins over the slogan; read with confidence 59, it gives way to the chain it names (StoreChains).
        #expect(restaurant.store == "In-N-Out Burger")
    }

    @Test func gstInsideANameIsNoContactLineAndACurrencyHeadingIsNoName() {
        #expect(!ReceiptParser.isContactLine("4 DRUGSTORE PUBLICIS"))
        #expect(ReceiptParser.isContactLine("GST ID NO: 000123"))
        #expect(!ReceiptParser.looksLikeName("EUR"))
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("Warburger Straße 130", 93), ("33100 Paderborn", 96), ("EUR", 96), ("Emmentaler Stick 5,18 A", 90),
            ("zu zahlen 5,18", 95),
        ]))
        #expect(receipt.store == nil)
    }

    @Test func aQuantityLineAboveItsItemGoesWithTheItemItsArithmeticFits() throws {
        // EDEKA/Marktkauf print "2 x 0,49" above "KIWIS 0,98": 2 × 0,49 is the kiwis' total, not the mandarins'.
        let receipt = ReceiptParser().parse(text: """
            MANDARINEN 1KG 3,99 B
            2 x 0,49
            KIWIS 0,98 B
            SUMME EUR 4,97
            """)
        #expect(receipt.items.map(\.description) == ["MANDARINEN 1KG", "KIWIS"])
        let kiwis = try #require(receipt.items.last)
        #expect(kiwis.quantity == 2)
        #expect(kiwis.unitPrice == Decimal(string: "0.49"))
        #expect(receipt.items.first?.quantity == nil)
        // Printed below the item it explains, it stays with that item.
        let below = ReceiptParser().parse(text: "KIWIS 0,98 B\n2 x 0,49\nMILCH 1,09 B\nSUMME EUR 2,07")
        #expect(below.items.first?.quantity == 2)
        #expect(below.items.count == 2)
    }

    @Test func anArticleNumberLineNamesNoItemAndATaxClassDigitFollowsTheAmount() throws {
        // Hornbach: article number, quantity line, then the name with the line total and tax class "1".
        let receipt = ReceiptParser().parse(text: """
            Steuernummer: 24/652/3000/5
            ART/EAN 4002245701618
            2 Rolle x 4,85
            PARKETTZUBEHOR 9,70 1
            ART/EAN 4002245704800
            2 Rolle x 24,90
            SELITstop Komfort-Fe 49,80 1
            SUMME [2] EUR 59,50
            """)
        #expect(receipt.items.map(\.description) == ["PARKETTZUBEHOR", "SELITstop Komfort-Fe"])
        #expect(receipt.items.map(\.quantity) == [2, 2])
        #expect(receipt.total == Decimal(string: "59.50"))
        #expect(ReceiptParser.trailingAmount(in: "BIO MILCH 4,99 19")?.value == Decimal(string: "4.99"))
        // Only after a decimal-comma amount: "2.50 7" stays unread.
        #expect(ReceiptParser.trailingAmount(in: "BAGELS 2.50 7") == nil)
    }

    @Test func linesAfterThePaymentAreNotItems() {
        // Rossmann: OCR lost the total's amount; change and the VAT table follow the cash line.
        let receipt = ReceiptParser().parse(text: """
            ZEISS BRILLENPUTZTUCH 1,95 A
            Total
            Bar 2,00
            Riickseld (Bar) 0,05
            MUST A 19% 1,64 0,31 1,95
            """)
        #expect(receipt.items.map(\.description) == ["ZEISS BRILLENPUTZTUCH"])
        #expect(ReceiptParser.summaryKind("7U ZAHLEN EURO 8,83") == .total)
        // A total word one letter off, French and abbreviated totals; a misread SUB-TOTAL stays no total.
        for line in ["TETAL $16.52", "GEE OTAL: 12.36", "SOMME 15,20 EUR", "TOT EURE 122.10"] {
            #expect(ReceiptParser.summaryKind(ReceiptParser.repairTotalWord(line)) == .total, "\(line)")
        }
        #expect(ReceiptParser.summaryKind(ReceiptParser.repairTotalWord("SUN- TOTA | RM7 90")) != .total)
        #expect(ReceiptParser.repairTotalWord("METAL RACK 12.99") == "METAL RACK 12.99")
        #expect(ReceiptParser.summaryKind("BARGELD 20,00") == .tender)
    }
}

/// Noise words trimmed from OCR lines (`WordRows.withoutNoise`).
@Suite("OCR noise words")
struct NoiseWordTests {
    static func line(_ words: [(String, Double)]) -> OCRLine {
        var x = 0
        let boxes = words.map { text, confidence -> OCRWord in
            defer { x += 14 * text.count + 10 }
            return OCRWord(text: text, confidence: confidence, box: OCRBox(x: x, y: 10, width: 14 * text.count, height: 20))
        }
        return WordRows.row(boxes, page: 1)
    }

    @Test func lowConfidenceScrapsAtTheEndsGoButDigitsAndRealWordsStay() {
        let lines = [
            Self.line([("Saleen", 36), ("arches", 31), ("Restaurants", 96), ("Sdn", 95), ("Bhd", 95), ("os", 10)]),
            Self.line([("DRESS", 96), ("FOR", 96), ("LESS", 96), ("re", 25)]),
            Self.line([("Pn", 29), ("SS", 15), ("ee", 28)]),
            Self.line([("R05", 90), ("Oyster", 90), ("Mee", 88), ("RM3", 80), ("90", 20)]),
        ]
        let cleaned = WordRows.withoutNoise(lines)
        #expect(cleaned.map(\.text) == ["Saleen arches Restaurants Sdn Bhd", "DRESS FOR LESS", "R05 Oyster Mee RM3 90"])
        // Lines without word boxes are left alone.
        #expect(WordRows.withoutNoise([OCRLine(text: "| re")]) == [OCRLine(text: "| re")])
    }
}

/// Real OCR on real receipts from `shared/data` (skipped when absent): word boxes, rows and price cells.
@Suite("Rows and price cells on real receipts (real OCR)", .serialized, .integration)
struct RealRowsTests {
    static let photos = [
        "Image_38_16_615", "Image_60_20_dcf9bf5416ddb78df25788b8ad8392dd2cacdf10",
        "Image_12_10_845be0dd6f5b04866a2042abd28d558032ef2576",
    ]

    @Test(.sharedData("receipts-photos"), arguments: photos)
    func photoLinesCarryTheirWordsAndRebuildingIsStable(id: String) throws {
        let folder = try #require(TestData.photosFolder)
        var never = OCRPreprocessing.default
        never.rebuildRows = .never
        let ocr = try OCREngine(preprocessing: never).recognize(imageAt: "\(folder)/\(id).jpg")
        let withWords = ocr.lines.filter { $0.words != nil }
        #expect(withWords.count >= ocr.lines.count - 4, "most lines keep their word boxes")
        for line in withWords {
            let words = try #require(line.words)
            #expect(words.map(\.text).joined(separator: " ") == line.text)
        }
        let rows = WordRows.chooseRows(ocr.lines, always: false)
        #expect(WordRows.chooseRows(rows, always: false).map(\.text) == rows.map(\.text))
        #expect(OCREngine.readingScore(rows) >= OCREngine.readingScore(WordRows.withoutNoise(ocr.lines)))
    }

    @Test(.sharedData("receipts-de"))
    func garbledPriceCellsAreReadAgainOnAGermanScan() throws {
        // An Aldi scan whose price column (price and tax class) tesseract reads as noise: "BIO HONIG S29 SG".
        let folder = try #require(TestData.germanFolder)
        let id = "aldi_02032020_19_02423"
        var without = OCRPreprocessing.default
        without.rereadMaxPriceLines = 0
        let before = ReceiptParser().parse(lines: try OCREngine(preprocessing: without).recognize(imageAt: "\(folder)/\(id).jpg").lines)
        let ocr = try OCREngine().recognize(imageAt: "\(folder)/\(id).jpg")
        let after = ReceiptParser().parse(lines: ocr.lines)
        #expect(ocr.steps.contains { $0.hasPrefix("reread-price(") }, "\(ocr.steps)")
        // Item lines that end in their price (the German pass counts unpriced item lines too, so count these).
        func priced(_ r: ParsedReceipt) -> Int { r.lines.filter { $0.kind == .item && ReceiptParser.endsWithAmount($0.text) }.count }
        #expect(priced(after) >= priced(before) + 4, "priced items \(priced(before)) → \(priced(after))")
        #expect(after.total == Decimal(string: "24.23"))
    }
}
