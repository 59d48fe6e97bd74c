import Foundation
import LarderCore
import LarderIngredients

/// Ingredient tables found from word geometry, not from words: the way "stream" table extractors find them.
///
/// 1. Pieces (poppler's lines cut at wide gaps) are grouped into rows by their vertical overlap.
/// 2. Only where at least three rows hold two pieces or more (the gate: most pages stop here) are column anchors
///    looked for: x positions where pieces of two such rows or more start (or, for right-aligned quantities, end).
/// 3. A table is a run of rows whose pieces all start on anchors, no piece crossing the next column's anchor (a gap
///    no word crosses), rows at most two line heights apart.
/// 4. Each column is typed by its content: step numbers, quantities, units (the ingredient tagger reads "1 cell" as
///    an amount), ingredient names (the tagger's confidence), prose (sentences: many words a line, lines that continue
///    a sentence). A table without a quantity or unit column beside names is left to the rest of the layout.
/// 5. Ingredient records are rebuilt from cells: a name cell's wrapped lines are joined (a line is a wrap when the
///    line above is left open, or could not have held its first word and the tagger does not read the two lines
///    better apart than joined); "1 1/2 | tbsp | Ginger Paste"
///    → "1 1/2 tbsp Ginger Paste". A prose column beside the groups is their method: one step per group (a group
///    starts at a step number or after a gap), hyphenated line ends joined. A short prose column at the table's top
///    in a smaller size is a side box, not method.
enum TableLayout {
    /// What a column holds.
    enum ColumnKind: Equatable {
        case stepNumber, quantity, amount, unit, name, prose
    }

    /// A table found on the page: its ingredient records and method steps (as lines), what stood beside it as a
    /// box, and the pieces it took.
    struct Found {
        var top: Double
        var bottom: Double
        var records: [PDFLine]
        var method: [PDFLine]
        var box: [PDFLine]
        var taken: [PDFLine]
    }

    static let parser = IngredientParser()

    /// The tables among `pieces`, top to bottom (empty when geometry suggests none).
    static func find(_ pieces: [PDFLine]) -> [Found] {
        var rows = rows(of: pieces)
        guard rows.filter({ $0.count >= 2 }).count >= 3 else { return [] }
        let anchors = anchors(of: rows)
        guard anchors.count >= 2 else { return [] }
        var found: [Found] = []
        var k = 0
        while k < rows.count {
            guard let run = region(&rows, from: k, anchors: anchors) else {
                k += 1
                continue
            }
            // A run right below a row of cells it could not place (its first row, set otherwise) is not the whole
            // table: it is left to the rest of the layout.
            if !continuesRowAbove(rows, run.lowerBound), var table = table(Array(rows[run]), anchors: anchors) {
                // A cut piece's parts were taken as the piece itself.
                table.taken = table.taken.map { part in
                    pieces.first { $0.y == part.y && $0.height == part.height && $0.x <= part.x && part.x < $0.x + $0.width } ?? part
                }
                found.append(table)
            }
            k = run.upperBound
        }
        return found
    }

