import Foundation

/// The features of a receipt's lines for ``ReceiptLineModel``: hashed strings (FNV-1a, 32 bits) per line, from the
/// line's text (shape, amounts, date and time patterns, letter n-grams — keywords are learned from these, none is
/// listed), its geometry on the paper (vertical position, indent, right edge against the price column, box
/// height against the receipt's median), its OCR confidence, and the same summaries of its neighbours.
///
/// Letter n-grams are taken over the line's letters with spaces and digits removed, so a line reads the same
/// whether the labels glued its words ("ICETEA10OZ", the photos' box labels) or OCR spaced them ("ICE TEA 10 OZ").
enum LineFeatures {
    /// What one line's text says, before its neighbours are looked at.
    struct Summary {
        var amount: Double?
        var amountCount = 0
        var negative = false
        var letters = ""          // upper-case letters only
        var words: [String] = []  // upper-case letter runs of 2+ letters
        var flags: [String] = []  // text shape flags shared with the neighbours
    }

    /// Per line, the hashed features.
    static func extract(_ lines: [OCRLine]) -> [[UInt32]] {
        let n = lines.count
        guard n > 0 else { return [] }
        let summaries = lines.map { summarize($0.text) }
        let geometry = Geometry(lines, summaries)
        let amounts = summaries.compactMap(\.amount)
        let maxAmount = amounts.max()
        var counts: [Double: Int] = [:]
        for a in amounts { counts[a, default: 0] += 1 }
        // Amount lines counted from the bottom: the total is usually among the last few.
        var amountRankFromBottom = [Int](repeating: -1, count: n)
        var rank = 0
        for i in stride(from: n - 1, through: 0, by: -1) where summaries[i].amount != nil {
            amountRankFromBottom[i] = rank
            rank += 1
        }
        var out: [[UInt32]] = []
        out.reserveCapacity(n)
        for i in 0..<n {
            var f = Features()
            let s = summaries[i]
            f.add("bias")
            for flag in s.flags { f.add("f:" + flag) }
            own(s, into: &f)
            if let a = s.amount {
                if a == maxAmount { f.add("a:max") }
                if counts[a, default: 0] > 1 { f.add("a:repeat") }
                if a == maxAmount, counts[a, default: 0] > 1 { f.add("a:max-repeat") }
                f.add("a:rank-bottom:\(min(amountRankFromBottom[i], 6))")
                f.add("a:sum-above:\(sumsLinesAbove(i, summaries))")
            }
            f.add("top:\(min(i, 6))")
            f.add("bottom:\(min(n - 1 - i, 6))")
            f.add("rel:\(Int(Double(i) / Double(n) * 8))")
            geometry.features(i, lines, s, into: &f)
            let confidence = lines[i].confidence
            f.add("conf:\(confidence >= 90 ? 3 : confidence >= 75 ? 2 : confidence >= 50 ? 1 : 0)")
            neighbour("p1", i > 0 ? summaries[i - 1] : nil, into: &f)
            neighbour("n1", i + 1 < n ? summaries[i + 1] : nil, into: &f)
            neighbour("p2", i > 1 ? summaries[i - 2] : nil, into: &f, brief: true)
            neighbour("n2", i + 2 < n ? summaries[i + 2] : nil, into: &f, brief: true)
            out.append(f.hashes)
        }
        return out
    }

    /// Whether the line's amount equals the sum of the amounts directly above it (two or more lines up to the
    /// previous line without one): 1, 0, or 2 when there is nothing above to add.
    static func sumsLinesAbove(_ i: Int, _ s: [Summary]) -> Int {
        guard let a = s[i].amount else { return 2 }
        var sum = 0.0, k = i - 1, terms = 0
        while k >= 0, let b = s[k].amount {
            sum += s[k].negative ? -b : b
            terms += 1
            if terms >= 2, abs(sum - a) < 0.005 { return 1 }
            k -= 1
        }
        // The whole block of priced lines above (gaps allowed): the subtotal or total of the items.
        var all = 0.0
        for j in 0..<i { if let b = s[j].amount { all += s[j].negative ? -b : b; if abs(all - a) < 0.005, j > 0 { return 1 } } }
        return terms == 0 ? 2 : 0
    }

