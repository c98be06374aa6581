"""The web tool's ``visit`` fetches what the model writes: never loopback, private, link-local (cloud
metadata) or reserved addresses, also not after a redirect, unless the user names the host. A real
HTTP server on 127.0.0.1 stands for an internal service."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from cts_dataset.search.web_tool import WebSearchTool

INTERNAL = "<html><head><title>metadata</title></head><body><p>AccessKeyId ASIA-INTERNAL-SECRET</p></body></html>"


@pytest.fixture
def internal() -> Iterator[tuple[str, list[str]]]:
    """An internal service on 127.0.0.1: ``/redirect`` sends to ``/secret`` by its IP; yields (port, paths)."""
    seen: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            seen.append(self.path)
            if self.path == "/redirect":
                self.send_response(302)
                self.send_header("Location", f"http://127.0.0.1:{self.server.server_address[1]}/secret")
                self.end_headers()
                return
            data = INTERNAL.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield str(server.server_address[1]), seen
    finally:
        server.shutdown()
        server.server_close()


def test_a_visit_to_an_internal_address_is_refused_without_a_request(internal):
    port, seen = internal
    tool = WebSearchTool("searxng", "https://search.example.org", retries=0)
    for url in (f"http://127.0.0.1:{port}/latest/meta-data/", f"http://localhost:{port}/secret"):
        page = tool.visit(url, "credentials")
        assert not page.found and "SECRET" not in page.text, url
    assert seen == [], "the internal service must not even be asked"


def test_a_host_the_user_names_is_visited_but_a_redirect_elsewhere_inside_is_not(internal):
    port, seen = internal
    named = WebSearchTool("searxng", "https://search.example.org", retries=0, allow_hosts=["LocalHost"])
    page = named.visit(f"http://localhost:{port}/secret", "x")
    assert page.found and "ASIA-INTERNAL-SECRET" in page.text
    refused = named.visit(f"http://localhost:{port}/redirect", "x")  # to 127.0.0.1, which is not named
    assert not refused.found and seen == ["/secret", "/redirect"]
    assert named.describe()["allow_hosts"] == ["localhost"]
    assert "allow_hosts" not in WebSearchTool("searxng", "https://search.example.org").describe()


def test_the_search_endpoints_own_pages_may_be_visited(internal):
    port, seen = internal
    local = WebSearchTool("searxng", f"http://127.0.0.1:{port}", retries=0)  # a SearXNG on this machine
    assert local.visit(f"http://127.0.0.1:{port}/secret").found and seen == ["/secret"]
    assert not local.visit(f"http://127.0.0.1:{int(port) + 1 if int(port) < 65535 else 1}/x").found


@pytest.mark.parametrize("url", [
    "http://169.254.169.254/latest/meta-data/iam/", "http://[fd00:ec2::254]/latest/", "http://10.1.2.3/",
    "http://192.168.0.1/admin", "http://172.16.5.4/", "http://100.100.100.200/latest/meta-data/",
    "http://[::1]/", "http://[fe80::1]/", "http://[::ffff:127.0.0.1]/", "http://0.0.0.0:8080/", "http://224.0.0.1/",
])
def test_every_non_public_address_is_refused(url):
    tool = WebSearchTool("serper", "https://google.serper.dev/search", retries=0)
    assert tool.refused(url) is not None


def test_a_public_address_is_not_refused():
    tool = WebSearchTool("serper", "https://google.serper.dev/search", retries=0)
    assert tool.refused("http://93.184.215.14/page") is None and tool.refused("https://[2606:4700::1111]/") is None
