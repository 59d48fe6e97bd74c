#!/usr/bin/env bash
# Usage:  scripts/data/train-ingredients.sh
# Trains the ingredient-line tagger on all labelled sentences in ../shared/data/ingredients (the 36,320 dev
# sentences and the 80,778 in more/) and writes the shipped weights. Deterministic (fixed seed); a few minutes
# on one core in a release build. Needs ../shared/data (or LARDER_SHARED_DATA).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
DATA="${LARDER_SHARED_DATA:-$ROOT/../shared/data}"
[ -d "$DATA/ingredients" ] || { echo "train-ingredients: $DATA/ingredients not found (set LARDER_SHARED_DATA)" >&2; exit 1; }
LARDER="${LARDER:-.build/release/larder}"
[ -x "$LARDER" ] || swift build -c release --product larder
"$LARDER" train ingredients --labels "$DATA"/ingredients/*.csv "$DATA"/ingredients/more/*.csv \
    --out Sources/LarderIngredients/Resources/ingredient-tagger.bin "$@"
echo "retrain done: rebuild (swift build) so the new weights are bundled" >&2
