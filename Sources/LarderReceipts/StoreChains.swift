import Foundation

/// A gazetteer of retail and restaurant chains, written from general knowledge (not from any data set's labels):
/// when a receipt's header is a logo OCR cannot read, the chain still names itself elsewhere — its web address
/// ("chilis.com"), its loyalty programme ("ExtraCare Card"), a coupon ("Valid at participating McDonald's"), a
/// second header line ("Steak 'n Shake No:11") or the rest of its full name ("DRESS FOR LESS" under the ROSS
/// logo). Matched on letters and digits in lower case, whole words for short names, one OCR slip allowed in long
/// ones ("chick~fi]-a.com").
enum StoreChains {
    /// One chain: the name shown for it, and the keys (letters and digits, lower case) it is recognised by.
    struct Chain: Sendable, Equatable {
        let name: String
        /// Names, other spellings and loyalty programmes, as keys.
        let keys: [String]
        /// Its web domains' names ("walmart" of walmart.com).
        let domains: [String]
        /// Keys of the rest of a full name of four words or more after its first word, which a line prints under a
        /// logo it cannot read ("dressforless" of Ross Dress for Less).
        let restsOfName: [String]
        /// For each key of 9 characters or more, its bytes and halves, for the one-slip match.
        let probes: [Probe?]

        init(name: String, keys: [String], domains: [String], restsOfName: [String]) {
            (self.name, self.keys, self.domains, self.restsOfName) = (name, keys, domains, restsOfName)
            probes = keys.map { k in
                k.count >= 9 ? Probe(bytes: Array(k.utf8), head: String(k.prefix(k.count / 2)), tail: String(k.suffix(k.count - k.count / 2))) : nil
            }
        }
    }

    struct Probe: Sendable, Equatable {
        let bytes: [UInt8]
        let head: String
        let tail: String
    }

