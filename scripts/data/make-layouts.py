#!/usr/bin/python3
"""Sets recipes from the shared data in several cookbook layout families and writes PDFs with truth files in the
format of shared/data/recipes-pdf, so that `larder eval pdfs OUT` scores them (and `--leave-one-source-out` holds out
one family at a time: each family is its own truth `source`).

Usage:  /usr/bin/python3 scripts/data/make-layouts.py OUT [--per-family N] [--seed S] [--families a,b]
                                                           [--recipes DIR]

  OUT           a folder outside the repository (or under .build/); made if missing
  --per-family  PDFs per family (default 10)
  --seed        the seed every choice follows (default 1): the same seed gives the same PDFs
  --families    only these families (default: all, listed below)
  --recipes     expected_json folder of recipe-scrapers (default ../shared/data/recipes-scraped/expected_json,
                relative to the repository)

Families (truth `layout`; each PDF also draws a font, sizes, A4 or Letter, a running head and foot with the page
number, sometimes a source note and a footnote with its marker in the text, small-caps or upper-case titles):
  list-one-column     ingredient list then a numbered method, one column
  list-side-by-side   ingredient list in a narrow left column, the numbered method beside it
  table-qty-unit      ingredient table quantity | unit | name (name cells wrap), numbered method below
  table-step-beside   step number | quantity | unit | name | the group's method beside each ingredient group
  table-amount-box    table "quantity unit" | name, a tip box in the margin, un-numbered method paragraphs below
  two-column-page     the whole page in two columns: ingredients and the method flow from column to column

Needs python3-cairo (Debian) and the DejaVu fonts. Recipe texts belong to their sites (recipe-scrapers test data):
the output is for evaluation only, never commit it.
"""
import argparse
import glob
import json
import os
import random
import re
import sys

import cairo

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXED_DATE = "2026-01-01T00:00:00Z"
FAMILIES = ["list-one-column", "list-side-by-side", "table-qty-unit", "table-step-beside", "table-amount-box",
            "two-column-page"]
FONTS = ["DejaVu Serif", "DejaVu Sans", "DejaVu Sans Condensed", "DejaVu Serif Condensed"]
PAPER = {"A4": (595.28, 841.89), "Letter": (612.0, 792.0)}
UNITS = {
    "cup", "cups", "c", "tablespoon", "tablespoons", "tbsp", "tbs", "tbsp.", "tsp", "tsp.", "teaspoon", "teaspoons",
    "g", "kg", "mg", "ml", "l", "litre", "liter", "oz", "ounce", "ounces", "lb", "lbs", "pound", "pounds", "pinch",
    "clove", "cloves", "can", "cans", "slice", "slices", "stick", "sticks", "quart", "quarts", "pint", "pints", "dash",
    "handful", "bunch", "package", "packages", "pkg", "sprig", "sprigs", "head", "heads", "jar", "bottle", "knob",
}
QUANTITY = re.compile(r"^((?:\d+\s+)?\d+/\d+|\d+(?:[.,]\d+)?(?:\s*(?:-|–|to)\s*\d+(?:[.,]\d+)?)?|\d*\s*[½¼¾⅓⅔⅛])\s+(.+)$")
BOOKS = ["The Weekday Kitchen", "Cooking at Home", "Family Table", "Seasonal Suppers", "A Year of Baking"]
CHAPTERS = ["Mains", "Soups and Stews", "Baking", "Sides", "Desserts", "Breakfast"]
NOTES = ["Use a heavy pan so nothing catches.", "Leftovers keep for three days in the fridge.",
         "Any mild oil works here.", "Weigh the flour for the best result."]
TIPS = ["Tip: make the sauce a day ahead; the flavour deepens overnight.",
        "Note: everything can be prepared in advance and reheated gently."]


def split_ingredient(text):
    """(quantity, unit, name) by a quantity pattern and a unit word list, as the truth's fields."""
    m = QUANTITY.match(text)
    if not m:
        return "", "", text
    quantity, rest = m.group(1).strip(), m.group(2).strip()
    words = rest.split(" ", 1)
    if len(words) == 2 and words[0].lower() in UNITS:
        return quantity, words[0], words[1]
    return quantity, "", rest


