import Foundation
import LarderReceipts

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

    /// Creates a label.
    public init(store: String? = nil, date: String? = nil, total: Double? = nil, items: [Item]? = nil) {
        self.store = store
        self.date = date
        self.total = total
        self.items = items
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
    /// Receipts whose label has a store.
    public var storeLabelled: Int
    /// Receipts whose label has a date.
    public var dateLabelled: Int
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
        case storeLabelled = "store_labelled", dateLabelled = "date_labelled", totalLabelled = "total_labelled"
        case itemsLabelled = "items_labelled", needsReview = "needs_review", failures
        case secondsPerImage = "seconds_per_image", receipts
    }
}

/// Measures OCR + parsing against labelled receipts: the API behind `larder eval receipts DIR [--json]`.
///
/// Layouts:
/// - **Siblings**: images (`png`, `jpg`, `jpeg`, `tif`, `tiff`) with `<id>.json` labels beside them, or in
///   ``Options/labelsFolder`` (the project's `samples/expected/receipts`). Images without a label are skipped.
/// - **SROIE**: a folder with `img/<id>.jpg` and `key/<id>.json` (detected automatically). SROIE dates are
///   read day-first and totals may carry `RM`; its receipts are Malaysian, so unless the caller changed the
///   parser configuration the default currency becomes MYR and numeric dates are read day-first (also when
///   OCR noise puts a `$` on the receipt).
///
/// Matching rules:
/// - **store**: both names are upper-cased, every run of non-alphanumerics becomes one space; they match
///   when equal, when one contains the other as whole words (the shorter at least 4 characters — so
///   `99 SPEED MART S/B` matches `99 SPEED MART S/B (519537-X)`), or when the edit-distance similarity
///   (1 − distance / longer length) of the two names, or of the expected name and the same-length start of
///   the predicted one, is at least 0.85 (tolerates one or two OCR character errors per name).
/// - **date**: same calendar day. **total**: equal to the cent.
/// - **items**: one-to-one; a predicted item (discounts count, with negative prices) matches a label item
///   when prices are equal to the cent and names are equal after upper-casing and collapsing spaces.
public enum ReceiptEvaluation {
    /// What to run.
    public struct Options: Sendable {
        /// Folder holding `<id>.json` labels when they are not beside the images.
        public var labelsFolder: String?
        /// Evaluate only the first N images (sorted by name).
        public var limit: Int?
        /// Parser settings (see the SROIE note above).
        public var parser: ReceiptParserConfiguration
        /// OCR page segmentation.
        public var pageSegmentation: PageSegmentation
        /// OCR preprocessing.
        public var preprocessing: OCRPreprocessing
        /// OCR limits per image.
        public var limits: OCRLimits
        /// Include per-receipt details in the report.
        public var includeDetails: Bool
        /// A folder for OCR lines per image (`<id>.json`): read when present, written otherwise. Lets parser
        /// changes be measured without running OCR again; leave nil to always run OCR.
        public var ocrCache: String?

