#!/usr/bin/env bash
# Usage: scripts/bench/bench-queue.sh   (as root: it makes network namespaces; run by scripts/bench/measure.sh)
#
# The PostgreSQL queue's targets (issue 37), measured in one run on a throwaway PostgreSQL 15 cluster of its own
# (initdb as the `postgres` user, a free port, default durability settings: fsync and synchronous_commit on),
# stopped and removed on exit with the network namespaces it made. Writes one JSON object to BENCH_JSON (default
# stdout's last line); the log goes to stderr.
#
# What runs: `larder-worker bench-queue` (hidden; see docs/scale-out.md "Benchmarks"): synthetic documents whose
# stages do nothing or sleep, worked through the same store, claims, fencing, WorkQueue and NOTIFY wake-ups as
# `larder worker`'s larder-worker; and for the 500 PDFs the real `larder ingest` and `larder worker`.
#   ceiling   no-op stages, 2 processes x 2 threads on loopback: stage completions per second, from the stored
#             start and finish times (first start to last finish).
#   scaling   stages sleeping 100 ms; N = 1, 2, 4, 8, 16 worker processes (one document at a time each) spread over
#             4 network namespaces, each with a veth pair to the host, PostgreSQL listening on the host-side
#             addresses; throughput(N) / (N x throughput(1)) (target >= 0.85).
#   recovery  a worker SIGKILLed while its document's stage runs (lease ttl 5 s); seconds until the stage runs again
#             on another worker (target <= ttl + 15 s); 3 rounds, the slowest reported.
#   pickup    an idle worker (--poll 60: only the NOTIFY wakes it) and documents registered one at a time: stored
#             registration time to the first stage's start, p50/p95 (target p95 <= 50 ms).
#   bloat     500 documents x 2 stages run R = 10 times (a new stage version each time): table sizes and dead tuples
#             (pg_total_relation_size, pg_stat_user_tables) after the first and the last re-run.
#   pdfs      scripts/data/make-corpus.py 500 --seed 1: `larder ingest --workers 2` on SQLite against, on PostgreSQL,
#             `larder ingest --no-work` then two `larder worker --workers 1 --exit-when-idle` at once; best of RUNS
#             each, alternating (target PostgreSQL / SQLite <= 1.3). Each PostgreSQL run also logs where its time
#             went (postgres_split of the best run: registration, work, registration end to the first stage's
#             start, transactions committed) and its costliest statements (pg_stat_statements, reset per run).
# Environment: RUNS (default 2), BENCH_QUEUE_PARTS (default "ceiling scaling recovery pickup bloat pdfs"), KEEP=1.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
BENCH=bench-queue
DEFAULT_LARDER=.build/release/larder
LARDER="${LARDER:-$DEFAULT_LARDER}"
. "$ROOT/scripts/bench/bench-lib.sh"
PGBIN=${LARDER_PG_BIN:-/usr/lib/postgresql/15/bin}
RUNS=${RUNS:-2}
PARTS=${BENCH_QUEUE_PARTS:-ceiling scaling recovery pickup bloat pdfs}
need_tools "$PGBIN/initdb" "$PGBIN/pg_ctl" "$PGBIN/psql" python3 ip runuser
[ "$(id -u)" = 0 ] || die "run as root (initdb runs as the postgres user; the scaling part makes network namespaces)"
ensure_larder
WORKER="$(dirname "$LARDER")/larder-worker"
[ -x "$WORKER" ] || die "$WORKER is missing (swift build -c release --product larder-worker)"
log() { echo "bench-queue: $*" >&2; }

