#!/usr/bin/env python3
"""Date scores of a receipt evaluation as labelled and with day and month in either order, on all receipts and
on the even and odd halves by file name (sorted), and the misses by kind.

    larder eval receipts ../shared/data/receipts-photos --json --details > /tmp/eval.json
    python3 scripts/receipt-dates.py /tmp/eval.json ../shared/data/receipts-photos [-v]

Why both: the receipts-photos labels read an ambiguous date month-first "unless the store writes day-first",
but several day-first papers (UK, Irish, Dutch, Spanish, Italian, Malaysian, Gulf) are labelled month-first,
while the parser reads the order from the paper (DateEvidence.swift). "either order" counts a prediction right
when it is the label with day and month swapped (both 12 or less); it measures the digits read, not the order.
Kinds of miss: none (no date), swapped (the label in the other order), year (day and month right, year not),
other. Standard library only.
"""
import json
import os
import sys


def kind(predicted, label):
    if predicted == label:
        return "right"
    if not predicted:
        return "none"
    py, pm, pd = predicted.split("-")
    ly, lm, ld = label.split("-")
    if py == ly and pm == ld and pd == lm:
        return "swapped"
    if pm == lm and pd == ld:
        return "year"
    return "other"


def main(report, labels, verbose):
    rows = []  # every receipt, so that the halves are those of scripts/receipt-halves.py
    for r in sorted(json.load(open(report))["receipts"], key=lambda r: r["id"]):
        label = json.load(open(os.path.join(labels, r["id"] + ".json"))).get("date")
        rows.append((r["id"], r.get("predictedDate"), label, kind(r.get("predictedDate"), label) if label else None))
    for name, part in [("all", rows), ("even", rows[0::2]), ("odd", rows[1::2])]:
        part = [row for row in part if row[2]]
        n = len(part)
        right = sum(k == "right" for *_, k in part)
        either = sum(k in ("right", "swapped") for *_, k in part)
        print(f"{name:4} ({n} dated): as labelled {right / n:.3f}, either order {either / n:.3f}")
    for k in ["none", "swapped", "year", "other"]:
        misses = [row for row in rows if row[3] == k]
        print(f"{k}: {len(misses)}")
        if verbose:
            for rid, predicted, label, _ in misses:
                print(f"  {rid[:40]} predicted {predicted} label {label}")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "-v"]
    if len(args) != 2:
        sys.exit(__doc__)
    main(args[0], args[1], "-v" in sys.argv)
