#!/usr/bin/env bash
# Usage: [CONNECTIONS=50] scripts/bench/serve-load.sh [BIN_DIR] [SECONDS]
#   Load run of `larder serve` on loopback (BIN_DIR holds larder and larder-worker; default .build/release).
#   1. starts the server on a free 127.0.0.1 port over a fresh database, rate limit off;
#   2. 200 concurrent uploads (the samples, each several times): every one answered, each sample registered once,
#      the rest reported as duplicates, every document done;
#   3. wrk: GET /v1/documents/{id}/result for SECONDS (default 10), 2 threads, CONNECTIONS connections, latency;
#   (LARDER_WORKER=path/larder-worker runs another build's worker: the /result figures do not depend on it.)
#   4. the server's resident memory before and after the wrk run (it should stay flat).
#   Needs wrk and curl (scripts/setup.sh installs wrk). Stops the server at the end.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$root/.build/release}
seconds=${2:-10}
connections=${CONNECTIONS:-50}
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
"$bin/larder" serve --db "$work/larder.sqlite" --port 0 --rate-limit 0 >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 200); do grep -q "serving http" "$work/server.log" && break; sleep 0.1; done
port=$(sed -n 's/.*serving http:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$work/server.log" | head -1)
[ -n "$port" ] || { cat "$work/server.log"; exit 1; }
base="http://127.0.0.1:$port"
echo "server pid $server on $base"

# 200 concurrent uploads: the 14 samples, over and over.
samples=("$root"/samples/recipes/* "$root"/samples/receipts/*)
for i in $(seq 0 199); do echo "${samples[$((i % ${#samples[@]}))]}"; done >"$work/uploads.txt"
xargs -P 50 -I{} sh -c 'curl -s -o - -w " %{http_code}\n" --data-binary @"$1" -H "Content-Type: application/octet-stream" "$2/v1/documents?filename=$(basename "$1")"' _ {} "$base" \
  <"$work/uploads.txt" >"$work/answers.txt"
# (50 curls share one pipe, so two answers can share a line: count occurrences, not lines.)
answered=$(grep -o '"sha256"' "$work/answers.txt" | wc -l)
new=$(grep -o '"duplicate":false' "$work/answers.txt" | wc -l)
dups=$(grep -o '"duplicate":true' "$work/answers.txt" | wc -l)
echo "uploads: 200 sent, $answered answered, $new new, $dups duplicates (expected ${#samples[@]} new)"
echo "statuses: $(awk '{print $NF}' "$work/answers.txt" | sort | uniq -c | tr '\n' ' ')"
for _ in $(seq 1 600); do
  pending=$(curl -s "$base/metrics" | sed -n 's/^larder_queue_depth \([0-9]*\)/\1/p')
  [ "$pending" = "0" ] && break
  sleep 1
done
curl -s "$base/metrics" | grep '^larder_documents'

id=$(curl -s "$base/v1/documents?status=done&kind=recipe&limit=1" | sed -n 's/.*"id":\([0-9]*\).*/\1/p' | head -1)
rss() { awk '/VmRSS/ {print $2}' "/proc/$server/status"; }
before=$(rss)
wrk -t2 -c"$connections" -d"${seconds}s" --latency "$base/v1/documents/$id/result"
after=$(rss)
echo "server RSS: ${before} kB before, ${after} kB after the wrk run"