TMP="$(mktemp -d "${TMPDIR:-/tmp}/larder-bench-queue.XXXXXX")"
chmod 755 "$TMP"
NS=()
PIDS=()
cleanup() {
  local pid ns
  for pid in "${PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  [ -f "$TMP/pg/data/postmaster.pid" ] && runuser -u postgres -- "$PGBIN/pg_ctl" -D "$TMP/pg/data" -m immediate -w stop >/dev/null 2>&1 || true
  for ns in "${NS[@]}"; do ip netns del "$ns" 2>/dev/null || true; ip link del "${ns}h" 2>/dev/null || true; done
  if [ "${KEEP:-0}" = 1 ]; then log "kept $TMP"; else rm -rf "$TMP"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

LOAD_START=$(cut -d' ' -f1 /proc/loadavg)
log "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"

# --- network namespaces: 4 "hosts", each a veth pair to the host (10.X.i.2 inside, 10.X.i.1 on the host) ---------
NET=""
for x in $(seq 201 250); do
  ip -o addr | grep -q " 10\.$x\." || { NET=10.$x; break; }
done
[ -n "$NET" ] || die "no free 10.X.0.0/16 range for the namespaces"
HOSTS=()
if [[ " $PARTS " == *" scaling "* ]]; then
  for i in 0 1 2 3; do
    ns="lbq$$n$i"
    ip netns add "$ns"
    NS+=("$ns")
    ip link add "${ns}h" type veth peer name "${ns}g"
    ip link set "${ns}g" netns "$ns"
    ip addr add "$NET.$i.1/24" dev "${ns}h"
    ip link set "${ns}h" up
    ip -n "$ns" addr add "$NET.$i.2/24" dev "${ns}g"
    ip -n "$ns" link set "${ns}g" up
    ip -n "$ns" link set lo up
    HOSTS+=("$NET.$i.1")
  done
  log "namespaces ${NS[*]} on $NET.0-3.0/24"
fi

# --- the cluster --------------------------------------------------------------------------------------------------
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export PGPASSWORD="bench-$$-$RANDOM$RANDOM"
mkdir -p "$TMP/pg/data"
printf '%s' "$PGPASSWORD" > "$TMP/pg/pw"
chown -R postgres:postgres "$TMP/pg"
(cd /tmp && runuser -u postgres -- "$PGBIN/initdb" -D "$TMP/pg/data" -U larder --pwfile="$TMP/pg/pw" -A scram-sha-256 -E UTF8 >/dev/null)
echo "host all all $NET.0.0/16 scram-sha-256" >> "$TMP/pg/data/pg_hba.conf"
LISTEN=127.0.0.1
for h in "${HOSTS[@]}"; do LISTEN="$LISTEN,$h"; done
(cd /tmp && runuser -u postgres -- "$PGBIN/pg_ctl" -D "$TMP/pg/data" -l "$TMP/pg/log" -w -t 60 -o \
  "-p $PORT -k $TMP/pg -c listen_addresses=$LISTEN -c max_connections=200 -c shared_preload_libraries=pg_stat_statements" start >/dev/null)
psql_() { "$PGBIN/psql" -h 127.0.0.1 -p "$PORT" -U larder -d larder -v ON_ERROR_STOP=1 -qAt "$@"; }
"$PGBIN/psql" -h 127.0.0.1 -p "$PORT" -U larder -d postgres -qAt -c "CREATE DATABASE larder"
psql_ -c "CREATE EXTENSION pg_stat_statements"
url() { echo "postgres://larder@${2:-127.0.0.1}:$PORT/larder?sslmode=disable&schema=$1"; }
export LARDER_BENCH=1
log "PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') on port $PORT"

RESULT="$TMP/result.json"
echo '{}' > "$RESULT"
put() {  # put KEY JSON-VALUE: sets RESULT[KEY]
  python3 - "$RESULT" "$1" "$2" <<'EOF'
import json, sys
path, key, value = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
data = json.load(open(path))
data[key] = value
json.dump(data, open(path, "w"), indent=1, sort_keys=True)
EOF
}
# Stage completions and their window (first start to last finish, the stored times) in a schema, as JSON.
window() {
  psql_ -c "SELECT json_build_object('stages', COUNT(*), 'seconds', MAX(finished_at) - MIN(started_at),
    'per_second', COUNT(*) / NULLIF(MAX(finished_at) - MIN(started_at), 0))
    FROM $1.stage_run WHERE status = 'done'"
}
pending() { psql_ -c "SELECT COUNT(*) FROM $1.document WHERE state = 'pending'"; }
workers_seen() { psql_ -c "SELECT COUNT(*) FROM $1.worker"; }
wait_for() {  # wait_for SECONDS COMMAND...: until the command succeeds, polling every 50 ms
  local until=$(( $(date +%s) + $1 )); shift
  until "$@"; do
    [ "$(date +%s)" -lt "$until" ] || return 1
    sleep 0.05
  done
}
stop_workers() {  # SIGTERM the listed pids and wait for them
  local pid
  for pid in "$@"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "$@"; do wait "$pid" 2>/dev/null || true; done
}
# (background workers run "$WORKER" itself, so that $! is its pid, not a subshell's)
bq() { "$WORKER" bench-queue "$@"; }

