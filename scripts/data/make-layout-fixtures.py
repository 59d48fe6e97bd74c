#!/usr/bin/python3
"""Writes the cookbook-layout test PDFs in Tests/Fixtures/layout/, each with a <name>.truth.json in the format of
shared/data/recipes-pdf (title, ingredients [{text}], steps, language), so `PDFRecipeEvaluation` scores them.

Usage:  scripts/data/make-layout-fixtures.py

  ingredient-table.pdf       qty | unit | name table set in two columns (two records per row), numbered method
  side-box.pdf               method on the left, a narrow "Ingredients" box to its right
  box-per-step.pdf           an ingredient box beside each step, name first ("Flour, 4 tablespoons"), no header
  two-column-page.pdf        the whole page in two columns: ingredients and the method flow from left to right
  running-header-title.pdf   the title only in the small running header; page number at the foot
  german.pdf                 Zutaten | Zubereitung side by side, EL/TL/Prise, decimal commas, drop-capital step
                             numbers

Made with python3-cairo (DejaVu Sans), fixed metadata dates, so reruns give the same layout.
The files it writes name it by its former path, scripts/make-layout-fixtures.py, so that moving it to scripts/data/ changed no byte
of its output.
"""
import json
import os

import cairo

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Tests", "Fixtures", "layout")
FIXED_DATE = "2026-01-01T00:00:00Z"


class Page:
    def __init__(self, path, title):
        self.surface = cairo.PDFSurface(path, 595, 842)
        self.surface.set_metadata(cairo.PDFMetadata.TITLE, title)
        self.surface.set_metadata(cairo.PDFMetadata.CREATOR, "scripts/make-layout-fixtures.py")
        self.surface.set_metadata(cairo.PDFMetadata.CREATE_DATE, FIXED_DATE)
        self.surface.set_metadata(cairo.PDFMetadata.MOD_DATE, FIXED_DATE)
        self.c = cairo.Context(self.surface)

    def text(self, x, y, s, size=11, bold=False):
        self.c.select_font_face(
            "DejaVu Sans", cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL)
        self.c.set_font_size(size)
        self.c.move_to(x, y)
        self.c.show_text(s)

    def right(self, x, y, s, size=11):
        """Right-aligned at x."""
        self.c.select_font_face("DejaVu Sans", cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_NORMAL)
        self.c.set_font_size(size)
        width = self.c.text_extents(s).x_advance
        self.text(x - width, y, s, size)

    def finish(self):
        self.c.show_page()
        self.surface.finish()


def write_truth(name, title, ingredients, steps, language="en"):
    truth = {"title": title, "ingredients": [{"text": t} for t in ingredients], "steps": steps,
             "language": language, "source": "Larder/scripts/make-layout-fixtures.py",
             "ingredient_fields": "quantity/unit/name not given"}
    with open(os.path.join(OUT, name + ".truth.json"), "w") as f:
        json.dump(truth, f, indent=1, ensure_ascii=False)
        f.write("\n")


def ingredient_table():
    p = Page(os.path.join(OUT, "ingredient-table.pdf"), "Baba Ganoush")
    p.text(56, 80, "Baba Ganoush", 22, bold=True)
    p.text(56, 104, "Excellent as a dip for baked pita chips.")
    left = [("1", "large", "eggplant"), ("1/2", "C", "tahini"), ("4", "clove", "garlic"), ("3", "Tbs", "olive oil")]
    right = [("1", "tsp", "salt"), ("1", "tsp", "cumin"), ("1", "tsp", "sumac")]
    for k, (q, u, n) in enumerate(left):
        y = 140 + 15 * k
        p.right(84, y, q)
        p.text(90, y, u)
        p.text(130, y, n, bold=True)
    for k, (q, u, n) in enumerate(right):
        y = 140 + 15 * k
        p.right(314, y, q)
        p.text(320, y, u)
        p.text(360, y, n, bold=True)
    steps = ["Preheat the oven to 220 C and line a baking sheet.", "Roast the eggplant for 40 minutes, then let it cool.",
             "Blend the flesh with tahini, garlic, oil and spices until smooth."]
    for k, s in enumerate(steps):
        p.text(56, 220 + 18 * k, f"{k + 1}. {s}")
    p.finish()
    write_truth("ingredient-table", "Baba Ganoush",
                [f"{q} {u} {n}" for q, u, n in left + right], steps)


def side_box():
    p = Page(os.path.join(OUT, "side-box.pdf"), "Lentil Soup")
    p.text(56, 80, "Lentil Soup", 22, bold=True)
    p.text(56, 120, "Method", 14, bold=True)
    method = [["1. Soften the onion and carrot in the oil", "over a low heat for ten minutes."],
              ["2. Add the lentils and the stock, bring to", "the boil and simmer for 25 minutes."],
              ["3. Season, blend half of the soup and stir", "it back into the pot before serving."]]
    y = 140
    for lines in method:
        for j, line in enumerate(lines):
            p.text(56 if j == 0 else 70, y, line)
            y += 14
        y += 6
    p.text(380, 120, "Ingredients", 14, bold=True)
    ingredients = ["1 onion, chopped", "2 carrots, diced", "2 tbsp olive oil", "200 g red lentils", "1 l vegetable stock"]
    for k, s in enumerate(ingredients):
        p.text(380, 140 + 16 * k, s, 10)
    p.finish()
    write_truth("side-box", "Lentil Soup", ingredients, [" ".join(l)[3:] for l in method])


