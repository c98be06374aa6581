"""A tiny OpenAI-compatible server on 127.0.0.1 for tests: scripted failures, hangs, recorded requests."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self


class FakeOpenAIServer:
    """Answers ``POST /v1/chat/completions``. ``script`` lists what the first requests get
    (``429``, ``500``, ``400``, ``401``, ``hang``); every later request succeeds, echoing the last user message.
    A hang lasts at most ``hang_s`` (then the handler gives up), so the server always stops."""

    def __init__(self, script: list[str] | None = None, hang_s: float = 5.0, delay_s: float = 0.0) -> None:
        self.script, self.hang_s, self.delay_s = list(script or []), hang_s, delay_s
        self.bodies: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.in_flight = self.max_in_flight = 0
        self._lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def _next_action(self) -> str:
        with self._lock:
            return self.script.pop(0) if self.script else "ok"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with server._lock:
                    server.bodies.append(body)
                    server.headers.append({k.lower(): v for k, v in self.headers.items()})
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                try:
                    self._answer(body, server._next_action())
                finally:
                    with server._lock:
                        server.in_flight -= 1

            def _answer(self, body: dict[str, Any], action: str) -> None:
                if action == "hang":  # answer only after the hang: a client that waited would get "too late"
                    time.sleep(server.hang_s)
                    try:
                        self._send(200, {"id": "late", "object": "chat.completion", "model": body.get("model", ""),
                                         "choices": [{"index": 0, "finish_reason": "stop",
                                                      "message": {"role": "assistant", "content": "too late"}}],
                                         "usage": {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}})
                    except OSError:
                        pass  # the client timed out and closed the connection, as it should
                    return
                if action == "401":  # as hosted APIs do: part of the wrong key in the message
                    key = self.headers.get("Authorization", "")[-12:]
                    self._send(401, {"error": {"message": f"Incorrect API key provided: {key}", "type": "auth"}})
                    return
                if action in ("429", "500", "400"):
                    payload = {"error": {"message": f"scripted {action}", "type": "test"}}
                    self._send(int(action), payload, {"Retry-After": "0"} if action == "429" else {})
                    return
                time.sleep(server.delay_s)
                question = body["messages"][-1]["content"]
                text = f"<think>thinking about {question}</think>echo: {question}"
                self._send(200, {
                    "id": "x", "object": "chat.completion", "created": 0, "model": body["model"],
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": text}}],
                    "usage": {"prompt_tokens": 3, "completion_tokens": 5, "total_tokens": 8}})

            def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

        return Handler