# --- ceiling ----------------------------------------------------------------------------------------------------------
if [[ " $PARTS " == *" ceiling "* ]]; then
  DOCS=${CEILING_DOCUMENTS:-3000}
  STAGES=${CEILING_STAGES:-4}
  bq register --db "$(url bench_ceiling)" --stages "$STAGES" --documents "$DOCS" >&2
  log "ceiling: $DOCS documents x $STAGES no-op stages, 2 processes x 2 threads ($(date -u +%H:%M:%S))"
  pids=()
  for p in 1 2; do
    "$WORKER" bench-queue work --db "$(url bench_ceiling)" --stages "$STAGES" --workers 2 > "$TMP/ceiling-$p.out" 2>&1 &
    pids+=($!); PIDS+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || { cat "$TMP"/ceiling-*.out >&2; die "a ceiling worker failed"; }; done
  [ "$(pending bench_ceiling)" = 0 ] || die "ceiling: documents left pending"
  w=$(window bench_ceiling)
  log "ceiling: $w"
  put ceiling "$w"
  psql_ -c "SELECT round(total_exec_time::numeric, 1) AS ms, calls, round((total_exec_time / calls)::numeric, 3) AS ms_per_call,
    left(regexp_replace(query, '\s+', ' ', 'g'), 110) FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 12" > "$TMP/statements.txt"
  log "ceiling: the costliest statements (ms, calls, ms/call):"; sed 's/^/  /' "$TMP/statements.txt" >&2
fi

# --- scaling over namespaces -----------------------------------------------------------------------------------------
if [[ " $PARTS " == *" scaling "* ]]; then
  PER_WORKER=${SCALING_DOCUMENTS_PER_WORKER:-50}
  scaling='{}'
  one=""
  for n in 1 2 4 8 16; do
    schema=bench_scale_$n
    pids=()
    for i in $(seq 0 $((n - 1))); do
      k=$((i % 4))
      ip netns exec "${NS[$k]}" "$WORKER" bench-queue work --db "$(url $schema "${HOSTS[$k]}")" --sleep-ms 100 --workers 1 \
        --stay-idle --poll 2 --seconds 300 > "$TMP/scale-$n-$i.out" 2>&1 &
      pids+=($!); PIDS+=($!)
    done
    # Every worker up and listening (its row in `worker`) before the work is registered: the window then holds no
    # process start-up.
    wait_for 120 bash -c "[ \"\$(\"$PGBIN/psql\" -h 127.0.0.1 -p $PORT -U larder -d larder -qAt -c 'SELECT COUNT(*) FROM $schema.worker' 2>/dev/null)\" = $n ]" \
      || die "scaling: $n workers did not all start"
    sleep 0.5
    bq register --db "$(url $schema)" --documents $((n * PER_WORKER)) --per-transaction 100000 >&2
    wait_for 600 bash -c "[ \"\$(\"$PGBIN/psql\" -h 127.0.0.1 -p $PORT -U larder -d larder -qAt -c \"SELECT COUNT(*) FROM $schema.document WHERE state = 'pending'\")\" = 0 ]" \
      || die "scaling: N=$n did not finish"
    stop_workers "${pids[@]}"
    w=$(window $schema)
    rate=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["per_second"])' "$w")
    [ -n "$one" ] || one=$rate
    eff=$(python3 -c "print($rate / ($n * $one))")
    log "scaling: N=$n over $( [ $n -lt 4 ] && echo $n || echo 4 ) namespaces: $w, efficiency $eff ($(date -u +%H:%M:%S), load $(cut -d' ' -f1 /proc/loadavg))"
    scaling=$(python3 -c 'import json,sys; d = json.loads(sys.argv[1]); w = json.loads(sys.argv[2]); w["efficiency"] = float(sys.argv[4]); d["n" + sys.argv[3]] = w; print(json.dumps(d))' "$scaling" "$w" "$n" "$eff")
  done
  scaling=$(python3 -c 'import json,sys; d = json.loads(sys.argv[1]); d["min_efficiency"] = min(v["efficiency"] for k, v in d.items() if k != "n1"); print(json.dumps(d))' "$scaling")
  put scaling "$scaling"
