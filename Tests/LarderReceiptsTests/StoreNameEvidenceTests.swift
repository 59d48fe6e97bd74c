import Foundation
import Testing
@testable import LarderReceipts

/// Store names from what else the receipt prints: its web domain, the shop type under its name, the name printed
/// again in the footer; and what is no name: a slogan, a weight that looks like a legal form, stray marks.
@Suite("Store names: domains, slogans, shop types, respelled words")
struct StoreNameEvidenceTests {
    @Test func aSloganIsNoNameAndTheDomainNamesTheStore() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("You decide what's inside", 83), ("5800 Northgate Drive, Suite 100", 82), ("San Rafael CA 94901", 88),
            ("11/10/2014 12:01", 93), ("Burrito 7.95", 90), ("Total 7.95", 92), ("Order online at chipotle.com", 85),
        ]))
        #expect(receipt.store == "Chipotle")
        #expect(StoreEvidence.isSlogan("Mein Drogeriemarkt"))
        #expect(!StoreEvidence.isSlogan("Harvard Gardens"))
    }

    @Test func aWebAddressReadAsTheNameIsNamedByItsDomain() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("WW. RYSTAL .COM", 80), ("1200 Main St", 90), ("06/01/2016 12:00", 90), ("Krystal 2.99", 90), ("Total 2.99", 90),
        ]))
        #expect(receipt.store == "Rystal")
    }

    @Test func domainsOfOthersAndTaxNumbersAreNoStoreDomains() {
        #expect(StoreEvidence.domainName("rossmann.de/service") == "rossmann")
        #expect(StoreEvidence.domainName("USt-ID-Nr. DE 124981337") == nil)
        #expect(StoreEvidence.domainName("www.smashburgersurvey.com") == nil)
        #expect(StoreEvidence.domainName("www.facebook.com/us") == nil)
        // A confident name the domain does not repeat stays.
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("MARINA SHELL", 92), ("12 Harbour Rd", 90), ("01/02/2017 10:00", 90), ("Unleaded 40.00", 90), ("Total 40.00", 90),
            ("Join at fuelrewards.com", 90),
        ]))
        #expect(receipt.store == "MARINA SHELL")
    }

    @Test func aDoubtfulNameGivesWayToTheCompanyAtTheFootNotToAWeight() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("& L DIT", 70), ("Pohlweg 110", 86), ("33100 Paderborn", 96), ("WURFELZUCKER 0,89", 80),
            ("kg EURO/kg EURO", 80), ("SUMME 0,89", 90), ("BAR 0,89", 90), ("MwSt 7%", 90), ("Aldi GmbH & Co. KG, Schloß Holte", 88),
        ]))
        #expect(receipt.store == "Aldi GmbH & Co. KG, Schloß Holte")
        #expect(!StoreEvidence.hasCompanyForm("kg EURO/kg EURO"))
        #expect(StoreEvidence.hasCompanyForm("toom Baumarkt GmbH"))
    }

    @Test func aShopTypeTakenForTheNameJoinsTheLineAboveIt() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("DELPHIN", 93), ("APOTHEKE", 92), ("PADERBORN", 96), ("Alina Schunk", 93), ("Detmolder Straße 8", 92),
            ("33102 Paderborn", 95), ("Datum 23.04.20", 90), ("Nasenspray 19,90", 90), ("SUMME EUR 19,90", 90),
            ("MwSt 19%", 90), ("Ihr Apothekenteam", 91),
        ]))
        #expect(receipt.store == "DELPHIN APOTHEKE")
    }

    @Test func aNameWordIsRespelledByItsPrintingInTheFootUnlessPrintedAsRead() {
        #expect(StoreEvidence.respelled("TKEA Deutschland GmbH", by: ["Total 10,00", "IKEA"], confidences: [90, 79], from: 0)
            == "IKEA Deutschland GmbH")
        #expect(StoreEvidence.respelled("real GmbH", by: ["reel", "real Treuemarken"], confidences: [80, 80], from: 0) == "real GmbH")
    }

    @Test func aNameWithItsStoreNumberIsNoPostcodeLine() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("ARCO AMPM 42259", 93), ("18972 BEACH BLVD", 92), ("HUNTINGTON BEACH CA", 96), ("06/10/2016 10:00", 90),
            ("UNLEADED 1.71", 85), ("Total 1.71", 90),
        ]))
        #expect(receipt.store == "ARCO AMPM 42259")
        #expect(StoreEvidence.isNameWithStoreNumber("SAFEWAY #1234"))
        #expect(!StoreEvidence.isNameWithStoreNumber("MINNEAPOLIS MN 55414"))
        #expect(!StoreEvidence.isNameWithStoreNumber("MAIN STREET 12345"))
        #expect(!StoreEvidence.isNameWithStoreNumber("WARBURGER STRASSE 130"))
    }

    @Test func strayMarksBeforeANameAndStreetWordsWithoutANumber() {
        #expect(ReceiptParser.storeName("i The Wild") == "The Wild")
        #expect(ReceiptParser.storeName("atzsss} BERGDORF") == "BERGDORF")
        #expect(ReceiptParser.storeName("Cafe Milano") == "Cafe Milano")
        #expect(ReceiptParser.storeName("aA rt SINCLAIR") == "SINCLAIR")
        #expect(ReceiptParser.storeName("La Taqueria") == "La Taqueria")
        // Document headings and order types name no business.
        #expect(StoreEvidence.isLabelOrHeading("FACTURA SIMPLIFICADA"))
        #expect(StoreEvidence.isLabelOrHeading("DINE IN"))
        #expect(StoreEvidence.isLabelOrHeading("Order Number; 4283297"))
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("ONE MILL STREET", 96), ("(978) 738-8900", 96), ("01/03/2015 9:03PM", 80), ("CALAMARI 16.00", 92), ("Total 16.00", 92),
        ]))
        #expect(receipt.store == "ONE MILL STREET")
    }
}
