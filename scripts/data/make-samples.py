#!/usr/bin/python3
"""Writes the committed sample inputs in samples/ (recipes and receipt photos).

Usage:  scripts/data/make-samples.py [--check]

All recipe and receipt text below is original, written for Larder; no
third-party data is used. Output is deterministic: PDF creation/modification
dates are fixed, and the images are rendered with fixed sizes and settings, so
rerunning the script rewrites identical bytes (for a given cairo/Pillow build).

--check additionally runs pdftotext on the PDFs and tesseract on the receipt
images and prints what they read.

Needs Debian's python (python3-cairo, python3-pil); see scripts/setup.sh.
The files it writes name it by its former path, scripts/make-samples.py, so that moving it to scripts/data/ changed no byte
of its output.
"""
import json
import os
import subprocess
import sys

import cairo
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLES = os.path.join(ROOT, "samples")
RECIPES = os.path.join(SAMPLES, "recipes")
RECEIPTS = os.path.join(SAMPLES, "receipts")
LABELS = os.path.join(SAMPLES, "expected", "receipts")

FIXED_DATE = "2026-01-01T00:00:00Z"


from sample_pages import SAVED_PAGES  # noqa: E402  (scripts/ is on sys.path when this script runs)


def write_text(path, text, encoding="utf-8"):
    with open(path, "w", encoding=encoding, newline="\n") as f:
        f.write(text)


# --------------------------------------------------------------------------
# Plain-text and Markdown recipes
# --------------------------------------------------------------------------

# Recipes the demo pantry (samples/receipts) can cook, and one whose diet labels are tricky (eggplant, butternut
# squash, vegetable stock, "butter or margarine"); written for Larder's pantry-to-plate tests.
RED_LENTIL_SOUP = """\
Red Lentil Soup

Serves 4
Prep: 10 mins / Cook: 35 mins
Cuisine: Indian
Course: Main

A weeknight soup from the store cupboard: lentils, a tin of tomatoes and a few spices.

Ingredients
2 tbsp olive oil
1 onion, finely chopped
3 cloves garlic, minced
2 tsp ground cumin
1 cup red lentils, rinsed
400 g chopped tomatoes
4 cups vegetable stock
salt to taste
a small bunch of fresh cilantro, chopped

Method
1. Warm the oil in a large pan over a medium heat and cook the onion for 8 minutes until soft.
2. Stir in the garlic and cumin and cook for 1 minute.
3. Add the lentils, tomatoes and stock. Bring to the boil, then simmer for 25 minutes until the
   lentils collapse.
4. Season with salt, blend half of the soup if you like it smooth, and serve scattered with
   cilantro.
"""

OVERNIGHT_OATS = """\
---
title: Honey Almond Overnight Oats
servings: 2
prep_time: 5 minutes
cuisine: American
course: Breakfast
tags: [breakfast, make-ahead]
---

## Ingredients

- 1 cup rolled oats
- 1 cup milk
- 1/2 cup Greek yogurt
- 2 tbsp honey
- 2 tbsp almond butter
- 1/2 cup blueberries
- 1 apple, grated
- a pinch of ground cinnamon

## Method

1. Stir the oats, milk, yogurt and honey together in a jar.
2. Cover and chill overnight, at least 6 hours.
3. In the morning swirl through the almond butter and top with the blueberries, the grated apple and the cinnamon.
"""

SQUASH_TRAYBAKE = """\
Squash and Aubergine Traybake

Serves 4
Prep: 15 mins / Cook: 45 mins
Cuisine: Mediterranean
Course: Main

Ingredients
1 small butternut squash, peeled and cut into chunks
1 large eggplant, cut into chunks
1 red onion, cut into wedges
2 tbsp butter or margarine, melted
1 tsp cumin seeds
250 ml vegetable stock
400 g canned chickpeas, drained
salt and black pepper

Method
1. Heat the oven to 200°C (400°F).
2. Toss the squash, eggplant and onion with the melted butter or margarine and the cumin seeds in a
   roasting tin.
3. Roast for 30 minutes, then add the chickpeas and stock and roast for 15 minutes more.
4. Season with salt and black pepper and serve.
"""

