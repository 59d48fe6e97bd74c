import Foundation
import LarderTestSupport
import Testing
@testable import LarderEvaluation
@testable import LarderOCR
@testable import LarderReceipts

/// The paper's geometry on real phone photos from `shared/data/receipts-photos` (skipped when absent), with the
/// real OCR. Run with OMP_THREAD_LIMIT=1.
@Suite("Paper geometry on real photos", .serialized, .integration, .sharedData("receipts-photos"))
struct PaperPhotoTests {
    /// A receipt lying slanted on a table, wholly inside the frame.
    static let slanted = "Image_36_15_ed463607f40cd4e1ed6d21c71684b0cfd3f1ece5"
    /// A receipt whose bottom edge is torn and runs close to the frame: no clear quadrilateral.
    static let torn = "Image_1_0_40"

    @Test func aSlantedReceiptIsAClearQuadrilateralAndItsRectifiedReadingIsChosenByItsParse() throws {
        let folder = try #require(TestData.photosFolder)
        let found = try #require(OCREngine.paperOutline(imageAt: "\(folder)/\(Self.slanted).jpg"))
        let quad = try #require(found.quad, "paper at \(found.rect) without a clear outline")
        #expect(PaperGeometry.isSlanted(quad))
        #expect(PaperGeometry.angles(quad).allSatisfy { abs($0 - 90) < 20 }, "\(PaperGeometry.angles(quad))")

        let ocr = try OCREngine().recognize(imageAt: "\(folder)/\(Self.slanted).jpg")
        // The rectified reading was made; the cropped one only when the rectified one was unsure (a total, a
        // date and items adding up: "rectified-sure"), and then both were scored and the better one kept.
        let photo = try #require(ocr.steps.first { $0.hasPrefix("photo") }, "\(ocr.steps)")
        #expect(photo.contains("rectify("), "\(photo)")
        #expect(photo.contains("rectified-sure") || photo.contains("cropped ") || photo.contains("rectified "), "\(photo)")
        let label = try ReceiptEvaluation.projectLabel(at: "\(folder)/\(Self.slanted).json")
        let receipt = ReceiptParser().parse(lines: ocr.lines)
        #expect(receipt.total.flatMap { Double("\($0)") } == label.total, "\(ocr.steps)")
    }

    @Test func aTornReceiptIsCroppedNotRectified() throws {
        let folder = try #require(TestData.photosFolder)
        let found = try #require(OCREngine.paperOutline(imageAt: "\(folder)/\(Self.torn).jpg"))
        #expect(found.quad == nil, "\(String(describing: found.quad))")
    }
}

/// Dewarping on a real curled receipt from `shared/data/receipts-photos` (skipped when absent), with the real OCR.
@Suite("Dewarp on a real photo", .serialized, .integration, .sharedData("receipts-photos"))
struct DewarpPhotoTests {
    /// A receipt held curled over a knee: its lines bend by about a text height; read straightened, its date
    /// ("9/16/11", which the curled reading garbles) is read.
    static let curled = "Image_77_6_a9575733a799643b9467454bfdbb131187913283"

    @Test func aCurledReceiptIsStraightenedAndItsDateRead() throws {
        let folder = try #require(TestData.photosFolder)
        let ocr = try OCREngine().recognize(imageAt: "\(folder)/\(Self.curled).jpg")
        let photo = try #require(ocr.steps.first { $0.hasPrefix("photo") }, "\(ocr.steps)")
        let bend = try #require(photo.firstMatch(of: /dewarp\(bend ([0-9.]+)/).flatMap { Double($0.1) }, "\(photo)")
        #expect(bend >= Dewarp.minimumBend)
        #expect(photo.contains("dewarped"), "\(photo)")
        let label = try ReceiptEvaluation.projectLabel(at: "\(folder)/\(Self.curled).json")
        let receipt = ReceiptParser().parse(lines: ocr.lines)
        #expect(receipt.date?.iso == label.date, "\(ocr.lines.map(\.text))")
    }
}
