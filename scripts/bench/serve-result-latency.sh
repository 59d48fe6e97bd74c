#!/usr/bin/env bash
# Usage: [CONNECTIONS=50] [RUNS=3] [SECONDS=10] scripts/bench/serve-result-latency.sh LARDER DATABASE [ID]
#   Latency of GET /v1/documents/{ID}/result under wrk on loopback, several runs against one server, for the
#   performance page: requests/s, p50 and p99 of each run, the spread, the server's resident memory before and
#   after, and the machine's load average (the machine is shared: say how loaded it was).
#   LARDER is the larder binary to measure (a release build: .build/release/larder); DATABASE a database with done
#   documents (make one with scripts/bench/serve-load.sh's uploads, or `larder ingest samples/recipes`): the
#   script serves a copy of it with --no-work and --rate-limit 0, so nothing changes the original. ID defaults to
#   the first done recipe. Needs wrk and curl (scripts/setup.sh installs wrk). Stops the server at the end.
#   JSON=1: the report goes to standard error and standard output gets one JSON object for figures.py (`make
#   measure`): connections, runs, the medians over the runs of requests/s, p50 and p99 (ms), the lowest rate and
#   highest p99 of all runs, and the load average before the first and after the last run.
set -euo pipefail
larder=${1:?usage: serve-result-latency.sh LARDER DATABASE [ID]}
database=${2:?usage: serve-result-latency.sh LARDER DATABASE [ID]}
connections=${CONNECTIONS:-50}
runs=${RUNS:-3}
seconds=${SECONDS_PER_RUN:-10}
work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; }; rm -rf "$work"' EXIT
sqlite3 "$database" ".backup '$work/larder.sqlite'" 2>/dev/null || cp "$database" "$work/larder.sqlite"
"$larder" serve --db "$work/larder.sqlite" --port 0 --rate-limit 0 --no-work >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 200); do grep -q "serving http" "$work/server.log" && break; sleep 0.1; done
port=$(sed -n 's/.*serving http:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$work/server.log" | head -1)
[ -n "$port" ] || { cat "$work/server.log"; exit 1; }
base="http://127.0.0.1:$port"
id=${3:-$(curl -s "$base/v1/documents?status=done&kind=recipe&limit=1" | sed -n 's/.*"id":\([0-9]*\).*/\1/p' | head -1)}
[ -n "$id" ] || { echo "no done recipe in $database" >&2; exit 1; }
status=$(curl -s -o /dev/null -w '%{http_code}' "$base/v1/documents/$id/result")
[ "$status" = 200 ] || { echo "GET /v1/documents/$id/result answered $status" >&2; exit 1; }
rss() { awk '/VmRSS/ {print $2}' "/proc/$server/status"; }
# wrk's latency (850.00us, 14.80ms, 1.02s) in milliseconds.
ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n += 0; else if (v ~ /s$/) n *= 1000; else if (v ~ /m$/) n *= 60000; printf "%.2f", n }'; }
[ "${JSON:-0}" = 1 ] && exec 3>&1 1>&2
curl -s -o /dev/null "$base/v1/documents/$id/result"  # warm
before=$(rss)
load_first=$(cut -d' ' -f1 /proc/loadavg)
: >"$work/runs.txt"
echo "larder $("$larder" --version 2>/dev/null | head -1); GET /v1/documents/$id/result; $connections connections, ${seconds} s x $runs runs"
for run in $(seq 1 "$runs"); do
  load=$(cut -d' ' -f1 /proc/loadavg)
  wrk -t2 -c"$connections" -d"${seconds}s" --latency "$base/v1/documents/$id/result" >"$work/wrk.txt"
  rate=$(awk '/Requests\/sec/ {print $2}' "$work/wrk.txt")
  p50=$(awk '$1 == "50%" {print $2}' "$work/wrk.txt")
  p99=$(awk '$1 == "99%" {print $2}' "$work/wrk.txt")
  errors=$(grep -E 'Non-2xx|Socket errors' "$work/wrk.txt" | tr '\n' ' ' || true)
  echo "run $run: $rate req/s  p50 $p50  p99 $p99  (load average before the run $load) $errors"
  echo "$rate $(ms "$p50") $(ms "$p99") ${errors:+errors}" >>"$work/runs.txt"
done
after=$(rss)
echo "server RSS: ${before} kB before, ${after} kB after"
if [ "${JSON:-0}" = 1 ]; then
  load_last=$(cut -d' ' -f1 /proc/loadavg)
  # The median of each figure over the runs (each sorted on its own), the slowest run's rate, the worst p99.
  awk -v c="$connections" -v l1="$load_first" -v l2="$load_last" -v b="$before" -v a="$after" '
    function median(v, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t } return v[int((n + 1) / 2)] }
    { rate[NR] = $1; p50[NR] = $2; p99[NR] = $3; if ($4 != "") err = 1
      if (NR == 1 || $3 > worst) worst = $3; if (NR == 1 || $1 < slowest) slowest = $1 }
    END {
      printf "{\"connections\": %d, \"runs\": %d, \"requests_per_second\": %s, \"p50_ms\": %s, \"p99_ms\": %s, ", c, NR, median(rate, NR), median(p50, NR), median(p99, NR)
      printf "\"lowest_requests_per_second\": %s, \"highest_p99_ms\": %s, \"errors\": %s, ", slowest, worst, err ? "true" : "false"
      printf "\"load_average_before\": %s, \"load_average_after\": %s, \"rss_kb_before\": %s, \"rss_kb_after\": %s}\n", l1, l2, b, a }' "$work/runs.txt" >&3
fi
