import Foundation
import Testing
@testable import LarderReceipts

/// A total misread in its one printing, repaired from the sums the receipt's other printed amounts make
/// (`TotalRepair`), and the article and charge lines that are no items or payments.
@Suite("Total repaired by the receipt's arithmetic")
struct TotalRepairTests {
    /// Lines as a burger bar's photo reads them: "TOTAL. 37 .72" read less surely than subtotal and tax.
    func burgerBar(totalConfidence: Double) -> [OCRLine] {
        ocrLines([
            ("GAS AND DELI", 90), ("T BURGER SINGLE 5.61", 90), ("T BURGER DOUBLE 15.98", 90), ("LARGE SHAKE 9.98", 90),
            ("FRENCH FRIES 4.17", 90), ("Subtotal 35.74", 88), ("Tax 2.05", 92), ("TOTAL. 37 .72", totalConfidence),
        ])
    }

    @Test func aTotalReadLessSurelyThanSubtotalAndTaxIsTheirSum() {
        let receipt = ReceiptParser().parse(lines: burgerBar(totalConfidence: 60))
        #expect(receipt.total == Decimal(string: "37.79"))
        #expect(receipt.totalEvidence?.contains("misread") == true, "\(receipt.totalEvidence ?? "-")")
    }

    @Test func aTotalReadAsSurelyIsKept() {
        // 2.05 + 35.74 may be the misreading as well: without a surer reading or the items, no repair.
        #expect(ReceiptParser().parse(lines: burgerBar(totalConfidence: 90)).total == Decimal(string: "37.72"))
    }

