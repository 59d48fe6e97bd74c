import Foundation
import LarderSupport

/// Evaluation of ``IngredientParser`` against labelled CSV data
/// (columns `input,name,quantity,unit,size,preparation,comment,purpose`, as in strangetom/ingredient-parser).
///
/// Comparison rules (applied identically to the label and to the parser's output):
/// - **Text fields** (`name`, `size`, `preparation`, `comment`, `purpose`): lower-cased; fraction tokens
///   (`#1$2`, `1#1$2`) and unicode/slash fractions written as `a/b`; numbers split from glued words
///   ("1cm" → "1 cm", "1/4-inch" → "1/4 inch"); punctuation-only tokens dropped and punctuation trimmed from
///   token edges; unit-like plurals singularised ("leaves" → "leaf", "cubes" → "cube"), as the labels do.
/// - **Quantity**: the *whole list* of amounts' quantities in sentence order is compared numerically
///   (ranges compare both bounds; "8x" multipliers compare as 8; "One"/"half" compare as 1/0.5;
///   non-numeric label quantities such as "few" compare as text).
/// - **Unit**: the *whole list* of unit words in sentence order, in the label's vocabulary: the unit as
///   written, singularised and lower-cased ("Tbsp" → "tbsp", "cups" → "cup", "large bunch"). The parser's
///   canonical units (``IngredientAmount/unit``) are not used for scoring.
/// - `core` = quantity, unit and name right; `sentence` = name, quantity, unit, size, preparation, comment and
///   purpose all right.
///
/// The parser's output is taken from the same labelled parse that produces ``ParsedIngredient``, before
/// public clean-ups that the labels do not make (e.g. the labels keep "a"/"of" in `comment`, and package sizes
/// such as "14-ounce" are amounts in the labels but ``ParsedIngredient/size`` in the public result).
public enum IngredientEvaluation {
    /// One labelled example.
    public struct Example: Sendable, Equatable {
        /// The ingredient sentence.
        public var input: String
        /// Labelled name (normalised by the data's author).
        public var name: String
        /// Labelled quantities, space-separated, fractions as `#1$2` tokens.
        public var quantity: String
        /// Labelled units, space-separated, as written (singularised).
        public var unit: String
        /// Labelled size.
        public var size: String
        /// Labelled preparation.
        public var preparation: String
        /// Labelled comment.
        public var comment: String
        /// Labelled purpose.
        public var purpose: String
        /// The file the example came from (last path component), for per-file reports.
        public var source: String

        /// Creates an example.
        public init(input: String, name: String = "", quantity: String = "", unit: String = "", size: String = "",
                    preparation: String = "", comment: String = "", purpose: String = "", source: String = "") {
            self.input = input; self.name = name; self.quantity = quantity; self.unit = unit; self.size = size
            self.preparation = preparation; self.comment = comment; self.purpose = purpose; self.source = source
        }
    }

    /// The fields of one sentence in label form (normalised), used for comparison and error reports.
    public struct Fields: Sendable, Equatable, Codable {
        /// Normalised name.
        public var name: String
        /// Quantities as numbers in sentence order ("1.5 240", "2-3").
        public var quantity: String
        /// Unit words in sentence order, label vocabulary.
        public var unit: String
        /// Normalised size.
        public var size: String
        /// Normalised preparation.
        public var preparation: String
        /// Normalised comment.
        public var comment: String
        /// Normalised purpose.
        public var purpose: String
    }

    /// A wrongly parsed sentence.
    public struct Mistake: Sendable {
        /// The sentence.
        public var input: String
        /// Source file name.
        public var source: String
        /// Expected fields (normalised labels).
        public var expected: Fields
        /// Parser output in label form (normalised).
        public var got: Fields
        /// Names of the fields that differ.
        public var wrongFields: [String]
    }

    /// Accuracy figures (fractions 0–1).
    public struct Scores: Sendable, Codable, Equatable {
        /// Number of sentences scored.
        public var count: Int
        /// Fraction with the whole quantity list right.
        public var quantity: Double
        /// Fraction with the whole unit list right.
        public var unit: Double
        /// Fraction with the name right.
        public var name: Double
        /// Fraction with the size right.
        public var size: Double
        /// Fraction with the preparation right.
        public var preparation: Double
        /// Fraction with the comment right.
        public var comment: Double
        /// Fraction with the purpose right.
        public var purpose: Double
        /// Fraction with quantity, unit and name all right.
        public var core: Double
        /// Fraction with every field right.
        public var sentence: Double
    }

