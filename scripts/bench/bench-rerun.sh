#!/usr/bin/env bash
# Times a no-op re-run of `larder ingest` (every file already done) over N small generated text recipes, after
# one full ingest: the re-run walks the folder, finds every file unchanged in the store and registers nothing.
# Issue 11 item 6: this grew quadratically with the batch (15.4 s at 20,000 files) while the duplicate check
# searched by batch; it looks documents up by key now.
#
# Usage: scripts/bench/bench-rerun.sh [N ...]     (default: 2500 10000 20000)
# Prints wall-clock time and CPU time (user + system) of the re-run: on a loaded machine the CPU time is the
# figure that compares.
# LARDER=path/to/larder picks the binary (default .build/release/larder, built when missing); KEEP=1 keeps the
# temp folder.
set -euo pipefail
BENCH=rerun
DEFAULT_LARDER=.build/release/larder
LARDER="${LARDER:-$DEFAULT_LARDER}"
source "$(dirname "$0")/bench-lib.sh"
need_tools python3 find /usr/bin/time
ensure_larder
make_tmp
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(2500 10000 20000)
for n in "${sizes[@]}"; do
  corpus="$TMP/corpus-$n"
  python3 - "$corpus" "$n" <<'PY'
import os, sys
folder, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    sub = os.path.join(folder, "%03d" % (i // 1000))
    os.makedirs(sub, exist_ok=True)
    with open(os.path.join(sub, "r%06d.txt" % i), "w") as f:
        f.write("Recipe %d\n\nIngredients\n%d g flour\n2 eggs\n\nMethod\n1. Mix and bake.\n" % (i, 100 + i % 400))
PY
  db="$TMP/db-$n.sqlite"
  start=$(now); "$LARDER" ingest --db "$db" "$corpus" >/dev/null; first=$(sub "$(now)" "$start")
  start=$(now); find "$corpus" -type f -printf '%s %T@\n' >/dev/null; walk=$(sub "$(now)" "$start")
  best=""; cpu=""
  for _ in 1 2 3; do
    start=$(now)
    /usr/bin/time -f '%U %S' -o "$TMP/time" "$LARDER" ingest --db "$db" "$corpus" >/dev/null
    best=$(min "$best" "$(sub "$(now)" "$start")")
    cpu=$(min "$cpu" "$(awk '{ printf "%.3f", $1 + $2 }' "$TMP/time")")
  done
  printf 'files %6d  first ingest %8.1f s  no-op re-run (best of 3) %6.2f s wall, %6.2f s CPU  (find over the same files %5.2f s)\n' \
    "$n" "$first" "$best" "$cpu" "$walk"
done
