import Foundation
import LarderReceipts

/// What the parser makes of one reading of a receipt, and whether a further (expensive) reading could still
/// help. ``OCREngine`` reads an image once, then reads it again — as a photo, rectified, price cells and the
/// total line alone — only while this says the reading is unsure: the receipt's own arithmetic is the check.
struct ReadingCheck {
    /// The parser read a total (one inferred from subtotal + tax, its own line's amount unread, does not count:
    /// a further reading may still read it).
    var hasTotal: Bool
    /// The parser found a date.
    var hasDate: Bool
    /// A total that the items agree with (items less discounts plus tax, the parser's `total mismatch` check),
    /// with at least one item and every item's price read from its line. When it holds, no price can be missing or misread without the sum showing it.
    var addsUp: Bool

    /// The total line is worth reading again (``OCREngine/rereadTotal(_:in:)``): there is no total, or the total
    /// disagrees with the one the other amounts imply (``OCREngine/expectedTotal(_:)``) by at most
    /// ``misreadDigits`` digits — a misread total ("141.58" for 141.50). A total further off than that is not a
    /// misreading a re-read of its line could fix (on SROIE it was mostly items the parser did not find), so its
    /// line is not read again.
    var wantsTotalReread: Bool

    /// At most this many digits of a printed total differ from the implied total when the total was misread.
    static let misreadDigits = 2

    /// The parse the check was made from: the re-reads that parse the same lines take it from here rather than
    /// parsing them again.
    let receipt: ParsedReceipt

    /// Parses `lines` and checks the result.
    init(_ lines: [OCRLine]) {
        self.init(ReceiptParser().parse(lines: lines))
    }

    /// Checks an already parsed receipt.
    init(_ receipt: ParsedReceipt) {
        self.receipt = receipt
        hasTotal = receipt.total != nil && !receipt.totalInferred
        hasDate = receipt.date != nil
        // A price the parser supplied (the total less the other items, or the same product's price) agrees with
        // the total by construction: such a reading does not add up until its prices are read.
        addsUp = hasTotal && !receipt.items.isEmpty
            && !receipt.hasSuppliedPrices && !receipt.reviewReasons.contains { $0.hasPrefix("total mismatch") }
        if hasTotal, let total = receipt.total {
            wantsTotalReread = !addsUp && OCREngine.expectedTotal(receipt).map { Self.couldBeMisread(total, as: $0) } == true
        } else {
            wantsTotalReread = true
        }
    }

    /// Whether `printed` could be `expected` with at most ``misreadDigits`` digits misread, dropped or added
    /// (edit distance over the amounts' digits, both to the cent).
    static func couldBeMisread(_ printed: Decimal, as expected: Decimal) -> Bool {
        func digits(_ amount: Decimal) -> [Character] {
            Array(String(format: "%.2f", NSDecimalNumber(decimal: amount).doubleValue).filter(\.isNumber))
        }
        return EditDistance.levenshtein(digits(printed), digits(expected)) <= misreadDigits
    }

    /// A total, a date and items that add up to the total: nothing a further reading is run for.
    var isSure: Bool { hasTotal && hasDate && addsUp }

    /// Whether to read the image again as a photo (``OCREngine/readAsPhoto(_:paper:firstLines:path:limits:started:pageSegmentation:)``).
    /// Without a total or a date, always. A photo whose paper is smaller than the frame (`paperFound`) also
    /// when its items do not add up to the total; a scan that has a total and a date is not read again (on
    /// SROIE, the photo reading of scans whose items did not add up lost as many totals as it gained).
    func wantsPhotoReading(paperFound: Bool) -> Bool {
        !hasTotal || !hasDate || (paperFound && !addsUp)
    }

    /// Whether to read price cells again (``OCREngine/rereadMissingPrices(_:in:parsed:)``): only when the items do not
    /// already add up to the total.
    var wantsPriceRereads: Bool { !addsUp }
}
