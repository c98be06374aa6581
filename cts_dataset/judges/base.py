"""What every coverage judge takes and returns.

A judge is batch-first like the chat models: ``judge(items)`` labels the nuggets of many answers at
once, so an LLM judge can send one model batch per round instead of one call per item.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, runtime_checkable

from cts_dataset.scoring.labels import Label


@dataclass(frozen=True)
class JudgeItem:
    """One answer and the nugget texts to check it for; ``query`` is optional context."""

    answer: str
    nuggets: tuple[str, ...]
    query: str = ""
    id: str = ""


@dataclass(frozen=True)
class JudgeCall:
    """One model call of an LLM judge (every attempt, parsed or not): the one record schema of every
    ``judge_calls.jsonl``. ``error`` is the parse problem or, with ``failed``, the model failure."""

    judge: str
    item_id: str
    chunk: int
    attempt: int
    prompt_id: str
    prompt_hash: str
    model: str
    messages: list[dict[str, str]]
    temperature: float
    seed: int | None
    raw_output: str
    reasoning: str
    parsed: bool
    failed: bool
    error: str
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    input_key: str = ""  # set by scoring.judging: what the item's inputs hash to

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Judgement:
    """Labels for one item, in nugget order; None = unscored (the judge could not say)."""

    labels: list[Label | None]
    raw: list[str] = field(default_factory=list)  # raw judge outputs, kept for audit
    evidence: list[float | None] = field(default_factory=list)  # offline judges: the coverage/similarity
    calls: list[JudgeCall] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # model failures of the chunks left unscored

    def as_dict(self) -> dict[str, Any]:
        return {"labels": self.labels, "raw": self.raw, "evidence": self.evidence, "errors": self.errors,
                "calls": [c.as_dict() for c in self.calls]}


@runtime_checkable
class CoverageJudge(Protocol):
    """Labels each nugget of each item full / partial / none (or None when it cannot)."""

    name: str

    def judge(self, items: Sequence[JudgeItem]) -> list[Judgement]:
        """One judgement per item, in order, each with one label per nugget."""
        ...
