import Foundation
import Testing
@testable import LarderOCR
@testable import LarderReceipts

@Suite("European receipts")
struct EuropeanReceiptTests {
    static let lidl = """
        Warburger Straße 130
        33100 Paderborn
        EUR
        Emmentaler Stick 5,18 A
        Bulgur-Kräuter 0,99 x 2 1,98 A
        zu zahlen 7,16
        Bar 10,00
        Rückgeld -2,84
        MWST% MWST + Netto = Brutto
        A 7% 0,47 6,69 7,16
        02.03.20 15:59
        """

    @Test func lidlReceiptReadsTotalDateItemsAndCash() throws {
        let receipt = ReceiptParser().parse(text: Self.lidl)
        #expect(receipt.currency == "EUR")
        #expect(receipt.total == Decimal(string: "7.16"))
        #expect(receipt.date?.iso == "2020-03-02")
        #expect(receipt.items.map(\.description) == ["Emmentaler Stick", "Bulgur-Kräuter"])
        #expect(receipt.items.map(\.total) == [Decimal(string: "5.18")!, Decimal(string: "1.98")!])
        let bulgur = try #require(receipt.items.last)
        #expect(bulgur.quantity == 2)
        #expect(bulgur.unitPrice == Decimal(string: "0.99"))
        #expect(receipt.tenders.first?.kind == "cash")
    }

    @Test func germanTotalWords() {
        for line in ["SUMME EUR 12,07", "Summe 12,07", "ZU ZAHLEN EURO 24,23", "Gesamtbetrag 12,07", "Totaal: 26.50",
                     "TOTA]: 13.40", "Tota}: 288.40"] {
            #expect(ReceiptParser.summaryKind(ReceiptParser.repairTotalWord(line.uppercased())) == .total, "\(line)")
        }
        #expect(ReceiptParser.summaryKind("ZWISCHENSUMME 10,00") == .subtotal)
        #expect(ReceiptParser.summaryKind("MWST 19% 1,23") == .tax)
        #expect(ReceiptParser.summaryKind("EC-CASH 12,07") == .tender)
        #expect(ReceiptParser.summaryKind("BAR 20,00") == .tender)
        #expect(ReceiptParser.summaryKind("GRANOLA BAR 3.99") == nil)
    }

    @Test func otherEuropeanTotalWords() {
        for line in ["UKUPNO kn 290,00", "RAZEM PLN 12,50", "CELKEM 120,00", "Yhteensä 8,40", "TOTALT 99,00"] {
            #expect(ReceiptParser.summaryKind(line.uppercased()) == .total, "\(line)")
        }
        #expect(ReceiptParser.summaryKind("SUMMARY OF PURCHASES 3.00") == nil)
    }

    @Test func aSpaceAfterTheDecimalSeparatorIsOneAmount() {
        let receipt = ReceiptParser().parse(text: "BEEF CHEEKS 100, 00\nSORBET 20,00\nUKUPNO kn 120, 00")
        #expect(receipt.total == 120)
        #expect(receipt.items.map(\.total) == [100, 20])
    }

    @Test func aDateOrTimeAfterACommaIsNotJoinedToTheNumberBefore() {
        // "2, 02/20/16" is no amount "2,02": the date stays whole.
        let receipt = ReceiptParser().parse(text: "002-WCash2, 02/20/16, 04:39 PM\nWASH 20.00\nTOTAL 20.00")
        #expect(receipt.date?.iso == "2016-02-20")
        #expect(receipt.time == "16:39")
        #expect(ReceiptParser.clean("TOTAL 177, 26") == "TOTAL 177,26")
    }

    @Test func aDottedDateWithOneDotReadAsAComma() {
        #expect(ReceiptParser().parseDate("DATUM: 19. 09, 2014", currency: "USD")?.iso == "2014-09-19")
        // Two commas are no dotted date (nor is an amount).
        #expect(ReceiptParser().parseDate("1,09, 2014", currency: "USD") == nil)
    }

    @Test func dottedDatesAreDayFirstEvenWithoutACurrency() {
        #expect(ReceiptParser().parseDate("DATUM 07.04.20 14:37", currency: "USD")?.iso == "2020-04-07")
        #expect(ReceiptParser().parseDate("07/04/20", currency: "USD")?.iso == "2020-07-04")
    }