    /// `Canonical | other name | domain | programme …` — one chain a line; a name with a dot and no space is a web
    /// domain. Chains named by a common word or a person's name ("Target", "Staples", "Lawson") are marked `~`:
    /// shown, but recognised only by their other names and domains; others ("Giant", "Next", "Real", "Netto",
    /// "Express") only in a form that is no everyday word ("Giant Eagle", "Netto Marken-Discount").
    static let table = """
    Walmart | Wal-Mart | Walmart Supercenter | walmart.com
    ~Target | target.com | Target Circle | SuperTarget
    Costco | Costco Wholesale | costco.com
    Sam's Club | samsclub
    Kroger | kroger.com | Kroger Plus
    Safeway | safeway.com | Safeway Club Card
    Albertsons | albertsons.com
    Publix | publix.com
    Trader Joe's | traderjoes
    Whole Foods Market | Whole Foods | wholefoodsmarket
    Aldi | aldi.com | Aldi Sud | Aldi Nord
    Lidl | lidl.de | lidl.com | Lidl Plus
    H-E-B | heb.com
    Meijer | meijer.com | mPerks
    Wegmans | wegmans.com
    Food Lion | foodlion
    Giant Eagle | gianteagle
    Stop & Shop | stopandshop
    ShopRite | shoprite.com
    Hy-Vee | hyvee
    WinCo Foods | WinCo
    Winn-Dixie | winndixie
    Harris Teeter | harristeeter
    Sprouts Farmers Market | sprouts.com
    Fred Meyer | fredmeyer
    Ralphs | ralphs.com
    Vons | vons.com
    King Soopers | kingsoopers
    Piggly Wiggly | pigglywiggly
    Save Mart | savemart
    Food 4 Less | food4less
    Stater Bros | staterbros
    Raley's | raleys.com
    Market Basket | shopmarketbasket
    Hannaford | hannaford.com
    Shaw's | shaws.com
    Jewel-Osco | jewelosco
    Acme Markets | acmemarkets
    Smart & Final | smartandfinal
    Grocery Outlet | groceryoutlet
    Fresh Market | thefreshmarket
    99 Ranch Market | 99ranch
    H Mart | hmart.com
    Wawa | wawa.com
    Sheetz | sheetz.com
    QuikTrip | quiktrip
    Circle K | circlek
    7-Eleven | 7eleven | seven eleven
    ~Speedway | speedway.com
    Casey's General Store | caseys.com
    Chevron | chevron.com | chevrontexaco
    ExxonMobil | Exxon | exxon.com
    ~Mobil | mobil.com
    Texaco | texaco.com
    Valero | valero.com
    Sunoco | sunoco.com
    Citgo | citgo.com
    Phillips 66 | phillips66
    ARCO | ampm
    Caltex | caltex.com
    Esso | esso.com
    Shell | shell.com | Shell Select
    Aral | aral.de
    Walgreens | walgreens.com | Balance Rewards | myWalgreens
    CVS Pharmacy | CVS/pharmacy | cvs.com | ExtraCare | Extra Care
    Rite Aid | riteaid | wellness+ rewards
    Duane Reade | duanereade
    The Home Depot | Home Depot | homedepot
    Lowe's | lowes.com
    Best Buy | bestbuy
    ~Staples | staples.com
    Office Depot | officedepot | OfficeMax
    Barnes & Noble | barnesandnoble
    Macy's | macys.com
    Kohl's | kohls.com
    JCPenney | jcpenney | jcp.com
    Nordstrom | nordstrom.com
    TJ Maxx | tjmaxx
    Marshalls | marshalls.com | marshallsonline
    HomeGoods | homegoods
    Ross Dress for Less | rossstores | Ross Stores
    Burlington Coat Factory | burlington.com
    Old Navy | oldnavy
    Banana Republic | bananarepublic
    Dollar Tree | dollartree
    Dollar General | dollargeneral
    Family Dollar | familydollar
    Five Below | fivebelow
    Big Lots | biglots
    Bed Bath & Beyond | bedbathandbeyond
    ~Michaels | michaels.com
    Hobby Lobby | hobbylobby
    PetSmart | petsmart
    Petco | petco.com
    Ulta Beauty | ulta.com
    Sephora | sephora
    Bath & Body Works | bathandbodyworks
    Victoria's Secret | victoriassecret
    Foot Locker | footlocker
    Dick's Sporting Goods | dickssportinggoods
    GameStop | gamestop
    Build-A-Bear Workshop | buildabear
    Urban Outfitters | urbanoutfitters
    American Eagle | ae.com
    Forever 21 | forever21
    IKEA | ikea.com | IKEA Family
    ~H&M | hm.com
    Zara | zara.com
    Uniqlo | uniqlo
    Primark | primark
    Cotton On | cottonon
    Kmart | kmart.com
    Woolworths | woolworths.com | Everyday Rewards
    Coles | coles.com | Flybuys
    Bunnings | bunnings
    JB Hi-Fi | jbhifi
    Tesco | tesco.com | Clubcard
    Sainsbury's | sainsburys | Nectar
    Asda | asda.com
    Morrisons | morrisons
    Waitrose | waitrose
    Marks & Spencer | marksandspencer
    Boots | boots.com | Advantage Card
    Superdrug | superdrug
    Argos | argos.co
    Currys | currys
    WHSmith | whsmith
    Greggs | greggs
    Pret A Manger | pret.com
    Costa Coffee | costa.co
    Caffe Nero | caffenero
    Carrefour | carrefour
    Auchan | auchan
    E Leclerc | Leclerc
    Intermarche | intermarche
    Monoprix | monoprix
    Franprix | franprix
    ~Dia | Distribuidora Internacional de Alimentacion
    Mercadona | mercadona
    Eroski | eroski
    El Corte Ingles | elcorteingles
    Esselunga | esselunga
    Albert Heijn | ah.nl
    HEMA | hema.nl
    Kruidvat | kruidvat
    Delhaize | delhaize
    Colruyt | colruyt
    Edeka | edeka.de
    Rewe | rewe.de
    Netto Marken-Discount | netto-online
    Penny Markt | penny.de
    Kaufland | kaufland
    Marktkauf | marktkauf
    dm-drogerie markt | dm.de | dm-drogerie
    Rossmann | rossmann.de
    Muller Drogerie | mueller.de
    Budni | budni
    Tegut | tegut
    Alnatura | alnatura
    OBI | obi.de
    Hornbach | hornbach
    Bauhaus | bauhaus.info
    toom Baumarkt | toom.de
    Hagebaumarkt | hagebau
    MediaMarkt | mediamarkt
    Tchibo | tchibo
    Deichmann | deichmann
    Billa | billa.at
    Hofer | hofer.at
    Migros | migros
    Denner | denner
    Biedronka | biedronka
    AEON | aeonretail | AEON Big
    Mydin | mydin
    99 Speedmart | 99speedmart
    FamilyMart | familymart
    ~Lawson | lawson.jp
    Watsons | watsons
    MR DIY | mrdiy
    Jaya Grocer | jayagrocer
    Village Grocer | villagegrocer
    Cold Storage | coldstorage
    NTUC FairPrice | fairprice
    Sheng Siong | shengsiong
    Big C | bigc.co
    Spinneys | spinneys
    Lulu Hypermarket | luluhypermarket
    Choithrams | choithrams
    Reliance Fresh | reliancefresh
    DMart | dmart.in
    Loblaws | loblaws
    No Frills | nofrills
    Sobeys | sobeys
    Shoppers Drug Mart | shoppersdrugmart
    Canadian Tire | canadiantire
    Oxxo | oxxo.com
    Soriana | soriana
    Chedraui | chedraui
    Bodega Aurrera | bodegaaurrera
    McDonald's | mcdonalds | McCafe
    Burger King | burgerking | bk.com
    Wendy's | wendys
    Taco Bell | tacobell
    KFC | kfc.com | Kentucky Fried Chicken
    Chipotle | chipotle.com | Chipotle Mexican Grill
    Five Guys | fiveguys
    Shake Shack | shakeshack
    In-N-Out Burger | innout
    Panda Express | pandaexpress
    Domino's | dominos
    Pizza Hut | pizzahut
    Papa John's | papajohns
    Little Caesars | littlecaesars
    Arby's | arbys
    Sonic Drive-In | sonicdrivein
    Jack in the Box | jackinthebox
    Carl's Jr | carlsjr
    Hardee's | hardees
    Popeyes | popeyes
    Chick-fil-A | chickfila
    Culver's | culvers
    Whataburger | whataburger
    Dairy Queen | dairyqueen
    Steak 'n Shake | steaknshake
    White Castle | whitecastle
    Krispy Kreme | krispykreme
    Dunkin' | dunkindonuts | dunkin.com
    Starbucks | starbucks.com | Starbucks Rewards
    Tim Hortons | timhortons
    Peet's Coffee | peets.com
    Baskin-Robbins | baskinrobbins
    Cold Stone Creamery | coldstone
    Auntie Anne's | auntieannes
    Cinnabon | cinnabon
    Wingstop | wingstop
    Zaxby's | zaxbys
    Bojangles | bojangles
    Raising Cane's | raisingcanes
    El Pollo Loco | elpolloloco
    Del Taco | deltaco
    Qdoba | qdoba
    Moe's Southwest Grill | moes.com
    Jimmy John's | jimmyjohns
    Jersey Mike's | jerseymikes
    Firehouse Subs | firehousesubs
    Subway | subway.com
    Panera Bread | panerabread | MyPanera
    Noodles & Company | noodles.com
    Denny's | dennys
    IHOP | ihop.com
    Applebee's | applebees
    Chili's | chilis | Chili's Grill & Bar
    Olive Garden | olivegarden
    Red Lobster | redlobster
    Outback Steakhouse | outback.com
    TGI Fridays | tgifridays
    Buffalo Wild Wings | buffalowildwings
    Cracker Barrel | crackerbarrel
    The Cheesecake Factory | cheesecakefactory
    P.F. Chang's | pfchangs
    Benihana | benihana
    Red Robin | redrobin
    Ruby Tuesday | rubytuesday
    Texas Roadhouse | texasroadhouse
    LongHorn Steakhouse | longhornsteakhouse
    Hooters | hooters.com
    California Pizza Kitchen | cpk.com
    Nando's | nandos
    Wagamama | wagamama
    PizzaExpress | pizzaexpress
    Zizzi | zizzi
    Vapiano | vapiano
    Itsu | itsu.com
    YO! Sushi | yosushi
    Din Tai Fung | dintaifung
    Jollibee | jollibee
    MOS Burger | mosburger
    Yoshinoya | yoshinoya
    Ippudo | ippudo
    Hard Rock Cafe | hardrock
    Rainforest Cafe | rainforestcafe
    """

