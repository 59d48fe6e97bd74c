#!/usr/bin/env bash
# Fuzzes Larder's text parsers (ingredient lines, recipe documents as text and Markdown, receipts as text and as
# OCR lines) with libFuzzer: builds scripts/fuzz/FuzzParsers.swift with `swiftc -sanitize=fuzzer` together with
# the parser modules (LarderIngredients, LarderRecipes, LarderReceipts), seeds the corpus from samples/, and runs
# a fixed number of inputs. A Swift trap or a hang (over 10 s on one input) stops it with the input saved.
#
# Usage: scripts/fuzz-parsers.sh [RUNS]      (default 1000000)
# OUT=folder keeps the build and the corpus there (default .build/fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-1000000}"
OUT="${OUT:-.build/fuzz}"
mkdir -p "$OUT/obj" "$OUT/corpus"
flags=(-sanitize=fuzzer -parse-as-library -O -wmo -module-cache-path "$OUT/module-cache")
build_module() {  # name sources...
  local name="$1"; shift
  swiftc "${flags[@]}" -c -module-name "$name" -I "$OUT/obj" -emit-module -emit-module-path "$OUT/obj/$name.swiftmodule" \
    "$@" -o "$OUT/obj/$name.o"
}
# LarderReceipts reads its lexicon through SwiftPM's Bundle.module; outside SwiftPM the fuzzer stands in for it
# (the parsers fuzzed here do not read the lexicon).
printf 'import Foundation\nextension Bundle { static let module = Bundle.main }\n' > "$OUT/BundleModule.swift"
build_module LarderIngredients Sources/LarderIngredients/*.swift
build_module LarderRecipes Sources/LarderRecipes/*.swift
build_module LarderReceipts Sources/LarderReceipts/*.swift "$OUT/BundleModule.swift"
swiftc "${flags[@]}" -module-name FuzzParsers -I "$OUT/obj" scripts/fuzz/FuzzParsers.swift \
  "$OUT/obj/LarderIngredients.o" "$OUT/obj/LarderRecipes.o" "$OUT/obj/LarderReceipts.o" -o "$OUT/fuzz-parsers"
# Seeds: each sample text and receipt label, once per parser (the first byte picks the parser).
i=0
for file in samples/recipes/*.txt samples/recipes/*.md samples/expected/receipts/*; do
  [ -f "$file" ] || continue
  for selector in 0 1 2 3 4; do
    { printf "\\x0$selector"; head -c 4000 "$file"; } > "$OUT/corpus/seed-$i-$selector"
  done
  i=$((i + 1))
done
echo "fuzz-parsers: $RUNS runs, corpus $OUT/corpus"
"$OUT/fuzz-parsers" -runs="$RUNS" -timeout=10 -max_len=4096 -print_final_stats=1 -artifact_prefix="$OUT/" \
  "$OUT/corpus"