    @Test func leaderDotsAndSplitDecimalsAreRepaired() {
        #expect(ReceiptParser.clean("TOTAL...16,70") == "TOTAL 16,70")
        #expect(ReceiptParser.clean("TOTAL DUE $52 .97") == "TOTAL DUE $52.97")
        let receipt = ReceiptParser().parse(text: "CAFE\nESPRESSO 16,70\nTOTAL...16,70")
        #expect(receipt.total == Decimal(string: "16.70"))
    }
}

@Suite("Pack sizes")
struct PackSizeTests {
    @Test(arguments: [
        ("RED LENTILS 2LB", "2", "pound"),
        ("WHOLE MILK 1 GAL", "1", "gallon"),
        ("CANNED TOMATOES 28OZ", "28", "ounce"),
        ("LG BROWN EGGS 12CT", "12", "each"),
        ("ORANGE JUICE 1/2 GAL", "0.5", "gallon"),
        ("MILCH 1,5L", "1.5", "liter"),
        ("COLA 6X330ML", "1980", "milliliter"),
        ("BUTTER 250G", "250", "gram"),
        ("OLIVE OIL 16.9 FL OZ", "16.9", "fluid ounce"),
        ("GOYA GOLDEN CORN 150Z", "15", "ounce"),
        ("EGGS DOZ", "12", "each"),
    ])
    func sizes(description: String, quantity: String, unit: String) throws {
        let size = try #require(PackSize.parse(description))
        #expect(size.quantity == Decimal(string: quantity))
        #expect(size.unit == unit)
    }

    @Test func pricesAndBareNumbersAreNotSizes() {
        #expect(PackSize.parse("BANANAS 1.99") == nil)
        #expect(PackSize.parse("EGGS 12") == nil)
        #expect(PackSize.parse("CHICKEN BREAST") == nil)
        #expect(PackSize.parse("MAIN ST GROCERY") == nil)
    }

    @Test func pantryKeepsSizeTimesCountAndWeights() {
        let tomatoes = ReceiptItem(lineNumbers: [1], description: "CANNED TOMATOES 28OZ", quantity: 2, unit: "each",
                                   unitPrice: Decimal(string: "1.99"), total: Decimal(string: "3.98")!)
        #expect(PantryItem.quantity(for: tomatoes).quantity == 56)
        #expect(PantryItem.quantity(for: tomatoes).unit == "ounce")
        let chicken = ReceiptItem(lineNumbers: [1], description: "BNLS SKNLS CHKN BRST", quantity: Decimal(string: "2.134"),
                                  unit: "lb", unitPrice: Decimal(string: "3.99"), total: Decimal(string: "8.51")!)
        #expect(PantryItem.quantity(for: chicken).quantity == Decimal(string: "2.134"))
        #expect(PantryItem.quantity(for: chicken).unit == "pound")
        let limes = ReceiptItem(lineNumbers: [1], description: "LIMES", quantity: 3, unit: "each",
                                unitPrice: Decimal(string: "0.50"), total: Decimal(string: "1.50")!)
        #expect(PantryItem.quantity(for: limes).quantity == 3)
        #expect(PantryItem.quantity(for: limes).unit == "each")
        let bread = ReceiptItem(lineNumbers: [1], description: "WHITE BREAD", total: Decimal(string: "2.49")!)
        #expect(PantryItem.quantity(for: bread).quantity == nil)
    }

    @Test func parsedReceiptGivesThePantryItsSizes() throws {
        let receipt = ReceiptParser().parse(text: """
            CORNER GROCER
            DATE 03/14/2026
            RED LENTILS 2LB 3.49
            WHOLE MILK 1 GAL 4.29
            LG BROWN EGGS 12CT 5.99
            TOTAL 13.77
            """)
        let normalizer = IngredientNormalizer(lexicon: try FoodLexicon.bundled())
        let pantry = PantryExtraction(receipt: receipt, receiptID: "r", normalizer: normalizer)
        let sizes = pantry.items.map { "\($0.quantity.map { "\($0)" } ?? "-") \($0.unit ?? "-")" }
        #expect(sizes == ["2 pound", "1 gallon", "12 each"])
    }
}
