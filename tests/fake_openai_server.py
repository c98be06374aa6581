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
    ``rules`` maps a text to the action every request whose last message contains it gets (a request
    that always fails). Models in ``json_object_only`` answer a ``json_schema`` response format with 400,
    as providers with only JSON mode do. ``GET /v1/models`` lists ``roots`` (served name -> weights path,
    as vLLM does); with no roots it is 404. A hang lasts at most ``hang_s`` (then the handler gives up),
    so the server always stops."""

    def __init__(self, script: list[str] | None = None, hang_s: float = 5.0, delay_s: float = 0.0,
                 rules: dict[str, str] | None = None, json_object_only: tuple[str, ...] = (),
                 roots: dict[str, str] | None = None, max_model_len: int = 4096) -> None:
        self.script, self.hang_s, self.delay_s = list(script or []), hang_s, delay_s
        self.rules, self.json_object_only = dict(rules or {}), set(json_object_only)
        self.roots, self.max_model_len = dict(roots or {}), max_model_len
        self.model_queries = 0
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

    def _next_action(self, body: dict[str, Any]) -> str:
        last = str(body["messages"][-1]["content"])
        for text, action in self.rules.items():
            if text in last:
                return action
        if body["model"] in self.json_object_only and (body.get("response_format") or {}).get("type") == "json_schema":
            return "400-json-schema"
        with self._lock:
            return self.script.pop(0) if self.script else "ok"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # keep test output clean
                pass

            def do_GET(self) -> None:
                with server._lock:
                    server.model_queries += 1
                if self.path.rstrip("/") != "/v1/models" or not server.roots:
                    self._send(404, {"error": {"message": "not found", "type": "test"}})
                    return
                self._send(200, {"object": "list", "data": [
                    {"id": name, "object": "model", "owned_by": "vllm", "root": root,
                     "max_model_len": server.max_model_len} for name, root in server.roots.items()]})

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with server._lock:
                    server.bodies.append(body)
                    server.headers.append({k.lower(): v for k, v in self.headers.items()})
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                try:
                    self._answer(body, server._next_action(body))
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
                if action == "400-json-schema":
                    self._send(400, {"error": {"message": "response_format type json_schema is not supported",
                                               "type": "invalid_request_error"}})
                    return
                if action in ("429", "500", "400"):
                    payload = {"error": {"message": f"scripted {action}", "type": "test"}}
                    self._send(int(action), payload, {"Retry-After": "0"} if action == "429" else {})
                    return
                time.sleep(server.delay_s)
                question = body["messages"][-1]["content"]
                text = f"<think>thinking about {question}</think>echo: {question}"
                if body.get("response_format"):
                    text = json.dumps({"echo": question})
                self._send(200, {
                    "id": "x", "object": "chat.completion", "created": 0, "model": body["model"],
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": text}}],
                    "usage": {"prompt_tokens": 3, "completion_tokens": 5, "total_tokens": 8}})

            def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for key, value in (headers or {}).items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client cancelled the request (a batch stopped by a rejected key)

        return Handler
