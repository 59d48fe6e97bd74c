#!/usr/bin/env bash
# Instructions per exported document of `larder export` (json) under valgrind's callgrind: a speed figure a loaded
# machine does not change, for Exporter.exported (ExportJSON) before/after comparisons.
# Usage: scripts/dev/profile-export.sh [LARDER] [DATABASE]
#   LARDER: the larder binary (default .build/release/larder; larder-worker must sit beside it to ingest).
#   DATABASE: a database with done documents (default: a fresh one with samples/recipes and samples/receipts
#   ingested by LARDER, LLM stage skipped). Nothing is written into DATABASE.
# CALLGRIND_OUT=FILE keeps callgrind's output there (for callgrind_annotate). valgrind 3.19 cannot read Swift 6.3's
# DWARF 5 debug info, so a copy of larder with its debug info stripped is profiled.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
LARDER="$(realpath "${1:-$ROOT/.build/release/larder}")"
WORK="$(mktemp -d)"
trap 'if [ -n "${CALLGRIND_OUT:-}" ] && [ -f "$WORK/callgrind.out" ]; then cp "$WORK/callgrind.out" "$CALLGRIND_OUT"; fi; rm -rf "$WORK"' EXIT
if [ -n "${2:-}" ]; then
  cp "$2" "$WORK/larder.sqlite"
else
  LARDER_SKIP_LLM=1 "$LARDER" ingest --db "$WORK/larder.sqlite" "$ROOT/samples/recipes" "$ROOT/samples/receipts" >/dev/null
fi
strip --strip-debug -o "$WORK/larder" "$LARDER"
valgrind --tool=callgrind --callgrind-out-file="$WORK/callgrind.out" "$WORK/larder" export \
  --db "$WORK/larder.sqlite" --out "$WORK/out" 2>&1 | grep -E "Collected"
docs=$(ls "$WORK/out" | wc -l)
bytes=$(cat "$WORK/out"/*.json | wc -c)
echo "documents exported: $docs ($bytes bytes)"
callgrind_annotate --inclusive=yes "$WORK/callgrind.out" 2>/dev/null \
  | grep -E 'ExporterV6export2toAC6ReportVSS_tKF |JSONSerializationC4data14withJSONObject' \
  | head -2 | awk -v d="$docs" '{ gsub(",", "", $1); printf "%14d  %.2f M per document  %s\n", $1, $1 / d / 1e6, $3 }'