fi

# --- recovery after a SIGKILL ------------------------------------------------------------------------------------------
if [[ " $PARTS " == *" recovery "* ]]; then
  TTL=5
  worst=0
  rounds='[]'
  for round in 1 2 3; do
    schema=bench_kill_$round
    LARDER_LEASE_TTL=$TTL "$WORKER" bench-queue work --db "$(url $schema)" --sleep-ms 60000 --stay-idle --poll 2 --seconds 120 > "$TMP/kill-a$round.out" 2>&1 &
    a=$!; PIDS+=($a)
    wait_for 60 bash -c "[ \"\$(\"$PGBIN/psql\" -h 127.0.0.1 -p $PORT -U larder -d larder -qAt -c 'SELECT COUNT(*) FROM $schema.worker' 2>/dev/null)\" = 1 ]" \
      || die "recovery: worker A did not start"
    bq register --db "$(url $schema)" --documents 1 >&2
    wait_for 30 bash -c "[ \"\$(\"$PGBIN/psql\" -h 127.0.0.1 -p $PORT -U larder -d larder -qAt -c \"SELECT COUNT(*) FROM $schema.stage_run WHERE status = 'running'\")\" = 1 ]" \
      || die "recovery: the stage did not start"
    # Another host, already running and idle (it polls every 2 s, as `larder worker` does by default).
    LARDER_LEASE_TTL=$TTL "$WORKER" bench-queue work --db "$(url $schema)" --sleep-ms 60000 --stay-idle --poll 2 --seconds 120 > "$TMP/kill-b$round.out" 2>&1 &
    b=$!; PIDS+=($b)
    wait_for 60 bash -c "[ \"\$(\"$PGBIN/psql\" -h 127.0.0.1 -p $PORT -U larder -d larder -qAt -c 'SELECT COUNT(*) FROM $schema.worker' 2>/dev/null)\" = 2 ]" \
      || die "recovery: worker B did not start"
    killed=$(now)
    kill -KILL "$a"; wait "$a" 2>/dev/null || true
    wait_for $((TTL + 60)) bash -c "[ \"\$(\"$PGBIN/psql\" -h 127.0.0.1 -p $PORT -U larder -d larder -qAt -c \"SELECT COUNT(*) FROM $schema.stage_run WHERE status = 'running' AND started_at > $killed\")\" = 1 ]" \
      || die "recovery: the document did not run again within ttl + 60 s"
    again=$(now)
    stop_workers "$b"
    seconds=$(sub "$again" "$killed")
    log "recovery round $round: running again ${seconds}s after the SIGKILL (ttl ${TTL}s)"
    rounds=$(python3 -c 'import json,sys; r = json.loads(sys.argv[1]); r.append(float(sys.argv[2])); print(json.dumps(r))' "$rounds" "$seconds")
  done
  put recovery "$(python3 -c 'import json,sys; r = json.loads(sys.argv[1]); t = float(sys.argv[2]); print(json.dumps({"ttl_seconds": t, "rounds": r, "worst_seconds": max(r), "worst_past_ttl_seconds": max(r) - t}))' "$rounds" "$TTL")"
fi

