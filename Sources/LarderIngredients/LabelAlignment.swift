/// Token labels from the sentence-level fields of a labelled example.
///
/// The labelled CSVs give each sentence's `name`, `quantity`, `unit`, `size`, `preparation`, `comment` and
/// `purpose` as text. This aligns every field's words, in order, to the tokens of the sentence (from the same
/// ``Tokenizer`` the parser uses): a number token matches the next quantity numerically (`#1$2` = 0.5, ranges
/// by both bounds), other tokens match the next words of a text field after the evaluation's normalisation
/// (lower case, unit plurals singularised, punctuation dropped; a plural `s`/`es`/`ies` is also forgiven).
/// Punctuation tokens, and an `x` between a multiplier and an amount, are PUNC. When a token could belong to
/// several fields the search tries the previous token's field first, then the others in field order, and
/// backtracks. A sentence aligns cleanly when every token is labelled and every field word is used.
enum LabelAlignment {
    /// Field order used to break ties.
    static let fieldOrder: [TokenLabel] = [.qty, .unit, .size, .name, .prep, .comment, .purpose]

    /// The tokens of the example's sentence and their labels, or `nil` when the fields do not align cleanly.
    static func align(_ e: IngredientEvaluation.Example) -> (tokens: [Token], labels: [TokenLabel])? {
        let tokens = Tokenizer.tokenize(e.input)
        guard let labels = align(tokens, e) else { return nil }
        return (tokens, labels)
    }

    static func align(_ tokens: [Token], _ e: IngredientEvaluation.Example) -> [TokenLabel]? {
        let quantities = e.quantity.split(separator: " ").map { IngredientEvaluation.labelQuantity(String($0)) }
        func words(_ s: String) -> [String] { IngredientEvaluation.normalizeText(s).split(separator: " ").map(String.init) }
        let fields: [[String]] = [[], words(e.unit), words(e.size), words(e.name), words(e.preparation),
                                  words(e.comment), words(e.purpose)]
        let tokenWords = tokens.map { words($0.text) }
        var search = Search(tokens: tokens, tokenWords: tokenWords, quantities: quantities, fields: fields)
        guard search.run(0, previous: nil) else { return nil }
        return search.labels
    }

    /// Depth-first search over field choices, with a step budget.
    struct Search {
        let tokens: [Token]
        let tokenWords: [[String]]
        let quantities: [IngredientEvaluation.QValue]
        let fields: [[String]]
        var pointers = [Int](repeating: 0, count: 7)
        var labels: [TokenLabel] = []
        var budget = 4000

        init(tokens: [Token], tokenWords: [[String]], quantities: [IngredientEvaluation.QValue], fields: [[String]]) {
            self.tokens = tokens; self.tokenWords = tokenWords; self.quantities = quantities; self.fields = fields
            labels = [TokenLabel](repeating: .punc, count: tokens.count)
        }

        mutating func run(_ i: Int, previous: Int?) -> Bool {
            budget -= 1
            if budget < 0 { return false }
            if i == tokens.count {
                return pointers[0] == quantities.count && (1..<7).allSatisfy { pointers[$0] == fields[$0].count }
            }
            let ws = tokenWords[i]
            var candidates: [Int] = []
            for f in 0..<7 where matches(f, i, ws) { candidates.append(f) }
            if let p = previous, let k = candidates.firstIndex(of: p), k > 0 {
                candidates.remove(at: k); candidates.insert(p, at: 0)
            }
            for f in candidates {
                let step = f == 0 ? 1 : ws.count
                pointers[f] += step
                labels[i] = LabelAlignment.fieldOrder[f]
                if run(i + 1, previous: f) { return true }
                pointers[f] -= step
            }
            let lower = tokens[i].lower
            if ws.isEmpty || tokens[i].kind == .punct || lower == "x" || lower == "×" {
                labels[i] = .punc
                return run(i + 1, previous: previous)
            }
            return false
        }

        func matches(_ f: Int, _ i: Int, _ ws: [String]) -> Bool {
            let t = tokens[i]
            if f == 0 {
                guard pointers[0] < quantities.count else { return false }
                let q = quantities[pointers[0]]
                if t.kind == .number { return q.matches(.number(t.value, t.max)) }
                if let v = Lexicon.numberWords[t.lower], q.matches(.number(v, nil)) { return true }
                return q.matches(.text(t.lower))
            }
            guard !ws.isEmpty, pointers[f] + ws.count <= fields[f].count else { return false }
            for (k, w) in ws.enumerated() where !LabelAlignment.same(w, fields[f][pointers[f] + k]) { return false }
            return true
        }
    }

    static func same(_ a: String, _ b: String) -> Bool {
        a == b || stem(a) == stem(b)
    }

    static func stem(_ w: String) -> Substring {
        if w.hasSuffix("ies"), w.count > 4 { return w.dropLast(3) }
        if w.hasSuffix("es"), w.count > 3 { return w.dropLast(2) }
        if w.hasSuffix("s"), w.count > 2 { return w.dropLast(1) }
        if w.hasSuffix("y"), w.count > 2 { return w.dropLast(1) }
        if w.hasSuffix("e"), w.count > 2 { return w.dropLast(1) }
        return Substring(w)
    }
}
