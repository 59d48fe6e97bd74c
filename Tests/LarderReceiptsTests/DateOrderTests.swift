import Foundation
import Testing
@testable import LarderOCR
@testable import LarderReceipts

/// Day/month order of ambiguous numeric dates, decided by what the receipt says (DateEvidence.swift), and
/// two-digit years. The texts are written after printed receipts of these kinds, not copied from a data set.
@Suite("Date order from the receipt")
struct DateOrderTests {
    @Test func aWeekdayBesideTheDateNamesTheOrder() {
        // 5 April 2011 was a Tuesday, 4 May a Wednesday: the weekday decides, whatever the currency.
        #expect(ReceiptParser().parseDate("TUESDAY 5- 4-2011 14:19:48", currency: "USD")?.iso == "2011-04-05")
        #expect(ReceiptParser().parseDate("TUESDAY 5- 4-2011 14:19:48", currency: "USD")?.resolution == "day-first by the weekday printed")
        // 7 April 2017 was a Friday, 4 July a Tuesday: month-first on a pound receipt too.
        #expect(ReceiptParser().parseDate("FRI 04/07/2017 3:57 PM", currency: "GBP")?.iso == "2017-04-07")
        // A weekday neither reading falls on decides nothing (the currency does).
        #expect(ReceiptParser().parseDate("MON 04/07/2017", currency: "USD")?.iso == "2017-04-07")
        #expect(ReceiptParser.weekday(year: 2026, month: 11, day: 24) == 2)
        #expect(ReceiptParser.weekday(year: 2000, month: 2, day: 29) == 2)
    }

    @Test func anotherDateOnThePaperWithADayOver12SetsTheOrder() {
        let receipt = ReceiptParser().parse(text: "BOOK SHOP\n03/04/2018 10:12\nNOVEL 7.99 $\nTOTAL $7.99\nRETURN BY 18/04/2018")
        #expect(receipt.date?.iso == "2018-04-03")
        #expect(receipt.date?.resolution.contains("another date 18/04/2018") == true)
        // Disagreeing plain dates (a misread digit) say nothing: the dollar decides.
        let mixed = ReceiptParser().parse(text: "03/04/2018\nTOTAL $7.99\n18/04/2018\n04/18/2018")
        #expect(mixed.date?.iso == "2018-03-04")
    }

    @Test func tillWordsOfADayFirstCountry() {
        let dutch = ReceiptParser().parse(text: "GOLDEN CHOPSTICKS\nTel: 020-6207040\nDatum : 12-07-10\n1 Pap Bief. 7.50\nTotaal: 26.50")
        #expect(dutch.date?.iso == "2010-07-12")
        let spanish = ReceiptParser().parse(text: "STEAK HOUSE\nMesa : 4 Camarero : 1\n02/09/2017 Factura 8132\n1 ATUN 4,20\nTOTAL 16,70")
        #expect(spanish.date?.iso == "2017-09-02")
        let gulf = ReceiptParser().parse(text: "KARAM\nTRN# 100212287500003\n05/02/18 10:53 PM\n1 Hommos 28.00\nTotal Due 305.00\nVAT 5% 14.53")
        #expect(gulf.date?.iso == "2018-02-05")
    }

    @Test func decimalCommasAloneMakeTheDayFirst() {
        let receipt = ReceiptParser().parse(text: "CAFFE\n07-10-2018 14:31\nBIRRA 6,00\nCOTTO 12,00\nCAFFE 2,00\nTOT 45,00")
        #expect(receipt.date?.iso == "2018-10-07")
        #expect(ReceiptParser.decimalCommaEvidence(["1.50", "2,00", "3,00"]) == nil)  // fewer than three
    }

