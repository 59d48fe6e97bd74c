import Foundation
import LarderCore
import LarderRecipes

/// Stage 3, `route`: is this a recipe or a receipt? Simple, explainable signals, so later stages know where a
/// document goes and a person can see why.
///
/// By what the document is, in any language: images are receipts (receipts arrive as photos); recipe-app exports are
/// recipes; a saved page or JSON holding a schema.org `Recipe` (JSON-LD or microdata) is a recipe, whatever its
/// visible text. Other text (a PDF, a scan's OCR text) is scored on signals that do not depend on English — lines
/// opening with a quantity and a unit, numbered steps, durations, oven temperatures, lines ending in a price — plus
/// recipe and receipt words in the languages of the shared data (en, de, fr, it, es, nl, pt, pl, sv, hu). A text the
/// recipe parser reads as a recipe with ingredients and steps is a recipe; what stays unsure is `unknown`, which the
/// result sends to review with its signals.
public struct RouteStage: Stage {
    public static let declaration = StandardStage.route.declaration()
    public let name = declaration.name
    public let version = declaration.version

    public init() {}

    public func run(_ input: StageInput) throws -> StageOutput {
        // A recipe app's export (an archive, MealMaster, MasterCook, Cooklang, recipe CSV) holds recipes.
        if let app = try input.output(of: "detect", as: DetectOutput.self).appFormat {
            return try StageOutput(RouteOutput(route: .recipe, recipeScore: 1, receiptScore: 0, signals: ["recipe-app export: \(app)"]))
        }
        // A scanned PDF is scored on the text OCR read from it.
        return try StageOutput(Self.route(DocumentText.readable(input), maxParts: input.config.limits.maxRecipeParts))
    }

    /// Routes a document's text (public so `ocr` can tell a scanned receipt page from a book page: `readRecipe` false
    /// leaves out the recipe parser's reading, which only turns `unknown` into `recipe`).
    /// `maxParts`: where the recipe parser's reading stops (``parsedRecipe(_:maxParts:)``).
    public static func route(
        _ extracted: ExtractOutput, readRecipe: Bool = true, maxParts: Int = PipelineConfig.Limits().maxRecipeParts
    ) -> RouteOutput {
        if extracted.format.isImage {
            return RouteOutput(route: .receipt, recipeScore: 0, receiptScore: 1, signals: ["image: receipts arrive as photos"])
        }
        if extracted.needsOCR {
            return RouteOutput(route: .unknown, recipeScore: 0, receiptScore: 0, signals: ["no text layer, and OCR read no text"])
        }
        if let page = extracted.webPage, page.hasSchemaRecipe {
            return RouteOutput(
                route: .recipe, recipeScore: 10, receiptScore: 0, signals: ["schema.org Recipe in the page's structured data"])
        }
        // A PDF's reading-order lines: poppler's own text can glue two columns' words ("ZubereitungZutaten").
        let raw = extracted.pages.map { page in
            page.lines.isEmpty ? page.text : page.lines.map(\.text).joined(separator: "\n")
        }.joined(separator: "\u{0C}")
        if extracted.format == .json, WebPage.holdsSchemaRecipe(json: raw) {
            return RouteOutput(route: .recipe, recipeScore: 10, receiptScore: 0, signals: ["schema.org Recipe in the JSON"])
        }
        var scores = scoreSignals(raw, format: extracted.format)
        if !(scores.recipe >= 2 && scores.recipe >= scores.receipt) {
            scoreLanguageFree(raw, into: &scores)
        }
        var route = scores.route
        if route == .unknown, readRecipe, let read = parsedRecipe(extracted, maxParts: maxParts) {
            route = .recipe
            scores.signals.append("the recipe parser reads a recipe: \(read.ingredients) ingredients, \(read.steps) steps")
        }
        return RouteOutput(route: route, recipeScore: scores.recipe, receiptScore: scores.receipt, signals: scores.signals)
    }

    /// The scores so far and the signals behind them.
    struct Scores {
        var recipe = 0
        var receipt = 0
        var signals: [String] = []
        var route: Route {
            receipt >= 2 && receipt > recipe ? .receipt : recipe >= 2 && recipe >= receipt ? .recipe : .unknown
        }
    }

