"""The web search tool against a real HTTP server on 127.0.0.1 that speaks the Serper and SearXNG APIs."""

from __future__ import annotations

import json
import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar
from urllib.parse import parse_qs, urlparse

import pytest

from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.search import load_searcher
from cts_dataset.search.records import Termination
from cts_dataset.search.web_tool import (
    SearchConfigError,
    SearchToolError,
    TransientSearchError,
    WebSearchTool,
)

SECRET = "sk-test-7f3a9c1e5b"
KEY_ENV = "CTSBENCH_TEST_SEARCH_KEY"
PAGE = ("<html><head><title>Tangshan 1976</title><script>var x = 'hidden';</script></head>"
        "<body><h1>Tangshan</h1><p>The earthquake killed 242,469 people.</p><style>p {}</style></body></html>")


class Handler(BaseHTTPRequestHandler):
    timeout = 10
    seen: ClassVar[list[dict]] = []
    failures_left: ClassVar[dict[str, int]] = {"n": 0}

    def log_message(self, *args) -> None:  # keep the test output quiet
        pass

    def _send(self, code: int, body: str, kind: str = "application/json") -> None:
        data = body.encode()
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _results(self, query: str, n: int) -> list[tuple[str, str, str]]:
        return [(f"{query} result {i}", f"http://{self.headers['Host']}/page/{i}", f"Snippet {i} about {query}.")
                for i in range(1, n + 1)]

    def do_POST(self) -> None:  # Serper: POST JSON {"q", "num"} with X-API-KEY
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.seen.append({"path": self.path, "body": body, "key": self.headers.get("X-API-KEY")})
        if self.failures_left["n"] > 0:
            self.failures_left["n"] -= 1
            return self._send(503, "busy")
        if self.headers.get("X-API-KEY") != SECRET:
            return self._send(403, json.dumps({"message": f"Unauthorized key {self.headers.get('X-API-KEY')}"}))
        if body["q"].startswith("refused"):
            return self._send(400, json.dumps({"message": "Query not allowed"}))
        organic = [{"title": t, "link": link, "snippet": s, "position": i}
                   for i, (t, link, s) in enumerate(self._results(body["q"], body.get("num", 10)), 1)]
        self._send(200, json.dumps({"searchParameters": {"q": body["q"]}, "organic": organic}))

    def do_GET(self) -> None:  # SearXNG: GET /search?q=...&format=json ; pages under /page/
        url = urlparse(self.path)
        self.seen.append({"path": url.path, "query": parse_qs(url.query)})
        if url.path.startswith("/page/"):
            return self._send(200, PAGE, "text/html; charset=utf-8")
        params = parse_qs(url.query)
        if url.path != "/search" or params.get("format") != ["json"]:
            return self._send(404, "not found", "text/plain")
        results = [{"title": t, "url": link, "content": s, "engine": "x"} for t, link, s in self._results(params["q"][0], 12)]
        self._send(200, json.dumps({"query": params["q"][0], "results": results}))


@pytest.fixture
def server():
    Handler.seen, Handler.failures_left = [], {"n": 0}
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    deadline = threading.Timer(60, httpd.shutdown)  # stops by itself even if a test hangs
    deadline.daemon = True
    deadline.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    deadline.cancel()
    httpd.shutdown()
    httpd.server_close()
    thread.join(timeout=5)


@pytest.fixture
def key(monkeypatch):
    monkeypatch.setenv(KEY_ENV, SECRET)


def test_serper_search_sends_the_key_and_returns_hits(server, key):
    tool = WebSearchTool("serper", f"{server}/search", api_key_env=KEY_ENV)
    results = tool.search(["tangshan earthquake", "lisbon earthquake"], k=3)
    assert [[h.title for h in hits] for hits in results] == [
        [f"tangshan earthquake result {i}" for i in (1, 2, 3)], [f"lisbon earthquake result {i}" for i in (1, 2, 3)]]
    assert results[0][0].url == results[0][0].doc_id == f"{server}/page/1"
    assert sorted(s["body"]["q"] for s in Handler.seen) == ["lisbon earthquake", "tangshan earthquake"]
    assert all(s["key"] == SECRET and s["body"]["num"] == 3 for s in Handler.seen)


def test_searxng_search_uses_the_json_api(server):
    tool = WebSearchTool("searxng", server)
    [hits] = tool.search(["great wall"], k=10)
    assert len(hits) == 10 and hits[0].snippet == "Snippet 1 about great wall."
    assert Handler.seen[0]["query"] == {"q": ["great wall"], "format": ["json"]}


def test_visit_fetches_the_page_text(server):
    page = WebSearchTool("searxng", server).visit(f"{server}/page/1", "deaths")
    assert page.found and page.title == "Tangshan 1976"
    assert "242,469" in page.text and "hidden" not in page.text and "p {}" not in page.text


