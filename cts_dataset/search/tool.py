"""The search-tool protocol and WebDancer's output shapes.

A tool answers ``search(queries, k)`` with ranked hits per query and ``visit(doc, goal)`` with a page.
The agent shows hits exactly as WebDancer's `search` tool does (a numbered markdown list of
``[title](link)`` and a snippet, one block per query, blocks joined by ``=======``), so a checkpoint
trained on that format reads ours unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from cts_dataset.errors import CtsbenchError

QUERY_SEPARATOR = "\n=======\n"


class SearchToolError(CtsbenchError, RuntimeError):
    """The provider refused or failed one request; the message never contains an API key."""


class TransientSearchError(SearchToolError):
    """A failure worth retrying later (timeout, 429, 5xx)."""


class SearchConfigError(SearchToolError):
    """A failure every request would meet (no key, a rejected key): the run stops instead of going on."""


@dataclass(frozen=True)
class SearchHit:
    """One ranked result. ``doc_id`` is stable (corpus id, or the URL for the web)."""

    doc_id: str
    title: str
    url: str
    snippet: str
    score: float = 0.0
    date: str = ""


@dataclass(frozen=True)
class Page:
    """A visited document; ``found`` is False when the link resolves to nothing."""

    doc_id: str
    url: str
    title: str
    text: str
    found: bool = True


@runtime_checkable
class SearchTool(Protocol):
    """What a searcher searches with. ``name`` identifies the tool and its data in every output."""

    name: str
    engine_label: str  # the word in "A {engine_label} search for ..."

    def search(self, queries: Sequence[str], k: int = 10) -> list[list[SearchHit]]:
        """Up to k hits per query, best first, in query order."""
        ...

    def visit(self, doc: str, goal: str = "") -> Page:
        """The document behind a link or doc id (the goal lets a tool focus; the corpus ignores it)."""
        ...


def describe_tool(tool: SearchTool) -> dict[str, Any]:
    """What about a tool changes search outputs (its own ``describe()`` when it has one)."""
    describe = getattr(tool, "describe", None)
    return describe() if callable(describe) else {"name": tool.name, "engine_label": tool.engine_label}


def search_each(tool: SearchTool, queries: Sequence[str], k: int) -> list[list[SearchHit] | SearchToolError]:
    """Per query, its hits or the error it met, so one refused query does not end the others' runs.

    Uses the tool's own ``search_each`` when it has one; otherwise a failed batch gives every query its
    error. A :class:`SearchConfigError` still raises: no query could succeed.
    """
    each = getattr(tool, "search_each", None)
    if callable(each):
        return each(queries, k)
    try:
        return list(tool.search(queries, k))
    except SearchConfigError:
        raise
    except SearchToolError as error:
        return [error] * len(queries)


def format_hits(query: str, hits: Sequence[SearchHit], engine_label: str) -> str:
    """One query's results in WebDancer's markdown shape."""
    if not hits:
        return f"No results found for '{query}'. Try with a more general query."
    blocks = []
    for rank, hit in enumerate(hits, start=1):
        date = f"\nDate published: {hit.date}" if hit.date else ""
        blocks.append(f"{rank}. [{hit.title}]({hit.url}){date}\n\n{hit.snippet}")
    header = f"A {engine_label} search for '{query}' found {len(hits)} results:\n\n## Web Results\n"
    return header + "\n\n".join(blocks)


def format_search_failure(query: str, error: SearchToolError) -> str:
    """What the agent reads for a query the provider failed on (it may retry or rephrase)."""
    advice = "Try again later." if isinstance(error, TransientSearchError) else "Try a different query."
    return f"[search] failed for '{query}': {error}. {advice}"


def format_search_response(queries: Sequence[str], results: Sequence[Sequence[SearchHit] | SearchToolError],
                           engine_label: str) -> str:
    """Several queries' results (or failures), joined as WebDancer joins them."""
    return QUERY_SEPARATOR.join(
        format_search_failure(q, hits) if isinstance(hits, SearchToolError) else format_hits(q, hits, engine_label)
        for q, hits in zip(queries, results, strict=True))


def format_page(page: Page, goal: str, max_chars: int) -> str:
    """A visited page as the agent sees it without a summary model: its text, capped."""
    if not page.found:
        return f"[visit] Failed to read page: {page.url or page.doc_id} could not be found or read."
    text = page.text if len(page.text) <= max_chars else page.text[:max_chars].rsplit(" ", 1)[0] + " ..."
    return f"The content of {page.url} ({page.title}) for user goal {goal}:\n\n{text}"


def cut_words(text: str, max_chars: int) -> str:
    """The text cut at a word boundary to at most about max_chars characters (snippets)."""
    text = " ".join(text.split())
    if len(text) <= max_chars:
        return text
    return text[:max_chars].rsplit(" ", 1)[0] + " ..."
