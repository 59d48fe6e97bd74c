internal import CTesseract
import Foundation
import LarderReceipts

/// Item prices read again when the items do not add up: each priced item's cell is read alone, grey and
/// binarised, ×2 and ×3 (``priceCellReadings(_:left:right:in:)``), and the re-read amounts that make the items add
/// up to a printed subtotal or total (``ItemArithmetic/consistentRereads(prices:net:rereads:targets:)``) replace
/// the page's readings. Two witnesses agree on each change: the cell read alone, and the receipt's arithmetic.
extension OCREngine {
    /// The lines with the re-read price cells that make the items add up, and how many changed; the lines
    /// unchanged when no single smallest set of re-reads does. `receipt` is the parse of `lines`.
    func rereadPricesByArithmetic(_ lines: [OCRLine], receipt: ParsedReceipt,
                                  in pix: UnsafeMutablePointer<PIX>?) -> ([OCRLine], Int) {
        guard pixGetDepth(pix) == 8, receipt.items.count >= 2, let column = Self.priceColumn(lines),
              let left = column.left else { return (lines, 0) }
        let targets = ItemArithmetic.targets(receipt, totalInferred: receipt.totalInferred)
        guard !targets.isEmpty else { return (lines, 0) }
        let prices = receipt.items.map(\.total)
        var rereads = [[Decimal]](repeating: [], count: prices.count)
        var budget = preprocessing.rereadMaxPriceLines
        for (k, item) in receipt.items.enumerated() where budget > 0 {
            // The item's price line, whose trailing amount is the item's price (not a two-line item's detail).
            guard let number = item.lineNumbers.last, number >= 1, number <= lines.count else { continue }
            let line = lines[number - 1]
            guard line.words?.isEmpty == false, let printed = ReceiptParser.amountAtEnd(line.text),
                  abs(printed - item.total) < Decimal(1) / 200 else { continue }
            budget -= 1
            rereads[k] = priceCellReadings(line, left: left, right: column.right, in: pix)
        }
        guard let changes = ItemArithmetic.consistentRereads(prices: prices, net: ItemArithmetic.net(receipt),
                                                             rereads: rereads, targets: targets) else { return (lines, 0) }
        var out = lines
        for change in changes {
            let index = receipt.items[change.index].lineNumbers.last! - 1
            out[index] = Self.withPrice(lines[index], change.value, left: left)
        }
        return (out, changes.count)
    }

    /// The amounts a price cell reads as alone, at confidence ≥ ``minimumCellConfidence``: the column beside the
    /// line's words that reach into it, cropped with a quarter word height's margin, read ×2 and ×3, grey and
    /// binarised over the cell (``readLine(_:x:y:width:height:scale:characters:clean:)``), digits and separators
    /// only. Empty when the line has no name left of the column.
    func priceCellReadings(_ line: OCRLine, left: Int, right: Int, in pix: UnsafeMutablePointer<PIX>?) -> [Decimal] {
        guard let words = line.words, !words.isEmpty else { return [] }
        let height = words.map(\.box.height).sorted()[words.count / 2]
        let name = words.filter { $0.box.x + $0.box.width < left - height / 2 }
        let inColumn = words.filter { $0.box.x + $0.box.width >= left - height / 2 }
        guard name.contains(where: { $0.text.filter(\.isLetter).count >= 3 }), !inColumn.isEmpty else { return [] }
        let top = inColumn.map(\.box.y).min()!, bottom = inColumn.map { $0.box.y + $0.box.height }.max()!
        let width = Int(pixGetWidth(pix)), imageHeight = Int(pixGetHeight(pix))
        let my = max(3, height / 4)
        let x0 = max(0, left - height), y0 = max(0, top - my)
        let x1 = min(width, right + height / 3), y1 = min(imageHeight, bottom + my)
        guard x1 - x0 > 4, y1 - y0 > 4 else { return [] }
        var amounts: [Decimal] = []
        for clean in [true, false] {
            for scale in preprocessing.rereadScales {
                guard let (text, confidence) = readLine(pix, x: x0, y: y0, width: x1 - x0, height: y1 - y0, scale: scale,
                                                        characters: "0123456789,.-", clean: clean),
                      confidence >= Self.minimumCellConfidence else { continue }
                let token = text.replacingOccurrences(of: " ", with: "")
                guard token.range(of: Self.cellAmountPattern, options: .regularExpression) != nil,
                      let value = Decimal(string: token.replacingOccurrences(of: ",", with: ".").replacingOccurrences(of: "-", with: "")),
                      !token.hasPrefix("-"), !token.hasSuffix("-") else { continue }
                amounts.append(value)
            }
        }
        return amounts
    }

    /// The line with its price cell replaced by `value` (its words left of the column kept; boxes dropped).
    static func withPrice(_ line: OCRLine, _ value: Decimal, left: Int) -> OCRLine {
        var out = line
        let words = line.words ?? []
        let height = words.isEmpty ? 0 : words.map(\.box.height).sorted()[words.count / 2]
        let name = words.filter { $0.box.x + $0.box.width < left - height / 2 }
        let separator = line.text.contains(",") && !line.text.contains(".") ? "," : "."
        let amount = String(format: "%.2f", NSDecimalNumber(decimal: value).doubleValue).replacingOccurrences(of: ".", with: separator)
        out.text = name.map(\.text).joined(separator: " ") + " " + amount
        out.words = nil
        return out
    }
}
