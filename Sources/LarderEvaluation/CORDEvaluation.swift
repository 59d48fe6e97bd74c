import Foundation
import LarderReceipts

/// Scores the receipt parser alone (no OCR) on CORD annotations (`shared/data/receipts-cord/json/*.json`): the
/// lines are rebuilt from the labelled word boxes (words grouped by `row_id`, rows top to bottom, words left to
/// right), parsed, and compared with `gt_parse` — items (`menu[].nm`/`price`) and the total. CORD receipts are
/// Indonesian: prices are whole rupiah with `,` or `.` as thousands separators.
public enum CORDEvaluation {
    public static func run(folder: String, includeDetails: Bool = false, strict: Bool = false) throws -> ReceiptEvaluationReport {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
        guard !files.isEmpty else {
            throw ReceiptError(
                .folderUnreadable, path: folder, message: "no CORD annotation files (*.json) in the folder",
                hint: "point --cord at shared/data/receipts-cord/json")
        }
        // As the receipt stage reads receipts (the line model as evidence), in the set's currency.
        var configuration = ReceiptParserConfiguration.pipeline
        configuration.defaultCurrency = "IDR"
        let parser = ReceiptParser(configuration: configuration)
        var details: [ReceiptEvaluationDetail] = []
        for file in files {
            let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file))
            guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { continue }
            let lines = Self.lines(root)
            let label = Self.label(root)
            let started = Date()
            let receipt = parser.parse(lines: lines)
            details.append(
                ReceiptEvaluation.score(
                    id: file, receipt: receipt, label: label, seconds: Date().timeIntervalSince(started), strict: strict))
        }
        var report = ReceiptEvaluation.summarize(details, includeDetails: includeDetails)
        report.scoring = strict ? "strict" : "fair"
        return report
    }

    /// Lines rebuilt from word boxes.
    static func lines(_ root: [String: Any]) -> [OCRLine] {
        var rows: [Int: [(x: Int, y: Int, right: Int, bottom: Int, text: String)]] = [:]
        for line in root["valid_line"] as? [[String: Any]] ?? [] {
            for word in line["words"] as? [[String: Any]] ?? [] {
                guard let row = word["row_id"] as? Int, let text = word["text"] as? String,
                    let quad = word["quad"] as? [String: Any]
                else { continue }
                let x = quad["x1"] as? Int ?? 0, y = quad["y1"] as? Int ?? 0
                rows[row, default: []].append((x: x, y: y, right: max(x, quad["x3"] as? Int ?? x),
                                               bottom: max(y, quad["y3"] as? Int ?? y), text: text))
            }
        }
        return rows.values.map { words in words.sorted { $0.x < $1.x } }
            .sorted { ($0.map(\.y).min() ?? 0) < ($1.map(\.y).min() ?? 0) }
            .map { words in
                let x = words.map(\.x).min() ?? 0
                let y = words.map(\.y).min() ?? 0
                let box = OCRBox(x: x, y: y, width: (words.map(\.right).max() ?? x) - x, height: (words.map(\.bottom).max() ?? y) - y)
                return OCRLine(text: words.map(\.text).joined(separator: " "), confidence: 100, box: box)
            }
    }

    /// The expected items and total from `gt_parse`.
    static func label(_ root: [String: Any]) -> ReceiptLabel {
        let parse = root["gt_parse"] as? [String: Any] ?? [:]
        var menu: [[String: Any]] = []
        if let list = parse["menu"] as? [[String: Any]] { menu = list } else if let one = parse["menu"] as? [String: Any] { menu = [one] }
        let items = menu.compactMap { entry -> ReceiptLabel.Item? in
            guard let name = entry["nm"] as? String, let price = (entry["price"] as? String).flatMap(rupiah) else { return nil }
            return ReceiptLabel.Item(name: name, price: price)
        }
        let total = ((parse["total"] as? [String: Any])?["total_price"] as? String).flatMap(rupiah)
        return ReceiptLabel(store: nil, date: nil, total: total, items: items)
    }

    /// "16,500" / "16.500" / "Rp 16.500" → 16500; "58,000.00" / "58000.00" → 58000 (cents dropped).
    static func rupiah(_ text: String) -> Double? {
        let negative = text.contains("-")
        var text = text.trimmingCharacters(in: .whitespaces)
        if text.range(of: #"\d[.,]\d\d$"#, options: .regularExpression) != nil { text.removeLast(3) }
        let digits = text.filter(\.isNumber)
        guard !digits.isEmpty, let value = Double(digits) else { return nil }
        return negative ? -value : value
    }
}
