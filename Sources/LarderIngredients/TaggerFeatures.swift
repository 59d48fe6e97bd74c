import Foundation

/// Features of each token of an ingredient sentence for the sequence tagger, as hashed bucket numbers.
///
/// Every feature is a (template, value) pair hashed to one of `1 << bits` buckets; the tagger keeps one weight
/// per bucket and label. Values come from the tokenizer (token kind, number shape, hyphen/glue), word shape,
/// the lower-cased word and its affixes, the lexicons (units, sizes, preparation verbs and adverbs, number words,
/// purpose verbs, comment starters…), position, neighbours within two tokens, being inside parentheses, the
/// number of commas before the token and the first word of the comma/parenthesis segment, whether an alternative
/// amount has begun ("or 1 tsp"), and the ``WordClasses`` learnt from unlabelled sentences (clusters, position
/// profiles) of the token and its neighbours; where amount words stand to the words before them and to the
/// parenthesis they are in (feature set 5).
/// Changing anything here changes what the weights mean: bump ``version`` and retrain.
enum TaggerFeatures {
    /// Version of the feature set, stored in the weights file and checked when loading.
    static let version: UInt32 = 5

    // MARK: Hashing

    @inline(__always) static func fnv(_ s: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return h
    }

    @inline(__always) static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var h = (a &* 0x9E37_79B9_7F4A_7C15) ^ (b &+ 0x632B_E59B_D9B4_E019)
        h ^= h >> 31
        h = h &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 29
        return h
    }

    // MARK: Per-token properties

    /// Lexicon and shape classes of one token, as bits.
    struct Classes: OptionSet {
        let rawValue: UInt64
        static let number = Classes(rawValue: 1 << 0)
        static let word = Classes(rawValue: 1 << 1)
        static let punct = Classes(rawValue: 1 << 2)
        static let unit = Classes(rawValue: 1 << 3)
        static let weakUnit = Classes(rawValue: 1 << 4)
        static let countUnit = Classes(rawValue: 1 << 5)
        static let containerUnit = Classes(rawValue: 1 << 6)
        static let size = Classes(rawValue: 1 << 7)
        static let unitModifier = Classes(rawValue: 1 << 8)
        static let prepWord = Classes(rawValue: 1 << 9)
        static let prepAdverb = Classes(rawValue: 1 << 10)
        static let nameParticiple = Classes(rawValue: 1 << 11)
        static let leadingPrep = Classes(rawValue: 1 << 12)
        static let numberWord = Classes(rawValue: 1 << 13)
        static let approx = Classes(rawValue: 1 << 14)
        static let purposeVerb = Classes(rawValue: 1 << 15)
        static let commentStarter = Classes(rawValue: 1 << 16)
        static let edWord = Classes(rawValue: 1 << 17)
        static let lyWord = Classes(rawValue: 1 << 18)
        static let capitalised = Classes(rawValue: 1 << 19)
        static let hyphenAttached = Classes(rawValue: 1 << 20)
        static let glued = Classes(rawValue: 1 << 21)
        static let lengthUnit = Classes(rawValue: 1 << 22)
        static let preposition = Classes(rawValue: 1 << 23)
        static let adjective = Classes(rawValue: 1 << 24)
        static let fraction = Classes(rawValue: 1 << 25)
        static let range = Classes(rawValue: 1 << 26)
        static let ingWord = Classes(rawValue: 1 << 27)
        static let allCaps = Classes(rawValue: 1 << 28)
        static let fruitPart = Classes(rawValue: 1 << 29)
        static let hyphenated = Classes(rawValue: 1 << 30)
        static let multiplierX = Classes(rawValue: 1 << 31)
        static let decimal = Classes(rawValue: 1 << 32)
        static let bigNumber = Classes(rawValue: 1 << 33)
        static let metricUnit = Classes(rawValue: 1 << 34)
        static let pluralS = Classes(rawValue: 1 << 35)
        static let count = 36
    }

    static let metricUnits: Set<String> = ["gram", "kilogram", "milligram", "milliliter", "centiliter", "deciliter", "liter"]

    /// Lexicon classes by lower-cased word, built once from the lexicons.
    static let lexiconClasses: [String: Classes] = {
        var m: [String: Classes] = [:]
        func add<S: Sequence>(_ words: S, _ c: Classes) where S.Element == String { for w in words { m[w, default: []].insert(c) } }
        for (form, canonical) in Lexicon.units {
            var c: Classes = .unit
            if Lexicon.countUnitSet.contains(canonical) { c.insert(.countUnit) }
            if Lexicon.containerUnits.contains(canonical) { c.insert(.containerUnit) }
            if metricUnits.contains(canonical) { c.insert(.metricUnit) }
            m[form, default: []].formUnion(c)
        }
        add(["fl", "fluid"], .unit)
        add(Lexicon.weakUnits, .weakUnit)
        add(Lexicon.sizes, .size)
        add(Lexicon.unitModifiers, .unitModifier)
        add(Lexicon.prepWords, .prepWord)
        add(Lexicon.prepAdverbs, .prepAdverb)
        add(Lexicon.nameParticiples, .nameParticiple)
        add(Lexicon.leadingPrepWords, .leadingPrep)
        add(Array(Lexicon.numberWords.keys) + ["few", "couple", "several"], .numberWord)
        add(Lexicon.approx, .approx)
        add(Lexicon.purposeToVerbs, .purposeVerb)
        add(Lexicon.commentStarters, .commentStarter)
        add(Lexicon.lengthUnits, .lengthUnit)
        add(Lexicon.prepositions, .preposition)
        add(Lexicon.fruitParts, .fruitPart)
        add(Lexicon.commaAdjectives, .adjective)
        add(["x", "×"], .multiplierX)
        return m
    }()

    /// The shape and lexicon classes of a token; `lexicon` is its entry's lexicon bits in the ``WordTable``.
    static func classes(of t: Token, lexicon: UInt64) -> Classes {
        var c: Classes = []
        switch t.kind {
        case .number:
            c.insert(.number)
            if t.max != nil { c.insert(.range) }
            if t.text.utf8.contains(UInt8(ascii: "/")) { c.insert(.fraction) }
            if t.text.utf8.contains(UInt8(ascii: ".")) { c.insert(.decimal) }
            if t.value >= 100 { c.insert(.bigNumber) }
        case .punct: c.insert(.punct)
        case .word: c.insert(.word)
        }
        if t.hyphenAttached { c.insert(.hyphenAttached) }
        if t.glued { c.insert(.glued) }
        guard t.kind != .number else { return c }
        c.formUnion(Classes(rawValue: lexicon & ~WordTable.caseSensitiveCandidate))
        let u = t.lower.utf8
        if lexicon & WordTable.caseSensitiveCandidate != 0, Lexicon.caseSensitiveUnits[t.text] != nil { c.insert(.unit) }
        if u.count >= 4 {
            if ends(u, "ed") { c.insert(.edWord) }
            if ends(u, "ly") { c.insert(.lyWord) }
            if ends(u, "ing") { c.insert(.ingWord) }
            if ends(u, "less") { c.insert(.adjective) }
            if u.last == UInt8(ascii: "s"), !ends(u, "ss") { c.insert(.pluralS) }
        }
        if u.contains(UInt8(ascii: "-")) { c.insert(.hyphenated) }
        if let f = t.text.utf8.first, f < 128 ? (f >= 65 && f <= 90) : t.text.unicodeScalars.first!.properties.isUppercase {
            c.insert(.capitalised)
            if u.count > 1, allCaps(t.text) { c.insert(.allCaps) }
        }
        return c
    }

    /// No lower-case letter in the word (ASCII bytes checked directly).
    static func allCaps(_ text: String) -> Bool {
        if text.utf8.allSatisfy({ $0 < 128 }) { return !text.utf8.contains { $0 >= 97 && $0 <= 122 } }
        return text.unicodeScalars.allSatisfy { !$0.properties.isLowercase }
    }

    /// Hash of the word shape: letters as x/X, digits as d, runs collapsed ("Tbsp" → "Xx", "1/2" → "d/d").
    static func shapeHash(of t: Token) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        var last: UInt32 = 0
        if t.text.utf8.allSatisfy({ $0 < 128 }) {
            for b in t.text.utf8 {
                let v: UInt32 = (b >= 65 && b <= 90) ? 88 : (b >= 97 && b <= 122) ? 120 : (b >= 48 && b <= 57) ? 100 : UInt32(b)
                if v != last { h = (h ^ UInt64(v)) &* 0x0000_0100_0000_01b3; last = v }
            }
            return h
        }
        for s in t.text.unicodeScalars {
            let v: UInt32
            if s.value < 128 {
                let b = UInt8(s.value)
                v = (b >= 65 && b <= 90) ? 88 : (b >= 97 && b <= 122) ? 120 : (b >= 48 && b <= 57) ? 100 : s.value
            } else {
                v = s.properties.isUppercase ? 88 : s.properties.isAlphabetic ? 120 : s.properties.numericType != nil ? 100 : s.value
            }
            if v != last { h = (h ^ UInt64(v)) &* 0x0000_0100_0000_01b3; last = v }
        }
        return h
    }

    @inline(__always) static func ends(_ u: String.UTF8View, _ suffix: String) -> Bool {
        let s = suffix.utf8
        return u.count >= s.count && u.suffix(s.count).elementsEqual(s)
    }

    @inline(__always) static func fnv<S: Sequence>(bytes: S) -> UInt64 where S.Element == UInt8 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return h
    }

    /// Hashes of the per-token values the templates combine.
    struct TokenInfo {
        var word: UInt64
        var shape: UInt64
        var suffix3: UInt64
        var suffix2: UInt64
        var prefix3: UInt64
        var suffix4: UInt64 = 0
        var classes: Classes
        /// The lower-cased word is in the unit lexicon.
        var lexiconUnit = false
        /// Packed ``WordClasses`` value (``unknownWordClass`` when the word was too rare to learn).
        var wordClass: UInt32 = TaggerFeatures.boundaryWordClass
    }

    static let unknownWordClass: UInt32 = 0xFFFF_FFFF
    static let boundaryWordClass: UInt32 = 0xFFFF_FFFE


    static let boundary = TokenInfo(word: fnv("<s>"), shape: fnv("<s>"), suffix3: 0, suffix2: 0, prefix3: 0, classes: [])
    static let boundaryEnd = TokenInfo(word: fnv("</s>"), shape: fnv("</s>"), suffix3: 0, suffix2: 0, prefix3: 0, classes: [])

    static let numberWord = fnv("<num>")

    static func info(_ t: Token, _ table: WordTable) -> TokenInfo {
        let long = t.kind == .word && t.lower.utf8.count >= 4
        let u = t.lower.utf8
        let word = t.kind == .number ? numberWord : fnv(t.lower)
        let entry = table.entry(word)
        return TokenInfo(word: word, shape: shapeHash(of: t),
                         suffix3: long ? fnv(bytes: u.suffix(3)) : 0, suffix2: long ? fnv(bytes: u.suffix(2)) : 0,
                         prefix3: long ? fnv(bytes: u.prefix(3)) : 0,
                         suffix4: t.kind == .word && u.count >= 6 ? fnv(bytes: u.suffix(4)) : 0,
                         classes: classes(of: t, lexicon: t.kind == .number ? 0 : entry.lexicon),
                         lexiconUnit: entry.lexicon & Classes.unit.rawValue != 0, wordClass: entry.wordClass)
    }

    // MARK: Extraction

    /// Receives the feature buckets of a sentence, token by token: a ``Matrix`` for training, the emission
    /// scores directly when decoding (``SequenceTagger/tag(_:)``).
    protocol Sink {
        /// Whether the features of token `i` are needed (decoding skips punctuation, which is always PUNC).
        func wants(_ i: Int) -> Bool
        /// One feature bucket of the current token.
        mutating func add(_ bucket: Int32)
        /// One feature of the current token that is conjoined with the previous word's label: `buckets[p]` for
        /// previous label `p` (``pairSlots`` slots, the last for the start of the sentence).
        mutating func addPair(_ buckets: PairBuckets)
        /// The current token is complete.
        mutating func endToken()
    }

    /// The buckets of one previous-label feature, one per previous label and the start.
    typealias PairBuckets = SIMD16<Int32>
    /// Previous labels a pair feature distinguishes: the eight labels and the start of the sentence.
    static let pairSlots = 9

    /// The feature buckets of every token: `offsets[i]..<offsets[i + 1]` index into `buckets`, and
    /// `pairOffsets[i]..<pairOffsets[i + 1]` into `pairs` (features conjoined with the previous word's label).
    struct Matrix: Sink {
        var buckets: [Int32] = []
        var offsets: [Int] = [0]
        var pairs: [PairBuckets] = []
        var pairOffsets: [Int] = [0]
        var count: Int { offsets.count - 1 }
        func wants(_ i: Int) -> Bool { true }
        @inline(__always) mutating func add(_ bucket: Int32) { buckets.append(bucket) }
        @inline(__always) mutating func addPair(_ b: PairBuckets) { pairs.append(b) }
        @inline(__always) mutating func endToken() { offsets.append(buckets.count); pairOffsets.append(pairs.count) }
    }

    /// Computes the features of a tokenised sentence for a table of `1 << bits` buckets.
    static func extract(_ tokens: [Token], bits: Int, table: WordTable) -> Matrix {
        var m = Matrix()
        m.buckets.reserveCapacity(tokens.count * 110)
        m.offsets.reserveCapacity(tokens.count + 1)
        extract(tokens, bits: bits, table: table, into: &m)
        return m
    }

    /// Computes the features of a tokenised sentence into `sink`.
    static func extract<S: Sink>(_ tokens: [Token], bits: Int, table: WordTable, into sink: inout S) {
        let n = tokens.count
        let infos = tokens.map { info($0, table) }
        let context = segmentContext(tokens, infos)
        let shift = UInt64(64 - bits)
        let start = boundary, end = boundaryEnd
        @inline(__always) func at(_ k: Int) -> TokenInfo {
            k < 0 ? start : k >= n ? end : infos[k]
        }
        var nextWord = [Int](repeating: n, count: n)  // the next token that is not punctuation
        for k in stride(from: n - 2, through: 0, by: -1) { nextWord[k] = tokens[k + 1].kind != .punct ? k + 1 : nextWord[k + 1] }
        var previousWord = -1  // the previous token that is not punctuation
        for i in 0..<n {
            defer { if tokens[i].kind != .punct { previousWord = i } }
            guard sink.wants(i) else { sink.endToken(); continue }
            let t0 = at(i), p1 = at(i - 1), p2 = at(i - 2), n1 = at(i + 1), n2 = at(i + 2)
            addTokenFeatures(i, n, t0, p1, n1, p2, n2, context[i], &sink, shift)
            addWordClassFeatures(t0, p1, n1, p2, n2, context[i], &sink, shift)
            addAmountFeatures(t0, at(previousWord), at(nextWord[i]), context[i], &sink, shift)
            addPairFeatures(t0, &sink, shift)
            addStructureFeatures(t0, context[i], &sink, shift)
            sink.endToken()
        }
    }

    /// The word, shape, affix, lexicon-class, position and segment features of token `i` of `n`.
    @inline(__always) static func addTokenFeatures<S: Sink>(_ i: Int, _ n: Int, _ t0: TokenInfo, _ p1: TokenInfo,
                                                            _ n1: TokenInfo, _ p2: TokenInfo, _ n2: TokenInfo,
                                                            _ ctx: Context, _ m: inout S, _ shift: UInt64) {
        @inline(__always) func add(_ template: UInt64, _ value: UInt64) {
            m.add(Int32(truncatingIfNeeded: mix(template, value) >> shift))
        }
        add(1, 0)
        add(2, t0.word); add(3, p1.word); add(4, n1.word); add(5, p2.word); add(6, n2.word)
        add(7, mix(p1.word, t0.word)); add(8, mix(t0.word, n1.word))
        add(9, t0.shape); add(10, p1.shape); add(11, n1.shape)
        add(12, mix(p1.shape, t0.shape)); add(13, mix(t0.shape, n1.shape))
        if t0.suffix3 != 0 { add(14, t0.suffix3); add(15, t0.suffix2); add(16, t0.prefix3) }
        addClasses(t0.classes, 100, &m, shift)
        addClasses(p1.classes, 200, &m, shift)
        addClasses(n1.classes, 300, &m, shift)
        addClasses(p2.classes.intersection([.number, .unit, .punct, .numberWord]), 400, &m, shift)
        addClasses(n2.classes.intersection([.number, .unit, .punct, .prepWord]), 500, &m, shift)
        add(20, UInt64(min(i, 6)))
        add(21, UInt64(min(n - 1 - i, 6)))
        add(22, ctx.state)
        add(23, mix(ctx.state, t0.word))
        add(24, mix(ctx.state, t0.shape))
        add(25, ctx.segmentFirst)
        add(26, mix(ctx.segmentFirst, t0.word))
        add(27, ctx.numbersBefore)
        add(28, mix(ctx.numbersBefore, t0.classes.rawValue & 0b1111))
        add(29, mix(p1.word, t0.shape))
        add(30, mix(t0.word, n1.shape))
        add(31, ctx.segmentIndex)
        add(32, mix(ctx.segmentFirst, ctx.state))
        add(33, mix(ctx.segmentPosition, ctx.state))
        add(34, mix(p1.word, n1.word))
        add(35, mix(p2.word, p1.word))
        add(36, mix(ctx.ahead, ctx.state))
        add(37, mix(ctx.ahead, t0.word))
        add(38, mix(ctx.segmentPosition, t0.word))
    }

    /// Features from the word classes learnt on unlabelled text (``WordClasses``: fine and coarse clusters of the
    /// token and its neighbours, the token's position profile), a few wider word conjunctions, and whether an
    /// alternative or added amount has begun ("or 1 tsp …").
    @inline(__always) static func addWordClassFeatures<S: Sink>(_ t0: TokenInfo, _ p1: TokenInfo, _ n1: TokenInfo,
                                                                _ p2: TokenInfo, _ n2: TokenInfo, _ ctx: Context,
                                                                _ m: inout S, _ shift: UInt64) {
        @inline(__always) func add(_ template: UInt64, _ value: UInt64) {
            m.add(Int32(truncatingIfNeeded: mix(template, value) >> shift))
        }
        let unknown = t0.wordClass == unknownWordClass
        let c0 = UInt64(t0.wordClass >> 8 & 0xFF), cp = UInt64(p1.wordClass >> 8 & 0xFF), cn = UInt64(n1.wordClass >> 8 & 0xFF)
        add(40, unknown ? 0x1FF : UInt64(t0.wordClass & 0xFF)); add(41, c0)
        add(42, UInt64(p1.wordClass & 0xFF)); add(43, UInt64(n1.wordClass & 0xFF))
        add(44, mix(cp, c0)); add(45, mix(c0, cn)); add(46, mix(ctx.state, c0))
        let profile = UInt64(t0.wordClass >> 16)
        for k in 0..<5 { add(50 + UInt64(k), profile >> (3 * UInt64(k)) & 7) }
        add(56, mix(profile, ctx.state & 4))
        add(57, UInt64(n1.wordClass >> 16))
        add(60, mix(ctx.alternative, c0)); add(61, mix(ctx.alternative, ctx.state))
        add(62, mix(ctx.alternative, t0.word)); add(63, mix(ctx.alternative, t0.classes.rawValue & 0b1111))
        add(70, UInt64(p2.wordClass >> 8 & 0xFF)); add(71, UInt64(n2.wordClass >> 8 & 0xFF))
        add(72, UInt64(p1.wordClass >> 16)); add(73, mix(ctx.segmentPosition, c0))
        add(74, mix(t0.word, n2.word)); add(75, mix(p2.word, t0.word))
        add(76, mix(mix(p1.word, t0.word), n1.word))
    }

    /// Features of feature set 3: the neighbouring words across punctuation ("50g/1½oz chunks": "oz" before
    /// "chunks"), where the token stands to the latest amount (``Context/amount``), a 4-letter suffix of long words.
    @inline(__always) static func addAmountFeatures<S: Sink>(_ t0: TokenInfo, _ pw: TokenInfo, _ nw: TokenInfo,
                                                             _ ctx: Context, _ m: inout S, _ shift: UInt64) {
        @inline(__always) func add(_ template: UInt64, _ value: UInt64) {
            m.add(Int32(truncatingIfNeeded: mix(template, value) >> shift))
        }
        let amountClasses: Classes = [.number, .unit, .countUnit, .size, .numberWord, .approx]
        add(80, mix(pw.word, t0.word)); add(81, mix(t0.word, nw.word))
        add(82, mix(pw.classes.intersection(amountClasses).rawValue, t0.word))
        add(83, mix(t0.classes.intersection(amountClasses).rawValue, nw.classes.intersection(amountClasses).rawValue))
        add(84, ctx.amount); add(85, mix(ctx.amount, t0.word))
        add(86, mix(ctx.amount, t0.classes.intersection(amountClasses).rawValue))
        add(87, mix(ctx.amount, UInt64(t0.wordClass >> 8 & 0xFF)))
        if t0.suffix4 != 0 { add(88, t0.suffix4) }
    }

    /// Features of feature set 5: where the token's amount classes stand in the sentence's structure — how many
    /// words that are not amount words came before it (an amount after the name is mostly a comment, one right
    /// after the first amount a unit: "1½ cups strawberries (about 1 pint …)" vs "1 cup (8 ounces) water"), what
    /// the word before the open parenthesis the token is in was (a number, a unit word, another word: "1 (8 ounce)
    /// package", "1 cup (8 ounces)", "berries (about 1 pint)"), and the amount classes with the parenthesis/comma
    /// state conjoined with the previous word's label.
    @inline(__always) static func addStructureFeatures<S: Sink>(_ t0: TokenInfo, _ ctx: Context, _ m: inout S, _ shift: UInt64) {
        @inline(__always) func add(_ template: UInt64, _ value: UInt64) {
            m.add(Int32(truncatingIfNeeded: mix(template, value) >> shift))
        }
        let amount = t0.classes.intersection(amountFeatureClasses).rawValue
        add(600, mix(ctx.wordsBefore, amount))
        add(601, mix(mix(ctx.wordsBefore, ctx.state), amount))
        add(602, mix(ctx.parenOpener, amount))
        add(603, mix(ctx.parenOpener, t0.word))
        add(604, mix(mix(ctx.parenOpener, ctx.wordsBefore), amount))
        add(605, mix(ctx.wordsBefore, t0.word))
        let key = mix(92, mix(amount, ctx.state))
        var b = PairBuckets.zero
        for p in 0..<pairSlots { b[p] = Int32(truncatingIfNeeded: mix(key, UInt64(p)) >> shift) }
        m.addPair(b)
    }

    static let amountFeatureClasses: Classes = [.number, .unit, .countUnit, .size, .numberWord, .approx]

    /// Features conjoined with the previous word's label (feature set 4): the word, and its fine word class.
    @inline(__always) static func addPairFeatures<S: Sink>(_ t0: TokenInfo, _ m: inout S, _ shift: UInt64) {
        @inline(__always) func pair(_ template: UInt64, _ value: UInt64) {
            let key = mix(template, value)
            var b = PairBuckets.zero
            for p in 0..<pairSlots { b[p] = Int32(truncatingIfNeeded: mix(key, UInt64(p)) >> shift) }
            m.addPair(b)
        }
        pair(90, t0.word)
        pair(91, UInt64(t0.wordClass & 0xFF))
    }

    @inline(__always) static func addClasses<S: Sink>(_ c: Classes, _ base: UInt64, _ m: inout S, _ shift: UInt64) {
        var bits = c.rawValue
        while bits != 0 {
            let b = UInt64(bits.trailingZeroBitCount)
            m.add(Int32(truncatingIfNeeded: mix(base + b, 0x51) >> shift))
            bits &= bits - 1
        }
    }

    /// Where a token sits in the sentence's comma/parenthesis structure.
    struct Context {
        /// Parenthesis depth (0/1) × 4 + commas before (0–3).
        var state: UInt64
        /// Hash of the first word of the token's segment (text since the last comma, parenthesis or semicolon).
        var segmentFirst: UInt64
        /// Number tokens before this one (0–2).
        var numbersBefore: UInt64
        /// Index of the segment (0–3).
        var segmentIndex: UInt64
        /// Words since the segment began (0–3).
        var segmentPosition: UInt64 = 0
        /// What follows: a comma later (bit 0), an opening parenthesis later (bit 1), a number later (bit 2).
        var ahead: UInt64 = 0
        /// 1 once an alternative or added amount has begun ("or 2 tsp", "plus 1 tbsp", "/ 1 tsp" after a unit).
        var alternative: UInt64 = 0
        /// Where the token stands to the latest amount: no number yet (0), a number not yet followed by a unit
        /// word (1), a number and a unit (2); × 4, plus the words since that number (0–3).
        var amount: UInt64 = 0
        /// Words before this token that are not amount words (numbers, units, sizes, number words,
        /// approximations), 0–3.
        var wordsBefore: UInt64 = 0
        /// What the word before the open parenthesis the token is in was: not in parentheses (0), a number (1), a
        /// unit word (2), another word (3), nothing (4).
        var parenOpener: UInt64 = 0
    }

    /// The segment context of every token, with the lexicon alone (tests).
    static func segmentContext(_ tokens: [Token]) -> [Context] {
        segmentContext(tokens, tokens.map { info($0, .lexiconOnly) })
    }

    /// The one-byte text of a punctuation token, or 0.
    @inline(__always) static func punctByte(_ t: Token) -> UInt8 {
        t.kind == .punct && t.text.utf8.count == 1 ? t.text.utf8.first! : 0
    }

    static func segmentContext(_ tokens: [Token], _ infos: [TokenInfo]) -> [Context] {
        var out: [Context] = []
        out.reserveCapacity(tokens.count)
        var depth = 0, commas = 0, numbers = 0, segments = 0, position = 0
        var first: UInt64 = segmentStart
        var needFirst = true
        for (k, t) in tokens.enumerated() {
            if t.kind == .punct {
                switch punctByte(t) {
                case UInt8(ascii: "("), UInt8(ascii: "["): depth += 1; segments += 1; needFirst = true
                case UInt8(ascii: ")"), UInt8(ascii: "]"): depth = max(0, depth - 1); segments += 1; needFirst = true
                case UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"): commas += 1; segments += 1; needFirst = true
                default: break
                }
            } else if needFirst {
                first = infos[k].word
                needFirst = false
            }
            out.append(Context(state: UInt64(min(depth, 1) * 4 + min(commas, 3)), segmentFirst: first,
                               numbersBefore: UInt64(min(numbers, 2)), segmentIndex: UInt64(min(segments, 3)),
                               segmentPosition: UInt64(min(position, 3))))
            if t.kind == .number { numbers += 1 }
            if t.kind == .punct { if needFirst { position = 0 } } else { position += 1 }
        }
        markAlternatives(tokens, infos, &out)
        markAmounts(tokens, infos, &out)
        markStructure(tokens, infos, &out)
        var ahead: UInt64 = 0
        for k in stride(from: tokens.count - 1, through: 0, by: -1) {
            out[k].ahead = ahead
            let t = tokens[k]
            let b = punctByte(t)
            if t.kind == .number { ahead |= 4 } else if b == UInt8(ascii: ",") || b == UInt8(ascii: ";") { ahead |= 1 } else if b == UInt8(ascii: "(") { ahead |= 2 }
        }
        return out
    }

    /// Fills ``Context/amount``.
    static func markAmounts(_ tokens: [Token], _ infos: [TokenInfo], _ out: inout [Context]) {
        var state: UInt64 = 0, words: UInt64 = 0
        for k in tokens.indices {
            out[k].amount = state * 4 + min(words, 3)
            if tokens[k].kind == .number {
                state = 1; words = 0
            } else if tokens[k].kind == .word {
                if state == 1, infos[k].classes.contains(.unit) { state = 2 }
                words += 1
            }
        }
    }

    /// Fills ``Context/wordsBefore`` and ``Context/parenOpener``.
    static func markStructure(_ tokens: [Token], _ infos: [TokenInfo], _ out: inout [Context]) {
        var words: UInt64 = 0, opener: UInt64 = 0, depth = 0
        var previousWord = -1
        for k in tokens.indices {
            let t = tokens[k]
            if t.kind == .punct {
                switch punctByte(t) {
                case UInt8(ascii: "("), UInt8(ascii: "["):
                    if depth == 0 {
                        if previousWord < 0 { opener = 4 } else {
                            let c = infos[previousWord].classes
                            opener = c.contains(.number) ? 1 : c.contains(.unit) ? 2 : 3
                        }
                    }
                    depth += 1
                case UInt8(ascii: ")"), UInt8(ascii: "]"):
                    depth = max(0, depth - 1)
                    if depth == 0 { opener = 0 }
                default: break
                }
            }
            out[k].wordsBefore = min(words, 3)
            out[k].parenOpener = opener
            if t.kind != .punct {
                if infos[k].classes.intersection(amountFeatureClasses).isEmpty { words += 1 }
                previousWord = k
            }
        }
    }

    static let segmentStart = fnv("<seg>")
    static let alternativeWords: Set<UInt64> = [fnv("or"), fnv("plus"), fnv("/")]

    /// From the first number after "or", "plus" or "/" that follows an earlier amount (a number or a unit word)
    /// on, every token is in an alternative or added amount.
    static func markAlternatives(_ tokens: [Token], _ infos: [TokenInfo], _ out: inout [Context]) {
        var alternative: UInt64 = 0
        var amountBefore = false
        for k in tokens.indices {
            if alternative == 0, tokens[k].kind == .number, k > 0, amountBefore, alternativeWords.contains(infos[k - 1].word) {
                alternative = 1
            }
            out[k].alternative = alternative
            if tokens[k].kind == .number || infos[k].lexiconUnit { amountBefore = true }
        }
    }
}
