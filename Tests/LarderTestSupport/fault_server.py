#!/usr/bin/env python3
"""Loopback fault server for LarderLLM's tests (stdlib only).

Listens on 127.0.0.1 (port 0 = a free port) and prints `PORT <n>` on its first stdout line. It exits when its
stdin closes (i.e. when the test process that started it ends), or on POST /_shutdown.

Tests script it per "scenario" (the first path segment, any unique name):
  POST /_script/<scenario>   body: JSON list of steps, served in order; the last step repeats.
      step: {"status": 200, "headers": {...}, "body": "<text>" | <json>, "delay": seconds,
             "echo_headers": true  (body = the request's headers as JSON, to test that keys never leak)}
  GET  /_log/<scenario>      the requests received: [{"path", "headers", "body"}]
  any other request to /<scenario>/... is answered by the scenario's next step (404 if none is scripted).
Request loops are bounded by the tests; the server never contacts anything itself.
"""
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
SCRIPTS = {}   # scenario -> list of steps
CURSORS = {}   # scenario -> next index
LOGS = {}      # scenario -> list of requests


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # keep test output quiet
        pass

    def _read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _send(self, status, body, headers=None):
        data = body if isinstance(body, bytes) else body.encode("utf-8")
        try:
            self.send_response(status)
            for k, v in (headers or {}).items():
                self.send_header(k, str(v))
            if not any(k.lower() == "content-type" for k in (headers or {})):
                self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout tests)

    def _handle(self):
        body = self._read_body()
        parts = [p for p in self.path.split("?")[0].split("/") if p]
        if parts[:1] == ["_script"] and len(parts) == 2:
            with LOCK:
                SCRIPTS[parts[1]] = json.loads(body)
                CURSORS[parts[1]] = 0
                LOGS[parts[1]] = []
            return self._send(200, '{"ok":true}')
        if parts[:1] == ["_log"] and len(parts) == 2:
            with LOCK:
                return self._send(200, json.dumps(LOGS.get(parts[1], [])))
        if parts[:1] == ["_shutdown"]:
            self._send(200, '{"ok":true}')
            threading.Thread(target=self.server.shutdown, daemon=True).start()
            return
        scenario = parts[0] if parts else ""
        with LOCK:
            steps = SCRIPTS.get(scenario)
            if not steps:
                step = {"status": 404, "body": {"error": {"message": "no script for scenario " + scenario}}}
            else:
                i = CURSORS[scenario]
                step = steps[min(i, len(steps) - 1)]
                CURSORS[scenario] = i + 1
            LOGS.setdefault(scenario, []).append({
                "path": self.path,
                "method": self.command,
                "headers": dict(self.headers.items()),
                "body": body.decode("utf-8", "replace"),
            })
        if step.get("delay"):
            time.sleep(float(step["delay"]))
        if step.get("echo_headers"):
            payload = json.dumps({"error": {"message": "echo", "headers": dict(self.headers.items())}})
        else:
            payload = step.get("body", "")
            if not isinstance(payload, str):
                payload = json.dumps(payload)
        self._send(int(step.get("status", 200)), payload, step.get("headers"))

    do_GET = _handle
    do_POST = _handle


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    print("PORT %d" % server.server_address[1], flush=True)

    def watch_stdin():
        try:
            while sys.stdin.buffer.read(1024):
                pass
        finally:
            server.shutdown()

    threading.Thread(target=watch_stdin, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
