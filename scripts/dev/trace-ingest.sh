#!/usr/bin/env bash
# Where an ingest's wall time goes: runs `larder ingest` over the benchmark's generated corpus with LARDER_TRACE
# set (per-thread intervals of the worker and larder's own marks, see Sources/LarderCore/Pipeline/WorkTrace.swift)
# and prints each phase (start-up, documents, tail, close) and each work thread's busy and idle time
# (scripts/dev/trace-summary.py), with the run's CPU seconds per wall second.
#
# Usage:  scripts/dev/trace-ingest.sh [N]            (default N=500)
#
# Environment:
#   LARDER=path   larder binary (default .build/release/larder, larder-worker beside it; built when missing)
#   WORKERS=W     --workers (default: nproc)
#   RUNS=1        runs, each on a fresh database (each one summarised)
#   SEED=1        corpus seed (scripts/data/make-corpus.py --seed), as in scripts/bench/bench-ingest.sh
#   KEEP=1        keep the temp dir (corpus, databases, traces)
set -euo pipefail

N="${1:-500}"
case "$N" in ''|*[!0-9]*) echo "usage: $0 [N]  (N = number of PDFs, default 500)" >&2; exit 2;; esac

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
PY=/usr/bin/python3
W="${WORKERS:-$(nproc)}"
RUNS="${RUNS:-1}"
SEED="${SEED:-1}"
DEFAULT_LARDER=".build/release/larder"
LARDER="${LARDER:-$DEFAULT_LARDER}"

BENCH=trace-ingest
. "$ROOT/scripts/bench/bench-lib.sh"
need_tools "$PY" /usr/bin/time
ensure_larder
make_tmp

"$PY" scripts/data/make-corpus.py "$N" "$TMP/corpus" --seed "$SEED" >/dev/null
for i in $(seq 1 "$RUNS"); do
  DB="$TMP/trace$i.sqlite"
  TRACE="$TMP/trace$i.tsv"
  rc=0
  t0=$(now)
  LARDER_TRACE="$TRACE" /usr/bin/time -f '%U %S' -o "$TMP/cpu$i" "$LARDER" ingest --db "$DB" --workers "$W" \
    "$TMP/corpus" >"$TMP/ingest$i.log" 2>&1 || rc=$?
  t1=$(now)
  if [ "$rc" -ne 0 ]; then
    tail -n 20 "$TMP/ingest$i.log" >&2
    die "larder ingest exited $rc"
  fi
  CPU=$(awk '{ printf "%.3f", $1 + $2 }' "$TMP/cpu$i")
  echo "== run $i: $N PDFs, workers=$W, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  "$PY" scripts/dev/trace-summary.py "$TRACE" --start "$t0" --end "$t1" --cpu "$CPU"
  echo
done