    /// Recipe and receipt words, lines ending in a price, lines opening with a quantity and a unit.
    static func scoreSignals(_ raw: String, format: DocumentFormat) -> Scores {
        let (words, lines) = Self.wordsAndLines(raw, among: Self.signalTable)
        var scores = Scores()
        for word in recipeWords where words.contains(word) {
            scores.recipe += 1
            scores.signals.append("recipe word '\(word)'")
        }
        for word in receiptWords where words.contains(word) {
            scores.receipt += 1
            scores.signals.append("receipt word '\(word)'")
        }
        // One pass over the lines: a line that ends in a price, and an ingredient line (a quantity and a unit opening
        // a short line that does not end in a price).
        var priced = 0, measured = 0
        for line in lines.all {
            if lines.endsInPrice(line) {
                priced += 1
            } else if lines.opensWithMeasure(line) {
                measured += 1
            }
        }
        if lines.count >= 4, priced * 3 >= lines.count {
            scores.receipt += 2
            scores.signals.append("\(priced) of \(lines.count) lines end in a price")
        }
        if measured >= 3 {
            scores.recipe += 2
            scores.signals.append("\(measured) lines open with a quantity and a unit")
        }
        if format == .json, case let text = raw.lowercased(),
           text.contains("\"recipeingredient\"") || text.contains("\"ingredients\"") {
            scores.recipe += 2
            scores.signals.append("JSON with ingredients")
        }
        return scores
    }

    /// Signals in any language, looked for only while the words leave the document unsure: numbered steps (two or
    /// more lines "1." / "2)" opening a sentence), durations ("20 min", "1 Stunde", "15 minuti"), oven temperatures
    /// ("180 °C", "350°F", "200 Grad").
    static func scoreLanguageFree(_ raw: String, into scores: inout Scores) {
        let text = raw.count > 200_000 ? String(raw.prefix(200_000)).lowercased() : raw.lowercased()
        let range = NSRange(text.startIndex..., in: text)
        let steps = numberedStep.numberOfMatches(in: text, range: range)
        if steps >= 2 {
            scores.recipe += 1
            scores.signals.append("\(steps) numbered steps")
        }
        if duration.firstMatch(in: text, range: range) != nil {
            scores.recipe += 1
            scores.signals.append("a cooking time")
        }
        if temperature.firstMatch(in: text, range: range) != nil {
            scores.recipe += 1
            scores.signals.append("an oven temperature")
        }
    }

    /// The recipe the `recipe` stage would read from the text (most ingredients and steps), when it has at least two
    /// ingredients and a step.
    /// A document past `maxParts` (``PipelineConfig/Limits/maxRecipeParts``) is read no further: it counts as that
    /// many ingredients and steps (a recipe), and the `recipe` stage fails it, over the limit.
    static func parsedRecipe(_ extracted: ExtractOutput, maxParts: Int = .max) -> (ingredients: Int, steps: Int)? {
        let source = RecipeSource(
            file: "", sha256: "", format: extracted.format.rawValue, lines: RecipeStage.lines(of: extracted))
        let parser = RecipeParser()
        let recipes: [Recipe]
        do {
            if let page = extracted.webPage {
                recipes = try parser.parse(page: page, source: source, maxParts: maxParts)
            } else {
                recipes = try parser.parse(source, maxParts: maxParts)
            }
        } catch {
            return (error.limit, error.limit)
        }
        let best = recipes.map { ($0.allIngredients.count, $0.steps.count) }.max { $0.0 + $0.1 < $1.0 + $1.1 }
        guard let best, best.0 >= 2, best.1 >= 1 else { return nil }
        return best
    }

