#!/usr/bin/env bash
# Usage: scripts/bench/measure-speed.sh [SHARED_DATA]   (run by `make measure-speed`, and at the end of `make measure`)
#
# Larder's speed against reference tools on the same documents in the same run, written into
# benchmarks/baseline.json (the figures speed-pages and speed-pdfs; every other figure is kept) and the generated
# docs (docs/performance.md):
#   speed-pages  scripts/bench/compare-pages.sh: the 302 saved pages through `larder ingest --workers 2`, pages per
#                core-second and per CPU second, against recipe-scrapers' generic reader (pages per CPU second).
#   speed-pdfs   scripts/bench/bench-ingest.sh 500 (BENCH_RATIO_ONLY=1): `larder ingest` against `pdftotext` on 500
#                generated text PDFs, wall-clock and CPU.
# Needs the release build (larder, larder-worker) and python3 -m venv (recipe-scrapers goes into a throwaway venv).
# From a git worktree mounted elsewhere (wrun), set LARDER_COMMIT: git cannot name the commit there.
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED=${1:-${LARDER_SHARED_DATA:-../shared/data}}
OUT=.build/measure
ONLY=${MEASURE_ONLY:-1}  # 0 from measure.sh: its own --collect gathers these outputs with the rest
mkdir -p "$OUT"
python3 -c 'import sys; sys.path.insert(0, "scripts/bench"); import figures; figures.measured_commit()'
[ -x .build/release/larder ] && [ -x .build/release/larder-worker ] || {
  echo "measure-speed: build the release binaries first (swift build -c release --product larder, --product larder-worker)" >&2
  exit 2
}
collected=()
if [ -e "$SHARED/recipes-scraped/html" ]; then
  echo "measure-speed: speed-pages ($(date -u +%H:%M:%S))" >&2
  echo "scripts/bench/compare-pages.sh ../shared/data/recipes-scraped" > "$OUT/speed-pages.cmd"
  COMPARE_JSON="$OUT/speed-pages.json" nice -n 10 bash scripts/bench/compare-pages.sh "$SHARED/recipes-scraped" > "$OUT/speed-pages.err" 2>&1 \
    || { echo "measure-speed: speed-pages failed (see $OUT/speed-pages.err)" >&2; rm -f "$OUT/speed-pages.json"; }
  collected+=(speed-pages)
else
  echo "measure-speed: skipped speed-pages: $SHARED/recipes-scraped/html is absent" >&2
  rm -f "$OUT/speed-pages.json"
fi
echo "measure-speed: speed-pdfs ($(date -u +%H:%M:%S))" >&2
echo "BENCH_RATIO_ONLY=1 scripts/bench/bench-ingest.sh 500" > "$OUT/speed-pdfs.cmd"
BENCH_RATIO_ONLY=1 BENCH_JSON="$OUT/speed-pdfs.json" nice -n 10 bash scripts/bench/bench-ingest.sh 500 > "$OUT/speed-pdfs.err" 2>&1 \
  || { echo "measure-speed: speed-pdfs failed (see $OUT/speed-pdfs.err)" >&2; rm -f "$OUT/speed-pdfs.json"; }
collected+=(speed-pdfs)
if [ "$ONLY" = 1 ]; then
  python3 scripts/bench/figures.py --collect "$OUT" --baseline benchmarks/baseline.json --only "$(IFS=,; echo "${collected[*]}")"
  python3 scripts/bench/figures.py --baseline benchmarks/baseline.json
fi
