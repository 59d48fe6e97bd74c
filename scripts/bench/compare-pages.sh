#!/usr/bin/env bash
# Larder vs recipe-scrapers' generic schema.org reader on the same saved pages, in the same run:
#  1. accuracy, scored by the same code (`larder eval pages --predictions`);
#  2. speed: recipe-scrapers' pages per CPU second (one core) against the pages a user's `larder ingest --workers 2`
#     of the same pages (copied into one folder, fresh database) gets through per core: pages / (wall s × 2) and
#     pages per CPU second (user + system of larder and its workers). The ratio is the issue-32 target (≥ 10×).
# recipe-scrapers goes into a throwaway virtualenv (never a Larder dependency; COMPARE_VENV=DIR reuses one).
# Usage: scripts/bench/compare-pages.sh [DATA] [eval pages options…]
#   DATA: the recipes-scraped folder (default ../shared/data/recipes-scraped).
#   COMPARE_JSON=FILE also writes the speed figures as one JSON object (read by scripts/bench/figures.py --collect).
#   WORKERS=2, RUNS=3 (ingest runs; the best wall time and the least CPU are kept).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
DATA="${1:-$ROOT/../shared/data/recipes-scraped}"
[ $# -gt 0 ] && shift
WORKERS="${WORKERS:-2}"
RUNS="${RUNS:-3}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
VENV="${COMPARE_VENV:-$TMP/venv}"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q recipe-scrapers
fi
"$VENV/bin/python" -c 'import importlib.metadata as m; print("recipe-scrapers", m.version("recipe-scrapers"))'
PRED="$TMP/predictions.json"
RS_LINE=$("$VENV/bin/python" "$ROOT/scripts/bench/compare-pages.py" "$DATA" "$PRED")
echo "$RS_LINE"
RS_RATE=$(sed -n 's/.* = \([0-9.]*\) pages per CPU second.*/\1/p' <<<"$RS_LINE")
LARDER="${LARDER:-$ROOT/.build/release/larder}"
[ -x "$LARDER" ] || { echo "build Larder first: swift build -c release --product larder --product larder-worker" >&2; exit 2; }
"$LARDER" eval pages --data "$DATA" --predictions "$PRED" --predictions-label recipe-scrapers "$@"

# The same pages through a user's `larder ingest`, fresh database each run.
mkdir -p "$TMP/pages"
for f in "$DATA"/html/*/*; do
  host=$(basename "$(dirname "$f")")
  cp "$f" "$TMP/pages/${host}__$(basename "${f%.*}").html"
done
PAGES=$(find "$TMP/pages" -type f | wc -l)
best_wall="" best_cpu=""
for i in $(seq 1 "$RUNS"); do
  rm -f "$TMP"/p.db*
  t0=$(date +%s.%N)
  /usr/bin/time -f '%U %S' -o "$TMP/cpu" "$LARDER" ingest --db "$TMP/p.db" --workers "$WORKERS" "$TMP/pages" >"$TMP/ingest.log" 2>&1 \
    || { echo "larder ingest failed:" >&2; tail -20 "$TMP/ingest.log" >&2; exit 1; }
  t1=$(date +%s.%N)
  wall=$(awk -v a="$t1" -v b="$t0" 'BEGIN { printf "%.3f", a - b }')
  cpu=$(awk '{ printf "%.3f", $1 + $2 }' "$TMP/cpu")
  echo "larder ingest run $i: $PAGES pages, ${wall} s wall, ${cpu} s CPU (workers=$WORKERS)"
  best_wall=$(awk -v a="$best_wall" -v b="$wall" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
  best_cpu=$(awk -v a="$best_cpu" -v b="$cpu" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
done
awk -v n="$PAGES" -v w="$best_wall" -v c="$best_cpu" -v k="$WORKERS" -v rs="$RS_RATE" -v json="${COMPARE_JSON:-}" 'BEGIN {
  core = n / (w * k); cpu = n / c
  printf "larder ingest (workers=%d): %.1f pages per core-second (pages / (wall s x %d)), %.1f pages per CPU second\n", k, core, k, cpu
  printf "recipe-scrapers generic reader: %.1f pages per CPU second (one core)\n", rs
  printf "ratio, per core: %.2fx wall-based, %.2fx CPU-based (target >= 10x)\n", core / rs, cpu / rs
  if (json != "") {
    printf "{\"pages\": %d, \"workers\": %d, \"larder_ingest_wall_seconds\": %s, \"larder_ingest_cpu_seconds\": %s, \"larder_pages_per_core_second\": %.1f, \"larder_pages_per_cpu_second\": %.1f, \"recipe_scrapers_pages_per_cpu_second\": %.1f, \"ratio_per_core\": %.2f, \"ratio_per_cpu\": %.2f}\n", n, k, w, c, core, cpu, rs, core / rs, cpu / rs > json
  }
}'
