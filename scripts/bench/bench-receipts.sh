#!/usr/bin/env bash
# Receipts per minute: `larder ingest` (preprocessing, OCR, parsing, pantry, SQLite) against the bare `tesseract`
# CLI over the same receipt images at the same parallelism, in the same run.
#
# Usage:  scripts/bench/bench-receipts.sh [N]          (default: every image found)
#
# Images: samples/receipts (always) and ../shared/data/receipts-sroie/img (skipped with a message when absent);
# N takes the first N of them, in that order. They are copied into a temp folder first (Larder registers by
# content, so the same image twice would count once).
#
# Environment:
#   LARDER=path       larder binary (default .build/release/larder, with larder-worker beside it; when the
#                     default is missing both are built with `swift build -c release`)
#   WORKERS=W         parallelism for both (default: nproc): larder --workers W, xargs -P W tesseract
#   RUNS=3            timed runs of each; the best (lowest) and the median are reported
#   TESS_ARGS         extra tesseract CLI arguments (default "--psm 6", the page segmentation Larder uses)
#   SROIE=dir         the SROIE images (default ../shared/data/receipts-sroie/img, beside the main checkout)
#   PROFILES          the `ocr.profile`s Larder runs with, each timed in every run (default "accurate fast"):
#                     accurate is the default (every accuracy-bearing re-read), fast reads each image once
#   KEEP=1            keep the temp dir (images, databases, logs)
#
# Wall time is the goal's measure; CPU time (user + system of all processes) is printed too because it barely moves
# when other work shares the machine, which wall time does. The load average before and after is printed with the
# table, and the ratio of each run pair (the two alternate, so a pair shares the machine's load) with their median.
# Both run with OMP_THREAD_LIMIT=1 (Larder's worker sets it itself; for the CLI it is set here): Debian's
# libtesseract otherwise starts OpenMP threads that slow OCR down when W already fills the cores.
# Goals (the receipts issue, 35): larder receipts/min over tesseract CLI receipts/min >= 0.75 with the accurate
# profile, >= 1.2 with the fast one. Run it under `nice -n 10` on a shared machine and quote the load average.
# Exit status: 0 when it ran (the goal is reported, not enforced), 1 on setup errors.
set -euo pipefail

N="${1:-0}"
case "$N" in ''|*[!0-9]*) echo "usage: $0 [N]  (N = number of receipt images, default all)" >&2; exit 2;; esac

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
W="${WORKERS:-$(nproc)}"
RUNS="${RUNS:-3}"
PROFILES="${PROFILES:-accurate fast}"
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

BENCH=bench-receipts
. "$ROOT/scripts/bench/bench-lib.sh"
need_tools tesseract xargs find awk /usr/bin/time
ensure_larder
make_tmp

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
# Each timing prints "wall cpu": wall-clock seconds, and user + system CPU seconds of the command and every process
# it waited for (/usr/bin/time). CPU seconds hardly move when other work loads the machine; wall seconds do.
cpu_of() { awk '{ printf "%.3f", $1 + $2 }' "$1"; }
time_tesseract() {
  local t0 t1
  t0=$(now)
  if ! find "$IMAGES" -type f -print0 > "$TMP/files0" ||
      ! OMP_THREAD_LIMIT=1 /usr/bin/time -f '%U %S' -o "$TMP/tesseract.time" \
        xargs -0 -n 1 -P "$W" -a "$TMP/files0" \
        sh -c 'tesseract "$1" - '"$TESS_ARGS"' >/dev/null 2>>"$0" || exit 255' "$TMP/tesseract.err"; then
    return 1
  fi
  t1=$(now)
  echo "$(sub "$t1" "$t0") $(cpu_of "$TMP/tesseract.time")"
}

# --- (c) larder, fresh database each run -----------------------------------------------
for profile in $PROFILES; do
  case "$profile" in accurate|fast) ;; *) die "PROFILES: '$profile' is not an ocr.profile (accurate or fast)";; esac
  printf 'ocr:\n  profile: %s\n' "$profile" > "$TMP/$profile.yml"
done
run_larder() {  # db log profile -> "wall cpu"
  local t0 t1 rc=0
  t0=$(now)
  /usr/bin/time -f '%U %S' -o "$TMP/larder.time" \
    "$LARDER" ingest --config "$TMP/$3.yml" --db "$1" --workers "$W" "$IMAGES" >"$2" 2>&1 || rc=$?
  t1=$(now)
  # 1 = some documents failed; the summary says which. Anything else is a setup error.
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
    echo "bench-receipts: larder ingest exited $rc; last lines of $2:" >&2
    tail -n 20 "$2" >&2
    exit 1
  fi
  echo "$(sub "$t1" "$t0") $(cpu_of "$TMP/larder.time")"
}
fresh_db() { rm -f "$1" "$1-wal" "$1-shm" "$1-journal"; }

