import Foundation

/// Text on its way to a terminal. A recipe title, a file name or a message can hold control characters (an ESC
/// sequence that recolours or retitles the terminal, a carriage return that overwrites a line); every line `larder`
/// and `larder-worker` print goes through ``safe(_:)``, which shows them escaped instead.
public enum TerminalText {
    /// `text` with C0 controls other than newline and tab shown as `\xNN`, and DEL, C1 controls and the Unicode line
    /// and paragraph separators as `\u00NN`/`\u2028` (a JSON escape, so `--json` output stays valid JSON: its
    /// encoder already escapes C0 controls).
    public static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.append(scalar)
                continue
            }
            let escaped = scalar.value < 0x20 ? String(format: "\\x%02X", scalar.value) : String(format: "\\u%04X", scalar.value)
            out.append(contentsOf: escaped.unicodeScalars)
        }
        return String(out)
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value == 0x0A || value == 0x09 { return false }
        return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
    }
}
