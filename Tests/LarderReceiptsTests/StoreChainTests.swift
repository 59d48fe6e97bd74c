import Foundation
import Testing
@testable import LarderReceipts

/// The chain gazetteer as store evidence when the logo is not read, and the store-line fixes that came with it:
/// logo fragments around a name, owner lines, lone function words, fragment-only names.
@Suite("Store names: chains named elsewhere on the receipt")
struct StoreChainTests {
    @Test func aChainIsFoundByNameDomainProgrammeAndOneSlip() {
        #expect(StoreChains.chain(in: "i Panera Bread isces")?.name == "Panera Bread")
        #expect(StoreChains.chain(in: "|.chilis.com |")?.name == "Chili's")
        #expect(StoreChains.chain(in: "ExtraCare Card #: xx4474")?.name == "CVS Pharmacy")
        #expect(StoreChains.chain(in: "one. chick~fi]-a.com/forgot")?.name == "Chick-fil-A")
        #expect(StoreChains.chain(in: "Steak ’n Shake No:11")?.name == "Steak 'n Shake")
        // Short names only as whole words; a common word or a person's name is no chain.
        #expect(StoreChains.chain(in: "KFC #1234")?.name == "KFC")
        #expect(StoreChains.chain(in: "CVS / pharmacy")?.name == "CVS Pharmacy")
        #expect(StoreChains.chain(in: "MKFCX 12") == nil)
        #expect(StoreChains.chain(in: "Target: 12 items") == nil)
        #expect(StoreChains.chain(in: "Server: Lawson") == nil)
        // One slip only from nine letters on: "Cinnamon" is no Cinnabon.
        #expect(StoreChains.chain(in: "1 Cinnamon & Sugar") == nil)
        #expect(StoreChains.chainByRestOfName("DRESS FOR LESS")?.name == "Ross Dress for Less")
        #expect(StoreChains.chainByRestOfName("GRILL & BAR") == nil)
    }

    @Test func theChainReplacesATaglineOrJunkButNotACompanyLine() {
        let ross = ReceiptParser().parse(lines: ocrLines([
            ("DRESS FOR LESS", 96), ("EUREKA, CA", 93), ("Phone: 707-443-1036", 74), ("Sneakers 49.99 R", 88), ("Total $49.99", 90),
        ]))
        #expect(ross.store == "Ross Dress for Less")
        let chilis = ReceiptParser().parse(lines: ocrLines([
            ("AQUAFINA LARGE", 85), ("1 Apple Cobbler 2.50", 93), ("Total 2.50", 90), ("Visit chilis.com", 80),
        ]))
        #expect(chilis.store == "Chili's")
        // A company's line is kept when the chain is named elsewhere (a coupon, the footer)...
        let company = ReceiptParser().parse(lines: ocrLines([
            ("GOLDEN ARCHES RESTAURANTS SDN BHD", 90), ("NONG CHIK", 80), ("10/03/2013 13:57", 90),
            ("1 Coke 2.95", 90), ("Total 2.95", 90), ("Valid at participating McDonald's", 80),
        ]))
        #expect(company.store == "GOLDEN ARCHES RESTAURANTS SDN BHD")
        // ...but a brand printed under the company's legal name in the header is the shop the company runs.
        let franchise = ReceiptParser().parse(lines: ocrLines([
            ("Saleen arches Restaurants Sdn Bhd", 70), ("McDonald's Nong Chik O1(#297)", 80), ("10/03/2013 13:57", 90),
            ("1 Coke 2.95", 90), ("Total 2.95", 90),
        ]))
        #expect(franchise.store == "McDonald's")
        // A store line naming the chain stays as read.
        let shell = ReceiptParser().parse(lines: ocrLines([
            ("MARINA SHELL", 92), ("12 Harbour Rd", 90), ("01/02/2017 10:00", 90), ("Unleaded 40.00", 90), ("Total 40.00", 90),
        ]))
        #expect(shell.store == "MARINA SHELL")
    }