# --- (d) alternate them, so that load from other work on the machine hits each alike ----
DB="$TMP/bench.sqlite"
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
declare -A PAIRS WALL CPU DONE
TESS_S=""
TESS_CPU=""
for i in $(seq 1 "$RUNS"); do
  read -r t c < <(time_tesseract) || { tail -n 20 "$TMP/tesseract.err" >&2; die "tesseract failed on the images"; }
  [ -n "${c:-}" ] || { tail -n 20 "$TMP/tesseract.err" >&2; die "tesseract failed on the images"; }
  echo "  run $i: tesseract CLI ${t}s wall, ${c}s CPU"
  TESS_WALL_I="$t"
  TESS_S=$(min "$TESS_S" "$t")
  TESS_CPU=$(min "$TESS_CPU" "$c")
  for profile in $PROFILES; do
    fresh_db "$DB"
    read -r t c < <(run_larder "$DB" "$TMP/larder-$profile-run$i.log" "$profile")
    [ -n "${c:-}" ] || die "larder ingest failed (log: $TMP/larder-$profile-run$i.log)"
    echo "  run $i: larder ingest ($profile) ${t}s wall, ${c}s CPU"
    PAIRS[$profile]="${PAIRS[$profile]:-} $(div "$TESS_WALL_I" "$t")"
    WALL[$profile]=$(min "${WALL[$profile]:-}" "$t")
    CPU[$profile]=$(min "${CPU[$profile]:-}" "$c")
    "$LARDER" status --db "$DB" > "$TMP/status.txt" 2>&1 || true
    DONE[$profile]=$(grep -o '[0-9]* done' "$TMP/status.txt" | head -n 1 | awk '{print $1}')
  done
done
# Where Larder's time goes: mean milliseconds per document of each stage (last run, last profile), when sqlite3 is
# installed.
STAGES=""
if command -v sqlite3 >/dev/null 2>&1; then
  STAGES=$(sqlite3 "$DB" "SELECT stage || ' ' || printf('%.0f', avg(duration_ms)) FROM stage_run WHERE status = 'done' GROUP BY stage ORDER BY avg(duration_ms) DESC" 2>/dev/null | paste -sd, - | sed 's/,/ ms, /g; s/$/ ms/') || STAGES=""
fi

# --- (e) table -----------------------------------------------------------------------------
goal_of() { [ "$1" = fast ] && echo 1.2 || echo 0.75; }
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "n/a"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
TESS_RPM=$(per_minute "$COUNT" "$TESS_S")
TESS_CPM=$(per_minute "$COUNT" "$TESS_CPU")
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
row() { printf '%-52s %10s  %-8s %s\n' "$@"; }
echo
echo "Receipts benchmark: $COUNT images, workers=$W, best of $RUNS, $(date -u +%Y-%m-%dT%H:%MZ)"
echo "load average (1, 5, 15 min): before $LOAD_BEFORE, after $LOAD_AFTER; $(nproc) cores"
row "metric" "value" "goal" "status"
row "tesseract CLI wall s ($TESS_ARGS)" "$TESS_S" "" ""
row "tesseract CLI receipts/min" "$TESS_RPM" "" ""
row "tesseract CLI receipts per CPU-minute" "$TESS_CPM" "" ""
for profile in $PROFILES; do
  goal=$(goal_of "$profile")
  rpm=$(per_minute "$COUNT" "${WALL[$profile]}")
  ratio=$(div "$rpm" "$TESS_RPM")
  med=$(echo "${PAIRS[$profile]}" | median)
  cpm=$(per_minute "$COUNT" "${CPU[$profile]}")
  cpu_ratio=$(div "$cpm" "$TESS_CPM")
  row "larder ($profile) ingest wall s" "${WALL[$profile]}" "" ""
  row "larder ($profile) receipts/min" "$rpm" "" ""
  row "larder ($profile) / tesseract CLI (receipts/min)" "$ratio" ">= $goal" "$(verdict "$ratio" "$goal")"
  row "  same, median of the run pairs" "$med" ">= $goal" "$(verdict "$med" "$goal")"
  row "larder ($profile) receipts per CPU-minute" "$cpm" "" ""
  row "larder ($profile) / tesseract CLI (per CPU-minute)" "$cpu_ratio" ">= $goal" "$(verdict "$cpu_ratio" "$goal")"
  row "larder ($profile) documents done" "${DONE[$profile]:-?}/$COUNT" "" ""
done
[ -n "$STAGES" ] && echo "larder stage time per document (last run, $(echo $PROFILES | awk '{print $NF}') profile, mean): $STAGES"
exit 0