TOMATO_SOUP = """\
Roasted Tomato Soup

Serves 4
Prep: 10 mins / Cook: 30 mins

A thick, bright soup for the end of summer when tomatoes are cheap.

Ingredients
2 tbsp olive oil
1 large onion, finely chopped
2 cloves garlic, crushed
1 kg ripe tomatoes, halved
1 tsp smoked paprika
1 1/2 cups vegetable stock
1/2 cup single cream (optional)
salt and pepper to taste
a handful of fresh basil leaves

Method
1. Heat the oven to 200°C (400°F). Spread the tomatoes cut side up on a tray,
   drizzle with 1 tbsp of the oil and roast for 20 minutes until soft and
   slightly charred at the edges.
2. Meanwhile warm the remaining oil in a large pan over a medium heat. Add the
   onion and cook for 8 minutes, stirring now and then, until soft and golden.
3. Stir in the garlic and paprika and cook for 1 minute more.
4. Tip in the roasted tomatoes with their juices and the stock. Bring to a
   simmer and cook gently for 10 minutes.
5. Blend until smooth, stir through the cream if using, and season with salt
   and pepper. Serve topped with torn basil.
"""

BANANA_BREAD = """\
Brown Butter Banana Bread

Makes 1 loaf (10 slices)
Prep time: 15 minutes
Bake time: 1 hour

Ingredients:
- 115 g (1/2 cup) unsalted butter
- 3 very ripe bananas, mashed
- 150 g (3/4 cup) light brown sugar
- 2 eggs, at room temperature
- 1 tsp vanilla extract
- 220 g (1 3/4 cups) plain flour
- 1 tsp bicarbonate of soda
- 1/2 tsp fine salt
- 1/2 tsp ground cinnamon
- 75 g (2/3 cup) walnuts, roughly chopped

Directions:
1. Heat the oven to 175°C (350°F) and line a 2 lb loaf tin with baking paper.
2. Melt the butter in a small pan and let it bubble for 3-4 minutes, until it
   smells nutty and flecks of brown appear. Cool for 10 minutes.
3. Whisk the bananas, sugar, eggs and vanilla into the browned butter.
4. In a second bowl combine the flour, bicarbonate of soda, salt and cinnamon.
   Fold the dry mix into the wet mix until just combined, then fold in the
   walnuts.
5. Scrape into the tin and bake for 55-60 minutes, until a skewer pushed into
   the middle comes out clean.
6. Leave in the tin for 15 minutes, then turn out onto a rack to cool fully.

Notes: keeps for 3 days wrapped at room temperature, or freeze in slices.
"""

LEMON_DRIZZLE = """\
---
title: Lemon Drizzle Cake
servings: 8
prep_time: 20 minutes
cook_time: 50 minutes
tags: [baking, cake, lemon, vegetarian]
---

# Lemon Drizzle Cake

A soft loaf cake soaked in sharp lemon syrup, with a crunchy sugar top.

## Ingredients

- 225 g (1 cup) unsalted butter, softened
- 225 g (1 cup + 2 tbsp) caster sugar
- 4 large eggs
- 225 g (1 3/4 cups) self-raising flour
- finely grated zest of 2 lemons
- 2 tbsp milk

For the drizzle:

- juice of 2 lemons
- 85 g (1/3 cup) granulated sugar

## Method

1. Heat the oven and line a 900 g (2 lb) loaf tin with baking paper.
2. Beat the butter and caster sugar together for 3–4 minutes until pale and fluffy.
3. Add the eggs one at a time, beating well after each, then fold in the flour,
   lemon zest and milk.
4. Spoon the batter into the tin and level the top.
5. Bake at 180°C (350°F) for 45–50 minutes, until a skewer comes out clean.
6. While the cake bakes, stir the lemon juice and granulated sugar together for the drizzle.
7. Prick the warm cake all over with a skewer, pour over the drizzle and leave
   in the tin until completely cool, about 1 hour.
"""


# --------------------------------------------------------------------------
# PDF recipes (cairo, real text layer)
# --------------------------------------------------------------------------

A4 = (595.0, 842.0)
MARGIN = 56.0
SANS = "DejaVu Sans"