    /// A piece that opens with a quantity on one anchor and runs over the next ("3 tablespoons butter", the unit
    /// cell set a word space from its name cell) is cut at the word that starts nearest that anchor (positions
    /// estimated at the piece's mean character width; within one and a half characters of it) when what stands
    /// before it is an amount ("3 tablespoons") and two rows of the table above hold a cell on each of the two
    /// anchors (columns, not a list's wrap indent).
    static func cut(_ piece: PDFLine, at anchors: [Double], run: ArraySlice<[PDFLine]>) -> [PDFLine] {
        guard ReadingOrder.startsWithQuantity(piece.text), let a = anchors.firstIndex(where: { abs($0 - piece.x) <= 3 }),
              a + 1 < anchors.count, piece.x + piece.width > anchors[a + 1] + 3,
              // The two are columns of the run above: two rows or more hold a cell on each.
              run.filter({ row in [a, a + 1].allSatisfy { k in row.contains { anchor(of: $0, in: anchors) == k } } }).count >= 2
        else { return [piece] }
        let characters = Array(piece.text)
        let perCharacter = piece.width / Double(max(characters.count, 1))
        let target = anchors[a + 1]
        var best: (k: Int, distance: Double)? = nil
        for k in characters.indices.dropFirst() where characters[k - 1] == " " && characters[k] != " " {
            let distance = abs(piece.x + Double(k) * perCharacter - target)
            if distance < (best?.distance ?? .infinity) { best = (k, distance) }
        }
        guard let best, best.distance < 1.5 * perCharacter,
              case let head = String(characters[..<best.k]).trimmingCharacters(in: .whitespaces), isAmount(head)
        else { return [piece] }
        var left = piece, right = piece
        left.text = head
        left.width = Double(left.text.count) * perCharacter
        right.text = String(characters[best.k...])
        right.x = target
        right.width = piece.x + piece.width - target
        return [left, right]
    }

    /// Whether the row above `k` holds two pieces or more within a line height of row `k`.
    static func continuesRowAbove(_ rows: [[PDFLine]], _ k: Int) -> Bool {
        guard k > 0, rows[k - 1].count >= 2 else { return false }
        let above = rows[k - 1].map { $0.y + $0.height }.max()!, height = rows[k].map(\.height).max()!
        return rows[k].map(\.y).min()! - above < height
    }

    /// Pieces grouped into rows (boxes overlapping by more than half the lower one's height), top to bottom, each
    /// left to right.
    static func rows(of pieces: [PDFLine]) -> [[PDFLine]] {
        var rows: [[PDFLine]] = []
        for piece in pieces.sorted(by: { ($0.y, $0.x) < ($1.y, $1.x) }) {
            if let first = rows.last?.first, sameRow(first, piece) {
                rows[rows.count - 1].append(piece)
            } else {
                rows.append([piece])
            }
        }
        return rows.map { $0.sorted { $0.x < $1.x } }
    }

    static func sameRow(_ a: PDFLine, _ b: PDFLine) -> Bool {
        let overlap = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
        return overlap >= 0.5 * min(a.height, b.height)
    }

    /// x positions (rounded) where pieces of at least three rows start; a right-aligned quantity column's pieces
    /// ending at one x count for the leftmost of their starts.
    static func anchors(of rows: [[PDFLine]]) -> [Double] {
        var starts: [Int: Int] = [:]
        for row in rows where row.count >= 2 {
            for piece in row { starts[Int(piece.x.rounded()), default: 0] += 1 }
        }
        var ends: [Int: [Double]] = [:]
        for row in rows where row.count >= 2 {
            for piece in row where isQuantity(piece.text) { ends[Int((piece.x + piece.width).rounded()), default: []].append(piece.x) }
        }
        // (Two rows suffice for an anchor: a step-number column has a number only on each group's first row.)
        var xs = starts.filter { $0.value >= 2 }.map { Double($0.key) }
        // A step number alone in its column (a method of one group) is an anchor when it opens a row of three cells
        // or more left of every other anchor.
        let firstOthers = xs.min() ?? .infinity
        xs += rows.filter { $0.count >= 3 && ReadingOrder.isLabel($0[0].text) && $0[0].x + $0[0].width < firstOthers - 3 }
            .map { Double(Int($0[0].x.rounded())) }
        xs += ends.values.filter { $0.count >= 3 }.compactMap { $0.min() }
        // Anchors within 3 pt are one.
        var merged: [Double] = []
        for x in xs.sorted() where merged.last.map({ x - $0 > 3 }) ?? true { merged.append(x) }
        return merged
    }

