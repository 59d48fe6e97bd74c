import Foundation
import LarderReceipts

/// A receipt's rows rebuilt from tesseract's word boxes.
///
/// On a tilted or curled photo tesseract's text lines can break a printed row in two (the item's name on one
/// line, its price on another) or join a name with the next row's price. A printed row is a run of words whose
/// boxes overlap vertically once the text's slope is removed, so the rows are rebuilt that way:
///
/// 1. **Slope**: each line's slope is fitted through its words' centres (lines spanning at least four word
///    heights); a line's local slope is the median of the fitted slopes of the nearest lines (curled paper
///    bends, so the slope changes down the page).
/// 2. **Split**: a word whose centre, slope removed, lies more than ``splitOffset`` word heights off its line's
///    median is taken out of the line (a price tesseract attached to the wrong row).
/// 3. **Merge**: pieces that do not overlap horizontally and whose bands (slope removed) overlap by at least
///    ``mergeOverlap`` of the smaller height join, most-overlapping first: a price goes to the row it overlaps
///    most.
///
/// Lines without word boxes (read again on their own) take part as one piece each.
public enum WordRows {
    /// A word more than this many word heights off its line's band (slope removed) leaves the line.
    static let splitOffset = 0.6
    /// Two pieces join when their bands overlap by at least this fraction of the smaller height.
    static let mergeOverlap = 0.5
    /// Pieces whose heights differ by more than this factor (a heading beside body text) never join.
    static let maxHeightRatio = 1.8

    /// A run of words that stays together: a tesseract line, or part of one.
    struct Piece {
        var words: [OCRWord]
        /// The index of the line the words came from.
        var line: Int
        /// The slope (dy/dx) of the text around the piece.
        var slope: Double
        /// Whether the piece is its whole line.
        var whole: Bool

        var minX: Int { words.map(\.box.x).min() ?? 0 }
        var maxX: Int { words.map { $0.box.x + $0.box.width }.max() ?? 0 }
        var height: Double { median(words.map { Double($0.box.height) }) }
        /// The band's centre at x = 0 with `slope` removed.
        func centre(slope: Double) -> Double { median(words.map { centreY($0) - slope * centreX($0) }) }
    }

    /// The rows rebuilt from the lines' word boxes; the lines themselves when they carry no boxes, span
    /// several pages, or nothing changes. One pass's rows give the next pass new slopes and bands, so passes
    /// repeat until the rows stop changing (at most ``maxPasses``): rebuilding the result again changes nothing.
    public static func rebuild(_ lines: [OCRLine]) -> [OCRLine] {
        var current = lines
        for _ in 0..<maxPasses {
            let next = rebuildOnce(current)
            if next.map(\.text) == current.map(\.text) { return next }
            current = next
        }
        return current
    }

    /// How many rebuilding passes run before the rows are taken as they are.
    static let maxPasses = 4

    static func rebuildOnce(_ lines: [OCRLine]) -> [OCRLine] {
        guard lines.count >= 2, lines.contains(where: { !($0.words ?? []).isEmpty }),
              Set(lines.map(\.page)).count == 1 else { return lines }
        let wordLists = lines.map { line in
            line.words.flatMap { $0.isEmpty ? nil : $0 } ?? [OCRWord(text: line.text, confidence: line.confidence, box: line.box)]
        }
        let slopes = localSlopes(wordLists)
        var pieces: [Piece] = []
        for (i, words) in wordLists.enumerated() { pieces += split(words, line: i, slope: slopes[i]) }
        let groups = merge(pieces)
        if groups.count == lines.count, groups.allSatisfy({ $0.count == 1 && pieces[$0[0]].whole }) { return lines }
        return groups.map { group in
            if group.count == 1, pieces[group[0]].whole { return lines[pieces[group[0]].line] }
            return row(group.flatMap { pieces[$0].words }, page: lines[pieces[group[0]].line].page)
        }
    }

