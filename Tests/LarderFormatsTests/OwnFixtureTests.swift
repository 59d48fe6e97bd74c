import Foundation
import LarderRecipes
import Testing

@testable import LarderFormats

/// Small fixtures written for these tests: CSV quirks, DOS bytes, MasterCook XML.
@Suite struct OwnFixtureTests {
    @Test func csvReadsQuotedNewlinesAndReportsAShiftedRowByNumber() {
        let csv = "Title,Ingredients,Directions,Servings\r\n"
            + "Pea Soup,\"1 cup peas\n2 cups stock\",\"Simmer.\nBlend.\",2\r\n"
            + "Broken,\"1 egg\",Fry.,1,extra,fields\r\n"
            + "Toast,\"2 slices bread\",Toast.,1\r\n"
        let (recipes, errors) = CSVRecipes.parse(csv)
        #expect(recipes.map(\.draft.title) == ["Pea Soup", "Toast"])
        #expect(recipes[0].draft.ingredientLines == ["1 cup peas", "2 cups stock"])
        #expect(recipes[0].draft.steps == ["Simmer.", "Blend."])
        #expect(errors.count == 1)
        #expect(errors.first?.row == 2)
        #expect(errors.first?.line == 5)  // the quoted newlines of row 1 put row 2 on line 5
        #expect(errors.first?.message.contains("row 2") == true)
    }

    @Test func dosBytesDecodeAsCodePage437AndWindowsBytesAs1252() {
        // "Crème brûlée" in cp437: è = 0x8A, û = 0x96, é = 0x82.
        let dos = Data("Cr".utf8) + Data([0x8A]) + Data("me br".utf8) + Data([0x96]) + Data("l".utf8) + Data([0x82, 0x65])
        #expect(TextBytes.decodeReporting(dos) == ("Crème brûlée", .cp437))
        // “Chili” in Windows-1252 (0x93, 0x94) next to é (0xE9).
        let windows = Data([0x93]) + Data("Chili".utf8) + Data([0x94, 0x20, 0xE9])
        #expect(TextBytes.decodeReporting(windows) == ("“Chili” é", .windows1252))
        #expect(TextBytes.decodeReporting(Data("plain".utf8)) == ("plain", .utf8))
    }

    @Test func masterCookXMLWithTheRejectedDeclarationAndWindowsBytes() throws {
        var xml = Data("<?xml version=\"1.0\" standalone=\"yes\" encoding=\"ISO-8859-1\"?>\r\n<mx2 source=\"test\">\r\n".utf8)
        xml += Data("<RcpE name=\"Jalape".utf8) + Data([0xF1]) + Data("o Dip\" author=\"Kim\">\r\n<Serv qty=\"4\"/>\r\n".utf8)
        xml += Data("<CatS><CatT>\r\nDips\r\n</CatT></CatS>\r\n<IngR name=\"cream cheese\" unit=\"cup\" qty=\"1\"></IngR>\r\n".utf8)
        xml += Data("<IngR name=\"jalape".utf8) + Data([0xF1]) + Data("o\" qty=\"2\"><IPrp>chopped</IPrp></IngR>\r\n".utf8)
        xml += Data("<DirS><DirT>\r\nStir it all together \u{0}".utf8).dropLast() + Data([0x93]) + Data("well".utf8) + Data([0x94]) + Data(".\r\n</DirT></DirS>\r\n</RcpE>\r\n</mx2>\r\n".utf8)
        let recipes = try MX2Reader.parse(xml)
        #expect(recipes.count == 1)
        let r = try #require(recipes.first)
        #expect(r.title == "Jalapeño Dip")
        #expect(r.categories == ["Dips"])
        #expect(r.ingredients.map(\.line) == ["1 cup cream cheese", "2 jalapeño, chopped"])
        #expect(r.directions == ["Stir it all together “well”."])
        #expect(r.draft.yield == "4")
    }

    @Test func htmlExportsAreReportedNotSilentlyDropped() {
        let outcome = RecipeImport.read([ExportMember(path: "export/recipes.html", data: Data("<html><div class=recipe></div></html>".utf8))])
        #expect(outcome.recipes.isEmpty)
        #expect(outcome.errors.map(\.member) == ["export/recipes.html"])
    }
}