    static let numberedStep = try! NSRegularExpression(pattern: #"(?m)^\s*(?:step\s+)?\d{1,2}\s*[.)]\s+\p{L}"#)
    static let duration = try! NSRegularExpression(pattern:
        #"\b\d+(?:[.,]\d+)?\s*(?:-|–|to|bis|à|a)?\s*\d*\s*(?:min|mins|minute|minutes|minuten|minuti|minutos|minuter|minuut|minuten|minut|minuty|perc|percig|hrs?|hours?|std|stunden?|ore|heures?|horas?|uur|timmar|timme|godzin[ay]?|óra)\b"#)
    static let temperature = try! NSRegularExpression(pattern:
        #"\b\d{2,3}\s*°\s*[cf]?|\b\d{3}\s*(?:degrees|grad|gradi|grados|graden|degrés|stopni|grader|fok)\b"#)

    /// The non-empty lines of a text, lower-cased (`text.lowercased().split(separator: "\n")`), kept as the text's
    /// own bytes for a line of ASCII and ``RouteStage/isPlainSymbol(_:)`` scalars (lower-cased only when a pattern
    /// must read it) and as a lower-cased `String` for any other line.
    struct Lines {
        /// The text's UTF-8 bytes.
        let bytes: [UInt8]
        /// Each line: its bytes in `bytes` (ASCII and plain symbols), else the lower-cased line.
        fileprivate(set) var all: [Line] = []
        var count: Int { all.count }

        enum Line {
            case bytes(Range<Int>)
            case lowered(String)
        }

        /// The line lower-cased, as `String` (`lowercased()` of a line of ASCII and plain symbols lower-cases A–Z
        /// only).
        func lowered(_ line: Line) -> String {
            switch line {
            case .lowered(let text): return text
            case .bytes(let range): return String(decoding: bytes[range].map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }, as: UTF8.self)
            }
        }

        /// Whether ``RouteStage/pricedLine`` matches the lower-cased line: ICU on a line kept as `String` (when the
        /// byte test lets it through), ``RoutePatterns`` on a line kept as bytes.
        func endsInPrice(_ line: Line) -> Bool {
            switch line {
            case .lowered(let text): return RouteStage.mayEndInPrice(text) && RouteStage.pricedLine.matches(text)
            case .bytes(let range):
                return bytes.withUnsafeBufferPointer { RoutePatterns.endsInPrice(UnsafeBufferPointer(rebasing: $0[range])) }
            }
        }

        /// Whether ``RouteStage/measuredLine`` matches the lower-cased line (as ``endsInPrice(_:)``), on lines that
        /// ``opensMeasuredLine(_:)`` lets through.
        func opensWithMeasure(_ line: Line) -> Bool {
            guard opensMeasuredLine(line) else { return false }
            switch line {
            case .lowered(let text): return RouteStage.measuredLine.matches(text)
            case .bytes(let range):
                return bytes.withUnsafeBufferPointer { RoutePatterns.opensWithMeasure(UnsafeBufferPointer(rebasing: $0[range])) }
            }
        }

        /// ``RouteStage/mayEndInPrice(_:)`` of the lower-cased line (lower-casing keeps digits, "." and ",", and
        /// the symbols' bytes).
        func mayEndInPrice(_ line: Line) -> Bool {
            switch line {
            case .lowered(let text): return RouteStage.mayEndInPrice(text)
            case .bytes(let range): return RouteStage.mayEndInPrice(bytes: bytes[range])
            }
        }

        /// Whether the lower-cased line can be an ingredient line before `measuredLine` reads it: at most 60
        /// characters, opening with a digit (`Character.isNumber`), "-", "•", "*" or a space. A line kept as bytes
        /// has one character per scalar (plain symbols extend no grapheme, and the text holds no carriage return:
        /// see ``RouteStage/wordsAndLines(_:among:)``).
        func opensMeasuredLine(_ line: Line) -> Bool {
            switch line {
            case .lowered(let text):
                return text.count <= 60
                    && text.first.map({ $0.isNumber || $0 == "-" || $0 == "•" || $0 == "*" || $0 == " " }) == true
            case .bytes(let range):
                let first = bytes[range.lowerBound]
                // At most 60 scalars (UTF-8 lead bytes): counted only when the bytes are more.
                guard range.count <= 60 || bytes[range].count(where: { $0 & 0xC0 != 0x80 }) <= 60 else { return false }
                if first < 0x80 { return first &- 0x30 < 10 || first == 0x2D || first == 0x2A || first == 0x20 }
                let scalar = RouteStage.scalar(at: range.lowerBound, in: bytes)
                return scalar == "•" || scalar.properties.numericType != nil
            }
        }
    }

    /// The words among `wanted` that the document has, and its non-empty lines, lower-cased: the words are its runs
    /// of letters (`Character.isLetter`), as `text.lowercased().split { !$0.isLetter }` finds them. A line of ASCII
    /// and plain symbols (`isPlainSymbol`: "°", "½", "–"…, no letters, one grapheme each, their own lower case) is
    /// read on its bytes in one pass (every ASCII character is one byte; "\n" separates graphemes), and a word
    /// becomes a `String` only when a wanted word has its first letter and length; any other line is read as
    /// characters; text with a carriage return ("\r\n" is one character) entirely as characters.
    static func wordsAndLines(_ raw: String, among wanted: Set<String>) -> (words: Set<String>, lines: Lines) {
        wordsAndLines(raw, among: WordTable(wanted))
    }

    /// ``wordsAndLines(_:among:)`` with the wanted words' table built beforehand (``signalTable``, once per process).
    static func wordsAndLines(_ raw: String, among table: WordTable) -> (words: Set<String>, lines: Lines) {
        let wanted = table.wanted
        var lines = Lines(bytes: Array(raw.utf8))
        guard !lines.bytes.contains(0x0D) else {
            let text = raw.lowercased()
            lines.all = text.split(separator: "\n").map { .lowered(String($0)) }
            return (Set(text.split { !$0.isLetter }.map(String.init)).intersection(wanted), lines)
        }
        var words = Set<String>()
        lines.bytes.withUnsafeBufferPointer { bytes in
            var start = 0
            while start < bytes.count {
                var end = start
                var plain = true  // ASCII and plain symbols only
                while end < bytes.count, bytes[end] != 0x0A {
                    if bytes[end] >= 0x80, plain, bytes[end] & 0xC0 != 0x80 {
                        plain = isPlainSymbol(scalar(at: end, in: bytes))
                    }
                    end += 1
                }
                defer { start = end + 1 }
                guard end > start else { continue }
                guard plain else {
                    let line = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self).lowercased()
                    lines.all.append(.lowered(line))
                    for word in line.split(whereSeparator: { !$0.isLetter }) where wanted.contains(String(word)) {
                        words.insert(String(word))
                    }
                    continue
                }
                lines.all.append(.bytes(start..<end))
                // The line's runs of letters (A–Z lower-cased), compared with the wanted words of that first letter
                // and length.
                var k = start
                while k < end {
                    guard (bytes[k] | 0x20) &- 0x61 < 26 else {
                        k += 1
                        continue
                    }
                    let wordStart = k
                    while k < end, (bytes[k] | 0x20) &- 0x61 < 26 { k += 1 }
                    if let word = table.word(UnsafeBufferPointer(rebasing: bytes[wordStart..<k])) { words.insert(word) }
                }
            }
        }
        return (words, lines)
    }

    /// A symbol that `route`'s byte path reads like an ASCII punctuation mark: not a letter, its own lower case, and a
    /// grapheme of its own that no following scalar extends (`RouteFastPathTests` checks each).
    static func isPlainSymbol(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xA0, 0xA9, 0xAE, 0xB0, 0xB7, 0xBC, 0xBD, 0xBE, 0xD7: true  // no-break space © ® ° · ¼ ½ ¾ ×
        case 0x2013, 0x2014, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2026, 0x2122: true  // – — ‘ ’ “ ” • … ™
        case 0x2153, 0x2154, 0x215B: true  // ⅓ ⅔ ⅛
        default: false
        }
    }

