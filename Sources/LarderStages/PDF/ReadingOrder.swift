import Foundation
import LarderCore
import LarderRecipes

/// Rebuilds a page's reading order from glyph positions, so that columns side by side never interleave.
///
/// poppler's text flow is not enough on its own: it joins pieces of two columns that share a baseline
/// ("IngredientsMethod") and can put a column's lines out of order. So the order is rebuilt from geometry:
/// 1. Each poppler line is cut into pieces at wide gaps (wider than 1.5 line heights).
/// 2. A column gutter is an x that no piece crosses over the band where the left and right columns overlap;
///    the band runs down to the first piece that spans the gutter (a full-width line below the columns).
/// 3. Reading order is: what lies above the band, the left column top to bottom, the right column, then what
///    lies below (each part ordered the same way, so three columns or stacked column sections work too).
/// 4. Without a gutter, pieces are read top to bottom and pieces on the same row are joined again, so the rows
///    of a table ("2 cups      flour") stay whole. A "gutter" whose two sides pair up row by row is such a table.
enum ReadingOrder {
    /// One glyph: its Unicode scalar (poppler gives one box per scalar of the page text) and box (points, origin
    /// top-left). A plain value (no reference inside), so arrays of glyphs copy without reference counting.
    struct Glyph {
        var scalar: Unicode.Scalar
        var x1: Double
        var y1: Double
        var x2: Double
        var y2: Double
        var size: Double
        var bold: Bool

        init(scalar: Unicode.Scalar, x1: Double, y1: Double, x2: Double, y2: Double, size: Double, bold: Bool) {
            (self.scalar, self.x1, self.y1, self.x2, self.y2, self.size, self.bold) = (scalar, x1, y1, x2, y2, size, bold)
        }

        /// A glyph of a one-scalar character (what poppler's glyphs are).
        init(character: Character, x1: Double, y1: Double, x2: Double, y2: Double, size: Double, bold: Bool) {
            precondition(character.unicodeScalars.count == 1, "a glyph is one Unicode scalar")
            self.init(scalar: character.unicodeScalars.first!, x1: x1, y1: y1, x2: x2, y2: y2, size: size, bold: bold)
        }
    }

    /// `Character.isWhitespace` / `isLetter` / `isNumber` of a one-scalar character (the scalar's White_Space,
    /// Alphabetic and Numeric_Type properties), decided on the value for ASCII (most glyphs) without the property
    /// lookup. `GlyphClassTests` compares them with `Character`'s on every scalar.
    @inline(__always)
    static func isBlank(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if v < 0x80 { return v == 0x20 || v &- 0x09 < 5 }
        return s.properties.isWhitespace
    }

    @inline(__always)
    static func isLetter(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if v < 0x80 { return (v | 0x20) &- 0x61 < 26 }
        return s.properties.isAlphabetic
    }

    @inline(__always)
    static func isNumber(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if v < 0x80 { return v &- 0x30 < 10 }
        return s.properties.numericType != nil
    }

    /// Lines in reading order, from the page's glyphs in poppler's order (line breaks are `\n` glyphs).
    static func lines(_ glyphs: [Glyph]) -> [PDFLine] { layout(glyphs, pageHeight: 0).lines }

    /// Lines in reading order and the blocks they form (see ``PDFBlock``).
    static func layout(_ glyphs: [Glyph], pageHeight: Double) -> (lines: [PDFLine], blocks: [PDFBlock]) {
        let glyphs = joinStackedNumerators(glyphs)
        // poppler's lines, as ranges of `glyphs` (no copies).
        var raw: [Range<Int>] = []
        var start = 0
        for k in glyphs.indices where glyphs[k].scalar == "\n" {
            raw.append(start..<k)
            start = k + 1
        }
        raw.append(start..<glyphs.count)
        let edges = columnEdges(glyphs, lines: raw)
        var pieces: [PDFLine] = []
        for line in raw { splitAtGaps(glyphs[line], edges: edges, into: &pieces) }
        // Short lines in the top and bottom margins (running header, page number, footer) are read apart from the
        // body, so they never join a column.
        let (top, bottom) = pageHeight > 0 ? PageFurniture.margins(of: &pieces, pageHeight: pageHeight) : ([], [])
        let references = PageFurniture.references(of: &pieces, pageHeight: pageHeight)
        // Raised quantities and drop-capital step numbers join their text before columns are looked for, so a
        // label never lands in a column apart from its step.
        pieces = attachDropLabels(attachRaisedQuantities(pieces))
        let header = rows(top).map { Node(kind: .header, lines: [$0]) }
        let footer = (references.isEmpty ? [] : [Node(kind: .footnote, lines: rows(references))])
            + rows(bottom).map { Node(kind: .footer, lines: [$0]) }
        var lines: [PDFLine] = []
        let blocks = (header + orderAroundTables(pieces, edges: edges) + footer).map { number($0, into: &lines) }
        return (lines, PageFurniture.separate(blocks, headers: header.count, footers: footer.count, lines: lines))
    }

    /// The body's blocks with the ingredient tables found from geometry (``TableLayout``) read as tables: what lies
    /// above a table, the table's records, its method (a prose column beside its groups), then what stood beside it
    /// (a box), and so on down the page. Without a table, ``order(_:depth:edges:)`` alone.
    private static func orderAroundTables(_ pieces: [PDFLine], edges: Set<Int>) -> [Node] {
        let tables = TableLayout.find(pieces)
        guard !tables.isEmpty else { return order(pieces, depth: 0, edges: edges) }
        let taken = Set(tables.flatMap { $0.taken.map(PieceKey.init) })
        var rest = pieces.filter { !taken.contains(PieceKey($0)) }
        var nodes: [Node] = []
        for table in tables {
            let above = rest.filter { $0.y < table.top - 0.5 }
            let beside = rest.filter { $0.y >= table.top - 0.5 && $0.y + $0.height <= table.bottom + 0.5 }
            rest = rest.filter { $0.y >= table.top - 0.5 && $0.y + $0.height > table.bottom + 0.5 }
            nodes += order(above, depth: 0, edges: edges)
            nodes.append(Node(kind: .table, lines: table.records))
            if !table.method.isEmpty { nodes.append(Node(kind: .paragraph, lines: table.method)) }
            let box = table.box + beside
            if !box.isEmpty { nodes.append(Node(kind: .box, children: paragraphs(rows(box)))) }
        }
        return nodes + order(rest, depth: 0, edges: edges)
    }

