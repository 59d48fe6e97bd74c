import Foundation
import LarderCore

/// The limits on a text document's size and line length (`limits.max_text_bytes`, `limits.max_line_chars`),
/// checked by `detect` on the bytes it read, before anything decodes or normalises them: a 50 MB file of one
/// line otherwise costs gigabytes in the normaliser and the parsers.
public enum TextLimits {
    public static func check(_ data: Data, format: DocumentFormat, limits: PipelineConfig.Limits, path: String) throws {
        guard [.text, .markdown, .html, .json].contains(format) else { return }
        if Int64(data.count) > limits.maxTextBytes {
            throw LarderError(
                .overLimit, "text file of \(data.count) bytes, over the limit of \(limits.maxTextBytes)",
                hint: "split it, or raise limits.max_text_bytes in pipeline.yml if it really is one recipe or receipt",
                path: path)
        }
        guard format == .text || format == .markdown else { return }  // minified HTML and JSON are one line
        // One pass over the bytes, counting Unicode scalars (bytes that do not continue a UTF-8 sequence) per line.
        var characters = 0
        var current = 0
        data.withUnsafeBytes { raw in
            for byte in raw {
                if byte == 0x0A || byte == 0x0D {
                    characters = max(characters, current)
                    current = 0
                } else if byte & 0xC0 != 0x80 {
                    current += 1
                }
            }
        }
        characters = max(characters, current)
        if characters > limits.maxLineCharacters {
            throw LarderError(
                .overLimit, "a line of \(characters) characters, over the limit of \(limits.maxLineCharacters)",
                hint: "no recipe or receipt has such a line: check the file, or raise limits.max_line_chars",
                path: path)
        }
    }
}