        /// Creates options with the library defaults.
        public init(labelsFolder: String? = nil, limit: Int? = nil, parser: ReceiptParserConfiguration = .default,
                    pageSegmentation: PageSegmentation = .singleBlock, preprocessing: OCRPreprocessing = .default,
                    limits: OCRLimits = .default, includeDetails: Bool = false, ocrCache: String? = nil) {
            self.labelsFolder = labelsFolder
            self.limit = limit
            self.parser = parser
            self.pageSegmentation = pageSegmentation
            self.preprocessing = preprocessing
            self.limits = limits
            self.includeDetails = includeDetails
            self.ocrCache = ocrCache
        }
    }

    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "tif", "tiff"]

    /// Runs OCR and parsing over every labelled image in `folder` and scores the results. One engine,
    /// one image at a time. Per-image OCR failures are counted (`failures`) and scored as wrong, not thrown.
    /// - Throws: ``ReceiptError`` when the folder cannot be listed, a label is malformed, or the engine
    ///   cannot start.
    public static func run(folder: String, options: Options = Options()) throws -> ReceiptEvaluationReport {
        let fm = FileManager.default
        var options = options
        var cases: [(id: String, image: String, label: ReceiptLabel)] = []
        let imgDir = (folder as NSString).appendingPathComponent("img")
        let keyDir = (folder as NSString).appendingPathComponent("key")
        var isDir: ObjCBool = false
        if fm.fileExists(atPath: imgDir, isDirectory: &isDir), isDir.boolValue, fm.fileExists(atPath: keyDir) {
            if options.parser == .default {
                options.parser.defaultCurrency = "MYR"
                options.parser.dateOrder = .dayFirst
            }
            for name in try list(imgDir) where imageExtensions.contains((name as NSString).pathExtension.lowercased()) {
                let id = (name as NSString).deletingPathExtension
                let keyPath = (keyDir as NSString).appendingPathComponent(id + ".json")
                guard fm.fileExists(atPath: keyPath) else { continue }
                cases.append((id, (imgDir as NSString).appendingPathComponent(name), try sroieLabel(at: keyPath)))
            }
        } else {
            let labels = options.labelsFolder ?? folder
            for name in try list(folder) where imageExtensions.contains((name as NSString).pathExtension.lowercased()) {
                let id = (name as NSString).deletingPathExtension
                let labelPath = (labels as NSString).appendingPathComponent(id + ".json")
                guard fm.fileExists(atPath: labelPath) else { continue }
                cases.append((id, (folder as NSString).appendingPathComponent(name), try projectLabel(at: labelPath)))
            }
        }
        if let limit = options.limit { cases = Array(cases.prefix(limit)) }

        let engine = try OCREngine(pageSegmentation: options.pageSegmentation, preprocessing: options.preprocessing)
        let parser = ReceiptParser(configuration: options.parser)
        var details: [ReceiptEvaluationDetail] = []
        for c in cases {
            let start = ContinuousClock.now
            var receipt: Receipt?
            var errorText: String?
            do {
                receipt = parser.parse(lines: try ocrLines(c.id, c.image, engine: engine, options: options))
            } catch {
                errorText = "\(error)"
            }
            details.append(score(id: c.id, receipt: receipt, label: c.label, seconds: (ContinuousClock.now - start).seconds,
                                 error: errorText))
        }
        return summarize(details, includeDetails: options.includeDetails)
    }

    private static func ocrLines(_ id: String, _ image: String, engine: OCREngine, options: Options) throws -> [OCRLine] {
        guard let cache = options.ocrCache else { return try engine.recognize(imageAt: image, limits: options.limits).lines }
        let path = (cache as NSString).appendingPathComponent(id + ".json")
        if let data = FileManager.default.contents(atPath: path), let lines = try? JSONDecoder().decode([OCRLine].self, from: data) {
            return lines
        }
        let lines = try engine.recognize(imageAt: image, limits: options.limits).lines
        try? FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        try? JSONEncoder().encode(lines).write(to: URL(fileURLWithPath: path))
        return lines
    }

    /// Scores one parsed receipt (nil after an OCR failure) against its label.
    public static func score(id: String, receipt: Receipt?, label: ReceiptLabel, seconds: Double = 0,
                             error: String? = nil) -> ReceiptEvaluationDetail {
        let predictedTotal = receipt?.total.flatMap { Double("\($0)") }
        var detail = ReceiptEvaluationDetail(
            id: id, predictedStore: receipt?.store, predictedDate: receipt?.date?.iso, predictedTotal: predictedTotal,
            itemsMatched: 0, itemsPredicted: 0, itemsLabelled: 0, needsReview: receipt?.needsReview ?? true,
            seconds: seconds, error: error)
        if let store = label.store { detail.storeOK = receipt?.store.map { storesMatch($0, store) } ?? false }
        if let date = label.date { detail.dateOK = receipt?.date?.iso == date }
        if let total = label.total { detail.totalOK = predictedTotal.map { abs($0 - total) < 0.005 } ?? false }
        if let labelItems = label.items {
            var predicted: [(String, Double)] = []
            if let receipt {
                predicted = receipt.items.map { ($0.description, Double("\($0.total)") ?? .nan) }
                    + receipt.discounts.map { ($0.description, -(Double("\($0.amount)") ?? .nan)) }
            }
            var used = [Bool](repeating: false, count: predicted.count)
            var matched = 0
            for item in labelItems {
                let name = normalizeItemName(item.name)
                if let k = predicted.indices.first(where: { !used[$0] && abs(predicted[$0].1 - item.price) < 0.005
                        && normalizeItemName(predicted[$0].0) == name }) {
                    used[k] = true
                    matched += 1
                }
            }
            detail.itemsMatched = matched
            detail.itemsPredicted = predicted.count
            detail.itemsLabelled = labelItems.count
        }
        return detail
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
            let tp = Double(withItems.map(\.itemsMatched).reduce(0, +))
            let predicted = Double(withItems.map(\.itemsPredicted).reduce(0, +))
            let labelled = Double(withItems.map(\.itemsLabelled).reduce(0, +))
            let precision = predicted > 0 ? tp / predicted : 0
            let recall = tp / labelled
            p = precision
            r = recall
            f = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0
        }
        return ReceiptEvaluationReport(
            count: details.count, store: store.0, date: date.0, total: total.0,
            itemPrecision: p, itemRecall: r, itemF1: f,
            storeLabelled: store.1, dateLabelled: date.1, totalLabelled: total.1, itemsLabelled: withItems.count,
            needsReview: details.filter(\.needsReview).count, failures: details.filter { $0.error != nil }.count,
            secondsPerImage: details.isEmpty ? 0 : details.map(\.seconds).reduce(0, +) / Double(details.count),
            receipts: includeDetails ? details : nil)
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