    /// A block before its lines are numbered.
    struct Node {
        var kind: PDFBlock.Kind
        var lines: [PDFLine] = []
        var children: [Node] = []
    }

    private static func number(_ node: Node, into lines: inout [PDFLine]) -> PDFBlock {
        let first = lines.count
        lines += node.lines
        let children = node.children.map { number($0, into: &lines) }
        let own = node.lines
        let boxes = own.map { ($0.x, $0.y, $0.x + $0.width, $0.y + $0.height) }
            + children.map { ($0.x, $0.y, $0.x + $0.width, $0.y + $0.height) }
        let x1 = boxes.map(\.0).min() ?? 0, y1 = boxes.map(\.1).min() ?? 0
        let x2 = boxes.map(\.2).max() ?? 0, y2 = boxes.map(\.3).max() ?? 0
        return PDFBlock(
            kind: node.kind, x: round1(x1), y: round1(y1), width: round1(x2 - x1), height: round1(y2 - y1),
            lines: Array(first..<(first + own.count)), children: children)
    }

    /// The pieces as blocks in reading order: columns side by side (a narrow one beside wider text is a box), and
    /// within a column paragraphs split at vertical gaps, a paragraph whose rows hold several cells being a table.
    private static func order(_ pieces: [PDFLine], depth: Int, edges: Set<Int> = []) -> [Node] {
        guard depth < 6, pieces.count >= 4, let split = columnSplit(pieces) else { return leaf(pieces, edges: edges) }
        let leftWidth = (split.left.map { $0.x + $0.width }.max() ?? 0) - (split.left.map(\.x).min() ?? 0)
        let rightWidth = (split.right.map { $0.x + $0.width }.max() ?? 0) - (split.right.map(\.x).min() ?? 0)
        let leftNodes = order(split.left, depth: depth + 1, edges: edges)
        let rightNodes = order(split.right, depth: depth + 1, edges: edges)
        // A side is a box when it is much narrower than the other, or when its blocks stand beside the other side's
        // blocks one by one (a box beside each step: their tops align).
        let leftTops = leftNodes.compactMap { $0.lines.first?.y }, rightTops = rightNodes.compactMap { $0.lines.first?.y }
        let aligned = rightTops.filter { r in leftTops.contains { abs($0 - r) < 3 } }.count
        let besideEach = leftTops.count >= 2 && rightTops.count >= 2 && aligned >= 2 && aligned * 2 >= rightTops.count
        // Or when it starts level with the other side's top and ends well above its bottom (a box beside a step).
        let lineHeight = split.left.map(\.height).sorted()[split.left.count / 2]
        let topsLevel = abs((split.left.map(\.y).min() ?? 0) - (split.right.map(\.y).min() ?? 0)) < 3
        let shorter = (split.right.map { $0.y + $0.height }.max() ?? 0) + 1.5 * lineHeight
            < (split.left.map { $0.y + $0.height }.max() ?? 0)
        let leftIsBox = leftWidth < 0.6 * rightWidth
        let rightIsBox = !leftIsBox
            && (rightWidth < 0.6 * leftWidth || besideEach || (topsLevel && shorter) || listBesideProse(split.right, split.left))
        let left = Node(kind: leftIsBox ? .box : .column, children: leftNodes)
        let right = Node(kind: rightIsBox ? .box : .column, children: rightNodes)
        return order(split.above, depth: depth + 1, edges: edges) + [left, right] + order(split.below, depth: depth + 1, edges: edges)
    }

    /// Pieces no column holds: paragraphs, and after them a box of the pieces that stand beside a line of running
    /// text on a column edge (an ingredient box beside one line of a step: "1. In a large mug" | "9 inch tortilla,
    /// 1 large"), so they never join the step's line.
    private static func leaf(_ pieces: [PDFLine], edges: Set<Int>) -> [Node] {
        guard !edges.isEmpty else { return paragraphs(joinHangingWraps(rows(pieces))) }
        let asides = pieces.indices.filter { k in
            let p = pieces[k]
            // (A page number after a table of contents' dot leader is not beside running text.)
            guard edges.contains(Int(p.x.rounded())), letterCount(p.text, atLeast: 3) else { return false }
            return pieces.contains { q in
                q.x < p.x && sameRow(q, p) && p.x - (q.x + q.width) > 3 && q.text.count { $0 == " " } >= 4
                    && !contains(q.text, ". . .")
            }
        }
        guard !asides.isEmpty else { return paragraphs(joinHangingWraps(rows(pieces))) }
        let aside = Set(asides)
        let rest = pieces.indices.filter { !aside.contains($0) }.map { pieces[$0] }
        return paragraphs(rows(rest)) + [Node(kind: .box, children: paragraphs(rows(asides.map { pieces[$0] })))]
    }

    /// A list item's wrapped lines joined to it: in a list whose items (two or more, opening with a quantity or a
    /// bullet, not a step number) start at one x, a line set 3–30 pt right of that x right below an item, in its
    /// size, not opening an item itself, continues it ("2 cups (450 g) cooked and" / "puréed pumpkin").
    static func joinHangingWraps(_ rows: [PDFLine]) -> [PDFLine] {
        func isItem(_ line: PDFLine) -> Bool {
            guard opensRecord(line.text) else { return false }
            let first = line.text.prefix { $0 != " " }
            return !(first.count <= 3 && (first.hasSuffix(".") || first.hasSuffix(")")) && first.dropLast().allSatisfy(\.isNumber))
        }
        let items = rows.filter(isItem)
        guard items.count >= 2 else { return rows }
        var result: [PDFLine] = []
        var itemX: Double? = nil  // the x of the item the last result line belongs to
        for row in rows {
            if let x = itemX, let last = result.last, !opensRecord(row.text), row.x - x >= 3, row.x - x <= 30,
               abs(row.fontSize - last.fontSize) < 0.5, row.y - (last.y + last.height) < 0.6 * row.height,
               items.contains(where: { $0.y != last.y && abs($0.x - x) < 1 })
            {
                result[result.count - 1].text = TableLayout.joinWrapped([last.text, row.text])
                result[result.count - 1].height = row.y + row.height - last.y
                continue
            }
            itemX = isItem(row) ? row.x : nil
            result.append(row)
        }
        return result
    }