    /// Noise words trimmed (``withoutNoise(_:)``), then the rebuilt rows when `always` or when the parse of the rebuilt rows explains the receipt at least as well
    /// (`OCREngine.readingScore`: a total, a date, items, items adding up to the total), else the lines.
    public static func chooseRows(_ lines: [OCRLine], always: Bool) -> [OCRLine] {
        let lines = endedAtPriceColumn(withoutNoise(lines))
        let rebuilt = endedAtPriceColumn(rebuild(lines))
        if always || rebuilt.map(\.text) == lines.map(\.text) { return rebuilt }
        return OCREngine.readingScore(rebuilt) >= OCREngine.readingScore(lines) ? rebuilt : lines
    }

    // MARK: - Noise

    /// A word tesseract made out of texture, a fold or a logo rather than print: read with confidence under
    /// 40, no digit, and at most three letters ("re", "os", "aA", "ee", "Bey", "|"). Real words of a receipt read
    /// at 70–96 even on photos; digits are kept whatever their confidence (the cents of "RM3 90").
    static func isNoise(_ word: OCRWord) -> Bool {
        guard word.confidence < 40, !word.text.contains(where: \.isNumber) else { return false }
        return word.text.filter(\.isLetter).count <= 3
    }

    /// The lines without noise words (``isNoise(_:)``) at their ends, and without lines made only of noise.
    /// Lines without word boxes are kept as they are.
    public static func withoutNoise(_ lines: [OCRLine]) -> [OCRLine] {
        lines.compactMap { line in
            guard var words = line.words, !words.isEmpty else { return line }
            while let first = words.first, isNoise(first) { words.removeFirst() }
            while let last = words.last, isNoise(last) { words.removeLast() }
            if words.isEmpty { return nil }
            return words.count == line.words?.count ? line : row(words, page: line.page)
        }
    }

    // MARK: - Price column

    /// A price cell's amount inside the word tesseract read for it: a leading mark glued on ("p799.99", "«9.00",
    /// "$3.79" keeps its currency sign), a doubled separator ("22,.00", the last one kept) and trailing marks ("50.00->", the flag of
    /// "33.99-A") dropped; a minus printed right after the cents ("0.29-", "33.99-A") or first ("-4.00") is kept. Nil when the word
    /// holds no amount.
    static func priceCell(_ text: String) -> String? {
        guard let m = text.firstMatch(of: /^[^\d$£€-]{0,2}([$£€]?-?\d{1,5})[.,]?([.,])(\d\d)(-?)([^\d]{0,2})$/) else { return nil }
        // A minus after the cents, alone or before a tax letter, marks a refund or discount; before other marks
        // ("50.00->", "29.25--") it is part of an arrow or a rule.
        let flag = m.output.5
        let minus = m.output.4 == "-" && (flag.isEmpty || flag.count == 1 && flag.first!.isLetter) ? "-" : ""
        // The decimal separator as printed: a decimal comma tells the receipt's country.
        let cell = m.output.1 + m.output.2 + m.output.3 + minus
        return ReceiptParser.endsWithAmount(String(cell)) ? String(cell) : nil
    }

    /// The rows with the marks after their price cut off: a row that does not end in an amount but has an amount
    /// word (``priceCell(_:)``) whose right edge lies in the receipt's price column, followed by at most two
    /// short words without digits (a tax flag with a smudge, "R the", "“i", "->"), ends at that amount. The
    /// column's right edge is the median right edge of the amounts ending the nearest five rows (by height on
    /// the paper) that end in one; a cell lies in it when its right edge is within one and a half word heights
    /// of it. Needs three rows ending in an amount with word boxes; other rows are kept as they are.
    public static func endedAtPriceColumn(_ lines: [OCRLine]) -> [OCRLine] {
        var priced: [(y: Double, right: Double)] = []
        for line in lines where ReceiptParser.endsWithAmount(line.text) {
            guard let words = line.words, let word = words.last(where: { priceCell($0.text) != nil }) else { continue }
            priced.append((centreY(word), Double(word.box.x + word.box.width)))
        }
        guard priced.count >= 3 else { return lines }
        return lines.map { line in
            guard let words = line.words, words.count >= 2, !ReceiptParser.endsWithAmount(line.text),
                  let k = words.lastIndex(where: { priceCell($0.text) != nil }), k > 0, words.count - k <= 3,
                  words[(k + 1)...].allSatisfy({ $0.text.count == 1 || $0.text.count <= 3 && !$0.text.contains(where: \.isNumber) }),
                  let cell = priceCell(words[k].text)
            else { return line }
            let y = centreY(words[k])
            let near = priced.sorted { abs($0.y - y) < abs($1.y - y) }.prefix(5)
            let right = median(near.map(\.right))
            let height = median(words.map { Double($0.box.height) })
            guard abs(Double(words[k].box.x + words[k].box.width) - right) <= 1.5 * height else { return line }
            var kept = Array(words[...k])
            kept[k].text = cell
            return row(kept, page: line.page)
        }
    }

