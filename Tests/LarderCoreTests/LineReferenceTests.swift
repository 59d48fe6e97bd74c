import Foundation
import LarderJSON
import LarderRecipes
import LarderTestSupport
import Testing

@testable import LarderCore
@testable import LarderStages

/// Issue 18: the `recipe` stage's stored form is written in one pass over the encoder's text
/// (``RecipeTextCompactor``) instead of parsing it into a `JSONValue`, rewriting it and serialising it again
/// (``LineReferences/compactRecipesByParsing(_:lines:)``, the definition). Every stored byte must stay the same, so
/// each test compares the two on real parser output and on texts made to reach every branch.
@Suite("recipe line references: the one-pass rewrite writes what parsing writes")
struct LineReferenceTests {
    /// The one-pass form (nil when it gave up) and the parsed form of `json`.
    static func both(_ json: String, _ lines: [SourceLine]) throws -> (fast: String?, reference: String) {
        (RecipeTextCompactor.compact(json, lines: lines), try LineReferences.compactRecipesByParsing(json, lines: lines))
    }

    /// A text file's lines as `extract` numbers them (page 1, from 1).
    static func lines(of text: String) -> [SourceLine] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
            SourceLine(page: 1, number: $0.offset + 1, text: String($0.element))
        }
    }

    /// The stage's encoded output for a text or Markdown recipe: parsed and enriched as the stage does.
    static func encodedOutput(of text: String, format: String) throws -> String {
        let source = RecipeSource(file: "r.\(format)", sha256: "00", format: format, lines: lines(of: text))
        var recipes = RecipeParser().parse(source)
        try RecipeEnrichment.bundled().enrich(&recipes)
        return try SortedJSONEncoder().encodeToString(RecipeStageOutput(recipes: recipes, skipped: nil))
    }

    static func compareRecipes(in folder: String, limit: Int) throws -> (files: Int, references: Int) {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            .filter { $0.hasSuffix(".txt") || $0.hasSuffix(".md") }.prefix(limit)
        var references = 0
        for name in names {
            let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
            let json = try encodedOutput(of: text, format: name.hasSuffix(".md") ? "markdown" : "text")
            let (fast, reference) = try both(json, lines(of: text))
            #expect(fast == reference, "\(name)")
            references += reference.components(separatedBy: "\"textAt\"").count - 1
        }
        return (names.count, references)
    }

    @Test func theSamplesAreStoredAsParsingStoresThem() throws {
        let compared = try Self.compareRecipes(in: Repository.path("samples/recipes"), limit: 100)
        #expect(compared.files >= 6)
        #expect(compared.references >= 40, "the samples' ingredients and steps refer to their lines")
    }

    @Test(.enabled(if: SharedData.has("recipes-markdown/content"), SharedData.missing("recipes-markdown/content")))
    func theSharedMarkdownRecipesAreStoredAsParsingStoresThem() throws {
        let compared = try Self.compareRecipes(in: SharedData.path("recipes-markdown/content")!, limit: 150)
        #expect(compared.files >= 50)
        #expect(compared.references >= 500)
    }

    static let lines = [
        SourceLine(page: 1, number: 1, text: "  - 2 cups plain flour, \"sifted\"\t"),
        SourceLine(page: 1, number: 2, text: "1. Whisk the eggs and the sugar until"),
        SourceLine(page: 1, number: 3, text: "   pale and thick, about five minutes."),
        SourceLine(page: 2, number: 1, text: "Tab\there and a back\\slash in one line"),
    ]

    /// Edge texts, each reaching a branch: escapes in the text, the text as first member, numbers the reference
    /// writes in another form, provenance without its lines or with other members, objects under a provenance
    /// (never looked into), a text that is not a string.
    @Test(arguments: [
        #"{"recipes":[{"steps":[{"text":"Whisk the eggs and the sugar until pale and thick, about five minutes.","provenance":{"page":1,"lineStart":2,"lineEnd":3}}]}]}"#,
        #"{"a":[{"provenance":{"lineEnd":1,"lineStart":1,"page":1},"text":"2 cups plain flour, \"sifted\""}]}"#,
        #"{"a":[{"confidence":1e-05,"provenance":{"lineEnd":1,"lineStart":1,"page":1},"text":"2 cups plain flour, \"sifted\"","unit":null}]}"#,
        #"{"a":[{"x":-0,"y":1e+22,"z":10000000000000000000000,"w":0.5,"v":-0.25,"u":0.0000001,"t":123.450}]}"#,
        #"{"a":{"provenance":{"lineEnd":1,"lineStart":1,"page":2},"text":"Tab\there and a back\\slash in one line"}}"#,
        #"{"a":{"provenance":{"lineEnd":1,"lineStart":1,"page":2},"text":"Tab\u0009here and a back\/slash in one line"}}"#,
        #"{"provenance":{"title":{"page":1,"lineStart":2,"lineEnd":2}},"text":"Whisk the eggs and the sugar until"}"#,
        #"{"provenance":{"page":1,"lineStart":2},"text":"Whisk the eggs and the sugar until"}"#,
        #"{"provenance":{"page":1,"lineStart":2,"lineEnd":2,"text":"Whisk the eggs and the sugar until","provenance":{"page":1,"lineStart":2,"lineEnd":2}}}"#,
        #"{"provenance":{"page":1,"lineStart":2,"lineEnd":2},"text":null,"b":[true,false,null,"s",[],{}]}"#,
        #"{"provenance":{"page":1.5,"lineStart":2,"lineEnd":2},"text":"Whisk the eggs and the sugar until"}"#,
        #"{"provenance":{"page":1,"lineStart":2,"lineEnd":2},"text":"Whisk the eggs and the sugar until","textAt":[0,1]}"#,
        #"{"provenance": {"page":1,"lineStart":2,"lineEnd":2},"text":"Whisk the eggs and the sugar until"}"#,
        #"{"text":"Whisk the eggs and the sugar until","provenance":{"page":1,"lineStart":2,"lineEnd":2},"n":[1e-7,{"provenance":{"page":1,"lineStart":3,"lineEnd":3},"text":"pale and thick, about five minutes."}]}"#,
        #"[{"provenance":{"page":9,"lineStart":1,"lineEnd":1},"text":"Whisk the eggs and the sugar until"},{"provenance":{"page":1,"lineStart":2,"lineEnd":2},"text":"short"}]"#,
    ])
    func edgeTextsAreStoredAsParsingStoresThem(_ json: String) throws {
        let (fast, reference) = try Self.both(json, Self.lines)
        if Self.formsTheEncoderDoesNotWrite.contains(json) {
            #expect(fast == nil, "the rewrite gives up and the stage parses: \(json)")
        } else {
            #expect(fast == reference, "the rewrite agrees with parsing (nil: it gave up): \(json)")
        }
    }

    /// The edge texts above that the encoder never writes (`\u0009` and `\/` escapes, a key the encoder does not
    /// write, a space after a colon, a fractional page): on these the rewrite must give up; on every other one it
    /// must agree with parsing.
    static let formsTheEncoderDoesNotWrite: Set<String> = [
        #"{"a":{"provenance":{"lineEnd":1,"lineStart":1,"page":2},"text":"Tab\u0009here and a back\/slash in one line"}}"#,
        #"{"provenance":{"page":1,"lineStart":2,"lineEnd":2},"text":"Whisk the eggs and the sugar until","textAt":[0,1]}"#,
        #"{"provenance": {"page":1,"lineStart":2,"lineEnd":2},"text":"Whisk the eggs and the sugar until"}"#,
        #"{"provenance":{"page":1.5,"lineStart":2,"lineEnd":2},"text":"Whisk the eggs and the sugar until"}"#,
    ]

    /// The rewrite gives up (and the stage parses) on what the encoder does not write; it does not give up on what
    /// it does.
    @Test func itGivesUpOnlyOnTextsTheEncoderDoesNotWrite() throws {
        let encoderForms = [
            #"{"a":[{"confidence":1e-05,"provenance":{"lineEnd":1,"lineStart":1,"page":1},"text":"2 cups plain flour, \"sifted\"","unit":null}]}"#,
            #"{"provenance":{"title":{"page":1,"lineStart":2,"lineEnd":2}},"text":"Whisk the eggs and the sugar until"}"#,
        ]
        for json in encoderForms { #expect(RecipeTextCompactor.compact(json, lines: Self.lines) != nil, "\(json)") }
        let otherForms = [
            #"{"provenance":{"page":1,"lineStart":2,"lineEnd":2},"text":"Whisk the eggs and the sugar until","textAt":[0,1]}"#,
            #"{"provenance": {"page":1,"lineStart":2,"lineEnd":2},"text":"Whisk the eggs and the sugar until"}"#,
            #"{"provenance":{"page":1.5,"lineStart":2,"lineEnd":2},"text":"Whisk the eggs and the sugar until"}"#,
            #"{"a":1"#,
            #"{"a":"back\/slash"}"#, #"{"a":"tab\u0009"}"#, #"{"a":"\u00E9"}"#, #"{"a":"\u001F\u001f"}"#,
        ]
        for json in otherForms { #expect(RecipeTextCompactor.compact(json, lines: Self.lines) == nil, "\(json)") }
    }

    /// Seeded random objects made of the pieces above: the two forms agree on every one the rewrite accepts, and
    /// it accepts the encoder's forms.
    @Test func randomTextsAreStoredAsParsingStoresThem() throws {
        var generator = SeededGenerator(seed: 18)
        let texts = [
            "Whisk the eggs and the sugar until", "pale and thick, about five minutes.", "2 cups plain flour, \\\"sifted\\\"",
            "Whisk the eggs and the sugar until pale and thick, about five minutes.", "short", "eggs and the sugar",
            "Tab\\there and a back\\\\slash in one line", "not in any line at all, really",
        ]
        let numbers = ["0", "-0", "1", "-3", "0.5", "1e-05", "2.5e-07", "1e+16", "12.75", "100", "-0.125"]
        func value(_ depth: Int) -> String {
            switch Int.random(in: 0..<(depth > 3 ? 3 : 6), using: &generator) {
            case 0: return numbers.randomElement(using: &generator)!
            case 1: return "\"" + texts.randomElement(using: &generator)! + "\""
            case 2: return ["true", "false", "null"].randomElement(using: &generator)!
            case 3: return "[" + (0..<Int.random(in: 0..<3, using: &generator)).map { _ in value(depth + 1) }.joined(separator: ",") + "]"
            default: return object(depth + 1)
            }
        }
        func object(_ depth: Int) -> String {
            var members: [String] = []
            let page = Int.random(in: 1...2, using: &generator)
            let first = Int.random(in: 1...3, using: &generator)
            let last = first + Int.random(in: 0...1, using: &generator)
            for key in ["amount", "provenance", "steps", "text", "unit"].shuffled(using: &generator)
            where Bool.random(using: &generator) || key == "text" {
                switch key {
                case "provenance": members.append(#""provenance":{"lineEnd":\#(last),"lineStart":\#(first),"page":\#(page)}"#)
                case "text": members.append("\"text\":\"" + texts.randomElement(using: &generator)! + "\"")
                default: members.append("\"\(key)\":" + value(depth))
                }
            }
            return "{" + members.joined(separator: ",") + "}"
        }
        var compared = 0, replaced = 0
        for _ in 0..<3000 {
            let json = "{\"recipes\":[" + (0..<3).map { _ in object(0) }.joined(separator: ",") + "]}"
            let (fast, reference) = try Self.both(json, Self.lines)
            let accepted = try #require(fast, "the encoder's form is rewritten in one pass: \(json)")
            #expect(accepted == reference, "\(json)")
            compared += 1
            if reference.contains("textAt") { replaced += 1 }
        }
        #expect(compared == 3000 && replaced > 500)
    }
}
