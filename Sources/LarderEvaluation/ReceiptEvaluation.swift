import Foundation
import LarderCore
import LarderReceipts
import LarderStages

/// The expected values for one receipt image. Any field may be absent.
///
/// Project layout (`<id>.json` beside the image, or in a separate labels folder):
/// `{"store": "…", "date": "YYYY-MM-DD", "total": 12.34, "items": [{"name": "…", "price": 1.99}]}`.
/// SROIE layout (`key/<id>.json`): `{"company": "…", "date": "25/01/2018", "total": "RM9.00", "address": "…"}`.
public struct ReceiptLabel: Codable, Sendable, Equatable {
    /// One labelled item; discounts are items with a negative price.
    public struct Item: Codable, Sendable, Equatable {
        /// The item name as printed.
        public var name: String
        /// The line price; negative for discounts.
        public var price: Double
        /// Creates an item label.
        public init(name: String, price: Double) { self.name = name; self.price = price }
    }
    /// The store name.
    public var store: String?
    /// `YYYY-MM-DD`.
    public var date: String?
    /// The receipt total.
    public var total: Double?
    /// The items, discounts included with negative prices.
    public var items: [Item]?
    /// The number of purchased lines printed on the receipt, when the label gives only that
    /// (`receipts-de`: `item_count`).
    public var itemCount: Int?
    /// Whether ``items`` lists every item line (`index.csv` column `complete_items`); item precision is
    /// counted only where this is true. Not part of the JSON label.
    public var completeItems: Bool = true

    enum CodingKeys: String, CodingKey {
        case store, date, total, items
        case itemCount = "item_count"
    }

    /// Creates a label.
    public init(store: String? = nil, date: String? = nil, total: Double? = nil, items: [Item]? = nil,
                itemCount: Int? = nil, completeItems: Bool = true) {
        self.store = store
        self.date = date
        self.total = total
        self.items = items
        self.itemCount = itemCount
        self.completeItems = completeItems
    }
}

/// Scores for one image.
public struct ReceiptEvaluationDetail: Codable, Sendable, Equatable {
    /// The image id (file name without extension).
    public var id: String
    /// Store right / wrong; nil when the label has no store.
    public var storeOK: Bool?
    /// Date right / wrong; nil when the label has no date.
    public var dateOK: Bool?
    /// The date read is the label's with day and month exchanged (``ReceiptEvaluation/isDayMonthSwap(predicted:label:)``);
    /// set only on such a miss.
    public var dateLabelSwapped: Bool?
    /// Total right / wrong; nil when the label has no total.
    public var totalOK: Bool?
    /// What the parser read.
    public var predictedStore: String?
    /// What the parser read, `YYYY-MM-DD`.
    public var predictedDate: String?
    /// What the parser read.
    public var predictedTotal: Double?
    /// Label items matched (see ``ReceiptEvaluation``).
    public var itemsMatched: Int
    /// Items + discounts the parser produced (counted only when the label has items).
    public var itemsPredicted: Int
    /// Items in the label.
    public var itemsLabelled: Int
    /// The label lists every item, so this receipt counts towards item precision (recall counts all).
    public var itemsComplete: Bool = true
    /// The number of items read equals the label's `item_count`; nil when the label has none.
    public var itemCountOK: Bool?
    /// The parsed receipt asked for review (or OCR failed).
    public var needsReview: Bool
    /// Wall-clock seconds for OCR + parsing.
    public var seconds: Double
    /// The error text when OCR failed.
    public var error: String?
}

