internal import CTesseract
import Foundation
import LarderReceipts

/// The date line read again when the page reading found no date at all.
extension OCREngine {
    /// Whether `year` lies after next year: no receipt is dated there, so a digit of it was misread ("2044" for
    /// 2014, "21-09-35" for 2015) and the line is worth reading again (``hasMisreadDate(_:)``).
    static func isFutureYear(_ year: Int, now: Date = Date()) -> Bool {
        year > Calendar(identifier: .gregorian).component(.year, from: now) + 1
    }

    /// Lines tried at most when the receipt has no date.
    static let missingDateMaxLines = 3

    /// Whether a line is where a receipt's date is printed though no date was read in it: it holds a time of
    /// day ("3:12:39 PM", "19:44"), a DATE label (Date, Datum, Fecha, Tanggal), or a date-shaped token that is no
    /// valid date ("23-19-92", "56/2016"); and it does not end in an amount (a priced line).
    static func mayHoldDate(_ text: String) -> Bool {
        let u = text.uppercased()
        guard !ReceiptParser.endsWithAmount(text) else { return false }
        if hasDateCue(text) { return true }
        // A phone number ("(386) 714-8625", "916-419-6845", "Tel: 02/511.06.66") is no date.
        if u.range(of: #"\d{3}\)?[ -]?\d{3}[ -]\d{4}"#, options: .regularExpression) != nil
            || ["TEL", "PHONE", "FAX", "PH"].contains(where: { ReceiptParser.hasWord(u, $0) }) { return false }
        // Three digit groups joined by date separators, or two joined by a slash ("56/2016"), with four digits
        // or more: a date whose separators or digits were misread.
        let shapes = [#"(?<![0-9])[0-9]{1,4}\s?[-/.]\s?[0-9]{1,4}\s?[-/.]\s?[0-9]{2,4}(?![0-9])"#,
                      #"(?<![0-9])[0-9]{1,4}/[0-9]{2,4}(?![0-9])"#]
        return shapes.contains { shape in
            u.range(of: shape, options: .regularExpression).map { u[$0].filter(\.isNumber).count >= 4 } == true
        }
    }

    /// A line read with little confidence (below 30) whose digits (three or more, no amount) could be a date's
    /// read as noise: "Oai0t/t6 450638 Repent" for "08/01/16 15:06:38".
    static func mayBeGarbledDate(_ line: OCRLine) -> Bool {
        line.confidence < 30 && line.text.filter(\.isNumber).count >= 3 && !ReceiptParser.endsWithAmount(line.text)
    }

    /// A time of day or a date label (Date, Datum, Fecha, Tanggal) on the line.
    static func hasDateCue(_ text: String) -> Bool {
        let u = text.uppercased()
        return ReceiptParser.parseTime(u) != nil || ["DATE", "DATUM", "FECHA", "TANGGAL", "DATA"].contains { u.contains($0) }
    }

    /// When the parse of `lines` has no date, up to ``missingDateMaxLines`` lines that may hold one
    /// (``mayHoldDate(_:)``; lines with a time or a date label first) are read again: the line's box widened by
    /// six line heights on the left and two on the right (a date printed before the time may have been dropped as
    /// noise), scaled ×2
    /// (then ×3) and read as one line (PSM 7), then the band of lines around it as a block (``rereadDateBand(_:around:in:)``). The first re-read in which the parser reads a date on that line,
    /// not in the future, replaces the line. Returns the lines and
    /// how many changed (0 or 1).
    func rereadMissingDate(_ lines: [OCRLine], in pix: UnsafeMutablePointer<PIX>?) -> ([OCRLine], Int) {
        guard pixGetDepth(pix) == 8 else { return (lines, 0) }
        let parser = ReceiptParser()
        guard parser.parse(lines: lines).date == nil else { return (lines, 0) }
        let width = Int(pixGetWidth(pix)), height = Int(pixGetHeight(pix))
        var budget = Self.missingDateMaxLines
        // Lines with a time of day or a date label first (a date is printed beside them), then date shapes.
        let candidates = lines.indices.filter { Self.mayHoldDate(lines[$0].text) }
        let cued = candidates.filter { Self.hasDateCue(lines[$0].text) }
        // Then garbled lines (``mayBeGarbledDate(_:)``): a date tesseract read as noise ("Oai0t/t6 450638").
        let garbled = lines.indices.filter { !candidates.contains($0) && Self.mayBeGarbledDate(lines[$0]) }
        for i in cued + candidates.filter({ !cued.contains($0) }) + garbled where budget > 0 {
            let line = lines[i]
            let b = line.box
            guard b.width > 4, b.height > 4 else { continue }
            budget -= 1
            // Wider on the left: the line's box holds only what the page read of it ("017 12:25" of "Date: 11/15/2017
            // 12:25"), and a date is printed before its time.
            let my = max(3, b.height / 4)
            let x0 = max(0, b.x - 6 * b.height), x1 = min(width, b.x + b.width + 2 * b.height)
            let y0 = max(0, b.y - my), y1 = min(height, b.y + b.height + my)
            for scale in preprocessing.rereadScales {
                guard let (text, confidence) = readLine(pix, x: x0, y: y0, width: x1 - x0, height: y1 - y0, scale: scale)
                else { continue }
                Self.traceReread("date ×\(scale) \(line.text) → \(text)")
                guard let (candidate, _) = Self.dateOnLine(i, readAs: text, confidence: confidence, in: lines, parser: parser)
                else { continue }
                return (candidate, 1)
            }
            if let band = rereadDateBand(lines, around: i, in: pix) { return (band, 1) }
        }
        return (lines, 0)
    }

    /// The band of lines around line `i` (the line above, the line, the line below) across the whole width of
    /// the image, scaled so its lines are ~36 px high and read as a block (PSM 6, as the summary block): a
    /// single line's crop loses the context tesseract's block reading uses. The band's date line replaces line
    /// `i` (the other lines stay as the page read them), kept when the parser then reads a
    /// date (not in the future) and the reading scores higher by more than the date alone could lose
    /// elsewhere (``readingScore(_:)``: a date is worth 2).
    func rereadDateBand(_ lines: [OCRLine], around i: Int, in pix: UnsafeMutablePointer<PIX>?) -> [OCRLine]? {
        let range = max(0, i - 1)..<min(lines.count, i + 2)
        let band = lines[range].filter { $0.box.width > 0 && $0.box.height > 0 }
        guard !band.isEmpty else { return nil }
        let height = Int(pixGetHeight(pix))
        let lineHeight = max(4, lines[i].box.height)
        let top = max(0, band.map(\.box.y).min()! - lineHeight / 2)
        let bottom = min(height, band.map { $0.box.y + $0.box.height }.max()! + lineHeight / 2)
        guard bottom - top > 4,
              let read = readBlock(pix, x: 0, y: top, width: Int(pixGetWidth(pix)), height: bottom - top,
                                   scale: min(4, max(1, 36 / Double(lineHeight))), segmentation: .singleBlock),
              !read.isEmpty else { return nil }
        Self.traceReread("date band: " + read.map(\.text).joined(separator: " / "))
        var banded = lines
        banded.replaceSubrange(range, with: read)
        // Only the band's date line replaces line i: the band's other lines are read again for context, and
        // their noise ("£6022" read from a transaction number) would change the receipt's currency and with it
        // whether its dates are day- or month-first.
        let kinds: [ReceiptLineKind] = ReceiptParser().parse(lines: banded).lines.map(\.kind)
        let readRange = range.lowerBound..<min(kinds.count, range.lowerBound + read.count)
        guard let k = readRange.first(where: { kinds[$0] == .date }) else { return nil }
        var candidate = lines
        candidate[i] = banded[k]
        guard let date = ReceiptParser().parse(lines: candidate).date, !Self.isFutureYear(date.year),
              Self.readingScore(candidate) > Self.readingScore(lines) + 1 else { return nil }
        return candidate
    }

    /// A date whose digits tesseract read with less confidence than this (the date word's, 0–100) is unsure.
    static let unsureDateConfidence = 50.0

    /// The confidence of the date printed on `line`: the least of its words holding digits and a date separator
    /// (`10/20/11`), else the line's.
    static func dateConfidence(_ line: OCRLine) -> Double {
        let dateWords = (line.words ?? []).filter { w in
            w.text.contains(where: \.isNumber) && w.text.contains(where: { "/-.".contains($0) })
        }
        return dateWords.map(\.confidence).min() ?? line.confidence
    }

    /// When the parse has a date whose digits are unsure (``unsureDateConfidence``), its line is read again on its
    /// own, cropped with a margin and scaled ×2 and ×3, binarised over the crop (Otsu, marks touching the edge
    /// dropped: ``readLine(_:x:y:width:height:scale:characters:clean:)``), then as gray. The line is replaced only when
    /// two of these readings agree on another valid date (not in the future) and none reads the page's date: one
    /// re-read alone is no better than the page read (README: re-reading every date line did worse on SROIE).
    /// Returns the lines and how many changed (0 or 1). `parsed`: the parse of `lines` (the caller's).
    func rereadUnsureDate(_ lines: [OCRLine], in pix: UnsafeMutablePointer<PIX>?, parsed: ParsedReceipt) -> ([OCRLine], Int) {
        // Only a line with an unsure date-shaped word costs a parse.
        guard pixGetDepth(pix) == 8, lines.contains(where: { line in
            Self.dateConfidence(line) < Self.unsureDateConfidence
                && line.text.range(of: #"\d\s?[-/.]\s?\d"#, options: .regularExpression) != nil
        }) else { return (lines, 0) }
        let parser = ReceiptParser()
        guard let date = parsed.date, parsed.lines.count == lines.count,
              let i = parsed.lines.indices.first(where: { parsed.lines[$0].kind == .date }),
              Self.dateConfidence(lines[i]) < Self.unsureDateConfidence else { return (lines, 0) }
        let b = lines[i].box
        guard b.width > 4, b.height > 4 else { return (lines, 0) }
        let width = Int(pixGetWidth(pix)), height = Int(pixGetHeight(pix))
        let mx = max(4, b.height / 3), my = max(3, b.height / 4)
        let x0 = max(0, b.x - mx), x1 = min(width, b.x + b.width + mx)
        let y0 = max(0, b.y - my), y1 = min(height, b.y + b.height + my)
        var readings: [(iso: String, line: OCRLine)] = []
        // Binarised over the crop first: on uneven photo light the gray crops read as noise more often.
        for (scale, clean) in [(2.0, true), (3.0, true), (2.0, false), (3.0, false)] {
            guard let (text, confidence) = readLine(pix, x: x0, y: y0, width: x1 - x0, height: y1 - y0, scale: scale, clean: clean)
            else { continue }
            Self.traceReread("unsure date ×\(scale)\(clean ? " clean" : "") \(lines[i].text) → \(text)")
            guard let (candidate, reread) = Self.dateOnLine(i, readAs: text, confidence: confidence, in: lines, parser: parser)
            else { continue }
            if reread.iso == date.iso { return (lines, 0) }  // a re-read confirms the page
            if let agreeing = readings.first(where: { $0.iso == reread.iso }) {
                var out = lines
                out[i] = agreeing.line
                return (out, 1)
            }
            readings.append((reread.iso, candidate[i]))
        }
        return (lines, 0)
    }

    /// `lines` with line `i` replaced by its one-line re-read, and the date the parser (with the receipt's own
    /// currency and evidence, which decide day- or month-first) then reads on that line — nil when it reads none
    /// there, or one in the future.
    static func dateOnLine(
        _ i: Int, readAs text: String, confidence: Double, in lines: [OCRLine], parser: ReceiptParser
    ) -> ([OCRLine], ReceiptDate)? {
        var candidate = lines
        candidate[i].text = text
        candidate[i].confidence = confidence
        candidate[i].words = nil  // read again as one line: the page's word boxes no longer apply
        let parsed = parser.parse(lines: candidate)
        guard let date = parsed.date, i < parsed.lines.count, parsed.lines[i].kind == .date,
              !isFutureYear(date.year) else { return nil }
        return (candidate, date)
    }

    /// Debug aid: with `LARDER_REREAD_TRACE` set, what a re-read of a line or block read (stderr).
    static func traceReread(_ text: String) {
        guard ProcessInfo.processInfo.environment["LARDER_REREAD_TRACE"] != nil else { return }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