# --- NOTIFY pickup -------------------------------------------------------------------------------------------------------
if [[ " $PARTS " == *" pickup "* ]]; then
  COUNT=${PICKUP_DOCUMENTS:-60}
  "$WORKER" bench-queue work --db "$(url bench_pickup)" --stay-idle --poll 60 --seconds 300 > "$TMP/pickup.out" 2>&1 &
  p=$!; PIDS+=($p)
  wait_for 60 bash -c "[ \"\$(\"$PGBIN/psql\" -h 127.0.0.1 -p $PORT -U larder -d larder -qAt -c 'SELECT COUNT(*) FROM bench_pickup.worker' 2>/dev/null)\" = 1 ]" \
    || die "pickup: the worker did not start"
  sleep 1
  bq register --db "$(url bench_pickup)" --documents "$COUNT" --interval-ms 150 > "$TMP/pickup-register.out"
  wait_for 60 bash -c "[ \"\$(\"$PGBIN/psql\" -h 127.0.0.1 -p $PORT -U larder -d larder -qAt -c \"SELECT COUNT(*) FROM bench_pickup.document WHERE state = 'pending'\")\" = 0 ]" \
    || die "pickup: documents left pending (the poll is 60 s: a missed NOTIFY)"
  stop_workers "$p"
  # The first stage's start (markRunning's time) after the document's registration time (taken before its
  # registering transaction began, so the figure includes that transaction): both on this host's clock.
  p=$(psql_ -c "SELECT json_build_object('documents', COUNT(*),
      'p50_ms', percentile_cont(0.5) WITHIN GROUP (ORDER BY ms), 'p95_ms', percentile_cont(0.95) WITHIN GROUP (ORDER BY ms),
      'max_ms', MAX(ms)) FROM (SELECT 1000 * (s.started_at - d.registered_at) AS ms FROM bench_pickup.document d
      JOIN bench_pickup.stage_run s ON s.document_id = d.id AND s.stage = 'bench-1') t")
  log "pickup: $p"
  put pickup "$p"
fi

# --- bloat: the same documents re-run ----------------------------------------------------------------------------------
if [[ " $PARTS " == *" bloat "* ]]; then
  DOCS=${BLOAT_DOCUMENTS:-500}
  RERUNS=${BLOAT_RERUNS:-10}
  bq register --db "$(url bench_bloat)" --stages 2 --documents "$DOCS" >&2
  sizes() {
    psql_ -c "SELECT json_object_agg(relname, json_build_object('bytes', pg_total_relation_size(relid),
      'live', n_live_tup, 'dead', n_dead_tup, 'updates', n_tup_upd, 'hot_updates', n_tup_hot_upd,
      'autovacuums', autovacuum_count)) FROM pg_stat_user_tables
      WHERE schemaname = 'bench_bloat' AND relname IN ('document', 'stage_run', 'stage_event')"
  }
  first=""
  for v in $(seq 1 "$RERUNS"); do
    bq work --db "$(url bench_bloat)" --stages 2 --version "$v" --workers 2 > "$TMP/bloat-$v.out" 2>&1 || { cat "$TMP/bloat-$v.out" >&2; die "bloat: run $v failed"; }
    sleep 1  # the statistics collector's counters are flushed within about a second
    [ -n "$first" ] || first=$(sizes)
  done
  last=$(sizes)
  log "bloat after run 1: $first"
  log "bloat after run $RERUNS: $last"
  put bloat "$(python3 -c '
