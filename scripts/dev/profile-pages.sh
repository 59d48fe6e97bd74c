#!/usr/bin/env bash
# Instruction count of `larder eval pages` on a fixed fifth of the saved pages (every fifth host folder of html/,
# in name order: 62 pages), under valgrind's callgrind: a speed figure a loaded machine does not change.
# Usage: scripts/dev/profile-pages.sh [DATA] (the recipes-scraped folder; default ../shared/data/recipes-scraped).
# CALLGRIND_OUT=FILE keeps callgrind's output there (for callgrind_annotate).
# Needs valgrind and a release build (swift build -c release --product larder-worker). valgrind 3.19 cannot read
# Swift 6.3's DWARF 5 debug info, so a copy of the worker with its debug info stripped is profiled.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
DATA="$(cd "${1:-$ROOT/../shared/data/recipes-scraped}" && pwd)"
WORK="$(mktemp -d)"
trap 'if [ -n "${CALLGRIND_OUT:-}" ] && [ -f "$WORK/callgrind.out" ]; then cp "$WORK/callgrind.out" "$CALLGRIND_OUT"; fi; rm -rf "$WORK"' EXIT
mkdir -p "$WORK/subset/html" "$WORK/subset/expected_json"
i=0
for host in $(ls "$DATA/html" | LC_ALL=C sort); do
  if [ $((i % 5)) -eq 0 ]; then
    ln -s "$DATA/html/$host" "$WORK/subset/html/$host"
    ln -s "$DATA/expected_json/$host" "$WORK/subset/expected_json/$host"
  fi
  i=$((i + 1))
done
cp "$ROOT/.build/release/larder-worker" "$WORK/worker"
strip --strip-debug "$WORK/worker"
valgrind --tool=callgrind --callgrind-out-file="$WORK/callgrind.out" "$WORK/worker" eval-pages \
  --data "$WORK/subset" --json --predictions-label none 2>&1 | grep -E "Collected|^\{"
callgrind_annotate --inclusive=yes "$WORK/callgrind.out" 2>/dev/null | grep -E "htmlReadMemory|PageEvaluationO5score|RecipeParserV5parse4page" | head -5
