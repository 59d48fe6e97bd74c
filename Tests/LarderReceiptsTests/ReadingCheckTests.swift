import Foundation
import LarderTestSupport
import Testing
@testable import LarderOCR
@testable import LarderReceipts

/// When a receipt is read again: the parse of the first reading decides (`ReadingCheck`).
@Suite("Further readings only when the first is unsure")
struct ReadingCheckTests {
    static func lines(_ texts: [String]) -> [OCRLine] {
        texts.enumerated().map { i, text in
            OCRLine(text: text, confidence: 90, box: OCRBox(x: 20, y: 40 + 30 * i, width: 400, height: 24))
        }
    }

    static let header = ["CORNER GROCER", "12 MAIN STREET", "11/02/2026"]

    @Test func itemsThatAddUpToTheTotalWithADateAreSure() {
        let check = ReadingCheck(Self.lines(Self.header + ["WHOLE MILK 3.49", "RYE BREAD 2.50", "TOTAL 5.99"]))
        #expect(check.hasTotal && check.hasDate && check.addsUp)
        #expect(check.isSure)
        #expect(!check.wantsPhotoReading(paperFound: true))
        #expect(!check.wantsPriceRereads)
    }

    /// The check carries the parse it was made from, which the total re-reads take instead of parsing the same
    /// lines again: it is the parse of those lines.
    @Test func theCheckCarriesTheParseOfItsLines() {
        let lines = Self.lines(Self.header + ["WHOLE MILK 3.49", "RYE BREAD", "TOTAL 5.99"])
        let check = ReadingCheck(lines)
        #expect(check.receipt == ReceiptParser().parse(lines: lines))
        #expect(check.receipt.total == Decimal(string: "5.99"))
        #expect(check.receipt != ReceiptParser().parse(lines: Self.lines(Self.header + ["TOTAL 7.00"])))
    }

    @Test func aTotalTheItemsDoNotReachIsUnsure() {
        let check = ReadingCheck(Self.lines(Self.header + ["WHOLE MILK 3.49", "RYE BREAD", "TOTAL 5.99"]))
        #expect(check.hasTotal && check.hasDate && !check.addsUp)
        #expect(!check.isSure)
        #expect(check.wantsPriceRereads)
        // A photo (paper smaller than the frame) is read again; a scan with a total and a date is not.
        #expect(check.wantsPhotoReading(paperFound: true))
        #expect(!check.wantsPhotoReading(paperFound: false))
    }

    @Test func noTotalOrNoDateIsReadAgainAsAPhotoEvenWithoutPaper() {
        let noTotal = ReadingCheck(Self.lines(Self.header + ["WHOLE MILK 3.49", "RYE BREAD 2.50"]))
        #expect(!noTotal.hasTotal && noTotal.wantsPhotoReading(paperFound: false) && noTotal.wantsPriceRereads)
        let noDate = ReadingCheck(Self.lines(["CORNER GROCER", "WHOLE MILK 3.49", "RYE BREAD 2.50", "TOTAL 5.99"]))
        #expect(noDate.addsUp && !noDate.hasDate)
        #expect(noDate.wantsPhotoReading(paperFound: false))
        // Its prices add up: nothing for a price re-read to fix.
        #expect(!noDate.wantsPriceRereads)
    }

    @Test func aTotalIsReadAgainOnlyWhenItCouldBeAMisreadingOfTheImpliedOne() {
        // Subtotal 141.50, no tax: a printed 141.58 is one digit off (a misread 0), 23.10 is not a misreading.
        let misread = ReadingCheck(Self.lines(Self.header + ["RICE 5KG 141.50", "SUBTOTAL 141.50", "TOTAL 141.58"]))
        #expect(!misread.addsUp && misread.wantsTotalReread)
        let other = ReadingCheck(Self.lines(Self.header + ["RICE 5KG 141.50", "SUBTOTAL 141.50", "TOTAL 23.10"]))
        #expect(!other.addsUp && !other.wantsTotalReread)
        let sure = ReadingCheck(Self.lines(Self.header + ["RICE 5KG 141.50", "TOTAL 141.50"]))
        #expect(sure.isSure && !sure.wantsTotalReread)
        let none = ReadingCheck(Self.lines(Self.header + ["RICE 5KG 141.50"]))
        #expect(!none.hasTotal && none.wantsTotalReread)
        #expect(ReadingCheck.couldBeMisread(Decimal(string: "41.50")!, as: Decimal(string: "141.50")!))
        #expect(!ReadingCheck.couldBeMisread(Decimal(string: "8.20")!, as: Decimal(string: "141.50")!))
    }

    @Test func aTotalInferredFromSubtotalAndTaxIsUnsure() {
        // The total line's amount was not read: the parser infers 7.71 from subtotal + tax, which agrees with the
        // items by construction. A further reading may still read the printed total, so the reading is unsure.
        let check = ReadingCheck(Self.lines(Self.header + [
            "TUNA SUB 4.49", "VALUE MEAL 2.75", "SUB TOTAL 7.24", "SALES TAX 0.47", "TOTAL (TAKE OUT)",
        ]))
        #expect(!check.hasTotal && !check.addsUp && !check.isSure)
        #expect(check.wantsPhotoReading(paperFound: false) && check.wantsTotalReread && check.wantsPriceRereads)
    }

