#!/usr/bin/env bash
# `make format-check`: swift-format (in the Swift 6.3 toolchain) with the repository's .swift-format. Lint only: it
# changes no file.
#  1. The lint rules enabled in .swift-format, over every Swift file in Sources/ and Tests/ (the tree passes them).
#  2. Layout too (indentation, line length, blank lines…) over the files listed in FORMATTED below: the tree was not
#     written with swift-format and is edited by several people at once, so it is not reformatted in one go. Format a
#     file with `swift format -i FILE` when you own it, then add it to the list.
set -euo pipefail
cd "$(dirname "$0")/.."
FORMATTED=(Tests/LarderTestSupport Tests/LarderCoreTests/GeneratedFilesTests.swift Tests/LarderCoreTests/StageLoggingTests.swift
    Sources/LarderReceipts/Contracts Sources/LarderCore/Pipeline/LLMPromptFiles.swift Sources/LarderRecipes/RecipeNumbers.swift
    Tests/LarderReceiptsTests/ReceiptContractTests.swift Tests/LarderCoreTests/PDFEvaluationScoringTests.swift
    Tests/LarderCoreTests/ContractSchemaTests.swift)
LAYOUT='\[(Indentation|LineLength|AddLines|RemoveLine|Spacing|TrailingComma|EndOfLineComment|TrailingWhitespace)\]'

status=0
rules=$(swift format lint --parallel -r Sources Tests 2>&1 | grep -E 'warning|error' | grep -vE "$LAYOUT" || true)
if [ -n "$rules" ]; then
    echo "$rules"
    echo "format-check: the lint rules in .swift-format fail (above)" >&2
    status=1
fi
if ! swift format lint --strict --parallel -r "${FORMATTED[@]}"; then
    echo "format-check: a formatted file drifted; run swift format -i on it" >&2
    status=1
fi
[ $status -eq 0 ] && echo "format-check: ok"
exit $status