/// The result of ``ReceiptEvaluation/run(folder:options:)``; encodes with the keys `count`, `store`,
/// `date`, `total` (fractions right over receipts whose label has that field), `item_precision`,
/// `item_recall`, `item_f1` (over receipts whose label has items; absent when none has), plus the counts
/// behind each fraction, timing and per-receipt details.
public struct ReceiptEvaluationReport: Codable, Sendable, Equatable {
    /// Receipts evaluated.
    public var count: Int
    /// Fraction of labelled stores right.
    public var store: Double?
    /// Fraction of labelled dates right.
    public var date: Double?
    /// Fraction of labelled totals right.
    public var total: Double?
    /// Matched / predicted items over receipts with item labels.
    public var itemPrecision: Double?
    /// Matched / labelled items.
    public var itemRecall: Double?
    /// Harmonic mean of the two.
    public var itemF1: Double?
    /// Fraction of receipts whose `item_count` label equals the number of items read.
    public var itemCount: Double?
    /// Receipts whose label has an `item_count`.
    public var itemCountLabelled: Int = 0
    /// `fair` (the default: letters-and-digits names matched by containment or similarity) or `strict`.
    public var scoring: String = "fair"
    /// Receipts whose label has a store.
    public var storeLabelled: Int
    /// Receipts whose label has a date.
    public var dateLabelled: Int
    /// Date misses where the date read is the label with day and month exchanged (the label's order disagrees with
    /// the paper's, or the parser's does): `date_label_swapped`. Not counted as right in ``date``.
    public var dateLabelSwapped: Int?
    /// The date score with those misses counted as right (`date_either_order`): the digits read, whatever the order.
    public var dateEitherOrder: Double?
    /// Receipts whose label has a total.
    public var totalLabelled: Int
    /// Receipts whose label has items.
    public var itemsLabelled: Int
    /// Receipts the parser sent to review.
    public var needsReview: Int
    /// Images OCR failed on.
    public var failures: Int
    /// Mean wall-clock seconds per image (OCR + parsing).
    public var secondsPerImage: Double
    /// Per-receipt details, when ``ReceiptEvaluation/Options/includeDetails`` is set.
    public var receipts: [ReceiptEvaluationDetail]?

    enum CodingKeys: String, CodingKey {
        case count, store, date, total
        case itemPrecision = "item_precision", itemRecall = "item_recall", itemF1 = "item_f1"
        case itemCount = "item_count", itemCountLabelled = "item_count_labelled", scoring
        case storeLabelled = "store_labelled", dateLabelled = "date_labelled", totalLabelled = "total_labelled"
        case dateLabelSwapped = "date_label_swapped", dateEitherOrder = "date_either_order"
        case itemsLabelled = "items_labelled", needsReview = "needs_review", failures
        case secondsPerImage = "seconds_per_image", receipts
    }
}

/// Measures OCR + parsing against labelled receipts: the API behind `larder eval receipts DIR [--json]`.
///
/// Layouts:
/// - **Siblings**: images (`png`, `jpg`, `jpeg`, `tif`, `tiff`) with `<id>.json` labels beside them, or in
///   ``Options/labelsFolder`` (the project's `samples/expected/receipts`). Images without a label are skipped.
/// - **SROIE**: a folder with `img/<id>.jpg` and `key/<id>.json` (detected automatically). Its key dates are
///   read day-first and totals may carry `RM`. Its receipts are Malaysian: `eval/sroie.yml` sets
///   `receipts.default_currency: MYR` and `receipts.date_order: day_first`, as a user would (nothing is switched
///   silently).
///
/// Every image goes through the standard stages (``DocumentRunner``: detect, extract, ocr, route, receipt… with
/// ``Options/config``) and the receipt of the result `larder export` would write is scored.
///
/// Matching rules (default, **fair** — for real labels, whose names lost their spaces and carry the
/// annotators' typos; `receipts-photos`):
/// - **names** (items and stores) are compared after keeping only letters and digits, lower-cased.
/// - **items**: one-to-one; a predicted item (discounts count, with negative prices) matches a label item
///   when the prices are equal to the cent and one name contains the other or their similarity ratio
///   (2 × longest common subsequence / sum of lengths, as difflib's) is at least 0.6. Precision counts only
///   receipts whose labels list every item (``ReceiptLabel/completeItems``); recall counts all.
/// - **store**: one name contains the other (the shorter at least 3 characters) or similarity ≥ 0.8.
/// - **item count** (`item_count` labels): the number of items read equals it.
/// - **date**: same calendar day. **total**: equal to the cent.
///
/// **Strict** (``Options/strict``, `--strict`; the rule before the fair one): item names equal after
/// upper-casing and collapsing spaces; stores equal after upper-casing and collapsing non-alphanumerics,
/// or one containing the other as whole words (the shorter at least 4 characters), or an edit-distance
/// similarity (1 − distance / longer length) ≥ 0.85 of the names or of the expected name and the
/// same-length start of the prediction.
public enum ReceiptEvaluation {
    /// What to run.
    public struct Options: Sendable {
        /// Folder holding `<id>.json` labels when they are not beside the images.
        public var labelsFolder: String?
        /// Evaluate only the first N images (sorted by name).
        public var limit: Int?
        /// The pipeline configuration the images are read with (`larder eval receipts --config eval/sroie.yml`):
        /// OCR models and photo pass, default currency, date order, limits, `ocr.cache`.
        public var config: PipelineConfig
        /// Include per-receipt details in the report.
        public var includeDetails: Bool
        /// Score with the strict rule (exact names) instead of the fair one; see ``ReceiptEvaluation``.
        public var strict: Bool = false