    static func own(_ s: Summary, into f: inout Features) {
        let L = Array(s.letters)
        if L.isEmpty { f.add("L:none") }
        if L.count <= 14 { f.add("L:" + s.letters) }
        for k in 0..<max(0, L.count - 2) where k < 40 { f.add("L3:" + String(L[k..<k + 3])) }
        for k in 0..<max(0, L.count - 3) where k < 40 { f.add("L4:" + String(L[k..<k + 4])) }
        if L.count >= 3 { f.add("LP:" + String(L.prefix(4))); f.add("LS:" + String(L.suffix(4))) }
        for w in s.words.prefix(6) { f.add("W:" + w) }
        if let first = s.words.first { f.add("W0:" + first) }
        if let last = s.words.last { f.add("W$:" + last) }
        f.add("len:\(min(L.count / 4, 8))")
        f.add("words:\(min(s.words.count, 6))")
        if s.amount != nil {
            f.add("amt")
            if let first = s.words.first { f.add("amt&W0:" + first) }
            f.add("amt&len:\(min(L.count / 4, 8))")
        }
        f.add("amts:\(min(s.amountCount, 3))")
        if s.negative { f.add("neg") }
    }

    static func neighbour(_ tag: String, _ s: Summary?, into f: inout Features, brief: Bool = false) {
        guard let s else { f.add(tag + ":none"); return }
        f.add(tag + (s.amount == nil ? ":noamt" : ":amt"))
        for flag in s.flags { f.add(tag + ":" + flag) }
        if brief { return }
        if s.letters.count <= 14 { f.add(tag + ":L:" + s.letters) }
        if let first = s.words.first { f.add(tag + ":W0:" + first) }
    }

    // MARK: Text

