"""Retrieval headroom: how much better BM25 finds the gold documents from the fused query than the blurred one.

A split where the blurred query already retrieves the gold documents cannot show what clarification
adds, so the validator reports recall@k of the cited documents for both queries.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cts_dataset.records import Instance


@dataclass(frozen=True)
class Headroom:
    instance_id: str
    fused_recall: float
    blurred_recall: float

    @property
    def gap(self) -> float:
        return self.fused_recall - self.blurred_recall

    @property
    def has_room(self) -> bool:
        """The fused query finds more cited documents than the blurred one: clarification can help retrieval."""
        return self.gap > 0


def gold_documents(instance: Instance) -> set[str]:
    return {source for nugget in instance.nuggets for source in nugget.sources}


def headroom(instances: Sequence[Instance], k: int = 10, index=None) -> list[Headroom]:
    """Recall@k of each instance's cited documents, fused query vs blurred query."""
    from cts_dataset.search.bm25 import corpus_bm25

    index = index or corpus_bm25()
    fused = index.search([i.fused_query for i in instances], k)
    blurred = index.search([i.blurred_query for i in instances], k)
    rows = []
    for instance, f_hits, b_hits in zip(instances, fused, blurred, strict=True):
        gold = gold_documents(instance)
        if not gold:  # reported by check_sources; nothing to recall here
            continue
        f_ids = {d.id for d, _ in f_hits}
        b_ids = {d.id for d, _ in b_hits}
        rows.append(Headroom(instance.id, len(gold & f_ids) / len(gold), len(gold & b_ids) / len(gold)))
    return rows


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else float("nan")
