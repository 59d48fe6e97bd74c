import Foundation
import LarderReceipts
import LarderTestSupport
import Testing

@testable import LarderCore
@testable import LarderStages

@Suite("SHA-256")
struct SHA256Tests {
    @Test func knownVectors() {
        #expect(SHA256.hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test(.integration) func streamingMatchesSha256sum() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        // Sizes around block boundaries, and one larger than the 1 MiB read chunk.
        for size in [55, 56, 63, 64, 65, 1000, 1_500_000] {
            let path = folder + "/f\(size)"
            var generator = SystemRandomNumberGenerator()
            let bytes = Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) })
            try bytes.write(to: URL(fileURLWithPath: path))
            let expected = try TestSupport.shell("sha256sum \(path) | cut -d' ' -f1").stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(try SHA256.hex(fileAt: path) == expected, "size \(size)")
            #expect(SHA256.hex(bytes) == expected, "size \(size)")
        }
    }
}

@Suite("pipeline.yml")
struct ConfigTests {
    @Test func emptyFileMeansDefaults() throws {
        #expect(try PipelineConfig.parse(yaml: "") == PipelineConfig())
        #expect(try PipelineConfig.parse(yaml: "# only a comment\n") == PipelineConfig())
    }

    @Test func repositoryFileDocumentsTheDefaults() throws {
        // pipeline.yml says "the values below are the defaults": keep that true.
        let text = try String(contentsOfFile: TestSupport.repoPath("pipeline.yml"), encoding: .utf8)
        #expect(try PipelineConfig.parse(yaml: text) == PipelineConfig())
    }

    @Test func readsEveryKey() throws {
        let config = try PipelineConfig.parse(
            yaml: """
                database: other.sqlite
                workers: 3
                max_attempts: 5
                progress_interval_seconds: 2.5
                limits:
                  max_file_bytes: 1000
                  max_pdf_pages: 7
                  max_image_pixels: 99
                """)
        #expect(config.database == "other.sqlite")
        #expect(config.workers == 3)
        #expect(config.effectiveWorkers == 3)
        #expect(config.maxAttempts == 5)
        #expect(config.progressIntervalSeconds == 2.5)
        #expect(config.limits.maxFileBytes == 1000)
        #expect(config.limits.maxPDFPages == 7)
        #expect(config.limits.maxImagePixels == 99)
    }