    // MARK: - Slope

    /// The least-squares slope of a line's word centres, with the line's span as weight; nil when the line
    /// spans fewer than four word heights or the fit is steeper than 0.25 (not a line of text).
    static func fittedSlope(_ words: [OCRWord]) -> (slope: Double, weight: Double)? {
        guard words.count >= 2 else { return nil }
        let xs = words.map(centreX), ys = words.map(centreY)
        let span = (xs.max() ?? 0) - (xs.min() ?? 0)
        guard span >= 4 * median(words.map { Double($0.box.height) }) else { return nil }
        let mx = xs.reduce(0, +) / Double(xs.count), my = ys.reduce(0, +) / Double(ys.count)
        var sxy = 0.0, sxx = 0.0
        for (x, y) in zip(xs, ys) {
            sxy += (x - mx) * (y - my)
            sxx += (x - mx) * (x - mx)
        }
        guard sxx > 0 else { return nil }
        let slope = sxy / sxx
        return abs(slope) <= 0.25 ? (slope, span) : nil
    }

    /// Each line's local slope: the weighted median of the fitted slopes of the (up to) seven lines nearest to
    /// it vertically; 0 when no line has a slope.
    static func localSlopes(_ wordLists: [[OCRWord]]) -> [Double] {
        let fitted = wordLists.enumerated().compactMap { i, words in
            fittedSlope(words).map { (y: median(words.map(centreY)), slope: $0.slope, weight: $0.weight, line: i) }
        }
        guard !fitted.isEmpty else { return wordLists.map { _ in 0 } }
        return wordLists.map { words in
            let y = median(words.map(centreY))
            let near = fitted.sorted { abs($0.y - y) < abs($1.y - y) }.prefix(7)
            return weightedMedian(near.map { ($0.slope, $0.weight) })
        }
    }

    // MARK: - Split and merge

    /// A line's words as pieces: the words on the line's band, and each run of words off it (see
    /// ``splitOffset``).
    static func split(_ words: [OCRWord], line: Int, slope: Double) -> [Piece] {
        let whole = Piece(words: words, line: line, slope: slope, whole: true)
        guard words.count >= 2 else { return [whole] }
        let centre = whole.centre(slope: slope), height = whole.height
        // -1 above the band, 0 on it, 1 below.
        let sides = words.map { word -> Int in
            let offset = centreY(word) - slope * centreX(word) - centre
            return abs(offset) <= splitOffset * height ? 0 : (offset < 0 ? -1 : 1)
        }
        guard sides.contains(where: { $0 != 0 }) else { return [whole] }
        var pieces: [Piece] = []
        for (k, word) in words.enumerated() {
            if k > 0, sides[k] == sides[k - 1] {
                pieces[pieces.count - 1].words.append(word)
            } else {
                pieces.append(Piece(words: [word], line: line, slope: slope, whole: false))
            }
        }
        return pieces.count == 1 ? [whole] : pieces
    }