    @Test func aTotalTooManyGlyphsAwayIsKept() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("DINER", 90), ("SOUP 4.00", 90), ("SALAD 6.00", 90), ("Subtotal 10.00", 95), ("Tax 0.80", 95), ("TOTAL 14.31", 50),
        ]))
        #expect(receipt.total == Decimal(string: "14.31"))
    }

    @Test func aTotalPrintedTwiceAlikeIsKept() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("COB AND PEN", 90), ("1 Sliders 7.94", 90), ("1 Reuben 8.41", 90), ("Guest 1 Total: 44,50", 60),
            ("Sub-Total; 41.59", 95), ("Tax: 2.81", 95), ("Total Due: 44.50", 60),
        ]))
        #expect(receipt.total == Decimal(string: "44.50"))
    }

    @Test func taxPrintedAboveTheSubtotalIsInsideIt() {
        // "FOOD TAX" and "LIQUOR TAX" above "SUB-TOTAL 21.40": the subtotal holds them, so no subtotal + tax witness.
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("BREWERY", 90), ("1 BLUE BURGER $10.00", 90), ("1 SALMON FILET $10.00", 90), ("FOOD TAX $1.28", 95),
            ("LIQUOR TAX $0.12", 95), ("SUB-TOTAL : $21.40", 95), ("GRATUITY : $8.10", 95), ("TOTAL $29 .50", 40),
        ]))
        #expect(receipt.total == Decimal(string: "29.50"))
        #expect(receipt.items.count == 2)  // the gratuity is a charge, no item
    }

    @Test func theSubtotalNearestAboveTheTaxIsTheOneTaxIsAddedTo() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("TWISTED ROOT", 90), ("1 Turkey 5.99", 90), ("Add Cheddar 0.75", 90), ("Food Sub-Total 6.74", 96),
            ("Best Butt -0.65", 90), ("SUB TOTAL 6.09", 80), ("Sales Tax 0.56", 95), ("TOTAL: 6.69", 66),
        ]))
        #expect(receipt.total == Decimal(string: "6.65"))
    }

    @Test func anUnlabelledAmountBetweenSubtotalAndTotalIsTheTax() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("BURRITO BAR", 90), ("Chicken Burrito 6.70", 90), ("Chips & Guac 3.30", 90), ("Spring Water 4.30", 90),
            ("Subtotal 14,30", 88), ("1,32", 83), ("Take Out Total 14,62", 67),
        ]))
        #expect(receipt.total == Decimal(string: "15.62"))
    }

    @Test func aCardPaymentReadSurerRepairsTheTotal() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("LINENS", 90), ("DEPEND MENS 42.99", 90), ("WINDOW CURT 21.99", 90), ("AMOUNT: $310.81", 64), ("Visa 110.81", 92),
        ]))
        #expect(receipt.total == Decimal(string: "110.81"))
    }

    @Test func aPaymentWithADigitLessNeedsTheItems() {
        // "Amex $ 7.43" lost a digit, not the total: a shorter witness alone repairs nothing.
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("CALTEX", 90), ("01 VORTEX 98 48.421 @ 1.599 77.43", 90), ("Total includes GST $ 77,43", 60), ("Amex $ 7.43", 95),
        ]))
        #expect(receipt.total == Decimal(string: "77.43"))
    }

    @Test func aLostLeadingDigitIsRestoredWhenTheItemsAgreeWithTheWitness() {
        // "27.96" printed for 327.96, read as surely as the payment: the items (327.96) confirm cash − change
        // 327.95 and are nearer the printed glyphs.
        let witness = TotalRepair.Witness(value: Decimal(string: "327.95")!, confidence: 95, how: "tendered − change")
        let repair = TotalRepair.repair(total: Decimal(string: "27.96")!, totalConfidence: 95, witnesses: [witness],
                                        corroborations: [Decimal(string: "327.96")!], tolerance: Decimal(2) / 100)
        #expect(repair?.value == Decimal(string: "327.96"))
        #expect(repair?.evidence.contains("items agree") == true, "\(repair?.evidence ?? "-")")
        #expect(TotalRepair.repair(total: Decimal(string: "27.96")!, totalConfidence: 95, witnesses: [witness],
                                   corroborations: [], tolerance: Decimal(2) / 100) == nil)  // nothing confirms it
    }

    @Test func aRoundedTotalAndACashPaymentWithUnreadChangeAreKept() {
        let rounded = ReceiptParser().parse(lines: ocrLines([
            ("AEON", 90), ("CAR NECK 5.90", 90), ("Sub-total 17.76", 92), ("Total Sales Incl GST 17,76", 72),
            ("Total After Adj Incl GST 17.70", 85), ("CASH 50.76", 90), ("Change Amt 33.00", 90),
        ]))
        #expect(rounded.total == Decimal(string: "17.70"))
        // Cash handed over with a change line whose amount was not read is no witness of the total.
        let cash = ReceiptParser().parse(lines: ocrLines([
            ("SPEED MART", 90), ("MILO 20.80", 90), ("Total Sales (Inclusive GST) RM 20.80", 60), ("CASH RM 21,00", 95), ("CHANGE &H 20", 90),
        ]))
        #expect(cash.total == Decimal(string: "20.80"))
    }

    @Test func salesTaxPrintedAfterTheTotalIsAddedWhenItIsTheRateOfIt() {
        let lines: [(String, Double)] = [
            ("ARTIE'S DELICATESSEN", 90), ("1 Supreme Burger 16.95", 90), ("1 Pastrami Burger 15.25", 90), ("1 fountain soda 2.25", 90),
            ("2 Coffee SMALL 4.50", 90), ("1 SAMADAMS 5.50", 90), ("TOTAL: 44.45", 90),
        ]
        let added = ReceiptParser().parse(lines: ocrLines(lines + [("SALES TAX (8.875%) 3.95", 90)]))
        #expect(added.total == Decimal(string: "48.40"), "\(added.totalEvidence ?? "-")")
        // A tax-inclusive total's tax is its share (8.875 / 108.875 of it), not the rate of it: the total stays.
        let included = ReceiptParser().parse(lines: ocrLines(lines + [("GST (8.875%) 3.62", 90)]))
        #expect(included.total == Decimal(string: "44.45"))
    }

    @Test func aTotalLabelOverItsAmountIsTheTotal() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("SINCLAIR", 90), ("DATE 12/14/16", 90), ("PUMP PRODUCT PPG", 90), ("GALLONS FUEL Totar", 90), ("9.505 $19.00", 90),
        ]))
        #expect(receipt.total == 19)
        #expect(receipt.items.isEmpty, "\(receipt.items.map(\.description))")
    }

    @Test func glyphDistanceCountsTheDigitsOCRChanged() {
        #expect(TotalRepair.glyphDistance(Decimal(string: "6.69")!, Decimal(string: "6.65")!) == 1)
        #expect(TotalRepair.glyphDistance(Decimal(string: "27.96")!, Decimal(string: "327.96")!) == 1)
        #expect(TotalRepair.glyphDistance(Decimal(string: "47.96")!, Decimal(string: "47.31")!) == 2)
        #expect(TotalRepair.glyphDistance(Decimal(string: "14.31")!, Decimal(string: "10.80")!) == 3)
    }
}