    /// The gazetteer, parsed once.
    static let chains: [Chain] = table.split(separator: "\n").compactMap { row in
        let names = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard let first = names.first else { return nil }
        let shownOnly = first.hasPrefix("~")
        let name = shownOnly ? String(first.dropFirst()) : first
        let isDomain = { (n: String) in n.contains(".") && !n.contains(" ") }
        let spelled = (shownOnly ? Array(names.dropFirst()) : [name] + names.dropFirst()).filter { !isDomain($0) }
        let domains = names.filter(isDomain).map { StoreEvidence.key(String($0.prefix { $0 != "." })) }
        let rests = spelled.filter { $0.split(separator: " ").count >= 4 }.map { $0.split(separator: " ").dropFirst() }
            .filter { rest in !rest.contains { ReceiptParser.placeWords.contains($0.uppercased()) || ReceiptParser.storeWords.contains($0.uppercased()) } }
            .map { StoreEvidence.key($0.joined(separator: " ")) }
        return Chain(name: name, keys: spelled.map(StoreEvidence.key).filter { $0.count >= 3 }, domains: domains,
                     restsOfName: rests)
    }

    /// The chain a line names, if any (the first in the table): by its web domain ("chilis.com"; one OCR slip
    /// allowed from 8 letters on: "cottoron,con"), a long key (6+ characters) anywhere in the line's letters and digits, one slip
    /// allowed from 9 characters on ("chick~fi]-a"), a short key ("cvs", "kfc", "ikea") only as whole words of the
    /// line. Candidates come from an index of the keys' first four bytes, so a line costs a few look-ups, not one
    /// search per chain.
    static func chain(in text: String) -> Chain? {
        let key = StoreEvidence.key(text)
        guard key.count >= 3 else { return nil }
        let hay = Array(key.utf8)
        var best = Int.max
        if hay.count >= 4 {
            var candidates = Set<Int>()
            for p in 0...(hay.count - 4) { candidates.formUnion(Lookup.shared.byGram[gram(hay, p)] ?? []) }
            for c in candidates.sorted() where matchesLong(chains[c], key: key, hay: hay) {
                best = c
                break
            }
        }
        let words = wordKeys(text)
        for start in words.indices {
            var joined = ""
            for w in words[start..<min(words.count, start + 3)] {
                joined += w
                if let c = Lookup.shared.byShortKey[joined] { best = min(best, c) }
            }
        }
        if let domain = StoreEvidence.domainName(text) {
            let bytes = Array(domain.utf8)
            // Its domains, or one slip from a name of 8 letters or more the domain spells ("cottoron" for cottonon).
            for (i, chain) in chains.enumerated() where i < best && (chain.domains.contains(where: { $0 == domain
                || ($0.count >= 5 && domain.hasPrefix($0)) || ($0.count >= 8 && approximatelyContains(bytes, Array($0.utf8))) })
                || chain.keys.contains(where: { $0.count >= 8 && abs($0.count - bytes.count) <= 1 && approximatelyContains(bytes, Array($0.utf8)) })) {
                best = i
                break
            }
        }
        return best == Int.max ? nil : chains[best]
    }

