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

/// A rule-based parser for recipe ingredient sentences.
///
/// ```swift
/// let p = IngredientParser().parse("1 1/2 cups flour, sifted")
/// // p.quantity?.value == 1.5, p.unit == "cup", p.name == "flour", p.preparation == "sifted"
/// ```
/// The parser is a value type without mutable state and is safe to share across tasks.
public struct IngredientParser: Sendable {
    /// Creates a parser.
    public init() {}

    /// Parses one ingredient sentence.
    public func parse(_ line: String) -> ParsedIngredient {
        let s = label(line)
        return assemble(line, s)
    }

    // MARK: - Helpers

    static func unitCanonical(_ text: String) -> String? {
        if let u = Lexicon.caseSensitiveUnits[text] { return u }
        let l = text.lowercased()
        if l == "t" || l == "c" || l == "l" { return Lexicon.caseSensitiveUnits[text] }
        return Lexicon.units[l]
    }

    // MARK: - Labelling


    /// Any "-ed" word that is not a known name modifier ("scaled", "gutted", "milled").
    @inline(__always) func isLooseParticiple(_ w: String) -> Bool {
        w.hasSuffix("ed") && !w.hasSuffix("eed") && w.count >= 5 && !Lexicon.nameParticiples.contains(w) && !w.contains("-")
    }

    @inline(__always) func isParticiple(_ w: String) -> Bool {
        // "well-beaten", "pre-cooked", "hand-picked"
        if let dash = w.lastIndex(of: "-"), ["well", "pre", "hand", "freshly", "finely", "thinly", "roughly", "coarsely", "lightly", "just", "par", "half", "double", "twice"].contains(String(w[..<dash])) {
            let tail = String(w[w.index(after: dash)...])
            return tail != w && isParticiple(tail)
        }
        return (w.hasSuffix("ed") && !w.hasSuffix("eed") && w.count >= 4 && Lexicon.prepWords.contains(w)) || ["cut", "torn", "split", "broken", "beaten", "taken", "shaken", "made"].contains(w)
    }

