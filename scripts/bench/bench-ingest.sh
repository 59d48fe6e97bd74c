#!/usr/bin/env bash
# Benchmarks `larder ingest` against plain pdftotext on a generated PDF corpus.
#
# Usage:  scripts/bench/bench-ingest.sh [N]            (default N=500)
#
# Environment:
#   LARDER=path         larder binary (default .build/release/larder, with larder-worker beside it;
#                       when the default is missing both are built with `swift build -c release`)
#   WORKERS=W           parallelism for both tools (default: nproc)
#   RUNS=3              timed runs per measurement; the best (lowest) is reported
#   SEED=1              corpus seed (scripts/data/make-corpus.py --seed)
#   BENCH_SKIP_LARDER=1 only make the corpus and time pdftotext (for testing this script)
#   KEEP=1              keep the temp dir (corpora, databases, logs)
#   BENCH_RATIO_ONLY=1  only pdftotext and the fresh larder runs (no reruns, no RSS or 2000-file runs)
#   BENCH_JSON=FILE     also write the ratio figures as one JSON object (scripts/bench/measure-speed.sh reads it)
#
# Measures:
#   pdftotext wall s    best of RUNS: pdftotext over all N files, W parallel processes (and its CPU s)
#   larder wall s       best of RUNS: larder ingest --db fresh.sqlite --workers W DIR (and its CPU s, user+sys
#                       of larder and its worker; the mean time and output size per stage from the database)
#   rerun s             best of RUNS: larder ingest again on the finished database
#   peak RSS            /usr/bin/time -f %M of larder ingest on 100- and 2000-file corpora
# Goals: larder/pdftotext <= 1.15, rerun/first <= 3%, RSS(2000)/RSS(100) <= 1.2.
# Exit status: 0 when it ran (goals are reported, not enforced), 1 on setup errors.
set -euo pipefail

N="${1:-500}"
case "$N" in ''|*[!0-9]*) echo "usage: $0 [N]  (N = number of PDFs, default 500)" >&2; exit 2;; esac

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
PY=/usr/bin/python3
W="${WORKERS:-$(nproc)}"
RUNS="${RUNS:-3}"
SEED="${SEED:-1}"
DEFAULT_LARDER=".build/release/larder"
LARDER="${LARDER:-$DEFAULT_LARDER}"
SKIP_LARDER="${BENCH_SKIP_LARDER:-0}"

BENCH=bench-ingest
. "$ROOT/scripts/bench/bench-lib.sh"
need_tools pdftotext "$PY" /usr/bin/time xargs find awk
[ "$SKIP_LARDER" = "1" ] || ensure_larder
make_tmp

div() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) print "n/a"; else printf "%.3f", a / b }'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) print "n/a"; else printf "%.1f%%", 100 * a / b }'; }
verdict() {  # value op limit -> ok / MISSED
  awk -v v="$1" -v lim="$2" 'BEGIN { if (v == "n/a") print "?"; else if (v + 0 <= lim + 0) print "ok"; else print "MISSED" }'
}

make_corpus() {  # n dir
  "$PY" scripts/data/make-corpus.py "$1" "$2" --seed "$SEED"
}

# --- (a) corpus ------------------------------------------------------------------
CORPUS="$TMP/corpus-$N"
make_corpus "$N" "$CORPUS"
FILES=$(find "$CORPUS" -name '*.pdf' | wc -l)
echo "bench-ingest: $FILES PDFs in $CORPUS, workers=$W, best of $RUNS runs"

# --- (b) pdftotext baseline --------------------------------------------------------
# CPU seconds (user + system, the process and every child it waited for) of the last timed command, from
# /usr/bin/time: on a shared machine they move much less than wall time.
CPU_FILE="$TMP/last.cpu"
cpu_of_last() { awk '{ printf "%.3f", $1 + $2 }' "$CPU_FILE"; }
time_pdftotext() {
  local t0 t1
  t0=$(now)
  if ! /usr/bin/time -f '%U %S' -o "$CPU_FILE" sh -c 'find "$1" -name "*.pdf" -print0 |
      xargs -0 -n 8 -P "$2" sh -c '"'"'for f; do pdftotext "$f" /dev/null || exit 255; done'"'"' _' _ "$CORPUS" "$W"; then
    return 1
  fi
  t1=$(now)
  sub "$t1" "$t0"
}
PDFTOTEXT_S=""
PDFTOTEXT_CPU=""
for i in $(seq 1 "$RUNS"); do
  t=$(time_pdftotext) || die "pdftotext failed on the corpus"
  c=$(cpu_of_last)
  echo "  pdftotext run $i: ${t}s wall, ${c}s CPU"
  PDFTOTEXT_S=$(min "$PDFTOTEXT_S" "$t")
  PDFTOTEXT_CPU=$(min "$PDFTOTEXT_CPU" "$c")
