import CTesseract
import Foundation
import LarderEvaluation
import LarderTestSupport
import Testing
@testable import LarderOCR
@testable import LarderReceipts

/// Integration tests over the project's sample receipts (real tesseract). Run with OMP_THREAD_LIMIT=1.
@Suite("OCR of the project samples", .serialized, .integration)
struct OCRTests {
    static let samples = ["corner-grocer.jpg", "freshway-market.png", "valley-foods.tiff"]

    @Test(arguments: samples)
    func sampleReceipt(file: String) throws {
        let root = TestData.samplesFolder
        let engine = try OCREngine()
        let path = "\(root)/receipts/\(file)"
        let ocr = try engine.recognize(imageAt: path)
        let texts = ocr.lines.map(\.text)
        #expect(texts.contains { $0.hasPrefix("TOTAL ") })
        #expect(ocr.lines.allSatisfy { $0.box.width > 0 && $0.box.height > 0 && $0.confidence > 0 })

        let id = (file as NSString).deletingPathExtension
        let label = try ReceiptEvaluation.projectLabel(at: "\(root)/expected/receipts/\(id).json")
        let receipt = ReceiptParser().parse(lines: ocr.lines)
        #expect(receipt.total.flatMap { Double("\($0)") } == label.total)
        #expect(receipt.store == label.store)
        #expect(receipt.date?.iso == label.date)
        #expect(!receipt.reviewReasons.contains { $0.contains("mismatch") }, "\(receipt.reviewReasons)")
        #expect(receipt.needsReview == false, "\(receipt.reviewReasons)")
        // A few items come out with their label prices.
        let labelItems = try #require(label.items)
        for item in labelItems.prefix(3) {
            #expect(receipt.items.contains { $0.description == item.name && Double("\($0.total)") == item.price },
                    "\(item.name) missing from \(receipt.items.map(\.description))")
        }
    }

    @Test func evaluationOverSamplesWithSeparateLabels() throws {
        let root = TestData.samplesFolder
        let report = try ReceiptEvaluation.run(folder: "\(root)/receipts",
                                               options: .init(labelsFolder: "\(root)/expected/receipts"))
        #expect(report.count == 3)
        #expect(report.store == 1 && report.date == 1 && report.total == 1)
        #expect((report.itemF1 ?? 0) >= 0.95)
    }

    @Test func sidewaysPhotoIsRotatedBack() throws {
        let root = TestData.samplesFolder
        let rotated = NSTemporaryDirectory() + "larder-rotated-\(getpid()).png"
        defer { try? FileManager.default.removeItem(atPath: rotated) }
        #expect(OCREngine.writeRotatedCopy(of: "\(root)/receipts/freshway-market.png", to: rotated, quarterTurns: 1))
        let ocr = try OCREngine().recognize(imageAt: rotated)
        #expect(ocr.quarterTurnsApplied != 0, "\(ocr.steps)")
        #expect(ReceiptParser().parse(lines: ocr.lines).total == Decimal(string: "30.96"))
    }

    @Test func errorsNameTheFile() throws {
        let root = TestData.samplesFolder
        let engine = try OCREngine()
        #expect {
            try engine.recognize(imageAt: "/nonexistent/receipt.png")
        } throws: { error in
            let e = error as? ReceiptError
            return e?.code == .imageUnreadable && e?.path == "/nonexistent/receipt.png"
        }
        let path = "\(root)/receipts/freshway-market.png"
        #expect {
            try engine.recognize(imageAt: path, limits: OCRLimits(maxPixels: 1000))
        } throws: { error in
            let e = error as? ReceiptError
            return e?.code == .imageTooLarge && e?.path == path && "\(error)".contains("1000×1300")
        }
        #expect {
            try engine.recognize(imageAt: path, limits: OCRLimits(timeLimit: .milliseconds(5)))
        } throws: { error in
            (error as? ReceiptError)?.code == .timedOut
        }
        // The engine is still usable afterwards.
        #expect(try engine.recognize(imageAt: path).lines.count > 10)
    }

    /// What a test's body wrote on file descriptor 2 (the codecs print with `fprintf(stderr, …)`).
    static func standardError(of body: () throws -> Void) rethrows -> String {
        let file = NSTemporaryDirectory() + "larder-stderr-\(getpid()).txt"
        defer { try? FileManager.default.removeItem(atPath: file) }
        fflush(nil)
        let saved = dup(2)
        let capture = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        dup2(capture, 2)
        close(capture)
        defer {
            fflush(nil)
            dup2(saved, 2)
            close(saved)
        }
        try body()
        fflush(nil)
        return (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
    }

    /// The engine's tesseract settings reach tesseract under names it knows (`TessBaseAPISetVariable` ignores an
    /// unknown name): the layout analysis's fixed-pitch test tries one pitch or tesseract's five as
    /// ``OCRPreprocessing/quickPitchTest`` says, and a sample receipt reads its total either way.
    @Test(arguments: [true, false])
    func quickPitchTestReachesTesseract(quick: Bool) throws {
        var preprocessing = OCRPreprocessing.default
        preprocessing.quickPitchTest = quick
        let engine = try OCREngine(preprocessing: preprocessing)
        var range: Int32 = -1
        #expect(TessBaseAPIGetIntVariable(engine.handle, "textord_pitch_range", &range) != 0)
        #expect(range == (quick ? 0 : 2))
        let ocr = try engine.recognize(imageAt: "\(TestData.samplesFolder)/receipts/corner-grocer.jpg")
        #expect(ReceiptParser().parse(lines: ocr.lines).total != nil, "\(ocr.lines.map(\.text))")
    }

    /// Issue 11 item 14: a PNG with a damaged ancillary chunk (leptonica let libpng print "libpng warning: tEXt:
    /// CRC error") and a torn JPEG (libjpeg's "Premature end of JPEG file") are read, nothing is printed, and the
    /// codec's words come back with the result.
    @Test func codecWarningsComeBackInsteadOfBeingPrinted() throws {
        let root = try #require(TestData.samplesFolder)
        let folder = NSTemporaryDirectory() + "larder-codec-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var png = try Data(contentsOf: URL(fileURLWithPath: "\(root)/receipts/freshway-market.png"))
        // After the signature (8 bytes) and IHDR (25): a tEXt chunk whose CRC is wrong.
        png.insert(contentsOf: [0, 0, 0, 10] + Array("tEXtComment".utf8) + [0] + Array("hi".utf8) + [0, 0, 0, 0], at: 33)
        try png.write(to: URL(fileURLWithPath: folder + "/crc.png"))
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: "\(root)/receipts/corner-grocer.jpg"))
        try jpeg.prefix(jpeg.count * 3 / 4).write(to: URL(fileURLWithPath: folder + "/torn.jpg"))

        let engine = try OCREngine()
        var results: [OCRResult] = []
        let printed = try Self.standardError {
            results.append(try engine.recognize(imageAt: folder + "/crc.png"))
            results.append(try engine.recognize(imageAt: folder + "/torn.jpg"))
        }
        // fd 2 is the process's: Swift Testing reports other suites' progress there while this runs in parallel.
        let foreign = printed.split(separator: "\n").filter { line in
            !["✔", "✘", "◇", "➜", "↳", "􀟈", "􀢄", "􀄵", "􀙟"].contains { line.hasPrefix($0) }
        }
        #expect(foreign.isEmpty, "printed: \(foreign)")
        #expect(results[0].decoderWarnings == ["tEXt: CRC error"])
        #expect(ReceiptParser().parse(lines: results[0].lines).total == Decimal(string: "30.96"), "the image reads as before")
        #expect(results[1].decoderWarnings?.first == "Premature end of JPEG file", "\(results[1].decoderWarnings ?? [])")
        // A sound file reports nothing.
        #expect(try engine.recognize(imageAt: "\(root)/receipts/corner-grocer.jpg").decoderWarnings == nil)
    }

    /// A colour JPEG is decoded straight to 8-bit gray (no 32-bit image in between): the same pixels as leptonica's
    /// decoding to RGB and conversion to gray, so OCR reads what it read before.
    @Test(.integration, .sharedData("receipts-sroie"))
    func colourJPEGIsDecodedStraightToGray() throws {
        let path = "\(try #require(TestData.sroieFolder))/img/014.jpg"
        let decoded = try OCREngine.decode(imageAt: path, maxPixels: OCRLimits.default.maxPixels)
        var gray: UnsafeMutablePointer<PIX>? = decoded.pix
        defer { pixDestroy(&gray) }
        var rgb: UnsafeMutablePointer<PIX>? = pixRead(path)
        defer { pixDestroy(&rgb) }
        #expect(pixGetDepth(rgb) == 32, "SROIE 014 is a colour JPEG")
        #expect(pixGetDepth(gray) == 8)
        #expect(Int(pixGetWidth(gray)) == decoded.width && pixGetWidth(gray) == pixGetWidth(rgb))
        #expect(pixGetHeight(gray) == pixGetHeight(rgb))
        var reference: UnsafeMutablePointer<PIX>? = pixConvertTo8(rgb, 0)
        defer { pixDestroy(&reference) }
        var difference: UnsafeMutablePointer<PIX>? = pixAbsDifference(gray, reference)
        defer { pixDestroy(&difference) }
        var mean: Float = -1
        #expect(pixGetAverageMasked(difference, nil, 0, 0, 1, Int32(L_MEAN_ABSVAL), &mean) == 0)
        #expect(mean == 0, "mean difference \(mean) gray levels")
        var same: Int32 = 0
        #expect(pixEqual(gray, reference, &same) == 0 && same == 1)
    }
}

