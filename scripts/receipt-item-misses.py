#!/usr/bin/env python3
"""Classes of the total and item misses of a receipt evaluation, from the parse trace and the OCR cache.

    LARDER_PARSE_TRACE=1 larder eval receipts ../shared/data/receipts-photos --json --details \
        --ocr-cache /tmp/ocr > /tmp/eval.json 2> /tmp/trace.txt
    python3 scripts/receipt-item-misses.py /tmp/eval.json /tmp/trace.txt /tmp/ocr ../shared/data/receipts-photos [-v]

Totals missed: the labelled total is printed in the OCR text but not chosen; the predicted total (or a total line's
amount) is at most two digits off the label (misread in its printing); a total line without that amount; no total
line at all. Labelled items missed: the price is on the item's own OCR line but the line gave no matching item; the
price is on another line (name and price paired wrong); the price is in no OCR line while the name is (price lost
or misread); neither is read. Extra items on receipts whose labels list every item: summary or payment words, no
price, other (mostly misread prices). Items are taken from the trace's `item` lines (their last amount), so the
counts approximate the evaluation's own matching. A trace that lists the scored items (`priced` lines: two-line items
and repaired prices included) is read for them. Standard library only.
"""
import csv
import difflib
import json
import os
import re
import sys

args = [a for a in sys.argv[1:] if a != "-v"]
if len(args) != 4:
    sys.exit(__doc__)
report, trace, cache, labels = args
def key(s): return re.sub(r"[^a-z0-9]", "", s.lower())
amt_re = re.compile(r"(\d{1,6})\s?[.,]\s?(\d{2})(?!\d)")
def amounts(t): return [float(a+"."+b) for a,b in amt_re.findall(t)]
def trailing(t):
    m = list(amt_re.finditer(t))
    return float(m[-1].group(1)+"."+m[-1].group(2)) if m else None
tr = {}
cur = None
for line in open(trace):
    if line.startswith("== "):
        cur = line.split()[1]; tr[cur] = []
    elif cur:
        k = line[2:11].strip(); t = line[12:].rstrip("\n"); tr[cur].append((k, t))
idx = {}
for row in csv.DictReader(open(os.path.join(labels, "index.csv"))):
    idx[row.get("id") or row.get("file", "").rsplit(".",1)[0]] = row
def namematch(a, b):
    a, b = key(a), key(b)
    if not a or not b: return False
    return a in b or b in a or difflib.SequenceMatcher(None, a, b).ratio() >= 0.6
tot = {}; it = {}; ex = {}
def add(d, k, v): d.setdefault(k, []).append(v)
for r in json.load(open(report))["receipts"]:
    rid = r["id"]; lab = json.load(open(os.path.join(labels, rid + ".json")))
    lines = [l["text"] for l in json.load(open(os.path.join(cache, rid + ".json")))]
    words = [w["text"] for l in json.load(open(os.path.join(cache, rid + ".json"))) for w in l.get("words", [])]
    if r.get("totalOK") is False:
        T = round(lab["total"], 2); p = r.get("predictedTotal")
        intext = [l for l in lines if T in amounts(l)]
        totlines = [l for l in lines if re.search(r"(?i)total|tota|balance|due|amount|summe", l) and not re.search(r"(?i)sub", l)]
        if intext: c = "present-not-chosen"
        elif p is not None and len(f"{p:.2f}") == len(f"{T:.2f}") and sum(x!=y for x,y in zip(f"{p:.2f}", f"{T:.2f}")) <= 2: c = "digits-misread(pred)"
        elif any(any(len(f"{a:.2f}")==len(f"{T:.2f}") and sum(x!=y for x,y in zip(f"{a:.2f}", f"{T:.2f}"))<=2 for a in amounts(l)) for l in totlines): c = "digits-misread(line)"
        elif totlines: c = "total-line-no-amount/other"
        else: c = "absent"
        add(tot, c, (rid[:24], T, p, intext[:2] or totlines[:2]))
    # items
    # The items as scored (`priced` lines: after the parser's price repairs) when the trace has them, else the
    # item lines' last amounts.
    priced = [t.split("\t") for k, t in tr.get(rid, []) if k == "priced"]
    preds = [(n, float(p)) for n, p in priced] if priced else [(t, trailing(t)) for k, t in tr.get(rid, []) if k == "item"]
    used = [False]*len(preds)
    for li in lab.get("items", []) or []:
        price = round(float(li["price"]), 2) if li.get("price") not in (None, "") else None
        hit = None
        for j,(t,p) in enumerate(preds):
            if not used[j] and p is not None and price is not None and abs(p-price) < 0.005 and namematch(li["name"], re.sub(r"[\d.,$]+\s*$", "", t)):
                hit = j; break
        if hit is not None: used[hit] = True; continue
        inline = [l for l in lines if price is not None and price in amounts(l)]
        namel = [l for l in lines if namematch(li["name"], l[:max(len(li["name"])+4, 6)]) or key(li["name"])[:6] in key(l)]
        if inline:
            paired = [l for l in inline if key(li["name"])[:5] in key(l)]
            c = "price-in-text-same-line-not-item" if paired else "price-in-text-other-line(pairing)"
        elif namel: c = "price-misread/absent-name-read"
        else: c = "price+name-absent"
        add(it, c, (rid[:24], li["name"], price, (inline or namel)[:1]))
    if r.get("itemsComplete", True):
        for j,(t,p) in enumerate(preds):
            if not used[j]:
                u = t.upper()
                if re.search(r"TAX|TOTAL|CASH|CHANGE|VISA|CARD|DEBIT|CREDIT|BALANCE|TIP|PAY|TEND|SAV|POINT|REWARD|MASTER|AMEX|DUE|GST|VAT", u): c = "summary/payment-like"
                elif p is None: c = "no-price"
                else: c = "other"
                add(ex, c, (rid[:24], t))
v = "-v" in sys.argv
for name, d in [("TOTAL", tot), ("ITEM MISS", it), ("EXTRA", ex)]:
    print(name, sum(len(x) for x in d.values()))
    for k in sorted(d): 
        print(f"  {k}: {len(d[k])}")
        if v:
            for x in d[k]: print("     ", x)
