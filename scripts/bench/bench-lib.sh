# Usage:  . scripts/bench/bench-lib.sh   (sourced by scripts/bench/*.sh and scripts/dev/*.sh, not run). The caller sets
# BENCH (its name, for messages) and, before `ensure_larder`, LARDER and DEFAULT_LARDER; `make_tmp` sets TMP.

die() { echo "$BENCH: error: $*" >&2; exit 1; }

need_tools() {  # tool...
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found (run scripts/setup.sh)"
  done
}

# The larder binary: built (release, with larder-worker beside it) when the default is missing; LARDER becomes absolute.
ensure_larder() {
  if [ ! -x "$LARDER" ]; then
    if [ "$LARDER" = "$DEFAULT_LARDER" ]; then
      command -v swift >/dev/null 2>&1 || die "$LARDER is missing and 'swift' is not on PATH to build it.
Build it (make build) or set LARDER=/path/to/larder."
      echo "$BENCH: $LARDER missing; building larder and larder-worker (release)"
      { swift build -c release --product larder && swift build -c release --product larder-worker; } \
        || die "swift build -c release failed"
      [ -x "$LARDER" ] || die "build finished but $LARDER still does not exist"
    else
      die "LARDER=$LARDER does not exist or is not executable"
    fi
  fi
  LARDER="$(cd "$(dirname "$LARDER")" && pwd)/$(basename "$LARDER")"
}

# A temp dir, removed at exit unless KEEP=1.
make_tmp() {
  TMP="$(mktemp -d "${TMPDIR:-/tmp}/larder-$BENCH.XXXXXX")"
  if [ "${KEEP:-0}" = "1" ]; then
    echo "$BENCH: keeping $TMP"
  else
    trap 'rm -rf "$TMP"' EXIT
  fi
}

now() { date +%s.%N; }
sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'; }
min() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b + 0 < a + 0) print b; else print a }'; }
