#!/usr/bin/env bash
# Receipts per minute: `larder ingest` (preprocessing, OCR, parsing, pantry, SQLite) against the bare `tesseract`
# CLI over the same receipt images at the same parallelism, in the same run.
#
# Usage:  scripts/bench-receipts.sh [N]          (default: every image found)
#
# Images: samples/receipts (always) and ../shared/data/receipts-sroie/img (skipped with a message when absent);
# N takes the first N of them, in that order. They are copied into a temp folder first (Larder registers by
# content, so the same image twice would count once).
#
# Environment:
#   LARDER=path       larder binary (default .build/release/larder, with larder-worker beside it; when the
#                     default is missing both are built with `swift build -c release`)
#   WORKERS=W         parallelism for both (default: nproc): larder --workers W, xargs -P W tesseract
#   RUNS=3            timed runs of each; the best (lowest) is reported
#   TESS_ARGS         extra tesseract CLI arguments (default "--psm 6", the page segmentation Larder uses)
#   SROIE=dir         the SROIE images (default ../shared/data/receipts-sroie/img, beside the main checkout)
#   KEEP=1            keep the temp dir (images, databases, logs)
#
# Both run with OMP_THREAD_LIMIT=1 (Larder's worker sets it itself; for the CLI it is set here): Debian's
# libtesseract otherwise starts OpenMP threads that slow OCR down when W already fills the cores.
# Goal (the receipts issue): larder receipts/min >= tesseract CLI receipts/min, i.e. ratio >= 1.
# Exit status: 0 when it ran (the goal is reported, not enforced), 1 on setup errors.
set -euo pipefail

N="${1:-0}"
case "$N" in ''|*[!0-9]*) echo "usage: $0 [N]  (N = number of receipt images, default all)" >&2; exit 2;; esac

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
W="${WORKERS:-$(nproc)}"
RUNS="${RUNS:-3}"
TESS_ARGS="${TESS_ARGS:---psm 6}"
if [ -z "${SROIE:-}" ]; then
  SROIE="$ROOT/../shared/data/receipts-sroie/img"
  # In a git worktree, ../shared sits beside the main checkout.
  COMMON="$(git rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)"
  if [ ! -d "$SROIE" ] && [ -n "$COMMON" ] && [ -d "$COMMON/../../shared/data/receipts-sroie/img" ]; then
    SROIE="$(cd "$COMMON/../../shared/data/receipts-sroie/img" && pwd)"
  fi
fi
DEFAULT_LARDER=".build/release/larder"
LARDER="${LARDER:-$DEFAULT_LARDER}"

die() { echo "bench-receipts: error: $*" >&2; exit 1; }

for tool in tesseract xargs find awk; do
  command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found (run scripts/setup.sh)"
done

# --- the larder binary -------------------------------------------------------
if [ ! -x "$LARDER" ]; then
  if [ "$LARDER" = "$DEFAULT_LARDER" ]; then
    command -v swift >/dev/null 2>&1 || die "$LARDER is missing and 'swift' is not on PATH to build it.
Build it (make build) or set LARDER=/path/to/larder."
    echo "bench-receipts: $LARDER missing; building larder and larder-worker (release)"
    { swift build -c release --product larder && swift build -c release --product larder-worker; } \
      || die "swift build -c release failed"
    [ -x "$LARDER" ] || die "build finished but $LARDER still does not exist"
  else
    die "LARDER=$LARDER does not exist or is not executable"
  fi
fi
LARDER="$(cd "$(dirname "$LARDER")" && pwd)/$(basename "$LARDER")"

TMP="$(mktemp -d "${TMPDIR:-/tmp}/larder-bench-receipts.XXXXXX")"
if [ "${KEEP:-0}" = "1" ]; then
  echo "bench-receipts: keeping $TMP"
else
  trap 'rm -rf "$TMP"' EXIT
fi

now() { date +%s.%N; }
sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'; }
min() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b + 0 < a + 0) print b; else print a }'; }
div() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) print "n/a"; else printf "%.2f", a / b }'; }
per_minute() { awk -v n="$1" -v s="$2" 'BEGIN { if (s + 0 == 0) print "n/a"; else printf "%.1f", 60 * n / s }'; }
verdict() {  # value op limit -> ok / MISSED (value must be >= limit)
  awk -v v="$1" -v lim="$2" 'BEGIN { if (v == "n/a") print "?"; else if (v + 0 >= lim + 0) print "ok"; else print "MISSED" }'
}