    /// `text.count(where: \.isLetter) >= minimum`, read on the bytes when the text is ASCII without a carriage
    /// return (one character per byte).
    static func letterCount(_ text: String, atLeast minimum: Int) -> Bool {
        var letters = 0
        for byte in text.utf8 {
            if byte >= 0x80 || byte == 0x0D { return text.count(where: \.isLetter) >= minimum }
            if (byte | 0x20) &- 0x61 < 26 { letters += 1 }
        }
        return letters >= minimum
    }

    /// Whether `list` is a list of measured items (most lines hold a number and open with a capital or a digit)
    /// standing beside running text (`prose`: many lines continue a sentence, opening in lower case) — an
    /// ingredient list beside the method, not the method's next column.
    static func listBesideProse(_ list: [PDFLine], _ prose: [PDFLine]) -> Bool {
        guard list.count >= 2, prose.count >= 3 else { return false }
        // An item opens with a capital or a digit; a line opening in lower case continues the item above.
        let items = list.filter { $0.text.first.map { $0.isUppercase || $0.isNumber } ?? false }
        let measured = items.filter { $0.text.contains { $0.isNumber || "½¼¾⅓⅔⅛".contains($0) } }.count
        let continuing = prose.filter { $0.text.first?.isLowercase == true }.count
        return items.count >= 2 && measured * 10 >= items.count * 7 && items.count * 2 >= list.count
            && continuing * 10 >= prose.count * 4
    }

    /// Rows cut into paragraphs where the gap to the next row exceeds 0.8 line heights.
    private static func paragraphs(_ rows: [PDFLine]) -> [Node] {
        var nodes: [Node] = []
        var current: [PDFLine] = []
        func flush() {
            guard !current.isEmpty else { return }
            let cells = current.filter { contains($0.text, "  ") }.count
            nodes.append(Node(kind: current.count >= 2 && cells * 2 >= current.count ? .table : .paragraph, lines: current))
            current = []
        }
        for row in rows {
            if let last = current.last, row.y - (last.y + last.height) > 0.8 * max(last.height, row.height) || row.y < last.y - 1 {
                flush()
            }
            current.append(row)
        }
        flush()
        return nodes
    }

    private struct Split {
        var above: [PDFLine]
        var left: [PDFLine]
        var right: [PDFLine]
        var below: [PDFLine]
    }

    /// The best column gutter among the pieces, if any.
    private static func columnSplit(_ pieces: [PDFLine]) -> Split? {
        var best: (split: Split, score: Int)? = nil
        let minX = pieces.map(\.x).min() ?? 0
        // A column starts where at least two pieces start.
        var starts: [Double: Int] = [:]
        for piece in pieces { starts[piece.x.rounded(), default: 0] += 1 }
        // A column set flush right (margin notes) starts at the leftmost of three or more pieces ending at one x.
        var ends: [Double: Double] = [:], endCounts: [Double: Int] = [:]
        for piece in pieces {
            let end = (piece.x + piece.width).rounded()
            ends[end] = min(ends[end] ?? .infinity, piece.x.rounded())
            endCounts[end, default: 0] += 1
        }
        let flushRight = endCounts.filter { $0.value >= 3 }.compactMap { ends[$0.key] }
        let candidates = Set(starts.filter { $0.value >= 2 }.keys).union(flushRight).filter { $0 > minX + 20 }.sorted()
        for start in candidates {
            var gutter = pieces.filter { abs($0.x.rounded() - start) < 0.5 }.map(\.x).min() ?? start
            // A column's hanging indent or step numbers start a little left of its body lines: move the gutter
            // over pieces that cross it but start within 25 pt of it.
            while let shift = pieces.filter({ $0.x < gutter - 0.5 && $0.x > gutter - 25 && $0.x + $0.width > gutter })
                .map(\.x).min()
            {
                gutter = shift
            }
            let g = gutter - 2
            let leftSide = pieces.filter { $0.x + $0.width < g }
            let rightSide = pieces.filter { $0.x >= g }
            let crossing = pieces.filter { $0.x < g && $0.x + $0.width >= g }
            // The band: the stretch between two pieces that span the gutter holding the most lines on both sides.
            let cuts = [-Double.infinity] + crossing.map(\.y).sorted() + [Double.infinity]
            // Count each side's pieces per stretch in one pass (binary search over the cuts), then keep the best.
            func stretch(_ y: Double) -> Int? {
                var lo = 0, hi = cuts.count - 1
                while lo + 1 < hi {
                    let mid = (lo + hi) / 2
                    if cuts[mid] < y { lo = mid } else { hi = mid }
                }
                return cuts[lo] < y && y < cuts[hi] ? lo : nil
            }
            var leftCounts = [Int](repeating: 0, count: cuts.count), rightCounts = leftCounts
            for p in leftSide { if let k = stretch(p.y) { leftCounts[k] += 1 } }
            for p in rightSide { if let k = stretch(p.y) { rightCounts[k] += 1 } }
            var bestStretch: Int? = nil
            for k in 0..<(cuts.count - 1) where min(leftCounts[k], rightCounts[k]) > bestStretch.map({ min(leftCounts[$0], rightCounts[$0]) }) ?? 0 {
                bestStretch = k
            }
            guard let k = bestStretch, leftCounts[k] >= 2, rightCounts[k] >= 2 else { continue }
            let band = (
                top: cuts[k], bottom: cuts[k + 1], left: leftSide.filter { $0.y > cuts[k] && $0.y < cuts[k + 1] },
                right: rightSide.filter { $0.y > cuts[k] && $0.y < cuts[k + 1] })
            // The band starts where both columns have started.
            let bandTop = max(band.left.map(\.y).min()!, band.right.map(\.y).min()!) - 1
            var left = band.left.filter { $0.y >= bandTop }
            var right = band.right.filter { $0.y >= bandTop }
            // A heading that sits under one column, past the other's end and just above full-width text ("Method"
            // under the ingredient columns) opens what follows the band, not the column.
            if band.bottom.isFinite {
                let leftEnd = left.map { $0.y + $0.height }.max() ?? 0, rightEnd = right.map { $0.y + $0.height }.max() ?? 0
                left = left.filter { !opensSectionBelow($0, column: left, otherEnd: rightEnd, bandBottom: band.bottom) }
                right = right.filter { !opensSectionBelow($0, column: right, otherEnd: leftEnd, bandBottom: band.bottom) }
            }
            guard left.count >= 2, right.count >= 2 else { continue }
            // A column of step numbers ("1", "2" beside each step) is not a column: the numbers label the rows.
            if left.allSatisfy({ isLabel($0.text) }) { continue }
            // Rows of a table pair up: nearly every piece of one side has a piece of the other on its row, and the
            // left cells are narrow (quantities) or the right ones are (amounts after names).
            if isTable(left: left, right: right) { continue }
            // Narrow cells ending just short of the gutter beside pieces on their row are a table's cells
            // ("1/2 Tbs" | "sugar"), not a column's ends: a column gutter is wider or its lines are.
            let tight = right.filter { r in
                left.contains { l in l.width < 80 && sameRow(l, r) && r.x - (l.x + l.width) < 12 }
            }.count
            if tight >= 3 { continue }
            let score = min(left.count, right.count)
            if best == nil || score > best!.score {
                let inBand = Set((left + right).map { PieceKey($0) })
                let rest = pieces.filter { !inBand.contains(PieceKey($0)) }
                best = (
                    Split(
                        above: rest.filter { $0.y < bandTop }, left: left, right: right,
                        below: rest.filter { $0.y >= bandTop }),
                    score
                )
            }
        }
        return best?.split
    }

