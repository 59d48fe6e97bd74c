import Foundation
import LarderCore

/// Stage 3, `route`: is this a recipe or a receipt? Simple, explainable signals, so later stages know where a
/// document goes and a person can see why.
///
/// Images are routed to receipts (receipts arrive as photos); a PDF (a scan: on its OCR text) or text is scored on recipe words
/// (ingredients, method, tbsp, preheat…) against receipt words (subtotal, tax, cash, lines ending in prices).
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
        return try StageOutput(Self.route(DocumentText.readable(input)))
    }

    /// Routes a document's text (public so `ocr` can tell a scanned receipt page from a book page).
    public static func route(_ extracted: ExtractOutput) -> RouteOutput {
        if extracted.format.isImage {
            return RouteOutput(route: .receipt, recipeScore: 0, receiptScore: 1, signals: ["image: receipts arrive as photos"])
        }
        if extracted.needsOCR {
            return RouteOutput(route: .unknown, recipeScore: 0, receiptScore: 0, signals: ["no text layer, and OCR read no text"])
        }
        // A PDF's reading-order lines: poppler's own text can glue two columns' words ("ZubereitungZutaten").
        let raw = extracted.pages.map { page in
            page.lines.isEmpty ? page.text : page.lines.map(\.text).joined(separator: "\n")
        }.joined(separator: "\u{0C}")
        let (words, lines) = Self.wordsAndLines(raw, among: Self.signalWords)
        var signals: [String] = []
        var recipe = 0
        for word in recipeWords where words.contains(word) {
            recipe += 1
            signals.append("recipe word '\(word)'")
        }
        var receipt = 0
        for word in receiptWords where words.contains(word) {
            receipt += 1
            signals.append("receipt word '\(word)'")
        }
        let priced = lines.filter { text in
            Self.mayEndInPrice(text) && Self.pricedLine.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }.count
        if lines.count >= 4, priced * 3 >= lines.count {
            receipt += 2
            signals.append("\(priced) of \(lines.count) lines end in a price")
        }
        // Ingredient lines: a quantity and a unit opening a short line that does not end in a price.
        let measured = lines.filter { line in
            guard line.count <= 60, line.first.map({ $0.isNumber || $0 == "-" || $0 == "•" || $0 == "*" || $0 == " " }) == true
            else { return false }
            let range = NSRange(line.startIndex..., in: line)
            return Self.measuredLine.firstMatch(in: line, range: range) != nil
                && !(Self.mayEndInPrice(line) && Self.pricedLine.firstMatch(in: line, range: range) != nil)
        }.count
        if measured >= 3 {
            recipe += 2
            signals.append("\(measured) lines open with a quantity and a unit")
        }
        if extracted.format == .json, case let text = raw.lowercased(),
           text.contains("\"recipeingredient\"") || text.contains("\"ingredients\"") {
            recipe += 2
            signals.append("JSON with ingredients")
        }
        let route: Route =
            receipt >= 2 && receipt > recipe ? .receipt : recipe >= 2 && recipe >= receipt ? .recipe : .unknown
        return RouteOutput(route: route, recipeScore: recipe, receiptScore: receipt, signals: signals)
    }

    /// The words among `wanted` that the document has, and its non-empty lines, lower-cased: the words are its runs
    /// of letters (`Character.isLetter`), as `text.lowercased().split { !$0.isLetter }` finds them. An ASCII line is
    /// read on its bytes (every ASCII character is one byte; "\n" separates graphemes), and a word becomes a
    /// `String` only when a wanted word has its first letter and length; any other line is read as characters;
    /// text with a carriage return ("\r\n" is one character) entirely as characters.
    static func wordsAndLines(_ raw: String, among wanted: Set<String>) -> (words: Set<String>, lines: [String]) {
        guard !raw.utf8.contains(0x0D) else {
            let text = raw.lowercased()
            return (Set(text.split { !$0.isLetter }.map(String.init)).intersection(wanted), text.split(separator: "\n").map(String.init))
        }
        // Per ASCII first letter, the lengths (bit n: n bytes, up to 31) of the wanted words.
        var lengths = [UInt32](repeating: 0, count: 26)
        for word in wanted {
            guard let first = word.utf8.first, first &- 0x61 < 26, word.utf8.count < 32 else { continue }
            lengths[Int(first &- 0x61)] |= 1 << UInt32(word.utf8.count)
        }
        var words = Set<String>()
        var lines: [String] = []
        for bytes in raw.utf8.split(separator: 0x0A) {
            guard bytes.allSatisfy({ $0 < 0x80 }) else {
                let line = Substring(bytes).lowercased()
                lines.append(line)
                for word in line.split(whereSeparator: { !$0.isLetter }) where wanted.contains(String(word)) {
                    words.insert(String(word))
                }
                continue
            }
            let lower = bytes.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }
            lines.append(String(decoding: lower, as: UTF8.self))
            for word in lower.split(whereSeparator: { $0 &- 0x61 >= 26 }) {
                guard word.count < 32, lengths[Int(word.first! &- 0x61)] & (1 << UInt32(word.count)) != 0 else { continue }
                let text = String(decoding: word, as: UTF8.self)
                if wanted.contains(text) { words.insert(text) }
            }
        }
        return (words, lines)
    }

    /// Whether `pricedLine` can match: on an ASCII line it needs a digit, "." or ",", and two digits.
    static func mayEndInPrice(_ line: String) -> Bool {
        func digit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }
        var (p1, p2, p3): (UInt8, UInt8, UInt8) = (0, 0, 0)  // the three bytes before
        for b in line.utf8 {
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
        // German, French, Italian, Spanish, Dutch section and kitchen words.
        "zutaten", "zubereitung", "anleitung", "esslöffel", "teelöffel", "prise", "backofen", "vorheizen",
        "ingrédients", "préparation", "cuillère", "ingredienti", "preparazione", "cucchiaio", "cucchiaino",
        "ingredientes", "preparación", "cucharada", "ingrediënten", "bereiding", "eetlepel", "theelepel",
    ]
    /// "2 tbsp", "1/2 c", "200 g", "3 el", "1,5 tl", "16.3 oz", "1 ½ cups", "4 clove", "2 fl oz", "3 dash" at the start of a line.
    static let pricedLine = try! NSRegularExpression(pattern: #"\d+[.,]\d\d\s*[a-z]?$"#)
    static let measuredLine = try! NSRegularExpression(pattern:
        #"^\s*(?:[-•*]\s*)?\d+(?:[.,/]\d+)?(?:\s+\d/\d)?\s*[½¼¾⅓⅔]?\s*(?:tbsp|tbs|tsp|t\s?bs|c|cups?|fl\.?\s?oz|oz|dash(?:es)?|sprigs?|bunch|lbs?|g|kg|ml|l|el|tl|clove|cloves|pinch|can|cans|prise|zehen?|bund|dose|cucchia[io]|cucchiaini?|cucharadas?|cucharaditas?)\.?(?:\s|$)"#)

    /// The words `route` looks for.
    static let signalWords = Set(RouteStage.recipeWords + RouteStage.receiptWords)

    private static let receiptWords = [
        "subtotal", "total", "tax", "cash", "change", "visa", "mastercard", "receipt", "qty", "tender",
        "balance", "cashier", "debit", "gst", "vat",
    ]
}

/// What `route` decided, with the signals that decided it.
public struct RouteOutput: Codable, Sendable, Equatable {
    public var route: Route
    public var recipeScore: Int
    public var receiptScore: Int
    public var signals: [String]
}
