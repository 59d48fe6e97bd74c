import Foundation

/// A pack size printed in a product description — `RED LENTILS 2LB`, `WHOLE MILK 1 GAL`, `CANNED TOMATOES 28OZ`,
/// `LG BROWN EGGS 12CT`, `COLA 6X330ML`, `BUTTER 250G`, `MILCH 1,5L` — in the canonical units recipes use
/// (`pound`, `ounce`, `gallon`, `gram`, `milliliter`, …; counts are `each`).
public struct PackSize: Sendable, Equatable {
    /// The amount in ``unit``: for `6X330ML`, 1980.
    public var quantity: Decimal
    /// A canonical unit name, as the recipe parser writes units: `pound`, `ounce`, `fluid ounce`, `gallon`,
    /// `quart`, `pint`, `liter`, `milliliter`, `kilogram`, `gram`, or `each` for counts (`12CT`, `6PK`, `DOZ`).
    public var unit: String
    /// The size as printed (`2LB`, `1 GAL`).
    public var printed: String

    /// Creates a size.
    public init(quantity: Decimal, unit: String, printed: String) {
        self.quantity = quantity
        self.unit = unit
        self.printed = printed
    }

    /// Printed unit → canonical unit.
    static let units: [String: String] = [
        "OZ": "ounce", "FLOZ": "fluid ounce", "FL OZ": "fluid ounce", "LB": "pound", "LBS": "pound",
        "GAL": "gallon", "QT": "quart", "PT": "pint", "L": "liter", "LT": "liter", "LTR": "liter",
        "ML": "milliliter", "CL": "centiliter", "KG": "kilogram", "G": "gram", "GR": "gram",
        "CT": "each", "CNT": "each", "COUNT": "each", "PK": "each", "PACK": "each", "PCS": "each", "STK": "each",
    ]

    /// The printed unit words the receipt item's own `unit` field uses (`lb`, `oz`, `kg`, `g`) → canonical.
    public static func canonicalUnit(_ unit: String) -> String {
        units[unit.uppercased()] ?? (unit.lowercased() == "each" ? "each" : unit.lowercased())
    }

    /// The last pack size in `description`, or nil. A number glued to or followed by a unit word
    /// (`28OZ`, `1 GAL`, `1.5L`, `1,5 L`, `1/2 GAL`, `16 FL OZ`), a multipack (`6X330ML`, `6 X 12 OZ`), or a
    /// lone `DOZ`/`DOZEN` (12). Prices (`1.99`) and plain numbers (`EGGS 12`) are not sizes.
    public static func parse(_ description: String) -> PackSize? {
        let u = description.uppercased()
            .replacingMatches(of: #"(\d)\s?0Z\b"#, with: "$1OZ")
            .replacingMatches(of: #"(\d)\s?[1I]B\b"#, with: "$1LB")
        let unitAlternatives = units.keys.sorted { $0.count > $1.count }
            .map { NSRegularExpression.escapedPattern(for: $0).replacingOccurrences(of: " ", with: #"\s?"#) }
            .joined(separator: "|")
        let number = #"(\d+(?:[.,]\d+)?|\d+/\d+)"#
        let pattern = #"(?<![\w.,])(?:(\d{1,2})\s?[X×]\s?)?"# + number + #"\s?("# + unitAlternatives + #")(?![\p{L}])"#
        guard let regex = RegexCache.regex(pattern) else { return nil }
        let matches = regex.matches(in: u, range: NSRange(u.startIndex..., in: u))
        if let m = matches.last, let amountRange = Range(m.range(at: 2), in: u), let unitRange = Range(m.range(at: 3), in: u),
           let printedRange = Range(m.range, in: u), var amount = Self.number(String(u[amountRange])), amount > 0 {
            let unitWord = u[unitRange].replacingOccurrences(of: " ", with: "")
            guard let unit = units[unitWord] ?? units[String(u[unitRange])] else { return nil }
            if let countRange = Range(m.range(at: 1), in: u), let count = Decimal(string: String(u[countRange])), count > 0 {
                amount *= count
            }
            if unitWord == "CL" { return PackSize(quantity: amount * 10, unit: "milliliter", printed: String(u[printedRange])) }
            return PackSize(quantity: amount, unit: unit, printed: String(u[printedRange]))
        }
        if let r = u.range(ofPattern: #"\b(\d{1,2}\s?)?DOZ(EN)?\b"#) {
            let dozens = Decimal(string: u[r].filter(\.isNumber)) ?? 1
            return PackSize(quantity: dozens * 12, unit: "each", printed: String(u[r]))
        }
        return nil
    }

    /// `28`, `1.5`, `1,5`, `1/2`.
    static func number(_ s: String) -> Decimal? {
        if let slash = s.firstIndex(of: "/") {
            guard let a = Decimal(string: String(s[..<slash])), let b = Decimal(string: String(s[s.index(after: slash)...])), b != 0
            else { return nil }
            return a / b
        }
        return Decimal(string: s.replacingOccurrences(of: ",", with: "."), locale: Locale(identifier: "en_US_POSIX"))
    }
}

extension PantryItem {
    /// The quantity and unit a pantry keeps for a receipt item: a weighed item's weight (`2.134 lb @ 3.99/lb`);
    /// else the pack size printed in the description times the count bought (`2 @ 1.99` of `CANNED TOMATOES
    /// 28OZ` is 56 ounce); else the count bought (`each`). Units are canonical (``PackSize/canonicalUnit(_:)``).
    public static func quantity(for item: ReceiptItem) -> (quantity: Decimal?, unit: String?, evidence: String?) {
        if let unit = item.unit, unit != "each", let quantity = item.quantity {
            return (quantity, PackSize.canonicalUnit(unit), nil)
        }
        let count = item.unit == "each" || item.unit == nil ? item.quantity : nil
        if let size = PackSize.parse(item.description) {
            let total = size.quantity * (count ?? 1)
            let how = count.map { "pack size \(size.printed) × \($0)" } ?? "pack size \(size.printed)"
            return (total, size.unit, how)
        }
        if let count { return (count, "each", nil) }
        return (nil, nil, nil)
    }
}
