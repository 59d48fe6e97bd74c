import Foundation

/// Token-level labels, mirroring the labelling scheme of the evaluation data.
enum TokenLabel: Sendable, Equatable {
    case qty, unit, size, name, prep, comment, purpose, punc
}

/// Internal result: tokens with labels plus the amounts found.
struct LabelledSentence: Sendable {
    struct Amount: Sendable {
        var qtyIndex: Int?
        var unitIndices: [Int] = []
        var approximate = false
        var multiplier = false
        /// A hyphen-attached package size such as "14-ounce" (qty + unit glued by a hyphen).
        var hyphenSize = false
    }
    var tokens: [Token]
    var labels: [TokenLabel]
    var amounts: [Amount]
    var uncertainty: Double = 0
}

/// A parser for recipe ingredient sentences: a trained sequence tagger labels each token (quantity, unit, size,
/// name, preparation, comment, purpose, punctuation), then small deterministic passes group quantities with
/// their units and read the numbers (fractions, ranges, "1 1/2", unicode fractions, canonical units).
///
/// ```swift
/// let p = IngredientParser().parse("1 1/2 cups flour, sifted")
/// // p.quantity?.value == 1.5, p.unit == "cup", p.name == "flour", p.preparation == "sifted"
/// ```
/// The weights (`Resources/ingredient-tagger.bin`, see `Resources/MODEL-CARD.md`) are loaded once per process.
/// The parser is a value type without mutable state and is safe to share across tasks.
public struct IngredientParser: Sendable {
    let tagger: SequenceTagger

    /// Creates a parser with the shipped weights.
    public init() { tagger = SequenceTagger.bundled }

    /// Creates a parser with other weights (cross-validation, tests).
    init(tagger: SequenceTagger) { self.tagger = tagger }

    /// Parses one ingredient sentence.
    public func parse(_ line: String) -> ParsedIngredient {
        let s = label(line)
        return assemble(line, s)
    }

    /// How much better the tagger reads `first` and `second` as one ingredient sentence ("1 cup extra virgin
    /// olive" + "oil") than as two ("½ tsp black pepper" + "sliced lemon"): the best path score of the joined
    /// sentence minus those of the two alone. Positive when the join reads better.
    package func joinMargin(_ first: String, _ second: String) -> Double {
        let joined = tagger.bestScore(Tokenizer.tokenize(first + " " + second))
        let apart = tagger.bestScore(Tokenizer.tokenize(first)) + tagger.bestScore(Tokenizer.tokenize(second))
        return Double(joined - apart)
    }

    static func unitCanonical(_ text: String) -> String? {
        if let u = Lexicon.caseSensitiveUnits[text] { return u }
        let l = text.lowercased()
        if l == "t" || l == "c" || l == "l" { return Lexicon.caseSensitiveUnits[text] }
        return Lexicon.units[l]
    }

    // MARK: - Labelling

    /// Tokenises, tags and groups the amounts of one sentence.
    func label(_ line: String) -> LabelledSentence {
        let tokens = Tokenizer.tokenize(line)
        let labels = tagger.tag(tokens).map { SequenceTagger.labels[$0] }
        let amounts = Self.groupAmounts(tokens, labels)
        return LabelledSentence(tokens: tokens, labels: labels, amounts: amounts,
                                uncertainty: Self.uncertainty(labels, amounts))
    }

    /// Groups QTY and UNIT tokens into amounts, in sentence order. Each quantity opens an amount; a unit joins the
    /// modifier or first word right before it ("fl oz", "large bunch"), else the latest amount still without a
    /// unit ("1 (8 ounce) package" → 1 package and 8 ounce; "one 14-ounce can" → one can; "2 garlic cloves"), else
    /// opens an amount of its own ("pinch of salt").
    /// Marks approximate amounts ("about 2 cups"), multipliers ("2 x 400g") and hyphenated package sizes
    /// ("14-ounce can").
    static func groupAmounts(_ tokens: [Token], _ labels: [TokenLabel]) -> [LabelledSentence.Amount] {
        var amounts: [LabelledSentence.Amount] = []
        var previous: Int? = nil  // previous non-punctuation token
        var previousUnitAmount: Int? = nil
        var pendingModifiers: [Int] = []  // "Scant ½ cup": unit words before the quantity they modify
        for k in tokens.indices {
            switch labels[k] {
            case .unit where tokens[k].kind != .punct && unitCanonical(tokens[k].text) == nil
                && nextWord(tokens, after: k).map({ labels[$0] == .qty }) == true:
                pendingModifiers.append(k)
            case .qty:
                var a = LabelledSentence.Amount(qtyIndex: k, unitIndices: pendingModifiers)
                pendingModifiers = []
                if let p = previous, Lexicon.approx.contains(tokens[p].lower) { a.approximate = true }
                if k + 1 < tokens.count, ["x", "×", "*"].contains(tokens[k + 1].lower) { a.multiplier = true }
                amounts.append(a)
                previousUnitAmount = nil
            case .unit where tokens[k].kind != .punct:
                if let p = previous, labels[p] == .unit, unitCanonical(tokens[p].text) == nil, let c = previousUnitAmount {
                    amounts[c].unitIndices.append(k)
                } else if let c = amounts.lastIndex(where: { $0.qtyIndex != nil && !$0.unitIndices.contains(where: { unitCanonical(tokens[$0].text) != nil }) }) {
                    amounts[c].unitIndices.append(k)
                    if tokens[k].hyphenAttached, amounts[c].qtyIndex == k - 1, k < 2 || tokens[k - 2].text != "(" {
                        amounts[c].hyphenSize = true  // "14-ounce can"; "(14.5-ounce)" stays an amount
                    }
                    previousUnitAmount = c
                } else {
                    amounts.append(.init(qtyIndex: nil, unitIndices: [k]))
                    previousUnitAmount = amounts.count - 1
                }
            default:
                break
            }
            if tokens[k].kind != .punct { previous = k }
        }
        return amounts
    }