done

if [ "$SKIP_LARDER" = "1" ]; then
  echo
  printf '%-34s %10s\n' "metric" "value"
  printf '%-34s %10s\n' "pdftotext wall s ($FILES files)" "$PDFTOTEXT_S"
  echo "(BENCH_SKIP_LARDER=1: larder not measured)"
  exit 0
fi

# --- (c) larder, fresh database each run -------------------------------------------
run_larder() {  # db dir log -> seconds
  local t0 t1 rc=0
  t0=$(now)
  /usr/bin/time -f '%U %S' -o "$CPU_FILE" "$LARDER" ingest --db "$1" --workers "$W" "$2" >"$3" 2>&1 || rc=$?
  t1=$(now)
  if [ "$rc" -ne 0 ]; then
    echo "bench-ingest: larder ingest exited $rc; last lines of $3:" >&2
    tail -n 20 "$3" >&2
    exit 1
  fi
  sub "$t1" "$t0"
}
fresh_db() { rm -f "$1" "$1-wal" "$1-shm" "$1-journal"; }

DB="$TMP/bench.sqlite"
LARDER_S=""
LARDER_CPU=""
for i in $(seq 1 "$RUNS"); do
  fresh_db "$DB"
  t=$(run_larder "$DB" "$CORPUS" "$TMP/larder-run$i.log")
  c=$(cpu_of_last)
  echo "  larder run $i: ${t}s wall, ${c}s CPU"
  LARDER_S=$(min "$LARDER_S" "$t")
  LARDER_CPU=$(min "$LARDER_CPU" "$c")
