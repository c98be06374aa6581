"""The lexical coverage judge: the share of a nugget's content words that the answer contains.

For smoke runs and a cheap bound, not for published numbers: it rewards copied wording, misses
paraphrase and cannot see a contradiction. Thresholds are fitted on the dev split of the labelled
calibration set (``benchmarks/calibrate_offline_judges.py --pairs``); its held-out agreement is in the
metric card's table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cts_dataset.judges.base import JudgeItem, Judgement
from cts_dataset.judges.text import content_tokens
from cts_dataset.scoring.labels import Label

# Calibrated: see the module docstring.
FULL_THRESHOLD = 0.91
PARTIAL_THRESHOLD = 0.43


def coverage(nugget: str, answer_tokens: set[str]) -> float | None:
    """Share of the nugget's distinct content tokens found in the answer; None if it has none."""
    wanted = set(content_tokens(nugget))
    if not wanted:
        return None
    return len(wanted & answer_tokens) / len(wanted)


def label_for(value: float | None, full: float, partial: float) -> Label | None:
    if value is None:
        return None
    return "full" if value >= full else "partial" if value >= partial else "none"


class LexicalJudge:
    """Labels by content-word coverage: >= ``full`` is full, >= ``partial`` is partial, else none.

    A nugget with no content word (only stop words) cannot be judged this way and is unscored.
    """

    def __init__(self, full: float = FULL_THRESHOLD, partial: float = PARTIAL_THRESHOLD) -> None:
        if not 0 <= partial <= full <= 1:
            raise ValueError(f"need 0 <= partial <= full <= 1, got partial={partial}, full={full}")
        self.full = full
        self.partial = partial
        self.name = "lexical"

    def identity(self) -> dict[str, Any]:
        return {"name": self.name, "kind": "lexical", "thresholds": {"full": self.full, "partial": self.partial}}

    def judge(self, items: Sequence[JudgeItem]) -> list[Judgement]:
        results = []
        for item in items:
            answer_tokens = set(content_tokens(item.answer))
            values = [coverage(nugget, answer_tokens) for nugget in item.nuggets]
            results.append(Judgement(labels=[label_for(v, self.full, self.partial) for v in values], evidence=values))
        return results