    /// A long key of the chain in the line, or one slip from it (one slip leaves a half of the key whole: the half
    /// is looked for before the edit distance).
    private static func matchesLong(_ chain: Chain, key: String, hay: [UInt8]) -> Bool {
        for (k, probe) in zip(chain.keys, chain.probes) where k.count >= 6 {
            if key.contains(k) || endsWithTruncated(key, k) { return true }
            if let probe, key.contains(probe.head) || key.contains(probe.tail), approximatelyContains(hay, probe.bytes) {
                return true
            }
        }
        return false
    }

    /// Whether the line ends with a long key (20 characters or more) cut at the paper's edge, three quarters of it
    /// or more: "DISTRIBUIDORA INTERNACIONAL DE ALIMENTAC".
    private static func endsWithTruncated(_ key: String, _ k: String) -> Bool {
        guard k.count >= 20 else { return false }
        for length in stride(from: k.count - 1, through: k.count * 3 / 4, by: -1) where key.hasSuffix(k.prefix(length)) {
            return true
        }
        return false
    }

    /// Four bytes from `p` as one number.
    private static func gram(_ bytes: [UInt8], _ p: Int) -> UInt32 {
        UInt32(bytes[p]) << 24 | UInt32(bytes[p + 1]) << 16 | UInt32(bytes[p + 2]) << 8 | UInt32(bytes[p + 3])
    }