    /// The anchor a piece starts on (within 3 pt), or for a right-aligned quantity the anchor left of it.
    static func anchor(of piece: PDFLine, in anchors: [Double]) -> Int? {
        if let k = anchors.firstIndex(where: { abs($0 - piece.x) <= 3 }) { return k }
        // A wider right-aligned quantity sticks out left of its column ("120 g" over "1/2"): the anchor less than
        // 0.6 line heights right of its start.
        if ReadingOrder.startsWithQuantity(piece.text),
           let k = anchors.firstIndex(where: { $0 > piece.x && $0 - piece.x < 0.6 * piece.height })
        {
            return k
        }
        guard isQuantity(piece.text) else { return nil }
        // A right-aligned quantity: its anchor is the nearest one left of it whose next anchor lies beyond its end.
        return anchors.indices.last { anchors[$0] < piece.x && ($0 + 1 == anchors.count || anchors[$0 + 1] > piece.x + piece.width) }
    }

    /// The run of rows from `start` that forms a table, if any: rows whose pieces all start on anchors without
    /// crossing the next anchor, at most two line heights apart, with three or more rows of two pieces or more.
    static func region(_ rows: inout [[PDFLine]], from start: Int, anchors: [Double]) -> Range<Int>? {
        // Every piece starts on an anchor; a piece alone on its row crosses no anchor (a line of text across the
        // columns), while a cell may run into an empty neighbour ("12 to 15" into the unit column).
        func fits(_ row: [PDFLine]) -> Bool {
            row.allSatisfy { piece in
                guard let a = anchor(of: piece, in: anchors) else { return false }
                return row.count > 1 || a + 1 == anchors.count || piece.x + piece.width < anchors[a + 1] - 1
            }
        }
        guard rows[start].count >= 2, fits(rows[start]) else { return nil }
        var end = start + 1, firstColumn = rows[start][0].x
        // (A row of one piece that runs over a column is cut there when its parts fit: see ``cut(_:at:)``.)
        while end < rows.count {
            let above = rows[end - 1].map { $0.y + $0.height }.max()!, height = rows[end - 1].map(\.height).max()!
            guard rows[end].map(\.y).min()! - above <= 2 * height else { break }
            if rows[end].count == 1, !fits(rows[end]), case let parts = cut(rows[end][0], at: anchors, run: rows[start..<end]),
               parts.count == 2, fits(parts)
            {
                rows[end] = parts
            }
            guard fits(rows[end]) else { break }
            // A lone piece on the table's first column is a heading or text below it, unless it is a cell of
            // that column (a quantity or step number).
            // (The first column is the leftmost piece so far: the first row's may stand in a later column when its
            // quantity cell is empty.)
            if rows[end].count == 1, abs(rows[end][0].x - firstColumn) <= 3, !isQuantity(rows[end][0].text),
               !ReadingOrder.isLabel(rows[end][0].text)
            {
                break
            }
            firstColumn = min(firstColumn, rows[end][0].x)
            end += 1
        }
        guard rows[start..<end].filter({ $0.count >= 2 }).count >= 3 else { return nil }
        return start..<end
    }

    /// "1", "1 1/2", "½", "2-3", "1.5", "200", "12 to 15" — a quantity alone.
    static func isQuantity(_ text: String) -> Bool {
        guard let first = text.first, first.isNumber || "½¼¾⅓⅔⅛".contains(first), text.count <= 12 else { return false }
        return text.split(separator: " ").allSatisfy { word in
            word == "to" || word == "or" || word.allSatisfy { $0.isNumber || "/.,-–".contains($0) || "½¼¾⅓⅔⅛".contains($0) }
        }
    }
}

// MARK: - Columns and records

