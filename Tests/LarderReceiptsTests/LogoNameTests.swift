import Foundation
import Testing
@testable import LarderReceipts

/// When the logo band above the address is read again for the store's name, and which readings of it count as a
/// name (`LogoName`, used by the OCR engine's `LogoBand.swift`).
@Suite("Store names from the logo band")
struct LogoNameTests {
    private func words(_ items: [(String, Double, Bool)]) -> [LogoName.Word] {
        items.map { LogoName.Word(text: $0.0, confidence: $0.1, inDictionary: $0.2) }
    }

    @Test func theBandEndsAtTheFirstAddressOrPhoneLine() {
        let lines = ocrLines([("pdllip", 21), ("TOWER.", 40), ("KELLS CO. MEATH", 90), ("TELEPHONE 046 924 0144", 93)])
        #expect(LogoName.bandEnd(lines) == 3)
        #expect(LogoName.bandEnd(ocrLines([("Burger 4.99", 90), ("Total 4.99", 90)])) == nil)
    }

    @Test func aDoubtfulOrMissingNameWantsTheBandAConfidentOneDoesNot() {
        let doubtful = ocrLines([("ten N", 45), ("12 Main Street", 90), ("Tel 555-123-4567", 90), ("Burger 4.99", 90),
                                 ("Total 4.99", 90)])
        #expect(LogoName.need(doubtful) == .doubtful)
        let confident = ocrLines([("Caltex Central Myrtleford", 88), ("158 Myrtle St.", 95), ("Fuel 40.00", 90),
                                  ("Total 40.00", 90)])
        #expect(LogoName.need(confident) == nil)
        let underJunk = ocrLines([("“oO", 30), ("Gourmet Kitchen", 83), ("5800 Northgate Drive", 82),
                                  ("Burrito 7.95", 90), ("Total 7.95", 90)])
        #expect(LogoName.need(underJunk) == .underJunk)
        // Another line names the business: nothing to read.
        let thanked = doubtful + ocrLines([("Thanks for shopping at Caltex", 90)])
        #expect(LogoName.need(thanked) == nil)
    }

    @Test func onlyNameLikeReadingsAreTaken() {
        #expect(LogoName.accepted(words([("THE", 90, true), ("ROUND", 88, true), ("TOWER", 91, true)]), need: .doubtful)
            == "THE ROUND TOWER")
        #expect(LogoName.accepted(words([("Delicacy", 80, true)]), need: .doubtful) == "Delicacy")
        // Junk, low confidence, non-words, an address: no name.
        #expect(LogoName.accepted(words([("izOSs", 60, false)]), need: .doubtful) == nil)
        #expect(LogoName.accepted(words([("pdllip", 75, false)]), need: .doubtful) == nil)
        #expect(LogoName.accepted(words([("Delicacy", 55, true)]), need: .doubtful) == nil)
        #expect(LogoName.accepted(words([("12", 90, false), ("Main", 90, true), ("Street", 90, true)]), need: .doubtful) == nil)
        #expect(LogoName.accepted(words([("3%&#", 90, false), ("ab", 90, false)]), need: .doubtful) == nil)
        // Under a confident name only a chain of the gazetteer is taken.
        #expect(LogoName.accepted(words([("Delicacy", 90, true)]), need: .underJunk) == nil)
        #expect(LogoName.accepted(words([("CHIPOTLE", 80, false)]), need: .underJunk) == "Chipotle")
    }
}
