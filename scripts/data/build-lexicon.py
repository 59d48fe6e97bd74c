#!/usr/bin/env python3
"""Builds Sources/LarderReceipts/Resources/lexicon.tsv, the food lexicon IngredientNormalizer matches against.

Usage: python3 scripts/data/build-lexicon.py [LEXICONS_DIR]
  LEXICONS_DIR defaults to $LARDER_SHARED_DATA/lexicons or the first shared/data/lexicons found walking up.

Inputs (see LEXICONS_DIR/README.md):
  fdc_ingredients.csv                      USDA FoodData Central descriptions (public domain / CC0)
  off_ingredients_taxonomy.en.derived.csv  Open Food Facts ingredients taxonomy, English names (ODbL)
plus the CURATED list below (written for this package).

Output: one line per term, tab-separated, sorted, lower case:
  term <TAB> base <TAB> category <TAB> source <TAB> parent <TAB> vegan <TAB> vegetarian
  source is "off:<id>", "fdc:<fdc_id>", "curated" or "form:<term>". Lines starting with '#' are comments.
  parent, vegan and vegetarian may be empty (readers of the first four columns are unaffected).

Rules:
  * OFF: every English name of 1-4 alphabetic words. The base ingredient is the nearest ancestor whose name
    is a word-suffix of the term ("baby spinach" -> "spinach", "extra virgin olive oil" -> "olive oil"),
    else the term itself. Category = the top-most ancestor's name.
  * FDC: the first comma-separated segment of each description when it is 1-3 alphabetic words and not a
    brand ("Spinach, raw" -> "spinach"), and "<second> <first>" pairs for two-segment heads
    ("Beans, kidney" -> "kidney beans", "Oil, olive" -> "olive oil"; for Spices/Nuts/Seeds the second
    segment alone). For fruit/vegetable variety heads (apples, onions, …) the base is the head's base
    ("gala apples" -> "apple"). Category = the FDC food category. Terms already given by OFF or CURATED keep theirs.
  * CURATED entries win over both.
  * Parents (the same food in another form, so a recipe's "ground cumin" meets a pantry's "cumin seeds"):
    an OFF parent whose name's words are all in the term ("garlic powder" -> garlic), else the term with its
    form words (ground, seeds, powder, leaves, flakes, sticks, pods) removed ("cumin seeds" -> cumin), for the
    SEASONINGS only. A remainder that is no term yet is added as one (source "form:<term>"), so "cumin" exists.
  * vegan / vegetarian: Open Food Facts' flags (yes, no, maybe) from off_ingredients_taxonomy.json, inherited from
    the nearest ancestor that has one; empty when OFF says nothing or the term is not from OFF.
"""
import csv, json, os, re, sys
from collections import OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "Sources", "LarderReceipts", "Resources", "lexicon.tsv")