    /// How much two pieces' bands overlap, as a fraction of the smaller height, with their mean slope removed;
    /// 0 when their heights are too different to be one row.
    static func overlap(_ a: Piece, _ b: Piece) -> Double {
        let ha = a.height, hb = b.height
        guard ha > 0, hb > 0, max(ha, hb) / min(ha, hb) <= maxHeightRatio else { return 0 }
        let slope = (a.slope + b.slope) / 2
        let ca = a.centre(slope: slope), cb = b.centre(slope: slope)
        let shared = min(ca + ha / 2, cb + hb / 2) - max(ca - ha / 2, cb - hb / 2)
        return max(0, shared) / min(ha, hb)
    }

    /// Whether two sets of words collide horizontally (a word of one over a word of the other by more than a
    /// quarter of the narrower): then they are not one row.
    static func collide(_ a: [OCRWord], _ b: [OCRWord]) -> Bool {
        for u in a {
            for v in b {
                let shared = min(u.box.x + u.box.width, v.box.x + v.box.width) - max(u.box.x, v.box.x)
                if Double(shared) > 0.25 * Double(min(u.box.width, v.box.width)) { return true }
            }
        }
        return false
    }

    /// Groups of piece indices, one per row: pairs that overlap by ``mergeOverlap`` or more join, the most
    /// overlapping first, unless their words collide. Groups come in the order of their first line.
    static func merge(_ pieces: [Piece]) -> [[Int]] {
        var pairs: [(Int, Int, Double)] = []
        for i in pieces.indices {
            for j in pieces.indices where j > i {
                let o = overlap(pieces[i], pieces[j])
                if o >= mergeOverlap { pairs.append((i, j, o)) }
            }
        }
        var group = Array(pieces.indices)  // each piece's group leader
        var members = pieces.indices.map { [$0] }
        for (i, j, _) in pairs.sorted(by: { $0.2 > $1.2 }) {
            let gi = group[i], gj = group[j]
            guard gi != gj,
                  !collide(members[gi].flatMap { pieces[$0].words }, members[gj].flatMap { pieces[$0].words })
            else { continue }
            for k in members[gj] { group[k] = gi }
            members[gi] += members[gj]
            members[gj] = []
        }
        return members.filter { !$0.isEmpty }
            .map { $0.sorted { (pieces[$0].line, pieces[$0].minX) < (pieces[$1].line, pieces[$1].minX) } }
            .sorted { (pieces[$0[0]].line, pieces[$0[0]].minX) < (pieces[$1[0]].line, pieces[$1[0]].minX) }
    }

    /// One row from its words, left to right: text joined by spaces, confidence weighted by characters, the
    /// union of the boxes.
    static func row(_ words: [OCRWord], page: Int) -> OCRLine {
        let sorted = words.sorted { $0.box.x < $1.box.x }
        let characters = sorted.reduce(0) { $0 + $1.text.count }
        let confidence = characters == 0 ? 0
            : sorted.reduce(0.0) { $0 + $1.confidence * Double($1.text.count) } / Double(characters)
        let x0 = sorted.map(\.box.x).min() ?? 0, y0 = sorted.map(\.box.y).min() ?? 0
        let x1 = sorted.map { $0.box.x + $0.box.width }.max() ?? 0
        let y1 = sorted.map { $0.box.y + $0.box.height }.max() ?? 0
        return OCRLine(text: sorted.map(\.text).joined(separator: " "), confidence: confidence,
                       box: OCRBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0), page: page, words: sorted)
    }

    // MARK: - Helpers

    static func centreX(_ w: OCRWord) -> Double { Double(w.box.x) + Double(w.box.width) / 2 }
    static func centreY(_ w: OCRWord) -> Double { Double(w.box.y) + Double(w.box.height) / 2 }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let s = values.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    static func weightedMedian(_ values: [(Double, Double)]) -> Double {
        let s = values.sorted { $0.0 < $1.0 }
        let half = s.reduce(0) { $0 + $1.1 } / 2
        var sum = 0.0
        for (value, weight) in s {
            sum += weight
            if sum >= half { return value }
        }
        return s.last?.0 ?? 0
    }
}
