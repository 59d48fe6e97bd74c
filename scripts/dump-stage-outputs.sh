#!/usr/bin/env bash
# Ingests a fixed set of recipe documents with one build of Larder and writes every `recipe` and `result` stage
# output (with its stage version and status), sorted by document SHA-256, to one file: run it with the build before
# and after a change and `cmp` the two files to show that the change left every output byte-identical.
#
# Usage:  scripts/dump-stage-outputs.sh LARDER OUTFILE
#   LARDER    a larder binary with larder-worker beside it (e.g. a copy of .build/release/larder)
#   OUTFILE   where the outputs go (OUTFILE.log gets the ingest log and the per-stage counts)
#
# Inputs: 150 benchmark PDFs (scripts/make-corpus.py 150 --seed 1), samples/recipes, and from ../shared/data (each
# skipped with a message when absent) recipes-markdown/content, recipes-pdf, recipes-scraped/html and
# recipe-app-exports. One worker, a fresh database in a temp folder.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 LARDER OUTFILE" >&2; exit 2; }
LARDER="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
OUT="$2"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ -x "$LARDER" ] || { echo "$0: $LARDER is not executable" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "$0: sqlite3 not found" >&2; exit 1; }
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
/usr/bin/python3 "$ROOT/scripts/make-corpus.py" 150 "$TMP/corpus" --seed 1 >/dev/null
INPUTS=("$TMP/corpus" "$ROOT/samples/recipes")
for d in recipes-markdown/content recipes-pdf recipes-scraped/html recipe-app-exports; do
  if [ -d "$ROOT/../shared/data/$d" ]; then INPUTS+=("$ROOT/../shared/data/$d"); else echo "$0: ../shared/data/$d absent, skipped" >&2; fi
done
"$LARDER" ingest --db "$TMP/db.sqlite" --workers 1 "${INPUTS[@]}" >"$OUT.log" 2>&1 || true
sqlite3 "$TMP/db.sqlite" "SELECT d.sha256, s.stage, s.version, s.status, s.output, s.error FROM stage_run s
  JOIN document d ON d.id = s.document_id WHERE s.stage IN ('recipe', 'result') ORDER BY d.sha256, s.stage" >"$OUT"
sqlite3 "$TMP/db.sqlite" "SELECT stage, status, count(*) FROM stage_run GROUP BY stage, status" >>"$OUT.log"
echo "$(wc -l <"$OUT") stage outputs written to $OUT"