    @Test func unknownKeyNamesTheKeyAndLine() {
        let error = #expect(throws: LarderError.self) {
            try PipelineConfig.parse(yaml: "workers: 2\nlimits:\n  max_pdf_page: 3\n", path: "p.yml")
        }
        #expect(error?.kind == .configuration)
        #expect(error?.line == 3)
        #expect(error?.message.contains("max_pdf_page") == true)
        #expect(error?.description.hasPrefix("p.yml:3:") == true)
    }

    @Test func badValueNamesTheKeyAndLine() {
        let error = #expect(throws: LarderError.self) {
            try PipelineConfig.parse(yaml: "database: a.db\n\nworkers: many\n", path: "p.yml")
        }
        #expect(error?.line == 3)
        #expect(error?.message.contains("workers") == true)
        #expect(error?.message.contains("many") == true)
        let negative = #expect(throws: LarderError.self) { try PipelineConfig.parse(yaml: "max_attempts: 0") }
        #expect(negative?.message.contains("max_attempts") == true)
        let syntax = #expect(throws: LarderError.self) { try PipelineConfig.parse(yaml: "workers: [1,\n") }
        #expect(syntax?.kind == .configuration)
    }

    @Test func readsTheLLMSection() throws {
        let config = try PipelineConfig.parse(
            yaml: """
                llm:
                  mode: fallback
                  confidence_threshold: 0.4
                  max_reasks: 1
                  reask_ungrounded: false
                  batch_token_budget: 50000
                  cache: answers.sqlite
                  retry: {attempts_per_provider: 2, base_delay_seconds: 0.5, max_delay_seconds: 8, max_retry_after_seconds: 20}
                  providers:
                    - name: hosted
                      kind: openai-compatible
                      base_url: https://api.openai.com/v1
                      model: gpt-4o-mini
                      api_key_env: OPENAI_API_KEY
                      timeout_seconds: 30
                      max_tokens: 1024
                      price_per_input_token: 0.00000015
                      price_per_output_token: 0.0000006
                      concurrency: 4
                    - {name: claude, kind: anthropic, base_url: "https://api.anthropic.com", model: claude-x, api_key_env: ANTHROPIC_API_KEY}
                """)
        let llm = config.llm
        #expect(llm.mode == .fallback && llm.confidenceThreshold == 0.4 && llm.maxReasks == 1 && !llm.reaskUngrounded)
        #expect(llm.batchTokenBudget == 50000 && llm.cachePath == "answers.sqlite")
        #expect(llm.retry == RetryPolicy(attemptsPerProvider: 2, baseDelaySeconds: 0.5, maxDelaySeconds: 8, maxRetryAfterSeconds: 20))
        #expect(llm.providers.map(\.name) == ["hosted", "claude"])
        #expect(llm.providers[0] == ProviderConfig(
            name: "hosted", kind: .openAICompatible, baseURL: "https://api.openai.com/v1", model: "gpt-4o-mini",
            apiKeyEnv: "OPENAI_API_KEY", timeoutSeconds: 30, maxTokens: 1024, pricePerInputToken: 0.00000015,
            pricePerOutputToken: 0.0000006, concurrency: 4))
        #expect(llm.providers[1].kind == .anthropic && llm.providers[1].maxTokens == 2048)
    }

    @Test func llmSectionErrorsNameTheKeyAndLine() {
        func error(_ yaml: String) -> LarderError? {
            #expect(throws: LarderError.self) { try PipelineConfig.parse(yaml: yaml, path: "p.yml") }
        }
        let mode = error("llm:\n  mode: sometimes\n")
        #expect(mode?.line == 2 && mode?.message.contains("llm.mode") == true)
        let noChain = error("llm:\n  mode: always\n")
        #expect(noChain?.message.contains("llm.providers") == true)
        let kind = error("llm:\n  providers:\n    - name: a\n      kind: bard\n      base_url: http://x\n      model: m\n")
        #expect(kind?.line == 4 && kind?.message.contains("llm.providers[0].kind") == true)
        let missing = error("llm:\n  providers:\n    - name: a\n      kind: gemini\n      model: m\n")
        #expect(missing?.message.contains("base_url") == true)
        let unknown = error("llm:\n  providers:\n    - name: a\n      kind: gemini\n      base_url: http://x\n      model: m\n      api_key: sk-123\n")
        #expect(unknown?.line == 7 && unknown?.message.contains("api_key") == true)
        // A key pasted where the variable's name belongs is refused, and the error does not repeat it whole.
        let pasted = error("llm:\n  providers:\n    - {name: a, kind: gemini, base_url: 'http://x', model: m, api_key_env: 'sk-abc.def/ghi'}\n")
        #expect(pasted?.message.contains("api_key_env") == true)
        #expect(pasted.map { "\($0)".contains("sk-abc") } == false)
        let twice = error("llm:\n  providers:\n    - {name: a, kind: gemini, base_url: 'http://x', model: m}\n    - {name: a, kind: gemini, base_url: 'http://y', model: m}\n")
        #expect(twice?.line == 4 && twice?.message.contains("two providers") == true)
        let url = error("llm:\n  providers:\n    - {name: a, kind: gemini, base_url: 'ftp://x', model: m}\n")
        #expect(url?.message.contains("base_url") == true)
    }

    @Test func readsTheBlocklist() throws {
        let config = try PipelineConfig.parse(
            yaml: """
                receipts:
                  blocklist:
                    rules:
                      household: [kitchen roll]
                      alcohol: [BEER, WINE]
                    generic_terms: [Decor]
                    disable: [bottle-deposit]
                """)
        let rules = config.blocklist.rules
        #expect(rules.first { $0.id == "household" }?.phrases.last == "KITCHEN ROLL")
        #expect(rules.last == .init(id: "alcohol", phrases: ["BEER", "WINE"]))
        #expect(!rules.contains { $0.id == "bottle-deposit" })
        #expect(config.blocklist.genericTerms.last == "decor")
        #expect(config.blocklist.blockingRule(for: "LAGER BEER 6PK") == "alcohol: BEER")
        // A changed blocklist changes the receipt stage's version (every receipt is looked at again).
        #expect(ReceiptStage.declaration(for: config).version != ReceiptStage.declaration(for: PipelineConfig()).version)
        let unknown = #expect(throws: LarderError.self) {
            try PipelineConfig.parse(yaml: "receipts:\n  blocklist:\n    disable: [snacks]\n", path: "p.yml")
        }
        #expect(unknown?.line == 3 && unknown?.message.contains("household") == true)
    }

    @Test func relativeLLMCacheIsResolvedAgainstTheConfigFolder() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        try "database: data/x.sqlite\n".write(toFile: folder + "/pipeline.yml", atomically: true, encoding: .utf8)
        #expect(try PipelineConfig.load(path: folder + "/pipeline.yml").llmCachePath == folder + "/data/llm-cache.sqlite")
        try "llm:\n  cache: c/answers.sqlite\n".write(toFile: folder + "/pipeline.yml", atomically: true, encoding: .utf8)
        #expect(try PipelineConfig.load(path: folder + "/pipeline.yml").llmCachePath == folder + "/c/answers.sqlite")
    }

    @Test func relativeDatabaseIsResolvedAgainstTheConfigFolder() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { TestSupport.cleanUp(folder) }
        try "database: data/x.sqlite\n".write(toFile: folder + "/pipeline.yml", atomically: true, encoding: .utf8)
        let config = try PipelineConfig.load(path: folder + "/pipeline.yml")
        #expect(config.database == folder + "/data/x.sqlite")
    }
}