    func label(_ line: String) -> LabelledSentence {
        let tokens = Tokenizer.tokenize(line)
        let n = tokens.count
        var labels = [TokenLabel](repeating: .name, count: n)
        for (k, t) in tokens.enumerated() where t.kind == .punct { labels[k] = .punc }
        var amounts: [LabelledSentence.Amount] = []
        var uncertainty = 0.0

        func lower(_ k: Int) -> String { k < n ? tokens[k].lower : "" }
        func isNumber(_ k: Int) -> Bool { k < n && tokens[k].kind == .number }
        func numberWord(_ k: Int) -> Double? {
            guard k < n, tokens[k].kind == .word else { return nil }
            return Lexicon.numberWords[tokens[k].lower]
        }
        /// Length of a unit starting at k (0 if none). Two-word units: "fl oz", "fluid ounce(s)", "fl. oz".
        func unitLength(_ k: Int, strong: Bool) -> Int {
            guard k < n, tokens[k].kind == .word || tokens[k].text == "\"" else { return 0 }
            let l = tokens[k].lower
            if l == "fl" || l == "fluid" {
                if k + 1 < n, ["oz", "ounce", "ounces", "oz."].contains(lower(k + 1)) { return 2 }
                if k + 2 < n, lower(k + 1) == ".", ["oz", "ounce", "ounces"].contains(lower(k + 2)) { return 3 }
            }
            guard IngredientParser.unitCanonical(tokens[k].text) != nil else { return 0 }
            if strong && Lexicon.weakUnits.contains(l) { return 0 }
            // "t"/"c" etc must be followed by something (they are rarely last)
            return 1
        }
        /// Number of modifier tokens followed by a unit at k (returns (modifiers, unitLen)).
        func modifiedUnit(_ k: Int) -> (Int, Int)? {
            var j = k
            while j < n, tokens[j].kind == .word, Lexicon.unitModifiers.contains(tokens[j].lower) || (tokens[j].lower == "or" && j > k) || (tokens[j].lower == "to" && j > k) {
                j += 1
                if j - k > 3 { break }
            }
            if j > k {
                let ul = unitLength(j, strong: false)
                if ul > 0 && !(tokens[j].lower == "in") && !Lexicon.nounLikeUnits.contains(tokens[j].lower) {
                    // modifiers must not end in "or"/"to"
                    if ["or", "to"].contains(tokens[j - 1].lower) { return nil }
                    return (j - k, ul)
                }
                return nil
            }
            let ul = unitLength(k, strong: false)
            return ul > 0 ? (0, ul) : nil
        }

        // ---- Phase 1: leading amounts ----
        var i = 0
        var sawQuantity = false
        var lastWasUnit = false
        var pendingApprox = false
        var currentAmount: Int? = nil
        var pendingMods: [Int] = []

        func markUnit(_ start: Int, _ mods: Int, _ len: Int) {
            for k in start..<(start + mods + len) { labels[k] = tokens[k].kind == .punct ? .punc : .unit }
            let unitIdx = pendingMods + Array(start..<(start + mods + len)).filter { tokens[$0].kind != .punct }
            pendingMods = []
            // attach to an amount: the most recent amount without unit, else a new amount
            if let c = currentAmount, amounts[c].unitIndices.isEmpty {
                amounts[c].unitIndices = unitIdx
            } else if Lexicon.containerUnits.contains(Lexicon.units[tokens[start + mods + len - 1].lower] ?? ""),
                      let c = amounts.lastIndex(where: { $0.unitIndices.isEmpty && $0.qtyIndex != nil }) {
                amounts[c].unitIndices = unitIdx
            } else {
                amounts.append(.init(qtyIndex: nil, unitIndices: unitIdx))
                currentAmount = amounts.count - 1
            }
        }

        // "Juice of 1 lemon", "Finely grated zest and juice of 2 limes"
        var start = 0
        do {
            var j = 0
            while j < n, Lexicon.prepAdverbs.contains(lower(j)) || ["grated", "freshly", "squeezed"].contains(lower(j)) { j += 1 }
            var sawPart = false
            while j < n, Lexicon.fruitParts.contains(lower(j)) {
                sawPart = true
                j += 1
                if ["and", "&", "or"].contains(lower(j)) { j += 1 }
            }
            if sawPart, j + 1 < n, ["of", "from"].contains(lower(j)),
               isNumber(j + 1) || numberWord(j + 1) != nil || ["a", "an"].contains(lower(j + 1)) {
                for k in 0...j { labels[k] = tokens[k].kind == .punct ? .punc : .prep }
                start = j + 1
                i = start
            }
        }

        leading: while i < n {
            let t = tokens[i]
            let l = t.lower
            // leading modifiers belonging to the unit: "Scant ½ cup", "Heaped 1 tsp"
            if !sawQuantity, Lexicon.preQuantityModifiers.contains(l), i + 1 < n, isNumber(i + 1) || numberWord(i + 1) != nil {
                labels[i] = .unit
                pendingMods.append(i)
                i += 1
                continue
            }
            if !sawQuantity, i == start, l == "few" || l == "couple", i + 1 < n, tokens[i + 1].kind == .word {
                labels[i] = .qty
                amounts.append(.init(qtyIndex: i))
                currentAmount = amounts.count - 1
                sawQuantity = true
                i += 1
                if lower(i) == "of" { labels[i] = .comment; i += 1 }
                if let (m, ul) = modifiedUnit(i) { markUnit(i, m, ul); i += m + ul; lastWasUnit = true }
                continue
            }
            if t.kind == .number || (numberWord(i) != nil && !sawQuantity && (i == start || lower(i - 1) == "(" || (i > 0 && ["a", "an"].contains(lower(i - 1)) && labels[i - 1] == .comment) || Lexicon.approx.contains(lower(i - 1)) || pendingMods.last == i - 1)) {
                // "one" as a name word ("one-pot") is excluded by tokeniser (hyphen words)
                if t.kind == .word {
                    // "half a teaspoon", "a dozen"
                    let next = i + 1 < n ? tokens[i + 1] : nil
                    if next == nil { break }
                }
                labels[i] = .qty
                amounts.append(.init(qtyIndex: i, approximate: pendingApprox))
                pendingApprox = false
                currentAmount = amounts.count - 1
                sawQuantity = true
                lastWasUnit = false
                i += 1
                // hyphen-attached unit: "15-ounce"
                if i < n, tokens[i].hyphenAttached, let (m, ul) = modifiedUnit(i), m == 0 {
                    amounts[currentAmount!].hyphenSize = true
                    markUnit(i, 0, ul)
                    i += ul
                    lastWasUnit = true
                    continue
                }
                // "half a", "a dozen"
                if i < n, ["a", "an"].contains(lower(i)), l == "half" { labels[i] = .comment; i += 1 }
                if i + 1 < n, ["a", "an"].contains(lower(i)), t.kind == .number, tokens[i + 1].kind == .word { labels[i] = .comment; i += 1 }
                if i < n, lower(i) == "dozen" {
                    labels[i] = .qty
                    amounts.append(.init(qtyIndex: i))
                    currentAmount = amounts.count - 1
                    i += 1
                }
                // "1 large or 2 small eggs"
                if i + 2 < n, Lexicon.sizes.contains(lower(i)), lower(i + 1) == "or", isNumber(i + 2), i + 3 < n, Lexicon.sizes.contains(lower(i + 3)),
                   unitLength(i + 4, strong: false) == 0 {
                    labels[i] = .size; labels[i + 1] = .size; labels[i + 2] = .qty; labels[i + 3] = .size
                    amounts.append(.init(qtyIndex: i + 2))
                    currentAmount = amounts.count - 1
                    i += 4
                    break leading
                }
                // multiplier "2 x 400g", "4 x small duck breasts"
                if i < n, ["x", "×", "X"].contains(tokens[i].text), i + 1 < n, isNumber(i + 1) || lower(i + 1) == "(" || tokens[i + 1].kind == .word || tokens[i + 1].text == "/" {
                    amounts[currentAmount!].multiplier = true
                    labels[i] = .punc
                    i += 1
                    if i + 1 < n, tokens[i].text == "/", isNumber(i + 1) { labels[i] = .punc; i += 1 }
                    continue
                }
                if i + 1 < n, lower(i) == "packed" || (["firmly", "lightly", "loosely", "well", "tightly"].contains(lower(i)) && lower(i + 1) == "packed"),
                   modifiedUnit(i + (lower(i) == "packed" ? 1 : 2)) != nil {
                    let len = lower(i) == "packed" ? 1 : 2
                    for q in i..<(i + len) { labels[q] = .comment }
                    i += len
                }
                if i < n, let (m, ul) = modifiedUnit(i) {
                    // "8 cloves" alone: the count unit is the ingredient itself
                    let end = i + m + ul
                    if m == 0, Lexicon.isCountUnit(lower(i)), end >= n || [",", "("].contains(tokens[end].text) && lower(i).hasPrefix("clove") {
                        break leading
                    }
                    markUnit(i, m, ul)
                    i += m + ul
                    lastWasUnit = true
                    // "2 tablespoons/30 ml", "1 lb 9 oz"
                    continue
                }
                continue
            }
            if (l == "a" || l == "an") && i + 1 < n {
                // "a pinch of", "a 14-ounce can", "a few"
                if let (m, ul) = modifiedUnit(i + 1), !sawQuantity || lastWasUnit == false {
                    labels[i] = .comment
                    amounts.append(.init(qtyIndex: nil))
                    currentAmount = amounts.count - 1
                    markUnit(i + 1, m, ul)
                    i += 1 + m + ul
                    sawQuantity = true
                    lastWasUnit = true
                    continue
                }
                if isNumber(i + 1) || numberWord(i + 1) != nil || lower(i + 1) == "few" || lower(i + 1) == "couple" {
                    labels[i] = .comment
                    i += 1
                    if lower(i) == "few" || lower(i) == "couple" {
                        labels[i] = .qty
                        amounts.append(.init(qtyIndex: i))
                        currentAmount = amounts.count - 1
                        sawQuantity = true
                        i += 1
                        if lower(i) == "of" { labels[i] = .comment; i += 1 }
                        if let (m, ul) = modifiedUnit(i) { markUnit(i, m, ul); i += m + ul; lastWasUnit = true }
                    }
                    continue
                }
                break
            }
            if i == start || sawQuantity || (i > start && labels[i - 1] == .comment) {
                var k = i + 1
                if k < n, tokens[k].text == "." { k += 1 }
                if Lexicon.approx.contains(l) && l != "some" && k < n && (isNumber(k) || numberWord(k) != nil) {
                    labels[i] = .comment
                    pendingApprox = true
                    i = k
                    continue
                }
                // "up to 300ml", "at least 4 tbsp", "Additional 1 tablespoon", "OR one 13-ounce can"
                if !sawQuantity, i + 1 < n {
                    let two = (l == "up" && lower(i + 1) == "to") || (l == "at" && lower(i + 1) == "least")
                    let k2 = two ? i + 2 : i + 1
                    if two || ["additional", "extra", "or", "optional"].contains(l), k2 < n, isNumber(k2) || numberWord(k2) != nil && (k2 + 1 < n && tokens[k2 + 1].kind == .word) {
                        for q in i..<k2 { labels[q] = .comment }
                        i = k2
                        continue
                    }
                }
            }
            if lastWasUnit {
                // ranged compound amounts: "1lb 4oz-1lb 5oz", "4oz–6oz", "14 oz to 1lb"
                if ["-", "–", "—", "to"].contains(l), i + 2 < n, isNumber(i + 1), unitLength(i + 2, strong: false) > 0 || (tokens[i + 2].text == "/" && i + 3 < n) {
                    labels[i] = l == "to" ? .comment : .punc
                    i += 1
                    continue
                }
                // abbreviation dot: "10-oz. bags", "1 tbsp. oil"
                if t.text == ".", i + 1 < n, tokens[i + 1].kind == .word || tokens[i + 1].text == "/" { labels[i] = .punc; i += 1; continue }
                // "large handful each of chervil"
                if l == "each", i + 1 < n, tokens[i + 1].kind == .word {
                    labels[i] = .comment
                    i += 1
                    if lower(i) == "of" { labels[i] = .comment; i += 1 }
                    break
                }
                // "of" after a unit: "a pinch of salt"
                if l == "of" { labels[i] = .comment; i += 1; lastWasUnit = false; break }
                // "/" alternative amounts: "10g/½oz"
                if t.text == "/" && i + 1 < n && isNumber(i + 1) { labels[i] = .punc; i += 1; continue }
                // "25g/oz ground almonds"
                if t.text == "/" && i + 2 < n && unitLength(i + 1, strong: true) > 0 && tokens[i + 2].kind == .word {
                    labels[i] = .punc
                    let ul = unitLength(i + 1, strong: true)
                    amounts.append(.init(qtyIndex: nil))
                    currentAmount = amounts.count - 1
                    markUnit(i + 1, 0, ul)
                    i += 1 + ul
                    continue
                }
                // "plus" second amount
                if (l == "plus" || l == "+" || l == "and" || l == "minus" || l == "to") && i + 1 < n && isNumber(i + 1), l == "plus" || l == "+" || unitLength(i + 2, strong: false) > 0 {
                    labels[i] = l == "+" ? .punc : .comment
                    i += 1
                    continue
                }
                // container after unit: "400g tin", "15-ounce can"; repeated unit: "¾ tsp teaspoon salt"
                if let (m, ul) = modifiedUnit(i), Lexicon.containerUnits.contains(Lexicon.units[tokens[i + m + ul - 1].lower] ?? "")
                    || (m == 0 && unitLength(i, strong: true) > 0 && i + ul < n && tokens[i + ul].kind == .word && !Lexicon.isCountUnit(lower(i))) {
                    markUnit(i, m, ul)
                    i += m + ul
                    continue
                }
                // parenthesised amount right after the unit is handled in phase 2
                break
            }
            if sawQuantity {
                // number then container ("2 (15-ounce) cans") handled by phase 2; "x" multiplier without numbers
                if let (m, ul) = modifiedUnit(i), amounts.last?.unitIndices.isEmpty == true, m > 0 || unitLength(i, strong: false) > 0 {
                    // Don't take nouns like "leaves" as units
                    if !Lexicon.nounLikeUnits.contains(tokens[i + m].lower) {
                        markUnit(i, m, ul)
                        i += m + ul
                        lastWasUnit = true
                        continue
                    }
                }
                break
            }
            // no quantity: sentence may start with a unit ("handful fresh breadcrumbs", "pinch of salt")
            if i == start, let (m, ul) = modifiedUnit(i), unitLength(i + m, strong: true) > 0 || m > 0 || lower(i + m + ul) == "of" {
                let w = tokens[i + m].lower
                if !Lexicon.nounLikeUnits.contains(w) && (i + m + ul < n) && !["can", "cans", "stick", "sticks"].contains(w) {
                    // only if followed by "of" or a word (not comma)
                    let after = i + m + ul
                    if tokens[after].kind == .word || tokens[after].text == "(" {
                        markUnit(i, m, ul)
                        i = after
                        lastWasUnit = true
                        sawQuantity = true
                        continue
                    }
                }
            }
            break
        }

        // ---- Phase 2: the rest ----
        // Segments separated by commas / semicolons / parentheses.
        var segments: [(start: Int, end: Int, paren: Bool)] = []
        var segStart = i
        var k = i
        while k < n {
            let tx = tokens[k].text
            if tx == "(" || tx == "[" {
                if k > segStart { segments.append((segStart, k, false)) }
                var depth = 0
                var e = k
                while e < n {
                    if tokens[e].text == "(" || tokens[e].text == "[" { depth += 1 }
                    if tokens[e].text == ")" || tokens[e].text == "]" { depth -= 1; if depth == 0 { break } }
                    e += 1
                }
                segments.append((k + 1, min(e, n), true))
                k = e + 1
                segStart = k
                continue
            }
            if tx == "," || tx == ";" || (tx == "." && k + 1 < n && tokens[k + 1].kind == .word && tokens[k+1].text.first!.isUppercase == false && false) {
                if k > segStart { segments.append((segStart, k, false)) }
                segStart = k + 1
            }
            k += 1
        }
        if segStart < n { segments.append((segStart, n, false)) }

        func setRange(_ a: Int, _ b: Int, _ lab: TokenLabel) {
            guard a < b else { return }
            for j in a..<b where tokens[j].kind != .punct || lab == .qty { labels[j] = lab }
        }

        /// Tries to read amounts inside a parenthetical: "(240 ml)", "(about 8 ounces)", "(6 oz / 170g)".
        func parenAmounts(_ a: Int, _ b: Int, allowLength: Bool = false) -> Bool {
            var j = a
            var found = false
            var local: [(Int, Int, Int, [Int])] = [] // qty index, mods, unit len, modifiers before the quantity
            var commentIdx: [Int] = []
            var preMods: [Int] = []
            while j < b {
                let l = tokens[j].lower
                if Lexicon.preQuantityModifiers.contains(l), j + 1 < b, isNumber(j + 1) { preMods.append(j); j += 1; continue }
                if Lexicon.approx.contains(l) || l == "each" || l == "plus" || l == "total" || l == "or" { commentIdx.append(j); j += 1; continue }
                if tokens[j].kind == .punct && ["/", ",", ";", ".", "-", "=", "[", "]"].contains(tokens[j].text) { j += 1; continue }
                if tokens[j].kind == .number {
                    if j + 1 < b, let (m, ul) = modifiedUnit(j + 1), allowLength || !Lexicon.lengthUnits.contains(lower(j + m + ul)) {
                        local.append((j, m, ul, preMods)); preMods = []; j += 1 + m + ul; found = true; continue
                    }
                    // hyphen-attached handled by modifiedUnit too
                    return false
                }
                return false
            }
            if !found {
                // "(about 20)": an approximate count
                if b - a == 2, Lexicon.approx.contains(lower(a)), isNumber(a + 1) {
                    labels[a] = .comment
                    labels[a + 1] = .qty
                    amounts.append(.init(qtyIndex: a + 1, approximate: true))
                    return true
                }
                return false
            }
            for c in commentIdx { labels[c] = .comment }
            for (q, m, ul, mods) in local {
                labels[q] = .qty
                amounts.append(.init(qtyIndex: q, approximate: !commentIdx.isEmpty))
                currentAmount = amounts.count - 1
                for md in mods { labels[md] = .unit }
                pendingMods = mods
                markUnit(q + 1, m, ul)
            }
            return true
        }

        /// Labels a tail run [a, b): prep / comment / purpose with inner switches ("chopped, plus more for garnish").
        func classifyTail(_ a: Int, _ b: Int, defaultLabel: TokenLabel = .prep) {
            var j = a
            var current = defaultLabel
            if defaultLabel == .prep {
                let w = lower(a)
                if w == "for" { current = .purpose }
                else if w == "to" && lower(a + 1) == "taste" { current = .comment }
                else if w == "to" && Lexicon.purposeToVerbs.contains(lower(a + 1)) { current = .purpose }
                else if w == "or" && lower(a + 1) == "to" { current = .comment }
                else if w == "optional" { current = .comment }
                else if ["such", "preferably", "plus", "about", "approximately", "ideally", "if", "not", "see", "alternatively", "optional", "e.g.", "eg", "like", "per", "including"].contains(w) { current = .comment }
            }
            while j < b {
                let w = tokens[j].lower
                if current == .prep {
                    if w == "for" && j > a && !["cut", "reserved", "reserve", "used"].contains(lower(j - 1)),
                       lower(j + 1).hasSuffix("ing") || ["garnish", "decoration", "serving", "the"].contains(lower(j + 1)) { current = .purpose }
                    else if w == "to" && lower(j + 1) == "taste" { current = .comment }
                    else if w == "plus" || w == "+" || w == "optional" { current = .comment }
                    else if w == "or" && (lower(j + 1) == "to" || lower(j + 1) == "more") { current = .comment }
                    else if w == "or" && j > a && tokens[j - 1].text == "," && (isNumber(j + 1) || numberWord(j + 1) != nil || Lexicon.approx.contains(lower(j + 1))) { current = .comment }
                }
                if tokens[j].kind != .punct { labels[j] = current } else { labels[j] = .punc }
                j += 1
            }
        }

        func classifySegment(_ a: Int, _ b: Int, prevSegLabel: TokenLabel, segIndex: Int, total: Int) -> TokenLabel {
            let w = lower(a)
            // continuation of an alternative or example list: "or 1 quart raspberries, rinsed"; "such as pork, lamb"
            if segIndex > 0, !segments[segIndex - 1].paren {
                let ps = segments[segIndex - 1]
                let firstComment = (ps.start..<ps.end).first(where: { labels[$0] == .comment })
                if prevSegLabel == .comment || labels[ps.end - 1] == .comment, let fc = firstComment {
                    let fw = lower(fc)
                    if fc == ps.start && ["or", "plus"].contains(fw) && w != "for" && w != "to" { return .comment }
                    if ["such", "or", "plus", "preferably", "e.g.", "eg", "like", "including"].contains(fw), isPlainSegment(a, b) { return .comment }
                }
            }
            let segWords = (a..<b).filter { tokens[$0].kind == .word }.map { lower($0) }
            if !segWords.isEmpty, segWords.contains("packed"), segWords.allSatisfy({ ["loosely", "lightly", "firmly", "well", "tightly", "packed", "gently"].contains($0) }) { return .comment }
            if segWords.count <= 3, ["on", "off"].contains(segWords.last ?? ""), !segWords.contains("see") { return .prep }
            if w == "in", ["half", "halves", "quarters", "thirds", "wedges", "chunks", "slices", "pieces"].contains(lower(a + 1)) { return .prep }
            if isNumber(a), a + 1 < b, Lexicon.lengthUnits.contains(lower(a + 1)) || lower(a + 1).hasPrefix("inch") {
                return ["long", "thick", "wide", "diameter", "across", "square"].contains(lower(b - 1)) ? .comment : .prep
            }
            if w == "preferably", a + 1 < b, Lexicon.prepAdverbs.contains(lower(a + 1)) || isParticiple(lower(a + 1)) { return .prep }
            if w == "for" { return .purpose }
            if w == "to" {
                if lower(a + 1) == "taste" { return .comment }
                if Lexicon.purposeToVerbs.contains(lower(a + 1)) { return .purpose }
            }
            if w == "at" && lower(a + 1) == "room" { return .prep }
            if w == "in" && ["their", "its", "the", "shell", "shells"].contains(lower(a + 1)) { return .prep }
            // "zest and juice"
            let words = (a..<b).map { lower($0) }
            if words.contains(where: { ["juice", "zest", "pulp", "rind", "peel"].contains($0) }),
               words.allSatisfy({ Lexicon.fruitParts.contains($0) || ["and", "or", "&", "of", "finely", "grated", "only", "peel"].contains($0) }) {
                if words.contains("only") && !words.contains("zest") && !words.contains("peel") { return .comment }
                return .prep
            }
            if w == "each", a + 1 < b, isParticiple(lower(a + 1)) { return .prep }
            if w == "or" || w == "and" || w == "then" {
                if prevSegLabel == .prep, w != "or" || isParticiple(lower(a + 1)) || Lexicon.prepAdverbs.contains(lower(a + 1)) || Lexicon.leadingPrepWords.contains(lower(a + 1)) {
                    if !(lower(a + 1) == "to" || lower(a + 1) == "more") { return .prep }
                }
                // "ground beef, pork, or lamb" → part of the name
                let stop: Set<String> = ["as", "more", "less", "to", "a", "any", "your", "you", "use", "so", "if", "taste", "needed", "desired", "part", "parts", "portion", "portions", "only"]
                if prevSegLabel == .name, w == "or", ["other", "similar"].contains(lower(a + 1)), isPlainSegment(a + 2, b) || b - a <= 6 {
                    return .name
                }
                if prevSegLabel == .name, b - a <= 6, !(a + 1..<b).contains(where: { (Lexicon.prepWords.contains(lower($0)) && ($0 + 1 >= b || tokens[$0 + 1].kind != .word || Lexicon.prepositions.contains(lower($0 + 1)) || ["and", "or"].contains(lower($0 + 1)))) || stop.contains(lower($0)) || tokens[$0].kind == .number }) {
                    return .name
                }
                return .comment
            }
            if prevSegLabel == .name, ["with", "from", "including"].contains(w), b - a <= 4, isPlainSegment(a + 1, b) { return .name }
            if Lexicon.commentStarters.contains(w) && w != "at" { return .comment }
            if w == "divided" { return .prep }
            // prep if any participle / prep adverb appears
            for j in a..<b {
                let x = lower(j)
                if Lexicon.prepAdverbs.contains(x) && !["medium", "hard", "soft", "fine", "coarse", "thin", "thick", "hot", "very"].contains(x) { return .prep }
                if Lexicon.prepWords.contains(x) && x != "plus" && x != "at" { return .prep }
                if x.hasSuffix("ed") && x.count > 4 && !["seed", "need", "feed"].contains(x) && j == a { return .prep }
            }
            if prevSegLabel == .prep { return .prep }
            if prevSegLabel == .comment, segIndex > 0, ["plus", "or"].contains(lower(segments[segIndex - 1].start)) { return .comment }
            // short noun list continuing the name: "beef, pork, or lamb"
            if prevSegLabel == .name, b - a <= 2, segIndex + 1 < total, segments[segIndex + 1].paren == false,
               ["or", "and"].contains(lower(segments[segIndex + 1].start)) {
                return .name
            }
            return .comment
        }

        var nameSeen = false
        var segIndex = 0
        var prevSegLabel: TokenLabel = .name
        var nameOpen = false
        var nameSegWords = 0
        var nameSegLastWord = ""
        var forcedNameUntil = -1

        /// A segment without any marker of preparation, comment or purpose.
        func isPlainSegment(_ a: Int, _ b: Int) -> Bool {
            var a = a
            while a < b, tokens[a].kind == .punct { a += 1 }
            guard a < b, b - a <= 5 else { return false }
            let w = lower(a)
            if Lexicon.commentStarters.contains(w) || w == "for" || w == "to" { return false }
            for j in a..<b {
                let x = lower(j)
                if tokens[j].kind == .number || x.contains(where: \.isNumber) { return false }
                if Lexicon.prepAdverbs.contains(x) && !["medium", "hard", "soft", "fine", "coarse", "thin", "thick", "hot", "very"].contains(x) { return false }
                if isParticiple(x) || Lexicon.leadingPrepWords.contains(x) {
                    // a participle used as a modifier ("dry mashed potato") is fine; one ending the phrase is not
                    let nx = j + 1 < b ? lower(j + 1) : ""
                    if nx.isEmpty || nx == "and" || nx == "or" || Lexicon.prepositions.contains(nx) || Lexicon.prepAdverbs.contains(nx) { return false }
                }
                if ["to", "for", "as", "if", "only", "optional", "about", "such", "preferably", "plus", "each", "more", "taste", "needed", "with", "without", "into", "of", "part", "parts", "portion", "portions", "juice", "zest", "rind", "peel"].contains(x) { return false }
            }
            return true
        }

        for seg in segments {
            defer { segIndex += 1 }
            var a = seg.start
            let b = seg.end
            guard a < b else { continue }
            if !seg.paren, nameOpen, a > 0, tokens[a - 1].text == ")" || tokens[a - 1].text == "]" {
                let fw = lower(a)
                if !(isParticiple(fw) || Lexicon.prepAdverbs.contains(fw) || Lexicon.leadingPrepWords.contains(fw)) || a + 1 < b && !isParticiple(lower(a + 1)) && tokens[a + 1].kind == .word && !Lexicon.prepositions.contains(lower(a + 1)) {
                    nameSeen = false
                }
            }
            if !seg.paren { nameOpen = false }
            // skip leading punctuation / conjunction-only tokens
            while a < b, tokens[a].kind == .punct { labels[a] = .punc; a += 1 }
            guard a < b else { continue }
            let first = tokens[a].lower
            if seg.paren {
                let hasLength = (a..<b).contains(where: { Lexicon.lengthUnits.contains(lower($0)) || lower($0).hasSuffix("-inch") || ["thick", "long", "wide", "diameter", "square"].contains(lower($0)) })
                if prevSegLabel == .prep, hasLength || !(a..<b).contains(where: { tokens[$0].kind == .number }) {
                    if (a..<b).contains(where: { tokens[$0].kind == .number }) {
                        setRange(a, b, .prep)
                        continue
                    }
                }
                var pb = seg.start - 2
                while pb >= 0, tokens[pb].kind == .punct { pb -= 1 }
                let afterAmount = pb >= 0 && (labels[pb] == .qty || labels[pb] == .unit) && segIndex == 0
                if !hasLength || afterAmount, parenAmounts(a, b, allowLength: afterAmount) { prevSegLabel = prevSegLabel == .prep ? .prep : .qty; continue }
                // "(about 2 cups)", "(about 5 medium)", "(1 very large onion)": the leading count is a quantity
                if !hasLength {
                    var f = a
                    while f < b, Lexicon.approx.contains(lower(f)) { f += 1 }
                    let restIsSize = (f + 1..<Swift.max(f + 1, b)).allSatisfy { tokens[$0].kind == .word && (Lexicon.sizes.contains(lower($0)) || ["or", "each", "total"].contains(lower($0))) }
                    if f < b, f - a <= 2, isNumber(f) || (f > a && numberWord(f) != nil), f + 1 >= b || restIsSize {
                        setRange(a, f, .comment)
                        for r in (f + 1)..<Swift.max(f + 1, b) where tokens[r].kind == .word {
                            labels[r] = Lexicon.sizes.contains(lower(r)) ? .size : (Lexicon.approx.contains(lower(r)) || ["or", "each", "total"].contains(lower(r)) ? .comment : .comment)
                        }
                        labels[f] = .qty
                        amounts.append(.init(qtyIndex: f, approximate: f > a))
                        if let (m, ul) = modifiedUnit(f + 1), !Lexicon.nounLikeUnits.contains(lower(f + 1 + m)) {
                            for u in (f + 1)..<(f + 1 + m + ul) { labels[u] = .unit }
                            amounts[amounts.count - 1].unitIndices = Array((f + 1)..<(f + 1 + m + ul))
                        }
                        continue
                    }
                }
                // a short gloss right after the name is part of the name: "fish sauce (nam pla)", "(or peanut oil)"
                var p = seg.start - 2
                while p >= 0, tokens[p].kind == .punct { p -= 1 }
                if p >= 0, labels[p] == .name, !(a..<b).contains(where: { tokens[$0].kind == .number || tokens[$0].text.contains(where: \.isNumber) }) {
                    let words = (a..<b).filter { tokens[$0].kind == .word }
                    let ws = words.map { tokens[$0].lower }
                    let banned: Set<String> = ["optional", "see", "from", "recipe", "recipes", "follows", "follow", "about", "other", "more", "to", "you",
                                               "any", "a", "use", "your", "if", "such", "preferably", "note", "notes",
                                               "page", "below", "above", "available", "or", "each", "and", "for",
                                               "homemade", "store-bought", "ideally", "like", "not", "tips", "tip"]
                    let core = ws.first == "or" ? Array(ws.dropFirst()) : ws
                    // the name continues after the parenthesis: "mirin (Japanese rice wine) or medium-dry sherry"
                    let continues = b + 1 < n && tokens[b + 1].kind == .word && !isParticiple(lower(b + 1))
                        && !Lexicon.prepAdverbs.contains(lower(b + 1)) && !["for", "to", "plus", "optional", "about"].contains(lower(b + 1))
                    if continues, !core.isEmpty, core.count <= 5, ws.first != "or",
                       !core.contains(where: { ["see", "from", "recipe", "recipes", "about", "optional", "page", "below", "above", "such", "preferably", "if", "each", "you", "use"].contains($0) }) {
                        setRange(a, b, .name)
                        continue
                    }
                    if ws.first == "or", core.first == "similar" || (core.first == "a" && core.dropFirst().first == "similar") {
                        setRange(a, b, .name)
                        continue
                    }
                    if !core.isEmpty, core.count <= 2, !core.contains(where: { banned.contains($0) || Lexicon.prepWords.contains($0) || Lexicon.prepAdverbs.contains($0) }),
                       words.count == b - a - (b - a - words.count) {
                        setRange(a, b, .name)
                        continue
                    }
                }
                if isParticiple(first) || Lexicon.leadingPrepWords.contains(first) || (Lexicon.prepAdverbs.contains(first) && a + 1 < b && isParticiple(lower(a + 1))) {
                    setRange(a, b, .prep)
                } else if prevSegLabel == .prep && (a..<b).contains(where: { isParticiple(lower($0)) }) && !Lexicon.commentStarters.contains(first) && !["alternatively", "discard", "use", "not", "you", "we", "if"].contains(first) {
                    setRange(a, b, .prep)
                } else if first == "for" || (first == "to" && a + 1 < b && Lexicon.purposeToVerbs.contains(lower(a + 1))) {
                    setRange(a, b, .purpose)
                } else {
                    setRange(a, b, .comment)
                }
                continue
            }
            if !nameSeen {
                // The name segment
                // leading prep: adverbs / participles before the name
                var j = a
                for q in a..<b where (tokens[q].lower == "ground" || tokens[q].lower.hasSuffix("-ground")) && q + 1 < b {
                    let nx = lower(q + 1), nx2 = q + 2 < b ? lower(q + 2) : ""
                    if nx.hasPrefix("pepper") || (["black", "white", "pink", "green", "red"].contains(nx) && nx2.hasPrefix("pepper")) {
                        labels[q] = .prep
                        if q > a, Lexicon.prepAdverbs.contains(lower(q - 1)) { labels[q - 1] = .prep }
                    }
                }
                for q in a..<b where q + 1 < b && lower(q) == "room" && lower(q + 1) == "temperature" {
                    labels[q] = .prep; labels[q + 1] = .prep
                    if q > a, lower(q - 1) == "at" { labels[q - 1] = .prep }
                }
                var prepEnd = a
                var scan = a
                var before = a - 1
                if before >= 0, tokens[before].text == ")" {
                    var depth = 0
                    while before >= 0 {
                        if tokens[before].text == ")" { depth += 1 }
                        if tokens[before].text == "(" { depth -= 1; if depth == 0 { break } }
                        before -= 1
                    }
                    before -= 1
                }
                let afterContainer = before >= 0 && labels[before] == .unit && ["can", "cans", "tin", "tins", "jar", "jars", "package", "packages", "packet", "packets", "box", "boxes", "bag", "bags", "carton", "cartons"].contains(lower(before))
                if afterContainer { scan = b }
                // "washed, hulled, and dried strawberries": a list of preparations continues after a comma
                if !afterContainer, segIndex > 0, ["and", "or"].contains(lower(scan)), scan + 1 < b,
                   Lexicon.leadingPrepWords.contains(lower(scan + 1)) || isParticiple(lower(scan + 1)) {
                    scan += 1
                }
                while scan < b {
                    let w = tokens[scan].lower
                    if Lexicon.prepAdverbs.contains(w) && w != "medium" && w != "hard" && w != "fine" && w != "thin" && w != "thick" && w != "coarse" && w != "soft" && w != "hot" {
                        scan += 1; continue
                    }
                    let afterAnd = scan > a && ["and", "or"].contains(lower(scan - 1)) && prepEnd > a
                    if Lexicon.leadingPrepWords.contains(w) || (w == "ground" && scan > a && Lexicon.prepAdverbs.contains(lower(scan - 1)))
                        || (afterAnd && (isParticiple(w) || isLooseParticiple(w))) {
                        // don't strip if it is the last word (e.g. "cooked")
                        if scan + 1 >= b && segIndex + 1 >= segments.count { break }
                        scan += 1; prepEnd = scan
                        if (lower(scan) == "and" || lower(scan) == "or" || tokens[scan].text == ",") && scan + 1 < b,
                           Lexicon.leadingPrepWords.contains(lower(scan + 1)) || Lexicon.prepAdverbs.contains(lower(scan + 1))
                            || isParticiple(lower(scan + 1)) || isLooseParticiple(lower(scan + 1)) {
                            scan += 1
                        }
                        continue
                    }
                    break
                }
                if prepEnd > a {
                    setRange(a, prepEnd, .prep)
                    j = prepEnd
                }
                // "packed", "firmly packed" before the name is a comment
                if j + 1 < b, lower(j) == "packed" || (["firmly", "lightly", "loosely", "well", "tightly"].contains(lower(j)) && lower(j + 1) == "packed") {
                    let len = lower(j) == "packed" ? 1 : 2
                    setRange(j, j + len, .comment)
                    j += len
                }
                // container unit after a parenthesised amount: "2 (14.5-ounce) cans tomatoes"
                if prevSegLabel == .qty, j < b, let (m, ul) = modifiedUnit(j), unitLength(j + m, strong: true) > 0 || ["can", "cans", "stick", "sticks"].contains(lower(j + m)),
                   amounts.contains(where: { $0.unitIndices.isEmpty && $0.qtyIndex != nil }) || Lexicon.containerUnits.contains(Lexicon.units[tokens[j + m + ul - 1].lower] ?? "") {
                    for q in j..<(j + m + ul) { labels[q] = .unit }
                    let idx = Array(j..<(j + m + ul))
                    if let c = amounts.firstIndex(where: { $0.unitIndices.isEmpty && $0.qtyIndex != nil }) {
                        amounts[c].unitIndices = idx
                    } else {
                        amounts.append(.init(qtyIndex: nil, unitIndices: idx))
                    }
                    j += m + ul
                }
                // "1 stick (8 Tbsp.) plus 2 Tbsp. butter"
                if j + 2 < b, lower(j) == "plus" || lower(j) == "+", isNumber(j + 1), let (m, ul) = modifiedUnit(j + 2) {
                    labels[j] = .comment
                    labels[j + 1] = .qty
                    for u in (j + 2)..<(j + 2 + m + ul) { labels[u] = .unit }
                    amounts.append(.init(qtyIndex: j + 1, unitIndices: Array((j + 2)..<(j + 2 + m + ul))))
                    j += 2 + m + ul
                    while j < b, tokens[j].kind == .punct { labels[j] = .punc; j += 1 }
                }
                // find a trailing "to taste" / "for ..." / prep participle after the name
                var e = j
                var nameTokens = 0
                while e < b {
                    let w = tokens[e].lower
                    if w == "for" && nameTokens > 0 { break }
                    if w == "to" && e + 1 < b && (lower(e + 1) == "taste" || Lexicon.purposeToVerbs.contains(lower(e + 1))) && nameTokens > 0 { break }
                    if w == "or" && e + 2 < b && lower(e + 1) == "to" && lower(e + 2) == "taste" { break }
                    if nameTokens > 0, isParticiple(w) || isLooseParticiple(w), !Lexicon.nameParticiples.contains(w) || e + 1 >= b || lower(e + 1) == "and" {
                        let nx = e + 1 < b ? lower(e + 1) : ""
                        if nx.isEmpty || nx == "and" || nx == "or" || nx == "then" || Lexicon.prepositions.contains(nx) || Lexicon.prepAdverbs.contains(nx) || isParticiple(nx) { break }
                    }
                    if Lexicon.prepAdverbs.contains(w), w.hasSuffix("ly"), e + 1 < b, isParticiple(lower(e + 1)) || isLooseParticiple(lower(e + 1)) || Lexicon.leadingPrepWords.contains(lower(e + 1)) {
                        let nx = e + 2 < b ? lower(e + 2) : ""
                        if nameTokens > 0 && (nx.isEmpty || nx == "and" || nx == "or" || nx == "then" || Lexicon.prepositions.contains(nx)) { break }
                        // "sea salt and freshly cracked black pepper": preparation inside the name
                        if !nx.isEmpty && tokens[e + 2].kind == .word {
                            labels[e] = .prep; labels[e + 1] = .prep
                            e += 2
                            continue
                        }
                    }
                    // "dried cranberries or chopped candied cherries"
                    if nameTokens > 0, e > j + 1, ["or", "and"].contains(lower(e - 1)), Lexicon.leadingPrepWords.contains(w), e + 1 < b, tokens[e + 1].kind == .word,
                       !isParticiple(lower(e - 2)), !Lexicon.nameParticiples.contains(lower(e - 2)), !isLooseParticiple(lower(e - 2)),
                       !Lexicon.prepositions.contains(lower(e + 1)), !["and", "or"].contains(lower(e + 1)) {
                        labels[e] = .prep
                        e += 1
                        continue
                    }
                    if nameTokens > 0 && ["plus", "+", "preferably", "such", "ideally", "about", "approximately", "weighing", "per", "like"].contains(w) { break }
                    if nameTokens > 0 && w == "in" && e + 1 < b && (["shell", "shells"].contains(lower(e + 1)) || ["their", "its", "the"].contains(lower(e + 1)) && e + 2 < b && ["shell", "shells", "skins", "skin", "pods", "pod"].contains(lower(e + 2))) { break }
                    if nameTokens > 0 && w == "as" && e + 1 < b && ["needed", "desired", "required", "necessary", "you", "wanted"].contains(lower(e + 1)) { break }
                    if nameTokens > 0 && ["mixed", "made", "combined", "blended", "thinned", "diluted", "whisked", "tossed", "seasoned"].contains(w) && e + 1 < b && ["with", "from", "to", "into", "in"].contains(lower(e + 1)) { break }
                    if w == "or" && e + 1 < b && ["as", "more", "less", "to", "your", "any", "a", "substitute", "use"].contains(lower(e + 1)) && (nameTokens > 0 || e > j) { break }
                    if nameTokens > 0 && w == "packed" && e + 1 == b { break }
                    if nameTokens > 0 && (w == "optional") { break }
                    if nameTokens > 0 && w == "or" && e + 1 < b && (isNumber(e + 1) || (numberWord(e + 1) != nil && !["half", "quarter"].contains(lower(e + 1)))) { break }
                    if tokens[e].kind == .word && !Lexicon.sizes.contains(w) || tokens[e].kind == .number { nameTokens += 1 }
                    e += 1
                }
                var tailStart = 0
                // sizes inside the name
                // a size phrase at the start of the name: "large", "very large", "medium to small", "medium-sized"
                do {
                    func isSizeWord(_ k: Int) -> Bool { Lexicon.sizes.contains(lower(k)) || ["bite-size", "bite-sized"].contains(lower(k)) }
                    var r = j
                    var sizeEnd = j
                    while r < e, labels[r] == .prep || labels[r] == .comment { r += 1 }
                    // "4 ripe medium tomatoes", "2 whole small dried chiles": skip one or two leading adjectives
                    var skip = r
                    while skip < e, skip - r < 2, !isSizeWord(skip), Lexicon.isAdjectiveLike(lower(skip)) || ["ripe", "ultra", "inexpensive"].contains(lower(skip)) { skip += 1 }
                    if skip > r, skip < e, isSizeWord(skip) { r = skip }
                    let sizeStart = r
                    while r < e {
                        if ["very", "extra"].contains(lower(r)), r + 1 < e, isSizeWord(r + 1) { r += 1; continue }
                        guard isSizeWord(r) else { break }
                        // "medium or coarse oatmeal", "medium or sharp cheddar": not a size
                        if r + 2 < e, ["or", "to"].contains(lower(r + 1)), !isSizeWord(r + 2) { break }
                        r += 1
                        sizeEnd = r
                        if r < e, ["size", "sized"].contains(lower(r)) { r += 1; sizeEnd = r }
                        if r + 1 < e, ["to", "or"].contains(lower(r)), isSizeWord(r + 1) || ["very", "extra"].contains(lower(r + 1)) { r += 1; continue }
                        break
                    }
                    if sizeEnd > sizeStart, sizeEnd < e || segIndex + 1 < segments.count {
                        for q in sizeStart..<sizeEnd { labels[q] = .size }
                    }
                }
                // "2 garlic cloves": unit after the name
                if e - 1 > j, Lexicon.trailingUnits.contains(lower(e - 1)) || (["leaf", "leaves", "sheet", "sheets"].contains(lower(e - 1)) && ["gelatine", "gelatin"].contains(lower(e - 2))),
                   !(["stick", "sticks"].contains(lower(e - 1)) && ["cinnamon", "canela", "vanilla"].contains(lower(e - 2))),
                   labels[e - 2] == .name, lower(e - 2) != "whole", !(j..<(e - 1)).contains(where: { ["or", "and"].contains(lower($0)) }),
                   amounts.contains(where: { $0.qtyIndex.map { tokens[$0].kind == .number || numberWord($0) != nil } ?? false }) || amounts.isEmpty,
                   !amounts.contains(where: { !$0.unitIndices.isEmpty }) {
                    labels[e - 1] = .unit
                    var idx = [e - 1]
                    if labels[j] == .size || Lexicon.unitModifiers.contains(lower(j)) && !Lexicon.isAdjectiveLike(lower(j)), j + 1 < e - 1 { labels[j] = .unit; idx.insert(j, at: 0) }
                    if let c = amounts.lastIndex(where: { $0.qtyIndex != nil }) { amounts[c].unitIndices = idx }
                    tailStart = e
                    e -= 1
                }
                for q in j..<e where labels[q] == .name && tokens[q].kind == .punct { labels[q] = .punc }
                e = Swift.max(e, tailStart)
                if e < b {
                    if lower(e) == "or" && e + 1 < b && (isNumber(e + 1) || numberWord(e + 1) != nil) {
                        setRange(e, b, .comment)
                    } else {
                        classifyTail(e, b)
                    }
                }
                nameSeen = (j..<e).contains(where: { labels[$0] == .name })
                let lastLab = (a..<b).last(where: { tokens[$0].kind != .punct }).map { labels[$0] } ?? .name
                prevSegLabel = lastLab == .comment || lastLab == .prep ? lastLab : .name
                nameOpen = nameSeen && e >= b && b < n && (tokens[b].text == "(" || tokens[b].text == "[")
                let nameIdx = (j..<e).filter { labels[$0] == .name && tokens[$0].kind == .word }
                nameSegWords = nameIdx.count
                nameSegLastWord = nameIdx.last.map { tokens[$0].lower } ?? ""
                // a list of alternatives continuing the name: "sherry vinegar, balsamic vinegar, or white wine vinegar"
                if nameSeen && e >= b {
                    var k = segIndex + 1
                    while k < segments.count, !segments[k].paren {
                        let sa = segments[k].start
                        var fa = sa
                        while fa < segments[k].end, tokens[fa].kind == .punct { fa += 1 }
                        let fw = lower(fa)
                        if fw == "or" || fw == "and" || fw == "and/or" {
                            let nx = lower(fa + 1)
                            if ["as", "more", "less", "to", "a", "any", "your", "you", "use", "so", "if", "other"].contains(nx) { break }
                            if isPlainSegment(fa + 1, segments[k].end) && k > segIndex + 1 { forcedNameUntil = k }
                            break
                        }
                        if !isPlainSegment(sa, segments[k].end) { break }
                        if k > segIndex, (sa..<segments[k].end).contains(where: { ["or", "and", "and/or"].contains(lower($0)) }),
                           k + 1 >= segments.count || !isPlainSegment(segments[k + 1].start, segments[k + 1].end) {
                            forcedNameUntil = k
                            break
                        }
                        k += 1
                    }
                }
                if !nameSeen && e == b { uncertainty += 0.2 }
                continue
            }
            // Later segments
            var lab = classifySegment(a, b, prevSegLabel: prevSegLabel, segIndex: segIndex, total: segments.count)
            if segIndex <= forcedNameUntil { lab = .name }
            // "boneless, skinless chicken breasts": a lone adjective before the comma
            if prevSegLabel == .name, nameSegWords >= 1, Lexicon.isAdjectiveLike(nameSegLastWord), isPlainSegment(a, b) {
                lab = .name
                nameSegLastWord = (a..<b).last(where: { tokens[$0].kind == .word }).map { lower($0) } ?? ""
            }
            if lab == .name {
                setRange(a, b, .name)
                // a trailing purpose or "to taste" inside a name segment
                var t = a + 1
                while t < b {
                    let w = lower(t)
                    if w == "for", t + 1 < b, lower(t + 1).hasSuffix("ing") || ["garnish", "decoration", "serving"].contains(lower(t + 1)) {
                        setRange(t, b, .purpose); break
                    }
                    if w == "to", t + 1 < b, lower(t + 1) == "taste" { setRange(t, b, .comment); break }
                    t += 1
                }
            } else if lab == .prep {
                classifyTail(a, b, defaultLabel: .prep)
            } else {
                classifyTail(a, b, defaultLabel: lab)
            }
            prevSegLabel = lab
        }

        // Amounts written after the name or in a comment: "1 tsp salt 5 mL", "about 10 ounces each".
        var q = 0
        while q < n {
            // a metric equivalent closing the sentence: "1 cup dry white wine, divided 250 mL"
            if tokens[q].kind == .number, labels[q] == .prep, q + 2 == n, ["ml", "g", "l", "kg"].contains(lower(q + 1)),
               q > 0, tokens[q - 1].kind == .word {
                labels[q] = .qty
                labels[q + 1] = .unit
                amounts.append(.init(qtyIndex: q, unitIndices: [q + 1]))
                break
            }
            if tokens[q].kind == .number, labels[q] == .name || labels[q] == .comment {
                // not inside an alternative "or 1 cup ..."
                var alt = false
                var r = q - 1
                while r >= 0, labels[r] == labels[q] || tokens[r].kind == .punct {
                    if ["or", "plus", "and", "from", "into"].contains(tokens[r].lower) && (labels[q] == .comment || r == q - 1) { alt = true; break }
                    if tokens[r].text == "(" || tokens[r].text == "," { break }
                    // inside a longer remark ("if you want a thinner sauce use 1 tsp") numbers stay in the comment
                    if labels[q] == .comment, tokens[r].kind == .word,
                       !(Lexicon.approx.contains(tokens[r].lower) || ["each", "weighing", "total", "in", "of"].contains(tokens[r].lower)) { alt = true; break }
                    r -= 1
                }
                if !alt, q + 1 < n, let (m, ul) = modifiedUnit(q + 1), !Lexicon.nounLikeUnits.contains(lower(q + 1 + m)),
                   !Lexicon.lengthUnits.contains(lower(q + ul + m)),
                   labels[q] == .comment || q + 1 + m + ul >= n || tokens[q + 1 + m + ul].kind == .punct {
                    labels[q] = .qty
                    for u in (q + 1)..<(q + 1 + m + ul) { labels[u] = .unit }
                    amounts.append(.init(qtyIndex: q, unitIndices: Array((q + 1)..<(q + 1 + m + ul))))
                    if q > 0, Lexicon.approx.contains(lower(q - 1)) { labels[q - 1] = .comment; amounts[amounts.count - 1].approximate = true }
                    q += 1 + m + ul
                    continue
                }
            }
            q += 1
        }
        amounts.sort { ($0.qtyIndex ?? $0.unitIndices.first ?? 0) < ($1.qtyIndex ?? $1.unitIndices.first ?? 0) }

        // confidence inputs
        if !labels.contains(.name) { uncertainty += 0.4 }
        if amounts.isEmpty { uncertainty += 0.05 }
        let nameCount = labels.filter { $0 == .name }.count
        if nameCount > 6 { uncertainty += 0.15 }
        return LabelledSentence(tokens: tokens, labels: labels, amounts: amounts, uncertainty: uncertainty)
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
        let optional = (comment?.lowercased().contains("optional") ?? false) || line.lowercased().contains("optional")
        var alternatives: [String] = []
        let lname = name.lowercased()
        if lname.contains(" or ") {
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