extension TableLayout {
    /// The table of a run of rows: its columns typed, its records and method rebuilt; nil when it is no
    /// ingredient table (no quantity, amount or unit column beside a name column).
    static func table(_ rows: [[PDFLine]], anchors: [Double]) -> Found? {
        var used = Set(rows.flatMap { $0.compactMap { anchor(of: $0, in: anchors) } }).sorted()
        let alias = rightAlignedQuantities(rows, used: used, anchors: anchors)
        used.removeAll { alias[$0] != nil }
        guard used.count >= 2 else { return nil }
        // Cells by column: column index of each piece.
        func column(_ piece: PDFLine) -> Int {
            let a = anchor(of: piece, in: anchors)!
            return used.firstIndex(of: alias[a] ?? a)!
        }
        var cells = [[PDFLine]](repeating: [], count: used.count)
        for row in rows { for piece in row { cells[column(piece)].append(piece) } }
        let kinds = cells.enumerated().map { k, c in kind(of: c, first: k == 0, last: k == cells.count - 1) }
        // The ingredient columns: step numbers, quantities, amounts or units, then the first name column; what
        // stands right of it is the method (prose) or a box beside the table.
        // (Step numbers alone before the names will do when the method stands beside them.)
        guard let nameColumn = kinds.firstIndex(of: .name) else { return nil }
        var proseColumns = kinds.indices.filter { kinds[$0] == .prose && $0 > nameColumn }
        // (Or, with the method beside, names that carry their own amounts: "12OZ. broccoli crowns", a unit glued to
        // its quantity, set in the name column.)
        // The method then stands right beside the names, one paragraph a group, not numbered steps (an ingredient
        // list beside a numbered method is read by the column rules), and its paragraphs start where the groups do.
        let amountsInNames = Double(cells[nameColumn].filter { ReadingOrder.startsWithQuantity($0.text) }.count)
            >= 0.3 * Double(cells[nameColumn].count)
            && proseColumns.first == nameColumn + 1
            && !proseColumns.flatMap({ cells[$0] }).contains { ReadingOrder.isLabel(String($0.text.split(separator: " ").first ?? "")) }
            && groupsAlign(names: cells[nameColumn], prose: cells[nameColumn + 1])
        guard kinds[..<nameColumn].contains(where: { [.quantity, .amount, .unit].contains($0) })
            || ((kinds[..<nameColumn].contains(.stepNumber) || amountsInNames) && !proseColumns.isEmpty)
        else { return nil }
        let top = rows.first!.map(\.y).min()!, bottom = rows.last!.map { $0.y + $0.height }.max()!
        var method: [PDFLine] = []
        // A table set in two record columns ("1 1/2 C | chickpeas    3 | pods | cardamom") holds a second group of
        // quantity (amount, unit) columns and a name column right of the first: its records follow the first's.
        var groups = [0...nameColumn]
        while let next = kinds.indices.first(where: { $0 > groups.last!.upperBound && [.quantity, .amount].contains(kinds[$0]) }),
              next == groups.last!.upperBound + 1,
              let name = kinds.indices.first(where: { $0 > next && kinds[$0] == .name }),
              kinds[(next + 1)..<name].allSatisfy({ $0 == .unit })
        {
            groups.append(next...name)
        }
        let ingredientEnd = groups.last!.upperBound
        proseColumns.removeAll { $0 <= ingredientEnd }
        var box = cells.indices.filter { $0 > ingredientEnd && kinds[$0] != .prose }.flatMap { cells[$0] }
        if let p = proseColumns.first {
            let prose = proseColumns.flatMap { cells[$0] }
            if isSideBox(prose, table: cells[nameColumn], top: top, bottom: bottom) {
                box += prose
            } else {
                let starts = groupStarts(rows, cells: cells, kinds: kinds, proseColumn: p)
                method = steps(prose, groupStarts: starts)
            }
        }
        // A name cell's room ends a cell padding (1.2 line heights) before the next column, when there is one: a
        // line that could have held the next line's first word there did not wrap (even when it is the column's
        // longest: "12 to 15 Double Stuff Oreo Cookies" / "powdered sugar" beside the method).
        let rebuilt = groups.flatMap { group in
            let next = group.upperBound + 1 < cells.count ? cells[group.upperBound + 1] : []
            let height = cells[group.upperBound].map(\.height).max() ?? 0
            let room = next.map(\.x).min().map { $0 - 1.2 * height }
            return records(rows, kinds: kinds, column: column, columns: group, room: room)
        }
        return Found(top: top, bottom: bottom, records: rebuilt, method: method, box: box, taken: rows.flatMap { $0 })
    }

