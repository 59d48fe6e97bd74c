#!/usr/bin/env bash
# Usage: scripts/bench/measure.sh [SHARED_DATA]   (run by `make measure`)
#
# Runs every evaluation on the one path — each corpus ingested through the standard stages in memory with its
# eval/<corpus>.yml, exactly the result `larder ingest --config eval/<corpus>.yml` + `larder export` give a user —
# with the release build, and writes benchmarks/baseline.json (every figure with its corpus, split, metric, date and
# the command that reproduces it); then scripts/bench/figures.py writes docs/accuracy.md, docs/performance.md and
# the README's figures table from it (with the speed against recipe-scrapers and pdftotext, measure-speed.sh). Receipt OCR is slow: the whole run takes 15-30 minutes on 2 shared cores
# (it runs under nice -n 10, one evaluation at a time). A corpus missing from SHARED_DATA is skipped and named.
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED=${1:-${LARDER_SHARED_DATA:-../shared/data}}
LARDER=.build/release/larder
OUT=.build/measure
mkdir -p "$OUT"
[ -x "$LARDER" ] && [ -x .build/release/larder-worker ] || {
  echo "measure: build the release binaries first (swift build -c release --product larder, --product larder-worker)" >&2
  exit 2
}
# The commit measured, named before anything runs (figures.py fails here, not after 30 minutes, when git cannot).
python3 -c 'import sys; sys.path.insert(0, "scripts/bench"); import figures; figures.measured_commit()'
export OMP_THREAD_LIMIT=1
# MEASURE_OCR_CACHE=DIR reuses OCR output (ocr.cache, keyed by file hash and OCR version) between runs: for parser
# work only; a published baseline is measured without it (fresh OCR).
OCR_CACHE=()
[ -n "${MEASURE_OCR_CACHE:-}" ] && OCR_CACHE=(--ocr-cache "$MEASURE_OCR_CACHE")
run() {  # run NAME CORPUS -- COMMAND...: the command's JSON into $OUT/NAME.json, its line into $OUT/NAME.cmd
  local name=$1 corpus=$2; shift 3
  if [ ! -e "$SHARED/$corpus" ] && [ "$corpus" != "-" ]; then
    echo "measure: skipped $name: $SHARED/$corpus is absent" >&2
    rm -f "$OUT/$name.json"
    return 0
  fi
  echo "measure: $name ($(date -u +%H:%M:%S))" >&2
  printf '%s\n' "$*" | sed "s#$SHARED#../shared/data#g; s#\.build/release/larder#larder#" > "$OUT/$name.cmd"
  local start=$(date +%s)
  if nice -n 10 "$@" > "$OUT/$name.json" 2> "$OUT/$name.err"; then
    echo $(( $(date +%s) - start )) > "$OUT/$name.seconds"
  else
    echo "measure: $name failed (see $OUT/$name.err)" >&2
    rm -f "$OUT/$name.json"
  fi
}
run pages recipes-scraped/html -- $LARDER eval pages --data "$SHARED/recipes-scraped" --config eval/pages.yml --json
run pdfs recipes-pdf -- $LARDER eval pdfs --data "$SHARED/recipes-pdf" --config eval/pdfs.yml --json
run pdfs-loso recipes-pdf -- $LARDER eval pdfs --data "$SHARED/recipes-pdf" --config eval/pdfs.yml --json --leave-one-source-out
# The generated layout families (scripts/data/make-layouts.py, docs/design/pdf-tables.md), one family held out at a
# time, at a seed no layout rule was developed on (seeds 1-7 and 11-15 were). Made from recipe-scrapers'
# expected outputs: skipped with them.
LAYOUT_SEED=8  # named in figures.py's "layouts" split too
if [ -e "$SHARED/recipes-scraped/expected_json" ]; then
  rm -rf "$OUT/layouts"
  /usr/bin/python3 scripts/data/make-layouts.py "$OUT/layouts" --per-family 12 --seed $LAYOUT_SEED \
    --recipes "$SHARED/recipes-scraped/expected_json" >&2 \
    || echo "measure: make-layouts.py failed (python3-cairo, scripts/setup.sh): layouts will fail" >&2
