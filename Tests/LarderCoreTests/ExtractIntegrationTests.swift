import Foundation
import Testing

@testable import LarderCore

/// The extract stage against real poppler-glib and real PDFs (samples/ and Tests/Fixtures/).
@Suite("extract with poppler")
struct ExtractIntegrationTests {
    func extract(_ relative: String, maxPages: Int = 500) throws -> ExtractOutput {
        try ExtractStage.extractPDF(path: TestSupport.repoPath(relative), maxPages: maxPages)
    }

    @Test func titleHasTheLargestFont() throws {
        let output = try extract("samples/recipes/pancakes.pdf")
        #expect(output.pages.count == 1)
        let page = try #require(output.pages.first)
        let largest = try #require(page.spans.max { $0.size < $1.size })
        let scalars = Array(page.text.unicodeScalars)
        let title = String(String.UnicodeScalarView(scalars[largest.start..<min(largest.end, scalars.count)]))
        #expect(title.contains("Pancakes"))
        #expect(largest.size > 15)
        #expect(page.text.contains("Ingredients"))
        #expect(!output.needsOCR)
    }

    @Test func matchesPdftotextWords() throws {
        // Same engine as the pdftotext CLI: the words must agree.
        let output = try extract("samples/recipes/two-recipes.pdf")
        #expect(output.pages.count == 2)
        let reference = try TestSupport.shell("pdftotext \(TestSupport.repoPath("samples/recipes/two-recipes.pdf")) -")
        #expect(reference.status == 0)
        let words = { (text: String) in text.split { $0.isWhitespace || $0 == "\u{0C}" } }
        #expect(words(output.text) == words(reference.stdout))
    }

    @Test func badPDFsFailWithWhatToDo() throws {
        let encrypted = #expect(throws: LarderError.self) { try extract("Tests/Fixtures/encrypted.pdf") }
        #expect(encrypted?.message.contains("encrypted") == true)
        #expect(encrypted?.hint?.contains("qpdf --decrypt") == true)
        let truncated = #expect(throws: LarderError.self) { try extract("Tests/Fixtures/truncated.pdf") }
        #expect(truncated?.message.contains("truncated") == true)
        let empty = #expect(throws: LarderError.self) { try extract("Tests/Fixtures/zero-pages.pdf") }
        #expect(empty?.message.contains("no pages") == true)
        let tooLong = #expect(throws: LarderError.self) { try extract("samples/recipes/two-recipes.pdf", maxPages: 1) }
        #expect(tooLong?.kind == .overLimit)
        #expect(tooLong?.hint?.contains("max_pdf_pages") == true)
        for error in [encrypted, truncated, empty, tooLong] {
            #expect(error?.path?.hasSuffix(".pdf") == true)
            #expect(error?.isRetryable == false)
        }
    }
}