    /// Whether `piece`, in `column`, lies past the other column's end (`otherEnd`) after a gap and in the last two lines before the
    /// band's full-width bottom line.
    private static func opensSectionBelow(_ piece: PDFLine, column: [PDFLine], otherEnd: Double, bandBottom: Double) -> Bool {
        guard piece.y > otherEnd + piece.height, bandBottom - piece.y < 3 * piece.height else { return false }
        let above = column.filter { $0.y < piece.y - 0.5 }.map { $0.y + $0.height }.max() ?? 0
        return piece.y - above > piece.height
    }

    /// A step number standing alone: "1", "12", "3.".
    static func isLabel(_ text: String) -> Bool {
        let t = text.hasSuffix(".") ? String(text.dropLast()) : text
        return !t.isEmpty && t.count <= 2 && t.allSatisfy(\.isNumber)
    }

    /// Whether two sides of a gutter are the columns of one table (read row by row) rather than two columns of text
    /// (read one after the other). A table's rows pair up across the gutter and one side's cells are narrow; two
    /// side-by-side lists that each start with quantities ("1 tsp salt" beside "1 large eggplant") are two columns.
    static func isTable(left: [PDFLine], right: [PDFLine]) -> Bool {
        func pairs(_ a: [PDFLine], _ b: [PDFLine]) -> Int { a.filter { p in b.contains { abs($0.y - p.y) < 2 } }.count }
        func loosePairs(_ a: [PDFLine], _ b: [PDFLine]) -> Int { a.filter { p in b.contains { sameRow($0, p) } }.count }
        let pairedRight = pairs(right, left), pairedLeft = pairs(left, right)
        // Rows share a baseline on one side, or (raised fractions, cells of two lines) overlap on both.
        // (A raised fraction lifts a quantity cell's top: a narrow quantity column pairs when the boxes overlap.)
        let leftWidest = left.map(\.width).max() ?? 0, rightWidest = right.map(\.width).max() ?? 0
        let rowsPair = pairedRight * 10 >= right.count * 9 || pairedLeft * 10 >= left.count * 9
            || (leftWidest < 60 && loosePairs(right, left) * 10 >= right.count * 9)
            || (leftWidest < 0.6 * rightWidest && loosePairs(right, left) * 10 >= right.count * 8
                && loosePairs(left, right) * 10 >= left.count * 8)
        guard rowsPair else { return false }
        func quantityLed(_ side: [PDFLine]) -> Bool {
            side.filter { $0.text.first.map { $0.isNumber || "½¼¾⅓⅔⅛".contains($0) } ?? false }.count * 10 >= side.count * 8
        }
        let narrowSide = leftWidest < 0.6 * rightWidest || rightWidest < 0.6 * leftWidest
        if quantityLed(left) && quantityLed(right) && !narrowSide { return false }
        // Two columns of running text also share baselines; a table has a narrow side.
        // (Running text on the right, a method beside an ingredient list at the same leading, is a column.)
        return narrowSide
            || (pairedRight * 10 >= right.count * 9 && pairedLeft * 10 >= left.count * 9 && leftWidest < 200 && !isRunningText(right))
            // A column of quantities (a raised fraction lifts a cell) beside the names.
            || (loosePairs(right, left) * 10 >= right.count * 9 && loosePairs(left, right) * 10 >= left.count * 9 && leftWidest < 60)
    }

    /// Sentences set in lines: 4.5 words a line or more, and a quarter of the lines carrying on a sentence (a
    /// lower-case start), as ``TableLayout``'s prose column.
    static func isRunningText(_ lines: [PDFLine]) -> Bool {
        guard lines.count >= 3 else { return false }
        let words = lines.reduce(0) { $0 + $1.text.split(separator: " ").count }
        let continuing = lines.filter { $0.text.first?.isLowercase == true }.count
        return Double(words) >= 4.5 * Double(lines.count) && continuing * 4 >= lines.count
    }

    private struct PieceKey: Hashable {
        var x: Double
        var y: Double
        var text: String
        init(_ line: PDFLine) {
            x = line.x
            y = line.y
            text = line.text
        }
    }