    @Test func aNorthAmericanAddressOrPhoneKeepsTheMonthFirst() {
        // "GST: 1" counts guests on a US till; the state and ZIP code say where the paper is from.
        let us = ReceiptParser().parse(text: "JAPAN 49\nCharlotte, NC 28273\n02/12/17 GST: 1\nSoft Drink $2.00\nTotal: $47.31")
        #expect(us.date?.iso == "2017-02-12")
        #expect(ReceiptParser.dateOrderEvidence(["MESA, AZ 85201", "IVA"], currency: "USD", currencyEvidence: "default")?.order == .monthFirst)
        #expect(ReceiptParser.dateOrderEvidence(["(386) 774-8625"], currency: "USD", currencyEvidence: "default")?.order == .monthFirst)
        #expect(ReceiptParser.dateOrderEvidence(["VANCOUVER, BC V6H1L1"], currency: "CAD", currencyEvidence: "symbol $")?.order == .monthFirst)
        // A pound receipt is day-first by its currency before any phone number.
        #expect(ReceiptParser.dateOrderEvidence(["(386) 774-8625", "£3.50"], currency: "GBP", currencyEvidence: "symbol £")?.order == .dayFirst)
        #expect(ReceiptParser.dateOrderEvidence(["THANK YOU"], currency: "USD", currencyEvidence: "default") == nil)
    }

    @Test func twoDigitYearsInThe90sAreThe1990s() {
        #expect(ReceiptParser().parseDate("FRI 23-10-92", currency: "GBP")?.iso == "1992-10-23")
        #expect(ReceiptParser().parseDate("11/28/15", currency: "USD")?.iso == "2015-11-28")
        #expect(!OCREngine.hasMisreadDate("FRI 23-10-92"))
    }

    @Test func aDottedDateWhoseSecondDotWasLost() {
        #expect(ReceiptParser().parseDate("RECHNUNGSDATUM: 13.05 2017 16:48:54", currency: "EUR")?.iso == "2017-05-13")
        // Not without a date label or a time: a price and a number.
        #expect(ReceiptParser().parseDate("KAESE 13.05 2017", currency: "EUR") == nil)
    }

    @Test func aDateWhoseFirstSlashWasLostBesideATime() {
        // "5/6/2016 10:43:03 AM" read "56/2016": the digits before the slash make no month, so each is a field.
        #expect(ReceiptParser().parseDate("56/2016 10:43:03 AM", currency: "USD")?.iso == "2016-05-06")
        #expect(ReceiptParser().parseDate("56/2016 10:43:03 AM", currency: "GBP")?.iso == "2016-06-05")
        #expect(ReceiptParser().parseDate("56/2016 10:43:03 AM", currency: "USD")?.resolution.hasSuffix("(a slash lost)") == true)
        // Not without a time, not a card's expiry ("12/2016"), not digits inside a longer number.
        #expect(ReceiptParser().parseDate("56/2016", currency: "USD") == nil)
        #expect(ReceiptParser().parseDate("EXP 12/2016 10:43", currency: "USD") == nil)
        #expect(ReceiptParser().parseDate("REF 456/2016 10:43", currency: "USD") == nil)
        #expect(ReceiptParser().parseDate("10/56/2016 10:43", currency: "USD") == nil)
    }

    @Test func theDateWordsConfidenceMakesADateUnsure() {
        let box = OCRBox(x: 0, y: 0, width: 10, height: 10)
        let line = OCRLine(text: "10/20/11 06:23:45 PM", confidence: 68,
                           words: [OCRWord(text: "10/20/11", confidence: 32, box: box), OCRWord(text: "06:23:45", confidence: 93, box: box)])
        #expect(OCREngine.dateConfidence(line) == 32)
        #expect(OCREngine.dateConfidence(OCRLine(text: "DATE 12/14/16", confidence: 77)) == 77)
        #expect(OCREngine.mayBeGarbledDate(OCRLine(text: "Oai0t/t6 450638 Repent", confidence: 18)))
        #expect(!OCREngine.mayBeGarbledDate(OCRLine(text: "Oai0t/t6 450638 Repent", confidence: 60)))
        #expect(!OCREngine.mayBeGarbledDate(OCRLine(text: "1 -g39t0 12.50", confidence: 4)))
    }

