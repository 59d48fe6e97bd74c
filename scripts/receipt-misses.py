#!/usr/bin/env python3
"""Buckets the misses of a receipt evaluation: is the labelled store, date or total anywhere in the OCR text?

    larder eval receipts ../shared/data/receipts-photos --json --details --ocr-cache /tmp/ocr > /tmp/eval.json
    python3 scripts/receipt-misses.py /tmp/eval.json /tmp/ocr ../shared/data/receipts-photos [-v]

A miss whose value is in the text is the parser's to fix; one that is not is the OCR's. Standard library only.
"""
import json
import os
import re
import sys


def key(s):
    return re.sub(r"[^a-z0-9]", "", s.lower())


def main(report, cache, labels, verbose):
    buckets = {}

    def add(name, rid, info):
        buckets.setdefault(name, []).append((rid, info))

    for r in json.load(open(report))["receipts"]:
        rid = r["id"]
        label = json.load(open(os.path.join(labels, rid + ".json")))
        path = os.path.join(cache, rid + ".json")
        lines = [line["text"] for line in json.load(open(path))] if os.path.exists(path) else []
        text = key("\n".join(lines))
        if r.get("storeOK") is False:
            store = key(label["store"])
            where = "in-text" if store and store in text else ("partly" if store[:5] and store[:5] in text else "not-read")
            add("store " + where, rid, f"label {label['store']!r} predicted {r.get('predictedStore')!r}")
        if r.get("dateOK") is False:
            y, m, d = label["date"].split("-")
            forms = [f"{d}/{m}", f"{m}/{d}", f"{d}.{m}", f"{m}.{d}", f"{d}-{m}", f"{m}-{d}", f"{int(d)}/{int(m)}", f"{int(m)}/{int(d)}"]
            hits = [line for line in lines if any(f in line for f in forms)]
            got = "wrong" if r.get("predictedDate") else "none"
            add(f"date {'in-text' if hits else 'not-read'} {got}", rid, f"label {label['date']} predicted {r.get('predictedDate')} {hits[:2]}")
        if r.get("totalOK") is False:
            total = f"{label['total']:.2f}"
            hits = [line for line in lines if total in line.replace(" ", "") or total.replace(".", ",") in line.replace(" ", "")]
            got = "wrong" if r.get("predictedTotal") is not None else "none"
            add(f"total {'in-text' if hits else 'not-read'} {got}", rid, f"label {total} predicted {r.get('predictedTotal')} {hits[:3]}")
    for name in sorted(buckets):
        print(f"{name}: {len(buckets[name])}")
        if verbose:
            for rid, info in buckets[name]:
                print(f"  {rid[:40]} {info}")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "-v"]
    if len(args) != 3:
        sys.exit(__doc__)
    main(*args, verbose="-v" in sys.argv)