    @Test func aLongNameCutAtTheEdgeAndACommaForTheDotStillNameTheChain() {
        #expect(StoreChains.chain(in: "| DISTRIBUIDORA INTERNACIONAL DE ALIMENTAC")?.name == "Dia")
        #expect(StoreChains.chain(in: "DISTRIBUIDORA INTERNACIONAL") == nil)  // under three quarters of the name
        #expect(StoreChains.chain(in: "SALSA BARBACOA DIA 0.92") == nil)  // "dia" alone is a word, not the chain
        #expect(StoreEvidence.domainName("beite uuu. cottoron,con") == "cottoron")
        #expect(StoreChains.chain(in: "visit chipotle,con")?.name == "Chipotle")
        #expect(StoreChains.chain(in: "beite uuu. cottoron,con")?.name == "Cotton On")
        #expect(StoreEvidence.domainName("DENVER, CO 80202") == nil)
        #expect(StoreEvidence.domainName("Thank you, come again") == nil)
    }

    @Test func aNamingPhraseWrappedOntoTheNextLineAndATableNumber() {
        let lure = ReceiptParser().parse(lines: ocrLines([
            ("(URE br", 53), ("01/13/2014", 40), ("Clam Chowder 6.50", 76), ("Balance Due 6.50", 70),
            ("Give the gift of =", 93), ("Lure Fish House! =", 86), ("Buy a gift card today!", 77),
        ]))
        #expect(lure.store == "Lure Fish House")
        #expect(StoreEvidence.named(in: ["Thanks for shopping at", "Caltex", "Come again"])?.name == "Caltex")
        #expect(StoreEvidence.named(in: ["Thank you for your visit", "Caltex"]) == nil)
        #expect(StoreEvidence.isTableNumber("FABLES 27"))
        #expect(StoreEvidence.isTableNumber("TAFEL #85"))
        #expect(StoreEvidence.isTableNumber("MESA 4"))
        #expect(!StoreEvidence.isTableNumber("SAFEWAY 1234"))
        #expect(!StoreEvidence.isTableNumber("CABLES & MORE 12"))
    }

    @Test func logoFragmentsOwnersAndFunctionWordsAreNoName() {
        #expect(ReceiptParser.storeName("= i N y et 7 Pt 1. ; = BREWERY") == "BREWERY")
        #expect(ReceiptParser.storeName("VFS RANGOU eo Ree") == "VFS RANGOU")
        #expect(ReceiptParser.storeName("ACME FOODS Inc") == "ACME FOODS Inc")
        #expect(StoreEvidence.namesTheOwner("UNIT OF KRISHNARPAN >"))
        #expect(StoreEvidence.namesTheOwner("A division of Acme Corp"))
        #expect(!StoreEvidence.namesTheOwner("UNITED FOODS"))
        #expect(StoreEvidence.isFunctionWord("Than,"))
        #expect(!StoreEvidence.isFunctionWord("Harvard Gardens"))
        let carnatic = ReceiptParser().parse(lines: ocrLines([
            ("CARNATIC CAF", 71), ("UNIT OF KRISHNARPAN >", 92), ("27-02-2014", 80), ("PADDU 1.00 120.00 120.00", 76), ("Total 120.00", 90),
        ]))
        #expect(carnatic.store == "CARNATIC CAF")
        // A name of short fragments ("SSA") gives way to the name under it.
        let samco = ReceiptParser().parse(lines: ocrLines([
            ("| SSA", 84), ("SAMCO |", 62), ("#21, VELACHERRY MAIN ROAD", 87), ("Bill NO 142", 80), ("Dosa 60.00", 90), ("Total 60.00", 90),
        ]))
        #expect(samco.store == "SAMCO")
    }
}

@Suite("Store names: the kind of place under the name")
struct StorePlaceWordTests {
    @Test func aPlaceWordAloneUnderTheNameJoinsIt() {
        let receipt = ReceiptParser().parse(lines: ocrLines([
            ("IL10’S |", 58), ("Restaurant", 96), ("Bretonischer Ring /", 90), ("85630 Grasbrunn", 92),
            ("Datum: 10.07.13 21:52", 94), ("4x Lowenbrau 3,00 12,00", 88), ("Summe 12,00", 90),
        ]))
        #expect(receipt.store == "IL10’S Restaurant")
    }
}