class PDFDoc:
    """A tiny flowing-text layout helper on top of a cairo PDFSurface."""

    def __init__(self, path, title):
        self.surface = cairo.PDFSurface(path, *A4)
        self.surface.set_metadata(cairo.PDFMetadata.TITLE, title)
        self.surface.set_metadata(cairo.PDFMetadata.AUTHOR, "Larder samples")
        self.surface.set_metadata(cairo.PDFMetadata.CREATOR, "scripts/make-samples.py")
        self.surface.set_metadata(cairo.PDFMetadata.CREATE_DATE, FIXED_DATE)
        self.surface.set_metadata(cairo.PDFMetadata.MOD_DATE, FIXED_DATE)
        self.ctx = cairo.Context(self.surface)
        self.y = MARGIN
        self.pages = 1

    def font(self, size, bold=False):
        self.ctx.select_font_face(SANS, cairo.FONT_SLANT_NORMAL,
                                  cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL)
        self.ctx.set_font_size(size)

    def wrap(self, text, width):
        words, lines, cur = text.split(), [], ""
        for w in words:
            trial = (cur + " " + w).strip()
            if cur and self.ctx.text_extents(trial).x_advance > width:
                lines.append(cur)
                cur = w
            else:
                cur = trial
        if cur:
            lines.append(cur)
        return lines

    def new_page(self):
        self.ctx.show_page()
        self.pages += 1
        self.y = MARGIN

    def line_at(self, x, y, text, size, bold=False):
        self.font(size, bold)
        self.ctx.move_to(x, y)
        self.ctx.show_text(text)

    def block(self, text, size=11, bold=False, x=MARGIN, width=None, indent=0.0,
              before=0.0, after=4.0, hang=None):
        """Write a wrapped paragraph; `hang` is a prefix (e.g. '3.') set in the indent."""
        width = width if width is not None else A4[0] - MARGIN - x
        self.font(size, bold)
        leading = size * 1.35
        lines = self.wrap(text, width - indent)
        self.y += before
        for i, ln in enumerate(lines):
            if self.y + leading > A4[1] - MARGIN:
                self.new_page()
                self.font(size, bold)
            self.y += leading
            if i == 0 and hang:
                self.ctx.move_to(x, self.y)
                self.ctx.show_text(hang)
            self.ctx.move_to(x + indent, self.y)
            self.ctx.show_text(ln)
        self.y += after

    def title(self, text):
        self.block(text, size=24, bold=True, after=6)

    def header(self, text):
        self.block(text, size=14, bold=True, before=8, after=4)

    def meta(self, text):
        self.block(text, size=11, after=2)

    def ingredients(self, items):
        for it in items:
            if it.endswith(":"):
                self.block(it, size=11, bold=True, before=4, after=1)
            else:
                self.block(it, size=11, indent=14, hang="\u2022", after=1)

    def steps(self, steps):
        for i, st in enumerate(steps, 1):
            self.block(st, size=11, indent=20, hang=f"{i}.", after=4)

    def recipe(self, r):
        self.title(r["title"])
        for m in r["meta"]:
            self.meta(m)
        if r.get("intro"):
            self.block(r["intro"], size=11, before=4, after=2)
        self.header("Ingredients")
        self.ingredients(r["ingredients"])
        self.header("Method")
        self.steps(r["method"])

    def finish(self):
        self.surface.finish()


PANCAKES = {
    "title": "Buttermilk Pancakes",
    "meta": ["Serves 4 (about 12 pancakes)", "Prep: 10 mins  |  Cook: 20 mins"],
    "intro": "Thick, fluffy American-style pancakes. The batter rests while the pan heats.",
    "ingredients": [
        "200 g (1 1/2 cups) plain flour",
        "1 tsp baking powder",
        "1/2 tsp bicarbonate of soda",
        "2 tbsp caster sugar",
        "1/4 tsp salt",
        "300 ml (1 1/4 cups) buttermilk",
        "2 large eggs",
        "3 tbsp melted butter, plus extra for the pan",
        "maple syrup and berries, to serve",
    ],
    "method": [
        "Whisk the flour, baking powder, bicarbonate of soda, sugar and salt together in a large bowl.",
        "In a jug beat the buttermilk, eggs and melted butter until smooth.",
        "Pour the wet mix into the dry mix and stir briefly; a few lumps are fine. Leave to rest for 5 minutes.",
        "Heat a non-stick frying pan over a medium heat and brush with a little butter.",
        "Drop in 3 tbsp of batter per pancake and cook for 2 minutes, until bubbles appear on the surface, then flip and cook for 1 minute more.",
        "Keep warm in a low oven at 90\u00b0C (200\u00b0F) while you cook the rest. Serve with maple syrup and berries.",
    ],
}

