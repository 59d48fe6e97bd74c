#!/usr/bin/python3
"""Writes the bad-input test fixtures in Tests/Fixtures/.

Usage:  scripts/data/make-fixtures.py [--check] [--force]

  encrypted.pdf       small text PDF, AES-256 encrypted with user password "userpw"
                      (owner password "ownerpw") by qpdf
  zero-pages.pdf      hand-written, valid PDF whose page tree is /Kids [] /Count 0
  truncated.pdf       first 60% of the bytes of a 3-page cairo text PDF
  html-saved-as.pdf   an HTML recipe page saved under a .pdf name
  latin1.txt          recipe in ISO-8859-1 bytes (not valid UTF-8)
  utf16.txt           recipe in UTF-16 LE with a BOM and CRLF line ends
  scanned-recipe.pdf  an image-only PDF (no text layer): a recipe card rendered at
                      200 dpi, turned 0.4 degrees as a scanner would, embedded as
                      a grayscale JPEG (under 200 KB); only OCR can read it

Deterministic where possible: fixed PDF dates and qpdf --static-id/--static-aes-iv.
qpdf still draws a random AES-256 file key, so encrypted.pdf is only rewritten
when missing, when it no longer decrypts to the expected text, or with --force.
--check runs pdfinfo/pdftotext on the PDFs and prints what they do.

Needs Debian's python (python3-cairo, python3-pil) and qpdf; see scripts/setup.sh.
The files it writes name it by its former path, scripts/make-fixtures.py, so that moving it to scripts/data/ changed no byte
of its output.
"""
import os
import subprocess
import sys
import tempfile

import io
import math

import cairo
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Tests", "Fixtures")
FIXED_DATE = "2026-01-01T00:00:00Z"
MAX_SIZE = 20 * 1024
MAX_SCAN_SIZE = 200 * 1024


def cairo_text_pdf(path, title, pages):
    """A plain text PDF: `pages` is a list of lists of lines (first line of page 1 is the title)."""
    s = cairo.PDFSurface(path, 595, 842)
    s.set_metadata(cairo.PDFMetadata.TITLE, title)
    s.set_metadata(cairo.PDFMetadata.CREATOR, "scripts/make-fixtures.py")
    s.set_metadata(cairo.PDFMetadata.CREATE_DATE, FIXED_DATE)
    s.set_metadata(cairo.PDFMetadata.MOD_DATE, FIXED_DATE)
    c = cairo.Context(s)
    # One face only (regular DejaVu Sans) keeps the embedded font subset, and the file, small.
    c.select_font_face("DejaVu Sans", cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_NORMAL)
    for pno, lines in enumerate(pages):
        y = 70
        for i, ln in enumerate(lines):
            size = 20 if (pno == 0 and i == 0) else 11
            c.set_font_size(size)
            y += size * 1.45
            c.move_to(56, y)
            c.show_text(ln)
        c.show_page()
    s.finish()


SECRET_RECIPE = [[
    "Secret Family Flapjacks",
    "Makes 12 squares",
    "Prep: 10 mins / Bake: 25 mins",
    "",
    "Ingredients",
    "250 g rolled oats",
    "125 g butter",
    "125 g light brown sugar",
    "3 tbsp golden syrup",
    "a pinch of salt",
    "",
    "Method",
    "1. Heat the oven to 180°C (350°F) and line a 20 cm square tin.",
    "2. Melt the butter, sugar and syrup together over a low heat.",
    "3. Stir in the oats and salt, press into the tin and bake for 25 minutes.",
    "4. Cool in the tin for 10 minutes, then cut into squares.",
]]


