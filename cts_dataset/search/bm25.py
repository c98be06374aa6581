"""A BM25 index (bm25s) over the corpus, built once and persisted in the cache folder.

The index folder is named by the corpus checksum and the tokenizer version, so it is rebuilt exactly
when either changes and reused otherwise (loaded memory-mapped in milliseconds).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from cts_dataset.records import Document
from cts_dataset.text import TOKENIZER_VERSION, tokenize, tokenize_many

INDEX_FORMAT = 1


def documents_fingerprint(documents: Sequence[Document]) -> str:
    """A hash of every field that is indexed or shown (id, title, description, text): it names the index
    and the tool, so a change to any of them rebuilds the index and renames the tool."""
    digest = hashlib.sha256()
    for d in documents:  # a JSON array per document: unambiguous field boundaries
        digest.update(json.dumps([d.id, d.title, d.description, d.text], ensure_ascii=False).encode() + b"\n")
    return digest.hexdigest()[:16]


def index_text(document: Document) -> str:
    """What is indexed for a document: its title, short description and text."""
    return f"{document.title}\n{document.description}\n{document.text}"


class BM25Index:
    """Top-k BM25 search over a fixed list of documents."""

    def __init__(self, retriever, documents: Sequence[Document], fingerprint: str, built: bool) -> None:
        self._retriever = retriever
        self.documents = tuple(documents)
        self.fingerprint = fingerprint
        self.built = built  # True when this process built the index, False when it was loaded

    @classmethod
    def build(cls, documents: Sequence[Document]) -> BM25Index:
        import bm25s

        retriever = bm25s.BM25()
        retriever.index(tokenize_many([index_text(d) for d in documents]), show_progress=False)
        return cls(retriever, documents, documents_fingerprint(documents), built=True)

    @classmethod
    def open(cls, documents: Sequence[Document], cache_root: Path | None = None) -> BM25Index:
        """Load the persisted index for these documents, building and saving it first if needed."""
        import bm25s

        from cts_dataset.paths import cache_dir

        fingerprint = documents_fingerprint(documents)
        root = cache_root or cache_dir("bm25")
        folder = root / f"{fingerprint}-{TOKENIZER_VERSION}-f{INDEX_FORMAT}"
        if (folder / "ctsbench.json").exists():
            retriever = bm25s.BM25.load(str(folder), mmap=True, show_progress=False)
            return cls(retriever, documents, fingerprint, built=False)
        index = cls.build(documents)
        root.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(dir=root, prefix=".building-"))
        try:  # build aside, then rename: a reader never sees half an index
            index._retriever.save(str(staging), show_progress=False)
            (staging / "ctsbench.json").write_text(json.dumps({"documents": len(documents), "tokenizer": TOKENIZER_VERSION}))
            staging.rename(folder)
        except OSError:
            if not (folder / "ctsbench.json").exists():
                raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        return index

    def search(self, queries: Sequence[str], k: int = 10) -> list[list[tuple[Document, float]]]:
        """For each query, up to k (document, score) pairs with a positive score, best first."""
        k = min(k, len(self.documents))
        token_lists = [tokenize(q) or ["\0"] for q in queries]
        ids, scores = self._retriever.retrieve(token_lists, k=k, show_progress=False, n_threads=1)
        results = []
        for row_ids, row_scores in zip(ids, scores, strict=True):
            results.append([(self.documents[int(i)], float(s)) for i, s in zip(row_ids, row_scores, strict=True) if s > 0])
        return results


@cache
def corpus_bm25() -> BM25Index:
    """The shared BM25 index of the shipped corpus."""
    from cts_dataset.corpus import load_corpus

    return BM25Index.open(load_corpus())
