"""The local search tool: BM25 over a document corpus, offline and reproducible.

Hits link to the document's public page (``doc_url``), which also carries the stable doc id;
``visit`` accepts that link or the bare id. The index comes from :class:`BM25Index.open`, so it is
built once per corpus content and tokenizer and reused from the cache folder otherwise.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from cts_dataset.corpus import doc_url
from cts_dataset.records import Document
from cts_dataset.search.bm25 import INDEX_FORMAT, BM25Index
from cts_dataset.search.tool import Page, SearchHit, cut_words
from cts_dataset.text import TOKENIZER_VERSION

_URL_PREFIX = doc_url("")


class CorpusSearchTool:
    """BM25 search and visit over a fixed list of documents (the shipped corpus by default)."""

    engine_label = "local corpus"

    def __init__(self, documents: Sequence[Document] | None = None, cache_root: Path | None = None,
                 snippet_chars: int = 300) -> None:
        if documents is None:
            from cts_dataset.corpus import load_corpus

            documents = load_corpus()
        self.index = BM25Index.open(documents, cache_root)
        self.snippet_chars = snippet_chars
        self._by_id = {d.id: d for d in self.index.documents}
        self._by_folded_id = {d.id.casefold(): d for d in self.index.documents}
        self.name = f"corpus:{self.index.fingerprint}"

    @classmethod
    def from_file(cls, path: str | os.PathLike, cache_root: Path | None = None, **kwargs) -> CorpusSearchTool:
        """A tool over a JSONL file of document records (checked against the document schema)."""
        from cts_dataset.jsonl import read_records

        return cls(read_records(path, "document"), cache_root, **kwargs)

    def describe(self) -> dict[str, Any]:
        """What changes this tool's outputs: the documents, the tokenizer and index format, the snippet size."""
        return {"name": self.name, "fingerprint": self.index.fingerprint, "documents": len(self.index.documents),
                "tokenizer": TOKENIZER_VERSION, "index_format": INDEX_FORMAT, "snippet_chars": self.snippet_chars,
                "engine_label": self.engine_label}

    def hit(self, document: Document, score: float) -> SearchHit:
        return SearchHit(doc_id=document.id, title=document.title, url=doc_url(document.id),
                         snippet=cut_words(document.text, self.snippet_chars), score=score)

    def search(self, queries: Sequence[str], k: int = 10) -> list[list[SearchHit]]:
        if not queries:
            return []
        return [[self.hit(d, s) for d, s in row] for row in self.index.search(list(queries), k)]

    def resolve(self, doc: str) -> Document | None:
        """The document a link, a bare id or a title names (models write any of the three)."""
        key = unquote(doc.strip().strip("<>\"'"))
        if key.startswith("[") and "](" in key:  # a whole markdown link
            key = key.split("](", 1)[1].rstrip(")")
        for prefix in (_URL_PREFIX, _URL_PREFIX.replace("https://", "http://")):
            key = key.removeprefix(prefix)
        key = key.split("#", 1)[0].replace(" ", "_")
        return self._by_id.get(key) or self._by_folded_id.get(key.casefold())

    def visit(self, doc: str, goal: str = "") -> Page:
        document = self.resolve(doc)
        if document is None:
            return Page(doc_id="", url=doc, title="", text="", found=False)
        text = f"{document.description.rstrip('.')}.\n\n{document.text}" if document.description else document.text
        return Page(doc_id=document.id, url=doc_url(document.id), title=document.title, text=text)