def box_per_step():
    p = Page(os.path.join(OUT, "box-per-step.pdf"), "Mug Brownie")
    p.text(56, 80, "Mug Brownie", 18, bold=True)
    steps = [(["1. Mix the flour, cocoa, sugar and salt", "together in a large microwavable mug."],
              ["Flour, 4 tablespoons", "Cocoa powder, 3 tablespoons", "Sugar, 3 tablespoons", "Salt, 1 pinch"]),
             (["2. Stir in the milk and the oil until", "the batter is smooth."],
              ["Milk, 6 tablespoons", "Oil, 2 tablespoons"]),
             (["3. Microwave for 70 seconds and let it", "cool for a minute before eating."],
              ["Chocolate chips, 1 tablespoon"])]
    y = 120
    truth_ingredients, truth_steps = [], []
    for lines, box in steps:
        for j, line in enumerate(lines):
            p.text(56 if j == 0 else 70, y + 14 * j, line)
        for j, item in enumerate(box):
            p.text(330, y + 14 * j, item, 10, bold=True)
        truth_steps.append(" ".join(lines)[3:])
        truth_ingredients += box
        y += 14 * max(len(lines), len(box)) + 24
    p.finish()
    write_truth("box-per-step", "Mug Brownie", truth_ingredients, truth_steps)


def two_column_page():
    p = Page(os.path.join(OUT, "two-column-page.pdf"), "Pork Adobo")
    p.text(56, 80, "Pork Adobo", 22, bold=True)
    p.text(56, 110, "INGREDIENTS", 11, bold=True)
    ingredients = ["2 lb pork belly, cubed", "1/2 cup soy sauce", "1/3 cup vinegar", "6 cloves garlic, crushed",
                   "3 bay leaves", "1 tsp peppercorns", "1 cup water"]
    y = 126
    for s in ingredients:
        p.text(70, y, "• " + s)
        y += 15
    p.text(56, y + 8, "INSTRUCTIONS", 11, bold=True)
    y += 24
    left_steps = [["1. Marinate the pork in the soy sauce", "and garlic for one hour."],
                  ["2. Brown the pork in a heavy pot over", "a medium-high heat."]]
    for lines in left_steps:
        for j, line in enumerate(lines):
            p.text(62 if j == 0 else 76, y, line)
            y += 14
    right_steps = [["3. Add the marinade, vinegar, bay leaves,", "peppercorns and water."],
                   ["4. Simmer, covered, for 45 minutes until", "the pork is tender."],
                   ["5. Uncover and reduce the sauce until it", "coats the meat."]]
    y = 110
    for lines in right_steps:
        for j, line in enumerate(lines):
            p.text(316 if j == 0 else 330, y, line)
            y += 14
    p.finish()
    write_truth("two-column-page", "Pork Adobo", ingredients,
                [" ".join(l)[3:] for l in left_steps + right_steps])


def running_header_title():
    p = Page(os.path.join(OUT, "running-header-title.pdf"), "")
    p.text(56, 40, "Goan Fish Curry", 9)
    p.text(56, 100, "Ingredients", 13, bold=True)
    ingredients = ["500 g white fish, cubed", "400 ml coconut milk", "2 tbsp curry paste", "1 onion, sliced"]
    for k, s in enumerate(ingredients):
        p.text(70, 120 + 15 * k, "• " + s)
    p.text(56, 200, "Method", 13, bold=True)
    steps = ["Fry the onion and the curry paste for five minutes.", "Pour in the coconut milk and bring to a simmer.",
             "Add the fish and cook for six minutes, then serve with rice."]
    for k, s in enumerate(steps):
        p.text(62, 220 + 16 * k, f"{k + 1}. {s}")
    p.text(294, 800, "1", 9)
    p.finish()
    write_truth("running-header-title", "Goan Fish Curry", ingredients, steps)


def german():
    p = Page(os.path.join(OUT, "german.pdf"), "Hummus")
    p.text(72, 90, "Hummus", 24, bold=True)
    p.text(72, 130, "Zubereitung", 14, bold=True)
    p.text(360, 130, "Zutaten", 14, bold=True)
    steps = [["Die Kichererbsen über Nacht in reichlich", "Wasser einweichen und dann weich kochen."],
             ["Mit Tahin, Knoblauch, Zitronensaft und Öl", "fein pürieren und abschmecken."]]
    y = 160
    for k, lines in enumerate(steps):
        p.text(72, y + 18, str(k + 1), 28)  # drop capital: two lines tall
        for j, line in enumerate(lines):
            p.text(96, y + 14 * j, line)
        y += 14 * len(lines) + 22
    ingredients = [("200 g", "Kichererbsen"), ("3 EL", "Tahin"), ("2 Zehen", "Knoblauch"), ("1,5 TL", "Salz"),
                   ("1 Prise", "Kreuzkümmel"), ("4 EL", "Olivenöl")]
    for k, (amount, name) in enumerate(ingredients):
        p.right(410, 152 + 14 * k, amount)
        p.text(418, 152 + 14 * k, name)
    p.finish()
    write_truth("german", "Hummus", [f"{a} {n}" for a, n in ingredients], [" ".join(l) for l in steps], "de")


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    for make in (ingredient_table, side_box, box_per_step, two_column_page, running_header_title, german):
        make()
    print("wrote", ", ".join(sorted(f for f in os.listdir(OUT) if f.endswith(".pdf"))))