# Common grocery products the two sources miss or map to a base we don't want.
CURATED = [
    ("coffee beans", "coffee", "beverages"), ("coffee", "coffee", "beverages"),
    ("ground coffee", "coffee", "beverages"), ("almond butter", "almond butter", "nuts"),
    ("cashew butter", "cashew butter", "nuts"), ("peanut butter", "peanut butter", "nuts"),
    ("squash", "squash", "vegetables"), ("rolled oats", "oats", "cereals"), ("oats", "oats", "cereals"), ("oatmeal", "oats", "cereals"),
    ("chicken breast", "chicken breast", "poultry"), ("chicken thighs", "chicken thigh", "poultry"),
    ("chicken thigh", "chicken thigh", "poultry"), ("chicken wings", "chicken wing", "poultry"),
    ("ground beef", "ground beef", "meat"), ("ground turkey", "ground turkey", "poultry"),
    ("whole milk", "milk", "dairy"), ("skim milk", "milk", "dairy"), ("milk", "milk", "dairy"),
    ("eggs", "egg", "eggs"), ("egg", "egg", "eggs"), ("brown eggs", "egg", "eggs"),
    ("sourdough", "sourdough bread", "bakery"), ("sourdough bread", "sourdough bread", "bakery"),
    ("bread", "bread", "bakery"), ("bagel", "bagel", "bakery"), ("bagels", "bagel", "bakery"),
    ("tortillas", "tortilla", "bakery"), ("corn", "corn", "vegetables"), ("sweet corn", "corn", "vegetables"),
    ("golden corn", "corn", "vegetables"), ("spinach", "spinach", "vegetables"),
    ("baby spinach", "spinach", "vegetables"), ("cheddar", "cheddar cheese", "dairy"),
    ("cheddar cheese", "cheddar cheese", "dairy"), ("greek yogurt", "yogurt", "dairy"),
    ("yogurt", "yogurt", "dairy"), ("honey", "honey", "sweeteners"), ("blueberries", "blueberry", "fruits"),
    ("apples", "apple", "fruits"), ("bananas", "banana", "fruits"), ("banana", "banana", "fruits"),
    ("red lentils", "lentils", "legumes"), ("lentils", "lentils", "legumes"),
    ("canned tomatoes", "tomato", "vegetables"), ("tomatoes", "tomato", "vegetables"),
    ("onions", "onion", "vegetables"), ("yellow onions", "onion", "vegetables"), ("garlic", "garlic", "vegetables"),
    ("olive oil", "olive oil", "fats and oils"), ("extra virgin olive oil", "olive oil", "fats and oils"),
    ("cilantro", "cilantro", "herbs"), ("scallions", "scallion", "vegetables"), ("green onions", "scallion", "vegetables"),
    ("bell pepper", "bell pepper", "vegetables"), ("bell peppers", "bell pepper", "vegetables"),
    ("potatoes", "potato", "vegetables"), ("sweet potatoes", "sweet potato", "vegetables"),
    ("carrots", "carrot", "vegetables"), ("broccoli", "broccoli", "vegetables"), ("avocados", "avocado", "fruits"),
    ("lemons", "lemon", "fruits"), ("limes", "lime", "fruits"), ("strawberries", "strawberry", "fruits"),
    ("butter", "butter", "dairy"), ("unsalted butter", "butter", "dairy"), ("salted butter", "butter", "dairy"),
    ("heavy cream", "cream", "dairy"), ("sour cream", "sour cream", "dairy"), ("cream cheese", "cream cheese", "dairy"),
    ("mozzarella", "mozzarella", "dairy"), ("parmesan", "parmesan", "dairy"), ("feta", "feta", "dairy"),
    ("rice", "rice", "cereals"), ("brown rice", "brown rice", "cereals"), ("jasmine rice", "rice", "cereals"),
    ("basmati rice", "rice", "cereals"), ("pasta", "pasta", "cereals"), ("spaghetti", "pasta", "cereals"),
    ("penne", "pasta", "cereals"), ("flour", "flour", "cereals"), ("all purpose flour", "flour", "cereals"),
    ("sugar", "sugar", "sweeteners"), ("brown sugar", "brown sugar", "sweeteners"), ("salt", "salt", "spices"),
    ("black beans", "black beans", "legumes"), ("chickpeas", "chickpeas", "legumes"), ("tofu", "tofu", "legumes"),
    ("salmon", "salmon", "fish"), ("salmon fillet", "salmon", "fish"), ("tuna", "tuna", "fish"),
    ("shrimp", "shrimp", "shellfish"), ("bacon", "bacon", "meat"), ("ham", "ham", "meat"),
    ("pork chops", "pork chop", "meat"), ("steak", "beef steak", "meat"), ("sausage", "sausage", "meat"),
    ("orange juice", "orange juice", "beverages"), ("coconut milk", "coconut milk", "beverages"),
    ("almond milk", "almond milk", "beverages"), ("oat milk", "oat milk", "beverages"),
    ("soy milk", "soy milk", "beverages"), ("soy sauce", "soy sauce", "condiments"),
    ("mayonnaise", "mayonnaise", "condiments"), ("ketchup", "ketchup", "condiments"),
    ("mustard", "mustard", "condiments"), ("vinegar", "vinegar", "condiments"), ("tea", "tea", "beverages"),
    ("mineral water", "water", "beverages"), ("drinking water", "water", "beverages"),
    ("chocolate", "chocolate", "sweets"), ("dark chocolate", "chocolate", "sweets"),
    ("potato chips", "potato chips", "snacks"), ("crackers", "crackers", "snacks"),
    ("instant noodles", "noodles", "cereals"), ("noodles", "noodles", "cereals"), ("mee", "noodles", "cereals"),
    ("oyster sauce", "oyster sauce", "condiments"), ("cooking oil", "vegetable oil", "fats and oils"),
    ("pineapple", "pineapple", "fruits"), ("kiwi", "kiwi", "fruits"), ("grapes", "grape", "fruits"),
    # Recipe wording (larder cook meets recipe ingredients and pantry items on these bases).
    ("stock", "stock", "broth"), ("vegetable stock", "vegetable stock", "broth"), ("beef stock", "beef stock", "broth"),
    ("spring onions", "scallion", "vegetables"), ("spring onion", "scallion", "vegetables"),
]