CHICKEN = {
    "title": "Garlic Roast Chicken",
    "meta": ["Serves 4-6", "Prep: 20 mins  |  Cook: 1 hr 30 mins  |  Rest: 15 mins"],
    "intro": ("A whole chicken roasted on a bed of vegetables, with a garlic and herb "
              "butter pushed under the skin so the breast stays moist. The vegetables "
              "cook in the dripping juices and become the base of a quick pan gravy."),
    "ingredients": [
        "1 whole chicken, about 1.8 kg (4 lb)",
        "1 whole head of garlic",
        "60 g (4 tbsp) softened butter",
        "2 tbsp chopped fresh thyme",
        "1 tbsp chopped fresh rosemary",
        "finely grated zest of 1 lemon, lemon halves kept",
        "2 tsp flaky sea salt",
        "1 tsp freshly ground black pepper",
        "2 onions, cut into thick wedges",
        "3 carrots, cut into large chunks",
        "2 celery sticks, cut into lengths",
        "500 g (1 lb) small potatoes, halved",
        "2 tbsp olive oil",
        "1 tbsp plain flour",
        "250 ml (1 cup) chicken stock",
        "100 ml (scant 1/2 cup) dry white wine",
    ],
    "method": [
        "Take the chicken out of the fridge 30 minutes before cooking and pat it completely dry with kitchen paper. Heat the oven to 220\u00b0C (425\u00b0F).",
        "Peel and finely grate 4 cloves from the garlic head. Mash them into the softened butter with the thyme, rosemary, lemon zest, half the salt and the pepper.",
        "Starting at the neck end, slide your fingers under the breast skin to loosen it without tearing. Push two thirds of the butter under the skin and spread it evenly over the breast and thighs from the outside. Rub the rest over the legs.",
        "Cut the remaining garlic head in half across the middle. Put one half and the squeezed lemon halves inside the cavity.",
        "Toss the onions, carrots, celery, potatoes and the other garlic half with the oil and remaining salt in a large roasting tin. Sit the chicken on top, breast side up.",
        "Roast for 20 minutes, then turn the oven down to 180\u00b0C (350\u00b0F) and roast for a further 1 hour 10 minutes, basting twice with the pan juices. The chicken is done when the juices from the thickest part of the thigh run clear, or a thermometer reads 74\u00b0C (165\u00b0F).",
        "Lift the chicken onto a board, cover loosely with foil and rest for 15 minutes. Move the vegetables to a warm dish.",
        "For the gravy, set the tin over a medium heat, stir the flour into the fat and cook for 1 minute. Pour in the wine and let it bubble for 2 minutes, scraping up the browned bits, then add the stock and simmer for 5 minutes until slightly thickened.",
        "Carve the chicken and serve with the roast vegetables and the gravy poured over.",
        "Leftovers keep, covered, in the fridge for up to 3 days. Strip the meat from the bones for sandwiches or soup, and use the carcass to make stock.",
    ],
}

GREEN_SALAD = {
    "title": "Green Salad",
    "meta": ["Serves 4 as a side", "Prep: 10 mins"],
    "intro": "A crisp side salad with a sharp mustard dressing, good next to the roast chicken.",
    "ingredients": [
        "1 head butter lettuce, leaves separated",
        "1 small cucumber, thinly sliced",
        "a handful of rocket",
        "2 spring onions, finely sliced",
        "1 tsp Dijon mustard",
        "1 tbsp white wine vinegar",
        "3 tbsp extra virgin olive oil",
        "salt and pepper to taste",
    ],
    "method": [
        "Wash and thoroughly dry the lettuce and rocket.",
        "Shake the mustard, vinegar and oil in a jar with a pinch of salt and pepper.",
        "Toss the leaves, cucumber and spring onions with the dressing just before serving.",
    ],
}