fi
run layouts recipes-scraped/expected_json -- $LARDER eval pdfs --data "$OUT/layouts" --config eval/pdfs.yml --json --leave-one-source-out
[ -e "$OUT/layouts.cmd" ] && sed -i "1s#^#python3 scripts/data/make-layouts.py $OUT/layouts --per-family 12 --seed $LAYOUT_SEED \&\& #" "$OUT/layouts.cmd"
run formats recipe-app-exports -- $LARDER eval formats --data "$SHARED" --config eval/exports.yml --json
run markdown recipes-markdown -- $LARDER eval recipes --data "$SHARED" --config eval/markdown.yml --json
run receipts-samples - -- $LARDER eval receipts samples/receipts --labels samples/expected/receipts --config eval/samples.yml --json
run receipts-de receipts-de -- $LARDER eval receipts "$SHARED/receipts-de" --config eval/de.yml --json "${OCR_CACHE[@]}"
run receipts-sroie receipts-sroie -- $LARDER eval receipts "$SHARED/receipts-sroie" --config eval/sroie.yml --json --strict "${OCR_CACHE[@]}"
run receipts-cord receipts-cord/json -- $LARDER eval receipts --cord "$SHARED/receipts-cord/json" --json
run receipts-photos receipts-photos -- $LARDER eval receipts "$SHARED/receipts-photos" --config eval/photos.yml --json "${OCR_CACHE[@]}"
# The PostgreSQL queue's targets (scripts/bench/bench-queue.sh: its own throwaway cluster and network namespaces; root).
echo "measure: queue ($(date -u +%H:%M:%S))" >&2
echo "scripts/bench/bench-queue.sh" > "$OUT/queue.cmd"
BENCH_JSON="$OUT/queue.json" nice -n 10 bash scripts/bench/bench-queue.sh > "$OUT/queue.err" 2>&1 \
  || { echo "measure: queue failed (see $OUT/queue.err)" >&2; rm -f "$OUT/queue.json"; }
# `larder serve`'s hot route, GET /v1/documents/{id}/result, under wrk at 10 and 50 connections
# (scripts/bench/serve-result-latency.sh), on a database of the sample recipes ingested here. Not under nice: the
# figure is the server's latency, and wrk runs beside it.
serve_db="$OUT/serve-samples.sqlite"
rm -rf "$serve_db" "$serve_db"-* "$serve_db.uploads"
if ! command -v wrk >/dev/null; then
  echo "measure: skipped serve-result: wrk is not installed (scripts/setup.sh installs it)" >&2
elif $LARDER ingest --db "$serve_db" samples/recipes >"$OUT/serve-ingest.log" 2>&1; then
  for connections in 10 50; do
    name=serve-result-$connections
    echo "measure: $name ($(date -u +%H:%M:%S))" >&2
    echo "CONNECTIONS=$connections JSON=1 scripts/bench/serve-result-latency.sh larder DATABASE (larder ingest --db DATABASE samples/recipes)" >"$OUT/$name.cmd"
    rm -f "$OUT/$name.seconds"
    CONNECTIONS=$connections JSON=1 bash scripts/bench/serve-result-latency.sh "$LARDER" "$serve_db" >"$OUT/$name.json" 2>"$OUT/$name.err" \
      || { echo "measure: $name failed (see $OUT/$name.err)" >&2; rm -f "$OUT/$name.json"; }
  done
else
  echo "measure: serve-result: ingesting samples/recipes failed (see $OUT/serve-ingest.log)" >&2
fi
# Speed against recipe-scrapers and pdftotext (scripts/bench/measure-speed.sh), collected with the rest.
MEASURE_ONLY=0 bash scripts/bench/measure-speed.sh "$SHARED"
python3 scripts/bench/figures.py --collect "$OUT" --baseline benchmarks/baseline.json
python3 scripts/bench/figures.py --baseline benchmarks/baseline.json