    /// Top to bottom; pieces on the same row (boxes overlapping by half their height) joined left to right.
    /// Two passes read a table's rows as a person does:
    /// - a row holding two records side by side ("1 large  eggplant  1  tsp  salt": a second cell opening with a
    ///   quantity after a first one that does) is a table set in two columns: its left records are read down, then
    ///   its right ones;
    /// - a row holding only a lower-case cell under the name column of the row above ("getrocknet") continues it.
    static func rows(_ pieces: [PDFLine]) -> [PDFLine] {
        let sorted = attachDropLabels(pieces).sorted { ($0.y, $0.x) < ($1.y, $1.x) }
        var grouped: [[PDFLine]] = []
        for piece in sorted {
            if let first = grouped.last?.first, sameRow(first, piece) {
                grouped[grouped.count - 1].append(piece)
            } else {
                grouped.append([piece])
            }
        }
        grouped = grouped.map { $0.sorted { $0.x < $1.x } }
        var result: [PDFLine] = []
        var rightRecords: [PDFLine] = []
        var previous: [PDFLine] = []
        for row in grouped {
            // A cell alone under a later cell of the row above continues that row when that row is left open (a
            // comma, hyphen, open parenthesis or joining word at its end: "Kichererbsen," / "getrocknet").
            // (The geometry first: `isOpen` reads the text.)
            if row.count == 1, let cell = row.first, previous.count > 1,
               previous.dropFirst().contains(where: { abs($0.x - cell.x) < 3 }), let lastRow = result.last,
               isOpen(lastRow.text), let last = result.indices.last
            {
                result[last].text += " " + cell.text
                continue
            }
            // The second record starts at a quantity cell after a first record with a name (a cell of its own, or
            // a word of four letters or more in the first cell: "500 g bread flour  10 g  salt").
            // (Only a row of two cells or more can hold two records: `named` is read for those.)
            let named = row.count >= 2
                && row[0].text.split(separator: " ").contains { $0.count >= 4 && $0.allSatisfy(\.isLetter) }
            let split = row.count < 2 ? nil : row.indices.dropFirst(named ? 1 : 2).first { opensRecord(row[$0].text) }
            if let k = split, opensRecord(row[0].text) {
                result.append(merge(Array(row[..<k])))
                rightRecords.append(merge(Array(row[k...])))
            } else {
                if !rightRecords.isEmpty && !opensRecord(row[0].text) {
                    result += rightRecords
                    rightRecords = []
                }
                result.append(merge(row))
            }
            previous = row
        }
        return result + rightRecords
    }

    /// A quantity set with a raised fraction ("1 ½" as \\sfrac: its box starts higher than its row's) is a piece of
    /// its own, apart from the unit and name to its right; it joins them: "1 1/2" + "C chickpeas" → "1 1/2 C
    /// chickpeas". Only a quantity (with at most a short unit) joins, within three line heights.
    static func attachRaisedQuantities(_ pieces: [PDFLine]) -> [PDFLine] {
        var pieces = pieces
        var removed = Set<Int>()
        for k in pieces.indices where isRaisedQuantity(pieces[k].text) {
            let q = pieces[k]
            let right = pieces.indices.filter { j in
                j != k && !removed.contains(j) && pieces[j].x > q.x + q.width - 0.5 && pieces[j].x - (q.x + q.width) < 3 * max(q.height, pieces[j].height) * 0.8
                    && pieces[j].y - q.y >= 1.5 && sameRow(q, pieces[j])
            }
            guard let target = right.min(by: { pieces[$0].x < pieces[$1].x }) else { continue }
            pieces[target].text = q.text + " " + pieces[target].text
            pieces[target].width = round1(pieces[target].x + pieces[target].width - q.x)
            pieces[target].x = q.x
            removed.insert(k)
        }
        return pieces.indices.filter { !removed.contains($0) }.map { pieces[$0] }
    }

    /// "1/2", "1 1/2", "3/2 Tbs": a quantity with a fraction and at most one short word.
    static func isRaisedQuantity(_ text: String) -> Bool {
        // The first word opens with a digit or "/" (a cheap test before the split).
        guard let lead = text.first(where: { $0 != " " }), lead.isNumber || lead == "/" else { return false }
        if let ascii = asciiBytes(text) { return isRaisedQuantity(ascii: ascii) }
        let words = text.split(separator: " ")
        guard let first = words.first, first.allSatisfy({ $0.isNumber || $0 == "/" }), text.contains("/") || words.count > 1,
              words.count <= 3 else { return false }
        let rest = words.dropFirst().filter { !$0.allSatisfy({ $0.isNumber || $0 == "/" }) }
        return rest.count <= 1 && rest.allSatisfy { $0.count <= 4 && $0.allSatisfy(\.isLetter) }
    }

    /// ``isRaisedQuantity(_:)`` on an ASCII text's bytes: its words are the runs of bytes other than a space.
    private static func isRaisedQuantity(ascii bytes: [UInt8]) -> Bool {
        var words = 0, others = 0  // words, and words after the first not made of digits and "/"
        var firstIsNumber = false, othersAreShortWords = true, slash = false
        var k = 0
        while k < bytes.count {
            guard bytes[k] != 0x20 else {
                k += 1
                continue
            }
            let start = k
            var number = true, letters = true
            while k < bytes.count, bytes[k] != 0x20 {
                let b = bytes[k]
                if b == 0x2F { slash = true }
                if !(b &- 0x30 < 10 || b == 0x2F) { number = false }
                if (b | 0x20) &- 0x61 >= 26 { letters = false }
                k += 1
            }
            words += 1
            if words == 1 {
                firstIsNumber = number
            } else if !number {
                others += 1
                if !(k - start <= 4 && letters) { othersAreShortWords = false }
            }
        }
        guard words > 0, firstIsNumber, slash || words > 1, words <= 3 else { return false }
        return others <= 1 && othersAreShortWords
    }

