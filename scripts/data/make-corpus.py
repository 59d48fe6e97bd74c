#!/usr/bin/python3
"""Writes N distinct recipe-like text-layer PDFs for the benchmark and the crash/resume tests.

Usage:  scripts/data/make-corpus.py N OUTDIR [--seed S]

Each file has 1-3 A4 pages of generated recipe text (title, yield, times,
ingredients, numbered method steps) in the standard Helvetica fonts, with a
FlateDecode content stream per page and a correct xref table. Every file names
its own index and the seed, so all files differ in bytes and SHA-256. Output
is deterministic for a given (N, seed): same bytes on every run.

Files are named recipe-00000.pdf, recipe-00001.pdf, ... directly in OUTDIR.
Only the Python standard library is used; 2,000 files take a few seconds.
The files it writes name it by its former path, scripts/make-corpus.py, so that moving it to scripts/data/ changed no byte
of its output.
"""
import argparse
import os
import random
import sys
import textwrap
import time
import zlib

ADJ = ["Smoky", "Golden", "Crispy", "Slow-Cooked", "Spiced", "Herby", "Creamy", "Zesty",
       "Rustic", "Sticky", "Charred", "Honeyed", "Peppery", "Garlicky", "Fragrant", "Tangy"]
MAIN = ["Chickpea", "Chicken", "Lentil", "Mushroom", "Salmon", "Pork", "Squash", "Tofu",
        "Beef", "Aubergine", "Prawn", "Cauliflower", "Lamb", "Sweet Potato", "Bean", "Cod"]
DISH = ["Stew", "Curry", "Traybake", "Soup", "Pie", "Salad", "Bake", "Risotto", "Tacos",
        "Noodles", "Skewers", "Casserole", "Flatbreads", "Gratin", "Hash", "Pilaf"]
UNITS = ["tbsp", "tsp", "cups", "cup", "g", "ml", "kg", "oz", "lb", "cloves", "cans", "pinch"]
QTY = ["1", "2", "3", "4", "1/2", "1/4", "3/4", "1 1/2", "2 1/2", "100", "150", "200", "250",
       "400", "500", "6", "8"]
FOOD = ["olive oil", "onion, finely chopped", "garlic, crushed", "ground cumin", "smoked paprika",
        "chopped tomatoes", "vegetable stock", "chicken stock", "plain flour", "butter",
        "double cream", "lemon juice", "fresh parsley, chopped", "carrots, diced",
        "celery sticks, sliced", "red chilli, deseeded", "coconut milk", "soy sauce",
        "brown sugar", "rice vinegar", "spring onions, sliced", "potatoes, peeled and cubed",
        "frozen peas", "baby spinach", "parmesan, grated", "long-grain rice", "dried oregano",
        "ground coriander", "fresh ginger, grated", "honey", "Dijon mustard", "cherry tomatoes",
        "red lentils, rinsed", "milk", "eggs, beaten", "breadcrumbs", "black pepper", "sea salt"]
VERB = ["Heat", "Stir", "Add", "Whisk", "Fold", "Simmer", "Roast", "Fry", "Season", "Scatter",
        "Toss", "Pour", "Bake", "Grill", "Reduce", "Blend"]
OBJ = ["the onion and garlic", "the spices", "the stock", "the vegetables", "the sauce",
       "the remaining oil", "the herbs", "the rice", "the cream", "the tomatoes",
       "the chicken pieces", "the lentils", "the dough", "the dressing"]
TAIL = ["until soft and golden", "until fragrant", "until thickened", "until tender",
        "until the liquid has mostly evaporated", "stirring now and then",
        "until lightly browned", "until piping hot", "until bubbling at the edges",
        "then season to taste", "until cooked through"]
WHEN = ["for {m} minutes", "for about {m} minutes", "for {m}-{m2} minutes", "for {m} mins"]

PAGE_W, PAGE_H = 595, 842
LEFT, TOP, BOTTOM = 56, 786, 60


def pdf_escape(s):
    # Text is ASCII plus the degree sign, written as a WinAnsi octal escape.
    return (s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
             .replace("\u00b0", "\\260"))