def test_the_key_is_never_logged_shown_or_written(server, key, caplog):
    caplog.set_level(logging.DEBUG)
    tool = WebSearchTool("serper", f"{server}/search", api_key_env=KEY_ENV, retries=0)
    assert SECRET not in repr(tool) and SECRET not in json.dumps(vars(tool), default=str)
    reply = ('<tool_call>{"name": "search", "arguments": {"query": ["tangshan"]}}</tool_call>',
             f'<tool_call>{{"name": "visit", "arguments": {{"url": "{server}/page/2", "goal": "deaths"}}}}</tool_call>',
             "<answer>242,469</answer>")
    [out] = load_searcher("react", model=ScriptedModel({"searcher": reply}), tool=tool).search(["Tangshan deaths?"])
    assert out.termination is Termination.answer and out.visited_doc_ids == [f"{server}/page/2"]
    assert "A Google search for 'tangshan' found 10 results" in out.trace[3].content
    assert SECRET not in out.model_dump_json() and SECRET not in caplog.text

    with pytest.MonkeyPatch.context() as patch:  # a wrong key: the server echoes it back, we redact it
        patch.setenv(KEY_ENV, "wrong-key-123")
        with pytest.raises(SearchToolError) as error:
            tool.search(["x"])
        assert "HTTP 403" in str(error.value) and "wrong-key-123" not in str(error.value)
        assert "wrong-key-123" not in caplog.text


def test_a_missing_key_names_the_variable_and_stops_the_agent(server, monkeypatch):
    monkeypatch.delenv(KEY_ENV, raising=False)
    tool = WebSearchTool("serper", f"{server}/search", api_key_env=KEY_ENV)
    with pytest.raises(SearchConfigError, match=KEY_ENV):
        tool.search(["x"])
    reply = '<tool_call>{"name": "search", "arguments": {"query": ["x"]}}</tool_call>'
    with pytest.raises(SearchConfigError, match=KEY_ENV):  # no query could succeed: not an error per run
        load_searcher("react", model=ScriptedModel(default=reply), tool=tool).search(["q"])
    assert Handler.seen == []


def test_a_refused_query_is_that_querys_error_and_every_run_goes_on(server, key):
    tool = WebSearchTool("serper", f"{server}/search", api_key_env=KEY_ENV, retries=0)
    refused, fine = tool.search_each(["refused one", "tangshan"], k=2)
    assert isinstance(refused, SearchToolError) and not isinstance(refused, TransientSearchError)
    assert "HTTP 400" in str(refused) and [h.title for h in fine] == ["tangshan result 1", "tangshan result 2"]
    with pytest.raises(SearchToolError, match="HTTP 400"):
        tool.search(["refused one"])

    def reply(request) -> str:
        if any(m.role == "assistant" for m in request.messages):
            return "<answer>done</answer>"
        queries = {"A": ["refused A", "fine A"], "B": ["B"]}[request.messages[1].content]
        return json.dumps({"name": "search", "arguments": {"query": queries}}).join(("<tool_call>", "</tool_call>"))

    a, b = load_searcher("react", model=ScriptedModel(default=reply), tool=tool).search(["A", "B"])
    assert "[search] failed for 'refused A': " in a.trace[3].content and "Try a different query." in a.trace[3].content
    assert "A Google search for 'fine A' found 10 results" in a.trace[3].content and a.retrieved_doc_ids
    assert "A Google search for 'B' found 10 results" in b.trace[3].content
    assert a.termination is b.termination is Termination.answer


def test_transient_failures_are_retried_then_reported(server, key):
    Handler.failures_left["n"] = 1
    tool = WebSearchTool("serper", f"{server}/search", api_key_env=KEY_ENV, retries=1)
    assert len(tool.search(["x"], k=2)[0]) == 2 and len(Handler.seen) == 2

    Handler.failures_left["n"], Handler.seen = 5, []
    with pytest.raises(TransientSearchError, match="HTTP 503"):
        WebSearchTool("serper", f"{server}/search", api_key_env=KEY_ENV, retries=1).search(["x"])
    assert len(Handler.seen) == 2


def test_the_agent_tells_the_model_when_the_provider_is_down(server, key):
    Handler.failures_left["n"] = 10
    tool = WebSearchTool("serper", f"{server}/search", api_key_env=KEY_ENV, retries=0)
    reply = ('<tool_call>{"name": "search", "arguments": {"query": ["x"]}}</tool_call>', "<answer>unknown</answer>")
    [out] = load_searcher("react", model=ScriptedModel({"searcher": reply}), tool=tool).search(["q"])
    assert "[search] failed for 'x'" in out.trace[3].content and "Try again later." in out.trace[3].content
    assert out.termination is Termination.answer


def test_config_checks(server):
    from cts_dataset.search import ToolConfig

    with pytest.raises(ValueError, match="needs a url"):
        ToolConfig(kind="serper")
    with pytest.raises(ValueError, match="unknown web search provider"):
        WebSearchTool("bing", server)  # type: ignore[arg-type]