@Suite("detect")
struct DetectTests {
    func detect(_ data: Data, _ name: String = "file") throws -> DetectOutput {
        try DetectStage.detect(data, fileName: name)
    }

    @Test func mhtmlIsAPage() throws {
        // As Chrome saves "Webpage, single file": MIME headers first, the HTML further down, quoted-printable.
        let mhtml = "From: <Saved by Blink>\r\nSnapshot-Content-Location: https://example.org/soup/\r\nSubject: Soup\r\n"
            + "MIME-Version: 1.0\r\nContent-Type: multipart/related;\r\n\ttype=\"text/html\";\r\n\tboundary=\"----B\"\r\n\r\n"
            + String(repeating: "\r\n", count: 3) + "------B\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
            + String(repeating: "<meta name=3D\"x\" content=3D\"y\">=\r\n", count: 80) + "<p>Soup</p>\r\n------B--\r\n"
        #expect(try detect(Data(mhtml.utf8), "soup.mhtml").format == .html)
        #expect(try detect(Data("MIME-Version is a header name.\n".utf8), "note.txt").format == .text)
    }

    @Test func formatsByContentNotName() throws {
        let pdf = try Data(contentsOf: URL(fileURLWithPath: TestSupport.repoPath("samples/recipes/pancakes.pdf")))
        #expect(try detect(pdf, "no-extension").format == .pdf)
        #expect(try detect(Data("{\"name\": \"x\"}".utf8), "a.txt").format == .json)
        #expect(try detect(Data("<!DOCTYPE html><html><body>x</body></html>".utf8), "page.txt").format == .html)
        #expect(try detect(Data("---\ntitle: x\n---\n# Soup\n".utf8)).format == .markdown)
        #expect(try detect(Data("Soup\n\n2 cups water\n".utf8)).format == .text)
    }

