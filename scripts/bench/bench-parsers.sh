#!/usr/bin/env bash
# Usage:  scripts/bench/bench-parsers.sh
# Parser speed on one core, release build: ingredient lines per second (goal >= 50,000/s; the CRF parser manages
# about 650/s), best pass in the thread's CPU time and in wall-clock time (on a shared machine the CPU figure is
# the one to quote), and recipes per second parsed from text. Needs ../shared/data (or LARDER_SHARED_DATA).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
DATA="${LARDER_SHARED_DATA:-$ROOT/../shared/data}"
[ -d "$DATA/ingredients" ] || { echo "bench-parsers: $DATA/ingredients not found (set LARDER_SHARED_DATA)" >&2; exit 1; }
LARDER="${LARDER:-.build/release/larder}"
[ -x "$LARDER" ] || { swift build -c release --product larder && swift build -c release --product larder-worker; }
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
"$LARDER" eval ingredients --labels "$DATA"/ingredients/*.csv --json --bench "${PASSES:-7}"
"$LARDER" eval recipes --data "$DATA" --json
