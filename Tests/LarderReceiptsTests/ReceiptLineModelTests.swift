import Foundation
import LarderTestSupport
import Testing
@testable import LarderReceipts

/// The receipt line model: features, training, decoding, the weights file, and the shared data's readers.
@Suite("Receipt line model")
struct ReceiptLineModelTests {
    /// A small receipt with its roles, shifted by `k` so the training set is not one receipt repeated.
    static func receipt(_ k: Int) -> LabelledReceiptLines {
        let rows: [(String, ReceiptLineRole)] = [
            ("CORNER MARKET \(k % 3 == 0 ? "" : "EXPRESS")", .store), ("12 MAIN ST SPRINGFIELD", .address),
            ("03/0\(k % 9 + 1)/2024 10:4\(k % 10)", .date), ("MILK 1L \(k % 4 + 1).49", .item),
            ("BREAD \(k % 5 + 2).99", .item), ("2 @ 0.50", .itemDetail), ("EGGS 1.00", .item),
            ("SUBTOTAL 9.\(k % 10)8", .subtotal), ("TAX 0.\(k % 7 + 1)2", .tax), ("TOTAL 10.\(k % 10)0", .total),
            ("CASH 20.00", .tender), ("CHANGE 9.\(k % 10)0", .change), ("THANK YOU", .other),
        ]
        let lines = rows.enumerated().map { i, r in
            OCRLine(text: r.0, box: OCRBox(x: r.1 == .item || r.1 == .total ? 20 : 60, y: 30 * i + 10, width: 300, height: 20))
        }
        return LabelledReceiptLines(source: "test", id: "r\(k)", lines: lines, roles: rows.map(\.1))
    }

    @Test func learnsTheRolesOfReceiptsItDidNotSee() {
        let train = (0..<40).map(Self.receipt)
        let model = ReceiptLineTraining.train(train, settings: .init(epochs: 5, bits: 14))
        let held = (100..<110).map(Self.receipt)
        let score = ReceiptLineTraining.score(model, on: held)
        #expect(score.accuracy >= 0.9, "\(score)")
        // An untrained model gets (nearly) nothing right: the test can fail.
        #expect(ReceiptLineTraining.score(ReceiptLineModel(bits: 14), on: held).accuracy < 0.5)
    }

    /// The evidence uses keep the rules' parse and change only what they name: the veto drops an item the rules
    /// took from a line the model calls a summary line, and a field is filled only where the rules left it empty.
    @Test func evidenceFillsGapsAndVetoesSummaryLinesOnly() {
        let model = ReceiptLineTraining.train((0..<40).map(Self.receipt), settings: .init(epochs: 5, bits: 14))
        let lines = Self.receipt(105).lines
        let roles = model.roles(lines)
        #expect(roles[9] == .total && roles[3] == .item, "\(roles)")
        let parser = ReceiptParser()
        var parsed = parser.parse(lines: lines)
        parsed.items.append(ReceiptItem(lineNumbers: [10], description: "TOTAL", total: 10.5, confidence: 0.9))
        let before = parsed
        var vetoed = parsed
        parser.applyLineModel(model, fields: .itemVeto, lines: lines, to: &vetoed)
        #expect(vetoed.items.count == before.items.count - 1)
        #expect(!vetoed.items.contains { $0.lineNumbers == [10] })
        #expect(vetoed.store == before.store && vetoed.total == before.total && vetoed.date == before.date)
        // A store the rules read is kept; one they did not is filled from the model's store line.
        var kept = parsed
        kept.store = "RULES STORE"
        parser.applyLineModel(model, fields: .storeWhenMissing, lines: lines, to: &kept)
        #expect(kept.store == "RULES STORE")
        var filled = parsed
        filled.store = nil
        parser.applyLineModel(model, fields: .storeWhenMissing, lines: lines, to: &filled)
        #expect(filled.store?.uppercased().contains("CORNER MARKET") == true, "\(String(describing: filled.store))")
    }

    @Test func unlabelledLinesAreLeftToTheModel() {
        var partial = (0..<40).map(Self.receipt)
        for k in partial.indices { partial[k].roles[4] = nil; partial[k].roles[10] = nil }
        let model = ReceiptLineTraining.train(partial, settings: .init(epochs: 5, bits: 14))
        #expect(ReceiptLineTraining.score(model, on: (100..<110).map(Self.receipt)).accuracy >= 0.8)
    }

    @Test func trainingIsDeterministicAndTheWeightsFileRoundTrips() throws {
        let train = (0..<20).map(Self.receipt)
        let a = ReceiptLineTraining.train(train, settings: .init(epochs: 3, bits: 12))
        let b = ReceiptLineTraining.train(train, settings: .init(epochs: 3, bits: 12))
        #expect(a.serialized() == b.serialized())
        let loaded = try ReceiptLineModel(serialized: a.serialized())
        let lines = Self.receipt(7).lines
        #expect(loaded.roles(lines) == a.roles(lines))
        #expect(throws: ReceiptLineModelError.notAModel) { try ReceiptLineModel(serialized: Data("nope".utf8)) }
        #expect(throws: ReceiptLineModelError.truncated) { try ReceiptLineModel(serialized: a.serialized().prefix(40)) }
    }

