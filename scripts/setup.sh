#!/usr/bin/env bash
# Installs every system package Larder needs on Debian 12 (root, or sudo when available).
# Safe to run again: apt skips what is already installed.
set -euo pipefail

PACKAGES=(
  pkg-config
  libpoppler-glib-dev poppler-utils          # PDF text extraction (+ pdftotext for the benchmark)
  libtesseract-dev libleptonica-dev          # receipt OCR
  tesseract-ocr-eng tesseract-ocr-osd        # OCR language data and orientation detection
  tesseract-ocr-deu                          # German model for `larder eval receipts --languages eng+deu`
  libcurl4-openssl-dev                       # HTTP to LLM providers
  libxml2-dev                                # saved web pages (HTML parser)
  libzip-dev zlib1g-dev                      # recipe-app exports: ZIP archives and gzip members
  libsqlite3-dev sqlite3                     # checkpoint store (GRDB links the system SQLite)
  python3-cairo                              # writes the PDF fixtures in samples/ and tests
  time                                       # /usr/bin/time -v for the memory benchmark
  tesseract-ocr                              # tesseract CLI: checks the receipt samples are readable
  python3-pil                                # receipt samples (make-samples.py), the scanned-PDF fixture (make-fixtures.py)
  qpdf                                       # encrypts Tests/Fixtures/encrypted.pdf (scripts/data/make-fixtures.py)
  g++ make python3-venv                      # scripts/llm-server.sh builds llama-server (the LLM integration test)
  chromium chromium-driver                   # the review page's browser test (selenium in a throwaway venv)
  wrk                                        # scripts/bench/serve-load.sh: `larder serve` under load on loopback
  postgresql                                 # the PostgreSQL store's tests: each starts a throwaway cluster (initdb, pg_ctl)
  iproute2                                   # PostgreSQL network-fault tests: namespaces and veth pairs (ip netns)
)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all system packages present"
  exit 0
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
