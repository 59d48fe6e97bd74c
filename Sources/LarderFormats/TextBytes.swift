import Foundation

/// Decodes the bytes of old recipe files: UTF-8 (with or without a BOM) when valid, otherwise code page 437 (DOS,
/// what MealMaster wrote) or Windows-1252 (what Windows programs wrote), chosen by which explains the bytes
/// better. Every byte decodes to something, so no recipe is lost to one odd character.
public enum TextBytes {
    public enum Encoding: String, Sendable { case utf8 = "utf-8", cp437, windows1252 = "windows-1252" }

    public static func decode(_ data: Data) -> String { decodeReporting(data).text }

    public static func decodeReporting(_ data: Data) -> (text: String, encoding: Encoding) {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if let text = String(validating: bytes, as: UTF8.self) { return (text, .utf8) }
        let encoding = prefersCP437(bytes) ? Encoding.cp437 : .windows1252
        let table = encoding == .cp437 ? cp437 : cp1252
        var scalars = String.UnicodeScalarView()
        scalars.reserveCapacity(bytes.count)
        for b in bytes {
            if b < 0x80 { scalars.append(Unicode.Scalar(b)) } else { scalars.append(table[Int(b) - 0x80]) }
        }
        return (String(scalars), encoding)
    }

    /// DOS text uses 0x80–0xA5 for accented letters and 0xB0–0xDF for box drawing; Windows-1252 text uses
    /// 0xC0–0xFF for accented letters and 0x91–0x97 for quotes and dashes. Whichever range holds more bytes wins.
    static func prefersCP437(_ bytes: [UInt8]) -> Bool {
        var dos = 0
        var windows = 0
        for b in bytes where b >= 0x80 {
            switch b {
            case 0x91...0x97: windows += 1
            case 0x80...0xA5, 0xB0...0xDF: dos += 1
            case 0xE0...0xFF: windows += 1
            default: break
            }
        }
        return dos > windows
    }

    static let cp437: [Unicode.Scalar] = Array(
        "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u{A0}"
            .unicodeScalars)

    /// Windows-1252: 0x80–0x9F as Microsoft defines them (the five undefined bytes as their C1 controls), the rest
    /// as Latin-1.
    static let cp1252: [Unicode.Scalar] = {
        let low = Array("€\u{81}‚ƒ„…†‡ˆ‰Š‹Œ\u{8D}Ž\u{8F}\u{90}‘’“”•–—˜™š›œ\u{9D}žŸ".unicodeScalars)
        return low + (0xA0...0xFF).map { Unicode.Scalar(UInt8($0)) }
    }()
}