    /// Anchors that are one column of right-aligned quantities set with their units ("3 pounds" under "1/4 cup",
    /// its digit ending where the fraction ends): an anchor less than 1.5 line heights right of the one before,
    /// no row holding a piece on both, every piece on both opening with a quantity. Each such anchor maps to the
    /// column's first anchor.
    static func rightAlignedQuantities(_ rows: [[PDFLine]], used: [Int], anchors: [Double]) -> [Int: Int] {
        var alias: [Int: Int] = [:]
        for (a, b) in zip(used, used.dropFirst()) {
            var onA = 0, onB = 0, both = false, quantities = true, height = 0.0
            for row in rows {
                let here = row.compactMap { anchor(of: $0, in: anchors) }
                if here.contains(a) && here.contains(b) { both = true }
                for piece in row where [a, b].contains(anchor(of: piece, in: anchors)) {
                    if anchor(of: piece, in: anchors) == a { onA += 1 } else { onB += 1 }
                    if !ReadingOrder.startsWithQuantity(piece.text) { quantities = false }
                    height = max(height, piece.height)
                }
            }
            if !both, quantities, onA > 0, onB > 0, anchors[b] - anchors[a] < 1.5 * height { alias[b] = alias[a] ?? a }
        }
        return alias
    }

    /// A column's kind from its cells' text: step numbers (the first column, short integers), quantities,
    /// amounts (a quantity and a unit), units (the tagger reads "1 cell" as an amount with nothing else), prose
    /// (the last column, sentences: five words a line or more and lines continuing a sentence), else names.
    static func kind(of cells: [PDFLine], first: Bool, last: Bool) -> ColumnKind {
        let texts = cells.map(\.text)
        let n = Double(texts.count)
        func share(_ test: (String) -> Bool) -> Double { Double(texts.filter(test).count) / n }
        // Step numbers count up (1, 2, 3), one a group; a column of "1"s is quantities.
        let numbers = texts.compactMap { Int($0.hasSuffix(".") ? String($0.dropLast()) : $0) }
        if first, texts.allSatisfy(ReadingOrder.isLabel), numbers.count == texts.count,
           zip(numbers, numbers.dropFirst()).allSatisfy({ $0 < $1 }), numbers.first! <= 1 || texts.count >= 2
        {
            return .stepNumber
        }
        if share(isQuantity) >= 0.8 { return .quantity }
        if share(isAmount) >= 0.7 { return .amount }
        if share(isUnit) >= 0.7 { return .unit }
        if last, texts.count >= 2 {
            let words = Double(texts.reduce(0) { $0 + $1.split(separator: " ").count }) / n
            let continuing = share { $0.first?.isLowercase == true }
            if words >= 4.5 && (continuing >= 0.25 || share({ $0.hasSuffix(".") }) >= 0.3) { return .prose }
        }
        return .name
    }

    /// A unit alone ("tbsp", "Cups", "fl oz"): the tagger reads "1 cell" as one amount whose unit is the whole cell.
    static func isUnit(_ text: String) -> Bool {
        guard text.count <= 14, text.split(separator: " ").count <= 2, text.allSatisfy({ $0.isLetter || $0 == "." || $0 == " " })
        else { return false }
        let parsed = parser.parse("1 " + text)
        return parsed.unitText.map { $0.count >= text.count - 1 } ?? false
    }

    /// A quantity and a unit ("2 cups", "400 g", "3"): the tagger finds an amount and at most a short name.
    static func isAmount(_ text: String) -> Bool {
        if isQuantity(text) { return true }
        guard ReadingOrder.startsWithQuantity(text), text.split(separator: " ").count <= 3 else { return false }
        let parsed = parser.parse(text)
        return parsed.quantity != nil && parsed.unitText != nil && parsed.name.isEmpty
    }