    @Test func amountsAreReadInTheReceiptsCurrencies() {
        #expect(LineFeatures.amount("12.34")?.0 == 12.34)
        #expect(LineFeatures.amount("12,34")?.0 == 12.34)
        #expect(LineFeatures.amount("16,500")?.0 == 16500)
        #expect(LineFeatures.amount("1,234.56")?.0 == 1234.56)
        #expect(LineFeatures.amount("3.00-")?.1 == true)
        #expect(LineFeatures.amount("77.43*")?.0 == 77.43)
        #expect(LineFeatures.amount("MILK") == nil)
        #expect(LineFeatures.amount("12345678") == nil)
    }

    @Test func letterNGramsDoNotDependOnSpaces() {
        // The photos' box labels glue words together; OCR spaces them: the letter features are the same.
        let glued = LineFeatures.summarize("ICETEA10OZ 2.49"), spaced = LineFeatures.summarize("ICE TEA 10 OZ 2.49")
        #expect(glued.letters == spaced.letters)
        #expect(glued.amount == spaced.amount)
    }

    @Test func theShippedModelLoads() throws {
        let model = try #require(ReceiptLineModel.shipped, "Resources/receipt-lines.bin missing or unreadable: run scripts/data/train-receipts.sh")
        let roles = model.roles(Self.receipt(1).lines)
        #expect(roles.count == 13)
        #expect(roles.contains(.total) && roles.contains(.item))
    }

    /// The receipt stage's parser uses the shipped model where it measured better; the rules-only parser (what
    /// OCR's re-read checks use) never does, so OCR output does not depend on the weights; German till receipts
    /// are read by the rules alone.
    @Test func theStageUsesTheModelAsEvidenceAndOCRChecksDoNot() throws {
        #expect(ReceiptParserConfiguration.pipeline.modelFields == ReceiptModelFields.measuredBetter)
        #expect(ReceiptParserConfiguration.default.modelFields.isEmpty)
        #expect(ReceiptParser().configuration.modelFields.isEmpty)
        _ = try #require(ReceiptLineModel.shipped)
        // A rules item read from the TOTAL line (as a garbled summary label would be) is vetoed by the stage's parser.
        let lines = Self.receipt(3).lines
        let stage = ReceiptParser(configuration: .pipeline), rules = ReceiptParser()
        var state = stage.makeState(lines)
        state.receipt.items.append(ReceiptItem(lineNumbers: [10], description: "TOTAL", total: 10.3, confidence: 0.9))
        var rulesState = state
        stage.applyShippedLineModel(lines, &state)
        rules.applyShippedLineModel(lines, &rulesState)
        #expect(!state.receipt.items.contains { $0.lineNumbers == [10] }, "\(state.receipt.items)")
        #expect(rulesState.receipt.items.contains { $0.lineNumbers == [10] })
        // A German receipt: the same kind of item (read from the SUMME line) is left alone by the stage's parser,
        // and only because the receipt is German (the model vetoes it when told otherwise).
        let german = ["EDEKA MARKT", "MILCH 1,49 A", "BROT 2,99 A", "SUMME EUR 4,48", "MWST 19% 0,72", "EC-CASH 4,48"]
            .enumerated().map { OCRLine(text: $1, box: OCRBox(x: 20, y: 30 * $0 + 10, width: 300, height: 20)) }
        var germanState = stage.makeState(german)
        #expect(germanState.german)
        germanState.receipt.items.append(
            ReceiptItem(lineNumbers: [4], description: "SUMME EUR", total: 4.48, confidence: 0.9))
        var unguarded = germanState
        unguarded.german = false
        stage.applyShippedLineModel(german, &germanState)
        stage.applyShippedLineModel(german, &unguarded)
        #expect(germanState.receipt.items.contains { $0.lineNumbers == [4] })
        #expect(!unguarded.receipt.items.contains { $0.lineNumbers == [4] }, "\(unguarded.receipt.items)")
        // Text lines (no boxes): the model is not asked.
        let text = lines.map { OCRLine(text: $0.text) }
        var textState = stage.makeState(text)
        textState.receipt.items.append(ReceiptItem(lineNumbers: [10], description: "TOTAL", total: 10.3, confidence: 0.9))
        stage.applyShippedLineModel(text, &textState)
        #expect(textState.receipt.items.contains { $0.lineNumbers == [10] })
    }

    @Test(.sharedData("receipts-train"))
    func theTrainingSetsAreRead() throws {
        let root = try #require(SharedData.path("receipts-train"))
        let cord = try ReceiptLineData.cord(folder: root + "/cord/json")
        #expect(cord.count == 792)
        #expect(cord.flatMap(\.roles).filter { $0 == .item }.count >= 2000)
        let sroie = try ReceiptLineData.sroie(folder: root + "/sroie")
        #expect(sroie.count == 571)
        // Most SROIE receipts have their total line found from the key fields.
        #expect(sroie.filter { $0.roles.contains(.total) }.count >= 400)
    }
}
