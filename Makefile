# Larder's two commands (see README): `make demo` and `make test`. Both install the system packages first.
SWIFT ?= swift
LARDER := .build/release/larder
DEMO_DB := .build/demo/larder.sqlite

.PHONY: setup build demo test bench clean

setup:
	bash scripts/setup.sh

build: setup
	$(SWIFT) build -c release --product larder && $(SWIFT) build -c release --product larder-worker

# Ingest samples/ into a fresh database, show the status and export the JSON to .build/demo/out.
demo: build
	rm -rf .build/demo && mkdir -p .build/demo
	$(LARDER) ingest --db $(DEMO_DB) samples
	$(LARDER) status --db $(DEMO_DB)
	$(LARDER) export --db $(DEMO_DB) --out .build/demo/out

# The whole test suite (unit and integration tests with real poppler, tesseract and SQLite, the crash/resume
# test). OMP_THREAD_LIMIT=1: tesseract's OpenMP threads slow OCR down on 2 cores (libgomp reads it before main).
test: setup
	$(SWIFT) build --build-tests
	OMP_THREAD_LIMIT=1 $(SWIFT) test --skip-build

# Speed and memory against pdftotext (not part of the tests: this machine is shared and noisy).
bench: build
	bash scripts/bench-ingest.sh

clean:
	rm -rf .build
