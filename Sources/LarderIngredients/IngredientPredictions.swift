import Foundation

extension IngredientEvaluation {
    /// One sentence's parse in the labels' CSV form (`input,name,quantity,unit,size,preparation,comment,purpose`):
    /// quantities as decimals ("1.5", "2-3"), several amounts space-separated in sentence order; units as written,
    /// lower-cased and singularised; the other fields as written, punctuation tokens left out.
    public struct Prediction: Sendable, Equatable {
        /// The sentence.
        public var input: String
        /// The name.
        public var name: String
        /// Quantities, space-separated.
        public var quantity: String
        /// Units, space-separated.
        public var unit: String
        /// Size.
        public var size: String
        /// Preparation.
        public var preparation: String
        /// Comment.
        public var comment: String
        /// Purpose.
        public var purpose: String
    }

    /// The parse of one sentence as a ``Prediction``.
    public static func predict(_ e: Example, parser: IngredientParser = IngredientParser()) -> Prediction {
        predict(e.input, parser: parser)
    }

    static func predict(_ input: String, parser: IngredientParser) -> Prediction {
        let s = parser.label(input)
        func join(_ lab: TokenLabel) -> String {
            var parts: [String] = []
            for (k, t) in s.tokens.enumerated() where s.labels[k] == lab && t.kind != .punct { parts.append(t.text) }
            return parts.joined(separator: " ")
        }
        let (f, qvals) = fields(of: s)
        let quantity = qvals.map { q -> String in
            switch q {
            case let .number(a, m): return m.map { decimal(a) + "-" + decimal($0) } ?? decimal(a)
            case let .text(t): return t
            }
        }.joined(separator: " ")
        return Prediction(input: input, name: join(.name), quantity: quantity, unit: f.unit, size: join(.size),
                          preparation: join(.prep), comment: join(.comment), purpose: join(.purpose))
    }

    /// A number with at most four decimals and no trailing zeros ("0.5", "0.3333", "2").
    static func decimal(_ x: Double) -> String {
        if x == x.rounded(), abs(x) < 1e15 { return String(Int(x)) }
        var s = String(format: "%.4f", x)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }

    /// Predictions as CSV text with a header row (RFC 4180 quoting).
    public static func predictionsCSV(_ predictions: [Prediction]) -> String {
        func q(_ s: String) -> String {
            s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
                ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
        }
        var out = "input,name,quantity,unit,size,preparation,comment,purpose\n"
        for p in predictions {
            out += [p.input, p.name, p.quantity, p.unit, p.size, p.preparation, p.comment, p.purpose].map(q)
                .joined(separator: ",") + "\n"
        }
        return out
    }

    /// Mean and sample standard deviation of each score over several runs (`count` is the mean count).
    public static func meanAndDeviation(_ runs: [Scores]) -> (mean: Scores, sd: Scores) {
        let paths: [WritableKeyPath<Scores, Double>] = [\.quantity, \.unit, \.name, \.size, \.preparation, \.comment,
                                                        \.purpose, \.core, \.sentence]
        let n = Double(max(runs.count, 1))
        var mean = Scores(count: runs.reduce(0) { $0 + $1.count } / max(runs.count, 1), quantity: 0, unit: 0, name: 0,
                          size: 0, preparation: 0, comment: 0, purpose: 0, core: 0, sentence: 0)
        var sd = mean
        for p in paths {
            let m = runs.reduce(0.0) { $0 + $1[keyPath: p] } / n
            let v = runs.count > 1 ? runs.reduce(0.0) { $0 + ($1[keyPath: p] - m) * ($1[keyPath: p] - m) } / (n - 1) : 0
            mean[keyPath: p] = m
            sd[keyPath: p] = v.squareRoot()
        }
        return (mean, sd)
    }

    /// The cross-validation result as one JSON object: the usual keys hold the means, `sd` the standard
    /// deviations, `folds` the number of folds and `per_fold` each fold's scores.
    public static func json(_ cv: IngredientTraining.CrossValidation) -> String {
        var s = json(cv.mean)
        s.removeLast()
        return s + ",\"folds\":\(cv.folds.count),\"sd\":\(json(cv.sd)),\"per_fold\":[\(cv.folds.map(json).joined(separator: ","))]}"
    }

    /// A table of the cross-validation: each fold, then mean ± sd.
    public static func textReport(_ cv: IngredientTraining.CrossValidation) -> String {
        let keys: [(String, KeyPath<Scores, Double>)] = [("quantity", \.quantity), ("unit", \.unit), ("name", \.name),
            ("size", \.size), ("prep", \.preparation), ("comment", \.comment), ("purpose", \.purpose),
            ("core", \.core), ("sentence", \.sentence)]
        var lines = ["fold   count" + keys.map { "  " + $0.0.padding(toLength: 8, withPad: " ", startingAt: 0) }.joined()]
        for (k, f) in cv.folds.enumerated() {
            lines.append(String(format: "%4d  %6d", k + 1, f.count) + keys.map { String(format: "  %7.2f%%", f[keyPath: $0.1] * 100) }.joined())
        }
        lines.append("mean ± sd (\(cv.folds.count)-fold cross-validation, held-out folds):")
        for (name, p) in keys {
            lines.append("  " + name.padding(toLength: 9, withPad: " ", startingAt: 0)
                         + String(format: "%6.2f %% ± %.2f", cv.mean[keyPath: p] * 100, cv.sd[keyPath: p] * 100))
        }
        let a = cv.alignment.map { String(format: "%d/%d", $0.aligned, $0.sentences) }.joined(separator: ", ")
        lines.append("training sentences aligned cleanly per fold: \(a)")
        return lines.joined(separator: "\n")
    }
}
