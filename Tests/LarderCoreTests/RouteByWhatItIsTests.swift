import Foundation
import LarderRecipes
import Testing

@testable import LarderCore
@testable import LarderStages

/// `route` decides by what the document is, in any language (issue 32): schema.org data, language-free signals,
/// the recipe parser's reading; unsure documents go to review with their signals.
@Suite("route by what the document is")
struct RouteByWhatItIsTests {
    func text(_ text: String, format: DocumentFormat = .text, webPage: WebPage? = nil) -> ExtractOutput {
        ExtractOutput(
            format: format, pages: [PDFPageText(number: 1, width: 0, height: 0, text: text, spans: [])], needsOCR: false,
            webPage: webPage)
    }

    @Test func anEmptyAppShellWithARecipeInJSONLDIsARecipe() {
        let node = WebPageNode(
            json: #"{"@context": "https://schema.org", "@type": "Recipe", "name": "Stamppot", "recipeIngredient": ["1 kg aardappelen"]}"#,
            origin: "ld+json script 1")
        let routed = RouteStage.route(text("", format: .html, webPage: WebPage(title: "Stamppot", data: [node])))
        #expect(routed.route == .recipe)
        #expect(routed.signals.contains { $0.contains("schema.org Recipe") })
        // An Article alone is no recipe by itself.
        let article = WebPageNode(json: #"{"@type": "Article", "name": "News"}"#, origin: "ld+json script 1")
        #expect(RouteStage.route(text("", format: .html, webPage: WebPage(data: [article]))).route == .unknown)
    }

    @Test func aJSONDocumentWithASchemaRecipeIsARecipe() {
        let json = #"{"@graph": [{"@type": "WebPage"}, {"@type": ["Recipe"], "name": "Soup"}]}"#
        #expect(RouteStage.route(text(json, format: .json)).route == .recipe)
    }

    /// Polish: no English word, but numbered steps, a cooking time and an oven temperature.
    @Test func languageFreeSignalsRouteARecipe() {
        let polish = """
            Sernik
            Składniki
            1 kg twarogu
            5 jajek
            Przygotowanie
            1. Zmiksuj twaróg z jajkami.
            2. Piecz w piekarniku 60 minut w 170°C.
            """
        let routed = RouteStage.route(text(polish))
        #expect(routed.route == .recipe)
        #expect(routed.signals.contains("recipe word 'składniki'"))
    }

    @Test func numberedStepsTimeAndTemperatureAreSignalsOfTheirOwn() {
        var scores = RouteStage.Scores()
        RouteStage.scoreLanguageFree("1. Mix it all.\n2. Bake 25 min at 180 °C.", into: &scores)
        #expect(scores.recipe == 3, "\(scores.signals)")
        var none = RouteStage.Scores()
        RouteStage.scoreLanguageFree("Meeting at 2 pm\nRoom 3", into: &none)
        #expect(none.recipe == 0)
    }

    @Test func unsureDocumentsStayUnknownWithTheirSignals() {
        let routed = RouteStage.route(text("Dear diary, nothing today."))
        #expect(routed.route == .unknown)
    }

    /// A saved page that is valid UTF-8 with a stray NUL byte (cucchiaio.it) is text, not binary; binary stays binary.
    @Test func validUTF8WithAFewNULBytesIsText() throws {
        // A page of a realistic size (a few KB): one NUL among thousands of bytes.
        var page = Data(("<html><head><title>Torta</title></head><body><p>Ingredienti</p>"
            + String(repeating: "<p>Mescolare la farina con le uova e lo zucchero.</p>\n", count: 40)).utf8)
        page.append(0)
        page.append(contentsOf: Data("<p>200 g farina</p></body></html>".utf8))
        #expect(try DetectStage.detect(page, fileName: "torta.html").format == .html)
        let binary = Data([0x00, 0x01, 0x02, 0xFF, 0xFE, 0x00, 0x10, 0x80] + Array(repeating: 0, count: 64))
        #expect(throws: LarderError.self) { try DetectStage.detect(binary, fileName: "blob.bin") }
    }
}