# FDC first segments that are not foods of their own (babyfood, fast foods, restaurant names, forms).
FDC_SKIP = {"babyfood", "infant formula", "fast foods", "restaurant", "formulated bar", "beverages", "snacks",
            "cereals ready-to-eat", "cereals", "candies", "cookies", "crackers", "soup", "soups", "sauce",
            "meal", "meals", "puddings", "desserts", "frozen novelties", "school lunch", "usda commodity",
            "game meat", "alcoholic beverage", "nutritional supplement", "protein supplement", "dessert"}
PROCESSING = {"raw", "cooked", "canned", "frozen", "dried", "fresh", "boiled", "baked", "roasted", "fried",
              "prepared", "unprepared", "drained", "solids", "mature", "immature", "regular", "commercial",
              "homemade", "all", "ns", "nfs", "with", "without", "unenriched", "enriched", "plain", "dry",
              "whole", "mixed", "imported", "broilers", "fryers", "salted", "unsalted", "sweetened",
              "unsweetened", "low", "reduced", "fat", "nonfat", "lowfat", "made", "from", "includes",
              "composite", "australian", "new", "zealand", "canadian", "separable", "lean", "only", "year",
              "round", "choice", "select", "grades", "trimmed", "variety", "meats", "by-products", "hydrogenated",
              "industrial", "retail", "ready", "to", "eat", "instant", "pasteurized", "stewed", "smoked"}
GENERIC_HEADS = {"spices", "nuts", "seeds", "oil", "fish", "mollusks", "crustaceans", "beans", "peppers",
                 "cheese", "squash", "lettuce", "cabbage", "mushrooms", "peas", "melons", "onions", "tomatoes",
                 "apples", "grapes", "oranges", "plums", "pears", "peaches", "cherries", "rice", "flour",
                 "sugar", "tea", "wheat", "pork", "beef", "chicken", "turkey", "lamb", "veal", "milk", "yogurt",
                 "cream", "butter", "egg", "vinegar", "juice", "syrup", "bread", "pasta", "noodles", "salt"}
# Heads whose FDC pairs are varieties of one ingredient: "Apples, gala" -> "gala apples" with base "apple".
VARIETY_HEADS = {"apples", "grapes", "oranges", "plums", "pears", "peaches", "cherries", "onions", "tomatoes",
                 "melons", "lettuce", "cabbage", "potatoes", "mushrooms", "squash"}
# Words naming a form of a food rather than another food ("ground cumin", "cumin seeds", "bay leaves").
FORM_WORDS = {"ground", "seeds", "seed", "powder", "powdered", "leaves", "leaf", "flakes", "sticks", "stick",
              "pods", "pod"}
# Only seasonings are the same food in another form: "cumin seeds" are cumin, but "pumpkin seeds" are not
# pumpkin and "onion powder" is no onion for a recipe that wants one.
SEASONINGS = {"cumin", "coriander", "fennel", "caraway", "anise", "star anise", "dill",
              "cardamom", "fenugreek", "nigella", "cinnamon", "ginger", "paprika", "turmeric", "nutmeg", "clove",
              "cloves", "allspice", "pepper", "black pepper", "chilli", "bay", "basil", "mint", "parsley",
              "oregano", "thyme", "rosemary", "sage", "tarragon", "marjoram", "curry", "vanilla", "saffron", "sumac",
              "poppy", "sesame", "flax", "chia", "almonds", "hazelnuts"}
WORD = re.compile(r"^[a-z][a-z' -]*[a-z]$")


def find_lexicons_dir():
    if len(sys.argv) > 1:
        return sys.argv[1]
    env = os.environ.get("LARDER_SHARED_DATA")
    if env:
        return os.path.join(env, "lexicons")
    d = HERE
    while d != "/":
        cand = os.path.join(d, "shared", "data", "lexicons")
        if os.path.isdir(cand):
            return cand
        d = os.path.dirname(d)
    sys.exit("lexicons folder not found: pass it as an argument or set LARDER_SHARED_DATA")


def clean(term):
    term = term.lower().strip().replace("\u2019", "'")
    term = re.sub(r"\s+", " ", term)
    return term


