#!/usr/bin/env bash
# Mutation probe (issue 11): N mutated copies of the sample PDFs and receipt photos (scripts/data/make-hostile.py
# mutate: bit flips, overwritten runs, truncation, duplicated chunks, inflated numbers) through the whole pipeline
# in one batch. Prints done / failed with a message / quarantined / hangs (documents stopped by
# limits.stage_seconds) / worker crashes, and how many of the crashes were Swift traps in Larder's own code
# ("Fatal error" from the Swift runtime on the worker's standard error). The corpus is generated, never committed.
#
# Usage: scripts/dev/probe-mutations.sh [N] [SEED]     (default 300, 1)
# LARDER=path/to/larder (default .build/debug/larder); STAGE_SECONDS (default 60); KEEP=1 keeps the temp folder.
set -euo pipefail
BENCH=probe
DEFAULT_LARDER=.build/debug/larder
LARDER="${LARDER:-$DEFAULT_LARDER}"
N="${1:-300}"
SEED="${2:-1}"
cd "$(dirname "$0")/../.."
source scripts/bench/bench-lib.sh
need_tools python3
[ -x "$LARDER" ] || die "$LARDER is missing: swift build first (or set LARDER)"
make_tmp
python3 scripts/data/make-hostile.py mutate samples/recipes/*.pdf samples/receipts/* --out "$TMP/corpus" --count "$N" --seed "$SEED"
printf 'limits:\n  stage_seconds: %s\n' "${STAGE_SECONDS:-60}" > "$TMP/pipeline.yml"
start=$(now)
set +e
"$LARDER" ingest --json --config "$TMP/pipeline.yml" --db "$TMP/db.sqlite" "$TMP/corpus" > "$TMP/summary.json" 2> "$TMP/stderr.txt"
status=$?
set -e
elapsed=$(sub "$(now)" "$start")
python3 - "$TMP/summary.json" "$TMP/stderr.txt" "$status" "$elapsed" "$N" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))
stderr = open(sys.argv[2], errors="replace").read()
failures = summary["failures"]
hangs = sum(1 for f in failures if "limits.stage_seconds" in (f.get("error") or {}).get("message", ""))
failed = summary["failed"] - hangs
without_message = sum(1 for f in failures if not (f.get("error") or {}).get("message"))
traps = stderr.count("Fatal error")
print("mutated files %s: done %d, failed with a message %d, quarantined %d, hangs (stopped by stage_seconds) %d, "
      "pending %d, not ingested %d; worker crashes %d, of them Swift traps in Larder's code %d; "
      "failures without a message %d; exit %s in %s s"
      % (sys.argv[5], summary["done"], failed, summary["quarantined"], hangs, summary["pending"],
         len(summary["inputErrors"]), summary["crashes"], traps, without_message, sys.argv[3], sys.argv[4]))
kinds = {}
for f in failures:
    message = (f.get("error") or {}).get("message", "")
    key = f["stage"] + ": " + message.split(":")[0][:60]
    kinds[key] = kinds.get(key, 0) + 1
for key, count in sorted(kinds.items(), key=lambda item: -item[1])[:12]:
    print("  %4d  %s" % (count, key))
# Lines on standard error that are not Larder's own (progress, larder/larder-worker messages, the logger's
# "<timestamp> <level> larder…" lines): a native library printing past Larder (issue 11 item 14).
import re
own = re.compile(r"^(progress |larder|\S+T\S+ (trace|debug|info|notice|warning|error|critical) larder)")
stray = [line for line in stderr.splitlines() if line.strip() and not own.match(line)]
print("standard-error lines not from Larder: %d" % len(stray))
for line in stray[:5]:
    print("    " + line[:160])
PY