    /// The result of an evaluation run.
    public struct Report: Sendable {
        /// Scores over all examples.
        public var overall: Scores
        /// Scores per source file, in input order.
        public var perSource: [(source: String, scores: Scores)]
        /// Wrong sentences (empty unless requested).
        public var mistakes: [Mistake]
        /// Wall-clock seconds spent parsing (excluding CSV reading).
        public var parseSeconds: Double
    }

    // MARK: - CSV

    /// Parses CSV text (RFC 4180: quoted fields may contain commas, newlines and doubled quotes).
    public static func parseCSV(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var inQuotes = false
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        var fieldWasQuoted = false
        func next() -> Unicode.Scalar? {
            if let p = pending { pending = nil; return p }
            return iterator.next()
        }
        while let c = next() {
            if inQuotes {
                if c == "\"" {
                    if let d = next() {
                        if d == "\"" { field.unicodeScalars.append("\"") } else { inQuotes = false; pending = d }
                    } else { inQuotes = false }
                } else {
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case "\"":
                if field.isEmpty && !fieldWasQuoted { inQuotes = true; fieldWasQuoted = true } else { field.unicodeScalars.append(c) }
            case ",":
                row.append(field); field = ""; fieldWasQuoted = false
            case "\r":
                continue
            case "\n":
                row.append(field); field = ""; fieldWasQuoted = false
                rows.append(row); row = []
            default:
                field.unicodeScalars.append(c)
            }
        }
        if !field.isEmpty || !row.isEmpty || fieldWasQuoted {
            row.append(field)
            rows.append(row)
        }
        return rows
    }

    /// Reads labelled examples from a CSV file with a header row containing at least `input`.
    public static func loadExamples(path: String) throws -> [Example] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let text = String(decoding: data, as: UTF8.self)
        return examples(fromCSV: text, source: (path as NSString).lastPathComponent)
    }