CHILI = {
    "title": "Three Bean Chili",
    "meta": ["Serves 6", "Prep: 15 mins  |  Cook: 45 mins"],
    "ingredients": [
        "2 tbsp vegetable oil",
        "1 large onion, diced",
        "1 red pepper, diced",
        "3 cloves garlic, minced",
        "2 tsp ground cumin",
        "1 tsp chili powder",
        "1 tsp dried oregano",
        "2 x 400 g cans chopped tomatoes",
        "400 g can kidney beans, drained",
        "400 g can black beans, drained",
        "400 g can pinto beans, drained",
        "1 cup vegetable stock",
        "1 tbsp cocoa powder",
        "salt to taste",
        "lime wedges, to serve",
    ],
    "method": [
        "Heat the oil in a large heavy pot over a medium heat. Add the onion and pepper and cook for 8 minutes until soft.",
        "Stir in the garlic, cumin, chili powder and oregano and cook for 1 minute until fragrant.",
        "Add the tomatoes, all the beans, the stock and the cocoa. Bring to the boil.",
        "Reduce the heat and simmer uncovered for 30 minutes, stirring now and then, until thick.",
        "Season with salt and serve with lime wedges, rice or warm tortillas.",
    ],
}


def make_pancakes(path):
    d = PDFDoc(path, PANCAKES["title"])
    d.recipe(PANCAKES)
    d.finish()
    assert d.pages == 1, d.pages


def make_two_recipes(path):
    d = PDFDoc(path, "Sunday Lunch: Garlic Roast Chicken and Green Salad")
    d.recipe(CHICKEN)
    assert d.pages == 2, "the chicken recipe must run onto page 2"
    d.y += 18
    d.recipe(GREEN_SALAD)
    d.finish()
    assert d.pages == 2, d.pages


def make_two_column(path):
    d = PDFDoc(path, CHILI["title"])
    d.title(CHILI["title"])
    for m in CHILI["meta"]:
        d.meta(m)
    top = d.y + 8
    left_x, left_w = MARGIN, 190.0
    right_x = MARGIN + left_w + 24.0
    right_w = A4[0] - MARGIN - right_x
    # Left column: ingredients.
    d.y = top
    d.block("Ingredients", size=14, bold=True, x=left_x, width=left_w, after=4)
    for it in CHILI["ingredients"]:
        d.block(it, size=11, x=left_x, width=left_w, indent=12, hang="\u2022", after=1)
    # Right column: method, starting at the same height as the left column.
    d.y = top
    d.block("Method", size=14, bold=True, x=right_x, width=right_w, after=4)
    for i, st in enumerate(CHILI["method"], 1):
        d.block(st, size=11, x=right_x, width=right_w, indent=18, hang=f"{i}.", after=5)
    # Thin rule between the columns, like many magazine layouts.
    d.ctx.set_line_width(0.5)
    d.ctx.move_to(right_x - 12, top + 4)
    d.ctx.line_to(right_x - 12, top + 330)
    d.ctx.stroke()
    d.finish()
    assert d.pages == 1, d.pages


# --------------------------------------------------------------------------
# Receipts (cairo image surface, monospace)
# --------------------------------------------------------------------------

RECEIPT_W = 1000
MONO = "DejaVu Sans Mono"
R_FONT = 28          # px; bold DejaVu Sans Mono, ~17 px per character
R_LEADING = 40
R_BOLD = True        # bold read best in a tesseract 5.3 sweep over 26-34 px
R_COLS = 42


