// libFuzzer entry point for Larder's text parsers (issue 11). Built by scripts/fuzz-parsers.sh with
// `swiftc -sanitize=fuzzer` together with the parser modules; not part of the Swift package.
//
// The first byte picks the parser; the rest is the text: an ingredient line, a recipe document (as text and as
// markdown), a receipt (as text and as OCR lines), and a JSON-LD recipe page. A Swift trap (overflow, bad index,
// failed conversion) or a hang is a finding; a parser may return anything else.
import Foundation
import LarderIngredients
import LarderReceipts
import LarderRecipes

private let ingredients = IngredientParser()
private let recipes = RecipeParser()
private let receipts = ReceiptParser()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let selector = data[0] % 5
    let text = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    switch selector {
    case 0:
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(64) {
            _ = ingredients.parse(String(line))
        }
    case 1:
        _ = recipes.parse(RecipeSource(file: "fuzz.txt", sha256: "0", format: "text", text: text))
    case 2:
        _ = recipes.parse(RecipeSource(file: "fuzz.md", sha256: "0", format: "markdown", text: text))
    case 3:
        _ = receipts.parse(text: text)
    default:
        let lines = text.split(separator: "\n").prefix(200).enumerated().map { index, line in
            OCRLine(text: String(line), confidence: Double(index % 101), box: OCRBox(x: 0, y: index * 20, width: 400, height: 18))
        }
        _ = receipts.parse(lines: Array(lines))
    }
    return 0
}
