#!/usr/bin/env python3
"""Scores of a receipt evaluation on all receipts and on the even and odd halves by file name (sorted).

    larder eval receipts ../shared/data/receipts-photos --json --details > /tmp/eval.json
    python3 scripts/receipt-halves.py /tmp/eval.json

The same rules as `larder eval receipts` (fractions over labelled fields; item precision only where the label
lists every item, recall over all labelled items). A change fitted to a few receipts shows as a gain on one half
only. Standard library only.
"""
import json
import sys


def scores(receipts):
    out = {}
    for field, name in [("storeOK", "store"), ("dateOK", "date"), ("totalOK", "total")]:
        values = [r[field] for r in receipts if r.get(field) is not None]
        out[name] = sum(values) / len(values) if values else None
    labelled = [r for r in receipts if r.get("itemsLabelled", 0) > 0]
    complete = [r for r in labelled if r.get("itemsComplete", True)]
    predicted = sum(r["itemsPredicted"] for r in complete)
    precision = sum(r["itemsMatched"] for r in complete) / predicted if predicted else 0
    total = sum(r["itemsLabelled"] for r in labelled)
    recall = sum(r["itemsMatched"] for r in labelled) / total if total else 0
    out["item_f1"] = 2 * precision * recall / (precision + recall) if precision + recall else 0
    if any(r.get("itemCountOK") is not None for r in receipts):
        values = [r["itemCountOK"] for r in receipts if r.get("itemCountOK") is not None]
        out["item_count"] = sum(values) / len(values)
    return out


def main(path):
    receipts = sorted(json.load(open(path))["receipts"], key=lambda r: r["id"])
    for name, part in [("all", receipts), ("even", receipts[0::2]), ("odd", receipts[1::2])]:
        shown = " ".join(f"{k} {v:.3f}" for k, v in scores(part).items() if v is not None)
        print(f"{name:4} ({len(part)}): {shown}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
