#!/usr/bin/env bash
# Ingests a fixed set of recipe documents with one build of Larder and writes everything the run stored (every
# stage output with its version and status, the result versions and the other tables, times left out) to one file
# with scripts/dev/dump-outputs.py: run it with the build before and after a change and `cmp` the two files to show that
# the change left every output byte-identical.
#
# Usage:  scripts/dev/dump-stage-outputs.sh LARDER OUTFILE
#   LARDER    a larder binary with larder-worker beside it (e.g. a copy of .build/release/larder)
#   OUTFILE   where the outputs go (OUTFILE.log gets the ingest log and the per-stage counts)
#
# Inputs: 150 benchmark PDFs (scripts/data/make-corpus.py 150 --seed 1), samples/recipes, and from ../shared/data (each
# skipped with a message when absent) recipes-markdown/content, recipes-pdf, recipes-scraped/html and
# recipe-app-exports. One worker, a fresh database in a temp folder.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 LARDER OUTFILE" >&2; exit 2; }
LARDER="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
OUT="$2"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
[ -x "$LARDER" ] || { echo "$0: $LARDER is not executable" >&2; exit 1; }
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
/usr/bin/python3 "$ROOT/scripts/data/make-corpus.py" 150 "$TMP/corpus" --seed 1 >/dev/null
INPUTS=("$TMP/corpus" "$ROOT/samples/recipes")
for d in recipes-markdown/content recipes-pdf recipes-scraped/html recipe-app-exports; do
  if [ -d "$ROOT/../shared/data/$d" ]; then INPUTS+=("$ROOT/../shared/data/$d"); else echo "$0: ../shared/data/$d absent, skipped" >&2; fi
done
"$LARDER" ingest --db "$TMP/db.sqlite" --workers 1 "${INPUTS[@]}" >"$OUT.log" 2>&1 || true
/usr/bin/python3 "$ROOT/scripts/dev/dump-outputs.py" "$TMP/db.sqlite" "$OUT"
