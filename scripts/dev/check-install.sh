#!/usr/bin/env bash
# Usage: scripts/dev/check-install.sh [release|debug]   (default release; CI passes debug to reuse its build)
#
# Checks `make install`: installs into a temporary prefix, hides the build folder's resource bundles so that only
# the installed ones can be found, then runs the installed `larder-worker --version`, a `larder ingest` of samples/
# and a `larder check` of samples/ against the golden results — with the installed `larder` starting the installed
# `larder-worker` (LARDER_WORKER unset). Restores the bundles and removes the prefix on exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
configuration=${1:-release}
SWIFT=${SWIFT:-swift}

$SWIFT build -c "$configuration" --product larder
$SWIFT build -c "$configuration" --product larder-worker
work=$(mktemp -d "${TMPDIR:-/tmp}/larder-install-check.XXXXXX")
bin=".build/$configuration"
hidden=()
restore() {
    for bundle in "${hidden[@]}"; do mv "$bundle.hidden-by-check-install" "$bundle"; done
    rm -rf "$work"
}
trap restore EXIT

make install PREFIX="$work/prefix" CONFIGURATION="$configuration"
for bundle in "$bin"/*.resources; do
    mv "$bundle" "$bundle.hidden-by-check-install"
    hidden+=("$bundle")
done

installed="$work/prefix/bin"
unset LARDER_WORKER
"$installed/larder-worker" --version
"$installed/larder" --version | grep -q "larder $(sed -n 's/.*version = "\(.*\)".*/\1/p' Sources/LarderCore/LarderInfo.swift)"
(cd "$work" && "$installed/larder" ingest --db "$work/larder.sqlite" "$OLDPWD/samples/recipes" "$OLDPWD/samples/receipts")
"$installed/larder" export --db "$work/larder.sqlite" --out "$work/out" > /dev/null
exported=$(find "$work/out" -name '*.json' | wc -l)
[ "$exported" -gt 0 ] || { echo "check-install: the installed larder exported nothing" >&2; exit 1; }
"$installed/larder" check --golden samples/expected/golden samples/recipes samples/receipts
echo "check-install: the installed larder and larder-worker work from $installed ($exported results exported)"
