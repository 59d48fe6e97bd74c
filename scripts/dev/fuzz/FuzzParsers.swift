// libFuzzer entry point for Larder's parsers (issue 11). Built by scripts/dev/fuzz-parsers.sh with
// `swiftc -sanitize=fuzzer` together with the parser modules; not part of the Swift package.
//
// One binary, one target per run: `FUZZ_TARGET` names the parser, the input is its text (or bytes). A Swift trap
// (overflow, bad index, failed conversion), a broken invariant checked here, or a hang is a finding; a parser may
// otherwise return anything, or throw its own error.
import Foundation
import LarderArchives
import LarderConfigFuzz
import LarderFormats
import LarderIngredients
import LarderJSON
import LarderPages
import LarderReceipts
import LarderRecipes

/// The parsers, by `FUZZ_TARGET` name.
enum Target: String, CaseIterable {
    case ingredient, recipeText = "recipe-text", recipeMarkdown = "recipe-markdown", receiptText = "receipt-text"
    case receiptOCR = "receipt-ocr", json, schema, formats, config, html, zip
}

private let target: Target = {
    let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
    guard let target = Target(rawValue: name) else {
        FileHandle.standardError.write(Data(
            "FUZZ_TARGET must be one of: \(Target.allCases.map(\.rawValue).joined(separator: ", "))\n".utf8))
        exit(2)
    }
    return target
}()
private let ingredients = IngredientParser()
private let recipes = RecipeParser()
private let receipts = ReceiptParser()
private let pages = PageReader()
/// Instances every fuzzed schema is applied to.
private let instanceTexts: [String] = [
    "{\"a\": [1, 2.5, \"x\", null, true], \"b\": {\"c\": \"2026-11-23\"}}", "[]", "\"caf\u{E9}\"", "-0", "1e308",
]
private let instances: [JSONValue] = instanceTexts.map { (text: String) in try! JSONValue(parsing: text) }
/// The archive reader under small limits, so a fuzzed bomb is refused in microseconds, not inflated.
private let archiveLimits = ArchiveLimits(maxTotalBytes: 8 << 20, maxEntryBytes: 1 << 20, maxEntries: 2_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    switch target {
    case .ingredient:
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(16) {
            _ = ingredients.parse(String(line))
        }
    case .recipeText:
        _ = recipes.parse(RecipeSource(file: "fuzz.txt", sha256: "0", format: "text", text: text))
    case .recipeMarkdown:
        _ = recipes.parse(RecipeSource(file: "fuzz.md", sha256: "0", format: "markdown", text: text))
    case .receiptText:
        _ = receipts.parse(text: text)
    case .receiptOCR:
        let lines = text.split(separator: "\n").prefix(200).enumerated().map { index, line in
            OCRLine(text: String(line), confidence: Double(index % 101), box: OCRBox(x: 0, y: index * 20, width: 400, height: 18))
        }
        _ = receipts.parse(lines: Array(lines))
    case .json:
        // What parses must survive its own serialisation unchanged.
        guard let value = try? JSONValue(parsing: bytes) else { return 0 }
        let again = try? JSONValue(parsing: value.serializedData())
        if again == nil { fatalError("serialised JSON does not parse again: \(value.serialized())") }
    case .schema:
        guard let value = try? JSONValue(parsing: bytes), let schema = try? JSONSchema(value) else { return 0 }
        for instance in instances { _ = schema.validate(instance) }
    case .formats:
        // The first byte picks the file type the member is read as; the rest is the member.
        guard size > 0 else { return 0 }
        let names = ["r.mmf", "r.cook", "r.mxp", "r.csv", "r.json", "r.yaml", "r.txt", "r.html"]
        let member = ExportMember(path: names[Int(data[0]) % names.count], data: bytes.dropFirst())
        _ = RecipeImport.read([member])
    case .config:
        _ = try? PipelineConfig.parse(yaml: text)
    case .html:
        if let reading = try? pages.read(bytes) { _ = reading.lines.count }
        _ = try? pages.recipes(in: bytes, file: "fuzz.html", sha256: "0")
    case .zip:
        // Every member handed out was within the limits, and the total never passed the budget.
        var total = 0
        _ = try? Archives.forEachMember(bytes, name: "fuzz.zip", limits: archiveLimits) { member in
            if member.data.count > Int(archiveLimits.maxEntryBytes) { fatalError("a member over maxEntryBytes: \(member.path)") }
            total += member.data.count
        }
        if total > Int(archiveLimits.maxTotalBytes) { fatalError("members over maxTotalBytes: \(total)") }
    }
    return 0
}