    /// The text's bytes when it is ASCII without a carriage return (one `Character` per byte, and Foundation's
    /// searches compare byte for byte), else nil.
    static func asciiBytes(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        return bytes.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) ? bytes : nil
    }

    /// `text.contains(needle)` (Foundation's search) for an ASCII `needle`: on the bytes when the text is ASCII,
    /// else by Foundation.
    static func contains(_ text: String, _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        var ascii = true
        let found = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            var k = 0
            var found = false
            while k < bytes.count {
                if bytes[k] >= 0x80 || bytes[k] == 0x0D {
                    ascii = false
                    return false
                }
                if !found, k + pattern.count <= bytes.count, bytes[k] == pattern[0],
                   (1..<pattern.count).allSatisfy({ bytes[k + $0] == pattern[$0] })
                {
                    found = true
                }
                k += 1
            }
            return found
        }
        guard let found, ascii else { return text.contains(needle) }
        return found
    }

    /// A step number set as a drop capital (a piece of only a number, taller than the text beside it) labels the
    /// text piece whose top is nearest its top, to its right: "1" + "Am Vortag…" → "1. Am Vortag…".
    private static func attachDropLabels(_ pieces: [PDFLine]) -> [PDFLine] {
        var pieces = pieces
        let labels = pieces.indices.filter { isLabel(pieces[$0].text) }
        var removed = Set<Int>()
        for k in labels {
            let label = pieces[k]
            let candidates = pieces.indices.filter {
                !removed.contains($0) && $0 != k && !isLabel(pieces[$0].text) && pieces[$0].x > label.x + label.width - 1
                    && pieces[$0].x < label.x + label.width + 40 && abs(pieces[$0].y - label.y) < label.height
                    && label.height >= 1.6 * pieces[$0].height
            }
            guard let target = candidates.min(by: { abs(pieces[$0].y - label.y) < abs(pieces[$1].y - label.y) }) else { continue }
            let number = label.text.hasSuffix(".") ? label.text : label.text + "."
            pieces[target].text = number + " " + pieces[target].text
            pieces[target].width = round1(pieces[target].x + pieces[target].width - label.x)
            pieces[target].x = label.x
            removed.insert(k)
        }
        return pieces.indices.filter { !removed.contains($0) }.map { pieces[$0] }
    }

    /// A line that does not end its phrase: a trailing comma, hyphen or joining word, or an unclosed parenthesis.
    static func isOpen(_ text: String) -> Bool {
        let t = text.trimmingWhitespace()
        if let last = t.last, ",-(/&+".contains(last) { return true }
        if t.filter({ $0 == "(" }).count > t.filter({ $0 == ")" }).count { return true }
        let lastWord = t.split(separator: " ").last.map { $0.lowercased() } ?? ""
        return ["or", "and", "of", "with", "oder", "und", "mit", "ou", "et", "o", "e", "y", "en", "of"].contains(lastWord)
    }

    private static func sameRow(_ a: PDFLine, _ b: PDFLine) -> Bool {
        let overlap = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
        return abs(a.y - b.y) < 2 || overlap >= 0.6 * min(a.height, b.height)
    }

    /// A cell that opens a record of a list: a quantity or a bullet ("• 1/2 cup Flour").
    static func opensRecord(_ text: String) -> Bool {
        if let first = text.first, "•▪".contains(first) { return true }
        return startsWithQuantity(text)
    }

    static func startsWithQuantity(_ text: String) -> Bool {
        guard let first = text.first else { return false }
        if first == "≈" || first == "~" { return text.dropFirst().drop { $0 == " " }.first?.isNumber ?? false }
        return first.isNumber || "½¼¾⅓⅔⅛".contains(first)
    }

    /// The x (rounded to the point) where at least three lines start: the page's column and box edges.
    static func columnEdges(_ glyphs: [Glyph], lines: [Range<Int>]) -> Set<Int> {
        var counts: [Int: Int] = [:]
        for line in lines {
            if let first = glyphs[line].first(where: { !isBlank($0.scalar) }) { counts[Int(first.x1.rounded()), default: 0] += 1 }
        }
        return Set(counts.filter { $0.value >= 3 }.keys)
    }

    /// Splits one poppler line into pieces wherever two glyphs are farther apart than a wide gap, or, after a run
    /// of words (not a table cell), than a word space where the next glyph sits on a column edge (a box's line
    /// beside a step's first line). Appends the pieces to `pieces`.
    private static func splitAtGaps(_ glyphs: ArraySlice<Glyph>, edges: Set<Int>, into pieces: inout [PDFLine]) {
        guard let firstVisible = glyphs.firstIndex(where: { !isBlank($0.scalar) }) else { return }
        let firstX = glyphs[firstVisible].x1
        // The tallest visible glyph (kept as `max()` keeps it).
        var height = glyphs[firstVisible].y2 - glyphs[firstVisible].y1
        for glyph in glyphs[firstVisible...] where !isBlank(glyph.scalar) && height < glyph.y2 - glyph.y1 {
            height = glyph.y2 - glyph.y1
        }
        let wideGap = max(12, 1.5 * height)
        var pieceStart = glyphs.startIndex
        var previous: Glyph? = nil
        var words = 0  // the spaces in the last piece
        var sawBlank = false  // a blank since the previous visible glyph
        for k in glyphs.indices {
            let glyph = glyphs[k]
            let blank = isBlank(glyph.scalar)
            defer { if blank { sawBlank = true } else { sawBlank = false } }
            // poppler may give a row's cells out of order ("wild rice, uncooked" then the "1" left of it), or a
            // cell of the row below in the line ("2" then "1/8" a line lower): a jump back of two line heights, or
            // down or up by a line height, parts them.
            if !blank, let previous, glyph.x1 < previous.x1 - 2 * height || abs(glyph.y1 - previous.y1) >= height {
                if let piece = line(glyphs[pieceStart..<k]) { pieces.append(piece) }
                pieceStart = k
                words = 0
            } else if !blank, let previous, glyph.x1 > firstX {
                let gap = glyph.x1 - previous.x2
                // (A gap of 0.8 line heights before a column edge parts table cells: "1" | "1 cup", a step number
                // before a quantity.)
                // (A gap half again as wide as the line's word spaces before a column edge parts table cells set
                // close: "tablespoons" | "extra virgin olive oil".)
                let edge = gap > 0.3 * height && edges.contains(Int(glyph.x1.rounded()))
                // (A gap of 0.8 line heights with no space in it is no gap inside a word: poppler missed a cell's
                // edge, "tablespoon" | "olive oil" read as "tablespoonolive".)
                // (A unit alone on one column edge before a word on the next: a unit cell set a word space from
                // its name cell, "tablespoons" | "ketchup".)
                if gap > wideGap || (edge && gap > 0.6 * height && (words >= 3 || gap > 0.8 * height))
                    || (edge && gap > 1.5 * wordSpace(glyphs, height: height) && !isListLabel(glyphs[pieceStart..<k]))
                    || (!sawBlank && gap > 0.8 * height && isLetter(previous.scalar) && isLetter(glyph.scalar))
                    || (edge && sawBlank && words == 1 && unitCell(glyphs[pieceStart..<k], edges: edges))
                {
                    if let piece = line(glyphs[pieceStart..<k]) { pieces.append(piece) }
                    pieceStart = k
                    words = 0
                }
            }
            if glyph.scalar == " " { words += 1 }
            if !blank { previous = glyph }
        }
        if let piece = line(glyphs[pieceStart..<glyphs.endIndex]) { pieces.append(piece) }
    }

    /// Whether glyphs are one word standing on a column edge that reads as a unit alone ("tablespoons").
    static func unitCell(_ glyphs: ArraySlice<Glyph>, edges: Set<Int>) -> Bool {
        guard let first = glyphs.first(where: { !isBlank($0.scalar) }), edges.contains(Int(first.x1.rounded())) else { return false }
        var text = ""
        for glyph in glyphs where !isBlank(glyph.scalar) {
            guard isLetter(glyph.scalar) || glyph.scalar == "." else { return false }
            text.unicodeScalars.append(glyph.scalar)
        }
        return TableLayout.isUnit(text)
    }

    /// Whether glyphs are a list item's label ("1.", "2)"): digits and a closing mark, nothing else visible.
    static func isListLabel(_ glyphs: ArraySlice<Glyph>) -> Bool {
        var digits = 0
        for glyph in glyphs where !isBlank(glyph.scalar) {
            if isNumber(glyph.scalar) { digits += 1 } else if glyph.scalar != "." && glyph.scalar != ")" { return false }
        }
        return digits > 0
    }

    /// A poppler line's word space: the lower median of the gaps at its spaces (between the glyphs either side of a
    /// blank) from 0.15 to 0.6 line heights (a thin space is no word space, a wider gap parts cells), or infinity for
    /// a line of one word. (The gaps between cells would be half the spaces of "2  tablespoons all-purpose flour".)
    static func wordSpace(_ glyphs: ArraySlice<Glyph>, height: Double) -> Double {
        var gaps: [Double] = []
        var previous: Glyph? = nil, sawBlank = false
        for glyph in glyphs {
            if isBlank(glyph.scalar) {
                sawBlank = true
                continue
            }
            if sawBlank, let previous {
                let gap = glyph.x1 - previous.x2
                if gap >= 0.15 * height && gap <= 0.6 * height { gaps.append(gap) }
            }
            previous = glyph
            sawBlank = false
        }
        guard !gaps.isEmpty else { return .infinity }
        gaps.sort()
        return gaps[(gaps.count - 1) / 2]
    }

    private static func line(_ original: ArraySlice<Glyph>) -> PDFLine? {
        var glyphs = dropNarrowSpaces(Array(original))
        var visible = glyphs.filter { !isBlank($0.scalar) }
        guard !visible.isEmpty else { return nil }
        // A drop capital step number ("1" set two lines tall beside the step's first line) labels the step.
        var label: [UInt8] = []
        let lead = visible.prefix(while: { isNumber($0.scalar) })
        if !lead.isEmpty, lead.count <= 2, lead.count < visible.count {
            let rest = visible.dropFirst(lead.count)
            let restSize = rest.map(\.size).sorted()[rest.count / 2]
            if lead.allSatisfy({ $0.size >= 1.6 * restSize }) {
                for glyph in lead { appendUTF8(glyph.scalar, to: &label) }
                label += Array(". ".utf8)
                visible = Array(rest)
                glyphs = Array(glyphs.drop { isNumber($0.scalar) || isBlank($0.scalar) })
            }
        }
        // A footnote marker (small raised digits right after a word, or after its full stop, at the end of the
        // line) is not text.
        if let lastLetter = visible.lastIndex(where: { !isNumber($0.scalar) }), lastLetter < visible.count - 1,
           isLetter(visible[lastLetter].scalar) || ".,;:!?)".unicodeScalars.contains(visible[lastLetter].scalar)
        {
            let marker = visible[(lastLetter + 1)...]
            let word = visible[lastLetter]
            if marker.count <= 2, marker.allSatisfy({ isNumber($0.scalar) && $0.size < 0.8 * word.size && $0.y2 < word.y2 - 1 }),
               marker.first!.x1 - word.x2 < 1.5
            {
                let cut = glyphs.lastIndex { !isNumber($0.scalar) && !isBlank($0.scalar) }!
                glyphs = Array(glyphs[...cut])
                visible = Array(visible[...lastLetter])
            }
        }
        let body = fractionText(glyphs).trimmingWhitespace()
        let text = label.isEmpty ? body : String(decoding: label, as: UTF8.self) + body
        // The box and sizes in one pass, each extreme kept as `Sequence.min()`/`max()` keeps it (the first of equals;
        // a comparison with NaN never replaces).
        let head = visible[0]
        var (minX1, minY1, maxX2, maxY2) = (head.x1, head.y1, head.x2, head.y2)
        var visibleSize = head.size
        var textualSize: Double? = nil  // the size of the letters and digits: an icon font's glyphs do not make a heading
        var boldCount = 0
        for glyph in visible {
            if glyph.x1 < minX1 { minX1 = glyph.x1 }
            if glyph.y1 < minY1 { minY1 = glyph.y1 }
            if maxX2 < glyph.x2 { maxX2 = glyph.x2 }
            if maxY2 < glyph.y2 { maxY2 = glyph.y2 }
            if visibleSize < glyph.size { visibleSize = glyph.size }
            if isLetter(glyph.scalar) || isNumber(glyph.scalar) {
                if let size = textualSize { if size < glyph.size { textualSize = glyph.size } } else { textualSize = glyph.size }
            }
            if glyph.bold { boldCount += 1 }
        }
        let x = label.isEmpty ? minX1 : minX1 - 20
        let y = minY1
        return PDFLine(
            text: text, x: round1(x), y: round1(y), width: round1(maxX2 - x),
            height: round1(maxY2 - y), fontSize: textualSize ?? visibleSize, bold: boldCount * 2 > visible.count)
    }

    /// Appends `scalar`'s UTF-8 bytes.
    @inline(__always)
    private static func appendUTF8(_ scalar: Unicode.Scalar, to bytes: inout [UInt8]) {
        if scalar.value < 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: scalar.value))
        } else {
            for byte in UTF8.encode(scalar)! { bytes.append(byte) }
        }
    }

    /// Without the spaces poppler puts between letters that nearly touch (under 0.15 em apart: math italics set
    /// "fl oz" and "Tbs" letter by letter, and poppler reads "f l oz", "T bs"); a word space is wider.
    private static func dropNarrowSpaces(_ glyphs: [Glyph]) -> [Glyph] {
        guard glyphs.count >= 3 else { return glyphs }
        var result: [Glyph] = []
        result.reserveCapacity(glyphs.count)
        for k in glyphs.indices {
            let g = glyphs[k]
            if g.scalar == " ", k > 0, k + 1 < glyphs.count, let before = result.last,
               isLetter(before.scalar), isLetter(glyphs[k + 1].scalar),
               glyphs[k + 1].x1 - before.x2 < 0.15 * max(before.size, glyphs[k + 1].size),
               glyphs[k + 1].x1 > before.x1
            {
                continue
            }
            result.append(g)
        }
        return result
    }

    /// A stacked fraction's numerator that poppler gives as a line of its own ("1" over the "16" of "Baking soda,
    /// 16 teaspoon") is moved into the line of its denominator, just before it, so the fraction reads "1/16". A
    /// numerator is a line of at most three digits, set smaller than the line below it, standing over a run of
    /// digits of that line's size or smaller (their boxes overlap in x by half the narrower; the denominator's top
    /// lower than the numerator's middle, at most a line height down).
    static func joinStackedNumerators(_ glyphs: [Glyph]) -> [Glyph] {
        func numerator<C: Collection<Glyph>>(_ line: C) -> [Glyph]? {
            var visible: [Glyph] = []
            for glyph in line where !isBlank(glyph.scalar) {
                guard visible.count < 3, isNumber(glyph.scalar), glyph.scalar.value < 0x80 else { return nil }
                visible.append(glyph)
            }
            return visible.isEmpty ? nil : visible
        }
        // Most pages have no such line: looked for on poppler's lines in place first.
        var start = 0, any = false
        for k in glyphs.indices where glyphs[k].scalar == "\n" {
            if k - start <= 6, numerator(glyphs[start..<k]) != nil { any = true; break }
            start = k + 1
        }
        guard any || (glyphs.count - start <= 6 && numerator(glyphs[start...]) != nil) else { return glyphs }
        var lines: [[Glyph]] = [[]]
        for glyph in glyphs {
            if glyph.scalar == "\n" { lines.append([]) } else { lines[lines.count - 1].append(glyph) }
        }
        var moved = false
        for k in lines.indices {
            guard let top = numerator(lines[k]) else { continue }
            let (x1, x2, y1, y2) = (top.first!.x1, top.last!.x2, top.map(\.y1).min()!, top.map(\.y2).max()!)
            let height = y2 - y1
            for m in lines.indices where m != k && !lines[m].isEmpty && numerator(lines[m]) == nil {
                let line = lines[m]
                let bodySize = line.map(\.size).max()!
                guard top.allSatisfy({ $0.size < 0.85 * bodySize }) else { continue }
                // The denominator: the first digit of a run under the numerator.
                guard let d = line.indices.first(where: { i in
                    let g = line[i]
                    let overlap = min(g.x2, x2) - max(g.x1, x1), narrower = min(g.x2 - g.x1, x2 - x1)
                    return isNumber(g.scalar) && g.size < 0.85 * bodySize && narrower > 0 && overlap >= 0.5 * narrower
                        && g.y1 > y1 + 0.5 * height && g.y1 < y2 + height
                }) else { continue }
                let start = line[..<d].lastIndex { !isNumber($0.scalar) }.map { $0 + 1 } ?? line.startIndex
                guard line[start...d].allSatisfy({ $0.size < 0.85 * bodySize }) else { continue }
                lines[m].insert(contentsOf: top, at: start)
                lines[k] = []
                moved = true
                break
            }
        }
        guard moved else { return glyphs }
        var result: [Glyph] = []
        result.reserveCapacity(glyphs.count)
        let newline = Glyph(scalar: "\n", x1: 0, y1: 0, x2: 0, y2: 0, size: 0, bold: false)
        for (k, line) in lines.enumerated() {
            if k > 0 { result.append(newline) }
            result += line
        }
        return result
    }

    /// The glyphs' text, with stacked fractions read as "1/8": a small digit set over another (their boxes overlap
    /// in x, the second lower) gets a slash between them. Built as UTF-8 bytes, one glyph's scalar after another.
    private static func fractionText(_ glyphs: [Glyph]) -> String {
        let largest = glyphs.map(\.size).max() ?? 0
        var text: [UInt8] = []
        text.reserveCapacity(glyphs.count + 8)
        for k in glyphs.indices {
            let glyph = glyphs[k]
            if k > 0 {
                let above = glyphs[k - 1]
                // Consecutive glyphs of running text never overlap by half their width; stacked digits do.
                let overlap = min(above.x2, glyph.x2) - max(above.x1, glyph.x1)
                let narrower = min(above.x2 - above.x1, glyph.x2 - glyph.x1)
                // (TeX's \frac gives the numerator a zero-width box at the denominator's x.)
                let zeroWidth = above.x2 - above.x1 < 0.3 && abs(glyph.x1 - above.x1) < 0.5 && above.size < largest
                // (Or the second wholly below the first, their boxes overlapping in x: a numerator moved over its
                // denominator by ``joinStackedNumerators(_:)``.)
                let below = overlap > 0 && glyph.y1 > above.y2 - 0.5 && glyph.size < largest
                if isNumber(above.scalar), isNumber(glyph.scalar),
                   (narrower > 0 && overlap >= 0.5 * narrower) || zeroWidth || below
                {
                    text.append(UInt8(ascii: "/"))
                } else if isNumber(above.scalar), isNumber(glyph.scalar), glyph.size < 0.8 * above.size,
                          glyph.y2 < above.y2 - 1, glyphs[(k + 1)...].prefix(3).contains(where: { $0.scalar == "/" || $0.scalar == "\u{2044}" })
                {
                    // A whole number before a raised fraction ("1" then a small "1/2", \sfrac): "1 1/2", not "11/2".
                    text.append(UInt8(ascii: " "))
                }
            }
            appendUTF8(glyph.scalar, to: &text)
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func merge(_ pieces: [PDFLine]) -> PDFLine {
        guard var merged = pieces.first, pieces.count > 1 else { return pieces[0] }
        for piece in pieces.dropFirst() {
            let iconSoFar = !merged.text.contains(where: { $0.isLetter || $0.isNumber })
            merged.text += "  " + piece.text
            merged.width = round1(piece.x + piece.width - merged.x)
            // An icon beside the text (no letters or digits) does not set the row's size.
            if iconSoFar {
                merged.fontSize = piece.fontSize
            } else if piece.text.contains(where: { $0.isLetter || $0.isNumber }) {
                merged.fontSize = max(merged.fontSize, piece.fontSize)
            }
        }
        return merged
    }

    private static func round1(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}

