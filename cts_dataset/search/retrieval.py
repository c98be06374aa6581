"""The non-LLM baseline searcher: search the query once and answer with the top passages.

No model, so it is fast and fully deterministic: the same query and corpus give the same answer
byte for byte. It shows how much of the gold a plain retriever reaches from a (rewritten) query.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from cts_dataset.search.records import SearchOutput, Termination, ToolCounts, TraceEvent
from cts_dataset.search.tool import SearchHit, SearchTool, describe_tool, format_search_response


class RetrievalSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    k: int = Field(10, ge=1, description="Documents retrieved (all are listed in retrieved_doc_ids).")
    passages: int = Field(5, ge=1, description="Top documents whose text forms the answer.")
    max_answer_words: int = Field(600, ge=1, description="The answer is cut to this many words.")
    passages_from: Literal["visit", "snippet"] = Field(
        "visit", description="Passage text: the visited document, or the search snippet only.")


class RetrievalSearcher:
    """``search(queries) -> [SearchOutput]`` without a language model."""

    name = "retrieval"

    def __init__(self, tool: SearchTool, settings: RetrievalSettings | None = None) -> None:
        self.tool = tool
        self.settings = settings or RetrievalSettings()

    def describe(self) -> dict[str, Any]:
        """Everything that changes this searcher's outputs (a run and its resumption must agree on it)."""
        return {"kind": self.name, "tool": self.tool.name, "tool_config": describe_tool(self.tool),
                "settings": self.settings.model_dump()}

    def _passage(self, hit: SearchHit) -> str:
        if self.settings.passages_from == "visit":
            page = self.tool.visit(hit.url)
            if page.found:
                return " ".join(page.text.split())
        return hit.snippet

    def answer(self, hits: Sequence[SearchHit]) -> str:
        """The top passages, numbered with their title and link, cut to the word cap."""
        budget = self.settings.max_answer_words
        parts = []
        for rank, hit in enumerate(hits[: self.settings.passages], start=1):
            if budget <= 0:
                break
            words = self._passage(hit).split()
            kept = words[:budget]
            budget -= len(kept)
            parts.append(f"[{rank}] {hit.title} ({hit.url})\n" + " ".join(kept) + (" ..." if len(kept) < len(words) else ""))
        return "\n\n".join(parts)

    def search(self, queries: Sequence[str], tags: Sequence[str] | None = None,
               languages: Sequence[str] | None = None) -> list[SearchOutput]:
        """One output per query; ``languages`` is accepted for the Searcher protocol (no prompt to choose)."""
        tags = list(tags) if tags is not None else [""] * len(queries)
        if len(tags) != len(queries):
            raise ValueError("give one tag per query")
        results = self.tool.search(list(queries), self.settings.k)
        outputs = []
        for query, tag, hits in zip(queries, tags, results, strict=True):
            doc_ids = list(dict.fromkeys(h.doc_id for h in hits))
            listing = format_search_response([query], [hits], self.tool.engine_label)
            trace = [TraceEvent(kind="query", role="user", content=query),
                     TraceEvent(kind="tool_response", role="user", tool="search", arguments={"query": [query]},
                                content=f"<tool_response>\n{listing}\n</tool_response>", doc_ids=doc_ids)]
            outputs.append(SearchOutput(
                query=query, answer=self.answer(hits), searcher=self.name, tool=self.tool.name,
                termination=Termination.answer if hits else Termination.answer_not_found,
                retrieved_doc_ids=doc_ids, tool_calls=ToolCounts(search=1),
                settings=self.settings.model_dump(), trace=trace, tag=tag))
        return outputs
