#!/usr/bin/env bash
# Usage: scripts/data/train-receipts.sh [--photo-boxes DIR] [--evaluate --ocr-cache DIR]
# Trains the receipt line model on CORD v1 train, SROIE train (../shared/data/receipts-train) and the box labels of
# the development photos (../shared/data/receipts-photos/boxes; the shipped weights use --photo-boxes ALIGNED/boxes,
# tesseract's lines of the photos labelled from those boxes: first `larder eval receipts
# ../shared/data/receipts-photos --config eval/photos.yml --ocr-cache CACHE/photos`, then
# `scripts/data/align-receipt-lines.py --cache CACHE/photos --out ALIGNED`), and writes the shipped weights
# Sources/LarderReceipts/Resources/receipt-lines.bin. Deterministic (fixed seed, sorted inputs); ~20 s on one core
# in a debug build. With --evaluate, also prints the held-out figures (leave-one-dataset-out, k-fold within the
# photos, and the fields on the OCR caches `larder eval receipts --ocr-cache DIR/{photos,sroie,de}` wrote).
# Needs ../shared/data (or LARDER_SHARED_DATA).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
DATA="${LARDER_SHARED_DATA:-$ROOT/../shared/data}"
[ -d "$DATA/receipts-train" ] || { echo "train-receipts: $DATA/receipts-train not found (set LARDER_SHARED_DATA)" >&2; exit 1; }
WORKER="${LARDER_WORKER:-.build/debug/larder-worker}"
[ -x "$WORKER" ] || swift build --product larder-worker
"$WORKER" receipt-model --data "$DATA" --out Sources/LarderReceipts/Resources/receipt-lines.bin "$@"
echo "retrain done: rebuild (swift build) so the new weights are bundled" >&2
