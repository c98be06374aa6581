"""Trivial judges that give every nugget one label: the floor a real judge must beat on calibration pairs.

``constant:full`` shows what accuracy the label mix alone gives; its kappa is 0 (or undefined) by design.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cts_dataset.judges.base import JudgeItem, Judgement
from cts_dataset.scoring.labels import LABELS, Label

CONSTANT_PREFIX = "constant:"
CONSTANT_JUDGES: tuple[str, ...] = tuple(f"{CONSTANT_PREFIX}{label}" for label in LABELS)


class ConstantJudge:
    """Labels every nugget ``label``, whatever the answer says."""

    def __init__(self, label: str) -> None:
        if label not in LABELS:
            raise ValueError(f"unknown constant judge {CONSTANT_PREFIX}{label!s}: use one of {', '.join(CONSTANT_JUDGES)}")
        self.label: Label = label  # type: ignore[assignment]
        self.name = f"{CONSTANT_PREFIX}{label}"

    def identity(self) -> dict[str, Any]:
        return {"name": self.name, "kind": "constant", "label": self.label}

    def judge(self, items: Sequence[JudgeItem]) -> list[Judgement]:
        return [Judgement(labels=[self.label] * len(item.nuggets)) for item in items]
