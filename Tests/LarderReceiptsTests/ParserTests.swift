import Foundation
import Testing
@testable import LarderOCR
@testable import LarderReceipts

@Suite("ReceiptParser")
struct ParserTests {
    let parser = ReceiptParser()

    static let sample = """
        FRESHWAY MARKET
        1420 HARBOR AVE
        SPRINGFIELD, OR 97477
        TEL (541) 555-0142
        DATE 03/14/2026 14:22
        GOYA GOLDEN CORN 150Z 1.29
        BNLS SKNLS CHKN BRST
        2.134 1b @ 3.99/1b 8.51
        BANANAS 2.02 LB @ 0.60/LB 1.21
        LIMES 3 @ 0.50 1.50
        AVOCADO 2 x 1.99 3.98
        YOGURT CUPS QTY 3 2.97
        COUPON GOYA CORN -0.50
        SUBTOTAL 18.96
        TAX 6.00% 1.20
        TOTAL 20.16
        VISA 20.16
        CHANGE 0.00
        THANK YOU
        """

    @Test func headerAndDate() {
        let r = parser.parse(text: Self.sample)
        #expect(r.store == "FRESHWAY MARKET")
        #expect(r.address == "1420 HARBOR AVE, SPRINGFIELD, OR 97477")
        #expect(r.date?.iso == "2026-03-14")
        #expect(r.date?.ambiguous == false)
        #expect(r.time == "14:22")
        #expect(r.currency == "USD")
    }

    @Test func weighedItemsOnTwoLinesAndOne() throws {
        let r = parser.parse(text: Self.sample)
        let chicken = try #require(r.items.first { $0.description == "BNLS SKNLS CHKN BRST" })
        #expect(chicken.quantity == Decimal(string: "2.134"))
        #expect(chicken.unit == "lb")
        #expect(chicken.unitPrice == Decimal(string: "3.99"))
        #expect(chicken.total == Decimal(string: "8.51"))
        #expect(chicken.lineNumbers == [7, 8])
        let bananas = try #require(r.items.first { $0.description == "BANANAS" })
        #expect(bananas.quantity == Decimal(string: "2.02"))
        #expect(bananas.unitPrice == Decimal(string: "0.60"))
        #expect(bananas.total == Decimal(string: "1.21"))
        let kg = parser.parse(text: "APPLES\n1.234 kg @ 2.50/kg 3.09\nTOTAL 3.09")
        #expect(kg.items.first?.unit == "kg")
        #expect(kg.items.first?.quantity == Decimal(string: "1.234"))
    }

    @Test func countsAtAndTimesAndQty() throws {
        let r = parser.parse(text: Self.sample)
        let limes = try #require(r.items.first { $0.description == "LIMES" })
        #expect(limes.quantity == 3)
        #expect(limes.unit == "each")
        #expect(limes.unitPrice == Decimal(string: "0.50"))
        #expect(limes.total == Decimal(string: "1.50"))
        let avocado = try #require(r.items.first { $0.description == "AVOCADO" })
        #expect(avocado.quantity == 2)
        #expect(avocado.unitPrice == Decimal(string: "1.99"))
        let yogurt = try #require(r.items.first { $0.description == "YOGURT CUPS" })
        #expect(yogurt.quantity == 3)
        // Name line, then "2 @ 1.99" with the total on the following line's form.
        let split = parser.parse(text: "GARLIC BULB\n3 @ 0.50 1.50\nTOTAL 1.50")
        #expect(split.items.first?.description == "GARLIC BULB")
        #expect(split.items.first?.quantity == 3)
        #expect(split.items.first?.total == Decimal(string: "1.50"))
    }

    @Test func couponsAttachToTheItemTheyNameOrFollow() throws {
        let r = parser.parse(text: Self.sample)
        let coupon = try #require(r.discounts.first)
        #expect(coupon.amount == Decimal(string: "0.50"))
        #expect(coupon.attachment == "names item")
        #expect(r.items[coupon.itemIndex!].description == "GOYA GOLDEN CORN 15OZ")
        #expect(r.items[coupon.itemIndex!].discount == Decimal(string: "0.50"))
        let follows = parser.parse(text: "PAPER TOWELS 2PK 4.79\nMEMBER DISCOUNT -1.50\nTOTAL 3.29")
        #expect(follows.discounts.first?.itemIndex == 0)
        #expect(follows.discounts.first?.attachment == "follows item")
        let trailingMinus = parser.parse(text: "MILK 3.89\nSTORE COUPON 1.00-\nTOTAL 2.89")
        #expect(trailingMinus.discounts.first?.amount == 1)
        #expect(trailingMinus.items.count == 1)
    }