def long_recipe_pages():
    """Three pages of a long stew recipe (for truncated.pdf)."""
    p1 = ["Winter Vegetable Stew", "Serves 6", "Prep: 25 mins / Cook: 1 hr 20 mins", "",
          "Ingredients"]
    veg = ["parsnips", "carrots", "swede", "celeriac", "leeks", "potatoes", "turnips",
           "shallots", "celery sticks", "chestnut mushrooms", "butternut squash", "kale"]
    for i, v in enumerate(veg):
        p1.append(f"{i % 3 + 1} {'large ' if i % 2 else ''}{v}, cut into 2 cm chunks")
    p1 += ["2 tbsp olive oil", "2 tbsp tomato purée", "1 tbsp plain flour",
           "1.2 litres (5 cups) vegetable stock", "2 bay leaves", "3 sprigs thyme",
           "400 g can butter beans, drained", "salt and pepper to taste"]
    steps = [
        "Heat the oil in a large casserole over a medium heat.",
        "Add the shallots, leeks and celery and cook for 10 minutes until soft.",
        "Stir in the tomato purée and flour and cook for 2 minutes.",
        "Add the root vegetables and stir well to coat them.",
        "Pour in the stock, add the bay and thyme, and bring to the boil.",
        "Cover and simmer for 45 minutes, stirring now and then.",
        "Add the squash and mushrooms and cook for 15 minutes more.",
        "Stir in the kale and butter beans and cook for 5 minutes.",
        "Remove the bay leaves and thyme stalks and season to taste.",
        "Serve in deep bowls with crusty bread.",
    ]
    p2 = ["Method"] + [f"{i}. {s}" for i, s in enumerate(steps, 1)]
    p2 += ["", "Notes",
           "The stew keeps for 4 days in the fridge and freezes well for 3 months.",
           "Reheat gently on the hob, adding a splash of water if it has thickened."]
    p3 = ["Variations",
          "Cheddar dumplings: rub 50 g butter into 100 g self-raising flour,",
          "stir in 50 g grated cheddar and 4 tbsp water, roll into 8 balls and",
          "sit them on the stew for the last 20 minutes with the lid on.",
          "",
          "Spiced version: add 1 tsp each of cumin and smoked paprika with the flour,",
          "and finish with a squeeze of lime and chopped coriander.",
          "",
          "Cooking times at a glance",
          "Shallots and leeks: 10 minutes",
          "Root vegetables: 45 minutes at a gentle simmer",
          "Squash and mushrooms: 15 minutes",
          "Kale and beans: 5 minutes"]
    return [p1, p2, p3]


ZERO_PAGES_OBJS = [
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [] /Count 0 >>",
    b"<< /Title (Empty document) /Producer (Larder scripts/make-fixtures.py) "
    b"/CreationDate (D:20260101000000Z) >>",
]