@Suite("Re-reading misread dates")
struct MisreadDateTests {
    @Test func misreadDatesAreRecognised() {
        #expect(OCREngine.hasMisreadDate("19/62/2018 16:45 5132 002 6026157"))  // month 62
        #expect(OCREngine.hasMisreadDate("REG C01 64-05-2013 16:07"))  // day 64
        #expect(OCREngine.hasMisreadDate("O6/C2/2016 20:01 1010 008"))  // letters for digits
        #expect(OCREngine.hasMisreadDate("tas SOPH GASE20 2-05-17"))  // day unpadded, month padded: a lost digit
        #expect(!OCREngine.hasMisreadDate("2-5-17 10:32"))  // neither padded
        // A four-digit year with a digit unread is no two-digit year 20.
        #expect(OCREngine.hasMisreadDate("06/07/20%6 13:48 weeiee"))
        #expect(ReceiptParser().parseDate("06/07/20%6 13:48", currency: "GBP") == nil)
        #expect(ReceiptParser().parseDate("06/07/20 13:48", currency: "GBP")?.iso == "2020-07-06")
        #expect(!OCREngine.hasMisreadDate("19/02/2018 16:45"))
        #expect(!OCREngine.hasMisreadDate("Date: 2018-03-16 13:18:48"))
        #expect(!OCREngine.hasMisreadDate("99 SPEED MART S/B"))
        // Money, not dates: mixed separators.
        #expect(!OCREngine.hasMisreadDate("s = 6/ 33.56 2.02"))
        #expect(!OCREngine.hasMisreadDate("DISC 10% 42.25 -0.25"))
    }

    /// SROIE 071's date line reads `19/62/2018` on the page; read again alone it reads `19/02/2018`.
    @Test(.integration, .sharedData("receipts-sroie"))
    func misreadDateIsReadAgain() throws {
        let folder = try #require(TestData.sroieFolder)
        let ocr = try OCREngine().recognize(imageAt: "\(folder)/img/071.jpg")
        #expect(ocr.steps.contains("reread-date(1)"), "\(ocr.steps)")
        #expect(ocr.lines.contains { $0.text.hasPrefix("19/02/2018") }, "\(ocr.lines.map(\.text))")
        #expect(!ocr.lines.contains { OCREngine.hasMisreadDate($0.text) && $0.text.contains("19/62/2018") })

        var options = OCRPreprocessing.default
        options.rereadMisreadDates = false
        let plain = try OCREngine(preprocessing: options).recognize(imageAt: "\(folder)/img/071.jpg")
        #expect(plain.lines.contains { $0.text.hasPrefix("19/62/2018") }, "\(plain.lines.map(\.text))")
    }
}
