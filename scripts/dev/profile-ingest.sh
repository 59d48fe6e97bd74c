#!/usr/bin/env bash
# Instruction-count profile of the ingest pipeline: `larder ingest` over the benchmark's generated corpus, with its
# worker (`larder-worker`, which runs every stage) under `valgrind --tool=callgrind`, one worker, so the counts
# repeat from run to run whatever else the machine is doing (wall time on this shared machine does not).
#
# Usage:  scripts/dev/profile-ingest.sh [N]          (default N=60 PDFs; callgrind runs ~50x slower than native)
#
# Environment:
#   LARDER=path   larder binary (default .build/release/larder, larder-worker beside it; built when missing)
#   SEED=1        corpus seed (scripts/data/make-corpus.py --seed), as in scripts/bench/bench-ingest.sh
#   TOP=25        functions listed per table
#   KEEP=1        keep the temp dir (the callgrind.out file, for callgrind_annotate or kcachegrind)
#   PAGES=DIR     profile saved pages instead of PDFs: DIR is the recipes-scraped folder; every fifth host folder of
#                 DIR/html, in name order (62 pages, as scripts/dev/profile-pages.sh), copied into one folder
#
# Prints: total instructions and instructions per document; the top functions by self cost; the stages' `run`
# and the checkpoint store's calls by inclusive cost (what each stage costs with everything it calls).
set -euo pipefail

N="${1:-60}"
case "$N" in ''|*[!0-9]*) echo "usage: $0 [N]  (N = number of PDFs, default 60)" >&2; exit 2;; esac

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
PY=/usr/bin/python3
SEED="${SEED:-1}"
TOP="${TOP:-25}"
DEFAULT_LARDER=".build/release/larder"
LARDER="${LARDER:-$DEFAULT_LARDER}"

BENCH=profile-ingest
. "$ROOT/scripts/bench/bench-lib.sh"
need_tools valgrind callgrind_annotate objcopy swift "$PY"
ensure_larder
make_tmp

WORKER="$(dirname "$LARDER")/larder-worker"
[ -x "$WORKER" ] || die "$WORKER is missing (build it: swift build -c release --product larder-worker)"
OUT="$TMP/callgrind.out"
# valgrind cannot read the DWARF 5 debug info Swift writes ("Possibly corrupted debuginfo file"): profile a copy
# without it (the symbol table stays, so functions keep their names), beside the build's resource bundles.
mkdir -p "$TMP/bin"
objcopy --strip-debug "$WORKER" "$TMP/bin/larder-worker"
for bundle in "$(dirname "$WORKER")"/*.resources; do [ -e "$bundle" ] && ln -s "$bundle" "$TMP/bin/"; done
WORKER="$TMP/bin/larder-worker"

# `larder ingest` registers the files and starts its worker through $LARDER_WORKER: a wrapper under callgrind.
cat >"$TMP/worker.sh" <<EOF
#!/bin/sh
exec valgrind --tool=callgrind --callgrind-out-file="$OUT" --dump-instr=no --collect-jumps=no "$WORKER" "\$@"
EOF
chmod +x "$TMP/worker.sh"

if [ -n "${PAGES:-}" ]; then
  mkdir -p "$TMP/corpus"
  i=0
  for host in $(ls "$PAGES/html" | LC_ALL=C sort); do
    if [ $((i % 5)) -eq 0 ]; then
      for f in "$PAGES/html/$host"/*; do cp "$f" "$TMP/corpus/${host}__$(basename "${f%.*}").html"; done
    fi
    i=$((i + 1))
  done
  N=$(find "$TMP/corpus" -type f | wc -l)
  echo "profile-ingest: $N saved pages from $PAGES, 1 worker under callgrind; this takes a few minutes"
else
  "$PY" scripts/data/make-corpus.py "$N" "$TMP/corpus" --seed "$SEED" >/dev/null
  echo "profile-ingest: $N PDFs (seed $SEED), 1 worker under callgrind; this takes a few minutes"
fi
rc=0
LARDER_WORKER="$TMP/worker.sh" "$LARDER" ingest --db "$TMP/profile.sqlite" --workers 1 "$TMP/corpus" \
  >"$TMP/ingest.log" 2>&1 || rc=$?
if [ "$rc" -ne 0 ] || [ ! -s "$OUT" ]; then
  tail -n 20 "$TMP/ingest.log" >&2
  die "larder ingest under callgrind failed (exit $rc)"
fi

# The report reads callgrind_annotate through `head`: a closed pipe is not an error here.
set +o pipefail
demangle() { swift demangle --simplified --compact 2>/dev/null || cat; }
# Drop callgrind_annotate's "file:" prefix and argument lists so long Swift names stay on one line.
tidy() { sed -E 's/ \(([^()]*)\)$//; s/^( *[0-9,]+ \([ 0-9.]+%\)) +[^ ]*:/\1  /' | cut -c1-170; }

TOTAL=$(callgrind_annotate "$OUT" 2>/dev/null | awk '/PROGRAM TOTALS/ && !t { gsub(",", "", $1); t = $1 } END { print t }')
echo
echo "instructions: $TOTAL total, $(awk -v t="$TOTAL" -v n="$N" 'BEGIN { printf "%.1f M", t / n / 1e6 }') per document (start-up included)"

echo
echo "== top $TOP functions by self cost (instructions, % of total) =="
callgrind_annotate --threshold=100 "$OUT" 2>/dev/null | awk '/^-+$/ { n++ } n >= 3 && /^ *[0-9]/' \
  | head -n "$TOP" | demangle | tidy

echo
echo "== stages and checkpoint writes, inclusive (everything they call) =="
callgrind_annotate --inclusive=yes --threshold=100 "$OUT" 2>/dev/null | awk '/^-+$/ { n++ } n >= 3 && /^ *[0-9]/' \
  | demangle | tidy \
  | grep -E 'Stage\.run\(|SHA256\.hex|checkUnchanged|PageReader\.read|RecipeParser\.parse|WorkQueue\.runStages|SQLiteCheckpointStore\.(complete|markRunning|settle)\(|SchemaCatalog\.validate\(|RecipeEnrichment\.enrich\(|StageOutput\.init|JSONDecoder\.decode' \
  | head -n "$TOP"