    /// The text's amounts, letters and shape flags.
    static func summarize(_ raw: String) -> Summary {
        var s = Summary()
        let text = raw.trimmingCharacters(in: .whitespaces)
        s.letters = String(text.uppercased().filter { $0.isLetter })
        var run = ""
        for c in text.uppercased() {
            if c.isLetter { run.append(c) } else { if run.count >= 2 { s.words.append(run) }; run = "" }
        }
        if run.count >= 2 { s.words.append(run) }
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        var values: [(Double, Bool)] = []
        for t in tokens { if let v = amount(t) { values.append(v) } }
        s.amountCount = values.count
        if let last = tokens.last, let v = amount(last) { s.amount = v.0; s.negative = v.1 }
        else if tokens.count >= 2, let v = amount(tokens[tokens.count - 2]), tokens.last!.count <= 2,
                !tokens.last!.contains(where: \.isNumber) {
            s.amount = v.0; s.negative = v.1  // "4.99 T", "2.10 A": a tax flag after the price
        }
        let digits = text.filter(\.isNumber).count
        if text.range(of: #"\b\d{1,4}[./-]\d{1,2}[./-]\d{2,4}\b"#, options: .regularExpression) != nil { s.flags.append("date") }
        if text.range(of: #"\b\d{1,2}:\d{2}"#, options: .regularExpression) != nil { s.flags.append("time") }
        if text.range(of: #"(?i)\b(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]*\b"#, options: .regularExpression) != nil,
           digits >= 2 { s.flags.append("month") }
        if text.contains("%") { s.flags.append("pct") }
        if text.contains("@") || text.range(of: #"\d\s*[xX×]\s*\d"#, options: .regularExpression) != nil { s.flags.append("qtyx") }
        if text.range(of: #"\d{7,}"#, options: .regularExpression) != nil { s.flags.append("longnum") }
        if text.range(of: #"^\d{1,2}\s+\D"#, options: .regularExpression) != nil { s.flags.append("leadcount") }
        if text.range(of: #"(?i)\b\d+(\.\d+)?\s?(KG|G|LB|OZ|L|ML)\b"#, options: .regularExpression) != nil { s.flags.append("weight") }
        if text.contains(where: { "$€£¥".contains($0) }) { s.flags.append("cur") }
        if s.amount != nil { s.flags.append("amt") }
        let letters = s.letters.count
        if letters > 0, digits == 0 { s.flags.append("letters-only") }
        if letters == 0, digits > 0 { s.flags.append("digits-only") }
        if letters >= 3, text.filter(\.isLetter).allSatisfy(\.isUppercase) { s.flags.append("upper") }
        return s
    }

    /// A money amount token: `12.34`, `1,234.56`, `12,34` (decimal comma), `16,500` / `16.500` (whole units with
    /// grouping), `-3.00`, `3.00-`, `$4.99`, `RM9.90`; a plain integer only up to 6 digits. Returns the value and
    /// whether it is negative.
    static func amount(_ raw: String) -> (Double, Bool)? {
        var t = Substring(raw)
        var negative = false
        if t.hasPrefix("(") && t.hasSuffix(")") { t = t.dropFirst().dropLast(); negative = true }
        if t.hasSuffix("-") { t = t.dropLast(); negative = true }
        if t.hasPrefix("-") { t = t.dropFirst(); negative = true }
        while let c = t.first, !c.isNumber, "$€£¥RMSrmp.Rp".contains(c) { t = t.dropFirst() }
        while let c = t.last, c.isLetter || c == "*" { t = t.dropLast() }  // tax flags glued on: 4.99T, 77.43*
        guard let first = t.first, first.isNumber, t.allSatisfy({ $0.isNumber || $0 == "." || $0 == "," }) else { return nil }
        let chars = Array(t)
        if chars.count >= 4, chars[chars.count - 3] == "." || chars[chars.count - 3] == "," {
            let whole = String(chars[..<(chars.count - 3)]).filter(\.isNumber)
            let cents = String(chars[(chars.count - 2)...])
            guard cents.allSatisfy(\.isNumber), let v = Double(whole + "." + cents) else { return nil }
            // "16,500" and "16.500" are whole units with grouping when a group of three follows.
            return (v, negative)
        }
        if chars.count >= 5, chars[chars.count - 4] == "." || chars[chars.count - 4] == "," {
            guard let v = Double(String(chars).filter(\.isNumber)) else { return nil }
            return (v, negative)
        }
        if chars.allSatisfy(\.isNumber), chars.count <= 6, let v = Double(String(chars)) { return (v, negative) }
        return nil
    }

    // MARK: Geometry

    /// The receipt's frame: its extent, the median line height and the price column's right edge.
    struct Geometry {
        let known: Bool
        let left: Double, right: Double, top: Double, bottom: Double
        let medianHeight: Double
        let priceRight: Double?

        init(_ lines: [OCRLine], _ s: [Summary]) {
            let boxes = lines.map(\.box).filter { $0.width > 0 && $0.height > 0 }
            known = boxes.count == lines.count && !boxes.isEmpty
            left = Double(boxes.map(\.x).min() ?? 0)
            right = Double(boxes.map { $0.x + $0.width }.max() ?? 1)
            top = Double(boxes.map(\.y).min() ?? 0)
            bottom = Double(boxes.map { $0.y + $0.height }.max() ?? 1)
            let heights = boxes.map { Double($0.height) }.sorted()
            medianHeight = heights.isEmpty ? 1 : heights[heights.count / 2]
            let priced = zip(lines, s).filter { $0.1.amount != nil && $0.0.box.width > 0 }.map { Double($0.0.box.x + $0.0.box.width) }.sorted()
            priceRight = priced.count >= 2 ? priced[priced.count / 2] : nil
        }

        func features(_ i: Int, _ lines: [OCRLine], _ s: Summary, into f: inout Features) {
            guard known else { f.add("g:none"); return }
            let b = lines[i].box
            let W = max(right - left, 1), H = max(bottom - top, 1)
            let x0 = (Double(b.x) - left) / W, x1 = (Double(b.x + b.width) - left) / W
            let yc = (Double(b.y) + Double(b.height) / 2 - top) / H
            f.add("g:y:\(Int(min(yc, 0.999) * 10))")
            f.add("g:x0:\(Int(min(max(x0, 0), 0.999) * 5))")
            f.add("g:x1:\(Int(min(max(x1, 0), 0.999) * 5))")
            f.add("g:w:\(Int(min(max(x1 - x0, 0), 0.999) * 5))")
            let centre = (x0 + x1) / 2
            if abs(centre - 0.5) < 0.08, x1 - x0 < 0.75 { f.add("g:centred") }
            let h = Double(b.height) / medianHeight
            let hb = h < 0.8 ? 0 : h < 1.25 ? 1 : h < 1.7 ? 2 : 3
            f.add("g:h:\(hb)")
            if hb >= 2 { f.add("g:tall&top:\(min(i, 4))") }
            if let p = priceRight {
                let aligned = abs(Double(b.x + b.width) - p) < 0.04 * W
                f.add(aligned ? "g:pricecol" : "g:offcol")
                if aligned, s.amount != nil { f.add("g:pricecol&amt") }
            }
        }
    }

    /// Hashed features of one line.
    struct Features {
        var hashes: [UInt32] = []
        mutating func add(_ s: String) { hashes.append(fnv1a(s)) }
    }

    static func fnv1a(_ s: String) -> UInt32 {
        var h: UInt32 = 2_166_136_261
        for b in s.utf8 { h = (h ^ UInt32(b)) &* 16_777_619 }
        return h
    }
}