    @Test func savedPagesByContentWithTheirDeclaredCharset() throws {
        let page = try detect(Data("<head lang=\"fr\"><meta charset=\"ISO-8859-1\"><title>x</title></head>".utf8), "p.testhtml")
        #expect(page.format == .html)
        #expect(page.encoding == "iso-8859-1")
        #expect(try detect(Data("  <meta charset=\"utf-8\"><p>Soup</p>".utf8), "saved").format == .html)
        #expect(try detect(Data("<!doctype html><p>x</p>".utf8), "x.htm").encoding == "utf-8")
    }

    @Test(.integration) func imagesWithTheirSize() throws {
        for (file, format) in [("png", DocumentFormat.png), ("jpg", .jpeg), ("tiff", .tiff)] {
            let folder = TestSupport.repoPath("samples/receipts")
            let name = try #require(
                try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix("." + file) })
            let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
            let output = try detect(data, "photo")
            #expect(output.format == format)
            let identify = try TestSupport.shell(
                "/usr/bin/python3 -c \"from PIL import Image; i=Image.open('\(folder)/\(name)'); print(i.size[0], i.size[1])\""
            ).stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            #expect([output.width ?? -1, output.height ?? -1] == identify, "\(name)")
        }
    }

    @Test func textEncodings() throws {
        let utf16 = try Data(contentsOf: URL(fileURLWithPath: TestSupport.repoPath("Tests/Fixtures/utf16.txt")))
        let decoded16 = try detect(utf16)
        #expect(decoded16.encoding == "utf-16le")
        let latin1 = try Data(contentsOf: URL(fileURLWithPath: TestSupport.repoPath("Tests/Fixtures/latin1.txt")))
        let decodedLatin = try detect(latin1)
        #expect(decodedLatin.encoding == "latin-1")
        #expect(decodedLatin.warnings.first?.contains("UTF-8") == true)
        #expect(TextDecoding.decode(latin1)?.text.contains("crème") == true)
        #expect(try detect(Data("\u{FEFF}plain".utf8)).encoding == "utf-8")
    }

    @Test func utf8ValidationAgreesWithTheStandardLibrary() {
        func agrees(_ bytes: [UInt8]) -> Bool {
            TextDecoding.isValidUTF8(Data(bytes)) == (String(validating: bytes, as: UTF8.self) != nil)
        }
        // Every lead byte with every second byte, then a continuation byte or not: overlongs (C0, C1, E0 80, F0 80),
        // surrogates (ED A0), past U+10FFFF (F4 90, F5), truncated sequences, stray continuations.
        for lead in UInt8(0x80)...0xFF {
            for second in [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF] as [UInt8] {
                for tail in [[], [0x80], [0x80, 0x80], [0x41, 0x80]] as [[UInt8]] {
                    let bytes = [lead, second] + tail
                    #expect(agrees(bytes), "\(bytes)")
                    #expect(agrees(Array("12345678".utf8) + bytes + Array("abcdefgh".utf8)), "\(bytes) in ASCII")
                }
            }
        }
        var random = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = ["a", "é", "€", "😀", "abcdefghij"].map { Array($0.utf8) } + [[0x80], [0xC3], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80]]
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 1...24, using: &random)).flatMap { _ in pieces.randomElement(using: &random)! }
            #expect(agrees(bytes), "\(bytes)")
        }
    }

    @Test func aLargePageIsClassifiedFromItsHeadAsFromItsWholeText() throws {
        let body = String(repeating: "<p>Crème brûlée, 2 cups of sugar — stir.</p>\n", count: 2000)
        let page = Data(("  \n<!doctype html><html><head><meta charset=\"windows-1252\"></head><body>" + body + "</body></html>").utf8)
        let head = try #require(TextDecoding.decodePageHead(page))
        let whole = try #require(TextDecoding.decode(page))
        #expect(head.encoding == whole.encoding)
        #expect(head.text.utf8.count <= TextDecoding.headBytes && whole.text.hasPrefix(head.text))
        #expect(TextDecoding.classify(head.text, fileName: "p.html") == TextDecoding.classify(whole.text, fileName: "p.html"))
        #expect(TextDecoding.declaredCharset(head.text) == "windows-1252")
        #expect(try detect(page, "p.html").encoding == "windows-1252")
        // Not HTML, too short, not UTF-8: the whole text decides.
        #expect(TextDecoding.decodePageHead(Data(body.replacingOccurrences(of: "<", with: "(").utf8)) == nil)
        #expect(TextDecoding.decodePageHead(Data("<html><body>short</body></html>".utf8)) == nil)
        #expect(TextDecoding.decodePageHead(page + Data([0xFF])) == nil)
        #expect(try detect(page + Data([0xC3]), "p.html").encoding == "windows-1252")  // the declared charset wins
    }

    @Test func badInputsSayWhatToDo() throws {
        let empty = #expect(throws: LarderError.self) { try detect(Data(), "e.txt") }
        #expect(empty?.kind == .badInput)
        #expect(empty?.hint != nil)
        var random = SystemRandomNumberGenerator()
        let noise = Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) })
        let binary = #expect(throws: LarderError.self) { try detect(noise, "x.bin") }
        #expect(binary?.message.contains("unrecognised binary") == true)
        let html = #expect(throws: LarderError.self) {
            try detect(Data("<html><body>recipe</body></html>".utf8), "recipe.pdf")
        }
        #expect(html?.message.contains("HTML") == true)
        #expect(html?.path == "recipe.pdf")
    }
}

