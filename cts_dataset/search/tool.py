"""The search-tool protocol and WebDancer's output shapes.

A tool answers ``search(queries, k)`` with ranked hits per query and ``visit(doc, goal)`` with a page.
The agent shows hits exactly as WebDancer's `search` tool does (a numbered markdown list of
``[title](link)`` and a snippet, one block per query, blocks joined by ``=======``), so a checkpoint
trained on that format reads ours unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

QUERY_SEPARATOR = "\n=======\n"


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


def format_search_response(queries: Sequence[str], results: Sequence[Sequence[SearchHit]], engine_label: str) -> str:
    """Several queries' results, joined as WebDancer joins them."""
    return QUERY_SEPARATOR.join(format_hits(q, hits, engine_label) for q, hits in zip(queries, results))


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
