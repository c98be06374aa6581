"""The web search tool for users with internet: a SearXNG JSON API or a Serper-compatible API.

Configured by an endpoint URL and the *name* of an environment variable holding the API key. The key
is read from the environment at request time and is never stored on the object, logged, written to
an output, or shown in an error (any echo of it in a server message is redacted). HTTP is the
standard library's urllib: two small JSON calls need no extra dependency.

Failures are per query: a query the provider refuses (say HTTP 400) or keeps failing after the retries
becomes that query's error, which the agent reads as its tool result and can work around; only a
missing or refused key (:class:`SearchConfigError`) stops the run, since every query would meet it.

``visit`` fetches what the model writes, which a page can steer (prompt injection), so it refuses any
host that resolves to a loopback, private, link-local (cloud metadata, 169.254.169.254), shared or
reserved address, also after a redirect. Allowed are the search endpoint's own origin and the hosts a
user names in ``allow_hosts`` (e.g. an intranet mirror). A host re-resolved between the check and the
connection (DNS rebinding) is not caught.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import os
import socket
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from typing import Any, ClassVar, Literal
from urllib.error import HTTPError, URLError
from urllib.parse import urlencode, urlsplit
from urllib.request import HTTPRedirectHandler, Request, build_opener, urlopen

from cts_dataset.search.tool import (
    Page,
    SearchConfigError,
    SearchHit,
    SearchToolError,
    TransientSearchError,
    cut_words,
)

__all__ = ["RefusedAddress", "SearchConfigError", "SearchToolError", "TransientSearchError", "WebSearchTool",
           "html_to_text", "refused_address"]
log = logging.getLogger(__name__)
Provider = Literal["searxng", "serper"]
DEFAULT_KEY_ENV: dict[str, str] = {"searxng": "SEARXNG_API_KEY", "serper": "SERPER_API_KEY"}
MAX_PAGE_BYTES = 2_000_000
AUTH_CODES = (401, 403)  # the key (or the instance's JSON API) is refused: every query would fail
TRANSIENT_CODES = (429, 500, 502, 503, 504)


class _TextExtractor(HTMLParser):
    """Visible text of an HTML page (scripts, styles and markup dropped)."""

    _SKIP: ClassVar[frozenset[str]] = frozenset({"script", "style", "noscript", "template", "svg", "head"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title = ""
        self._skipping = 0
        self._in_title = False

    def handle_starttag(self, tag: str, attrs) -> None:
        self._in_title = tag == "title"
        self._skipping += tag in self._SKIP and tag != "head"

    def handle_endtag(self, tag: str) -> None:
        self._in_title = False
        if tag in self._SKIP and tag != "head" and self._skipping:
            self._skipping -= 1

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data.strip()
        elif not self._skipping and data.strip():
            self.parts.append(data.strip())


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:  # not a port: matches no origin
        return parts.scheme, "", -1
    return parts.scheme, (parts.hostname or "").lower(), port or {"http": 80, "https": 443}.get(parts.scheme)


def refused_address(url: str, allow_hosts: Sequence[str] = ()) -> str | None:
    """Why ``visit`` must not fetch ``url`` (None when it may): a host that is not named in ``allow_hosts``
    and resolves to any address that is not globally routable."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return f"{url}: only http and https pages are visited"
    host = (parts.hostname or "").lower()
    if not host:
        return f"{url}: no host"
    if host in {h.lower() for h in allow_hosts}:
        return None
    try:
        infos = socket.getaddrinfo(host, parts.port or 80, proto=socket.IPPROTO_TCP)
    except ValueError:
        return f"{url}: not a valid port"
    except (OSError, UnicodeError):
        return None  # unresolvable: the fetch fails on its own, reaching nothing
    for *_, address in infos:
        found = ipaddress.ip_address(str(address[0]).split("%")[0])
        ip = getattr(found, "ipv4_mapped", None) or found  # ::ffff:127.0.0.1 is 127.0.0.1
        if not ip.is_global or ip.is_multicast:
            return (f"{url}: {host} resolves to {ip}, a loopback, private, link-local or reserved address "
                    "(name the host in the web tool's allow_hosts to visit it)")
    return None


