#!/usr/bin/env python3
"""Usage: make-hostile-exports.py KIND OUT [MEGABYTES]

Writes one just-under-the-limit input for the hostile tier and scripts/bench/bench-hostile.sh (issue 36): a file of
MEGABYTES (default 15) MB that is a valid document of its kind, built to make the largest output it can. Seeded, so
every run writes the same bytes; nothing large is kept in the repository.
  text        a text recipe: ingredient lines, then numbered steps
  html        a saved recipe page: <li> ingredients, then an <ol> of steps
  mealmaster  one MealMaster recipe whose ingredient list fills the file
  mealmasters MealMaster recipes of 40 ingredients each, one after another
  mastercook  one MasterCook text (.mxp) recipe whose ingredient table fills the file
  mx2         one MasterCook XML recipe of <IngR> elements
  cooklang    one Cooklang recipe: steps of @ingredients{}
  csv         a recipe CSV (My Recipe Box columns), rows of 40 ingredients each
  csvcell     one CSV row whose ingredients cell fills the file
  paprika     a .paprikarecipes archive: one gzipped Paprika entry whose ingredients fill it (15 MB inflated)
  schemaorg   a JSON file of schema.org recipes, 40 ingredients each
  mealie      one Mealie recipe.json whose recipe_ingredient list fills the file
"""
import gzip
import io
import json
import random
import sys
import zipfile

UNITS = ["cup", "tbsp", "tsp", "g", "ml", "oz"]
FOODS = ["flour", "sugar", "butter", "milk", "eggs", "salt", "onion", "carrot", "stock", "rice"]


def ingredient(rng):
    return f"{rng.randint(1, 500)} {rng.choice(UNITS)} {rng.choice(FOODS)}, chopped"


def step(rng, n):
    return f"{n}. Stir the {rng.choice(FOODS)} into the pan and cook for {rng.randint(1, 60)} minutes until golden."


def fill(size, head, line, tail=""):
    """head, then line(i) for i = 0, 1, … while the whole stays under size bytes, then tail."""
    parts, total, i = [head], len(head.encode()) + len(tail.encode()), 0
    while True:
        piece = line(i)
        n = len(piece.encode())
        if total + n > size:
            break
        parts.append(piece)
        total += n
        i += 1
    parts.append(tail)
    return "".join(parts)