@Suite("text normalisation")
struct NormalizerTests {
    @Test func oneFormForLaterStages() {
        let text = "\u{FEFF}Title  \r\n\r\n\r\n\r\nline\u{00A0}one\rcafe\u{0301}\n\n"
        #expect(TextNormalizer.normalize(text) == "Title\n\nline one\ncafé")
    }

    @Test func oddSpacesAreFoundByTheirBytes() {
        for scalar in [0x00A0, 0x2000, 0x2007, 0x200A, 0x200B, 0x200D, 0x202F, 0x2060, 0xFEFF] {
            let text = "a" + String(Unicode.Scalar(UInt32(scalar))!) + "b"
            #expect(TextNormalizer.hasOddSpaces(text), "U+\(String(scalar, radix: 16))")
        }
        // Their neighbours stay as they are (the rebuild is skipped for them).
        for scalar in [0x00A1, 0x00C0, 0x1FFF, 0x200E, 0x2010, 0x2019, 0x202E, 0x2030, 0x205F, 0x2061, 0xFEFE, 0xFF00, 0x1F600] {
            let text = "a" + String(Unicode.Scalar(UInt32(scalar))!) + "b"
            #expect(!TextNormalizer.hasOddSpaces(text), "U+\(String(scalar, radix: 16))")
            #expect(TextNormalizer.normalize(text) == text)
        }
        #expect(TextNormalizer.normalize("x\u{200B}y\u{2009}z") == "xy z")
    }

