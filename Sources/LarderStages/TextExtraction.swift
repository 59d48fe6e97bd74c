import Foundation
import LarderCore

/// The text formats' half of `extract` (the PDF half, in `ExtractStage`, calls poppler).
public enum TextExtraction {
    /// Text, Markdown, HTML or JSON → one normalised page (HTML reduced to its visible text).
    /// - Parameter data: the document's registered bytes.
    public static func extract(_ document: DocumentRecord, data: Data, format: DocumentFormat) throws -> ExtractOutput {
        guard let decoded = TextDecoding.decode(data) else {
            throw LarderError(.badInput, "the text can no longer be decoded", path: document.path)
        }
        var text = decoded.text
        if format == .html { text = HTMLText.visibleText(of: text) }
        text = TextNormalizer.normalize(text)
        let page = PDFPageText(number: 1, width: 0, height: 0, text: text, spans: [])
        return ExtractOutput(format: format, pages: [page], needsOCR: false)
    }
}

/// Normalises decoded text so later stages see one form: `\n` line ends, NFC, plain spaces, no trailing blanks,
/// at most one empty line in a row.
public enum TextNormalizer {
    public static func normalize(_ text: String) -> String {
        var text = text
        if text.utf8.contains(0x0D) {  // Foundation's search, only for text that has a CR at all
            text = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        }
        if !isNFC(text) { text = text.precomposedStringWithCanonicalMapping }
        if hasOddSpaces(text) {  // rebuilt scalar by scalar only when there is something to drop or replace
            var scalars = String.UnicodeScalarView()
            for scalar in text.unicodeScalars {
                switch scalar.value {
                case 0xFEFF, 0x200B, 0x200C, 0x200D, 0x2060: continue  // BOM and zero-width characters
                case 0x00A0, 0x2007, 0x202F, 0x2000...0x200A: scalars.append(" ")
                default: scalars.append(scalar)
                }
            }
            text = String(scalars)
        }
        var lines: [Substring] = []
        var blank = 0
        // Split on the byte 0x0A: a line feed is always a character of its own (no character spans it).
        for bytes in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let line = Substring(bytes)
            var end = line.endIndex
            // A line ending in an ASCII byte other than white space ends in a character that is not white space.
            if let last = bytes.last, last >= 0x80 || last == 0x20 || (0x09...0x0D).contains(last) {
                while end > line.startIndex, line[line.index(before: end)].isWhitespace { end = line.index(before: end) }
            }
            let trimmed = line[line.startIndex..<end]
            if trimmed.isEmpty {
                blank += 1
                if blank > 1 { continue }
            } else {
                blank = 0
            }
            lines.append(trimmed)
        }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }
}

extension TextNormalizer {
    /// Whether `text` holds a scalar ``normalize(_:)`` drops or replaces by a space: U+00A0, U+2000–U+200D, U+202F,
    /// U+2060 or U+FEFF. Tested on the UTF-8 bytes (their lead bytes C2, E2 and EF never continue a sequence).
    static func hasOddSpaces(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { b in
            let n = b.count
            var i = 0
            while i < n {
                switch b[i] {
                case 0xC2:
                    if i + 1 < n, b[i + 1] == 0xA0 { return true }  // U+00A0
                case 0xE2:
                    if i + 2 < n {
                        let (b1, b2) = (b[i + 1], b[i + 2])
                        if b1 == 0x80, b2 <= 0x8D || b2 == 0xAF { return true }  // U+2000–U+200D, U+202F
                        if b1 == 0x81, b2 == 0xA0 { return true }  // U+2060
                    }
                case 0xEF:
                    if i + 2 < n, b[i + 1] == 0xBB, b[i + 2] == 0xBF { return true }  // U+FEFF
                default: break
                }
                i += 1
            }
            return false
        } ?? true
    }

    /// True when `text` is certainly in NFC already, so Foundation's normalisation (which copies the text through
    /// UTF-16) would return it unchanged: every scalar is below U+0300 (Latin letters, no combining marks) or a
    /// general punctuation or currency sign from U+2002 (quotes, dashes, ellipsis…), none of which NFC changes
    /// (Unicode's NFC_Quick_Check is Yes for all of them). Anything else is normalised.
    static func isNFC(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0..<0x300, 0x2002..<0x2070, 0x20A0..<0x20C1: true
            default: false
            }
        }
    }
}

/// The visible text of an HTML page: scripts and styles dropped, block elements as line breaks, entities decoded.
public enum HTMLText {
    private static let hidden = try! NSRegularExpression(
        pattern: "<(script|style|noscript|template)\\b[^>]*>.*?</\\1\\s*>|<!--.*?-->",
        options: [.caseInsensitive, .dotMatchesLineSeparators])
    private static let breaks = try! NSRegularExpression(
        pattern: "<(br|/p|/div|/li|/h[1-6]|/tr|/section|/article|/header|/footer|/ul|/ol)\\b[^>]*>",
        options: [.caseInsensitive])
    private static let items = try! NSRegularExpression(pattern: "<li\\b[^>]*>", options: [.caseInsensitive])
    private static let tags = try! NSRegularExpression(pattern: "<[^>]*>", options: [])
    private static let spaces = try! NSRegularExpression(pattern: "[ \\t]+", options: [])

    public static func visibleText(of html: String) -> String {
        var text = replace(hidden, in: html, with: "")
        text = replace(breaks, in: text, with: "\n")
        text = replace(items, in: text, with: "\n- ")
        text = replace(tags, in: text, with: "")
        text = decodeEntities(text)
        text = replace(spaces, in: text, with: " ")
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
    }

    private static func replace(_ regex: NSRegularExpression, in text: String, with template: String) -> String {
        regex.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: template)
    }

    private static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "frac12": "½", "frac14": "¼",
        "frac34": "¾", "deg": "°", "ndash": "–", "mdash": "—", "hellip": "…", "rsquo": "’", "lsquo": "‘",
        "rdquo": "”", "ldquo": "“", "eacute": "é", "egrave": "è", "times": "×",
    ]

    public static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            result += rest[rest.startIndex..<amp]
            let after = rest[amp...].dropFirst()
            if let semi = after.prefix(12).firstIndex(of: ";") {
                let name = String(after[after.startIndex..<semi])
                var replacement: String?
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    replacement = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
                } else if name.hasPrefix("#") {
                    replacement = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
                } else {
                    replacement = named[name]
                }
                if let replacement {
                    result += replacement
                    rest = after[after.index(after: semi)...]
                    continue
                }
            }
            result += "&"
            rest = after
        }
        return result + rest
    }
}
