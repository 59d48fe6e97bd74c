import Foundation

/// Readers of the labelled receipt sets into ``LabelledReceiptLines``: CORD (`valid_line` words with categories),
/// SROIE (box transcripts; roles derived from the key fields, the other lines left unlabelled) and the photos'
/// WildReceipt box labels (`receipts-photos/boxes/`). Lines are rebuilt from word boxes by row.
public enum ReceiptLineData {
    /// Why a labelled set could not be read.
    public struct ReadError: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }
    }

    // MARK: CORD

    /// CORD receipts: one JSON per receipt (`valid_line`), in `folder` (sorted by file name).
    public static func cord(folder: String, source: String = "cord") throws -> [LabelledReceiptLines] {
        try jsonFiles(folder).map { path in
            guard let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any] else {
                throw ReadError(path: path, reason: "not a JSON object")
            }
            var root = object
            if let gt = object["ground_truth"] as? String, let d = gt.data(using: .utf8),
               let parsed = try JSONSerialization.jsonObject(with: d) as? [String: Any] { root = parsed }
            guard let valid = root["valid_line"] as? [[String: Any]] else {
                throw ReadError(path: path, reason: "no valid_line array: not a CORD annotation")
            }
            var words: [(row: Int, box: OCRBox, text: String, category: String)] = []
            for group in valid {
                let category = group["category"] as? String ?? ""
                for w in group["words"] as? [[String: Any]] ?? [] {
                    guard let quad = w["quad"] as? [String: Any], let text = w["text"] as? String else { continue }
                    let xs = ["x1", "x2", "x3", "x4"].compactMap { (quad[$0] as? NSNumber)?.intValue }
                    let ys = ["y1", "y2", "y3", "y4"].compactMap { (quad[$0] as? NSNumber)?.intValue }
                    guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { continue }
                    words.append(((w["row_id"] as? NSNumber)?.intValue ?? 0, OCRBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0), text, category))
                }
            }
            var rows: [Int: [(box: OCRBox, text: String, label: String)]] = [:]
            for w in words { rows[w.row, default: []].append((w.box, w.text, w.category)) }
            // Rows in reading order; the row id breaks ties, so the order never depends on the dictionary's.
            let lines = rows.sorted { $0.key < $1.key }.map { line(from: $0.value) }
                .enumerated().sorted { ($0.element.line.box.y, $0.offset) < ($1.element.line.box.y, $1.offset) }.map(\.element)
            let id = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            return LabelledReceiptLines(source: source, id: id, lines: lines.map(\.line), roles: lines.map { cordRole($0.labels) })
        }
    }

    static func cordRole(_ categories: [String]) -> ReceiptLineRole? {
        let c = Set(categories)
        if c.contains("total.total_price") { return .total }
        if c.contains("sub_total.subtotal_price") { return .subtotal }
        if c.contains("sub_total.tax_price") || c.contains("sub_total.service_price") || c.contains("sub_total.othersvc_price") { return .tax }
        if c.contains("sub_total.discount_price") { return .discount }
        if c.contains("total.changeprice") { return .change }
        if c.contains("total.cashprice") || c.contains("total.creditcardprice") || c.contains("total.emoneyprice") { return .tender }
        if c.contains("menu.nm") || c.contains("menu.price") { return .item }
        if c.contains("menu.discountprice") { return .discount }
        if c.contains(where: { $0.hasPrefix("menu.") }) { return .itemDetail }
        if c.contains(where: { $0.hasPrefix("void_menu.") }) { return nil }
        return .other
    }

    // MARK: SROIE

    /// SROIE receipts (`box/NNN.csv` + `key/NNN.json`), skipping ids listed in `exclude`. Store, address, date and
    /// total lines are found by matching the key fields; every other line is unlabelled.
    public static func sroie(folder: String, source: String = "sroie") throws -> [LabelledReceiptLines] {
        let boxDir = (folder as NSString).appendingPathComponent("box")
        let keyDir = (folder as NSString).appendingPathComponent("key")
        let names = try FileManager.default.contentsOfDirectory(atPath: boxDir).filter { $0.hasSuffix(".csv") }.sorted()
        var out: [LabelledReceiptLines] = []
        for name in names {
            let id = (name as NSString).deletingPathExtension
            let keyPath = (keyDir as NSString).appendingPathComponent(id + ".json")
            guard let keyData = FileManager.default.contents(atPath: keyPath),
                  let key = try JSONSerialization.jsonObject(with: keyData) as? [String: Any] else { continue }
            let boxPath = (boxDir as NSString).appendingPathComponent(name)
            let text = try String(contentsOfFile: boxPath, encoding: .utf8)
            var words: [(box: OCRBox, text: String, label: String)] = []
            for row in text.split(whereSeparator: \.isNewline) {
                let parts = row.split(separator: ",", maxSplits: 8, omittingEmptySubsequences: false)
                guard parts.count == 9 else { continue }
                let n = parts[0..<8].compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
                guard n.count == 8 else { continue }
                let xs = [n[0], n[2], n[4], n[6]], ys = [n[1], n[3], n[5], n[7]]
                let t = String(parts[8]).trimmingCharacters(in: .whitespaces)
                guard !t.isEmpty else { continue }
                words.append((OCRBox(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!), t, ""))
            }
            // SROIE boxes often hold a label and its amount apart ("TOTAL" … "9.00"): rows joined as on paper.
            let lines = rows(words).map { line(from: $0).line }
            out.append(LabelledReceiptLines(source: source, id: id, lines: lines, roles: sroieRoles(lines, key)))
        }
        return out
    }

    static func sroieRoles(_ lines: [OCRLine], _ key: [String: Any]) -> [ReceiptLineRole?] {
        let company = fold(key["company"] as? String ?? ""), address = fold(key["address"] as? String ?? "")
        let date = key["date"] as? String ?? ""
        let total = Double((key["total"] as? String ?? "").replacingOccurrences(of: ",", with: ""))
        var roles = [ReceiptLineRole?](repeating: nil, count: lines.count)
        var sawTotal = false
        for (i, line) in lines.enumerated() {
            let t = fold(line.text)
            guard t.count >= 3 else { continue }
            if !sawTotal, company.contains(t), t.count * 2 >= min(company.count, 12) { roles[i] = .store; continue }
            if !sawTotal, address.contains(t), t.filter(\.isLetter).count >= 3 { roles[i] = .address; continue }
            if !date.isEmpty, line.text.contains(date) { roles[i] = .date; continue }
            if let total, let a = LineFeatures.summarize(line.text).amount, abs(a - total) < 0.005, !sawTotal {
                // The first line printing the total with a word before it is the total line.
                if line.text.contains(where: \.isLetter) { roles[i] = .total; sawTotal = true }
            }
        }
        return roles
    }

    // MARK: Photos (WildReceipt box labels)

    /// The photos' box labels (`boxes/<id>.json`), lines rebuilt by row; `ids`, when given, limits the receipts.
    public static func photos(boxesFolder: String, ids: Set<String>? = nil, source: String = "photos") throws -> [LabelledReceiptLines] {
        try jsonFiles(boxesFolder).compactMap { path in
            let id = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            if let ids, !ids.contains(id) { return nil }
            guard let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any],
                  let boxes = object["boxes"] as? [[String: Any]] else {
                throw ReadError(path: path, reason: "no boxes array: not a receipts-photos box label")
            }
            var words: [(box: OCRBox, text: String, label: String)] = []
            for b in boxes {
                guard let q = (b["box"] as? [NSNumber])?.map(\.doubleValue), q.count == 8, let text = b["text"] as? String else { continue }
                let xs = [q[0], q[2], q[4], q[6]], ys = [q[1], q[3], q[5], q[7]]
                let box = OCRBox(x: Int(xs.min()!), y: Int(ys.min()!), width: Int(xs.max()! - xs.min()!), height: Int(ys.max()! - ys.min()!))
                words.append((box, text, b["label"] as? String ?? "Ignore"))
            }
            let lines = rows(words).map { line(from: $0) }
            return LabelledReceiptLines(source: source, id: id, lines: lines.map(\.line), roles: lines.map { photoRole($0.labels, $0.line.text) })
        }
    }

    static func photoRole(_ labels: [String], _ text: String) -> ReceiptLineRole? {
        let l = Set(labels.map { $0.replacingOccurrences(of: "_value", with: "").replacingOccurrences(of: "_key", with: "") })
        let hasAmount = LineFeatures.summarize(text).amount != nil
        if l.contains("Total") { return hasAmount ? .total : nil }
        if l.contains("Subtotal") { return .subtotal }
        if l.contains("Tax") { return .tax }
        if l.contains("Tips") { return .other }
        if l.contains("Prod_item") || l.contains("Prod_price") { return .item }
        if l.contains("Prod_quantity") { return .itemDetail }
        if l.contains("Date") { return .date }
        if l.contains("Time") { return .time }
        if l.contains("Store_name") { return .store }
        if l.contains("Store_addr") || l.contains("Tel") { return .address }
        if l == ["Ignore"] { return nil }
        // WildReceipt has no tender, change or discount labels: a priced "Others" line may be any of them.
        return hasAmount ? nil : .other
    }

    // MARK: Shared

    /// Words grouped into rows: sorted by vertical centre, a word joins the row it overlaps by half its height.
    static func rows(_ words: [(box: OCRBox, text: String, label: String)]) -> [[(box: OCRBox, text: String, label: String)]] {
        var rows: [[(box: OCRBox, text: String, label: String)]] = []
        var spans: [(top: Int, bottom: Int)] = []
        for w in words.sorted(by: { ($0.box.y * 2 + $0.box.height, $0.box.x) < ($1.box.y * 2 + $1.box.height, $1.box.x) }) {
            let top = w.box.y, bottom = w.box.y + w.box.height
            if let k = spans.indices.last(where: { min(spans[$0].bottom, bottom) - max(spans[$0].top, top) >= max(1, min(bottom - top, spans[$0].bottom - spans[$0].top) / 2) }) {
                rows[k].append(w)
                spans[k] = (min(spans[k].top, top), max(spans[k].bottom, bottom))
            } else {
                rows.append([w])
                spans.append((top, bottom))
            }
        }
        return rows
    }

    /// One line from its words (left to right): text joined with spaces, the union box.
    static func line(from words: [(box: OCRBox, text: String, label: String)]) -> (line: OCRLine, labels: [String]) {
        let sorted = words.sorted { $0.box.x < $1.box.x }
        let x0 = sorted.map(\.box.x).min() ?? 0, y0 = sorted.map(\.box.y).min() ?? 0
        let x1 = sorted.map { $0.box.x + $0.box.width }.max() ?? 0, y1 = sorted.map { $0.box.y + $0.box.height }.max() ?? 0
        let ocrWords = sorted.map { OCRWord(text: $0.text, box: $0.box) }
        let line = OCRLine(text: sorted.map(\.text).joined(separator: " "), box: OCRBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0), words: ocrWords)
        return (line, sorted.map(\.label))
    }

    /// Letters and digits, upper case.
    static func fold(_ s: String) -> String { String(s.uppercased().filter { $0.isLetter || $0.isNumber }) }

    static func jsonFiles(_ folder: String) throws -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw ReadError(path: folder, reason: "cannot list the folder: pass the labelled set's folder (../shared/data/…)")
        }
        return names.filter { $0.hasSuffix(".json") }.sorted().map { (folder as NSString).appendingPathComponent($0) }
    }
}

extension ReceiptLineData {
    /// The fold (0..<folds) of a receipt id: FNV-1a of the id, so folds do not depend on file order.
    public static func fnvFold(_ id: String, _ folds: Int) -> UInt32 { LineFeatures.fnv1a(id) % UInt32(max(folds, 1)) }
}
