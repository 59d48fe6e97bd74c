#!/usr/bin/env bash
# What each OCR step costs per receipt image: `larder eval receipts DIR` with a fresh OCR cache and
# LARDER_OCR_TRACE=1, which prints every image's steps, the last of them its CPU milliseconds per step
# (`cpu-ms(decode 12, gray 3, deskew 30, read 410, ...)`, the worker thread's CPU clock: other work on a busy
# machine barely moves it, where wall time doubles). Prints, per step, on how many images it ran, its mean cost
# per image over all images, and its median and maximum where it ran; and how often each further reading ran.
#
# Usage:  scripts/dev/receipt-step-costs.sh DIR [larder eval receipts options...]
#         e.g. scripts/dev/receipt-step-costs.sh ../shared/data/receipts-sroie
#
# Environment:
#   LARDER=path   larder binary (default .build/release/larder, larder-worker beside it; built when missing)
#   KEEP=1        keep the temp dir (the trace and the eval's JSON)
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: $0 DIR [larder eval receipts options...]" >&2; exit 2; }
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DIR="$(cd "$1" && pwd)"
shift
cd "$ROOT"
DEFAULT_LARDER=".build/release/larder"
LARDER="${LARDER:-$DEFAULT_LARDER}"
BENCH=receipt-step-costs
. "$ROOT/scripts/bench/bench-lib.sh"
need_tools python3
ensure_larder
make_tmp

OMP_THREAD_LIMIT=1 LARDER_OCR_TRACE=1 "$LARDER" eval receipts "$DIR" --json --ocr-cache "$TMP/cache" "$@" \
  > "$TMP/eval.json" 2> "$TMP/trace.txt" || die "larder eval receipts failed (see $TMP/trace.txt; KEEP=1 keeps it)"

python3 - "$TMP/trace.txt" "$TMP/eval.json" <<'PY'
import json, re, statistics, sys

costs, images, runs = {}, 0, {}
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    m = re.search(r"cpu-ms\(([^)]*)\)", line)
    if not m:
        continue
    images += 1
    for part in m.group(1).split(", "):
        name, ms = part.rsplit(" ", 1)
        costs.setdefault(name, []).append(float(ms))
    for marker in ("photo[", "photo-rejected[", "rectify(", "reread-price(", "reread-date(", "reread-total", "reread-unsure-total", "retry:", " sure "):
        if marker in line + " ":
            runs[marker] = runs.get(marker, 0) + 1
if images == 0:
    sys.exit("no cpu-ms steps in the trace: is the worker built from this tree?")
total = sum(sum(v) for v in costs.values())
print(f"{images} images, CPU ms per image (worker thread): mean {total / images:.0f}")
print(f"{'step':<14}{'ran on':>8}{'mean/image':>12}{'median run':>12}{'max':>8}")
for name, values in costs.items():
    ran = [v for v in values if v > 0.5] or values
    print(f"{name:<14}{len(values):>8}{sum(values) / images:>12.1f}{statistics.median(ran):>12.1f}{max(values):>8.0f}")
print("readings run: " + ", ".join(f"{k.strip()} {v}" for k, v in sorted(runs.items())))
report = json.load(open(sys.argv[2]))
print("accuracy: " + ", ".join(f"{k} {report[k]:.3f}" for k in ("store", "date", "total", "item_f1", "item_count") if isinstance(report.get(k), float)))
PY