    /// The scalar whose UTF-8 starts at `offset` of valid UTF-8 `bytes`.
    static func scalar<Bytes: RandomAccessCollection<UInt8>>(at offset: Bytes.Index, in bytes: Bytes) -> Unicode.Scalar {
        var decoder = UTF8()
        var iterator = bytes[offset...].makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return "\u{FFFD}" }
        return scalar
    }

    /// Whether `pricedLine` can match: on an ASCII line it needs a digit, "." or ",", and two digits.
    static func mayEndInPrice(_ line: String) -> Bool { mayEndInPrice(bytes: line.utf8) }

    static func mayEndInPrice<Bytes: Sequence<UInt8>>(bytes: Bytes) -> Bool {
        func digit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }
        var (p1, p2, p3): (UInt8, UInt8, UInt8) = (0, 0, 0)  // the three bytes before
        for b in bytes {
            if b >= 0x80 { return true }
            if digit(b) && digit(p1) && (p2 == 0x2E || p2 == 0x2C) && digit(p3) { return true }
            (p3, p2, p1) = (p2, p1, b)
        }
        return false
    }

    private static let recipeWords = [
        "ingredients", "method", "directions", "instructions", "preparation", "preheat", "tbsp", "tsp",
        "tablespoon", "tablespoons", "teaspoon", "teaspoons", "cup", "cups", "serves", "servings", "bake",
        "simmer", "whisk", "stir", "chopped", "oven", "yield",
        // German, French, Italian, Spanish, Dutch, Portuguese, Polish, Swedish and Hungarian section and kitchen
        // words (the languages of the shared pages).
        "zutaten", "zubereitung", "anleitung", "esslöffel", "teelöffel", "prise", "backofen", "vorheizen", "portionen",
        "ingrédients", "préparation", "cuillère", "cuillères", "étapes", "personnes",
        "ingredienti", "preparazione", "procedimento", "cucchiaio", "cucchiaino", "forno", "porzioni",
        "ingredientes", "preparación", "elaboración", "cucharada", "cucharadita", "horno", "raciones",
        "ingrediënten", "bereiding", "bereidingswijze", "eetlepel", "theelepel", "personen",
        "preparo", "colher", "colheres", "xícara", "xícaras", "porções",
        "składniki", "przygotowanie", "łyżka", "łyżki", "łyżeczka", "szklanka", "piekarnik",
        "ingredienser", "tillagning", "matsked", "tesked", "msk", "tsk", "ugn", "portioner",
        "hozzávalók", "elkészítés", "elkészítése", "evőkanál", "teáskanál", "sütő", "adag",
    ]
    /// "2 tbsp", "1/2 c", "200 g", "3 el", "1,5 tl", "16.3 oz", "1 ½ cups", "4 clove", "2 fl oz", "3 dash" at the start of a line.
    static let pricedLine = try! NSRegularExpression(pattern: #"\d+[.,]\d\d\s*[a-z]?$"#)
    static let measuredLine = try! NSRegularExpression(pattern:
        #"^\s*(?:[-•*]\s*)?\d+(?:[.,/]\d+)?(?:\s+\d/\d)?\s*[½¼¾⅓⅔]?\s*(?:tbsp|tbs|tsp|t\s?bs|c|cups?|fl\.?\s?oz|oz|dash(?:es)?|sprigs?|bunch|lbs?|g|kg|ml|l|el|tl|clove|cloves|pinch|can|cans|prise|zehen?|bund|dose|cucchia[io]|cucchiaini?|cucharadas?|cucharaditas?)\.?(?:\s|$)"#)

    /// The words `route` looks for.
    static let signalWords = Set(RouteStage.recipeWords + RouteStage.receiptWords)
    /// ``signalWords`` as ``WordTable``, built once per process (each document built its length table again).
    static let signalTable = WordTable(signalWords)

    /// A set of wanted words arranged for ``wordsAndLines(_:among:)``'s byte path: a run of ASCII letters is compared
    /// on its bytes with the wanted words of its first letter and length, and no `String` is made for a run that is
    /// none of them (a `String`, an array and a hash per run of a wanted word's letter and length cost half of `route`).
    struct WordTable: Sendable {
        let wanted: Set<String>
        /// Per ASCII first letter (a–z) and byte length (1–31): the wanted words' bytes (lower case) and the word.
        private let buckets: [[(bytes: [UInt8], word: String)]]

        init(_ wanted: Set<String>) {
            self.wanted = wanted
            var buckets = [[(bytes: [UInt8], word: String)]](repeating: [], count: 26 * 32)
            for word in wanted {
                guard let first = word.utf8.first, first &- 0x61 < 26, word.utf8.count < 32 else { continue }
                buckets[Self.bucket(first, word.utf8.count)].append((Array(word.utf8), word))
            }
            self.buckets = buckets
        }

        private static func bucket(_ first: UInt8, _ count: Int) -> Int { Int(first &- 0x61) * 32 + count }

        /// The wanted word that `run` (ASCII letters, either case) is lower-cased, if any.
        func word(_ run: UnsafeBufferPointer<UInt8>) -> String? {
            guard run.count < 32 else { return nil }
            for candidate in buckets[Self.bucket(run[0] | 0x20, run.count)] {
                var k = 0
                while k < run.count, run[k] | 0x20 == candidate.bytes[k] { k += 1 }
                if k == run.count { return candidate.word }
            }
            return nil
        }
    }

    private static let receiptWords = [
        "subtotal", "total", "tax", "cash", "change", "visa", "mastercard", "receipt", "qty", "tender",
        "balance", "cashier", "debit", "gst", "vat",
    ]
}

extension NSRegularExpression {
    /// Whether the pattern matches somewhere in `text`.
    fileprivate func matches(_ text: String) -> Bool {
        firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}

/// What `route` decided, with the signals that decided it.
public struct RouteOutput: Codable, Sendable, Equatable {
    public var route: Route
    public var recipeScore: Int
    public var receiptScore: Int
    public var signals: [String]
}
