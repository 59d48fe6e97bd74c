#!/usr/bin/env bash
# Fuzzes Larder's parsers in-process with libFuzzer (no worker, no database): ingredient lines, recipe documents
# (text and Markdown), receipts (text and OCR lines), JSON (parse → serialise → parse), JSON Schema (a fuzzed
# schema compiled and applied), recipe-app exports (MealMaster, Cooklang, MasterCook, CSV, JSON apps, YAML),
# the pipeline.yml loader, the saved-page reader (libxml2's HTML parser, JSON-LD, microdata), and the archive
# reader (libzip and zlib behind LarderArchives: nested ZIPs, gzip members, the bomb checks; target `zip`).
#
# Builds scripts/dev/fuzz/FuzzParsers.swift with `swiftc -sanitize=fuzzer` together with the parser modules (Yams,
# libyaml and libxml2 are linked uninstrumented), seeds one corpus per target from samples/, then runs each target
# in turn for RUNS inputs or SECONDS seconds, whichever ends first. A Swift trap or a hang (over 10 s on one
# input) stops that target with the input saved as $OUT/<target>-crash-… (or timeout-…); the others still run.
# Prints one line per target (inputs, corpus, crash/hang) and a total.
#
# Usage: scripts/dev/fuzz-parsers.sh [RUNS] [SECONDS] [TARGET ...]   (defaults 2000000 180, every target)
# OUT=folder keeps the build and the corpora there (default .build/fuzz). Run it with `nice -n 10`.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS="${1:-2000000}"
SECONDS_PER_TARGET="${2:-180}"
shift $(( $# > 2 ? 2 : $# ))
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(json schema config ingredient formats receipt-text receipt-ocr recipe-text recipe-markdown html zip)
OUT="${OUT:-.build/fuzz}"
YAMS=.build/checkouts/Yams/Sources
[ -d "$YAMS" ] || { echo "fuzz-parsers: run 'swift package resolve' first (needs $YAMS)" >&2; exit 2; }
mkdir -p "$OUT/obj"
OUT="$(cd "$OUT" && pwd)"
# One package name for every module, as SwiftPM gives them: `package` declarations are visible across them.
flags=(-parse-as-library -O -wmo -package-name Larder -module-cache-path "$OUT/module-cache" -I "$OUT/obj")
build_module() {  # name [instrument] sources...
  local name="$1" instrument="$2"; shift 2
  # Up to date: the object is newer than every source given.
  if [ -f "$OUT/obj/$name.o" ] && [ -z "$(find "$@" -newer "$OUT/obj/$name.o" -name '*.swift' 2>/dev/null)" ]; then return 0; fi
  local extra=()
  [ "$instrument" = yes ] && extra=(-sanitize=fuzzer)
  swiftc "${flags[@]}" "${extra[@]}" -c -module-name "$name" -emit-module -emit-module-path "$OUT/obj/$name.swiftmodule" \
    "$@" -o "$OUT/obj/$name.o"
}
# Bundle.module (SwiftPM's resource accessor) stands in for the modules that read a resource.
# Written only when it changes: a new file would make those two modules rebuild on every run.
for module in LarderIngredients LarderReceipts; do
  bundle=$(printf 'import Foundation\nextension Bundle { static let module = Bundle(path: "%s")! }' \
    "$PWD/Sources/$module/Resources")
  [ "$(cat "$OUT/Bundle-$module.swift" 2>/dev/null)" = "$bundle" ] || printf '%s\n' "$bundle" > "$OUT/Bundle-$module.swift"
done
# libyaml (C) and Yams, uninstrumented: a crash inside them still stops the run, but they guide nothing.
for c in "$YAMS"/CYaml/src/*.c; do
  [ "$OUT/obj/cyaml-$(basename "$c" .c).o" -nt "$c" ] && continue
  clang -O2 -c -I "$YAMS/CYaml/include" -DYAML_VERSION_MAJOR=0 -DYAML_VERSION_MINOR=2 -DYAML_VERSION_PATCH=5 \
    -DYAML_VERSION_STRING='"0.2.5"' "$c" -o "$OUT/obj/cyaml-$(basename "$c" .c).o"
done
build_module Yams no -D SWIFT_PACKAGE -Xcc -fmodule-map-file="$YAMS/CYaml/include/module.modulemap" \
  -I "$YAMS/CYaml/include" "$YAMS"/Yams/*.swift
build_module LarderSupport yes Sources/LarderSupport/*.swift
build_module LarderJSON yes Sources/LarderJSON/*.swift
build_module LarderIngredients yes Sources/LarderIngredients/*.swift "$OUT/Bundle-LarderIngredients.swift"
build_module LarderRecipes yes Sources/LarderRecipes/*.swift Sources/LarderRecipes/Contracts/*.swift
build_module LarderReceipts yes Sources/LarderReceipts/*.swift Sources/LarderReceipts/Contracts/*.swift \
  Sources/LarderReceipts/LineModel/*.swift "$OUT/Bundle-LarderReceipts.swift"
build_module LarderFormats yes -Xcc -fmodule-map-file="$YAMS/CYaml/include/module.modulemap" Sources/LarderFormats/*.swift
build_module LarderPages yes -I Sources/CLibXML2 -Xcc -I/usr/include/libxml2 Sources/LarderPages/*.swift
build_module LarderArchives yes -I Sources/CZip -I Sources/CZlib Sources/LarderArchives/*.swift
# The pipeline.yml loader: LarderCore's Config folder, LarderError and the store location (parsed from the
# configuration), without the store itself, GRDB and the stages.
build_module LarderConfigFuzz yes -Xcc -fmodule-map-file="$YAMS/CYaml/include/module.modulemap" \
  Sources/LarderCore/Config/*.swift Sources/LarderCore/Model/LarderError.swift Sources/LarderCore/Support/FilePath.swift \
  Sources/LarderCore/Store/StoreLocation.swift
swiftc "${flags[@]}" -sanitize=fuzzer -module-name FuzzParsers -I Sources/CLibXML2 -Xcc -I/usr/include/libxml2 \
  -I Sources/CZip -I Sources/CZlib -Xcc -fmodule-map-file="$YAMS/CYaml/include/module.modulemap" \
  scripts/dev/fuzz/FuzzParsers.swift "$OUT"/obj/*.o -lxml2 -lzip -lz -o "$OUT/fuzz-parsers"

# Seeds, one corpus per target, from the samples and a few lines written here.
seed() {  # target file...
  local target="$1"; shift
  mkdir -p "$OUT/corpus/$target"
  local file
  for file in "$@"; do
    [ -f "$file" ] && head -c 4000 "$file" > "$OUT/corpus/$target/seed-$(basename "$file")"
  done
  return 0
}
seed ingredient samples/recipes/*.txt
printf '1 1/2 cups flour, sifted\n2-3 large eggs (beaten)\n½ tsp salt\n200 g / 7 oz butter\n' > "$OUT/corpus/ingredient/seed-lines"
seed recipe-text samples/recipes/*.txt
seed recipe-markdown samples/recipes/*.md
seed receipt-text samples/expected/receipts/*
seed receipt-ocr samples/expected/receipts/*
seed json schemas/*.json samples/recipes/*.json
seed schema schemas/*.json
seed config pipeline.yml
mkdir -p "$OUT/corpus/formats"
for file in samples/recipes/*; do
  case "$file" in
    *.mmf) p='\x00' ;; *.cook) p='\x01' ;; *.mxp) p='\x02' ;; *.csv) p='\x03' ;; *.json) p='\x04' ;;
    *.yaml|*.yml) p='\x05' ;; *.html) p='\x07' ;; *) continue ;;
  esac
  { printf "$p"; head -c 4000 "$file"; } > "$OUT/corpus/formats/seed-$(basename "$file")"
done
printf '\x00MMMMM----- Recipe via Meal-Master (tm) v8.05\n\n      Title: Pancakes\n Categories: Breakfast\n      Yield: 4 servings\n\n      1 c  Flour\n      2    Eggs\n\n  Mix and fry.\n\nMMMMM\n' \
  > "$OUT/corpus/formats/seed-mmf"
printf '\x01>> servings: 2\nCrack @eggs{2} into a #bowl{} and whisk for ~{2%%minutes}.\n\n== Sauce ==\nAdd @salt{1%%tsp}.\n' \
  > "$OUT/corpus/formats/seed-cook"
printf '\x03name,ingredients,directions,servings\nToast,"1 slice bread\n1 tsp butter",Toast it.,1\n' \
  > "$OUT/corpus/formats/seed-csv"
printf '\x05name: Tea\nrecipeIngredient: [1 tea bag, water]\nrecipeInstructions: [Steep.]\n' > "$OUT/corpus/formats/seed-yaml"
# Small ZIPs (stored, deflated, nested, a gzip member) and the shapes of scripts/data/make-hostile-zips.py cut short.
mkdir -p "$OUT/corpus/zip"
/usr/bin/python3 - "$OUT/corpus/zip" <<'PY'
import gzip, io, sys, zipfile
def make(name, entries, method=zipfile.ZIP_DEFLATED):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as z:
        for entry, data in entries:
            z.writestr(entry, data)
    open(f"{sys.argv[1]}/seed-{name}", "wb").write(out.getvalue())
    return out.getvalue()
cook = b"---\ntitle: Toast\n---\nToast the @bread{2%slices}.\n"
make("stored", [("toast.cook", cook), ("dir/", b"")], zipfile.ZIP_STORED)
inner = make("deflated", [("toast.cook", cook), ("notes.txt", b"1 cup flour\n" * 20)])
make("nested", [("inner.zip", inner), ("r.paprikarecipe", gzip.compress(b'{"name":"Tea"}'))])
PY
seed html samples/recipes/*.html
printf '<html><script type="application/ld+json">{"@type":"Recipe","name":"x","recipeIngredient":["1 egg"]}</script></html>' \
  > "$OUT/corpus/html/seed-ld"

echo "fuzz-parsers: up to $RUNS inputs or $SECONDS_PER_TARGET s per target, $(date -u '+%Y-%m-%d %H:%M UTC'), OUT=$OUT"
total=0
for target in "${TARGETS[@]}"; do
  mkdir -p "$OUT/corpus/$target"
  log="$OUT/$target.log"
  set +e
  FUZZ_TARGET="$target" "$OUT/fuzz-parsers" -runs="$RUNS" -max_total_time="$SECONDS_PER_TARGET" -timeout=10 \
    -max_len=4096 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$OUT/$target-" "$OUT/corpus/$target" \
    > "$log" 2>&1
  rc=$?
  set -e
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  units=$(ls "$OUT/corpus/$target" | wc -l)
  found=$(grep -m1 -oE 'ERROR: libFuzzer: [a-z-]+|Fatal error: .*|ALARM: .*' "$log" || true)
  printf 'fuzz-parsers: %-16s %10s inputs  corpus %5s  rc %d  %s\n' "$target" "${runs:-?}" "$units" "$rc" \
    "${found:-no crash, no hang}"
  total=$((total + ${runs:-0}))
done
echo "fuzz-parsers: $total inputs in all"