    @Test func linesAreTrimmedAsCharactersAre() {
        // The trim by characters, as the normaliser did it on every line: its byte-level shortcut must agree.
        func reference(_ text: String) -> [Substring] {
            text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                var end = line.endIndex
                while end > line.startIndex, line[line.index(before: end)].isWhitespace { end = line.index(before: end) }
                return line[line.startIndex..<end]
            }
        }
        let endings = ["", " ", "\t", "\u{0B}", "\u{0C}", "\u{3000}", "\u{2028}", "\u{85}", "\u{1680}", "\u{205F}", "e\u{301}",
            " \u{301}", "x", "\u{600}1", "é", "😀", "\u{200E}"]
        for ending in endings {
            let text = "a\(ending)\nb \(ending)\n\n\(ending)\n  c\(ending)"
            #expect(TextNormalizer.normalize(text).split(separator: "\n", omittingEmptySubsequences: false)
                == TextNormalizer.normalize(reference(text).joined(separator: "\n")).split(separator: "\n", omittingEmptySubsequences: false),
                "\(Array(ending.unicodeScalars))")
        }
        #expect(TextNormalizer.normalize("one \t\ntwo\u{3000}\n\n\n\nthree") == "one\ntwo\n\nthree")
    }

    @Test func htmlVisibleText() {
        let html = "<html><head><style>p{}</style><script>var a=1;</script></head><body><h1>Soup &amp; Bread</h1><ul><li>1&frac12; cups</li><li>salt</li></ul></body></html>"
        let text = TextNormalizer.normalize(HTMLText.visibleText(of: html))
        #expect(text == "Soup & Bread\n\n- 1½ cups\n\n- salt")
    }
}

@Suite("route")
struct RouteTests {
    func page(_ text: String) -> ExtractOutput {
        ExtractOutput(format: .text, pages: [PDFPageText(number: 1, width: 0, height: 0, text: text, spans: [])], needsOCR: false)
    }

    @Test func recipesAndReceipts() {
        #expect(RouteStage.route(page("Soup\nIngredients\n2 tbsp oil\nMethod\nSimmer 10 minutes")).route == .recipe)
        let receipt = "FRESH MART\nMILK 2% GAL 3.49\nBREAD 2.99\nEGGS 4.19\nSUBTOTAL 10.67\nTAX 0.00\nTOTAL 10.67\nCASH 20.00\nCHANGE 9.33"
        #expect(RouteStage.route(page(receipt)).route == .receipt)
        #expect(RouteStage.route(page("Dear diary, nothing today.")).route == .unknown)
        #expect(RouteStage.route(ExtractOutput(format: .png, pages: [], needsOCR: true)).route == .receipt)
    }

    @Test func aDrinkMeasuredInFluidOuncesIsARecipe() {
        // No recipe word at all: three lines opening with a quantity and "fl oz" say it.
        let drink = "Daiquiri\nA classic rum sour.\n2 fl oz lightly aged rum\n3/4 fl oz lime juice\n3/4 fl oz simple syrup\n0. Shake with ice, strain into a frozen coupe."
        #expect(RouteStage.route(page(drink)).route == .recipe)
        #expect(RouteStage.route(page("Meeting at 2 pm\nRoom 3 fl 2\nBring notes")).route == .unknown)
    }
}

@Suite("scanned PDF text")
struct DocumentTextTests {
    let scan = ExtractOutput(
        format: .pdf, pages: [PDFPageText(number: 1, width: 420, height: 595, text: "", spans: [])], needsOCR: true)

    func ocr(_ lines: [OCRLine]) -> OCRStageOutput {
        OCRStageOutput(
            skipped: nil, lines: lines, meanConfidence: 90, steps: [],
            pages: [OCRPage(number: 1, width: 1750, height: 2480, resolution: 300, meanConfidence: 90)])
    }

    @Test func ocrLinesBecomeThePageInPoints() {
        let lines = [
            OCRLine(text: "Barley Soup", confidence: 95, box: OCRBox(x: 150, y: 200, width: 900, height: 100)),
            OCRLine(text: "Ingredients", confidence: 93, box: OCRBox(x: 150, y: 400, width: 400, height: 60)),
            OCRLine(text: "2 tbsp oil", confidence: 91, box: OCRBox(x: 150, y: 480, width: 300, height: 50)),
        ]
        let readable = DocumentText.readable(scan, ocr: ocr(lines))
        #expect(!readable.needsOCR)
        #expect(readable.pages.count == 1)
        #expect(readable.text == "Barley Soup\nIngredients\n2 tbsp oil")
        let title = readable.pages[0].lines[0]
        #expect(title.x == 36 && title.y == 48 && title.width == 216 && title.height == 24)
        #expect(title.fontSize == 20)  // 24 pt box / 1.2
        #expect(RouteStage.route(readable).route == .recipe)
    }

