#!/usr/bin/env bash
# Larder vs recipe-scrapers' generic schema.org reader on the same saved pages, scored by the same code
# (`larder eval pages --predictions`). recipe-scrapers goes into a throwaway virtualenv (never a Larder
# dependency). Usage: scripts/bench/compare-pages.sh [DATA] (the recipes-scraped folder; default ../shared/data/recipes-scraped)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
DATA="${1:-$ROOT/../shared/data/recipes-scraped}"
[ $# -gt 0 ] && shift
VENV="${COMPARE_VENV:-$(mktemp -d)/venv}"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q recipe-scrapers
fi
"$VENV/bin/python" -c 'import importlib.metadata as m; print("recipe-scrapers", m.version("recipe-scrapers"))'
PRED="$(mktemp)"
"$VENV/bin/python" "$ROOT/scripts/bench/compare-pages.py" "$DATA" "$PRED"
LARDER="${LARDER:-$ROOT/.build/release/larder}"
[ -x "$LARDER" ] || { echo "build Larder first: swift build -c release --product larder --product larder-worker" >&2; exit 2; }
"$LARDER" eval pages --data "$DATA" --predictions "$PRED" --predictions-label recipe-scrapers "$@"
rm -f "$PRED"