    /// A total is confirmed by the items, by subtotal + tax, or by cash less change; a payment line equal to it
    /// is no confirmation (the same print defect misreads both alike), so its amount is read again.
    @Test func aTotalOnlyAPaymentRepeatsIsUnconfirmed() {
        func confirmed(_ texts: [String]) -> Bool { OCREngine.totalIsConfirmed(ReceiptParser().parse(lines: Self.lines(Self.header + texts))) }
        #expect(confirmed(["WHOLE MILK 3.49", "RYE BREAD 2.50", "TOTAL 5.99"]))
        #expect(confirmed(["SUPREME", "Subtotal 96.83", "Tax 8.59", "TOTAL 105.42"]))
        #expect(confirmed(["RICE 270.00 X", "TOTAL 297.00", "CASH 300.00", "CHANGE 3.00"]))
        #expect(!confirmed(["RICE 270.00 X", "TOTAL 207.00", "CASH 207.00"]))
        #expect(!confirmed(["Subtotal 404.00", "Tax 142", "RECEIPT TOTAL: 108.42"]))
    }

    /// The cell read again is the whole amount with its currency sign, not only its last word.
    @Test func theAmountCellIsTheLastWordsWithoutLetters() {
        func words(_ texts: [String]) -> [OCRWord] {
            texts.enumerated().map { OCRWord(text: $1, confidence: 90, box: OCRBox(x: 10 + 60 * $0, y: 10, width: 50, height: 20)) }
        }
        #expect(OCREngine.amountCellStart(words(["CASH", "€28", ".00"])) == 1)
        #expect(OCREngine.amountCellStart(words(["RECEIPT", "TOTAL:", "108.42"])) == 2)
        #expect(OCREngine.amountCellStart(words(["$", "2.00"])) == 0)
        #expect(OCREngine.amountCellStart(words(["TOTAL", "DUE"])) == nil)
        #expect(OCREngine.amountCellStart(words(["Tota}5.00"])) == nil)
        #expect(OCREngine.amountCellStart(words(["CASH.", "|", "*207.00"])) == 2)
        #expect(OCREngine.amountCellStart([]) == nil)
    }

    @Test func stepCostsAddUpPerNameInOrder() {
        var costs = StepCosts()
        var x = 0.0
        for i in 0..<200_000 { x += Double(i).squareRoot() }
        costs.record("read")
        costs.record("paper")
        for i in 0..<200_000 { x += Double(i).squareRoot() }
        costs.record("read")
        #expect(x > 0)
        #expect(costs.entries.map(\.name) == ["read", "paper"])
        #expect(costs.entries[0].milliseconds > costs.entries[1].milliseconds)
        #expect(costs.step.hasPrefix("cpu-ms(read "), "\(costs.step)")
        #expect(costs.step.contains(", paper "), "\(costs.step)")
    }
}

/// The project's sample receipts (real tesseract) read well the first time: no further reading runs.
@Suite("Sure readings are not read again (real OCR)", .serialized, .integration)
struct SureReadingTests {
    @Test(arguments: OCRTests.samples)
    func aSampleThatAddsUpIsReadOnce(file: String) throws {
        let ocr = try OCREngine().recognize(imageAt: "\(TestData.samplesFolder)/receipts/\(file)")
        #expect(ReadingCheck(ocr.lines).isSure, "\(ocr.steps)")
        #expect(ocr.steps.contains("sure"), "\(ocr.steps)")
        #expect(!ocr.steps.contains { $0.hasPrefix("photo") || $0.hasPrefix("reread-price") || $0.hasPrefix("paper(") },
                "\(ocr.steps)")
        let costs = try #require(ocr.steps.last, "\(ocr.steps)")
        #expect(costs.hasPrefix("cpu-ms(decode ") && costs.contains(", read "), "\(costs)")
    }

    @Test func photoPassAlwaysStillReadsASureReceiptAgain() throws {
        // `.always` still reads every image as a photo: the check only narrows `.whenUnsure`.
        var always = OCRPreprocessing.default
        always.photoPass = .always
        let ocr = try OCREngine(preprocessing: always).recognize(imageAt: "\(TestData.samplesFolder)/receipts/corner-grocer.jpg")
        #expect(ocr.steps.contains { $0.hasPrefix("photo") }, "\(ocr.steps)")
        #expect(ocr.steps.last?.contains(", photo ") == true, "\(ocr.steps)")
    }

    @Test func thePhotoReadingStartsAboveTheFirstReadingsBody() {
        // Header at y 40, 70; the date line at 100 is the body's first line (bodyStart counts a date).
        let first = ReadingCheckTests.lines(["CORNER GROCER", "12 MAIN STREET", "11/02/2026", "WHOLE MILK 3.49", "TOTAL 3.49"])
        #expect(OCREngine.bodyStart(first) == 2)
        // Half a line height (12) above the date line, in the cropped (paper at y 10) and scaled (×2) image.
        #expect(OCREngine.bodyTop(first, paperTop: 10, scale: 2) == (100 - 12 - 10) * 2)
        // An item whose amount the first reading garbled ("3.49....0" ends no line) is read again too.
        let garbled = ReadingCheckTests.lines(["CORNER GROCER", "WHOLE MILK 3.49....0", "RYE BREAD 2.50", "TOTAL 5.99"])
        #expect(OCREngine.bodyStart(garbled) == 2)
        #expect(OCREngine.bodyTop(garbled, paperTop: 0, scale: 1) == 70 - 12)
        // No header above the body, or no body: the whole image is read.
        #expect(OCREngine.bodyTop(ReadingCheckTests.lines(["WHOLE MILK 3.49", "TOTAL 3.49"]), paperTop: 0, scale: 1) == 0)
        #expect(OCREngine.bodyTop(ReadingCheckTests.lines(["CORNER GROCER", "THANK YOU"]), paperTop: 0, scale: 1) == 0)
    }
}
