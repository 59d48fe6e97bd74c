# Larder's two commands (see README): `make demo` and `make test`. Both install the system packages first.
# `make install PREFIX=…` installs the release build (docs/install.md).
# For development: `make unit` (the fast tier), `make format-check` and `make cli-reference` (see CONTRIBUTING.md).
SWIFT ?= swift
LARDER := .build/release/larder
PREFIX ?= /usr/local
CONFIGURATION ?= release
BIN := .build/$(CONFIGURATION)
DEMO_DB := .build/demo/larder.sqlite

.PHONY: setup build demo test unit format-check cli-reference install uninstall bench bench-receipts measure measure-speed figures clean

setup:
	bash scripts/setup.sh

build: setup
	$(SWIFT) build -c release --product larder && $(SWIFT) build -c release --product larder-worker

# Ingest the sample recipes and receipts into a fresh database, show the status, the review queue and the
# pantry, export the results to .build/demo/out, and end with what the demo pantry can cook (freshness counted
# from 2026-11-05, three days after the newest demo receipt; drop --as-of to count from today).
demo: build
	rm -rf .build/demo && mkdir -p .build/demo
	$(LARDER) ingest --db $(DEMO_DB) samples/recipes samples/receipts
	$(LARDER) status --db $(DEMO_DB)
	$(LARDER) review --db $(DEMO_DB)
	$(LARDER) pantry --db $(DEMO_DB)
	$(LARDER) export --db $(DEMO_DB) --out .build/demo/out
	$(LARDER) cook --db $(DEMO_DB) --as-of 2026-11-05 --limit 3

# The whole test suite (unit and integration tests with real poppler, tesseract and SQLite, the crash/resume
# test, and the LLM stage against a real local model). The local model server is installed while Swift builds
# (the first time it compiles llama.cpp: 7-20 minutes; later runs reuse it) and stopped at the end.
# OMP_THREAD_LIMIT=1: tesseract's OpenMP threads slow OCR down on 2 cores (libgomp reads it before main).
test: setup
	mkdir -p .build
	bash scripts/llm-server.sh install > .build/llm-install.log 2>&1 & install=$$!; \
	$(SWIFT) build --build-tests; built=$$?; \
	wait $$install || { tail -40 .build/llm-install.log; echo "make test: scripts/llm-server.sh install failed (log above)"; exit 1; }; \
	[ $$built -eq 0 ] || exit $$built; \
	OMP_THREAD_LIMIT=1 $(SWIFT) test --skip-build; status=$$?; \
	bash scripts/llm-server.sh stop; exit $$status

# The fast tier, for development: the unit tests only. LARDER_TEST_TIER=unit skips (reported as skipped, with the
# reason) every test marked .integration (a larder/larder-worker process, a server, OCR), .sharedData(…) or .slow;
# what is left runs in seconds once built. Installs nothing; starts with the style check.
unit: format-check
	$(SWIFT) build --build-tests
	LARDER_TEST_TIER=unit $(SWIFT) test --skip-build

# swift-format lint with .swift-format (lint only: changes no file); see scripts/format-check.sh for its scope.
format-check:
	bash scripts/format-check.sh

# docs/reference/cli.md from the built `larder`'s command tree (DocumentationTests fails when it is stale).
cli-reference:
	$(SWIFT) build --product larder
	python3 scripts/dev/cli-reference.py --larder "$$($(SWIFT) build --show-bin-path)/larder"

# Both executables and their resource bundles (the tagger's weights, the food lexicon) into PREFIX/bin: `larder`
# starts the `larder-worker` beside it, and each finds its bundles beside itself. Builds nothing (so `sudo make
# install` needs no Swift on root's PATH): run `swift build -c release` first (or CONFIGURATION=debug).
install:
	@[ -x "$(BIN)/larder" ] && [ -x "$(BIN)/larder-worker" ] || \
		{ echo "make install: $(BIN)/larder or larder-worker is missing: run swift build -c $(CONFIGURATION) first" >&2; exit 1; }
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 755 "$(BIN)/larder" "$(BIN)/larder-worker" "$(DESTDIR)$(PREFIX)/bin/"
	for bundle in "$(BIN)"/*.resources; do \
		rm -rf "$(DESTDIR)$(PREFIX)/bin/$$(basename "$$bundle")" && \
		cp -R "$$bundle" "$(DESTDIR)$(PREFIX)/bin/" && \
		chmod -R a+rX "$(DESTDIR)$(PREFIX)/bin/$$(basename "$$bundle")" || exit 1; \
	done
	"$(DESTDIR)$(PREFIX)/bin/larder-worker" --version

uninstall:
	rm -rf "$(DESTDIR)$(PREFIX)/bin/larder" "$(DESTDIR)$(PREFIX)/bin/larder-worker" "$(DESTDIR)$(PREFIX)/bin/"Larder_*.resources "$(DESTDIR)$(PREFIX)/bin/"GRDB_*.resources

# Speed and memory against pdftotext (not part of the tests: this machine is shared and noisy).
bench: build
	bash scripts/bench/bench-ingest.sh

# Receipts per minute against the tesseract CLI on the same images (samples/receipts + ../shared SROIE receipts), for
# ocr.profile accurate (goal >= 0.75x) and fast (>= 1.2x). On a shared machine: nice -n 10 make bench-receipts.
bench-receipts: build
	bash scripts/bench/bench-receipts.sh

# Every evaluation on the one path (each corpus read through the standard stages with eval/<corpus>.yml: the results
# `larder ingest --config eval/<corpus>.yml` + `larder export` give), release build, into benchmarks/baseline.json;
# then docs/accuracy.md, docs/performance.md and the README's figures table from it. 15-30 minutes (receipt OCR).
measure: build
	bash scripts/bench/measure.sh

# Only the speed against reference tools (recipe-scrapers on saved pages, pdftotext on 500 PDFs), into the same
# baseline (its other figures kept) and docs/performance.md.
measure-speed: build
	bash scripts/bench/measure-speed.sh

# The generated docs again from benchmarks/baseline.json alone (no measuring).
figures:
	python3 scripts/bench/figures.py --baseline benchmarks/baseline.json

clean:
	rm -rf .build