    @Test func withoutOCRTextTheScanStaysUnread() {
        #expect(DocumentText.readable(scan, ocr: ocr([])).needsOCR)
        #expect(DocumentText.readable(scan, ocr: nil).needsOCR)
        let text = ExtractOutput(format: .pdf, pages: [PDFPageText(number: 1, width: 1, height: 1, text: "x", spans: [])], needsOCR: false)
        #expect(DocumentText.readable(text, ocr: ocr([OCRLine(text: "ignored")])) == text)
    }
}

@Suite("stored data in earlier spellings")
struct EarlierSpellingTests {
    /// Codes are kebab-case and keys camelCase now; results, errors and outputs stored before still read.
    @Test func codesAndKeysStoredBeforeTheyWereUnifiedStillDecode() throws {
        let decoder = JSONDecoder()
        let reason = try decoder.decode(
            DocumentResult.Reason.self, from: Data(#"{"code": "totals_mismatch", "message": "m", "urgency": 80}"#.utf8))
        #expect(reason.code == .totalsMismatch)
        #expect(String(decoding: try JSONEncoder().encode(reason.code), as: UTF8.self) == #""totals-mismatch""#)
        #expect(throws: DecodingError.self) {
            try decoder.decode(DocumentResult.Reason.Code.self, from: Data(#""totals mismatch""#.utf8))
        }
        let kinds = try decoder.decode([LarderError.Kind].self, from: Data(#"["bad_input", "over-limit", "crashed"]"#.utf8))
        #expect(kinds == [.badInput, .overLimit, .crashed])
        #expect(LarderError.Kind.badInput.rawValue == "bad-input")
        let check = try decoder.decode(
            Receipt.Check.self, from: Data(#"{"adds_up": false, "computed": 1.5, "printed": 2}"#.utf8))
        #expect(check.addsUp == false)
        let checkJSON = String(decoding: try JSONEncoder().encode(check), as: UTF8.self)
        #expect(checkJSON.contains(#""addsUp":false"#) && !checkJSON.contains("adds_up"))
        let skipped = try decoder.decode(
            OCRStageOutput.self, from: Data(#"{"skipped": true, "lines": [], "meanConfidence": 0, "steps": []}"#.utf8))
        #expect(skipped.skipped != nil)
        let ran = try decoder.decode(
            OCRStageOutput.self, from: Data(#"{"skipped": false, "lines": [], "meanConfidence": 0, "steps": []}"#.utf8))
        #expect(ran.skipped == nil)
    }
}

@Suite("explicit nulls")
struct ExplicitNullTests {
    /// `@ExplicitNull` properties are written as null, never left out, and read back from null or a missing key.
    @Test func absentValuesAreWrittenAsNullAndReadFromNullOrNothing() throws {
        let totals = Receipt.Totals(subtotal: nil, tax: 0.5, total: nil, tendered: nil, change: nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(totals), as: UTF8.self)
        #expect(json == #"{"change":null,"subtotal":null,"tax":0.5,"tendered":null,"total":null}"#)
        #expect(try JSONDecoder().decode(Receipt.Totals.self, from: Data(json.utf8)) == totals)
        let sparse = try JSONDecoder().decode(Receipt.Totals.self, from: Data(#"{"tax": 0.5}"#.utf8))
        #expect(sparse == totals)
        // Plain optionals are still left out when nil (keys only some documents have).
        let item = Receipt.Item(description: "milk", total: Decimal(string: "1.2")!, line: 3)
        #expect(!String(decoding: try encoder.encode(item), as: UTF8.self).contains("unitPrice"))
    }
}