def main():
    src = find_lexicons_dir()
    entries = OrderedDict()  # term -> (base, category, source)

    for term, base, cat in CURATED:
        entries[clean(term)] = (clean(base), cat, "curated")

    # Open Food Facts taxonomy.
    rows = list(csv.DictReader(open(os.path.join(src, "off_ingredients_taxonomy.en.derived.csv"), encoding="utf-8")))
    by_id = {r["id"]: r for r in rows}

    def parents(r):
        return [p for p in re.split(r"[;|,]", r["parents"]) if p and p in by_id]

    def top(r, seen=()):
        ps = parents(r)
        if not ps or r["id"] in seen:
            return clean(r["name_en"])
        return top(by_id[ps[0]], seen + (r["id"],))

    def base_of(r, seen=()):
        term = clean(r["name_en"])
        for p in parents(r):
            if p in seen:
                continue
            pname = clean(by_id[p]["name_en"])
            if term != pname and term.endswith(" " + pname):
                return base_of(by_id[p], seen + (r["id"],))
        return term

    for r in rows:
        term = clean(r["name_en"] or "")
        if not term or not WORD.match(term) or len(term.split()) > 4 or term in entries:
            continue
        entries[term] = (base_of(r), top(r), "off:" + r["id"])

    # USDA FoodData Central.
    fdc = list(csv.DictReader(open(os.path.join(src, "fdc_ingredients.csv"), encoding="utf-8")))
    for r in fdc:
        desc = r["description"]
        segs = [s.strip() for s in desc.split(",")]
        head = segs[0]
        if re.search(r"\b[A-Z]{3,}\b", head) or re.search(r"[A-Z][a-z]+'s\b", head):
            continue  # brand names (SILK, Pillsbury's)
        head_l = clean(head)
        if head_l in FDC_SKIP or not WORD.match(head_l) or len(head_l.split()) > 3:
            continue
        if set(head_l.split()) & PROCESSING:
            continue
        cat = r["category"].lower()
        if head_l not in entries:
            entries[head_l] = (head_l, cat, "fdc:" + r["fdc_id"])
        if len(segs) >= 2:
            second = clean(segs[1])
            if WORD.match(second) and len(second.split()) <= 2 and not (set(second.split()) & PROCESSING):
                if head_l in ("spices", "nuts", "seeds") or second.endswith(head_l) or \
                        (head_l.endswith("s") and second.endswith(head_l[:-1])):
                    term = second
                elif head_l in GENERIC_HEADS:
                    term = second + " " + head_l
                else:
                    continue
                if term not in entries and len(term.split()) <= 3:
                    base = term
                    if head_l in VARIETY_HEADS:
                        base = entries[head_l][0] if head_l in entries else head_l
                    entries[term] = (base, cat, "fdc:" + r["fdc_id"])

    parents, flags = relations(src, entries, by_id, parents)

    with open(OUT, "w", encoding="utf-8") as f:
        f.write("# Larder food lexicon: term\tbase\tcategory\tsource. Generated by scripts/build-lexicon.py.\n")
        f.write("# Derived from Open Food Facts (ODbL 1.0) and USDA FoodData Central (public domain). "
                "See LEXICON-LICENSE.md.\n")
        for term in sorted(entries):
            base, cat, source = entries[term]
            vegan, vegetarian = flags.get(term, ("", ""))
            f.write(f"{term}\t{base}\t{cat}\t{source}\t{parents.get(term, '')}\t{vegan}\t{vegetarian}\n")
    print(f"wrote {len(entries)} terms to {os.path.normpath(OUT)} ({os.path.getsize(OUT)} bytes)")


def relations(src, entries, by_id, off_parents):
    """Parents (same food, another form) and OFF vegan/vegetarian flags; adds form remainders as terms."""
    parents = {}
    for term in list(entries):
        base, cat, source = entries[term]
        words = term.split()
        parent = None
        if source.startswith("off:") and source[4:] in by_id:
            for p in off_parents(by_id[source[4:]]):
                pname = clean(by_id[p]["name_en"])
                extra = set(words) - set(pname.split())
                if pname != term and pname in SEASONINGS and set(pname.split()) <= set(words) and extra and extra <= FORM_WORDS:
                    parent = entries[pname][0] if pname in entries else pname
                    break
        if parent is None and set(words) & FORM_WORDS:
            rest = " ".join(w for w in words if w not in FORM_WORDS)
            if rest in SEASONINGS and rest != term:
                if rest not in entries:
                    entries[rest] = (rest, cat, "form:" + term)
                parent = entries[rest][0]
        if parent and parent != base:
            parents[term] = parent

    flags = {}
    path = os.path.join(src, "off_ingredients_taxonomy.json")
    if os.path.exists(path):
        taxonomy = json.load(open(path, encoding="utf-8"))

        def flag(key, name, seen=()):
            node = taxonomy.get(key) or {}
            value = (node.get(name) or {}).get("en")
            if value or key in seen:
                return value or ""
            for p in node.get("parents") or []:
                found = flag(p, name, seen + (key,))
                if found:
                    return found
            return ""

        for term, (base, cat, source) in entries.items():
            if source.startswith("off:"):
                key = source[4:]
                pair = (flag(key, "vegan"), flag(key, "vegetarian"))
                if any(pair):
                    flags[term] = pair
    return parents, flags


if __name__ == "__main__":
    main()