    @Test func summaryLinesAreNotItems() {
        let r = parser.parse(text: Self.sample)
        #expect(r.items.count == 6)
        #expect(!r.items.contains { ["SUBTOTAL", "TAX", "TOTAL", "VISA", "CHANGE"].contains(where: $0.description.hasPrefix) })
        #expect(r.subtotal == Decimal(string: "18.96"))
        #expect(r.tax == Decimal(string: "1.20"))
        #expect(r.total == Decimal(string: "20.16"))
        #expect(r.tenders == [ReceiptTender(kind: "card", text: "VISA 20.16", amount: Decimal(string: "20.16")!)])
        #expect(r.change == 0)
        #expect(r.lines.first { $0.text == "TOTAL 20.16" }?.kind == .total)
    }

    @Test func arithmeticCheckPasses() {
        let r = parser.parse(text: Self.sample)
        #expect(r.needsReview == false, "\(r.reviewReasons)")
    }

    @Test func mismatchingTotalGoesToReviewWithBothNumbers() {
        let r = parser.parse(text: "SHOP\n01/05/2026\nBREAD 2.50\nMILK 3.00\nTAX 0.00\nTOTAL 9.99\nCASH 10.00")
        #expect(r.needsReview)
        let reason = r.reviewReasons.first { $0.contains("total mismatch") }
        #expect(reason?.contains("5.50") == true)
        #expect(reason?.contains("9.99") == true)
        let noTotal = parser.parse(text: "SHOP\nBREAD 2.50")
        #expect(noTotal.reviewReasons.contains("no total found"))
    }

    @Test(arguments: [
        ("DATE 03/14/2026", "2026-03-14", false),
        ("14/03/2026 09:00", "2026-03-14", false),
        ("2026-03-14", "2026-03-14", false),
        ("14 Mar 2026", "2026-03-14", false),
        ("Mar 14, 2026 2:22 PM", "2026-03-14", false),
        ("DATE 03-14-26", "2026-03-14", false),
        ("05-AUG-2017", "2017-08-05", false),
        ("DATE 03/04/2026", "2026-03-04", true),
    ])
    func dateFormats(text: String, iso: String, ambiguous: Bool) {
        let r = parser.parse(text: "SHOP\n\(text)\nBREAD 1.00\nTOTAL 1.00")
        #expect(r.date?.iso == iso)
        #expect(r.date?.ambiguous == ambiguous)
    }

    @Test func ambiguousDatesFollowConfigurationOrCurrency() {
        let dayFirst = ReceiptParser(configuration: .init(dateOrder: .dayFirst))
        let r = dayFirst.parse(text: "SHOP\n03/04/2026\nBREAD 1.00\nTOTAL 1.00")
        #expect(r.date?.iso == "2026-04-03")
        #expect(r.date?.resolution == "day-first by configuration")
        #expect(r.reviewReasons.contains { $0.hasPrefix("ambiguous date 03/04/2026") })
        let pounds = parser.parse(text: "SHOP\n03/04/2026\nBREAD £1.00\nTOTAL £1.00")
        #expect(pounds.currency == "GBP")
        #expect(pounds.date?.iso == "2026-04-03")
    }

    @Test func times() {
        #expect(ReceiptParser.parseTime("2:22 PM") == "14:22")
        #expect(ReceiptParser.parseTime("10:43AM") == "10:43")
        #expect(ReceiptParser.parseTime("12:05 AM") == "00:05")
        #expect(ReceiptParser.parseTime("TIME 00:06:00") == "00:06")
    }

    @Test func ocrConfusions() throws {
        let r = parser.parse(text: "SHOP\n2026-01-05\nCHEDDAR SHARP 80Z 3.4S\nGROUND BEEF\n1.50 1b @ 4.00/1b 6,00\nTOTAL 9.4S")
        #expect(r.items.first?.description == "CHEDDAR SHARP 8OZ")
        #expect(r.items.first?.total == Decimal(string: "3.45"))
        let beef = try #require(r.items.last)
        #expect(beef.unit == "lb")
        #expect(beef.total == 6)
        #expect(r.total == Decimal(string: "9.45"))
        #expect(r.needsReview == false, "\(r.reviewReasons)")
    }

    @Test func malaysianReceipt() {
        let r = parser.parse(text: """
            99 SPEED MART S/B (519537-X)
            LOT P.T. 2811, JALAN ANGSA,
            24-01-18 10:43AM
            1973 GARBAGE BAG (BLUE) RM1.25 S
            1974 GARBAGE BAG (GREEN) RM1.25 S
            TOTAL SALES (INCLUSIVE GST) RM 2.50
            CASH RM 5.00
            CHANGE RM 2.50
            """)
        #expect(r.currency == "MYR")
        #expect(r.date?.iso == "2018-01-24")
        #expect(r.total == Decimal(string: "2.50"))
        #expect(r.items.count == 2)
        #expect(r.time == "10:43")
    }
}
