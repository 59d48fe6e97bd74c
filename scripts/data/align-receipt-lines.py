#!/usr/bin/env python3
"""Usage: scripts/data/align-receipt-lines.py --cache DIR --out DIR [--photos DIR]

Labels the tesseract lines Larder read from the development photos with the annotators' box labels, so the receipt
line model trains on the lines it reads (noise above the logo, merged and split rows) rather than on the
annotators' clean boxes (issue 35).

--cache is an OCR cache `larder eval receipts ../shared/data/receipts-photos --config eval/photos.yml --ocr-cache
DIR` wrote (files <sha256>-<ocr version>.json). The OCR lines are in the pixels of the image tesseract saw (upscaled,
deskewed, sometimes cropped to the paper), the labels in the photo's own, so each receipt's vertical mapping
y_ocr = a * y_label + b is fitted by least squares on the boxes whose text a line holds (letters and digits, case
folded, containment), the worst-fitting third of pairs dropped once; a receipt with fewer than four such pairs, or
whose fit leaves a median error over half a line, is skipped. Each OCR line then takes the labels of the boxes it
overlaps vertically by at least half the smaller height (the role the model learns is decided from them exactly
as for the box lines, `ReceiptLineData.photoRole`); a line no box overlaps is left unlabelled (`Ignore`).

--out receives, per receipt: boxes/<id>.json (the photos' box-label format, one box per OCR line, so
`larder-worker receipt-model --photo-boxes OUT/boxes` reads it) and lines/<id>.json (the OCR lines as [OCRLine],
the form `--ocr-cache` of `receipt-model` reads for its field figures). Prints what it aligned.
"""
import argparse, glob, hashlib, json, os, re, statistics, sys

# photoRole's order: the first label found decides the line's role.
PRIORITY = ["Total", "Subtotal", "Tax", "Tips", "Prod_item", "Prod_price", "Prod_quantity", "Date", "Time",
            "Store_name", "Store_addr", "Tel", "Others"]


def fold(s):
    return re.sub(r"[^0-9a-z]", "", s.lower())


def base(label):
    return label.replace("_value", "").replace("_key", "")


def fit(pairs):
    """Least squares y = a x + b."""
    n = len(pairs)
    mx = sum(p[0] for p in pairs) / n
    my = sum(p[1] for p in pairs) / n
    sxx = sum((p[0] - mx) ** 2 for p in pairs)
    if sxx == 0:
        return None
    a = sum((p[0] - mx) * (p[1] - my) for p in pairs) / sxx
    return a, my - a * mx


def align(lines, boxes):
    """(labels per line, median error in line heights), or None when the receipt cannot be registered."""
    folded = [fold(l["text"]) for l in lines]
    pairs = []
    for b in boxes:
        t = fold(b["text"])
        if len(t) < 4:
            continue
        hits = [i for i, f in enumerate(folded) if t in f]
        if len(hits) != 1:
            continue
        ys = b["box"][1::2]
        line = lines[hits[0]]["box"]
        pairs.append(((min(ys) + max(ys)) / 2, line["y"] + line["height"] / 2))
    if len(pairs) < 4:
        return None
    ab = fit(pairs)
    if ab is None:
        return None
    res = sorted(pairs, key=lambda p: abs(p[1] - (ab[0] * p[0] + ab[1])))
    kept = res[: max(4, len(res) * 2 // 3)]
    ab = fit(kept)
    if ab is None or ab[0] <= 0:
        return None
    a, b0 = ab
    height = statistics.median(l["box"]["height"] for l in lines) or 1
    err = statistics.median(abs(p[1] - (a * p[0] + b0)) for p in kept) / height
    if err > 0.5:
        return None
    labels = [[] for _ in lines]
    for b in boxes:
        ys = b["box"][1::2]
        top, bottom = a * min(ys) + b0, a * max(ys) + b0
        for i, l in enumerate(lines):
            lt, lb = l["box"]["y"], l["box"]["y"] + l["box"]["height"]
            overlap = min(lb, bottom) - max(lt, top)
            if overlap >= 0.5 * max(1, min(lb - lt, bottom - top)):
                labels[i].append(base(b["label"]))
    return labels, err


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--photos", default=os.path.join(os.path.dirname(__file__), "../../../shared/data/receipts-photos"))
    args = ap.parse_args()
    cached = {os.path.basename(f).split("-")[0]: f for f in glob.glob(os.path.join(args.cache, "*.json"))}
    os.makedirs(os.path.join(args.out, "boxes"), exist_ok=True)
    os.makedirs(os.path.join(args.out, "lines"), exist_ok=True)
    images = sorted(glob.glob(os.path.join(args.photos, "*.jpg")))
    if not images:
        sys.exit(f"align-receipt-lines: no photos in {args.photos} (pass --photos ../shared/data/receipts-photos)")
    done, skipped, labelled, total = 0, [], 0, 0
    for path in images:
        rid = os.path.basename(path)[:-4]
        sha = hashlib.sha256(open(path, "rb").read()).hexdigest()
        if sha not in cached:
            skipped.append((rid, "not in the cache"))
            continue
        lines = [l for l in json.load(open(cached[sha]))["lines"] if l.get("page", 1) == 1]
        with open(os.path.join(args.out, "lines", rid + ".json"), "w") as f:
            json.dump(lines, f)
        boxes = json.load(open(os.path.join(args.photos, "boxes", rid + ".json")))["boxes"]
        result = align(lines, boxes)
        if result is None:
            skipped.append((rid, "no registration"))
            continue
        labels, _ = result
        out = []
        for l, ls in zip(lines, labels):
            label = next((p for p in PRIORITY if p in ls), "Ignore")
            labelled += label != "Ignore"
            total += 1
            x, y, w, h = l["box"]["x"], l["box"]["y"], l["box"]["width"], l["box"]["height"]
            out.append({"box": [x, y + h, x + w, y + h, x + w, y, x, y], "text": l["text"], "label": label})
        with open(os.path.join(args.out, "boxes", rid + ".json"), "w") as f:
            json.dump({"id": rid, "boxes": out}, f)
        done += 1
    print(f"align-receipt-lines: {done} receipts aligned ({labelled} of {total} OCR lines labelled), "
          f"{len(skipped)} skipped: " + ", ".join(f"{r} ({why})" for r, why in skipped))


if __name__ == "__main__":
    main()