@Suite("Article and charge lines")
struct ArticleLineTests {
    @Test func aProductCodeLineTakesTheNameAboveAndACardIsAnArticle() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("SUE'S HALLMARK", 90), ("PHONE: 312-540-0602", 90), ("CARD THANKS CLASSIC COUNTER", 90), ("720473578652 5,99 T", 90),
            ("CARD MDAY GRANDMOTHER", 90), ("720473462272 4.99 T", 90), ("CARD MDAY MOTHER 720473842807 6.99 T", 90),
            ("SUBTOTAL $17.97", 90), ("SALES TAX $1.84", 90), ("TOTAL $19.81", 90), ("VISA $19.81", 90),
        ]))
        #expect(receipt.items.map(\.total) == [Decimal(string: "5.99"), Decimal(string: "4.99"), Decimal(string: "6.99")])
        #expect(receipt.items.first?.description.contains("THANKS") == true, "\(receipt.items.map(\.description))")
        #expect(receipt.tenders.map(\.amount) == [Decimal(string: "19.81")])
        #expect(ReceiptParser.hasProductCode("400154607375 #UA CLUTCHFIT DRIV 27.99 R"))
        #expect(!ReceiptParser.hasProductCode("08001287 29,95 EUR 19,90"))  // a pharmacy's PZN is no UPC/EAN-13
        #expect(!ReceiptParser.hasProductCode("VISA XXXXXXXXXXXX1234"))
    }

    @Test func tipsAndServiceChargesAreChargesAndSavingsNotesNoItems() {
        #expect(ReceiptParser.summaryKind("GRATUITY : $8.10") == .tax)
        #expect(ReceiptParser.summaryKind("TIP: 8,90") == .tax)
        #expect(ReceiptParser.summaryKind("TIP $12.84") == .tax)
        #expect(ReceiptParser.summaryKind("SIRLOIN TIP 5.99") == nil)
        #expect(ReceiptParser.summaryKind("TIP GESCHIRRTUECHER 1.00") == nil)  // real's house brand
        #expect(ReceiptParser.summaryKind("1O4SERVIZIO 10% 2,80") == .tax)
        #expect(ReceiptParser.summaryKind("TOS SVC CHG $1.68") == .tax)
        #expect(ReceiptParser.isIgnorable("ITEMPRICE 12.00 YOUSAVE 9.60"))
        #expect(ReceiptParser.isIgnorable("REGULAR PRICE 1099.99"))
    }
}

@Suite("Refunds and totals whose amount was not read")
struct RefundAndUnreadTotalTests {
    /// A department store's return: every line a refund, the total printed with a trailing minus.
    @Test func aRefundTotalPrintedWithAMinusIsNegative() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("KOHL'S", 90), ("GIRLS DRESS 885872871558 33.99-A", 90), ("SUBTOTAL 101.97-", 90), ("TAX 6.88-", 90),
            ("TOTAL $108.85-", 90), ("THANK YOU FOR SHOPPING AT KOHL'S", 90),
        ]))
        #expect(receipt.total == Decimal(string: "-108.85"), "\(receipt.totalEvidence ?? "-")")
    }

    /// "Total: ($3.13)" brackets the amount; brackets also enclose amounts that are no refunds, so it stays 3.13.
    @Test func aBracketedTotalKeepsItsAmount() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("AIRPORT DELI", 90), ("LTL FRY 3.19", 90), ("Sub. Total: ($2.87)", 90), ("Tax: ($0.26)", 90), ("Total: ($3.13)", 90),
        ]))
        #expect(receipt.total == Decimal(string: "3.13"))
    }

    /// A refunded fuel prepayment: the total's amount is garbled and the cash paid back is the only amount.
    @Test func aRefundPaidOutInCashIsANegativeTotal() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("ARCO AMPM 42259", 90), ("Prepaid Fuel -5.00", 90), ("TOTAL -3.-", 60), ("CASH $ -3.29", 64),
        ]))
        #expect(receipt.total == Decimal(string: "-3.29"), "\(receipt.totalEvidence ?? "-")")
    }

    /// A Brussels restaurant bill: "Total: ©" lost its amount, and the VAT lines below it are inside the prices,
    /// so the total is the items' sum — inferred, for review.
    @Test func anUnreadTotalUnderTaxInclusiveItemsIsTheirSum() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("Restaurant Scheltema", 90), ("MENU CARTE 32.00 € 32,00", 85), ("1/2 GD PEY LESC € 23,00", 93), ("1/2 VITTEL e 5,50", 80),
            ("Total: ©", 87), ("TVA 21 % 28,50", 89), ("TVA 12 % 32,00", 84),
        ]))
        #expect(receipt.total == Decimal(string: "60.50"), "\(receipt.totalEvidence ?? "-")")
        #expect(receipt.totalInferred)
    }

    /// "Tax 1:" lost its amount above "TOTAL:": something unread was added to the items, so no total is inferred.
    @Test func anUnreadTaxAboveAnUnreadTotalLeavesItUnknown() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("Achiote Restaurant", 90), ("1 Pernil Lunch 8.59", 92), ("1 Chuleta Lunch 8.59", 92), ("1 Parcha 3.99", 87),
            ("Tax 1:", 96), ("TOTAL:", 84),
        ]))
        #expect(receipt.total == nil, "\(receipt.totalEvidence ?? "-")")
    }
}
