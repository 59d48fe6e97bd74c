#!/usr/bin/env bash
# Times `larder search` and `larder cook` over a generated corpus of recipes ingested through the real pipeline.
#
# Usage:  scripts/bench/bench-plate.sh [N]            (default N=10000 recipe PDFs)
#
# Environment:
#   LARDER=path   larder binary (default .build/release/larder, with larder-worker beside it; built when missing)
#   WORKERS=W     ingest parallelism (default: nproc)
#   RUNS=5        timed runs per command; the best (lowest) and the median wall time, and the median CPU time
#                 (user + system: what the command costs, whatever else the machine is doing), are reported
#   SEED=1        corpus seed (scripts/data/make-corpus.py --seed)
#   KEEP=1        keep the temp dir (corpus, database)
#   REUSE_DB=path time the commands on a database a previous run kept (KEEP=1), without making and ingesting again
#   CACHE=dir     where the ingested database is kept for the next run (default .build/bench-plate; CACHE= to
#                 turn it off): one file per N, seed and pipeline (the stage versions and the index migrations in
#                 Sources), so a rerun with the same pipeline skips making and ingesting the corpus (about 25 minutes
#                 for 10,000 PDFs on 2 cores) and only times the commands
#
# Steps: scripts/data/make-corpus.py N text PDFs (one generated recipe each, 1-3 pages), `larder ingest` of them plus
# samples/receipts (the pantry), then each timed command as a whole process (start, open, query, print), with
# the process start alone, an empty search, and the bare FTS5 query through sqlite3 as baselines.
# Goals (issue 17): search < 50 ms, cook < 1 s. Reported, not enforced.
set -euo pipefail

N="${1:-10000}"
case "$N" in ''|*[!0-9]*) echo "usage: $0 [N]" >&2; exit 2;; esac
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
PY=/usr/bin/python3
W="${WORKERS:-$(nproc)}"
RUNS="${RUNS:-5}"
SEED="${SEED:-1}"
DEFAULT_LARDER=".build/release/larder"
LARDER="${LARDER:-$DEFAULT_LARDER}"

BENCH=bench-plate
. "$ROOT/scripts/bench/bench-lib.sh"
need_tools "$PY" awk sort cksum
ensure_larder
make_tmp

CORPUS="$TMP/corpus"
CACHE="${CACHE-$ROOT/.build/bench-plate}"
# What the ingested database depends on: the stage versions and the index's migrations.
PIPELINE_KEY=$(grep -rhoE '"[a-z]+@[0-9]+"|registerMigration\("[^"]+"' Sources | sort | cksum | cut -d' ' -f1)
CACHED="${CACHE:+$CACHE/$N-seed$SEED-$PIPELINE_KEY.sqlite}"
if [ -n "${REUSE_DB:-}" ]; then
  DB="$REUSE_DB"
  echo "bench-plate: reusing $DB"
elif [ -n "$CACHED" ] && [ -s "$CACHED" ]; then
  DB="$TMP/larder.sqlite"
  cp "$CACHED" "$DB"
  echo "bench-plate: the ingested corpus from $CACHED (delete it to ingest again)"
else
  DB="$TMP/larder.sqlite"
  "$PY" scripts/data/make-corpus.py "$N" "$CORPUS" --seed "$SEED" >/dev/null
  start=$(now)
  "$LARDER" ingest --db "$DB" --workers "$W" "$CORPUS" samples/receipts >"$TMP/ingest.log" 2>&1 || true
  echo "bench-plate: $N PDFs and the demo receipts ingested in $(sub "$(now)" "$start") s"
  if [ -n "$CACHED" ]; then  # one self-contained file (the WAL folded in), for the next run
    mkdir -p "$CACHE"
    "$PY" -c 'import sqlite3,sys; s=sqlite3.connect(sys.argv[1]); d=sqlite3.connect(sys.argv[2]); s.backup(d); d.close()' \
      "$DB" "$CACHED.part" && mv "$CACHED.part" "$CACHED" && echo "bench-plate: kept the ingested database as $CACHED"
  fi
fi
RECIPES=$("$PY" -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT COUNT(*) FROM recipe_entry").fetchone()[0])' "$DB")
echo "bench-plate: $RECIPES recipes in the index; best and median of $RUNS runs; $(date -u '+%Y-%m-%d %H:%M UTC'), \
commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"

timeit() {  # label command...: wall time (best, median) and CPU time (user + system, median) of RUNS runs
  local label="$1"; shift
  "$PY" - "$RUNS" "$TMP/out.txt" "$label" "$@" <<'PYEOF'
import resource, subprocess, sys, time
runs, out, label, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
walls, cpus = [], []
for _ in range(runs):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(out, "w") as f:
        subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT)
    walls.append(time.perf_counter() - start)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
median = lambda v: sorted(v)[(len(v) - 1) // 2]
lines = sum(1 for line in open(out) if line.strip())
print(f"{label:<62} wall best {min(walls) * 1000:6.1f} ms, median {median(walls) * 1000:6.1f} ms;"
      f" CPU median {median(cpus) * 1000:6.1f} ms  ({lines} result lines)")
PYEOF
}

timeit "larder --help (process start, no database)" "$LARDER" --help
timeit "larder search --limit 1 zzzz (start + open + empty query)" "$LARDER" search --db "$DB" --limit 1 zzzz
if command -v sqlite3 >/dev/null 2>&1; then  # the FTS5 query alone, without the process around it
  timeit "sqlite3: the FTS5 query for 'lentil' alone" sqlite3 "$DB" \
    "SELECT e.title, bm25(recipe_search, 10.0, 4.0, 1.0, 3.0, 3.0) AS rank FROM recipe_search
     JOIN recipe_entry e ON e.id = recipe_search.rowid WHERE recipe_search MATCH '\"lentil\"' ORDER BY rank LIMIT 20"
fi
timeit "larder search lentil" "$LARDER" search --db "$DB" lentil
timeit "larder search 'slow cooked beans' --limit 50" "$LARDER" search --db "$DB" slow cooked beans --limit 50
timeit "larder search --ingredient garlic --diet vegetarian --max-minutes 60" \
  "$LARDER" search --db "$DB" --ingredient garlic --diet vegetarian --max-minutes 60
timeit "larder search --without dairy --cuisine italian" "$LARDER" search --db "$DB" --without dairy --cuisine italian
timeit "larder cook --as-of 2026-11-05" "$LARDER" cook --db "$DB" --as-of 2026-11-05
timeit "larder cook --as-of 2026-11-05 --json --limit 100" "$LARDER" cook --db "$DB" --as-of 2026-11-05 --json --limit 100
