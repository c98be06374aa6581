"""Checks of instance content beyond the schema.

Each check returns findings; ``errors`` fail validation, ``warnings`` are reported for a person to
look at. Word overlap uses the search tokenizer (stemmed, stop words removed) so that "earthquakes"
in a nugget matches "earthquake" in its document.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from cts_dataset.records import Document, Instance
from cts_dataset.text import tokenize

GROUNDING_MIN = 0.6  # share of a nugget's content words that must occur in its cited documents
NEAR_DUPLICATE_JACCARD = 0.8


@dataclass
class Findings:
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def grounding(text: str, documents: Sequence[Document]) -> tuple[float, list[str]]:
    """(share of the text's content words found in the documents, the words not found)."""
    words = list(dict.fromkeys(tokenize(text)))
    if not words:
        return 1.0, []
    available = set()
    for document in documents:
        available.update(tokenize(f"{document.title} {document.description} {document.text}"))
    missing = [w for w in words if w not in available]
    return 1 - len(missing) / len(words), missing


def check_sources(instances: Sequence[Instance], index: dict[str, Document]) -> Findings:
    found = Findings()
    for instance in instances:
        for n, nugget in enumerate(instance.nuggets):
            if not nugget.sources:
                found.errors.append(f"{instance.id}: nuggets[{n}].sources: no source document")
            for source in nugget.sources:
                if source not in index:
                    found.errors.append(f"{instance.id}: nuggets[{n}].sources: unknown document id {source!r}")
    return found


def check_blurring(instances: Sequence[Instance]) -> Findings:
    found = Findings()
    for instance in instances:
        fused, blurred = instance.fused_query.lower(), instance.blurred_query.lower()
        if fused.strip() == blurred.strip():
            found.errors.append(f"{instance.id}: blurred_query: identical to fused_query")
        for c, constraint in enumerate(instance.removed_constraints):
            value = constraint.value.lower()
            if value not in fused:
                found.errors.append(f"{instance.id}: removed_constraints[{c}].value: {constraint.value!r} not in fused_query")
            elif value in blurred:
                found.errors.append(f"{instance.id}: removed_constraints[{c}].value: {constraint.value!r} still in blurred_query")
    return found


def check_duplicates(instances: Sequence[Instance]) -> Findings:
    found = Findings()
    tokens = {i.id: set(tokenize(i.fused_query)) for i in instances}
    blurred_seen: dict[str, str] = {}
    for instance in instances:
        key = instance.blurred_query.strip().lower()
        if key in blurred_seen:
            found.warnings.append(f"{instance.id}: blurred_query: same as {blurred_seen[key]}")
        blurred_seen.setdefault(key, instance.id)
    for a, b in combinations(instances, 2):
        union = tokens[a.id] | tokens[b.id]
        if union and len(tokens[a.id] & tokens[b.id]) / len(union) >= NEAR_DUPLICATE_JACCARD:
            found.errors.append(f"{b.id}: fused_query: near-duplicate of {a.id}")
    return found


def nugget_grounding(instances: Sequence[Instance], index: dict[str, Document]) -> list[tuple[float, str, int, list[str]]]:
    """(score, instance id, nugget index, missing words) for every nugget, weakest first."""
    rows = []
    for instance in instances:
        for n, nugget in enumerate(instance.nuggets):
            documents = [index[s] for s in nugget.sources if s in index]
            score, missing = grounding(nugget.text, documents)
            rows.append((score, instance.id, n, missing))
    return sorted(rows)
