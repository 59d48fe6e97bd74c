import Foundation
import Testing
@testable import LarderPages
@testable import LarderRecipes

/// Saved pages in the forms browsers write besides plain HTML, and the pre-parse filter that empties scripts.
@Suite struct SavedPageFormTests {
    /// Quoted-printable as Chrome writes it: `=` and bytes over 126 as `=XX`, lines soft-broken at 76 with `=`.
    static func quotedPrintable(_ text: String) -> String {
        var out = "", line = ""
        for byte in text.utf8 {
            let piece = byte == 0x0A ? "\r\n" : (byte == 0x3D || byte > 126 || byte < 0x20) ? String(format: "=%02X", byte) : String(UnicodeScalar(byte))
            if piece == "\r\n" {
                out += line + "\r\n"
                line = ""
                continue
            }
            if line.count + piece.count > 75 {
                out += line + "=\r\n"
                line = ""
            }
            line += piece
        }
        return out + line
    }

    static func mhtml(_ html: String) -> Data {
        let boundary = "----MultipartBoundary--k3xY9qLm2----"
        let message = """
            From: <Saved by Blink>\r
            Snapshot-Content-Location: https://example.org/crepes/\r
            Subject: =?utf-8?Q?Cr=C3=AApes?=\r
            Date: Mon, 23 Nov 2026 21:00:00 -0000\r
            MIME-Version: 1.0\r
            Content-Type: multipart/related;\r
            \ttype="text/html";\r
            \tboundary="\(boundary)"\r
            \r
            \r
            --\(boundary)\r
            Content-Type: text/html\r
            Content-ID: <frame-1@mhtml.blink>\r
            Content-Transfer-Encoding: quoted-printable\r
            Content-Location: https://example.org/crepes/\r
            \r
            \(quotedPrintable(html))\r
            --\(boundary)\r
            Content-Type: image/png\r
            Content-Transfer-Encoding: base64\r
            Content-Location: https://example.org/crepe.png\r
            \r
            iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==\r
            --\(boundary)--\r

            """
        return Data(message.utf8)
    }

