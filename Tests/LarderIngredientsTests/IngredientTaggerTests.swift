import Foundation
import Testing
@testable import LarderIngredients

@Suite("Ingredient tagger")
struct IngredientTaggerTests {
    static let handLabelled: [IngredientEvaluation.Example] = [
        .init(input: "10g/½oz fresh tarragon, leaves only", name: "fresh tarragon", quantity: "10 #1$2", unit: "g oz", comment: "leaf only"),
        .init(input: "5 cloves garlic, crushed", name: "garlic", quantity: "5", unit: "clove", preparation: "crushed"),
        .init(input: "a good pinch of dried oregano", name: "dried oregano", unit: "good pinch", comment: "a of"),
        .init(input: "8 x 450g/1lb live lobsters", name: "live lobsters", quantity: "8x 450 1", unit: "g lb"),
        .init(input: "2 to 3 garlic cloves, peeled", name: "garlic", quantity: "2-3", unit: "clove", preparation: "peeled"),
        .init(input: "olive oil, for shallow frying", name: "olive oil", purpose: "for shallow frying"),
        .init(input: "1 1/2 cups flour, sifted", name: "flour", quantity: "1#1$2", unit: "cup", preparation: "sifted"),
    ]

    @Test func alignsSentenceFieldsToTokens() throws {
        let (tokens, labels) = try #require(LabelAlignment.align(Self.handLabelled[0]))
        let pairs = zip(tokens, labels).map { "\($0.text)/\($1)" }
        #expect(pairs == ["10/qty", "g/unit", "//punc", "1/2/qty", "oz/unit", "fresh/name", "tarragon/name", ",/punc",
                          "leaves/comment", "only/comment"])
        let lobsters = try #require(LabelAlignment.align(Self.handLabelled[3]))
        #expect(lobsters.labels == [.qty, .punc, .qty, .unit, .punc, .qty, .unit, .name, .name])
        for e in Self.handLabelled { #expect(LabelAlignment.align(e) != nil, "\(e.input)") }
        // a field that does not occur in the sentence does not align
        #expect(LabelAlignment.align(.init(input: "2 eggs", name: "milk", quantity: "2")) == nil)
    }

    /// Trains a small model twice with the same seed: identical weights, identical tags.
    @Test func trainingAndDecodingAreDeterministic() throws {
        let (examples, count) = IngredientTraining.trainingExamples(Self.handLabelled)
        #expect(count.aligned == Self.handLabelled.count)
        // 20 epochs: with second-order transitions, seed 7 needs more than 10 passes to fit "a good pinch of …"
        let a = SequenceTagger.train(examples, bits: 12, epochs: 20, seed: 7)
        let b = SequenceTagger.train(examples, bits: 12, epochs: 20, seed: 7)
        #expect(a.serialized() == b.serialized())
        let reloaded = try SequenceTagger(data: a.serialized())
        for e in examples {
            let tags = a.tag(e.tokens)
            #expect(tags == a.tag(e.tokens))
            #expect(reloaded.tag(e.tokens) == tags)
            #expect(tags == e.gold, "the training sentences are learnt: \(e.tokens.map(\.text))")
        }
    }

    /// An ensemble of two orders is one weight table: the mean of the runs with seeds 7 and 8, the same size as
    /// one run, and still fits the training sentences.
    @Test func ensembleAveragesRunsInDifferentOrders() throws {
        let (examples, _) = IngredientTraining.trainingExamples(Self.handLabelled)
        let a = SequenceTagger.train(examples, bits: 12, epochs: 10, seed: 7)
        let b = SequenceTagger.train(examples, bits: 12, epochs: 10, seed: 8)
        let both = SequenceTagger.train(examples, bits: 12, epochs: 10, seed: 7, ensemble: 2)
        #expect(a.weights != b.weights, "different orders give different weights")
        #expect(both.weights.count == a.weights.count)
        for k in both.weights.indices { #expect(both.weights[k] == (a.weights[k] + b.weights[k]) / 2) }
        for k in both.transitions.indices { #expect(both.transitions[k] == (a.transitions[k] + b.transitions[k]) / 2) }
        #expect(SequenceTagger.train(examples, bits: 12, epochs: 10, seed: 7, ensemble: 1).serialized() == a.serialized())
        for e in examples { #expect(both.tag(e.tokens) == e.gold, "\(e.tokens.map(\.text))") }
    }

    /// Word classes come from unlabelled text: words seen between the same neighbours share a cluster, the
    /// position profile records what follows a comma, and the table survives the weights file.
    @Test func wordClassesGroupWordsByTheirNeighbours() throws {
        var sentences: [String] = []
        for (k, food) in ["flour", "sugar", "rice", "oats", "semolina"].enumerated() {
            for (j, verb) in ["sifted", "rinsed", "toasted", "warmed"].enumerated() {
                sentences.append("\(k + j + 1) cups \(food), \(verb)")
            }
        }
        let classes = WordClasses.learn(from: sentences, settings: .init(fine: 5, coarse: 2, minCount: 2))
        func fine(_ w: String) throws -> UInt32 { try #require(classes.packed(w)) & 0xFF }
        #expect(try fine("flour") == fine("semolina"))
        #expect(try fine("sifted") == fine("warmed"))
        #expect(try fine("flour") != fine("sifted"))
        #expect(classes.packed("cup") == nil, "only words of the text get a class")
        // position profile, level 0–4 of "follows a comma": 4 for the verbs, 0 for the foods
        #expect(try #require(classes.packed("rinsed")) >> 16 & 7 == 4)
        #expect(try #require(classes.packed("rice")) >> 16 & 7 == 0)
        #expect(WordClasses.learn(from: sentences, settings: .init(fine: 5, coarse: 2, minCount: 2)) == classes)
        var model = SequenceTagger(bits: 10)
        model.wordClasses = classes
        #expect(try SequenceTagger(data: model.serialized()).wordClasses == classes)
    }

    /// "or 1/4 cup …" and "plus 1 tbsp" start an alternative or added amount, a context feature of every later token.
    @Test func alternativeAmountContext() {
        let tokens = Tokenizer.tokenize("2 tablespoons cornstarch, or 1/4 cup flour")
        let alternative = TaggerFeatures.segmentContext(tokens).map(\.alternative)
        #expect(alternative == [0, 0, 0, 0, 0, 1, 1, 1])
        #expect(TaggerFeatures.segmentContext(Tokenizer.tokenize("1 or 2 jalapeños")).allSatisfy { $0.alternative == 0 })
        #expect(TaggerFeatures.segmentContext(Tokenizer.tokenize("salt or 1 tsp soy sauce")).allSatisfy { $0.alternative == 0 })
    }

    /// Feature set 3: where each token stands to the latest amount (no number yet / number without unit /
    /// number and unit, × 4, plus the words since the number).
    @Test func amountContext() {
        let amount = TaggerFeatures.segmentContext(Tokenizer.tokenize("2 cups flour, sifted")).map(\.amount)
        #expect(amount == [0, 4, 9, 10, 10])
        let bare = TaggerFeatures.segmentContext(Tokenizer.tokenize("salt and 2 eggs")).map(\.amount)
        #expect(bare == [0, 1, 2, 4])
    }

    /// Feature set 5: the words before a token that are not amount words, and what opened its parenthesis — a
    /// number ("1 (8 ounce) package"), a unit word ("1 cup (8 ounces)") or another word ("berries (about 1 pint)").
    @Test func structureContext() {
        let package = TaggerFeatures.segmentContext(Tokenizer.tokenize("1 (8 ounce) package crescent rolls"))
        #expect(package.map(\.parenOpener) == [0, 1, 1, 1, 0, 0, 0, 0])
        #expect(package.map(\.wordsBefore) == [0, 0, 0, 0, 0, 0, 0, 1])
        let cup = TaggerFeatures.segmentContext(Tokenizer.tokenize("1 cup (8 ounces) water"))
        #expect(cup.map(\.parenOpener) == [0, 0, 2, 2, 2, 0, 0])
        let berries = TaggerFeatures.segmentContext(Tokenizer.tokenize("1½ cups fresh strawberries (about 1 pint)"))
        #expect(berries.map(\.parenOpener) == [0, 0, 0, 0, 3, 3, 3, 3, 0])
        #expect(berries.map(\.wordsBefore) == [0, 0, 0, 1, 2, 2, 2, 2, 2])
        #expect(TaggerFeatures.segmentContext(Tokenizer.tokenize("(optional) salt")).map(\.parenOpener) == [4, 4, 0, 0])
    }

    /// The passive-aggressive step gives the gold path a margin of one: with Δφ of norm 2 and a margin of 0 the
    /// step is 1/2, none once the margin reaches 1.
    @Test func passiveAggressiveStep() {
        var model = SequenceTagger(bits: 8)
        #expect(SequenceTagger.step([3: 1, 5: -1], [:], model) == 0.5)
        model.weights[3] = 1
        #expect(SequenceTagger.step([3: 1, 5: -1], [:], model) == 0)
        #expect(SequenceTagger.step([:], [:], model) == 0)
    }

    /// The word table answers what the String dictionaries it replaces answered: the lexicon classes of every
    /// lexicon word, the learnt class of every learnt word, nothing for other words.
    @Test func wordTableMatchesTheLexiconsAndClasses() {
        let classes = WordClasses(table: ["kohlrabi": 0x0003_0102, "<num>": 0x0000_0507, "cups": 0x10_0203])
        let table = WordTable(classes)
        for (word, c) in TaggerFeatures.lexiconClasses {
            #expect(table.entry(TaggerFeatures.fnv(word)).lexicon & ~WordTable.caseSensitiveCandidate == c.rawValue, "\(word)")
        }
        for (word, packed) in classes.table { #expect(table.entry(TaggerFeatures.fnv(word)).wordClass == packed, "\(word)") }
        let unknown = table.entry(TaggerFeatures.fnv("zzyzx"))
        #expect(unknown.lexicon == 0 && unknown.wordClass == TaggerFeatures.unknownWordClass)
        #expect(table.entry(TaggerFeatures.fnv("tbsp")).lexicon & WordTable.caseSensitiveCandidate != 0)
    }

    /// An all-ASCII line is scanned as bytes, any other as Characters: both scans give the same tokens.
    @Test func byteAndCharacterScansAgree() {
        let lines = ["1 1/2 cups flour, sifted", "10g/½oz fresh tarragon", "2-3/4 lb. chicken thighs (skin-on)",
                     "1,000 g potatoes", "2,5 kg flour", ".5 tsp salt", "70% dark chocolate", "15-ounce can beans",
                     "e.g. U.S. brands", "110ml-150ml milk", "2 to 3 garlic cloves", "14- to 18-pound turkey",
                     "salt & pepper", "cook's choice", "1\t2\r\n3 eggs", "x", "", "(8 ounce) package", "rock-'n'-roll"]
        for line in lines where line.utf8.allSatisfy({ $0 < 128 }) {
            #expect(Tokenizer.scan(Array(line.utf8)) == Tokenizer.scan(Array(line)), "\(line)")
        }
        #expect(Tokenizer.tokenize("1½ cups flour – sifted").map(\.text) == ["1 1/2", "cups", "flour", "–", "sifted"])
    }

    @Test func corruptWeightsAreRejected() {
        #expect(throws: SequenceTagger.FormatError.self) { try SequenceTagger(data: Data([1, 2, 3])) }
        var data = SequenceTagger(bits: 10).serialized()
        data.removeLast(3)
        #expect(throws: (any Error).self) { try SequenceTagger(data: data) }
    }

    @Test func shippedWeightsLoadOncePerProcess() {
        for line in ["2 cups flour", "1 egg", "salt"] { _ = IngredientParser().parse(line) }
        _ = IngredientParser().parse("3 tbsp sugar")
        #expect(SequenceTagger.loadCount == 1)
    }

    @Test func shippedModelDecodesDeterministically() {
        let parser = IngredientParser()
        for e in Self.handLabelled {
            #expect(parser.label(e.input).labels == IngredientParser().label(e.input).labels)
            #expect(parser.parse(e.input) == parser.parse(e.input))
        }
    }

    @Test func predictionsUseTheLabelsCSVForm() {
        let p = IngredientEvaluation.predict(.init(input: "1 1/2 cups (350 ml) milk, warmed"))
        #expect(p.quantity == "1.5 350")
        #expect(p.unit == "cup ml")
        #expect(p.name == "milk")
        let csv = IngredientEvaluation.predictionsCSV([p])
        #expect(csv.hasPrefix("input,name,quantity,unit,size,preparation,comment,purpose\n\"1 1/2 cups (350 ml) milk, warmed\",milk,1.5 350,cup ml,"))
        let back = IngredientEvaluation.examples(fromCSV: csv)
        #expect(back.first?.quantity == "1.5 350")
    }

    @Test func foldsAreDeterministicAndBalanced() {
        let a = IngredientTraining.foldAssignment(count: 1003, folds: 5, seed: 2026)
        #expect(a == IngredientTraining.foldAssignment(count: 1003, folds: 5, seed: 2026))
        for f in 0..<5 { #expect((200...201).contains(a.filter { $0 == f }.count)) }
    }

    @Test func meanAndDeviation() {
        let s = { (x: Double) in IngredientEvaluation.Scores(count: 10, quantity: x, unit: x, name: x, size: x, preparation: x,
                                                               comment: x, purpose: x, core: x, sentence: x) }
        let (m, sd) = IngredientEvaluation.meanAndDeviation([s(0.9), s(1.0)])
        #expect(abs(m.core - 0.95) < 1e-12)
        #expect(abs(sd.core - 0.0707107) < 1e-6)
    }

    /// The tagger's chain runs over the words; each word carries the punctuation before it (none, comma, an
    /// opening parenthesis, a closing one, a closing one and a comma, other), which the transitions are keyed by.
    @Test func chainKeepsThePunctuationBetweenWords() {
        let tokens = Tokenizer.tokenize("115 g butter, soft (or 2 oz), melted / warm")
        #expect(tokens.map(\.text) == ["115", "g", "butter", ",", "soft", "(", "or", "2", "oz", ")", ",", "melted", "/", "warm"])
        let (words, gaps) = SequenceTagger.chain(tokens)
        #expect(words == [0, 1, 2, 4, 6, 7, 8, 11, 13])
        #expect(gaps == [0, 0, 0, 1, 2, 0, 0, 4, 5])
        let model = SequenceTagger(bits: 10)
        #expect(model.transitions.count == SequenceTagger.gapCount * 9 * 8 + 9 * 8 * 8)
        let tags = model.tag(tokens)
        for k in tokens.indices where tokens[k].kind == .punct { #expect(tags[k] == SequenceTagger.puncIndex) }
    }

    /// Second-order Viterbi finds the path a brute-force search over every labelling of the words finds, with
    /// seeded random emissions, pair emissions, first- and second-order transitions.
    @Test func secondOrderViterbiMatchesBruteForce() {
        let L = SequenceTagger.labelCount, P = TaggerFeatures.pairSlots, T2 = SequenceTagger.secondOrderRow
        let tokens = Tokenizer.tokenize("2 cups (8 oz) flour")
        let (words, gaps) = SequenceTagger.chain(tokens)
        #expect(words.count == 5)
        var rng = SequenceTagger.SplitMix(state: 7)
        func random() -> SIMD8<Float> { SIMD8((0..<8).map { _ in Float.random(in: -1...1, using: &rng) }) }
        let model = SequenceTagger(bits: 8)
        let emit = tokens.map { _ in random() }
        let pairEmit = (0..<tokens.count * P).map { _ in random() }
        let trans = (0..<SequenceTagger.transitionCount / L).map { _ in random() }
        func score(_ y: [Int]) -> Float {
            var total: Float = 0
            for (j, w) in words.enumerated() {
                let p = j == 0 ? L : y[j - 1]
                total += emit[w][y[j]] + pairEmit[w * P + p][y[j]] + trans[gaps[j] * (L + 1) + p][y[j]]
                if j > 0 { total += trans[T2 + (j == 1 ? L : y[j - 2]) * L + p][y[j]] }
            }
            return total
        }
        var best: [Int] = [], top = -Float.infinity
        for code in 0..<(1 << (3 * words.count)) {
            let y = (0..<words.count).map { code >> (3 * $0) & 7 }
            let s = score(y)
            if s > top { top = s; best = y }
        }
        let path = model.viterbi(emit, pairEmit, tokens, trans)
        #expect(words.map { path[$0] } == best)
        #expect(abs(score(words.map { path[$0] }) - top) < 1e-4)
    }

    /// The scorer applied to the labels' own token alignment: every hand-labelled sentence comes out right; a
    /// sentence that does not align counts as wrong.
    @Test func alignmentCeilingScoresTheAlignedLabels() {
        let c = IngredientTraining.alignmentCeiling(Self.handLabelled)
        #expect(c.count == Self.handLabelled.count)
        #expect(c.sentence == 1)
        let withBad = IngredientTraining.alignmentCeiling(Self.handLabelled + [.init(input: "2 eggs", name: "milk", quantity: "2")])
        #expect(withBad.count == Self.handLabelled.count + 1)
        #expect(abs(withBad.sentence - Double(Self.handLabelled.count) / Double(Self.handLabelled.count + 1)) < 1e-12)
    }

    /// "tbs" is singularised as the labels do it ("4 tbs olive oil": unit "tb").
    @Test func unitPluralsAsTheLabelsWriteThem() {
        #expect(IngredientEvaluation.normalizeText("Tbs") == "tb")
        #expect(IngredientEvaluation.normalizeText("tbsps") == "tbsp")
    }
}