done
# Mean time per stage and output size per document, as the checkpoint database recorded them (last fresh run).
STAGES=$("$PY" - "$DB" <<'PYEOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("""SELECT stage, AVG(duration_ms), AVG(LENGTH(output)), COUNT(*) FROM stage_run
                     WHERE status = 'done' GROUP BY stage ORDER BY AVG(duration_ms) DESC""").fetchall()
print("  ".join("%s %.2f ms (%.1f KB)" % (s, ms, (b or 0) / 1000) for s, ms, b, n in rows))
PYEOF
)
echo "  per stage and document (mean): $STAGES"

RATIO=$(div "$LARDER_S" "$PDFTOTEXT_S")
CPU_RATIO=$(div "$LARDER_CPU" "$PDFTOTEXT_CPU")
if [ -n "${BENCH_JSON:-}" ]; then
  printf '{"pdfs": %s, "workers": %s, "pdftotext_wall_seconds": %s, "larder_wall_seconds": %s, "ratio_wall": %s, "pdftotext_cpu_seconds": %s, "larder_cpu_seconds": %s, "ratio_cpu": %s}\n' \
    "$FILES" "$W" "$PDFTOTEXT_S" "$LARDER_S" "$RATIO" "$PDFTOTEXT_CPU" "$LARDER_CPU" "$CPU_RATIO" > "$BENCH_JSON"
fi
if [ "${BENCH_RATIO_ONLY:-0}" = "1" ]; then
  echo
  echo "Larder ingest benchmark: $FILES PDFs, workers=$W, best of $RUNS, $(date -u +%Y-%m-%dT%H:%MZ)"
  printf '%-36s %12s\n' "pdftotext wall s" "$PDFTOTEXT_S" "larder wall s" "$LARDER_S" "larder / pdftotext" "$RATIO" \
    "pdftotext CPU s (user+sys)" "$PDFTOTEXT_CPU" "larder CPU s (user+sys)" "$LARDER_CPU" "larder / pdftotext, CPU" "$CPU_RATIO"
  exit 0
fi

# --- (d) rerun of a finished batch (same database as the last fresh run) ------------
RERUN_S=""
for i in $(seq 1 "$RUNS"); do
  t=$(run_larder "$DB" "$CORPUS" "$TMP/larder-rerun$i.log")
  echo "  larder rerun $i: ${t}s"
  RERUN_S=$(min "$RERUN_S" "$t")
done

# --- (e) peak RSS for 100 vs 2000 files -----------------------------------------------
peak_rss() {  # n -> KiB
  local dir="$TMP/corpus-rss-$1" db="$TMP/rss-$1.sqlite" out="$TMP/rss-$1.time" rc=0
  make_corpus "$1" "$dir" >/dev/null
  fresh_db "$db"
  /usr/bin/time -f %M -o "$out" "$LARDER" ingest --db "$db" --workers "$W" "$dir" \
    >"$TMP/rss-$1.log" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "bench-ingest: larder ingest ($1 files) exited $rc; last lines:" >&2
    tail -n 20 "$TMP/rss-$1.log" >&2
    exit 1
  fi
  tail -n 1 "$out"
}
RSS100=$(peak_rss 100)
RSS2000=$(peak_rss 2000)
echo "  peak RSS: 100 files ${RSS100} KiB, 2000 files ${RSS2000} KiB"

# --- (e2) first run and rerun at 2000 files: the rerun's fixed cost (process start-up, ~35 ms) weighs less ----
FIRST2000=""
RERUN2000=""
for i in $(seq 1 "$RUNS"); do
  fresh_db "$TMP/big.sqlite"
  t=$(run_larder "$TMP/big.sqlite" "$TMP/corpus-rss-2000" "$TMP/big-first$i.log")
  FIRST2000=$(min "$FIRST2000" "$t")
  t=$(run_larder "$TMP/big.sqlite" "$TMP/corpus-rss-2000" "$TMP/big-rerun$i.log")
  RERUN2000=$(min "$RERUN2000" "$t")
done
echo "  2000 files: first ${FIRST2000}s, rerun ${RERUN2000}s"

# --- (f) table ----------------------------------------------------------------------------
RATIO=$(div "$LARDER_S" "$PDFTOTEXT_S")
RERUN_FRAC=$(div "$RERUN_S" "$LARDER_S")
RSS_RATIO=$(div "$RSS2000" "$RSS100")
echo
echo "Larder ingest benchmark: $FILES PDFs, workers=$W, best of $RUNS, $(date -u +%Y-%m-%dT%H:%MZ)"
printf '%-36s %12s  %-10s %s\n' "metric" "value" "goal" "status"
printf '%-36s %12s  %-10s %s\n' "pdftotext wall s" "$PDFTOTEXT_S" "" ""
printf '%-36s %12s  %-10s %s\n' "larder wall s" "$LARDER_S" "" ""
printf '%-36s %12s  %-10s %s\n' "larder / pdftotext" "$RATIO" "<= 1.15" "$(verdict "$RATIO" 1.15)"
printf '%-36s %12s  %-10s %s\n' "pdftotext CPU s (user+sys)" "$PDFTOTEXT_CPU" "" ""
printf '%-36s %12s  %-10s %s\n' "larder CPU s (user+sys)" "$LARDER_CPU" "" ""
printf '%-36s %12s  %-10s %s\n' "larder / pdftotext, CPU" "$(div "$LARDER_CPU" "$PDFTOTEXT_CPU")" "" ""
printf '%-36s %12s  %-10s %s\n' "rerun of a finished batch s" "$RERUN_S" "" ""
printf '%-36s %12s  %-10s %s\n' "rerun / first" "$(pct "$RERUN_S" "$LARDER_S")" "<= 3%" "$(verdict "$RERUN_FRAC" 0.03)"
printf '%-36s %12s  %-10s %s\n' "2000 files: first run s" "$FIRST2000" "" ""
printf '%-36s %12s  %-10s %s\n' "2000 files: rerun s" "$RERUN2000" "" ""
printf '%-36s %12s  %-10s %s\n' "2000 files: rerun / first" "$(pct "$RERUN2000" "$FIRST2000")" "<= 3%" "$(verdict "$(div "$RERUN2000" "$FIRST2000")" 0.03)"
printf '%-36s %12s  %-10s %s\n' "peak RSS 100 files (MiB)" "$(div "$RSS100" 1024)" "" ""
printf '%-36s %12s  %-10s %s\n' "peak RSS 2000 files (MiB)" "$(div "$RSS2000" 1024)" "" ""
printf '%-36s %12s  %-10s %s\n' "RSS 2000 / RSS 100" "$RSS_RATIO" "<= 1.2" "$(verdict "$RSS_RATIO" 1.2)"