# --- (a) the images ------------------------------------------------------------------
IMAGES="$TMP/receipts"
mkdir -p "$IMAGES"
list_images() { find "$1" -maxdepth 1 -type f \( -iname '*.png' -o -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.tif' -o -iname '*.tiff' \) | sort; }
{
  list_images samples/receipts | sed 's/^/samples /'
  if [ -d "$SROIE" ]; then
    list_images "$SROIE" | sed 's/^/sroie /'
  else
    echo "bench-receipts: $SROIE not found: skipping the SROIE receipts (samples/receipts only)" >&2
  fi
} > "$TMP/list"
[ "$N" -gt 0 ] && { head -n "$N" "$TMP/list" > "$TMP/list.n"; mv "$TMP/list.n" "$TMP/list"; }
while read -r origin path; do
  cp "$path" "$IMAGES/$origin-$(basename "$path")"
done < "$TMP/list"
COUNT=$(find "$IMAGES" -type f | wc -l)
[ "$COUNT" -gt 0 ] || die "no receipt images found"
echo "bench-receipts: $COUNT images ($(grep -c '^samples ' "$TMP/list") samples, $(grep -c '^sroie ' "$TMP/list" || true) SROIE), workers=$W, best of $RUNS runs"

# --- (b) tesseract CLI -------------------------------------------------------------------
time_tesseract() {
  local t0 t1
  t0=$(now)
  # shellcheck disable=SC2086  # TESS_ARGS is a list of arguments
  if ! find "$IMAGES" -type f -print0 |
      OMP_THREAD_LIMIT=1 xargs -0 -n 1 -P "$W" sh -c 'tesseract "$1" - '"$TESS_ARGS"' >/dev/null 2>>"$0" || exit 255' "$TMP/tesseract.err"; then
    return 1
  fi
  t1=$(now)
  sub "$t1" "$t0"
}
TESS_S=""
for i in $(seq 1 "$RUNS"); do
  t=$(time_tesseract) || { tail -n 20 "$TMP/tesseract.err" >&2; die "tesseract failed on the images"; }
  echo "  tesseract CLI run $i: ${t}s"
  TESS_S=$(min "$TESS_S" "$t")
done

# --- (c) larder, fresh database each run -----------------------------------------------
run_larder() {  # db log -> seconds
  local t0 t1 rc=0
  t0=$(now)
  "$LARDER" ingest --db "$1" --workers "$W" "$IMAGES" >"$2" 2>&1 || rc=$?
  t1=$(now)
  # 1 = some documents failed; the summary says which. Anything else is a setup error.
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
    echo "bench-receipts: larder ingest exited $rc; last lines of $2:" >&2
    tail -n 20 "$2" >&2
    exit 1
  fi
  sub "$t1" "$t0"
}
fresh_db() { rm -f "$1" "$1-wal" "$1-shm" "$1-journal"; }

DB="$TMP/bench.sqlite"
LARDER_S=""
for i in $(seq 1 "$RUNS"); do
  fresh_db "$DB"
  t=$(run_larder "$DB" "$TMP/larder-run$i.log")
  echo "  larder run $i: ${t}s"
  LARDER_S=$(min "$LARDER_S" "$t")
done
"$LARDER" status --db "$DB" > "$TMP/status.txt" 2>&1 || true
DONE=$(grep -o '[0-9]* done' "$TMP/status.txt" | head -n 1 | awk '{print $1}')

# --- (d) table -----------------------------------------------------------------------------
TESS_RPM=$(per_minute "$COUNT" "$TESS_S")
LARDER_RPM=$(per_minute "$COUNT" "$LARDER_S")
RATIO=$(div "$LARDER_RPM" "$TESS_RPM")
echo
echo "Receipts benchmark: $COUNT images, workers=$W, best of $RUNS, $(date -u +%Y-%m-%dT%H:%MZ)"
printf '%-40s %12s  %-8s %s\n' "metric" "value" "goal" "status"
printf '%-40s %12s  %-8s %s\n' "tesseract CLI wall s ($TESS_ARGS)" "$TESS_S" "" ""
printf '%-40s %12s  %-8s %s\n' "larder ingest wall s" "$LARDER_S" "" ""
printf '%-40s %12s  %-8s %s\n' "tesseract CLI receipts/min" "$TESS_RPM" "" ""
printf '%-40s %12s  %-8s %s\n' "larder receipts/min" "$LARDER_RPM" "" ""
printf '%-40s %12s  %-8s %s\n' "larder / tesseract CLI (receipts/min)" "$RATIO" ">= 1" "$(verdict "$RATIO" 1)"
printf '%-40s %12s  %-8s %s\n' "larder documents done" "${DONE:-?}/$COUNT" "" ""