def money(cents):
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{cents // 100}.{cents % 100:02d}"


def lr(left, right, cols=R_COLS):
    gap = max(2, cols - len(left) - len(right))
    return left + " " * gap + right


def center(text, cols=R_COLS):
    pad = max(0, (cols - len(text)) // 2)
    return " " * pad + text


RECEIPTS_DATA = [
    {
        "file": "freshway-market.png",
        "store": "FRESHWAY MARKET",
        "address": ["1420 HARBOR AVE", "SPRINGFIELD, OR 97477", "TEL (541) 555-0142"],
        "when": ("03/14/2026 14:22", "2026-03-14"),
        "header": "STORE 0217  LANE 3  CASHIER MARIA",
        "items": [
            # (name, cents, detail line or None)
            ("GOYA GOLDEN CORN 15OZ", 129, None),
            ("BNLS SKNLS CHKN BRST", 851, "2.134 lb @ 3.99/lb"),
            ("ORG BABY SPINACH 5OZ", 349, None),
            ("WHOLE MILK 1 GAL", 389, None),
            ("LG BROWN EGGS 12CT", 429, None),
            ("SOURDOUGH LOAF", 499, None),
            ("BANANAS", 121, "2.02 lb @ 0.60/lb"),
            ("CHEDDAR SHARP 8OZ", 379, None),
        ],
        "coupon": ("COUPON GOYA CORN", -50),
        "tax_rate_bp": 0,          # no sales tax in Oregon
        "tax_label": "TAX 0.00%",
        "cash": 4000,
    },
    {
        "file": "corner-grocer.jpg",
        "store": "CORNER GROCER",
        "address": ["88 MAPLE STREET", "BURLINGTON, VT 05401"],
        "when": ("11/02/2026 18:47", "2026-11-02"),
        "header": "REG 02  TRANS 004471",
        "items": [
            ("RED LENTILS 2LB", 349, None),
            ("CANNED TOMATOES 28OZ", 219, None),
            ("YELLOW ONIONS 3LB", 299, None),
            ("GARLIC BULB", 150, "3 @ 0.50"),
            ("OLIVE OIL EXTRA VIRGIN", 1099, None),
            ("CILANTRO BUNCH", 99, None),
        ],
        "coupon": ("STORE COUPON OLIVE OIL", -200),
        "tax_rate_bp": 600,        # 6.00 %
        "tax_label": "TAX 6.00%",
        "cash": 3000,
    },
    {
        "file": "valley-foods.tiff",
        "store": "VALLEY FOODS CO-OP",
        "address": ["5 MILL ROAD", "ASHEVILLE, NC 28801"],
        "when": ("01/27/2026 09:05", "2026-01-27"),
        "header": "TERMINAL 1  OPERATOR 12",
        "items": [
            ("ROLLED OATS BULK", 318, "1.27 lb @ 2.50/lb"),
            ("HONEY RAW 16OZ", 899, None),
            ("GREEK YOGURT 32OZ", 549, None),
            ("BLUEBERRIES PINT", 399, None),
            ("ALMOND BUTTER 12OZ", 749, None),
            ("GALA APPLES", 404, "2.31 lb @ 1.75/lb"),
            ("COFFEE BEANS 12OZ", 1199, None),
            ("PAPER TOWELS 2PK", 479, None),
        ],
        "coupon": ("MEMBER DISCOUNT", -150),
        "tax_rate_bp": 200,        # 2.00 % food tax
        "tax_label": "TAX 2.00%",
        "cash": 6000,
    },
]


def receipt_lines(r):
    """Returns the receipt as text lines plus its JSON label."""
    lines = [center(r["store"])]
    lines += [center(a) for a in r["address"]]
    lines += ["", r["header"], "DATE " + r["when"][0], "-" * R_COLS]
    for name, cents, detail in r["items"]:
        if detail:
            lines.append(name)
            lines.append(lr("  " + detail, money(cents)))
        else:
            lines.append(lr(name, money(cents)))
    cname, ccents = r["coupon"]
    lines.append(lr(cname, money(ccents)))
    subtotal = sum(c for _, c, _ in r["items"]) + ccents
    tax = (subtotal * r["tax_rate_bp"] + 5000) // 10000
    total = subtotal + tax
    change = r["cash"] - total
    assert change >= 0
    lines += [
        "-" * R_COLS,
        lr("SUBTOTAL", money(subtotal)),
        lr(r["tax_label"], money(tax)),
        lr("TOTAL", money(total)),
        "",
        lr("CASH", money(r["cash"])),
        lr("CHANGE", money(change)),
        "",
        center(f"ITEMS SOLD {len(r['items'])}"),
        center("THANK YOU FOR SHOPPING"),
    ]
    # The coupon is listed as an item with a negative price, so the item
    # prices add up to the SUBTOTAL.
    label = {
        "store": r["store"],
        "date": r["when"][1],
        "total": total / 100,
        "items": [{"name": n, "price": c / 100} for n, c, _ in r["items"]]
        + [{"name": cname, "price": ccents / 100}],
    }
    return lines, label


def render_receipt(lines):
    h = 80 + R_LEADING * len(lines) + 60
    surf = cairo.ImageSurface(cairo.FORMAT_RGB24, RECEIPT_W, h)
    ctx = cairo.Context(surf)
    ctx.set_source_rgb(1, 1, 1)
    ctx.paint()
    ctx.set_source_rgb(0, 0, 0)
    ctx.select_font_face(MONO, cairo.FONT_SLANT_NORMAL,
                         cairo.FONT_WEIGHT_BOLD if R_BOLD else cairo.FONT_WEIGHT_NORMAL)
    ctx.set_font_size(R_FONT)
    fo = cairo.FontOptions()
    fo.set_antialias(cairo.ANTIALIAS_GRAY)
    fo.set_hint_style(cairo.HINT_STYLE_FULL)
    ctx.set_font_options(fo)
    adv = ctx.text_extents("M" * 10).x_advance / 10
    x0 = (RECEIPT_W - adv * R_COLS) / 2
    assert x0 >= 30, "receipt text too wide"
    y = 80
    for ln in lines:
        y += R_LEADING
        ctx.move_to(x0, y)
        ctx.show_text(ln)
    surf.flush()
    return surf


def surface_to_pil(surf):
    w, h = surf.get_width(), surf.get_height()
    # FORMAT_RGB24 is stored as 32-bit BGRx on little-endian machines.
    img = Image.frombuffer("RGBA", (w, h), bytes(surf.get_data()), "raw", "BGRA", surf.get_stride(), 1)
    return img.convert("L")


def make_receipt(r):
    lines, label = receipt_lines(r)
    surf = render_receipt(lines)
    path = os.path.join(RECEIPTS, r["file"])
    ext = os.path.splitext(path)[1]
    img = surface_to_pil(surf)
    if ext == ".png":
        img.save(path, "PNG", optimize=True, dpi=(300, 300))
    elif ext == ".jpg":
        img.save(path, "JPEG", quality=90, dpi=(300, 300))
    elif ext == ".tiff":
        img.save(path, "TIFF", compression="tiff_lzw", dpi=(300, 300))
    else:
        raise ValueError(ext)
    # Labels live apart from the images, so `larder ingest samples` does not ingest them as documents.
    os.makedirs(LABELS, exist_ok=True)
    base = os.path.join(LABELS, os.path.splitext(r["file"])[0])
    with open(base + ".json", "w", encoding="utf-8") as f:
        json.dump(label, f, indent=2)
        f.write("\n")
    return path, lines, label


# --------------------------------------------------------------------------

def main():
    check = "--check" in sys.argv[1:]
    os.makedirs(RECIPES, exist_ok=True)
    os.makedirs(RECEIPTS, exist_ok=True)

    write_text(os.path.join(RECIPES, "tomato-soup.txt"), TOMATO_SOUP)
    write_text(os.path.join(RECIPES, "banana-bread.txt"), BANANA_BREAD)
    write_text(os.path.join(RECIPES, "lemon-drizzle-cake.md"), LEMON_DRIZZLE)
    for name, html in SAVED_PAGES.items():  # saved web pages (scripts/data/sample_pages.py)
        write_text(os.path.join(RECIPES, name), html)
    write_text(os.path.join(RECIPES, "red-lentil-soup.txt"), RED_LENTIL_SOUP)
    write_text(os.path.join(RECIPES, "overnight-oats.md"), OVERNIGHT_OATS)
    write_text(os.path.join(RECIPES, "squash-traybake.txt"), SQUASH_TRAYBAKE)
    make_pancakes(os.path.join(RECIPES, "pancakes.pdf"))
    make_two_recipes(os.path.join(RECIPES, "two-recipes.pdf"))
    make_two_column(os.path.join(RECIPES, "two-column.pdf"))
    written = [os.path.join(RECIPES, n) for n in (
        "tomato-soup.txt", "banana-bread.txt", "lemon-drizzle-cake.md", "red-lentil-soup.txt",
        "overnight-oats.md", "squash-traybake.txt", "pancakes.pdf", "two-recipes.pdf", "two-column.pdf")]

    for r in RECEIPTS_DATA:
        path, _, label = make_receipt(r)
        written += [path, os.path.join(LABELS, os.path.splitext(r["file"])[0] + ".json")]

    for p in written:
        print(f"wrote {os.path.relpath(p, ROOT)} ({os.path.getsize(p)} bytes)")

    if check:
        for n in ("pancakes.pdf", "two-recipes.pdf", "two-column.pdf"):
            p = os.path.join(RECIPES, n)
            print(f"==== pdftotext -layout {n}")
            print(subprocess.run(["pdftotext", "-layout", p, "-"], capture_output=True, text=True).stdout)
        for r in RECEIPTS_DATA:
            p = os.path.join(RECEIPTS, r["file"])
            print(f"==== tesseract {r['file']}")
            print(subprocess.run(["tesseract", p, "-", "--psm", "6"], capture_output=True, text=True).stdout)


if __name__ == "__main__":
    main()