import json, sys
first, last, runs, docs = json.loads(sys.argv[1]), json.loads(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
out = {"documents": docs, "runs": runs, "after_first": first, "after_last": last}
for t in ("document", "stage_run"):
    out[t + "_growth"] = last[t]["bytes"] / first[t]["bytes"]
    out[t + "_dead_per_live"] = last[t]["dead"] / max(1, last[t]["live"])
    out[t + "_hot_fraction"] = last[t]["hot_updates"] / max(1, last[t]["updates"])
out["queue_tables_growth"] = (last["document"]["bytes"] + last["stage_run"]["bytes"]) / (first["document"]["bytes"] + first["stage_run"]["bytes"])
print(json.dumps(out))' "$first" "$last" "$RERUNS" "$DOCS")"
fi

# --- 500 PDFs: SQLite against PostgreSQL with 2 workers -------------------------------------------------------------------
if [[ " $PARTS " == *" pdfs "* ]]; then
  N=${PDFS:-500}
  python3 scripts/data/make-corpus.py "$N" "$TMP/corpus" --seed 1 >&2
  sqlite_best="" pg_best="" pg_split="{}"
  for run in $(seq 1 "$RUNS"); do
    rm -f "$TMP/s.sqlite"*
    t0=$(now)
    "$LARDER" ingest --db "$TMP/s.sqlite" --workers 2 "$TMP/corpus" > "$TMP/sqlite-$run.log" 2>&1 || { tail "$TMP/sqlite-$run.log" >&2; die "SQLite ingest failed"; }
    t=$(sub "$(now)" "$t0"); sqlite_best=$(min "$sqlite_best" "$t")
    log "pdfs run $run: SQLite ${t}s"
    schema=bench_pdfs_$run
    psql_ -c "SELECT pg_stat_statements_reset()" >/dev/null
    commits0=$(psql_ -c "SELECT xact_commit FROM pg_stat_database WHERE datname = 'larder'")
    t0=$(now)
    "$LARDER" ingest --db "$(url $schema)" --no-work "$TMP/corpus" > "$TMP/pg-$run.log" 2>&1 || { tail "$TMP/pg-$run.log" >&2; die "PostgreSQL ingest failed"; }
    t1=$(now)
    pids=()
    for w in 1 2; do
      "$LARDER" worker --db "$(url $schema)" --workers 1 --exit-when-idle > "$TMP/pg-$run-w$w.log" 2>&1 &
      pids+=($!); PIDS+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || { tail "$TMP"/pg-$run-w*.log >&2; die "larder worker failed"; }; done
    t2=$(now)
    t=$(sub "$t2" "$t0")
    left=$(psql_ -c "SELECT COUNT(*) FROM $schema.document WHERE state = 'pending'")
    [ "$left" = 0 ] || die "pdfs: $left documents left pending on PostgreSQL"
    sleep 1  # the statistics counters are flushed within about a second
    # Where the time went: registration (ingest --no-work) against work (the workers), the first stage's start
    # after registration (worker start-up and first claim), transactions committed (every process), statements.
    first=$(psql_ -c "SELECT MIN(started_at) FROM $schema.stage_run")
    commits=$(( $(psql_ -c "SELECT xact_commit FROM pg_stat_database WHERE datname = 'larder'") - commits0 ))
    split=$(python3 -c 'import json,sys; a = [float(x) for x in sys.argv[1:6]]; print(json.dumps({"seconds": a[3] - a[0], "registration_seconds": a[1] - a[0], "work_seconds": a[3] - a[1], "first_stage_start_seconds": a[2] - a[1], "commits": int(a[4])}))' "$t0" "$t1" "$first" "$t2" "$commits")
    log "pdfs run $run: PostgreSQL (ingest --no-work + 2 workers) ${t}s: $split"
    psql_ -c "SELECT round(total_exec_time::numeric, 1) AS ms, calls, round((total_exec_time / calls)::numeric, 3) AS ms_per_call,
      left(regexp_replace(query, '\s+', ' ', 'g'), 110) FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 15" > "$TMP/pdfs-statements-$run.txt"
    log "pdfs run $run: the costliest statements (ms, calls, ms/call):"; sed 's/^/  /' "$TMP/pdfs-statements-$run.txt" >&2
    if [ -z "$pg_best" ] || awk -v a="$t" -v b="$pg_best" 'BEGIN { exit !(a + 0 < b + 0) }'; then pg_split=$split; fi
    pg_best=$(min "$pg_best" "$t")
  done
  put pdfs "$(python3 -c 'import json,sys; s, p = float(sys.argv[1]), float(sys.argv[2]); print(json.dumps({"pdfs": int(sys.argv[3]), "sqlite_seconds": s, "postgres_seconds": p, "ratio": p / s, "postgres_split": json.loads(sys.argv[4])}))' "$sqlite_best" "$pg_best" "$N" "$pg_split")"
fi

put load "$(python3 -c 'import json,sys; print(json.dumps({"start": float(sys.argv[1]), "end": float(sys.argv[2]), "cores": int(sys.argv[3])}))' "$LOAD_START" "$(cut -d' ' -f1 /proc/loadavg)" "$(nproc)")"
if [ -n "${BENCH_JSON:-}" ]; then cp "$RESULT" "$BENCH_JSON"; fi
python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1])), sort_keys=True))' "$RESULT"