def zero_pages_pdf():
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(ZERO_PAGES_OBJS, 1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    n = len(ZERO_PAGES_OBJS) + 1
    out += f"xref\n0 {n}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {n} /Root 1 0 R /Info 3 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


HTML_PAGE = """\
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Quick Guacamole | Larder test fixture</title>
</head>
<body>
<article class="recipe">
  <h1>Quick Guacamole</h1>
  <p class="meta">Serves 4 &middot; Prep: 10 mins</p>
  <h2>Ingredients</h2>
  <ul>
    <li>3 ripe avocados</li>
    <li>1 lime, juiced</li>
    <li>1/2 small red onion, finely chopped</li>
    <li>1 tomato, deseeded and diced</li>
    <li>2 tbsp chopped coriander</li>
    <li>salt to taste</li>
  </ul>
  <h2>Method</h2>
  <ol>
    <li>Halve the avocados, remove the stones and scoop the flesh into a bowl.</li>
    <li>Mash roughly with a fork, then stir in the lime juice, onion, tomato and coriander.</li>
    <li>Season with salt and serve within 30 minutes.</li>
  </ol>
</article>
</body>
</html>
"""

LATIN1_TEXT = """\
Crème Brûlée with Jalapeño Caramel

Serves 6
Prep: 20 mins / Cook: 40 mins / Chill: 4 hours

Ingredients
600 ml double cream
1 vanilla pod, split
6 egg yolks
75 g caster sugar, plus 6 tbsp for the tops
1 small jalapeño, very finely chopped

Method
1. Heat the oven to 150°C (300°F). Warm the cream with the vanilla pod until
   just steaming, then leave to infuse for 10 minutes.
2. Whisk the yolks and 75 g sugar until pale, then whisk in the warm cream.
3. Strain into 6 ramekins, set them in a roasting tin and pour hot water
   halfway up their sides. Bake for 35-40 minutes until just set.
4. Chill for at least 4 hours.
5. Melt 6 tbsp sugar with the jalapeño to a deep amber caramel, spoon a thin
   layer over each crème and leave to harden for 2 minutes. Serve à la minute.
"""

UTF16_TEXT = """\
Jalapeño Cornbread

Makes 9 squares
Prep: 10 mins / Bake: 25 mins

Ingredients
150 g (1 cup) fine cornmeal
125 g (1 cup) plain flour
1 tbsp baking powder
½ tsp salt
2 eggs
250 ml (1 cup) buttermilk
60 g melted butter
2 jalapeños, deseeded and chopped

Method
1. Heat the oven to 200°C (400°F) and grease a 20 cm square tin.
2. Mix the dry ingredients, then stir in the eggs, buttermilk and butter.
3. Fold in the jalapeños, pour into the tin and bake for 20–25 minutes.
"""


SCANNED_RECIPE = {
    "title": "Harvest Barley Soup",
    "meta": ["Serves 4", "Prep: 15 minutes  Cook: 45 minutes"],
    "ingredients": [
        "2 tablespoons olive oil",
        "1 large onion, finely chopped",
        "2 carrots, diced",
        "2 celery sticks, sliced",
        "150 g pearl barley, rinsed",
        "1.2 litres vegetable stock",
        "400 g tin chopped tomatoes",
        "1 teaspoon dried thyme",
        "salt and black pepper",
    ],
    "method": [
        "Heat the oil in a large pan and cook the onion, carrots and celery for 8 minutes until soft.",
        "Stir in the barley, stock, tomatoes and thyme. Bring to the boil.",
        "Cover and simmer for 40 minutes, stirring now and then, until the barley is tender.",
        "Season with salt and pepper and serve hot.",
    ],
}


def scanned_recipe_pdf():
    """An A5 image-only PDF: the recipe drawn into a 200 dpi bitmap, turned a little, embedded as JPEG."""
    dpi = 200
    page_w, page_h = 420, 595  # A5 in points
    w, h = page_w * dpi // 72, page_h * dpi // 72
    surf = cairo.ImageSurface(cairo.FORMAT_RGB24, w, h)
    c = cairo.Context(surf)
    c.set_source_rgb(0.97, 0.96, 0.93)  # off-white paper
    c.paint()
    c.translate(w / 2, h / 2)
    c.rotate(math.radians(0.4))  # a scanner is never quite straight
    c.translate(-w / 2, -h / 2)
    c.scale(dpi / 72, dpi / 72)  # draw in points
    c.set_source_rgb(0.08, 0.08, 0.08)
    y = 50.0

    def text(s, size, bold=False, x=40.0, after=1.35):
        nonlocal y
        c.select_font_face("DejaVu Serif", cairo.FONT_SLANT_NORMAL,
                           cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL)
        c.set_font_size(size)
        y += size * after
        c.move_to(x, y)
        c.show_text(s)

    def wrapped(s, size, x, width, hang=None):
        c.set_font_size(size)
        words, line, first = s.split(), "", True
        for word in words + [None]:
            trial = (line + " " + word).strip() if word else line
            if word is None or (line and c.text_extents(trial).x_advance > width):
                if hang and first:
                    text(hang, size, x=x - 16, after=1.35)
                    c.move_to(x, y)
                    c.show_text(line)
                else:
                    text(line, size, x=x)
                first, line = False, word or ""
            else:
                line = trial

    r = SCANNED_RECIPE
    text(r["title"], 20, bold=True)
    y += 4
    for m in r["meta"]:
        text(m, 10)
    y += 8
    text("Ingredients", 13, bold=True)
    y += 2
    for item in r["ingredients"]:
        text(item, 10)
    y += 8
    text("Method", 13, bold=True)
    y += 2
    for i, step in enumerate(r["method"], 1):
        wrapped(step, 10, 58, page_w - 58 - 40, hang=f"{i}.")
        y += 3
    surf.flush()
    img = Image.frombuffer("RGBA", (w, h), bytes(surf.get_data()), "raw", "BGRA", surf.get_stride(), 1).convert("L")
    jpeg = io.BytesIO()
    img.save(jpeg, "JPEG", quality=70, dpi=(dpi, dpi))
    # cairo embeds the JPEG bytes as they are (DCTDecode) when they are attached as MIME data.
    gray = cairo.ImageSurface(cairo.FORMAT_RGB24, w, h)
    gc = cairo.Context(gray)
    gc.set_source_surface(surf)
    gc.paint()
    gray.set_mime_data(cairo.MIME_TYPE_JPEG, jpeg.getvalue())
    out = io.BytesIO()
    pdf = cairo.PDFSurface(out, page_w, page_h)
    pdf.set_metadata(cairo.PDFMetadata.TITLE, "Scanned recipe card")
    pdf.set_metadata(cairo.PDFMetadata.CREATOR, "scripts/make-fixtures.py")
    pdf.set_metadata(cairo.PDFMetadata.CREATE_DATE, FIXED_DATE)
    pdf.set_metadata(cairo.PDFMetadata.MOD_DATE, FIXED_DATE)
    pc = cairo.Context(pdf)
    pc.scale(72 / dpi, 72 / dpi)
    pc.set_source_surface(gray)
    pc.paint()
    pdf.finish()
    return out.getvalue()


def write(name, data, limit=MAX_SIZE):
    path = os.path.join(OUT, name)
    with open(path, "wb") as f:
        f.write(data)
    assert len(data) <= limit, f"{name} is {len(data)} bytes (> {limit // 1024} KB)"
    print(f"wrote {os.path.relpath(path, ROOT)} ({len(data)} bytes)")


def pdf_text(path, password=None):
    cmd = ["pdftotext"] + (["-upw", password] if password else []) + [path, "-"]
    p = subprocess.run(cmd, capture_output=True)
    return p.stdout.decode("utf-8", "replace") if p.returncode == 0 else ""


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    return p.returncode, p.stdout, p.stderr


def main():
    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        # encrypted.pdf
        plain = os.path.join(tmp, "plain.pdf")
        cairo_text_pdf(plain, "Secret Family Flapjacks", SECRET_RECIPE)
        enc = os.path.join(tmp, "encrypted.pdf")
        subprocess.run(["qpdf", "--static-id", "--static-aes-iv",
                        "--encrypt", "userpw", "ownerpw", "256", "--", plain, enc], check=True)
        existing = os.path.join(OUT, "encrypted.pdf")
        if os.path.exists(existing) and "--force" not in sys.argv[1:] and \
                pdf_text(existing, "userpw") == pdf_text(plain) != "":
            # qpdf draws a random AES-256 file key on every run, so the bytes
            # always change; keep the committed file while it still decrypts
            # to the same text (pass --force to rewrite it anyway).
            print("kept Tests/Fixtures/encrypted.pdf (same content; --force rewrites it)")
        else:
            with open(enc, "rb") as f:
                write("encrypted.pdf", f.read())

        # truncated.pdf
        full = os.path.join(tmp, "full.pdf")
        cairo_text_pdf(full, "Winter Vegetable Stew", long_recipe_pages())
        with open(full, "rb") as f:
            data = f.read()
        write("truncated.pdf", data[: len(data) * 60 // 100])
        print(f"  (truncated.pdf = first 60% of a {len(data)}-byte, 3-page PDF)")

    write("zero-pages.pdf", zero_pages_pdf())
    write("html-saved-as.pdf", HTML_PAGE.encode("utf-8"))
    write("latin1.txt", LATIN1_TEXT.encode("iso-8859-1"))
    write("utf16.txt", b"\xff\xfe" + UTF16_TEXT.replace("\n", "\r\n").encode("utf-16-le"))
    write("scanned-recipe.pdf", scanned_recipe_pdf(), limit=MAX_SCAN_SIZE)

    # Sanity checks on the text fixtures.
    raw = open(os.path.join(OUT, "latin1.txt"), "rb").read()
    try:
        raw.decode("utf-8")
        raise SystemExit("latin1.txt unexpectedly decodes as UTF-8")
    except UnicodeDecodeError:
        pass

    if "--check" in sys.argv[1:]:
        for name in ("encrypted.pdf", "zero-pages.pdf", "truncated.pdf", "html-saved-as.pdf"):
            p = os.path.join(OUT, name)
            for cmd in (["pdfinfo", p], ["pdftotext", p, "-"]):
                rc, out, err = run(cmd)
                print(f"==== {cmd[0]} {name}: exit {rc}")
                if out.strip():
                    print("stdout:", out.strip()[:600])
                if err.strip():
                    print("stderr:", err.strip()[:600])
        rc, out, err = run(["pdftotext", "-upw", "userpw", os.path.join(OUT, "encrypted.pdf"), "-"])
        print(f"==== pdftotext -upw userpw encrypted.pdf: exit {rc}\n{out.strip()[:200]}")


if __name__ == "__main__":
    main()