    @Test func aSlashReadAsAParenthesisOrBarWhileTheOtherWasRead() {
        #expect(ReceiptParser().parseDate("3/7)2017 11:34:32 AM", currency: "USD")?.iso == "2017-03-07")
        #expect(ReceiptParser().parseDate("12|28/18, 03:12 PM", currency: "USD")?.iso == "2018-12-28")
        #expect(ReceiptParser.repairDateSlash("ORDER 3/7]2017") == "ORDER 3/7/2017")
        // Not without a slash read, not a phone number, a fraction or a longer number.
        #expect(ReceiptParser().parseDate("3)7)2017", currency: "USD") == nil)
        #expect(ReceiptParser.repairDateSlash("(612) 355-4500 3/50") == "(612) 355-4500 3/50")
        #expect(ReceiptParser.repairDateSlash("123/4)2017") == "123/4)2017")
    }

    @Test func theHeaderBandEndsAtTheFirstPricedLine() throws {
        func line(_ text: String, y: Int, height: Int = 20) -> OCRLine {
            OCRLine(text: text, box: OCRBox(x: 10, y: y, width: 200, height: height))
        }
        let lines = [line("FIVE GUYS", y: 100, height: 40), line("STORE # MN-1186", y: 150), line("Order Id: AAYF4", y: 180),
                     line("1 Bacon Cheeseburger $8.69", y: 400), line("Sub Total $11.08", y: 450)]
        let band = try #require(OCREngine.headerBand(lines, imageHeight: 1000))
        #expect(band.top == 80 && band.bottom == 400 && band.lineHeight == 20)
        // No priced line (nothing marks where the header ends), or a priced first line: no header.
        #expect(OCREngine.headerBand(Array(lines.prefix(3)), imageHeight: 1000) == nil)
        #expect(OCREngine.headerBand(Array(lines.suffix(2)), imageHeight: 1000) == nil)
    }
}

/// The date re-reads on real photos from `shared/data/receipts-photos` (skipped when absent): each date below is
/// printed on the paper and agrees with its label; the page reading alone missed it (a step names the re-read that
/// finds it; nil where a reading before the re-reads finds it since `ocr@20`). Run with OMP_THREAD_LIMIT=1.
@Suite("Date re-reads on real photos", .serialized, .integration, .sharedData("receipts-photos"))
struct DateRereadPhotoTests {
    static let photos: [(id: String, date: String, step: String?)] = [
        // "FRI 23-19-92" (no valid date) before `ocr@20`, re-read as "23-10-92"; since then the photo reading reads it
        // (one fixed-pitch test per row, rows ended at the price column). A 1990s year, not one in the future.
        ("Image_16_11_c3f230e0bb4e9659a543854f4d49ebf95c7600c7", "1992-10-23", nil),
        // "13.06.2017" read at word confidence 24; binarised crops agree on "13.05 2017".
        ("Image_39_16_96dd003c9c732e57a3fe0657f1e51fb685f04f52", "2017-05-13", "reread-unsure-date"),
        // "6/6/2017 2:27:06 PM" read as noise ("arava 22r0n Pa BESTS", confidence 5): the garbled line is tried.
        ("Image_67_4_7e4be25ee71a8d439fea9c000c1c2a2ea4440454", "2017-06-06", "reread-missing-date"),
        // "3/7/2017 11:34:32 AM" under a signature: no page line holds it; the header read as a block reads
        // "3/7)2017 11:34:32 AM" (a slash as a parenthesis, repaired by the parser).
        ("Image_68_4_debd241af902e4fe0bb3239bb891988310e73682", "2017-03-07", "reread-date-header"),
    ]

    @Test(arguments: photos.map(\.id))
    func theRereadReadsThePrintedDate(id: String) throws {
        let folder = try #require(TestData.photosFolder)
        let expected = try #require(Self.photos.first { $0.id == id })
        let ocr = try OCREngine().recognize(imageAt: "\(folder)/\(id).jpg")
        if let step = expected.step {
            #expect(ocr.steps.contains { $0.hasPrefix(step) }, "\(ocr.steps)")
        }
        #expect(ReceiptParser().parse(lines: ocr.lines).date?.iso == expected.date, "\(ocr.lines.map(\.text))")
    }
}