    /// A prose column is a side box (a tip beside the table), not its method, when it is set smaller than the names
    /// or covers less than half the table's height from its top, in one paragraph.
    static func isSideBox(_ prose: [PDFLine], table names: [PDFLine], top: Double, bottom: Double) -> Bool {
        let proseSize = prose.map(\.fontSize).max() ?? 0, nameSize = names.map(\.fontSize).max() ?? 0
        if proseSize < nameSize - 0.4 { return true }
        let end = prose.map { $0.y + $0.height }.max() ?? top
        return (end - top) < 0.5 * (bottom - top)
    }

    /// The row indices where an ingredient group starts: a row with a step number, or a row after a gap of more than
    /// half a line height (when the table has no step numbers).
    static func groupStarts(_ rows: [[PDFLine]], cells: [[PDFLine]], kinds: [ColumnKind], proseColumn: Int) -> [Double] {
        if let s = kinds.firstIndex(of: .stepNumber) { return cells[s].map(\.y) }
        var starts = [rows[0].map(\.y).min()!]
        for k in rows.indices.dropFirst() {
            let above = rows[k - 1].map { $0.y + $0.height }.max()!, height = rows[k - 1].map(\.height).max()!
            if rows[k].map(\.y).min()! - above > 0.5 * height { starts.append(rows[k].map(\.y).min()!) }
        }
        return starts
    }

    /// Whether the names fall into two groups or more (a vertical gap of half a line between two names) and each
    /// group opens at the height where a paragraph of the prose beside it opens (after a gap in the prose too): an
    /// ingredient group with its step beside it, not a list set beside a method that flows on its own.
    static func groupsAlign(names: [PDFLine], prose: [PDFLine]) -> Bool {
        func starts(_ lines: [PDFLine]) -> [Double] {
            let sorted = lines.sorted { $0.y < $1.y }
            return zip(sorted, sorted.dropFirst()).filter { $1.y - ($0.y + $0.height) > 0.5 * $0.height }.map { $1.y }
        }
        let nameStarts = starts(names), proseStarts = starts(prose)
        return !nameStarts.isEmpty && nameStarts.allSatisfy { y in proseStarts.contains { abs($0 - y) <= 2 } }
    }

    /// The method: the prose lines cut into one step per group (at each group start's height), each numbered.
    static func steps(_ prose: [PDFLine], groupStarts: [Double]) -> [PDFLine] {
        let lines = prose.sorted { $0.y < $1.y }
        var groups: [[PDFLine]] = []
        for line in lines {
            let group = groupStarts.lastIndex { $0 <= line.y + 2 } ?? 0
            while groups.count <= group { groups.append([]) }
            groups[group].append(line)
        }
        return groups.filter { !$0.isEmpty }.enumerated().map { k, group in
            var step = group[0]
            step.text = "\(k + 1). " + joinWrapped(group.map(\.text))
            step.width = group.map { $0.x + $0.width }.max()! - step.x
            step.height = group.last!.y + group.last!.height - step.y
            return step
        }
    }

    /// Lines of one paragraph joined with spaces; a word hyphenated at a line end ("generou-" + "sly") joined whole.
    static func joinWrapped(_ lines: [String]) -> String {
        var text = ""
        for line in lines {
            let t = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty {
                text = t
            } else if text.hasSuffix("-"), text.dropLast().last?.isLowercase == true, t.first?.isLowercase == true {
                text = String(text.dropLast()) + t
            } else {
                text += " " + t
            }
        }
        return text
    }