        /// Creates options with the library defaults.
        public init(labelsFolder: String? = nil, limit: Int? = nil, config: PipelineConfig = PipelineConfig(),
                    includeDetails: Bool = false) {
            self.labelsFolder = labelsFolder
            self.limit = limit
            self.config = config
            self.includeDetails = includeDetails
        }
    }

    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "tif", "tiff"]

    /// Runs OCR and parsing over every labelled image in `folder` and scores the results. One engine,
    /// one image at a time. Per-image OCR failures are counted (`failures`) and scored as wrong, not thrown.
    /// - Throws: ``ReceiptError`` when the folder cannot be listed, a label is malformed, or the engine
    ///   cannot start.
    public static func run(folder: String, options: Options = Options()) throws -> ReceiptEvaluationReport {
        let fm = FileManager.default
        var cases: [(id: String, image: String, label: ReceiptLabel)] = []
        let imgDir = (folder as NSString).appendingPathComponent("img")
        let keyDir = (folder as NSString).appendingPathComponent("key")
        var isDir: ObjCBool = false
        if fm.fileExists(atPath: imgDir, isDirectory: &isDir), isDir.boolValue, fm.fileExists(atPath: keyDir) {
            for name in try list(imgDir) where imageExtensions.contains((name as NSString).pathExtension.lowercased()) {
                let id = (name as NSString).deletingPathExtension
                let keyPath = (keyDir as NSString).appendingPathComponent(id + ".json")
                guard fm.fileExists(atPath: keyPath) else { continue }
                cases.append((id, (imgDir as NSString).appendingPathComponent(name), try sroieLabel(at: keyPath)))
            }
        } else {
            let labels = options.labelsFolder ?? folder
            let incomplete = incompleteItemLabels(in: labels)
            for name in try list(folder) where imageExtensions.contains((name as NSString).pathExtension.lowercased()) {
                let id = (name as NSString).deletingPathExtension
                let labelPath = (labels as NSString).appendingPathComponent(id + ".json")
                guard fm.fileExists(atPath: labelPath) else { continue }
                var label = try projectLabel(at: labelPath)
                label.completeItems = !incomplete.contains(id)
                cases.append((id, (folder as NSString).appendingPathComponent(name), label))
            }
        }
        if let limit = options.limit { cases = Array(cases.prefix(limit)) }

        let runner: DocumentRunner
        do {
            runner = try DocumentRunner(config: options.config)
        } catch {
            throw ReceiptError(.engineUnavailable, path: nil, message: "cannot build the pipeline: \(error)",
                               hint: "check the configuration")
        }
        var details: [ReceiptEvaluationDetail] = []
        for c in cases {
            let start = ContinuousClock.now
            let outcome = runner.run(path: c.image)
            let reading = outcome.result.flatMap { Reading($0.receipt) }
            details.append(score(id: c.id, reading: reading, label: c.label, seconds: (ContinuousClock.now - start).seconds,
                                 error: outcome.failure.map { "\($0)" }, strict: options.strict))
        }
        var report = summarize(details, includeDetails: options.includeDetails)
        report.scoring = options.strict ? "strict" : "fair"
        return report
    }

    /// What scoring reads of a receipt: the parser's (CORD) or the exported result's.
    public struct Reading: Sendable {
        public var store: String?
        public var date: String?
        public var total: Double?
        /// Items and discounts (negative prices), as scored.
        public var items: [(name: String, price: Double)]
        public var needsReview: Bool

        /// The receipt of an exported result (nil when the document was not read as a receipt).
        public init?(_ receipt: Receipt?) {
            guard let receipt else { return nil }
            store = receipt.store.name
            date = receipt.date
            total = receipt.totals.total.flatMap { Double("\($0)") }
            items = receipt.items.map { ($0.description, Double("\($0.total)") ?? .nan) }
                + receipt.items.flatMap { $0.discounts.map { ($0.description, Double("\($0.amount)") ?? .nan) } }
            needsReview = !receipt.reviewReasons.isEmpty
        }

        /// What the parser read.
        public init(_ receipt: ParsedReceipt) {
            store = receipt.store
            date = receipt.date?.iso
            total = receipt.total.flatMap { Double("\($0)") }
            items = receipt.items.map { ($0.description, Double("\($0.total)") ?? .nan) }
                + receipt.discounts.map { ($0.description, -(Double("\($0.amount)") ?? .nan)) }
            needsReview = receipt.needsReview
        }
    }

    /// Scores one parsed receipt (nil after an OCR failure) against its label.
    public static func score(id: String, receipt: ParsedReceipt?, label: ReceiptLabel, seconds: Double = 0,
                             error: String? = nil, strict: Bool = false) -> ReceiptEvaluationDetail {
        score(id: id, reading: receipt.map(Reading.init), label: label, seconds: seconds, error: error, strict: strict)
    }

    /// Scores one reading (nil after a failure, or when the document was not read as a receipt) against its label,
    /// with the fair rule unless `strict` (see ``ReceiptEvaluation``).
    public static func score(id: String, reading receipt: Reading?, label: ReceiptLabel, seconds: Double = 0,
                             error: String? = nil, strict: Bool = false) -> ReceiptEvaluationDetail {
        let predictedTotal = receipt?.total
        var detail = ReceiptEvaluationDetail(
            id: id, predictedStore: receipt?.store, predictedDate: receipt?.date, predictedTotal: predictedTotal,
            itemsMatched: 0, itemsPredicted: 0, itemsLabelled: 0, needsReview: receipt?.needsReview ?? true,
            seconds: seconds, error: error)
        if let store = label.store {
            detail.storeOK = receipt?.store.map { strict ? storesMatch($0, store) : storesMatchFairly($0, store) } ?? false
        }
        if let date = label.date {
            detail.dateOK = receipt?.date == date
            if isDayMonthSwap(predicted: receipt?.date, label: date) { detail.dateLabelSwapped = true }
        }
        if let total = label.total { detail.totalOK = predictedTotal.map { abs($0 - total) < 0.005 } ?? false }
        if let count = label.itemCount { detail.itemCountOK = receipt?.items.count == count }
        if let labelItems = label.items {
            let predicted = receipt?.items.map { ($0.name, $0.price) } ?? []
            var used = [Bool](repeating: false, count: predicted.count)
            var matched = 0
            for item in labelItems {
                let candidates = predicted.indices.filter { !used[$0] && abs(predicted[$0].1 - item.price) < 0.005 }
                let k: Int?
                if strict {
                    let name = normalizeItemName(item.name)
                    k = candidates.first { normalizeItemName(predicted[$0].0) == name }
                } else {
                    // The most similar of the fair matches, so that one good match does not take another's.
                    let name = fairKey(item.name)
                    k = candidates.filter { itemNamesMatchFairly(fairKey(predicted[$0].0), name) }
                        .max { similarity(fairKey(predicted[$0].0), name) < similarity(fairKey(predicted[$1].0), name) }
                }
                if let k {
                    used[k] = true
                    matched += 1
                }
            }
            detail.itemsMatched = matched
            detail.itemsPredicted = predicted.count
            detail.itemsLabelled = labelItems.count
            detail.itemsComplete = label.completeItems
        }
        return detail
    }

    /// Letters and digits only, lower case: the fair rule's form of a name.
    static func fairKey(_ s: String) -> String {
        String(s.lowercased().filter { $0.isLetter || $0.isNumber })
    }

    /// The similarity ratio of two strings: 2 × (longest common subsequence) / (sum of lengths), 1 for two
    /// empty strings (the measure difflib's `ratio` approximates).
    public static func similarity(_ a: String, _ b: String) -> Double {
        lcsRatio(Array(a), Array(b))
    }

    /// 2 × (longest common subsequence) / (sum of lengths) of two sequences, 1 for two empty ones; the recipe-PDF
    /// scoring uses it too (over Unicode scalars).
    static func lcsRatio<Element: Equatable>(_ x: [Element], _ y: [Element]) -> Double {
        guard !x.isEmpty || !y.isEmpty else { return 1 }
        guard !x.isEmpty, !y.isEmpty else { return 0 }
        var previous = [Int](repeating: 0, count: y.count + 1)
        var current = previous
        for i in 1...x.count {
            for j in 1...y.count {
                current[j] = x[i - 1] == y[j - 1] ? previous[j - 1] + 1 : max(previous[j], current[j - 1])
            }
            swap(&previous, &current)
        }
        return 2 * Double(previous[y.count]) / Double(x.count + y.count)
    }

    /// Fair item-name rule on ``fairKey(_:)`` forms: containment either way, or similarity ≥ 0.6.
    static func itemNamesMatchFairly(_ a: String, _ b: String) -> Bool {
        guard !a.isEmpty, !b.isEmpty else { return false }
        return a.contains(b) || b.contains(a) || similarity(a, b) >= 0.6
    }

    /// Fair store rule: letters and digits, lower case; containment either way (the shorter at least 3
    /// characters) or similarity ≥ 0.8.
    public static func storesMatchFairly(_ predicted: String, _ expected: String) -> Bool {
        let a = fairKey(predicted), b = fairKey(expected)
        guard !a.isEmpty, !b.isEmpty else { return false }
        if min(a.count, b.count) >= 3, a.contains(b) || b.contains(a) { return true }
        return similarity(a, b) >= 0.8
    }

    /// Combines per-receipt scores into a report.
    public static func summarize(_ details: [ReceiptEvaluationDetail], includeDetails: Bool) -> ReceiptEvaluationReport {
        func fraction(_ values: [Bool?]) -> (Double?, Int) {
            let labelled = values.compactMap { $0 }
            guard !labelled.isEmpty else { return (nil, 0) }
            return (Double(labelled.filter { $0 }.count) / Double(labelled.count), labelled.count)
        }
        let store = fraction(details.map(\.storeOK))
        let date = fraction(details.map(\.dateOK))
        let total = fraction(details.map(\.totalOK))
        let withItems = details.filter { $0.itemsLabelled > 0 }
        var p: Double?, r: Double?, f: Double?
        if !withItems.isEmpty {
            // Precision only where the label lists every item; recall everywhere.
            let complete = withItems.filter(\.itemsComplete)
            let tpComplete = Double(complete.map(\.itemsMatched).reduce(0, +))
            let predicted = Double(complete.map(\.itemsPredicted).reduce(0, +))
            let tp = Double(withItems.map(\.itemsMatched).reduce(0, +))
            let labelled = Double(withItems.map(\.itemsLabelled).reduce(0, +))
            let precision = predicted > 0 ? tpComplete / predicted : 0
            let recall = tp / labelled
            p = precision
            r = recall
            f = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0
        }
        let itemCount = fraction(details.map(\.itemCountOK))
        let swaps = dateSwapFigures(details)
        var report = ReceiptEvaluationReport(
            count: details.count, store: store.0, date: date.0, total: total.0,
            itemPrecision: p, itemRecall: r, itemF1: f, itemCount: itemCount.0, itemCountLabelled: itemCount.1,
            storeLabelled: store.1, dateLabelled: date.1, totalLabelled: total.1, itemsLabelled: withItems.count,
            needsReview: details.filter(\.needsReview).count, failures: details.filter { $0.error != nil }.count,
            secondsPerImage: details.isEmpty ? 0 : details.map(\.seconds).reduce(0, +) / Double(details.count),
            receipts: includeDetails ? details : nil)
        report.dateLabelSwapped = swaps?.swapped
        report.dateEitherOrder = swaps?.eitherOrder
        return report
    }

    /// Store-name comparison (see the type documentation).
    public static func storesMatch(_ predicted: String, _ expected: String) -> Bool {
        let a = normalizeStore(predicted), b = normalizeStore(expected)
        guard !a.isEmpty, !b.isEmpty else { return false }
        if a == b { return true }
        let (short, long) = a.count <= b.count ? (a, b) : (b, a)
        if short.count >= 4, (" " + long + " ").contains(" " + short + " ") { return true }
        // Fuzzy: the whole names, or the expected name against the same-length start of the prediction.
        func similar(_ x: String, _ y: String) -> Bool {
            1 - Double(EditDistance.levenshtein(Array(x), Array(y))) / Double(max(x.count, y.count, 1)) >= 0.85
        }
        return similar(a, b) || (b.count >= 4 && a.count > b.count && similar(String(a.prefix(b.count)), b))
    }

    static func normalizeStore(_ s: String) -> String {
        s.uppercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }).joined(separator: " ")
    }

    static func normalizeItemName(_ s: String) -> String {
        s.uppercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }


    private static func list(_ folder: String) throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        } catch {
            throw ReceiptError(.folderUnreadable, path: folder, message: "cannot list the folder",
                               hint: "Check the path; it should hold receipt images (or img/ and key/ for SROIE).")
        }
    }

    /// Ids whose `index.csv` row (beside the labels) says `complete_items` = 0: their labels list only some
    /// item lines. The column is the last of each row; earlier columns may hold quoted commas.
    static func incompleteItemLabels(in folder: String) -> Set<String> {
        let path = (folder as NSString).appendingPathComponent("index.csv")
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        var rows = text.split(whereSeparator: \.isNewline).map(String.init)
        guard let header = rows.first?.split(separator: ","), header.last == "complete_items" else { return [] }
        rows.removeFirst()
        return Set(rows.compactMap { row in
            guard let id = row.split(separator: ",").first,
                  row.split(separator: ",").last?.trimmingCharacters(in: .whitespaces) == "0" else { return nil }
            return String(id)
        })
    }

    /// Reads a project label (`store`, `date` `YYYY-MM-DD`, `total`, `items`).
    public static func projectLabel(at path: String) throws -> ReceiptLabel {
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            return try JSONDecoder().decode(ReceiptLabel.self, from: data)
        } catch {
            throw ReceiptError(.labelUnreadable, path: path, message: "label is not valid JSON of the expected shape (\(error))",
                               hint: #"Expected {"store": "...", "date": "YYYY-MM-DD", "total": 12.34, "items": [{"name": "...", "price": 1.99}]}."#)
        }
    }

    /// Reads a SROIE key file: `company` → store, `date` (day-first, many formats) → ISO, `total` (may carry
    /// `RM`) → number. Fields that cannot be read are left out.
    public static func sroieLabel(at path: String) throws -> ReceiptLabel {
        struct Key: Decodable { var company: String?; var date: String?; var total: String? }
        let key: Key
        do {
            key = try JSONDecoder().decode(Key.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw ReceiptError(.labelUnreadable, path: path, message: "SROIE key is not valid JSON (\(error))",
                               hint: #"Expected {"company": "...", "date": "...", "total": "..."}."#)
        }
        var label = ReceiptLabel(store: key.company)
        let dayFirst = ReceiptParser(configuration: ReceiptParserConfiguration(defaultCurrency: "MYR", dateOrder: .dayFirst))
        if let d = key.date {
            label.date = dayFirst.parseDate(d.uppercased() + (d.allSatisfy(\.isNumber) ? " DATE" : ""), currency: "MYR")?.iso
        }
        if let t = key.total {
            let digits = t.filter { $0.isNumber || $0 == "." }
            label.total = Double(digits)
        }
        return label
    }
}

extension Duration {
    /// The duration in (fractional) seconds.
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
