import ArgumentParser
import Foundation
import LarderCore
import LarderEvaluation
import LarderOCR
import LarderReceipts

/// Trains the receipt line model and measures it honestly: line roles leave-one-dataset-out and k-fold, and the
/// receipt fields (store, date, total, items) of the rules against the model on OCR lines of receipts the model
/// did not train on. Run through `scripts/data/train-receipts.sh`.
struct ReceiptModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receipt-model",
        abstract: "Train the receipt line model (--out) and/or print its held-out figures (--evaluate).")

    @Option(help: "The shared data folder (holding receipts-train, receipts-photos, receipts-sroie, receipts-de).")
    var data: String = ProcessInfo.processInfo.environment["LARDER_SHARED_DATA"] ?? "../shared/data"

    @Option(help: "Write the model trained on every training receipt (CORD train, SROIE train, the photos' box labels) here.")
    var out: String?

    @Flag(help: "Print leave-one-dataset-out and k-fold figures (JSON).")
    var evaluate = false

    @Option(help: "Folds within the photos.")
    var folds: Int = 5

    @Option(help: "OCR caches (as `larder eval receipts --ocr-cache` writes them): photos, sroie and de subfolders.")
    var ocrCache: String?

    @Option(help: "The photos' box labels to train and score on (default: receipts-photos/boxes, the annotators' boxes; scripts/data/align-receipt-lines.py writes the tesseract lines labelled from them).")
    var photoBoxes: String?

    @Flag(help: "With --evaluate: skip the leave-one-dataset-out line-role figures (three trainings).")
    var skipLineRoles = false

    @Option(help: "Passes over the training receipts.")
    var epochs: Int = ReceiptLineTraining.Settings().epochs

    func run() throws {
        let settings = ReceiptLineTraining.Settings(epochs: epochs)
        let train = data + "/receipts-train"
        let cord = try ReceiptLineData.cord(folder: train + "/cord/json")
        let sroie = try ReceiptLineData.sroie(folder: train + "/sroie")
        let photos = try ReceiptLineData.photos(boxesFolder: photoBoxes ?? data + "/receipts-photos/boxes")
        log("read \(cord.count) CORD, \(sroie.count) SROIE, \(photos.count) photo receipts")
        if let out {
            let model = ReceiptLineTraining.train(cord + sroie + photos, settings: settings)
            try model.serialized().write(to: URL(fileURLWithPath: out))
            log("wrote \(out)")
        }
        guard evaluate else { return }
        var report: [String: Any] = [:]
        // Line roles, leave one dataset out.
        let sets = ["cord": cord, "sroie": sroie, "photos": photos]
        for (name, held) in sets.sorted(by: { $0.key < $1.key }) where !skipLineRoles {
            let rest = sets.filter { $0.key != name }.flatMap(\.value)
            let model = ReceiptLineTraining.train(rest, settings: settings)
            report["lines_lodo_\(name)"] = lineReport(ReceiptLineTraining.score(model, on: held))
            log("line roles, trained without \(name): \(ReceiptLineTraining.score(model, on: held).accuracy)")
        }
        // Photos k-fold: train on CORD + SROIE + the other folds.
        let foldOf = { (id: String) -> Int in Int(ReceiptLineData.fnvFold(id, folds)) }
        var photoLines = ReceiptLineTraining.LineScore()
        var models: [ReceiptLineModel] = []
        for k in 0..<folds {
            let model = ReceiptLineTraining.train(cord + sroie + photos.filter { foldOf($0.id) != k }, settings: settings)
            for r in photos where foldOf(r.id) == k { photoLines.add(predicted: model.roles(r.lines), gold: r.roles) }
            models.append(model)
            log("photos fold \(k + 1)/\(folds) trained")
        }
        report["lines_kfold_photos"] = lineReport(photoLines)
        if let cache = ocrCache {
            let withoutPhotos = ReceiptLineTraining.train(cord + sroie, settings: settings)
            let everything = ReceiptLineTraining.train(cord + sroie + photos, settings: settings)
            report["fields_photos_kfold"] = try fields(set: "receipts-photos", cache: cache + "/photos") { models[foldOf($0)] }
            report["fields_photos_lodo"] = try fields(set: "receipts-photos", cache: cache + "/photos") { _ in withoutPhotos }
            report["fields_sroie_heldout"] = try fields(set: "receipts-sroie", cache: cache + "/sroie") { _ in everything }
            report["fields_de_heldout"] = try fields(set: "receipts-de", cache: cache + "/de") { _ in everything }
        }
        let json = try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys])
        print(String(decoding: json, as: UTF8.self))
    }

    func log(_ s: String) { FileHandle.standardError.write(Data("receipt-model: \(s)\n".utf8)) }

    func lineReport(_ s: ReceiptLineTraining.LineScore) -> [String: Any] {
        var out: [String: Any] = ["lines": s.lines, "accuracy": round3(s.accuracy)]
        for (role, c) in s.perRole { out["f1_" + role] = round3(c.f1) }
        return out
    }

    func round3(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }

    /// Rules against model-decided fields on the cached OCR lines of one development set, each receipt read by
    /// `model(id)`.
    func fields(set: String, cache: String, model: (String) -> ReceiptLineModel) throws -> [String: Any] {
        let folder = data + "/" + set
        let sroie = set == "receipts-sroie"
        var parserConfig = ReceiptParserConfiguration(modelFields: .none)  // the rules alone; each variant adds a use
        if sroie { parserConfig.defaultCurrency = "MYR"; parserConfig.dateOrder = .dayFirst }
        let parser = ReceiptParser(configuration: parserConfig)
        let incomplete = incompleteItems(folder)
        let variants: [(String, ReceiptModelFields)] = [
            ("rules", []), ("model_store", .store), ("model_total", .total), ("model_date", .date), ("model_items", .items),
            // The model as evidence inside the rules' parse: filling what the rules left empty, vetoing item lines.
            ("fill_store", .storeWhenMissing), ("fill_date", .dateWhenMissing), ("fill_total", .totalWhenUnsure),
            ("veto_items", .itemVeto),
            ("evidence_all", [.storeWhenMissing, .dateWhenMissing, .totalWhenUnsure, .itemVeto]),
        ]
        var tallies: [String: Tally] = [:]
        let cached = try cachedLines(cache)
        let labelFolder = sroie ? folder + "/key" : folder
        let names = try FileManager.default.contentsOfDirectory(atPath: labelFolder).filter { $0.hasSuffix(".json") }.sorted()
        for name in names {
            let id = (name as NSString).deletingPathExtension
            guard let ocrLines = try cached(sroie ? folder + "/img" : folder, id) else { continue }
            var label = sroie ? try ReceiptEvaluation.sroieLabel(at: labelFolder + "/" + name)
                : try ReceiptEvaluation.projectLabel(at: labelFolder + "/" + name)
            label.completeItems = !incomplete.contains(id)
            let lines = WordRows.chooseRows(ocrLines, always: false)
            let rules = parser.parse(lines: lines)
            let m = model(id)
            for (variant, fields) in variants {
                var receipt = rules
                parser.applyLineModel(m, fields: fields, lines: lines, to: &receipt)
                tallies[variant, default: Tally()].add(ReceiptEvaluation.score(id: id, receipt: receipt, label: label))
            }
        }
        return tallies.mapValues { $0.report }
    }

    /// A reader of a receipt's cached OCR lines by its image (folder, id): the cache `larder eval receipts
    /// --ocr-cache` writes (`<sha256 of the image>-<ocr version>.json`, the OCR stage's output), or `<id>.json`
    /// holding the lines alone. Nil when the image or its lines are not there.
    func cachedLines(_ cache: String) throws -> (String, String) throws -> [OCRLine]? {
        struct Output: Decodable { let lines: [OCRLine] }
        var bySHA: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: cache) where name.hasSuffix(".json") {
            bySHA[String(name.prefix { $0 != "-" })] = cache + "/" + name
        }
        return { folder, id in
            if let data = FileManager.default.contents(atPath: cache + "/" + id + ".json") {
                return try JSONDecoder().decode([OCRLine].self, from: data)
            }
            guard let image = ["jpg", "jpeg", "png", "JPG", "PNG"].lazy.map({ folder + "/" + id + "." + $0 })
                .first(where: { FileManager.default.fileExists(atPath: $0) }),
                let path = bySHA[try SHA256.hex(fileAt: image)], let data = FileManager.default.contents(atPath: path)
            else { return nil }
            return try JSONDecoder().decode(Output.self, from: data).lines
        }
    }

    func incompleteItems(_ folder: String) -> Set<String> {
        guard let text = try? String(contentsOfFile: folder + "/index.csv", encoding: .utf8) else { return [] }
        let rows = text.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = rows.first, let idCol = header.firstIndex(of: "id") ?? header.firstIndex(of: "file"),
              let col = header.firstIndex(of: "complete_items") else { return [] }
        return Set(rows.dropFirst().filter { $0.count > max(idCol, col) && $0[col] == "0" }
            .map { ($0[idCol] as NSString).deletingPathExtension })
    }

    struct Tally {
        var store = (ok: 0, n: 0), date = (ok: 0, n: 0), total = (ok: 0, n: 0), count = (ok: 0, n: 0)
        var matched = 0, predictedComplete = 0, matchedComplete = 0, labelled = 0
        mutating func add(_ d: ReceiptEvaluationDetail) {
            if let ok = d.storeOK { store.n += 1; if ok { store.ok += 1 } }
            if let ok = d.dateOK { date.n += 1; if ok { date.ok += 1 } }
            if let ok = d.totalOK { total.n += 1; if ok { total.ok += 1 } }
            if let ok = d.itemCountOK { count.n += 1; if ok { count.ok += 1 } }
            matched += d.itemsMatched
            labelled += d.itemsLabelled
            if d.itemsComplete { predictedComplete += d.itemsPredicted; matchedComplete += d.itemsMatched }
        }
        var report: [String: Double] {
            func r(_ t: (ok: Int, n: Int)) -> Double { t.n == 0 ? -1 : (Double(t.ok) / Double(t.n) * 1000).rounded() / 1000 }
            let p = predictedComplete == 0 ? 0 : Double(matchedComplete) / Double(predictedComplete)
            let rec = labelled == 0 ? 0 : Double(matched) / Double(labelled)
            let f1 = p + rec == 0 ? 0 : 2 * p * rec / (p + rec)
            return ["store": r(store), "date": r(date), "total": r(total), "item_count": r(count),
                    "item_precision": (p * 1000).rounded() / 1000, "item_recall": (rec * 1000).rounded() / 1000,
                    "item_f1": (f1 * 1000).rounded() / 1000]
        }
    }
}
