#!/usr/bin/env bash
# `larder eval pages` on two halves of the saved pages, split by site: a host goes to half A or B by the parity
# of the CRC of its name (`cksum`), so both pages of a site land in the same half. The rules were written while
# reading errors on all pages, so neither half is unseen data: the halves show how much the figures move from one
# set of sites to another, not a held-out score.
# Usage: scripts/pages-halves.sh [DATA] (the recipes-scraped folder; default ../shared/data/recipes-scraped).
# Needs a release build of larder-worker (swift build -c release --product larder-worker); WORKER=path overrides it.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DATA="$(cd "${1:-$ROOT/../shared/data/recipes-scraped}" && pwd)"
WORKER="${WORKER:-$ROOT/.build/release/larder-worker}"
[ -x "$WORKER" ] || { echo "build the worker first: swift build -c release --product larder-worker" >&2; exit 2; }
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
for half in A B; do mkdir -p "$WORK/$half/html" "$WORK/$half/expected_json"; done
for host in $(ls "$DATA/html" | LC_ALL=C sort); do
  crc=$(printf '%s' "$host" | cksum | cut -d' ' -f1)
  half=$([ $((crc % 2)) -eq 0 ] && echo A || echo B)
  ln -s "$DATA/html/$host" "$WORK/$half/html/$host"
  [ -d "$DATA/expected_json/$host" ] && ln -s "$DATA/expected_json/$host" "$WORK/$half/expected_json/$host"
done
for half in A B; do
  printf 'half %s: ' "$half"
  "$WORKER" eval-pages --data "$WORK/$half" --json --predictions-label none
done