class RefusedAddress(SearchToolError):
    """A visit (or a redirect of one) to an address the web tool does not fetch."""


class _CheckedRedirects(HTTPRedirectHandler):
    """Follows a redirect only to a URL the visit could have asked for itself."""

    def __init__(self, allowed: Callable[[str], str | None]) -> None:
        self.allowed = allowed

    def redirect_request(self, req: Request, fp: Any, code: int, msg: str, headers: Any,
                         newurl: str) -> Request | None:
        problem = self.allowed(newurl)
        if problem:
            raise RefusedAddress(f"redirect from {req.full_url} refused: {problem}")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def html_to_text(html: str) -> tuple[str, str]:
    """(title, visible text) of an HTML document."""
    parser = _TextExtractor()
    parser.feed(html)
    return parser.title, "\n".join(parser.parts)


class WebSearchTool:
    """Search through SearXNG (``GET {url}/search?format=json``) or Serper (``POST {url}``)."""

    def __init__(self, provider: Provider, url: str, api_key_env: str | None = None, timeout_s: float = 20.0,
                 retries: int = 2, max_workers: int = 4, snippet_chars: int = 300,
                 allow_hosts: Sequence[str] = ()) -> None:
        if provider not in DEFAULT_KEY_ENV:
            raise ValueError(f"unknown web search provider {provider!r}; use one of {sorted(DEFAULT_KEY_ENV)}")
        self.provider = provider
        self.url = url.rstrip("/")
        self.api_key_env = api_key_env or DEFAULT_KEY_ENV[provider]
        self.timeout_s, self.retries, self.max_workers = timeout_s, retries, max_workers
        self.snippet_chars = snippet_chars
        self.name = f"{provider}:{self.url}"
        self.engine_label = "Google" if provider == "serper" else "web"
        self.allow_hosts = tuple(h.strip().lower() for h in allow_hosts if h.strip())

    def __repr__(self) -> str:
        return f"WebSearchTool({self.provider!r}, {self.url!r}, api_key_env={self.api_key_env!r})"

    def _key(self, required: bool) -> str:
        key = os.environ.get(self.api_key_env, "")
        if required and not key:
            raise SearchConfigError(f"{self.name}: set the API key in the environment variable {self.api_key_env}")
        return key

    def _redact(self, text: str) -> str:
        key = self._key(required=False)
        return text.replace(key, "***") if key else text

    def refused(self, url: str) -> str | None:
        """Why a visit to ``url`` is refused (None: it may be fetched); the endpoint's own origin may."""
        if _origin(url) == _origin(self.url):
            return None
        return refused_address(url, self.allow_hosts)

    def _open(self, request: Request, visit: bool = False) -> bytes:
        """The response body, retrying transient failures with a short backoff (a visit's redirects checked)."""
        for attempt in range(self.retries + 1):
            try:
                opener = build_opener(_CheckedRedirects(self.refused)).open if visit else urlopen
                with opener(request, timeout=self.timeout_s) as response:
                    return response.read(MAX_PAGE_BYTES)
            except HTTPError as error:
                body = error.read(500).decode("utf-8", "replace")
                message = self._redact(f"{self.name}: HTTP {error.code} for {request.full_url}: {body}")
                if error.code in AUTH_CODES:
                    raise SearchConfigError(message) from None
                if error.code not in TRANSIENT_CODES:
                    raise SearchToolError(message) from None
                failure: SearchToolError = TransientSearchError(message)
            except (URLError, TimeoutError, ConnectionError) as error:
                reason = getattr(error, "reason", error)
                failure = TransientSearchError(self._redact(f"{self.name}: {request.full_url}: {reason}"))
            log.warning("%s (attempt %d of %d)", failure, attempt + 1, self.retries + 1)
            if attempt < self.retries:
                time.sleep(min(0.5 * 2**attempt, 4.0))
        raise failure

    def _request_json(self, query: str, k: int) -> dict[str, Any]:
        if self.provider == "serper":
            body = json.dumps({"q": query, "num": k}).encode()
            headers = {"X-API-KEY": self._key(required=True), "Content-Type": "application/json"}
            request = Request(self.url, data=body, headers=headers, method="POST")
        else:
            key = self._key(required=False)
            headers = {"Accept": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})}
            request = Request(f"{self.url}/search?{urlencode({'q': query, 'format': 'json'})}", headers=headers)
        raw = self._open(request)
        try:
            data = json.loads(raw)
        except json.JSONDecodeError:
            raise SearchToolError(f"{self.name}: the response for {query!r} is not JSON") from None
        if not isinstance(data, dict):
            raise SearchToolError(f"{self.name}: the response for {query!r} is not a JSON object")
        return data

    def _hits(self, data: dict[str, Any], k: int) -> list[SearchHit]:
        rows = data.get("organic" if self.provider == "serper" else "results") or []
        link_key, snippet_key = ("link", "snippet") if self.provider == "serper" else ("url", "content")
        hits = []
        for row in rows:
            link = row.get(link_key)
            if not link:
                continue
            date = row.get("date") or row.get("publishedDate") or ""
            hits.append(SearchHit(doc_id=link, title=row.get("title") or link, url=link,
                                  snippet=cut_words(row.get(snippet_key) or "", self.snippet_chars),
                                  score=float(len(rows) - len(hits)), date=str(date)))
        return hits[:k]

    def describe(self) -> dict[str, Any]:
        """What changes this tool's outputs (never the key)."""
        return {"name": self.name, "provider": self.provider, "url": self.url, "snippet_chars": self.snippet_chars,
                "engine_label": self.engine_label, **({"allow_hosts": list(self.allow_hosts)} if self.allow_hosts else {})}

    def _search_one(self, query: str, k: int) -> list[SearchHit] | SearchToolError:
        try:
            return self._hits(self._request_json(query, k), k)
        except SearchConfigError:
            raise
        except SearchToolError as error:  # this query only (a 400, a non-JSON reply, retries spent)
            return error

    def search_each(self, queries: Sequence[str], k: int = 10) -> list[list[SearchHit] | SearchToolError]:
        """Per query, its hits or the error it met; a :class:`SearchConfigError` raises (no query can succeed)."""
        if not queries:
            return []
        if self.provider == "serper":
            self._key(required=True)  # before any request
        with ThreadPoolExecutor(max_workers=min(self.max_workers, len(queries))) as pool:
            return list(pool.map(lambda q: self._search_one(q, k), queries))

    def search(self, queries: Sequence[str], k: int = 10) -> list[list[SearchHit]]:
        """Hits per query; the first failed query raises its error (the agent uses :meth:`search_each`)."""
        results = self.search_each(queries, k)
        for result in results:
            if isinstance(result, SearchToolError):
                raise result
        return results  # type: ignore[return-value]  (no errors left)

    def visit(self, doc: str, goal: str = "") -> Page:
        url = doc.strip().strip("<>\"'")
        if not url.startswith(("http://", "https://")):
            return Page(doc_id=url, url=url, title="", text="", found=False)
        problem = self.refused(url)
        if problem:
            log.warning("visit refused: %s", problem)
            return Page(doc_id=url, url=url, title="", text="", found=False)
        try:
            raw = self._open(Request(url, headers={"User-Agent": "ctsbench"}), visit=True)
        except SearchToolError as error:
            log.warning("visit failed: %s", error)
            return Page(doc_id=url, url=url, title="", text="", found=False)
        title, text = html_to_text(raw.decode("utf-8", "replace"))
        return Page(doc_id=url, url=url, title=title or url, text=text, found=bool(text))