    /// Builds examples from CSV text with a header row.
    public static func examples(fromCSV text: String, source: String = "") -> [Example] {
        var rows = parseCSV(text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
        guard !rows.isEmpty else { return [] }
        let header = rows.removeFirst().map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        func col(_ name: String) -> Int? { header.firstIndex(of: name) }
        let ci = col("input") ?? 0
        let idx = ["name", "quantity", "unit", "size", "preparation", "comment", "purpose"].map(col)
        return rows.compactMap { r -> Example? in
            guard r.count > ci, !(r.count == 1 && r[0].isEmpty) else { return nil }
            func v(_ k: Int) -> String { if let c = idx[k], c < r.count { return r[c] } else { return "" } }
            return Example(input: r[ci], name: v(0), quantity: v(1), unit: v(2), size: v(3), preparation: v(4),
                           comment: v(5), purpose: v(6), source: source)
        }
    }

    // MARK: - Normalisation

    /// Normalises a text field for comparison (see the type documentation).
    public static func normalizeText(_ s: String) -> String {
        if s.isEmpty { return "" }
        var t = s.replacingOccurrences(of: "\u{00AD}", with: "").replacingOccurrences(of: "°", with: " ")
            .replacingOccurrences(of: "×", with: " ").replacingOccurrences(of: "\u{2011}", with: "-")
        if t.contains("#") {
            // "1#1$2" → "1 1/2", "#1$2" → "1/2"
            t = t.replacingOccurrences(of: "$", with: "/")
            var out = ""
            var prev: Character = " "
            for ch in t {
                if ch == "#" { if prev.isNumber { out.append(" ") } } else { out.append(ch) }
                prev = ch
            }
            t = out
        }
        var spaced = ""
        var prev: Character = " "
        for ch in t {
            if let f = Tokenizer.unicodeFractionText[ch] {
                if prev.isNumber { spaced.append(" ") }
                spaced += f
                prev = "0"
                continue
            }
            if ch == "’" || ch == "‘" { spaced.append("'"); prev = ch; continue }
            // split digits from letters: "1cm" → "1 cm"; "2-inch" → "2 inch"
            if ch.isLetter && prev.isNumber { spaced.append(" ") }
            if ch == "-" && prev.isNumber { spaced.append(" "); prev = " "; continue }
            spaced.append(ch)
            prev = ch
        }
        // "and/or" → "and or" (slashes between letters), on both sides
        var unslashed = ""
        let sc = Array(spaced)
        for (k, ch) in sc.enumerated() {
            if ch == "/", k > 0, k + 1 < sc.count, sc[k - 1].isLetter, sc[k + 1].isLetter { unslashed.append(" ") } else { unslashed.append(ch) }
        }
        var words: [String] = []
        for raw in unslashed.lowercased().split(whereSeparator: { $0.isWhitespace }) {
            var w = Substring(raw)
            while let f = w.first, isEdgePunct(f) { w = w.dropFirst() }
            while let l = w.last, isEdgePunct(l) { w = w.dropLast() }
            if w.isEmpty { continue }
            let ws = String(w)
            words.append(Lexicon.singulars[ws] ?? ws)
        }
        return words.joined(separator: " ")
    }

    private static func isEdgePunct(_ c: Character) -> Bool {
        c.isPunctuation && c != "%" && c != "#" || c == "," || c == "(" || c == ")" || c == "[" || c == "]" || c == "/"
            || c == "*" || c == "+" || c == "=" || c == "~" || c == "|"
    }

    /// One quantity in comparable form.
    enum QValue: Equatable {
        case number(Double, Double?)
        case text(String)

        func matches(_ o: QValue) -> Bool {
            switch (self, o) {
            case let (.number(a, am), .number(b, bm)):
                guard abs(a - b) < 1e-3 else { return false }
                switch (am, bm) {
                case (nil, nil): return true
                case let (x?, y?): return abs(x - y) < 1e-3
                default: return false
                }
            case let (.text(a), .text(b)): return a == b
            default: return false
            }
        }

        var description: String {
            switch self {
            case let .number(a, m):
                let f = { (x: Double) -> String in x == x.rounded() ? String(Int(x)) : String(format: "%.3g", x) }
                return m.map { f(a) + "-" + f($0) } ?? f(a)
            case let .text(t): return t
            }
        }
    }

    /// Parses one label quantity token ("1#1$2", "#3$4-1", "8x", "One", "0.5").
    static func labelQuantity(_ token: String) -> QValue {
        var t = token.lowercased()
        // "8x" is a multiplier; "six" is a number word, not "si" times
        if t.hasSuffix("x") && t.count > 1 && Lexicon.numberWords[t] == nil { t.removeLast() }
        func single(_ s: String) -> Double? {
            if let v = Double(s) { return v }
            if let v = Lexicon.numberWords[s] { return v }
            if s.contains("#") {
                let parts = s.split(separator: "#", omittingEmptySubsequences: false)
                let whole = parts[0].isEmpty ? 0 : Double(parts[0]) ?? .nan
                let fr = parts[1].split(separator: "$")
                guard fr.count == 2, let a = Double(fr[0]), let b = Double(fr[1]), b != 0 else { return nil }
                return whole + a / b
            }
            if s.contains("/") {
                let fr = s.split(separator: "/")
                if fr.count == 2, let a = Double(fr[0]), let b = Double(fr[1]), b != 0 { return a / b }
            }
            return nil
        }
        if let dash = t.firstIndex(of: "-"), dash != t.startIndex {
            let a = String(t[..<dash]), b = String(t[t.index(after: dash)...])
            if let x = single(a), let y = single(b) { return .number(x, y) }
        }
        if let v = single(t) { return .number(v, nil) }
        return .text(t)
    }

    /// The label-form fields of a parse.
    static func fields(of s: LabelledSentence) -> (Fields, [QValue]) {
        func join(_ lab: TokenLabel) -> String {
            var parts: [String] = []
            for (k, t) in s.tokens.enumerated() where s.labels[k] == lab && t.kind != .punct { parts.append(t.text) }
            return normalizeText(parts.joined(separator: " "))
        }
        var qvals: [QValue] = []
        var qtexts: [String] = []
        for (k, t) in s.tokens.enumerated() where s.labels[k] == .qty {
            if t.kind == .number {
                qvals.append(.number(t.value, t.max)); qtexts.append(t.text.replacingOccurrences(of: " ", with: "+"))
            } else if let v = Lexicon.numberWords[t.lower] {
                qvals.append(.number(v, nil)); qtexts.append(t.text)
            } else {
                qvals.append(.text(t.lower)); qtexts.append(t.text)
            }
        }
        var unitWords: [String] = []
        for (k, t) in s.tokens.enumerated() where s.labels[k] == .unit { unitWords.append(t.text) }
        let f = Fields(name: join(.name), quantity: qvals.map(\.description).joined(separator: " "),
                       unit: normalizeText(unitWords.joined(separator: " ")), size: join(.size),
                       preparation: join(.prep), comment: join(.comment), purpose: join(.purpose))
        return (f, qvals)
    }

    static func expectedFields(_ e: Example) -> (Fields, [QValue]) {
        let q = e.quantity.split(separator: " ").map { labelQuantity(String($0)) }
        return (Fields(name: normalizeText(e.name), quantity: q.map(\.description).joined(separator: " "),
                       unit: normalizeText(e.unit), size: normalizeText(e.size),
                       preparation: normalizeText(e.preparation), comment: normalizeText(e.comment),
                       purpose: normalizeText(e.purpose)), q)
    }

    // MARK: - Scoring

    /// One sentence's parse compared with its labels, field by field.
    struct Judgement {
        var expected: Fields, got: Fields
        var quantity: Bool, unit: Bool, name: Bool, size: Bool, preparation: Bool, comment: Bool, purpose: Bool
        var core: Bool { quantity && unit && name }
        var sentence: Bool { core && size && preparation && comment && purpose }
        var wrongFields: [String] {
            [("name", name), ("quantity", quantity), ("unit", unit), ("size", size), ("preparation", preparation),
             ("comment", comment), ("purpose", purpose)].filter { !$0.1 }.map(\.0)
        }
    }

    /// Compares the labelled parse `s` with the labels of `e`.
    static func judge(_ s: LabelledSentence, _ e: Example) -> Judgement {
        let (got, gq) = fields(of: s)
        let (exp, eq) = expectedFields(e)
        return Judgement(expected: exp, got: got,
                         quantity: gq.count == eq.count && zip(gq, eq).allSatisfy { $0.matches($1) },
                         unit: got.unit == exp.unit, name: got.name == exp.name, size: got.size == exp.size,
                         preparation: got.preparation == exp.preparation, comment: got.comment == exp.comment,
                         purpose: got.purpose == exp.purpose)
    }

    struct Tally {
        var count = 0, quantity = 0, unit = 0, name = 0, size = 0, preparation = 0, comment = 0, purpose = 0
        var core = 0, sentence = 0
        mutating func add(_ j: Judgement) {
            count += 1
            if j.quantity { quantity += 1 }
            if j.unit { unit += 1 }
            if j.name { name += 1 }
            if j.size { size += 1 }
            if j.preparation { preparation += 1 }
            if j.comment { comment += 1 }
            if j.purpose { purpose += 1 }
            if j.core { core += 1 }
            if j.sentence { sentence += 1 }
        }
        var scores: Scores {
            let d = Double(Swift.max(count, 1))
            return Scores(count: count, quantity: Double(quantity) / d, unit: Double(unit) / d, name: Double(name) / d,
                          size: Double(size) / d, preparation: Double(preparation) / d, comment: Double(comment) / d,
                          purpose: Double(purpose) / d, core: Double(core) / d, sentence: Double(sentence) / d)
        }
    }

    /// Evaluates the parser over examples.
    /// - Parameters:
    ///   - examples: labelled examples.
    ///   - parser: the parser to evaluate.
    ///   - collectMistakes: when `true`, the report lists every wrong sentence.
    public static func evaluate(_ examples: [Example], parser: IngredientParser = IngredientParser(),
                                collectMistakes: Bool = false) -> Report {
        var total = Tally()
        var per: [String: Tally] = [:]
        var order: [String] = []
        var mistakes: [Mistake] = []
        let clock = ContinuousClock()
        var parseTime = Duration.zero
        for e in examples {
            let t0 = clock.now
            let s = parser.label(e.input)
            _ = parser.assemble(e.input, s)
            parseTime += clock.now - t0
            let j = judge(s, e)
            if per[e.source] == nil { order.append(e.source); per[e.source] = Tally() }
            total.add(j)
            per[e.source]!.add(j)
            if collectMistakes && !j.sentence {
                mistakes.append(Mistake(input: e.input, source: e.source, expected: j.expected, got: j.got,
                                        wrongFields: j.wrongFields))
            }
        }
        let secs = Double(parseTime.components.seconds) + Double(parseTime.components.attoseconds) / 1e18
        return Report(overall: total.scores, perSource: order.map { ($0, per[$0]!.scores) }, mistakes: mistakes,
                      parseSeconds: secs)
    }

    /// Loads the CSV files and evaluates. `stride` > 1 keeps every `stride`-th example (deterministic subset).
    public static func evaluate(files: [String], stride: Int = 1, collectMistakes: Bool = false) throws -> Report {
        var all: [Example] = []
        for f in files { all += try loadExamples(path: f) }
        if stride > 1 { all = all.enumerated().filter { $0.offset % stride == 0 }.map(\.element) }
        return evaluate(all, collectMistakes: collectMistakes)
    }

    /// Measures parsing speed with the public ``IngredientParser/parse(_:)``: parses every input
    /// `repetitions` times and returns the best sentences per second of any single pass, in wall-clock time.
    public static func benchmark(_ inputs: [String], repetitions: Int = 5, parser: IngredientParser = IngredientParser()) -> Double {
        benchmarkRates(inputs, repetitions: repetitions, parser: parser).wall
    }

    /// Like ``benchmark(_:repetitions:parser:)``, with the best rate in wall-clock time and in the thread's CPU
    /// time (`CLOCK_THREAD_CPUTIME_ID`: on a shared machine the time the parser actually ran, not the time it
    /// waited for a core).
    public static func benchmarkRates(_ inputs: [String], repetitions: Int = 5,
                                      parser: IngredientParser = IngredientParser()) -> (wall: Double, cpu: Double) {
        guard !inputs.isEmpty else { return (0, 0) }
        func now() -> (wall: Double, cpu: Double) {
            var w = timespec()
            clock_gettime(CLOCK_MONOTONIC, &w)
            return (Double(w.tv_sec) + Double(w.tv_nsec) / 1e9, ThreadCPUClock.seconds())
        }
        var best = (wall: 0.0, cpu: 0.0)
        var sink = 0
        for _ in 0..<Swift.max(1, repetitions) {
            let t0 = now()
            for line in inputs { sink &+= parser.parse(line).name.utf8.count }
            let t1 = now()
            if t1.wall > t0.wall { best.wall = Swift.max(best.wall, Double(inputs.count) / (t1.wall - t0.wall)) }
            if t1.cpu > t0.cpu { best.cpu = Swift.max(best.cpu, Double(inputs.count) / (t1.cpu - t0.cpu)) }
        }
        if sink == -1 { print("") } // keep the work observable
        return best
    }

    // MARK: - Reports

    /// A JSON object with keys `count, quantity, unit, name, preparation, comment, core, sentence`
    /// (plus `size` and `purpose`), fractions 0–1.
    public static func json(_ s: Scores) -> String {
        func f(_ x: Double) -> String { String(format: "%.4f", x) }
        return "{\"count\":\(s.count),\"quantity\":\(f(s.quantity)),\"unit\":\(f(s.unit)),\"name\":\(f(s.name)),"
            + "\"preparation\":\(f(s.preparation)),\"comment\":\(f(s.comment)),\"core\":\(f(s.core)),"
            + "\"sentence\":\(f(s.sentence)),\"size\":\(f(s.size)),\"purpose\":\(f(s.purpose))}"
    }

    /// A human-readable table of the report (overall and per file), plus speed.
    public static func textReport(_ r: Report) -> String {
        func pct(_ x: Double) -> String { String(format: "%6.2f%%", x * 100) }
        var lines: [String] = []
        let header = "source".padding(toLength: 58, withPad: " ", startingAt: 0)
            + "  count  quantity     unit     name     size     prep  comment  purpose     core sentence"
        lines.append(header)
        func row(_ label: String, _ s: Scores) -> String {
            label.padding(toLength: 58, withPad: " ", startingAt: 0)
                + String(format: " %6d", s.count)
                + [s.quantity, s.unit, s.name, s.size, s.preparation, s.comment, s.purpose, s.core, s.sentence]
                .map { "  " + pct($0) }.joined()
        }
        if r.perSource.count > 1 { for (src, s) in r.perSource { lines.append(row(src, s)) } }
        lines.append(row("ALL", r.overall))
        if r.parseSeconds > 0 {
            lines.append(String(format: "parse time %.3f s, %.0f sentences/s", r.parseSeconds,
                                Double(r.overall.count) / r.parseSeconds))
        }
        return lines.joined(separator: "\n")
    }

    /// Lists wrong sentences with expected vs got for each wrong field.
    public static func errorReport(_ r: Report, limit: Int = Int.max) -> String {
        errorReport(mistakes: r.mistakes, limit: limit)
    }

    /// Lists wrong sentences with expected vs got for each wrong field.
    public static func errorReport(mistakes: [Mistake], limit: Int = Int.max) -> String {
        var out: [String] = []
        for m in mistakes.prefix(limit) {
            out.append("\(m.input)    [\(m.source)]")
            for f in m.wrongFields {
                let (e, g): (String, String)
                switch f {
                case "name": (e, g) = (m.expected.name, m.got.name)
                case "quantity": (e, g) = (m.expected.quantity, m.got.quantity)
                case "unit": (e, g) = (m.expected.unit, m.got.unit)
                case "size": (e, g) = (m.expected.size, m.got.size)
                case "preparation": (e, g) = (m.expected.preparation, m.got.preparation)
                case "comment": (e, g) = (m.expected.comment, m.got.comment)
                default: (e, g) = (m.expected.purpose, m.got.purpose)
                }
                out.append("  \(f.padding(toLength: 11, withPad: " ", startingAt: 0)) expected: \(e.debugDescription)  got: \(g.debugDescription)")
            }
        }
        return out.joined(separator: "\n")
    }

    /// Runs the command-line tool: `ingredient-eval [--json] [--errors] [--limit N] [--every N] [--bench N] FILE.csv...`.
    /// Returns the process exit code; output goes to standard output.
    public static func runCommandLine(_ arguments: [String]) -> Int32 {
        var json = false, errors = false
        var limit = Int.max
        var every = 1
        var bench = 0
        var toParse: [String] = []
        var files: [String] = []
        var it = arguments.makeIterator()
        while let a = it.next() {
            switch a {
            case "--json": json = true
            case "--errors": errors = true
            case "--limit": limit = Int(it.next() ?? "") ?? limit
            case "--every": every = Int(it.next() ?? "") ?? 1
            case "--bench": bench = Int(it.next() ?? "") ?? 5
            case "--parse": if let line = it.next() { toParse.append(line) }
            case "-h", "--help":
                print("usage: ingredient-eval [--json] [--errors] [--limit N] [--every N] [--bench N] FILE.csv...")
                print("  --json     print one JSON object: count, quantity, unit, name, preparation, comment, core, sentence")
                print("  --errors   list wrong sentences with expected vs got (normalised label form)")
                print("  --limit N  list at most N wrong sentences")
                print("  --every N  evaluate every N-th row only")
                print("  --bench N  also time N passes of the public parse() and print the best sentences/s")
                print("  --parse L  print the ParsedIngredient JSON for line L (repeatable; no CSV needed)")
                return 0
            default: files.append(a)
            }
        }
        if !toParse.isEmpty {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            for line in toParse {
                let p = IngredientParser().parse(line)
                if let data = try? encoder.encode(p) { print(String(decoding: data, as: UTF8.self)) }
            }
            if files.isEmpty { return 0 }
        }
        guard !files.isEmpty else {
            print("usage: ingredient-eval [--json] [--errors] [--limit N] [--every N] [--bench N] FILE.csv...")
            return 2
        }
        do {
            let r = try evaluate(files: files, stride: every, collectMistakes: errors)
            if errors { print(errorReport(r, limit: limit)) }
            if json { print(self.json(r.overall)) } else { print(textReport(r)) }
            if bench > 0 {
                var inputs: [String] = []
                for f in files { inputs += try loadExamples(path: f).map(\.input) }
                let rate = benchmark(inputs, repetitions: bench)
                print(String(format: "benchmark: %d sentences, best of %d passes: %.0f sentences/s", inputs.count, bench, rate))
            }
            return 0
        } catch {
            print("error: \(error)")
            return 1
        }
    }
}