    static func nextWord(_ tokens: [Token], after k: Int) -> Int? {
        var j = k + 1
        while j < tokens.count, tokens[j].kind == .punct { j += 1 }
        return j < tokens.count ? j : nil
    }

    /// Inputs to the confidence: no name, no amount, a very long name.
    static func uncertainty(_ labels: [TokenLabel], _ amounts: [LabelledSentence.Amount]) -> Double {
        var u = 0.0
        let names = labels.filter { $0 == .name }.count
        if names == 0 { u += 0.4 }
        if amounts.isEmpty { u += 0.05 }
        if names > 6 { u += 0.15 }
        return u
    }

    // MARK: - Assembly

    func assemble(_ line: String, _ s: LabelledSentence) -> ParsedIngredient {
        let tokens = s.tokens
        func join(_ lab: TokenLabel) -> String? {
            var parts: [String] = []
            for (k, t) in tokens.enumerated() where s.labels[k] == lab && t.kind != .punct { parts.append(t.text) }
            return parts.isEmpty ? nil : parts.joined(separator: " ")
        }
        func quantity(_ idx: Int?) -> Quantity? {
            guard let idx else { return nil }
            let t = tokens[idx]
            if t.kind == .number { return Quantity(value: t.value, max: t.max, text: t.text) }
            if let v = Lexicon.numberWords[t.lower] { return Quantity(value: v, text: t.text) }
            if t.lower == "few" { return Quantity(value: 3, text: t.text) }
            if t.lower == "couple" { return Quantity(value: 2, text: t.text) }
            return nil
        }
        var amounts: [IngredientAmount] = []
        var size: String? = nil
        let ordered = s.amounts
        for (ai, a) in ordered.enumerated() {
            var q = quantity(a.qtyIndex)
            // "1 dozen eggs", "2 dozen": multiply the preceding count
            if let qi = a.qtyIndex, tokens[qi].lower == "dozen", a.unitIndices.isEmpty, let last = amounts.last,
               let lq = last.quantity, last.unit == nil, ai > 0 {
                amounts[amounts.count - 1].quantity = Quantity(value: lq.value * 12, max: lq.max.map { $0 * 12 }, text: lq.text + " " + tokens[qi].text)
                continue
            }
            let unitText = a.unitIndices.isEmpty ? nil : a.unitIndices.map { tokens[$0].text }.joined(separator: " ")
            var canonical: String? = nil
            if let last = a.unitIndices.last {
                // canonical from the last word(s): "fl oz" → fluid ounce, "large bunch" → bunch
                let words = a.unitIndices.map { tokens[$0].text }
                if words.count >= 2, let c = IngredientParser.unitCanonical(words.suffix(2).joined(separator: " ").lowercased().replacingOccurrences(of: "fluid oz", with: "fl oz")) {
                    canonical = c
                } else {
                    canonical = IngredientParser.unitCanonical(tokens[last].text)
                }
            }
            if q == nil, a.qtyIndex == nil, let first = a.unitIndices.first, first > 0, ["a", "an"].contains(tokens[first - 1].lower) {
                q = Quantity(value: 1, text: tokens[first - 1].text)
            }
            if a.hyphenSize, let q, let unitText, ai > 0 || ordered.count > 1 {
                size = q.text + "-" + unitText
                continue
            }
            amounts.append(IngredientAmount(quantity: q, unit: canonical, unitText: unitText,
                                            approximate: a.approximate, isMultiplier: a.multiplier))
        }
        // A multiplier without unit followed by a container-less amount: "2 x 400g tins" keeps order.
        let sizeWords = join(.size)
        if let sw = sizeWords { size = size.map { sw + " " + $0 } ?? sw }
        let name = join(.name) ?? ""
        let prep = join(.prep)
        let comment = join(.comment).map { cleanComment($0) } ?? nil
        let purpose = join(.purpose)
        let optional = tokens.contains { $0.kind == .word && $0.lower.hasPrefix("optional") }
        var alternatives: [String] = []
        if tokens.indices.contains(where: { s.labels[$0] == .name && tokens[$0].lower == "or" }) {
            alternatives = name.components(separatedBy: " or ").flatMap { $0.components(separatedBy: ", ") }
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        var confidence = 1.0 - s.uncertainty
        if name.isEmpty { confidence -= 0.3 }
        if amounts.isEmpty && line.contains(where: { $0.isNumber }) { confidence -= 0.15 }
        confidence = Swift.max(0.05, Swift.min(1, confidence))
        let primary = amounts.first
        return ParsedIngredient(
            text: line, quantity: primary?.quantity, unit: primary?.unit, unitText: primary?.unitText,
            additionalAmounts: Array(amounts.dropFirst()), size: size, name: name, preparation: prep,
            comment: comment, optional: optional, purpose: purpose, alternatives: alternatives,
            confidence: (confidence * 100).rounded() / 100)
    }

    /// Removes label-only filler words ("a", "of") from the public comment.
    func cleanComment(_ c: String) -> String? {
        let words = c.split(separator: " ").filter { !["a", "an", "of", "A", "An"].contains(String($0)) }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }
}
