#!/usr/bin/env bash
# The worst shapes of issue 36, each just under its documented limit, ingested alone: CPU seconds and peak RSS of
# `larder ingest` and the worker it waits for (RUSAGE_CHILDREN of a Python wrapper), under `prlimit --cpu=300`.
# Target: every input under 30 s of CPU and a worker under limits.worker_memory (1 GiB), failing at once where it is
# over a limit, never the OOM killer.
#
# Usage: scripts/bench/bench-hostile.sh [KIND ...]
#   kinds: text html mealmaster mealmasters mastercook mx2 cooklang csv csvcell paprika schemaorg mealie (15 MB
#   each, scripts/data/make-hostile-exports.py) and lying liar nested (ZIPs, scripts/data/make-hostile-zips.py);
#   default: all of them.
# Prints one line per input: kind, bytes, exit status, CPU s, peak RSS MB, and the document's state and reason.
# LARDER=path/to/larder picks the binary (default .build/release/larder, built when missing); KEEP=1 keeps the
# temp folder.
set -euo pipefail
BENCH=hostile
DEFAULT_LARDER=.build/release/larder
LARDER="${LARDER:-$DEFAULT_LARDER}"
source "$(dirname "$0")/bench-lib.sh"
need_tools python3 prlimit
ensure_larder
make_tmp
here="$(cd "$(dirname "$0")/../.." && pwd)"
kinds=("$@")
[ ${#kinds[@]} -eq 0 ] && kinds=(text html mealmaster mealmasters mastercook mx2 cooklang csv csvcell paprika schemaorg mealie lying liar nested)
declare -A names=([text]=stew.txt [html]=soup.html [mealmaster]=big.mmf [mealmasters]=many.mmf [mastercook]=big.mxp
  [mx2]=big.mx2 [cooklang]=big.cook [csv]=many.csv [csvcell]=cell.csv [paprika]=big.paprikarecipes
  [schemaorg]=many.json [mealie]=recipe.json [lying]=lying.zip [liar]=liar.zip [nested]=nested.zip)
printf '%-12s %10s %4s %8s %8s  %s\n' kind bytes exit cpu_s rss_mb "state: reason"
for kind in "${kinds[@]}"; do
  name="${names[$kind]:-}"
  [ -n "$name" ] || die "unknown kind $kind"
  dir="$TMP/$kind"
  mkdir -p "$dir/in"
  case "$kind" in
    lying|liar|nested) python3 "$here/scripts/data/make-hostile-zips.py" "$kind" "$dir/in/$name" ;;
    *) python3 "$here/scripts/data/make-hostile-exports.py" "$kind" "$dir/in/$name" ;;
  esac
  bytes=$(stat -c %s "$dir/in/$name")
  measured=$(python3 -c 'import resource, subprocess, sys
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(code, "%.1f" % (usage.ru_utime + usage.ru_stime), usage.ru_maxrss // 1024)' \
    prlimit --cpu=300 "$LARDER" ingest --db "$dir/db.sqlite" "$dir/in")
  read -r code cpu rss <<<"$measured"
  state=$(python3 - "$dir/db.sqlite" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("SELECT d.state, (SELECT error FROM stage_run s WHERE s.document_id = d.id AND s.error IS NOT NULL LIMIT 1) FROM document d").fetchall()
out = []
for state, error in rows:
    reason = json.loads(error)["message"][:90] if error else ""
    out.append(f"{state}: {reason}" if reason else state)
print("; ".join(out))
PY
)
  printf '%-12s %10s %4s %8s %8s  %s\n' "$kind" "$bytes" "$code" "$cpu" "$rss" "$state"
  rm -rf "$dir"
done