    /// The gazetteer's keys indexed: chains by the first four bytes of each long key and of each half a one-slip
    /// match keeps whole; the first chain of each short key.
    private struct Lookup {
        static let shared = Lookup()
        var byGram: [UInt32: [Int]] = [:]
        var byShortKey: [String: Int] = [:]

        init() {
            for (c, chain) in StoreChains.chains.enumerated() {
                for (k, probe) in zip(chain.keys, chain.probes) {
                    if k.count < 6 {
                        if byShortKey[k] == nil { byShortKey[k] = c }
                        continue
                    }
                    var starts = [Array(k.utf8)]
                    if let probe { starts += [Array(probe.head.utf8), Array(probe.tail.utf8)] }
                    for b in starts where b.count >= 4 { byGram[StoreChains.gram(b, 0), default: []].append(c) }
                }
            }
        }
    }

    /// The chain whose full name the line is the rest of, after the first word (the logo): "DRESS FOR LESS". The
    /// rest holds no store or place word ("FRIED CHICKEN", "FARMERS MARKET" are no chain's).
    static func chainByRestOfName(_ text: String) -> Chain? {
        let key = StoreEvidence.key(text)
        guard key.count >= 8 else { return nil }
        return chains.first { $0.restsOfName.contains(key) }
    }

    /// The line's words as keys, with runs of adjacent words joined ("CVS / pharmacy" → "cvs", "cvspharmacy").
    private static func wordKeys(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "/" || $0 == "," || $0 == ":" || $0 == "|" || $0 == "#" })
            .map { StoreEvidence.key(String($0)) }.filter { !$0.isEmpty }
    }

    /// Whether `needle` occurs in `hay` with at most one letter replaced, dropped or added (Sellers' algorithm).
    static func approximatelyContains(_ hay: [UInt8], _ needle: [UInt8]) -> Bool {
        let m = needle.count
        guard m > 0, hay.count + 1 >= m else { return false }
        var previous = Array(0...m)
        var current = [Int](repeating: 0, count: m + 1)
        for c in hay {
            current[0] = 0
            for j in 1...m {
                let cost = needle[j - 1] == c ? 0 : 1
                current[j] = min(previous[j - 1] + cost, previous[j] + 1, current[j - 1] + 1)
            }
            if current[m] <= 1 { return true }
            swap(&previous, &current)
        }
        return false
    }
}