def recipe_lines(rng, idx, seed):
    """Returns a list of (font, size, text) lines for one document."""
    out = []
    n_recipes = rng.choice([1, 1, 1, 2])
    for r in range(n_recipes):
        title = f"{rng.choice(ADJ)} {rng.choice(MAIN)} {rng.choice(DISH)}"
        if r:
            out.append(("F1", 11, ""))
        out.append(("F2", 22, title))
        out.append(("F1", 9, f"Corpus file {idx} / recipe {r + 1} / seed {seed}"))
        out.append(("F1", 11, f"Serves {rng.randint(2, 8)}"))
        out.append(("F1", 11, f"Prep: {rng.randint(5, 40)} mins / Cook: {rng.randint(10, 150)} mins"))
        out.append(("F1", 11, ""))
        out.append(("F2", 14, "Ingredients"))
        for _ in range(rng.randint(6, 18)):
            q, u, f = rng.choice(QTY), rng.choice(UNITS), rng.choice(FOOD)
            out.append(("F1", 11, f"{q} {u} {f}"))
        out.append(("F1", 11, "salt and pepper to taste"))
        out.append(("F1", 11, ""))
        out.append(("F2", 14, "Method"))
        for s in range(1, rng.randint(4, 16) + 1):
            m = rng.randint(2, 45)
            parts = []
            for _ in range(rng.randint(1, 3)):
                parts.append(f"{rng.choice(VERB)} {rng.choice(OBJ)} "
                             f"{rng.choice(WHEN).format(m=m, m2=m + 5)}, {rng.choice(TAIL)}.")
            if rng.random() < 0.25:
                c = rng.choice([160, 180, 190, 200, 220])
                parts.append(f"The oven should be at {c}\u00b0C ({round(c * 9 / 5 + 32, -1):.0f}\u00b0F).")
            wrapped = textwrap.wrap(f"{s}. " + " ".join(parts), 88, subsequent_indent="   ")
            out.extend(("F1", 11, w) for w in wrapped)
    return out


def paginate(lines, max_pages):
    pages, cur, y = [], [], TOP
    for font, size, text in lines:
        lead = size * 1.4
        if y - lead < BOTTOM:
            pages.append(cur)
            if len(pages) == max_pages:
                return pages
            cur, y = [], TOP
        y -= lead
        if text:
            cur.append((font, size, y, text))
    if cur:
        pages.append(cur)
    return pages


def content_stream(page):
    parts = ["BT"]
    for font, size, y, text in page:
        parts.append(f"/{font} {size} Tf 1 0 0 1 {LEFT} {y:.1f} Tm ({pdf_escape(text)}) Tj")
    parts.append("ET")
    return "\n".join(parts).encode("latin-1")


def build_pdf(pages, title):
    objs = {}
    n_pages = len(pages)
    page_ids = [5 + 2 * i for i in range(n_pages)]
    objs[1] = b"<< /Type /Catalog /Pages 2 0 R >>"
    kids = " ".join(f"{p} 0 R" for p in page_ids)
    objs[2] = f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode()
    objs[3] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
    objs[4] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>"
    for i, page in enumerate(pages):
        pid = page_ids[i]
        objs[pid] = (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {PAGE_W} {PAGE_H}] "
                     f"/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents {pid + 1} 0 R >>").encode()
        data = zlib.compress(content_stream(page), 6)
        objs[pid + 1] = (f"<< /Length {len(data)} /Filter /FlateDecode >>\nstream\n".encode()
                         + data + b"\nendstream")
    info_id = 5 + 2 * n_pages
    objs[info_id] = (f"<< /Title ({pdf_escape(title)}) /Producer (Larder scripts/make-corpus.py) "
                     f"/CreationDate (D:20260101000000Z) >>").encode()
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    for oid in range(1, info_id + 1):
        offsets[oid] = len(out)
        out += f"{oid} 0 obj\n".encode() + objs[oid] + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {info_id + 1}\n0000000000 65535 f \n".encode()
    for oid in range(1, info_id + 1):
        out += f"{offsets[oid]:010d} 00000 n \n".encode()
    out += (f"trailer\n<< /Size {info_id + 1} /Root 1 0 R /Info {info_id} 0 R >>\n"
            f"startxref\n{xref}\n%%EOF\n").encode()
    return bytes(out)


def make_one(idx, seed):
    rng = random.Random(f"larder-corpus:{seed}:{idx}")
    max_pages = rng.choice([1, 1, 2, 2, 3])
    lines = recipe_lines(rng, idx, seed)
    # Pad short documents so the page count really is max_pages.
    while len(paginate(lines, max_pages)) < max_pages:
        lines += recipe_lines(rng, idx, seed)
    pages = paginate(lines, max_pages)
    title = next(t for f, s, t in lines if f == "F2")
    return build_pdf(pages, title), len(pages)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, help="number of PDFs to write")
    ap.add_argument("outdir")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    if a.n < 0:
        ap.error("N must be >= 0")
    os.makedirs(a.outdir, exist_ok=True)
    t0 = time.monotonic()
    total_pages = total_bytes = 0
    for i in range(a.n):
        data, pages = make_one(i, a.seed)
        with open(os.path.join(a.outdir, f"recipe-{i:05d}.pdf"), "wb") as f:
            f.write(data)
        total_pages += pages
        total_bytes += len(data)
    dt = time.monotonic() - t0
    print(f"make-corpus: wrote {a.n} files, {total_pages} pages, {total_bytes} bytes "
          f"to {a.outdir} (seed {a.seed}) in {dt:.1f}s")


if __name__ == "__main__":
    main(sys.argv[1:])