    /// Ingredient records from the rows' step, quantity, amount, unit and name cells: a row with a quantity,
    /// amount or unit opens a record; a row holding only a name cell continues the record above when it is a
    /// wrapped line (see ``isWrap(_:after:columnEnd:)``), else opens one.
    static func records(_ rows: [[PDFLine]], kinds: [ColumnKind], column: (PDFLine) -> Int, columns: ClosedRange<Int>,
                        room: Double? = nil) -> [PDFLine] {
        let nameColumn = columns.upperBound
        let longest = rows.flatMap { $0.filter { column($0) == nameColumn } }.map { $0.x + $0.width }.max() ?? 0
        let columnEnd = max(longest, room ?? 0)
        var records: [PDFLine] = []
        var lastName: PDFLine? = nil
        for row in rows {
            let cells = row.filter { columns.contains(column($0)) && kinds[column($0)] != .stepNumber }
            guard !cells.isEmpty else { continue }
            let opens = cells.contains { [.quantity, .amount, .unit].contains(kinds[column($0)]) }
            let name = cells.last { column($0) == nameColumn }
            if !opens, let name, let last = records.indices.last, let previous = lastName, isWrap(name, after: previous, record: records[last].text, columnEnd: columnEnd) {
                records[last].text = joinWrapped([records[last].text, name.text])
                records[last].height = name.y + name.height - records[last].y
                lastName = name
                continue
            }
            var record = cells[0]
            record.text = cells.map(\.text).joined(separator: " ")
            record.width = cells.last!.x + cells.last!.width - record.x
            record.fontSize = cells.map(\.fontSize).max()!
            record.bold = false
            records.append(record)
            lastName = name
        }
        return records
    }

    /// Whether `line`, alone in the name column, continues the name cell above. It does when that cell is left open
    /// (a comma, an open parenthesis, a joining word). It does not when the line above could have held this line's
    /// first word (it ends short of the column's end by more than that word's width). Else (the line above reached
    /// the column's end) the ingredient tagger decides first: a record so far without a name continues; two lines
    /// that each hold a name part when the tagger reads them joined worse than apart (``IngredientParser/joinMargin``
    /// below −0.2). Then it continues when it opens in lower case or with a bracket, or in title case after a
    /// capitalised word ("Oil", "Cottage Cheese": a name wrapped in title case).
    static func isWrap(_ line: PDFLine, after previous: PDFLine, record: String, columnEnd: Double) -> Bool {
        if ReadingOrder.isOpen(previous.text) { return true }
        guard line.y - (previous.y + previous.height) < 0.5 * previous.height, let first = line.text.first else { return false }
        // The first word's width (and a space before it), at this line's own width per character.
        let perCharacter = line.width / Double(max(line.text.count, 1))
        let firstWord = Double((line.text.split(separator: " ").first?.count ?? 0) + 1) * perCharacter
        guard previous.x + previous.width + firstWord > columnEnd + 1 else { return false }
        // The tagger weighs the two readings. A record whose text so far holds no ingredient name is unfinished
        // ("2/3 cup freshly grated" / "Parmesan cheese"). When each line alone reads as an ingredient with a name,
        // the join must read nearly as well as the two apart ("½ tsp black pepper" / "sliced lemon" reads worse
        // joined; "1 cup extra virgin olive" / "oil" better).
        if parser.parse(record).name.isEmpty { return true }
        if !parser.parse(line.text).name.isEmpty, parser.joinMargin(record, line.text) < -0.2 { return false }
        // A name closed by its bracket ("12 ounces coke (not diet)") is whole: a line below it opens another.
        if previous.text.hasSuffix(")") && !"([&+–-".contains(first) { return false }
        if first.isLowercase || "([&+–-".contains(first) { return true }
        // A capital after a full line continues it only in a name set in title case: the line above ends in a
        // capitalised word ("800g Chicken" / "Breast, Boneless"); after a lower-case word it opens an ingredient
        // ("12 fresh sage leaves" / "Kosher salt").
        guard first.isUppercase, let lastWord = previous.text.split(separator: " ").last else { return false }
        return lastWord.first?.isUppercase == true
    }
}