def clean(text):
    return re.sub(r"\s+", " ", text.replace("\u00a0", " ")).strip()


def load_recipes(folder):
    recipes = []
    for path in sorted(glob.glob(os.path.join(folder, "*", "*.json"))):
        try:
            d = json.load(open(path, encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not str(d.get("language", "en")).lower().startswith("en"):
            continue
        title = clean(d.get("title") or "")
        ingredients = [clean(i) for i in d.get("ingredients") or [] if clean(i)]
        steps = [clean(s) for s in d.get("instructions_list") or [] if clean(s)]
        if not (3 <= len(title) <= 48 and 4 <= len(ingredients) <= 14 and 2 <= len(steps) <= 7):
            continue
        if any(len(i) > 70 for i in ingredients) or any(len(s) > 420 for s in steps) or sum(map(len, steps)) > 1500:
            continue
        # Markup-like or non-text content and characters DejaVu lacks are left out.
        if any(re.search(r"[<>{}|\\]|http", t) for t in [title] + ingredients + steps):
            continue
        if any(not all(ord(ch) < 0x250 or 0x2000 <= ord(ch) < 0x2070 or ch in "½¼¾⅓⅔⅛°" for ch in t)
               for t in [title] + ingredients + steps):
            continue
        recipes.append({"file": os.path.relpath(path, folder), "title": title, "ingredients": ingredients,
                        "steps": steps})
    return recipes


class Doc:
    """A PDF being set: pages with a running head and foot, a cursor, fonts, footnotes for the current page."""

    def __init__(self, path, rng, title):
        self.rng = rng
        self.paper = rng.choice(sorted(PAPER))
        self.w, self.h = PAPER[self.paper]
        self.surface = cairo.PDFSurface(path, self.w, self.h)
        for key, value in [(cairo.PDFMetadata.TITLE, title), (cairo.PDFMetadata.CREATOR, "scripts/data/make-layouts.py"),
                           (cairo.PDFMetadata.CREATE_DATE, FIXED_DATE), (cairo.PDFMetadata.MOD_DATE, FIXED_DATE)]:
            self.surface.set_metadata(key, value)
        self.c = cairo.Context(self.surface)
        self.font = rng.choice(FONTS)
        self.size = rng.choice([9.0, 9.5, 10.0, 10.5, 11.0])
        self.lead = self.size * rng.choice([1.25, 1.3, 1.4])
        self.margin = rng.choice([48.0, 56.0, 64.0, 72.0])
        self.book, self.chapter = rng.choice(BOOKS), rng.choice(CHAPTERS)
        self.head_style = rng.choice(["book-left", "chapter-right", "both"])
        self.foot_style = rng.choice(["centre", "outer", "page-of"])
        self.page_number = rng.randint(12, 240)
        self.footnotes = []
        self.source_note = None
        self.pages = 0
        self.new_page(first=True)

    # Text.
    def use(self, size=None, bold=False, italic=False, font=None):
        self.c.select_font_face(font or self.font, cairo.FONT_SLANT_ITALIC if italic else cairo.FONT_SLANT_NORMAL,
                                cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL)
        self.c.set_font_size(size or self.size)

    def width(self, text, **font):
        self.use(**font)
        return self.c.text_extents(text).x_advance

    def text(self, x, y, text, **font):
        self.use(**font)
        self.c.move_to(x, y)
        self.c.show_text(text)

    def right(self, x2, y, text, **font):
        self.text(x2 - self.width(text, **font), y, text, **font)

    def small_caps(self, x, y, text, size):
        for ch in text:
            s = size * 0.78 if ch.islower() else size
            self.text(x, y, ch.upper(), size=s, bold=True)
            x += self.width(ch.upper(), size=s, bold=True)

    def wrap(self, text, width, hyphenate=False, **font):
        """Lines of `text` fitting `width`; a long word that does not fit may be hyphenated."""
        lines, current = [], ""
        for word in text.split(" "):
            trial = word if not current else current + " " + word
            if self.width(trial, **font) <= width or not current:
                current = trial
                continue
            if hyphenate and len(word) >= 8 and word.isalpha():
                for cut in range(len(word) - 3, 3, -1):
                    head = current + " " + word[:cut] + "-"
                    if self.width(head, **font) <= width:
                        lines.append(head)
                        current = word[cut:]
                        break
                else:
                    lines.append(current)
                    current = word
                continue
            lines.append(current)
            current = word
        if current:
            lines.append(current)
        return lines

    def paragraph(self, x, y, text, width, indent=0.0, label=None, hyphenate=False, **font):
        """Sets a wrapped paragraph from baseline y (a hanging `label` at x), returns the next baseline."""
        if label:
            self.text(x, y, label, **font)
        for line in self.wrap(text, width - indent, hyphenate=hyphenate, **font):
            y = self.room(y)
            self.text(x + indent, y, line, **font)
            y += self.lead
        return y

    # Pages.
    @property
    def bottom(self):
        return self.h - self.margin - 2.2 * self.size - len(self.footnotes) * self.size * 1.3 - (
            self.size * 1.3 if self.source_note else 0)

    def room(self, y):
        """y, or the top of a new page when y is past the body's bottom."""
        if y <= self.bottom:
            return y
        self.new_page()
        return self.top

    def new_page(self, first=False):
        if not first:
            self.finish_page()
            self.c.show_page()
        self.pages += 1
        small = self.size * 0.8
        y = self.margin * 0.6
        even = self.page_number % 2 == 0
        if self.head_style in ("book-left", "both"):
            self.text(self.margin, y, self.book, size=small, italic=True)
        if self.head_style in ("chapter-right", "both"):
            self.right(self.w - self.margin, y, self.chapter.upper(), size=small)
        self.c.set_line_width(0.4)
        self.c.move_to(self.margin, y + 4)
        self.c.line_to(self.w - self.margin, y + 4)
        self.c.stroke()
        self.top = self.margin + self.size
        foot = self.h - self.margin * 0.55
        number = str(self.page_number) if self.foot_style != "page-of" else "Page %d" % self.page_number
        if self.foot_style == "outer":
            (self.right if even else self.text)(self.w - self.margin if even else self.margin, foot, number, size=small)
        else:
            self.text(self.w / 2 - self.width(number, size=small) / 2, foot, number, size=small)
        self.page_number += 1

    def finish_page(self):
        """Source note and footnotes at the foot of the body, small type, under a short rule."""
        notes = [(None, self.source_note)] if self.source_note else []
        notes += self.footnotes
        if not notes:
            return
        small = self.size * 0.78
        y = self.h - self.margin - 1.0 * self.size - (len(notes) - 1) * small * 1.4
        self.c.set_line_width(0.4)
        self.c.move_to(self.margin, y - small * 1.3)
        self.c.line_to(self.margin + 90, y - small * 1.3)
        self.c.stroke()
        for marker, note in notes:
            x = self.margin
            if marker:
                self.text(x, y - small * 0.35, marker, size=small * 0.7)
                x += self.width(marker, size=small * 0.7) + 1
            self.text(x, y, note, size=small, italic=marker is None)
            y += small * 1.4
        self.footnotes = []
        self.source_note = None

    def marker(self, x, y, number, size):
        """A footnote marker: a small raised digit right after a word."""
        self.text(x + 0.3, y - size * 0.35, str(number), size=size * 0.6)

    def close(self):
        self.finish_page()
        self.c.show_page()
        self.surface.finish()


def heading(doc, y, text, style):
    size = doc.size * 1.15
    y = doc.room(y)
    if style == "caps":
        doc.text(doc.margin, y, text.upper(), size=size * 0.9, bold=True)
    else:
        doc.text(doc.margin, y, text, size=size, bold=True)
    return y + doc.lead * 1.4


def title_block(doc, recipe, rng):
    size = rng.choice([18.0, 20.0, 22.0, 24.0])
    style = rng.choice(["plain", "plain", "small-caps", "upper"])
    # A title wider than the body is set smaller until it fits on one line.
    while size > 10 and doc.width(recipe["title"].upper(), size=size, bold=True) > doc.w - 2 * doc.margin:
        size -= 1
    y = doc.top + size * 0.6
    x = doc.margin
    if style == "small-caps":
        doc.small_caps(x, y, recipe["title"], size)
    elif style == "upper":
        doc.text(x, y, recipe["title"].upper(), size=size * 0.85, bold=True)
    else:
        doc.text(x, y, recipe["title"], size=size, bold=True)
    y += size * 0.9
    if rng.random() < 0.5:
        serves = "Serves %d · Prep %d min · Cook %d min" % (rng.randint(2, 8), rng.choice([10, 15, 20]),
                                                          rng.choice([20, 30, 45, 60]))
        doc.text(doc.margin, y, serves, size=doc.size * 0.9, italic=True)
        y += doc.lead * 1.2
    return y + doc.lead * 0.6, style


def add_furniture(doc, recipe, rng, truth):
    """Source note and footnote for the first page; the footnote's marker goes after the last step."""
    if rng.random() < 0.6:
        doc.source_note = rng.choice(["Reproduced from %s, by kind permission." % doc.book,
                                      "Source: %s (%d)." % (doc.book, rng.randint(1995, 2024)),
                                      "Adapted from %s, 2nd edition." % doc.book])
        truth["source_note"] = doc.source_note
    if rng.random() < 0.5:
        note = rng.choice(NOTES)
        doc.footnotes.append(("1", note))
        truth["footnote"] = note
        return True
    return False


def step_lines(doc, steps, x, y, width, numbered, hyphenate, footnote):
    for n, step in enumerate(steps, 1):
        label = ("%d." % n) if numbered else None
        indent = doc.width("00. ") if numbered else 0
        y = doc.room(y)
        lines = doc.wrap(step, width - indent, hyphenate=hyphenate)
        if label:
            doc.text(x, y, label)
        for k, line in enumerate(lines):
            y = doc.room(y)
            doc.text(x + indent, y, line)
            if footnote and n == len(steps) and k == len(lines) - 1:
                doc.marker(x + indent + doc.width(line), y, 1, doc.size)
            y += doc.lead
        y += doc.lead * 0.4
    return y


def family_list_one_column(doc, recipe, rng, y, footnote, hyphenate):
    style = rng.choice(["plain", "caps"])
    y = heading(doc, y, "Ingredients", style)
    bullet = rng.choice(["• ", "", "– "])
    for item in recipe["ingredients"]:
        y = doc.room(y)
        doc.text(doc.margin, y, bullet + item)
        y += doc.lead
    y = heading(doc, y + doc.lead * 0.6, rng.choice(["Method", "Directions", "Preparation"]), style)
    return step_lines(doc, recipe["steps"], doc.margin, y, doc.w - 2 * doc.margin, True, hyphenate, footnote)


def family_list_side_by_side(doc, recipe, rng, y, footnote, hyphenate):
    body = doc.w - 2 * doc.margin
    left = body * rng.choice([0.3, 0.34, 0.38])
    gap = rng.choice([18.0, 24.0])
    doc.text(doc.margin, y, "Ingredients", size=doc.size * 1.1, bold=True)
    doc.text(doc.margin + left + gap, y, rng.choice(["Method", "Directions"]), size=doc.size * 1.1, bold=True)
    y += doc.lead * 1.5
    yl = y
    for item in recipe["ingredients"]:
        lines = doc.wrap(item, left)
        for k, line in enumerate(lines):
            doc.text(doc.margin + (0 if k == 0 else 8), yl, line)
            yl += doc.lead
        yl += doc.lead * 0.25
    yr = step_lines(doc, recipe["steps"], doc.margin + left + gap, y, body - left - gap, True, hyphenate, footnote)
    return max(yl, yr)


def table(doc, rows, columns, x, y, rule):
    """Rows of cells ([[text]]) in `columns` ([(width, align)]); cells wrap; returns the next baseline."""
    pad = 6.0
    for row in rows:
        wrapped = [doc.wrap(cell, w - pad) if cell else [] for cell, (w, _) in zip(row, columns)]
        height = max(1, max(len(c) for c in wrapped))
        y = doc.room(y + (height - 1) * doc.lead) - (height - 1) * doc.lead
        cx = x
        for lines, (w, align) in zip(wrapped, columns):
            for k, line in enumerate(lines):
                if align == "right":
                    doc.right(cx + w - pad, y + k * doc.lead, line)
                else:
                    doc.text(cx, y + k * doc.lead, line)
            cx += w
        y += height * doc.lead
        if rule:
            doc.c.set_line_width(0.3)
            doc.c.move_to(x, y - doc.lead + doc.size * 0.45)
            doc.c.line_to(x + sum(w for w, _ in columns), y - doc.lead + doc.size * 0.45)
            doc.c.stroke()
            y += 2
    return y


def family_table_qty_unit(doc, recipe, rng, y, footnote, hyphenate):
    body = doc.w - 2 * doc.margin
    width = body * rng.choice([0.55, 0.7, 1.0])
    q = max([doc.width("0 0/0 ")] + [doc.width(split_ingredient(i)[0] + " ") for i in recipe["ingredients"]]) + 8
    u = doc.width("tablespoons ") + 4
    align = rng.choice(["left", "right"])
    rows = [list(split_ingredient(i)) for i in recipe["ingredients"]]
    if rng.random() < 0.5:
        y = heading(doc, y, "Ingredients", rng.choice(["plain", "caps"]))
    y = table(doc, rows, [(q, align), (u, "left"), (width - q - u, "left")], doc.margin, y, rng.random() < 0.4)
    y = heading(doc, y + doc.lead, rng.choice(["Method", "Directions", "Preparation"]), "plain")
    return step_lines(doc, recipe["steps"], doc.margin, y, body, True, hyphenate, footnote)


def groups_of(recipe, rng):
    """Ingredients and steps cut into the same number of contiguous groups: each group's steps are its method."""
    n = max(1, min(len(recipe["steps"]), len(recipe["ingredients"]) // 3, 4))
    def cut(items):
        size, extra = divmod(len(items), n)
        out, k = [], 0
        for g in range(n):
            m = size + (1 if g < extra else 0)
            out.append(items[k:k + m])
            k += m
        return out
    return list(zip(cut(recipe["ingredients"]), cut(recipe["steps"])))


def family_table_step_beside(doc, recipe, rng, y, footnote, hyphenate, truth):
    body = doc.w - 2 * doc.margin
    numbered = rng.random() < 0.7
    with_unit = rng.random() < 0.7
    s = doc.width("00") + 8 if numbered else 0
    quantities = [split_ingredient(i)[0] for i in recipe["ingredients"]]
    q = max([doc.width("0 0/0 ")] + [doc.width(x + " ") for x in quantities]) + 6
    u = doc.width("tablespoons ") + 2 if with_unit else 0
    name = body * rng.choice([0.24, 0.28, 0.32])
    method = body - s - q - u - name
    steps = []
    groups = groups_of(recipe, rng)
    for g, (items, group_steps) in enumerate(groups, 1):
        text = " ".join(group_steps)
        steps.append(text)
        rows = []
        for item in items:
            quantity, unit, rest = split_ingredient(item)
            if not with_unit and unit:
                rest = unit + " " + rest
            rows.append((quantity, unit if with_unit else "", rest))
        method_lines = doc.wrap(text, method - 4, hyphenate=hyphenate)
        name_lines = [doc.wrap(r[2], name - 8) for r in rows]
        height = max(sum(len(n) for n in name_lines), len(method_lines))
        y = doc.room(y + (height - 1) * doc.lead) - (height - 1) * doc.lead
        top = y
        if numbered:
            doc.text(doc.margin, y, str(g), bold=True)
        x = doc.margin + s
        for (quantity, unit, _), lines in zip(rows, name_lines):
            doc.text(x, y, quantity)
            if unit:
                doc.text(x + q, y, unit)
            for line in lines:
                doc.text(x + q + u, y, line)
                y += doc.lead
        for k, line in enumerate(method_lines):
            doc.text(x + q + u + name, top + k * doc.lead, line)
            if footnote and g == len(groups) and k == len(method_lines) - 1:
                doc.marker(x + q + u + name + doc.width(line), top + k * doc.lead, 1, doc.size)
        y = max(y, top + len(method_lines) * doc.lead) + doc.lead * 0.8
    truth["steps"] = steps
    truth["layout_detail"] = "step number %s, unit column %s" % ("yes" if numbered else "no", "yes" if with_unit else "no")
    return y


def family_table_amount_box(doc, recipe, rng, y, footnote, hyphenate):
    body = doc.w - 2 * doc.margin
    box = body * 0.3
    table_width = body - box - 16
    a = doc.width("0 0/0 tablespoons ") + 6
    rows = []
    for item in recipe["ingredients"]:
        quantity, unit, name = split_ingredient(item)
        rows.append([(quantity + " " + unit).strip(), name])
    doc.text(doc.margin, y, "Ingredients", size=doc.size * 1.1, bold=True)
    top = y
    y = table(doc, rows, [(a, "left"), (table_width - a, "left")], doc.margin, y + doc.lead * 1.4, False)
    # The tip box, level with the table's top, in the margin column.
    bx = doc.margin + table_width + 16
    doc.c.set_line_width(0.5)
    lines = doc.wrap(doc.rng.choice(TIPS), box - 12, size=doc.size * 0.9, italic=True)
    doc.c.rectangle(bx, top - doc.size, box, (len(lines) + 0.8) * doc.lead)
    doc.c.stroke()
    for k, line in enumerate(lines):
        doc.text(bx + 6, top + k * doc.lead + 2, line, size=doc.size * 0.9, italic=True)
    y = max(y, top + (len(lines) + 1) * doc.lead) + doc.lead
    y = heading(doc, y, rng.choice(["Method", "Preparation"]), "plain")
    return step_lines(doc, recipe["steps"], doc.margin, y, body, False, hyphenate, footnote)


def family_two_column_page(doc, recipe, rng, y, footnote, hyphenate):
    body = doc.w - 2 * doc.margin
    gap = 20.0
    col = (body - gap) / 2
    # Everything as one flow of (kind, text) lines, cut into two columns at half its height.
    flow = [("head", "Ingredients")]
    for item in recipe["ingredients"]:
        for k, line in enumerate(doc.wrap(item, col - 8)):
            flow.append(("line", line) if k == 0 else ("cont", line))
    flow.append(("gap", ""))
    flow.append(("head", rng.choice(["Method", "Directions"])))
    indent = doc.width("00. ")
    for n, step in enumerate(recipe["steps"], 1):
        for k, line in enumerate(doc.wrap(step, col - indent, hyphenate=hyphenate)):
            flow.append(("step", ("%d." % n if k == 0 else "", line)))
    half = (len(flow) + 1) // 2
    last_step_line = max(k for k, (kind, _) in enumerate(flow) if kind == "step")
    ends = []
    for c, part in enumerate([flow[:half], flow[half:]]):
        x, yy = doc.margin + c * (col + gap), y
        for k, (kind, value) in enumerate(part):
            if kind == "head":
                doc.text(x, yy, value, size=doc.size * 1.1, bold=True)
                yy += doc.lead * 1.3
            elif kind == "gap":
                yy += doc.lead * 0.6
            elif kind == "step":
                label, line = value
                if label:
                    doc.text(x, yy, label)
                doc.text(x + indent, yy, line)
                if footnote and (c * half + k) == last_step_line:
                    doc.marker(x + indent + doc.width(line), yy, 1, doc.size)
                yy += doc.lead
            else:
                doc.text(x + (8 if kind == "cont" else 0), yy, value)
                yy += doc.lead
        ends.append(yy)
    return max(ends)


def make(recipe, family, index, out, rng, seed):
    name = "%s-%03d" % (family, index)
    doc = Doc(os.path.join(out, name + ".pdf"), rng, recipe["title"])
    truth = {"title": recipe["title"], "steps": list(recipe["steps"])}
    footnote = add_furniture(doc, recipe, rng, truth)
    hyphenate = rng.random() < 0.4
    y, title_style = title_block(doc, recipe, rng)
    if family == "list-one-column":
        family_list_one_column(doc, recipe, rng, y, footnote, hyphenate)
    elif family == "list-side-by-side":
        family_list_side_by_side(doc, recipe, rng, y, footnote, hyphenate)
    elif family == "table-qty-unit":
        family_table_qty_unit(doc, recipe, rng, y, footnote, hyphenate)
    elif family == "table-step-beside":
        family_table_step_beside(doc, recipe, rng, y, footnote, hyphenate, truth)
    elif family == "table-amount-box":
        family_table_amount_box(doc, recipe, rng, y, footnote, hyphenate)
    else:
        family_two_column_page(doc, recipe, rng, y, footnote, hyphenate)
    doc.close()
    ingredients = []
    for item in recipe["ingredients"]:
        quantity, unit, rest = split_ingredient(item)
        ingredients.append({"text": " ".join(p for p in (quantity, unit, rest) if p), "quantity": quantity,
                            "unit": unit, "name": rest})
    truth.update({
        "ingredients": ingredients, "step_count": len(truth["steps"]), "layout": family,
        "layout_detail": "%s; %s %.1f pt, %s, title %s, hyphenation %s; %s" % (
            truth.get("layout_detail", family), doc.font, doc.size, doc.paper, title_style,
            "on" if hyphenate else "off", "%d page(s)" % doc.pages),
        "language": "en", "source": "larder-layouts/%s@seed-%d:%s" % (family, seed, recipe["file"]),
        "licence": "evaluation only (recipe text from recipe-scrapers test data; never commit)",
        "built_with": "scripts/data/make-layouts.py (pycairo %s)" % cairo.version,
        "truth_method": "the generator's own input",
        "ingredient_fields": "quantity/unit/name taken from explicit markup (the generator's split, set as cells)",
    })
    with open(os.path.join(out, name + ".truth.json"), "w", encoding="utf-8") as f:
        json.dump(truth, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")
    return name


def default_recipes():
    """../shared beside the repository; for a git worktree elsewhere, beside its main checkout."""
    candidates = [ROOT]
    try:
        import subprocess
        common = subprocess.run(["git", "-C", ROOT, "rev-parse", "--path-format=absolute", "--git-common-dir"],
                                capture_output=True, text=True, check=True).stdout.strip()
        candidates.append(os.path.dirname(common))
    except (OSError, subprocess.CalledProcessError):
        pass
    paths = [os.path.join(c, "..", "shared", "data", "recipes-scraped", "expected_json") for c in candidates]
    return next((p for p in paths if os.path.isdir(p)), paths[0])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("--per-family", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--recipes", default=default_recipes())
    args = parser.parse_args()
    families = [f for f in args.families.split(",") if f]
    unknown = [f for f in families if f not in FAMILIES]
    if unknown:
        sys.exit("make-layouts: unknown families %s (known: %s)" % (", ".join(unknown), ", ".join(FAMILIES)))
    recipes = load_recipes(args.recipes)
    if not recipes:
        sys.exit("make-layouts: no usable recipes under %s: point --recipes at recipe-scrapers' expected_json" %
                 args.recipes)
    os.makedirs(args.out, exist_ok=True)
    written = 0
    for f, family in enumerate(FAMILIES):
        if family not in families:
            continue
        # Each family draws its own recipes and choices from its own stream, so one family's output does not
        # depend on which others are made.
        rng = random.Random("%d/%s" % (args.seed, family))
        for k, recipe in enumerate(rng.sample(recipes, min(args.per_family, len(recipes))), 1):
            make(recipe, family, k, args.out, random.Random("%d/%s/%d" % (args.seed, family, k)), args.seed)
            written += 1
    print("make-layouts: %d PDFs with truth files in %s (%d usable recipes)" % (written, args.out, len(recipes)))


if __name__ == "__main__":
    main()