    @Test func mhtmlPageIsReadThroughItsHTMLPart() throws {
        let html = page(
            head: #"<link rel="canonical" href="https://example.org/crepes/">"#
                + ldJSON(#"""
                {"@context": "https://schema.org", "@type": "Recipe", "name": "Crêpes Suzette",
                 "recipeIngredient": ["250 g plain flour", "3 eggs", "500 ml milk", "1 orange, zested — about 1 tbsp of zest, very finely grated so it melts"],
                 "recipeInstructions": [{"@type": "HowToStep", "text": "Whisk everything to a smooth batter."}, {"@type": "HowToStep", "text": "Fry thin crêpes in butter."}]}
                """#),
            body: #"<h1 class="title">Crêpes Suzette</h1><p style="color: red">A=B</p>"#)
        let data = Self.mhtml(html)
        let decoded = try #require(MHTML.html(in: data))
        #expect(String(decoding: decoded.html, as: UTF8.self) == html.replacingOccurrences(of: "\n", with: "\r\n"))
        let rs = try PageReader().recipes(in: data, file: "crepes.mhtml", sha256: String(repeating: "0", count: 64))
        let r = try #require(rs.first)
        #expect(r.title == "Crêpes Suzette")
        #expect(r.allIngredients.map(\.text).last == "1 orange, zested — about 1 tbsp of zest, very finely grated so it melts")
        #expect(r.steps.map(\.text) == ["Whisk everything to a smooth batter.", "Fry thin crêpes in butter."])
        #expect(r.source.url == "https://example.org/crepes/")
    }

    @Test func plainHTMLIsNotTakenForMIME() {
        #expect(MHTML.html(in: Data(page(body: "<p>Content-Type: text/html MIME-Version: 1.0</p>").utf8)) == nil)
    }

    @Test func scriptsStylesAndDrawingsAreEmptiedBeforeParsing() throws {
        let html = page(
            head: #"<style>p { content: "</p><p>not text"; }</style>"# + ldJSON(#"{"@type": "Recipe", "name": "Kept", "recipeIngredient": ["1 egg"]}"#),
            body: #"""
            <!-- <script> a comment is not a script </script> --><p data-x="<script>">One</p>
            <script>document.write("<div>not text</div>"); if (a < b) {}</script>
            <SCRIPT type="text/javascript">var x = "</div>";</SCRIPT >
            <p>Two <svg viewBox="0 0 1 1"><text>drawn</text><path d="M0 0"/></svg>three</p>
            """#)
        let filtered = try #require(RawContentFilter.filter(Data(html.utf8)))
        let text = String(decoding: filtered, as: UTF8.self)
        #expect(!text.contains("not text") && !text.contains("drawn") && !text.contains("var x"))
        #expect(text.contains(#""name": "Kept""#) && text.contains("a comment is not a script"))
        let reading = try PageReader().read(Data(html.utf8))
        #expect(reading.lines.filter { !$0.isEmpty } == ["One", "Two three"])
        #expect(reading.page.data.count == 1)
    }

    @Test func anUnclosedScriptIsLeftToLibxml2() {
        #expect(RawContentFilter.filter(Data(page(body: "<p>a</p><script>var a = 1;").utf8)) == nil)
    }
}

/// Structure the page readers use beyond schema.org's fields.
@Suite struct PageStructureTests {
    @Test func ingredientHeadingLinesBecomeGroups() throws {
        let html = page(
            head: ldJSON(#"""
                {"@type": "Recipe", "name": "Pasta with Tuile",
                 "recipeIngredient": ["For the tuile:", "50 g parmesan, grated", "For the pasta:", "200 g spaghetti", "1 tbsp butter"],
                 "recipeInstructions": "Bake the parmesan in small heaps.\nBoil the pasta and toss it in the butter."}
                """#),
            body: "<h1>Pasta with Tuile</h1>")
        let r = try #require(try recipes(html).first)
        #expect(r.ingredientGroups.map(\.name) == ["For the tuile", "For the pasta"])
        #expect(r.allIngredients.map(\.text) == ["50 g parmesan, grated", "200 g spaghetti", "1 tbsp butter"])
    }

    @Test func aHeadingShownOutsideTheListStartsAGroup() throws {
        let html = page(
            head: ldJSON(#"""
                {"@type": "Recipe", "name": "Meatballs",
                 "recipeIngredient": ["500 g minced beef", "1 egg", "Sauce", "400 g tomatoes", "salt"],
                 "recipeInstructions": "Roll the meatballs.\nSimmer them in the sauce."}
                """#),
            body: "<h1>Meatballs</h1><ul><li>500 g minced beef</li><li>1 egg</li></ul><h4>Sauce</h4><ul><li>400 g tomatoes</li><li>salt</li></ul>")
        let r = try #require(try recipes(html).first)
        #expect(r.ingredientGroups.map(\.name) == [nil, "Sauce"])
        #expect(r.allIngredients.map(\.text) == ["500 g minced beef", "1 egg", "400 g tomatoes", "salt"])
    }

    @Test func aListedLineWithoutANumberStaysAnIngredient() throws {
        let html = page(
            head: ldJSON(#"{"@type": "Recipe", "name": "Salad", "recipeIngredient": ["1 lettuce", "Salt and pepper", "2 tbsp oil"], "recipeInstructions": "Toss."}"#),
            body: "<ul><li>1 lettuce</li><li>Salt and pepper</li><li>2 tbsp oil</li></ul>")
        let r = try #require(try recipes(html).first)
        #expect(r.ingredientGroups.count == 1)
        #expect(r.allIngredients.count == 3)
    }

    @Test func furnitureIsNotVisibleText() throws {
        let reading = try PageReader().read(Data(page(body: #"""
            <div class="content-sidebar-wrap"><article><h2>Lemonade</h2><p>Squeeze the lemons.</p></article>
            <div id="comments" class="comments-area"><p>Great recipe!</p></div>
            <div class="share-buttons">Pin it</div><div role="complementary">Popular posts</div>
            <div class="related-posts"><p>Iced tea</p></div></div>
            """#).utf8))
        #expect(reading.lines.filter { !$0.isEmpty } == ["## Lemonade", "Squeeze the lemons."])
    }
}
