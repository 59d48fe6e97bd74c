import Foundation
import Testing

@testable import LarderPages

/// HTML recipe exports of the project's own writing, in the two shapes apps write: Copy Me That (ids repeated in
/// every recipe) and Recipe Keeper (`itemprop`s in `div.recipe-details`).
@Suite struct HTMLExportTests {
    static let copyMeThat = """
        <!DOCTYPE html><head><meta name="copymethat_class_id_version" content="2"></head><html><body>
        <div class = "recipe"><div id = "name">
            Lemon Rice
        </div><div id="link">From <a id="original_link" href="https://example.invalid/lemon-rice">here</a></div>
        <div id="servings">Servings: <a id="recipeYield">4</a></div>
        <ul id="recipeIngredients"><li class="recipeIngredient">
            1 cup rice
        </li><li class="recipeIngredient">1 lemon, zested</li></ul>
        <ol id="recipeInstructions"><li class="instruction" value="1">Cook the rice.</li>
        <li class="instruction" value="2">Stir in the zest &amp; serve.</li></ol></div>
        <div class = "recipe"><div id = "name">Toast</div>
        <ul id="recipeIngredients"><li class="recipeIngredient">2 slices bread</li></ul>
        <ol id="recipeInstructions"><li class="instruction">Toast the bread.</li></ol></div>
        </body></html>
        """

    @Test func copyMeThatRecipesAreReadEachFromItsOwnSubtree() throws {
        let json = try #require(HTMLExports.schemaOrgJSON(Data(Self.copyMeThat.utf8)))
        let graph = try #require((try JSONSerialization.jsonObject(with: json) as? [String: Any])?["@graph"] as? [[String: Any]])
        #expect(graph.count == 2)
        #expect(graph[0]["name"] as? String == "Lemon Rice")
        #expect(graph[0]["recipeIngredient"] as? [String] == ["1 cup rice", "1 lemon, zested"])
        #expect(graph[0]["recipeInstructions"] as? [String] == ["Cook the rice.", "Stir in the zest & serve."])
        #expect(graph[0]["recipeYield"] as? String == "4")
        #expect(graph[0]["url"] as? String == "https://example.invalid/lemon-rice")
        // The second recipe's ids are its own: nothing of the first leaks into it.
        #expect(graph[1]["name"] as? String == "Toast")
        #expect(graph[1]["recipeIngredient"] as? [String] == ["2 slices bread"])
        #expect(graph[1]["url"] == nil)
    }

    @Test func recipeKeeperItempropsAreRead() throws {
        let html = """
            <html><body><div class="recipe-details"><h2 itemprop="name">Pea Soup</h2>
            <span itemprop="recipeYield">2 bowls</span><meta itemprop="prepTime" content="PT10M">
            <div itemprop="recipeIngredients"><p>500 g peas</p><p>1 onion</p></div>
            <div itemprop="recipeDirections"><p>1. Soften the onion.</p><p>2. Add the peas and blend.</p></div>
            </div></body></html>
            """
        let json = try #require(HTMLExports.schemaOrgJSON(Data(html.utf8)))
        let graph = try #require((try JSONSerialization.jsonObject(with: json) as? [String: Any])?["@graph"] as? [[String: Any]])
        #expect(graph.count == 1)
        #expect(graph[0]["name"] as? String == "Pea Soup")
        #expect(graph[0]["recipeIngredient"] as? [String] == ["500 g peas", "1 onion"])
        #expect((graph[0]["recipeInstructions"] as? [String])?.count == 2)
        #expect(graph[0]["prepTime"] as? String == "PT10M")
    }

    @Test func aPageThatIsNoExportGivesNothing() {
        #expect(HTMLExports.schemaOrgJSON(Data("<html><body><p>Hello</p></body></html>".utf8)) == nil)
    }
}