def make(kind, size, rng):
    half = size // 2
    if kind == "text":
        text = fill(half, "Big Probe Stew\n\nServes 4\n\nIngredients\n", lambda i: ingredient(rng) + "\n")
        return fill(size, text + "\nMethod\n", lambda i: step(rng, i + 1) + "\n").encode()
    if kind == "html":
        head = ("<!doctype html><html><head><title>Big Probe Soup</title></head><body><h1>Big Probe Soup</h1>"
                "<p>Serves 4</p><h2>Ingredients</h2><ul>\n")
        page = fill(half, head, lambda i: f"<li>{ingredient(rng)}</li>\n", "</ul><h2>Method</h2><ol>\n")
        return fill(size, page, lambda i: f"<li>{step(rng, i + 1)[3:]}</li>\n", "</ol></body></html>\n").encode()
    if kind == "mealmaster":
        head = ("---------- Recipe via Meal-Master (tm) v8.05\n \n      Title: Big Probe Casserole\n"
                " Categories: Casserole\n      Yield: 8 Servings\n \n")
        return fill(size, head, lambda i: f"{rng.randint(1, 99):>7} c  {rng.choice(FOODS).title()}; diced\n",
                    "\n  Bake at 350 for one hour.\n \n-----\n").encode()
    if kind == "mealmasters":
        def recipe(i):
            lines = [f"---------- Recipe via Meal-Master (tm) v8.05\n \n      Title: Probe Casserole {i}\n"
                     " Categories: Casserole\n      Yield: 8 Servings\n \n"]
            lines += [f"{rng.randint(1, 99):>7} c  {rng.choice(FOODS).title()}; diced\n" for _ in range(40)]
            lines.append("\n  Mix and bake at 350 for one hour.\n \n-----\n\n")
            return "".join(lines)
        return fill(size, "", recipe).encode()
    if kind == "mastercook":
        head = ("* Exported from MasterCook *\n\n                               Big Probe Recipe\n\n"
                "Recipe By     :Probe\nServing Size  : 2     Preparation Time :1:25\nCategories    : Soups\n\n"
                "  Amount  Measure       Ingredient -- Preparation Method\n"
                "--------  ------------  --------------------------------\n")
        return fill(size, head,
                    lambda i: f"  {rng.randint(1, 99):<16}cup  {rng.choice(FOODS)} -- chopped\n",
                    "\nSimmer everything for an hour.\n\n                                    - - - - - - - - - - - - - - - - - - - \n").encode()
    if kind == "mx2":
        head = ('<?xml version="1.0" standalone="yes" encoding="ISO-8859-1"?>\n<mx2 source="MasterCook 6.0">\n'
                '<RcpE name="Big Probe Dip" author="n/a">\n<Serv qty="4"/>\n')
        return fill(size, head,
                    lambda i: f'<IngR name="{rng.choice(FOODS)}" unit="cup" qty="{rng.randint(1, 99)}"></IngR>\n',
                    "<DirS>\n<DirT>\nMix everything.\n</DirT>\n</DirS>\n</RcpE>\n</mx2>\n").encode()
    if kind == "cooklang":
        return fill(size, "---\ntitle: Big Probe Soup\n---\n",
                    lambda i: f"Add @{rng.choice(FOODS)}{{{rng.randint(1, 500)}%g}} and stir for ~{{{rng.randint(1, 60)}%minutes}}.\n\n").encode()
    if kind in ("csv", "csvcell"):
        header = "title,description,preparationTime,cookingTime,inactiveTime,totalTime,quantity,ingredients,instructions,notes\n"
        if kind == "csv":
            def row(i):
                ingredients = "\n".join(ingredient(rng) for _ in range(40))
                return f'Probe Stew {i},A stew,10,15,,25,4,"{ingredients}","Stir and cook.",\n'
            return fill(size, header, row).encode()
        body = fill(size - 200, "", lambda i: ingredient(rng) + "\n")
        return (header + f'Big Probe Stew,A stew,10,15,,25,4,"{body}","Stir and cook.",\n').encode()
    if kind == "paprika":
        entry = {"name": "Big Probe Stew", "uid": "PROBE-1", "directions": "Stir and cook.",
                 "ingredients": fill(size - 200, "", lambda i: ingredient(rng) + "\n")}
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
            z.writestr("Big Probe Stew.paprikarecipe", gzip.compress(json.dumps(entry).encode(), 9))
        return out.getvalue()
    if kind == "schemaorg":
        def recipe(i):
            r = {"@context": "https://schema.org", "@type": "Recipe", "name": f"Probe Stew {i}",
                 "recipeIngredient": [ingredient(rng) for _ in range(40)],
                 "recipeInstructions": [{"@type": "HowToStep", "text": step(rng, 1)[3:]}]}
            return ("," if i else "") + json.dumps(r)
        return fill(size, "[", recipe, "]").encode()
    if kind == "mealie":
        head = '{"name": "Big Probe Stew", "slug": "big-probe-stew", "recipe_instructions": [{"text": "Stir."}], "recipe_ingredient": ['
        return fill(size, head, lambda i: ("," if i else "") + json.dumps({"note": ingredient(rng), "title": None}), "]}").encode()
    raise SystemExit(f"unknown kind {kind!r}; see --help")


def main():
    if len(sys.argv) < 3 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        raise SystemExit(0 if len(sys.argv) > 1 else 2)
    size = int(float(sys.argv[3]) * 1_000_000) if len(sys.argv) > 3 else 15_000_000
    data = make(sys.argv[1], size, random.Random(36))
    with open(sys.argv[2], "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
