@testable import LarderReceipts

/// OCR lines from (text, confidence) pairs: how the parser tests write a receipt as tesseract would read it.
func ocrLines(_ rows: [(String, Double)]) -> [OCRLine] {
    rows.map { OCRLine(text: $0.0, confidence: $0.1) }
}
